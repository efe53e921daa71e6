package sparse

import (
	"fmt"
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
//
// Only the arcs [from, from+total) of the frontier's (in prefix order) are
// traversed in parallel; inline, from must be 0 and total all of them.
func (e *Engine[V]) traverse(k *kernel[V], t *target[V], frontier []uint32, from, total uint64, parallel bool) {
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
	e.team.Run(nw, func(w int) {
		pb := &e.priv[w]
		if e.nhs > 0 {
			e.preparePriv(pb, t.op)
		}
		hlist := pb.list[:0]
		list := e.ws[w].touched
		a, b := from+total*uint64(w)/uint64(nw), from+total*uint64(w+1)/uint64(nw)
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
	e.team.Run(min(e.workers, nhs), func(mw int) {
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

// flatOK reports whether a traversal of frontier for k takes the flat
// path (traverseFlat): a monotone min program over uint32 values, a
// frontier of at least e.flatMin vertices and more than one worker.
func (e *Engine[V]) flatOK(k *kernel[V], frontier []uint32) bool {
	if e.workers < 2 || k.seen == nil || len(frontier) < e.flatMin || len(frontier) == 0 {
		return false
	}
	_, ok := any(k.values).([]uint32)
	return ok
}

// traverseFlat is the traversal of a large frontier of an engine.Monotone
// min program (BFS's and SSSP's later sparse steps: tens of thousands of
// vertices of a few arcs each). Workers take runs of flatChunk frontier
// vertices from a shared counter and relax each whole row with atomics
// into t's shared accumulator, the high destinations included: the
// monotone programs' test against the destination's value drops most
// arcs before the atomic, so the private accumulators and their merge buy
// little, and skipping them spares the arc prefix sums over the frontier
// (plan), the high/low split lookup and a closure call per vertex. For an
// engine.EarlyExit program without weights the contribution, equal for
// every frontier vertex, is computed once instead of reading each
// vertex's value.
//
// Vertices with more than e.flatMaxDeg arcs are set aside and traversed
// afterwards by the arc-balanced path (plan, traverse), which also merges
// any private partials. It returns an error, with t reset, for a frontier
// vertex out of range.
func (e *Engine[V]) traverseFlat(k *kernel[V], t *target[V], frontier []uint32) error {
	n := e.n
	if uint64(frontier[0]) >= n {
		return fmt.Errorf("sparse: frontier vertex %d is not below %d", frontier[0], n)
	}
	f := flatU32{
		n: n, off: k.off, dst: k.dst, wts: k.wts, maxDeg: e.flatMaxDeg,
		acc:  any(t.acc).([]uint32),
		seen: any(k.seen).([]uint32),
		vals: any(k.values).([]uint32),
		kind: k.kind, edge: k.edge,
	}
	if k.same && k.kind == minConst {
		f.same, f.c0 = true, engine.Contribute(k.edge, f.vals[frontier[0]], 0)
	}
	chunk := e.flatChunk
	units := (len(frontier) + chunk - 1) / chunk
	var next atomic.Int64
	var bad atomic.Int64
	bad.Store(-1)
	e.team.Run(min(e.workers, units), func(w int) {
		ws := &e.ws[w]
		list, big := ws.touched, ws.big[:0]
		for {
			c := int(next.Add(1) - 1)
			if c >= units {
				break
			}
			lo := c * chunk
			var i int
			list, big, i = f.rows(frontier[lo:min(lo+chunk, len(frontier))], list, big)
			if i >= 0 {
				bad.CompareAndSwap(-1, int64(lo+i))
				next.Store(int64(units)) // stop the others early
				break
			}
		}
		ws.touched, ws.big = list, big
	})
	if b := bad.Load(); b >= 0 {
		for w := range e.ws {
			e.ws[w].big = e.ws[w].big[:0]
		}
		e.resetTouched(t)
		return fmt.Errorf("sparse: frontier vertex %d is not below %d", frontier[b], n)
	}
	nb := 0
	for w := range e.ws {
		nb += len(e.ws[w].big)
	}
	if nb == 0 {
		return nil
	}
	big := e.bigs[:0]
	for w := range e.ws {
		big = append(big, e.ws[w].big...)
		e.ws[w].big = e.ws[w].big[:0]
	}
	e.bigs = big
	total, err := e.plan(big) // cannot fail: the vertices were checked
	if err != nil {
		e.resetTouched(t)
		return err
	}
	e.traverse(k, t, big, 0, total, e.workers > 1 && total >= e.inlineArcs)
	return nil
}

// flatU32 is traverseFlat's setup for uint32 values.
type flatU32 struct {
	n         uint64
	off       []uint64
	dst, wts  []uint32
	acc, seen []uint32
	vals      []uint32
	maxDeg    uint64
	kind      kind
	edge      engine.EdgeOp
	same      bool   // every contribution is c0 (EarlyExit, no weights)
	c0        uint32 // valid when same
}

// rows relaxes the rows of the vertices part into f.acc with atomics,
// appending the destinations it moves off the identity to list and the
// vertices of more than f.maxDeg arcs (not relaxed) to big. It returns the
// index in part of a vertex out of range, or -1.
func (f *flatU32) rows(part []uint32, list, big []uint32) ([]uint32, []uint32, int) {
	off, dst, acc, seen := f.off, f.dst, f.acc, f.seen
	for i, u := range part {
		if uint64(u) >= f.n {
			return list, big, i
		}
		lo, hi := off[u], off[u+1]
		if hi-lo > f.maxDeg {
			big = append(big, u)
			continue
		}
		switch f.kind {
		case minWeight:
			list = atomicMinWeightU32(dst[lo:hi], f.wts[lo:hi], acc, seen, f.vals[u], list)
			continue
		case minFloat:
			list = atomicMinFloatU32(dst[lo:hi], f.wts[lo:hi], acc, seen, f.vals[u], list)
			continue
		}
		c := f.c0
		if !f.same {
			c = engine.Contribute(f.edge, f.vals[u], 0)
		}
		list = atomicMinConstU32(dst[lo:hi], acc, seen, c, list)
	}
	return list, big, -1
}

// claimOK reports whether a step over frontier for k takes the claim path
// (stepClaim): an engine.EarlyExit and engine.Monotone min program over
// uint32 values without weights (every contribution of the step is the
// same), a frontier of fewer than estimateFew vertices (such as BFS's
// source: a hub's row cut among the workers, so their destinations hardly
// overlap) and more than one worker.
func (e *Engine[V]) claimOK(k *kernel[V], frontier []uint32) bool {
	if e.workers < 2 || k.seen == nil || !k.same || k.kind != minConst ||
		len(frontier) == 0 || len(frontier) >= estimateFew {
		return false
	}
	_, ok := any(k.values).([]uint32)
	return ok
}

// traverseClaim is the claim path's traversal of total arcs of frontier
// (e.pre planned): every contribution is c, so a destination that c can
// lower is claimed in t's touched bitset (an atomic OR, the bitset a
// thirty-second of the accumulator's size) by the one worker that reaches
// it first, which lists it; the accumulator is not used, and there is
// nothing to merge. Apply follows in applyClaim.
func (e *Engine[V]) traverseClaim(k *kernel[V], t *target[V], frontier []uint32, total uint64, c uint32) {
	nw := e.workersFor(total)
	pre, off, dst := e.pre, k.off, k.dst
	seen := any(k.seen).([]uint32)
	bits := t.bits
	f := len(frontier)
	e.team.Run(nw, func(w int) {
		list := e.ws[w].touched
		a, b := total*uint64(w)/uint64(nw), total*uint64(w+1)/uint64(nw)
		if a < b {
			for i := par.FindStart(pre, a); i < f && pre[i] < b; i++ {
				vlo, vhi := pre[i], pre[i+1]
				if vhi == vlo {
					continue
				}
				base := off[frontier[i]]
				for _, v := range dst[base+max(a, vlo)-vlo : base+min(b, vhi)-vlo] {
					if c < seen[v] && par.Claim(bits, v) {
						list = append(list, v)
					}
				}
			}
		}
		e.ws[w].touched = list
	})
}

// applyClaim is the claim path's apply phase: Apply(v, c) for every vertex
// a worker claimed, on that worker's list (the core that read v's value
// in the traversal), then the touched bitset cleared whole (n/8 bytes: a
// plain clear costs less than an atomic per claimed bit); it returns the
// vertices Apply made active in a new slice.
func (e *Engine[V]) applyClaim(p engine.Program[V], values []V, t *target[V], c V) []uint32 {
	parts := 0
	for i := range e.ws {
		if len(e.ws[i].touched) > 0 {
			parts = i + 1
		}
	}
	e.team.Run(parts, func(w int) {
		out := e.ws[w].out[:0]
		for _, v := range e.ws[w].touched {
			if p.Apply(v, c, values) {
				out = append(out, v)
			}
		}
		e.ws[w].out = out
		e.ws[w].touched = e.ws[w].touched[:0]
	})
	clear(t.bits)
	return e.gather(parts)
}

// clearClaims clears the bits of the claimed vertices and empties the
// lists (a cancelled claim-path step).
func (e *Engine[V]) clearClaims(t *target[V]) {
	for i := range e.ws {
		for _, v := range e.ws[i].touched {
			t.bits[v>>5] = 0
		}
		e.ws[i].touched = e.ws[i].touched[:0]
	}
}
