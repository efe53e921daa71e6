package ref

import (
	"fmt"

	"github.com/mgraph-dev/mgraph/graph"
)

// BFS runs a breadth-first search from source along the arcs of g (out-arcs)
// and returns, for every vertex v, its level (number of arcs on a shortest
// path from source; Unreached if there is none) and its parent in the BFS
// tree. parents[source] = source; an unreachable vertex has parent
// Unreached. The parent of a reached vertex is the first vertex, in queue
// order, with an arc to it; engines may pick any other valid parent, so
// verify their parents with CheckBFSTree, not by equality.
//
// BFS panics if source is not a vertex of g.
func BFS(g *graph.CSR, source uint32) (levels []uint32, parents []uint32) {
	n := g.NumVertices
	if uint64(source) >= n {
		panic(fmt.Sprintf("ref.BFS: source %d is not a vertex of a graph with %d vertices", source, n))
	}
	levels = make([]uint32, n)
	parents = make([]uint32, n)
	for v := range levels {
		levels[v] = Unreached
		parents[v] = Unreached
	}
	levels[source] = 0
	parents[source] = source
	queue := make([]uint32, 0, 1024)
	queue = append(queue, source)
	for head := 0; head < len(queue); head++ {
		u := queue[head]
		nbrs, _ := g.Row(u)
		for _, v := range nbrs {
			if levels[v] == Unreached {
				levels[v] = levels[u] + 1
				parents[v] = u
				queue = append(queue, v)
			}
		}
	}
	return levels, parents
}

// CheckBFSTree verifies a BFS result from source in the style of the GAPBS
// verifier: the levels must equal those of a fresh serial BFS, and the
// parents must form a valid BFS tree: parents[source] = source; an
// unreached vertex has level and parent Unreached; every other vertex v has
// a parent p that is reached, has level levels[v]-1, and has an arc p→v in
// g. It returns nil if all holds, otherwise an error naming the first
// offending vertex. Pass parents = nil to check the levels only.
func CheckBFSTree(g *graph.CSR, source uint32, levels, parents []uint32) error {
	n := g.NumVertices
	if uint64(source) >= n {
		return fmt.Errorf("source %d is not a vertex of a graph with %d vertices", source, n)
	}
	want, _ := BFS(g, source)
	if err := CompareLevels(want, levels); err != nil {
		return err
	}
	if parents == nil {
		return nil
	}
	return CheckTree(g, source, levels, parents)
}

// CheckTree is CheckBFSTree's check of the parents against levels taken
// as right (the reference's, or the reference's cut at a depth limit).
func CheckTree(g *graph.CSR, source uint32, levels, parents []uint32) error {
	n := g.NumVertices
	if uint64(source) >= n {
		return fmt.Errorf("source %d is not a vertex of a graph with %d vertices", source, n)
	}
	if uint64(len(levels)) != n {
		return fmt.Errorf("got %d levels for %d vertices", len(levels), n)
	}
	if uint64(len(parents)) != n {
		return fmt.Errorf("got %d parents for %d vertices", len(parents), n)
	}
	if parents[source] != source {
		return fmt.Errorf("source %d has parent %s, want itself", source, fmtLevel(parents[source]))
	}
	for v, p := range parents {
		if uint32(v) == source {
			continue
		}
		if levels[v] == Unreached {
			if p != Unreached {
				return fmt.Errorf("vertex %d is unreached but has parent %d", v, p)
			}
			continue
		}
		if p == Unreached {
			return fmt.Errorf("vertex %d has level %d but no parent", v, levels[v])
		}
		if uint64(p) >= n {
			return fmt.Errorf("vertex %d has parent %d, which is not a vertex", v, p)
		}
		if levels[p] == Unreached || levels[p]+1 != levels[v] {
			return fmt.Errorf("vertex %d (level %d) has parent %d at level %s, want level %d",
				v, levels[v], p, fmtLevel(levels[p]), levels[v]-1)
		}
	}
	// Every tree edge must be an arc of g. One pass over all arcs marks the
	// vertices whose parent arc was seen, so a high-degree parent costs O(E)
	// in total rather than O(degree) per child.
	found := make([]bool, n)
	found[source] = true
	for u := uint32(0); uint64(u) < n; u++ {
		nbrs, _ := g.Row(u)
		for _, v := range nbrs {
			if parents[v] == u {
				found[v] = true
			}
		}
	}
	for v, ok := range found {
		if !ok && parents[v] != Unreached {
			return fmt.Errorf("vertex %d has parent %d but the graph has no arc %d→%d", v, parents[v], parents[v], v)
		}
	}
	return nil
}

// fmtLevel prints a level or parent, spelling out Unreached.
func fmtLevel(x uint32) string {
	if x == Unreached {
		return "unreached"
	}
	return fmt.Sprint(x)
}
