package partition

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
)

const (
	// bcUnvisited is the level of a vertex the forward pass has not reached.
	bcUnvisited = ^uint32(0)
	// BCForwardMessageBytes is one forward message of the host parts on
	// the wire: a ghost the sender reached (its id in its owner) and the
	// sender's sum of the path counts σ of its predecessors (a float64).
	BCForwardMessageBytes = 12
	// BCBackwardMessageBytes is one backward message of the host parts: a
	// ghost's offer (1+δ)/σ, read from its owner (a float64; the reader
	// knows the id).
	BCBackwardMessageBytes = 8
)

// BCPart is one part's side of a partitioned BC run (RunBC): the levels,
// path counts σ and offers (1+δ)/σ of the part's vertices (owned and
// ghosts), and the scores of its owned vertices. A part holds every arc
// out of the vertices it owns, so a forward level pushes from its owned
// vertices and reaches owned vertices and ghosts, whose owners learn of
// them by the exchange; a backward level pulls over the owned vertices'
// out-arcs, the offers of ghosts coming from their owners.
//
// Forward, Backward and Collect are collective: every part makes the same
// calls in the same order. RunBC calls, per source, Start, Forward for
// d = 1, 2, … until a step's Total is 0 (the deepest level is then
// D = d−1), and Backward for d = D … 1; after the last source, Collect.
type BCPart interface {
	// Init takes what the part needs for the run and clears its scores.
	Init() error
	// Start begins a source: every vertex unreached, and, with hasSource,
	// owned vertex source (the part's numbering) at level 0 with σ = 1.
	Start(source uint32, hasSource bool) error
	// Forward is forward level d (collective): the part claims the
	// unreached destinations of its owned vertices at level d−1 for level
	// d and sums, for each vertex it claimed, the σ of its in-neighbours
	// at level d−1; the owners take the ghosts' claims (a vertex still
	// unreached takes level d, one at level d adds the sum, the parts in
	// index order) and the new vertices are counted over all parts
	// (BCStep.Total).
	Forward(ctx context.Context, d uint32) (BCStep, error)
	// Backward is backward level d (collective): the part takes the offers
	// of its ghosts at level d+1 from their owners (a ghost it claimed at
	// d+1 that is not at d+1 at its owner is no successor: it is unmarked),
	// and for its owned vertices v at level d computes
	// δ(v) = σ(v)·Σ offer(w) over its arcs v→w with w at level d+1, sets
	// offer(v) = (1+δ(v))/σ(v) and adds δ(v) to v's score.
	Backward(ctx context.Context, d uint32) (BCStep, error)
	// Collect puts the part's owned scores at their original ids in the
	// run's result (collective); part 0 returns the result, the others nil.
	// It is complete once every part's Collect has returned, and stays
	// valid after Close; it may be memory the parts reuse (the device
	// parts' pinned result), valid until their next run or their
	// backends' Close.
	Collect(ctx context.Context) ([]float64, error)
	// Close releases what the part took for the run (device parts: the
	// backend; their state stays with it for the next run over the same
	// parts).
	Close() error
}

// BCStep is what one forward or backward level did.
type BCStep struct {
	// Total is, for a forward level, the number of vertices it reached
	// over all parts (0: the forward pass is over).
	Total uint64
	// Active is the part's vertices the level worked from: the owned
	// vertices at level d−1 (forward) or at level d (backward).
	Active uint64
	// Sent is the number of values the part sent to other parts, and
	// Bytes their size on the wire.
	Sent, Bytes uint64
	// Compute is the part's time in its kernels or loops (the rest is the
	// exchange, its packaging and waiting).
	Compute time.Duration
}

// BCExchanger is an Exchanger that can also run a partitioned BC on the
// parts' devices. RunBC uses it unless told to run on the host.
type BCExchanger interface {
	// BCParts returns a BCPart for every part, part i on backends[i], or
	// nil and no error when these backends cannot run on their devices.
	BCParts(parts []*Part, backends []engine.Backend) ([]BCPart, error)
}

// RunBC computes betweenness centrality by Brandes' algorithm over parts,
// with the conventions of apps.BC and ref.BC: unnormalised, summed over
// sources (a source listed k times counts k times), paths following the
// arcs (ordered pairs on an undirected graph), weights ignored. It returns
// every vertex's score at its original id and the run's Stats: one
// superstep per level of every source's forward pass (the last finds no
// new vertex) and per level of its backward pass.
//
// With a BCExchanger (and not host) part i runs on backends[i]'s device
// (backends[i] built from parts[i].EL), the levels, path counts and
// offers staying there (gpu's BC parts, whose state the backends keep for
// the next run over the same parts: the result is then host memory they
// reuse, valid until their next run or their Close); otherwise every part runs on the
// host over its backend's layout with workers goroutines each (0: all
// cores), exchanging in memory (hostBC). Per source, as BCPart says:
//
//   - forward, level d = 1, 2, …: every part pushes from its owned
//     vertices at level d−1 along its arcs and claims the unreached
//     destinations (owned or ghost) for level d; then sums, for each vertex
//     it claimed, the path counts σ of its in-neighbours in the part at
//     level d−1 (all owned: the part holds the arcs out of its own
//     vertices, whose σ is final). The claimed ghosts with their σ sums go
//     to their owners: a vertex still unreached takes level d, and one at
//     level d adds the sender's σ sum (the parts in index order, after the
//     owner's own sum: the sums do not depend on scheduling). An
//     all-reduce of the new vertices' count ends the pass when no part
//     reached one.
//   - backward, level d = D … 1 (D the deepest): every part takes the
//     offers (1+δ(w))/σ(w) of its ghosts w at level d+1 from their owners,
//     then computes, for its owned vertices v at level d,
//     δ(v) = σ(v)·Σ offer(w) over its arcs v→w with w at level d+1, sets
//     offer(v) and adds δ(v) to v's score.
//
// A part claims a ghost at the first level it reaches it, which may be
// later than the ghost's level at its owner: the owner ignores a σ sum for
// another level (those arcs are on no shortest path), and the part unmarks
// the ghosts it claimed late before their level is read backward, so its
// levels are exact for the backward pass.
//
// RunBC fails on inconsistent parts and backends, a source that is not a
// vertex, and when ctx is cancelled (every part then stops at its next
// barrier; an exchanger that is an Aborter is aborted).
func RunBC(ctx context.Context, parts []*Part, backends []engine.Backend, sources []uint32, ex Exchanger, host bool, workers int) ([]float64, Stats, error) {
	var st Stats
	fail := func(err error) ([]float64, Stats, error) {
		return nil, st, fmt.Errorf("partition: run bc: %w", err)
	}
	if err := checkParts(parts, backends); err != nil {
		return fail(err)
	}
	if workers < 0 {
		return fail(fmt.Errorf("negative worker count %d", workers))
	}
	n := parts[0].NumVertices
	type place struct {
		part int
		lid  uint32 // part-local id
	}
	srcs := make([]place, len(sources))
	for i, s := range sources {
		if uint64(s) >= n {
			return fail(fmt.Errorf("source %d is not a vertex: the graph has %d vertices", s, n))
		}
		srcs[i].part = -1
		for p, pt := range parts {
			if l, ok := pt.Local(s); ok {
				srcs[i] = place{part: p, lid: l}
				break
			}
		}
		if srcs[i].part < 0 {
			return fail(fmt.Errorf("no part owns source %d", s))
		}
	}
	for i, b := range backends {
		l := b.Layout()
		if uint64(len(l.Perm)) != l.NumVertices || uint64(len(l.InvPerm)) != l.NumVertices {
			return fail(fmt.Errorf("part %d: a layout of %d vertices with %d and %d permutation entries", i, l.NumVertices, len(l.Perm), len(l.InvPerm)))
		}
		if l.NumVertices != parts[i].NumPartVertices() {
			return fail(fmt.Errorf("part %d: a layout of %d vertices for %d owned and %d ghosts", i, l.NumVertices, parts[i].NumLocal, parts[i].NumGhosts))
		}
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	st.Converged = true
	if n == 0 || len(sources) == 0 {
		return make([]float64, n), st, nil
	}

	setup := time.Now()
	var bps []BCPart
	if bx, ok := ex.(BCExchanger); ok && !host {
		var err error
		bps, err = bx.BCParts(parts, backends)
		if bps, err = madeParts("bc", bps, err, len(parts)); err != nil {
			return fail(err)
		}
	}
	var link any // what the parts' collectives go through, aborted if the run stops early
	if bps == nil {
		bps = hostBCParts(parts, backends, workers)
	} else {
		link = ex
	}
	closed := false
	closeParts := func() error {
		if closed {
			return nil
		}
		closed = true
		var errs []error
		for _, bp := range bps {
			errs = append(errs, bp.Close())
		}
		return errors.Join(errs...)
	}
	defer closeParts()
	errs := make([]error, len(bps))
	var initWG sync.WaitGroup
	for i, bp := range bps {
		initWG.Add(1)
		go func() {
			defer initWG.Done()
			if err := bp.Init(); err != nil {
				errs[i] = fmt.Errorf("part %d: %w", i, err)
			}
		}()
	}
	initWG.Wait()
	if err := errors.Join(errs...); err != nil {
		return fail(err)
	}
	setupTime := time.Since(setup)

	var out []float64 // part 0's Collect's
	ws := make([]*worker, len(bps))
	bytes := make([][]uint64, len(bps)) // per part, each step's bytes sent
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	ranksDone := abortOnStop(runCtx, link)
	var wg sync.WaitGroup
	for i, bp := range bps {
		w := &worker{rank: i, setup: setupTime}
		ws[i] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			record := func(s BCStep, start time.Time) {
				w.steps = append(w.steps, rankStep{active: s.Active, sent: s.Sent, compute: s.Compute, wall: time.Since(start)})
				bytes[i] = append(bytes[i], s.Bytes)
			}
			for k, s := range srcs {
				if err := bcSource(runCtx, bp, s.lid, s.part == i, record); err != nil {
					w.err = fmt.Errorf("part %d: source %d (%d of %d): %w", i, sources[k], k+1, len(sources), err)
					cancel(w.err)
					return
				}
			}
			start := time.Now()
			res, err := bp.Collect(runCtx)
			if err != nil {
				w.err = fmt.Errorf("part %d: collect: %w", i, err)
				cancel(w.err)
				return
			}
			if i == 0 {
				out = res
			}
			w.collect = time.Since(start)
			w.done = true
		}()
	}
	wg.Wait()
	ranksDone()
	if err := runError(ctx, runCtx, ws); err != nil {
		return fail(err)
	}
	if uint64(len(out)) != n {
		return fail(fmt.Errorf("part 0 collected %d scores for %d vertices", len(out), n))
	}
	if err := closeParts(); err != nil {
		return fail(err)
	}
	st = mergeStats(ws)
	st.Bytes = 0
	for s := range st.Steps {
		st.Steps[s].Bytes = 0
		for i := range bytes {
			st.Steps[s].Bytes += bytes[i][s]
		}
		st.Bytes += st.Steps[s].Bytes
	}
	return out, st, nil
}

// bcSource is one part's side of one source: Start, the forward levels
// until none reaches a vertex, and the backward levels from the deepest;
// record gets every level's step and start time.
func bcSource(ctx context.Context, bp BCPart, src uint32, hasSource bool, record func(BCStep, time.Time)) error {
	if err := bp.Start(src, hasSource); err != nil {
		return err
	}
	var d uint32
	for d = 1; ; d++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		s, err := bp.Forward(ctx, d)
		if err != nil {
			return fmt.Errorf("forward level %d: %w", d, err)
		}
		record(s, start)
		if s.Total == 0 {
			break
		}
	}
	for b := d - 1; b >= 1; b-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		s, err := bp.Backward(ctx, b)
		if err != nil {
			return fmt.Errorf("backward level %d: %w", b, err)
		}
		record(s, start)
	}
	return nil
}
