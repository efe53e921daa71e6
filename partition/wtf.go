package partition

import (
	"context"
	"fmt"
	"slices"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/preprocess"
)

// RunWhoToFollow recommends accounts to user (an original id) over the
// parts as apps.WhoToFollow does on one backend (ties to the smaller
// original id, ref.WhoToFollow's steps):
//
//  1. personalised PageRank from user over the parts
//     (RunPersonalizedPageRank: on the parts' devices with ex and not
//     host, as there, else on the host with workers cores);
//  2. the circle of trust, the CircleSize vertices of highest rank (user
//     and rank 0 left out);
//  3. the circle's out-arcs, gathered from their owners' rows, split by
//     the same owners into parts of their own;
//  4. SALSA's authorities over those parts (RunHITS, on the host: the
//     circle's graph has CircleSize rows, the whole graph's vertices);
//  5. the TopK authorities that user does not follow.
//
// It returns the recommendations and the stats of the personalised
// PageRank and SALSA together.
func RunWhoToFollow(ctx context.Context, parts []*Part, backends []engine.Backend, user uint32, opts apps.WTFOptions, ex Exchanger, host bool, workers int) ([]uint32, Stats, error) {
	var st Stats
	fail := func(err error) ([]uint32, Stats, error) {
		return nil, st, fmt.Errorf("partition: run wtf: %w", err)
	}
	if err := checkParts(parts, backends); err != nil {
		return fail(err)
	}
	n := parts[0].NumVertices
	if uint64(user) >= n {
		return fail(fmt.Errorf("user %d is not a vertex: the graph has %d vertices", user, n))
	}
	pr := RankOptions{Damping: opts.PageRank.Damping, Tolerance: opts.PageRank.Tolerance, MaxIterations: opts.PageRank.MaxIterations}
	ppr, _, pst, err := RunPersonalizedPageRank(ctx, parts, backends, []uint32{user}, pr, ex, host, workers)
	if err != nil {
		return nil, st, err
	}
	circle := ref.TopK(ppr, opts.CircleSize, func(v uint32) bool { return v == user || ppr[v] == 0 })
	// The circle's out-arcs in original ids, from each member's owner, and
	// who owns every vertex (for the circle graph's parts).
	owner := make([]uint32, n)
	for i, pt := range parts {
		for _, g := range pt.Global[:pt.NumLocal] {
			owner[g] = uint32(i)
		}
	}
	rowOf := func(v uint32) []uint32 {
		pt := parts[owner[v]]
		l := backends[owner[v]].Layout()
		local, _ := pt.Local(v)
		lid := l.Perm[local]
		row := l.SparseDst[l.SparseOffsets[lid]:l.SparseOffsets[lid+1]]
		out := make([]uint32, len(row))
		for i, w := range row {
			out[i] = pt.Global[l.InvPerm[w]]
		}
		return out
	}
	bip := &graph.EdgeList{NumVertices: n, Directed: true}
	isAuthority := make([]bool, n)
	slices.Sort(circle)
	for _, u := range circle {
		for _, v := range rowOf(u) {
			bip.Src, bip.Dst = append(bip.Src, u), append(bip.Dst, v)
			isAuthority[v] = true
		}
	}
	bparts, err := Split(ctx, bip, owner, len(parts))
	if err != nil {
		return fail(fmt.Errorf("the circle's graph: %w", err))
	}
	bls, err := BuildLayouts(ctx, bparts, backends[0].Layout().Params, preprocess.Options{Workers: workers})
	if err != nil {
		return fail(fmt.Errorf("the circle's graph: %w", err))
	}
	_, auth, _, sst, err := runHITS(ctx, bparts, bls, true, opts.SALSAIterations, opts.SALSATolerance, workers)
	if err != nil {
		return nil, st, err
	}
	follows := make(map[uint32]bool)
	for _, v := range rowOf(user) {
		follows[v] = true
	}
	rec := ref.TopK(auth, opts.TopK, func(v uint32) bool { return v == user || follows[v] || !isAuthority[v] })
	st = pst
	st.Supersteps += sst.Supersteps
	st.Messages += sst.Messages
	st.Bytes += sst.Bytes
	st.Compute += sst.Compute
	st.Exchange += sst.Exchange
	st.Collect += sst.Collect
	st.Steps = append(st.Steps, sst.Steps...)
	return rec, st, nil
}
