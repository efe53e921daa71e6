package apps

import (
	"context"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/ops"
)

// KCore returns the core number of every vertex of an undirected graph
// (NetworkX's core_number; self-loops and repeated arcs ignored), in
// original numbering, by peeling: for k = 1, 2, … the live vertices of
// degree below k are removed with core number k−1 and their live
// neighbours lose a degree, until none is removed; then k grows, until no
// vertex is live.
//
//	S = filterArcs(G, simple); deg = row lengths of S; live = V
//	for k = 1; live ≠ ∅; k++:
//	    repeat: R = filter(live, deg < k ⇒ core = k−1)
//	            advance(R, drop a live neighbour's degree)
//	            live = filter(live, core unset)
//	    until R = ∅
func KCore(ctx context.Context, b engine.Backend, o OpsOptions) ([]uint32, engine.Result, error) {
	e, err := newEnactor(ctx, "kcore", b, o)
	if err != nil {
		return nil, engine.Result{}, err
	}
	if err := e.needUndirected(); err != nil {
		e.finish()
		return nil, e.res, err
	}
	core, err := e.kcore()
	if ferr := e.finish(); err == nil {
		err = ferr
	}
	if err != nil {
		return nil, e.res, err
	}
	return core, e.res, nil
}

func (e *enactor) kcore() ([]uint32, error) {
	n := int(e.l.NumVertices)
	simple, err := e.filterArcs(e.d.Out(), simpleFunctor(e.d.Out()))
	if err != nil {
		return nil, err
	}
	defer simple.Close()
	deg, err := degreesOf(e, simple)
	if err != nil {
		return nil, err
	}
	defer deg.Close()
	core, err := ops.NewFilled(e.d, n, unset)
	if err != nil {
		return nil, err
	}
	defer core.Close()
	live, err := e.vertices()
	if err != nil {
		return nil, err
	}
	defer live.Close()
	removed, err := e.vertices()
	if err != nil {
		return nil, err
	}
	defer removed.Close()
	next, err := e.vertices()
	if err != nil {
		return nil, err
	}
	defer next.Close()
	if err := e.filter(equalsFunctor(core, unset), nil, live, ops.FilterOptions{}); err != nil {
		return nil, err
	}
	for k := uint32(1); !live.Empty(); k++ {
		for {
			if err := e.filter(kcorePeelFunctor(deg, core, k), live, removed, ops.FilterOptions{}); err != nil {
				return nil, err
			}
			e.res.Iterations++
			if removed.Empty() {
				break
			}
			if err := e.advance(simple, kcoreDropFunctor(deg, core), removed, nil, ops.AdvanceOptions{}); err != nil {
				return nil, err
			}
			if err := e.filter(equalsFunctor(core, unset), live, next, ops.FilterOptions{}); err != nil {
				return nil, err
			}
			live.Swap(next)
		}
	}
	return original(e, core)
}

// degreesOf returns the row lengths of g as uint32s on the device.
func degreesOf(e *enactor, g *ops.Graph) (*ops.Array[uint32], error) {
	off := make([]uint64, g.NumVertices+1)
	if err := g.Offsets.Download(0, ops.Bytes(off)); err != nil {
		return nil, err
	}
	deg := make([]uint32, g.NumVertices)
	for v := range deg {
		deg[v] = uint32(off[v+1] - off[v])
	}
	a, err := ops.NewArray[uint32](e.d, len(deg))
	if err != nil {
		return nil, err
	}
	if err := a.CopyIn(deg); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}
