package partition

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

const (
	// bcUnvisited is the level of a vertex the forward pass has not reached.
	bcUnvisited = ^uint32(0)
	// BCForwardMessageBytes is one forward message on the wire: a ghost the
	// sender reached (its id in its owner) and the sender's sum of the
	// path counts σ of its predecessors (a float64).
	BCForwardMessageBytes = 12
	// BCBackwardMessageBytes is one backward message: a ghost's offer
	// (1+δ)/σ, read from its owner (a float64; the reader knows the id).
	BCBackwardMessageBytes = 8
	// bcChunksPerWorker cuts a part's per-level loops into more chunks than
	// workers, so that a chunk of hubs does not hold up the level.
	bcChunksPerWorker = 4
	// bcMinPerChunk is the fewest vertices a chunk of a per-level loop gets
	// (small levels run on fewer goroutines, the smallest on the caller's).
	bcMinPerChunk = 256
)

// RunBC computes betweenness centrality by Brandes' algorithm over parts,
// on the host, with the conventions of apps.BC and ref.BC: unnormalised,
// summed over sources (a source listed k times counts k times), paths
// following the arcs (ordered pairs on an undirected graph), weights
// ignored. It returns every vertex's score at its original id and the
// run's Stats: one superstep per level of every source's forward pass
// (the last finds no new vertex) and per level of its backward pass.
//
// Every part runs on the host over its backend's layout (backends[i] must
// be built from parts[i].EL; no device runs BC over parts yet), with
// workers goroutines each (0: all cores), and the parts exchange in
// memory, reading each other's arrays between barriers. Per source:
//
//   - forward, level d = 1, 2, …: every part pushes from its owned
//     vertices at level d−1 along its arcs and claims the unreached
//     destinations for level d; then sums, for each vertex it claimed
//     (owned or ghost), the path counts σ of its in-neighbours in the part
//     at level d−1 (over the part's in-rows, in a fixed order). After a
//     barrier each owner reads the ghosts the other parts claimed that it
//     owns (each part's claims are sorted by ghost, so the owner's are one
//     segment): a vertex still unreached takes level d, and one at level d
//     adds the sender's σ sum (the parts in index order: the sums do not
//     depend on scheduling). An all-reduce of the new vertices' count ends
//     the pass when no part reached one.
//   - backward, level d = D … 1 (D the deepest): every part copies the
//     offers (1+δ(w))/σ(w) of its ghosts w at level d+1 from their owners,
//     then computes, for its owned vertices v at level d,
//     δ(v) = σ(v)·Σ offer(w) over its arcs v→w with w at level d+1, sets
//     offer(v) and adds δ(v) to v's score; a barrier ends the level.
//
// A part claims a ghost at the first level it reaches it, which may be
// later than the ghost's level at its owner: the owner ignores a σ sum for
// another level (those arcs are on no shortest path), and between the
// passes each part unmarks the ghosts it claimed late, so its levels are
// exact for the backward pass.
//
// RunBC fails on inconsistent parts and backends, a source that is not a
// vertex, and when ctx is cancelled (every part then stops at its next
// barrier).
func RunBC(ctx context.Context, parts []*Part, backends []engine.Backend, sources []uint32, workers int) ([]float64, Stats, error) {
	var st Stats
	fail := func(err error) ([]float64, Stats, error) {
		return nil, st, fmt.Errorf("partition: run bc: %w", err)
	}
	if err := checkParts(parts, backends); err != nil {
		return fail(err)
	}
	if workers < 0 {
		return fail(fmt.Errorf("negative worker count %d", workers))
	}
	n := parts[0].NumVertices
	type place struct {
		part int
		lid  uint32 // part-local id
	}
	srcs := make([]place, len(sources))
	for i, s := range sources {
		if uint64(s) >= n {
			return fail(fmt.Errorf("source %d is not a vertex: the graph has %d vertices", s, n))
		}
		srcs[i].part = -1
		for p, pt := range parts {
			if l, ok := pt.Local(s); ok {
				srcs[i] = place{part: p, lid: l}
				break
			}
		}
		if srcs[i].part < 0 {
			return fail(fmt.Errorf("no part owns source %d", s))
		}
	}
	for i, b := range backends {
		l := b.Layout()
		if uint64(len(l.Perm)) != l.NumVertices || uint64(len(l.InvPerm)) != l.NumVertices {
			return fail(fmt.Errorf("part %d: a layout of %d vertices with %d and %d permutation entries", i, l.NumVertices, len(l.Perm), len(l.InvPerm)))
		}
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	st.Converged = true
	result := make([]float64, n)
	if n == 0 || len(sources) == 0 {
		return result, st, nil
	}

	hs := make([]*hostBC, len(parts))
	bar := NewBarrier(len(parts))
	for i, pt := range parts {
		hs[i] = &hostBC{pt: pt, b: backends[i], l: backends[i].Layout(), all: hs, bar: bar,
			workers: par.Workers(workers), result: result, w: &worker{rank: i}}
	}
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	for i, h := range hs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			h.setup()
			h.w.setup = time.Since(start)
			for k, s := range srcs {
				src := bcUnvisited
				if s.part == i {
					src = h.l.Perm[s.lid]
				}
				if err := h.source(runCtx, src); err != nil {
					h.w.err = fmt.Errorf("part %d: source %d (%d of %d): %w", i, sources[k], k+1, len(sources), err)
					cancel(h.w.err)
					return
				}
			}
			h.w.done = true
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	if cause := context.Cause(runCtx); cause != nil && !errors.Is(cause, context.Canceled) {
		return fail(cause)
	}
	ws := make([]*worker, len(hs))
	for i, h := range hs {
		if h.w.err != nil {
			return fail(h.w.err)
		}
		ws[i] = h.w
	}
	st = mergeStats(ws)
	st.Bytes = 0
	for s := range st.Steps {
		per := uint64(BCForwardMessageBytes)
		if hs[0].back[s] {
			per = BCBackwardMessageBytes
		}
		st.Steps[s].Bytes = st.Steps[s].Messages * per
		st.Bytes += st.Steps[s].Bytes
	}
	return result, st, nil
}

// hostBC is one part's side of a RunBC, over its backend's layout (layout
// numbering): the levels, path counts and offers of the part's vertices
// (ghosts included: a ghost's σ slot holds the part's sum for it, its
// level the level at which the part claimed it), the owned vertices in
// level order, and the ghosts claimed in the current forward step.
type hostBC struct {
	pt      *Part
	b       engine.Backend
	l       *layout.Layout
	in      *layout.InArcs
	all     []*hostBC
	bar     *Barrier
	workers int
	result  []float64 // the run's, shared by the parts (disjoint ids)
	w       *worker   // this part's steps, for Stats
	back    []bool    // whether each of w.steps is a backward step

	level []uint32
	sigma []float64
	offer []float64
	// ghostLid and ownerLid are ghost g's layout id here and in its owner.
	ghostLid, ownerLid []uint32
	// order holds the owned vertices reached, by level: level d is
	// order[starts[d]:starts[d+1]].
	order  []uint32
	starts []int
	// claimed are the ghosts (indices) this part claimed in the current
	// forward step, sorted (so by owner): the tail of allClaimed, which
	// holds every step's, step d's at allClaimed[claimStarts[d]:claimStarts[d+1]]
	// (after the forward pass only those whose level is d at their owner).
	claimed     []uint32
	allClaimed  []uint32
	claimStarts []int
	// Per-chunk buffers of the forward push.
	nextBuf, claimBuf [][]uint32
	count             uint64 // new vertices of the step, posted for the others
}

// setup takes the part's arrays and tables for the run.
func (h *hostBC) setup() {
	pt, l := h.pt, h.l
	nv := int(l.NumVertices)
	h.in = inArcsOf(h.b, h.workers)
	h.level, h.sigma, h.offer = make([]uint32, nv), make([]float64, nv), make([]float64, nv)
	h.ghostLid, h.ownerLid = make([]uint32, pt.NumGhosts), make([]uint32, pt.NumGhosts)
	for g := range h.ghostLid {
		h.ghostLid[g] = l.Perm[pt.NumLocal+uint64(g)]
		h.ownerLid[g] = h.all[pt.GhostOwner[g]].l.Perm[pt.GhostRemote[g]]
	}
	h.order = make([]uint32, 0, pt.NumLocal)
	chunks := bcChunksPerWorker * h.workers
	h.nextBuf, h.claimBuf = make([][]uint32, chunks), make([][]uint32, chunks)
}

// chunks cuts a per-level loop over k vertices.
func (h *hostBC) chunks(k int) []par.Chunk {
	return par.Split(k, min(bcChunksPerWorker*h.workers, max(1, k/bcMinPerChunk)))
}

// source runs one source's forward and backward passes and adds its
// dependencies to the result; src is the source's layout id when this
// part owns it, else bcUnvisited. Every part calls it for every source.
func (h *hostBC) source(ctx context.Context, src uint32) error {
	par.For(len(h.level), h.workers, 1<<15, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			h.level[i] = bcUnvisited
		}
	})
	h.order, h.starts = h.order[:0], append(h.starts[:0], 0)
	h.allClaimed, h.claimStarts = h.allClaimed[:0], append(h.claimStarts[:0], 0, 0) // level 0: none
	if src != bcUnvisited {
		h.level[src], h.sigma[src] = 0, 1
		h.order = append(h.order, src)
	}
	h.starts = append(h.starts, len(h.order))
	depth := 0
	for d := uint32(1); ; d++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		more, err := h.forward(ctx, d)
		if err != nil {
			return fmt.Errorf("forward level %d: %w", d, err)
		}
		if !more {
			depth = int(d) - 1
			break
		}
	}
	h.keepTrueClaims()
	for d := depth; d >= 1; d-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		sent := h.backward(uint32(d))
		compute := time.Since(start)
		// The barrier makes level d's offers final for the next level up,
		// and, after level 1, keeps every part's levels until all have
		// read them (the next source resets them).
		if err := h.bar.Wait(ctx); err != nil {
			return fmt.Errorf("backward level %d: %w", d, err)
		}
		h.w.steps = append(h.w.steps, rankStep{active: uint64(h.starts[d+1] - h.starts[d]), sent: sent, compute: compute,
			wall: time.Since(start)})
		h.back = append(h.back, true)
	}
	return nil
}

// forward is forward step d, collective: it claims and counts level d and
// reports whether any part reached a vertex.
func (h *hostBC) forward(ctx context.Context, d uint32) (bool, error) {
	pt, l := h.pt, h.l
	nl := uint32(pt.NumLocal)
	inv, off, dst := l.InvPerm, l.SparseOffsets, l.SparseDst
	start := time.Now()
	frontier := h.order[h.starts[d-1]:h.starts[d]]
	chunks := h.chunks(len(frontier))
	par.ForChunks(chunks, func(c par.Chunk) {
		next, claim := h.nextBuf[c.Index][:0], h.claimBuf[c.Index][:0]
		for _, u := range frontier[c.Lo:c.Hi] {
			for _, v := range dst[off[u]:off[u+1]] {
				if atomic.LoadUint32(&h.level[v]) != bcUnvisited || !atomic.CompareAndSwapUint32(&h.level[v], bcUnvisited, d) {
					continue
				}
				if id := inv[v]; id < nl {
					next = append(next, v)
				} else {
					claim = append(claim, id-nl)
				}
			}
		}
		h.nextBuf[c.Index], h.claimBuf[c.Index] = next, claim
	})
	first := len(h.allClaimed)
	for _, c := range chunks {
		h.order = append(h.order, h.nextBuf[c.Index]...)
		h.allClaimed = append(h.allClaimed, h.claimBuf[c.Index]...)
	}
	h.claimed = h.allClaimed[first:]
	slices.Sort(h.claimed)
	// σ of what this part reached: its in-neighbours at level d−1 (all
	// owned: the part holds the arcs out of its own vertices).
	mine := h.order[h.starts[d]:]
	k := len(mine) + len(h.claimed)
	par.ForChunks(h.chunks(k), func(c par.Chunk) {
		for i := c.Lo; i < c.Hi; i++ {
			var v uint32
			if i < len(mine) {
				v = mine[i]
			} else {
				v = h.ghostLid[h.claimed[i-len(mine)]]
			}
			var s float64
			for _, u := range h.in.Src[h.in.Offsets[v]:h.in.Offsets[v+1]] {
				if h.level[u] == d-1 {
					s += h.sigma[u]
				}
			}
			h.sigma[v] = s
		}
	})
	compute := time.Since(start)
	if err := h.bar.Wait(ctx); err != nil {
		return false, err
	}
	// The other parts' claims of this part's vertices, in part order.
	perm := l.Perm
	for _, o := range h.all {
		if o == h {
			continue
		}
		lo, hi := o.pt.GhostRange(pt.Index)
		a, _ := slices.BinarySearch(o.claimed, uint32(lo))
		b, _ := slices.BinarySearch(o.claimed, uint32(hi))
		for _, g := range o.claimed[a:b] {
			v := perm[o.pt.GhostRemote[g]]
			s := o.sigma[o.ghostLid[g]]
			switch h.level[v] {
			case bcUnvisited:
				h.level[v], h.sigma[v] = d, s
				h.order = append(h.order, v)
			case d:
				h.sigma[v] += s
			}
		}
	}
	h.starts = append(h.starts, len(h.order))
	h.claimStarts = append(h.claimStarts, len(h.allClaimed))
	h.count = uint64(h.starts[d+1] - h.starts[d])
	if err := h.bar.Wait(ctx); err != nil {
		return false, err
	}
	var total uint64
	for _, o := range h.all {
		total += o.count
	}
	h.w.steps = append(h.w.steps, rankStep{active: uint64(len(frontier)), sent: uint64(len(h.claimed)), compute: compute, wall: time.Since(start)})
	h.back = append(h.back, false)
	if total == 0 {
		// Drop the empty level: order's last level is the deepest. (Its
		// claims stay: ghosts reached late, which keepTrueClaims drops.)
		h.starts = h.starts[:len(h.starts)-1]
	}
	return total > 0, nil
}

// keepTrueClaims runs after the forward pass (every part's levels
// final): it keeps, of the ghosts claimed at each level, those that are at
// that level at their owner, and unmarks the others here (claimed later
// than their level: no shortest path ends with this part's arcs to them).
// A ghost's level here is then its true level or unreached, as an owned
// vertex's.
func (h *hostBC) keepTrueClaims() {
	pt := h.pt
	k := 0
	for d := 1; d+1 < len(h.claimStarts); d++ {
		lo, hi := h.claimStarts[d], h.claimStarts[d+1]
		h.claimStarts[d] = k
		for _, g := range h.allClaimed[lo:hi] {
			if h.all[pt.GhostOwner[g]].level[h.ownerLid[g]] == uint32(d) {
				h.allClaimed[k] = g
				k++
			} else {
				h.level[h.ghostLid[g]] = bcUnvisited
			}
		}
	}
	h.claimStarts[len(h.claimStarts)-1] = k
	h.allClaimed = h.allClaimed[:k]
}

// backward copies the offers of the ghosts at level d+1 from their owners
// (final: a barrier followed their level), then computes the dependencies
// of the owned vertices at level d, sets their offers and adds them to the
// scores. It returns the offers copied.
func (h *hostBC) backward(d uint32) uint64 {
	pt, l := h.pt, h.l
	var copied uint64
	if e := int(d) + 2; e < len(h.claimStarts) {
		ghosts := h.allClaimed[h.claimStarts[d+1]:h.claimStarts[e]]
		for _, g := range ghosts {
			h.offer[h.ghostLid[g]] = h.all[pt.GhostOwner[g]].offer[h.ownerLid[g]]
		}
		copied = uint64(len(ghosts))
	}
	inv, off, dst := l.InvPerm, l.SparseOffsets, l.SparseDst
	global := pt.Global
	verts := h.order[h.starts[d]:h.starts[d+1]]
	par.ForChunks(h.chunks(len(verts)), func(c par.Chunk) {
		for _, v := range verts[c.Lo:c.Hi] {
			var acc float64
			for _, w := range dst[off[v]:off[v+1]] {
				if h.level[w] == d+1 {
					acc += h.offer[w]
				}
			}
			delta := h.sigma[v] * acc
			h.offer[v] = (1 + delta) / h.sigma[v]
			h.result[global[inv[v]]] += delta
		}
	})
	return copied
}
