package partition_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/stretchr/testify/require"
)

// TestRunPageRankDeltaMatchesReference runs pr-delta with 1–4 and 8 parts
// and every partitioner on every test shape, directed and symmetrized:
// the ranks are within the tolerance of the converged ones, and equal to
// one backend's pr-delta (the same synchronous pushes, summed in another
// order) within 1e-12 a vertex, in as many supersteps as its iterations.
func TestRunPageRankDeltaMatchesReference(t *testing.T) {
	ctx := context.Background()
	counts := partCounts
	if testing.Short() {
		counts = []int{1, 3}
	}
	opts := apps.DefaultPageRankOptions()
	opts.MaxIterations = 0
	ro := partition.RankOptions{Damping: opts.Damping, Tolerance: opts.Tolerance}
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		sym := s.EL.Clone()
		sym.Symmetrize(2)
		for _, el := range []*graph.EdgeList{s.EL, sym} {
			g := graph.ToCSR(el, 2)
			_, whole := split(t, el, partition.Options{Method: partition.Static, Parts: 1})
			want, res, err := apps.PageRankDelta(ctx, whole[0], opts, engine.RunOptions{})
			require.NoError(t, err)
			for _, m := range partition.Methods {
				for _, parts := range counts {
					tag := fmt.Sprintf("%s/directed=%v/%s/%d parts", s.Name, el.Directed, m, parts)
					ps, bs := split(t, el, partition.Options{Method: m, Parts: parts, Seed: 7, Bias: 0.8})
					ranks, steps, st, err := partition.RunPageRankDelta(ctx, ps, bs, ro, engine.RunOptions{}, nil, false)
					require.NoError(t, err, tag)
					require.NoError(t, apps.ValidatePageRankDelta(g, opts, ranks), tag)
					require.InDeltaSlice(t, want, ranks, 1e-12, tag)
					if el.NumVertices > 0 {
						require.Equal(t, res.Iterations, steps, tag)
					}
					require.True(t, st.Converged, tag)
					require.Equal(t, steps, st.Supersteps, tag)
					if parts == 1 {
						require.Zero(t, st.Messages, tag)
					}
				}
			}
		}
	}
}

// TestRunPageRankDeltaOptions: the cap stops the run unconverged, bad
// options are refused, and a cancelled context ends it with its error.
func TestRunPageRankDeltaOptions(t *testing.T) {
	ctx := context.Background()
	el := testgraphs.Shapes(t, testgraphs.Small)[0].EL
	ps, bs := split(t, el, partition.Options{Method: partition.Random, Parts: 3, Seed: 1})
	_, steps, st, err := partition.RunPageRankDelta(ctx, ps, bs, partition.RankOptions{Damping: 0.85, Tolerance: 1e-9, MaxIterations: 2}, engine.RunOptions{}, nil, false)
	require.NoError(t, err)
	require.Equal(t, 2, steps)
	require.False(t, st.Converged)
	for _, bad := range []partition.RankOptions{{Damping: 1.5, Tolerance: 1e-4}, {Damping: 0.85}, {Damping: 0.85, Tolerance: 1e-4, MaxIterations: -1}} {
		_, _, _, err := partition.RunPageRankDelta(ctx, ps, bs, bad, engine.RunOptions{}, nil, false)
		require.Error(t, err, "%+v", bad)
	}
	for _, mode := range []engine.Mode{engine.Pull, engine.Async} {
		_, _, _, err := partition.RunPageRankDelta(ctx, ps, bs, partition.RankOptions{Damping: 0.85, Tolerance: 1e-6}, engine.RunOptions{Mode: mode}, nil, false)
		require.ErrorContains(t, err, "pushes", mode.String())
	}
	// Every mode that pushes gives the same ranks.
	ro := partition.RankOptions{Damping: 0.85, Tolerance: 1e-6}
	want, _, _, err := partition.RunPageRankDelta(ctx, ps, bs, ro, engine.RunOptions{}, nil, false)
	require.NoError(t, err)
	for _, mode := range []engine.Mode{engine.Hybrid, engine.Dense, engine.Sparse} {
		got, _, _, err := partition.RunPageRankDelta(ctx, ps, bs, ro, engine.RunOptions{Mode: mode}, nil, false)
		require.NoError(t, err, mode.String())
		require.InDeltaSlice(t, want, got, 1e-12, mode.String())
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, _, _, err = partition.RunPageRankDelta(cancelled, ps, bs, partition.RankOptions{Damping: 0.85, Tolerance: 1e-6}, engine.RunOptions{}, nil, false)
	require.ErrorIs(t, err, context.Canceled)
}
