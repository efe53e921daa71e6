package par

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplitCoversRangeExactly(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 100, 1001} {
		for _, parts := range []int{0, 1, 2, 3, 8, 2000} {
			chunks := Split(n, parts)
			next := 0
			for i, c := range chunks {
				assert.Equal(t, i, c.Index)
				assert.Equal(t, next, c.Lo)
				assert.Greater(t, c.Hi, c.Lo)
				next = c.Hi
			}
			assert.Equal(t, n, next, "n=%d parts=%d", n, parts)
		}
	}
}

func TestForAndDynamicVisitEveryIndexOnce(t *testing.T) {
	const n = 10007
	seen := make([]int32, n)
	For(n, 4, 10, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			atomic.AddInt32(&seen[i], 1)
		}
	})
	Dynamic(n, 3, 17, func(i int) { atomic.AddInt32(&seen[i], 1) })
	for i, s := range seen {
		require.Equal(t, int32(2), s, "index %d", i)
	}
}

func TestExclusiveScan(t *testing.T) {
	c := []uint64{3, 0, 2, 5}
	assert.Equal(t, uint64(10), ExclusiveScan(c))
	assert.Equal(t, []uint64{0, 3, 3, 5}, c)
}

func TestEachVisitsEveryIndexOnceWithValidWorkers(t *testing.T) {
	for _, workers := range []int{1, 2, 5} {
		const n = 1000
		seen := make([]int32, n)
		var bad atomic.Int32
		Each(n, workers, func(w, i int) {
			if w < 0 || w >= workers {
				bad.Add(1)
			}
			atomic.AddInt32(&seen[i], 1)
		})
		require.Zero(t, bad.Load())
		for i, s := range seen {
			require.Equal(t, int32(1), s, "index %d", i)
		}
	}
	Each(0, 3, func(int, int) { t.Fatal("called for n = 0") })
}

func TestFindStartAndClaim(t *testing.T) {
	pre := []uint64{0, 3, 3, 7, 10} // rows of 3, 0, 4 and 3 items
	for a, want := range []int{0, 0, 0, 2, 2, 2, 2, 3, 3, 3} {
		require.Equal(t, want, FindStart(pre, uint64(a)), "item %d", a)
	}
	bits := make([]uint32, 2)
	require.True(t, Claim(bits, 37))
	require.False(t, Claim(bits, 37))
	require.True(t, Claim(bits, 5))
	require.Equal(t, []uint32{1 << 5, 1 << 5}, bits)
}

// TestCopy: every element arrives, whatever the workers and the grain.
func TestCopy(t *testing.T) {
	src := make([]uint32, 100_003)
	for i := range src {
		src[i] = uint32(i * 7)
	}
	for _, w := range []int{1, 3, 8} {
		for _, grain := range []int{0, 1, 1 << 10, 1 << 20} {
			dst := make([]uint32, len(src))
			Copy(dst, src, w, grain)
			for i := range src {
				if dst[i] != src[i] {
					t.Fatalf("workers %d, grain %d: dst[%d] = %d, want %d", w, grain, i, dst[i], src[i])
				}
			}
		}
	}
}

// TestSplitRows: the boundaries run from 0 to n, never decrease, and cut
// at the first row reaching each share of the arcs (a huge first row
// takes the first share and more; a huge last row leaves a range empty).
func TestSplitRows(t *testing.T) {
	off := []uint64{0, 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 2000}
	require.Equal(t, []int{0, 1, 10}, SplitRows(off, 2))
	require.Equal(t, []int{0, 1, 10, 10}, SplitRows(off, 3))
	require.Equal(t, []int{0, 2}, SplitRows([]uint64{0, 0, 0}, 1))
}
