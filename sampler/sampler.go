// Package sampler is MultiGraph's hybrid (§6, Algorithm 3): before the first
// iteration it measures EDP, the cost of a dense iteration, by running the
// dense path on a sample of the work; at the start of every iteration it
// measures ESP, the cost of a sparse iteration, by running the sparse
// traversal on a random sample of the frontier and scaling up; the cheaper
// mode runs the iteration. Switching modes converts the frontier (flags →
// list by compaction, list → flags by scatter).
//
// Sampling never changes results: the samples run as dry runs that write
// only scratch memory and never call the program's Apply. A frontier of
// few arcs (fewer than the graph's / SparseSure) runs sparse without
// sampling.
//
// With WithNearFar, SSSP's iterations are near-far (nearfar.go): each
// iteration's frontier is a band of the wavefront, the rest piled until
// its bucket comes.
//
// Programs that implement engine.EarlyExit (BFS) may also run iterations as
// pull steps when the runner has a pull engine (WithPull; on a directed
// layout it scans the transposed sparse part). That choice follows Beamer's direction-optimizing heuristic rather
// than sampling: switch from push (dense or sparse, chosen as above) to pull
// when the frontier's out-arcs exceed the unsettled vertices' arcs / Alpha
// (and n / Beta, since a pull step scans every vertex) and a pull step is
// expected to cost less than a push (PullPays), and back to push
// when the frontier shrinks and holds fewer than n / Beta vertices. The arc counts are exact for the frontier and tracked for the
// unsettled vertices (all arcs, less the arcs of every frontier so far), so
// the choice costs no sampling; the pull step's cost hardly depends on the
// frontier's arcs, which a sample of push work cannot see.
package sampler

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/layout"
)

// Defaults of the sampling.
const (
	// DefaultSampleRate is the fraction of the frontier sampled for ESP.
	//
	// Scaling a sample's time up by frontier/sample is biased high for large
	// frontiers: a small sample's arcs mostly reach destinations touched for
	// the first time (an atomic update and a touched-list append each),
	// while a large frontier's arcs mostly reach destinations already touched
	// in the same step, which the engines combine cheaply. On R-MAT scale 20
	// (CPU, 2 threads) ESP came out 4–5× the measured sparse time for
	// frontiers of 10^5–10^7 arcs, whether 1% or 5% was sampled. That tilts
	// the large middle iterations towards dense, where the two modes cost
	// about the same on that graph; small frontiers, where the choice
	// matters most, are estimated well. 1% keeps the sampling cheap.
	DefaultSampleRate = 0.01
	// MinSample is the fewest frontier vertices an ESP sample holds (the
	// whole frontier when it is smaller).
	MinSample = 64
	// MaxSample caps an ESP sample, so sampling stays cheap on huge frontiers.
	MaxSample = 1 << 15

	// Alpha: an EarlyExit program switches from push to pull when the
	// frontier's out-arcs exceed the unsettled vertices' arcs / Alpha.
	Alpha = 15
	// Beta: it switches back to push once the frontier stops growing and
	// holds fewer than n / Beta vertices.
	Beta = 18
	// PullArcRatio is the cost of an arc a pull step scans (a sequential
	// read and a test of the source's flag) over that of a frontier arc a
	// push step relaxes (an atomic at a scattered address): PullPays
	// weighs the arcs a pull step is expected to scan by it.
	PullArcRatio = 0.5

	// SparseSure: the hybrid runs an iteration whose frontier (a list)
	// has fewer out-arcs than the graph's arcs / SparseSure sparse without
	// sampling. A dense step reads every vertex and arc, a sparse one only
	// the frontier's arcs, each at a scattered address; on the CPU an arc
	// of a sparse step costs a few times one of a dense step, never
	// SparseSure times. The sampling itself (a dry run of a sample of the
	// frontier, and before the first one the dense estimate, a dry run of
	// a part of a dense step) costs about as much as such a small
	// iteration: on a grid or road network, thousands of them.
	SparseSure = 16
)

// PullPays is the rule by which an EarlyExit program's iteration turns
// from push to pull, given the graph's n vertices and m arcs, the
// frontier's out-arcs and the unsettled vertices and their arcs (after
// this frontier). First Beamer's: the frontier's out-arcs exceed the
// unsettled arcs / Alpha and n / Beta (a pull step visits every vertex).
// Then the cost of each direction: a pull step scans an unsettled vertex's
// in-arcs up to the first one from the frontier, which, with the
// frontier's arcs spread at random, is about one in m / arcs, so it scans
// about min(unsettled arcs, unsettled vertices · m / arcs) arcs; weighed
// by PullArcRatio they must be fewer than the frontier's out-arcs a push
// step relaxes. Beamer's rule alone pulls on directed web graphs whose
// frontiers lead mostly to settled vertices, and those pull steps scan
// whole in-rows without finding a parent.
func PullPays(n, m, arcs, unsettledArcs, unsettledVertices uint64) bool {
	if arcs*Alpha <= unsettledArcs || arcs*Beta <= n {
		return false
	}
	return PullScan(m, arcs, unsettledArcs, unsettledVertices) < float64(arcs)
}

// PullScan is PullPays' estimate of a pull step's work from a frontier of
// arcs out-arcs, in pushed arcs' worth: the in-arcs it is expected to scan
// (see PullPays) weighed by PullArcRatio.
func PullScan(m, arcs, unsettledArcs, unsettledVertices uint64) float64 {
	scan := float64(unsettledArcs)
	if arcs > 0 {
		scan = min(scan, float64(unsettledVertices)*float64(m)/float64(arcs))
	}
	return scan * PullArcRatio
}

// modePull is the runner's own mode for pull steps: engine.Mode has no pull
// mode, since pull is never forced.
const modePull engine.Mode = 100

// modeName names a mode for traces ("pull" for a pull step).
func modeName(m engine.Mode) string {
	if m == modePull {
		return "pull"
	}
	return m.String()
}

// Runner runs programs with the hybrid, or with one mode forced. It
// implements engine.Runner.
type Runner[V engine.Value] struct {
	l       *layout.Layout
	dense   engine.DenseStepper[V]
	sparse  engine.SparseStepper[V]
	pull    engine.PullStepper[V] // nil: no pull steps
	async   engine.Runner[V]      // nil: no hand-over to async (engine.Auto)
	workers int
	opts    engine.RunOptions
	rng     *rand.Rand
	edp     map[programKind]time.Duration // EDP per kind of program
	// flags are two flag arrays of the layout's vertices that runs reuse
	// for the frontiers of their dense and pull steps (the input and the
	// output of a step), instead of two fresh ones per run.
	flags [2][]uint8
	// delta is the near-far bucket width of SSSP's iterations (WithNearFar;
	// 0: none); inFar the near-far pile's flags (a bitset of the vertices, all clear
	// between runs) and nf the state, both reused by the next run.
	delta     uint32
	inFar     []uint32
	nf        *nearFar
	sampleMem []uint32 // the ESP sample's buffer, reused
	maxDeg    uint64   // the layout's largest out-degree; 0: not yet known
	// costs are auto's measured costs per kind of program (AsyncCosts),
	// costRef the frontier size of the sparse step VertexCost is from.
	costs   map[programKind]AsyncCosts
	costRef map[programKind]uint64
}

// programKind is what EDP depends on: the edge and combine operations.
type programKind struct {
	edge    engine.EdgeOp
	combine engine.CombineOp
}

// New returns a runner over a layout's dense and sparse engines.
func New[V engine.Value](l *layout.Layout, d engine.DenseStepper[V], s engine.SparseStepper[V], workers int, opts engine.RunOptions) *Runner[V] {
	if opts.SampleRate <= 0 || opts.SampleRate > 1 {
		opts.SampleRate = DefaultSampleRate
	}
	return &Runner[V]{
		l: l, dense: d, sparse: s, workers: workers, opts: opts,
		rng: rand.New(rand.NewPCG(opts.Seed, 0x73616d706c65)), // stream: "sample"
		edp: map[programKind]time.Duration{}, costs: map[programKind]AsyncCosts{}, costRef: map[programKind]uint64{},
	}
}

// Reset makes r run with opts from now on (its mode, sample rate, seed,
// tracing: the sample generator restarts from the seed), keeping its
// engines and the dense estimates it has measured, so that a backend can
// reuse one runner across runs. It returns r.
func (r *Runner[V]) Reset(opts engine.RunOptions) *Runner[V] {
	if opts.SampleRate <= 0 || opts.SampleRate > 1 {
		opts.SampleRate = DefaultSampleRate
	}
	r.opts = opts
	r.rng = rand.New(rand.NewPCG(opts.Seed, 0x73616d706c65))
	return r
}

// WithPull gives the runner a pull engine for the hybrid's pull steps of
// engine.EarlyExit programs, over the runner's layout (on a directed one,
// its in-adjacency: pull.New with Layout.In). It returns r. Without one, or with a forced mode,
// every program runs as before.
func (r *Runner[V]) WithPull(pull engine.PullStepper[V]) *Runner[V] {
	r.pull = pull
	return r
}

// WithAsync gives the runner an async runner to hand a long run of an
// engine.Monotone program over to (engine.Auto: when AsyncCosts estimates
// the rest of the run cheaper asynchronously, from
// engine.AutoAsyncIterations on); the runner itself runs the hybrid. It
// returns r.
func (r *Runner[V]) WithAsync(async engine.Runner[V]) *Runner[V] {
	r.async = async
	return r
}

// WithNearFar makes the runner's SSSP iterations near-far with bucket
// width delta (0: none): those of an engine.Monotone min program whose
// edges add weights (SSSP, over uint32 or float32 weights), in the hybrid
// and in mode Sparse, without an iteration cap (a capped run keeps the
// plain iterations, whose result after k of them is the distances over
// paths of at most k arcs). Each iteration's frontier is then a band of
// the wavefront; the values at the end are the same. It returns r.
func (r *Runner[V]) WithNearFar(delta uint32) *Runner[V] {
	r.delta = delta
	return r
}

// nearFarFor returns the near-far state of a run of p over values, or nil
// when the run has no near-far iterations (see WithNearFar).
func (r *Runner[V]) nearFarFor(p engine.Program[V], values []V) *nearFar {
	vals, ok := any(values).([]uint32)
	_, mono := p.(engine.Monotone)
	if !ok || !mono || r.delta == 0 || !p.Edge().Weighted() || p.Combine() != engine.CombineMin || p.ApplyAll() ||
		r.opts.MaxIterations > 0 || (r.opts.Mode != engine.Hybrid && r.opts.Mode != engine.Sparse) {
		return nil
	}
	if words := (r.l.NumVertices + 31) / 32; uint64(len(r.inFar)) != words {
		r.inFar = make([]uint32, words)
	}
	if r.nf == nil {
		r.nf = &nearFar{}
	}
	nf := r.nf
	*nf = nearFar{delta: r.delta, op: p.Edge(), values: vals, inFar: r.inFar, pile: nf.pile[:0]}
	return nf
}

// Run iterates p from f; see engine.Runner.
func (r *Runner[V]) Run(ctx context.Context, p engine.Program[V], values []V, f *engine.Frontier) (engine.Result, error) {
	var res engine.Result
	if err := engine.CheckRun(r.l, p, values, f); err != nil {
		return res, err
	}
	start := time.Now()
	count := f.Len(r.workers)
	var spare []uint8 // the dense and pull steps' output flags, recycled between steps
	prev := engine.Mode(255)
	// Direction optimisation (EarlyExit programs, hybrid, pull engine).
	ee, isEE := p.(engine.EarlyExit[V])
	canPull := isEE && r.pull != nil && r.opts.Mode == engine.Hybrid &&
		p.Combine() == engine.CombineMin && !p.ApplyAll()
	// Mode Pull: every iteration a pull step (min programs).
	forcePull := r.opts.Mode == engine.Pull
	if forcePull && (r.pull == nil || p.Combine() != engine.CombineMin || p.ApplyAll()) {
		return res, fmt.Errorf("%T: %w", p, engine.ErrPullMode)
	}
	nf := r.nearFarFor(p, values)
	if nf != nil {
		defer nf.drain(nil) // a run that stops early leaves its pile's flags clear
	}
	var (
		unsettled uint64 // arcs of the unsettled vertices (an estimate)
		unsetVtx  uint64 // vertices not yet in a frontier
		arcs      uint64 // the frontier's out-arcs
		arcsKnown bool   // arcs was counted by the step that made the frontier
		prevCount uint64 // the previous frontier's size
		hist      FrontierHistory
	)
	kind := programKind{p.Edge(), p.Combine()}
	_, monotone := p.(engine.Monotone)
	canAsync := monotone && r.async != nil && r.opts.MaxIterations == 0
	for i := 0; ; i++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if r.opts.MaxIterations > 0 && i >= r.opts.MaxIterations {
			break
		}
		if s, ok := p.(engine.Stopper); ok && !s.BeforeIteration(i) {
			break
		}
		if count == 0 && !p.ApplyAll() {
			break
		}
		hist.Push(count)
		tr := engine.IterationTrace{Iteration: i, FrontierVertices: count}
		if r.opts.Trace && !canPull { // counted outside the iteration's time
			_, tr.FrontierEdges = f.Size(r.l.SparseOffsets, r.workers)
			res.Edges += tr.FrontierEdges
		}
		iterStart := time.Now()
		usePull := false
		if canPull {
			// The frontier's arcs: counted by a pull step, else summed here
			// (inside the iteration's time: the choice needs them).
			if !arcsKnown {
				_, arcs = f.Size(r.l.SparseOffsets, r.workers)
			}
			if i == 0 {
				unsettled, unsetVtx = r.l.NumArcs, r.l.NumVertices
			}
			unsettled -= min(unsettled, arcs)
			unsetVtx -= min(unsetVtx, count)
			tr.UnsettledEdges = unsettled
			if r.opts.Trace {
				tr.FrontierEdges = arcs
				res.Edges += arcs
			}
			if prev == modePull {
				usePull = count >= prevCount || count*Beta > r.l.NumVertices
			} else {
				usePull = PullPays(r.l.NumVertices, r.l.NumArcs, arcs, unsettled, unsetVtx)
			}
			tr.PullEdges = PullScan(r.l.NumArcs, arcs, unsettled, unsetVtx)
		}
		arcsKnown = false
		prevCount = count
		usePull = usePull || forcePull
		mode := modePull
		if !usePull {
			var err error
			if mode, err = r.decide(ctx, p, values, f, count, arcs, canPull, &tr); err != nil {
				return res, err
			}
		}
		if canAsync && mode == engine.Sparse && i >= engine.AutoAsyncIterations {
			// Auto: a long run whose rest is estimated cheaper
			// asynchronously goes on so (from the frontier and near-far's
			// pile).
			costs := r.costs[kind]
			est, ok := costs.Estimate(&hist, r.l.NumVertices)
			est.Note(&tr)
			if ok && est.Pays() {
				if nf != nil {
					f = engine.NewFrontierList(r.l.NumVertices, nf.drain(f.List(r.workers)))
				}
				left := hist.Left(r.l.NumVertices)
				asyncStart := time.Now()
				ar, err := r.async.Run(ctx, p, values, f)
				if err != nil {
					return res, err
				}
				r.costs[kind] = costs.ObserveAsync(time.Since(asyncStart).Seconds(), est, left)
				if len(ar.Trace) > 0 { // the async run's record carries the choice
					ar.Trace[0].Iteration = i
					est.Note(&ar.Trace[0])
				}
				res.Add(ar) // Seconds is set from the run's clock below
				res.Switches++
				break
			}
		}
		stepCount := count
		if i > 0 && mode != prev {
			res.Switches++
			tr.Switched = true
		}
		prev = mode
		convStart := time.Now()
		split := false // near-far: the step split the next frontier
		if mode == modePull {
			active := r.activeFlags(f, spare)
			tr.Phases = append(tr.Phases, engine.Phase{Name: "to-flags", Seconds: time.Since(convStart).Seconds()})
			if len(spare) != len(active) {
				spare = r.other(active)
			}
			var n uint64
			var phases []engine.Phase
			var err error
			if isEE {
				n, phases, err = r.pull.Step(ctx, ee, values, active, spare)
			} else {
				n, phases, err = r.pull.StepAll(ctx, p, values, active, spare)
			}
			if err != nil {
				return res, err
			}
			tr.Phases = append(tr.Phases, phases...)
			f, spare, count = engine.NewFrontierFlags(spare), active, n
			arcs, arcsKnown = r.pull.NextArcs(), true
		} else if mode == engine.Dense {
			active := r.activeFlags(f, spare)
			tr.Phases = append(tr.Phases, engine.Phase{Name: "to-flags", Seconds: time.Since(convStart).Seconds()})
			if len(spare) != len(active) {
				spare = r.other(active)
			}
			stepStart := time.Now()
			n, phases, err := r.dense.Step(ctx, p, values, active, spare)
			if err != nil {
				return res, err
			}
			// A dense iteration costs about the same whatever the frontier
			// (§6): once one has run, its measured time is the best EDP.
			r.edp[programKind{p.Edge(), p.Combine()}] = time.Since(stepStart)
			tr.Phases = append(tr.Phases, phases...)
			f, spare, count = engine.NewFrontierFlags(spare), active, n
		} else {
			list := f.List(r.workers)
			tr.Phases = append(tr.Phases, engine.Phase{Name: "to-list", Seconds: time.Since(convStart).Seconds()})
			var out []uint32
			var phases []engine.Phase
			var err error
			if nfs, ok := r.sparse.(engine.NearFarStepper); ok && nf != nil {
				// The stepper splits the next frontier as it makes it.
				out, nf.pile, phases, err = nfs.StepNearFar(ctx, any(p).(engine.Program[uint32]), nf.values, list, nf.split, nf.inFar, nf.pile)
				if err == nil && len(out) == 0 {
					nfStart := time.Now()
					out = nf.refill(out)
					phases = append(phases, engine.Phase{Name: PhaseNearFar, Seconds: time.Since(nfStart).Seconds()})
				}
				split = true
			} else {
				out, phases, err = r.sparse.Step(ctx, p, values, list)
			}
			if err != nil {
				return res, err
			}
			tr.Phases = append(tr.Phases, phases...)
			f, count = engine.NewFrontierList(r.l.NumVertices, out), uint64(len(out))
		}
		if nf != nil && !split && (mode == engine.Sparse || count == 0) {
			// Near-far splits the frontiers of sparse steps: a dense or
			// pull step's is large, no band of a wavefront, and runs whole
			// (its far vertices early), unless it is empty and the pile
			// refills it.
			nfStart := time.Now()
			next := nf.splitNext(f.List(r.workers))
			f, count = engine.NewFrontierList(r.l.NumVertices, next), uint64(len(next))
			tr.Phases = append(tr.Phases, engine.Phase{Name: PhaseNearFar, Seconds: time.Since(nfStart).Seconds()})
		}
		tr.Mode = modeName(mode)
		tr.Seconds = time.Since(iterStart).Seconds()
		if canAsync && mode == engine.Sparse {
			r.costs[kind], r.costRef[kind] = r.costs[kind].ObserveSync(tr.Seconds, stepCount, r.costRef[kind])
		}
		res.Iterations++
		if r.opts.Trace {
			res.Trace = append(res.Trace, tr)
		}
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// decide picks the mode of one iteration: the forced mode, or the hybrid's
// choice: sparse without sampling for a frontier of few arcs (SparseSure;
// arcs are the frontier's out-arcs when known), else the cheaper of EDP
// and ESP.
func (r *Runner[V]) decide(ctx context.Context, p engine.Program[V], values []V, f *engine.Frontier, count, arcs uint64, arcsKnown bool, tr *engine.IterationTrace) (engine.Mode, error) {
	switch {
	case r.opts.Mode != engine.Hybrid:
		return r.opts.Mode, nil
	case p.ApplyAll() || count == r.l.NumVertices:
		// Every vertex is applied (or active) anyway: the sparse path can
		// only do the dense path's work with atomics.
		return engine.Dense, nil
	case r.fewArcs(f, arcs, arcsKnown):
		return engine.Sparse, nil
	}
	sampleStart := time.Now()
	kind := programKind{p.Edge(), p.Combine()}
	edp, ok := r.edp[kind]
	if !ok {
		var err error
		if edp, err = r.dense.Estimate(ctx, p, values); err != nil {
			return 0, fmt.Errorf("hybrid: dense estimate: %w", err)
		}
		r.edp[kind] = edp
	}
	sample := r.sample(f, count)
	t, err := r.sparse.Estimate(ctx, p, values, sample)
	if err != nil {
		return 0, fmt.Errorf("hybrid: sparse estimate: %w", err)
	}
	esp := time.Duration(0)
	if len(sample) > 0 {
		esp = time.Duration(float64(t) * float64(count) / float64(len(sample)))
	}
	tr.EDPSeconds, tr.ESPSeconds = edp.Seconds(), esp.Seconds()
	tr.SampleSeconds = time.Since(sampleStart).Seconds()
	if esp < edp {
		return engine.Sparse, nil
	}
	return engine.Dense, nil
}

// fewArcs reports whether the frontier f, a list, has fewer out-arcs than
// the graph's arcs / SparseSure: arcs when known; else surely when its
// vertices times the largest out-degree are fewer (a graph of bounded
// degree: no pass over the frontier), else as summed over the list until
// they reach that.
func (r *Runner[V]) fewArcs(f *engine.Frontier, arcs uint64, known bool) bool {
	limit := r.l.NumArcs / SparseSure
	if known {
		return arcs < limit
	}
	if !f.IsList() {
		return false
	}
	list := f.List(r.workers)
	if r.maxDeg == 0 {
		r.maxDeg = max(engine.MaxOutDegree(r.l.SparseOffsets, r.workers), 1)
	}
	if hi, lo := bits.Mul64(uint64(len(list)), r.maxDeg); hi == 0 && lo < limit {
		return true
	}
	off := r.l.SparseOffsets
	for _, v := range list {
		if arcs += off[v+1] - off[v]; arcs >= limit {
			return false
		}
	}
	return true
}

// sample draws the ESP sample: the whole frontier when it is small, else
// SampleRate of it (at least MinSample, at most MaxSample) at random. A
// frontier held as flags is sampled from random windows of the flag array,
// so it is not converted in full (the CPU analogue of the paper's sampling
// from frontier_active).
func (r *Runner[V]) sample(f *engine.Frontier, count uint64) []uint32 {
	want := uint64(float64(count) * r.opts.SampleRate)
	want = min(max(want, MinSample), MaxSample, count)
	if f.IsList() {
		list := f.List(r.workers)
		if want == count {
			return list
		}
		out := r.sampleBuf(want)
		for i := range out {
			out[i] = list[r.rng.Uint64N(count)]
		}
		return out
	}
	flags := f.Flags(r.workers)
	n := uint64(len(flags))
	// Scan windows at random offsets until enough active vertices are found;
	// the expected scan length is want·n/count.
	const window = 4096
	out := r.sampleBuf(want)[:0]
	for scanned := uint64(0); uint64(len(out)) < want && scanned < n; scanned += window {
		lo := r.rng.Uint64N(n)
		hi := min(lo+window, n)
		for v := lo; v < hi && uint64(len(out)) < want; v++ {
			if flags[v] != 0 {
				out = append(out, uint32(v))
			}
		}
	}
	return out
}

// sampleBuf returns the runner's sample buffer with k entries.
func (r *Runner[V]) sampleBuf(k uint64) []uint32 {
	if uint64(cap(r.sampleMem)) < k {
		r.sampleMem = make([]uint32, k)
	}
	return r.sampleMem[:k]
}

// activeFlags returns f's vertices as flags: f's own when it has them,
// else scattered from its list into the one of the runner's reused arrays
// that is not spare (the array the step writes its output to).
func (r *Runner[V]) activeFlags(f *engine.Frontier, spare []uint8) []uint8 {
	if !f.IsList() || f.HasFlags() {
		return f.Flags(r.workers)
	}
	b := r.other(spare)
	engine.ListToFlagsInto(b, f.List(r.workers), r.workers)
	return b
}

// other returns one of the runner's two reused flag arrays (allocated for
// the layout's vertices on first use) that is not x; its contents are
// undefined.
func (r *Runner[V]) other(x []uint8) []uint8 {
	n := int(r.l.NumVertices)
	for k := range r.flags {
		if len(r.flags[k]) != n {
			r.flags[k] = make([]uint8, n)
		}
	}
	if n > 0 && len(x) == n && &x[0] == &r.flags[0][0] {
		return r.flags[1]
	}
	return r.flags[0]
}
