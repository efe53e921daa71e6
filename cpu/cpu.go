// Package cpu is mgraph's multi-core CPU backend: the dense (MultiGraphD)
// and sparse (MultiGraphS) engines over one layout, driven by the sampling
// hybrid, which on undirected layouts also has the pull engine for programs
// that implement engine.EarlyExit (BFS). It implements engine.Backend.
package cpu

import (
	"fmt"

	"github.com/mgraph-dev/mgraph/dense"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/pull"
	"github.com/mgraph-dev/mgraph/sampler"
	"github.com/mgraph-dev/mgraph/sparse"
)

// Backend runs programs on the CPU over one layout.
type Backend struct {
	l       *layout.Layout
	workers int
}

// New returns a CPU backend for l using workers goroutines (0 = all cores).
func New(l *layout.Layout, workers int) (*Backend, error) {
	if workers < 0 {
		return nil, fmt.Errorf("cpu backend: negative worker count %d", workers)
	}
	return &Backend{l: l, workers: par.Workers(workers)}, nil
}

var _ engine.Backend = (*Backend)(nil)

// Name returns "cpu".
func (b *Backend) Name() string { return "cpu" }

// Layout returns the layout the backend runs on.
func (b *Backend) Layout() *layout.Layout { return b.l }

// Workers returns the number of goroutines the engines use.
func (b *Backend) Workers() int { return b.workers }

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
	d, err := dense.New[V](b.l, b.workers)
	if err != nil {
		return nil, fmt.Errorf("cpu backend: %w", err)
	}
	s, err := sparse.New[V](b.l, b.workers)
	if err != nil {
		return nil, fmt.Errorf("cpu backend: %w", err)
	}
	auto := opts.Mode == engine.Auto
	opts.Mode = opts.Mode.Sync()
	r := sampler.New[V](b.l, d, s, b.workers, opts)
	var zero V
	if _, ok := any(zero).(uint32); ok && auto {
		r.WithAsync(any(b.asyncRunner(opts)).(engine.Runner[V]))
	}
	if !b.l.Directed && !opts.NoPull {
		pe, err := pull.New[V](b.l, b.workers)
		if err != nil {
			return nil, fmt.Errorf("cpu backend: %w", err)
		}
		r.WithPull(pe)
	}
	return r, nil
}

// asyncRunner returns the runner of engine.Async mode (and of Auto's
// hand-over), with SSSP's async near-far bucket width.
func (b *Backend) asyncRunner(opts engine.RunOptions) *asyncRunner {
	return &asyncRunner{l: b.l, workers: b.workers, opts: opts,
		delta: engine.NearFarDelta(b.l.SparseWeights, engine.AsyncNearFarWeights)}
}
