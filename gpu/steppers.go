package gpu

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
)

// Steppers runs single iterations of the min programs (engine.DeviceProgram
// BFS, SSSP, CC) on the device for the per-iteration oracle: each Step
// uploads the host state (values and the frontier, as flags or a list),
// runs one device step and downloads the values and the next frontier. It
// owns its run state (a cuda.MinRun over the backend's uploaded layout),
// apart from the backend's runs, so that stepping never disturbs a run.
//
// The Phases a Step returns are the step's kernels alone, timed with CUDA
// events, without the uploads and downloads around them: their sum is the
// device time of the step (the bench harness's oracle times cuda steps
// with it, see bench.Backend.DeviceTime).
//
// The device leaves the next frontier in device memory, and cuda.MinRun has
// no download of it; the steppers derive it on the host from the values:
// a min program's Apply activates exactly the vertices whose value it
// lowers, so the next frontier is the set of vertices whose value went
// down. The device's own count of the next frontier (StepCounters) is
// checked against it, and a difference is an error.
//
// One Step at a time; Close frees the run state and, when the Steppers own
// it (NewSteppersOwning), the backend.
type Steppers struct {
	b        *Backend
	ownsB    bool
	mu       sync.Mutex
	run      *cuda.MinRun
	old      []uint32
	closeErr error
	closed   bool
}

// NewSteppers makes steppers over b's uploaded layout. b stays the
// caller's: close the Steppers before b.
func NewSteppers(b *Backend) (*Steppers, error) {
	run, err := cuda.NewMinRun(b.dl)
	if err != nil {
		return nil, fmt.Errorf("cuda steppers: %w", err)
	}
	return &Steppers{b: b, run: run}, nil
}

// NewSteppersOwning is NewSteppers, with b closed by the Steppers' Close
// (and by NewSteppersOwning itself when it fails).
func NewSteppersOwning(b *Backend) (*Steppers, error) {
	s, err := NewSteppers(b)
	if err != nil {
		return nil, errors.Join(err, b.Close())
	}
	s.ownsB = true
	return s, nil
}

// Close frees the run state (and the backend when owned). Closing twice is
// harmless; every stepper of s shares this Close.
func (s *Steppers) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return s.closeErr
	}
	s.closed = true
	s.closeErr = s.run.Close()
	if s.ownsB {
		s.closeErr = errors.Join(s.closeErr, s.b.Close())
	}
	return s.closeErr
}

// Dense returns the MultiGraphD stepper.
func (s *Steppers) Dense() engine.DenseStepper[uint32] { return denseStepper{s} }

// Sparse returns the MultiGraphS stepper.
func (s *Steppers) Sparse() engine.SparseStepper[uint32] { return sparseStepper{s} }

// Pull returns the pull stepper (BFS only; over a directed layout's
// in-adjacency, built with the backend).
func (s *Steppers) Pull() engine.PullStepper[uint32] { return &pullStepper{s: s} }

// prog checks p and returns its kernel id.
func (s *Steppers) prog(p engine.Program[uint32], values []uint32) (int, error) {
	if s.closed {
		return 0, fmt.Errorf("cuda steppers: used after Close")
	}
	prog, err := minProgramID(p, s.b.l)
	if err != nil {
		return 0, fmt.Errorf("cuda steppers: %w", err)
	}
	if l := s.b.l; uint64(len(values)) != l.NumVertices {
		return 0, fmt.Errorf("cuda steppers: %d values for a graph of %d vertices", len(values), l.NumVertices)
	}
	return prog, nil
}

// locked runs body with the program's kernel id under the lock, after the
// context check and the program check (resolve): the preamble of every Step
// and Estimate.
func (s *Steppers) locked(ctx context.Context, resolve func() (int, error), body func(prog int) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	prog, err := resolve()
	if err != nil {
		return err
	}
	return body(prog)
}

// finish downloads the values after a step and returns the vertices whose
// value went down (the next frontier), as flags into next when next is not
// nil, else as a list in increasing order; want is the device's count of
// the next frontier. The host work is spread over the backend's workers.
func (s *Steppers) finish(values []uint32, next []uint8, want uint32) ([]uint32, uint64, error) {
	n := len(values)
	if len(s.old) != n {
		s.old = make([]uint32, n)
	}
	chunks := par.Split(n, s.b.workers*4)
	par.ForChunks(chunks, func(c par.Chunk) { copy(s.old[c.Lo:c.Hi], values[c.Lo:c.Hi]) })
	if err := s.run.Store(values); err != nil {
		return nil, 0, fmt.Errorf("cuda steppers: download: %w", err)
	}
	lists := make([][]uint32, len(chunks))
	counts := make([]uint64, len(chunks))
	par.ForChunks(chunks, func(c par.Chunk) {
		var k uint64
		for v := c.Lo; v < c.Hi; v++ {
			down := values[v] < s.old[v]
			if down {
				k++
			}
			if next != nil {
				next[v] = 0
				if down {
					next[v] = 1
				}
			} else if down {
				lists[c.Index] = append(lists[c.Index], uint32(v))
			}
		}
		counts[c.Index] = k
	})
	var count uint64
	for _, k := range counts {
		count += k
	}
	if count != uint64(want) {
		return nil, 0, fmt.Errorf("cuda steppers: the device counted %d vertices in the next frontier, the values changed for %d", want, count)
	}
	if next != nil {
		return nil, count, nil
	}
	return slices.Concat(lists...), count, nil
}

// phases turns kernel times in milliseconds into engine phases.
func phases(names []string, ms []float32) []engine.Phase {
	out := make([]engine.Phase, len(ms))
	for i, t := range ms {
		name := fmt.Sprintf("kernel-%d", i)
		if i < len(names) {
			name = names[i]
		}
		out[i] = engine.Phase{Name: name, Seconds: float64(t) / 1e3}
	}
	return out
}

type denseStepper struct{ s *Steppers }

// Step implements engine.DenseStepper: it uploads values and active, runs
// one dense step and downloads values and next. The phases are the kernels'
// device times.
func (d denseStepper) Step(ctx context.Context, p engine.Program[uint32], values []uint32, active, next []uint8) (uint64, []engine.Phase, error) {
	s := d.s
	_, count, ms, err := s.flagStep(ctx, "cuda dense step", func() (int, error) { return s.prog(p, values) },
		values, active, next, func(prog int) (cuda.StepCounters, []float32, error) { return s.run.Dense(prog, false) })
	if err != nil {
		return 0, nil, err
	}
	return count, phases(cuda.DensePhases, ms), nil
}

// flagStep is a dense or pull Step (what names it in errors): under the
// lock, after ctx and the program check (resolve), it uploads values and
// active, runs the step and downloads values and next.
func (s *Steppers) flagStep(ctx context.Context, what string, resolve func() (int, error), values []uint32, active, next []uint8,
	step func(prog int) (cuda.StepCounters, []float32, error)) (cuda.StepCounters, uint64, []float32, error) {
	var c cuda.StepCounters
	var count uint64
	var ms []float32
	err := s.locked(ctx, resolve, func(prog int) error {
		if len(active) != len(values) || len(next) != len(values) {
			return fmt.Errorf("%s: %d active and %d next flags for %d vertices", what, len(active), len(next), len(values))
		}
		if err := s.run.Load(values, nil, active); err != nil {
			return fmt.Errorf("%s: upload: %w", what, err)
		}
		var err error
		if c, ms, err = step(prog); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		_, count, err = s.finish(values, next, c.NextCount)
		return err
	})
	if err != nil {
		return c, 0, nil, err
	}
	return c, count, ms, nil
}

// Estimate implements engine.DenseStepper: a dry dense step from every
// vertex active over values (uploaded first), which changes neither values
// nor any state a later Step reads (every Step uploads its own).
func (d denseStepper) Estimate(ctx context.Context, p engine.Program[uint32], values []uint32) (time.Duration, error) {
	s := d.s
	var t time.Duration
	err := s.locked(ctx, func() (int, error) { return s.prog(p, values) }, func(prog int) error {
		if err := s.run.Load(values, []uint32{}, nil); err != nil {
			return fmt.Errorf("cuda dense estimate: upload: %w", err)
		}
		_, ms, err := s.run.Dense(prog, true)
		if err != nil {
			return fmt.Errorf("cuda dense estimate: %w", err)
		}
		t = msDuration(sum(ms))
		return nil
	})
	return t, err
}

type sparseStepper struct{ s *Steppers }

// Step implements engine.SparseStepper: it uploads values and the frontier
// list, runs one sparse step and downloads values; the next frontier is
// returned in increasing vertex order. The phases are the kernels' device
// times.
func (sp sparseStepper) Step(ctx context.Context, p engine.Program[uint32], values []uint32, frontier []uint32) ([]uint32, []engine.Phase, error) {
	s := sp.s
	var list []uint32
	var ms []float32
	err := s.locked(ctx, func() (int, error) { return s.prog(p, values) }, func(prog int) error {
		if uint64(len(frontier)) > uint64(len(values)) {
			return fmt.Errorf("cuda sparse step: a frontier of %d for %d vertices", len(frontier), len(values))
		}
		if err := s.run.Load(values, frontier, nil); err != nil {
			return fmt.Errorf("cuda sparse step: upload: %w", err)
		}
		var c cuda.StepCounters
		var err error
		if c, ms, err = s.run.Sparse(prog, uint32(len(frontier))); err != nil {
			return fmt.Errorf("cuda sparse step: %w", err)
		}
		list, _, err = s.finish(values, nil, c.NextCount)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	if list == nil {
		list = []uint32{}
	}
	return list, phases(cuda.SparsePhases, ms), nil
}

// Estimate implements engine.SparseStepper: the device's dry sparse advance
// over sample (uploaded with values first), which writes only scratch
// memory.
func (sp sparseStepper) Estimate(ctx context.Context, p engine.Program[uint32], values []uint32, sample []uint32) (time.Duration, error) {
	s := sp.s
	var t time.Duration
	err := s.locked(ctx, func() (int, error) { return s.prog(p, values) }, func(prog int) error {
		if len(sample) == 0 {
			return nil
		}
		if err := s.run.Load(values, sample, nil); err != nil {
			return fmt.Errorf("cuda sparse estimate: upload: %w", err)
		}
		ms, err := s.run.Sample(prog, uint32(len(sample)), 1)
		if err != nil {
			return fmt.Errorf("cuda sparse estimate: %w", err)
		}
		t = msDuration(ms)
		return nil
	})
	return t, err
}

type pullStepper struct {
	s         *Steppers
	nextEdges uint64
}

// pullProg checks that p can run as a device pull step.
func (ps *pullStepper) pullProg(p engine.EarlyExit[uint32], values []uint32) (int, error) {
	prog, err := ps.s.prog(p, values)
	if err != nil {
		return 0, err
	}
	if prog != cuda.ProgBFS {
		return 0, fmt.Errorf("cuda pull step: only BFS has a device pull step, not %T", p)
	}
	if !ps.s.b.dl.HasIn() {
		return 0, fmt.Errorf("cuda pull step: the layout's in-adjacency does not fit the device")
	}
	return prog, nil
}

// Step implements engine.PullStepper: it uploads values and active, runs
// one device pull step and downloads values and next. The phases are the
// kernel's device time.
// StepAll implements engine.PullStepper: the device's pull steps are
// BFS's (they stop at the first active in-neighbour), so this refuses.
func (ps *pullStepper) StepAll(context.Context, engine.Program[uint32], []uint32, []uint8, []uint8) (uint64, []engine.Phase, error) {
	return 0, nil, fmt.Errorf("cuda steppers: pull steps that read every arc: %w", engine.ErrPullMode)
}

func (ps *pullStepper) Step(ctx context.Context, p engine.EarlyExit[uint32], values []uint32, active, next []uint8) (uint64, []engine.Phase, error) {
	s := ps.s
	c, count, ms, err := s.flagStep(ctx, "cuda pull step", func() (int, error) { return ps.pullProg(p, values) },
		values, active, next, func(prog int) (cuda.StepCounters, []float32, error) { return s.run.Pull(prog) })
	if err != nil {
		return 0, nil, err
	}
	ps.nextEdges = c.NextEdges
	return count, phases(cuda.PullPhases, ms), nil
}

// NextArcs implements engine.PullStepper: the device's count of the out-arcs
// of the last Step's next frontier.
func (ps *pullStepper) NextArcs() uint64 { return ps.nextEdges }

// Estimate implements engine.PullStepper. The device has no sampled pull
// step, so this runs a whole pull step on device copies of values and
// active and returns its kernel time; host values are not touched, and
// the device state it leaves is overwritten by the next Step's upload.
func (ps *pullStepper) Estimate(ctx context.Context, p engine.EarlyExit[uint32], values []uint32, active []uint8) (time.Duration, error) {
	s := ps.s
	var t time.Duration
	err := s.locked(ctx, func() (int, error) { return ps.pullProg(p, values) }, func(prog int) error {
		if len(active) != len(values) {
			return fmt.Errorf("cuda pull estimate: %d active flags for %d vertices", len(active), len(values))
		}
		if err := s.run.Load(values, nil, active); err != nil {
			return fmt.Errorf("cuda pull estimate: upload: %w", err)
		}
		_, ms, err := s.run.Pull(prog)
		if err != nil {
			return fmt.Errorf("cuda pull estimate: %w", err)
		}
		t = msDuration(sum(ms))
		return nil
	})
	return t, err
}

// Close frees the shared run state (see Steppers.Close), so that a caller
// holding only one stepper can release the device memory.
func (d denseStepper) Close() error { return d.s.Close() }

// Close frees the shared run state (see Steppers.Close).
func (sp sparseStepper) Close() error { return sp.s.Close() }

// Close frees the shared run state (see Steppers.Close).
func (ps *pullStepper) Close() error { return ps.s.Close() }
