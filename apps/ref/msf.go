package ref

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/mgraph-dev/mgraph/graph"
)

// Edge is an undirected weighted edge U–V of a spanning forest, with U < V.
type Edge struct {
	U, V uint32
	W    uint32
}

// compareEdges is the total order of MSF on edges: by weight, then by U,
// then by V (edges are canonical, U < V).
func compareEdges(a, b Edge) int {
	return cmp.Or(cmp.Compare(a.W, b.W), cmp.Compare(a.U, b.U), cmp.Compare(a.V, b.V))
}

// msfEdges returns the edges of el as canonical Edges: every arc u→v with
// u ≠ v gives {min(u,v), max(u,v), w}, where w is its weight, or 1 when el
// is unweighted; self-loops are dropped. Arcs u→v and v→u of a symmetric
// list give the same Edge twice, which is harmless: Kruskal rejects the
// second copy, and CheckMSF only asks whether an Edge exists.
func msfEdges(el *graph.EdgeList) []Edge {
	es := make([]Edge, 0, len(el.Src))
	for i := range el.Src {
		u, v := el.Src[i], el.Dst[i]
		if u == v {
			continue
		}
		w := uint32(1)
		if el.Weights != nil {
			w = el.Weights[i]
		}
		es = append(es, Edge{U: min(u, v), V: max(u, v), W: w})
	}
	return es
}

// MSF computes the minimum spanning forest of the undirected weighted graph
// el by Kruskal's algorithm: the edges are sorted by the total order
// (weight, min(u,v), max(u,v)) and each is kept when it joins two different
// trees of a union-find forest. Every arc of el is an undirected edge, so
// the arcs u→v and v→u of a symmetric list are one edge and a directed list
// is read as its underlying undirected graph; self-loops are ignored; an
// unweighted list (Weights nil) has weight 1 everywhere. Parallel edges of
// different weights are allowed: only the lightest can be chosen.
//
// Because the order is total, the forest is unique: it is the one any
// correct algorithm (Borůvka, Prim, ...) finds when it breaks weight ties
// by (min(u,v), max(u,v)). It returns the total weight and the edges, each
// with U < V, in Kruskal order (ascending by that order); there are
// n - (number of connected components) of them.
func MSF(el *graph.EdgeList) (weight uint64, edges []Edge) {
	es := msfEdges(el)
	slices.SortFunc(es, compareEdges)
	uf := newUnionFind(el.NumVertices)
	edges = []Edge{}
	for _, e := range es {
		if uf.find(e.U) != uf.find(e.V) {
			uf.union(e.U, e.V)
			edges = append(edges, e)
			weight += uint64(e.W)
		}
	}
	return weight, edges
}

// CheckMSF verifies a minimum spanning forest of el (read as MSF reads it)
// given as its total weight and its edges, in any order. It returns nil
// when
//
//   - every edge has U < V and is an edge of el with weight W (an arc U→V or
//     V→U of that weight, not a self-loop),
//   - the edges form a forest (none closes a cycle, so none is repeated),
//   - they span every component: there are n - (number of connected
//     components of el) of them, which for a forest inside el means each
//     component is one tree, and
//   - their weights sum to weight, and weight equals the weight of MSF(el),
//     so the forest is minimum.
//
// The forest may differ from MSF's when weights tie; only its weight is
// compared. Otherwise the error names the first bad edge by its index.
func CheckMSF(el *graph.EdgeList, weight uint64, edges []Edge) error {
	n := el.NumVertices
	exists := make(map[Edge]bool)
	for _, e := range msfEdges(el) {
		exists[e] = true
	}
	uf := newUnionFind(n)
	var sum uint64
	for i, e := range edges {
		if uint64(e.U) >= n || uint64(e.V) >= n {
			return fmt.Errorf("edge %d (%d–%d) has an endpoint outside 0..%d", i, e.U, e.V, int64(n)-1)
		}
		if e.U >= e.V {
			return fmt.Errorf("edge %d (%d–%d) is not canonical: want U < V", i, e.U, e.V)
		}
		if !exists[e] {
			return fmt.Errorf("edge %d (%d–%d, weight %d) is not an edge of the graph", i, e.U, e.V, e.W)
		}
		if uf.find(e.U) == uf.find(e.V) {
			return fmt.Errorf("edge %d (%d–%d) closes a cycle", i, e.U, e.V)
		}
		uf.union(e.U, e.V)
		sum += uint64(e.W)
	}
	components, _ := ComponentSizes(CC(el))
	if want := n - uint64(components); uint64(len(edges)) != want {
		return fmt.Errorf("forest has %d edges, want %d (%d vertices in %d components)", len(edges), want, n, components)
	}
	if sum != weight {
		return fmt.Errorf("edges weigh %d in total but the reported weight is %d", sum, weight)
	}
	if want, _ := MSF(el); weight != want {
		return fmt.Errorf("spanning forest weighs %d, want the minimum %d", weight, want)
	}
	return nil
}
