// Package cpu is mgraph's multi-core CPU backend: the dense (MultiGraphD)
// and sparse (MultiGraphS) engines over one layout, driven by the sampling
// hybrid, which also has the pull engine for programs that implement
// engine.EarlyExit (BFS; on a directed layout over its transposed sparse
// part, built once per backend). SSSP's iterations are near-far
// (WithNearFarDelta), and its async runs delta-stepping (buckets.go). It
// implements engine.Backend.
package cpu

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/mgraph-dev/mgraph/dense"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/ops"
	"github.com/mgraph-dev/mgraph/pull"
	"github.com/mgraph-dev/mgraph/sampler"
	"github.com/mgraph-dev/mgraph/sparse"
)

// Backend runs programs on the CPU over one layout.
type Backend struct {
	l       *layout.Layout
	workers int
	// Idle engines of uint32 (min) and float64 programs, for RunMin and
	// the runners: their buffers and dense estimates are reused by the
	// next run instead of allocated and measured again (concurrent runs
	// each take their own).
	mu    sync.Mutex
	idle  []*engines[uint32]
	idleF []*engines[float64]
	// The in-adjacency pull steps scan: built by the first engines that
	// want a pull engine (a directed layout's transpose costs as much
	// memory as its sparse part), then shared.
	inOnce sync.Once
	in     *layout.InArcs
	// The lists of the vertices without rows (a part's ghosts) that
	// HookAll reads: built by its first call, then kept.
	rowlessOnce sync.Once
	rowless     *RowlessIn
	// Work buffers kept between runs (Components', the apps').
	scratch engine.Scratch
	// SSSP's near-far bucket widths: of the synchronous iterations
	// (sampler.Runner.WithNearFar) and of async runs; 0: none.
	delta, asyncDelta uint32
}

// Option configures a Backend.
type Option func(*options)

type options struct {
	nearFar int64
}

// WithNearFarDelta sets the bucket width of SSSP's near-far iterations
// (hybrid and sparse modes) and async runs: a width in distance units (for
// float32 weights the float of that integer), 0 for the default
// (engine.CPUNearFarWeights times the mean arc weight in iterations,
// engine.CPUAsyncNearFarWeights times it in async runs), or a negative
// number for none.
func WithNearFarDelta(delta int64) Option {
	return func(o *options) { o.nearFar = delta }
}

// New returns a CPU backend for l using workers goroutines (0 = all cores).
func New(l *layout.Layout, workers int, opts ...Option) (*Backend, error) {
	if workers < 0 {
		return nil, fmt.Errorf("cpu backend: negative worker count %d", workers)
	}
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	return &Backend{l: l, workers: par.Workers(workers),
		delta:      nearFarDelta(l, o.nearFar, engine.CPUNearFarWeights),
		asyncDelta: nearFarDelta(l, o.nearFar, engine.CPUAsyncNearFarWeights)}, nil
}

// nearFarDelta returns the near-far bucket width the option opt asks for
// over l's weights (see WithNearFarDelta), factor mean weights by default;
// 0 for an unweighted layout.
func nearFarDelta(l *layout.Layout, opt int64, factor uint64) uint32 {
	switch {
	case opt < 0 || !l.Weighted || len(l.SparseWeights) == 0:
		return 0
	case opt > 0:
		return engine.NearFarDeltaOption(l.WeightKind, opt)
	}
	return engine.NearFarDeltaOf(l.WeightKind, l.SparseWeights, factor)
}

var (
	_ engine.Backend     = (*Backend)(nil)
	_ engine.TreeBackend = (*Backend)(nil)
	_ ops.Provider       = (*Backend)(nil)
)

// Name returns "cpu".
func (b *Backend) Name() string { return "cpu" }

// Layout returns the layout the backend runs on.
func (b *Backend) Layout() *layout.Layout { return b.l }

// Workers returns the number of goroutines the engines use.
func (b *Backend) Workers() int { return b.workers }

// OpsDevice returns an operator device over the backend's layout and workers.
func (b *Backend) OpsDevice() (ops.Device, error) { return ops.NewCPU(b.l, b.workers) }

// Uint32Runner returns a runner for uint32-valued programs.
func (b *Backend) Uint32Runner(opts engine.RunOptions) (engine.Runner[uint32], error) {
	return newRunner[uint32](b, opts)
}

// Float64Runner returns a runner for float64-valued programs.
func (b *Backend) Float64Runner(opts engine.RunOptions) (engine.Runner[float64], error) {
	return newRunner[float64](b, opts)
}

func newRunner[V engine.Value](b *Backend, opts engine.RunOptions) (engine.Runner[V], error) {
	if opts.Mode == engine.Async {
		var zero V
		if _, ok := any(zero).(uint32); !ok {
			return nil, fmt.Errorf("cpu backend: %w", engine.ErrNotMonotone)
		}
		return any(b.asyncRunner(opts)).(engine.Runner[V]), nil
	}
	e, err := takeEngines[V](b)
	if err != nil {
		return nil, err
	}
	return &pooledRunner[V]{b: b, opts: opts, e: e}, nil
}

// pooledRunner is the runner Uint32Runner and Float64Runner return: its
// engines go back to the backend's idle ones after each Run and are taken
// again (those or others) by the next, so a run does not allocate and
// first-touch the engines' buffers (tens of MB for the dense engine)
// again, nor measure the dense estimate again.
type pooledRunner[V engine.Value] struct {
	b    *Backend
	opts engine.RunOptions
	e    *engines[V] // held from the runner's making to its first Run
}

// Run implements engine.Runner.
func (r *pooledRunner[V]) Run(ctx context.Context, p engine.Program[V], values []V, f *engine.Frontier) (engine.Result, error) {
	e := r.e
	r.e = nil
	if e == nil {
		var err error
		if e, err = takeEngines[V](r.b); err != nil {
			return engine.Result{}, err
		}
	}
	defer putEngines(r.b, e)
	return e.configure(r.b, r.opts).Run(ctx, p, values, f)
}

// idleEngines returns the backend's list of idle engines of value type V.
func idleEngines[V engine.Value](b *Backend) *[]*engines[V] {
	var zero V
	if _, ok := any(zero).(uint32); ok {
		return any(&b.idle).(*[]*engines[V])
	}
	return any(&b.idleF).(*[]*engines[V])
}

// takeEngines returns idle engines of value type V, or new ones.
func takeEngines[V engine.Value](b *Backend) (*engines[V], error) {
	b.mu.Lock()
	idle := idleEngines[V](b)
	var e *engines[V]
	if k := len(*idle); k > 0 {
		e, *idle = (*idle)[k-1], (*idle)[:k-1]
	}
	b.mu.Unlock()
	if e != nil {
		return e, nil
	}
	return newEngines[V](b, true)
}

// putEngines gives engines back to the backend's idle ones.
func putEngines[V engine.Value](b *Backend, e *engines[V]) {
	b.mu.Lock()
	idle := idleEngines[V](b)
	*idle = append(*idle, e)
	b.mu.Unlock()
}

// engines is a sampler runner over a layout's dense and sparse engines,
// and a pull engine (nil when not wanted) that configure attaches when a
// run's options allow it.
type engines[V engine.Value] struct {
	r      *sampler.Runner[V]
	pull   engine.PullStepper[V]
	values []uint32 // a min run's values (RunMin), reused by the next run
	// RunMin's result in the original numbering (engine.OutputValues),
	// handed to its caller and overwritten by the run that takes these
	// engines next (engine.Backend allows it).
	out []uint32
}

// newEngines allocates the engines over b's layout (the pull engine only
// when withPull, and made by its first use: see lazyPull).
func newEngines[V engine.Value](b *Backend, withPull bool) (*engines[V], error) {
	d, err := dense.New[V](b.l, b.workers)
	if err != nil {
		return nil, fmt.Errorf("cpu backend: %w", err)
	}
	s, err := sparse.New[V](b.l, b.workers)
	if err != nil {
		return nil, fmt.Errorf("cpu backend: %w", err)
	}
	e := &engines[V]{r: sampler.New[V](b.l, d, s, b.workers, engine.RunOptions{})}
	if withPull {
		e.pull = &lazyPull[V]{b: b}
	}
	return e, nil
}

// lazyPull is a pull stepper whose pull engine is made by its first Step or
// Estimate: on a directed layout the engine needs the in-adjacency, a
// transpose of the sparse part, which only EarlyExit programs (BFS) use, so
// an SSSP run does not pay for it.
type lazyPull[V engine.Value] struct {
	b *Backend
	e *pull.Engine[V]
}

var _ engine.PullStepper[uint32] = (*lazyPull[uint32])(nil)

// engine returns the pull engine, made on first use.
func (lp *lazyPull[V]) engine() (*pull.Engine[V], error) {
	if lp.e == nil {
		e, err := pull.New[V](lp.b.l, lp.b.In(), lp.b.workers)
		if err != nil {
			return nil, fmt.Errorf("cpu backend: %w", err)
		}
		lp.e = e
	}
	return lp.e, nil
}

// Step implements engine.PullStepper.
func (lp *lazyPull[V]) Step(ctx context.Context, p engine.EarlyExit[V], values []V, active, next []uint8) (uint64, []engine.Phase, error) {
	e, err := lp.engine()
	if err != nil {
		return 0, nil, err
	}
	return e.Step(ctx, p, values, active, next)
}

// StepAll implements engine.PullStepper.
func (lp *lazyPull[V]) StepAll(ctx context.Context, p engine.Program[V], values []V, active, next []uint8) (uint64, []engine.Phase, error) {
	e, err := lp.engine()
	if err != nil {
		return 0, nil, err
	}
	return e.StepAll(ctx, p, values, active, next)
}

// NextArcs implements engine.PullStepper (0 before the first Step).
func (lp *lazyPull[V]) NextArcs() uint64 {
	if lp.e == nil {
		return 0
	}
	return lp.e.NextArcs()
}

// Estimate implements engine.PullStepper.
func (lp *lazyPull[V]) Estimate(ctx context.Context, p engine.EarlyExit[V], values []V, active []uint8) (time.Duration, error) {
	e, err := lp.engine()
	if err != nil {
		return 0, err
	}
	return e.Estimate(ctx, p, values, active)
}

// In returns the layout's in-adjacency (Layout.In), built on first use and
// shared by every engine of the backend.
func (b *Backend) In() *layout.InArcs {
	b.inOnce.Do(func() { b.in = b.l.In(b.workers) })
	return b.in
}

// configure sets the runner up for a run with opts (a synchronous mode, or
// Auto: the hybrid with the hand-over to an async runner for uint32
// programs) and returns it.
func (e *engines[V]) configure(b *Backend, opts engine.RunOptions) *sampler.Runner[V] {
	auto := opts.Mode == engine.Auto
	opts.Mode = opts.Mode.Sync()
	e.r.Reset(opts).WithAsync(nil).WithPull(nil).WithNearFar(b.delta)
	var zero V
	if _, ok := any(zero).(uint32); ok && auto {
		e.r.WithAsync(any(b.asyncRunner(opts)).(engine.Runner[V]))
	}
	if e.pull != nil && !opts.NoPull {
		e.r.WithPull(e.pull)
	}
	return e.r
}

// asyncRunner returns the runner of engine.Async mode (and of Auto's
// hand-over), with SSSP's delta-stepping bucket width.
func (b *Backend) asyncRunner(opts engine.RunOptions) *asyncRunner {
	return &asyncRunner{l: b.l, workers: b.workers, opts: opts, delta: b.asyncDelta}
}

// takeMinRunner returns idle min-program engines, or new ones, with their
// runner set up for opts (a synchronous mode or Auto); putMinRunner gives
// them back after the run.
func (b *Backend) takeMinRunner(opts engine.RunOptions) (*engines[uint32], error) {
	e, err := takeEngines[uint32](b)
	if err != nil {
		return nil, err
	}
	e.configure(b, opts)
	return e, nil
}

func (b *Backend) putMinRunner(e *engines[uint32]) { putEngines(b, e) }
