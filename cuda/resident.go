package cuda

import (
	"fmt"
	"unsafe"
)

// CCEvents is MG_CC_EVENTS: the events mg_cc_hook records.
const CCEvents = 4

// CCPhases names the kernel times of a hooking run (HookComponents), in
// order: the sampling rounds with their compression, the remaining arcs of
// the vertices outside the big component, and the last compression.
var CCPhases = []string{"cc-sample", "cc-finish", "cc-compress"}

// Pinned is page-locked host memory for n elements of T (cudaHostAlloc):
// device-to-host copies into it run asynchronously and at the bus's full
// speed. T must be plain data, as for Buffer.
type Pinned[T any] struct {
	dev int
	p   unsafe.Pointer
	n   int
}

// AllocPinned allocates pinned host memory for n elements of T, usable
// with device d.
func AllocPinned[T any](d Device, n int) (*Pinned[T], error) {
	size, err := elemSize[T]("AllocPinned")
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, invalidf("AllocPinned", "negative length %d", n)
	}
	p, err := backendHostAlloc(d.ordinal, uint64(n)*size)
	if err != nil {
		return nil, err
	}
	return &Pinned[T]{dev: d.ordinal, p: p, n: n}, nil
}

// Slice returns the memory as a slice (valid until Free).
func (h *Pinned[T]) Slice() []T {
	if h == nil || h.p == nil {
		return []T{}
	}
	return unsafe.Slice((*T)(h.p), h.n)
}

// Free releases the memory; freeing twice is harmless.
func (h *Pinned[T]) Free() error {
	if h == nil || h.p == nil {
		return nil
	}
	p := h.p
	h.p = nil
	return backendHostFree(h.dev, p)
}

// Collector turns a run's values (layout numbering, on the device) into the
// result a user gets: in the original numbering, in host memory. The
// mapping runs on the device (the layout's permutation is uploaded once,
// NewCollector) and the result is copied once into pinned host memory that
// the collector owns and reuses: a returned slice stays valid until the
// next collection of the same value type, or Close. With Into, results go
// into the caller's pinned memory instead.
type Collector struct {
	dl       *DeviceLayout
	perm     *Buffer[uint32]
	outU32   *Buffer[uint32]
	smallest *Buffer[uint32]
	hostU32  *Pinned[uint32]
	outF64   *Buffer[float64]
	hostF64  *Pinned[float64]
	scratch  *Buffer[uint64]  // the reduction's partials (normalised results)
	sum      *Buffer[float64] // their sum
	ids      *Buffer[uint32]  // BFS parents in the layout numbering
	inv      *Buffer[uint32]  // the layout's InvPerm (new id to old), for ids
	ev       [2]uintptr
	target   unsafe.Pointer // Into's page-locked memory, or nil
	tbytes   uint64         // its size
	owned
}

// NewCollector uploads dl's permutation (original id to layout id).
func NewCollector(dl *DeviceLayout) (*Collector, error) {
	c := &Collector{dl: dl}
	fail := func(e error) (*Collector, error) { c.Close(); return nil, e }
	n := int(dl.desc.n)
	if len(dl.l.Perm) != n {
		return nil, invalidf("NewCollector", "the layout has %d permutation entries for %d vertices", len(dl.l.Perm), n)
	}
	var err error
	if c.perm, err = allocOwned[uint32](&c.owned, dl.dev, n); err != nil {
		return fail(err)
	}
	if err := c.perm.CopyFromHost(dl.l.Perm); err != nil {
		return fail(err)
	}
	if err := c.newEvents(dl.dev, c.ev[:]); err != nil {
		return fail(err)
	}
	return c, nil
}

// Close frees the device and pinned memory.
func (c *Collector) Close() error { return c.release() }

// Into makes the collections until the next Into copy their results into
// host (page-locked memory of bytes bytes, such as a Pinned's, that the
// caller owns and keeps until then) and return slices of it, instead of
// the collector's own buffers; a result larger than bytes still goes to
// those. Into(nil, 0) undoes it.
func (c *Collector) Into(host unsafe.Pointer, bytes uint64) { c.target, c.tbytes = host, bytes }

// result runs launch (the mapping into out, n elements of T) and the copy
// of out to the host, between c's events, and returns the host copy and
// the milliseconds on the device. The copy goes into Into's memory when it
// holds the result, else into own (allocated by ensureOut).
func result[T any](c *Collector, own *Pinned[T], out *Buffer[T], launch func() error) ([]T, float32, error) {
	n := c.dl.desc.n
	var zero T
	bytes := n * uint64(unsafe.Sizeof(zero))
	host, res := own.p, own.Slice()
	if c.target != nil && c.tbytes >= bytes {
		host, res = c.target, unsafe.Slice((*T)(c.target), n)
	}
	ms, err := c.collect(launch, host, out.h.p, bytes)
	if err != nil {
		return nil, 0, fmt.Errorf("collect: %w", err)
	}
	return res, ms, nil
}

// Reserve allocates the result buffers of both value types now (pinned
// host memory takes milliseconds per hundred megabytes to allocate), so
// that no collection allocates.
func (c *Collector) Reserve() error {
	if err := c.ensureU32(true); err != nil {
		return err
	}
	return c.ensureF64(true)
}

// ensureOut allocates, unless allocated, a value type's result buffers:
// the device array the mapping writes (out) and the pinned host array it
// is copied into (host), one element per vertex, owned by c.
func ensureOut[T any](c *Collector, out **Buffer[T], host **Pinned[T]) error {
	if *out != nil {
		return nil
	}
	n := int(c.dl.desc.n)
	b, err := allocOwned[T](&c.owned, c.dl.dev, n)
	if err != nil {
		return err
	}
	*out = b
	h, err := AllocPinned[T](c.dl.dev, n)
	if err != nil {
		return err
	}
	c.frees = append(c.frees, h.Free)
	*host = h
	return nil
}

// ensureU32 allocates the uint32 result buffers, and with components the
// component minima's scratch.
func (c *Collector) ensureU32(components bool) error {
	if err := ensureOut(c, &c.outU32, &c.hostU32); err != nil {
		return err
	}
	if components && c.smallest == nil {
		var err error
		if c.smallest, err = allocOwned[uint32](&c.owned, c.dl.dev, int(c.dl.desc.n)); err != nil {
			return err
		}
	}
	return nil
}

// ensureF64 allocates the float64 result buffers, and when normalise the
// sum's reduction scratch.
func (c *Collector) ensureF64(normalise bool) error {
	if err := ensureOut(c, &c.outF64, &c.hostF64); err != nil {
		return err
	}
	var err error
	if normalise && c.sum == nil {
		if c.scratch, err = allocOwned[uint64](&c.owned, c.dl.dev, reduceScratchElems); err != nil {
			return err
		}
		if c.sum, err = allocOwned[float64](&c.owned, c.dl.dev, 1); err != nil {
			return err
		}
	}
	return nil
}

// collect runs launch (the mapping into out) and the copy of bytes from out
// into host between c's events, waits for them and returns their time in
// milliseconds.
func (c *Collector) collect(launch func() error, host, out unsafe.Pointer, bytes uint64) (float32, error) {
	dev := c.dl.dev.ordinal
	if err := backendEventRecord(dev, evp(c.ev[0]), nil); err != nil {
		return 0, err
	}
	if err := launch(); err != nil {
		return 0, err
	}
	if err := backendCopyDtoHAsync(dev, host, out, bytes); err != nil {
		return 0, err
	}
	if err := backendEventRecord(dev, evp(c.ev[1]), nil); err != nil {
		return 0, err
	}
	if err := backendEventSync(dev, evp(c.ev[1])); err != nil {
		return 0, err
	}
	t, err := eventTimes(dev, c.ev[:])
	if err != nil {
		return 0, err
	}
	return t[0], nil
}

// Uint32 returns values (layout numbering) in the original numbering, or,
// with components, each vertex's component named by its smallest original
// id (values are then labels that name components: CC), and the
// milliseconds the mapping and the copy took on the device.
func (c *Collector) Uint32(values *Buffer[uint32], components bool) ([]uint32, float32, error) {
	n := uint64(c.dl.desc.n)
	if values == nil || uint64(values.n) < n {
		return nil, 0, invalidf("Collector.Uint32", "values of %d elements for %d vertices", values.Len(), n)
	}
	if err := c.ensureU32(components); err != nil {
		return nil, 0, err
	}
	dev := c.dl.dev.ordinal
	return result(c, c.hostU32, c.outU32, func() error {
		if components {
			return backendGatherComponents(dev, c.outU32.h.p, values.h.p, c.perm.h.p, c.smallest.h.p, n)
		}
		return backendGatherU32(dev, c.outU32.h.p, values.h.p, c.perm.h.p, n)
	})
}

// Uint32At is Uint32 without components for the n values (layout
// numbering) at device pointer values, memory the caller owns (an
// operator device's array).
func (c *Collector) Uint32At(values unsafe.Pointer) ([]uint32, float32, error) {
	if values == nil {
		return nil, 0, invalidf("Collector.Uint32At", "no values")
	}
	if err := c.ensureU32(false); err != nil {
		return nil, 0, err
	}
	dev, n := c.dl.dev.ordinal, uint64(c.dl.desc.n)
	return result(c, c.hostU32, c.outU32, func() error { return backendGatherU32(dev, c.outU32.h.p, values, c.perm.h.p, n) })
}

// Float64At is Float64 without normalising for the n values at device
// pointer values (any 8-byte values: the mapping moves them unchanged).
func (c *Collector) Float64At(values unsafe.Pointer) ([]float64, float32, error) {
	if values == nil {
		return nil, 0, invalidf("Collector.Float64At", "no values")
	}
	if err := c.ensureF64(false); err != nil {
		return nil, 0, err
	}
	dev, n := c.dl.dev.ordinal, uint64(c.dl.desc.n)
	return result(c, c.hostF64, c.outF64, func() error {
		return backendGatherF64(dev, c.outF64.h.p, values, c.perm.h.p, nil, n)
	})
}

// BFSParents returns the BFS tree of levels (BFS levels in the layout
// numbering, on the device; the layout's in-adjacency must be there too,
// DeviceLayout.HasIn): every vertex's parent in the original numbering (a
// source's is itself, an unreached vertex's 0xffffffff), the first
// in-neighbour one level up in the layout's order, and the milliseconds
// the parents, their mapping and the copy took on the device. The slice is
// the uint32 result's (see Uint32).
func (c *Collector) BFSParents(levels *Buffer[uint32]) ([]uint32, float32, error) {
	n := uint64(c.dl.desc.n)
	if levels == nil || uint64(levels.n) < n {
		return nil, 0, invalidf("Collector.BFSParents", "levels of %d elements for %d vertices", levels.Len(), n)
	}
	if !c.dl.HasIn() {
		return nil, 0, invalidf("Collector.BFSParents", "the layout's in-adjacency is not on the device")
	}
	if err := c.ensureU32(false); err != nil {
		return nil, 0, err
	}
	if c.ids == nil {
		ids, err := allocOwned[uint32](&c.owned, c.dl.dev, int(n))
		if err != nil {
			return nil, 0, err
		}
		inv, err := allocOwned[uint32](&c.owned, c.dl.dev, int(n))
		if err != nil {
			return nil, 0, err
		}
		if err := inv.CopyFromHost(c.dl.l.InvPerm); err != nil {
			return nil, 0, err
		}
		c.ids, c.inv = ids, inv
	}
	dev := c.dl.dev.ordinal
	desc := new(dlayout)
	*desc = c.dl.desc
	return result(c, c.hostU32, c.outU32, func() error {
		if err := backendBFSParents(dev, unsafe.Pointer(desc), levels.h.p, c.ids.h.p); err != nil {
			return err
		}
		return backendGatherIDs(dev, c.outU32.h.p, c.ids.h.p, c.perm.h.p, c.inv.h.p, n)
	})
}

// Float64 returns values (layout numbering) in the original numbering,
// divided by their sum when normalise, and the milliseconds the mapping and
// the copy took on the device.
func (c *Collector) Float64(values *Buffer[float64], normalise bool) ([]float64, float32, error) {
	n := uint64(c.dl.desc.n)
	if values == nil || uint64(values.n) < n {
		return nil, 0, invalidf("Collector.Float64", "values of %d elements for %d vertices", values.Len(), n)
	}
	if err := c.ensureF64(normalise); err != nil {
		return nil, 0, err
	}
	dev := c.dl.dev.ordinal
	return result(c, c.hostF64, c.outF64, func() error {
		var divisor unsafe.Pointer
		if normalise {
			if err := backendReduceSumF64(dev, values.h.p, n, c.sum.h.p, c.scratch.h.p, c.scratch.Bytes(), nil); err != nil {
				return err
			}
			divisor = c.sum.h.p
		}
		return backendGatherF64(dev, c.outF64.h.p, values.h.p, c.perm.h.p, divisor, n)
	})
}

// Init sets a min program's initial state on the device: every value fill
// (or, with identity, the vertex's own layout id); with hasSource, source
// (a layout id) gets sourceValue and is the initial frontier list, else
// every vertex is active (the flags). It replaces Load.
func (r *MinRun) Init(fill uint32, identity, hasSource bool, source, sourceValue uint32) error {
	if hasSource && uint64(source) >= r.n {
		return invalidf("MinRun.Init", "source %d of a graph of %d vertices", source, r.n)
	}
	var flags unsafe.Pointer
	if !hasSource {
		flags = r.flags[r.curFlags].h.p
	}
	return backendMinInit(r.dl.dev.ordinal, r.values.h.p, r.n, fill, identity, hasSource, source, sourceValue,
		r.list[r.curList].h.p, flags)
}

// CollectParents returns the BFS tree of the run's values (BFS levels)
// through c (see Collector.BFSParents).
func (r *MinRun) CollectParents(c *Collector) ([]uint32, float32, error) {
	return c.BFSParents(r.values)
}

// Collect returns the values in the original numbering through c (see
// Collector.Uint32).
func (r *MinRun) Collect(c *Collector, components bool) ([]uint32, float32, error) {
	return c.Uint32(r.values, components)
}

// HookComponents runs connected components by hooking (mg_cc_hook) into
// the run's values: afterwards each value is the smallest layout id of the
// vertex's component. It returns the kernels' times in milliseconds
// (CCPhases), waiting for them.
func (r *MinRun) HookComponents() ([]float32, error) {
	desc, ev := r.cargs()
	dev := r.dl.dev.ordinal
	if err := backendCCHook(dev, unsafe.Pointer(desc), r.values.h.p, unsafe.Pointer(&ev[0])); err != nil {
		return nil, err
	}
	if err := backendEventSync(dev, evp(r.ev[CCEvents-1])); err != nil {
		return nil, err
	}
	return r.times(CCEvents - 1)
}

// Init sets the initial ranks (1/n) and shares on the device and starts a
// run from them (Start), with the dangling rank from the vertices without
// out-arcs, counted on the device once.
func (r *PRRun) Init() error {
	r.weight = 0
	desc := new(dlayout)
	*desc = r.dl.desc
	dev := r.dl.dev.ordinal
	if err := backendPRInit(dev, unsafe.Pointer(desc), r.rank.h.p, r.share.h.p); err != nil {
		return err
	}
	if r.dangling < 0 {
		count, err := allocOwned[uint64](&r.owned, r.dl.dev, 1)
		if err != nil {
			return err
		}
		if err := backendCountDangling(dev, unsafe.Pointer(desc), count.h.p); err != nil {
			return err
		}
		k := make([]uint64, 1)
		if err := count.CopyToHost(k); err != nil {
			return err
		}
		r.dangling = int64(k[0])
	}
	// The initial dangling rank: 1/n per vertex without out-arcs (the host
	// backend adds them one by one; the two agree to ~1e-16·count).
	return r.Start(float64(r.dangling) / float64(r.dl.desc.n))
}

// Collect returns the ranks in the original numbering through c (see
// Collector.Float64).
func (r *PRRun) Collect(c *Collector) ([]float64, float32, error) {
	return c.Float64(r.rank, false)
}

// InitPRDelta sets pr-delta's initial state on the device: x = 1,
// residual = 0, the pushes damping/outdeg as the values, every vertex
// active.
func (r *SumRun) InitPRDelta(damping float64) error {
	if err := ensure(r, &r.x, int(r.n)); err != nil {
		return err
	}
	if err := ensure(r, &r.residual, int(r.n)); err != nil {
		return err
	}
	desc, _ := r.cargs()
	return backendPRDeltaInit(r.dl.dev.ordinal, unsafe.Pointer(desc), damping, r.x.h.p, r.residual.h.p, r.values.h.p,
		r.flags[r.curFlags].h.p)
}

// CollectPRDelta returns pr-delta's ranks, x / Σx, in the original
// numbering through c.
func (r *SumRun) CollectPRDelta(c *Collector) ([]float64, float32, error) {
	if r.x == nil {
		return nil, 0, invalidf("CollectPRDelta", "no pr-delta state")
	}
	return c.Float64(r.x, true)
}

// CollectBC returns the BC sums in the original numbering through c.
func (r *SumRun) CollectBC(c *Collector) ([]float64, float32, error) {
	if r.bc == nil {
		return nil, 0, invalidf("CollectBC", "BCReset was not called")
	}
	return c.Float64(r.bc, false)
}
