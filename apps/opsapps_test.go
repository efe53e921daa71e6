package apps_test

import (
	"context"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/internal/opscheck"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
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
