package gpu

import (
	"context"
	"fmt"
	"time"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
)

var (
	_ engine.TreeBackend       = (*Backend)(nil)
	_ engine.ComponentsBackend = (*Backend)(nil)
	_ engine.PageRankBackend   = (*Backend)(nil)
)

// RunMin runs min program p on the device from init (made there by one
// kernel) and returns its result in the original numbering, mapped on the
// device and copied once into pinned host memory that the backend reuses:
// the slice stays valid until the backend's next uint32 result (RunMin,
// Components). See engine.Backend. Result.Seconds is the iterations' time,
// Result.CopySeconds the mapping and copy's.
func (b *Backend) RunMin(ctx context.Context, p engine.Program[uint32], init engine.Init, out engine.Output, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	return b.runMin(ctx, p, init, opts, func(run *cuda.MinRun, c *cuda.Collector) ([]uint32, float32, error) {
		return run.Collect(c, out == engine.OutputComponents)
	})
}

// BFSParents runs BFS as RunMin does and returns its tree, derived from
// the levels and mapped on the device (cuda.Collector.BFSParents), copied
// once into pinned memory the backend reuses (see engine.TreeBackend). A
// directed layout too large for its in-adjacency on the device has none.
func (b *Backend) BFSParents(ctx context.Context, p engine.Program[uint32], init engine.Init, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	if !init.HasSource {
		return nil, engine.Result{}, fmt.Errorf("cuda backend: a BFS tree needs a source")
	}
	if !b.dl.HasIn() {
		return nil, engine.Result{}, fmt.Errorf("cuda backend: a BFS tree needs the layout's in-adjacency, which does not fit the device")
	}
	return b.runMin(ctx, p, init, opts, (*cuda.MinRun).CollectParents)
}

// runMin runs min program p from init and returns what collect makes of
// the run's values.
func (b *Backend) runMin(ctx context.Context, p engine.Program[uint32], init engine.Init, opts engine.RunOptions,
	collect func(*cuda.MinRun, *cuda.Collector) ([]uint32, float32, error)) ([]uint32, engine.Result, error) {
	var res engine.Result
	l := b.l
	prog, err := b.minProgram(p)
	if err != nil {
		return nil, res, err
	}
	if init.HasSource && uint64(init.Source) >= l.NumVertices {
		return nil, res, fmt.Errorf("run: source %d of a graph of %d vertices", init.Source, l.NumVertices)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	run, err := b.minRun()
	if err != nil {
		return nil, res, err
	}
	if err := run.Init(init.Fill, init.Identity, init.HasSource, init.Source, init.SourceValue); err != nil {
		return nil, res, fmt.Errorf("cuda backend: %w", err)
	}
	count, edges := l.NumVertices, l.NumArcs
	if init.HasSource {
		count, edges = 1, l.OutDegree(init.Source)
	}
	res, err = b.iterateMin(ctx, run, p, prog, opts, count, edges, init.HasSource)
	if err != nil {
		return nil, res, err
	}
	return b.collect(&res, func(c *cuda.Collector) ([]uint32, float32, error) { return collect(run, c) })
}

// collect runs a collection (mapping and copy) through the backend's
// collector (made with it, by New) and records its wall time in
// res.CopySeconds. The caller holds b.mu.
func collect[V any](b *Backend, res *engine.Result, f func(c *cuda.Collector) ([]V, float32, error)) ([]V, engine.Result, error) {
	if b.col == nil {
		return nil, *res, fmt.Errorf("cuda backend: closed")
	}
	start := time.Now()
	out, _, err := f(b.col)
	if err != nil {
		return nil, *res, fmt.Errorf("cuda backend: %w", err)
	}
	res.CopySeconds = time.Since(start).Seconds()
	return out, *res, nil
}

// collect is collect for uint32 results.
func (b *Backend) collect(res *engine.Result, f func(c *cuda.Collector) ([]uint32, float32, error)) ([]uint32, engine.Result, error) {
	return collect(b, res, f)
}

// Components finds connected components by Afforest's hooking and
// compressing on the device (cuda.MinRun.HookComponents) and returns each
// vertex's component named by its smallest original id, in pinned memory
// as RunMin's results. See engine.ComponentsBackend. The result counts one
// iteration (the hooking run; its trace entry has the kernels' times as
// phases); Result.Edges is the graph's arcs (the kernels do not count the
// arcs they skip).
func (b *Backend) Components(ctx context.Context, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	var res engine.Result
	l := b.l
	if l.Directed {
		return nil, res, fmt.Errorf("cuda backend: components need an undirected graph")
	}
	if err := ctx.Err(); err != nil {
		return nil, res, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	run, err := b.minRun()
	if err != nil {
		return nil, res, err
	}
	start := time.Now()
	endRange := cuda.Range("cc hook")
	times, err := run.HookComponents()
	endRange()
	if err != nil {
		return nil, res, fmt.Errorf("cuda backend: %w", err)
	}
	res.Seconds = time.Since(start).Seconds()
	res.Iterations, res.Edges = 1, l.NumArcs
	if opts.Trace {
		tr := engine.IterationTrace{Mode: "hook", FrontierVertices: l.NumVertices, FrontierEdges: l.NumArcs, Seconds: res.Seconds}
		for k, ms := range times {
			tr.Phases = append(tr.Phases, engine.Phase{Name: cuda.CCPhases[k], Seconds: float64(ms) / 1e3})
		}
		res.Trace = []engine.IterationTrace{tr}
	}
	return b.collect(&res, func(c *cuda.Collector) ([]uint32, float32, error) { return run.Collect(c, true) })
}
