package partition

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
)

// PersonalRankPart is a RankPart that can also run a personalised
// PageRank (RunPersonalizedPageRank).
type PersonalRankPart interface {
	RankPart
	// Personalize starts a personalised run in place of Init: the owned
	// vertices among sources (original ids, distinct) start at rank p and
	// are the only ones Iterate's base teleports to (rank = base·p +
	// d·sums there, d·sums elsewhere), every other owned vertex starts at
	// 0. It returns the part's dangling rank at the start.
	Personalize(sources []uint32, p float64) (dangling float64, err error)
}

// RunPersonalizedPageRank computes PageRank whose teleports and dangling
// rank go to the sources (original ids; uniformly over the distinct ones)
// over parts, as apps.PersonalizedPageRank does on one backend
// (ref.PersonalizedPageRank's conventions: the ranks start at the
// teleport vector p; an iteration makes r(v) = ((1−d) + d·D)·p(v) +
// d·Σ shares of v's in-neighbours; it stops after the first whose L1
// change is below Tolerance, or after MaxIterations). Where RunPageRank
// would run on the parts' devices (a RankExchanger whose parts are
// PersonalRankParts, and not host) it runs there too; otherwise on the
// host, RunPageRank's host parts with p, workers goroutines each. It
// returns the ranks at original ids and the iterations run.
func RunPersonalizedPageRank(ctx context.Context, parts []*Part, backends []engine.Backend, sources []uint32, opts RankOptions, ex Exchanger, host bool, workers int) ([]float64, int, Stats, error) {
	var st Stats
	fail := func(err error) ([]float64, int, Stats, error) {
		return nil, 0, st, fmt.Errorf("partition: run ppr: %w", err)
	}
	n, err := checkRank(parts, backends, opts, false)
	if err != nil {
		return fail(err)
	}
	st.Converged = true
	if n == 0 {
		return []float64{}, 0, st, nil
	}
	if len(sources) == 0 {
		return fail(fmt.Errorf("ppr needs at least one source"))
	}
	seen := make(map[uint32]bool, len(sources))
	var distinct []uint32
	for _, s := range sources {
		if uint64(s) >= n {
			return fail(fmt.Errorf("source %d is not a vertex: the graph has %d vertices", s, n))
		}
		if !seen[s] {
			seen[s] = true
			distinct = append(distinct, s)
		}
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	setup := time.Now()
	rps, err := personalParts(parts, backends, ex, host, workers)
	if err != nil {
		return fail(err)
	}
	defer func() {
		for _, rp := range rps {
			rp.Close()
		}
	}()
	p := 1 / float64(len(distinct))
	dangling := make([]float64, len(rps))
	errs := make([]error, len(rps))
	var wg sync.WaitGroup
	for i, rp := range rps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dangling[i], errs[i] = rp.Personalize(distinct, p)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return fail(err)
	}
	var dangling0 float64
	for _, x := range dangling {
		dangling0 += x
	}
	out := make([]RankPart, len(rps))
	for i, rp := range rps {
		out[i] = rp
	}
	d := opts.Damping
	ranks, iters, ws, err := rankLoop(ctx, out, parts, opts, ex, time.Since(setup), dangling0, func(dangling float64) float64 {
		return (1 - d) + d*dangling
	})
	if err != nil {
		return fail(err)
	}
	st = mergeStats(ws)
	st.Converged = ws[0].done || opts.MaxIterations == 0
	return ranks, iters[0], st, nil
}

// personalParts returns the parts of a personalised run: the devices'
// (RunPageRank's choice) when every one can run it, else the host's.
func personalParts(parts []*Part, backends []engine.Backend, ex Exchanger, host bool, workers int) ([]PersonalRankPart, error) {
	rps, err := deviceRankParts(parts, backends, ex, host)
	if err != nil {
		return nil, err
	}
	out := make([]PersonalRankPart, 0, len(rps))
	for _, rp := range rps {
		if pp, ok := rp.(PersonalRankPart); ok {
			out = append(out, pp)
		}
	}
	if rps != nil && len(out) == len(rps) {
		return out, nil
	}
	for _, rp := range rps {
		rp.Close()
	}
	hrs := hostRankParts(parts, backends, workers)
	out = make([]PersonalRankPart, len(hrs))
	for i, rp := range hrs {
		out[i] = rp.(*hostRank)
	}
	return out, nil
}

// Personalize implements PersonalRankPart.
func (h *hostRank) Personalize(sources []uint32, p float64) (float64, error) {
	if _, err := h.Init(0); err != nil {
		return 0, err
	}
	var dangling float64
	h.teleport = make([]float64, h.l.NumVertices)
	for _, s := range sources {
		if local, ok := h.pt.Local(s); ok {
			v := h.l.Perm[local]
			h.teleport[v], h.rank[v] = p, p
			if d := h.l.OutDegree(v); d > 0 {
				h.share[v] = p / float64(d)
			} else {
				dangling += p
			}
		}
	}
	return dangling, nil
}
