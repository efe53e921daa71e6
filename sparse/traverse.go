package sparse

import (
	"sync/atomic"

	"github.com/mgraph-dev/mgraph/engine"
)

// splitOf returns the row-relative offset of u's first arc in segment s
// (0 ≤ s ≤ H; split(0) = 0).
func (e *Engine[V]) splitOf(s int, u uint32) uint64 {
	if s == 0 {
		return 0
	}
	return uint64(e.l.SegmentSplit[uint64(s-1)*e.n+uint64(u)])
}

// traverseHigh runs the sparse-high phase: the frontier's arcs into the high
// segments. Inline, they go straight into t. In parallel, the eh high arcs
// are cut among the workers by arc count; each worker accumulates its share
// segment by segment into its private accumulator, and the partials are
// then merged into t one segment per goroutine, without atomics on t.acc.
func (e *Engine[V]) traverseHigh(k *kernel[V], t *target[V], frontier []uint32, eh uint64, parallel bool) {
	if eh == 0 {
		return
	}
	off := k.off
	if !parallel {
		list := e.ws[0].touched
		for _, u := range frontier {
			if h := e.splitOf(e.nhs, u); h > 0 {
				list = k.plain(u, off[u], off[u]+h, t.acc, t.bits, t.ident, list)
			}
		}
		e.ws[0].touched = list
		return
	}
	nw := e.workersFor(eh)
	pre := e.preH
	f := len(frontier)
	nhs := e.nhs
	run(nw, func(w int) {
		pb := &e.priv[w]
		e.preparePriv(pb, t.op)
		a, b := eh*uint64(w)/uint64(nw), eh*uint64(w+1)/uint64(nw)
		list := pb.list[:0]
		for s := range pb.segEnd {
			pb.segEnd[s] = 0
		}
		if a < b {
			i0 := findStart(pre, a)
			for s := 0; s < nhs; s++ {
				for i := i0; i < f; i++ {
					vlo := pre[i]
					if vlo >= b {
						break
					}
					vhi := pre[i+1]
					if vhi == vlo {
						continue
					}
					// The worker's share of u's high arcs, row-relative.
					rlo, rhi := max(a, vlo)-vlo, min(b, vhi)-vlo
					u := frontier[i]
					lo := max(e.splitOf(s, u), rlo)
					hi := min(e.splitOf(s+1, u), rhi)
					if lo < hi {
						list = k.plain(u, off[u]+lo, off[u]+hi, pb.acc, pb.bits, pb.ident, list)
					}
				}
				pb.segEnd[s+1] = len(list)
			}
		}
		pb.list = list
	})
	// Merge: one segment at a time per goroutine.
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
				seg := pb.list[pb.segEnd[s]:pb.segEnd[s+1]]
				if len(seg) == 0 {
					continue
				}
				if t.op == engine.CombineMin {
					list = mergeMin(seg, pb.acc, pb.bits, t.acc, t.bits, t.ident, list)
				} else {
					list = mergeSum(seg, pb.acc, pb.bits, t.acc, t.bits, list)
				}
			}
		}
		e.ws[mw].touched = list
	})
}

// traverseLow runs the sparse-low phase: the frontier's arcs into the low
// segment, cut among the workers by arc count (a vertex of large out-degree
// is shared by several), combined into t with atomics.
func (e *Engine[V]) traverseLow(k *kernel[V], t *target[V], frontier []uint32, el uint64, parallel bool) {
	if el == 0 {
		return
	}
	off := k.off
	if !parallel {
		list := e.ws[0].touched
		for _, u := range frontier {
			lo, hi := off[u]+e.splitOf(e.nhs, u), off[u+1]
			if lo < hi {
				list = k.plain(u, lo, hi, t.acc, t.bits, t.ident, list)
			}
		}
		e.ws[0].touched = list
		return
	}
	nw := e.workersFor(el)
	pre := e.preL
	f := len(frontier)
	piece := k.atomicPiece(t)
	run(nw, func(w int) {
		a, b := el*uint64(w)/uint64(nw), el*uint64(w+1)/uint64(nw)
		if a >= b {
			return
		}
		list := e.ws[w].touched
		for i := findStart(pre, a); i < f; i++ {
			vlo := pre[i]
			if vlo >= b {
				break
			}
			vhi := pre[i+1]
			if vhi == vlo {
				continue
			}
			u := frontier[i]
			base := off[u] + e.splitOf(e.nhs, u)
			list = piece(u, base+max(a, vlo)-vlo, base+min(b, vhi)-vlo, list)
		}
		e.ws[w].touched = list
	})
}
