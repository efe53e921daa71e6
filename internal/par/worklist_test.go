package par

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWorklist: a run processes every vertex released exactly once,
// whatever the workers, sharing chunks when a worker's queue is long (a
// binary tree released from its root, and a forest from many first
// vertices), and counts them.
func TestWorklist(t *testing.T) {
	const n = 1 << 17
	for _, workers := range []int{1, 2, 4, 7} {
		for _, first := range [][]uint32{{0}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}} {
			seen := make([]atomic.Int32, n)
			p := NewWorklist(workers, first)
			err := p.Run(context.Background(), func(_ int, v uint32, q []uint32) []uint32 {
				seen[v].Add(1)
				for _, c := range []uint32{2*v + 1, 2*v + 2} {
					if c < n && c >= uint32(len(first)) {
						q = append(q, c)
					}
				}
				return q
			})
			require.NoError(t, err)
			require.Equal(t, uint64(n), p.Items(), "workers %d", workers)
			for v := range seen {
				require.Equal(t, int32(1), seen[v].Load(), "workers %d vertex %d", workers, v)
			}
			if workers > 1 && len(first) == 1 {
				require.Positive(t, p.Shared(), "workers %d: a tree's queue is shared", workers)
			}
		}
	}
	p := NewWorklist(3, nil) // nothing to do
	require.NoError(t, p.Run(context.Background(), func(int, uint32, []uint32) []uint32 { panic("visited") }))
	require.Zero(t, p.Items())
}

// TestWorklistCancel: a run checks its context while it runs: a chain of
// releases far longer than worklistCheckEvery ends with the context's
// error before its end.
func TestWorklistCancel(t *testing.T) {
	const n = 50 * worklistCheckEvery
	for _, workers := range []int{1, 3} {
		ctx, cancel := context.WithCancel(context.Background())
		var visited atomic.Int64
		err := NewWorklist(workers, []uint32{0}).Run(ctx, func(_ int, v uint32, q []uint32) []uint32 {
			if visited.Add(1) == 2*worklistCheckEvery {
				cancel()
			}
			if v+1 < n {
				q = append(q, v+1)
			}
			return q
		})
		require.ErrorIs(t, err, context.Canceled, "workers %d", workers)
		require.Less(t, visited.Load(), int64(n), "workers %d", workers)
		cancel()
	}
}
