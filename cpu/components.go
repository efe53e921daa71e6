package cpu

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

var _ engine.ComponentsBackend = (*Backend)(nil)

// NeighborRounds is the number of sampling rounds of Components: each links
// every vertex with one more of its neighbours (Afforest's, and the GPU's
// MG_CC_NEIGHBOR_ROUNDS).
const NeighborRounds = 2

// componentsGrain is the vertices per block of Components' passes over the
// rows, which the cores take as componentBlocks hands them out.
const componentsGrain = 1 << 11

// componentsMinPerWorker is the fewest vertices per core of Components'
// passes over the union-find array alone.
const componentsMinPerWorker = 1 << 15

// componentSamples is the number of vertices whose roots Components samples
// to find the largest component (Afforest's SampleFrequentElement).
const componentSamples = 1024

// componentsScanSerial is how many vertices, in the original numbering,
// Components looks at on one core for the first of the largest component
// before it searches the rest on all cores.
const componentsScanSerial = 1 << 12

// Components finds the connected components of the undirected layout by
// Afforest's hooking and compressing (Sutton, Ben-Nun and Barak, 2018), as
// the GPU's mg_cc_hook does, on the cores: a lock-free union-find over the
// layout's ids in which every tree's root is its smallest id (a root is
// only hooked under a smaller one), NeighborRounds rounds linking each
// vertex with one more neighbour, each followed by a compression (as
// Afforest's: a round's links then start from roots), a sample of the
// roots to find the largest component, then the remaining arcs of the
// vertices outside it. The result names every vertex's component by its
// smallest original id (see componentLabels), in a buffer the backend
// reuses at its next Components (as engine.ComponentsBackend allows); the
// last compression is fused into that mapping to the original numbering
// (Result.CopySeconds). The result counts one iteration (its trace entry
// has the passes' times as phases); Result.Edges is the arcs linked.
//
// The first round needs no compare-and-swap and no pass to initialise the
// union-find (see firstRound): a vertex's first neighbour is its smallest
// (rows are sorted), so linking the two is pointing the vertex at it, or
// at what it already points to, unless the vertex is the smaller. The
// union-find holds 4 bytes a vertex, and the passes over the rows take
// their blocks as componentBlocks hands them out.
func (b *Backend) Components(ctx context.Context, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	var res engine.Result
	l := b.l
	if l.Directed {
		return nil, res, fmt.Errorf("cpu backend: components need an undirected graph")
	}
	n := int(l.NumVertices)
	off, dst := l.SparseOffsets, l.SparseDst
	bufs, _ := b.scratch.Take(componentsScratchName).(*componentsScratch)
	if bufs == nil {
		bufs = new(componentsScratch)
	}
	defer b.scratch.Put(componentsScratchName, bufs)
	bufs.tree, bufs.out = engine.Sized(bufs.tree, n), engine.Sized(bufs.out, n)
	// out holds, until the mapping, each vertex's second neighbour, noted
	// by the first round (the vertex itself: none), which the second then
	// reads in order instead of from the rows again.
	tree, next := bufs.tree, bufs.out
	hubs, _ := lastGroupStart(l)
	blocks := newComponentBlocks(n, hubs, b.workers)
	start := time.Now()
	var trace []engine.Phase
	phase := func(name string, t0 time.Time) {
		trace = append(trace, engine.Phase{Name: name, Seconds: time.Since(t0).Seconds()})
	}
	t0 := time.Now()
	var linked atomic.Uint64
	linked.Store(firstRound(tree, next, off, dst, blocks, bufs))
	compress(tree, b.workers, func(part, parts int) {
		for i := part; i < len(bufs.minima); i += parts {
			for _, v := range bufs.minima[i] {
				link(tree, v, dst[off[v]])
			}
		}
	})
	for r := uint64(1); r < NeighborRounds; r++ {
		blocks.run(func(_, blk int) {
			lo, hi := blocks.bounds(blk)
			var k uint64
			for v := lo; v < hi; v++ {
				w := next[v]
				if r+1 < NeighborRounds {
					next[v] = uint32(v)
					if a := off[v] + r + 1; a < off[v+1] {
						next[v] = dst[a]
					}
				}
				if w != uint32(v) { // none, or a self-loop: links nothing
					link(tree, uint32(v), w)
					k++
				}
			}
			linked.Add(k)
		})
		compress(tree, b.workers, nil)
	}
	c := frequentRoot(tree)
	phase("cc-sample", t0)
	if err := ctx.Err(); err != nil {
		return nil, res, err
	}
	t0 = time.Now()
	blocks.run(func(_, blk int) {
		lo, hi := blocks.bounds(blk)
		var k uint64
		for v := lo; v < hi; v++ {
			if atomic.LoadUint32(&tree[v]) == c {
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
	out := componentLabels(l, tree, c, bufs, b.workers)
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
// engine.Scratch for the cost); the vertices the first round left to link
// (firstRound), one list per worker; and the component minima of the
// general mapping (componentLabels), allocated by the first run that needs
// it.
type componentsScratch struct {
	tree, out, smallest []uint32
	minima              [][]uint32
}

// firstRound is Components' first round, which also initialises the
// union-find tree (any contents before) and notes in next each vertex's
// second neighbour (itself if none). It returns the arcs it links; the
// links of the local minima (below) it leaves in bufs.minima, one list per
// worker, for the compression after it to make.
//
// A vertex's first arc leads to its smallest neighbour u (rows are
// sorted). When u is smaller than the vertex v, v is still a root when
// its arc is linked (only larger roots are hooked under v), so linking the
// two is pointing v at u, or at the entry of u if that is written already:
// an entry of the block being written, or of a block done (so on a grid
// the trees come out nearly flat, and the vertices whose first neighbour
// is a hub, written after the hubs' blocks, point at the hubs' roots). A
// vertex with no smaller neighbour (a local minimum: few) stays a root
// for now; once every entry is written, its first arc is linked as any
// other (link). Every entry of the pass is written once, by its block's
// worker, and read by others only once its block is done, so the pass
// needs no atomics on the tree.
func firstRound(tree, next []uint32, off []uint64, dst []uint32, blocks *componentBlocks, bufs *componentsScratch) uint64 {
	if len(bufs.minima) < blocks.workers {
		bufs.minima = make([][]uint32, blocks.workers)
	}
	for i := range bufs.minima {
		bufs.minima[i] = bufs.minima[i][:0]
	}
	done := make([]atomic.Bool, blocks.count)
	var linked atomic.Uint64
	blocks.run(func(w, blk int) {
		lo, hi := blocks.bounds(blk)
		minima := bufs.minima[w]
		var k uint64
		for v := lo; v < hi; v++ {
			a, e := off[v], off[v+1]
			p, x := uint32(v), uint32(v)
			if a < e {
				u := dst[a]
				if a+1 < e {
					x = dst[a+1]
				}
				switch {
				case u < uint32(v):
					p = u
					if int(u) >= lo || done[int(u)/componentsGrain].Load() {
						p = tree[u]
					}
					k++
				case u > uint32(v):
					minima = append(minima, uint32(v))
				}
			}
			tree[v], next[v] = p, x
		}
		bufs.minima[w] = minima
		done[blk].Store(true)
		linked.Add(k)
	})
	for _, minima := range bufs.minima {
		linked.Add(uint64(len(minima)))
	}
	return linked.Load()
}

// lastGroupStart returns the first vertex of l's last in-degree group
// (the vertices before it have an in-degree of at least the last group
// threshold: the hubs, none on a grid), and false if the layout gives no
// groups.
func lastGroupStart(l *layout.Layout) (int, bool) {
	if g := l.GroupStart; len(g) >= 2 && g[len(g)-1] == l.NumVertices {
		return int(g[len(g)-2]), true
	}
	return 0, false
}

// componentBlocks hands out the blocks of componentsGrain vertices of a
// pass over the rows to its workers: first the hubs' blocks, one at a
// time to whichever worker is free (their rows are far apart in memory
// and cost more per vertex than the rest, and firstRound wants them done
// first), then to each worker the blocks of its own contiguous share of
// the rest, in order; a worker whose share is done takes the second half
// of what is left of another's, as its new share. Contiguous shares keep
// the first round's trees flat (on a grid, a block taken right after its
// predecessor by another worker leaves a chain), and taking halves of the
// others' shares balances the work while keeping them contiguous.
type componentBlocks struct {
	n, count, hubBlocks, workers int
	// share[w] is worker w's share: its next block in the high half and
	// the block after its last one in the low half; share[workers] is the
	// hubs' blocks.
	share []blockShare
}

// blockShare is one share of blocks, padded to its own cache line.
type blockShare struct {
	blocks atomic.Uint64
	_      [56]byte
}

// shareRange packs the blocks [next, end) of a share.
func shareRange(next, end int) uint64 { return uint64(next)<<32 | uint64(end) }

// newComponentBlocks returns the blocks of n vertices of which the first
// hubs are hubs, for up to workers workers.
func newComponentBlocks(n, hubs, workers int) *componentBlocks {
	count := (n + componentsGrain - 1) / componentsGrain
	hubBlocks := min(count, (hubs+componentsGrain-1)/componentsGrain)
	workers = max(1, min(par.Workers(workers), count))
	return &componentBlocks{n: n, count: count, hubBlocks: hubBlocks, workers: workers,
		share: make([]blockShare, workers+1)}
}

// bounds returns the vertices [lo, hi) of block blk.
func (s *componentBlocks) bounds(blk int) (lo, hi int) {
	return blk * componentsGrain, min((blk+1)*componentsGrain, s.n)
}

// run calls fn(w, blk) once for every block, on s.workers goroutines; w,
// in [0, s.workers), is the share fn runs for, which no two calls at once
// have (for per-worker state).
func (s *componentBlocks) run(fn func(w, blk int)) {
	if s.count == 0 {
		return
	}
	rest := s.count - s.hubBlocks
	for w := range s.workers {
		s.share[w].blocks.Store(shareRange(s.hubBlocks+w*rest/s.workers, s.hubBlocks+(w+1)*rest/s.workers))
	}
	hubs := &s.share[s.workers].blocks
	hubs.Store(0)
	par.Each(s.workers, s.workers, func(_, w int) {
		for {
			blk := int(hubs.Add(1) - 1)
			if blk >= s.hubBlocks {
				break
			}
			fn(w, blk)
		}
		own := &s.share[w].blocks
		for {
			for {
				x := own.Load()
				next, end := int(x>>32), int(uint32(x))
				if next >= end {
					break
				}
				if own.CompareAndSwap(x, shareRange(next+1, end)) {
					fn(w, next)
				}
			}
			if !s.steal(w) {
				return
			}
		}
	})
}

// steal moves the second half of what is left of another worker's share
// (all of it if one block) into worker w's empty share, and reports
// whether there was any.
func (s *componentBlocks) steal(w int) bool {
	for i := 1; i < s.workers; i++ {
		victim := &s.share[(w+i)%s.workers].blocks
		for {
			x := victim.Load()
			next, end := int(x>>32), int(uint32(x))
			if next >= end {
				break
			}
			mid := next + (end-next)/2
			if victim.CompareAndSwap(x, shareRange(next, mid)) {
				s.share[w].blocks.Store(shareRange(mid, end))
				return true
			}
		}
	}
	return false
}

// link merges the trees of u and v: the root of the larger id is hooked
// under the other with one compare-and-swap, retried from the new pointers
// when another goroutine hooked first. A root is always the smallest id
// of its tree (an entry that names its own vertex).
func link(tree []uint32, u, v uint32) {
	p1, p2 := atomic.LoadUint32(&tree[u]), atomic.LoadUint32(&tree[v])
	for p1 != p2 {
		high, low := max(p1, p2), min(p1, p2)
		ph := atomic.LoadUint32(&tree[high])
		if ph == low {
			return
		}
		if ph == high && atomic.CompareAndSwapUint32(&tree[high], high, low) {
			return
		}
		p1 = atomic.LoadUint32(&tree[atomic.LoadUint32(&tree[high])])
		p2 = atomic.LoadUint32(&tree[low])
	}
}

// find returns the root of v's tree.
func find(tree []uint32, v uint32) uint32 {
	p := atomic.LoadUint32(&tree[v])
	for {
		pp := atomic.LoadUint32(&tree[p])
		if pp == p {
			return p
		}
		p = pp
	}
}

// compress points every vertex straight at its root, writing only the
// entries that change (most already point at their root), and halves the
// paths it walks on the way (each entry passed is pointed at its
// grandparent, as the GPU's finds do), so that later walks through them
// are shorter. Every write names a proper ancestor of the entry's vertex,
// never a root's entry, so links may run at the same time: each of the
// parts of the pass first calls before(part, parts), unless before is nil
// (firstRound's links, which then need no pass of their own). A tree
// hooked while the pass runs may be left a level deeper.
func compress(tree []uint32, workers int, before func(part, parts int)) {
	parts := par.Split(len(tree), max(1, min(par.Workers(workers), len(tree)/componentsMinPerWorker)))
	par.ForChunks(parts, func(c par.Chunk) {
		if before != nil {
			before(c.Index, len(parts))
		}
		for v := c.Lo; v < c.Hi; v++ {
			p0 := atomic.LoadUint32(&tree[v])
			x := p0
			for {
				px := atomic.LoadUint32(&tree[x])
				if px == x {
					break
				}
				gx := atomic.LoadUint32(&tree[px])
				if gx != px {
					storeRelaxed(&tree[x], gx)
				}
				x = gx
			}
			if x != p0 {
				storeRelaxed(&tree[v], x)
			}
		}
	})
}

// storeRelaxed stores x at p without the fence of atomic.StoreUint32 (an
// XCHG on amd64, which cost compress most of its time on a grid, where
// most entries change). It is for compress's writes of an ancestor over
// the entry of a vertex that is not a root: readers racing with it see
// the old ancestor or the new one, both correct for them, as Afforest's
// own compression (plain stores) relies on, and an aligned word is never
// torn. The race detector is told to ignore it (go:norace): the race is
// the algorithm's.
//
//go:norace
func storeRelaxed(p *uint32, x uint32) { *p = x }

// frequentRoot returns the most frequent root among componentSamples
// vertices drawn with a fixed seed (Afforest's SampleFrequentElement): the
// root of the largest component, very likely. tree is compressed. Which
// root it returns never changes the result, only the work.
func frequentRoot(tree []uint32) uint32 {
	n := uint64(len(tree))
	if n == 0 {
		return 0
	}
	rng := rand.New(rand.NewPCG(0x6166666f, 0x72657374)) // "afforest"
	counts := make(map[uint32]int, 64)
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

// componentLabels writes into bufs.out and returns the components in the
// original numbering: out[old] is the smallest original id of old's
// component. tree is the finished union-find, c a vertex of the largest
// component.
//
// The smallest layout id of a component, its root, is the first of its
// vertices in the first in-degree group it meets; inside a group the
// layout keeps the original order, so the root of a component that lies
// in the last group (the low in-degree one, which holds most vertices)
// is also its smallest original id. The largest component's smallest
// original id is the first vertex, in the original numbering, whose root
// is its root (found by a scan that mostly stops at once). One pass in
// layout order then labels every vertex, following its pointers to its
// root. A component with a root in an earlier group, other than the
// largest one (a second component with a hub: rare), has its minimum
// found by the general mapping instead, engine.ComponentsToOriginalInto,
// over the compressed tree.
func componentLabels(l *layout.Layout, tree []uint32, c uint32, bufs *componentsScratch, workers int) []uint32 {
	n := len(tree)
	out, key := bufs.out, l.InvPerm
	if n == 0 {
		return out
	}
	rc := find(tree, c)
	last, ok := lastGroupStart(l) // roots below last may name components with a smaller original id elsewhere
	if !ok {
		last = n
	}
	first := firstInComponent(tree, l.Perm, rc, workers)
	var other atomic.Bool
	par.For(n, workers, componentsMinPerWorker, func(lo, hi int) {
		for v := lo; v < min(hi, last); v++ {
			if r := atomic.LoadUint32(&tree[v]); r == uint32(v) && r != rc {
				other.Store(true)
			}
		}
		for v := lo; v < hi; v++ {
			r := atomic.LoadUint32(&tree[v])
			for {
				p := atomic.LoadUint32(&tree[r])
				if p == r {
					break
				}
				r = p
			}
			// key[r] is key[v] for a root, and one entry for every vertex
			// of the largest component, whose label is first instead.
			label := key[r]
			if r == rc {
				label = first
			}
			out[key[v]] = label
		}
	})
	if !other.Load() {
		return out
	}
	compress(tree, workers, nil)
	bufs.smallest = engine.Sized(bufs.smallest, n)
	return engine.ComponentsToOriginalInto(l, tree, bufs.smallest, out, workers)
}

// firstInComponent returns the first vertex, in the original numbering,
// whose root is rc (a root, so one is): componentsScanSerial vertices on
// one core, then, if none of them is, the rest on all cores.
func firstInComponent(tree, perm []uint32, rc uint32, workers int) uint32 {
	n := len(perm)
	head := min(n, componentsScanSerial)
	for old := range head {
		if find(tree, perm[old]) == rc {
			return uint32(old)
		}
	}
	first := uint32(math.MaxUint32)
	par.For(n-head, workers, componentsMinPerWorker, func(lo, hi int) {
		for old := head + lo; old < head+hi && uint32(old) < atomic.LoadUint32(&first); old++ {
			if find(tree, perm[old]) == rc {
				engine.AtomicMin(&first, uint32(old))
				return
			}
		}
	})
	return first
}
