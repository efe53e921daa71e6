package apps

import (
	"context"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/ops"
)

// TriangleCount counts the triangles of an undirected graph (self-loops
// and repeated arcs ignored) by segmented intersection over a
// degree-ordered orientation: each arc kept from lower to higher (degree,
// id) and, for each, the neighbours its two ends share — every triangle is
// then counted once. With perVertex it also returns each vertex's
// triangles (NetworkX's nx.triangles) in original numbering, from the
// intersections over every simple arc (row u ∩ row v counts the triangles
// on edge uv; a vertex's sum counts each of its triangles twice).
//
//	G⁺ = filterArcs(G, orient); total = intersect(G⁺)
//	[per vertex: S = filterArcs(G, simple); t = intersect(S, add to u) / 2]
func TriangleCount(ctx context.Context, b engine.Backend, perVertex bool, o OpsOptions) (uint64, []uint64, engine.Result, error) {
	e, err := newEnactor(ctx, "tc", b, o)
	if err != nil {
		return 0, nil, engine.Result{}, err
	}
	if err := e.needUndirected(); err != nil {
		e.finish()
		return 0, nil, e.res, err
	}
	total, per, err := e.triangles(perVertex)
	if ferr := e.finish(); err == nil {
		err = ferr
	}
	return total, per, e.res, err
}

func (e *enactor) triangles(perVertex bool) (uint64, []uint64, error) {
	g := e.d.Out()
	oriented, err := e.filterArcs(g, orientFunctor(g))
	if err != nil {
		return 0, nil, err
	}
	defer oriented.Close()
	total, err := e.intersect(oriented, triCountFunctor(nil))
	if err != nil {
		return 0, nil, err
	}
	e.res.Iterations++
	if !perVertex {
		return total, nil, nil
	}
	simple, err := e.filterArcs(g, simpleFunctor(g))
	if err != nil {
		return 0, nil, err
	}
	defer simple.Close()
	count, err := ops.NewFilled[uint64](e.d, int(e.l.NumVertices), 0)
	if err != nil {
		return 0, nil, err
	}
	defer count.Close()
	if _, err := e.intersect(simple, triCountFunctor(count)); err != nil {
		return 0, nil, err
	}
	e.res.Iterations++
	per, err := original(e, count)
	if err != nil {
		return 0, nil, err
	}
	for v := range per {
		per[v] /= 2
	}
	return total, per, nil
}
