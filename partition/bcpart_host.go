package partition

import (
	"context"
	"slices"
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

const (
	// bcChunksPerWorker cuts a part's per-level loops into more chunks than
	// workers, so that a chunk of hubs does not hold up the level.
	bcChunksPerWorker = 4
	// bcMinPerChunk is the fewest vertices a chunk of a per-level loop gets
	// (small levels run on fewer goroutines, the smallest on the caller's).
	bcMinPerChunk = 256
)

// hostBC is one part's side of a RunBC on the host (BCPart), over its
// backend's layout (layout numbering): the levels, path counts and offers
// of the part's vertices (ghosts included: a ghost's σ slot holds the
// part's sum for it, its level the level at which the part claimed it),
// the owned vertices in level order, and the ghosts claimed in the current
// forward step. The parts exchange in memory, reading each other's arrays
// between barriers.
type hostBC struct {
	pt      *Part
	b       engine.Backend
	l       *layout.Layout
	in      *layout.InArcs
	all     []*hostBC
	bar     *Barrier
	workers int
	result  []float64 // the run's, shared by the parts (disjoint ids)

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

var _ BCPart = (*hostBC)(nil)

// hostBCParts makes the host parts of a run over the backends' layouts,
// with workers goroutines each (0: all cores).
func hostBCParts(parts []*Part, backends []engine.Backend, workers int) []BCPart {
	hs := make([]*hostBC, len(parts))
	bar := NewBarrier(len(parts))
	result := make([]float64, parts[0].NumVertices)
	for i, pt := range parts {
		hs[i] = &hostBC{pt: pt, b: backends[i], l: backends[i].Layout(), all: hs, bar: bar,
			workers: par.Workers(workers), result: result}
	}
	out := make([]BCPart, len(hs))
	for i, h := range hs {
		out[i] = h
	}
	return out
}

// Init implements BCPart: it takes the part's arrays and tables for the
// run (the scores are the run's result, zero).
func (h *hostBC) Init() error {
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
	return nil
}

// chunks cuts a per-level loop over k vertices.
func (h *hostBC) chunks(k int) []par.Chunk {
	return par.Split(k, min(bcChunksPerWorker*h.workers, max(1, k/bcMinPerChunk)))
}

// Start implements BCPart.
func (h *hostBC) Start(source uint32, hasSource bool) error {
	par.For(len(h.level), h.workers, 1<<15, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			h.level[i] = bcUnvisited
		}
	})
	h.order, h.starts = h.order[:0], append(h.starts[:0], 0)
	h.allClaimed, h.claimStarts = h.allClaimed[:0], append(h.claimStarts[:0], 0, 0) // level 0: none
	if hasSource {
		src := h.l.Perm[source]
		h.level[src], h.sigma[src] = 0, 1
		h.order = append(h.order, src)
	}
	h.starts = append(h.starts, len(h.order))
	return nil
}

// Forward implements BCPart: the push and the σ sums, a barrier, the
// owned vertices' claims from the other parts' (read in place: each
// part's claims are sorted by ghost, so the owner's are one segment), and
// the count, added over the parts after a second barrier. When no part
// reached a vertex it drops the empty level and keeps only the true
// claims (keepTrueClaims; every part's levels are final then).
func (h *hostBC) Forward(ctx context.Context, d uint32) (BCStep, error) {
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
	step := BCStep{Active: uint64(len(frontier)), Sent: uint64(len(h.claimed)), Compute: time.Since(start)}
	step.Bytes = step.Sent * BCForwardMessageBytes
	if err := h.bar.Wait(ctx); err != nil {
		return step, err
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
		return step, err
	}
	for _, o := range h.all {
		step.Total += o.count
	}
	if step.Total == 0 {
		// Drop the empty level: order's last level is the deepest. (Its
		// claims stay: ghosts reached late, which keepTrueClaims drops.)
		h.starts = h.starts[:len(h.starts)-1]
		h.keepTrueClaims()
	}
	return step, nil
}

// keepTrueClaims runs after the forward pass (every part's levels
// final): it keeps, of the ghosts claimed at each level, those that are at
// that level at their owner, and unmarks the others here (claimed later
// than their level: no shortest path ends with this part's arcs to them).
// A ghost's level here is then its true level or unreached, as an owned
// vertex's. The owners' levels stay unchanged until every part has passed
// the next barrier (the first backward level's, or, without one, the next
// source's first; a pass without a backward level claimed no ghost).
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

// Backward implements BCPart: it copies the offers of the ghosts at level
// d+1 from their owners (final: a barrier followed their level), then
// computes the dependencies of the owned vertices at level d, sets their
// offers and adds them to the scores; a barrier makes level d's offers
// final for the next level up and, after level 1, keeps every part's
// levels until all have read them (the next source resets them).
func (h *hostBC) Backward(ctx context.Context, d uint32) (BCStep, error) {
	pt, l := h.pt, h.l
	start := time.Now()
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
	step := BCStep{Active: uint64(len(verts)), Sent: copied, Bytes: copied * BCBackwardMessageBytes, Compute: time.Since(start)}
	if err := h.bar.Wait(ctx); err != nil {
		return step, err
	}
	return step, nil
}

// Collect implements BCPart: the parts wrote their scores at their
// original ids in the shared result as they went.
func (h *hostBC) Collect(context.Context) ([]float64, error) {
	if h.pt.Index != 0 {
		return nil, nil
	}
	return h.result, nil
}

// Close implements BCPart.
func (h *hostBC) Close() error { return nil }
