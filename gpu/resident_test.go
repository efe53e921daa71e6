package gpu_test

import (
	"context"
	"slices"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/stretchr/testify/require"
)

// TestResidentRunsOnce runs every app once on the device from its
// device-made initial state to its result in original ids, on a renumbered
// R-MAT graph (so a wrong permutation cannot pass) and on a grid of many
// components, against the CPU backend; it is also the sanitizer target for
// the resident and hooking kernels (small and quick). Each result is
// compared before the next run, which may reuse its pinned buffer.
func TestResidentRunsOnce(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	for _, spec := range []string{"rmat:11:8", "grid:40x50:0.45"} {
		l, g, cb, gb := weightedPair(t, spec, 4)
		require.NotEqual(t, l.Perm, identity(l.NumVertices), "%s: the layout must renumber", spec)
		srcs := []uint32{0, uint32(l.NumVertices / 3)}
		pr := apps.DefaultPageRankOptions()
		for _, app := range apps.Names {
			tag := spec + "/" + app
			want, _, err := apps.Run(ctx, app, cb, cb, srcs, pr, engine.RunOptions{})
			require.NoError(t, err, tag)
			got, res, err := apps.Run(ctx, app, gb, gb, srcs, pr, engine.RunOptions{})
			require.NoError(t, err, tag)
			if !slices.Contains(apps.OperatorApps, app) { // tc's total and msf's forest are not per-vertex copies
				require.Positive(t, res.CopySeconds, tag)
			}
			switch w := want.(type) {
			case []uint32:
				require.Equal(t, w, got, tag)
			case []float64:
				requireClose(t, w, got.([]float64), 1e-9, tag)
			}
			switch app {
			case "cc", "cc-lp":
				require.NoError(t, apps.ValidateCC(g, got.([]uint32)), tag)
			case "bfs":
				require.NoError(t, apps.ValidateBFS(g, srcs[0], got.([]uint32)), tag)
			case "bfs-tree":
				require.NoError(t, apps.ValidateBFSTree(g, srcs[0], got.([]uint32)), tag)
			}
		}
		require.NoError(t, gb.Close())
	}
}

// weightedPair builds spec's graph (generator seed), symmetrized with
// random weights, its layout with the small test parameters, its CSR in
// original ids, and a CPU and a GPU backend over the layout.
func weightedPair(t *testing.T, spec string, seed uint64, gopts ...gpu.Option) (*layout.Layout, *graph.CSR, *cpu.Backend, *gpu.Backend) {
	t.Helper()
	el := testgraphs.Generated(t, spec, seed)
	el.Symmetrize(2)
	el.SetRandomWeights(3, 1, 64, 2)
	l := build(t, el, testgraphs.SmallParams())
	cb, err := cpu.New(l, 2)
	require.NoError(t, err)
	gb, err := gpu.New(l, 2, gopts...)
	require.NoError(t, err)
	return l, apps.OriginalCSR(l, 2), cb, gb
}

func identity(n uint64) []uint32 {
	id := make([]uint32, n)
	for i := range id {
		id[i] = uint32(i)
	}
	return id
}

// requireClose checks that got agrees with want within rel relative to the
// largest magnitude of want (absolute for an all-zero want).
func requireClose(t *testing.T, want, got []float64, rel float64, tag string) {
	t.Helper()
	require.Len(t, got, len(want), tag)
	scale := 1.0
	if len(want) > 0 {
		scale = max(slices.Max(want), -slices.Min(want), 1e-300)
	}
	for i := range want {
		require.InDelta(t, want[i], got[i], rel*scale, "%s: vertex %d", tag, i)
	}
}
