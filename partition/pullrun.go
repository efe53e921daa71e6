package partition

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/pull"
)

// pullAlpha is Beamer's α for the parts' BFS: a superstep pulls when the
// frontier's out-arcs, over all parts, exceed 1/pullAlpha of the arcs of
// the vertices not yet reached.
const pullAlpha = 15

// partsPull reports whether a BFS over parts may pull (loopPull): an
// undirected graph, whose parts' out-rows list every neighbour of their
// vertices, run by the hybrid with pull allowed.
func partsPull(app string, parts []*Part, opts engine.RunOptions) bool {
	return (app == "bfs" || app == "bfs-tree") && !parts[0].Directed && opts.Mode == engine.Hybrid && !opts.NoPull
}

// loopPull is loop for a BFS whose supersteps may pull (Beamer's
// direction-optimizing BFS over parts). A part holds the out-arcs of its
// own vertices, which in an undirected graph are all their neighbours, so
// a pull step lets every unreached owned vertex scan its out-row for a
// neighbour in the frontier, owned or a ghost. For that every part keeps
// its ghosts' levels true: after each superstep the owners send the
// levels of their boundary vertices reached in it to the parts that hold
// them as ghosts, which flag those ghosts active. The direction is the
// same on every part (a pushing part reaches another part's vertices only
// through its messages, which a pulling part does not send): three
// all-reduces give the frontier's size, its out-arcs and the unreached
// vertices' arcs over the parts.
func (w *worker) loopPull(ctx context.Context, ex Exchanger, parts []*Part, maxSteps int, front *engine.Frontier, active uint64) error {
	l := w.l
	eng, err := pull.New[uint32](l, &layout.InArcs{Offsets: l.SparseOffsets, Src: l.SparseDst, Weights: l.SparseWeights}, w.b.Workers())
	if err != nil {
		return fmt.Errorf("part %d: %w", w.rank, err)
	}
	prog, ok := w.prog.(engine.EarlyExit[uint32])
	if !ok {
		return fmt.Errorf("part %d: the program has no pull step", w.rank)
	}
	unreached := l.NumArcs // the owned vertices' out-arcs: a part's only arcs
	if active > 0 {
		unreached -= l.OutDegree(front.List(w.b.Workers())[0])
	}
	buf := 1 // the flags buffer the next frontier goes to (0 may hold front)
	pullNow := false
	for s := 0; maxSteps == 0 || s < maxSteps; s++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		next := w.flags[buf]
		if pullNow {
			if _, _, err := eng.Step(ctx, prog, w.values, w.flags[1-buf], next); err != nil {
				return fmt.Errorf("part %d: superstep %d: %w", w.rank, s, err)
			}
		} else if active > 0 {
			if _, err := w.run.Run(ctx, w.prog, w.values, front); err != nil {
				return fmt.Errorf("part %d: superstep %d: %w", w.rank, s, err)
			}
		}
		compute := time.Since(start)
		var ph Phases
		clock := NewPhaseClock()
		count, sent, err := w.exchangeUpdates(ctx, ex, next, &clock, &ph)
		if err != nil {
			return fmt.Errorf("part %d: superstep %d: %w", w.rank, s, err)
		}
		edges := w.frontierArcs(next)
		levels, err := w.broadcastLevels(ctx, ex, parts, next)
		if err != nil {
			return fmt.Errorf("part %d: superstep %d: %w", w.rank, s, err)
		}
		sent += levels
		clock.Lap(&ph.Exchange)
		unreached -= edges
		total, err := ex.AllReduceSum(ctx, w.rank, count)
		if err != nil {
			return fmt.Errorf("part %d: superstep %d: %w", w.rank, s, err)
		}
		allEdges, err := ex.AllReduceSum(ctx, w.rank, edges)
		if err != nil {
			return fmt.Errorf("part %d: superstep %d: %w", w.rank, s, err)
		}
		allUnreached, err := ex.AllReduceSum(ctx, w.rank, unreached)
		if err != nil {
			return fmt.Errorf("part %d: superstep %d: %w", w.rank, s, err)
		}
		clock.Lap(&ph.Reduce)
		w.steps = append(w.steps, rankStep{active: active, sent: sent, compute: compute, wall: time.Since(start), phases: ph, pull: pullNow})
		if total == 0 {
			w.done = true
			return nil
		}
		pullNow = allEdges*pullAlpha > allUnreached
		front, active, buf = engine.NewFrontierFlags(next), count, 1-buf
	}
	return nil
}

// frontierArcs returns the out-arcs of the owned vertices flagged in next.
func (w *worker) frontierArcs(next []uint8) uint64 {
	var k atomic.Uint64
	nl := uint32(w.pt.NumLocal)
	l, inv := w.l, w.l.InvPerm
	par.For(len(next), w.b.Workers(), 1<<14, func(lo, hi int) {
		var e uint64
		for lid := lo; lid < hi; lid++ {
			if next[lid] != 0 && inv[lid] < nl {
				e += l.OutDegree(uint32(lid))
			}
		}
		k.Add(e)
	})
	return k.Load()
}

// broadcastLevels sends the levels of the part's vertices flagged in next
// (reached in this superstep; with next nil, of every boundary vertex) to
// the parts that hold them as ghosts, and gives its own ghosts the levels
// their owners send: each takes the level (which also becomes its prev,
// so that it is no message) and, with next, is flagged in it, active in
// the next superstep's pull. It returns the number of levels it sent.
func (w *worker) broadcastLevels(ctx context.Context, ex Exchanger, parts []*Part, next []uint8) (uint64, error) {
	perm, values := w.l.Perm, w.values
	var sent uint64
	for q := range w.send {
		w.send[q] = w.send[q][:0]
		if q == w.rank {
			continue
		}
		o := parts[q]
		lo, hi := o.GhostRange(w.rank) // o's ghosts that this part owns
		for g := lo; g < hi; g++ {
			if lid := perm[o.GhostRemote[g]]; next == nil || next[lid] != 0 {
				w.send[q] = append(w.send[q], Message{Vertex: uint32(o.NumLocal + g), Value: values[lid]})
			}
		}
		sent += uint64(len(w.send[q]))
	}
	recv, err := ex.AllToAll(ctx, w.rank, w.send)
	if err != nil {
		return 0, fmt.Errorf("levels' broadcast: %w", err)
	}
	nl, n := w.pt.NumLocal, w.pt.NumPartVertices()
	for _, m := range recv {
		if uint64(m.Vertex) < nl || uint64(m.Vertex) >= n {
			return 0, fmt.Errorf("received the level of vertex %d, not one of the part's %d ghosts", m.Vertex, w.pt.NumGhosts)
		}
		lid := perm[m.Vertex]
		values[lid], w.prev[lid] = m.Value, m.Value
		if next != nil {
			next[lid] = 1
		}
	}
	return sent, nil
}
