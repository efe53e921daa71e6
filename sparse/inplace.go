package sparse

import (
	"context"
	"math"
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
)

// The in-place path: a step of an engine.PlainMin program (BFS, SSSP) that
// folds every contribution straight into the values, with a plain min when
// the step runs inline and an atomic one (a compare-and-swap loop) in
// parallel, and lists each vertex it lowers once. It has no accumulator, no
// merge and no apply phase: one pass over the frontier's arcs, as GAPBS's
// top-down step, where the general path makes a pass over the arcs into the
// accumulator and a second one over the touched vertices.
//
// The contributions are computed from the source values from before the
// step: unless every contribution of the step is equal (an
// engine.EarlyExit program: a lowered source never lowers a destination
// further), the frontier's values are copied first, so a source that
// another source lowers during the step still sends its old value. The
// values and the set of vertices lowered are then exactly those of the
// general path, which applies min(acc, value) to every touched vertex.
// A vertex lowered more than once in a step is listed once, by whichever
// worker first claims it in the touched bitset (not needed when every
// contribution is equal: only the first can lower it).

// inPlaceOK reports whether a step of p takes the in-place path: an
// engine.PlainMin program (over uint32 values) on a frontier of fewer than
// e.inPlaceMax arcs (total, from plan): by default every frontier (the
// hybrid sends the large ones of BFS and SSSP to the dense and pull steps;
// on R-MAT 20 the in-place path took as long as the general one); tests
// lower it to compare the two paths.
func (e *Engine[V]) inPlaceOK(p engine.Program[V], total uint64) bool {
	if _, ok := p.(engine.PlainMin); !ok || total >= e.inPlaceMax {
		return false
	}
	_, ok := any(p).(engine.Program[uint32])
	return ok
}

// inPlace is the in-place path's setup for one step.
type inPlace struct {
	kind   kind
	edge   engine.EdgeOp
	vals   []uint32
	off    []uint64
	dst    []uint32
	wts    []uint32
	bits   []uint32 // the claims of listed vertices (unless same)
	src    []uint32 // the frontier's values before the step (unless same)
	same   bool     // every contribution is c0
	c0     uint32
	claims bool // listing needs a claim
	// oneRow: the frontier is one vertex and every contribution is c0 (the
	// first step of a BFS), so the workers lower disjoint destinations
	// with plain reads and writes (lowerRow).
	oneRow bool
	// Near-far (piled != nil, StepNearFar): a vertex lowered to a value at
	// or above split goes to the far list, once (its bit in piled), not
	// to the next frontier.
	split uint32
	piled []uint32
}

// stepInPlace runs the step of frontier (total arcs, planned in e.pre, the
// frontier's values copied to e.srcVals unless every contribution is
// equal) by the in-place path; with piled (not nil) it splits the next
// frontier at split, appending the far vertices to far (StepNearFar). It
// is not cancelled once started: ctx is checked before it, and the step
// is short (a frontier of fewer than e.inPlaceMax arcs).
func (e *Engine[V]) stepInPlace(ctx context.Context, k *kernel[V], frontier []uint32, total uint64, split uint32, piled, far []uint32, start time.Time, phases []engine.Phase) ([]uint32, []uint32, []engine.Phase, error) {
	if err := ctx.Err(); err != nil {
		return nil, far, nil, err
	}
	vals := any(k.values).([]uint32)
	ip := inPlace{kind: k.kind, edge: k.edge, vals: vals, off: k.off, dst: k.dst, wts: k.wts, bits: e.main.bits,
		split: split, piled: piled}
	if k.same && k.kind == minConst {
		ip.same, ip.c0 = true, engine.Contribute(k.edge, vals[frontier[0]], 0)
	} else {
		ip.src = any(e.srcVals).([]uint32)[:len(frontier)]
	}
	ip.claims = !ip.same || piled != nil
	ip.oneRow = !ip.claims && len(frontier) == 1
	parts := 1
	if e.workers > 1 && total >= e.inlineArcs {
		// The arcs are cut into pieces; worker w takes the pieces of the
		// w-th of nw equal ranges in order (the frontier's order follows
		// the previous step's workers, so a worker keeps to the region it
		// found, in its cache), then those left in the others' (a worker
		// slow to start or preempted takes fewer: Team.RunShared).
		nw := e.workersFor(total)
		parts = nw
		pre := e.pre
		piece := max(e.inPlacePiece, total/uint64(nw*inPlacePiecesPerWorker))
		pieces := (total + piece - 1) / piece
		for w := range nw {
			e.ws[w].next.Store(pieces * uint64(w) / uint64(nw))
		}
		e.team.RunShared(nw, func(w int) {
			ws := &e.ws[w]
			out, far := ws.out, ws.far
			for k := range nw {
				v := (w + k) % nw
				next, end := &e.ws[v].next, pieces*uint64(v+1)/uint64(nw)
				for c := next.Add(1) - 1; c < end; c = next.Add(1) - 1 {
					out, far = ip.parallel(frontier, pre, c*piece, min((c+1)*piece, total), out, far)
				}
			}
			ws.out, ws.far = out, far
		})
	} else {
		ws := &e.ws[0]
		ws.out, ws.far = ip.serial(frontier, ws.out[:0], ws.far[:0])
	}
	now := time.Now()
	phases = append(phases, engine.Phase{Name: PhaseTraverse, Seconds: now.Sub(start).Seconds()},
		engine.Phase{Name: PhaseMerge})
	count := 0
	for w := range parts {
		count += len(e.ws[w].out)
	}
	next := make([]uint32, 0, count)
	for w := range parts {
		ws := &e.ws[w]
		if ip.claims {
			for _, v := range ws.out {
				ip.bits[v>>5] = 0
			}
		}
		if piled != nil {
			// A listed vertex's far entry, if any, is stale now.
			for _, v := range ws.out {
				piled[v>>5] &^= 1 << (v & 31)
			}
			far = append(far, ws.far...)
			ws.far = ws.far[:0]
		}
		next = append(next, ws.out...)
		ws.out = ws.out[:0]
	}
	phases = append(phases, engine.Phase{Name: PhaseApply, Seconds: time.Since(now).Seconds()})
	return next, far, phases, nil
}

// contribution returns the contribution of the arcs of the frontier vertex
// at index i whose arcs add no weight (minConst), and whether it can lower
// anything (it is not the identity).
func (ip *inPlace) contribution(i int) (uint32, bool) {
	if ip.same {
		return ip.c0, ip.c0 != math.MaxUint32
	}
	c := engine.Contribute(ip.edge, ip.src[i], 0)
	return c, c != math.MaxUint32
}

// base returns the value the arcs of the frontier vertex at index i add
// their weights to, and whether it is reached.
func (ip *inPlace) base(i int) (uint32, bool) {
	x := ip.src[i]
	return x, x != math.MaxUint32
}

// serial relaxes the arcs of frontier with plain reads and writes (the
// step runs on one goroutine) and appends the vertices it lowers to out
// (to far those near-far piles).
func (ip *inPlace) serial(frontier []uint32, out, far []uint32) ([]uint32, []uint32) {
	off, dst, vals := ip.off, ip.dst, ip.vals
	for i, u := range frontier {
		lo, hi := off[u], off[u+1]
		switch ip.kind {
		case minConst:
			c, ok := ip.contribution(i)
			if !ok {
				continue
			}
			if !ip.claims {
				for _, v := range dst[lo:hi] {
					if c < vals[v] {
						vals[v] = c
						out = append(out, v)
					}
				}
				continue
			}
			for _, v := range dst[lo:hi] {
				if c < vals[v] {
					vals[v] = c
					out, far = ip.listPlain(v, c, out, far)
				}
			}
		case minWeight:
			x, ok := ip.base(i)
			if !ok {
				continue
			}
			wts := ip.wts[lo:hi]
			for j, v := range dst[lo:hi] {
				c := x + wts[j]
				if c >= x && c < vals[v] { // c < x: saturated
					vals[v] = c
					out, far = ip.listPlain(v, c, out, far)
				}
			}
		case minFloat:
			x, ok := ip.base(i)
			if !ok {
				continue
			}
			xf := math.Float32frombits(x)
			wts := ip.wts[lo:hi]
			for j, v := range dst[lo:hi] {
				if c := math.Float32bits(xf + math.Float32frombits(wts[j])); c < vals[v] {
					vals[v] = c
					out, far = ip.listPlain(v, c, out, far)
				}
			}
		}
	}
	return out, far
}

// listPlain lists v, just lowered to c on the step's one goroutine: on
// far, once, when near-far piles it, else on out unless claimed already.
func (ip *inPlace) listPlain(v, c uint32, out, far []uint32) ([]uint32, []uint32) {
	m := uint32(1) << (v & 31)
	if ip.piled != nil && c >= ip.split {
		if w := &ip.piled[v>>5]; *w&m == 0 {
			*w |= m
			far = append(far, v)
		}
		return out, far
	}
	if w := &ip.bits[v>>5]; *w&m == 0 {
		*w |= m
		out = append(out, v)
	}
	return out, far
}

// parallel relaxes the arcs [a, b) of the frontier's (in the order of the
// prefix sums pre) with atomic mins, for one worker of a parallel step, and
// appends the vertices it lowers and claims to out (to far those near-far
// piles).
func (ip *inPlace) parallel(frontier []uint32, pre []uint64, a, b uint64, out, far []uint32) ([]uint32, []uint32) {
	if a >= b {
		return out, far
	}
	off, dst := ip.off, ip.dst
	f := len(frontier)
	start := par.FindStart(pre, a)
	ip.touch(frontier, pre, start, b)
	for i := start; i < f; i++ {
		vlo := pre[i]
		if vlo >= b {
			break
		}
		vhi := pre[i+1]
		if vhi == vlo {
			continue
		}
		u := frontier[i]
		lo, hi := off[u]+max(a, vlo)-vlo, off[u]+min(b, vhi)-vlo
		switch ip.kind {
		case minConst:
			if c, ok := ip.contribution(i); ok && ip.oneRow {
				out = ip.lowerRow(lo, hi, off[u], c, out)
			} else if ok {
				out, far = ip.lowerConst(dst[lo:hi], c, out, far)
			}
		case minWeight:
			if x, ok := ip.base(i); ok {
				out, far = ip.lowerWeight(dst[lo:hi], ip.wts[lo:hi], x, out, far)
			}
		case minFloat:
			if x, ok := ip.base(i); ok {
				out, far = ip.lowerFloat(dst[lo:hi], ip.wts[lo:hi], x, out, far)
			}
		}
	}
	return out, far
}

// touch loads the first arc of each frontier vertex whose arcs begin
// before b, from index i on, and returns their sum (nothing else): the
// loads do not depend on each other nor on any branch, so the core issues
// many at once, and the relaxation that follows finds the offsets and rows
// (scattered cache misses on a frontier of low-degree vertices) in the
// cache instead of waiting for each in turn behind the previous vertex's
// compare-and-swap and mispredicted branches. It is not inlined, so that
// the loads, whose sum the caller drops, are not optimised away.
//
//go:noinline
func (ip *inPlace) touch(frontier []uint32, pre []uint64, i int, b uint64) uint32 {
	off, dst := ip.off, ip.dst
	if len(dst) == 0 {
		return 0
	}
	last := uint64(len(dst) - 1)
	var s uint32
	for ; i < len(frontier) && pre[i] < b; i++ {
		s += dst[min(off[frontier[i]], last)]
	}
	return s
}

// lower lowers vals[v] to c with an atomic min and reports whether it did.
func lower(vals []uint32, v, c uint32) bool {
	p := &vals[v]
	for cur := atomic.LoadUint32(p); c < cur; cur = atomic.LoadUint32(p) {
		if atomic.CompareAndSwapUint32(p, cur, c) {
			return true
		}
	}
	return false
}

// listLowered lists v, just lowered to c by a worker of a parallel step:
// on far when near-far piles it and this worker piles it first; else on
// out, always when every contribution is equal (only the first can lower
// v), else when this worker claims it.
func (ip *inPlace) listLowered(v, c uint32, out, far []uint32) ([]uint32, []uint32) {
	if ip.piled != nil && c >= ip.split {
		if par.Claim(ip.piled, v) {
			far = append(far, v)
		}
		return out, far
	}
	if !ip.claims || par.Claim(ip.bits, v) {
		out = append(out, v)
	}
	return out, far
}

// lowerRow is lowerConst for a step of one frontier vertex whose
// contributions are all c (oneRow), over the arcs [lo, hi) of its row,
// which starts at arc row. The row is sorted by destination, so the
// workers' pieces of it hold disjoint destinations once a piece skips its
// leading arcs to the destination the previous piece ends with (a
// multigraph's parallel arcs): each destination is lowered and listed by
// one worker, with plain reads and writes. A compare-and-swap per arc
// would cost several times as much (on a BFS's first step from a hub,
// every arc lowers its destination), and its stalls would keep the
// destinations' cache misses from overlapping.
func (ip *inPlace) lowerRow(lo, hi, row uint64, c uint32, out []uint32) []uint32 {
	dst, vals := ip.dst, ip.vals
	if lo > row {
		for prev := dst[lo-1]; lo < hi && dst[lo] == prev; lo++ {
		}
	}
	for _, v := range dst[lo:hi] {
		if c < vals[v] {
			vals[v] = c
			out = append(out, v)
		}
	}
	return out
}

func (ip *inPlace) lowerConst(dst []uint32, c uint32, out, far []uint32) ([]uint32, []uint32) {
	vals := ip.vals
	if !ip.claims { // BFS: only the first lowering of v can succeed
		for _, v := range dst {
			if p := &vals[v]; c < atomic.LoadUint32(p) && lower(vals, v, c) {
				out = append(out, v)
			}
		}
		return out, far
	}
	for _, v := range dst {
		if lower(vals, v, c) {
			out, far = ip.listLowered(v, c, out, far)
		}
	}
	return out, far
}

func (ip *inPlace) lowerWeight(dst, wts []uint32, x uint32, out, far []uint32) ([]uint32, []uint32) {
	vals := ip.vals
	wts = wts[:len(dst)]
	for j, v := range dst {
		if c := x + wts[j]; c >= x && lower(vals, v, c) { // c < x: saturated
			out, far = ip.listLowered(v, c, out, far)
		}
	}
	return out, far
}

func (ip *inPlace) lowerFloat(dst, wts []uint32, x uint32, out, far []uint32) ([]uint32, []uint32) {
	vals := ip.vals
	xf := math.Float32frombits(x)
	wts = wts[:len(dst)]
	for j, v := range dst {
		if c := math.Float32bits(xf + math.Float32frombits(wts[j])); lower(vals, v, c) {
			out, far = ip.listLowered(v, c, out, far)
		}
	}
	return out, far
}
