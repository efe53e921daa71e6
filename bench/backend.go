package bench

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/dense"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/pull"
	"github.com/mgraph-dev/mgraph/sparse"
)

// Backend is how the harness uses one backend kind: it loads a layout onto
// the backend (timing the host→device upload, zero for the CPU) and makes
// the dense and sparse steppers the per-iteration oracle drives.
//
// Whatever New, Steppers and Pull return that implements io.Closer (a GPU
// backend holding device memory, its steppers) is closed by the harness
// once it is done with it, so that the many layouts of a plan do not pile
// up on a device. Closing one stepper may close the others made by the
// same Steppers call (they may share state); the harness closes them all
// only after its last step.
type Backend struct {
	// New makes a backend holding l with threads CPU workers (0 = all
	// cores) and returns the time spent uploading l (0 on the CPU).
	New func(l *layout.Layout, threads int) (engine.Backend, time.Duration, error)
	// Steppers returns the backend's dense and sparse engines for uint32
	// programs over l, for the per-iteration oracle. Each Step must have
	// finished (synchronised) when it returns, so that host timing is valid.
	Steppers func(l *layout.Layout, threads int) (engine.DenseStepper[uint32], engine.SparseStepper[uint32], error)
	// Pull, when not nil, returns the backend's pull engine over an
	// undirected l; the oracle times it too for engine.EarlyExit programs.
	Pull func(l *layout.Layout, threads int) (engine.PullStepper[uint32], error)
	// DeviceTime makes the oracle time a step by the sum of the phases its
	// Step returns instead of by host wall time around the call. A device
	// backend's steppers copy the state to the device and back around every
	// step (the oracle's steps start from host state); their phases are the
	// kernels' own times (CUDA events), which is what one iteration of a
	// device run costs. The CPU's steppers work in place, so their wall
	// time is the iteration's.
	DeviceTime bool
}

// closeIfCloser closes x when it implements io.Closer.
func closeIfCloser(x any) error {
	if c, ok := x.(io.Closer); ok && c != nil {
		return c.Close()
	}
	return nil
}

var (
	backendsMu sync.Mutex
	backends   = map[string]Backend{
		"cpu": {
			New: func(l *layout.Layout, threads int) (engine.Backend, time.Duration, error) {
				b, err := cpu.New(l, threads)
				return b, 0, err
			},
			Steppers: func(l *layout.Layout, threads int) (engine.DenseStepper[uint32], engine.SparseStepper[uint32], error) {
				b, err := cpu.New(l, threads)
				if err != nil {
					return nil, nil, err
				}
				d, err := dense.New[uint32](l, b.Workers())
				if err != nil {
					return nil, nil, err
				}
				s, err := sparse.New[uint32](l, b.Workers())
				if err != nil {
					return nil, nil, err
				}
				return d, s, nil
			},
			Pull: func(l *layout.Layout, threads int) (engine.PullStepper[uint32], error) {
				b, err := cpu.New(l, threads)
				if err != nil {
					return nil, err
				}
				return pull.New[uint32](l, b.In(), b.Workers())
			},
		},
	}
)

// RegisterBackend makes a backend kind available to plans under name (the
// CUDA engines register "cuda" when they are built in).
func RegisterBackend(name string, b Backend) {
	backendsMu.Lock()
	defer backendsMu.Unlock()
	backends[name] = b
}

// BackendNames lists the registered backends, sorted.
func BackendNames() []string {
	backendsMu.Lock()
	defer backendsMu.Unlock()
	var names []string
	for n := range backends {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func backendFor(name string) (Backend, error) {
	backendsMu.Lock()
	b, ok := backends[name]
	backendsMu.Unlock()
	if ok {
		return b, nil
	}
	if name == "cuda" {
		return Backend{}, fmt.Errorf("backend cuda: the GPU engines are not built into this mgraph yet (issue #6); use cpu")
	}
	return Backend{}, fmt.Errorf("unknown backend %q (available: %s)", name, strings.Join(BackendNames(), ", "))
}
