package graph

import (
	"math/rand/v2"
	"slices"

	"github.com/mgraph-dev/mgraph/internal/mix"
	"github.com/mgraph-dev/mgraph/internal/par"
)

// Transpose reverses every arc in place.
func (el *EdgeList) Transpose() { el.Src, el.Dst = el.Dst, el.Src }

// Symmetrize makes the graph undirected: for every arc u→v with u ≠ v it adds
// v→u with the same weight, and marks the list undirected. A list that is
// already undirected is left as it is. Arcs that were present in both
// directions become duplicates; remove them with Dedupe.
func (el *EdgeList) Symmetrize(workers int) {
	if !el.Directed {
		return
	}
	m := len(el.Src)
	// Count non-loop arcs per chunk to place the reversed copies
	// deterministically after the originals.
	chunks := par.Split(m, par.Workers(workers))
	extra := make([]uint64, len(chunks))
	par.ForChunks(chunks, func(c par.Chunk) {
		var k uint64
		for i := c.Lo; i < c.Hi; i++ {
			if el.Src[i] != el.Dst[i] {
				k++
			}
		}
		extra[c.Index] = k
	})
	size := m + int(par.ExclusiveScan(extra))
	src := extendArcs(el.Src, size, workers)
	dst := extendArcs(el.Dst, size, workers)
	var w []uint32
	if el.Weights != nil {
		w = extendArcs(el.Weights, size, workers)
	}
	par.ForChunks(chunks, func(c par.Chunk) {
		p := m + int(extra[c.Index])
		for i := c.Lo; i < c.Hi; i++ {
			if src[i] == dst[i] {
				continue
			}
			src[p], dst[p] = dst[i], src[i]
			if w != nil {
				w[p] = w[i]
			}
			p++
		}
	})
	el.Src, el.Dst, el.Weights = src, dst, w
	el.Directed = false
}

// extendArcs returns s extended to n elements (n ≥ len(s)), the new ones
// to be written by the caller: s itself when its capacity allows, else a
// copy in a new array of exactly n elements. (slices.Grow would take
// append's growth, about 1.22·n elements for a list that doubles, all of
// them cleared, and copy on one goroutine: for billions of arcs, gigabytes
// held for nothing and seconds of serial copying.)
func extendArcs(s []uint32, n, workers int) []uint32 {
	if cap(s) >= n {
		return s[:n]
	}
	out := make([]uint32, n)
	par.Copy(out[:len(s)], s, workers, minArcsPerWorker)
	return out
}

// DropSelfLoops removes every arc u→u and returns how many were removed. The
// order of the remaining arcs is kept.
func (el *EdgeList) DropSelfLoops() uint64 {
	j := 0
	for i := range el.Src {
		if el.Src[i] == el.Dst[i] {
			continue
		}
		el.Src[j], el.Dst[j] = el.Src[i], el.Dst[i]
		if el.Weights != nil {
			el.Weights[j] = el.Weights[i]
		}
		j++
	}
	removed := uint64(len(el.Src) - j)
	el.Src, el.Dst = el.Src[:j], el.Dst[:j]
	if el.Weights != nil {
		el.Weights = el.Weights[:j]
	}
	return removed
}

// CountSelfLoops returns the number of arcs u→u.
func (el *EdgeList) CountSelfLoops() uint64 {
	var k uint64
	for i := range el.Src {
		if el.Src[i] == el.Dst[i] {
			k++
		}
	}
	return k
}

// SortRows sorts every row by neighbour (and, among equal neighbours, by
// weight), in parallel over vertices.
func (a *Adjacency) SortRows(workers int) {
	par.Dynamic(int(a.NumVertices), workers, 4096, func(v int) {
		lo, hi := a.Offsets[v], a.Offsets[v+1]
		if hi-lo < 2 {
			return
		}
		nb := a.Neighbors[lo:hi]
		if a.Weights == nil {
			slices.Sort(nb)
			return
		}
		sortPairs(nb, a.Weights[lo:hi])
	})
}

// sortPairs sorts keys ascending, carrying vals along, ties broken by val.
func sortPairs(keys, vals []uint32) {
	packed := make([]uint64, len(keys))
	for i := range keys {
		packed[i] = uint64(keys[i])<<32 | uint64(vals[i])
	}
	slices.Sort(packed)
	for i, p := range packed {
		keys[i], vals[i] = uint32(p>>32), uint32(p)
	}
}

// Dedupe removes repeated arcs (same source and destination), keeping the
// smallest weight among the copies, and returns how many were removed. The
// result is ordered by source, then destination, whatever its input order,
// so it is also a canonical form of the graph.
func (el *EdgeList) Dedupe(workers int) uint64 {
	g := ToCSR(el, workers)
	g.SortRows(workers)
	n := g.NumVertices
	// Unique within each row, counting survivors per row first.
	keep := make([]uint64, n+1)
	par.For(int(n), workers, 1<<14, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			nb := g.Neighbors[g.Offsets[v]:g.Offsets[v+1]]
			var k uint64
			for i := range nb {
				if i == 0 || nb[i] != nb[i-1] {
					k++
				}
			}
			keep[v] = k
		}
	})
	total := par.ExclusiveScan(keep)
	src := make([]uint32, total)
	dst := make([]uint32, total)
	var w []uint32
	if g.Weights != nil {
		w = make([]uint32, total)
	}
	par.For(int(n), workers, 1<<14, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			p := keep[v]
			for i := g.Offsets[v]; i < g.Offsets[v+1]; i++ {
				if i > g.Offsets[v] && g.Neighbors[i] == g.Neighbors[i-1] {
					continue // sorted by weight too: the first copy has the least
				}
				src[p], dst[p] = uint32(v), g.Neighbors[i]
				if w != nil {
					w[p] = g.Weights[i]
				}
				p++
			}
		}
	})
	removed := uint64(len(el.Src)) - total
	el.Src, el.Dst, el.Weights = src, dst, w
	return removed
}

// Renumber relabels the vertices by a random permutation drawn from seed and
// returns it: old vertex v becomes perm[v]. The same seed gives the same
// permutation on every machine.
func (el *EdgeList) Renumber(seed uint64, workers int) []uint32 {
	perm := RandomPermutation(el.NumVertices, seed)
	par.For(len(el.Src), workers, 1<<16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			el.Src[i] = perm[el.Src[i]]
			el.Dst[i] = perm[el.Dst[i]]
		}
	})
	return perm
}

// RandomPermutation returns a uniformly random permutation of 0..n-1 drawn
// from seed (Fisher–Yates over a PCG stream).
func RandomPermutation(n uint64, seed uint64) []uint32 {
	perm := make([]uint32, n)
	for i := range perm {
		perm[i] = uint32(i)
	}
	rng := rand.New(rand.NewPCG(seed, 0x6d6772617068)) // stream: "mgraph"
	for i := n; i > 1; i-- {
		j := rng.Uint64N(i)
		perm[i-1], perm[j] = perm[j], perm[i-1]
	}
	return perm
}

// SetRandomWeights gives every arc a weight drawn uniformly from [lo, hi]
// using seed. On an undirected list both arcs of an edge get the same weight
// (the weight is a hash of the unordered pair and the seed), so the result
// stays symmetric; the assignment does not depend on arc order or workers.
// The weights are integers (Uint32Weights).
func (el *EdgeList) SetRandomWeights(seed uint64, lo, hi uint32, workers int) {
	span := uint64(hi-lo) + 1
	el.setHashedWeights(seed, Uint32Weights, workers, func(h uint64) uint32 { return lo + uint32(h%span) })
}

// setHashedWeights gives every arc the weight weight(h), h a hash of the
// seed and the arc's endpoints (unordered on an undirected list, so both
// arcs of an edge agree), and sets the list's weight kind to kind.
func (el *EdgeList) setHashedWeights(seed uint64, kind WeightKind, workers int, weight func(h uint64) uint32) {
	if el.Weights == nil || len(el.Weights) != len(el.Src) {
		el.Weights = make([]uint32, len(el.Src))
	}
	el.WeightKind = kind
	par.For(len(el.Src), workers, 1<<16, func(a, b int) {
		for i := a; i < b; i++ {
			u, v := el.Src[i], el.Dst[i]
			if !el.Directed && u > v {
				u, v = v, u
			}
			el.Weights[i] = weight(mix.Hash64(seed ^ (uint64(u)<<32 | uint64(v))))
		}
	})
}
