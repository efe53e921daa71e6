package sparse

import (
	"sync/atomic"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
)

// highSplit returns the row-relative offset of u's first low arc: its arcs
// [0, highSplit) go to high destinations.
func (e *Engine[V]) highSplit(u uint32) uint64 {
	if e.nhs == 0 {
		return 0
	}
	return uint64(e.splitH[u])
}

// traverse folds the contributions of the frontier's arcs (total arcs in
// all) into t and returns the time of the merge of the high segments (zero
// when there was none).
//
// Inline, one pass over each row combines straight into t.acc. In
// parallel, the arcs are cut among the workers by arc count (the prefix sum
// e.pre), so a vertex of large out-degree is shared by several workers.
// Each worker makes one pass over its share of every row: the arcs into
// high destinations go to the worker's private accumulator (the CPU
// analogue of the paper's shared-memory segments: the whole high region of
// the default layout is a few hundred KiB and stays in cache), the arcs
// into the low segment are combined into t.acc with atomics. Each worker
// then buckets the high destinations it touched by segment, and the
// partials are merged into t.acc one segment per goroutine, so no two
// goroutines write the same destination and no atomics are needed on
// t.acc.
func (e *Engine[V]) traverse(k *kernel[V], t *target[V], frontier []uint32, total uint64, parallel bool) {
	if total == 0 {
		return
	}
	off := k.off
	if !parallel {
		list := e.ws[0].touched
		for _, u := range frontier {
			if off[u] < off[u+1] {
				list = k.plain(u, off[u], off[u+1], t.acc, t.bits, t.ident, list)
			}
		}
		e.ws[0].touched = list
		return
	}
	nw := e.workersFor(total)
	if e.nhs > 0 {
		e.active = nw
	}
	pre := e.pre
	f := len(frontier)
	piece := k.atomicPiece(t)
	run(nw, func(w int) {
		pb := &e.priv[w]
		if e.nhs > 0 {
			e.preparePriv(pb, t.op)
		}
		hlist := pb.list[:0]
		list := e.ws[w].touched
		a, b := total*uint64(w)/uint64(nw), total*uint64(w+1)/uint64(nw)
		if a < b {
			for i := par.FindStart(pre, a); i < f; i++ {
				vlo := pre[i]
				if vlo >= b {
					break
				}
				vhi := pre[i+1]
				if vhi == vlo {
					continue
				}
				u := frontier[i]
				// The worker's share of u's row, row-relative, and the
				// boundary between u's high and low arcs.
				rlo, rhi := max(a, vlo)-vlo, min(b, vhi)-vlo
				h := e.highSplit(u)
				base := off[u]
				if rlo < h {
					hlist = k.plain(u, base+rlo, base+min(h, rhi), pb.acc, pb.bits, pb.ident, hlist)
				}
				if lo := max(rlo, h); lo < rhi {
					list = piece(u, base+lo, base+rhi, list)
				}
			}
		}
		e.ws[w].touched = list
		pb.list = hlist
		if e.nhs > 0 {
			e.bucket(pb)
		}
	})
}

// bucket sorts a worker's touched high destinations by segment (counting
// sort into pb.sorted) and fills pb.segEnd.
func (e *Engine[V]) bucket(pb *privBuf[V]) {
	nhs := e.nhs
	seg := e.segSize
	end := pb.segEnd // nhs+1 entries
	if nhs == 1 {
		pb.sorted = pb.list
		end[0], end[1] = 0, len(pb.list)
		return
	}
	for s := range end {
		end[s] = 0
	}
	for _, d := range pb.list {
		end[d/seg+1]++
	}
	for s := 1; s <= nhs; s++ {
		end[s] += end[s-1]
	}
	// end[s] is now the start of segment s; fill, advancing the starts to
	// the ends.
	if cap(pb.buf) < len(pb.list) {
		pb.buf = make([]uint32, len(pb.list), cap(pb.list))
	}
	sorted := pb.buf[:len(pb.list)]
	for _, d := range pb.list {
		s := d / seg
		sorted[end[s]] = d
		end[s]++
	}
	copy(end[1:], end[:nhs])
	end[0] = 0
	pb.sorted = sorted
}

// merge folds the workers' private partials into t.acc, one segment per
// goroutine (each segment's destinations are written by one goroutine
// only), resetting the private accumulators. The destinations t had not
// seen yet are claimed in t.bits and added to the merging goroutine's
// touched list.
func (e *Engine[V]) merge(t *target[V]) {
	nw := e.active
	nhs := e.nhs
	var next atomic.Int64
	run(min(e.workers, nhs), func(mw int) {
		list := e.ws[mw].touched
		for {
			s := int(next.Add(1) - 1)
			if s >= nhs {
				break
			}
			for w := 0; w < nw; w++ {
				pb := &e.priv[w]
				seg := pb.sorted[pb.segEnd[s]:pb.segEnd[s+1]]
				if len(seg) == 0 {
					continue
				}
				if t.op == engine.CombineMin {
					list = mergeMin(seg, pb.acc, t.acc, t.ident, list)
				} else {
					list = mergeSum(seg, pb.acc, pb.bits, t.acc, t.bits, list)
				}
			}
		}
		e.ws[mw].touched = list
	})
	for w := 0; w < nw; w++ {
		e.priv[w].list = e.priv[w].list[:0]
		e.priv[w].sorted = nil
	}
	e.active = 0
}
