package apps_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
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
			require.NoError(t, opscheck.Check(context.Background(), opscheck.Backends{Fwd: fwd, Sym: sfwd, Weighted: wfwd, SymWeighted: wsfwd}))
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
