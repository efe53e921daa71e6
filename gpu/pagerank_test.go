package gpu_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/stretchr/testify/require"
)

// prRelTol bounds the GPU ranks' relative difference from the CPU
// backend's (same iterations, different summation order).
const prRelTol = 1e-9

// checkPageRank runs PageRank on the GPU in both schemes (cuda.PRPull and
// cuda.PRStream) and compares each with the CPU backend and the reference.
func checkPageRank(t *testing.T, el *graph.EdgeList, p layout.Params, opts ...gpu.Option) {
	for _, sc := range []cuda.PRScheme{cuda.PRPull, cuda.PRStream} {
		t.Run(sc.String(), func(t *testing.T) {
			checkPageRankScheme(t, el, p, sc, append(slices.Clone(opts), gpu.WithPRScheme(sc))...)
		})
	}
}

// checkPageRankScheme runs PageRank on the GPU (as built, and symmetrized)
// and compares it with the CPU backend (same iteration count, ranks within
// prRelTol) and the reference (apps.ValidatePageRank); the trace must name
// the scheme's kernels. Personalised PageRank is compared the same way
// (apps.ValidatePPR).
func checkPageRankScheme(t *testing.T, el *graph.EdgeList, p layout.Params, sc cuda.PRScheme, opts ...gpu.Option) {
	ctx := context.Background()
	sym := el.Clone()
	sym.Symmetrize(4)
	optsList := []apps.PageRankOptions{
		apps.DefaultPageRankOptions(),
		{Damping: 0.85, Tolerance: 1e-10, MaxIterations: 60},
		{Damping: 0.5, Tolerance: 0, MaxIterations: 3},
	}
	for k, e := range []*graph.EdgeList{el, sym} {
		l := build(t, e, p)
		g := apps.OriginalCSR(l, 4)
		cb, err := cpu.New(l, 4)
		require.NoError(t, err)
		gb, err := gpu.New(l, 4, opts...)
		require.NoError(t, err)
		for _, po := range optsList {
			for trial := 0; trial < 2; trial++ { // the run state is reused
				tag := fmt.Sprintf("graph %d/%+v/trial %d", k, po, trial)
				want, wres, err := apps.PageRank(ctx, cb, po, engine.RunOptions{})
				require.NoError(t, err, tag)
				got, gres, err := apps.PageRank(ctx, gb, po, engine.RunOptions{Trace: true})
				require.NoError(t, err, tag)
				require.Equal(t, wres.Iterations, gres.Iterations, tag+": iterations differ from the CPU backend")
				require.Len(t, got, len(want), tag)
				for v := range want {
					d := math.Abs(got[v] - want[v])
					require.LessOrEqual(t, d, prRelTol*math.Abs(want[v])+1e-300, "%s: vertex %d: %g, CPU %g", tag, v, got[v], want[v])
				}
				require.NoError(t, apps.ValidatePageRank(g, po, got), tag)
				require.Len(t, gres.Trace, gres.Iterations, tag)
				for _, tr := range gres.Trace {
					require.Equal(t, "dense", tr.Mode, tag)
					require.Len(t, tr.Phases, len(sc.Phases()), tag)
					for k, ph := range tr.Phases {
						require.Equal(t, sc.Phases()[k], ph.Name, tag)
					}
				}
			}
		}
		// Personalised PageRank (on the device in the pull scheme, the
		// operators in the stream scheme) against the CPU backend's and the
		// reference, then PageRank again on the same state: it teleports
		// uniformly again.
		if n := uint32(l.NumVertices); n > 0 {
			po := apps.PageRankOptions{Damping: 0.85, Tolerance: 1e-10, MaxIterations: 60}
			for _, sources := range [][]uint32{{n / 2}, {0, n - 1, n / 3, 0}} {
				tag := fmt.Sprintf("graph %d/ppr from %v", k, sources)
				want, wres, err := apps.PersonalizedPageRank(ctx, cb, sources, po, apps.OpsOptions{})
				require.NoError(t, err, tag)
				got, gres, err := apps.PersonalizedPageRank(ctx, gb, sources, po, apps.OpsOptions{Trace: true})
				require.NoError(t, err, tag)
				require.Equal(t, wres.Iterations, gres.Iterations, tag+": iterations differ from the CPU backend")
				for v := range want {
					d := math.Abs(got[v] - want[v])
					require.LessOrEqual(t, d, prRelTol*math.Abs(want[v])+1e-15, "%s: vertex %d: %g, CPU %g", tag, v, got[v], want[v])
				}
				require.NoError(t, apps.ValidatePPR(g, sources, po, got), tag)
			}
			got, _, err := apps.PageRank(ctx, gb, apps.DefaultPageRankOptions(), engine.RunOptions{})
			require.NoError(t, err)
			require.NoError(t, apps.ValidatePageRank(g, apps.DefaultPageRankOptions(), got), "pr after ppr")
		}
		// The run's own iteration cap.
		got, res, err := apps.PageRank(ctx, gb, apps.DefaultPageRankOptions(), engine.RunOptions{MaxIterations: 2})
		require.NoError(t, err)
		want, wres, err := apps.PageRank(ctx, cb, apps.DefaultPageRankOptions(), engine.RunOptions{MaxIterations: 2})
		require.NoError(t, err)
		require.Equal(t, wres.Iterations, res.Iterations)
		require.InDeltaSlice(t, want, got, 1e-12)
		require.NoError(t, gb.Close())
	}
}

func TestPageRankAllShapes(t *testing.T) { onShapes(t, checkPageRank) }

func TestPageRankOnDatasets(t *testing.T) { onDatasets(t, checkPageRank) }
