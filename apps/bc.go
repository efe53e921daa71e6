package apps

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// unvisited is the BC depth of a vertex the forward pass has not reached.
const unvisited = -1

// bcForward counts shortest paths level by level: the frontier is the
// vertices at depth d; an arc offers its source's path count σ; an
// unvisited vertex that is offered paths takes their sum and depth d+1 and,
// when offer is set (the backward pass shares the numbering), its first
// offer to the backward pass, 1/σ (a leaf of the shortest-path DAG keeps
// it: its dependency is 0).
type bcForward struct {
	depth []int32
	offer []float64
	d     int32
	// overflowed is set when a path count overflows float64 to +Inf (the
	// backward pass then settles its lost vertices: bcBackward.settleLost).
	overflowed atomic.Bool
}

func (*bcForward) Edge() engine.EdgeOp       { return engine.EdgeSource }
func (*bcForward) Combine() engine.CombineOp { return engine.CombineSum }
func (*bcForward) ApplyAll() bool            { return false }
func (p *bcForward) BeforeIteration(i int) bool {
	p.d = int32(i)
	return true
}
func (p *bcForward) Apply(v uint32, acc float64, sigma []float64) bool {
	if p.depth[v] != unvisited || acc == 0 {
		return false
	}
	p.depth[v] = p.d + 1
	sigma[v] = acc
	if math.IsInf(acc, 1) {
		p.overflowed.Store(true)
	}
	if p.offer != nil {
		p.offer[v] = 1 / acc
	}
	return true
}

// bcBackward accumulates dependencies one depth at a time, against the
// arcs: the frontier is the vertices w at depth d+1, each offering
// (1 + δ(w)) / σ(w) to its predecessors; a vertex v at depth d sums the
// offers, sets δ(v) = σ(v) · sum, adds δ(v) to its score (result, in the
// original numbering through orig, unless v is the source: the only vertex
// at depth 0) and makes its own offer for the next level up. Its
// dependency lives only in its offer and its score, so no array of
// dependencies is kept or cleared.
type bcBackward struct {
	depth  []int32
	sigma  []float64
	result []float64
	orig   []uint32 // the backward numbering's InvPerm
	d      int32
	// The forward layout's numbering (Perm), rows and depths, for the rare
	// vertex whose σ overflowed to +Inf (settleLost).
	fwdPerm  []uint32
	fwdOff   []uint64
	fwdDst   []uint32
	fwdDepth []int32
}

// settleLost makes the dependency of every vertex of level (depth p.d, bwd
// numbering) whose σ overflowed to +Inf and that has a successor NaN, as
// the reference's σ(v)/σ(w) = +Inf/+Inf terms are: the offers it got from
// its successors, (1+δ)/+Inf, summed to 0 (or NaN, which Apply already
// spread), and σ(v)·0 is not what the reference computes. Its offer to the
// level above becomes NaN too. Run after the level's backward step, only
// when the forward pass overflowed.
func (p *bcBackward) settleLost(level []uint32, offer []float64) {
	for _, v := range level {
		if !math.IsInf(p.sigma[v], 1) || math.IsNaN(offer[v]) {
			continue
		}
		u := p.fwdPerm[p.orig[v]]
		for _, w := range p.fwdDst[p.fwdOff[u]:p.fwdOff[u+1]] {
			if p.fwdDepth[w] == p.d+1 {
				offer[v] = math.NaN()
				if p.d > 0 {
					p.result[p.orig[v]] += math.NaN()
				}
				break
			}
		}
	}
}

func (*bcBackward) Edge() engine.EdgeOp       { return engine.EdgeSource }
func (*bcBackward) Combine() engine.CombineOp { return engine.CombineSum }
func (*bcBackward) ApplyAll() bool            { return false }
func (p *bcBackward) Apply(v uint32, acc float64, offer []float64) bool {
	if p.depth[v] != p.d || acc == 0 {
		return false
	}
	delta := p.sigma[v] * acc
	offer[v] = (1 + delta) / p.sigma[v]
	if p.d > 0 {
		p.result[p.orig[v]] += delta
	}
	return false
}

// bcScratchName names BC's buffers in a backend's scratch.
const bcScratchName = "apps.bc"

// bcScratch is what BC keeps between calls on a backend that keeps scratch
// (engine.ScratchBackend): its per-vertex arrays, which a trial would
// otherwise allocate again (see engine.Scratch for the cost), and its
// result.
type bcScratch struct {
	depth  []int32
	sigma  []float64
	offer  []float64 // in the backward numbering
	depthB []int32   // the backward numbering's (a directed graph's)
	sigmaB []float64
	order  []uint32 // the reached vertices by depth (sortByDepth)
	counts []int
	result []float64
}

// BC computes betweenness centrality (Brandes) from the given sources,
// summed over them, unnormalised, with the conventions of ref.BC (ordered
// pairs: on an undirected graph each pair counts in both directions). The
// forward pass runs on fwd; the backward pass needs the reversed arcs and
// runs on bwd, a backend over the transposed graph (for an undirected graph
// pass fwd again), unless fwd runs Brandes whole on its device
// (engine.BrandesBackend, the GPU), which needs no bwd. Results are in
// original numbering, and may be a buffer the backend reuses: a
// BrandesBackend's as it says, and on a backend that keeps scratch
// (engine.ScratchBackend: the CPU's) one valid until fwd's next BC, which
// reuses it and BC's per-vertex arrays (32 bytes a vertex, 44 on a
// directed graph, kept with the backend) instead of allocating and
// first-touching them again.
//
// In mode async a backend without a device runs BC without levels
// (bcAsync, bcasync.go: worklists over the shortest-path DAG, released by
// atomic counts), with arrays of its own kept the same way; the other
// modes run as follows.
//
// Every per-vertex pass between the engines' runs is parallel: one pass
// resets depth and σ (and, for the first source, the result); the forward
// Apply makes the first offers; a parallel counting sort lists the levels;
// the backward Apply makes the next level's offers and adds the
// dependencies to the result in the original numbering, so nothing is
// mapped at the end.
func BC(ctx context.Context, fwd, bwd engine.Backend, sources []uint32, opts engine.RunOptions) ([]float64, engine.Result, error) {
	var total engine.Result
	if err := refusePull("bc", opts); err != nil {
		return nil, total, err
	}
	lf, lb := fwd.Layout(), bwd.Layout()
	n := lf.NumVertices
	if lb.NumVertices != n || lb.NumArcs != lf.NumArcs {
		return nil, total, fmt.Errorf("bc: the backward graph (%d vertices, %d arcs) is not the transpose of the forward one (%d, %d)",
			lb.NumVertices, lb.NumArcs, n, lf.NumArcs)
	}
	if bb, ok := fwd.(engine.BrandesBackend); ok {
		// The backend runs both passes on its device (the backward pass
		// over out-arcs, so bwd is not used).
		srcs := make([]uint32, len(sources))
		for i, source := range sources {
			s, err := checkSource(lf, source)
			if err != nil {
				return nil, total, err
			}
			srcs[i] = s
		}
		return bb.Brandes(ctx, srcs, opts)
	}
	if lf.Directed && fwd == bwd {
		return nil, total, fmt.Errorf("bc: a directed graph needs a backend over its transpose for the backward pass")
	}
	if opts.Mode == engine.Async {
		// No levels: worklists over the shortest-path DAG (bcasync.go).
		return bcAsync(ctx, fwd, sources, opts)
	}
	forward, err := engine.NewRunner[float64](fwd, opts)
	if err != nil {
		return nil, total, err
	}
	stepOpts := opts
	stepOpts.MaxIterations = 1
	backward, err := engine.NewRunner[float64](bwd, stepOpts)
	if err != nil {
		return nil, total, err
	}
	workers := fwd.Workers()
	scratch := engine.ScratchOf(fwd)
	bufs, _ := scratch.Take(bcScratchName).(*bcScratch)
	if bufs == nil {
		bufs = new(bcScratch)
	}
	defer scratch.Put(bcScratchName, bufs)
	nv := int(n)
	bufs.depth, bufs.sigma = engine.Sized(bufs.depth, nv), engine.Sized(bufs.sigma, nv)
	bufs.offer, bufs.order = engine.Sized(bufs.offer, nv), engine.Sized(bufs.order, nv)
	bufs.result = engine.Sized(bufs.result, nv)
	depth, sigma, offer, result := bufs.depth, bufs.sigma, bufs.offer, bufs.result
	// Backward-pass state, in bwd's numbering.
	depthB, sigmaB, fwdOffer := depth, sigma, offer
	if bwd != fwd {
		bufs.depthB, bufs.sigmaB = engine.Sized(bufs.depthB, nv), engine.Sized(bufs.sigmaB, nv)
		depthB, sigmaB, fwdOffer = bufs.depthB, bufs.sigmaB, nil
	}
	if bcLevelsApply(fwd, bwd, opts) {
		if err := bcByLevels(lf, sources, bufs, workers, &total); err != nil {
			return nil, total, err
		}
		if len(sources) == 0 {
			fill(result, 0, workers)
		}
		return result, total, nil
	}
	fp := &bcForward{depth: depth, offer: fwdOffer}
	bp := &bcBackward{depth: depthB, sigma: sigmaB, result: result, orig: lb.InvPerm,
		fwdPerm: lf.Perm, fwdOff: lf.SparseOffsets, fwdDst: lf.SparseDst, fwdDepth: depth}
	for i, source := range sources {
		s, err := checkSource(lf, source)
		if err != nil {
			return nil, total, err
		}
		resetBC(depth, sigma, result, i == 0, workers)
		depth[s], sigma[s] = 0, 1
		fp.overflowed.Store(false)
		res, err := forward.Run(ctx, fp, sigma, engine.NewFrontierList(n, []uint32{s}))
		if err != nil {
			return nil, total, err
		}
		total.Add(res)
		if bwd != fwd {
			remapBC(lf, lb, depth, sigma, depthB, sigmaB, offer, workers)
		}
		var start []int
		start, bufs.counts = sortByDepth(depthB, res.Iterations+1, bufs.order, bufs.counts, workers)
		for d := len(start) - 3; d >= 0; d-- {
			front := bufs.order[start[d+1]:start[d+2]:start[d+2]]
			bp.d = int32(d)
			res, err := backward.Run(ctx, bp, offer, engine.NewFrontierList(n, front))
			if err != nil {
				return nil, total, err
			}
			total.Add(res)
			if fp.overflowed.Load() {
				bp.settleLost(bufs.order[start[d]:start[d+1]], offer)
			}
		}
	}
	if len(sources) == 0 {
		fill(result, 0, workers)
	}
	return result, total, nil
}

// resetBC readies the forward pass's state for a source, in one parallel
// pass: every vertex unvisited with no paths, and with first (the first
// source) every score 0.
func resetBC(depth []int32, sigma, result []float64, first bool, workers int) {
	par.For(len(depth), workers, 1<<15, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			depth[v], sigma[v] = unvisited, 0
		}
		if first {
			clear(result[lo:hi])
		}
	})
}

// remapBC copies the forward pass's depth and σ from from's numbering to
// to's, and makes the backward pass's first offers (1/σ of every reached
// vertex), in one parallel pass.
func remapBC(from, to *layout.Layout, depth []int32, sigma []float64, depthB []int32, sigmaB, offer []float64, workers int) {
	par.For(len(depth), workers, 1<<15, func(lo, hi int) {
		for old := lo; old < hi; old++ {
			u, v := from.Perm[old], to.Perm[old]
			d, s := depth[u], sigma[u]
			depthB[v], sigmaB[v] = d, s
			if d != unvisited {
				offer[v] = 1 / s
			}
		}
	})
}

// depthSortMinPart is the fewest vertices per part of sortByDepth's
// parallel counting sort.
const depthSortMinPart = 1 << 14

// sortByDepth lists the vertices of each depth 0..levels-1 into order (one
// entry per vertex at least) by a parallel counting sort: contiguous ranges
// of ids count their vertices per depth, a scan places every (depth,
// range) pair, and each range writes its vertices to their places, so a
// level lists its vertices in increasing id, as a serial sort would. It
// returns the levels' bounds, level d being order[start[d]:start[d+1]]
// (trailing empty levels dropped), and the per-range counts' buffer (counts
// reused when large enough). The parts are at most n/levels, so the counts
// never outgrow the vertices (a path's thousands of levels sort serially).
func sortByDepth(depth []int32, levels int, order []uint32, counts []int, workers int) ([]int, []int) {
	n := len(depth)
	levels = max(levels, 0)
	parts := min(par.Workers(workers), n/max(levels, depthSortMinPart))
	chunks := par.Split(n, max(parts, 1))
	if need := len(chunks) * levels; cap(counts) < need {
		counts = make([]int, need)
	} else {
		counts = counts[:need]
	}
	par.ForChunks(chunks, func(c par.Chunk) {
		k := counts[c.Index*levels : (c.Index+1)*levels]
		clear(k)
		for _, d := range depth[c.Lo:c.Hi] {
			if uint32(d) < uint32(levels) { // unvisited (-1) is not
				k[d]++
			}
		}
	})
	start := make([]int, levels+1)
	pos := 0
	for d := range levels {
		start[d] = pos
		for c := range chunks {
			k := counts[c*levels+d]
			counts[c*levels+d] = pos
			pos += k
		}
	}
	start[levels] = pos
	par.ForChunks(chunks, func(c par.Chunk) {
		next := counts[c.Index*levels : (c.Index+1)*levels]
		for i, d := range depth[c.Lo:c.Hi] {
			if uint32(d) < uint32(levels) {
				order[next[d]] = uint32(c.Lo + i)
				next[d]++
			}
		}
	})
	for levels > 0 && start[levels] == start[levels-1] {
		levels--
	}
	return start[:levels+1], counts
}
