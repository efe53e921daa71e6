package apps

import (
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// BCLevelDegree is the mean degree (arcs per vertex) below which BC on an
// undirected graph, on a backend without a device (the CPU), runs level
// by level over the layout's rows (bcLevelRun) instead of through the
// engines: a grid's or a road network's thousands of small levels each
// cost the engines' accumulator, merge and apply passes, while here a
// level is one pass over its rows that pulls its path counts and
// discovers the next level, and one pull of the dependencies on the way
// back (as GAPBS's bc).
const BCLevelDegree = 8

// bcLevelSerialVertices: a level with fewer vertices runs on the calling
// goroutine. A larger one is shared by the workers of a par.Team, whose
// fork and join (a few microseconds) is what a level-synchronous loop of
// thousands of levels (a grid's: ~2,000 levels of up to ~4,000 vertices
// from its middle) can afford per level, where a goroutine started per
// level and worker could not. (2 threads, grid 2048: 128, 256 and 512 ran
// alike.)
const bcLevelSerialVertices = 256

// bcLevelPiece is the fewest vertices of a level a worker takes at a time
// from the level's shared counter (a level has at most one worker per
// piece): large enough that the counter is not contended.
const bcLevelPiece = 32

// bcLevelPiecesPerWorker is how many pieces a level is cut into per worker
// when it has more than bcLevelPiece vertices for each: enough that the
// workers finish together (a worker slow to start, or sharing its core,
// leaves its last pieces to the others), few enough that a worker's
// pieces stay mostly its own (see bcLevelRun.pieces).
const bcLevelPiecesPerWorker = 4

// bcLevelCopyParallel: a level of at least this many vertices found in
// parallel is copied from the workers' lists into the levels' order by
// the team (a list a task), a smaller one by the caller.
const bcLevelCopyParallel = 1 << 15

// bcLevelsApply reports whether BC runs level by level on fwd (see
// BCLevelDegree): an undirected layout, its own backward graph, mode
// hybrid or auto.
func bcLevelsApply(fwd, bwd engine.Backend, opts engine.RunOptions) bool {
	l := fwd.Layout()
	return fwd == bwd && !l.Directed && l.NumVertices > 0 && l.NumArcs < BCLevelDegree*l.NumVertices &&
		(opts.Mode == engine.Hybrid || opts.Mode == engine.Auto)
}

// bcLevelRun is the state of BC by levels over one layout for one BC call:
// its arrays, its team, the workers' buffers and the level in progress,
// which the team's workers read (the tasks are method values made once,
// so a level allocates nothing).
type bcLevelRun struct {
	off          []uint64
	dst, orig    []uint32
	depth        []int32
	sigma, delta []float64 // delta: (1+δ)/σ of the levels settled (settleRange)
	result       []float64
	order        []uint32
	team         *par.Team
	ws           []bcLevelWorker
	// bcLevelSerialVertices, bcLevelPiece, bcLevelCopyParallel (tests
	// lower them)
	serial, piece, copyMin int

	// The level in progress: its vertices lv and depth d, its workers, its
	// pieces (cut vertices each, the last shorter) and the source s.
	lv               []uint32
	d                int32
	nw, cut, npieces int
	s                uint32
	lists            atomic.Int64 // the next worker's list to copy (copyLists)
	discover, settle func(w int)
	copyLists        func(w int)
}

// bcLevelWorker is one worker's state in a level: the next piece of its
// range to take, the vertices it found, its count of arcs read and where
// its vertices go in the levels' order, padded so that workers do not
// share cache lines.
type bcLevelWorker struct {
	next  atomic.Int64
	found []uint32
	arcs  uint64
	at    int
	_     [16]byte
}

// newBCLevelRun returns the state of BC by levels over l with workers
// workers, in bufs's arrays (sized); its team's helpers start at its first
// parallel level.
func newBCLevelRun(l *layout.Layout, bufs *bcScratch, workers int) *bcLevelRun {
	team := par.NewTeam(workers)
	r := &bcLevelRun{
		off: l.SparseOffsets, dst: l.SparseDst, orig: l.InvPerm,
		depth: bufs.depth, sigma: bufs.sigma, delta: bufs.offer, result: bufs.result, order: bufs.order,
		team: team, ws: make([]bcLevelWorker, team.Workers()),
		serial: bcLevelSerialVertices, piece: bcLevelPiece, copyMin: bcLevelCopyParallel,
	}
	r.discover, r.settle, r.copyLists = r.discoverPart, r.settlePart, r.copyPart
	return r
}

// share readies level lv (of depth d) for the team and returns how many
// workers share it: 1 below r.serial vertices (the caller alone: nothing
// readied), else one per r.piece vertices up to the team's workers, which
// take pieces of at least r.piece vertices, bcLevelPiecesPerWorker each
// when the level is large enough (see pieces).
func (r *bcLevelRun) share(lv []uint32, d int32) int {
	n := len(lv)
	if n < r.serial {
		return 1
	}
	nw := min(r.team.Workers(), (n+r.piece-1)/r.piece)
	r.lv, r.d, r.nw = lv, d, nw
	r.cut = max(r.piece, n/(nw*bcLevelPiecesPerWorker))
	r.npieces = (n + r.cut - 1) / r.cut
	for w := range nw {
		r.ws[w].next.Store(int64(r.npieces * w / nw))
		r.ws[w].found = r.ws[w].found[:0]
	}
	return nw
}

// pieces calls fn on the pieces of the level in progress that worker w
// takes: those of the w-th of r.nw equal ranges of pieces in order, then
// those left in the others' ranges. A worker thus reads and writes the
// vertices of one contiguous range of the level, mostly, which are near
// one another in a grid or road network (the workers share fewer cache
// lines of the per-vertex arrays than with pieces dealt in turn), and,
// the level being listed in the workers' order, near those it found; a
// worker slow to start or preempted takes fewer (Team.RunShared).
func (r *bcLevelRun) pieces(w int, fn func(lv []uint32)) {
	lv, nw, cut, np := r.lv, r.nw, r.cut, r.npieces
	for k := range nw {
		o := (w + k) % nw
		next, end := &r.ws[o].next, int64(np*(o+1)/nw)
		for c := next.Add(1) - 1; c < end; c = next.Add(1) - 1 {
			lo := int(c) * cut
			fn(lv[lo:min(lo+cut, len(lv))])
		}
	}
}

// source adds source s's dependencies (Brandes) into r.result (original
// numbering), over the layout's rows: the forward pass reads the rows of
// each level once, pulling each vertex's path count σ from its neighbours
// one level up and discovering the next level (an atomic claim of a
// vertex's depth when in parallel) at once; the backward pass, deepest
// level first, pulls each vertex's dependency from its neighbours one
// level down. depth and sigma must be reset (resetBC). It returns the
// levels and the arcs read.
func (r *bcLevelRun) source(s uint32) (int, uint64) {
	off, dst, depth, sigma, order := r.off, r.dst, r.depth, r.sigma, r.order
	depth[s], sigma[s], order[0] = 0, 1, s
	r.s = s
	start := []int{0, 1}
	var arcs uint64
	for d := int32(0); ; d++ {
		front := order[start[d]:start[d+1]]
		k := start[d+1]
		if nw := r.share(front, d); nw == 1 {
			for _, u := range front {
				arcs += off[u+1] - off[u]
				var paths float64
				for _, v := range dst[off[u]:off[u+1]] {
					if dv := depth[v]; dv == unvisited {
						depth[v] = d + 1
						order[k] = v
						k++
					} else if dv == d-1 {
						paths += sigma[v]
					}
				}
				if d > 0 { // the source's σ stays 1 (at depth 0, d-1 is unvisited: claimed above)
					sigma[u] = paths
				}
			}
		} else {
			r.team.RunShared(nw, r.discover)
			at := k
			for w := range nw {
				ws := &r.ws[w]
				ws.at = k
				k += len(ws.found)
				arcs += ws.arcs
				ws.arcs = 0
			}
			if k-at >= r.copyMin {
				r.lists.Store(0)
				r.team.RunShared(nw, r.copyLists)
			} else {
				for w := range nw {
					copy(order[r.ws[w].at:], r.ws[w].found)
				}
			}
		}
		if k == start[d+1] {
			break
		}
		start = append(start, k)
	}
	levels := len(start) - 1
	for d := levels - 1; d >= 0; d-- {
		lv := order[start[d]:start[d+1]]
		if nw := r.share(lv, int32(d)); nw == 1 {
			r.settleRange(lv, int32(d))
		} else {
			r.team.RunShared(nw, r.settle)
		}
	}
	r.lv = nil
	return levels, 2 * arcs
}

// discoverPart is worker w's share of level r.lv (of depth r.d, its
// pieces): each vertex's σ pulled from its neighbours of depth r.d-1 (in
// row order, as the serial pass) and its unvisited neighbours claimed for
// depth r.d+1 (an atomic compare-and-swap of the depth) into w's list, in
// one pass over its row. The depths are loaded atomically because other
// workers claim vertices meanwhile; a depth being claimed turns from
// unvisited to r.d+1, never to or from r.d-1.
func (r *bcLevelRun) discoverPart(w int) {
	off, dst, depth, sigma, d := r.off, r.dst, r.depth, r.sigma, r.d
	ws := &r.ws[w]
	found, arcs := ws.found, uint64(0)
	r.pieces(w, func(front []uint32) {
		for _, u := range front {
			arcs += off[u+1] - off[u]
			var paths float64
			for _, v := range dst[off[u]:off[u+1]] {
				if dv := atomic.LoadInt32(&depth[v]); dv == unvisited {
					if atomic.CompareAndSwapInt32(&depth[v], unvisited, d+1) {
						found = append(found, v)
					}
				} else if dv == d-1 {
					paths += sigma[v]
				}
			}
			if d > 0 {
				sigma[u] = paths
			}
		}
	})
	ws.found, ws.arcs = found, arcs
}

// copyPart copies the workers' lists of the level just found into the
// levels' order, taking them from r.lists.
func (r *bcLevelRun) copyPart(int) {
	for i := int(r.lists.Add(1) - 1); i < r.nw; i = int(r.lists.Add(1) - 1) {
		copy(r.order[r.ws[i].at:], r.ws[i].found)
	}
}

// settlePart is worker w's share of level r.lv's dependencies (its
// pieces).
func (r *bcLevelRun) settlePart(w int) {
	r.pieces(w, func(lv []uint32) { r.settleRange(lv, r.d) })
}

// settleRange pulls the dependency δ of each vertex v of lv (of depth d)
// from its neighbours w of depth d+1, δ(v) = σ(v) Σ (1+δ(w))/σ(w), adds it
// to the result but for the source's, and keeps (1+δ(v))/σ(v) in r.delta
// for the level above: the same operations, in the same order, as a pull
// that divided at each arc, with a division and a read of σ(w) less per
// arc.
func (r *bcLevelRun) settleRange(lv []uint32, d int32) {
	off, dst, depth, sigma, coef := r.off, r.dst, r.depth, r.sigma, r.delta
	for _, v := range lv {
		dv := dependency(sigma[v], dst[off[v]:off[v+1]], depth, d+1, coef)
		coef[v] = (1 + dv) / sigma[v]
		if v != r.s {
			r.result[r.orig[v]] += dv
		}
	}
}

// bcByLevels is BC over sources by levels (bcLevelRun), in bufs (sized),
// adding the passes' levels and arcs to total. Its team lives for the
// call (all its sources).
func bcByLevels(l *layout.Layout, sources []uint32, bufs *bcScratch, workers int, total *engine.Result) error {
	return newBCLevelRun(l, bufs, workers).run(l, sources, total)
}

// run adds the dependencies of every source (original ids of l) into
// r.result, resetting it first, and the passes' levels and arcs to total.
func (r *bcLevelRun) run(l *layout.Layout, sources []uint32, total *engine.Result) error {
	start := time.Now()
	for i, source := range sources {
		s, err := checkSource(l, source)
		if err != nil {
			return err
		}
		resetBC(r.depth, r.sigma, r.result, i == 0, r.team.Workers())
		levels, arcs := r.source(s)
		total.Iterations += 2 * levels
		total.Edges += arcs
	}
	total.Seconds += time.Since(start).Seconds()
	return nil
}

// dependency returns δ(v) = σ(v) Σ (1+δ(w))/σ(w) over v's successors w,
// the vertices of row at depth next, from coef(w) = (1+δ(w))/σ(w): the
// backward pass's pull, by levels and async alike. A vertex without
// successors depends on none: 0, even where σ(v) overflowed to +Inf
// (the reference's and GAPBS's sums leave it 0; σ(v) · 0 would be NaN).
func dependency[D int32 | uint32](sigma float64, row []uint32, depth []D, next D, coef []float64) float64 {
	var acc float64
	succ := false
	for _, w := range row {
		if depth[w] == next {
			acc += coef[w]
			succ = true
		}
	}
	if !succ {
		return 0
	}
	return sigma * acc
}
