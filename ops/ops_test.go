package ops_test

import (
	"testing"

	"github.com/mgraph-dev/mgraph/ops"
	"github.com/stretchr/testify/require"
)

// TestChoose: Gunrock's rule, and merged for a few long rows.
func TestChoose(t *testing.T) {
	const n, m = 1 << 21, 63 << 20 // average degree 31
	require.Equal(t, ops.Merged, ops.Choose(ops.Auto, 5000, 80000, n, m), "large frontier on a dense graph")
	require.Equal(t, ops.TWC, ops.Choose(ops.Auto, 600, 9000, n, m), "small frontier of short rows")
	require.Equal(t, ops.Merged, ops.Choose(ops.Auto, 623, 2046202, n, m), "a few hubs")
	require.Equal(t, ops.TWC, ops.Choose(ops.Auto, 5000, 9000, 1000, 3000), "sparse graph, short rows")
	require.Equal(t, ops.TWC, ops.Choose(ops.Auto, 0, 0, n, m), "empty frontier")
	require.Equal(t, ops.ThreadMapped, ops.Choose(ops.ThreadMapped, 623, 2046202, n, m), "a fixed strategy")
}
