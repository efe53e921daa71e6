package gpu

import (
	"context"
	"fmt"
	"time"

	cuda "github.com/mgraph-dev/mgraph/cgo"
	"github.com/mgraph-dev/mgraph/engine"
)

// prRunner runs topology-driven PageRank on the device: every iteration is
// one step over all vertices (cuda.PRRun.Iterate, in the backend's scheme,
// WithPRScheme). The stopping rule is apps' prProgram.BeforeIteration: stop
// at the cap, or before iteration i > 0 once Σ|Δr| < tolerance; the pull
// scheme applies it on the device, so the host waits once per
// cuda.PRBatch iterations, the stream scheme after each. A trace entry's
// Seconds is the sum of its kernel times. The mode option is ignored: every
// iteration is dense.
type prRunner struct {
	b    *Backend
	opts engine.RunOptions
}

// Run runs p, which must implement engine.DevicePageRank or
// engine.DevicePRDelta (runDelta); see engine.Runner.
// values are the shares (rank/outdeg) in layout numbering; the program's
// rank array is read at the start and written at the end. Result.Seconds is
// the time of the iterations, from after the upload to before the download.
func (r *prRunner) Run(ctx context.Context, p engine.Program[float64], values []float64, f *engine.Frontier) (engine.Result, error) {
	var res engine.Result
	b, l := r.b, r.b.l
	if dd, ok := p.(engine.DevicePRDelta); ok && dd.DeviceKernel() == "pr-delta" {
		return r.runDelta(ctx, p, dd, values, f)
	}
	dp, ok := p.(engine.DevicePageRank)
	if !ok || dp.DeviceKernel() != "pr" {
		return res, fmt.Errorf("cuda backend: program %T has no GPU implementation yet", p)
	}
	if p.Combine() != engine.CombineSum || !p.ApplyAll() || p.Edge() != engine.EdgeSource {
		return res, fmt.Errorf("cuda backend: program %T is not a topology-driven sum program", p)
	}
	damping, tol, maxIter, rank, danglingVertices := dp.DevicePageRank()
	n := l.NumVertices
	if uint64(len(values)) != n || uint64(len(rank)) != n || f.NumVertices() != n {
		return res, fmt.Errorf("run: %d values, %d ranks and a frontier over %d vertices for a graph of %d",
			len(values), len(rank), f.NumVertices(), n)
	}
	if r.opts.MaxIterations > 0 && (maxIter <= 0 || r.opts.MaxIterations < maxIter) {
		maxIter = r.opts.MaxIterations
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pr == nil {
		pr, err := cuda.NewPRRun(b.dl, b.prScheme)
		if err != nil {
			return res, fmt.Errorf("cuda backend: %w", err)
		}
		b.pr = pr
	}
	run := b.pr
	phases := run.Scheme().Phases()
	// The dangling rank of the initial ranks, summed as the CPU's
	// BeforeIteration sums it (later ones come from the device).
	var dangling float64
	for _, v := range danglingVertices {
		if uint64(v) >= n {
			return res, fmt.Errorf("run: dangling vertex %d of a graph of %d", v, n)
		}
		dangling += rank[v]
	}
	if err := run.Load(rank, values); err != nil {
		return res, fmt.Errorf("cuda backend: %w", err)
	}
	start := time.Now()
	if err := run.Start(dangling); err != nil {
		return res, fmt.Errorf("cuda backend: %w", err)
	}
	for res.Iterations < maxIter {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		endRange := cuda.Range("pr iterations")
		sums, times, err := run.Iterate(damping, tol, maxIter-res.Iterations)
		endRange()
		if err != nil {
			return res, fmt.Errorf("cuda backend: %w", err)
		}
		for _, t := range times {
			if r.opts.Trace {
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
	if err := run.Store(rank, values); err != nil {
		return res, fmt.Errorf("cuda backend: %w", err)
	}
	return res, nil
}
