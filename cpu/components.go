package cpu

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
)

var _ engine.ComponentsBackend = (*Backend)(nil)

// NeighborRounds is the number of sampling rounds of Components: each links
// every vertex with one more of its neighbours (Afforest's, and the GPU's
// MG_CC_NEIGHBOR_ROUNDS).
const NeighborRounds = 2

// componentsGrain is the vertices per task of Components' finishing pass,
// which the cores take dynamically (a hub's row must not leave one core
// alone at the end).
const componentsGrain = 1 << 11

// Components finds the connected components of the undirected layout by
// Afforest's hooking and compressing (Sutton, Ben-Nun and Barak, 2018), the
// GPU's mg_cc_hook run on the cores: a lock-free union-find whose roots are
// the smallest layout id of their tree, NeighborRounds rounds linking each
// vertex with one neighbour, compression, then the remaining arcs of the
// vertices outside the component of layout vertex 0 (which is always a
// root: no id is smaller), and a last compression. The result names every
// vertex's component by its smallest original id (a new slice). The
// result counts one iteration (its trace entry has the passes' times as
// phases); Result.Edges is the arcs linked.
func (b *Backend) Components(ctx context.Context, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	var res engine.Result
	l := b.l
	if l.Directed {
		return nil, res, fmt.Errorf("cpu backend: components need an undirected graph")
	}
	n := int(l.NumVertices)
	off, dst := l.SparseOffsets, l.SparseDst
	parent := make([]uint32, n)
	start := time.Now()
	var trace []engine.Phase
	phase := func(name string, t0 time.Time) {
		trace = append(trace, engine.Phase{Name: name, Seconds: time.Since(t0).Seconds()})
	}
	t0 := time.Now()
	par.For(n, b.workers, 1<<15, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			parent[v] = uint32(v)
		}
	})
	var linked atomic.Uint64
	for r := uint64(0); r < NeighborRounds; r++ {
		par.For(n, b.workers, 1<<15, func(lo, hi int) {
			var k uint64
			for v := lo; v < hi; v++ {
				if e := off[v] + r; e < off[v+1] {
					link(parent, uint32(v), dst[e])
					k++
				}
			}
			linked.Add(k)
		})
	}
	compress(parent, b.workers)
	phase("cc-sample", t0)
	if err := ctx.Err(); err != nil {
		return nil, res, err
	}
	t0 = time.Now()
	blocks := (n + componentsGrain - 1) / componentsGrain
	par.Dynamic(blocks, b.workers, 1, func(blk int) {
		lo, hi := blk*componentsGrain, min((blk+1)*componentsGrain, n)
		var k uint64
		for v := lo; v < hi; v++ {
			if atomic.LoadUint32(&parent[v]) == 0 {
				continue // in the component of vertex 0
			}
			for e := off[v] + NeighborRounds; e < off[v+1]; e++ {
				link(parent, uint32(v), dst[e])
				k++
			}
		}
		linked.Add(k)
	})
	phase("cc-finish", t0)
	t0 = time.Now()
	compress(parent, b.workers)
	phase("cc-compress", t0)
	res.Seconds = time.Since(start).Seconds()
	res.Iterations, res.Edges = 1, linked.Load()
	if opts.Trace {
		res.Trace = []engine.IterationTrace{{Mode: "hook", FrontierVertices: l.NumVertices, FrontierEdges: res.Edges,
			Seconds: res.Seconds, Phases: trace}}
	}
	t0 = time.Now()
	out := engine.ComponentsToOriginal(l, parent, b.workers)
	res.CopySeconds = time.Since(t0).Seconds()
	return out, res, nil
}

// link merges the trees of u and v: the higher root is hooked under the
// lower with one compare-and-swap, retried from the new pointers when
// another goroutine hooked first.
func link(parent []uint32, u, v uint32) {
	p1, p2 := atomic.LoadUint32(&parent[u]), atomic.LoadUint32(&parent[v])
	for p1 != p2 {
		high, low := max(p1, p2), min(p1, p2)
		ph := atomic.LoadUint32(&parent[high])
		if ph == low {
			return
		}
		if ph == high && atomic.CompareAndSwapUint32(&parent[high], high, low) {
			return
		}
		p1 = atomic.LoadUint32(&parent[atomic.LoadUint32(&parent[high])])
		p2 = atomic.LoadUint32(&parent[low])
	}
}

// compress points every vertex straight at its root.
func compress(parent []uint32, workers int) {
	par.For(len(parent), workers, 1<<15, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			p := atomic.LoadUint32(&parent[v])
			for {
				pp := atomic.LoadUint32(&parent[p])
				if pp == p {
					break
				}
				p = pp
			}
			atomic.StoreUint32(&parent[v], p)
		}
	})
}
