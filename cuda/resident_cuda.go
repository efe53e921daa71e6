//go:build cuda

package cuda

/*
#include "mgraph.h"
*/
import "C"

import "unsafe"

// The C API's constants that the Go side copies (resident.cu, cc.cu).
var (
	_ [CCEvents - C.MG_CC_EVENTS]struct{}
	_ [C.MG_CC_EVENTS - CCEvents]struct{}
)

func backendMinInit(dev int, values unsafe.Pointer, nv uint64, fill uint32, identity, hasSource bool, source, sourceValue uint32,
	list, flags unsafe.Pointer) error {
	return call("min init", func(e *C.char, n C.size_t) C.int {
		return C.mg_min_init(C.int(dev), (*C.uint32_t)(values), C.uint64_t(nv), C.uint32_t(fill), cbool(identity), cbool(hasSource),
			C.uint32_t(source), C.uint32_t(sourceValue), (*C.uint32_t)(list), (*C.uint8_t)(flags), nil, e, n)
	})
}

func backendGatherU32(dev int, out, values, perm unsafe.Pointer, nv uint64) error {
	return call("gather", func(e *C.char, n C.size_t) C.int {
		return C.mg_gather_u32(C.int(dev), (*C.uint32_t)(out), (*C.uint32_t)(values), (*C.uint32_t)(perm), C.uint64_t(nv), nil, e, n)
	})
}

func backendGatherIDs(dev int, out, ids, perm, inv unsafe.Pointer, nv uint64) error {
	return call("gather ids", func(e *C.char, n C.size_t) C.int {
		return C.mg_gather_ids(C.int(dev), (*C.uint32_t)(out), (*C.uint32_t)(ids), (*C.uint32_t)(perm), (*C.uint32_t)(inv), C.uint64_t(nv), nil, e, n)
	})
}

func backendBFSParents(dev int, desc, level, parent unsafe.Pointer) error {
	return call("bfs parents", func(e *C.char, n C.size_t) C.int {
		return C.mg_bfs_parents(C.int(dev), (*C.mg_dlayout)(desc), (*C.uint32_t)(level), (*C.uint32_t)(parent), nil, e, n)
	})
}

func backendGatherF64(dev int, out, values, perm, divisor unsafe.Pointer, nv uint64) error {
	return call("gather", func(e *C.char, n C.size_t) C.int {
		return C.mg_gather_f64(C.int(dev), (*C.double)(out), (*C.double)(values), (*C.uint32_t)(perm), (*C.double)(divisor),
			C.uint64_t(nv), nil, e, n)
	})
}

func backendGatherComponents(dev int, out, label, perm, smallest unsafe.Pointer, nv uint64) error {
	return call("gather components", func(e *C.char, n C.size_t) C.int {
		return C.mg_gather_components(C.int(dev), (*C.uint32_t)(out), (*C.uint32_t)(label), (*C.uint32_t)(perm),
			(*C.uint32_t)(smallest), C.uint64_t(nv), nil, e, n)
	})
}

func backendPRInit(dev int, desc, rank, share unsafe.Pointer) error {
	return call("pr init", func(e *C.char, n C.size_t) C.int {
		return C.mg_pr_init(C.int(dev), (*C.mg_dlayout)(desc), (*C.double)(rank), (*C.double)(share), nil, e, n)
	})
}

func backendPRPersonalInit(dev int, desc, teleport unsafe.Pointer, weight float64, rank, share, count unsafe.Pointer) error {
	return call("personalised pr init", func(e *C.char, n C.size_t) C.int {
		return C.mg_pr_personal_init(C.int(dev), (*C.mg_dlayout)(desc), (*C.uint32_t)(teleport), C.double(weight),
			(*C.double)(rank), (*C.double)(share), (*C.uint64_t)(count), nil, e, n)
	})
}

func backendPRDeltaInit(dev int, desc unsafe.Pointer, damping float64, x, residual, push, flags unsafe.Pointer) error {
	return call("pr-delta init", func(e *C.char, n C.size_t) C.int {
		return C.mg_prdelta_init(C.int(dev), (*C.mg_dlayout)(desc), C.double(damping), (*C.double)(x), (*C.double)(residual),
			(*C.double)(push), (*C.uint8_t)(flags), nil, e, n)
	})
}

func backendCountDangling(dev int, desc, count unsafe.Pointer) error {
	return call("count dangling", func(e *C.char, n C.size_t) C.int {
		return C.mg_count_dangling(C.int(dev), (*C.mg_dlayout)(desc), (*C.uint64_t)(count), nil, e, n)
	})
}

func backendHostAlloc(dev int, bytes uint64) (unsafe.Pointer, error) {
	var p unsafe.Pointer
	err := call("HostAlloc", func(e *C.char, n C.size_t) C.int {
		return C.mg_host_alloc(C.int(dev), &p, C.uint64_t(bytes), e, n)
	})
	return p, err
}

func backendHostFree(dev int, p unsafe.Pointer) error {
	return call("HostFree", func(e *C.char, n C.size_t) C.int { return C.mg_host_free(C.int(dev), p, e, n) })
}

func backendCopyDtoHAsync(dev int, dst, src unsafe.Pointer, bytes uint64) error {
	return call("CopyToHostAsync", func(e *C.char, n C.size_t) C.int {
		return C.mg_memcpy_dtoh_async(C.int(dev), dst, src, C.uint64_t(bytes), nil, e, n)
	})
}

func backendCCHook(dev int, desc, parent, ev unsafe.Pointer) error {
	return call("cc hook", func(e *C.char, n C.size_t) C.int {
		return C.mg_cc_hook(C.int(dev), (*C.mg_dlayout)(desc), (*C.uint32_t)(parent), nil, (*C.mg_event)(ev), e, n)
	})
}
