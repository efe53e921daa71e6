//go:build cuda

package cuda

/*
#include "mgraph.h"
*/
import "C"

import "unsafe"

// The C API's layouts and constants that the Go side mirrors (partbc.cu).
var (
	_ [unsafe.Sizeof(PartBCCounters{}) - C.sizeof_mg_part_bc_counters]struct{}
	_ [C.sizeof_mg_part_bc_counters - unsafe.Sizeof(PartBCCounters{})]struct{}
	_ [unsafe.Sizeof(partBC{}) - C.sizeof_mg_part_bc]struct{}
	_ [C.sizeof_mg_part_bc - unsafe.Sizeof(partBC{})]struct{}
	_ [uint64(partBCUnvisited) - C.MG_PART_BC_UNVISITED]struct{}
	_ [C.MG_PART_BC_UNVISITED - uint64(partBCUnvisited)]struct{}
	_ [PartBCHubArcs - C.MG_PART_BC_HUB_ARCS]struct{}
	_ [C.MG_PART_BC_HUB_ARCS - PartBCHubArcs]struct{}
)

func backendPartBCStart(dev int, p unsafe.Pointer, source uint32) error {
	return call("partitioned bc start", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_bc_start(C.int(dev), (*C.mg_part_bc)(p), C.uint32_t(source), e, n)
	})
}

func backendPartBCForward(dev int, p unsafe.Pointer, d uint32, frontStart, frontCount uint64) error {
	return call("partitioned bc forward", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_bc_forward(C.int(dev), (*C.mg_part_bc)(p), C.uint32_t(d), C.uint64_t(frontStart),
			C.uint64_t(frontCount), e, n)
	})
}

func backendPartBCReceive(dev int, p unsafe.Pointer, d uint32, base uint64, parts, self int, recvStart []uint64,
	s unsafe.Pointer) error {
	if len(recvStart) != parts+1 {
		return invalidf("partitioned bc receive", "%d receive starts for %d parts", len(recvStart), parts)
	}
	return call("partitioned bc receive", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_bc_receive(C.int(dev), (*C.mg_part_bc)(p), C.uint32_t(d), C.uint64_t(base), C.int(parts),
			C.int(self), (*C.uint64_t)(unsafe.Pointer(&recvStart[0])), C.mg_stream(s), e, n)
	})
}

func backendPartBCPublish(dev int, p unsafe.Pointer, d uint32, s unsafe.Pointer) error {
	return call("partitioned bc publish", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_bc_publish(C.int(dev), (*C.mg_part_bc)(p), C.uint32_t(d), C.mg_stream(s), e, n)
	})
}

func backendPartBCReadCounters(dev int, p, host, s unsafe.Pointer) error {
	return call("partitioned bc counters", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_bc_read_counters(C.int(dev), (*C.mg_part_bc)(p), (*C.mg_part_bc_counters)(host), C.mg_stream(s),
			e, n)
	})
}

func backendPartBCBackward(dev int, p unsafe.Pointer, d uint32, start, count uint64) error {
	return call("partitioned bc backward", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_bc_backward(C.int(dev), (*C.mg_part_bc)(p), C.uint32_t(d), C.uint64_t(start),
			C.uint64_t(count), e, n)
	})
}
