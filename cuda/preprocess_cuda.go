//go:build cuda

package cuda

/*
#include "mgraph.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"time"
	"unsafe"

	"github.com/mgraph-dev/mgraph/layout"
)

// The section order of mgraph.h must match layoutSections; the cuda build
// checks the count.
var (
	_ [C.MG_PP_SECTIONS - 26]struct{}
	_ [26 - C.MG_PP_SECTIONS]struct{}
	_ [C.MG_PP_PHASES - len(LayoutPhases)]struct{}
	_ [len(LayoutPhases) - C.MG_PP_PHASES]struct{}
)

// LayoutPhases names the phases of LayoutTimings.Phases, in order.
var LayoutPhases = [6]string{"degrees+renumber", "sort by source", "sort by block", "blocks+slots", "dense fill", "sparse part"}

// LayoutTimings are the times of one device layout build.
type LayoutTimings struct {
	// Upload is the host-to-device copy of the edge list (CUDA events).
	Upload time.Duration
	// Build is the device time from the end of the upload to the last
	// kernel (CUDA events), host work between kernels included.
	Build time.Duration
	// Phases split Build (LayoutPhases names them).
	Phases [6]time.Duration
	// Download is the host wall time of copying every array back.
	Download time.Duration
	// PeakBytes is the most device memory the build held at once.
	PeakBytes uint64
}

// MaxLayoutItems bounds the vertices and arcs of a device layout build
// (CUB counts items in int).
const MaxLayoutItems = uint64(C.MG_PP_MAX_ITEMS)

// layoutSections returns pointers to l's arrays in the C API's order.
func layoutSections(l *layout.Layout) []any {
	return []any{
		&l.Perm, &l.InvPerm, &l.GroupStart,
		&l.BlockRow, &l.BlockCol, &l.BlockEdges, &l.BlockHeavy,
		&l.HeavyRow, &l.HeavyCol, &l.HeavyRows, &l.HeavyMatrixStart,
		&l.HeavyNumDst, &l.HeavySlot, &l.HeavyMatrix, &l.HeavyWeights,
		&l.LightStart, &l.LightSrc, &l.LightWeights, &l.LightSlot,
		&l.RowSlotStart, &l.SlotDst,
		&l.SparseOffsets, &l.SparseDst, &l.SparseWeights,
		&l.SegmentBounds, &l.SegmentSplit,
	}
}

// makeSection allocates the slice behind s (a pointer to a slice field)
// with n elements and returns its first element's address and byte size.
func makeSection(s any, n uint64) (unsafe.Pointer, uint64) {
	switch p := s.(type) {
	case *[]uint8:
		*p = make([]uint8, n)
		if n > 0 {
			return unsafe.Pointer(&(*p)[0]), n
		}
	case *[]uint16:
		*p = make([]uint16, n)
		if n > 0 {
			return unsafe.Pointer(&(*p)[0]), 2 * n
		}
	case *[]int16:
		*p = make([]int16, n)
		if n > 0 {
			return unsafe.Pointer(&(*p)[0]), 2 * n
		}
	case *[]uint32:
		*p = make([]uint32, n)
		if n > 0 {
			return unsafe.Pointer(&(*p)[0]), 4 * n
		}
	case *[]uint64:
		*p = make([]uint64, n)
		if n > 0 {
			return unsafe.Pointer(&(*p)[0]), 8 * n
		}
	default:
		panic(fmt.Sprintf("cuda: layout section of type %T", s))
	}
	return nil, 0
}

// BuildLayout builds the dual layout (docs/layout.md) of the graph with n
// vertices and arcs src[i] → dst[i] (weights nil or parallel) on device d,
// byte-identical to preprocess.Build with the same parameters. The caller
// validates the parameters and the edge list. It fails with ErrInvalid
// when n or the arc count exceeds MaxLayoutItems, with ErrOutOfMemory (an
// *OutOfMemoryError) when the device cannot hold the build, and with
// layout.ErrTooLarge when the layout would need more than 2^32-1 stream
// slots.
func BuildLayout(d Device, n uint64, src, dst, weights []uint32, directed bool, p layout.Params) (*layout.Layout, LayoutTimings, error) {
	b, tm, err := BuildLayoutDeferred(d, n, src, dst, weights, directed, p)
	if err != nil {
		return nil, tm, err
	}
	defer b.Release()
	if err := b.Download(); err != nil {
		return nil, tm, err
	}
	tm.Download += time.Duration(b.DownloadTime * float64(time.Second))
	return b.Layout(), tm, nil
}

// BuildLayoutDeferred is BuildLayout that downloads every section but the
// largest (deferredSections) and keeps the arrays on the device: a run can
// start from them (UploadLayoutFrom) and the rest come to the host later
// (BuiltLayout.Download). The caller must Release the result.
func BuildLayoutDeferred(d Device, n uint64, src, dst, weights []uint32, directed bool, p layout.Params) (*BuiltLayout, LayoutTimings, error) {
	var tm LayoutTimings
	m := uint64(len(src))
	if uint64(len(dst)) != m || (weights != nil && uint64(len(weights)) != m) {
		return nil, tm, invalidf("BuildLayout", "%d sources, %d destinations, %d weights", len(src), len(dst), len(weights))
	}
	if n > MaxLayoutItems || m > MaxLayoutItems {
		return nil, tm, invalidf("BuildLayout", "%d vertices and %d arcs: the device builder takes at most %d of each", n, m, MaxLayoutItems)
	}
	if len(p.GroupThresholds) > C.MG_PP_MAX_THRESHOLDS {
		return nil, tm, invalidf("BuildLayout", "%d group thresholds, at most %d", len(p.GroupThresholds), C.MG_PP_MAX_THRESHOLDS)
	}
	cp := C.mg_pp_params{
		n: C.uint64_t(n), m: C.uint64_t(m), heavy_threshold: C.uint64_t(p.HeavyThreshold),
		panel_size: C.uint32_t(p.PanelSize), heavy_columns: C.uint32_t(p.HeavyColumns),
		segment_size: C.uint32_t(p.SegmentSize), high_groups: C.uint32_t(p.HighGroups),
		num_thresholds: C.uint32_t(len(p.GroupThresholds)),
	}
	if weights != nil {
		cp.weighted = 1
	}
	var thr *C.uint64_t
	if len(p.GroupThresholds) > 0 {
		thr = (*C.uint64_t)(unsafe.Pointer(&p.GroupThresholds[0]))
	}
	var srcP, dstP, wP *C.uint32_t
	if m > 0 {
		srcP = (*C.uint32_t)(unsafe.Pointer(&src[0]))
		dstP = (*C.uint32_t)(unsafe.Pointer(&dst[0]))
		if weights != nil {
			wP = (*C.uint32_t)(unsafe.Pointer(&weights[0]))
		}
	}
	// A large edge list goes up through pinned staging buffers into device
	// arrays the build copies from (several times faster than its own
	// copies from pageable memory); without the memory for them, the build
	// copies from the host.
	stageStart := time.Now()
	staged, err := stageEdges(d, src, dst, weights)
	if err != nil {
		return nil, tm, err
	}
	defer staged.free()
	stageTime := time.Since(stageStart)
	if staged != nil {
		cp.device_input = 1
		srcP, dstP = (*C.uint32_t)(staged[0].h.p), (*C.uint32_t)(staged[1].h.p)
		if weights != nil {
			wP = (*C.uint32_t)(staged[2].h.p)
		}
	}
	var h *C.mg_pp_layout
	var res C.mg_pp_result
	endBuild := Range("preprocess: upload+build")
	err = call("BuildLayout", func(e *C.char, ne C.size_t) C.int {
		return C.mg_pp_build(C.int(d.ordinal), &cp, thr, srcP, dstP, wP, &h, &res, e, ne)
	})
	endBuild()
	tm.PeakBytes = uint64(res.peak_bytes)
	if err != nil {
		if e, ok := err.(*Error); ok && e.Code == codeOOM {
			oom := &OutOfMemoryError{Device: d.ordinal, Requested: uint64(res.peak_bytes), Err: err}
			oom.Free, oom.Total, _ = backendMemInfo(d.ordinal)
			return nil, tm, oom
		}
		return nil, tm, err
	}
	if res.too_large != 0 {
		return nil, tm, fmt.Errorf("cuda: BuildLayout: more than %d stream slots: %w", uint64(layout.MaxSlots), layout.ErrTooLarge)
	}
	built := &BuiltLayout{dev: d, h: unsafe.Pointer(h), refs: 1}
	tm.Upload = stageTime + msDuration(float64(res.upload_ms))
	tm.Build = msDuration(float64(res.build_ms))
	for i := range tm.Phases {
		tm.Phases[i] = msDuration(float64(res.phase_ms[i]))
	}
	l := &layout.Layout{
		Params: layout.Params{PanelSize: p.PanelSize, HeavyThreshold: p.HeavyThreshold, HeavyColumns: p.HeavyColumns,
			SegmentSize: p.SegmentSize, GroupThresholds: append([]uint64(nil), p.GroupThresholds...), HighGroups: p.HighGroups},
		NumVertices: n, NumArcs: m, Weighted: weights != nil, Directed: directed,
	}
	built.l = l
	for i := range built.lens {
		built.lens[i] = uint64(res.len[i])
	}
	start := time.Now()
	defer Range("preprocess: download")()
	sections := layoutSections(l)
	copies := make([]stagedCopy, 0, len(sections))
	for i, s := range sections {
		if isDeferred(i) {
			continue
		}
		ptr, bytes := makeSection(s, built.lens[i])
		src, have, err := backendPPSectionPtr(built.h, i)
		if err != nil {
			built.Release()
			return nil, tm, err
		}
		if have != bytes {
			built.Release()
			return nil, tm, invalidf("BuildLayout", "section %d has %d bytes on the device, %d expected", i, have, bytes)
		}
		if bytes > 0 {
			copies = append(copies, stagedCopy{host: ptr, dev: src, bytes: bytes})
		}
	}
	if err := stagedTransfer(d, true, copies); err != nil {
		built.Release()
		return nil, tm, err
	}
	tm.Download = time.Since(start)
	return built, tm, nil
}

// backendPPSectionPtr returns the device address and byte size of section
// i of the builder's arrays h.
func backendPPSectionPtr(h unsafe.Pointer, i int) (unsafe.Pointer, uint64, error) {
	var src unsafe.Pointer
	var have C.uint64_t
	err := call("BuildLayout", func(e *C.char, ne C.size_t) C.int {
		return C.mg_pp_section_ptr((*C.mg_pp_layout)(h), C.int(i), &src, &have, e, ne)
	})
	return src, uint64(have), err
}

// backendPPFree frees the builder's arrays h.
func backendPPFree(dev int, h unsafe.Pointer) error {
	return call("BuildLayout", func(e *C.char, ne C.size_t) C.int {
		return C.mg_pp_free(C.int(dev), (*C.mg_pp_layout)(h), e, ne)
	})
}

// stagedEdges are an edge list's arrays on the device (stageEdges).
type stagedEdges []*Buffer[uint32]

func (s stagedEdges) free() {
	for _, b := range s {
		b.Free()
	}
}

// stageEdges copies src, dst and weights (when not nil) into new device
// arrays through pinned staging buffers. It returns nil, and no error, for
// an edge list too small to be worth it or when the device lacks the
// memory.
func stageEdges(d Device, src, dst, weights []uint32) (stagedEdges, error) {
	if uint64(len(src))*4 < StagedMin {
		return nil, nil
	}
	arrays := [][]uint32{src, dst}
	if weights != nil {
		arrays = append(arrays, weights)
	}
	var s stagedEdges
	var copies []stagedCopy
	for _, a := range arrays {
		b, err := Alloc[uint32](d, len(a))
		if err != nil {
			s.free()
			if errors.Is(err, ErrOutOfMemory) {
				return nil, nil
			}
			return nil, err
		}
		s = append(s, b)
		copies = append(copies, stagedCopy{host: unsafe.Pointer(&a[0]), dev: b.h.p, bytes: b.Bytes()})
	}
	if err := stagedTransfer(d, false, copies); err != nil {
		s.free()
		return nil, err
	}
	return s, nil
}

func msDuration(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }
