package partition_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/stretchr/testify/require"
)

// TestRunPageRankMatchesReference runs PageRank with 1–4 and 8 parts (some
// part of a small graph then holds no vertex) and every
// partitioner on every test shape, directed and symmetrized, on the host,
// and checks the ranks and the iteration count against the reference.
func TestRunPageRankMatchesReference(t *testing.T) {
	ctx := context.Background()
	counts := partCounts
	if testing.Short() {
		counts = []int{1, 3}
	}
	opts := apps.DefaultPageRankOptions()
	ro := partition.RankOptions{Damping: opts.Damping, Tolerance: opts.Tolerance, MaxIterations: opts.MaxIterations}
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		sym := s.EL.Clone()
		sym.Symmetrize(2)
		for _, el := range []*graph.EdgeList{s.EL, sym} {
			g := graph.ToCSR(el, 2)
			_, wantIters := ref.PageRank(g, ref.PageRankOptions{Damping: opts.Damping, Tolerance: opts.Tolerance, MaxIterations: opts.MaxIterations})
			for _, m := range partition.Methods {
				for _, parts := range counts {
					tag := fmt.Sprintf("%s/directed=%v/%s/%d parts", s.Name, el.Directed, m, parts)
					ps, bs := split(t, el, partition.Options{Method: m, Parts: parts, Seed: 7, Bias: 0.8})
					ranks, iters, st, err := partition.RunPageRank(ctx, ps, bs, ro, nil, false, 2)
					require.NoError(t, err, tag)
					require.NoError(t, apps.ValidatePageRank(g, opts, ranks), tag)
					require.Equal(t, wantIters, iters, tag)
					require.Equal(t, iters, st.Supersteps, tag)
					if parts == 1 {
						require.Zero(t, st.Messages, tag)
					}
				}
			}
		}
	}
}

// TestRunPageRankOptions: the cap stops the run, bad options are refused,
// and a cancelled context ends it with its error.
func TestRunPageRankOptions(t *testing.T) {
	ctx := context.Background()
	el := testgraphs.Shapes(t, testgraphs.Small)[0].EL
	ps, bs := split(t, el, partition.Options{Method: partition.Random, Parts: 3, Seed: 1})
	ranks, iters, st, err := partition.RunPageRank(ctx, ps, bs, partition.RankOptions{Damping: 0.85, MaxIterations: 2}, nil, false, 1)
	require.NoError(t, err)
	require.Equal(t, 2, iters)
	require.False(t, st.Converged)
	require.Len(t, ranks, int(el.NumVertices))
	// The host path reads the other parts' sums in place: no packaging;
	// the barriers are its exchange and all-reduce.
	require.Zero(t, st.Phases.Pack)
	require.Positive(t, st.Phases.Exchange)
	require.Positive(t, st.Phases.Reduce)
	for _, bad := range []partition.RankOptions{{Damping: 1.5, MaxIterations: 3}, {Damping: 0.85, Tolerance: -1, MaxIterations: 3}, {Damping: 0.85, MaxIterations: -1}} {
		_, _, _, err := partition.RunPageRank(ctx, ps, bs, bad, nil, false, 1)
		require.ErrorContains(t, err, "partition: run pr:")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, _, _, err = partition.RunPageRank(cctx, ps, bs, partition.RankOptions{Damping: 0.85, MaxIterations: 20}, nil, false, 1)
	require.ErrorIs(t, err, context.Canceled)
}
