package apps_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/graph/format"
	"github.com/mgraph-dev/mgraph/internal/opscheck"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/ops"
	"github.com/stretchr/testify/require"
)

// TestOperatorAppsAllShapes runs every operator app with every
// load-balancing strategy on the CPU backend over the test shapes.
func TestOperatorAppsAllShapes(t *testing.T) {
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		t.Run(s.Name, func(t *testing.T) {
			weighted := s.EL.Clone()
			if !weighted.Weighted() {
				weighted.SetRandomWeights(9, 1, 64, 2)
			}
			sym := s.EL.Clone()
			sym.Symmetrize(2)
			fwd, _ := backends(t, s.EL, testgraphs.SmallParams())
			wfwd, _ := backends(t, weighted, testgraphs.SmallParams())
			sfwd, _ := backends(t, sym, testgraphs.SmallParams())
			wsym := weighted.Clone()
			wsym.Symmetrize(2)
			wsfwd, _ := backends(t, wsym, testgraphs.SmallParams())
			fweighted := s.EL.Clone()
			fweighted.SetRandomFloat32Weights(9, 2)
			ffwd, _ := backends(t, fweighted, testgraphs.SmallParams())
			require.NoError(t, opscheck.Check(context.Background(), opscheck.Backends{Fwd: fwd, Sym: sfwd, Weighted: wfwd, SymWeighted: wsfwd,
				Float32: ffwd}))
		})
	}
}

// TestOperatorAppsRefuseDirected: the apps on undirected graphs refuse a
// directed one.
func TestOperatorAppsRefuseDirected(t *testing.T) {
	ctx := context.Background()
	dir := testgraphs.Generated(t, "rmat:6:4", 2)
	fwd, _ := backends(t, dir, testgraphs.SmallParams())
	_, _, _, err := apps.TriangleCount(ctx, fwd, false, apps.OpsOptions{})
	require.ErrorContains(t, err, "undirected")
	_, _, err = apps.KCore(ctx, fwd, apps.OpsOptions{})
	require.ErrorContains(t, err, "undirected")
	_, _, err = apps.MIS(ctx, fwd, 1, apps.OpsOptions{})
	require.ErrorContains(t, err, "undirected")
}

// TestOperatorAppsOnDatasets runs every operator app on the shared
// datasets on the CPU (Gunrock's rule picking the load balancing).
func TestOperatorAppsOnDatasets(t *testing.T) {
	if testing.Short() {
		t.Skip("datasets: skipped in -short")
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "shared", "datasets", "*.mtx.zst"))
	if len(files) == 0 {
		t.Skip("no datasets")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			el, _, err := format.ReadFile(context.Background(), f, format.ReadOptions{})
			require.NoError(t, err)
			weighted := el.Clone()
			if !weighted.Weighted() {
				weighted.SetRandomWeights(9, 1, 64, 2)
			}
			sym, wsym := el.Clone(), weighted.Clone()
			sym.Symmetrize(2)
			wsym.Symmetrize(2)
			p := layout.DefaultParams()
			fwd, _ := backends(t, el, p)
			wfwd, _ := backends(t, weighted, p)
			sfwd, _ := backends(t, sym, p)
			wsfwd, _ := backends(t, wsym, p)
			b := opscheck.Backends{Fwd: fwd, Sym: sfwd, Weighted: wfwd, SymWeighted: wsfwd}
			require.NoError(t, opscheck.Check(context.Background(), b, ops.Auto))
		})
	}
}

// TestMultiSource: BFS and SSSP from several sources give every vertex
// its distance to the nearest source (the minimum of the single-source
// references).
func TestMultiSource(t *testing.T) {
	ctx := context.Background()
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		n := s.EL.NumVertices
		if n == 0 {
			continue
		}
		weighted := s.EL.Clone()
		if !weighted.Weighted() {
			weighted.SetRandomWeights(9, 1, 64, 2)
		}
		fwd, _ := backends(t, s.EL, testgraphs.SmallParams())
		wfwd, _ := backends(t, weighted, testgraphs.SmallParams())
		g, wg := apps.OriginalCSR(fwd.Layout(), 2), apps.OriginalCSR(wfwd.Layout(), 2)
		sources := []uint32{0, uint32(n / 3), uint32(n - 1), 0}
		wantL := make([]uint32, n)
		wantD := make([]uint64, n)
		for v := range wantL {
			wantL[v], wantD[v] = ref.Unreached, ref.Infinity
		}
		for _, src := range sources {
			l, _ := ref.BFS(g, src)
			d, err := ref.SSSP(wg, src)
			require.NoError(t, err)
			for v := range wantL {
				wantL[v], wantD[v] = min(wantL[v], l[v]), min(wantD[v], d[v])
			}
		}
		for _, st := range []ops.Strategy{ops.Auto, ops.TWC} {
			levels, _, err := apps.MultiSourceBFS(ctx, fwd, sources, apps.OpsOptions{Strategy: st})
			require.NoError(t, err, s.Name)
			require.Equal(t, wantL, levels, s.Name)
			dist, _, err := apps.MultiSourceSSSP(ctx, wfwd, sources, apps.OpsOptions{Strategy: st})
			require.NoError(t, err, s.Name)
			for v := range dist {
				want := uint32(wantD[v])
				if wantD[v] == ref.Infinity {
					want = apps.Unreached
				}
				require.Equal(t, want, dist[v], "%s: vertex %d", s.Name, v)
			}
		}
	}
	fwd, _ := backends(t, testgraphs.Undirected(3, [2]uint32{0, 1}), testgraphs.SmallParams())
	_, _, err := apps.MultiSourceBFS(ctx, fwd, nil, apps.OpsOptions{})
	require.ErrorContains(t, err, "needs a source")
	_, _, err = apps.MultiSourceBFS(ctx, fwd, []uint32{0, 3}, apps.OpsOptions{})
	require.ErrorContains(t, err, "source 3 is not a vertex")
}
