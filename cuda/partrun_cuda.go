//go:build cuda

package cuda

/*
#include "mgraph.h"
*/
import "C"

import "unsafe"

// The C API's layouts that the Go side mirrors (partition.cu).
var (
	_ [PartMaxPeers - C.MG_PART_MAX_PEERS]struct{}
	_ [C.MG_PART_MAX_PEERS - PartMaxPeers]struct{}
	_ [unsafe.Sizeof(PartCounters{}) - C.sizeof_mg_part_counters]struct{}
	_ [C.sizeof_mg_part_counters - unsafe.Sizeof(PartCounters{})]struct{}
	_ [unsafe.Sizeof(partTables{}) - C.sizeof_mg_part_tables]struct{}
	_ [C.sizeof_mg_part_tables - unsafe.Sizeof(partTables{})]struct{}
	_ [unsafe.Sizeof(PartMessage{}) - C.sizeof_mg_part_msg]struct{}
	_ [C.sizeof_mg_part_msg - unsafe.Sizeof(PartMessage{})]struct{}
	_ [CCHeavyDegree - C.MG_CC_HEAVY_DEGREE]struct{}
	_ [C.MG_CC_HEAVY_DEGREE - CCHeavyDegree]struct{}
	_ [CCChunkArcs - C.MG_CC_CHUNK_ARCS]struct{}
	_ [C.MG_CC_CHUNK_ARCS - CCChunkArcs]struct{}
	_ [C.sizeof_mg_cc_chunk - 8]struct{}
	_ [8 - C.sizeof_mg_cc_chunk]struct{}
)

func backendPartPack(dev int, t, offsets, values, prev, next unsafe.Pointer, nv uint64, send, ctr unsafe.Pointer) error {
	return call("partition pack", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_pack(C.int(dev), (*C.mg_part_tables)(t), (*C.uint64_t)(offsets), (*C.uint32_t)(values),
			(*C.uint32_t)(prev), (*C.uint8_t)(next), C.uint64_t(nv), (*C.mg_part_msg)(send), (*C.mg_part_counters)(ctr), e, n)
	})
}

func backendPartUnpack(dev int, t, offsets, recv unsafe.Pointer, received uint64, values, prev, next, ctr unsafe.Pointer) error {
	return call("partition unpack", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_unpack(C.int(dev), (*C.mg_part_tables)(t), (*C.uint64_t)(offsets), (*C.mg_part_msg)(recv),
			C.uint64_t(received), (*C.uint32_t)(values), (*C.uint32_t)(prev), (*C.uint8_t)(next), (*C.mg_part_counters)(ctr), e, n)
	})
}

func backendPartLabels(dev int, t, global, values, flags unsafe.Pointer, nv uint64) error {
	return call("partition labels", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_labels(C.int(dev), (*C.mg_part_tables)(t), (*C.uint32_t)(global), (*C.uint32_t)(values),
			(*C.uint8_t)(flags), C.uint64_t(nv), e, n)
	})
}

func backendPartGather(dev int, t, values, out unsafe.Pointer) error {
	return call("partition gather", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_gather(C.int(dev), (*C.mg_part_tables)(t), (*C.uint32_t)(values), (*C.uint32_t)(out), e, n)
	})
}

func backendEnablePeerAccess(dev, peer int) (bool, error) {
	var enabled C.int
	err := call("enable peer access", func(e *C.char, n C.size_t) C.int {
		return C.mg_enable_peer_access(C.int(dev), C.int(peer), &enabled, e, n)
	})
	return enabled != 0, err
}

func backendCopyPeer(dstDev int, dst unsafe.Pointer, srcDev int, src unsafe.Pointer, bytes uint64) error {
	return call("peer copy", func(e *C.char, n C.size_t) C.int {
		return C.mg_copy_peer(C.int(dstDev), dst, C.int(srcDev), src, C.uint64_t(bytes), e, n)
	})
}

func backendPartScatter(dev int, vals, ids unsafe.Pointer, count uint64, full unsafe.Pointer) error {
	return call("partition scatter", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_scatter(C.int(dev), (*C.uint32_t)(vals), (*C.uint32_t)(ids), C.uint64_t(count), (*C.uint32_t)(full), e, n)
	})
}

func backendPartBcastPack(dev int, values, recvLid unsafe.Pointer, count uint64, send unsafe.Pointer) error {
	return call("partition broadcast pack", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_bcast_pack(C.int(dev), (*C.uint32_t)(values), (*C.uint32_t)(recvLid), C.uint64_t(count), (*C.uint32_t)(send), e, n)
	})
}

func backendPartBcastUnpack(dev int, t, recv, values, prev, flags unsafe.Pointer, level uint32) error {
	return call("partition broadcast unpack", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_bcast_unpack(C.int(dev), (*C.mg_part_tables)(t), (*C.uint32_t)(recv), (*C.uint32_t)(values),
			(*C.uint32_t)(prev), (*C.uint8_t)(flags), C.uint32_t(level), e, n)
	})
}

func backendPartParents(dev int, t, offsets, dst, values, orig, parents, ctr unsafe.Pointer) error {
	return call("partition parents", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_parents(C.int(dev), (*C.mg_part_tables)(t), (*C.uint64_t)(offsets), (*C.uint32_t)(dst), (*C.uint32_t)(values),
			(*C.uint32_t)(orig), (*C.uint32_t)(parents), (*C.mg_part_counters)(ctr), e, n)
	})
}

func backendCCHookAll(dev int, desc, parent, chunks unsafe.Pointer, numChunks uint64, inOffsets, inSrc unsafe.Pointer) error {
	return call("partition cc hook", func(e *C.char, n C.size_t) C.int {
		return C.mg_cc_hook_all(C.int(dev), (*C.mg_dlayout)(desc), (*C.uint32_t)(parent), (*C.mg_cc_chunk)(chunks),
			C.uint64_t(numChunks), (*C.uint64_t)(inOffsets), (*C.uint32_t)(inSrc), e, n)
	})
}

func backendCCRowlessIn(dev int, desc, inOffsets, inSrc, cursor unsafe.Pointer) (uint64, error) {
	var total C.uint64_t
	err := call("partition cc in-lists", func(e *C.char, n C.size_t) C.int {
		return C.mg_cc_rowless_in(C.int(dev), (*C.mg_dlayout)(desc), (*C.uint64_t)(inOffsets), (*C.uint32_t)(inSrc),
			(*C.uint32_t)(cursor), &total, e, n)
	})
	return uint64(total), err
}

func backendPartCCRoots(dev int, parent, flags, values unsafe.Pointer, nv uint64) error {
	return call("partition cc roots", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_cc_roots(C.int(dev), (*C.uint32_t)(parent), (*C.uint8_t)(flags), (*C.uint32_t)(values), C.uint64_t(nv), e, n)
	})
}

func backendPartStateStep(dev int, t, args unsafe.Pointer, op int, num, a uint64, ctr unsafe.Pointer) error {
	return call("partitioned state step", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_state_step(C.int(dev), (*C.mg_part_tables)(t), (*C.mg_part_state)(args), C.int(op), C.uint64_t(num),
			C.uint64_t(a), (*C.mg_part_counters)(ctr), e, n)
	})
}

// partState has mg_part_state's size, and the steps' numbers are
// MG_STATE_*'s (compile-time checks of the mirror).
var (
	_ = [1]struct{}{}[unsafe.Sizeof(partState{})-C.sizeof_mg_part_state]
	_ = [1]struct{}{}[stateStartMIS-C.MG_STATE_START_MIS]
	_ = [1]struct{}{}[stateStartKCore-C.MG_STATE_START_KCORE]
	_ = [1]struct{}{}[stateMark-C.MG_STATE_MARK]
	_ = [1]struct{}{}[stateMarkColour-C.MG_STATE_MARK_COLOUR]
	_ = [1]struct{}{}[stateJoin-C.MG_STATE_JOIN]
	_ = [1]struct{}{}[stateExclude-C.MG_STATE_EXCLUDE]
	_ = [1]struct{}{}[stateColour-C.MG_STATE_COLOUR]
	_ = [1]struct{}{}[stateCompact-C.MG_STATE_COMPACT]
	_ = [1]struct{}{}[statePeel-C.MG_STATE_PEEL]
	_ = [1]struct{}{}[stateUnpack-C.MG_STATE_UNPACK]
	_ = [1]struct{}{}[StateUnset-C.MG_STATE_UNSET]
)

func backendPartTriangles(dev int, offsets, adj, src, dst unsafe.Pointer, arcs uint64, total, per unsafe.Pointer, rows uint64) error {
	return call("partitioned triangle count", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_triangles(C.int(dev), (*C.uint64_t)(offsets), (*C.uint32_t)(adj), (*C.uint32_t)(src), (*C.uint32_t)(dst),
			C.uint64_t(arcs), (*C.ulonglong)(total), (*C.ulonglong)(per), C.uint64_t(rows), e, n)
	})
}

func backendPartMSFLightest(dev int, offsets, dst, weights, owned unsafe.Pointer, numOwned uint64, orig, comp, out unsafe.Pointer) error {
	return call("partitioned msf round", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_msf_lightest(C.int(dev), (*C.uint64_t)(offsets), (*C.uint32_t)(dst), (*C.uint32_t)(weights),
			(*C.uint32_t)(owned), C.uint64_t(numOwned), (*C.uint32_t)(orig), (*C.uint32_t)(comp), (*C.uint32_t)(out), e, n)
	})
}
