//go:build cuda

package cuda

/*
#include <stdlib.h>
#include "mgraph.h"
*/
import "C"

import (
	"sync/atomic"
	"unsafe"
)

// Range opens an NVTX range called name on the Nsight Systems timeline (and
// for Nsight Compute's --nvtx-include filters) and returns the function that
// closes it:
//
//	defer cuda.Range("pr: iteration")()
//
// The range is a start/end range (process-wide), not a push/pop one, because
// a goroutine may move between OS threads between the two calls; end may be
// called from any goroutine, and calling it more than once closes the range
// once. Without a profiler attached both calls do nothing observable and
// cannot fail.
func Range(name string) (end func()) {
	cs := C.CString(name)
	id := C.mg_nvtx_start(cs)
	C.free(unsafe.Pointer(cs))
	var done atomic.Bool
	return func() {
		if done.CompareAndSwap(false, true) {
			C.mg_nvtx_end(id)
		}
	}
}
