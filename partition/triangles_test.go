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

// TestRunTrianglesMatchesReference: on every test shape, symmetrized with
// its repeated arcs and self-loops kept, every partitioner and part count,
// the total and every vertex's triangles are the reference's, again in a
// second run over the lists the first kept; no bytes are counted as sent;
// a directed graph is refused.
func TestRunTrianglesMatchesReference(t *testing.T) {
	ctx := context.Background()
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		sym := s.EL.Clone()
		sym.Symmetrize(2)
		g := graph.ToCSR(sym, 2)
		eachSplit(t, s.Name, sym, func(tag string, _ int, ps []*partition.Part, bs []engine.Backend) {
			total, per, _, err := partition.RunTriangles(ctx, ps, bs, true, false, 2)
			require.NoError(t, err, tag)
			require.NoError(t, apps.ValidateTriangles(g, total, per), tag)
			// The second run takes the lists the first kept.
			total2, none, st, err := partition.RunTriangles(ctx, ps, bs, false, false, 1)
			require.NoError(t, err, tag)
			require.Equal(t, total, total2, tag)
			require.Nil(t, none, tag)
			require.Zero(t, st.Bytes, tag)
			for _, ss := range st.Steps {
				require.Zero(t, ss.Bytes, tag+": lists are read in place, not sent")
			}
		})
	}
	dir := &graph.EdgeList{NumVertices: 3, Directed: true, Src: []uint32{0, 1}, Dst: []uint32{1, 2}}
	ps, bs := split(t, dir, partition.Options{Method: partition.Static, Parts: 2})
	_, _, _, err := partition.RunTriangles(ctx, ps, bs, false, false, 1)
	require.ErrorContains(t, err, "undirected")
}

// BenchmarkRunTriangles: the count over two CPU parts of an undirected
// R-MAT 16 graph (the lists kept between runs, the orientation and count
// made every run, as a trial's).
func BenchmarkRunTriangles(b *testing.B) {
	ctx := context.Background()
	ps, bs := triangleBenchParts(b)
	for b.Loop() {
		if _, _, _, err := partition.RunTriangles(ctx, ps, bs, false, false, 2); err != nil {
			b.Fatal(err)
		}
	}
}

// triangleBenchParts splits an undirected R-MAT 16 graph (no repeated
// arcs) into two random CPU parts, for the triangle benchmarks.
func triangleBenchParts(b *testing.B) ([]*partition.Part, []engine.Backend) {
	el := testgraphs.Generated(b, "rmat:16:16", 7)
	el.Symmetrize(2)
	el.Dedupe(2)
	return split(b, el, partition.Options{Method: partition.Random, Parts: 2, Seed: 1})
}
