package apps

import (
	"context"
	"fmt"
	"slices"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/ops"
)

// PersonalizedPageRank is PageRank whose teleports and dangling rank go to
// the sources (uniformly over the distinct ones), written with the
// operators as a pull over in-rows. Ranks start at the teleport vector;
// the iteration stops after the first whose L1 change is below
// pr.Tolerance, or after pr.MaxIterations (ref.PersonalizedPageRank's
// conventions; NetworkX's pagerank with personalization). Sources and
// ranks are in original numbering. A backend that implements
// engine.PersonalPageRankBackend (the GPU) runs it whole on its device
// unless o asks for a load-balancing strategy (the operators' study);
// elsewhere the operators below run it.
//
//	r = p; outdeg = reduce(G, 1)
//	repeat: D = sum(dangling r); r' = reduce(Gᵀ, d·Σ r/outdeg + (1−d+d·D)·p)
//	        δ = sum(|r' − r|); swap r, r'   until δ < tol
func PersonalizedPageRank(ctx context.Context, b engine.Backend, sources []uint32, pr PageRankOptions, o OpsOptions) ([]float64, engine.Result, error) {
	if err := pr.validate(); err != nil {
		return nil, engine.Result{}, err
	}
	l := b.Layout()
	if l.NumVertices > 0 && len(sources) == 0 {
		return nil, engine.Result{}, fmt.Errorf("ppr needs at least one source")
	}
	// The distinct sources in the layout's numbering (no n-sized scan: on
	// the device path the teleport vector is never made on the host).
	distinct := make([]uint32, 0, len(sources))
	for _, s := range sources {
		ls, err := checkSource(l, s)
		if err != nil {
			return nil, engine.Result{}, err
		}
		distinct = append(distinct, ls)
	}
	slices.Sort(distinct)
	distinct = slices.Compact(distinct)
	if pb, ok := b.(engine.PersonalPageRankBackend); ok && o.Strategy == ops.Auto && l.NumVertices > 0 {
		ranks, res, ran, err := pb.PersonalizedPageRank(ctx, distinct, pr.params(), engine.RunOptions{Trace: o.Trace})
		if ran || err != nil {
			return ranks, res, err
		}
	}
	teleport := make([]float64, l.NumVertices)
	for _, v := range distinct {
		teleport[v] = 1 / float64(len(distinct))
	}
	e, err := newEnactor(ctx, "ppr", b, o)
	if err != nil {
		return nil, engine.Result{}, err
	}
	ranks, err := e.ppr(teleport, pr)
	if ferr := e.finish(); err == nil {
		err = ferr
	}
	if err != nil {
		return nil, e.res, err
	}
	return ranks, e.res, nil
}

// arrays allocates count arrays of n float64s, zeroed.
func (e *enactor) arrays(count int) ([]*ops.Array[float64], error) {
	out := make([]*ops.Array[float64], count)
	for i := range out {
		a, err := ops.NewFilled(e.d, int(e.l.NumVertices), 0.0)
		if err != nil {
			for _, x := range out[:i] {
				x.Close()
			}
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

func closeArrays(as []*ops.Array[float64]) {
	for _, a := range as {
		a.Close()
	}
}

// outDegrees fills deg with the out-degrees of g (as doubles), by a
// gather of ones.
func (e *enactor) outDegrees(g *ops.Graph, ones, deg *ops.Array[float64]) error {
	if err := ones.Fill(1); err != nil {
		return err
	}
	return e.reduce(g, gatherFunctor(ones, deg, nil), nil, ops.ReduceSum)
}

func (e *enactor) ppr(teleport []float64, pr PageRankOptions) ([]float64, error) {
	as, err := e.arrays(4)
	if err != nil {
		return nil, err
	}
	defer closeArrays(as)
	rank, next, outdeg, tele := as[0], as[1], as[2], as[3]
	if err := e.outDegrees(e.d.Out(), rank, outdeg); err != nil {
		return nil, err
	}
	if err := tele.CopyIn(teleport); err != nil {
		return nil, err
	}
	if err := rank.CopyIn(teleport); err != nil {
		return nil, err
	}
	in, err := e.d.In()
	if err != nil {
		return nil, err
	}
	for e.res.Iterations < pr.MaxIterations {
		dangling, err := e.sum(prDanglingFunctor(rank, outdeg), nil)
		if err != nil {
			return nil, err
		}
		if err := e.reduce(in, prPullFunctor(rank, next, outdeg, tele, pr.Damping, dangling), nil, ops.ReduceSum); err != nil {
			return nil, err
		}
		change, err := e.sum(l1DiffFunctor(rank, next), nil)
		if err != nil {
			return nil, err
		}
		rank, next = next, rank
		e.res.Iterations++
		if change < pr.Tolerance {
			break
		}
	}
	return original(e, rank)
}

// HITS returns Kleinberg's hub and authority scores (ref.HITS's
// conventions, NetworkX's fixed point): from hubs 1/n, each iteration sets
// a = Aᵀh and h = A·a, each scaled to sum 1, and stops after the first
// whose L1 change of h is below tol, or after maxIter. Written with the
// operators: a push (advance adding h[u] into a[v]) and a pull (reduce of
// a over out-rows). Scores are in original numbering.
func HITS(ctx context.Context, b engine.Backend, maxIter int, tol float64, o OpsOptions) (hubs, authorities []float64, res engine.Result, err error) {
	return hubsAuthorities(ctx, "hits", b, maxIter, tol, o)
}

// SALSA returns Lempel and Moran's hub and authority scores (ref.SALSA's
// conventions): from hubs uniform over the vertices with out-arcs, each
// iteration sets a(v) = Σ_{u→v} h(u)/outdeg(u) and h(u) = Σ_{u→v}
// a(v)/indeg(v), and stops after the first whose L1 changes of both are
// below tol, or after maxIter. Written with the operators as HITS is.
func SALSA(ctx context.Context, b engine.Backend, maxIter int, tol float64, o OpsOptions) (hubs, authorities []float64, res engine.Result, err error) {
	return hubsAuthorities(ctx, "salsa", b, maxIter, tol, o)
}

func hubsAuthorities(ctx context.Context, app string, b engine.Backend, maxIter int, tol float64, o OpsOptions) ([]float64, []float64, engine.Result, error) {
	if maxIter < 0 || tol < 0 {
		return nil, nil, engine.Result{}, fmt.Errorf("%s: negative iteration cap %d or tolerance %g", app, maxIter, tol)
	}
	e, err := newEnactor(ctx, app, b, o)
	if err != nil {
		return nil, nil, engine.Result{}, err
	}
	h, a, err := e.hubsAuthorities(e.d.Out(), app == "salsa", maxIter, tol, true)
	if ferr := e.finish(); err == nil {
		err = ferr
	}
	if err != nil {
		return nil, nil, e.res, err
	}
	return h, a, e.res, nil
}

// hubsAuthorities iterates HITS (salsa false) or SALSA on g and returns
// hubs and authorities, in original numbering when inOriginal is set, else
// in layout numbering.
func (e *enactor) hubsAuthorities(g *ops.Graph, salsa bool, maxIter int, tol float64, inOriginal bool) ([]float64, []float64, error) {
	as, err := e.arrays(6)
	if err != nil {
		return nil, nil, err
	}
	defer closeArrays(as)
	h, a, nh, na, outdeg, indeg := as[0], as[1], as[2], as[3], as[4], as[5]
	var hdiv, adiv *ops.Array[float64] // SALSA's divisors
	if salsa {
		if err := e.outDegrees(g, h, outdeg); err != nil {
			return nil, nil, err
		}
		if err := e.advance(g, pushAddFunctor(h, indeg, nil), nil, nil, ops.AdvanceOptions{}); err != nil {
			return nil, nil, err
		}
		if err := e.uniformOnPositive(outdeg, h); err != nil {
			return nil, nil, err
		}
		if err := e.uniformOnPositive(indeg, a); err != nil {
			return nil, nil, err
		}
		hdiv, adiv = outdeg, indeg
	} else if err := h.Fill(1 / float64(e.l.NumVertices)); err != nil {
		return nil, nil, err
	} else if err := a.Fill(1 / float64(e.l.NumVertices)); err != nil {
		return nil, nil, err
	}
	for e.res.Iterations < maxIter {
		if err := na.Fill(0); err != nil {
			return nil, nil, err
		}
		if err := e.advance(g, pushAddFunctor(h, na, hdiv), nil, nil, ops.AdvanceOptions{}); err != nil {
			return nil, nil, err
		}
		if !salsa {
			if err := e.normalize(na); err != nil {
				return nil, nil, err
			}
		}
		if err := e.reduce(g, gatherFunctor(na, nh, adiv), nil, ops.ReduceSum); err != nil {
			return nil, nil, err
		}
		if !salsa {
			if err := e.normalize(nh); err != nil {
				return nil, nil, err
			}
		}
		dh, err := e.sum(l1DiffFunctor(h, nh), nil)
		if err != nil {
			return nil, nil, err
		}
		da := 0.0
		if salsa {
			if da, err = e.sum(l1DiffFunctor(a, na), nil); err != nil {
				return nil, nil, err
			}
		}
		h, nh = nh, h
		a, na = na, a
		e.res.Iterations++
		if dh < tol && da < tol {
			break
		}
	}
	get := (*ops.Array[float64]).Get
	if inOriginal {
		get = func(a *ops.Array[float64]) ([]float64, error) { return originalCopy(e, a) }
	}
	hs, err := get(h)
	if err != nil {
		return nil, nil, err
	}
	ats, err := get(a)
	return hs, ats, err
}

// normalize scales x to sum 1 (left alone when it sums to 0).
func (e *enactor) normalize(x *ops.Array[float64]) error {
	s, err := e.sum(valueFunctor(x), nil)
	if err != nil || s == 0 {
		return err
	}
	return e.compute(scaleFunctor(x, 1/s), nil)
}

// uniformOnPositive sets x to 1/k on the k vertices whose deg is positive,
// 0 elsewhere (host side: once per run).
func (e *enactor) uniformOnPositive(deg, x *ops.Array[float64]) error {
	d, err := deg.Get()
	if err != nil {
		return err
	}
	k := 0
	for _, y := range d {
		if y > 0 {
			k++
		}
	}
	xs := make([]float64, len(d))
	for v, y := range d {
		if y > 0 {
			xs[v] = 1 / float64(k)
		}
	}
	return x.CopyIn(xs)
}
