//go:build cuda

package cuda

/*
#include "mgraph.h"
*/
import "C"

import "unsafe"

func backendPartHITSStep(dev int, args unsafe.Pointer, op int, a, b float64) error {
	return call("partitioned hits step", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_hits_step(C.int(dev), (*C.mg_part_hits)(args), C.int(op), C.double(a), C.double(b), e, n)
	})
}

// partHits has mg_part_hits's size (a compile-time check of the mirror).
var _ = [1]struct{}{}[unsafe.Sizeof(partHits{})-C.sizeof_mg_part_hits]

func backendPartDeltaStep(dev int, args unsafe.Pointer, op int, n uint64, a, b float64) error {
	return call("partitioned pr-delta step", func(e *C.char, n2 C.size_t) C.int {
		return C.mg_part_delta_step(C.int(dev), (*C.mg_part_delta)(args), C.int(op), C.uint64_t(n), C.double(a), C.double(b), e, n2)
	})
}

// partDelta has mg_part_delta's size and the steps' numbers are
// MG_DELTA_*'s (compile-time checks of the mirror).
var (
	_ = [1]struct{}{}[unsafe.Sizeof(partDelta{})-C.sizeof_mg_part_delta]
	_ = [1]struct{}{}[deltaStart-C.MG_DELTA_START]
	_ = [1]struct{}{}[deltaApply-C.MG_DELTA_APPLY]
	_ = [1]struct{}{}[deltaMass-C.MG_DELTA_MASS]
	_ = [1]struct{}{}[deltaScale-C.MG_DELTA_SCALE]
)
