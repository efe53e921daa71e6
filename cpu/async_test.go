package cpu_test

import (
	"context"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/require"
)

// TestAsyncMatchesHybrid runs the async and auto modes with several
// worker counts (one worker: the bucket change and the end with nobody to
// share with) against the hybrid, on a grid (long runs: auto hands over)
// with weights (near-far buckets).
func TestAsyncMatchesHybrid(t *testing.T) {
	ctx := context.Background()
	el := testgraphs.Generated(t, "grid:40", 1)
	el.Symmetrize(2)
	el.SetRandomWeights(5, 1, 64, 2)
	l, err := preprocess.Build(ctx, el, testgraphs.SmallParams(), preprocess.Options{Workers: 2})
	require.NoError(t, err)
	for _, workers := range []int{1, 2, 5} {
		b, err := cpu.New(l, workers)
		require.NoError(t, err)
		for _, app := range []string{"bfs", "sssp", "cc-lp"} {
			want, _, err := apps.Run(ctx, app, b, b, []uint32{7}, apps.PageRankOptions{}, engine.RunOptions{})
			require.NoError(t, err)
			want = append([]uint32(nil), want.([]uint32)...)
			for _, mode := range []engine.Mode{engine.Async, engine.Auto} {
				got, res, err := apps.Run(ctx, app, b, b, []uint32{7}, apps.PageRankOptions{}, engine.RunOptions{Mode: mode, Trace: true})
				require.NoError(t, err, "%s %s", app, mode)
				require.Equal(t, want, got, "%s %s, %d workers", app, mode, workers)
				require.Len(t, res.Trace, res.Iterations)
			}
		}
	}
}

// TestAsyncCancel: a cancelled context ends an async run with its error.
func TestAsyncCancel(t *testing.T) {
	_, b := backendOf(t, symmetric(t, "grid:200", 1, nil), 2)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := apps.BFS(ctx, b, 0, engine.RunOptions{Mode: engine.Async})
	require.ErrorIs(t, err, context.Canceled)
}

// TestAutoWeighsAsync: auto's cost model hands a grid's BFS from a corner
// (a wavefront growing by one vertex a level) over to async at the first
// iteration it weighs, recording its estimates on the async run's record,
// and keeps an R-MAT's SSSP (geometric growth, then a fast-shrinking tail
// of near-far bands) synchronous.
func TestAutoWeighsAsync(t *testing.T) {
	ctx := context.Background()
	ro := engine.RunOptions{Mode: engine.Auto, Trace: true}
	l, b := backendOf(t, symmetric(t, "grid:64", 1, nil), 2)
	_, res, err := apps.BFS(ctx, b, 0, ro)
	require.NoError(t, err)
	last := res.Trace[len(res.Trace)-1]
	require.Equal(t, "async", last.Mode)
	require.Equal(t, engine.AutoAsyncIterations, last.Iteration)
	require.Less(t, last.AsyncRestSeconds, last.SyncRestSeconds)
	require.Greater(t, last.RestIterations, 100.0)
	require.Greater(t, last.RestVertices, float64(l.NumVertices/2))

	_, b = backendOf(t, symmetric(t, "rmat:16:16", 1, func(el *graph.EdgeList) { el.SetRandomWeights(5, 1, 64, 2) }), 2)
	for _, src := range []uint32{0, 1, 2, 3} {
		_, res, err = apps.Run(ctx, "sssp", b, b, []uint32{src}, apps.PageRankOptions{}, ro)
		require.NoError(t, err)
		for _, tr := range res.Trace {
			require.NotEqual(t, "async", tr.Mode, "source %d: %+v", src, res.Trace)
		}
	}
}
