package apps

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/require"
)

// TestBCAsync: BC in mode async on the CPU gives the reference's scores on
// every test shape, directed ones included, from one and from several
// sources, with 1, 2 and 5 workers; the scores do not depend on the
// workers or on the run (the pulls add in row order), a second call on the
// same backend (its scratch reused) gives them again, and where BC runs
// by levels (an undirected low-degree graph, mode hybrid) the async scores
// are the levels' to the bit.
func TestBCAsync(t *testing.T) {
	ctx := context.Background()
	async := engine.RunOptions{Mode: engine.Async}
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		t.Run(s.Name, func(t *testing.T) {
			l, err := preprocess.Build(ctx, s.EL, testgraphs.SmallParams(), preprocess.Options{Workers: 2})
			require.NoError(t, err)
			lb := l
			if s.EL.Directed {
				tr := s.EL.Clone()
				tr.Transpose()
				lb, err = preprocess.Build(ctx, tr, testgraphs.SmallParams(), preprocess.Options{Workers: 2})
				require.NoError(t, err)
			}
			g := OriginalCSR(l, 2)
			n := uint32(l.NumVertices)
			sourceSets := [][]uint32{nil}
			if n > 0 {
				sourceSets = append(sourceSets, []uint32{0}, []uint32{n - 1, n / 2, 0, n / 3})
			}
			for _, sources := range sourceSets {
				var first []float64
				for _, workers := range []int{1, 2, 5} {
					tag := fmt.Sprintf("sources %v workers %d", sources, workers)
					fwd, err := cpu.New(l, workers)
					require.NoError(t, err)
					bwd := fwd
					if s.EL.Directed {
						bwd, err = cpu.New(lb, workers)
						require.NoError(t, err)
					}
					got, res, err := BC(ctx, fwd, bwd, sources, async)
					require.NoError(t, err, tag)
					require.Len(t, got, int(n), tag)
					require.Equal(t, len(sources), res.Iterations, tag)
					require.NoError(t, ValidateBC(g, sources, got), tag)
					got = slices.Clone(got)
					again, _, err := BC(ctx, fwd, bwd, sources, async)
					require.NoError(t, err, tag)
					require.Equal(t, got, again, tag)
					if first == nil {
						first = got
					}
					require.Equal(t, first, got, tag)
					if bcLevelsApply(fwd, bwd, engine.RunOptions{Mode: engine.Hybrid}) {
						levels, _, err := BC(ctx, fwd, bwd, sources, engine.RunOptions{Mode: engine.Hybrid})
						require.NoError(t, err, tag)
						require.Equal(t, got, levels, tag)
					}
				}
			}
		})
	}
}

// TestBCAsyncErrors: mode async refuses an iteration cap, a source out of
// range, and a cancelled context (the run's error).
func TestBCAsyncErrors(t *testing.T) {
	grid := testgraphs.Generated(t, "grid:30:0.1", 2)
	grid.Symmetrize(2)
	_, b := cpuBackend(t, grid)
	async := engine.RunOptions{Mode: engine.Async}
	_, _, err := BC(context.Background(), b, b, []uint32{0}, engine.RunOptions{Mode: engine.Async, MaxIterations: 3})
	require.ErrorContains(t, err, "no iterations to cap")
	_, _, err = BC(context.Background(), b, b, []uint32{0, 900}, async)
	require.ErrorContains(t, err, "source 900 is not a vertex")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err = BC(ctx, b, b, []uint32{0}, async)
	require.ErrorIs(t, err, context.Canceled)
}
