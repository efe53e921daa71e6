package partition

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// RunHITS computes Kleinberg's hub and authority scores over parts, on the
// host, as apps.HITS does on one backend (ref.HITS's conventions: h = a =
// 1/n to start; an iteration makes a = Aᵀh, then h = A·a with the new a,
// each divided by its sum; it stops after the first iteration whose L1
// change of h is below tol, or after maxIter). With salsa it is SALSA
// instead (ref.SALSA's: h and a uniform over the vertices with out- and
// in-arcs; a(v) = Σ h(u)/outdeg(u), then h(u) = Σ a(v)/indeg(v), no
// normalisation; it stops when both changes are below tol). It returns
// the hubs and the authorities at original ids and the iterations run.
//
// Every part holds its owned vertices' out-rows: the authority step sums
// each vertex's in-arcs in the part (owned or ghost) and the owners add
// their ghosts' sums from the other parts; the hub step reads a ghost's
// authority (and in-degree) at its owner. The parts share the process's
// memory and meet at barriers, as RunPageRank's host parts do; the stats'
// compute is each iteration whole, its waits included. With a
// HITSExchanger (and not host) part i runs on backends[i]'s device
// instead (HITSPart).
func RunHITS(ctx context.Context, parts []*Part, backends []engine.Backend, salsa bool, maxIter int, tol float64, ex Exchanger, host bool, workers int) (hubs, authorities []float64, iterations int, st Stats, err error) {
	fail := func(err error) ([]float64, []float64, int, Stats, error) {
		return nil, nil, 0, st, fmt.Errorf("partition: run %s: %w", hitsName(salsa), err)
	}
	if err := checkParts(parts, backends); err != nil {
		return fail(err)
	}
	if hx, ok := ex.(HITSExchanger); ok && !host && parts[0].NumVertices > 0 && maxIter >= 0 && tol >= 0 {
		start := time.Now()
		hps, err := hx.HITSParts(parts, backends, salsa)
		if hps, err = madeParts("HITS", hps, err, len(parts)); err != nil {
			return fail(err)
		}
		if hps != nil {
			hubs, authorities, iterations, st, err = runDeviceHITS(ctx, hps, parts, ex, salsa, maxIter, tol, time.Since(start))
			if err != nil {
				return fail(err)
			}
			return hubs, authorities, iterations, st, nil
		}
	}
	ls := make([]*layout.Layout, len(backends))
	for i, b := range backends {
		ls[i] = b.Layout()
	}
	return runHITS(ctx, parts, ls, salsa, maxIter, tol, workers)
}

// hitsName is RunHITS's app.
func hitsName(salsa bool) string {
	if salsa {
		return "salsa"
	}
	return "hits"
}

// runHITS is RunHITS over the parts' layouts ls (checked against parts).
func runHITS(ctx context.Context, parts []*Part, ls []*layout.Layout, salsa bool, maxIter int, tol float64, workers int) (hubs, authorities []float64, iterations int, st Stats, err error) {
	fail := func(err error) ([]float64, []float64, int, Stats, error) {
		return nil, nil, 0, st, fmt.Errorf("partition: run %s: %w", hitsName(salsa), err)
	}
	switch {
	case maxIter < 0:
		return fail(fmt.Errorf("negative iteration cap %d", maxIter))
	case tol < 0 || math.IsNaN(tol):
		return fail(fmt.Errorf("negative tolerance %g", tol))
	}
	n := parts[0].NumVertices
	st.Converged = true
	if n == 0 {
		return []float64{}, []float64{}, 0, st, nil
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	hs := make([]*hitsPart, len(parts))
	bar := NewBarrier(len(parts))
	sums := newHostSums(bar, len(parts))
	for i, pt := range parts {
		l := ls[i]
		if l.NumVertices != pt.NumPartVertices() || uint64(len(l.Perm)) != l.NumVertices {
			return fail(fmt.Errorf("part %d: a layout of %d vertices for %d owned and %d ghosts", i, l.NumVertices, pt.NumLocal, pt.NumGhosts))
		}
		hs[i] = newHITSPart(pt, l, hs, bar, sums, salsa, workers)
	}
	hubs, authorities = make([]float64, n), make([]float64, n)
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	ws := make([]*worker, len(hs))
	iters := make([]int, len(hs))
	var wg sync.WaitGroup
	for i, h := range hs {
		ws[i] = &worker{rank: i}
		wg.Add(1)
		go func() {
			defer wg.Done()
			it, err := h.run(runCtx, ws[i], maxIter, tol, float64(n))
			if err != nil {
				ws[i].err = fmt.Errorf("part %d: %w", i, err)
				cancel(ws[i].err)
				return
			}
			iters[i] = it
			start := time.Now()
			h.collect(hubs, authorities)
			ws[i].collect = time.Since(start)
		}()
	}
	wg.Wait()
	if err := runError(ctx, runCtx, ws); err != nil {
		return fail(err)
	}
	st = mergeStats(ws)
	st.Converged = ws[0].done || maxIter == 0
	return hubs, authorities, iters[0], st, nil
}

// hitsPart is one part of RunHITS, in its layout's numbering: every
// vertex's sum of its in-arcs in the part (acc) and in-arc count (cnt,
// then the owned vertices' in-degrees over all parts), the owned
// vertices' hubs and authorities, and each ghost's owner and layout id
// there.
type hitsPart struct {
	pt                 *Part
	l                  *layout.Layout
	all                []*hitsPart
	bar                *Barrier
	salsa              bool
	workers            int
	owned              []uint32
	acc, hub, auth     []float64
	cnt                []uint64
	ghostPart, ghostAt []uint32 // by ghost index
	sums               *hostSums
}

func newHITSPart(pt *Part, l *layout.Layout, all []*hitsPart, bar *Barrier, sums *hostSums, salsa bool, workers int) *hitsPart {
	nv := l.NumVertices
	return &hitsPart{pt: pt, l: l, all: all, bar: bar, sums: sums, salsa: salsa, workers: workers, owned: l.Perm[:pt.NumLocal],
		acc: make([]float64, nv), hub: make([]float64, nv), auth: make([]float64, nv), cnt: make([]uint64, nv),
		ghostPart: make([]uint32, pt.NumGhosts), ghostAt: make([]uint32, pt.NumGhosts)}
}

// outdeg is owned vertex u's out-degree (arcs).
func (h *hitsPart) outdeg(u uint32) uint64 { return h.l.SparseOffsets[u+1] - h.l.SparseOffsets[u] }

// gather adds, for every vertex of the part, x(u) over its in-arcs from
// owned u (into acc, cleared first), then after a barrier each owned
// vertex takes its ghosts' sums from the other parts.
func (h *hitsPart) gather(ctx context.Context, x func(u uint32) float64) error {
	clear(h.acc)
	off, dst := h.l.SparseOffsets, h.l.SparseDst
	for _, u := range h.owned {
		if s := x(u); s != 0 {
			for _, v := range dst[off[u]:off[u+1]] {
				h.acc[v] += s
			}
		}
	}
	if err := h.bar.Wait(ctx); err != nil {
		return err
	}
	for _, o := range h.all {
		if o == h {
			continue
		}
		lo, hi := o.pt.GhostRange(h.pt.Index)
		for g := lo; g < hi; g++ {
			h.acc[h.l.Perm[o.pt.GhostRemote[g]]] += o.acc[o.l.Perm[o.pt.NumLocal+g]]
		}
	}
	return nil
}

// sum posts x (three numbers) and returns their sums over the parts
// (collective: hostSums.sum).
func (h *hitsPart) sum(ctx context.Context, x [3]float64) ([3]float64, error) {
	return h.sums.sum(ctx, h.pt.Index, x)
}

// run is the part's side of the iterations; it returns how many ran.
func (h *hitsPart) run(ctx context.Context, w *worker, maxIter int, tol, n float64) (int, error) {
	start := time.Now()
	pt, l := h.pt, h.l
	for g := range pt.NumGhosts {
		o := h.all[pt.GhostOwner[g]]
		h.ghostPart[g], h.ghostAt[g] = pt.GhostOwner[g], o.l.Perm[pt.GhostRemote[g]]
	}
	// In-degrees over all parts, and the start.
	if err := h.gather(ctx, func(uint32) float64 { return 1 }); err != nil {
		return 0, err
	}
	var withOut, withIn float64
	for _, v := range h.owned {
		h.cnt[v] = uint64(h.acc[v])
		if h.outdeg(v) > 0 {
			withOut++
		}
		if h.cnt[v] > 0 {
			withIn++
		}
	}
	counts, err := h.sum(ctx, [3]float64{withOut, withIn})
	if err != nil {
		return 0, err
	}
	for _, v := range h.owned {
		switch {
		case !h.salsa:
			h.hub[v], h.auth[v] = 1/n, 1/n
		default:
			if h.outdeg(v) > 0 {
				h.hub[v] = 1 / counts[0]
			}
			if h.cnt[v] > 0 {
				h.auth[v] = 1 / counts[1]
			}
		}
	}
	if err := h.bar.Wait(ctx); err != nil { // every part's start is in place
		return 0, err
	}
	w.setup = time.Since(start)
	next := make([]float64, l.NumVertices)
	for it := 0; it < maxIter; it++ {
		start := time.Now()
		// The authority step.
		if err := h.gather(ctx, func(u uint32) float64 {
			if h.salsa {
				if d := h.outdeg(u); d > 0 {
					return h.hub[u] / float64(d)
				}
				return 0
			}
			return h.hub[u]
		}); err != nil {
			return it, err
		}
		var aSum, aChange float64
		for _, v := range h.owned {
			aSum += h.acc[v]
		}
		s, err := h.sum(ctx, [3]float64{aSum})
		if err != nil {
			return it, err
		}
		for _, v := range h.owned {
			a := h.acc[v]
			if !h.salsa && s[0] != 0 {
				a /= s[0]
			}
			aChange += math.Abs(a - h.auth[v])
			h.auth[v] = a
		}
		if err := h.bar.Wait(ctx); err != nil { // the authorities are final before any part reads them
			return it, err
		}
		// The hub step, reading a ghost's authority at its owner.
		var hSum float64
		par.For(len(h.owned), h.workers, 1<<12, func(lo, hi int) {
			off, dst := l.SparseOffsets, l.SparseDst
			for _, u := range h.owned[lo:hi] {
				var x float64
				for _, v := range dst[off[u]:off[u+1]] {
					a, in := h.authority(v)
					if h.salsa {
						a /= float64(in)
					}
					x += a
				}
				next[u] = x
			}
		})
		for _, u := range h.owned {
			hSum += next[u]
		}
		s, err = h.sum(ctx, [3]float64{hSum})
		if err != nil {
			return it, err
		}
		var hChange float64
		for _, u := range h.owned {
			x := next[u]
			if !h.salsa && s[0] != 0 {
				x /= s[0]
			}
			hChange += math.Abs(x - h.hub[u])
			h.hub[u] = x
		}
		changes, err := h.sum(ctx, [3]float64{hChange, aChange})
		if err != nil {
			return it, err
		}
		w.steps = append(w.steps, rankStep{active: pt.NumLocal, sent: pt.NumGhosts, compute: time.Since(start), wall: time.Since(start)})
		if changes[0] < tol && (!h.salsa || changes[1] < tol) {
			w.done = true
			return it + 1, nil
		}
	}
	return maxIter, nil
}

// authority returns layout id v's authority and in-degree: its own, or
// for a ghost its owner's.
func (h *hitsPart) authority(v uint32) (float64, uint64) {
	if g := uint64(h.l.InvPerm[v]); g >= h.pt.NumLocal {
		g -= h.pt.NumLocal
		o := h.all[h.ghostPart[g]]
		at := h.ghostAt[g]
		return o.auth[at], o.cnt[at]
	}
	return h.auth[v], h.cnt[v]
}

// collect writes the owned vertices' scores at their original ids.
func (h *hitsPart) collect(hubs, authorities []float64) {
	for i, v := range h.owned {
		hubs[h.pt.Global[i]] = h.hub[v]
		authorities[h.pt.Global[i]] = h.auth[v]
	}
}
