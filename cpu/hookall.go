package cpu

import (
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// HookAll is HookAll over the backend's layout on its workers (a
// partitioned CC's first superstep on a CPU part, partition.FromHooks).
func (b *Backend) HookAll(tree []uint32) { HookAll(b.l, tree, b.workers) }

// hookAllChunksPerWorker is how many ranges of arcs per core HookAll's pass
// over the arcs cuts (a range is one goroutine's).
const hookAllChunksPerWorker = 8

// HookAll links every arc of layout l into the union-find tree (one entry
// per layout id) by Afforest's hooking and compresses it: afterwards
// tree[v] is the smallest layout id of v's component. Unlike Components it
// skips no vertex's row, for a part of a partitioned graph, whose ghosts
// have no rows of their own (an arc to a ghost is its only link): after
// NeighborRounds sampling rounds it skips only the arcs between two
// vertices already in layout vertex 0's tree, and it shares the arcs, not
// the rows, among the cores, so that a hub's row is not one core's. The
// components are those of the arcs in l's rows, their direction ignored.
func HookAll(l *layout.Layout, tree []uint32, workers int) {
	off, dst := l.SparseOffsets, l.SparseDst
	n := len(tree)
	if n == 0 {
		return
	}
	par.For(n, workers, componentsMinPerWorker, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			tree[v] = uint32(v)
		}
	})
	for r := range uint64(NeighborRounds) {
		par.For(n, workers, componentsGrain, func(lo, hi int) {
			for v := lo; v < hi; v++ {
				if e := off[v] + r; e < off[v+1] {
					link(tree, uint32(v), dst[e])
				}
			}
		})
		compress(tree, workers, nil)
	}
	// big marks the vertices in vertex 0's tree after sampling (compressed:
	// they point at 0): their arcs between them need no link.
	big := make([]uint32, (n+31)/32)
	par.For(len(big), workers, componentsMinPerWorker/32, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			var bits uint32
			for v := i * 32; v < min(n, i*32+32); v++ {
				if tree[v] == 0 {
					bits |= 1 << (v & 31)
				}
			}
			big[i] = bits
		}
	})
	inBig := func(v uint32) bool { return big[v>>5]>>(v&31)&1 != 0 }
	if m := off[n]; m > 0 {
		par.ForChunks(par.Split(int(m), par.Workers(workers)*hookAllChunksPerWorker), func(c par.Chunk) {
			v := par.FindStart(off, uint64(c.Lo))
			for e := uint64(c.Lo); e < uint64(c.Hi); e++ {
				for e >= off[v+1] {
					v++
				}
				w := dst[e]
				if e-off[v] < NeighborRounds || (inBig(uint32(v)) && inBig(w)) {
					continue
				}
				link(tree, uint32(v), w)
			}
		})
	}
	compress(tree, workers, nil)
}
