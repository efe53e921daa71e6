package cuda

import (
	"unsafe"

	"errors"
	"fmt"

	"github.com/mgraph-dev/mgraph/internal/denseplan"
	"github.com/mgraph-dev/mgraph/layout"
)

// WorkSplit overrides the dense kernels' work split (denseplan.Split); the
// zero value keeps the defaults.
type WorkSplit = denseplan.Split

// Program ids of the min programs' kernels (MG_PROG_* in mgraph.h; the cuda
// build checks that they agree).
const (
	ProgBFS  = 1
	ProgSSSP = 2
	ProgCC   = 3
	// ProgLabel is label propagation without pointer jumping (labels that
	// are not layout ids: the parts of package partition).
	ProgLabel = 4
	// ProgSSSPF32 is SSSP over float32 weights: values are float32 bits
	// (engine.EdgeSourcePlusFloat32Weight), and so is a near-far width.
	ProgSSSPF32 = 5
)

// WeightedProg reports whether kernel prog reads the arcs' weights (the
// SSSPs).
func WeightedProg(prog int) bool { return prog == ProgSSSP || prog == ProgSSSPF32 }

// ProgramID returns the kernel id of a device program's name ("bfs",
// "sssp", "sssp-f32", "cc", "label"), or 0.
func ProgramID(kernel string) int {
	switch kernel {
	case "bfs":
		return ProgBFS
	case "sssp":
		return ProgSSSP
	case "sssp-f32":
		return ProgSSSPF32
	case "cc":
		return ProgCC
	case "label":
		return ProgLabel
	}
	return 0
}

// SampleScratch is MG_SAMPLE_SCRATCH: entries of a sparse sample's scratch.
const SampleScratch = 65536

// dlayout mirrors mg_dlayout field by field (the cuda build checks its size).
// The device pointers are held as uintptr: they are not Go pointers, and
// cgo's pointer check must not take them for ones when the struct is passed
// to C.
type dlayout struct {
	n, m, numSlots                               uint64
	panelSize, heavyColumns, numHeavy, numPanels uint32
	heavyRow, heavyCol, heavyRows, heavyNumDst   uintptr
	heavyMatrixStart, heavySlot                  uintptr
	heavyMatrix                                  uintptr
	heavyWeights                                 uintptr
	lightStart, lightSrc, lightWeights           uintptr
	lightSlot                                    uintptr
	rowSlotStart, slotDst                        uintptr
	sparseOffsets, sparseDst, sparseWeights      uintptr

	heavyChunkRows, numHeavyChunks, lightChunkEdges, numLightChunks uint32
	slotChunk, numSlotChunks, numSplitRows, reserved                uint32
	heavyChunkBlock, heavyChunkRow0, heavyChunkEntry                uintptr
	lightChunkCol, lightChunkStart                                  uintptr
	slotChunkRow, slotChunkStart, slotChunkSplit, splitRows         uintptr
	rowResetLo, rowResetHi                                          uintptr
	splitTickets                                                    uintptr
	inOffsets, inSrc, inWeights                                     uintptr
	numInHeavy                                                      uint64
	inHeavy                                                         uintptr
}

// StepCounters mirrors mg_step_counters.
type StepCounters struct {
	NextCount uint32 // vertices of the next frontier
	Touched   uint32 // sparse: destinations that received a contribution
	NextEdges uint64 // out-arcs of the next frontier
}

// DeviceLayout is a layout's arrays in device memory, uploaded once by
// UploadLayout and shared by every run on it until Close.
type DeviceLayout struct {
	dev  Device
	l    *layout.Layout
	plan *denseplan.Plan // the dense kernels' work split, uploaded with the arrays
	desc dlayout
	owned
	bytes   uint64
	pending []stagedCopy // upload's copies, run together by UploadLayoutSplit
}

// upload allocates a device buffer for one host array, queues the copy of
// the array into it (UploadLayoutSplit runs the queue through pinned
// staging buffers) and returns its pointer (nil for an empty array). The
// array must stay unchanged until the queue has run.
func upload[T any](dl *DeviceLayout, src []T) (uintptr, error) {
	if len(src) == 0 {
		return 0, nil
	}
	b, err := allocOwned[T](&dl.owned, dl.dev, len(src))
	if err != nil {
		return 0, err
	}
	dl.pending = append(dl.pending, stagedCopy{host: unsafe.Pointer(&src[0]), dev: b.h.p, bytes: b.Bytes()})
	return uintptr(b.h.p), nil
}

// LayoutDeviceBytes returns the device memory the arrays UploadLayout copies
// take (the engines' per-run buffers come on top: about 21 bytes per vertex
// and 4 per stream slot).
func LayoutDeviceBytes(l *layout.Layout) uint64 {
	return layout.ArrayBytes(l.HeavyRow) + layout.ArrayBytes(l.HeavyCol) + layout.ArrayBytes(l.HeavyRows) + layout.ArrayBytes(l.HeavyNumDst) +
		layout.ArrayBytes(l.HeavyMatrixStart) + layout.ArrayBytes(l.HeavySlot) + layout.ArrayBytes(l.HeavyMatrix) +
		layout.ArrayBytes(l.HeavyWeights) + layout.ArrayBytes(l.LightStart) + layout.ArrayBytes(l.LightSrc) +
		layout.ArrayBytes(l.LightWeights) + layout.ArrayBytes(l.LightSlot) + layout.ArrayBytes(l.RowSlotStart) +
		layout.ArrayBytes(l.SlotDst) + layout.ArrayBytes(l.SparseOffsets) + layout.ArrayBytes(l.SparseDst) + layout.ArrayBytes(l.SparseWeights)
}

// UploadLayout copies the arrays the GPU engines read (the dense part, the
// stream map and the sparse adjacency) to device d. Lack of memory is an
// error (matching ErrOutOfMemory) that says how much the layout needs and how
// much the device has free.
func UploadLayout(d Device, l *layout.Layout) (*DeviceLayout, error) {
	return UploadLayoutSplit(d, l, WorkSplit{})
}

// UploadLayoutSplit is UploadLayout with the dense kernels' work split
// changed by ws.
func UploadLayoutSplit(d Device, l *layout.Layout, ws WorkSplit) (*DeviceLayout, error) {
	return uploadLayout(d, l, ws, nil)
}

// UploadLayoutFrom is UploadLayoutSplit for a layout the device built
// (BuildLayoutDeferred): the largest arrays are read where the builder left
// them, the others uploaded from b's host layout, which need not have its
// deferred sections yet. The DeviceLayout holds a reference to b until
// Close.
func UploadLayoutFrom(b *BuiltLayout, ws WorkSplit) (*DeviceLayout, error) {
	if err := b.acquire(); err != nil {
		return nil, err
	}
	dl, err := uploadLayout(b.dev, b.l, ws, b)
	if err != nil {
		b.Release()
		return nil, err
	}
	dl.frees = append(dl.frees, b.Release)
	return dl, nil
}

// uploadLayout uploads l's arrays to d, or, with built, takes the deferred
// sections from the builder's arrays.
func uploadLayout(d Device, l *layout.Layout, ws WorkSplit, built *BuiltLayout) (*DeviceLayout, error) {
	if l.NumVertices > 1<<32-1 {
		return nil, invalidf("UploadLayout", "%d vertices: the GPU engines count vertices in uint32", l.NumVertices)
	}
	props, err := d.Props()
	if err != nil {
		return nil, err
	}
	plan := denseplan.New(l, props.Multiprocessors, ws)
	dl := &DeviceLayout{dev: d, l: l, plan: plan, bytes: LayoutDeviceBytes(l) + plan.Bytes()}
	var onDevice uint64 // the built sections: on the device already, not on the host yet
	if built != nil {
		onDevice = built.deferredBytes()
		dl.bytes += onDevice
	}
	// from returns the device address of deferred section i of built for
	// the array host (which it replaces), or uploads host.
	from := func(i int, host any) (uintptr, error) {
		if built != nil {
			p, _, err := built.section(i)
			return uintptr(p), err
		}
		switch a := host.(type) {
		case []uint16:
			return upload(dl, a)
		case []uint32:
			return upload(dl, a)
		}
		return 0, invalidf("UploadLayout", "section %d of type %T", i, host)
	}
	if free, total, err := d.MemInfo(); err != nil {
		return nil, err
	} else if dl.bytes-onDevice > free {
		return nil, &OutOfMemoryError{Device: d.ordinal, Requested: dl.bytes, Free: free, Total: total,
			Err: fmt.Errorf("the layout's arrays need %s on the device", FormatBytes(dl.bytes))}
	}
	s := &dl.desc
	s.n, s.m = l.NumVertices, l.NumArcs
	s.numSlots = uint64(len(l.SlotDst))
	if built != nil {
		s.numSlots = built.SlotCount()
	}
	s.panelSize, s.heavyColumns = l.Params.PanelSize, l.Params.HeavyColumns
	s.numHeavy = uint32(len(l.HeavyCol))
	s.numPanels = uint32(max(len(l.LightStart), 1) - 1)
	p := dl.plan
	s.heavyChunkRows, s.numHeavyChunks = p.HeavyChunkRows, uint32(p.HeavyChunks())
	s.lightChunkEdges, s.numLightChunks = p.LightChunkEdges, uint32(len(p.LightChunkCol))
	s.slotChunk, s.numSlotChunks = p.SlotChunk, uint32(len(p.SlotChunkRow))
	s.numSplitRows = uint32(len(p.SplitRows))
	for _, step := range []func() error{
		func() error { s.heavyRow, err = upload(dl, l.HeavyRow); return err },
		func() error { s.heavyCol, err = upload(dl, l.HeavyCol); return err },
		func() error { s.heavyRows, err = upload(dl, l.HeavyRows); return err },
		func() error { s.heavyNumDst, err = upload(dl, l.HeavyNumDst); return err },
		func() error { s.heavyMatrixStart, err = upload(dl, l.HeavyMatrixStart); return err },
		func() error { s.heavySlot, err = upload(dl, l.HeavySlot); return err },
		func() error { s.heavyMatrix, err = upload(dl, l.HeavyMatrix); return err },
		func() error { s.heavyWeights, err = upload(dl, l.HeavyWeights); return err },
		func() error { s.lightStart, err = upload(dl, l.LightStart); return err },
		func() error { s.lightSrc, err = from(secLightSrc, l.LightSrc); return err },
		func() error { s.lightWeights, err = from(secLightWeights, l.LightWeights); return err },
		func() error { s.lightSlot, err = from(secLightSlot, l.LightSlot); return err },
		func() error { s.rowSlotStart, err = upload(dl, l.RowSlotStart); return err },
		func() error { s.slotDst, err = from(secSlotDst, l.SlotDst); return err },
		func() error { s.sparseOffsets, err = upload(dl, l.SparseOffsets); return err },
		func() error { s.sparseDst, err = from(secSparseDst, l.SparseDst); return err },
		func() error { s.sparseWeights, err = from(secSparseWeights, l.SparseWeights); return err },
		func() error { s.heavyChunkBlock, err = upload(dl, p.HeavyChunkBlock); return err },
		func() error { s.heavyChunkRow0, err = upload(dl, p.HeavyChunkRow0); return err },
		func() error { s.heavyChunkEntry, err = upload(dl, p.HeavyChunkEntry); return err },
		func() error { s.lightChunkCol, err = upload(dl, p.LightChunkCol); return err },
		func() error { s.lightChunkStart, err = upload(dl, p.LightChunkStart); return err },
		func() error { s.slotChunkRow, err = upload(dl, p.SlotChunkRow); return err },
		func() error { s.slotChunkStart, err = upload(dl, p.SlotChunkStart); return err },
		func() error { s.slotChunkSplit, err = upload(dl, p.SlotChunkSplit); return err },
		func() error { s.splitRows, err = upload(dl, p.SplitRows); return err },
		func() error { s.rowResetLo, err = upload(dl, p.RowResetLo); return err },
		func() error { s.rowResetHi, err = upload(dl, p.RowResetHi); return err },
		func() error { s.splitTickets, err = upload(dl, make([]uint32, len(p.SplitRows))); return err },
		func() error { err = stagedTransfer(dl.dev, false, dl.pending); dl.pending = nil; return err },
		func() error {
			if !l.Directed { // the sparse part is the in-adjacency
				s.inOffsets, s.inSrc, s.inWeights = s.sparseOffsets, s.sparseDst, s.sparseWeights
				return dl.buildHeavy()
			}
			return nil
		},
	} {
		if err := step(); err != nil {
			dl.Close()
			var oom *OutOfMemoryError
			if errors.As(err, &oom) {
				return nil, fmt.Errorf("uploading the layout (%s in all): %w", FormatBytes(dl.bytes), err)
			}
			return nil, err
		}
	}
	return dl, nil
}

// HasIn reports whether the layout's in-adjacency, which pull steps scan,
// is on the device: always for an undirected layout, after BuildIn for a
// directed one.
func (dl *DeviceLayout) HasIn() bool { return dl.desc.inOffsets != 0 || dl.desc.n == 0 }

// MaxTransposeArcs is the most arcs BuildIn takes (one radix sort).
const MaxTransposeArcs = 1<<31 - 1

// BuildIn builds a directed layout's in-adjacency (the transpose of its
// sparse part, as layout.Layout.In, without the weights: BuildInWeights)
// on the device, where it stays until Close: 8(n+1) + 4m bytes, and about
// 12 bytes per arc more while it is built. Nothing is done when it is
// already there. Lack of memory is an error matching ErrOutOfMemory. The
// caller must not run anything on the layout meanwhile.
func (dl *DeviceLayout) BuildIn() error {
	if dl.HasIn() {
		return nil
	}
	n, m := dl.desc.n, dl.desc.m
	if m > MaxTransposeArcs {
		return invalidf("BuildIn", "%d arcs; at most %d", m, uint64(MaxTransposeArcs))
	}
	keep := 8*(n+1) + 4*m
	if err := dl.roomFor(keep+12*m, "building the layout's in-adjacency"); err != nil {
		return err
	}
	off, err := allocOwned[uint64](&dl.owned, dl.dev, int(n+1))
	if err != nil {
		return fmt.Errorf("the in-adjacency's offsets: %w", err)
	}
	var srcp unsafe.Pointer
	if m > 0 {
		src, err := allocOwned[uint32](&dl.owned, dl.dev, int(m))
		if err != nil {
			return fmt.Errorf("the in-adjacency's sources: %w", err)
		}
		srcp = src.h.p
	}
	desc := new(dlayout)
	*desc = dl.desc
	if err := backendTranspose(dl.dev.ordinal, unsafe.Pointer(desc), off.h.p, srcp, nil); err != nil {
		return fmt.Errorf("building the in-adjacency: %w", err)
	}
	dl.desc.inOffsets, dl.desc.inSrc = uintptr(off.h.p), uintptr(srcp)
	dl.bytes += keep
	return dl.buildHeavy()
}

// roomFor returns an error matching ErrOutOfMemory, saying what needs
// need bytes, when the device has less free.
func (dl *DeviceLayout) roomFor(need uint64, what string) error {
	free, total, err := dl.dev.MemInfo()
	if err != nil {
		return err
	}
	if need > free {
		return &OutOfMemoryError{Device: dl.dev.ordinal, Requested: need, Free: free, Total: total,
			Err: fmt.Errorf("%s needs %s on the device", what, FormatBytes(need))}
	}
	return nil
}

// HasInWeights reports whether the in-adjacency's weights, which a
// weighted pull step reads, are on the device: an undirected weighted
// layout's always (its sparse part's), a directed one's after
// BuildInWeights.
func (dl *DeviceLayout) HasInWeights() bool { return dl.desc.inWeights != 0 }

// BuildInWeights adds the weights of a weighted directed layout's
// in-arcs (parallel to the in-adjacency BuildIn built, which must be
// there) on the device, where they stay until Close: 4m bytes, and about
// 16 bytes per arc more while they are made (mg_transpose again, with
// weights). Nothing is done when they are there or the layout has no
// weights. Lack of memory is an error matching ErrOutOfMemory. The caller
// must not run anything on the layout meanwhile.
func (dl *DeviceLayout) BuildInWeights() error {
	if dl.HasInWeights() || dl.desc.sparseWeights == 0 || dl.desc.m == 0 {
		return nil
	}
	if !dl.HasIn() {
		return invalidf("BuildInWeights", "the in-adjacency is not on the device (BuildIn)")
	}
	m := dl.desc.m
	if err := dl.roomFor(4*m+16*m, "the in-arcs' weights"); err != nil {
		return err
	}
	w, err := allocOwned[uint32](&dl.owned, dl.dev, int(m))
	if err != nil {
		return fmt.Errorf("the in-arcs' weights: %w", err)
	}
	desc := new(dlayout)
	*desc = dl.desc
	if err := backendTranspose(dl.dev.ordinal, unsafe.Pointer(desc), evp(dl.desc.inOffsets), evp(dl.desc.inSrc), w.h.p); err != nil {
		return fmt.Errorf("the in-arcs' weights: %w", err)
	}
	dl.desc.inWeights = uintptr(w.h.p)
	dl.bytes += 4 * m
	return nil
}

// buildHeavy lists the vertices whose in-rows a pull step scans a block
// per vertex (MG_PULL_HEAVY_DEGREE in-arcs or more) on the device, once the
// in-adjacency is there.
func (dl *DeviceLayout) buildHeavy() error {
	desc := new(dlayout)
	*desc = dl.desc
	dev := dl.dev.ordinal
	k, err := backendInHeavy(dev, unsafe.Pointer(desc), nil)
	if err != nil || k == 0 {
		return err
	}
	list, err := allocOwned[uint32](&dl.owned, dl.dev, int(k))
	if err != nil {
		return fmt.Errorf("the heavy in-rows' list: %w", err)
	}
	if k2, err := backendInHeavy(dev, unsafe.Pointer(desc), list.h.p); err != nil {
		return err
	} else if k2 != k {
		return invalidf("buildHeavy", "%d heavy in-rows, then %d", k, k2)
	}
	dl.desc.numInHeavy, dl.desc.inHeavy = k, uintptr(list.h.p)
	dl.bytes += 4 * k
	return nil
}

// PullHeavyDegree is MG_PULL_HEAVY_DEGREE: in-rows of at least this many
// arcs are scanned by a block each in a pull step.
const PullHeavyDegree = 1024

// NumInHeavy returns the number of vertices with PullHeavyDegree in-arcs or
// more (0 until the in-adjacency is on the device).
func (dl *DeviceLayout) NumInHeavy() uint64 { return dl.desc.numInHeavy }

// InArcs downloads the layout's in-adjacency from the device (BuildIn must
// have run for a directed layout): for checks and tools, not for runs.
func (dl *DeviceLayout) InArcs() (*layout.InArcs, error) {
	if !dl.HasIn() {
		return nil, invalidf("InArcs", "the in-adjacency is not on the device (BuildIn)")
	}
	n, m := dl.desc.n, dl.desc.m
	in := &layout.InArcs{Offsets: make([]uint64, n+1), Src: make([]uint32, m)}
	dev := dl.dev.ordinal
	if n > 0 {
		if err := backendCopyDtoH(dev, unsafe.Pointer(&in.Offsets[0]), evp(dl.desc.inOffsets), 8*(n+1)); err != nil {
			return nil, err
		}
	}
	if m > 0 {
		if err := backendCopyDtoH(dev, unsafe.Pointer(&in.Src[0]), evp(dl.desc.inSrc), 4*m); err != nil {
			return nil, err
		}
		if dl.desc.inWeights != 0 {
			in.Weights = make([]uint32, m)
			if err := backendCopyDtoH(dev, unsafe.Pointer(&in.Weights[0]), evp(dl.desc.inWeights), 4*m); err != nil {
				return nil, err
			}
		}
	}
	return in, nil
}

// StreamLen returns the entries of a dense step's stream buffer: one per
// slot, then the split row panels' phase 2 accumulators (mgraph.h). The
// buffer must hold the program's identity everywhere before its first step.
func (dl *DeviceLayout) StreamLen() int {
	return int(dl.desc.numSlots) + dl.plan.SplitAccLen(dl.desc.panelSize)
}

// Device returns the device the layout lives on.
func (dl *DeviceLayout) Device() Device { return dl.dev }

// Layout returns the host layout it was uploaded from.
func (dl *DeviceLayout) Layout() *layout.Layout { return dl.l }

// Bytes returns the device memory the layout's arrays take.
func (dl *DeviceLayout) Bytes() uint64 { return dl.bytes }

// Close frees the device arrays. Closing twice is harmless.
func (dl *DeviceLayout) Close() error {
	dl.desc = dlayout{}
	return dl.release()
}
