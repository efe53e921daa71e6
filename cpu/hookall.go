package cpu

import (
	"sync/atomic"

	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// HookAll is HookAll over the backend's layout on its workers (a
// partitioned CC's first superstep on a CPU part, partition.FromHooks),
// with the layout's RowlessIn built by the first call and kept.
func (b *Backend) HookAll(tree []uint32) {
	b.rowlessOnce.Do(func() { b.rowless = NewRowlessIn(b.l, b.workers) })
	HookAll(b.l, b.rowless, tree, b.workers)
}

// hookAllChunksPerWorker is how many ranges of arcs per core eachArc cuts
// (a range is one goroutine's).
const hookAllChunksPerWorker = 8

// RowlessIn lists, for every layout id whose row is empty (a part's ghosts),
// the vertices whose rows name it, as a CSR over all layout ids (Offsets
// has n+1 entries; the lists of vertices with rows are empty). In a part
// of an undirected graph an owned vertex's row lists every neighbour it
// has in the part and a ghost's list does: with both, every edge is seen
// from both of its ends, as Afforest's skipping of the big component
// needs (HookAll).
type RowlessIn struct {
	Offsets []uint64
	Src     []uint32
}

// NewRowlessIn builds l's RowlessIn on workers cores: a pass over the arcs
// counts, another fills (each list's order is the order the cores reach
// its arcs).
func NewRowlessIn(l *layout.Layout, workers int) *RowlessIn {
	off, dst := l.SparseOffsets, l.SparseDst
	n := len(off) - 1
	rowless := make([]bool, n) // a byte a vertex, read for every arc: cached where off is not
	par.For(n, workers, componentsMinPerWorker, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			rowless[v] = off[v+1] == off[v]
		}
	})
	counts := make([]uint32, n)
	eachArc(off, workers, func(v int, e uint64) {
		if w := dst[e]; rowless[w] {
			atomic.AddUint32(&counts[w], 1)
		}
	})
	in := &RowlessIn{Offsets: make([]uint64, n+1)}
	for w, c := range counts {
		in.Offsets[w+1] = in.Offsets[w] + uint64(c)
	}
	in.Src = make([]uint32, in.Offsets[n])
	next := counts // reused: the slots each list has taken so far
	clear(next)
	eachArc(off, workers, func(v int, e uint64) {
		if w := dst[e]; rowless[w] {
			in.Src[in.Offsets[w]+uint64(atomic.AddUint32(&next[w], 1)-1)] = uint32(v)
		}
	})
	return in
}

// eachArc calls fn(v, e) for every arc e of row v of the rows off, the
// arcs shared among the cores in ranges (so that a hub's row is not one
// core's), every range's arcs in order.
func eachArc(off []uint64, workers int, fn func(v int, e uint64)) {
	m := off[len(off)-1]
	if m == 0 {
		return
	}
	par.ForChunks(par.Split(int(m), par.Workers(workers)*hookAllChunksPerWorker), func(c par.Chunk) {
		v := par.FindStart(off, uint64(c.Lo))
		for e := uint64(c.Lo); e < uint64(c.Hi); e++ {
			for e >= off[v+1] {
				v++
			}
			fn(v, e)
		}
	})
}

// HookAll links the components of layout l into the union-find tree (one
// entry per layout id) by Afforest's hooking and compresses it:
// afterwards tree[v] is the smallest layout id of v's component. It is
// for a part of a partitioned undirected graph, whose ghosts have no rows:
// each vertex's neighbours are its row, or, when that is empty, its list
// in, so that every edge is seen from both ends and, as in Components,
// the vertices that sampling put in layout vertex 0's tree need not look
// at the rest of theirs. NeighborRounds sampling rounds link each vertex
// with one more neighbour, then the vertices outside vertex 0's tree
// link with the rest of theirs.
func HookAll(l *layout.Layout, in *RowlessIn, tree []uint32, workers int) {
	off, dst := l.SparseOffsets, l.SparseDst
	n := len(tree)
	if n == 0 {
		return
	}
	// neighbours returns v's list: its row, or its list in.
	neighbours := func(v int) []uint32 {
		if off[v+1] > off[v] {
			return dst[off[v]:off[v+1]]
		}
		return in.Src[in.Offsets[v]:in.Offsets[v+1]]
	}
	par.For(n, workers, componentsMinPerWorker, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			tree[v] = uint32(v)
		}
	})
	for r := range NeighborRounds {
		par.For(n, workers, componentsGrain, func(lo, hi int) {
			for v := lo; v < hi; v++ {
				if list := neighbours(v); r < len(list) {
					link(tree, uint32(v), list[r])
				}
			}
		})
		compress(tree, workers, nil)
	}
	// The vertices outside vertex 0's tree link the rest of their lists
	// (a vertex whose entry is 0 is in it; one hooked into it meanwhile
	// may stop early: each edge it skips is then inside that tree, or
	// linked from its other end).
	par.For(n, workers, componentsGrain, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			if atomic.LoadUint32(&tree[v]) == 0 {
				continue
			}
			list := neighbours(v)
			for k := NeighborRounds; k < len(list); k++ {
				link(tree, uint32(v), list[k])
			}
		}
	})
	compress(tree, workers, nil)
}
