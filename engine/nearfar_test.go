package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMaxOutDegree: the largest degree of random offsets, on one and
// several workers, and 0 without vertices.
func TestMaxOutDegree(t *testing.T) {
	require.Zero(t, MaxOutDegree(nil, 2))
	require.Zero(t, MaxOutDegree([]uint64{0}, 2))
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 7, 10000} {
		off := make([]uint64, n+1)
		var want uint64
		for v := range n {
			d := uint64(rng.IntN(100))
			off[v+1] = off[v] + d
			want = max(want, d)
		}
		for _, workers := range []int{1, 3} {
			require.Equal(t, want, MaxOutDegree(off, workers), "n %d, %d workers", n, workers)
		}
	}
}

// TestSplitNearFar: the vertices below the split stay, in order, with
// their bits cleared; the others are appended to far once (their bits
// set), those piled already not again.
func TestSplitNearFar(t *testing.T) {
	values := []uint32{5, 10, 15, 20, 25, 30}
	piled := []uint32{1<<1 | 1<<4} // 1 and 4 piled already
	next := []uint32{5, 0, 1, 3, 4}
	near, far := SplitNearFar(values, slices.Clone(next), 20, piled, []uint32{9})
	require.Equal(t, []uint32{0, 1}, near)
	require.Equal(t, []uint32{9, 5, 3}, far)
	require.Equal(t, uint32(1<<3|1<<4|1<<5), piled[0])
	near, far = SplitNearFar(values, slices.Clone(next), 1000, piled, nil)
	require.Equal(t, next, near)
	require.Empty(t, far)
	require.Zero(t, piled[0])
}
