// Package pull is the pull (bottom-up) step on the CPU for programs that
// implement engine.EarlyExit, such as BFS: instead of every active vertex
// pushing along all its arcs, every unsettled vertex scans its
// in-neighbours and stops at the first active one (Beamer's
// direction-optimizing BFS; the pull side of SEP-Graph). In the large middle
// iterations of a BFS on a low-diameter graph most unsettled vertices find
// an active in-neighbour within a few arcs, so a pull step reads a small
// fraction of the arcs a push step reads.
//
// The step reads the layout's in-adjacency (layout.InArcs): for an
// undirected layout its sparse part (the out-adjacency in layout numbering,
// which is also the in-adjacency), for a directed one the sparse part
// transposed, which the caller builds once (Layout.In) and shares between
// engines. Rows are sorted by neighbour and the layout numbers vertices by
// descending in-degree group, so each scan meets the hubs, the
// in-neighbours most likely to be active, first. The first entry of every
// row is copied into a dense array (with the vertex's out-degree; see
// rows), tested before the row is read: most vertices that find an active
// in-neighbour find it there, and a step then streams through n entries
// instead of touching a cache line of the m-entry rows per vertex.
//
// A Step first packs the active flags into a bitmap (n/8 bytes, which stays
// in a core's L2 cache where the flags would not), then cuts the vertices
// into fixed ranges handed to the workers dynamically. Per range it calls
// the program's Unsettled once, and per vertex Apply only when the vertex
// finds an active in-neighbour (not even then for an engine.PlainMin
// program, whose Apply is the min the step does itself): the inner loop
// calls no function per arc or per settled vertex.
package pull

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	mbits "math/bits"
	"time"
	"unsafe"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// PhasePull is the name of the one phase Step reports.
const PhasePull = "pull"

// Tuning constants.
const (
	// chunkVertices is the size of the vertex ranges handed to the workers
	// (a multiple of 64: a range starts at a bitmap word).
	chunkVertices = 2048
	// sampleStride: Estimate runs one range in sampleStride.
	sampleStride = 32
)

// ErrDirected is returned by New for a directed layout given without its
// in-adjacency: its sparse rows are out-adjacencies only.
var ErrDirected = errors.New("pull: the layout is directed; a pull step needs its in-adjacency (layout.Layout.In)")

// Engine runs pull steps of EarlyExit programs over one layout's
// in-adjacency.
// It is not safe for concurrent use: one Step or Estimate at a time.
type Engine[V engine.Value] struct {
	l        *layout.Layout
	in       *layout.InArcs
	n        int
	workers  int
	chunk    int
	ws       []worker
	bits     []uint64 // the active flags packed, bit v of word v/64
	rows     rows     // the in-adjacency and what prepare derives from it
	nextArcs uint64
	sink     uint64 // Estimate's result, kept so the dry run is not optimised away
	acc      []V    // StepAll's accumulators, allocated by its first call
}

// worker holds one goroutine's counters and scratch, padded to its own
// cache lines.
type worker struct {
	count uint64 // vertices made active
	arcs  uint64 // their out-arcs
	uns   []bool // Unsettled's answers for one range
	_     [64]byte
}

var (
	_ engine.PullStepper[uint32]  = (*Engine[uint32])(nil)
	_ engine.PullStepper[float64] = (*Engine[float64])(nil)
)

// New returns a pull engine over l's in-adjacency in using workers
// goroutines (0 means GOMAXPROCS). in may be nil for an undirected layout
// (its sparse part is its in-adjacency); a directed layout without in fails
// with ErrDirected. Its scratch memory and the indexes it derives from the
// rows (about 8.4 bytes per vertex in all) are allocated by the first Step
// or Estimate.
func New[V engine.Value](l *layout.Layout, in *layout.InArcs, workers int) (*Engine[V], error) {
	if l == nil {
		return nil, errors.New("pull: nil layout")
	}
	if in == nil {
		if l.Directed {
			return nil, ErrDirected
		}
		in = l.In(workers)
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
	if uint64(len(in.Offsets)) != n+1 || uint64(len(in.Src)) != l.NumArcs ||
		(l.Weighted && uint64(len(in.Weights)) != l.NumArcs) || (n > 0 && in.Offsets[n] != l.NumArcs) {
		return nil, errors.New("pull: the in-adjacency does not match the layout's vertices and arcs")
	}
	w := par.Workers(workers)
	return &Engine[V]{l: l, in: in, n: int(n), workers: w, chunk: chunkVertices, ws: make([]worker, w)}, nil
}

// rows is what a step reads of the in-adjacency, with the indexes derived
// from it (8n + n/4 bytes) so that a step reads a vertex's offsets and row
// only when it must scan the row:
//
//   - Vertices without in-arcs can never find an active in-neighbour
//     (R-MAT has many, spread over the numbering): a bit per vertex in
//     linked lets a step skip them.
//   - Each vertex's first in-neighbour is copied into head, a dense array
//     of n entries that stays in the last level cache where the rows (m
//     entries) do not: a step tests it before anything else. Rows are
//     sorted by neighbour and the layout numbers the hubs first, so the
//     first in-neighbour is the vertex's largest hub, the one most likely
//     active: in the first large pull step of a BFS on R-MAT (the
//     frontier: the source's neighbours, most hubs among them) most
//     vertices find it there, and their rows are never read. The same
//     entry holds the vertex's out-degree, which a step adds up for the
//     vertices it activates (NextArcs) without reading the out-offsets.
//   - A bit in single marks a row of one arc (on R-MAT about a third of
//     the vertices with arcs): when its first in-neighbour is not active
//     the row has nothing more to scan.
//
// The indexes of a word of 64 vertices are derived by the first step that
// covers it (derive), in the same pass as that step's work on them: the
// first entry of every row is read once there, as the step would read it,
// and not in a pass of its own over the rows ahead of the first step.
type rows struct {
	off    []uint64 // the in-adjacency
	src    []uint32
	wts    []uint32 // its weights (nil when the step adds none)
	head   []uint64 // v's first in-neighbour (0 without in-arcs) | min(out-degree, headSaturated) << 32
	linked []uint64 // bit v set ⇔ v has at least one in-arc
	single []uint64 // bit v set ⇔ v has exactly one in-arc
	outOff []uint64 // the out-adjacency's offsets (the layout's sparse part)
	// derived[k]: the indexes of vertices [64k, 64k+64) are derived. A
	// word belongs to one range of a step, so one worker derives it.
	derived []bool
}

// headSaturated is the out-degree a head entry holds for an out-degree it
// cannot (read from the out-offsets instead).
const headSaturated = math.MaxUint32

// prepare allocates the scratch memory and the rows' indexes on first use,
// so that making an engine that never steps (every program but the
// EarlyExit ones) costs nothing.
func (e *Engine[V]) prepare() {
	if e.rows.derived != nil {
		return
	}
	n := e.n
	e.bits = make([]uint64, (n+63)/64)
	for i := range e.ws {
		e.ws[i].uns = make([]bool, chunkVertices)
	}
	words := (n + 63) / 64
	e.rows = rows{off: e.in.Offsets, src: e.in.Src, head: make([]uint64, n),
		linked: make([]uint64, words), single: make([]uint64, words), outOff: e.l.SparseOffsets,
		derived: make([]bool, words)}
}

// derive derives the indexes of the vertices [lo, hi) (lo a multiple of
// 64; see rows) that are not derived yet.
func (r *rows) derive(lo, hi int) {
	n := len(r.head)
	for k := lo >> 6; k < (hi+63)>>6; k++ {
		if r.derived[k] {
			continue
		}
		var linked, single uint64
		for j := 0; j < 64 && k*64+j < n; j++ {
			v := k*64 + j
			a, b := r.off[v], r.off[v+1]
			var first uint32
			if a != b {
				linked |= 1 << j
				first = r.src[a]
			}
			if b-a == 1 {
				single |= 1 << j
			}
			r.head[v] = uint64(first) | min(r.outOff[v+1]-r.outOff[v], headSaturated)<<32
		}
		r.linked[k], r.single[k], r.derived[k] = linked, single, true
	}
}

// Layout returns the engine's layout.
func (e *Engine[V]) Layout() *layout.Layout { return e.l }

// Workers returns the number of goroutines a step uses.
func (e *Engine[V]) Workers() int { return e.workers }

// NextArcs returns the sum of the out-degrees of the vertices the last Step
// made active.
func (e *Engine[V]) NextArcs() uint64 { return e.nextArcs }

// errNotEarlyExit is check's error for Step's and Estimate's programs
// that are not min programs applied where contributions arrive.
var errNotEarlyExit = errors.New("pull: an early-exit program must combine by min and not apply every vertex")

// check validates a program and its arrays; notMin is the error for a
// program that does not combine by min or applies every vertex.
func (e *Engine[V]) check(p engine.Program[V], values []V, active []uint8, notMin error) error {
	if p == nil {
		return errors.New("pull: nil program")
	}
	if p.Combine() != engine.CombineMin || p.ApplyAll() {
		return notMin
	}
	switch p.Edge() {
	case engine.EdgeSource, engine.EdgeSourcePlusOne:
	case engine.EdgeSourcePlusWeight, engine.EdgeSourcePlusFloat32Weight:
		if !e.l.Weighted {
			return errors.New("pull: program adds edge weights but the layout is unweighted")
		}
		if err := engine.CheckProgram[V](p, e.l); err != nil {
			return fmt.Errorf("pull: %w", err)
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
	if err := e.check(p, values, active, errNotEarlyExit); err != nil {
		return 0, nil, err
	}
	if len(next) != e.n {
		return 0, nil, fmt.Errorf("pull: %d next flags for %d vertices", len(next), e.n)
	}
	if err := ctx.Err(); err != nil {
		return 0, nil, err
	}
	e.prepare()
	start := time.Now()
	for i := range e.ws {
		e.ws[i].count, e.ws[i].arcs = 0, 0
	}
	op := p.Edge()
	r := e.rows // a copy, with the step's weights
	if op.Weighted() {
		r.wts = e.in.Weights
	}
	e.pack(active)
	// Every contribution of an iteration is equal (engine.EarlyExit): without
	// weights it is computed once here, not read from each found parent
	// (a cache miss per activated vertex).
	var c0 *V
	if !op.Weighted() {
		if u, ok := e.firstActive(); ok {
			c := engine.Contribute(op, values[u], 0)
			c0 = &c
		}
	}
	_, plain := p.(engine.PlainMin)
	chunks := (e.n + e.chunk - 1) / e.chunk
	e.run(chunks, func(w, c int) {
		lo, hi := c*e.chunk, min(e.n, (c+1)*e.chunk)
		ws := &e.ws[w]
		r.derive(lo, hi)
		cnt, arcs := pullRange(p, plain, op, c0, &r, values, e.bits, next, ws.uns, lo, hi)
		ws.count += cnt
		ws.arcs += arcs
	})
	var total, arcs uint64
	for i := range e.ws {
		total += e.ws[i].count
		arcs += e.ws[i].arcs
	}
	e.nextArcs = arcs
	return total, []engine.Phase{{Name: PhasePull, Seconds: time.Since(start).Seconds()}}, nil
}

// firstActive returns the first vertex whose bit is set in e.bits (pack
// has run).
func (e *Engine[V]) firstActive() (uint32, bool) {
	for k, w := range e.bits {
		if w != 0 {
			return uint32(k*64 + mbits.TrailingZeros64(w)), true
		}
	}
	return 0, false
}

// pack writes the active flags into e.bits, in parallel over whole words.
func (e *Engine[V]) pack(active []uint8) {
	words := len(e.bits)
	const per = 1024 // words per unit
	e.run((words+per-1)/per, func(_, c int) {
		lo, hi := c*per, min(words, (c+1)*per)
		for k := lo; k < hi; k++ {
			f := active[k*64 : min(len(active), k*64+64)]
			if len(f) < 64 {
				var w uint64
				for j, a := range f {
					if a != 0 {
						w |= 1 << j
					}
				}
				e.bits[k] = w
				continue
			}
			e.bits[k] = engine.FlagMask(f)
		}
	})
}

// candidates packs uns[k:k+64] (fewer at the end) into a word and masks
// it with the vertices that have arcs, linked word w; the loop has no
// branch on the data, so a random pattern of settled vertices costs no
// mispredictions. A full word is read eight flags at a time.
func candidates(uns []bool, linked uint64) uint64 {
	var m uint64
	if len(uns) == 64 {
		b := unsafe.Slice((*byte)(unsafe.Pointer(&uns[0])), 64)
		for j := 0; j < 64; j += 8 {
			m |= packBools(binary.LittleEndian.Uint64(b[j:])) << j
		}
		return m & linked
	}
	for j, un := range uns {
		var b uint64
		if un {
			b = 1
		}
		m |= b << (j & 63)
	}
	return m & linked
}

// packBools returns the 8 bits of eight bools read little-endian (each
// byte 0 or 1), byte k as bit k: the multiplication moves byte k's bit to
// bit 56+k, and no two partial products share a bit.
func packBools(x uint64) uint64 {
	return ((x & 0x0101010101010101) * 0x0102040810204080) >> 56
}

// pullRange runs the pull step over vertices [lo, hi) (lo a multiple of
// 64) of the rows r and returns how many it made active and their
// out-arcs; uns is scratch of at least hi-lo. c0, when not nil, is every
// arc's contribution (see Step); plain says p is an engine.PlainMin.
func pullRange[V engine.Value](p engine.EarlyExit[V], plain bool, op engine.EdgeOp, c0 *V, r *rows,
	values []V, bits []uint64, next []uint8, uns []bool, lo, hi int) (cnt, arcs uint64) {
	nx := next[lo:hi]
	clear(nx)
	uns = uns[:len(nx)]
	p.Unsettled(uint32(lo), values, uns)
	for k := 0; k < len(uns); k += 64 {
		m := candidates(uns[k:min(k+64, len(uns))], r.linked[(lo+k)>>6])
		for m != 0 {
			i := k + mbits.TrailingZeros64(m)
			m &= m - 1
			v := lo + i
			u, j, deg, ok := r.findActive(v, bits)
			if !ok {
				continue
			}
			var c V
			if c0 != nil {
				c = *c0
			} else {
				var w uint32
				if r.wts != nil {
					w = r.wts[r.off[v]+j]
				}
				c = engine.Contribute(op, values[u], w)
			}
			if plain {
				// engine.PlainMin: Apply is the min, done here without the
				// call.
				if c >= values[v] {
					continue
				}
				values[v] = c
			} else if !p.Apply(uint32(v), c, values) {
				continue
			}
			nx[i] = 1
			cnt++
			arcs += deg
		}
	}
	return cnt, arcs
}

// findActive returns the first in-neighbour u of v (a vertex with in-arcs)
// that is active, its bit set in bits, the index of its arc in v's row and
// v's out-degree, or ok false when none is. The row's first entry and the
// out-degree are read from head, the row itself (offsets and entries) only
// when that entry is not active and the row has more.
func (r *rows) findActive(v int, bits []uint64) (u uint32, j, deg uint64, ok bool) {
	h := r.head[v]
	if u = uint32(h); bits[u>>6]&(1<<(u&63)) != 0 {
		return u, 0, r.outDegree(v, h), true
	}
	if r.single[v>>6]&(1<<(v&63)) != 0 {
		return 0, 0, 0, false
	}
	a, b := r.off[v]+1, r.off[v+1]
	for j, u := range r.src[a:b] {
		if bits[u>>6]&(1<<(u&63)) != 0 {
			return u, uint64(j) + 1, r.outDegree(v, h), true
		}
	}
	return 0, 0, 0, false
}

// outDegree returns v's out-degree, given its head entry h.
func (r *rows) outDegree(v int, h uint64) uint64 {
	if d := h >> 32; d != headSaturated {
		return d
	}
	return r.outOff[v+1] - r.outOff[v]
}

// scanRange is pullRange's dry run: it counts the unsettled vertices of
// [lo, hi) that have an active in-neighbour, calling neither Apply nor
// writing anything but uns.
func scanRange[V engine.Value](p engine.EarlyExit[V], r *rows, values []V, bits []uint64, uns []bool, lo, hi int) (found uint64) {
	uns = uns[:hi-lo]
	p.Unsettled(uint32(lo), values, uns)
	for k := 0; k < len(uns); k += 64 {
		m := candidates(uns[k:min(k+64, len(uns))], r.linked[(lo+k)>>6])
		for m != 0 {
			v := lo + k + mbits.TrailingZeros64(m)
			m &= m - 1
			if _, _, _, ok := r.findActive(v, bits); ok {
				found++
			}
		}
	}
	return found
}

// Estimate returns the expected time of a Step from active: the flags are
// packed as in Step (timed in full), then one vertex range in sampleStride
// (at least one) is scanned on the calling goroutine as a dry run
// (Unsettled and the early-exit scan, no Apply, no writes but scratch), and
// its time is scaled by ranges / sampled ranges and divided by the worker
// count.
// Ranges at the start of the numbering hold the hubs, so the sample takes
// evenly spaced ranges from the whole vertex set.
func (e *Engine[V]) Estimate(ctx context.Context, p engine.EarlyExit[V], values []V, active []uint8) (time.Duration, error) {
	if err := e.check(p, values, active, errNotEarlyExit); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	chunks := (e.n + e.chunk - 1) / e.chunk
	if chunks == 0 {
		return 0, nil
	}
	e.prepare()
	start := time.Now()
	e.pack(active)
	packed := time.Now()
	var found uint64
	sampled := 0
	for c := sampleStride / 2 % chunks; c < chunks; c += sampleStride {
		lo, hi := c*e.chunk, min(e.n, (c+1)*e.chunk)
		e.rows.derive(lo, hi)
		found += scanRange(p, &e.rows, values, e.bits, e.ws[0].uns, lo, hi)
		sampled++
	}
	d := time.Since(packed)
	e.sink = found
	return packed.Sub(start) + time.Duration(float64(d)*float64(chunks)/float64(sampled)/float64(e.workers)), nil
}

// run hands the work units 0..n-1 to the workers dynamically; fn gets the
// worker's index and the unit. Worker 0 runs on the calling goroutine.
func (e *Engine[V]) run(n int, fn func(w, i int)) { par.Each(n, e.workers, fn) }
