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

// TestRunPersonalizedPageRankMatchesReference: on every test shape,
// directed and symmetrized, every partitioner and part count, from one
// source and from several (one repeated), the ranks pass apps.ValidatePPR
// and take the reference's iterations; no iteration gives the teleport
// vector.
func TestRunPersonalizedPageRankMatchesReference(t *testing.T) {
	ctx := context.Background()
	counts := partCounts
	if testing.Short() {
		counts = []int{1, 3}
	}
	opts := apps.DefaultPageRankOptions()
	ro := partition.RankOptions{Damping: opts.Damping, Tolerance: opts.Tolerance, MaxIterations: opts.MaxIterations}
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		if s.EL.NumVertices == 0 {
			continue
		}
		sym := s.EL.Clone()
		sym.Symmetrize(2)
		for _, el := range []*graph.EdgeList{s.EL, sym} {
			g := graph.ToCSR(el, 2)
			n := uint32(el.NumVertices)
			for _, sources := range [][]uint32{{n / 2}, {0, n - 1, n / 3, 0}} {
				_, wantIters := ref.PersonalizedPageRank(g, sources, ref.PageRankOptions{Damping: opts.Damping, Tolerance: opts.Tolerance, MaxIterations: opts.MaxIterations})
				for _, m := range partition.Methods {
					for _, parts := range counts {
						tag := fmt.Sprintf("%s/directed=%v/%s/%d parts/sources %v", s.Name, el.Directed, m, parts, sources)
						ps, bs := split(t, el, partition.Options{Method: m, Parts: parts, Seed: 7, Bias: 0.8})
						ranks, iters, _, err := partition.RunPersonalizedPageRank(ctx, ps, bs, sources, ro, nil, true, 2)
						require.NoError(t, err, tag)
						require.NoError(t, apps.ValidatePPR(g, sources, opts, ranks), tag)
						require.Equal(t, wantIters, iters, tag)
					}
				}
			}
			ps, bs := split(t, el, partition.Options{Method: partition.Random, Parts: 2, Seed: 1})
			ranks, iters, _, err := partition.RunPersonalizedPageRank(ctx, ps, bs, []uint32{n - 1}, partition.RankOptions{Damping: 0.85}, nil, true, 1)
			require.NoError(t, err)
			require.Zero(t, iters)
			want := make([]float64, n)
			want[n-1] = 1
			require.Equal(t, want, ranks, "no iteration: the teleport vector")
		}
	}
}

// TestRunPersonalizedPageRankRefuses: no source, a source outside the
// graph and bad options are refused.
func TestRunPersonalizedPageRankRefuses(t *testing.T) {
	ctx := context.Background()
	el := testgraphs.Path(10)
	ps, bs := split(t, el, partition.Options{Method: partition.Static, Parts: 2})
	ro := partition.RankOptions{Damping: 0.85, Tolerance: 1e-6, MaxIterations: 20}
	_, _, _, err := partition.RunPersonalizedPageRank(ctx, ps, bs, nil, ro, nil, true, 1)
	require.ErrorContains(t, err, "at least one source")
	_, _, _, err = partition.RunPersonalizedPageRank(ctx, ps, bs, []uint32{10}, ro, nil, true, 1)
	require.ErrorContains(t, err, "source 10")
	_, _, _, err = partition.RunPersonalizedPageRank(ctx, ps, bs, []uint32{1}, partition.RankOptions{Damping: 2}, nil, true, 1)
	require.ErrorContains(t, err, "damping")
}
