package ops

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// Tuning of the CPU device's loops.
const (
	// ctxEvery is how many elements (arcs, rows or frontier elements) a
	// worker processes between checks of its context.
	ctxEvery = 1 << 16
	// minArcsPerWorker: a traversal of fewer arcs per worker (rows count
	// as one arc each where whole rows are shared out) uses fewer workers.
	minArcsPerWorker = 2048
	// minElemsPerWorker: a loop over fewer frontier elements or vertices
	// per worker uses fewer workers.
	minElemsPerWorker = 1024
	// minFillPerWorker: a Fill of fewer elements per worker uses fewer
	// workers.
	minFillPerWorker = 1 << 16
	// gallopRatio: Intersect searches the longer of two rows for each
	// element of the shorter, instead of merging them, when the longer is
	// this many times longer or more.
	gallopRatio = 8
)

// Sizes of the CPU device's storage.
const (
	// wordBits is the number of elements a word of a claim bitmap holds.
	wordBits = 32
	// allocAlign is the alignment of blocks Alloc returns: they are
	// []uint64 underneath, so that elements of up to 8 bytes are aligned.
	allocAlign = 8
)

// cpuDevice runs the operators on the host with a fixed number of worker
// goroutines. See NewCPU.
type cpuDevice struct {
	l       *layout.Layout
	workers int
	out     *Graph
	in      *Graph // a directed layout's in-adjacency, built by In's first call
}

// NewCPU returns a device that runs the operators on the host over layout
// l's sparse part with workers goroutines (0 = GOMAXPROCS). Its memory is
// the Go heap: Mem.Host is the block's bytes, and Array.Host and a Graph's
// Host slices give the app direct access.
//
// Functor calls are concurrent: an operator calls the Go twin from all its
// workers at once, so the twin's methods must be safe for that (update
// shared arrays with sync/atomic, or write only elements that one call
// owns). Every operator checks its functor (an error names the missing Go
// method), the kinds and universes of its frontiers and that their
// elements are below their universe, returning an error ("ops: advance:
// …") rather than panicking; it checks its context before it starts and
// every 64Ki elements per worker, and returns the context's error when
// cancelled (the functor may have been called on part of the input).
//
// The operators, precisely:
//
//   - Advance: a vertex frontier (sparse, or dense: its flagged vertices)
//     has its rows' arcs cut among the workers by arc count (a prefix sum
//     of the degrees and a binary search for each worker's first row, so
//     that a vertex of large degree is shared); an arc frontier is cut
//     evenly, each arc's source found by a binary search in the offsets.
//     Edge(src, dst, arc, w) is called once per arc (w = 0 unweighted).
//     For the calls that return true, OutVertices writes dst and OutArcs
//     the arc id; OutNone writes nothing and out may be nil (it is ignored).
//     A sparse output is overwritten with the workers' outputs
//     concatenated in worker order (deterministic for one worker), each
//     element once when Unique is set (an atomic claim in a bitmap); a
//     dense output is overwritten with the flags of the elements written,
//     Len their number. Stats: Arcs is the number of arcs visited, Output
//     out's new Len, Strategy Choose's pick (the CPU does not use it).
//   - Filter: Vertex is called on every element of in (nil: every vertex),
//     cut into contiguous chunks; a sparse output keeps the input order
//     (the chunks' outputs concatenated in chunk order). Unique first drops
//     repeated elements of a sparse input, keeping first occurrences, so
//     Vertex is called once per distinct element. out has in's kind and
//     universe, and may be in itself.
//   - Compute calls Vertex likewise; Sum adds Measure in float64, each
//     chunk's sum first, then the sums in chunk order (deterministic for a
//     worker count).
//   - Reduce folds Value(v, u, arc, w) over v's row with ReduceSum, Min or
//     Max (identities 0, +Inf, −Inf: an empty row gets the identity), then
//     calls Reduced(v, acc) once per element of in (nil: every vertex).
//     Whole rows are shared out by arc count.
//   - Intersect counts, for every arc (u, v) of g or of the arc frontier in,
//     the vertices rows u and v share (merging the sorted rows), calls
//     Common(u, v, arc, count) and returns the sum of the counts.
//   - FilterArcs calls Edge once per arc, counts the arcs kept per row,
//     scans the counts into offsets and copies the kept arcs (and weights,
//     when g is weighted) in order into a new graph the caller closes.
//   - Convert: sparse → dense sets the flags of the list's elements (Len
//     becomes their number without repeats); dense → sparse lists the
//     flagged elements in increasing order.
func NewCPU(l *layout.Layout, workers int) (Device, error) {
	if l == nil {
		return nil, errors.New("ops: cpu device: nil layout")
	}
	if workers < 0 {
		return nil, fmt.Errorf("ops: cpu device: negative worker count %d", workers)
	}
	out, err := hostGraph(l.NumVertices, l.NumArcs, l.SparseOffsets, l.SparseDst, l.SparseWeights)
	if err != nil {
		return nil, fmt.Errorf("ops: cpu device: the layout's sparse part: %w", err)
	}
	return &cpuDevice{l: l, workers: par.Workers(workers), out: out}, nil
}

// Name returns "cpu".
func (d *cpuDevice) Name() string { return "cpu" }

// Layout returns the device's layout.
func (d *cpuDevice) Layout() *layout.Layout { return d.l }

// Out returns the layout's sparse part, shared without a copy.
func (d *cpuDevice) Out() *Graph { return d.out }

// In returns Out for an undirected layout; for a directed one the
// transpose of its sparse part (layout.In), built by the first call.
func (d *cpuDevice) In() (*Graph, error) {
	if !d.l.Directed {
		return d.out, nil
	}
	if d.in == nil {
		in := d.l.In(d.workers)
		g, err := hostGraph(d.l.NumVertices, d.l.NumArcs, in.Offsets, in.Src, in.Weights)
		if err != nil {
			return nil, wrap("in-adjacency", err)
		}
		d.in = g
	}
	return d.in, nil
}

// Close drops the in-adjacency the device built (a later In builds it
// again).
func (d *cpuDevice) Close() error {
	d.in = nil
	return nil
}

// Alloc returns a zeroed block of bytes, aligned to 8 bytes.
func (d *cpuDevice) Alloc(bytes uint64) (Mem, error) {
	if bytes > math.MaxInt-allocAlign {
		return nil, fmt.Errorf("ops: alloc of %d bytes: too large", bytes)
	}
	return newHostMem(int(bytes)), nil
}

// Fill sets the first n elements of m (1, 4 or 8 bytes wide, aligned) to
// value's low bytes.
func (d *cpuDevice) Fill(m Mem, elemBytes int, value uint64, n int) error {
	return wrap("fill", d.fill(m, elemBytes, value, n))
}

func (d *cpuDevice) fill(m Mem, elemBytes int, value uint64, n int) error {
	if elemBytes != 1 && elemBytes != 4 && elemBytes != 8 {
		return fmt.Errorf("elements of %d bytes (want 1, 4 or 8)", elemBytes)
	}
	if m == nil || m.Host() == nil {
		return errors.New("memory is not on the host")
	}
	host := m.Host()
	if n < 0 || uint64(n)*uint64(elemBytes) > uint64(len(host)) {
		return fmt.Errorf("%d elements of %d bytes in a block of %d", n, elemBytes, len(host))
	}
	if n == 0 {
		return nil
	}
	p := unsafe.Pointer(&host[0])
	if uintptr(p)%uintptr(elemBytes) != 0 {
		return fmt.Errorf("block not aligned for %d-byte elements", elemBytes)
	}
	switch elemBytes {
	case 1:
		fillSlice(d.workers, host[:n], uint8(value))
	case 4:
		fillSlice(d.workers, unsafe.Slice((*uint32)(p), n), uint32(value))
	default:
		fillSlice(d.workers, unsafe.Slice((*uint64)(p), n), value)
	}
	return nil
}

// fillSlice sets every element of s to x.
func fillSlice[T any](workers int, s []T, x T) {
	par.For(len(s), workers, minFillPerWorker, func(lo, hi int) {
		part := s[lo:hi]
		for i := range part {
			part[i] = x
		}
	})
}

// Advance: see NewCPU.
func (d *cpuDevice) Advance(ctx context.Context, g *Graph, f *Functor, in, out *Frontier, o AdvanceOptions) (AdvanceStats, error) {
	s, err := d.advance(ctx, g, f, in, out, o)
	return s, wrap("advance", err)
}

func (d *cpuDevice) advance(ctx context.Context, g *Graph, f *Functor, in, out *Frontier, o AdvanceOptions) (AdvanceStats, error) {
	edge, err := twin[EdgeFunc](f, "Edge")
	if err != nil {
		return AdvanceStats{}, err
	}
	if err := ctx.Err(); err != nil {
		return AdvanceStats{}, err
	}
	if err := checkGraph(g); err != nil {
		return AdvanceStats{}, err
	}
	if err := checkAdvanceOutput(g, out, o.Output); err != nil {
		return AdvanceStats{}, err
	}
	if err := CheckDirection(o); err != nil {
		return AdvanceStats{}, err
	}
	size := int(g.NumVertices)
	if in != nil {
		size = in.Len()
	}
	if o.PullNow(size, g.NumVertices) {
		return d.pull(ctx, g, f, edge, in, out, o)
	}
	var stats AdvanceStats
	var col *collector
	switch {
	case in == nil || in.Kind() == Vertices:
		var r *rows
		if r, err = d.rowsOf(g, in); err != nil {
			return AdvanceStats{}, err
		}
		if o.PullAfterPlan(size, r.arcs()) {
			return d.pull(ctx, g, f, edge, in, out, o)
		}
		stats.Arcs, col, err = d.advanceRows(ctx, g, r, edge, out, o)
	case in.Kind() == Arcs:
		stats.Arcs, col, err = d.advanceArcs(ctx, g, edge, in, out, o)
	default:
		err = fmt.Errorf("input frontier of unknown kind %d", in.Kind())
	}
	if err != nil {
		return AdvanceStats{}, err
	}
	stats.Strategy = Choose(o.Strategy, size, stats.Arcs, g.NumVertices, g.NumArcs)
	if col != nil {
		if err := col.write(d, out); err != nil {
			return AdvanceStats{}, err
		}
		stats.Output = out.Len()
	}
	return stats, nil
}

// checkAdvanceOutput checks that out can take what an advance over g
// writes.
func checkAdvanceOutput(g *Graph, out *Frontier, what Output) error {
	var kind Kind
	var universe uint64
	switch what {
	case OutNone:
		return nil
	case OutVertices:
		kind, universe = Vertices, g.NumVertices
	case OutArcs:
		kind, universe = Arcs, g.NumArcs
	default:
		return fmt.Errorf("unknown output %d", what)
	}
	if out == nil {
		return fmt.Errorf("output of %s without an output frontier", kindName(kind))
	}
	return checkOutput(out, kind, universe)
}

// newAdvanceCollector returns the collector of an advance's output, nil
// for OutNone.
func newAdvanceCollector(out *Frontier, o AdvanceOptions, workers int) *collector {
	if o.Output == OutNone {
		return nil
	}
	return newCollector(out, o.Unique, workers)
}

// pull is the pull advance over g's transpose (see Pull): the candidates
// are cut among the workers by count.
func (d *cpuDevice) pull(ctx context.Context, g *Graph, f *Functor, edge EdgeFunc, in, out *Frontier, o AdvanceOptions) (AdvanceStats, error) {
	vertex, err := twin[VertexFunc](f, "Vertex (a pull's candidates)")
	if err != nil {
		return AdvanceStats{}, err
	}
	t, err := Transposed(d, g, in, out, o)
	if err != nil {
		return AdvanceStats{}, err
	}
	if err := checkGraph(t); err != nil {
		return AdvanceStats{}, err
	}
	var member []uint32 // the input as a bitmap; nil: every vertex
	if in != nil {
		list, err := d.elementsOf(in)
		if err != nil {
			return AdvanceStats{}, err
		}
		member = newBitmap(int(g.NumVertices))
		for _, u := range list {
			member[u/wordBits] |= 1 << (u % wordBits)
		}
	}
	all := elems{form: allElems, n: int(t.NumVertices), kind: Vertices, universe: t.NumVertices}
	chunks := d.chunks(all.n, minElemsPerWorker)
	col := newCollector(out, false, len(chunks))
	off, src, wts := t.HostOffsets, t.HostDst, t.HostWeights
	err = d.each(ctx, all, chunks, func(c int, v uint32) {
		if !vertex.Vertex(v) {
			return
		}
		got := false
		for e := off[v]; e < off[v+1]; e++ {
			u := src[e]
			if member != nil && member[u/wordBits]&(1<<(u%wordBits)) == 0 {
				continue
			}
			if edge.Edge(u, v, e, weightOf(wts, e)) {
				got = true
				if o.First {
					break
				}
			}
		}
		if got {
			col.add(c, v)
		}
	})
	if err != nil {
		return AdvanceStats{}, err
	}
	if err := col.write(d, out); err != nil {
		return AdvanceStats{}, err
	}
	return AdvanceStats{Strategy: o.Strategy, Direction: Pull, Output: out.Len()}, nil
}

// advanceRows advances from the rows r, cutting their arcs among the
// workers by arc count; it returns the number of arcs visited.
func (d *cpuDevice) advanceRows(ctx context.Context, g *Graph, r *rows, edge EdgeFunc, out *Frontier, o AdvanceOptions) (uint64, *collector, error) {
	nw := d.workersFor(r.arcs(), minArcsPerWorker)
	col := newAdvanceCollector(out, o, nw)
	dst, wts, arcsOut := g.HostDst, g.HostWeights, o.Output == OutArcs
	err := walkArcs(ctx, r, nw, func(w int, u uint32, lo, hi uint64) {
		for e := lo; e < hi; e++ {
			v := dst[e]
			if edge.Edge(u, v, e, weightOf(wts, e)) {
				col.add(w, target(v, e, arcsOut))
			}
		}
	})
	return r.arcs(), col, err
}

// advanceArcs advances from the arc frontier in, cut evenly among the
// workers; it returns the number of arcs visited.
func (d *cpuDevice) advanceArcs(ctx context.Context, g *Graph, edge EdgeFunc, in, out *Frontier, o AdvanceOptions) (uint64, *collector, error) {
	if err := checkFrontier(in, "input", Arcs, g.NumArcs); err != nil {
		return 0, nil, err
	}
	list, err := d.elementsOf(in)
	if err != nil {
		return 0, nil, err
	}
	nw := d.workersFor(uint64(len(list)), minArcsPerWorker)
	col := newAdvanceCollector(out, o, nw)
	dst, wts, arcsOut := g.HostDst, g.HostWeights, o.Output == OutArcs
	err = walkArcList(ctx, g.HostOffsets, list, nw, func(w int, u uint32, e uint64) {
		v := dst[e]
		if edge.Edge(u, v, e, weightOf(wts, e)) {
			col.add(w, target(v, e, arcsOut))
		}
	})
	return uint64(len(list)), col, err
}

// target is what an advance writes for arc e to v: e when arcsOut, else v.
func target(v uint32, e uint64, arcsOut bool) uint32 {
	if arcsOut {
		return uint32(e)
	}
	return v
}

// Filter: see NewCPU.
func (d *cpuDevice) Filter(ctx context.Context, f *Functor, in, out *Frontier, o FilterOptions) error {
	return wrap("filter", d.filter(ctx, f, in, out, o))
}

func (d *cpuDevice) filter(ctx context.Context, f *Functor, in, out *Frontier, o FilterOptions) error {
	vertex, err := twin[VertexFunc](f, "Vertex")
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	src, err := d.elemsOf(in, o.Unique)
	if err != nil {
		return err
	}
	if out == nil {
		return errors.New("nil output frontier")
	}
	if err := checkOutput(out, src.kind, src.universe); err != nil {
		return err
	}
	chunks := d.chunks(src.n, minElemsPerWorker)
	col := newCollector(out, false, len(chunks))
	err = d.each(ctx, src, chunks, func(c int, x uint32) {
		if vertex.Vertex(x) {
			col.add(c, x)
		}
	})
	if err != nil {
		return err
	}
	return col.write(d, out)
}

// Compute: see NewCPU.
func (d *cpuDevice) Compute(ctx context.Context, f *Functor, in *Frontier) error {
	return wrap("compute", d.compute(ctx, f, in))
}

func (d *cpuDevice) compute(ctx context.Context, f *Functor, in *Frontier) error {
	vertex, err := twin[VertexFunc](f, "Vertex")
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	src, err := d.elemsOf(in, false)
	if err != nil {
		return err
	}
	return d.each(ctx, src, d.chunks(src.n, minElemsPerWorker), func(_ int, x uint32) { vertex.Vertex(x) })
}

// Sum: see NewCPU.
func (d *cpuDevice) Sum(ctx context.Context, f *Functor, in *Frontier) (float64, error) {
	s, err := d.sum(ctx, f, in)
	return s, wrap("sum", err)
}

func (d *cpuDevice) sum(ctx context.Context, f *Functor, in *Frontier) (float64, error) {
	measure, err := twin[MeasureFunc](f, "Measure")
	if err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	src, err := d.elemsOf(in, false)
	if err != nil {
		return 0, err
	}
	chunks := d.chunks(src.n, minElemsPerWorker)
	sums := make([]float64, len(chunks))
	err = d.each(ctx, src, chunks, func(c int, x uint32) { sums[c] += measure.Measure(x) })
	if err != nil {
		return 0, err
	}
	total := 0.0
	for _, s := range sums {
		total += s
	}
	return total, nil
}

// Reduce: see NewCPU.
func (d *cpuDevice) Reduce(ctx context.Context, g *Graph, f *Functor, in *Frontier, op ReduceOp) error {
	return wrap("reduce", d.reduce(ctx, g, f, in, op))
}

func (d *cpuDevice) reduce(ctx context.Context, g *Graph, f *Functor, in *Frontier, op ReduceOp) error {
	red, err := twin[ReduceFunc](f, "Value/Reduced")
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	identity, err := reduceIdentity(op)
	if err != nil {
		return err
	}
	if err := checkGraph(g); err != nil {
		return err
	}
	r, err := d.rowsOf(g, in)
	if err != nil {
		return err
	}
	dst, wts := g.HostDst, g.HostWeights
	s := &stopper{ctx: ctx}
	par.ForChunks(d.rowChunks(r), func(c par.Chunk) {
		t := s.ticker()
		for i := c.Lo; i < c.Hi; i++ {
			v := r.vertex(i)
			acc := identity
			if !t.pieces(r.off[v], r.off[v+1], func(lo, hi uint64) {
				for e := lo; e < hi; e++ {
					acc = fold(op, acc, red.Value(v, dst[e], e, weightOf(wts, e)))
				}
			}) {
				return
			}
			red.Reduced(v, acc)
			if t.tick(1) {
				return
			}
		}
	})
	return s.err()
}

// reduceIdentity is op's value over an empty row.
func reduceIdentity(op ReduceOp) (float64, error) {
	switch op {
	case ReduceSum:
		return 0, nil
	case ReduceMin:
		return math.Inf(1), nil
	case ReduceMax:
		return math.Inf(-1), nil
	}
	return 0, fmt.Errorf("unknown reduction %d", op)
}

// fold combines acc and x by op.
func fold(op ReduceOp, acc, x float64) float64 {
	switch op {
	case ReduceMin:
		if x < acc {
			return x
		}
		return acc
	case ReduceMax:
		if x > acc {
			return x
		}
		return acc
	}
	return acc + x
}

// Intersect: see NewCPU.
func (d *cpuDevice) Intersect(ctx context.Context, g *Graph, f *Functor, in *Frontier) (uint64, error) {
	n, err := d.intersect(ctx, g, f, in)
	return n, wrap("intersect", err)
}

func (d *cpuDevice) intersect(ctx context.Context, g *Graph, f *Functor, in *Frontier) (uint64, error) {
	common, err := twin[CommonFunc](f, "Common")
	if err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if err := checkGraph(g); err != nil {
		return 0, err
	}
	off, dst := g.HostOffsets, g.HostDst
	count := func(u uint32, e uint64) uint64 {
		v := dst[e]
		k := intersectCount(dst[off[u]:off[u+1]], dst[off[v]:off[v+1]])
		common.Common(u, v, e, k)
		return uint64(k)
	}
	var sums []uint64
	if in == nil {
		sums, err = d.intersectAll(ctx, g, count)
	} else {
		sums, err = d.intersectList(ctx, g, in, count)
	}
	if err != nil {
		return 0, err
	}
	var total uint64
	for _, s := range sums {
		total += s
	}
	return total, nil
}

// intersectAll runs count on every arc of g, cut among the workers by arc
// count, and returns each worker's sum of the counts.
func (d *cpuDevice) intersectAll(ctx context.Context, g *Graph, count func(u uint32, e uint64) uint64) ([]uint64, error) {
	r := allRows(g)
	nw := d.workersFor(r.arcs(), minArcsPerWorker)
	sums := make([]uint64, nw)
	err := walkArcs(ctx, r, nw, func(w int, u uint32, lo, hi uint64) {
		for e := lo; e < hi; e++ {
			sums[w] += count(u, e)
		}
	})
	return sums, err
}

// intersectList runs count on every arc of the arc frontier in, cut evenly
// among the workers, and returns each worker's sum of the counts.
func (d *cpuDevice) intersectList(ctx context.Context, g *Graph, in *Frontier, count func(u uint32, e uint64) uint64) ([]uint64, error) {
	if err := checkFrontier(in, "input", Arcs, g.NumArcs); err != nil {
		return nil, err
	}
	list, err := d.elementsOf(in)
	if err != nil {
		return nil, err
	}
	nw := d.workersFor(uint64(len(list)), minArcsPerWorker)
	sums := make([]uint64, nw)
	err = walkArcList(ctx, g.HostOffsets, list, nw, func(w int, u uint32, e uint64) { sums[w] += count(u, e) })
	return sums, err
}

// intersectCount returns the number of elements the sorted, repeat-free
// lists a and b share.
func intersectCount(a, b []uint32) uint32 {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a)*gallopRatio <= len(b) {
		return gallopCount(a, b)
	}
	var k uint32
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			k++
			i++
			j++
		}
	}
	return k
}

// gallopCount is intersectCount for a much shorter than b: for each
// element of a, an exponential then a binary search of what remains of b.
func gallopCount(a, b []uint32) uint32 {
	var k uint32
	for _, x := range a {
		lo, bound := 0, 1
		for bound < len(b) && b[bound] < x {
			lo, bound = bound, 2*bound
		}
		hi := min(bound+1, len(b)) // the first b[j] ≥ x is in [lo, hi], hi meaning none
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if b[mid] < x {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo < len(b) && b[lo] == x {
			k++
			lo++
		}
		b = b[lo:]
	}
	return k
}

// FilterArcs: see NewCPU.
func (d *cpuDevice) FilterArcs(ctx context.Context, g *Graph, f *Functor) (*Graph, error) {
	h, err := d.filterArcs(ctx, g, f)
	return h, wrap("filter arcs", err)
}

func (d *cpuDevice) filterArcs(ctx context.Context, g *Graph, f *Functor) (*Graph, error) {
	edge, err := twin[EdgeFunc](f, "Edge")
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := checkGraph(g); err != nil {
		return nil, err
	}
	r := allRows(g)
	chunks := d.rowChunks(r)
	keep := make([]bool, g.NumArcs) // each arc's entry written by one worker
	offM, offs := hostArray[uint64](int(g.NumVertices) + 1)
	if err := countKept(ctx, g, edge, chunks, keep, offs); err != nil {
		return nil, err
	}
	m := par.ExclusiveScan(offs) // offs[n] was 0: it becomes m
	dstM, dst := hostArray[uint32](int(m))
	h := NewOwnedGraph(g.NumVertices, m, offM, dstM, nil)
	h.HostOffsets, h.HostDst = offs, dst
	if g.Weighted() {
		wM, w := hostArray[uint32](int(m))
		h.Weights, h.HostWeights = wM, w
	}
	par.ForChunks(chunks, func(c par.Chunk) {
		for u := c.Lo; u < c.Hi; u++ {
			copyKept(g, h, keep, u)
		}
	})
	return h, nil
}

// countKept calls Edge on every arc of g, the rows cut into chunks, marks
// those kept in keep and sets counts[u] to the number kept of row u.
func countKept(ctx context.Context, g *Graph, edge EdgeFunc, chunks []par.Chunk, keep []bool, counts []uint64) error {
	off, dst, wts := g.HostOffsets, g.HostDst, g.HostWeights
	s := &stopper{ctx: ctx}
	par.ForChunks(chunks, func(c par.Chunk) {
		t := s.ticker()
		for u := c.Lo; u < c.Hi; u++ {
			var k uint64
			if !t.pieces(off[u], off[u+1], func(lo, hi uint64) {
				for e := lo; e < hi; e++ {
					if edge.Edge(uint32(u), dst[e], e, weightOf(wts, e)) {
						keep[e] = true
						k++
					}
				}
			}) {
				return
			}
			counts[u] = k
			if t.tick(1) {
				return
			}
		}
	})
	return s.err()
}

// copyKept copies the kept arcs of g's row u to h's row u.
func copyKept(g, h *Graph, keep []bool, u int) {
	p := h.HostOffsets[u]
	for e := g.HostOffsets[u]; e < g.HostOffsets[u+1]; e++ {
		if keep[e] {
			h.HostDst[p] = g.HostDst[e]
			if h.HostWeights != nil {
				h.HostWeights[p] = g.HostWeights[e]
			}
			p++
		}
	}
}

// Result: see Device. A CPU's result is a new slice.
func (d *cpuDevice) Result(m Mem, elemBytes int) ([]byte, error) {
	n := int(d.l.NumVertices)
	if elemBytes != 4 && elemBytes != 8 {
		return nil, fmt.Errorf("ops: result: %d-byte values (want 4 or 8)", elemBytes)
	}
	dst := hostBytes(make([]uint64, (n*elemBytes+7)/8))[:n*elemBytes] // 8-byte aligned
	if err := d.Original(m, elemBytes, dst); err != nil {
		return nil, err
	}
	return dst, nil
}

// Original: see Device.
func (d *cpuDevice) Original(m Mem, elemBytes int, dst []byte) error {
	n := int(d.l.NumVertices)
	if err := checkOriginal(m, elemBytes, dst, n); err != nil {
		return err
	}
	src, perm := m.Host(), d.l.Perm
	par.For(n, d.workers, 1<<14, func(lo, hi int) {
		for old := lo; old < hi; old++ {
			at := int(perm[old]) * elemBytes
			copy(dst[old*elemBytes:(old+1)*elemBytes], src[at:at+elemBytes])
		}
	})
	return nil
}

// Convert: see NewCPU.
func (d *cpuDevice) Convert(f *Frontier, dense bool) error {
	return wrap("convert", d.convert(f, dense))
}

func (d *cpuDevice) convert(f *Frontier, dense bool) error {
	switch {
	case f == nil:
		return errors.New("nil frontier")
	case f.Dense() == dense:
		return nil
	case dense:
		return d.toDense(f)
	}
	return d.toSparse(f)
}

// toDense sets the flags of sparse f's elements (allocating the flags when
// f has none) and makes f dense.
func (d *cpuDevice) toDense(f *Frontier) error {
	list, err := d.elementsOf(f)
	if err != nil {
		return err
	}
	if f.Flags == nil || f.Flags.Len() < f.Universe() {
		if err := f.Flags.Close(); err != nil {
			return err
		}
		f.Flags = nil
		if f.Flags, err = NewArray[uint8](d, f.Universe()); err != nil {
			return err
		}
	}
	flags, err := flagsOf(f)
	if err != nil {
		return err
	}
	seen := newBitmap(f.Universe())
	par.For(len(list), d.workers, minElemsPerWorker, func(lo, hi int) {
		for _, x := range list[lo:hi] {
			par.Claim(seen, x)
		}
	})
	f.SetLen(d.setFlags(flags, seen))
	f.SetDense(true)
	return nil
}

// toSparse lists dense f's flagged elements in increasing order and makes
// f sparse.
func (d *cpuDevice) toSparse(f *Frontier) error {
	flags, err := flagsOf(f)
	if err != nil {
		return err
	}
	list, err := d.flagged(flags, func(n int) ([]uint32, error) {
		if n == 0 {
			return nil, nil
		}
		if err := f.Reserve(n); err != nil {
			return nil, err
		}
		host := f.List.Host()
		if len(host) < n {
			return nil, errors.New("frontier list is not in host memory")
		}
		return host[:n], nil
	})
	if err != nil {
		return err
	}
	f.SetLen(len(list))
	f.SetDense(false)
	return nil
}

// Memory.

// cpuMem is a block of host memory: one Alloc made (owned: Free drops it),
// or a view of a layout's array (Free does nothing).
type cpuMem struct {
	host  []byte // nil once freed
	owned bool
}

// newHostMem allocates an owned block of bytes, aligned to allocAlign.
func newHostMem(bytes int) *cpuMem {
	words := make([]uint64, (bytes+allocAlign-1)/allocAlign)
	return &cpuMem{host: view[byte](hostBytes(words), bytes), owned: true}
}

// viewMem is a block viewing s, which it does not own.
func viewMem[T any](s []T) *cpuMem { return &cpuMem{host: hostBytes(s)} }

// hostArray allocates an owned block of n elements of T and returns it with
// its typed view.
func hostArray[T uint32 | uint64](n int) (*cpuMem, []T) {
	var zero T
	m := newHostMem(n * int(unsafe.Sizeof(zero)))
	return m, view[T](m.host, n)
}

// hostBytes returns s's bytes (empty, not nil, for an empty s).
func hostBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return []byte{}
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(zero)))
}

// view returns the first n elements of T of b (empty, not nil, for n = 0).
func view[T any](b []byte, n int) []T {
	if n == 0 {
		return []T{}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n)
}

// Bytes returns the block's size (0 once freed).
func (m *cpuMem) Bytes() uint64 { return uint64(len(m.host)) }

// Ptr returns the block's first byte, nil for an empty block.
func (m *cpuMem) Ptr() unsafe.Pointer {
	if len(m.host) == 0 {
		return nil
	}
	return unsafe.Pointer(&m.host[0])
}

// Host returns the block's bytes (nil once freed).
func (m *cpuMem) Host() []byte { return m.host }

// Upload copies src into the block from byte off.
func (m *cpuMem) Upload(off uint64, src []byte) error {
	if err := checkSpan("upload", off, len(src), uint64(len(m.host))); err != nil {
		return err
	}
	copy(m.host[off:], src)
	return nil
}

// Download copies the block from byte off into dst.
func (m *cpuMem) Download(off uint64, dst []byte) error {
	if err := checkSpan("download", off, len(dst), uint64(len(m.host))); err != nil {
		return err
	}
	copy(dst, m.host[off:])
	return nil
}

// Free drops an owned block (safe to call twice); a view is left alone.
func (m *cpuMem) Free() error {
	if m.owned {
		m.host = nil
	}
	return nil
}

// Graphs.

// hostGraph wraps host arrays, which it does not own, as a Graph.
func hostGraph(n, m uint64, off []uint64, dst, w []uint32) (*Graph, error) {
	if n == 0 && len(off) == 0 {
		off = []uint64{0}
	}
	if uint64(len(off)) != n+1 || uint64(len(dst)) != m || (w != nil && uint64(len(w)) != m) {
		return nil, fmt.Errorf("%d offsets, %d destinations and %d weights for %d vertices and %d arcs",
			len(off), len(dst), len(w), n, m)
	}
	if off[0] != 0 || off[n] != m {
		return nil, fmt.Errorf("offsets run from %d to %d, not from 0 to %d", off[0], off[n], m)
	}
	g := &Graph{NumVertices: n, NumArcs: m, Offsets: viewMem(off), Dst: viewMem(dst),
		HostOffsets: off, HostDst: dst, HostWeights: w}
	if w != nil {
		g.Weights = viewMem(w)
	}
	return g, nil
}

// checkGraph checks that g's arrays are on the host and consistent.
func checkGraph(g *Graph) error {
	switch {
	case g == nil:
		return errors.New("nil graph")
	case g.HostOffsets == nil:
		return errors.New("graph is not in host memory")
	case uint64(len(g.HostOffsets)) != g.NumVertices+1 || uint64(len(g.HostDst)) != g.NumArcs:
		return fmt.Errorf("graph of %d vertices and %d arcs has %d offsets and %d destinations",
			g.NumVertices, g.NumArcs, len(g.HostOffsets), len(g.HostDst))
	case g.Weighted() != (g.HostWeights != nil) || (g.HostWeights != nil && uint64(len(g.HostWeights)) != g.NumArcs):
		return fmt.Errorf("graph of %d arcs has %d host weights (weighted: %t)", g.NumArcs, len(g.HostWeights), g.Weighted())
	case g.HostOffsets[g.NumVertices] != g.NumArcs:
		return fmt.Errorf("graph of %d arcs has offsets up to %d", g.NumArcs, g.HostOffsets[g.NumVertices])
	}
	return nil
}

// weightOf is arc e's weight, 0 when the graph is unweighted (w nil).
func weightOf(w []uint32, e uint64) uint32 {
	if w == nil {
		return 0
	}
	return w[e]
}

// Frontiers.

// kindName names a kind's elements.
func kindName(k Kind) string {
	switch k {
	case Vertices:
		return "vertices"
	case Arcs:
		return "arcs"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// checkFrontier checks that f holds elements of kind out of universe.
func checkFrontier(f *Frontier, role string, kind Kind, universe uint64) error {
	if f == nil {
		return fmt.Errorf("nil %s frontier", role)
	}
	if f.Kind() != kind {
		return fmt.Errorf("%s frontier of %s, want %s", role, kindName(f.Kind()), kindName(kind))
	}
	if uint64(f.Universe()) != universe {
		return fmt.Errorf("%s frontier over %d %s, want %d", role, f.Universe(), kindName(kind), universe)
	}
	return nil
}

// checkOutput checks an output frontier's kind and universe, and that a
// dense one has its flags on the host.
func checkOutput(out *Frontier, kind Kind, universe uint64) error {
	if err := checkFrontier(out, "output", kind, universe); err != nil {
		return err
	}
	if out.Dense() {
		_, err := flagsOf(out)
		return err
	}
	return nil
}

// listOf returns sparse frontier f's elements on the host.
func listOf(f *Frontier) ([]uint32, error) {
	if f.Len() == 0 {
		return nil, nil
	}
	if f.List == nil || f.List.Len() < f.Len() {
		return nil, fmt.Errorf("frontier of %d elements without a list to hold them", f.Len())
	}
	host := f.List.Host()
	if host == nil {
		return nil, errors.New("frontier list is not in host memory")
	}
	return host[:f.Len()], nil
}

// flagsOf returns dense frontier f's flags on the host.
func flagsOf(f *Frontier) ([]uint8, error) {
	if f.Flags == nil || f.Flags.Len() < f.Universe() {
		return nil, fmt.Errorf("dense frontier over %d elements without its flags", f.Universe())
	}
	if f.Universe() == 0 {
		return nil, nil
	}
	host := f.Flags.Host()
	if host == nil {
		return nil, errors.New("frontier flags are not in host memory")
	}
	return host[:f.Universe()], nil
}

// elementsOf returns f's elements as a list: a sparse f's own (checked to
// be below its universe), or a dense f's flagged elements, increasing.
func (d *cpuDevice) elementsOf(f *Frontier) ([]uint32, error) {
	if f.Dense() {
		flags, err := flagsOf(f)
		if err != nil {
			return nil, err
		}
		return d.flagged(flags, func(n int) ([]uint32, error) { return make([]uint32, n), nil })
	}
	list, err := listOf(f)
	if err != nil {
		return nil, err
	}
	return list, d.checkIDs(list, f)
}

// checkIDs checks that list's elements are below f's universe.
func (d *cpuDevice) checkIDs(list []uint32, f *Frontier) error {
	limit := uint64(f.Universe())
	var bad atomic.Bool
	par.For(len(list), d.workers, minElemsPerWorker, func(lo, hi int) {
		for _, x := range list[lo:hi] {
			if uint64(x) >= limit {
				bad.Store(true)
				return
			}
		}
	})
	if !bad.Load() {
		return nil
	}
	for i, x := range list {
		if uint64(x) >= limit {
			return fmt.Errorf("element %d of the frontier, %d, is not below %d (its %s)", i, x, limit, kindName(f.Kind()))
		}
	}
	return nil
}

// flagged returns the indexes of the set flags, increasing, in the list
// alloc returns for their number.
func (d *cpuDevice) flagged(flags []uint8, alloc func(n int) ([]uint32, error)) ([]uint32, error) {
	chunks := d.chunks(len(flags), minElemsPerWorker)
	starts := make([]uint64, len(chunks))
	par.ForChunks(chunks, func(c par.Chunk) {
		var k uint64
		for _, x := range flags[c.Lo:c.Hi] {
			if x != 0 {
				k++
			}
		}
		starts[c.Index] = k
	})
	total := par.ExclusiveScan(starts)
	list, err := alloc(int(total))
	if err != nil {
		return nil, err
	}
	par.ForChunks(chunks, func(c par.Chunk) {
		p := starts[c.Index]
		for i := c.Lo; i < c.Hi; i++ {
			if flags[i] != 0 {
				list[p] = uint32(i)
				p++
			}
		}
	})
	return list, nil
}

// Element loops (Filter, Compute, Sum).

// elemsForm is how elems holds its elements.
type elemsForm int

const (
	allElems  elemsForm = iota // every vertex: position i is vertex i
	listElems                  // position i is list[i]
	flagElems                  // position i is element i when flags[i] is set
)

// elems is what Filter, Compute and Sum visit: positions [0, n), each
// holding an element or none, of kind out of universe.
type elems struct {
	form     elemsForm
	list     []uint32
	flags    []uint8
	n        int
	kind     Kind
	universe uint64
}

// at returns the element at position i, if any.
func (e *elems) at(i int) (uint32, bool) {
	switch e.form {
	case listElems:
		return e.list[i], true
	case flagElems:
		return uint32(i), e.flags[i] != 0
	}
	return uint32(i), true
}

// elemsOf returns in's elements (nil: every vertex of the layout), without
// repeats when unique is set (first occurrences kept).
func (d *cpuDevice) elemsOf(in *Frontier, unique bool) (elems, error) {
	if in == nil {
		n := d.l.NumVertices
		return elems{form: allElems, n: int(n), kind: Vertices, universe: n}, nil
	}
	e := elems{kind: in.Kind(), universe: uint64(in.Universe())}
	if e.kind == Vertices && e.universe != d.l.NumVertices {
		return elems{}, fmt.Errorf("input frontier over %d vertices on a graph of %d", e.universe, d.l.NumVertices)
	}
	if in.Dense() {
		flags, err := flagsOf(in)
		e.form, e.flags, e.n = flagElems, flags, len(flags)
		return e, err
	}
	list, err := d.elementsOf(in)
	if err != nil {
		return elems{}, err
	}
	if unique {
		list = firstOccurrences(list, in.Universe())
	}
	e.form, e.list, e.n = listElems, list, len(list)
	return e, nil
}

// firstOccurrences returns list without repeats, in order, keeping each
// element's first occurrence.
func firstOccurrences(list []uint32, universe int) []uint32 {
	seen := newBitmap(universe)
	out := make([]uint32, 0, len(list))
	for _, x := range list {
		word, bit := x/wordBits, uint32(1)<<(x%wordBits)
		if seen[word]&bit == 0 {
			seen[word] |= bit
			out = append(out, x)
		}
	}
	return out
}

// each calls fn(c, x) for every element x of e, for the positions of
// chunk c, the chunks concurrently; it returns the context's error when
// cancelled.
func (d *cpuDevice) each(ctx context.Context, e elems, chunks []par.Chunk, fn func(c int, x uint32)) error {
	s := &stopper{ctx: ctx}
	par.ForChunks(chunks, func(c par.Chunk) {
		t := s.ticker()
		t.pieces(uint64(c.Lo), uint64(c.Hi), func(lo, hi uint64) {
			for i := int(lo); i < int(hi); i++ {
				if x, ok := e.at(i); ok {
					fn(c.Index, x)
				}
			}
		})
	})
	return s.err()
}

// Output collection.

// collector gathers an operator's output for a frontier: per-worker lists
// for a sparse one (each element once when unique), a bitmap for a dense
// one.
type collector struct {
	dense  bool
	unique bool
	seen   []uint32   // claim bitmap, when dense or unique
	parts  [][]uint32 // per-worker lists, when sparse
}

// newCollector returns a collector for out and workers workers.
func newCollector(out *Frontier, unique bool, workers int) *collector {
	c := &collector{dense: out.Dense(), unique: unique || out.Dense()}
	if c.unique {
		c.seen = newBitmap(out.Universe())
	}
	if !c.dense {
		c.parts = make([][]uint32, workers)
	}
	return c
}

// add records element x from worker w (nothing on a nil collector).
func (c *collector) add(w int, x uint32) {
	if c == nil || (c.unique && !par.Claim(c.seen, x)) {
		return
	}
	if !c.dense {
		c.parts[w] = append(c.parts[w], x)
	}
}

// write replaces out's contents with what was collected.
func (c *collector) write(d *cpuDevice, out *Frontier) error {
	if c.dense {
		flags, err := flagsOf(out)
		if err != nil {
			return err
		}
		out.SetLen(d.setFlags(flags, c.seen))
		return nil
	}
	total := 0
	for _, p := range c.parts {
		total += len(p)
	}
	out.SetLen(0)
	if total == 0 {
		return nil
	}
	if err := out.Reserve(total); err != nil {
		return err
	}
	list := out.List.Host()
	if len(list) < total {
		return errors.New("output frontier list is not in host memory")
	}
	p := 0
	for _, part := range c.parts {
		p += copy(list[p:], part)
	}
	out.SetLen(total)
	return nil
}

// newBitmap returns a cleared bitmap of n bits.
func newBitmap(n int) []uint32 { return make([]uint32, (n+wordBits-1)/wordBits) }

// setFlags makes flags[i] 1 when bit i of seen is set and 0 otherwise, and
// returns the number of flags set.
func (d *cpuDevice) setFlags(flags []uint8, seen []uint32) int {
	var count atomic.Int64
	par.For(len(seen), d.workers, minElemsPerWorker/wordBits, func(lo, hi int) {
		k := 0
		for i := lo; i < hi; i++ {
			word := seen[i]
			k += bits.OnesCount32(word)
			base := i * wordBits
			for j := base; j < min(base+wordBits, len(flags)); j++ {
				flags[j] = uint8(word >> (j - base) & 1)
			}
		}
		count.Add(int64(k))
	})
	return int(count.Load())
}

// Work splitting.

// workersFor returns how many workers share units units of work, at least
// minPer each (and at least one worker).
func (d *cpuDevice) workersFor(units, minPer uint64) int {
	w := uint64(d.workers)
	if units/minPer < w {
		w = max(1, units/minPer)
	}
	return int(w)
}

// chunks cuts [0, n) into a chunk per worker, of at least minPer elements.
func (d *cpuDevice) chunks(n, minPer int) []par.Chunk {
	return par.Split(n, d.workersFor(uint64(n), uint64(minPer)))
}

// rows is a set of rows of a graph: those of a frontier's vertices (list),
// or of every vertex (list nil), with pre the prefix sum of their degrees
// (the graph's offsets themselves for every vertex) and off the graph's
// offsets.
type rows struct {
	list []uint32
	pre  []uint64
	off  []uint64
}

// allRows is every row of g.
func allRows(g *Graph) *rows { return &rows{pre: g.HostOffsets, off: g.HostOffsets} }

// rowsOf returns the rows of in's vertices (every vertex for in nil).
func (d *cpuDevice) rowsOf(g *Graph, in *Frontier) (*rows, error) {
	if in == nil {
		return allRows(g), nil
	}
	if err := checkFrontier(in, "input", Vertices, g.NumVertices); err != nil {
		return nil, err
	}
	list, err := d.elementsOf(in)
	if err != nil {
		return nil, err
	}
	off := g.HostOffsets
	pre := make([]uint64, len(list)+1)
	for i, u := range list {
		pre[i+1] = pre[i] + off[u+1] - off[u]
	}
	return &rows{list: list, pre: pre, off: off}, nil
}

// len is the number of rows.
func (r *rows) len() int { return len(r.pre) - 1 }

// arcs is the number of arcs of the rows.
func (r *rows) arcs() uint64 { return r.pre[r.len()] }

// vertex is row i's vertex.
func (r *rows) vertex(i int) uint32 {
	if r.list == nil {
		return uint32(i)
	}
	return r.list[i]
}

// rowChunks cuts r into a chunk of whole rows per worker, of nearly equal
// cost, a row costing one plus its degree.
func (d *cpuDevice) rowChunks(r *rows) []par.Chunk {
	f := r.len()
	cost := func(i int) uint64 { return r.pre[i] + uint64(i) } // of rows [0, i)
	total := cost(f)
	nw := d.workersFor(total, minArcsPerWorker)
	chunks := make([]par.Chunk, 0, nw)
	lo := 0
	for w := 1; w <= nw; w++ {
		hi := f
		if w < nw {
			c := total * uint64(w) / uint64(nw)
			hi = sort.Search(f, func(i int) bool { return cost(i) >= c })
		}
		if hi > lo {
			chunks = append(chunks, par.Chunk{Index: len(chunks), Lo: lo, Hi: hi})
			lo = hi
		}
	}
	return chunks
}

// walkArcs cuts r's arcs into nw equal shares, one per worker — a row may
// be shared by several — and calls visit(w, u, lo, hi) for worker w's arcs
// [lo, hi) of row u, in pieces of at most ctxEvery arcs.
func walkArcs(ctx context.Context, r *rows, nw int, visit func(w int, u uint32, lo, hi uint64)) error {
	total, f := r.arcs(), r.len()
	s := &stopper{ctx: ctx}
	par.Each(nw, nw, func(_, w int) {
		a, b := total*uint64(w)/uint64(nw), total*uint64(w+1)/uint64(nw)
		t := s.ticker()
		for i := par.FindStart(r.pre, a); i < f && r.pre[i] < b; i++ {
			u := r.vertex(i)
			base := r.off[u] - r.pre[i] // arc id of position p of row i: base + p
			if !t.pieces(max(a, r.pre[i])+base, min(b, r.pre[i+1])+base, func(lo, hi uint64) { visit(w, u, lo, hi) }) {
				return
			}
		}
	})
	return s.err()
}

// walkArcList cuts list (arc ids) evenly among nw workers and calls
// visit(w, u, e) for each arc e of worker w, u its source.
func walkArcList(ctx context.Context, off []uint64, list []uint32, nw int, visit func(w int, u uint32, e uint64)) error {
	s := &stopper{ctx: ctx}
	par.Each(nw, nw, func(_, w int) {
		lo, hi := len(list)*w/nw, len(list)*(w+1)/nw
		t := s.ticker()
		rf := rowFinder{off: off}
		for _, x := range list[lo:hi] {
			e := uint64(x)
			visit(w, rf.row(e), e)
			if t.tick(1) {
				return
			}
		}
	})
	return s.err()
}

// rowFinder finds the rows holding arcs, remembering the last one: the
// arcs of one row after another cost one search.
type rowFinder struct {
	off    []uint64
	u      uint32
	lo, hi uint64 // row u's arcs
}

// row returns the row holding arc e.
func (f *rowFinder) row(e uint64) uint32 {
	if e < f.lo || e >= f.hi {
		f.u = uint32(par.FindStart(f.off, e))
		f.lo, f.hi = f.off[f.u], f.off[f.u+1]
	}
	return f.u
}

// Cancellation.

// stopper lets the workers of one operator call notice a cancelled
// context: each checks it every ctxEvery elements, and the first to see it
// cancelled stops the others.
type stopper struct {
	ctx     context.Context
	stopped atomic.Bool
}

// ticker is one worker's count towards its next check of the context.
type ticker struct {
	s    *stopper
	left int
}

// ticker returns a worker's ticker.
func (s *stopper) ticker() ticker { return ticker{s: s, left: ctxEvery} }

// err returns the context's error when the workers stopped for it.
func (s *stopper) err() error {
	if s.stopped.Load() {
		return s.ctx.Err()
	}
	return nil
}

// tick counts k elements done and reports whether the worker must stop.
func (t *ticker) tick(k int) bool {
	if t.left -= k; t.left > 0 {
		return false
	}
	t.left = ctxEvery
	if t.s.stopped.Load() {
		return true
	}
	if t.s.ctx.Err() != nil {
		t.s.stopped.Store(true)
		return true
	}
	return false
}

// pieces calls fn on [lo, hi) in pieces of at most ctxEvery elements,
// ticking after each; it reports false when the worker must stop.
func (t *ticker) pieces(lo, hi uint64, fn func(lo, hi uint64)) bool {
	for lo < hi {
		end := min(hi, lo+ctxEvery)
		fn(lo, end)
		if t.tick(int(end - lo)) {
			return false
		}
		lo = end
	}
	return true
}

// Errors.

// opError is an operator's error, "ops: <op>: <cause>" (the cause's own
// "ops: " prefix dropped); it unwraps to the cause (context.Canceled, …).
type opError struct {
	op  string
	err error
}

// Error returns "ops: <op>: <cause>".
func (e *opError) Error() string {
	return "ops: " + e.op + ": " + strings.TrimPrefix(e.err.Error(), "ops: ")
}

// Unwrap returns the cause.
func (e *opError) Unwrap() error { return e.err }

// wrap returns err as operator op's error (nil for nil).
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return &opError{op: op, err: err}
}
