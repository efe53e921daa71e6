package sparse_test

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/mgraph-dev/mgraph/sparse"
)

// ExampleAdvance computes BFS levels with the advance and filter primitives
// (Gunrock style): advance proposes the unvisited neighbours of the
// frontier, filter keeps those it can label and labels them.
func ExampleAdvance() {
	ctx := context.Background()
	// An undirected graph: 0-1, 0-2, 1-3, 2-3, 3-4, and 5-6 apart.
	el := &graph.EdgeList{NumVertices: 7}
	for _, e := range [][2]uint32{{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {5, 6}} {
		el.Src = append(el.Src, e[0], e[1])
		el.Dst = append(el.Dst, e[1], e[0])
	}
	l, err := preprocess.Build(ctx, el, layout.DefaultParams(), preprocess.Options{})
	if err != nil {
		panic(err)
	}
	const unreached = math.MaxUint32
	levels := make([]uint32, l.NumVertices) // layout numbering
	for i := range levels {
		levels[i] = unreached
	}
	source := l.Perm[0]
	levels[source] = 0
	frontier := []uint32{source}
	for level := uint32(1); len(frontier) > 0; level++ {
		// visit runs concurrently: read levels atomically.
		next, err := sparse.Advance(ctx, l, frontier, 2, func(u, v, w uint32) bool {
			return atomic.LoadUint32(&levels[v]) == unreached
		})
		if err != nil {
			panic(err)
		}
		// Advance's output has no duplicates, so keep runs once per vertex.
		frontier, err = sparse.Filter(ctx, next, 2, func(v uint32) bool {
			if levels[v] != unreached {
				return false
			}
			levels[v] = level
			return true
		})
		if err != nil {
			panic(err)
		}
	}
	for old := range l.NumVertices {
		if lv := levels[l.Perm[old]]; lv == unreached {
			fmt.Printf("%d: unreached\n", old)
		} else {
			fmt.Printf("%d: %d\n", old, lv)
		}
	}
	// Output:
	// 0: 0
	// 1: 1
	// 2: 1
	// 3: 2
	// 4: 3
	// 5: unreached
	// 6: unreached
}
