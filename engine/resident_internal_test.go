package engine

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestComponentMinima checks the cached minima against a plain loop, with
// labels that collide in the cache, a dominant label and chunks cut
// anywhere.
func TestComponentMinima(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 5000
	label, id := make([]uint32, n), make([]uint32, n)
	for i := range label {
		switch rng.IntN(3) {
		case 0:
			label[i] = 7 // a large component
		case 1:
			label[i] = uint32(rng.IntN(4)) * minCacheSize // same cache entry
		default:
			label[i] = uint32(rng.IntN(n))
		}
		id[i] = rng.Uint32N(1 << 30)
	}
	want := make([]uint32, n)
	for i := range want {
		want[i] = math.MaxUint32
	}
	for i, c := range label {
		want[c] = min(want[c], id[i])
	}
	got := make([]uint32, n)
	for i := range got {
		got[i] = math.MaxUint32
	}
	for lo := 0; lo < n; {
		hi := min(n, lo+1+rng.IntN(700))
		componentMinima(got, label[lo:hi], id[lo:hi])
		lo = hi
	}
	require.Equal(t, want, got)
}
