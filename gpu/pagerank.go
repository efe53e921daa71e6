package gpu

import (
	"context"
	"fmt"
	"time"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
)

var _ engine.PersonalPageRankBackend = (*Backend)(nil)

// prRunner is the backend's float64 Runner. Float64 programs from host
// values have no device path: PageRank, data-driven PageRank and BC run
// whole on the device through PageRank, PageRankDelta and Brandes.
type prRunner struct {
	b    *Backend
	opts engine.RunOptions
}

// Run fails: see prRunner.
func (r *prRunner) Run(context.Context, engine.Program[float64], []float64, *engine.Frontier) (engine.Result, error) {
	return engine.Result{}, fmt.Errorf("cuda backend: float64 programs run on the device through PageRank, PageRankDelta and Brandes (engine.PageRankBackend, engine.BrandesBackend), not from host values")
}

// prRun returns the backend's PageRank state, allocating it (and, for the
// pull scheme, sorting the light edges) on first use. The caller holds b.mu.
func (b *Backend) prRun() (*cuda.PRRun, error) {
	if b.pr == nil {
		pr, err := cuda.NewPRRun(b.dl, b.prScheme)
		if err != nil {
			return nil, fmt.Errorf("cuda backend: %w", err)
		}
		b.pr = pr
	}
	return b.pr, nil
}

// PageRank runs topology-driven PageRank on the device (see
// engine.PageRankBackend): the initial ranks and shares by one kernel,
// every iteration one step over all vertices (cuda.PRRun.Iterate, in the
// backend's scheme, WithPRScheme), the ranks mapped to the original
// numbering on the device and copied once into pinned host memory that the
// backend reuses (valid until its next float64 result). The stopping rule
// is apps.PageRank's: stop at the cap, or before iteration i > 0 once
// Σ|Δr| < tolerance; the pull scheme applies it on the device, so the host
// waits once per cuda.PRBatch iterations, the stream scheme after each. A
// trace entry's Seconds is the sum of its kernel times. The mode option is
// ignored (every iteration is dense, over every vertex) but for async,
// refused, and pull, which runs the pull scheme (refused with the stream
// scheme). opts.MaxIterations, when set, caps
// the iterations below p.MaxIterations.
func (b *Backend) PageRank(ctx context.Context, p engine.PageRankParams, opts engine.RunOptions) ([]float64, engine.Result, error) {
	if opts.Mode == engine.Async {
		return nil, engine.Result{}, fmt.Errorf("cuda backend: pagerank: %w", engine.ErrNotMonotone)
	}
	if opts.Mode == engine.Pull && b.prScheme != cuda.PRPull {
		return nil, engine.Result{}, fmt.Errorf("cuda backend: pagerank: the backend runs the %s scheme (--gpu-pr-stream), mode pull its pull scheme: %w", b.prScheme, engine.ErrPullMode)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	run, err := b.prRun()
	if err != nil {
		return nil, engine.Result{}, err
	}
	if err := run.Init(); err != nil {
		return nil, engine.Result{}, fmt.Errorf("cuda backend: %w", err)
	}
	return b.iterateRank(ctx, run, p, opts)
}

// PersonalizedPageRank runs personalised PageRank on the device (see
// engine.PersonalPageRankBackend) as PageRank runs, the sources (layout
// ids) being the pull scheme's teleport set (cuda.PRRun.PersonalInit). In
// the stream scheme (WithPRScheme) it does not run (ok false).
func (b *Backend) PersonalizedPageRank(ctx context.Context, sources []uint32, p engine.PageRankParams, opts engine.RunOptions) ([]float64, engine.Result, bool, error) {
	if opts.Mode == engine.Async {
		return nil, engine.Result{}, false, fmt.Errorf("cuda backend: ppr: %w", engine.ErrNotMonotone)
	}
	if len(sources) == 0 {
		return nil, engine.Result{}, false, fmt.Errorf("cuda backend: ppr needs at least one source")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.prScheme != cuda.PRPull {
		return nil, engine.Result{}, false, nil
	}
	run, err := b.prRun()
	if err != nil {
		return nil, engine.Result{}, false, err
	}
	if err := run.PersonalInit(sources, 1/float64(len(sources))); err != nil {
		return nil, engine.Result{}, false, fmt.Errorf("cuda backend: %w", err)
	}
	ranks, res, err := b.iterateRank(ctx, run, p, opts)
	return ranks, res, true, err
}

// iterateRank runs PageRank's iterations from the state run's Init or
// PersonalInit made, and collects the ranks. The caller holds b.mu.
func (b *Backend) iterateRank(ctx context.Context, run *cuda.PRRun, p engine.PageRankParams, opts engine.RunOptions) ([]float64, engine.Result, error) {
	var res engine.Result
	l := b.l
	n := l.NumVertices
	maxIter := p.MaxIterations
	if opts.MaxIterations > 0 && (maxIter <= 0 || opts.MaxIterations < maxIter) {
		maxIter = opts.MaxIterations
	}
	phases := run.Scheme().Phases()
	start := time.Now()
	for res.Iterations < maxIter {
		if err := ctx.Err(); err != nil {
			return nil, res, err
		}
		endRange := cuda.Range("pr iterations")
		sums, times, err := run.Iterate(p.Damping, p.Tolerance, maxIter-res.Iterations)
		endRange()
		if err != nil {
			return nil, res, fmt.Errorf("cuda backend: %w", err)
		}
		for _, t := range times {
			if opts.Trace {
				tr := engine.IterationTrace{Iteration: res.Iterations, FrontierVertices: n, FrontierEdges: l.NumArcs,
					Mode: engine.Dense.String()}
				for k, ms := range t {
					tr.Phases = append(tr.Phases, engine.Phase{Name: phases[k], Seconds: float64(ms) / 1e3})
					tr.Seconds += float64(ms) / 1e3
				}
				res.Trace = append(res.Trace, tr)
			}
			res.Iterations++
			res.Edges += l.NumArcs
		}
		if sums.Done != 0 || len(times) == 0 {
			break
		}
	}
	res.Seconds = time.Since(start).Seconds()
	return collect(b, &res, run.Collect)
}

// PageRankDelta runs data-driven PageRank on the device with the float64
// engines (see engine.PageRankBackend): the initial state (x = 1, the
// pushes, every vertex active) by one kernel, the modes and the hybrid as
// the min programs' (Backend.iterate) with their own EDP/ESP model, and
// x / Σx mapped to the original numbering on the device and copied once
// into pinned host memory (valid until the backend's next float64 result).
// A vertex is active while its unabsorbed residual exceeds
// tolerance·(1−damping); opts.MaxIterations caps the iterations.
func (b *Backend) PageRankDelta(ctx context.Context, p engine.PageRankParams, opts engine.RunOptions) ([]float64, engine.Result, error) {
	var res engine.Result
	l := b.l
	b.mu.Lock()
	defer b.mu.Unlock()
	run, err := b.sumRun()
	if err != nil {
		return nil, res, err
	}
	if opts.Mode == engine.Async {
		return b.pageRankDeltaAsync(run, p, opts)
	}
	opts = withSampleRate(opts)
	if err := run.InitPRDelta(p.Damping); err != nil {
		return nil, res, fmt.Errorf("cuda backend: %w", err)
	}
	prog := &cuda.SumProgram{ID: cuda.SumProgPRDelta, Damping: p.Damping, Eps: p.Tolerance * (1 - p.Damping)}
	start := time.Now()
	res, err = b.iterate(ctx, sumSteps{SumRun: run, p: prog}, sumKey(prog.ID), opts, false, l.NumVertices, l.NumArcs, false, nil, nil)
	if err != nil {
		return nil, res, err
	}
	res.Seconds = time.Since(start).Seconds()
	return collect(b, &res, run.CollectPRDelta)
}

// sumRun returns the backend's float64 run state, allocating it on first
// use. The caller holds b.mu.
func (b *Backend) sumRun() (*cuda.SumRun, error) {
	if b.sum == nil {
		run, err := cuda.NewSumRun(b.dl)
		if err != nil {
			return nil, fmt.Errorf("cuda backend: %w", err)
		}
		b.sum = run
	}
	return b.sum, nil
}

// pageRankDeltaAsync is PageRankDelta in engine.Async mode: one run over
// the device worklist (cuda.SumRun.PRDeltaAsync), counted as one
// iteration; opts.MaxIterations does not apply. The caller holds b.mu.
func (b *Backend) pageRankDeltaAsync(run *cuda.SumRun, p engine.PageRankParams, opts engine.RunOptions) ([]float64, engine.Result, error) {
	var res engine.Result
	start := time.Now()
	st, err := run.PRDeltaAsync(p.Damping, p.Tolerance*(1-p.Damping), b.asyncBlocks)
	if err != nil {
		return nil, res, fmt.Errorf("cuda backend: pr-delta: %w", err)
	}
	res.Seconds = time.Since(start).Seconds()
	res.Iterations = 1
	if opts.Trace {
		res.Trace = append(res.Trace, engine.AsyncTrace{Items: st.Items, Shared: st.Shared}.
			Record(res.Seconds, engine.Phase{Name: "async", Seconds: float64(st.Millis) / 1e3}))
	}
	return collect(b, &res, run.CollectPRDelta)
}
