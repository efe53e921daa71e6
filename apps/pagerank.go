package apps

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// PageRankOptions are PageRank's parameters, with the reference's
// (apps/ref) meaning: ranks sum to 1, and the rank of dangling vertices
// (no out-arcs) is spread evenly over all vertices.
type PageRankOptions struct {
	Damping       float64 // 0.85
	Tolerance     float64 // stop when Σ|r_new − r_old| < Tolerance
	MaxIterations int     // iteration cap
}

// DefaultPageRankOptions returns damping 0.85, tolerance 1e-4 and at most
// 20 iterations (the GAPBS setting the benchmarks compare with).
func DefaultPageRankOptions() PageRankOptions {
	return PageRankOptions{Damping: 0.85, Tolerance: 1e-4, MaxIterations: 20}
}

func (o PageRankOptions) validate() error {
	if !(o.Damping > 0 && o.Damping < 1) {
		return fmt.Errorf("pagerank: damping %g outside (0, 1)", o.Damping)
	}
	if o.Tolerance < 0 || math.IsNaN(o.Tolerance) {
		return fmt.Errorf("pagerank: negative tolerance %g", o.Tolerance)
	}
	if o.MaxIterations < 0 {
		return fmt.Errorf("pagerank: negative iteration cap %d", o.MaxIterations)
	}
	return nil
}

// prProgram is topology-driven PageRank: every vertex is applied every
// iteration. A vertex's value is its share rank/outdeg (0 when dangling);
// r_new(v) = (1−d)/n + d·(D/n + Σ shares of its in-neighbours), D being the
// rank held by dangling vertices.
type prProgram struct {
	l        *layout.Layout
	opts     PageRankOptions
	workers  int
	rank     []float64
	change   []float64 // |r_new − r_old| of each vertex in the last iteration
	dangling []uint32  // vertices without out-arcs
	base     float64   // (1−d)/n + d·D/n of the current iteration
}

func (*prProgram) Edge() engine.EdgeOp       { return engine.EdgeSource }
func (*prProgram) Combine() engine.CombineOp { return engine.CombineSum }
func (*prProgram) ApplyAll() bool            { return true }

func (p *prProgram) Apply(v uint32, acc float64, share []float64) bool {
	r := p.base + p.opts.Damping*acc
	p.change[v] = math.Abs(r - p.rank[v])
	p.rank[v] = r
	share[v] = shareOf(p.l, v, r)
	return true
}

// BeforeIteration stops at the cap or once the last iteration changed the
// ranks by less than the tolerance, and computes the dangling term.
func (p *prProgram) BeforeIteration(i int) bool {
	if i >= p.opts.MaxIterations {
		return false
	}
	if i > 0 && sum(p.change, p.workers) < p.opts.Tolerance {
		return false
	}
	if p.change == nil {
		p.change = make([]float64, p.l.NumVertices)
	}
	n := float64(p.l.NumVertices)
	var dangling float64
	for _, v := range p.dangling {
		dangling += p.rank[v]
	}
	p.base = (1-p.opts.Damping)/n + p.opts.Damping*dangling/n
	return true
}

// shareOf is what vertex v sends along each out-arc for rank r.
func shareOf(l *layout.Layout, v uint32, r float64) float64 {
	if d := l.OutDegree(v); d > 0 {
		return r / float64(d)
	}
	return 0
}

// params returns the options as the backends take them.
func (o PageRankOptions) params() engine.PageRankParams {
	return engine.PageRankParams{Damping: o.Damping, Tolerance: o.Tolerance, MaxIterations: o.MaxIterations}
}

// PageRank computes PageRank topology-driven (every vertex every iteration)
// and returns the ranks in original numbering. A backend that implements
// engine.PageRankBackend (the GPU) runs it whole, from the initial ranks to
// the result (which may then be a buffer it reuses); on others the
// program below runs through the engines.
func PageRank(ctx context.Context, b engine.Backend, pr PageRankOptions, opts engine.RunOptions) ([]float64, engine.Result, error) {
	if err := refuseAsync("pr", opts); err != nil {
		return nil, engine.Result{}, err
	}
	if err := pr.validate(); err != nil {
		return nil, engine.Result{}, err
	}
	l := b.Layout()
	n := l.NumVertices
	if n == 0 {
		return []float64{}, engine.Result{}, nil
	}
	if pb, ok := b.(engine.PageRankBackend); ok {
		return pb.PageRank(ctx, pr.params(), opts)
	}
	if pp, ok := b.(engine.PageRankPuller); ok {
		ranks, res, pulled, err := pp.PullPageRank(ctx, pr.params(), opts)
		if pulled || err != nil {
			return ranks, res, err
		}
	}
	if err := refusePull("pr", opts); err != nil { // no pull PageRank on this backend
		return nil, engine.Result{}, err
	}
	run, err := engine.NewRunner[float64](b, opts)
	if err != nil {
		return nil, engine.Result{}, err
	}
	// The ranks, shares and changes come from a pool and go back to it, so
	// a run does not allocate and first-touch 24 MB per million vertices
	// again (page faults that made the trial times vary by tens of ms).
	rank0, share := takeFloats(int(n)), takeFloats(int(n))
	p := &prProgram{l: l, opts: pr, workers: b.Workers(), rank: rank0, change: takeFloats(int(n))}
	chunks := par.Split(int(n), 4*par.Workers(p.workers))
	dangling := make([][]uint32, len(chunks)) // per chunk, so that the list comes out in order
	par.ForChunks(chunks, func(c par.Chunk) {
		for v := c.Lo; v < c.Hi; v++ {
			p.rank[v] = 1 / float64(n)
			share[v] = shareOf(l, uint32(v), p.rank[v])
			if l.OutDegree(uint32(v)) == 0 {
				dangling[c.Index] = append(dangling[c.Index], uint32(v))
			}
		}
	})
	p.dangling = slices.Concat(dangling...)
	res, err := run.Run(ctx, p, share, engine.AllActive(n))
	if err != nil {
		return nil, res, err
	}
	start := time.Now()
	rank := engine.ToOriginal(l, p.rank, b.Workers())
	res.CopySeconds = time.Since(start).Seconds()
	putFloats(rank0, share, p.change)
	return rank, res, nil
}

// floatPool holds idle per-vertex float64 arrays (*[]float64) of PageRank
// runs on the engines.
var floatPool sync.Pool

// takeFloats returns an array of n float64s, any contents, from floatPool
// or new.
func takeFloats(n int) []float64 {
	for range 3 {
		v, _ := floatPool.Get().(*[]float64)
		if v == nil {
			break
		}
		if len(*v) == n {
			return *v
		}
	}
	return make([]float64, n)
}

// putFloats gives arrays back to floatPool.
func putFloats(arrays ...[]float64) {
	for _, a := range arrays {
		floatPool.Put(&a)
	}
}

// prDeltaProgram is data-driven PageRank (Gunrock style): it solves
// x = 1 + d·A·x by pushing residuals, where (A·x)(v) = Σ_{u→v} x(u)/outdeg(u),
// and returns r = x / Σx. That r is exactly the fixed point of the
// reference's iteration, dangling vertices included: the reference's
// r = c·1 + d·A·r for the scalar c = ((1−d) + d·D)/n, so r is a multiple of
// x and sums to 1. A vertex is active while its unabsorbed residual exceeds
// eps; its value is the share d·residual/outdeg it pushes.
type prDeltaProgram struct {
	l        *layout.Layout
	damping  float64
	eps      float64
	x        []float64 // absorbed mass
	residual []float64 // mass received but not yet absorbed
}

func (*prDeltaProgram) Edge() engine.EdgeOp       { return engine.EdgeSource }
func (*prDeltaProgram) Combine() engine.CombineOp { return engine.CombineSum }
func (*prDeltaProgram) ApplyAll() bool            { return false }

func (p *prDeltaProgram) Apply(v uint32, acc float64, push []float64) bool {
	r := p.residual[v] + acc
	if r <= p.eps {
		p.residual[v] = r
		return false
	}
	p.x[v] += r
	p.residual[v] = 0
	push[v] = p.damping * shareOf(p.l, v, r)
	return true
}

// PageRankDelta computes PageRank data-driven: only vertices whose residual
// is still above tolerance·(1−damping) push (which bounds the L1 error of
// the result by the tolerance). MaxIterations caps the iterations (0: none).
// A backend that implements engine.PageRankBackend (the GPU) runs it whole
// with its functor PRDeltaOp (Apply's rule), and the result may then be a
// buffer it reuses.
func PageRankDelta(ctx context.Context, b engine.Backend, pr PageRankOptions, opts engine.RunOptions) ([]float64, engine.Result, error) {
	if err := pr.validate(); err != nil {
		return nil, engine.Result{}, err
	}
	if err := errors.Join(refuseAsyncCap("pr-delta", opts, max(opts.MaxIterations, pr.MaxIterations)), refusePull("pr-delta", opts)); err != nil {
		return nil, engine.Result{}, err
	}
	if ab, ok := b.(asyncPRDelta); ok && opts.Mode == engine.Async && b.Layout().NumVertices > 0 {
		return ab.PageRankDeltaAsync(ctx, pr.params(), opts)
	}
	l := b.Layout()
	n := l.NumVertices
	if n == 0 {
		return []float64{}, engine.Result{}, nil
	}
	if opts.MaxIterations == 0 || (pr.MaxIterations > 0 && pr.MaxIterations < opts.MaxIterations) {
		opts.MaxIterations = pr.MaxIterations
	}
	if pb, ok := b.(engine.PageRankBackend); ok {
		return pb.PageRankDelta(ctx, pr.params(), opts)
	}
	run, err := engine.NewRunner[float64](b, opts)
	if err != nil {
		return nil, engine.Result{}, err
	}
	p := &prDeltaProgram{l: l, damping: pr.Damping, eps: pr.Tolerance * (1 - pr.Damping),
		x: make([]float64, n), residual: make([]float64, n)}
	push := make([]float64, n)
	par.For(int(n), b.Workers(), 1<<15, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			p.x[v] = 1 // the initial residual 1, absorbed
			push[v] = pr.Damping * shareOf(l, uint32(v), 1)
		}
	})
	res, err := run.Run(ctx, p, push, engine.AllActive(n))
	if err != nil {
		return nil, res, err
	}
	start := time.Now()
	total := sum(p.x, b.Workers())
	rank := engine.ToOriginal(l, p.x, b.Workers())
	par.For(len(rank), b.Workers(), 1<<15, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			rank[i] /= total
		}
	})
	res.CopySeconds = time.Since(start).Seconds()
	return rank, res, nil
}

// asyncPRDelta is a backend that runs pr-delta in engine.Async mode on its
// own (the CPU; the GPU does it in its PageRankBackend.PageRankDelta).
type asyncPRDelta interface {
	PageRankDeltaAsync(ctx context.Context, p engine.PageRankParams, opts engine.RunOptions) ([]float64, engine.Result, error)
}

// sum adds xs in a fixed chunk order, so the result does not depend on
// scheduling.
func sum(xs []float64, workers int) float64 {
	chunks := par.Split(len(xs), par.Workers(workers))
	parts := make([]float64, len(chunks))
	par.ForChunks(chunks, func(c par.Chunk) {
		var s float64
		for _, x := range xs[c.Lo:c.Hi] {
			s += x
		}
		parts[c.Index] = s
	})
	var s float64
	for _, x := range parts {
		s += x
	}
	return s
}
