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

// TestRunMSFMatchesReference: on every test shape, symmetrized, with and
// without weights (few distinct ones, so that ties count), every
// partitioner and part count, the forest passes the reference's check (a
// spanning forest of the graph's edges of the least weight); a directed
// graph is refused.
func TestRunMSFMatchesReference(t *testing.T) {
	ctx := context.Background()
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		sym := s.EL.Clone()
		sym.Symmetrize(2)
		weighted := sym.Clone()
		weighted.SetRandomWeights(5, 1, 4, 2)
		weighted.Symmetrize(2) // both arcs of an edge weigh the same
		for _, el := range []*graph.EdgeList{sym, weighted} {
			g := graph.ToCSR(el, 2)
			eachSplit(t, s.Name, el, func(tag string, _ int, ps []*partition.Part, bs []engine.Backend) {
				weight, edges, _, err := partition.RunMSF(ctx, ps, bs, false, 2)
				require.NoError(t, err, tag)
				require.NoError(t, apps.ValidateMSF(g, weight, edges), "%s (weights %v)", tag, el.Weights != nil)
			})
		}
	}
	dir := &graph.EdgeList{NumVertices: 3, Directed: true, Src: []uint32{0, 1}, Dst: []uint32{1, 2}}
	ps, bs := split(t, dir, partition.Options{Method: partition.Static, Parts: 2})
	_, _, _, err := partition.RunMSF(ctx, ps, bs, false, 1)
	require.ErrorContains(t, err, "undirected")
}
