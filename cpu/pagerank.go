package cpu

import (
	"context"
	"math"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
)

var _ engine.PageRankPuller = (*Backend)(nil)

// PullPageRankDegree is the mean degree (arcs per vertex) below which the
// CPU backend runs PageRank as a pull over the in-arcs rather than through
// the dense engine. A low-degree graph's heavy blocks hold few arcs per
// entry of their frontier matrices, which the dense step scans whole: on
// the 2048 grid (3.6 arcs a vertex), 2 threads, the pull took 265 ms
// against the dense engine's 605 ms (GAPBS, also a pull over CSR rows: 5×
// faster than the dense engine at 16 threads). R-MAT (30 arcs a vertex)
// keeps the dense engine, 1.6× GAPBS at 16 threads on R-MAT 22.
const PullPageRankDegree = 8

// pullRankChunks is the number of chunks per worker of a pull iteration
// (the in-rows' lengths vary: the hubs come first).
const pullRankChunks = 16

// prPullScratchName names PullPageRank's buffers in the backend's scratch.
const prPullScratchName = "cpu.pagerank-pull"

// prPullScratch is PullPageRank's work: ranks, shares and next shares.
type prPullScratch struct {
	rank, share, next, out []float64
}

// PullPageRank implements engine.PageRankPuller: in mode pull, and on a
// layout of fewer than PullPageRankDegree arcs per vertex in modes hybrid
// and auto, each
// iteration is one parallel pass over the vertices that sums each one's
// in-neighbours' shares (from the last iteration), makes its new rank and
// share and adds |Δr| and the dangling rank per chunk — no atomics, the
// shares double-buffered. The stopping rule is apps.PageRank's. The result
// is a buffer the backend reuses (valid until its next PullPageRank).
func (b *Backend) PullPageRank(ctx context.Context, p engine.PageRankParams, opts engine.RunOptions) ([]float64, engine.Result, bool, error) {
	var res engine.Result
	l := b.l
	n := int(l.NumVertices)
	lowDegree := l.NumArcs < PullPageRankDegree*l.NumVertices && (opts.Mode == engine.Hybrid || opts.Mode == engine.Auto)
	if n == 0 || !(lowDegree || opts.Mode == engine.Pull) {
		return nil, res, false, nil
	}
	start := time.Now()
	in := b.In()
	bufs, _ := b.scratch.Take(prPullScratchName).(*prPullScratch)
	if bufs == nil {
		bufs = new(prPullScratch)
	}
	defer b.scratch.Put(prPullScratchName, bufs)
	bufs.rank, bufs.share = engine.Sized(bufs.rank, n), engine.Sized(bufs.share, n)
	bufs.next, bufs.out = engine.Sized(bufs.next, n), engine.Sized(bufs.out, n)
	rank, share, next := bufs.rank, bufs.share, bufs.next
	chunks := par.Split(n, pullRankChunks*par.Workers(b.workers))
	change, dangling := make([]float64, len(chunks)), make([]float64, len(chunks))
	off := l.SparseOffsets
	r0 := 1 / float64(n)
	par.ForChunks(chunks, func(c par.Chunk) {
		var dg float64
		for v := c.Lo; v < c.Hi; v++ {
			rank[v] = r0
			share[v] = 0
			if d := off[v+1] - off[v]; d > 0 {
				share[v] = r0 / float64(d)
			} else {
				dg += r0
			}
		}
		dangling[c.Index] = dg
	})
	D := sumOf(dangling)
	maxIter := p.MaxIterations // 0: no iteration, the initial ranks (apps.PageRank's rule)
	if opts.MaxIterations > 0 {
		maxIter = min(maxIter, opts.MaxIterations)
	}
	d, nf := p.Damping, float64(n)
	for it := 0; it < maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, res, true, err
		}
		iterStart := time.Now()
		base := (1-d)/nf + d*D/nf
		par.ForChunks(chunks, func(c par.Chunk) {
			var cs, dg float64
			ioff, src := in.Offsets, in.Src
			for v := c.Lo; v < c.Hi; v++ {
				var s float64
				for _, u := range src[ioff[v]:ioff[v+1]] {
					s += share[u]
				}
				nr := base + d*s
				cs += math.Abs(nr - rank[v])
				rank[v] = nr
				if deg := off[v+1] - off[v]; deg > 0 {
					next[v] = nr / float64(deg)
				} else {
					next[v] = 0
					dg += nr
				}
			}
			change[c.Index], dangling[c.Index] = cs, dg
		})
		share, next = next, share
		D = sumOf(dangling)
		res.Iterations++
		res.Edges += l.NumArcs
		if opts.Trace {
			secs := time.Since(iterStart).Seconds()
			res.Trace = append(res.Trace, engine.IterationTrace{Iteration: it, Mode: "pull", FrontierVertices: uint64(n),
				FrontierEdges: l.NumArcs, Phases: []engine.Phase{{Name: "pull", Seconds: secs}}, Seconds: secs})
		}
		if sumOf(change) < p.Tolerance {
			break
		}
	}
	bufs.share, bufs.next = share, next
	res.Seconds = time.Since(start).Seconds()
	copyStart := time.Now()
	out := engine.ToOriginalInto(l, rank, bufs.out, b.workers)
	res.CopySeconds = time.Since(copyStart).Seconds()
	return out, res, true, nil
}

// sumOf adds x in order.
func sumOf(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s
}
