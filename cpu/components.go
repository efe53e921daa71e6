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
// Afforest's hooking and compressing (Sutton, Ben-Nun and Barak, 2018), as
// the GPU's mg_cc_hook does, on the cores: a lock-free union-find in which
// every tree's root is the vertex of the smallest original id in it (so the
// result needs no reduction per component), NeighborRounds rounds linking
// each vertex with one more neighbour, each followed by a compression (as
// Afforest's: a round's links then start from roots, and on a grid a fused
// pass of both rounds stopped scaling with the cores), a sample of the
// roots to find the largest component, then the remaining arcs of the
// vertices outside it. The result names every vertex's component by its
// smallest original id, in a buffer the backend reuses at its next
// Components (as engine.ComponentsBackend allows); the last compression is
// fused into that mapping to the original numbering (Result.CopySeconds).
// The result counts one iteration (its trace entry has the passes' times
// as phases); Result.Edges is the arcs linked.
//
// A union-find entry is its parent's treeRef: the parent's original id and
// layout id in one word, so a link compares two trees' roots by their
// original ids without looking the ids up.
func (b *Backend) Components(ctx context.Context, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	var res engine.Result
	l := b.l
	if l.Directed {
		return nil, res, fmt.Errorf("cpu backend: components need an undirected graph")
	}
	n := int(l.NumVertices)
	off, dst, key := l.SparseOffsets, l.SparseDst, l.InvPerm
	bufs, _ := b.scratch.Take(componentsScratchName).(*componentsScratch)
	if bufs == nil {
		bufs = new(componentsScratch)
	}
	defer b.scratch.Put(componentsScratchName, bufs)
	bufs.tree, bufs.out = engine.Sized(bufs.tree, n), engine.Sized(bufs.out, n)
	// out holds, until the mapping, each vertex's neighbour of the next
	// round, noted by the round before (the vertex itself: none), which
	// then reads it in order instead of from the rows again.
	tree, next := bufs.tree, bufs.out
	start := time.Now()
	var trace []engine.Phase
	phase := func(name string, t0 time.Time) {
		trace = append(trace, engine.Phase{Name: name, Seconds: time.Since(t0).Seconds()})
	}
	t0 := time.Now()
	par.For(n, b.workers, 1<<15, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			tree[v] = treeRef(key, uint32(v))
		}
	})
	var linked atomic.Uint64
	blocks := (n + componentsGrain - 1) / componentsGrain
	for r := range uint64(NeighborRounds) {
		par.Dynamic(blocks, b.workers, 1, func(blk int) {
			lo, hi := blk*componentsGrain, min((blk+1)*componentsGrain, n)
			var k uint64
			for v := lo; v < hi; v++ {
				a, e := off[v]+r, off[v+1]
				w := uint32(v) // none
				switch {
				case r == 1:
					w = next[v]
				case a < e:
					w = dst[a]
				}
				if r == 0 && NeighborRounds > 1 {
					next[v] = uint32(v)
					if a+1 < e {
						next[v] = dst[a+1]
					}
				}
				if w != uint32(v) { // a self-loop links nothing either
					link(tree, uint32(v), w)
					k++
				}
			}
			linked.Add(k)
		})
		compress(tree, b.workers)
	}
	c := frequentRoot(tree)
	phase("cc-sample", t0)
	if err := ctx.Err(); err != nil {
		return nil, res, err
	}
	t0 = time.Now()
	par.Dynamic(blocks, b.workers, 1, func(blk int) {
		lo, hi := blk*componentsGrain, min((blk+1)*componentsGrain, n)
		var k uint64
		for v := lo; v < hi; v++ {
			if atomic.LoadUint64(&tree[v]) == c {
				continue // in the largest component: its arcs link nothing new
			}
			for e := off[v] + NeighborRounds; e < off[v+1]; e++ {
				link(tree, uint32(v), dst[e])
				k++
			}
		}
		linked.Add(k)
	})
	phase("cc-finish", t0)
	res.Seconds = time.Since(start).Seconds()
	res.Iterations, res.Edges = 1, linked.Load()
	t0 = time.Now()
	out := rootsToOriginal(tree, l.Perm, bufs.out, b.workers)
	res.CopySeconds = time.Since(t0).Seconds()
	if opts.Trace {
		trace = append(trace, engine.Phase{Name: "cc-compress", Seconds: res.CopySeconds})
		res.Trace = []engine.IterationTrace{{Mode: "hook", FrontierVertices: l.NumVertices, FrontierEdges: res.Edges,
			Seconds: res.Seconds, Phases: trace}}
	}
	return out, res, nil
}

// componentsScratchName names Components' buffers in the backend's scratch.
const componentsScratchName = "cpu.components"

// componentsScratch is what Components keeps between runs: the union-find
// array and the result, which its caller may hold until the next run (as
// engine.ComponentsBackend allows), so neither is allocated again (see
// engine.Scratch for the cost).
type componentsScratch struct {
	tree []uint64
	out  []uint32
}

// treeRef is layout vertex v as a union-find entry names it: its original id
// key[v] in the high half, v in the low one. Original ids are distinct, so
// refs order as their original ids do.
func treeRef(key []uint32, v uint32) uint64 { return uint64(key[v])<<32 | uint64(v) }

// link merges the trees of u and v: the root of the larger original id is
// hooked under the other with one compare-and-swap, retried from the new
// pointers when another goroutine hooked first. A root is always the vertex
// of the smallest original id in its tree (an entry that refs its own
// vertex).
func link(tree []uint64, u, v uint32) {
	p1, p2 := atomic.LoadUint64(&tree[u]), atomic.LoadUint64(&tree[v])
	for p1 != p2 {
		high, low := max(p1, p2), min(p1, p2)
		ph := atomic.LoadUint64(&tree[uint32(high)])
		if ph == low {
			return
		}
		if ph == high && atomic.CompareAndSwapUint64(&tree[uint32(high)], high, low) {
			return
		}
		p1 = atomic.LoadUint64(&tree[uint32(atomic.LoadUint64(&tree[uint32(high)]))])
		p2 = atomic.LoadUint64(&tree[uint32(low)])
	}
}

// compress points every vertex straight at its root, writing only the
// entries that change (most already point at their root).
func compress(tree []uint64, workers int) {
	par.For(len(tree), workers, 1<<15, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			p0 := atomic.LoadUint64(&tree[v])
			p := p0
			for {
				pp := atomic.LoadUint64(&tree[uint32(p)])
				if pp == p {
					break
				}
				p = pp
			}
			if p != p0 {
				atomic.StoreUint64(&tree[v], p)
			}
		}
	})
}

// frequentRoot returns the most frequent root among componentSamples
// vertices drawn with a fixed seed (Afforest's SampleFrequentElement): the
// root of the largest component, very likely. tree is compressed. Which
// root it returns never changes the result, only the work.
func frequentRoot(tree []uint64) uint64 {
	n := uint64(len(tree))
	if n == 0 {
		return 0
	}
	rng := rand.New(rand.NewPCG(0x6166666f, 0x72657374)) // "afforest"
	counts := make(map[uint64]int, 64)
	best, bestCount := tree[0], 0
	for range componentSamples {
		r := tree[rng.Uint64N(n)]
		counts[r]++
		if c := counts[r]; c > bestCount || (c == bestCount && r < best) {
			best, bestCount = r, c
		}
	}
	return best
}

// rootsToOriginal writes into out (one entry per vertex, any contents
// before) and returns the components in the original numbering: out[old]
// is the original id of the root of old's tree, which is the smallest
// original id of its component. It follows each vertex's pointers to its
// root (the last compression, fused with the mapping).
func rootsToOriginal(tree []uint64, perm, out []uint32, workers int) []uint32 {
	par.For(len(out), workers, 1<<15, func(lo, hi int) {
		for old := lo; old < hi; old++ {
			p := tree[perm[old]]
			for {
				pp := tree[uint32(p)]
				if pp == p {
					break
				}
				p = pp
			}
			out[old] = uint32(p >> 32)
		}
	})
	return out
}
