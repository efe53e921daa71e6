package apps

import (
	"context"
	"fmt"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/ops"
)

// BFSOps is BFS written with the operators (--engine operators): from the
// source's frontier, an advance claims the unvisited neighbours for the
// next depth, until the frontier is empty. Levels are in original
// numbering, Unreached where the source does not reach.
//
//	level[s] = 0; F = {s}
//	while F ≠ ∅: F = advance(F, bfs functor at depth d); d++
func BFSOps(ctx context.Context, b engine.Backend, source uint32, o OpsOptions) ([]uint32, engine.Result, error) {
	return traverseOps(ctx, "bfs", b, source, o)
}

// SSSPOps is SSSP written with the operators: a data-driven Bellman–Ford
// whose advance relaxes the frontier's arcs with an atomic min and outputs
// (once each) the vertices it lowered. Unweighted graphs have weight 1.
//
//	dist[s] = 0; F = {s}
//	while F ≠ ∅: F = advance(F, relax functor, unique)
func SSSPOps(ctx context.Context, b engine.Backend, source uint32, o OpsOptions) ([]uint32, engine.Result, error) {
	return traverseOps(ctx, "sssp", b, source, o)
}

func traverseOps(ctx context.Context, app string, b engine.Backend, source uint32, o OpsOptions) ([]uint32, engine.Result, error) {
	s, err := checkSource(b.Layout(), source)
	if err != nil {
		return nil, engine.Result{}, err
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

func (e *enactor) traverse(app string, s uint32, values *ops.Array[uint32], in, out *ops.Frontier) error {
	if err := values.CopyInAt(int(s), []uint32{0}); err != nil {
		return err
	}
	if err := in.Set([]uint32{s}); err != nil {
		return err
	}
	g := e.d.Out()
	for depth := uint32(0); !in.Empty(); depth++ {
		if e.o.MaxIterations > 0 && e.res.Iterations >= e.o.MaxIterations {
			break
		}
		var f *ops.Functor
		unique := false
		switch app {
		case "bfs":
			f = bfsFunctor(values, depth)
		case "sssp":
			f, unique = ssspFunctor(values, !g.Weighted()), true
		default:
			return fmt.Errorf("traverse: unknown app %q", app)
		}
		if err := e.advance(g, f, in, out, ops.AdvanceOptions{Output: ops.OutVertices, Unique: unique}); err != nil {
			return err
		}
		in.Swap(out)
		e.res.Iterations++
	}
	return nil
}
