package cpu

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/preprocess"
)

// smallestInComponent is, for every layout id of l's rows (arcs taken
// both ways), the smallest layout id of its component, by a serial
// union-find.
func smallestInComponent(off []uint64, dst []uint32) []uint32 {
	n := len(off) - 1
	parent := make([]uint32, n)
	for v := range parent {
		parent[v] = uint32(v)
	}
	var root func(v uint32) uint32
	root = func(v uint32) uint32 {
		for parent[v] != v {
			v = parent[v]
		}
		return v
	}
	for v := range n {
		for _, w := range dst[off[v]:off[v+1]] {
			a, b := root(uint32(v)), root(w)
			parent[max(a, b)] = min(a, b)
		}
	}
	out := make([]uint32, n)
	for v := range out {
		out[v] = root(uint32(v))
	}
	return out
}

// TestHookAll: on every test shape, directed ones included (a part's
// ghosts have no rows either), and a star whose hub's row spans many of
// the pass's ranges, HookAll's tree points every vertex at the smallest
// layout id of its component, on one to five workers.
func TestHookAll(t *testing.T) {
	els := map[string]*graph.EdgeList{}
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		els[s.Name] = s.EL
	}
	var pairs [][2]uint32
	for v := uint32(1); v < 3000; v++ {
		pairs = append(pairs, [2]uint32{0, v})
	}
	pairs = append(pairs, [2]uint32{3001, 3002})
	els["star"] = testgraphs.Undirected(3005, pairs...)
	for name, el := range els {
		l, err := preprocess.Build(context.Background(), el, testgraphs.SmallParams(), preprocess.Options{Workers: 2})
		require.NoError(t, err)
		want := smallestInComponent(l.SparseOffsets, l.SparseDst)
		for _, workers := range []int{1, 2, 5} {
			t.Run(fmt.Sprintf("%s/%d", name, workers), func(t *testing.T) {
				tree := make([]uint32, l.NumVertices)
				HookAll(l, tree, workers)
				require.Equal(t, want, tree)
			})
		}
	}
}
