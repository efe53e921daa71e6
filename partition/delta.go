package partition

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// deltaGrain is the fewest items per core of a delta part's passes.
const deltaGrain = 1 << 12

// RunPageRankDelta computes PageRank data-driven over parts, as
// apps.PageRankDelta does on one backend (Gunrock's pr-delta: x = 1 +
// d·A·x solved by pushing residuals, the result x / Σx), and returns every
// vertex's rank at its original id and the supersteps run. Every part
// keeps its values on the host and iterates with its backend's runner
// (eopts: the mode, hybrid, dense or sparse; one iteration a superstep).
// A superstep:
//
//  1. push: one iteration of the part's runner: every active owned
//     vertex's share d·r/outdeg goes to the sums of its out-neighbours,
//     owned or ghosts;
//  2. exchange: after a barrier, each part adds the sums its vertices got
//     as ghosts in the other parts (read in place, as RunPageRank's host
//     parts do);
//  3. apply: an owned vertex whose residual plus its sum exceeds
//     Tolerance·(1−Damping) absorbs it and is active next (its share the
//     next push); the others keep it as residual;
//  4. the active vertices are counted over the parts (after a second
//     barrier, which also keeps the ghost sums until all have read them);
//     none left ends the run, as does MaxIterations (0: no cap).
//
// The supersteps are one backend's iterations, so the result is its
// result up to the order of the sums, within the tolerance of the
// converged ranks (apps.ValidatePageRankDelta's bound).
//
// With a DeltaExchanger (and not host) the parts run on their devices
// instead (DeltaPart): the same supersteps, the push a gather of the
// active vertices' shares, eopts' mode unused; the result may then be
// memory the parts reuse, valid until their next run.
func RunPageRankDelta(ctx context.Context, parts []*Part, backends []engine.Backend, opts RankOptions, eopts engine.RunOptions, ex Exchanger, host bool) ([]float64, int, Stats, error) {
	var st Stats
	fail := func(err error) ([]float64, int, Stats, error) {
		return nil, 0, st, fmt.Errorf("partition: run pr-delta: %w", err)
	}
	n, err := checkRank(parts, backends, opts, true)
	if err != nil {
		return fail(err)
	}
	if eopts.Mode == engine.Async || eopts.Mode == engine.Pull {
		return fail(fmt.Errorf("mode %s: a superstep is one iteration that pushes; use hybrid, dense or sparse", eopts.Mode))
	}
	if eopts.Mode == engine.Auto {
		eopts.Mode = engine.Hybrid
	}
	eopts.MaxIterations, eopts.Trace = 1, false
	st.Converged = true
	if n == 0 {
		return []float64{}, 0, st, nil
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	if err := checkExchanger(ex, len(parts)); err != nil {
		return fail(err)
	}
	dps, taking, err := deviceDeltaParts(parts, backends, opts, ex, host)
	if err != nil {
		return fail(err)
	}
	if dps != nil {
		out, steps, st, err := runDeviceDelta(ctx, dps, parts, ex, opts.MaxIterations, taking)
		if err != nil {
			return fail(err)
		}
		return out, steps, st, nil
	}
	setup := time.Now()
	ds := make([]*deltaPart, len(parts))
	bar := NewBarrier(len(parts))
	for i, pt := range parts {
		d, err := newDeltaPart(pt, backends[i], opts, eopts)
		if err != nil {
			return fail(fmt.Errorf("part %d: %w", i, err))
		}
		d.all, d.bar = ds, bar
		ds[i] = d
	}
	setupTime := time.Since(setup)
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	ws := make([]*worker, len(ds))
	steps := make([]int, len(ds))
	var wg sync.WaitGroup
	for i, d := range ds {
		w := &worker{rank: i, setup: setupTime}
		ws[i] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			active := uint64(len(d.owned))
			for s := 0; opts.MaxIterations == 0 || s < opts.MaxIterations; s++ {
				start := time.Now()
				next, total, rs, err := d.superstep(runCtx, active)
				if err != nil {
					w.err = fmt.Errorf("part %d: superstep %d: %w", i, s, err)
					cancel(w.err)
					return
				}
				w.steps = append(w.steps, rankStep{active: active, sent: rs.Sent, compute: rs.Compute, wall: time.Since(start), phases: rs.Phases})
				steps[i], active = s+1, next
				if total == 0 {
					w.done = true
					break
				}
			}
		}()
	}
	wg.Wait()
	if err := runError(ctx, runCtx, ws); err != nil {
		return fail(err)
	}
	start := time.Now()
	out := make([]float64, n)
	var mass float64
	for _, d := range ds {
		mass += d.absorbed()
	}
	for _, d := range ds {
		d.collect(out, mass)
	}
	ws[0].collect = time.Since(start)
	st = mergeStats(ws) // its Converged: part 0 found no active vertex left
	return out, steps[0], st, nil
}

// deltaPart is one part of a partitioned pr-delta, in its layout's
// numbering, and the program its runner iterates: every vertex's absorbed
// mass x and unabsorbed residual (the owned vertices'), the sums a push
// leaves (owned and ghosts), and the active flags and shares of the owned
// vertices.
type deltaPart struct {
	pt           *Part
	l            *layout.Layout
	run          engine.Runner[float64]
	all          []*deltaPart
	bar          *Barrier
	workers      int
	damping, eps float64
	owned        []uint32 // the owned vertices' layout ids (the part's numbering)
	x, residual  []float64
	sum          []float64 // what the push brought each vertex, then the other parts' sums
	share        []float64 // the values the push sends: each active vertex's share
	active       []uint8
	touched      []uint8 // the vertices whose sum is not zero
	count        uint64  // active owned vertices, posted for the others
}

// Edge implements engine.Program: a vertex sends its share.
func (*deltaPart) Edge() engine.EdgeOp { return engine.EdgeSource }

// Combine implements engine.Program.
func (*deltaPart) Combine() engine.CombineOp { return engine.CombineSum }

// ApplyAll implements engine.Program.
func (*deltaPart) ApplyAll() bool { return false }

// Apply implements engine.Program: the sum is kept for the exchange and
// the apply after it; no vertex is active within the iteration.
func (d *deltaPart) Apply(v uint32, acc float64, _ []float64) bool {
	if acc != 0 {
		d.sum[v] += acc
		d.touched[v] = 1
	}
	return false
}

// newDeltaPart starts part pt on backend b: every owned vertex has
// absorbed its initial residual 1 and is active.
func newDeltaPart(pt *Part, b engine.Backend, opts RankOptions, eopts engine.RunOptions) (*deltaPart, error) {
	l := b.Layout()
	nv := l.NumVertices
	if nv != pt.NumPartVertices() || uint64(len(l.Perm)) != nv {
		return nil, fmt.Errorf("a layout of %d vertices for %d owned and %d ghosts", nv, pt.NumLocal, pt.NumGhosts)
	}
	run, err := engine.NewRunner[float64](b, eopts)
	if err != nil {
		return nil, err
	}
	d := &deltaPart{pt: pt, l: l, run: run, workers: b.Workers(), damping: opts.Damping, eps: opts.Tolerance * (1 - opts.Damping),
		owned: l.Perm[:pt.NumLocal], x: make([]float64, nv), residual: make([]float64, nv), sum: make([]float64, nv),
		share: make([]float64, nv), active: make([]uint8, nv), touched: make([]uint8, nv)}
	for _, v := range d.owned {
		d.x[v] = 1
		d.setShare(v, 1)
	}
	return d, nil
}

// setShare makes owned vertex v active with residual r absorbed: its share
// is d·r/outdeg (none without out-arcs: that mass leaves the iteration, as
// on one backend, and the normalization puts it back).
func (d *deltaPart) setShare(v uint32, r float64) {
	d.active[v] = 1
	d.share[v] = 0
	if deg := d.l.OutDegree(v); deg > 0 {
		d.share[v] = d.damping * r / float64(deg)
	}
}

// superstep is one superstep on this part from its active vertices
// (collective): it returns the part's active vertices next, their total
// over the parts, and what it did.
func (d *deltaPart) superstep(ctx context.Context, active uint64) (uint64, uint64, RankStep, error) {
	var rs RankStep
	start := time.Now()
	if active > 0 {
		if _, err := d.run.Run(ctx, d, d.share, engine.NewFrontierFlags(d.active)); err != nil {
			return 0, 0, rs, err
		}
	}
	clear(d.active) // spent: the apply makes the next ones
	rs.Compute = time.Since(start)
	for g := d.pt.NumLocal; g < d.pt.NumPartVertices(); g++ {
		if d.touched[d.l.Perm[g]] != 0 {
			rs.Sent++
		}
	}
	clock := NewPhaseClock()
	if err := d.bar.Wait(ctx); err != nil {
		return 0, 0, rs, err
	}
	clock.Lap(&rs.Phases.Exchange)
	for _, o := range d.all {
		if o == d {
			continue
		}
		lo, hi := o.pt.GhostRange(d.pt.Index)
		for g := lo; g < hi; g++ {
			if gl := o.l.Perm[o.pt.NumLocal+g]; o.touched[gl] != 0 {
				v := d.l.Perm[o.pt.GhostRemote[g]]
				d.sum[v] += o.sum[gl] // this part's owned vertex: no other part writes it
				d.touched[v] = 1
			}
		}
	}
	clock.Lap(&rs.Phases.Unpack)
	start = time.Now()
	d.count = d.apply()
	rs.Compute += time.Since(start)
	clock = NewPhaseClock()
	if err := d.bar.Wait(ctx); err != nil {
		return 0, 0, rs, err
	}
	var total uint64
	for _, o := range d.all {
		total += o.count
	}
	clock.Lap(&rs.Phases.Reduce)
	// Every part has read the others' ghost sums: clear this part's for
	// the next push, before the next barrier.
	par.For(len(d.sum), d.workers, deltaGrain, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			if d.touched[v] != 0 {
				d.sum[v], d.touched[v] = 0, 0
			}
		}
	})
	return d.count, total, rs, nil
}

// apply lets every owned vertex with a sum take it into its residual and
// absorb the residual when it exceeds eps (active next); it returns the
// number of active vertices.
func (d *deltaPart) apply() uint64 {
	var count atomic.Uint64
	par.For(len(d.owned), d.workers, deltaGrain, func(lo, hi int) {
		var c uint64
		for _, v := range d.owned[lo:hi] {
			if d.touched[v] == 0 {
				continue
			}
			r := d.residual[v] + d.sum[v]
			if r <= d.eps {
				d.residual[v] = r
				continue
			}
			d.x[v] += r
			d.residual[v] = 0
			d.setShare(v, r)
			c++
		}
		count.Add(c)
	})
	return count.Load()
}

// absorbed is the mass the part's owned vertices absorbed.
func (d *deltaPart) absorbed() float64 {
	var s float64
	for _, v := range d.owned {
		s += d.x[v]
	}
	return s
}

// collect writes the part's ranks, x / mass, at their original ids.
func (d *deltaPart) collect(out []float64, mass float64) {
	global := d.pt.Global[:d.pt.NumLocal]
	par.For(len(d.owned), d.workers, deltaGrain, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			out[global[j]] = d.x[d.owned[j]] / mass
		}
	})
}
