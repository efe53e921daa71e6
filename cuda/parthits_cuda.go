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
