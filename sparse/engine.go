// Package sparse is MultiGraphS on the CPU (MultiGraph §5): iterations
// driven by a frontier held as a list of vertices, over the sparse part of
// the layout (out-rows sorted by destination, cut into destination
// segments; docs/layout.md).
//
// An Engine runs one iteration (Step) in three phases:
//
//   - sparse-traverse: the frontier's arcs are cut among the workers by arc
//     count (a prefix sum of the out-degrees, so a vertex of huge
//     out-degree is shared by several workers: the CPU analogue of the
//     paper's three-stage load balance), and each worker makes one pass
//     over its share of every row. Because rows are sorted by destination,
//     a row is its high part (destinations in the high in-degree segments)
//     followed by its low part. The high arcs are folded into the worker's
//     private accumulator over the high destinations (the CPU analogue of
//     the paper's shared-memory segments: with the default parameters the
//     whole high region is a few hundred KiB and stays in the core's
//     cache), without atomics. The low arcs are combined into the shared
//     accumulator with atomic operations: a compare-and-swap loop for min,
//     skipped when the contribution cannot improve, and an atomic add (CAS
//     loop on the bits for float64) for sums.
//   - sparse-merge: the private partials are merged into the shared
//     accumulator segment by segment, each segment by one goroutine, so no
//     two goroutines write the same destination and no atomics are needed.
//   - sparse-apply: Apply for every vertex that received a contribution
//     (every vertex when the program says ApplyAll), resetting the
//     accumulator as it goes; the vertices Apply makes active form the next
//     frontier.
//
// One pass per row, rather than one pass per segment as on the GPU, is a
// deliberate CPU choice: each pass over a row costs a few cache misses
// (offsets, segment splits, the row's first line), which with R-MAT's
// average degree of 30 cost as much as the arcs themselves.
//
// Frontiers whose arcs total less than a few thousand run inline on the
// calling goroutine (one plain pass, no atomics), and no phase does work
// proportional to the number of vertices unless the program is ApplyAll or
// the touched vertices are a sizeable fraction of them: a Step over a tiny
// frontier costs microseconds.
//
// An engine.PlainMin program (BFS, SSSP) takes the in-place path instead
// (inplace.go): one pass over the frontier's arcs that lowers the values
// themselves, with a min inline and an atomic min in parallel, and lists
// each vertex it lowers once: no accumulator, merge or apply phase. The
// frontier's values are copied first, so the step is the synchronous one.
// StepNearFar (engine.NearFarStepper) splits the next frontier of such a
// step for SSSP's near-far iterations as the values are lowered.
//
// The parallel phases run on the engine's team (par.Team): helpers that
// spin between steps for the next phase, rather than goroutines started
// per phase, whose wake-up cost more than a grid's small steps.
//
// The package also offers the general Advance and Filter primitives (a
// callback per arc and per vertex) for writing new traversals; programs
// that fit engine.Program run several times faster through an Engine,
// whose inner loops are specialised on the program's edge and combine
// operations.
package sparse

import (
	"context"
	"errors"
	"fmt"
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
	// inPlaceMaxArcs: a step of an engine.PlainMin program over a frontier
	// of fewer arcs takes the in-place path (stepInPlace): every one.
	inPlaceMaxArcs = 1 << 62
	// inPlacePieceArcs, inPlacePiecesPerWorker: a parallel in-place step
	// cuts its arcs into pieces of inPlacePieceArcs, or more so that there
	// are about inPlacePiecesPerWorker per worker, which the workers take
	// from a counter.
	inPlacePieceArcs       = 512
	inPlacePiecesPerWorker = 16
	// flatMinFrontier: a monotone min program's frontier of at least this
	// many vertices is traversed by the flat path (traverseFlat), in runs
	// of flatChunk vertices; its vertices of more than flatMaxDegree arcs
	// go to the arc-balanced path.
	flatMinFrontier = 2048
	flatChunk       = 512
	flatMaxDegree   = 256
	// estimateFew, estimateWindows, estimateWindow: Estimate of a sample
	// of fewer than estimateFew vertices whose arcs exceed twice
	// estimateWindows·estimateWindow times estimateWindows windows of
	// estimateWindow arcs, evenly spaced, and scales up.
	estimateFew     = 64
	estimateWindows = 2
	estimateWindow  = 2048
)

// Names of the phases Step reports.
const (
	// PhaseTraverse: one pass over the frontier's arcs; arcs into high
	// in-degree destinations go to per-worker private accumulators, arcs
	// into the low segment are combined into the shared accumulator (with
	// atomics when parallel).
	PhaseTraverse = "sparse-traverse"
	// PhaseMerge: the private partials of the high segments merged into the
	// shared accumulator, one segment per goroutine, without atomics.
	PhaseMerge = "sparse-merge"
	// PhaseApply: Apply on the touched vertices and the next frontier.
	PhaseApply = "sparse-apply"
	// PhaseNearFar: a near-far step's split of the next frontier, when
	// made after the step (StepNearFar).
	PhaseNearFar = "sparse-near-far"
)

// ErrUnweighted is returned by Step and Estimate for a program whose edges
// add the weight (engine.EdgeSourcePlusWeight, EdgeSourcePlusFloat32Weight)
// on a layout without weights.
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

	splitH  []uint32 // row-relative offset of each vertex's first low arc (H > 0)
	segSize uint32   // destinations per high segment
	active  int      // workers whose private accumulators hold partials

	pre      []uint64 // exclusive prefix sums of the frontier's out-degrees
	chunkSum []uint64
	chunkBad []int64
	bigs     []uint32  // the flat path's set-aside vertices, all workers'
	srcVals  []V       // the in-place path's copy of the frontier's values
	team     *par.Team // the goroutines of the parallel phases

	// knobs (tests lower them to force the parallel paths)
	inlineArcs       uint64
	minArcsPerWorker uint64
	scanDiv          uint64
	minApplyWorker   int
	parallelPrefix   int
	flatMin          int
	flatChunk        int
	flatMaxDeg       uint64
	estimateWindow   uint64
	inPlaceMax       uint64
	inPlacePiece     uint64
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
	list   []uint32 // high destinations touched, in the order reached
	buf    []uint32 // scratch for sorted
	sorted []uint32 // list bucketed by segment
	segEnd []int    // sorted[segEnd[s]:segEnd[s+1]] are segment s's
	_      [64]byte
}

// workerState holds one worker's lists; padded so that workers do not share
// cache lines.
type workerState struct {
	touched []uint32 // vertices this worker claimed in the touched bitset
	out     []uint32 // next-frontier vertices found by this worker
	big     []uint32 // the flat path's vertices set aside for the arc-balanced one
	far     []uint32 // the in-place path's near-far piled vertices
	// next is the in-place path's next piece to take of this worker's
	// range (any worker may take one).
	next atomic.Uint64
	_    [64]byte
}

var (
	_ engine.SparseStepper[uint32]  = (*Engine[uint32])(nil)
	_ engine.SparseStepper[float64] = (*Engine[float64])(nil)
	_ engine.NearFarStepper         = (*Engine[uint32])(nil)
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
		flatMin: flatMinFrontier, flatChunk: flatChunk, flatMaxDeg: flatMaxDegree,
		estimateWindow: estimateWindow, inPlaceMax: inPlaceMaxArcs, inPlacePiece: inPlacePieceArcs,
		team: par.NewTeam(w),
	}

	e.segSize = l.Params.SegmentSize
	if e.nhs > 0 {
		e.high = l.SegmentBounds[e.nhs]
		e.splitH = l.SegmentSplit[uint64(e.nhs-1)*n : uint64(e.nhs)*n]
		for s := 0; s <= e.nhs; s++ {
			if uint64(l.SegmentBounds[s]) != min(uint64(s)*uint64(e.segSize), uint64(e.high)) {
				return nil, fmt.Errorf("sparse: segment %d starts at %d, not at a multiple of the segment size %d", s, l.SegmentBounds[s], e.segSize)
			}
		}
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
	e.chunkSum = make([]uint64, w)
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
	if !p.Edge().Valid() {
		return fmt.Errorf("sparse: unknown edge operation %d", p.Edge())
	}
	if p.Edge().Weighted() && !e.l.Weighted {
		return ErrUnweighted
	}
	if err := engine.CheckProgram(p, e.l); err != nil {
		return fmt.Errorf("sparse: %w", err)
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
// The phases reported are PhaseTraverse, PhaseMerge and PhaseApply. When
// ctx is cancelled before the apply phase Step restores its state and
// returns ctx.Err() with values unchanged.
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
	k := newKernel(p, values, e.l)
	if total, ok, err := e.planInPlace(p, k, values, frontier); err != nil {
		return nil, nil, err
	} else if ok {
		next, _, phases, err := e.stepInPlace(ctx, k, frontier, total, 0, nil, nil, start, phases)
		return next, phases, err
	}
	if e.claimOK(k, frontier) {
		total, err := e.plan(frontier)
		if err != nil {
			return nil, nil, err
		}
		if total >= e.inlineArcs {
			return e.stepClaim(ctx, p, k, values, frontier, total, start, phases)
		}
	}
	if err := e.traverseAny(k, t, frontier); err != nil {
		return nil, nil, err
	}
	now := time.Now()
	phases = append(phases, engine.Phase{Name: PhaseTraverse, Seconds: now.Sub(start).Seconds()})
	start = now
	if e.active > 0 {
		e.merge(t)
	}
	now = time.Now()
	phases = append(phases, engine.Phase{Name: PhaseMerge, Seconds: now.Sub(start).Seconds()})
	start = now
	if err := ctx.Err(); err != nil {
		e.resetTouched(t)
		return nil, nil, err
	}
	next := e.apply(p, values, t)
	phases = append(phases, engine.Phase{Name: PhaseApply, Seconds: time.Since(start).Seconds()})
	return next, phases, nil
}

// planInPlace plans a step of p over frontier (e.plan) and reports
// whether it takes the in-place path (inPlaceOK), with the frontier's arcs;
// it does nothing for a program that is not engine.PlainMin. The in-place
// path reads the frontier's values from before the step, copied here in
// the same pass as the prefix sums (not needed when every contribution is
// equal).
func (e *Engine[V]) planInPlace(p engine.Program[V], k *kernel[V], values []V, frontier []uint32) (uint64, bool, error) {
	if _, ok := p.(engine.PlainMin); !ok || e.inPlaceMax == 0 || len(frontier) == 0 {
		return 0, false, nil
	}
	var src []V
	if !k.same || k.kind != minConst {
		if cap(e.srcVals) < len(frontier) {
			e.srcVals = make([]V, len(frontier), max(len(frontier), 2*cap(e.srcVals)))
		}
		src = e.srcVals[:len(frontier)]
	}
	total, err := e.planCopy(frontier, values, src)
	if err != nil {
		return 0, false, err
	}
	return total, e.inPlaceOK(p, total), nil
}

// StepNearFar implements engine.NearFarStepper: Step, with the next
// frontier split at split. On the in-place path the split is made as the
// vertices are lowered (a vertex lowered to at least split is piled, unless
// its bit in piled is set already; one lowered below it is listed), with
// no pass of its own; a step by another path is split afterwards
// (engine.SplitNearFar).
func (e *Engine[V]) StepNearFar(ctx context.Context, p engine.Program[uint32], values []uint32, frontier []uint32, split uint32, piled, far []uint32) ([]uint32, []uint32, []engine.Phase, error) {
	pv, ok := any(p).(engine.Program[V])
	if !ok {
		return nil, far, nil, fmt.Errorf("sparse: a near-far step of %T on an engine of %T values", p, *new(V))
	}
	vv := any(values).([]V)
	if err := e.check(pv, vv); err != nil {
		return nil, far, nil, err
	}
	if uint64(len(piled))*32 < e.n {
		return nil, far, nil, fmt.Errorf("sparse: a near-far bitset of %d words for %d vertices", len(piled), e.n)
	}
	if err := ctx.Err(); err != nil {
		return nil, far, nil, err
	}
	e.prepareTarget(&e.main, pv.Combine())
	start := time.Now()
	phases := make([]engine.Phase, 0, 4)
	k := newKernel(pv, vv, e.l)
	if total, ok, err := e.planInPlace(pv, k, vv, frontier); err != nil {
		return nil, far, nil, err
	} else if ok {
		return e.stepInPlace(ctx, k, frontier, total, split, piled, far, start, phases)
	}
	next, phases, err := e.Step(ctx, pv, vv, frontier)
	if err != nil {
		return nil, far, nil, err
	}
	now := time.Now()
	next, far = engine.SplitNearFar(values, next, split, piled, far)
	return next, far, append(phases, engine.Phase{Name: PhaseNearFar, Seconds: time.Since(now).Seconds()}), nil
}

// stepClaim is Step by the claim path (claimOK; total arcs planned, at
// least e.inlineArcs): traverseClaim, no merge (reported as zero), then
// applyClaim. Every contribution of an engine.EarlyExit program's step is
// the same, so the destinations, the values and the next frontier are
// those of the general path.
func (e *Engine[V]) stepClaim(ctx context.Context, p engine.Program[V], k *kernel[V], values []V, frontier []uint32, total uint64, start time.Time, phases []engine.Phase) ([]uint32, []engine.Phase, error) {
	t := &e.main
	c := engine.Contribute(k.edge, values[frontier[0]], 0)
	e.traverseClaim(k, t, frontier, total, any(c).(uint32))
	now := time.Now()
	phases = append(phases, engine.Phase{Name: PhaseTraverse, Seconds: now.Sub(start).Seconds()},
		engine.Phase{Name: PhaseMerge})
	if err := ctx.Err(); err != nil {
		e.clearClaims(t)
		return nil, nil, err
	}
	next := e.applyClaim(p, values, t, c)
	phases = append(phases, engine.Phase{Name: PhaseApply, Seconds: time.Since(now).Seconds()})
	return next, phases, nil
}

// Estimate returns the time the sparse traversal of sample takes (ESP,
// MultiGraph §6): the same traverse and merge phases as Step, combining into a
// second accumulator that is reset afterwards (the reset, which stands for
// the apply phase, is timed as well), never calling Apply and never
// touching values or any state a later Step reads. The hybrid scales the
// result by |frontier| / |sample|. Like Step, a sample of fewer than a few
// thousand arcs runs on the calling goroutine. A sample of a few vertices
// (fewer than 64) with many arcs (more than 8192: a hub's row, such as
// the whole one-vertex frontier of a BFS's first step) is timed on two
// evenly spaced windows of 2048 of its arcs, traversed as in parallel
// Step, and the time scaled by its arcs over 4096; the dry run of the
// whole would cost as much as the step itself.
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
	k := newKernel(p, values, e.l)
	if len(sample) < estimateFew && e.workers > 1 && !e.flatOK(k, sample) {
		// A few vertices (the whole of a small frontier) with many arcs,
		// such as a hub's: time estimateWindows evenly spaced windows of
		// estimateWindow arcs and scale up.
		total, err := e.plan(sample)
		if err != nil {
			return 0, err
		}
		if total > 2*estimateWindows*e.estimateWindow {
			for i := range uint64(estimateWindows) {
				from := total*(2*i+1)/(2*estimateWindows) - e.estimateWindow/2
				e.traverse(k, t, sample, from, e.estimateWindow, true)
				if e.active > 0 {
					e.merge(t)
				}
			}
			e.resetTouched(t)
			d := time.Since(start)
			return time.Duration(float64(d) * float64(total) / float64(estimateWindows*e.estimateWindow)), ctx.Err()
		}
		e.traverse(k, t, sample, 0, total, total >= e.inlineArcs)
	} else if err := e.traverseAny(k, t, sample); err != nil {
		return 0, err
	}
	if e.active > 0 {
		e.merge(t)
	}
	e.resetTouched(t)
	d := time.Since(start)
	return d, ctx.Err()
}

// traverseAny runs the traversal of frontier into t by the flat path or
// the arc-balanced one (plan and traverse); on an error (a vertex out of
// range) t is left reset.
func (e *Engine[V]) traverseAny(k *kernel[V], t *target[V], frontier []uint32) error {
	if e.flatOK(k, frontier) {
		return e.traverseFlat(k, t, frontier)
	}
	total, err := e.plan(frontier)
	if err != nil {
		return err
	}
	e.traverse(k, t, frontier, 0, total, e.workers > 1 && total >= e.inlineArcs)
	return nil
}

// resetTouched puts the accumulator entries and bits of every vertex in the
// workers' touched lists back to their reset state and empties the lists.
func (e *Engine[V]) resetTouched(t *target[V]) {
	total := 0
	for i := range e.ws {
		total += len(e.ws[i].touched)
	}
	if total > 0 && e.scan(t, total) {
		// Many: scan (the bitset for sums, every entry for min).
		bits := t.bits
		isMin := t.op == engine.CombineMin
		par.For(len(bits), e.workers, 1<<12, func(lo, hi int) {
			if isMin {
				acc := t.acc[lo*32 : min(hi*32, len(t.acc))]
				for i := range acc {
					acc[i] = t.ident
				}
				return
			}
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

// forChunks runs fn on each chunk concurrently on the engine's team, and
// waits for all of them.
func (e *Engine[V]) forChunks(chunks []par.Chunk, fn func(c par.Chunk)) {
	if len(chunks) == 0 {
		return
	}
	e.team.Run(len(chunks), func(w int) { fn(chunks[w]) })
}

// workersFor returns how many workers share a traversal of arcs arcs.
func (e *Engine[V]) workersFor(arcs uint64) int {
	w := uint64(e.workers)
	if e.minArcsPerWorker > 0 && arcs/e.minArcsPerWorker < w {
		w = max(1, arcs/e.minArcsPerWorker)
	}
	return int(w)
}

// plan checks the frontier and fills e.pre with the exclusive prefix sums
// of its out-degrees; it returns their total.
func (e *Engine[V]) plan(frontier []uint32) (uint64, error) {
	return e.planCopy(frontier, nil, nil)
}

// planCopy is plan that also copies the frontier's values into src
// (src[i] = values[frontier[i]]) when src is not nil, in the same pass.
func (e *Engine[V]) planCopy(frontier []uint32, values, src []V) (uint64, error) {
	f := len(frontier)
	if cap(e.pre) < f+1 {
		e.pre = make([]uint64, f+1, max(f+1, 2*cap(e.pre)))
	}
	e.pre = e.pre[:f+1]
	off := e.l.SparseOffsets
	n := e.n
	// prefix writes the local prefix sums of frontier[lo:hi] (and copies
	// their values) and returns their total, or bad ≥ 0: the index of a
	// vertex out of range.
	prefix := func(lo, hi int) (sum uint64, bad int) {
		pre := e.pre
		for i := lo; i < hi; i++ {
			u := frontier[i]
			if uint64(u) >= n {
				return 0, i
			}
			pre[i] = sum
			sum += off[u+1] - off[u]
			if src != nil {
				src[i] = values[u]
			}
		}
		return sum, -1
	}
	if f == 0 || f < e.parallelPrefix || e.workers == 1 {
		sum, bad := prefix(0, f)
		if bad >= 0 {
			return 0, fmt.Errorf("sparse: frontier vertex %d is not below %d", frontier[bad], n)
		}
		e.pre[f] = sum
		return sum, nil
	}
	chunks := par.Split(f, e.workers)
	e.forChunks(chunks, func(c par.Chunk) {
		sum, bad := prefix(c.Lo, c.Hi)
		e.chunkSum[c.Index], e.chunkBad[c.Index] = sum, int64(bad)
	})
	for _, c := range chunks {
		if b := e.chunkBad[c.Index]; b >= 0 {
			return 0, fmt.Errorf("sparse: frontier vertex %d is not below %d", frontier[b], n)
		}
	}
	sums := e.chunkSum[:len(chunks)]
	total := par.ExclusiveScan(sums)
	e.forChunks(chunks[1:], func(c par.Chunk) {
		base := sums[c.Index]
		pre := e.pre[c.Lo:c.Hi]
		for i := range pre {
			pre[i] += base
		}
	})
	e.pre[f] = total
	return total, nil
}
