package apps

import (
	"context"
	"fmt"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// unvisited is the BC depth of a vertex the forward pass has not reached.
const unvisited = -1

// bcForward counts shortest paths level by level: the frontier is the
// vertices at depth d; an arc offers its source's path count σ; an
// unvisited vertex that is offered paths takes their sum and depth d+1.
type bcForward struct {
	depth []int32
	d     int32
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
	return true
}

// bcBackward accumulates dependencies one depth at a time, against the
// arcs: the frontier is the vertices w at depth d+1, each offering
// (1 + δ(w)) / σ(w) to its predecessors; a vertex v at depth d sums the
// offers and sets δ(v) = σ(v) · sum.
type bcBackward struct {
	depth []int32
	sigma []float64
	delta []float64
	d     int32
}

func (*bcBackward) Edge() engine.EdgeOp       { return engine.EdgeSource }
func (*bcBackward) Combine() engine.CombineOp { return engine.CombineSum }
func (*bcBackward) ApplyAll() bool            { return false }
func (p *bcBackward) Apply(v uint32, acc float64, _ []float64) bool {
	if p.depth[v] == p.d && acc != 0 {
		p.delta[v] = p.sigma[v] * acc
	}
	return false
}

// BC computes betweenness centrality (Brandes) from the given sources,
// summed over them, unnormalised, with the conventions of ref.BC (ordered
// pairs: on an undirected graph each pair counts in both directions). The
// forward pass runs on fwd; the backward pass needs the reversed arcs and
// runs on bwd, a backend over the transposed graph (for an undirected graph
// pass fwd again), unless fwd runs Brandes whole on its device
// (engine.BrandesBackend, the GPU), which needs no bwd. Results are in
// original numbering.
func BC(ctx context.Context, fwd, bwd engine.Backend, sources []uint32, opts engine.RunOptions) ([]float64, engine.Result, error) {
	var total engine.Result
	if _, ok := fwd.(engine.BrandesBackend); !ok && opts.Mode == engine.Async {
		return nil, total, fmt.Errorf("bc: mode async runs on the cuda backend only: %w", engine.ErrNotMonotone)
	}
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
	bc := make([]float64, n) // original numbering
	depth := make([]int32, n)
	sigma := make([]float64, n)
	// Backward-pass state, in bwd's numbering.
	depthB, sigmaB := depth, sigma
	if bwd != fwd {
		depthB, sigmaB = make([]int32, n), make([]float64, n)
	}
	delta := make([]float64, n)
	offer := make([]float64, n)
	for _, source := range sources {
		s, err := checkSource(lf, source)
		if err != nil {
			return nil, total, err
		}
		fill(depth, unvisited, workers)
		fill(sigma, 0, workers)
		depth[s], sigma[s] = 0, 1
		res, err := forward.Run(ctx, &bcForward{depth: depth}, sigma, engine.NewFrontierList(n, []uint32{s}))
		if err != nil {
			return nil, total, err
		}
		total.Add(res)
		if bwd != fwd {
			remap(lf, lb, depth, depthB, workers)
			remap(lf, lb, sigma, sigmaB, workers)
		}
		levels := byDepth(depthB, res.Iterations+1)
		fill(delta, 0, workers)
		p := &bcBackward{depth: depthB, sigma: sigmaB, delta: delta}
		for d := len(levels) - 2; d >= 0; d-- {
			front := levels[d+1]
			for _, w := range front {
				offer[w] = (1 + delta[w]) / sigmaB[w]
			}
			p.d = int32(d)
			res, err := backward.Run(ctx, p, offer, engine.NewFrontierList(n, front))
			if err != nil {
				return nil, total, err
			}
			total.Add(res)
		}
		sb := lb.Perm[source]
		par.For(int(n), workers, 1<<15, func(lo, hi int) {
			for old := lo; old < hi; old++ {
				if v := lb.Perm[old]; v != sb {
					bc[old] += delta[v]
				}
			}
		})
	}
	return bc, total, nil
}

// remap copies a per-vertex array from from's numbering to to's.
func remap[T any](from, to *layout.Layout, src, dst []T, workers int) {
	par.For(len(src), workers, 1<<15, func(lo, hi int) {
		for old := lo; old < hi; old++ {
			dst[to.Perm[old]] = src[from.Perm[old]]
		}
	})
}

// byDepth lists the vertices of each depth 0..levels-1 (counting sort).
func byDepth(depth []int32, levels int) [][]uint32 {
	counts := make([]int, levels)
	for _, d := range depth {
		if d >= 0 && int(d) < levels {
			counts[d]++
		}
	}
	out := make([][]uint32, levels)
	for d := range out {
		out[d] = make([]uint32, 0, counts[d])
	}
	for v, d := range depth {
		if d >= 0 && int(d) < levels {
			out[d] = append(out[d], uint32(v))
		}
	}
	for len(out) > 0 && len(out[len(out)-1]) == 0 {
		out = out[:len(out)-1]
	}
	return out
}
