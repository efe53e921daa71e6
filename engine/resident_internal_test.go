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

// TestComponentsToOriginalInto: with dirty work and result slices, the
// mapping names every vertex's component by its smallest original id, as
// the allocating one does, and returns the given result slice.
func TestComponentsToOriginalInto(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 70_000
	l := &layout.Layout{Perm: make([]uint32, n), InvPerm: make([]uint32, n)}
	for i, v := range rng.Perm(n) {
		l.Perm[i] = uint32(v)
		l.InvPerm[v] = uint32(i)
	}
	label := make([]uint32, n) // a few components, one large
	for v := range label {
		if rng.IntN(4) == 0 {
			label[v] = uint32(rng.IntN(50))
		} else {
			label[v] = 3
		}
	}
	smallest := make(map[uint32]uint32)
	for v, c := range label {
		if m, ok := smallest[c]; !ok || l.InvPerm[v] < m {
			smallest[c] = l.InvPerm[v]
		}
	}
	want := make([]uint32, n)
	for old := range want {
		want[old] = smallest[label[l.Perm[old]]]
	}
	require.Equal(t, want, ComponentsToOriginal(l, label, 3))
	work, out := make([]uint32, n), make([]uint32, n)
	for i := range out {
		work[i], out[i] = 7, 12345
	}
	got := ComponentsToOriginalInto(l, label, work, out, 3)
	require.Equal(t, want, got)
	require.Same(t, &out[0], &got[0])
}

// TestScratch: Take returns what Put kept under that name, once; a nil
// Scratch keeps nothing; Sized keeps a slice of the right length only.
func TestScratch(t *testing.T) {
	var s Scratch
	require.Nil(t, s.Take("a"))
	buf := []int{1, 2, 3}
	s.Put("a", buf)
	s.Put("b", "other")
	got, ok := s.Take("a").([]int)
	require.True(t, ok)
	require.Same(t, &buf[0], &got[0])
	require.Nil(t, s.Take("a"), "taken once")
	require.Equal(t, "other", s.Take("b"))
	var none *Scratch
	none.Put("a", buf)
	require.Nil(t, none.Take("a"))
	require.Nil(t, ScratchOf(nil))
	require.Same(t, &buf[0], &Sized(buf, 3)[0])
	require.Len(t, Sized(buf, 4), 4)
	require.NotNil(t, Sized[uint32](nil, 0)) // an empty graph's result is empty, not nil
	require.Empty(t, Sized[uint32](nil, 0))
	require.Len(t, Sized[int](nil, 0), 0)
}
