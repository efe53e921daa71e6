package partition

import (
	"context"
	"fmt"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
)

// RunPersonalizedPageRank computes PageRank whose teleports and dangling
// rank go to the sources (original ids; uniformly over the distinct ones)
// over parts, on the host, as apps.PersonalizedPageRank does on one
// backend (ref.PersonalizedPageRank's conventions: the ranks start at the
// teleport vector p; an iteration makes r(v) = ((1−d) + d·D)·p(v) +
// d·Σ shares of v's in-neighbours; it stops after the first whose L1
// change is below Tolerance, or after MaxIterations). The parts are
// RunPageRank's host parts with p, workers goroutines each. It returns
// the ranks at original ids and the iterations run.
func RunPersonalizedPageRank(ctx context.Context, parts []*Part, backends []engine.Backend, sources []uint32, opts RankOptions, workers int) ([]float64, int, Stats, error) {
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
	distinct := make(map[uint32]bool, len(sources))
	for _, s := range sources {
		if uint64(s) >= n {
			return fail(fmt.Errorf("source %d is not a vertex: the graph has %d vertices", s, n))
		}
		distinct[s] = true
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	setup := time.Now()
	hrs := hostRankParts(parts, backends, workers)
	p := 1 / float64(len(distinct))
	var dangling0 float64
	rps := make([]RankPart, len(hrs))
	for i, rp := range hrs {
		h := rp.(*hostRank)
		if _, err := h.Init(0); err != nil {
			return fail(err)
		}
		h.teleport = make([]float64, h.l.NumVertices)
		for s := range distinct {
			if local, ok := h.pt.Local(s); ok {
				v := h.l.Perm[local]
				h.teleport[v], h.rank[v] = p, p
				if d := h.l.OutDegree(v); d > 0 {
					h.share[v] = p / float64(d)
				} else {
					dangling0 += p
				}
			}
		}
		rps[i] = h
	}
	d := opts.Damping
	out, iters, ws, err := rankLoop(ctx, rps, parts, opts, nil, time.Since(setup), dangling0, func(dangling float64) float64 {
		return (1 - d) + d*dangling
	})
	if err != nil {
		return fail(err)
	}
	st = mergeStats(ws)
	st.Converged = ws[0].done || opts.MaxIterations == 0
	return out, iters[0], st, nil
}
