package apps

import (
	"context"
	"fmt"
	"time"

	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/ops"
)

// WTFOptions are who-to-follow's parameters (ref.WTFOptions; its
// defaults with ref.DefaultWTFOptions).
type WTFOptions = ref.WTFOptions

// WhoToFollow recommends accounts to user as Gunrock's (and Twitter's)
// who-to-follow does, in original numbering:
//
//	r = personalised PageRank from user
//	C = the CircleSize vertices of highest r (the circle of trust; user
//	    and vertices of rank 0 left out)
//	B = filterArcs(G, source in C)        (hubs C, authorities their out-neighbours)
//	a = SALSA authorities on B
//	recommend the TopK authorities of highest a that user does not follow
//
// Ties go to the smaller original id, as in ref.WhoToFollow.
func WhoToFollow(ctx context.Context, b engine.Backend, user uint32, w WTFOptions, o OpsOptions) ([]uint32, engine.Result, error) {
	l := b.Layout()
	lu, err := checkSource(l, user)
	if err != nil {
		return nil, engine.Result{}, err
	}
	pr := PageRankOptions{Damping: w.PageRank.Damping, Tolerance: w.PageRank.Tolerance, MaxIterations: w.PageRank.MaxIterations}
	start := time.Now()
	ppr, res, err := PersonalizedPageRank(ctx, b, []uint32{user}, pr, o)
	if err != nil {
		return nil, res, fmt.Errorf("wtf: %w", err)
	}
	circle := ref.TopK(ppr, w.CircleSize, func(v uint32) bool { return v == user || ppr[v] == 0 })
	e, err := newEnactor(ctx, "wtf", b, o)
	if err != nil {
		return nil, res, err
	}
	e.res, e.start = res, start // the result and its time cover both parts
	auth, isAuth, err := e.circleSALSA(circle, w)
	var follows []uint32
	if err == nil {
		follows, err = e.row(e.d.Out(), lu)
	}
	if ferr := e.finish(); err == nil {
		err = ferr
	}
	if err != nil {
		return nil, e.res, err
	}
	followed := make(map[uint32]bool, len(follows))
	for _, v := range follows {
		followed[l.InvPerm[v]] = true
	}
	authOrig := toOriginal(l, auth)
	isAuthOrig := toOriginal(l, isAuth)
	rec := ref.TopK(authOrig, w.TopK, func(v uint32) bool { return v == user || followed[v] || !isAuthOrig[v] })
	return rec, e.res, nil
}

// circleSALSA runs SALSA on the arcs leaving the circle (original ids)
// and returns the authority scores and which vertices are authorities,
// in layout numbering.
func (e *enactor) circleSALSA(circle []uint32, w WTFOptions) ([]float64, []bool, error) {
	flags := make([]uint8, e.l.NumVertices)
	for _, v := range circle {
		flags[e.l.Perm[v]] = 1
	}
	inCircle, err := ops.NewArray[uint8](e.d, len(flags))
	if err != nil {
		return nil, nil, err
	}
	defer inCircle.Close()
	if err := inCircle.CopyIn(flags); err != nil {
		return nil, nil, err
	}
	bip, err := e.filterArcs(e.d.Out(), inSetFunctor(inCircle))
	if err != nil {
		return nil, nil, err
	}
	defer bip.Close()
	iters := e.res.Iterations
	e.res.Iterations = 0
	_, auth, err := e.hubsAuthorities(bip, true, w.SALSAIterations, w.SALSATolerance, false)
	e.res.Iterations += iters
	if err != nil {
		return nil, nil, err
	}
	// The authorities: destinations of the bipartite graph's arcs.
	dst := make([]uint32, bip.NumArcs)
	if err := bip.Dst.Download(0, ops.Bytes(dst)); err != nil {
		return nil, nil, err
	}
	isAuth := make([]bool, e.l.NumVertices)
	for _, v := range dst {
		isAuth[v] = true
	}
	return auth, isAuth, nil
}

// row returns row u of g (host copy).
func (e *enactor) row(g *ops.Graph, u uint32) ([]uint32, error) {
	off := make([]uint64, 2)
	if err := g.Offsets.Download(8*uint64(u), ops.Bytes(off)); err != nil {
		return nil, err
	}
	out := make([]uint32, off[1]-off[0])
	return out, g.Dst.Download(4*off[0], ops.Bytes(out))
}
