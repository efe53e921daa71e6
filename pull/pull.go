// Package pull is the pull (bottom-up) step on the CPU for programs that
// implement engine.EarlyExit, such as BFS: instead of every active vertex
// pushing along all its arcs, every unsettled vertex scans its
// in-neighbours and stops at the first active one (Beamer's
// direction-optimizing BFS; the pull side of SEP-Graph). In the large middle
// iterations of a BFS on a low-diameter graph most unsettled vertices find
// an active in-neighbour within a few arcs, so a pull step reads a small
// fraction of the arcs a push step reads.
//
// The step reads the layout's sparse part (SparseOffsets, SparseDst): the
// out-adjacency in layout numbering, which for an undirected layout is also
// the in-adjacency. Rows are sorted by destination and the layout numbers
// vertices by descending in-degree group, so each scan meets the hubs, the
// in-neighbours most likely to be active, first. Directed layouts are
// rejected by New.
//
// Vertices are cut into fixed ranges handed to the workers dynamically; the
// inner loop calls no function per arc, only Unsettled per vertex of
// non-zero degree and Apply per vertex that finds an active in-neighbour.
package pull

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// PhasePull is the name of the one phase Step reports.
const PhasePull = "pull"

// Tuning constants.
const (
	// chunkVertices is the size of the vertex ranges handed to the workers.
	chunkVertices = 2048
	// sampleStride: Estimate runs one range in sampleStride.
	sampleStride = 32
)

// ErrDirected is returned by New for a directed layout, whose sparse rows
// are out-adjacencies only.
var ErrDirected = errors.New("pull: the layout is directed; a pull step needs in-neighbours (undirected layouts only)")

// Engine runs pull steps of EarlyExit programs over one undirected layout.
// It is not safe for concurrent use: one Step or Estimate at a time.
type Engine[V engine.Value] struct {
	l        *layout.Layout
	n        int
	workers  int
	chunk    int
	ws       []worker
	nextArcs uint64
	sink     uint64 // Estimate's result, kept so the dry run is not optimised away
}

// worker holds one goroutine's counters, padded to its own cache line.
type worker struct {
	count uint64 // vertices made active
	arcs  uint64 // their out-arcs
	_     [48]byte
}

var (
	_ engine.PullStepper[uint32]  = (*Engine[uint32])(nil)
	_ engine.PullStepper[float64] = (*Engine[float64])(nil)
)

// New returns a pull engine over l using workers goroutines (0 means
// GOMAXPROCS). It fails with ErrDirected when l is directed.
func New[V engine.Value](l *layout.Layout, workers int) (*Engine[V], error) {
	if l == nil {
		return nil, errors.New("pull: nil layout")
	}
	if l.Directed {
		return nil, ErrDirected
	}
	if workers < 0 {
		return nil, fmt.Errorf("pull: negative worker count %d", workers)
	}
	n := l.NumVertices
	if n > layout.MaxVertices {
		return nil, fmt.Errorf("pull: %d vertices; at most %d", n, uint64(layout.MaxVertices))
	}
	if uint64(len(l.SparseOffsets)) != n+1 || uint64(len(l.SparseDst)) != l.NumArcs ||
		(l.Weighted && uint64(len(l.SparseWeights)) != l.NumArcs) ||
		(n > 0 && l.SparseOffsets[n] != l.NumArcs) {
		return nil, errors.New("pull: layout's sparse part has inconsistent lengths")
	}
	w := par.Workers(workers)
	return &Engine[V]{l: l, n: int(n), workers: w, chunk: chunkVertices, ws: make([]worker, w)}, nil
}

// Layout returns the engine's layout.
func (e *Engine[V]) Layout() *layout.Layout { return e.l }

// Workers returns the number of goroutines a step uses.
func (e *Engine[V]) Workers() int { return e.workers }

// NextArcs returns the sum of the out-degrees of the vertices the last Step
// made active.
func (e *Engine[V]) NextArcs() uint64 { return e.nextArcs }

// check validates a program and its arrays.
func (e *Engine[V]) check(p engine.EarlyExit[V], values []V, active []uint8) error {
	if p == nil {
		return errors.New("pull: nil program")
	}
	if p.Combine() != engine.CombineMin || p.ApplyAll() {
		return errors.New("pull: an early-exit program must combine by min and not apply every vertex")
	}
	switch p.Edge() {
	case engine.EdgeSource, engine.EdgeSourcePlusOne:
	case engine.EdgeSourcePlusWeight:
		if !e.l.Weighted {
			return errors.New("pull: program adds edge weights but the layout is unweighted")
		}
	default:
		return fmt.Errorf("pull: unknown edge operation %d", p.Edge())
	}
	if len(values) != e.n || len(active) != e.n {
		return fmt.Errorf("pull: %d values and %d flags for %d vertices", len(values), len(active), e.n)
	}
	return nil
}

// Step runs one pull iteration (see engine.PullStepper): every unsettled
// vertex with at least one arc scans its row until the first active
// in-neighbour u and applies u's contribution; next[v] is 1 for the vertices
// Apply made active and 0 for every other vertex. It returns their number
// and the time of PhasePull. Vertices of degree zero are skipped without a
// call to Unsettled: they cannot receive a contribution.
//
// The result does not depend on the number of workers or on scheduling. On
// a cancelled ctx Step returns ctx.Err() before changing anything.
func (e *Engine[V]) Step(ctx context.Context, p engine.EarlyExit[V], values []V, active, next []uint8) (uint64, []engine.Phase, error) {
	if err := e.check(p, values, active); err != nil {
		return 0, nil, err
	}
	if len(next) != e.n {
		return 0, nil, fmt.Errorf("pull: %d next flags for %d vertices", len(next), e.n)
	}
	if err := ctx.Err(); err != nil {
		return 0, nil, err
	}
	start := time.Now()
	for i := range e.ws {
		e.ws[i].count, e.ws[i].arcs = 0, 0
	}
	l := e.l
	op := p.Edge()
	var wts []uint32
	if op == engine.EdgeSourcePlusWeight {
		wts = l.SparseWeights
	}
	chunks := (e.n + e.chunk - 1) / e.chunk
	e.run(chunks, func(w, c int) {
		lo, hi := c*e.chunk, min(e.n, (c+1)*e.chunk)
		cnt, arcs := pullRange(p, op, l.SparseOffsets, l.SparseDst, wts, values, active, next, lo, hi)
		e.ws[w].count += cnt
		e.ws[w].arcs += arcs
	})
	var total, arcs uint64
	for i := range e.ws {
		total += e.ws[i].count
		arcs += e.ws[i].arcs
	}
	e.nextArcs = arcs
	return total, []engine.Phase{{Name: PhasePull, Seconds: time.Since(start).Seconds()}}, nil
}

// pullRange runs the pull step over vertices [lo, hi) and returns how many
// it made active and their out-arcs.
func pullRange[V engine.Value](p engine.EarlyExit[V], op engine.EdgeOp, off []uint64, dst, wts []uint32,
	values []V, active, next []uint8, lo, hi int) (cnt, arcs uint64) {
	nx := next[lo:hi]
	clear(nx)
	offs := off[lo : hi+1]
	for i := range nx {
		a, b := offs[i], offs[i+1]
		v := uint32(lo + i)
		if a == b || !p.Unsettled(v, values) {
			continue
		}
		for j, u := range dst[a:b] {
			if active[u] == 0 {
				continue
			}
			var w uint32
			if wts != nil {
				w = wts[a+uint64(j)]
			}
			if p.Apply(v, engine.Contribute(op, values[u], w), values) {
				nx[i] = 1
				cnt++
				arcs += b - a
			}
			break
		}
	}
	return cnt, arcs
}

// scanRange is pullRange's dry run: it counts the unsettled vertices of
// [lo, hi) that have an active in-neighbour, calling neither Apply nor
// writing anything.
func scanRange[V engine.Value](p engine.EarlyExit[V], off []uint64, dst []uint32, values []V, active []uint8, lo, hi int) (found uint64) {
	offs := off[lo : hi+1]
	for i := 0; i+1 < len(offs); i++ {
		a, b := offs[i], offs[i+1]
		if a == b || !p.Unsettled(uint32(lo+i), values) {
			continue
		}
		for _, u := range dst[a:b] {
			if active[u] != 0 {
				found++
				break
			}
		}
	}
	return found
}

// Estimate returns the expected time of a Step from active: one vertex range
// in sampleStride (at least one) is scanned on the calling goroutine as a
// dry run (Unsettled and the early-exit scan, no Apply, no writes), and the
// time is scaled by ranges / sampled ranges and divided by the worker count.
// Ranges at the start of the numbering hold the hubs, so the sample takes
// evenly spaced ranges from the whole vertex set.
func (e *Engine[V]) Estimate(ctx context.Context, p engine.EarlyExit[V], values []V, active []uint8) (time.Duration, error) {
	if err := e.check(p, values, active); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	chunks := (e.n + e.chunk - 1) / e.chunk
	if chunks == 0 {
		return 0, nil
	}
	off, dst := e.l.SparseOffsets, e.l.SparseDst
	start := time.Now()
	var found uint64
	sampled := 0
	for c := sampleStride / 2 % chunks; c < chunks; c += sampleStride {
		found += scanRange(p, off, dst, values, active, c*e.chunk, min(e.n, (c+1)*e.chunk))
		sampled++
	}
	d := time.Since(start)
	e.sink = found
	return time.Duration(float64(d) * float64(chunks) / float64(sampled) / float64(e.workers)), nil
}

// run hands the work units 0..n-1 to the workers dynamically; fn gets the
// worker's index and the unit. Worker 0 runs on the calling goroutine.
func (e *Engine[V]) run(n int, fn func(w, i int)) {
	workers := min(e.workers, n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			fn(0, i)
		}
		return
	}
	var next atomic.Int64
	work := func(w int) {
		for {
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			fn(w, i)
		}
	}
	var wg sync.WaitGroup
	wg.Add(workers - 1)
	for w := 1; w < workers; w++ {
		go func() {
			defer wg.Done()
			work(w)
		}()
	}
	work(0)
	wg.Wait()
}
