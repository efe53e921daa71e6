// Package sparse is MultiGraphS on the CPU (MultiGraph §5): iterations
// driven by a frontier held as a list of vertices, over the sparse part of
// the layout (out-rows sorted by destination, cut into destination
// segments; docs/layout.md).
//
// An Engine runs one iteration (Step) in three phases:
//
//   - sparse-high: the arcs into the high in-degree destinations (groups
//     1..HighGroups, segments 0..H-1). The frontier's high arcs are cut
//     among the workers by arc count; each worker folds its share into a
//     private accumulator covering the high destinations, one segment at a
//     time (SegmentSize entries: the CPU analogue of the paper's
//     shared-memory accumulation), and the private partials are then merged
//     segment by segment, each segment by one worker, without atomics.
//   - sparse-low: the arcs into the low segment. The frontier is cut among
//     the workers by arc count (a prefix sum of the low part of every
//     out-degree, so a vertex of huge out-degree is shared by several
//     workers: the CPU analogue of the three-stage load balance) and every
//     contribution is combined into the accumulator with an atomic
//     operation (a compare-and-swap loop for min, skipped when the
//     contribution cannot improve; an atomic add or a CAS loop on the bits
//     for sums).
//   - sparse-apply: Apply for every vertex that received a contribution
//     (every vertex when the program says ApplyAll), resetting the
//     accumulator as it goes; the vertices Apply makes active form the next
//     frontier.
//
// Frontiers whose arcs total less than a few thousand run inline on the
// calling goroutine, and no phase does work proportional to the number of
// vertices unless the program is ApplyAll: a Step over a tiny frontier costs
// microseconds.
//
// The package also offers the general Advance and Filter primitives (a
// callback per arc and per vertex) for writing new traversals; programs
// (engine.Program) run much faster through an Engine, whose inner loops are
// specialised on the program's edge and combine operations.
package sparse

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// Tuning constants.
const (
	// inlineArcs: a traversal with fewer arcs runs on the calling goroutine.
	inlineArcs = 4096
	// minArcsPerWorker: a parallel traversal gives each worker at least this
	// many arcs (fewer workers otherwise).
	minArcsPerWorker = 2048
	// scanDiv: the apply phase finds the touched vertices by scanning the
	// touched bitset (n/32 words, ascending order) rather than the workers'
	// lists when touched·scanDiv ≥ n.
	scanDiv = 64
	// parallelPrefix: frontiers at least this long have their arc prefix sums
	// computed in parallel.
	parallelPrefix = 1 << 14
	// minApplyPerWorker: the list-driven apply phase gives each worker at
	// least this many vertices.
	minApplyPerWorker = 1024
)

// ErrUnweighted is returned by Step and Estimate for a program whose edges
// add the weight (engine.EdgeSourcePlusWeight) on a layout without weights.
var ErrUnweighted = errors.New("sparse: program adds edge weights but the layout is unweighted")

// Engine runs MultiGraphS iterations of programs with values of type V over
// one layout. All its memory (the accumulator, the touched bitset, the
// per-worker private accumulators and lists) is allocated by New, except a
// second accumulator that Estimate allocates on its first call and scratch
// lists that grow to the largest frontier seen.
//
// The accumulator is kept at the identity of the combine operation of the
// last program run; a Step with a program of the other combine operation
// first refills it (O(n), once per change).
//
// An Engine is not safe for concurrent use: one Step or Estimate at a time.
type Engine[V engine.Value] struct {
	l       *layout.Layout
	n       uint64
	workers int
	nhs     int    // high segments H
	high    uint32 // high destinations [0, high)

	main    target[V]
	scratch target[V] // Estimate's accumulator, allocated on first use
	priv    []privBuf[V]
	ws      []workerState

	preH, preL []uint64 // per-frontier-position exclusive prefix sums of high/low arcs
	chunkH     []uint64
	chunkL     []uint64
	chunkBad   []int64

	// knobs (tests lower them to force the parallel paths)
	inlineArcs       uint64
	minArcsPerWorker uint64
	scanDiv          uint64
	minApplyWorker   int
	parallelPrefix   int
}

// target is an accumulator with its touched bitset.
type target[V engine.Value] struct {
	acc   []V
	bits  []uint32 // bit v set ⇔ v received a contribution this step
	op    engine.CombineOp
	ident V
}

// privBuf is one worker's private accumulator over the high destinations.
type privBuf[V engine.Value] struct {
	acc    []V
	bits   []uint32
	op     engine.CombineOp
	ident  V
	list   []uint32 // destinations touched, grouped by segment
	segEnd []int    // list[segEnd[s]:segEnd[s+1]] are segment s's
	_      [64]byte
}

// workerState holds one worker's lists; padded so that workers do not share
// cache lines.
type workerState struct {
	touched []uint32 // vertices this worker claimed in the touched bitset
	out     []uint32 // next-frontier vertices found by this worker
	_       [64]byte
}

var (
	_ engine.SparseStepper[uint32]  = (*Engine[uint32])(nil)
	_ engine.SparseStepper[float64] = (*Engine[float64])(nil)
)

// New returns an engine over l that uses workers goroutines (0 means
// GOMAXPROCS). It checks the shape of the layout's sparse part and
// allocates the accumulator (n values), the touched bitset and, per worker,
// a private accumulator over the high in-degree destinations.
func New[V engine.Value](l *layout.Layout, workers int) (*Engine[V], error) {
	if l == nil {
		return nil, errors.New("sparse: nil layout")
	}
	if err := l.CheckShape(); err != nil {
		return nil, fmt.Errorf("sparse: %w", err)
	}
	n := l.NumVertices
	if uint64(len(l.SparseOffsets)) != n+1 || uint64(len(l.SparseDst)) != l.NumArcs ||
		(l.Weighted && uint64(len(l.SparseWeights)) != l.NumArcs) || len(l.SegmentBounds) < 2 ||
		uint64(len(l.SegmentSplit)) != uint64(l.NumHighSegments())*n {
		return nil, errors.New("sparse: layout's sparse part has inconsistent lengths")
	}
	if workers < 0 {
		return nil, fmt.Errorf("sparse: negative worker count %d", workers)
	}
	w := par.Workers(workers)
	e := &Engine[V]{
		l: l, n: n, workers: w, nhs: l.NumHighSegments(),
		inlineArcs: inlineArcs, minArcsPerWorker: minArcsPerWorker,
		scanDiv: scanDiv, minApplyWorker: minApplyPerWorker, parallelPrefix: parallelPrefix,
	}
	if e.nhs > 0 {
		e.high = l.SegmentBounds[e.nhs]
	}
	e.main = newTarget[V](n)
	e.ws = make([]workerState, w)
	e.priv = make([]privBuf[V], w)
	for i := range e.priv {
		pb := &e.priv[i]
		pb.acc = make([]V, e.high)
		pb.bits = make([]uint32, (uint64(e.high)+31)/32)
		pb.op = engine.CombineSum // zeroed memory is the sum identity
		pb.segEnd = make([]int, e.nhs+1)
	}
	e.chunkH = make([]uint64, w)
	e.chunkL = make([]uint64, w)
	e.chunkBad = make([]int64, w)
	return e, nil
}

func newTarget[V engine.Value](n uint64) target[V] {
	// Zeroed memory is the identity of sum.
	return target[V]{acc: make([]V, n), bits: make([]uint32, (n+31)/32), op: engine.CombineSum}
}

// Layout returns the engine's layout.
func (e *Engine[V]) Layout() *layout.Layout { return e.l }

// Workers returns the number of goroutines the engine uses.
func (e *Engine[V]) Workers() int { return e.workers }

// prepare makes t's accumulator hold the identity of op (refilled only when
// op differs from the last one used).
func (e *Engine[V]) prepareTarget(t *target[V], op engine.CombineOp) {
	if t.op == op {
		return
	}
	id := engine.Identity[V](op)
	par.For(len(t.acc), e.workers, 1<<16, func(lo, hi int) {
		s := t.acc[lo:hi]
		for i := range s {
			s[i] = id
		}
	})
	t.op, t.ident = op, id
}

func (e *Engine[V]) preparePriv(pb *privBuf[V], op engine.CombineOp) {
	if pb.op == op {
		return
	}
	id := engine.Identity[V](op)
	for i := range pb.acc {
		pb.acc[i] = id
	}
	pb.op, pb.ident = op, id
}

// check validates a program and its values against the layout.
func (e *Engine[V]) check(p engine.Program[V], values []V) error {
	if p == nil {
		return errors.New("sparse: nil program")
	}
	if uint64(len(values)) != e.n {
		return fmt.Errorf("sparse: %d values for %d vertices", len(values), e.n)
	}
	if p.Edge() == engine.EdgeSourcePlusWeight && !e.l.Weighted {
		return ErrUnweighted
	}
	if p.Edge() > engine.EdgeSourcePlusWeight {
		return fmt.Errorf("sparse: unknown edge operation %d", p.Edge())
	}
	if p.Combine() > engine.CombineSum {
		return fmt.Errorf("sparse: unknown combine operation %d", p.Combine())
	}
	return nil
}

// Step runs one MultiGraphS iteration from frontier, a list of distinct
// vertices in layout numbering: the contributions of the frontier's arcs
// are combined per destination, Apply runs for every vertex that received
// a contribution (every vertex if p.ApplyAll), and the vertices it makes
// active are returned, each once, in a newly allocated slice.
//
// Contributions equal to the identity of a min (an infinite source) are
// skipped, as are zero contributions to a sum: by the engine.Program
// contract Apply(v, Identity) changes nothing, so the result is the same.
//
// Order of the next frontier: ascending vertex id when p.ApplyAll or when
// the touched vertices are many (at least n/64); otherwise the order in
// which the vertices were first reached, which is deterministic when the
// step ran on one goroutine (one worker or fewer than a few thousand
// arcs) and may vary from run to run otherwise. The set of vertices, and
// the values, never depend on the number of workers or on scheduling
// (for sums up to floating-point rounding, since the order of the
// additions varies).
//
// The phases reported are sparse-high, sparse-low and sparse-apply. When
// ctx is cancelled between phases Step restores its state and returns
// ctx.Err() with values unchanged.
func (e *Engine[V]) Step(ctx context.Context, p engine.Program[V], values []V, frontier []uint32) ([]uint32, []engine.Phase, error) {
	if err := e.check(p, values); err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	t := &e.main
	e.prepareTarget(t, p.Combine())
	phases := make([]engine.Phase, 0, 3)
	start := time.Now()
	eh, el, err := e.plan(frontier)
	if err != nil {
		return nil, nil, err
	}
	parallel := e.workers > 1 && eh+el >= e.inlineArcs
	k := newKernel(p, values, e.l)
	e.traverseHigh(k, t, frontier, eh, parallel)
	now := time.Now()
	phases = append(phases, engine.Phase{Name: "sparse-high", Seconds: now.Sub(start).Seconds()})
	start = now
	if err := ctx.Err(); err != nil {
		e.resetTouched(t)
		return nil, nil, err
	}
	e.traverseLow(k, t, frontier, el, parallel)
	now = time.Now()
	phases = append(phases, engine.Phase{Name: "sparse-low", Seconds: now.Sub(start).Seconds()})
	start = now
	if err := ctx.Err(); err != nil {
		e.resetTouched(t)
		return nil, nil, err
	}
	next := e.apply(p, values, t)
	phases = append(phases, engine.Phase{Name: "sparse-apply", Seconds: time.Since(start).Seconds()})
	return next, phases, nil
}

// Estimate returns the time the sparse traversal of sample takes (ESP,
// MultiGraph §6): the same high and low phases as Step, combining into a
// second accumulator that is reset afterwards (the reset, which stands for
// the apply phase, is timed as well), never calling Apply and never
// touching values or any state a later Step reads. The hybrid scales the
// result by |frontier| / |sample|. Like Step, a sample of fewer than a few
// thousand arcs runs on the calling goroutine.
func (e *Engine[V]) Estimate(ctx context.Context, p engine.Program[V], values []V, sample []uint32) (time.Duration, error) {
	if err := e.check(p, values); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if e.scratch.acc == nil {
		e.scratch = newTarget[V](e.n)
	}
	t := &e.scratch
	e.prepareTarget(t, p.Combine())
	start := time.Now()
	eh, el, err := e.plan(sample)
	if err != nil {
		return 0, err
	}
	parallel := e.workers > 1 && eh+el >= e.inlineArcs
	k := newKernel(p, values, e.l)
	e.traverseHigh(k, t, sample, eh, parallel)
	e.traverseLow(k, t, sample, el, parallel)
	e.resetTouched(t)
	d := time.Since(start)
	return d, ctx.Err()
}

// resetTouched puts the accumulator entries and bits of every vertex in the
// workers' touched lists back to their reset state and empties the lists.
func (e *Engine[V]) resetTouched(t *target[V]) {
	total := 0
	for i := range e.ws {
		total += len(e.ws[i].touched)
	}
	if total*int(e.scanDiv) >= len(t.acc) && total > 0 {
		// Many: clear by scanning the bitset.
		bits := t.bits
		par.For(len(bits), e.workers, 1<<12, func(lo, hi int) {
			for wi := lo; wi < hi; wi++ {
				b := bits[wi]
				for b != 0 {
					v := wi*32 + trailingZeros(b)
					b &= b - 1
					t.acc[v] = t.ident
				}
				bits[wi] = 0
			}
		})
	} else {
		for i := range e.ws {
			for _, v := range e.ws[i].touched {
				t.acc[v] = t.ident
				t.bits[v>>5] = 0
			}
		}
	}
	for i := range e.ws {
		e.ws[i].touched = e.ws[i].touched[:0]
	}
}

// run calls fn(0..k-1) on k goroutines (fn(0) on the caller's) and waits.
func run(k int, fn func(w int)) {
	if k <= 1 {
		fn(0)
		return
	}
	var wg sync.WaitGroup
	wg.Add(k - 1)
	for w := 1; w < k; w++ {
		go func() {
			defer wg.Done()
			fn(w)
		}()
	}
	fn(0)
	wg.Wait()
}

// workersFor returns how many workers share a traversal of arcs arcs.
func (e *Engine[V]) workersFor(arcs uint64) int {
	w := uint64(e.workers)
	if e.minArcsPerWorker > 0 && arcs/e.minArcsPerWorker < w {
		w = max(1, arcs/e.minArcsPerWorker)
	}
	return int(w)
}

// plan checks the frontier and fills preH/preL with the exclusive prefix
// sums of each frontier vertex's high and low arc counts; it returns the
// totals.
func (e *Engine[V]) plan(frontier []uint32) (eh, el uint64, err error) {
	f := len(frontier)
	if cap(e.preH) < f+1 {
		e.preH = make([]uint64, f+1, max(f+1, 2*cap(e.preH)))
		e.preL = make([]uint64, f+1, cap(e.preH))
	}
	e.preH, e.preL = e.preH[:f+1], e.preL[:f+1]
	off := e.l.SparseOffsets
	n := e.n
	var split []uint32
	if e.nhs > 0 {
		split = e.l.SegmentSplit[uint64(e.nhs-1)*n : uint64(e.nhs)*n]
	}
	// prefix writes the local prefix sums of frontier[lo:hi] and returns
	// their totals, or bad ≥ 0: the index of a vertex out of range.
	prefix := func(lo, hi int) (sh, sl uint64, bad int) {
		preH, preL := e.preH, e.preL
		for i := lo; i < hi; i++ {
			u := frontier[i]
			if uint64(u) >= n {
				return 0, 0, i
			}
			preH[i], preL[i] = sh, sl
			d := off[u+1] - off[u]
			var h uint64
			if split != nil {
				h = uint64(split[u])
			}
			sh += h
			sl += d - h
		}
		return sh, sl, -1
	}
	if f < e.parallelPrefix || e.workers == 1 {
		sh, sl, bad := prefix(0, f)
		if bad >= 0 {
			return 0, 0, fmt.Errorf("sparse: frontier vertex %d is not below %d", frontier[bad], n)
		}
		e.preH[f], e.preL[f] = sh, sl
		return sh, sl, nil
	}
	chunks := par.Split(f, e.workers)
	par.ForChunks(chunks, func(c par.Chunk) {
		sh, sl, bad := prefix(c.Lo, c.Hi)
		e.chunkH[c.Index], e.chunkL[c.Index], e.chunkBad[c.Index] = sh, sl, int64(bad)
	})
	for _, c := range chunks {
		if b := e.chunkBad[c.Index]; b >= 0 {
			return 0, 0, fmt.Errorf("sparse: frontier vertex %d is not below %d", frontier[b], n)
		}
	}
	ch, cl := e.chunkH[:len(chunks)], e.chunkL[:len(chunks)]
	eh = par.ExclusiveScan(ch)
	el = par.ExclusiveScan(cl)
	par.ForChunks(chunks[1:], func(c par.Chunk) {
		bh, bl := ch[c.Index], cl[c.Index]
		preH, preL := e.preH[c.Lo:c.Hi], e.preL[c.Lo:c.Hi]
		for i := range preH {
			preH[i] += bh
			preL[i] += bl
		}
	})
	e.preH[f], e.preL[f] = eh, el
	return eh, el, nil
}

// findStart returns the frontier position whose arc range [pre[i], pre[i+1])
// contains arc a (the first such position with a non-empty range), for
// pre of length f+1 with pre[f] > a.
func findStart(pre []uint64, a uint64) int {
	lo, hi := 0, len(pre)-1 // pre[lo] ≤ a < pre[hi]
	for hi-lo > 1 {
		mid := int(uint(lo+hi) >> 1)
		if pre[mid] <= a {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// claim sets bit v of bits atomically and reports whether it was clear.
func claim(bits []uint32, v uint32) bool {
	p := &bits[v>>5]
	m := uint32(1) << (v & 31)
	if atomic.LoadUint32(p)&m != 0 {
		return false
	}
	return atomic.OrUint32(p, m)&m == 0
}
