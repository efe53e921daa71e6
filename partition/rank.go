package partition

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// RankOptions are a partitioned PageRank's parameters, with
// apps.PageRankOptions' meaning: r_new(v) = (1−d)/n + d·(D/n + Σ shares of
// v's in-neighbours), D the rank of the vertices without out-arcs; stop
// after the first iteration whose Σ|Δr| is below Tolerance, or after
// MaxIterations.
type RankOptions struct {
	Damping, Tolerance float64
	MaxIterations      int
}

// checkRank checks a rank run's parts, backends and options (positive:
// the tolerance must be, as pr-delta's) and returns the graph's vertex
// count.
func checkRank(parts []*Part, backends []engine.Backend, o RankOptions, positive bool) (uint64, error) {
	if err := checkParts(parts, backends); err != nil {
		return 0, err
	}
	if err := o.check(positive); err != nil {
		return 0, err
	}
	return parts[0].NumVertices, nil
}

// check says why o cannot run, or nil; pr-delta (positive) also needs a
// positive tolerance, its threshold.
func (o RankOptions) check(positive bool) error {
	switch {
	case !(o.Damping >= 0 && o.Damping <= 1):
		return fmt.Errorf("damping %g is not in [0, 1]", o.Damping)
	case o.Tolerance < 0 || math.IsNaN(o.Tolerance):
		return fmt.Errorf("negative tolerance %g", o.Tolerance)
	case positive && o.Tolerance == 0:
		return fmt.Errorf("tolerance 0: pr-delta needs a positive one")
	case o.MaxIterations < 0:
		return fmt.Errorf("negative iteration cap %d", o.MaxIterations)
	}
	return nil
}

// RankPart is one part's side of a partitioned PageRank. A part holds
// every arc out of the vertices it owns, so each owned vertex's share
// (rank / out-degree) is known locally; an iteration sums, for every
// vertex of the part (owned or ghost), the shares of its local
// in-neighbours, sends each ghost's sum to the ghost's owner (no ids: the
// segments follow the ghosts' order), adds the sums it receives into its
// owned vertices' and makes their new ranks.
type RankPart interface {
	// Init sets every owned vertex's rank to r0 and returns the number of
	// owned vertices without out-arcs.
	Init(r0 float64) (dangling uint64, err error)
	// Iterate is one iteration, collective over the parts, with
	// base = (1−d)/n + d·D/n: it returns the sums over all parts of |Δr|
	// and of the dangling vertices' new rank.
	Iterate(ctx context.Context, base, damping float64) (RankStep, error)
	// Collect puts the part's owned ranks at their original ids in the
	// run's result (collective); part 0 returns the result, which may be
	// memory the parts reuse (valid until their next run), the others nil.
	// It is complete once every part's Collect has returned.
	Collect(ctx context.Context) ([]float64, error)
	// Close releases what the part took for the run.
	Close() error
}

// RankStep is what one iteration did, over all parts, and on this part.
type RankStep struct {
	// Delta and Dangling are Σ|Δr| and Σ r over the dangling vertices,
	// over all parts.
	Delta, Dangling float64
	// Sent is the number of sums this part sent to other parts.
	Sent uint64
	// Compute is this part's time in the gather and the apply (the rest is
	// packaging, the exchange, unpackaging and the all-reduce).
	Compute time.Duration
	// Phases is where the rest went.
	Phases Phases
}

// RankExchanger is an Exchanger that can also run a partitioned PageRank
// on the parts' devices. RunPageRank uses it unless told to run on the
// host.
type RankExchanger interface {
	// RankParts returns a RankPart for every part, part i on backends[i],
	// or nil and no error when these backends cannot run on their devices.
	RankParts(parts []*Part, backends []engine.Backend) ([]RankPart, error)
}

// RunPageRank computes PageRank over parts, in parallel, and returns every
// vertex's rank at its original id and the iterations run. With a
// RankExchanger (and not host) part i runs on backends[i]'s device;
// otherwise every part runs on the host, over its backend's layout, with
// workers goroutines each, exchanging in memory.
func RunPageRank(ctx context.Context, parts []*Part, backends []engine.Backend, opts RankOptions, ex Exchanger, host bool, workers int) ([]float64, int, Stats, error) {
	var st Stats
	fail := func(err error) ([]float64, int, Stats, error) {
		return nil, 0, st, fmt.Errorf("partition: run pr: %w", err)
	}
	n, err := checkRank(parts, backends, opts, false)
	if err != nil {
		return fail(err)
	}
	st.Converged = true
	if n == 0 {
		return []float64{}, 0, st, nil
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	setup := time.Now()
	rps, err := deviceRankParts(parts, backends, ex, host)
	if err != nil {
		return fail(err)
	}
	if rps == nil {
		rps = hostRankParts(parts, backends, workers)
	}
	defer func() {
		for _, rp := range rps {
			rp.Close()
		}
	}()
	r0 := 1 / float64(n)
	counts := make([]uint64, len(rps))
	errs := make([]error, len(rps))
	var initWG sync.WaitGroup
	for i, rp := range rps {
		initWG.Add(1)
		go func() {
			defer initWG.Done()
			counts[i], errs[i] = rp.Init(r0)
		}()
	}
	initWG.Wait()
	if err := errors.Join(errs...); err != nil {
		return fail(err)
	}
	var dangling0 float64
	for _, c := range counts {
		dangling0 += float64(c) * r0
	}
	setupTime := time.Since(setup)

	d, nf := opts.Damping, float64(n)
	out, iters, workersState, err := rankLoop(ctx, rps, parts, opts, ex, setupTime, dangling0, func(dangling float64) float64 {
		return (1-d)/nf + d*dangling/nf
	})
	if err != nil {
		return fail(err)
	}
	st = mergeStats(workersState) // a sum's 8 bytes are MessageBytes too
	st.Converged = workersState[0].done || opts.MaxIterations == 0
	return out, iters[0], st, nil
}

// deviceRankParts returns the parts of a rank run on the parts' devices
// (ex a RankExchanger, and not host), or nil when they run on the host.
// A wrong number of parts is an error (the ones made are closed: they
// hold their backends).
func deviceRankParts(parts []*Part, backends []engine.Backend, ex Exchanger, host bool) ([]RankPart, error) {
	rx, ok := ex.(RankExchanger)
	if !ok || host {
		return nil, nil
	}
	rps, err := rx.RankParts(parts, backends)
	return madeParts("rank", rps, err, len(parts))
}

// rankLoop runs the iterations of a partitioned PageRank over rps, a
// goroutine a part, from the dangling rank dangling0; base gives each
// iteration's base from the dangling rank of the last (RankPart.Iterate).
// It returns part 0's collected ranks, each part's iterations and its
// worker state (for the stats), or the run's error.
func rankLoop(ctx context.Context, rps []RankPart, parts []*Part, opts RankOptions, ex Exchanger, setupTime time.Duration,
	dangling0 float64, base func(dangling float64) float64) ([]float64, []int, []*worker, error) {
	n := parts[0].NumVertices
	var out []float64 // part 0's Collect's
	workersState := make([]*worker, len(rps))
	iters := make([]int, len(rps))
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	ranksDone := abortOnStop(runCtx, ex)
	var wg sync.WaitGroup
	for i, rp := range rps {
		w := &worker{rank: i, setup: setupTime}
		workersState[i] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			dangling := dangling0
			for it := 0; it < opts.MaxIterations; it++ {
				start := time.Now()
				rs, err := rp.Iterate(runCtx, base(dangling), opts.Damping)
				if err != nil {
					w.err = fmt.Errorf("part %d: iteration %d: %w", i, it, err)
					cancel(w.err)
					return
				}
				w.steps = append(w.steps, rankStep{active: parts[i].NumLocal, sent: rs.Sent, compute: rs.Compute, wall: time.Since(start), phases: rs.Phases})
				iters[i] = it + 1
				dangling = rs.Dangling
				if rs.Delta < opts.Tolerance {
					w.done = true
					break
				}
			}
			start := time.Now()
			res, err := rp.Collect(runCtx)
			if err != nil {
				w.err = fmt.Errorf("part %d: %w", i, err)
				cancel(w.err)
				return
			}
			if i == 0 {
				out = res
			}
			w.collect = time.Since(start)
		}()
	}
	wg.Wait()
	ranksDone()
	if err := runError(ctx, runCtx, workersState); err != nil {
		return nil, nil, nil, err
	}
	if uint64(len(out)) != n {
		return nil, nil, nil, fmt.Errorf("part 0 collected %d ranks for %d vertices", len(out), n)
	}
	return out, iters, workersState, nil
}

// hostRank is a part of a PageRank run on the host, over its backend's
// layout (layout numbering): the arcs by destination (in-rows, made from
// the layout's out-rows; every source is owned), the ranks, shares and
// sums of its vertices, and the parts it exchanges with in memory.
type hostRank struct {
	pt      *Part
	b       engine.Backend
	l       *layout.Layout
	all     []*hostRank
	bar     *Barrier
	workers int
	owned   []uint32 // the owned vertices' layout ids (the part's numbering)
	in      *layout.InArcs
	rank    []float64
	share   []float64
	acc     []float64
	sums    [2]float64 // this part's Σ|Δr| and dangling rank, posted for the others
	result  []float64  // the run's, shared by the parts
	// teleport, when not nil, is the personalised run's teleport vector
	// (layout numbering; RunPersonalizedPageRank): Iterate's base then
	// scales it instead of being every vertex's.
	teleport []float64
}

// hostRankParts makes the host parts of a run over the backends' layouts.
func hostRankParts(parts []*Part, backends []engine.Backend, workers int) []RankPart {
	hs := make([]*hostRank, len(parts))
	bar := NewBarrier(len(parts))
	result := make([]float64, parts[0].NumVertices)
	for i, pt := range parts {
		hs[i] = &hostRank{pt: pt, b: backends[i], l: backends[i].Layout(), all: hs, bar: bar, workers: workers, result: result}
	}
	out := make([]RankPart, len(hs))
	for i, h := range hs {
		out[i] = h
	}
	return out
}

// Init implements RankPart.
func (h *hostRank) Init(r0 float64) (uint64, error) {
	pt, l := h.pt, h.l
	nv := l.NumVertices
	if nv != pt.NumPartVertices() || uint64(len(l.Perm)) != nv {
		return 0, fmt.Errorf("part %d: a layout of %d vertices for %d owned and %d ghosts", pt.Index, nv, pt.NumLocal, pt.NumGhosts)
	}
	h.owned = l.Perm[:pt.NumLocal]
	h.in = inArcsOf(h.b, h.workers)
	h.rank, h.share, h.acc = make([]float64, nv), make([]float64, nv), make([]float64, nv)
	var dangling uint64
	for _, v := range h.owned {
		h.rank[v] = r0
		if d := l.OutDegree(v); d > 0 {
			h.share[v] = r0 / float64(d)
		} else {
			dangling++
		}
	}
	return dangling, nil
}

// Iterate implements RankPart: the gather, a barrier, the owned vertices'
// sums from the other parts' ghosts (read in place), the apply, and the
// sums posted and added after a second barrier (which also keeps every
// part's ghost sums until all have read them).
func (h *hostRank) Iterate(ctx context.Context, base, damping float64) (RankStep, error) {
	var rs RankStep
	pt := h.pt
	start := time.Now()
	par.ForChunks(par.Split(len(h.acc), 4*par.Workers(h.workers)), func(c par.Chunk) {
		for v := c.Lo; v < c.Hi; v++ {
			var s float64
			for _, u := range h.in.Src[h.in.Offsets[v]:h.in.Offsets[v+1]] {
				s += h.share[u]
			}
			h.acc[v] = s
		}
	})
	rs.Compute = time.Since(start)
	rs.Sent = pt.NumGhosts // every ghost's sum, each owned by another part
	clock := NewPhaseClock()
	if err := h.bar.Wait(ctx); err != nil {
		return rs, err
	}
	clock.Lap(&rs.Phases.Exchange) // waiting for the others' gathers: their sums are then readable
	for _, o := range h.all {
		if o == h {
			continue
		}
		lo, hi := o.pt.GhostRange(pt.Index)
		for g := lo; g < hi; g++ {
			h.acc[h.l.Perm[o.pt.GhostRemote[g]]] += o.acc[o.l.Perm[o.pt.NumLocal+g]]
		}
	}
	clock.Lap(&rs.Phases.Unpack)
	start = time.Now()
	var delta, dangling float64
	for _, v := range h.owned {
		nr := base + damping*h.acc[v]
		if h.teleport != nil { // personalised: base scales the teleport vector
			nr = base*h.teleport[v] + damping*h.acc[v]
		}
		delta += math.Abs(nr - h.rank[v])
		h.rank[v] = nr
		if d := h.l.OutDegree(v); d > 0 {
			h.share[v] = nr / float64(d)
		} else {
			dangling += nr
		}
	}
	rs.Compute += time.Since(start)
	h.sums = [2]float64{delta, dangling}
	clock = NewPhaseClock()
	if err := h.bar.Wait(ctx); err != nil {
		return rs, err
	}
	for _, o := range h.all {
		rs.Delta += o.sums[0]
		rs.Dangling += o.sums[1]
	}
	clock.Lap(&rs.Phases.Reduce)
	return rs, nil
}

// inArcsOf returns b's in-adjacency: the one the backend keeps (the CPU's,
// built once for its pull steps), else its layout's, built now.
func inArcsOf(b engine.Backend, workers int) *layout.InArcs {
	if ib, ok := b.(interface{ In() *layout.InArcs }); ok {
		return ib.In()
	}
	return b.Layout().In(workers)
}

// Collect implements RankPart: the part writes its owned ranks at their
// original ids (the parts' ids are disjoint).
func (h *hostRank) Collect(context.Context) ([]float64, error) {
	global := h.pt.Global[:h.pt.NumLocal]
	par.ForChunks(par.Split(len(h.owned), 4*par.Workers(h.workers)), func(c par.Chunk) {
		for j := c.Lo; j < c.Hi; j++ {
			h.result[global[j]] = h.rank[h.owned[j]]
		}
	})
	if h.pt.Index != 0 {
		return nil, nil
	}
	return h.result, nil
}

// Close implements RankPart.
func (h *hostRank) Close() error { return nil }
