package ref

import (
	"math/rand/v2"

	"github.com/mgraph-dev/mgraph/graph"
)

// edges is a list of arcs (or edges, for undirected graphs) as pairs.
type edges [][2]uint32

// wedges is a list of weighted arcs (or edges) as (src, dst, weight).
type wedges [][3]uint32

// edgeList builds a directed edge list; undirected graphs are symmetrized.
func edgeList(n uint64, es edges, undirected bool) *graph.EdgeList {
	el := &graph.EdgeList{NumVertices: n, Directed: true, Src: []uint32{}, Dst: []uint32{}}
	for _, e := range es {
		el.Src = append(el.Src, e[0])
		el.Dst = append(el.Dst, e[1])
	}
	if undirected {
		el.Symmetrize(1)
	}
	return el
}

// directed returns the CSR of the directed graph with the given arcs.
func directed(n uint64, es edges) *graph.CSR { return graph.ToCSR(edgeList(n, es, false), 1) }

// undirected returns the CSR of the undirected graph with the given edges.
func undirected(n uint64, es edges) *graph.CSR { return graph.ToCSR(edgeList(n, es, true), 1) }

// weighted returns the CSR of a weighted graph, symmetrized if undirected.
func weighted(n uint64, es wedges, undirected bool) *graph.CSR {
	el := &graph.EdgeList{NumVertices: n, Directed: true, Src: []uint32{}, Dst: []uint32{}, Weights: []uint32{}}
	for _, e := range es {
		el.Src = append(el.Src, e[0])
		el.Dst = append(el.Dst, e[1])
		el.Weights = append(el.Weights, e[2])
	}
	if undirected {
		el.Symmetrize(1)
	}
	return graph.ToCSR(el, 1)
}

// randomEdgeList draws m random arcs on n vertices (self-loops and
// duplicates included), with weights in [0, maxW] when maxW > 0.
func randomEdgeList(rng *rand.Rand, n uint64, m int, maxW uint32, undirected bool) *graph.EdgeList {
	el := &graph.EdgeList{NumVertices: n, Directed: true, Src: make([]uint32, m), Dst: make([]uint32, m)}
	for i := range m {
		el.Src[i] = uint32(rng.Uint64N(n))
		el.Dst[i] = uint32(rng.Uint64N(n))
	}
	if maxW > 0 {
		el.Weights = make([]uint32, m)
		for i := range el.Weights {
			el.Weights[i] = rng.Uint32N(maxW + 1)
		}
	}
	if undirected {
		el.Symmetrize(1)
	}
	return el
}

// chain returns the undirected path 0-1-...-(n-1), optionally weighted by
// w(i, i+1) = i%7 + 1.
func chain(n uint64, withWeights bool) *graph.CSR {
	el := &graph.EdgeList{NumVertices: n, Directed: true, Src: make([]uint32, n-1), Dst: make([]uint32, n-1)}
	if withWeights {
		el.Weights = make([]uint32, n-1)
	}
	for i := range n - 1 {
		el.Src[i], el.Dst[i] = uint32(i), uint32(i+1)
		if withWeights {
			el.Weights[i] = uint32(i%7 + 1)
		}
	}
	el.Symmetrize(0)
	return graph.ToCSR(el, 0)
}

// arcs lists the arcs of g as (u, v, w) with w = 1 when unweighted.
func arcs(g *graph.CSR) wedges {
	var out wedges
	for u := uint32(0); uint64(u) < g.NumVertices; u++ {
		nbrs, ws := g.Row(u)
		for i, v := range nbrs {
			w := uint32(1)
			if ws != nil {
				w = ws[i]
			}
			out = append(out, [3]uint32{u, v, w})
		}
	}
	return out
}

// graphToCSR converts an edge list with one worker.
func graphToCSR(el *graph.EdgeList) *graph.CSR { return graph.ToCSR(el, 1) }
