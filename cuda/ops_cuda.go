//go:build cuda

package cuda

/*
#include "mgraph.h"
*/
import "C"

import (
	"unsafe"

	"github.com/mgraph-dev/mgraph/ops"
)

// The operators' Go mirrors must agree with mgraph.h.
var (
	_ [unsafe.Sizeof(opArgs{}) - C.sizeof_mg_op_args]struct{}
	_ [C.sizeof_mg_op_args - unsafe.Sizeof(opArgs{})]struct{}
	_ [unsafe.Sizeof(opGraph{}) - C.sizeof_mg_op_graph]struct{}
	_ [C.sizeof_mg_op_graph - unsafe.Sizeof(opGraph{})]struct{}
	_ [unsafe.Sizeof(opIn{}) - C.sizeof_mg_op_in]struct{}
	_ [C.sizeof_mg_op_in - unsafe.Sizeof(opIn{})]struct{}
	_ [unsafe.Sizeof(opOut{}) - C.sizeof_mg_op_out]struct{}
	_ [C.sizeof_mg_op_out - unsafe.Sizeof(opOut{})]struct{}
	_ [ops.MaxArrays - C.MG_OP_ARRAYS]struct{}
	_ [C.MG_OP_ARRAYS - ops.MaxArrays]struct{}
	_ [ops.MaxScalars - C.MG_OP_SCALARS]struct{}
	_ [C.MG_OP_SCALARS - ops.MaxScalars]struct{}
	_ [ops.FnLast - C.MG_FN_LAST]struct{}
	_ [C.MG_FN_LAST - ops.FnLast]struct{}
	_ [ops.FnBFS - C.MG_FN_BFS]struct{}
	_ [ops.FnOrient - C.MG_FN_ORIENT]struct{}
	_ [ops.FnKcoreDrop - C.MG_FN_KCORE_DROP]struct{}
	_ [ops.FnMISExclude - C.MG_FN_MIS_EXCLUDE]struct{}
	_ [ops.FnPushAdd - C.MG_FN_PUSH_ADD]struct{}
	_ [ops.FnFlagged - C.MG_FN_FLAGGED]struct{}
	_ [ops.FnMSFReset - C.MG_FN_MSF_RESET]struct{}
	_ [ops.FnMSFJump - C.MG_FN_MSF_JUMP]struct{}
	_ [lbMerged - C.MG_LB_MERGED]struct{}
	_ [C.MG_LB_MERGED - lbMerged]struct{}
)

func backendOpFill(dev int, p unsafe.Pointer, elem int, value, n uint64) error {
	return call("ops fill", func(e *C.char, en C.size_t) C.int {
		return C.mg_op_fill(C.int(dev), p, C.int(elem), C.uint64_t(value), C.uint64_t(n), e, en)
	})
}

func backendOpTempBytes(n uint64) (uint64, error) {
	var b C.uint64_t
	err := call("ops temp bytes", func(e *C.char, en C.size_t) C.int { return C.mg_op_temp_bytes(C.uint64_t(n), &b, e, en) })
	return uint64(b), err
}

func backendOpAdvancePlan(dev int, g *opGraph, in *opIn, scan unsafe.Pointer, arcs *uint64, t opTemp) error {
	return call("ops advance plan", func(e *C.char, en C.size_t) C.int {
		return C.mg_op_advance_plan(C.int(dev), (*C.mg_op_graph)(unsafe.Pointer(g)), (*C.mg_op_in)(unsafe.Pointer(in)),
			(*C.uint64_t)(scan), (*C.uint64_t)(unsafe.Pointer(arcs)), t.p, C.uint64_t(t.bytes), e, en)
	})
}

func backendOpAdvance(dev, fn int, a *opArgs, g *opGraph, in *opIn, scan unsafe.Pointer, arcs uint64, lb int, out *opOut, written *uint64) error {
	return call("ops advance", func(e *C.char, en C.size_t) C.int {
		return C.mg_op_advance(C.int(dev), C.int(fn), (*C.mg_op_args)(unsafe.Pointer(a)), (*C.mg_op_graph)(unsafe.Pointer(g)),
			(*C.mg_op_in)(unsafe.Pointer(in)), (*C.uint64_t)(scan), C.uint64_t(arcs), C.int(lb),
			(*C.mg_op_out)(unsafe.Pointer(out)), (*C.uint64_t)(unsafe.Pointer(written)), e, en)
	})
}

func backendOpAdvancePull(dev, fn int, a *opArgs, g *opGraph, in *opIn, member unsafe.Pointer, first int, out *opOut, written *uint64) error {
	return call("ops pull advance", func(e *C.char, en C.size_t) C.int {
		return C.mg_op_advance_pull(C.int(dev), C.int(fn), (*C.mg_op_args)(unsafe.Pointer(a)), (*C.mg_op_graph)(unsafe.Pointer(g)),
			(*C.mg_op_in)(unsafe.Pointer(in)), (*C.uint8_t)(member), C.int(first), (*C.mg_op_out)(unsafe.Pointer(out)),
			(*C.uint64_t)(unsafe.Pointer(written)), e, en)
	})
}

func backendOpFilter(dev, fn int, a *opArgs, in *opIn, out *opOut, written *uint64, t opTemp) error {
	return call("ops filter", func(e *C.char, en C.size_t) C.int {
		return C.mg_op_filter(C.int(dev), C.int(fn), (*C.mg_op_args)(unsafe.Pointer(a)), (*C.mg_op_in)(unsafe.Pointer(in)),
			(*C.mg_op_out)(unsafe.Pointer(out)), (*C.uint64_t)(unsafe.Pointer(written)), t.p, C.uint64_t(t.bytes), e, en)
	})
}

func backendOpSum(dev, fn int, a *opArgs, in *opIn, sum *float64, t opTemp) error {
	return call("ops sum", func(e *C.char, en C.size_t) C.int {
		return C.mg_op_sum(C.int(dev), C.int(fn), (*C.mg_op_args)(unsafe.Pointer(a)), (*C.mg_op_in)(unsafe.Pointer(in)),
			(*C.double)(unsafe.Pointer(sum)), t.p, C.uint64_t(t.bytes), e, en)
	})
}

func backendOpReduce(dev, fn int, a *opArgs, g *opGraph, in *opIn, op int) error {
	return call("ops reduce", func(e *C.char, en C.size_t) C.int {
		return C.mg_op_reduce(C.int(dev), C.int(fn), (*C.mg_op_args)(unsafe.Pointer(a)), (*C.mg_op_graph)(unsafe.Pointer(g)),
			(*C.mg_op_in)(unsafe.Pointer(in)), C.int(op), e, en)
	})
}

func backendOpIntersect(dev, fn int, a *opArgs, g *opGraph, in *opIn, total *uint64, t opTemp) error {
	return call("ops intersect", func(e *C.char, en C.size_t) C.int {
		return C.mg_op_intersect(C.int(dev), C.int(fn), (*C.mg_op_args)(unsafe.Pointer(a)), (*C.mg_op_graph)(unsafe.Pointer(g)),
			(*C.mg_op_in)(unsafe.Pointer(in)), (*C.uint64_t)(unsafe.Pointer(total)), t.p, C.uint64_t(t.bytes), e, en)
	})
}

func backendOpFilterArcsCount(dev, fn int, a *opArgs, g *opGraph, offsets unsafe.Pointer, kept *uint64, t opTemp) error {
	return call("ops filter-arcs count", func(e *C.char, en C.size_t) C.int {
		return C.mg_op_filter_arcs_count(C.int(dev), C.int(fn), (*C.mg_op_args)(unsafe.Pointer(a)), (*C.mg_op_graph)(unsafe.Pointer(g)),
			(*C.uint64_t)(offsets), (*C.uint64_t)(unsafe.Pointer(kept)), t.p, C.uint64_t(t.bytes), e, en)
	})
}

func backendOpFilterArcsWrite(dev, fn int, a *opArgs, g *opGraph, offsets, dst, weights unsafe.Pointer) error {
	return call("ops filter-arcs write", func(e *C.char, en C.size_t) C.int {
		return C.mg_op_filter_arcs_write(C.int(dev), C.int(fn), (*C.mg_op_args)(unsafe.Pointer(a)), (*C.mg_op_graph)(unsafe.Pointer(g)),
			(*C.uint64_t)(offsets), (*C.uint32_t)(dst), (*C.uint32_t)(weights), e, en)
	})
}
