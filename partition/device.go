package partition

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
)

// DevicePart is one part's side of a run whose values, frontier and
// updates stay on the part's device: the superstep's packaging,
// exchange and unpackaging run there, and only counters come to the host
// until Collect. A DeviceExchanger makes them; Run drives them, one
// goroutine per part.
type DevicePart interface {
	// Init sets the part's initial state for start: with FromLabels or
	// FromHooks (CC) every vertex's value is its original id and every
	// owned vertex is active; with FromSource every value is
	// apps.Unreached and, with hasSource, owned vertex source (the part's
	// numbering) has value 0 and is the only active vertex. It returns
	// the number of active vertices.
	Init(start Start, source uint32, hasSource bool) (active uint64, err error)
	// Superstep is the part's side of one superstep, collective over the
	// parts: an iteration from its frontier of active vertices (skipped
	// when active is 0; with FromHooks, the hooking's step instead),
	// packaging, the exchange, unpackaging, and the sum of the next
	// frontiers' sizes over the parts.
	Superstep(ctx context.Context, active uint64) (DeviceStep, error)
	// Parents turns the owned vertices' BFS levels into their parents
	// (bfs-tree on an undirected graph, after the supersteps;
	// collective): each part's boundary levels go to the parts that hold
	// them as ghosts, then every reached owned vertex takes, of its
	// neighbours one level up, the first in its layout's order (its
	// original id); the source is its own parent.
	Parents(ctx context.Context) error
	// Collect assembles the result, every vertex's value at its original
	// id, in host memory (collective): part 0 returns it, the others nil.
	// It may be memory the parts reuse, valid until their next run.
	Collect(ctx context.Context) ([]uint32, error)
	// Close releases what the part allocated for the run (its backend
	// stays open).
	Close() error
}

// DeviceStep is what one superstep did on one part.
type DeviceStep struct {
	// Next is the part's next frontier (owned vertices); Total the sum of
	// Next over the parts (0: the run has converged).
	Next, Total uint64
	// Sent is the number of messages the part sent.
	Sent uint64
	// Compute is the iteration's time (the rest of the superstep is
	// packaging, exchange, unpackaging and waiting).
	Compute time.Duration
	// Pull is true when the superstep pulled (on every part).
	Pull bool
	// Phases is where the rest went.
	Phases Phases
}

// DeviceExchanger is an Exchanger that can also keep a run on the parts'
// devices. Run uses DeviceParts unless RunOptions.HostExchange.
type DeviceExchanger interface {
	Exchanger
	// DeviceParts returns a DevicePart for every part, part i running on
	// backends[i] with program prog and engine options opts (one
	// iteration a superstep), or nil and no error when these backends
	// cannot run on their devices (Run then packages on the host through
	// the Exchanger's methods).
	DeviceParts(parts []*Part, backends []engine.Backend, prog engine.Program[uint32], opts engine.RunOptions) ([]DevicePart, error)
}

// Start is how a device part's run starts and what its supersteps
// compute (DevicePart.Init).
type Start int

const (
	// FromSource starts a BFS or SSSP from one vertex; a superstep is
	// one iteration of the part's program.
	FromSource Start = iota
	// FromLabels starts CC by label propagation: every vertex labelled
	// with its original id; a superstep is one iteration.
	FromLabels
	// FromHooks starts CC by hooking (cc, whatever the mode, as on one
	// GPU): labels as FromLabels; the first superstep links each part's
	// components by Afforest's hooking and gives each its smallest label,
	// the later ones spread the labels the exchange lowered through the
	// components, a pass over the vertices instead of the arcs.
	FromHooks
)

// startOf is how app's device parts start: cc hooks (whatever the mode,
// as cc on one GPU), cc-lp propagates labels.
func startOf(app string) Start {
	switch app {
	case "cc":
		return FromHooks
	case "cc-lp":
		return FromLabels
	}
	return FromSource
}

// runDevice is Run over device parts: one goroutine per part runs Init,
// the supersteps until the sum of the next frontiers is zero or the cap,
// and Collect, whose result (part 0's) it returns. ex, the parts'
// exchanger, is aborted if the run stops early (abortOnStop).
func runDevice(ctx context.Context, dps []DevicePart, ex Exchanger, app string, start Start, srcPart int, srcLocal uint32, maxSteps int) ([]uint32, Stats, error) {
	var out []uint32
	workers := make([]*worker, len(dps))
	for i := range workers {
		workers[i] = &worker{rank: i}
	}
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	ranksDone := abortOnStop(runCtx, ex)
	var wg sync.WaitGroup
	for i, dp := range dps {
		w := workers[i]
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := w.deviceLoop(runCtx, dp, app, start, srcLocal, i == srcPart, maxSteps)
			if err != nil {
				w.err = fmt.Errorf("part %d: %w", i, err)
				cancel(w.err)
			}
			if i == 0 {
				out = res
			}
		}()
	}
	wg.Wait()
	ranksDone()
	var errs []error
	for _, dp := range dps {
		errs = append(errs, dp.Close())
	}
	if err := runError(ctx, runCtx, workers); err != nil {
		return nil, Stats{}, err
	}
	if err := errors.Join(errs...); err != nil {
		return nil, Stats{}, err
	}
	if out == nil {
		return nil, Stats{}, fmt.Errorf("part 0 collected no result")
	}
	return out, mergeStats(workers), nil
}

// deviceLoop is one part's side of runDevice; it returns what the part's
// Collect does.
func (w *worker) deviceLoop(ctx context.Context, dp DevicePart, app string, how Start, src uint32, hasSource bool, maxSteps int) ([]uint32, error) {
	start := time.Now()
	active, err := dp.Init(how, src, hasSource)
	if err != nil {
		return nil, err
	}
	w.setup = time.Since(start)
	for s := 0; maxSteps == 0 || s < maxSteps; s++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		start = time.Now()
		ds, err := dp.Superstep(ctx, active)
		if err != nil {
			return nil, fmt.Errorf("superstep %d: %w", s, err)
		}
		w.steps = append(w.steps, rankStep{active: active, sent: ds.Sent, compute: ds.Compute, wall: time.Since(start), phases: ds.Phases, pull: ds.Pull})
		if ds.Total == 0 {
			w.done = true
			break
		}
		active = ds.Next
	}
	if app == "bfs-tree" {
		start = time.Now()
		if err := dp.Parents(ctx); err != nil {
			return nil, fmt.Errorf("parents: %w", err)
		}
		w.tree = time.Since(start)
	}
	start = time.Now()
	res, err := dp.Collect(ctx)
	w.collect = time.Since(start)
	return res, err
}

// eachDevicePart runs body for every one of parts device parts, a
// goroutine each, under a context that the first failure cancels (which
// aborts ex, when it can be: abortOnStop); a failure is reported as part
// i's. Once all have returned, closeAll releases the parts (its error
// reported when the run had none), and it returns the parts' workers and
// the run's error (runError's).
func eachDevicePart(ctx context.Context, parts int, ex Exchanger, setup time.Duration, body func(ctx context.Context, i int, w *worker) error,
	closeAll func() error) ([]*worker, error) {
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	done := abortOnStop(runCtx, ex)
	ws := make([]*worker, parts)
	var wg sync.WaitGroup
	for i := range ws {
		w := &worker{rank: i, setup: setup}
		ws[i] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := body(runCtx, i, w); err != nil {
				w.err = fmt.Errorf("part %d: %w", i, err)
				cancel(w.err)
			}
		}()
	}
	wg.Wait()
	done()
	cerr := closeAll()
	if err := runError(ctx, runCtx, ws); err != nil {
		return nil, err
	}
	return ws, cerr
}

// closeAll closes every part of ps, returning their errors joined.
func closeAll[P interface{ Close() error }](ps []P) error {
	var errs []error
	for _, p := range ps {
		errs = append(errs, p.Close())
	}
	return errors.Join(errs...)
}

// madeParts checks the device parts an exchanger made for a run of parts
// parts (what names them in the error): none, or one per part; a wrong
// number is closed (they may hold their backends) and reported.
func madeParts[P interface{ Close() error }](what string, ps []P, err error, parts int) ([]P, error) {
	if err != nil || ps == nil || len(ps) == parts {
		return ps, err
	}
	return nil, errors.Join(fmt.Errorf("the exchanger made %d %s parts for %d parts", len(ps), what, parts), closeAll(ps))
}
