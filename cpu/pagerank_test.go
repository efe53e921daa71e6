package cpu_test

import (
	"context"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/require"
)

// TestPullPageRank: on graphs of fewer than PullPageRankDegree arcs per
// vertex, PageRank in hybrid and auto runs as the pull (one trace entry
// "pull" per iteration) and agrees with the reference in ranks and
// iterations, twice over the reused buffers; the dense and sparse modes
// and denser graphs keep the engines; a cap of 0 iterations gives the
// initial ranks.
func TestPullPageRank(t *testing.T) {
	ctx := context.Background()
	opts := apps.DefaultPageRankOptions()
	pulled := 0
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		for _, directed := range []bool{true, false} {
			el := s.EL.Clone()
			if !directed {
				el.Symmetrize(2)
			}
			l, err := preprocess.Build(ctx, el, testgraphs.SmallParams(), preprocess.Options{Workers: 2})
			require.NoError(t, err)
			b, err := cpu.New(l, 2)
			require.NoError(t, err)
			g := graph.ToCSR(el, 2)
			_, wantIters := ref.PageRank(g, ref.PageRankOptions{Damping: opts.Damping, Tolerance: opts.Tolerance, MaxIterations: opts.MaxIterations})
			low := l.NumVertices > 0 && l.NumArcs < cpu.PullPageRankDegree*l.NumVertices
			for _, mode := range []engine.Mode{engine.Hybrid, engine.Auto, engine.Dense} {
				for round := range 2 {
					ranks, res, err := apps.PageRank(ctx, b, opts, engine.RunOptions{Mode: mode, Trace: true})
					require.NoError(t, err, s.Name)
					require.NoError(t, apps.ValidatePageRank(g, opts, ranks), "%s/%s/round %d", s.Name, mode, round)
					if l.NumVertices == 0 {
						continue
					}
					require.Equal(t, wantIters, res.Iterations, "%s/%s", s.Name, mode)
					isPull := len(res.Trace) > 0 && res.Trace[0].Mode == "pull"
					require.Equal(t, low && mode != engine.Dense, isPull, "%s/%s", s.Name, mode)
					if isPull {
						pulled++
					}
				}
			}
			if low {
				ranks, res, ok, err := b.PullPageRank(ctx, engine.PageRankParams{Damping: 0.85, MaxIterations: 0}, engine.RunOptions{})
				require.NoError(t, err)
				require.True(t, ok)
				require.Zero(t, res.Iterations)
				for _, r := range ranks {
					require.InDelta(t, 1/float64(l.NumVertices), r, 1e-15)
				}
			}
		}
	}
	require.Positive(t, pulled)
}
