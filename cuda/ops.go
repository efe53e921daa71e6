package cuda

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/ops"
)

// The Go mirrors of the operators' C types (mgraph.h; checked in
// ops_cuda.go).
type opArgs struct {
	a [ops.MaxArrays]unsafe.Pointer
	u [ops.MaxScalars]uint64
	f [ops.MaxScalars]float64
}

type opGraph struct {
	n, m                  uint64
	offsets, dst, weights unsafe.Pointer
}

type opIn struct {
	list, flags unsafe.Pointer
	count       uint64
	arcs        int32
	_           int32
}

type opOut struct {
	list, flags, bitmap, count unsafe.Pointer
	capacity                   uint64
	what                       int32
	_                          int32
	universe                   uint64
}

// opTemp is operator scratch (mg_op_temp_bytes).
type opTemp struct {
	p     unsafe.Pointer
	bytes uint64
}

// Load-balancing strategies as mgraph.h numbers them.
const (
	lbThread = 1
	lbTWC    = 2
	lbMerged = 3
)

// opsMem is device memory of an operator device: a block of its pool
// (Free gives it back) of at least bytes.
type opsMem struct {
	d     *OpsDevice
	b     *Buffer[byte]
	bytes uint64
}

func (m *opsMem) Bytes() uint64 { return m.bytes }

func (m *opsMem) Ptr() unsafe.Pointer {
	if m.b == nil || m.b.Len() == 0 {
		return nil
	}
	return m.b.h.p
}

func (m *opsMem) Host() []byte { return nil }

func (m *opsMem) Upload(off uint64, src []byte) error {
	if off > m.bytes || uint64(len(src)) > m.bytes-off {
		return fmt.Errorf("cuda ops: upload of %d bytes at %d into %d", len(src), off, m.bytes)
	}
	if len(src) == 0 {
		return nil
	}
	return m.b.CopyFromHostAt(int(off), src)
}

func (m *opsMem) Download(off uint64, dst []byte) error {
	if off > m.bytes || uint64(len(dst)) > m.bytes-off {
		return fmt.Errorf("cuda ops: download of %d bytes at %d from %d", len(dst), off, m.bytes)
	}
	if len(dst) == 0 {
		return nil
	}
	return m.b.CopyToHostAt(int(off), dst)
}

func (m *opsMem) Free() error {
	if m.b == nil {
		return nil
	}
	b := m.b
	m.b = nil
	return m.d.release(b)
}

// viewMem is device memory the operator device does not own (the
// layout's arrays).
type viewMem struct {
	dev   int
	p     unsafe.Pointer
	bytes uint64
}

func (v viewMem) Bytes() uint64       { return v.bytes }
func (v viewMem) Ptr() unsafe.Pointer { return v.p }
func (v viewMem) Host() []byte        { return nil }
func (v viewMem) Upload(uint64, []byte) error {
	return fmt.Errorf("cuda ops: the layout's arrays are read-only")
}
func (v viewMem) Download(off uint64, dst []byte) error {
	if off > v.bytes || uint64(len(dst)) > v.bytes-off {
		return fmt.Errorf("cuda ops: download of %d bytes at %d from %d", len(dst), off, v.bytes)
	}
	if len(dst) == 0 {
		return nil
	}
	return backendCopyDtoH(v.dev, unsafe.Pointer(&dst[0]), unsafe.Add(v.p, off), uint64(len(dst)))
}
func (v viewMem) Free() error { return nil }

// OpsDevice runs mgraph's operators (package ops) on a GPU over a device
// layout. It is not safe for concurrent use, nor for use while the
// layout's backend runs something else.
type OpsDevice struct {
	dl      *DeviceLayout
	dev     int
	out, in *ops.Graph
	// scratch: the advance plan's prefix sums and the culling bitmap, kept
	// between calls and grown as needed; counter: one device word.
	scan, bitmap, counter, temp *Buffer[byte]
	// perm: the layout's permutation, uploaded by Original's first call;
	// mapped: its output before the copy to the host, through the pinned
	// staging buffer.
	perm    *Buffer[uint32]
	mapped  *Buffer[byte]
	staging *Pinned[byte]
	// member: a pull's input as flags (n bytes), made from a list.
	member *Buffer[byte]
	// results: where Result's values go (the backend's collector), or
	// nil (Result then copies into new memory through staging).
	results Results
	// pool: freed blocks by size class, reused by Alloc (cudaMalloc and
	// cudaFree synchronise and cost as much as a small kernel); pooled is
	// their bytes, at most MaxOpsPool; closed once Close ran.
	pool   map[uint64][]*Buffer[byte]
	pooled uint64
	closed bool
}

// Results is where an operator device hands its results over: the
// backend's Collector (its pinned result buffers), used under the
// backend's lock.
type Results interface {
	Uint32At(values unsafe.Pointer) ([]uint32, float32, error)
	Float64At(values unsafe.Pointer) ([]float64, float32, error)
}

// CollectWith makes Result map and copy through r.
func (d *OpsDevice) CollectWith(r Results) { d.results = r }

// MaxOpsPool bounds the bytes an operator device keeps for reuse.
const MaxOpsPool = 4 << 30

// minPoolClass is the smallest size class of the pool (bytes).
const minPoolClass = 4 << 10

// sizeClass rounds bytes up to the pool's class: a power of two.
func sizeClass(bytes uint64) uint64 {
	c := uint64(minPoolClass)
	for c < bytes {
		c <<= 1
	}
	return c
}

// release takes a block back into the pool, or frees it when the pool is
// full or the device closed.
func (d *OpsDevice) release(b *Buffer[byte]) error {
	c := b.Bytes()
	if d.closed || d.pooled+c > MaxOpsPool || c != sizeClass(c) {
		return b.Free()
	}
	d.pool[c] = append(d.pool[c], b)
	d.pooled += c
	return nil
}

// tempFor returns scratch for an operator over n elements.
func (d *OpsDevice) tempFor(n uint64) (opTemp, error) {
	need, err := backendOpTempBytes(n)
	if err != nil {
		return opTemp{}, err
	}
	if err := d.grow(&d.temp, need); err != nil {
		return opTemp{}, err
	}
	return opTemp{d.temp.h.p, d.temp.Bytes()}, nil
}

// NewOpsDevice returns an operator device over dl.
func NewOpsDevice(dl *DeviceLayout) (*OpsDevice, error) {
	d := &OpsDevice{dl: dl, dev: dl.dev.ordinal, pool: map[uint64][]*Buffer[byte]{}}
	s := &dl.desc
	var w unsafe.Pointer
	if s.sparseWeights != 0 {
		w = evp(s.sparseWeights)
	}
	d.out = &ops.Graph{NumVertices: s.n, NumArcs: s.m,
		Offsets: viewMem{d.dev, evp(s.sparseOffsets), 8 * (s.n + 1)},
		Dst:     viewMem{d.dev, evp(s.sparseDst), 4 * s.m}}
	if w != nil {
		d.out.Weights = viewMem{d.dev, w, 4 * s.m}
	}
	var err error
	if d.counter, err = Alloc[byte](dl.dev, 8); err != nil {
		return nil, err
	}
	return d, nil
}

var _ ops.Device = (*OpsDevice)(nil)

// Name returns "cuda".
func (d *OpsDevice) Name() string { return "cuda" }

// Layout returns the layout on the device.
func (d *OpsDevice) Layout() *layout.Layout { return d.dl.l }

// Out returns the layout's sparse part.
func (d *OpsDevice) Out() *ops.Graph { return d.out }

// In returns the in-adjacency: the sparse part for an undirected layout,
// its transpose (built now if it was not, without weights) for a directed
// one.
func (d *OpsDevice) In() (*ops.Graph, error) {
	if !d.dl.l.Directed {
		return d.out, nil
	}
	if d.in != nil {
		return d.in, nil
	}
	if !d.dl.HasIn() {
		if err := d.dl.BuildIn(); err != nil {
			return nil, fmt.Errorf("cuda ops: in-adjacency: %w", err)
		}
	}
	s := &d.dl.desc
	d.in = &ops.Graph{NumVertices: s.n, NumArcs: s.m,
		Offsets: viewMem{d.dev, evp(s.inOffsets), 8 * (s.n + 1)},
		Dst:     viewMem{d.dev, evp(s.inSrc), 4 * s.m}}
	return d.in, nil
}

// Alloc returns device memory: a block of its size class from the pool,
// or a new one.
func (d *OpsDevice) Alloc(bytes uint64) (ops.Mem, error) {
	c := sizeClass(bytes)
	if free := d.pool[c]; len(free) > 0 {
		b := free[len(free)-1]
		d.pool[c] = free[:len(free)-1]
		d.pooled -= c
		return &opsMem{d: d, b: b, bytes: bytes}, nil
	}
	b, err := Alloc[byte](d.dl.dev, int(c))
	if err != nil {
		return nil, fmt.Errorf("cuda ops: %w", err)
	}
	return &opsMem{d: d, b: b, bytes: bytes}, nil
}

// Fill sets n elements of m.
func (d *OpsDevice) Fill(m ops.Mem, elemBytes int, value uint64, n int) error {
	if uint64(n)*uint64(elemBytes) > m.Bytes() {
		return fmt.Errorf("cuda ops: fill of %d %d-byte elements in %d bytes", n, elemBytes, m.Bytes())
	}
	return backendOpFill(d.dev, m.Ptr(), elemBytes, value, uint64(n))
}

// grow makes *b at least bytes long.
func (d *OpsDevice) grow(b **Buffer[byte], bytes uint64) error {
	if err := growBuffer(d.dl.dev, b, bytes); err != nil {
		return fmt.Errorf("cuda ops: scratch of %d bytes: %w", bytes, err)
	}
	return nil
}

func (d *OpsDevice) args(f *ops.Functor) (*opArgs, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	a := new(opArgs)
	for i, m := range f.Arrays {
		if m != nil {
			a.a[i] = m.Ptr()
		}
	}
	copy(a.u[:], f.Ints)
	copy(a.f[:], f.Floats)
	return a, nil
}

func graphOf(g *ops.Graph) *opGraph {
	og := &opGraph{n: g.NumVertices, m: g.NumArcs, offsets: g.Offsets.Ptr(), dst: g.Dst.Ptr()}
	if g.Weights != nil {
		og.weights = g.Weights.Ptr()
	}
	return og
}

// input describes frontier in (nil: every one of all elements).
func input(in *ops.Frontier, all uint64) *opIn {
	if in == nil {
		return &opIn{count: all}
	}
	x := &opIn{}
	if in.Kind() == ops.Arcs {
		x.arcs = 1
	}
	if in.Dense() {
		x.flags = in.Flags.Mem().Ptr()
		x.count = uint64(in.Universe())
	} else {
		if in.List != nil {
			x.list = in.List.Mem().Ptr()
		}
		x.count = uint64(in.Len())
	}
	return x
}

// output prepares out to receive up to most elements out of universe and
// describes it.
func (d *OpsDevice) output(out *ops.Frontier, what int32, most uint64, unique bool) (*opOut, error) {
	o := &opOut{what: what, count: d.counter.h.p}
	if out == nil {
		return o, nil
	}
	universe := uint64(out.Universe())
	o.universe = universe
	if out.Dense() || unique {
		if err := d.grow(&d.bitmap, 4*((universe+31)/32)); err != nil {
			return nil, err
		}
		o.bitmap = d.bitmap.h.p
		most = min(most, universe)
	}
	if out.Dense() {
		o.flags = out.Flags.Mem().Ptr()
		o.capacity = universe
		return o, nil
	}
	if err := out.Reserve(int(most)); err != nil {
		return nil, err
	}
	o.list = out.List.Mem().Ptr()
	o.capacity = uint64(out.List.Len())
	return o, nil
}

func checkVertexIn(op string, in *ops.Frontier, n uint64) error {
	if in != nil && in.Kind() == ops.Vertices && uint64(in.Universe()) != n {
		return fmt.Errorf("cuda ops: %s: frontier over %d vertices on a graph of %d", op, in.Universe(), n)
	}
	return nil
}

// Advance runs the advance operator (see ops.Device).
func (d *OpsDevice) Advance(ctx context.Context, g *ops.Graph, f *ops.Functor, in, out *ops.Frontier, o ops.AdvanceOptions) (ops.AdvanceStats, error) {
	var st ops.AdvanceStats
	if err := ctx.Err(); err != nil {
		return st, err
	}
	a, err := d.args(f)
	if err != nil {
		return st, err
	}
	if err := checkVertexIn("advance", in, g.NumVertices); err != nil {
		return st, err
	}
	what, err := outputKind(o.Output, out)
	if err != nil {
		return st, err
	}
	if err := ops.CheckDirection(o); err != nil {
		return st, err
	}
	x := input(in, g.NumVertices)
	size := int(x.count)
	if in != nil {
		size = in.Len()
	}
	if o.PullNow(size, g.NumVertices) {
		return d.pull(ctx, g, f, a, in, out, o)
	}
	if err := d.grow(&d.scan, 8*(x.count+1)); err != nil {
		return st, err
	}
	og := graphOf(g)
	t, err := d.tempFor(x.count)
	if err != nil {
		return st, err
	}
	var arcs uint64
	if err := backendOpAdvancePlan(d.dev, og, x, d.scan.h.p, &arcs, t); err != nil {
		return st, fmt.Errorf("advance with %s: %w", f.Name, err)
	}
	if o.PullAfterPlan(size, arcs) {
		return d.pull(ctx, g, f, a, in, out, o)
	}
	st.Strategy = ops.Choose(o.Strategy, size, arcs, g.NumVertices, g.NumArcs)
	st.Arcs = arcs
	oo, err := d.output(out, what, arcs, o.Unique)
	if err != nil {
		return st, err
	}
	lb := map[ops.Strategy]int{ops.ThreadMapped: lbThread, ops.TWC: lbTWC, ops.Merged: lbMerged}[st.Strategy]
	var written uint64
	if err := backendOpAdvance(d.dev, f.ID, a, og, x, d.scan.h.p, arcs, lb, oo, &written); err != nil {
		return st, fmt.Errorf("advance with %s: %w", f.Name, err)
	}
	if out != nil && what != 0 {
		out.SetLen(int(written))
		st.Output = int(written)
	}
	return st, ctx.Err()
}

// pull runs the pull advance (ops.Pull) over g's transpose.
func (d *OpsDevice) pull(ctx context.Context, g *ops.Graph, f *ops.Functor, a *opArgs, in, out *ops.Frontier, o ops.AdvanceOptions) (ops.AdvanceStats, error) {
	st := ops.AdvanceStats{Strategy: o.Strategy, Direction: ops.Pull}
	t, err := ops.Transposed(d, g, in, out, o)
	if err != nil {
		return st, fmt.Errorf("cuda ops: advance with %s: %w", f.Name, err)
	}
	x := input(in, g.NumVertices)
	var member unsafe.Pointer
	if x.list != nil {
		if err := d.grow(&d.member, g.NumVertices); err != nil {
			return st, err
		}
		member = d.member.h.p
	}
	oo, err := d.output(out, int32(ops.OutVertices), g.NumVertices, false)
	if err != nil {
		return st, err
	}
	first := 0
	if o.First {
		first = 1
	}
	var written uint64
	if err := backendOpAdvancePull(d.dev, f.ID, a, graphOf(t), x, member, first, oo, &written); err != nil {
		return st, fmt.Errorf("pull advance with %s: %w", f.Name, err)
	}
	out.SetLen(int(written))
	st.Output = int(written)
	return st, ctx.Err()
}

// outputKind checks an advance's output frontier against what it gets.
func outputKind(o ops.Output, out *ops.Frontier) (int32, error) {
	switch o {
	case ops.OutNone:
		return 0, nil
	case ops.OutVertices, ops.OutArcs:
		want := ops.Vertices
		if o == ops.OutArcs {
			want = ops.Arcs
		}
		if out == nil || out.Kind() != want {
			return 0, fmt.Errorf("cuda ops: advance: output %d needs an output frontier of kind %d", o, want)
		}
		return int32(o), nil
	}
	return 0, fmt.Errorf("cuda ops: advance: unknown output %d", o)
}

// Filter runs the filter operator.
func (d *OpsDevice) Filter(ctx context.Context, f *ops.Functor, in, out *ops.Frontier, o ops.FilterOptions) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	a, err := d.args(f)
	if err != nil {
		return err
	}
	n := d.dl.desc.n
	if err := checkVertexIn("filter", in, n); err != nil {
		return err
	}
	if out == nil {
		return fmt.Errorf("cuda ops: filter with %s: no output frontier", f.Name)
	}
	x := input(in, n)
	oo, err := d.output(out, int32(ops.OutVertices), x.count, o.Unique)
	if err != nil {
		return err
	}
	if !out.Dense() && !o.Unique {
		oo.bitmap = nil
	}
	t, err := d.tempFor(x.count)
	if err != nil {
		return err
	}
	var written uint64
	if err := backendOpFilter(d.dev, f.ID, a, x, oo, &written, t); err != nil {
		return fmt.Errorf("filter with %s: %w", f.Name, err)
	}
	out.SetLen(int(written))
	return ctx.Err()
}

// Compute runs the compute operator.
func (d *OpsDevice) Compute(ctx context.Context, f *ops.Functor, in *ops.Frontier) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	a, err := d.args(f)
	if err != nil {
		return err
	}
	if err := checkVertexIn("compute", in, d.dl.desc.n); err != nil {
		return err
	}
	x := input(in, d.dl.desc.n)
	t, err := d.tempFor(x.count)
	if err != nil {
		return err
	}
	var written uint64
	if err := backendOpFilter(d.dev, f.ID, a, x, nil, &written, t); err != nil {
		return fmt.Errorf("compute with %s: %w", f.Name, err)
	}
	return ctx.Err()
}

// Sum runs the sum operator.
func (d *OpsDevice) Sum(ctx context.Context, f *ops.Functor, in *ops.Frontier) (float64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	a, err := d.args(f)
	if err != nil {
		return 0, err
	}
	if err := checkVertexIn("sum", in, d.dl.desc.n); err != nil {
		return 0, err
	}
	t, err := d.tempFor(0)
	if err != nil {
		return 0, err
	}
	var s float64
	if err := backendOpSum(d.dev, f.ID, a, input(in, d.dl.desc.n), &s, t); err != nil {
		return 0, fmt.Errorf("sum with %s: %w", f.Name, err)
	}
	return s, ctx.Err()
}

// Reduce runs the neighbourhood reduction.
func (d *OpsDevice) Reduce(ctx context.Context, g *ops.Graph, f *ops.Functor, in *ops.Frontier, op ops.ReduceOp) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	a, err := d.args(f)
	if err != nil {
		return err
	}
	if err := checkVertexIn("reduce", in, g.NumVertices); err != nil {
		return err
	}
	if in != nil && in.Kind() != ops.Vertices {
		return fmt.Errorf("cuda ops: reduce with %s: an arc frontier", f.Name)
	}
	if err := backendOpReduce(d.dev, f.ID, a, graphOf(g), input(in, g.NumVertices), int(op)); err != nil {
		return fmt.Errorf("reduce with %s: %w", f.Name, err)
	}
	return ctx.Err()
}

// Intersect runs the segmented intersection.
func (d *OpsDevice) Intersect(ctx context.Context, g *ops.Graph, f *ops.Functor, in *ops.Frontier) (uint64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	a, err := d.args(f)
	if err != nil {
		return 0, err
	}
	if in != nil && in.Kind() != ops.Arcs {
		return 0, fmt.Errorf("cuda ops: intersect with %s: needs an arc frontier", f.Name)
	}
	if g.NumArcs > ops.MaxArcFrontier {
		return 0, fmt.Errorf("cuda ops: intersect with %s: %d arcs (at most %d)", f.Name, g.NumArcs, uint64(ops.MaxArcFrontier))
	}
	x := input(in, g.NumArcs)
	x.arcs = 1
	t, err := d.tempFor(0)
	if err != nil {
		return 0, err
	}
	var total uint64
	if err := backendOpIntersect(d.dev, f.ID, a, graphOf(g), x, &total, t); err != nil {
		return 0, fmt.Errorf("intersect with %s: %w", f.Name, err)
	}
	return total, ctx.Err()
}

// FilterArcs returns the subgraph of the arcs f keeps.
func (d *OpsDevice) FilterArcs(ctx context.Context, g *ops.Graph, f *ops.Functor) (*ops.Graph, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	a, err := d.args(f)
	if err != nil {
		return nil, err
	}
	og := graphOf(g)
	off, err := d.Alloc(8 * (g.NumVertices + 1))
	if err != nil {
		return nil, err
	}
	t, err := d.tempFor(g.NumVertices)
	if err != nil {
		off.Free()
		return nil, err
	}
	var kept uint64
	if err := backendOpFilterArcsCount(d.dev, f.ID, a, og, off.Ptr(), &kept, t); err != nil {
		off.Free()
		return nil, fmt.Errorf("filter arcs with %s: %w", f.Name, err)
	}
	dst, err := d.Alloc(4 * kept)
	if err != nil {
		off.Free()
		return nil, err
	}
	var w ops.Mem
	if g.Weights != nil {
		if w, err = d.Alloc(4 * kept); err != nil {
			off.Free()
			dst.Free()
			return nil, err
		}
	}
	var wp unsafe.Pointer
	if w != nil {
		wp = w.Ptr()
	}
	sub := ops.NewOwnedGraph(g.NumVertices, kept, off, dst, w)
	if err := backendOpFilterArcsWrite(d.dev, f.ID, a, og, off.Ptr(), dst.Ptr(), wp); err != nil {
		sub.Close()
		return nil, fmt.Errorf("filter arcs with %s: %w", f.Name, err)
	}
	return sub, ctx.Err()
}

// Convert switches f between its sparse and dense forms.
func (d *OpsDevice) Convert(f *ops.Frontier, dense bool) error {
	if f.Dense() == dense {
		return nil
	}
	u := f.Universe()
	if dense {
		if f.Flags == nil {
			flags, err := ops.NewArray[uint8](d, u)
			if err != nil {
				return err
			}
			f.Flags = flags
		}
		var listp unsafe.Pointer
		if f.List != nil {
			listp = f.List.Mem().Ptr()
		}
		if err := backendListToFlags(d.dev, listp, uint32(f.Len()), f.Flags.Mem().Ptr(), uint64(u)); err != nil {
			return err
		}
		// Count the distinct elements.
		s, err := d.Sum(context.Background(), &ops.Functor{Name: "flagged", ID: ops.FnFlagged, Arrays: []ops.Mem{f.Flags.Mem()}}, nil)
		if err != nil {
			return err
		}
		f.SetLen(int(s))
		f.SetDense(true)
		return nil
	}
	if err := f.Reserve(f.Len()); err != nil {
		return err
	}
	var n uint64
	if err := backendFlagsToList(d.dev, f.Flags.Mem().Ptr(), uint64(u), f.List.Mem().Ptr(), d.counter.h.p); err != nil {
		return err
	}
	var c uint32
	if err := d.counter.CopyToHost(unsafe.Slice((*byte)(unsafe.Pointer(&c)), 4)); err != nil {
		return err
	}
	n = uint64(c)
	f.SetLen(int(n))
	f.SetDense(false)
	return nil
}

// Original maps layout-numbered vertex values into dst in original
// numbering on the device (the gather kernels of the resident runs) and
// copies them once.
func (d *OpsDevice) Original(m ops.Mem, elemBytes int, dst []byte) error {
	l := d.dl.l
	n := int(l.NumVertices)
	if err := ops.CheckOriginal(m, elemBytes, dst, n); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	if d.perm == nil {
		p, err := Alloc[uint32](d.dl.dev, n)
		if err != nil {
			return fmt.Errorf("cuda ops: original: %w", err)
		}
		if err := p.CopyFromHost(l.Perm); err != nil {
			p.Free()
			return err
		}
		d.perm = p
	}
	if err := d.grow(&d.mapped, uint64(len(dst))); err != nil {
		return err
	}
	var err error
	if elemBytes == 4 {
		err = backendGatherU32(d.dev, d.mapped.h.p, m.Ptr(), d.perm.h.p, uint64(n))
	} else {
		err = backendGatherF64(d.dev, d.mapped.h.p, m.Ptr(), d.perm.h.p, nil, uint64(n))
	}
	if err != nil {
		return fmt.Errorf("cuda ops: original: %w", err)
	}
	if d.staging == nil || len(d.staging.Slice()) < len(dst) {
		if err := d.staging.Free(); err != nil {
			return err
		}
		p, err := AllocPinned[byte](d.dl.dev, len(dst))
		if err != nil {
			d.staging = nil
			return d.mapped.CopyToHostAt(0, dst) // no pinned memory: straight to dst
		}
		d.staging = p
	}
	stage := d.staging.Slice()[:len(dst)]
	if err := d.mapped.CopyToHostAt(0, stage); err != nil {
		return err
	}
	par.Copy(dst, stage, 0, 1<<20)
	return nil
}

// Result maps m's vertex values to the original numbering on the device
// and copies them once into the backend's pinned result buffer (see
// ops.Device.Result), or, without one, into new host memory.
func (d *OpsDevice) Result(m ops.Mem, elemBytes int) ([]byte, error) {
	n := int(d.dl.l.NumVertices)
	if elemBytes != 4 && elemBytes != 8 {
		return nil, fmt.Errorf("cuda ops: result: %d-byte values (want 4 or 8)", elemBytes)
	}
	if m.Bytes() < uint64(n)*uint64(elemBytes) {
		return nil, fmt.Errorf("cuda ops: result: %d vertices of %d bytes from %d bytes", n, elemBytes, m.Bytes())
	}
	if d.results == nil || n == 0 {
		dst := make([]byte, n*elemBytes)
		if err := d.Original(m, elemBytes, dst); err != nil {
			return nil, err
		}
		return dst, nil
	}
	if elemBytes == 4 {
		v, _, err := d.results.Uint32At(m.Ptr())
		if err != nil {
			return nil, fmt.Errorf("cuda ops: result: %w", err)
		}
		return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 4*len(v)), nil
	}
	v, _, err := d.results.Float64At(m.Ptr())
	if err != nil {
		return nil, fmt.Errorf("cuda ops: result: %w", err)
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 8*len(v)), nil
}

// Close frees the device's scratch and pool.
func (d *OpsDevice) Close() error {
	var first error
	d.closed = true
	if d.perm != nil {
		first = d.perm.Free()
		d.perm = nil
	}
	if err := d.staging.Free(); err != nil && first == nil {
		first = err
	}
	d.staging = nil
	for c, bs := range d.pool {
		for _, b := range bs {
			if err := b.Free(); err != nil && first == nil {
				first = err
			}
		}
		delete(d.pool, c)
	}
	d.pooled = 0
	for _, b := range []**Buffer[byte]{&d.scan, &d.bitmap, &d.counter, &d.mapped, &d.temp, &d.member} {
		if *b != nil {
			if err := (*b).Free(); err != nil && first == nil {
				first = err
			}
			*b = nil
		}
	}
	return first
}
