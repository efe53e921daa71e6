package engine

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mgraph-dev/mgraph/layout"
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

// TestToOriginalInto: the mapping into a given (dirty) slice equals the
// allocating one and returns that slice.
func TestToOriginalInto(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 100_000
	l := &layout.Layout{Perm: make([]uint32, n)}
	for i, v := range rng.Perm(n) {
		l.Perm[i] = uint32(v)
	}
	values := make([]uint32, n)
	for i := range values {
		values[i] = rng.Uint32()
	}
	want := make([]uint32, n)
	for old := range want {
		want[old] = values[l.Perm[old]]
	}
	require.Equal(t, want, ToOriginal(l, values, 3))
	out := make([]uint32, n)
	for i := range out {
		out[i] = 12345
	}
	got := ToOriginalInto(l, values, out, 3)
	require.Equal(t, want, got)
	require.Same(t, &out[0], &got[0])
}
