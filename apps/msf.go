package apps

import (
	"context"
	"fmt"

	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/ops"
)

// MSF returns a minimum spanning forest of an undirected graph (self-loops
// ignored; unweighted arcs weigh 1) by Borůvka's algorithm: each round,
// every component finds its lightest leaving edge (ties broken by the
// least pair of end ids, a total order, so the choices form no cycle but
// mutual pairs) and hooks along it; pointer jumping then flattens the
// components. Edges are in original ids (U < V), in no particular order,
// with their total weight.
//
//	comp = identity
//	repeat: compute(reset); compute(min weight); compute(min edge)
//	        H = filter(V, hook)       (records the forest's edges)
//	        compute(apply); while filter(V, jump) ≠ ∅
//	until H = ∅
func MSF(ctx context.Context, b engine.Backend, o OpsOptions) (uint64, []ref.Edge, engine.Result, error) {
	if float32Weights(b.Layout()) {
		return 0, nil, engine.Result{}, fmt.Errorf("msf: float32 weights are not supported (its total is a uint64 sum of uint32 weights): read the graph with weight type uint32")
	}
	e, err := newEnactor(ctx, "msf", b, o)
	if err != nil {
		return 0, nil, engine.Result{}, err
	}
	if err := e.needUndirected(); err != nil {
		e.finish()
		return 0, nil, e.res, err
	}
	weight, edges, err := e.msf()
	if ferr := e.finish(); err == nil {
		err = ferr
	}
	return weight, edges, e.res, err
}

func (e *enactor) msf() (uint64, []ref.Edge, error) {
	n := int(e.l.NumVertices)
	var a msfArrays
	var err error
	u32s := []**ops.Array[uint32]{&a.comp, &a.bestW, &a.next, &a.forestW}
	for _, p := range u32s {
		if *p, err = ops.NewFilled(e.d, n, unset); err != nil {
			return 0, nil, err
		}
		defer (*p).Close()
	}
	for _, p := range []**ops.Array[uint64]{&a.bestE, &a.forestE} {
		if *p, err = ops.NewFilled(e.d, n, noEdge); err != nil {
			return 0, nil, err
		}
		defer (*p).Close()
	}
	ids := make([]uint32, n)
	for v := range ids {
		ids[v] = uint32(v)
	}
	if err := a.comp.CopyIn(ids); err != nil {
		return 0, nil, err
	}
	hooked, err := e.vertices()
	if err != nil {
		return 0, nil, err
	}
	defer hooked.Close()
	g := e.d.Out()
	step := func(id int) *ops.Functor { return msfFunctor(id, g, a) }
	for {
		for _, id := range []int{ops.FnMSFReset, ops.FnMSFMinW, ops.FnMSFMinEdge} {
			if err := e.compute(step(id), nil); err != nil {
				return 0, nil, err
			}
		}
		if err := e.filter(step(ops.FnMSFHook), nil, hooked, ops.FilterOptions{}); err != nil {
			return 0, nil, err
		}
		e.res.Iterations++
		if hooked.Empty() {
			break
		}
		if err := e.compute(step(ops.FnMSFApply), nil); err != nil {
			return 0, nil, err
		}
		for changed := true; changed; {
			if err := e.filter(step(ops.FnMSFJump), nil, hooked, ops.FilterOptions{}); err != nil {
				return 0, nil, err
			}
			changed = !hooked.Empty()
		}
	}
	keys, err := a.forestE.Get()
	if err != nil {
		return 0, nil, err
	}
	ws, err := a.forestW.Get()
	if err != nil {
		return 0, nil, err
	}
	var total uint64
	var edges []ref.Edge
	for r, k := range keys {
		if k == noEdge {
			continue
		}
		x, y := e.l.InvPerm[uint32(k>>32)], e.l.InvPerm[uint32(k)]
		edges = append(edges, ref.Edge{U: min(x, y), V: max(x, y), W: ws[r]})
		total += uint64(ws[r])
	}
	return total, edges, nil
}
