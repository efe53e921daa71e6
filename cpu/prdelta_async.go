package cpu

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
)

// PageRankDeltaAsync runs data-driven PageRank in engine.Async mode, the
// CPU twin of the device's (kernels/prasync.cu): every vertex starts with
// residual 1; a worker absorbs a vertex's whole residual (x += r) and
// pushes damping·r/outdeg to each out-neighbour with an atomic add; the push
// that lifts a residual above tolerance·(1−damping) queues that neighbour.
// It returns x / Σx in the original numbering, the fixed point of the
// synchronous pr-delta up to the unabsorbed residuals; the run counts as one
// iteration (opts.MaxIterations does not apply).
func (b *Backend) PageRankDeltaAsync(ctx context.Context, p engine.PageRankParams, opts engine.RunOptions) ([]float64, engine.Result, error) {
	var res engine.Result
	l := b.l
	n := l.NumVertices
	if !(p.Damping >= 0 && p.Damping < 1) || !(p.Tolerance > 0) {
		return nil, res, fmt.Errorf("cpu backend: pr-delta: damping %g must be in [0, 1) and tolerance %g positive", p.Damping, p.Tolerance)
	}
	eps := p.Tolerance * (1 - p.Damping)
	// Float64 bits, for the atomic swaps and adds.
	x, residual := make([]uint64, n), make([]uint64, n)
	one := math.Float64bits(1)
	par.For(int(n), b.workers, 1<<15, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			residual[v] = one
		}
	})
	all := make([]uint32, n)
	par.For(int(n), b.workers, 1<<15, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			all[v] = uint32(v)
		}
	})
	start := time.Now()
	pool := par.NewWorklist(b.workers, all)
	off, dst := l.SparseOffsets, l.SparseDst
	visit := func(_ int, v uint32, q []uint32) []uint32 {
		r := math.Float64frombits(atomic.SwapUint64(&residual[v], 0))
		if r <= 0 {
			return q
		}
		addFloat(&x[v], r) // a push may queue v again while this runs
		deg := off[v+1] - off[v]
		if deg == 0 {
			return q // dangling: the mass stays, as in the synchronous pr-delta
		}
		share := p.Damping * r / float64(deg)
		for e := off[v]; e < off[v+1]; e++ {
			u := dst[e]
			if old := addFloat(&residual[u], share); old <= eps && old+share > eps {
				q = append(q, u)
			}
		}
		return q
	}
	if err := pool.Run(ctx, visit); err != nil {
		return nil, res, fmt.Errorf("cpu backend: pr-delta: %w", err)
	}
	res.Seconds = time.Since(start).Seconds()
	res.Iterations = 1
	if opts.Trace {
		res.Trace = append(res.Trace, worklistTrace(pool).Record(res.Seconds, engine.Phase{Name: "async", Seconds: res.Seconds}))
	}
	copyStart := time.Now()
	ranks := make([]float64, n)
	var total float64
	for v := range x { // a fixed order: the sum does not depend on scheduling
		ranks[v] = math.Float64frombits(x[v])
		total += ranks[v]
	}
	out := engine.ToOriginal(l, ranks, b.workers)
	par.For(len(out), b.workers, 1<<15, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] /= total
		}
	})
	res.CopySeconds = time.Since(copyStart).Seconds()
	return out, res, nil
}

// addFloat adds d to the float64 whose bits *p holds and returns the old
// value.
func addFloat(p *uint64, d float64) float64 {
	for {
		old := atomic.LoadUint64(p)
		f := math.Float64frombits(old)
		if atomic.CompareAndSwapUint64(p, old, math.Float64bits(f+d)) {
			return f
		}
	}
}
