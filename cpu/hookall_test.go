package cpu

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/partition"
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

// TestHookAll: on every undirected test shape and on its parts (random
// and static, 2 and 3 of them: the ghosts have no rows), and on a star
// whose hub's row spans many of the passes' ranges, HookAll's tree points
// every vertex at the smallest layout id of its component (the arcs of
// the rows, taken both ways), on one to five workers.
func TestHookAll(t *testing.T) {
	ctx := context.Background()
	layouts := map[string]*layout.Layout{}
	build := func(name string, el *graph.EdgeList) {
		l, err := preprocess.Build(ctx, el, testgraphs.SmallParams(), preprocess.Options{Workers: 2})
		require.NoError(t, err)
		layouts[name] = l
		for _, m := range []partition.Method{partition.Random, partition.Static} {
			for _, parts := range []int{2, 3} {
				owner, err := partition.Assign(ctx, el, partition.Options{Method: m, Parts: parts, Seed: 5})
				require.NoError(t, err)
				ps, err := partition.Split(ctx, el, owner, parts)
				require.NoError(t, err)
				ls, err := partition.BuildLayouts(ctx, ps, testgraphs.SmallParams(), preprocess.Options{Workers: 1})
				require.NoError(t, err)
				for i, pl := range ls {
					layouts[fmt.Sprintf("%s/%s/%d parts/part %d", name, m, parts, i)] = pl
				}
			}
		}
	}
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		if !s.EL.Directed {
			build(s.Name, s.EL)
		}
	}
	var pairs [][2]uint32
	for v := uint32(1); v < 3000; v++ {
		pairs = append(pairs, [2]uint32{0, v})
	}
	pairs = append(pairs, [2]uint32{3001, 3002})
	build("star", testgraphs.Undirected(3005, pairs...))
	for name, l := range layouts {
		want := smallestInComponent(l.SparseOffsets, l.SparseDst)
		for _, workers := range []int{1, 2, 5} {
			t.Run(fmt.Sprintf("%s/%d", name, workers), func(t *testing.T) {
				tree := make([]uint32, l.NumVertices)
				HookAll(l, NewRowlessIn(l, workers), tree, workers)
				require.Equal(t, want, tree)
			})
		}
	}
}
