package gpu

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
)

var _ engine.BrandesBackend = (*Backend)(nil)

// Brandes runs betweenness centrality from sources (layout numbering) on the
// device and returns the sums of the dependencies (each source excluded
// from its own) in the original numbering, mapped on the device and copied
// once into pinned host memory that the backend reuses (valid until its
// next float64 result); see engine.BrandesBackend.
//
// Per source: the forward pass counts shortest paths level by level as the
// sum program BCForwardOp through the engines (the mode and the hybrid as
// for every program; its frontier sizes are the level sizes); the vertices
// are then sorted by depth on the device and the backward pass pulls each
// level's dependencies over its out-arcs from the level below
// (cuda.SumRun.BCBackward: no atomics, no transposed graph, so directed
// graphs need nothing more); the dependencies are added to the sums on the
// device. One copy at the end. Result.Seconds covers both passes;
// Result.Edges counts the forward pass's frontier arcs plus the arcs the
// backward pass scans. With opts.Trace, each source's backward pass is one
// trace entry of mode "backward". In engine.Async mode (undirected graphs
// only) each source runs without levels instead: see brandesAsync. In
// engine.Auto mode on an undirected layout a source starts level by level
// and, when its forward pass hands over as a min program's run would
// (auto's cost model, from engine.AutoAsyncIterations levels on, estimates
// the rest cheaper asynchronously: a graph of high diameter), drops the
// levels it has and runs again in one thread block (blockSource) when the
// layout fits one, else without levels (asyncSource). On a narrow layout (fixed-width rows) every source runs
// in one block or one cluster from the start (narrowStart).
func (b *Backend) Brandes(ctx context.Context, sources []uint32, opts engine.RunOptions) ([]float64, engine.Result, error) {
	var total engine.Result
	if opts.Mode == engine.Async && !b.dl.HasIn() {
		return nil, total, fmt.Errorf("cuda backend: bc: mode async on a directed graph needs the layout's in-adjacency on the device, which did not fit; use hybrid")
	}
	n := b.l.NumVertices
	for _, s := range sources {
		if uint64(s) >= n {
			return nil, total, fmt.Errorf("bc: source %d out of range (%d vertices)", s, n)
		}
	}
	if len(sources) == 0 {
		return make([]float64, n), total, nil
	}
	// Auto on an undirected layout: a source whose forward pass auto's
	// cost model would hand over (a graph of high diameter) drops it and
	// runs again, in one thread block or without levels.
	handOver := opts.Mode == engine.Auto && !b.l.Directed
	opts = withSampleRate(opts)
	b.mu.Lock()
	defer b.mu.Unlock()
	run, err := b.sumRun()
	if err != nil {
		return nil, total, err
	}
	if err := run.BCReset(); err != nil {
		return nil, total, fmt.Errorf("cuda backend: %w", err)
	}
	if opts.Mode == engine.Async {
		return b.brandesAsync(ctx, run, sources, opts)
	}
	prog := &cuda.SumProgram{ID: cuda.SumProgBCForward}
	st := sumSteps{SumRun: run, p: prog, bcDepth: true}
	for _, s := range sources {
		start := time.Now()
		// A road network's or a mesh's sources run in one block or
		// cluster from the start (asked per source: once a source's block
		// gave a level to the cluster, the next ones start there).
		where := startLevels
		if handOver {
			if where, err = b.narrowStart(run.BlockRows, 1, true); err != nil {
				return nil, total, err
			}
		}
		if where != startLevels {
			source := b.blockSource
			if where == startCluster {
				source = b.clusterSource
			}
			res, err := source(run, s, opts)
			if err != nil {
				return nil, total, err
			}
			res.Seconds = time.Since(start).Seconds()
			total.Add(res)
			continue
		}
		if err := run.BCStart(s); err != nil {
			return nil, total, fmt.Errorf("cuda backend: %w", err)
		}
		sizes := []uint32{1}
		var deepest uint64 // out-arcs of the deepest level, which the backward pass does not scan
		lastEdges := b.l.OutDegree(s)
		var handoff func(uint64) (engine.Result, error)
		handedOver := false
		if handOver {
			handoff = func(uint64) (engine.Result, error) {
				handedOver = true
				return engine.Result{}, nil
			}
		}
		res, err := b.iterate(ctx, st, sumKey(prog.ID), opts, false, 1, b.l.OutDegree(s),
			true, func(next, edges uint64) {
				if next == 0 {
					deepest = lastEdges
				}
				sizes = append(sizes, uint32(next))
				lastEdges = edges
			}, handoff)
		if err != nil {
			return nil, total, err
		}
		if handedOver {
			source := b.asyncSource
			if b.blockFits(1) {
				source = b.blockSource
			}
			ar, err := source(run, s, opts)
			if err != nil {
				return nil, total, err
			}
			res.Add(ar)
			res.Seconds = time.Since(start).Seconds()
			total.Add(res)
			continue
		}
		for len(sizes) > 1 && sizes[len(sizes)-1] == 0 {
			sizes = sizes[:len(sizes)-1]
		}
		backStart := time.Now()
		endRange := cuda.Range("bc backward")
		ms, err := run.BCBackward(sizes)
		endRange()
		if err == nil {
			err = run.BCAccumulate(s)
		}
		if err != nil {
			return nil, total, fmt.Errorf("cuda backend: %w", err)
		}
		back := res.Edges - min(deepest, res.Edges)
		if opts.Trace {
			res.Trace = append(res.Trace, engine.IterationTrace{Iteration: res.Iterations, Mode: "backward",
				FrontierVertices: uint64(sizes[0]), FrontierEdges: back, Seconds: time.Since(backStart).Seconds(),
				Phases: []engine.Phase{{Name: "bc-backward", Seconds: float64(ms) / 1e3}}})
		}
		res.Edges += back
		res.Seconds = time.Since(start).Seconds()
		total.Add(res)
	}
	return collect(b, &total, run.CollectBC)
}

// brandesAsync is Brandes in engine.Async mode: every source runs as
// asyncSource says (a directed layout's backward pass over its
// in-adjacency). The caller holds b.mu and has reset the
// sums.
func (b *Backend) brandesAsync(ctx context.Context, run *cuda.SumRun, sources []uint32, opts engine.RunOptions) ([]float64, engine.Result, error) {
	var total engine.Result
	for _, s := range sources {
		if err := ctx.Err(); err != nil {
			return nil, total, err
		}
		res, err := b.asyncSource(run, s, opts)
		if err != nil {
			return nil, total, err
		}
		total.Add(res)
	}
	return collect(b, &total, run.CollectBC)
}

// asyncSource adds source s's dependencies to the sums without levels: an
// async BFS gives the depths, then both passes run as dataflow over the
// device worklist (cuda.SumRun.BCAsync), with no barrier per level. It is
// one iteration; with opts.Trace, one entry of mode "async" (the BFS and
// both passes). The caller holds b.mu.
func (b *Backend) asyncSource(run *cuda.SumRun, s uint32, opts engine.RunOptions) (engine.Result, error) {
	start := time.Now()
	bfs, err := b.minRun()
	if err != nil {
		return engine.Result{}, err
	}
	if err := bfs.Init(math.MaxUint32, false, true, s, 0); err != nil {
		return engine.Result{}, fmt.Errorf("cuda backend: %w", err)
	}
	st, err := bfs.Async(cuda.ProgBFS, 1, false, 0, b.asyncBlocks, !b.noBlockRows)
	if err != nil {
		return engine.Result{}, fmt.Errorf("cuda backend: bc: %w", err)
	}
	ms, err := run.BCAsync(s, bfs, b.asyncBlocks)
	if err == nil {
		err = run.BCAccumulate(s)
	}
	if err != nil {
		return engine.Result{}, fmt.Errorf("cuda backend: bc: %w", err)
	}
	res := engine.Result{Iterations: 1, Seconds: time.Since(start).Seconds()}
	if opts.Trace {
		res.Trace = append(res.Trace, engine.AsyncTrace{Items: st.Items, Shared: st.Shared}.Record(res.Seconds,
			engine.Phase{Name: "bfs", Seconds: float64(st.Millis) / 1e3},
			engine.Phase{Name: "bc-passes", Seconds: float64(ms) / 1e3}))
	}
	return res, nil
}
