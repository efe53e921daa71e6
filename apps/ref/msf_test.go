package ref

import (
	"math/rand/v2"
	"testing"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/stretchr/testify/require"
)

// weightedEdgeList builds a weighted edge list, symmetrized if undirected.
func weightedEdgeList(n uint64, es wedges, undirected bool) *graph.EdgeList {
	el := &graph.EdgeList{NumVertices: n, Directed: true, Src: []uint32{}, Dst: []uint32{}, Weights: []uint32{}}
	for _, e := range es {
		el.Src = append(el.Src, e[0])
		el.Dst = append(el.Dst, e[1])
		el.Weights = append(el.Weights, e[2])
	}
	if undirected {
		el.Symmetrize(1)
	}
	return el
}

// clrsEdges is the example graph of CLRS (Introduction to Algorithms,
// figure 23.1) with a..i numbered 0..8.
var clrsEdges = wedges{{0, 1, 4}, {0, 7, 8}, {1, 2, 8}, {1, 7, 11}, {2, 3, 7}, {2, 5, 4}, {2, 8, 2}, {3, 4, 9},
	{3, 5, 14}, {4, 5, 10}, {5, 6, 2}, {6, 7, 1}, {6, 8, 6}, {7, 8, 7}}

func TestMSFHandChecked(t *testing.T) {
	cases := []struct {
		name   string
		el     *graph.EdgeList
		weight uint64
		edges  []Edge
	}{
		{"triangle", weightedEdgeList(3, wedges{{0, 1, 1}, {1, 2, 2}, {2, 0, 3}}, true), 3,
			[]Edge{{0, 1, 1}, {1, 2, 2}}},
		// All weights tie: the order (W, U, V) picks the star around 0.
		{"K4 with equal weights", weightedEdgeList(4, wedges{{3, 2, 5}, {3, 1, 5}, {3, 0, 5}, {2, 1, 5}, {2, 0, 5}, {1, 0, 5}}, true), 15,
			[]Edge{{0, 1, 5}, {0, 2, 5}, {0, 3, 5}}},
		{"K4 unweighted", edgeList(4, k4, true), 3, []Edge{{0, 1, 1}, {0, 2, 1}, {0, 3, 1}}},
		{"star", weightedEdgeList(4, wedges{{0, 1, 3}, {0, 2, 1}, {0, 3, 2}}, true), 6,
			[]Edge{{0, 2, 1}, {0, 3, 2}, {0, 1, 3}}},
		{"path", weightedEdgeList(4, wedges{{2, 3, 0}, {1, 2, 9}, {0, 1, 4}}, true), 13,
			[]Edge{{2, 3, 0}, {0, 1, 4}, {1, 2, 9}}},
		// A triangle 0,1,2 and a 4-cycle 3..6 with a heavy chord; 7 isolated.
		{"two components", weightedEdgeList(8, wedges{{0, 1, 2}, {1, 2, 2}, {0, 2, 1},
			{3, 4, 1}, {4, 5, 1}, {5, 6, 1}, {6, 3, 1}, {3, 5, 0}}, true), 5,
			[]Edge{{3, 5, 0}, {0, 2, 1}, {3, 4, 1}, {3, 6, 1}, {0, 1, 2}}},
		{"self-loops ignored", weightedEdgeList(2, wedges{{0, 0, 0}, {0, 1, 7}, {1, 1, 0}}, true), 7, []Edge{{0, 1, 7}}},
		// Parallel edges 0–1 of weights 5 and 2 (and a reversed copy): the
		// lighter wins.
		{"duplicate arcs", weightedEdgeList(2, wedges{{0, 1, 5}, {1, 0, 2}, {0, 1, 2}}, false), 2, []Edge{{0, 1, 2}}},
		// A directed list is read as undirected: the arc 2→0 spans 0 and 2.
		{"arcs one way only", weightedEdgeList(3, wedges{{2, 0, 4}, {1, 2, 1}}, false), 5, []Edge{{1, 2, 1}, {0, 2, 4}}},
		// nx.minimum_spanning_tree(G).size(weight="weight") == 37.
		{"CLRS figure 23.1", weightedEdgeList(9, clrsEdges, true), 37, []Edge{{6, 7, 1}, {2, 8, 2}, {5, 6, 2}, {0, 1, 4},
			{2, 5, 4}, {2, 3, 7}, {0, 7, 8}, {3, 4, 9}}},
		{"no edges", edgeList(3, nil, true), 0, []Edge{}},
		{"empty graph", edgeList(0, nil, true), 0, []Edge{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			weight, es := MSF(c.el)
			require.Equal(t, c.weight, weight)
			require.Equal(t, c.edges, es)
			require.NoError(t, CheckMSF(c.el, c.weight, c.edges))
		})
	}
}

func TestCheckMSFRejectsBadForests(t *testing.T) {
	el := weightedEdgeList(5, wedges{{0, 1, 1}, {1, 2, 2}, {2, 0, 3}, {3, 4, 4}}, true)
	cases := []struct {
		name   string
		weight uint64
		edges  []Edge
		err    string
	}{
		{"endpoint out of range", 7, []Edge{{0, 1, 1}, {1, 5, 2}, {3, 4, 4}}, "edge 1 (1–5) has an endpoint outside 0..4"},
		{"not canonical", 7, []Edge{{1, 0, 1}, {1, 2, 2}, {3, 4, 4}}, "edge 0 (1–0) is not canonical: want U < V"},
		{"self-loop", 7, []Edge{{0, 1, 1}, {2, 2, 2}, {3, 4, 4}}, "edge 1 (2–2) is not canonical: want U < V"},
		{"no such edge", 7, []Edge{{0, 1, 1}, {1, 3, 2}, {3, 4, 4}}, "edge 1 (1–3, weight 2) is not an edge of the graph"},
		{"wrong weight", 7, []Edge{{0, 1, 1}, {1, 2, 1}, {3, 4, 4}}, "edge 1 (1–2, weight 1) is not an edge of the graph"},
		{"cycle", 6, []Edge{{0, 1, 1}, {1, 2, 2}, {0, 2, 3}}, "edge 2 (0–2) closes a cycle"},
		{"repeated edge", 3, []Edge{{0, 1, 1}, {0, 1, 1}}, "edge 1 (0–1) closes a cycle"},
		{"not spanning", 3, []Edge{{0, 1, 1}, {1, 2, 2}}, "forest has 2 edges, want 3 (5 vertices in 2 components)"},
		{"wrong total", 8, []Edge{{0, 1, 1}, {1, 2, 2}, {3, 4, 4}}, "edges weigh 7 in total but the reported weight is 8"},
		{"not minimum", 8, []Edge{{0, 1, 1}, {0, 2, 3}, {3, 4, 4}}, "spanning forest weighs 8, want the minimum 7"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.EqualError(t, CheckMSF(el, c.weight, c.edges), c.err)
		})
	}
	// Any order of the right edges is fine, and so is another minimum
	// forest when weights tie.
	require.NoError(t, CheckMSF(el, 7, []Edge{{3, 4, 4}, {1, 2, 2}, {0, 1, 1}}))
	tie := edgeList(3, edges{{0, 1}, {1, 2}, {2, 0}}, true)
	require.NoError(t, CheckMSF(tie, 2, []Edge{{1, 2, 1}, {0, 2, 1}}))
}

// primWeight is the weight of a minimum spanning forest by Prim's O(n²)
// algorithm on the matrix of lightest edge weights, restarted in every
// component.
func primWeight(el *graph.EdgeList) uint64 {
	n := int(el.NumVertices)
	const none = ^uint64(0) // no edge
	w := make([][]uint64, n)
	for v := range w {
		w[v] = make([]uint64, n)
		for u := range w[v] {
			w[v][u] = none
		}
	}
	for i := range el.Src {
		u, v := el.Src[i], el.Dst[i]
		x := uint64(1)
		if el.Weights != nil {
			x = uint64(el.Weights[i])
		}
		if u != v && x < w[u][v] {
			w[u][v], w[v][u] = x, x
		}
	}
	inTree := make([]bool, n)
	best := make([]uint64, n) // lightest edge from the trees to v
	for v := range best {
		best[v] = none
	}
	var total uint64
	for range n {
		pick := -1
		for v := range n {
			if !inTree[v] && (pick < 0 || best[v] < best[pick]) {
				pick = v
			}
		}
		if best[pick] != none { // else pick starts a new component
			total += best[pick]
		}
		inTree[pick] = true
		for v := range n {
			if !inTree[v] {
				best[v] = min(best[v], w[pick][v])
			}
		}
	}
	return total
}

// inMSFByCycleProperty reports whether e is in the unique minimum spanning
// forest under the order compareEdges: exactly when no path joins its ends
// through edges that come before it in that order.
func inMSFByCycleProperty(el *graph.EdgeList, e Edge) bool {
	uf := newUnionFind(el.NumVertices)
	for _, f := range msfEdges(el) {
		if compareEdges(f, e) < 0 {
			uf.union(f.U, f.V)
		}
	}
	return uf.find(e.U) != uf.find(e.V)
}

func TestMSFMatchesPrimOnRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	for trial := range 100 {
		n := 1 + rng.Uint64N(30)
		maxW := uint32(0) // unweighted
		if trial%3 != 0 {
			maxW = 1 + rng.Uint32N(10) // small weights: many ties
		}
		el := randomEdgeList(rng, n, rng.IntN(4*int(n)), maxW, trial%2 == 0)
		weight, es := MSF(el)
		require.Equal(t, primWeight(el), weight, "trial %d", trial)
		require.NoError(t, CheckMSF(el, weight, es), "trial %d", trial)
		// The forest is exactly the edges that the cycle property keeps.
		chosen := make(map[Edge]bool)
		for _, e := range es {
			chosen[e] = true
		}
		for _, e := range msfEdges(el) {
			require.Equal(t, inMSFByCycleProperty(el, e) && e.W == minParallelWeight(el, e), chosen[e], "trial %d, edge %v", trial, e)
		}
	}
}

// minParallelWeight is the lightest weight of an edge with e's ends.
func minParallelWeight(el *graph.EdgeList, e Edge) uint32 {
	w := e.W
	for _, f := range msfEdges(el) {
		if f.U == e.U && f.V == e.V {
			w = min(w, f.W)
		}
	}
	return w
}
