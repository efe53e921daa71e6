package engine

import (
	"context"
	"fmt"

	"github.com/mgraph-dev/mgraph/layout"
)

// RunOptions control how a Runner iterates.
type RunOptions struct {
	Mode          Mode
	MaxIterations int     // 0 = until the frontier is empty
	Trace         bool    // record an IterationTrace per iteration
	SampleRate    float64 // fraction of the frontier the hybrid samples for ESP (0 = default)
	Seed          uint64  // seed of the hybrid's samples
	// NoPull keeps the hybrid to the paper's two modes (dense and sparse):
	// no direction-optimizing pull steps for EarlyExit programs.
	NoPull bool
}

// Runner runs a program to completion over one backend's loaded layout.
type Runner[V Value] interface {
	// Run iterates p from frontier f until the frontier is empty, the
	// iteration cap is reached, or p (when it implements Stopper) stops. The
	// values are in layout numbering and are updated in place.
	Run(ctx context.Context, p Program[V], values []V, f *Frontier) (Result, error)
}

// Stopper is implemented by programs that decide when to stop on their own
// (PageRank to a tolerance): BeforeIteration is called before iteration i
// (0-based) and returns false to stop.
type Stopper interface {
	BeforeIteration(i int) bool
}

// Backend is one place programs run (the CPU, a GPU) with a layout loaded
// there. Apps take a Backend and create runners of the value type they need
// with NewRunner.
type Backend interface {
	// Name is "cpu" or "cuda".
	Name() string
	// Layout is the layout the backend holds.
	Layout() *layout.Layout
	// Workers is the number of CPU goroutines the backend uses.
	Workers() int
	// Uint32Runner and Float64Runner make runners for the two value types.
	Uint32Runner(opts RunOptions) (Runner[uint32], error)
	Float64Runner(opts RunOptions) (Runner[float64], error)
	// RunMin runs the min program p from init to completion and returns its
	// result in the original numbering, as out says. The backend makes the
	// initial state and maps the result itself (a GPU on the device, with
	// one copy into pinned host memory), so an app does no per-vertex work
	// of its own. The result may be a buffer the backend reuses: it stays
	// valid until the backend's next run that returns uint32 values; copy
	// it to keep it longer.
	RunMin(ctx context.Context, p Program[uint32], init Init, out Output, opts RunOptions) ([]uint32, Result, error)
}

// NewRunner returns a runner of value type V on b.
func NewRunner[V Value](b Backend, opts RunOptions) (Runner[V], error) {
	var zero V
	switch any(zero).(type) {
	case uint32:
		r, err := b.Uint32Runner(opts)
		if err != nil {
			return nil, err
		}
		return any(r).(Runner[V]), nil
	default:
		r, err := b.Float64Runner(opts)
		if err != nil {
			return nil, err
		}
		return any(r).(Runner[V]), nil
	}
}

// CheckRun returns why a Runner over l cannot run p from values and f, or
// nil: one value and one frontier entry per vertex, and weights of the
// type p adds when it adds them (CheckWeights).
func CheckRun[V Value](l *layout.Layout, p Program[V], values []V, f *Frontier) error {
	if uint64(len(values)) != l.NumVertices || f.NumVertices() != l.NumVertices {
		return fmt.Errorf("run: %d values and a frontier over %d vertices for a graph of %d",
			len(values), f.NumVertices(), l.NumVertices)
	}
	if err := CheckProgram(p, l); err != nil {
		return fmt.Errorf("run: %w", err)
	}
	return nil
}

// CheckProgram returns why p cannot run over l, or nil: its weights
// (CheckWeights), and for EdgeSourcePlusFloat32Weight a min program over
// uint32 values (the float32 bits; the engines specialise only that).
func CheckProgram[V Value](p Program[V], l *layout.Layout) error {
	if err := CheckWeights(p.Edge(), l); err != nil {
		return err
	}
	if p.Edge() == EdgeSourcePlusFloat32Weight {
		var zero V
		if _, ok := any(zero).(uint32); !ok || p.Combine() != CombineMin {
			return fmt.Errorf("float32 edge weights need a min program over uint32 values (float32 bits), not %T", p)
		}
	}
	return nil
}
