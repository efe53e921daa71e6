package partition

import (
	"context"
	"fmt"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
)

// StatePart is one part of RunKCore, RunMIS or RunColor on a device: the
// state of every vertex (core number, MIS state or colour) stays on the
// part's device between steps. MIS and colouring broadcast the owned
// vertices' states to the parts that hold them as ghosts after every
// change, so that a round reads its ghosts' states in place; k-core
// sends each ghost's decrements to its owner as one message a superstep.
// Only counters come to the host until Collect. Every method but Close is
// collective over the parts.
type StatePart interface {
	// Start begins the run: every owned vertex live (k-core, its degree
	// its distinct neighbours other than itself) or undecided (MIS,
	// colouring; colouring's degrees go to the ghosts' parts).
	Start(ctx context.Context) error
	// Round is one round of MIS or colouring (as runRounds' on the host)
	// with the priorities of seed; it returns the vertices still
	// undecided over all parts.
	Round(ctx context.Context, seed uint64) (undecided uint64, step DeviceStep, err error)
	// Peel is one superstep of k-core at k (as RunKCore's on the host);
	// it returns the vertices it removed and those still live, over all
	// parts.
	Peel(ctx context.Context, k uint32) (removed, live uint64, step DeviceStep, err error)
	// Collect assembles the states at their original ids in host memory:
	// part 0 returns them, the others nil. It may be memory the parts
	// reuse, valid until their next run.
	Collect(ctx context.Context) ([]uint32, error)
	// Close releases what the part took for the run.
	Close() error
}

// StateExchanger is an Exchanger that can also run k-core, MIS and
// colouring on the parts' devices; RunKCore, RunMIS and RunColor use it
// unless told to run on the host.
type StateExchanger interface {
	// StateParts returns a StatePart for every part running app ("kcore",
	// "mis" or "color"), part i on backends[i], or nil and no error when
	// these backends cannot run on their devices.
	StateParts(parts []*Part, backends []engine.Backend, app string) ([]StatePart, error)
}

// deviceStateParts returns the device parts of app over ex, or nil when ex
// has none for these backends (the run then stays on the host).
func deviceStateParts(app string, parts []*Part, backends []engine.Backend, ex Exchanger, host bool) ([]StatePart, time.Duration, error) {
	sx, ok := ex.(StateExchanger)
	if !ok || host || parts[0].NumVertices == 0 {
		return nil, 0, nil
	}
	start := time.Now()
	sps, err := sx.StateParts(parts, backends, app)
	sps, err = madeParts("state", sps, err, len(parts))
	return sps, time.Since(start), err
}

// runDeviceState is RunKCore, RunMIS or RunColor over device parts sps,
// a goroutine a part: Start, then k-core's supersteps (k grows when one
// removes no vertex, until none is live) or the rounds (round r has the
// priorities of seed+r, until none is undecided), then Collect, whose
// result (part 0's) it returns. Every step decides at least one vertex
// or (k-core) raises k, so more than 2n+1 steps are a fault, reported.
func runDeviceState(ctx context.Context, sps []StatePart, parts []*Part, ex Exchanger, app string, seed uint64, setup time.Duration) ([]uint32, Stats, error) {
	var out []uint32
	n := parts[0].NumVertices
	ws, err := eachDevicePart(ctx, len(sps), ex, setup, func(ctx context.Context, i int, w *worker) error {
		res, err := w.stateLoop(ctx, sps[i], app, n, parts[i].NumLocal, seed)
		if i == 0 {
			out = res
		}
		return err
	}, func() error { return closeAll(sps) })
	if err != nil {
		return nil, Stats{}, err
	}
	if uint64(len(out)) != n {
		return nil, Stats{}, fmt.Errorf("part 0 collected %d states for %d vertices", len(out), n)
	}
	return out, mergeStats(ws), nil
}

// stateLoop is one part's side of runDeviceState, from its active (owned)
// vertices, all live or undecided at the start; it returns what the
// part's Collect does.
func (w *worker) stateLoop(ctx context.Context, sp StatePart, app string, n, active, seed uint64) ([]uint32, error) {
	start := time.Now()
	if err := sp.Start(ctx); err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	w.setup += time.Since(start)
	k := uint32(1)
	for s := uint64(0); ; s++ {
		if s > 2*n+1 {
			return nil, fmt.Errorf("%s did not end after %d steps on %d vertices", app, s, n)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		start = time.Now()
		var (
			ds         DeviceStep
			left, gone uint64
			err        error
		)
		if app == "kcore" {
			gone, left, ds, err = sp.Peel(ctx, k)
		} else {
			left, ds, err = sp.Round(ctx, seed+s)
		}
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", s, err)
		}
		w.steps = append(w.steps, rankStep{active: active, sent: ds.Sent, compute: ds.Compute, wall: time.Since(start), phases: ds.Phases})
		active = ds.Next
		if left == 0 {
			w.done = true
			break
		}
		if app == "kcore" && gone == 0 {
			k++
		}
	}
	start = time.Now()
	res, err := sp.Collect(ctx)
	w.collect = time.Since(start)
	return res, err
}
