package gpu_test

import (
	"context"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/stretchr/testify/require"
)

// TestAsyncOnce runs every async kernel (min programs, pr-delta, BC) a few times on two small graphs (a
// grid: long chains of small rounds and near-far buckets; an R-MAT: hubs,
// spills through the ring), against the CPU backend: the target of the
// sanitizer runs. The ring is tiny relative to the work only in count of
// rounds; one block per SM makes blocks share the most.
func TestAsyncOnce(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	for _, spec := range []string{"grid:24", "rmat:9:8"} {
		_, g, cb, gb := weightedPair(t, spec, 1, gpu.WithAsyncBlocksPerSM(1))
		ro := engine.RunOptions{Mode: engine.Async, Trace: true}
		for _, app := range []string{"bfs", "sssp", "cc-lp"} {
			want, _, err := apps.Run(ctx, app, cb, cb, []uint32{3}, apps.PageRankOptions{}, engine.RunOptions{})
			require.NoError(t, err, spec+" "+app)
			got, res, err := apps.Run(ctx, app, gb, gb, []uint32{3}, apps.PageRankOptions{}, ro)
			require.NoError(t, err, spec+" "+app)
			require.Equal(t, want, got, spec+" "+app)
			require.Len(t, res.Trace, 1, spec+" "+app)
			require.NotNil(t, res.Trace[0].Async, spec+" "+app)
			require.Positive(t, res.Trace[0].Async.Items, spec+" "+app)
		}
		prd := apps.DefaultPageRankOptions()
		prd.MaxIterations = 0
		ranks, _, err := apps.PageRankDelta(ctx, gb, prd, ro)
		require.NoError(t, err, spec+" pr-delta")
		require.NoError(t, apps.ValidatePageRankDelta(g, prd, ranks), spec+" pr-delta")
		bc, _, err := apps.BC(ctx, gb, gb, []uint32{3, 5}, ro)
		require.NoError(t, err, spec+" bc")
		require.NoError(t, apps.ValidateBC(g, []uint32{3, 5}, bc), spec+" bc")
		require.NoError(t, gb.Close())
	}
}
