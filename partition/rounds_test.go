package partition_test

import (
	"context"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/stretchr/testify/require"
)

// TestRunMISAndColor: on every test shape, symmetrized, and every
// partitioner and part count, the set over parts is a maximal independent
// set and the colouring proper (the references' checks), and both are the
// same whatever the partition (the priorities are drawn over original
// ids); one part sends nothing.
func TestRunMISAndColor(t *testing.T) {
	ctx := context.Background()
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		sym := s.EL.Clone()
		sym.Symmetrize(2)
		g := graph.ToCSR(sym, 2)
		var firstSet []bool
		var firstColors []uint32
		eachSplit(t, s.Name, sym, func(tag string, _ int, ps []*partition.Part, bs []engine.Backend) {
			set, st, err := partition.RunMIS(ctx, ps, bs, 11, nil, false, 2)
			require.NoError(t, err, tag)
			require.NoError(t, apps.ValidateMIS(g, set), tag)
			require.True(t, st.Converged, tag)
			colors, _, err := partition.RunColor(ctx, ps, bs, 11, nil, false, 2)
			require.NoError(t, err, tag)
			require.NoError(t, apps.ValidateColor(g, colors), tag)
			if firstSet == nil {
				firstSet, firstColors = set, colors
			}
			require.Equal(t, firstSet, set, "%s: the set does not depend on the partition", tag)
			require.Equal(t, firstColors, colors, "%s: nor do the colours", tag)
		})
	}
}

// TestRunRoundsRefuses: a directed graph is refused; a cancelled context
// stops the run with its error.
func TestRunRoundsRefuses(t *testing.T) {
	ctx := context.Background()
	dir := &graph.EdgeList{NumVertices: 3, Directed: true, Src: []uint32{0, 1}, Dst: []uint32{1, 2}}
	ps, bs := split(t, dir, partition.Options{Method: partition.Static, Parts: 2})
	_, _, err := partition.RunMIS(ctx, ps, bs, 1, nil, false, 1)
	require.ErrorContains(t, err, "undirected")
	_, _, err = partition.RunColor(ctx, ps, bs, 1, nil, false, 1)
	require.ErrorContains(t, err, "undirected")
	sym := dir.Clone()
	sym.Symmetrize(1)
	ps, bs = split(t, sym, partition.Options{Method: partition.Static, Parts: 2})
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, _, err = partition.RunMIS(cancelled, ps, bs, 1, nil, false, 1)
	require.ErrorIs(t, err, context.Canceled)
}
