package preprocess

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mgraph-dev/mgraph/graph/format"
	"github.com/mgraph-dev/mgraph/layout"
)

// TestSharedDatasets builds and validates the layout of every graph in
// ../shared/datasets with the default and with smaller parameters.
func TestSharedDatasets(t *testing.T) {
	if testing.Short() {
		t.Skip("reads every shared dataset")
	}
	files, _ := filepath.Glob("../../shared/datasets/*.mtx*")
	if len(files) == 0 {
		t.Skip("no ../shared/datasets here")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			el, _, err := format.ReadFile(context.Background(), path, format.ReadOptions{})
			require.NoError(t, err)
			// The default parameters, and smaller panels and thresholds so
			// that these mid-size graphs have many heavy blocks and segments.
			mid := layout.DefaultParams()
			mid.PanelSize, mid.HeavyThreshold, mid.HeavyColumns, mid.SegmentSize = 1000, 1000, 64, 2000
			for _, p := range []layout.Params{layout.DefaultParams(), mid} {
				l, err := Build(context.Background(), el, p, Options{})
				require.NoError(t, err)
				require.NoError(t, layout.Validate(l, el), "%s with %v", path, p)
				st := l.Stats()
				t.Logf("%v: n=%d m=%d heavy=%d light=%d segments=%d %.2f× CSR", p, l.NumVertices, l.NumArcs, st.HeavyBlocks, st.LightBlocks, st.Segments, l.FootprintRatio())
			}
		})
	}
}
