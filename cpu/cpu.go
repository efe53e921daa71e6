// Package cpu is mgraph's multi-core CPU backend: the dense (MultiGraphD)
// and sparse (MultiGraphS) engines over one layout, driven by the sampling
// hybrid, which on undirected layouts also has the pull engine for programs
// that implement engine.EarlyExit (BFS). It implements engine.Backend.
package cpu

import (
	"fmt"
	"sync"

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
	// Idle runners of min programs for RunMin: their engines' buffers and
	// dense estimates are reused by the next run instead of allocated and
	// measured again (concurrent runs each take their own).
	mu   sync.Mutex
	idle []*minRunner
}

// minRunner is a pooled runner of uint32 programs and its pull engine
// (nil on directed layouts), attached per run as the options ask.
type minRunner struct {
	r    *sampler.Runner[uint32]
	pull *pull.Engine[uint32]
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

// takeMinRunner returns an idle min-program runner set up for opts
// (synchronous modes: Hybrid, Dense, Sparse, and Auto's hybrid part), or a
// new one; putMinRunner gives it back after the run.
func (b *Backend) takeMinRunner(opts engine.RunOptions) (*minRunner, error) {
	b.mu.Lock()
	var m *minRunner
	if k := len(b.idle); k > 0 {
		m, b.idle = b.idle[k-1], b.idle[:k-1]
	}
	b.mu.Unlock()
	if m == nil {
		d, err := dense.New[uint32](b.l, b.workers)
		if err != nil {
			return nil, fmt.Errorf("cpu backend: %w", err)
		}
		s, err := sparse.New[uint32](b.l, b.workers)
		if err != nil {
			return nil, fmt.Errorf("cpu backend: %w", err)
		}
		m = &minRunner{r: sampler.New[uint32](b.l, d, s, b.workers, opts)}
		if !b.l.Directed {
			if m.pull, err = pull.New[uint32](b.l, b.workers); err != nil {
				return nil, fmt.Errorf("cpu backend: %w", err)
			}
		}
	}
	auto := opts.Mode == engine.Auto
	opts.Mode = opts.Mode.Sync()
	m.r.Reset(opts).WithAsync(nil).WithPull(nil)
	if auto {
		m.r.WithAsync(b.asyncRunner(opts))
	}
	if m.pull != nil && !opts.NoPull {
		m.r.WithPull(m.pull)
	}
	return m, nil
}

func (b *Backend) putMinRunner(m *minRunner) {
	b.mu.Lock()
	b.idle = append(b.idle, m)
	b.mu.Unlock()
}
