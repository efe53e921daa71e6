package apps

import (
	"context"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/ops"
)

// The states of MIS (undecided is unset).
const (
	misOut uint32 = 0 // a neighbour is in the set
	misIn  uint32 = 1 // in the set
)

// Color colours an undirected graph (self-loops ignored) by Jones and
// Plassmann's rule, largest degree first with random priorities among
// equal degrees: in each round every uncoloured vertex whose (degree,
// priority, id) beats all its uncoloured neighbours' takes the smallest
// colour no neighbour has. Colours are at most the vertex's
// degree, so at most Δ+1 are used. seed picks the priorities; the result
// is in original numbering.
//
//	U = V
//	for round = 0; U ≠ ∅; round++:
//	    reduce(U, max over neighbours: beats me? ⇒ mark local maxima of priority(round))
//	    compute(U, colour marked vertices)
//	    U = filter(U, uncoloured)
func Color(ctx context.Context, b engine.Backend, seed uint64, o OpsOptions) ([]uint32, engine.Result, error) {
	return independentRounds(ctx, "color", b, seed, o)
}

// MIS returns a maximal independent set of an undirected graph (self-loops
// ignored) by Luby's algorithm with random priorities: in each round every
// undecided vertex whose (priority, id) beats all its undecided
// neighbours' joins the set and its neighbours leave the undecided ones.
// The result is in original numbering.
//
//	U = V
//	for round = 0; U ≠ ∅; round++:
//	    reduce(U, max over neighbours: beats me? ⇒ mark local maxima of priority(round))
//	    J = filter(U, join if marked)
//	    advance(J, exclude undecided neighbours)
//	    U = filter(U, undecided)
func MIS(ctx context.Context, b engine.Backend, seed uint64, o OpsOptions) ([]bool, engine.Result, error) {
	state, res, err := independentRounds(ctx, "mis", b, seed, o)
	if err != nil {
		return nil, res, err
	}
	in := make([]bool, len(state))
	for v, s := range state {
		in[v] = s == misIn
	}
	return in, res, nil
}

// independentRounds runs Color's or MIS's rounds and returns the colours
// or the MIS states in original numbering.
func independentRounds(ctx context.Context, app string, b engine.Backend, seed uint64, o OpsOptions) ([]uint32, engine.Result, error) {
	e, err := newEnactor(ctx, app, b, o)
	if err != nil {
		return nil, engine.Result{}, err
	}
	if err := e.needUndirected(); err != nil {
		e.finish()
		return nil, e.res, err
	}
	state, err := e.rounds(app == "mis", seed)
	if ferr := e.finish(); err == nil {
		err = ferr
	}
	if err != nil {
		return nil, e.res, err
	}
	return state, e.res, nil
}

func (e *enactor) rounds(mis bool, seed uint64) ([]uint32, error) {
	n := int(e.l.NumVertices)
	g := e.d.Out()
	state, err := ops.NewFilled(e.d, n, unset)
	if err != nil {
		return nil, err
	}
	defer state.Close()
	win, err := ops.NewFilled[uint8](e.d, n, 0)
	if err != nil {
		return nil, err
	}
	defer win.Close()
	var undecided, joined, next *ops.Frontier
	for _, f := range []**ops.Frontier{&undecided, &joined, &next} {
		if *f, err = e.vertices(); err != nil {
			return nil, err
		}
		defer (*f).Close()
	}
	if err := e.filter(equalsFunctor(state, unset), nil, undecided, ops.FilterOptions{}); err != nil {
		return nil, err
	}
	for round := uint64(0); !undecided.Empty(); round++ {
		if err := e.reduce(g, localMaxFunctor(g, state, win, unset, seed+round, !mis), undecided, ops.ReduceMax); err != nil {
			return nil, err
		}
		if mis {
			if err := e.filter(misJoinFunctor(state, win), undecided, joined, ops.FilterOptions{}); err != nil {
				return nil, err
			}
			if err := e.advance(g, misExcludeFunctor(state), joined, nil, ops.AdvanceOptions{}); err != nil {
				return nil, err
			}
		} else if err := e.compute(jpColorFunctor(g, state, win), undecided); err != nil {
			return nil, err
		}
		if err := e.filter(equalsFunctor(state, unset), undecided, next, ops.FilterOptions{}); err != nil {
			return nil, err
		}
		undecided.Swap(next)
		e.res.Iterations++
	}
	return original(e, state)
}
