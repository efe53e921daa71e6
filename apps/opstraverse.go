package apps

import (
	"context"
	"fmt"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/ops"
)

// BFSOps is BFS written with the operators (--engine operators): from the
// source's frontier, an advance claims the unvisited neighbours for the
// next depth, until the frontier is empty; Beamer's rule (ops.Optimized)
// turns the advance into a pull (unvisited vertices look for a parent in
// the frontier) while the frontier is large, unless o.NoPull. Levels are
// in original numbering, Unreached where the source does not reach.
//
//	level[s] = 0; F = {s}
//	while F ≠ ∅: F = advance(F, bfs functor at depth d, optimized); d++
func BFSOps(ctx context.Context, b engine.Backend, source uint32, o OpsOptions) ([]uint32, engine.Result, error) {
	return traverseOps(ctx, "bfs", b, source, o)
}

// SSSPOps is SSSP written with the operators: a data-driven Bellman–Ford
// whose advance relaxes the frontier's arcs with an atomic min and outputs
// (once each) the vertices it lowered. Unweighted graphs have weight 1; a
// graph of float32 weights is refused (ErrFloat32Weights): SSSPOpsFloat32
// runs it.
//
//	dist[s] = 0; F = {s}
//	while F ≠ ∅: F = advance(F, relax functor, unique)
func SSSPOps(ctx context.Context, b engine.Backend, source uint32, o OpsOptions) ([]uint32, engine.Result, error) {
	if err := checkUint32Distances("sssp", "SSSPOpsFloat32", b.Layout()); err != nil {
		return nil, engine.Result{}, err
	}
	return traverseOps(ctx, "sssp", b, source, o)
}

// SSSPOpsFloat32 is SSSPOps over a graph of float32 weights, with
// SSSPFloat32's distances (+Inf where unreached).
func SSSPOpsFloat32(ctx context.Context, b engine.Backend, source uint32, o OpsOptions) ([]float32, engine.Result, error) {
	return MultiSourceSSSPFloat32(ctx, b, []uint32{source}, o)
}

// MultiSourceBFS is BFSOps from several sources at once (cuGraph's
// multi-source BFS): every vertex gets its distance in arcs to the nearest
// source, Unreached where none reaches it. Sources are original ids;
// repeats are allowed.
func MultiSourceBFS(ctx context.Context, b engine.Backend, sources []uint32, o OpsOptions) ([]uint32, engine.Result, error) {
	return traverseFrom(ctx, "bfs", b, sources, o)
}

// MultiSourceSSSP is SSSPOps from several sources at once: every vertex
// gets its distance to the nearest source. A graph of float32 weights is
// refused (ErrFloat32Weights): MultiSourceSSSPFloat32 runs it.
func MultiSourceSSSP(ctx context.Context, b engine.Backend, sources []uint32, o OpsOptions) ([]uint32, engine.Result, error) {
	if err := checkUint32Distances("sssp", "MultiSourceSSSPFloat32", b.Layout()); err != nil {
		return nil, engine.Result{}, err
	}
	return traverseFrom(ctx, "sssp", b, sources, o)
}

// MultiSourceSSSPFloat32 is MultiSourceSSSP over a graph of float32
// weights: float32 distances to the nearest source, +Inf where none
// reaches (SSSPFloat32's values; the least over the sources).
func MultiSourceSSSPFloat32(ctx context.Context, b engine.Backend, sources []uint32, o OpsOptions) ([]float32, engine.Result, error) {
	return float32Run(b, func() ([]uint32, engine.Result, error) { return traverseFrom(ctx, "sssp", b, sources, o) })
}

func traverseOps(ctx context.Context, app string, b engine.Backend, source uint32, o OpsOptions) ([]uint32, engine.Result, error) {
	return traverseFrom(ctx, app, b, []uint32{source}, o)
}

func traverseFrom(ctx context.Context, app string, b engine.Backend, sources []uint32, o OpsOptions) ([]uint32, engine.Result, error) {
	if len(sources) == 0 {
		return nil, engine.Result{}, fmt.Errorf("%s needs a source", app)
	}
	seen := make(map[uint32]bool, len(sources))
	var s []uint32 // layout ids, each once
	for _, src := range sources {
		ls, err := checkSource(b.Layout(), src)
		if err != nil {
			return nil, engine.Result{}, err
		}
		if !seen[ls] {
			seen[ls] = true
			s = append(s, ls)
		}
	}
	e, err := newEnactor(ctx, app, b, o)
	if err != nil {
		return nil, engine.Result{}, err
	}
	values, err := ops.NewFilled[uint32](e.d, int(e.l.NumVertices), Unreached)
	var in, out *ops.Frontier
	if err == nil {
		in, err = e.vertices()
	}
	if err == nil {
		out, err = e.vertices()
	}
	if err == nil {
		err = e.traverse(app, s, values, in, out)
	}
	var got []uint32
	if err == nil {
		got, err = original(e, values)
	}
	if ferr := e.finish(values, in, out); err == nil {
		err = ferr
	}
	if err != nil {
		return nil, e.res, err
	}
	return got, e.res, nil
}

func (e *enactor) traverse(app string, sources []uint32, values *ops.Array[uint32], in, out *ops.Frontier) error {
	for _, s := range sources {
		if err := values.CopyInAt(int(s), []uint32{0}); err != nil {
			return err
		}
	}
	if err := in.Set(sources); err != nil {
		return err
	}
	g := e.d.Out()
	o := ops.AdvanceOptions{Output: ops.OutVertices}
	switch {
	case app == "sssp":
		o.Unique = true
	case !e.o.NoPull:
		o.Direction, o.First, o.Optimizer = ops.Optimized, true, ops.NewOptimizer(g)
	}
	for depth := uint32(0); !in.Empty(); depth++ {
		if e.o.MaxIterations > 0 && e.res.Iterations >= e.o.MaxIterations {
			break
		}
		var f *ops.Functor
		switch app {
		case "bfs":
			f = bfsFunctor(values, depth)
		case "sssp":
			mode := uint64(ssspUint32)
			switch {
			case !g.Weighted():
				mode = ssspUnweighted
			case e.l.WeightKind == graph.Float32Weights:
				mode = ssspFloat32
			}
			f = ssspFunctor(values, mode)
		default:
			return fmt.Errorf("traverse: unknown app %q", app)
		}
		if err := e.advance(g, f, in, out, o); err != nil {
			return err
		}
		in.Swap(out)
		e.res.Iterations++
	}
	return nil
}
