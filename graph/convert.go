package graph

import (
	"github.com/mgraph-dev/mgraph/internal/par"
)

// minArcsPerWorker keeps tiny conversions on one goroutine.
const minArcsPerWorker = 1 << 16

// ToCSR builds the out-adjacency of el by a parallel, stable counting sort on
// the arc sources. Each row keeps the arcs in their edge-list order, so the
// result does not depend on workers (0 means GOMAXPROCS).
func ToCSR(el *EdgeList, workers int) *CSR {
	return &CSR{groupBy(el.NumVertices, el.Src, el.Dst, el.Weights, el.WeightKind, el.Directed, workers)}
}

// ToCSC builds the in-adjacency of el by a parallel, stable counting sort on
// the arc destinations.
func ToCSC(el *EdgeList, workers int) *CSC {
	return &CSC{groupBy(el.NumVertices, el.Dst, el.Src, el.Weights, el.WeightKind, el.Directed, workers)}
}

// groupBy is the counting sort behind ToCSR and ToCSC: arcs are grouped by
// key (stable), and the row of vertex v lists the vals of the arcs whose key is v.
func groupBy(n uint64, keys, vals, weights []uint32, kind WeightKind, directed bool, workers int) Adjacency {
	m := len(keys)
	workers = par.Workers(workers)
	if m/minArcsPerWorker < workers {
		workers = max(1, m/minArcsPerWorker)
	}
	chunks := par.Split(m, workers)

	// Per-chunk counts, then turned into per-chunk write positions so that
	// chunk c's arcs for vertex v land after those of chunks < c.
	counts := make([][]uint64, len(chunks))
	par.ForChunks(chunks, func(c par.Chunk) {
		cnt := make([]uint64, n)
		for _, k := range keys[c.Lo:c.Hi] {
			cnt[k]++
		}
		counts[c.Index] = cnt
	})
	offsets := make([]uint64, n+1)
	par.For(int(n), workers, 1<<16, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			var d uint64
			for _, cnt := range counts {
				d += cnt[v]
			}
			offsets[v] = d
		}
	})
	offsets[n] = 0
	par.ExclusiveScan(offsets)
	par.For(int(n), workers, 1<<16, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			pos := offsets[v]
			for _, cnt := range counts {
				c := cnt[v]
				cnt[v] = pos
				pos += c
			}
		}
	})

	adj := Adjacency{NumVertices: n, Offsets: offsets, Neighbors: make([]uint32, m), Directed: directed}
	if weights != nil {
		adj.Weights, adj.WeightKind = make([]uint32, m), kind
	}
	par.ForChunks(chunks, func(c par.Chunk) {
		pos := counts[c.Index]
		for i := c.Lo; i < c.Hi; i++ {
			k := keys[i]
			p := pos[k]
			pos[k] = p + 1
			adj.Neighbors[p] = vals[i]
			if weights != nil {
				adj.Weights[p] = weights[i]
			}
		}
	})
	return adj
}

// EdgeList expands the out-adjacency back into an arc list, ordered by source
// and then by position in each row.
func (g *CSR) EdgeList(workers int) *EdgeList {
	el := g.expand(workers)
	el.Src, el.Dst = el.Dst, el.Src // expand puts the row vertex in Dst
	return el
}

// IntoEdgeList is EdgeList without copying the neighbour and weight arrays:
// they become the arc list's destinations and weights, and g must not be
// used afterwards (a reader's CSR that only exists to become an edge list
// saves two array copies that way).
func (g *CSR) IntoEdgeList(workers int) *EdgeList {
	el := &EdgeList{NumVertices: g.NumVertices, Src: make([]uint32, len(g.Neighbors)), Dst: g.Neighbors,
		Weights: g.Weights, WeightKind: g.WeightKind, Directed: g.Directed}
	g.fillRows(el.Src, workers)
	g.Neighbors, g.Weights, g.Offsets = nil, nil, nil
	return el
}

// EdgeList expands the in-adjacency back into an arc list, ordered by
// destination and then by position in each row.
func (g *CSC) EdgeList(workers int) *EdgeList { return g.expand(workers) }

// expand writes, for every stored arc, the row vertex into Dst and the
// neighbour into Src.
func (a *Adjacency) expand(workers int) *EdgeList {
	m := len(a.Neighbors)
	el := &EdgeList{
		NumVertices: a.NumVertices,
		Src:         append([]uint32(nil), a.Neighbors...),
		Dst:         make([]uint32, m),
		Directed:    a.Directed,
		WeightKind:  a.WeightKind,
	}
	if a.Weights != nil {
		el.Weights = append([]uint32(nil), a.Weights...)
	}
	a.fillRows(el.Dst, workers)
	return el
}

// fillRows writes, for every stored arc, its row vertex into rows (in
// parallel; a new slice's pages are faulted in by all the workers).
func (a *Adjacency) fillRows(rows []uint32, workers int) {
	par.For(int(a.NumVertices), workers, 1<<14, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			for i := a.Offsets[v]; i < a.Offsets[v+1]; i++ {
				rows[i] = uint32(v)
			}
		}
	})
}

// Transpose returns the CSR of the reversed graph, which holds the same rows
// as the CSC of g.
func (g *CSR) Transpose(workers int) *CSR {
	el := g.EdgeList(workers)
	return &CSR{groupBy(el.NumVertices, el.Dst, el.Src, el.Weights, el.WeightKind, el.Directed, workers)}
}
