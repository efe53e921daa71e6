package cpu

import (
	"context"
	"fmt"
	"math/rand/v2"
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

// componentsGrain is the vertices per task of Components' passes over the
// rows, which the cores take dynamically: the rows of the hubs, at the start
// of the numbering, are far apart in memory and cost more per vertex than
// the rest, and a hub's row must not leave one core alone at the end.
const componentsGrain = 1 << 11

// componentSamples is the number of vertices whose roots Components samples
// to find the largest component (Afforest's SampleFrequentElement).
const componentSamples = 1024

// Components finds the connected components of the undirected layout by
// Afforest's hooking and compressing (Sutton, Ben-Nun and Barak, 2018), the
// GPU's mg_cc_hook run on the cores: a lock-free union-find in which every
// tree's root is the vertex of the smallest original id in it (so the
// result needs no reduction per component), NeighborRounds rounds linking
// each vertex with one neighbour (fused into one pass over the rows: their
// first arcs share a cache line), compression, a sample of the roots to
// find the largest component, then the remaining arcs of the vertices
// outside it. The result names every vertex's component by its smallest
// original id (a new slice); the last compression is fused into that
// mapping to the original numbering (Result.CopySeconds). The result
// counts one iteration (its trace entry has the passes' times as phases);
// Result.Edges is the arcs linked.
func (b *Backend) Components(ctx context.Context, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	var res engine.Result
	l := b.l
	if l.Directed {
		return nil, res, fmt.Errorf("cpu backend: components need an undirected graph")
	}
	n := int(l.NumVertices)
	off, dst, key := l.SparseOffsets, l.SparseDst, l.InvPerm
	parent := b.takeParents(n)
	defer b.putParents(parent)
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
	blocks := (n + componentsGrain - 1) / componentsGrain
	par.Dynamic(blocks, b.workers, 1, func(blk int) {
		lo, hi := blk*componentsGrain, min((blk+1)*componentsGrain, n)
		var k uint64
		for v := lo; v < hi; v++ {
			a, e := off[v], off[v+1]
			for r := uint64(0); r < NeighborRounds && a+r < e; r++ {
				link(parent, key, uint32(v), dst[a+r])
				k++
			}
		}
		linked.Add(k)
	})
	compress(parent, b.workers)
	c := frequentRoot(parent)
	phase("cc-sample", t0)
	if err := ctx.Err(); err != nil {
		return nil, res, err
	}
	t0 = time.Now()
	par.Dynamic(blocks, b.workers, 1, func(blk int) {
		lo, hi := blk*componentsGrain, min((blk+1)*componentsGrain, n)
		var k uint64
		for v := lo; v < hi; v++ {
			if atomic.LoadUint32(&parent[v]) == c {
				continue // in the largest component: its arcs link nothing new
			}
			for e := off[v] + NeighborRounds; e < off[v+1]; e++ {
				link(parent, key, uint32(v), dst[e])
				k++
			}
		}
		linked.Add(k)
	})
	phase("cc-finish", t0)
	res.Seconds = time.Since(start).Seconds()
	res.Iterations, res.Edges = 1, linked.Load()
	t0 = time.Now()
	out := rootsToOriginal(parent, l.Perm, key, b.workers)
	res.CopySeconds = time.Since(t0).Seconds()
	if opts.Trace {
		trace = append(trace, engine.Phase{Name: "cc-compress", Seconds: res.CopySeconds})
		res.Trace = []engine.IterationTrace{{Mode: "hook", FrontierVertices: l.NumVertices, FrontierEdges: res.Edges,
			Seconds: res.Seconds, Phases: trace}}
	}
	return out, res, nil
}

// takeParents returns a union-find array of n entries (any contents) from
// the backend's idle ones, or a new one; putParents gives it back.
func (b *Backend) takeParents(n int) []uint32 {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, p := range b.parents {
		if len(p) == n {
			b.parents = append(b.parents[:i], b.parents[i+1:]...)
			return p
		}
	}
	return make([]uint32, n)
}

func (b *Backend) putParents(p []uint32) {
	b.mu.Lock()
	b.parents = append(b.parents, p)
	b.mu.Unlock()
}

// link merges the trees of u and v: the root of the larger key is hooked
// under the other with one compare-and-swap, retried from the new pointers
// when another goroutine hooked first. Keys are distinct (the vertices'
// original ids), so a root is always the vertex of the smallest key in its
// tree.
func link(parent, key []uint32, u, v uint32) {
	p1, p2 := atomic.LoadUint32(&parent[u]), atomic.LoadUint32(&parent[v])
	for p1 != p2 {
		high, low := p1, p2
		if key[p1] < key[p2] {
			high, low = p2, p1
		}
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

// compress points every vertex straight at its root, writing only the
// entries that change (most already point at their root).
func compress(parent []uint32, workers int) {
	par.For(len(parent), workers, 1<<15, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			p0 := atomic.LoadUint32(&parent[v])
			p := p0
			for {
				pp := atomic.LoadUint32(&parent[p])
				if pp == p {
					break
				}
				p = pp
			}
			if p != p0 {
				atomic.StoreUint32(&parent[v], p)
			}
		}
	})
}

// frequentRoot returns the most frequent root among componentSamples
// vertices drawn with a fixed seed (Afforest's SampleFrequentElement): the
// root of the largest component, very likely. parent is compressed. Which
// root it returns never changes the result, only the work.
func frequentRoot(parent []uint32) uint32 {
	n := uint64(len(parent))
	if n == 0 {
		return 0
	}
	rng := rand.New(rand.NewPCG(0x6166666f, 0x72657374)) // "afforest"
	counts := make(map[uint32]int, 64)
	best, bestCount := parent[0], 0
	for range componentSamples {
		r := parent[rng.Uint64N(n)]
		counts[r]++
		if c := counts[r]; c > bestCount || (c == bestCount && r < best) {
			best, bestCount = r, c
		}
	}
	return best
}

// rootsToOriginal returns the components in the original numbering:
// result[old] is the key (original id) of the root of old's tree, which is
// the smallest original id of its component. It follows each vertex's
// pointers to its root (the last compression, fused with the mapping).
func rootsToOriginal(parent, perm, key []uint32, workers int) []uint32 {
	out := make([]uint32, len(parent))
	par.For(len(out), workers, 1<<15, func(lo, hi int) {
		for old := lo; old < hi; old++ {
			p := parent[perm[old]]
			for {
				pp := parent[p]
				if pp == p {
					break
				}
				p = pp
			}
			out[old] = key[p]
		}
	})
	return out
}
