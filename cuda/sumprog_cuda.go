//go:build cuda

package cuda

/*
#include "mgraph.h"
*/
import "C"

import "unsafe"

// The Go mirrors of the sum engines' C types and constants must agree with
// mgraph.h: each line fails to compile if they differ.
var (
	_ [unsafe.Sizeof(sumParams{}) - C.sizeof_mg_sum_params]struct{}
	_ [C.sizeof_mg_sum_params - unsafe.Sizeof(sumParams{})]struct{}
	_ [SumProgPRDelta - C.MG_SPROG_PRDELTA]struct{}
	_ [C.MG_SPROG_PRDELTA - SumProgPRDelta]struct{}
	_ [SumProgBCForward - C.MG_SPROG_BC_FORWARD]struct{}
	_ [C.MG_SPROG_BC_FORWARD - SumProgBCForward]struct{}
)

func backendSumDense(dev, prog int, desc, params, values, active, next, stream, ctr unsafe.Pointer, dry bool, ev unsafe.Pointer) error {
	return call("dense step", func(e *C.char, n C.size_t) C.int {
		return C.mg_sum_dense_step(C.int(dev), C.int(prog), (*C.mg_dlayout)(desc), (*C.mg_sum_params)(params),
			(*C.double)(values), (*C.uint8_t)(active), (*C.uint8_t)(next), (*C.double)(stream),
			(*C.mg_step_counters)(ctr), cbool(dry), nil, (*C.mg_event)(ev), e, n)
	})
}

func backendSumSparse(dev, prog int, desc, params, values, frontier unsafe.Pointer, count uint32, acc, touched, next, ctr, ev unsafe.Pointer) error {
	return call("sparse step", func(e *C.char, n C.size_t) C.int {
		return C.mg_sum_sparse_step(C.int(dev), C.int(prog), (*C.mg_dlayout)(desc), (*C.mg_sum_params)(params),
			(*C.double)(values), (*C.uint32_t)(frontier), C.uint32_t(count), (*C.double)(acc),
			(*C.uint32_t)(touched), (*C.uint32_t)(next), (*C.mg_step_counters)(ctr), nil, (*C.mg_event)(ev), e, n)
	})
}

func backendSumSparseLoop(dev, prog int, desc, params, values, list0, list1 unsafe.Pointer, count, maxIters, blocksPerSM uint32, rule, acc, touched, ctr, state, records, ev unsafe.Pointer) error {
	return call("sparse loop", func(e *C.char, n C.size_t) C.int {
		return C.mg_sum_sparse_loop(C.int(dev), C.int(prog), (*C.mg_dlayout)(desc), (*C.mg_sum_params)(params),
			(*C.double)(values), (*C.uint32_t)(list0), (*C.uint32_t)(list1), C.uint32_t(count), C.uint32_t(maxIters),
			C.uint32_t(blocksPerSM), (*C.mg_loop_rule)(rule), (*C.double)(acc), (*C.uint32_t)(touched),
			(*C.mg_step_counters)(ctr), (*C.mg_loop_state)(state), (*C.mg_loop_record)(records), nil,
			(*C.mg_event)(ev), e, n)
	})
}

func backendSumSample(dev, prog int, desc, params, values, frontier unsafe.Pointer, count, stride uint32, scratch, ev unsafe.Pointer) error {
	return call("sparse sample", func(e *C.char, n C.size_t) C.int {
		return C.mg_sum_sparse_sample(C.int(dev), C.int(prog), (*C.mg_dlayout)(desc), (*C.mg_sum_params)(params),
			(*C.double)(values), (*C.uint32_t)(frontier), C.uint32_t(count), C.uint32_t(stride),
			(*C.double)(scratch), nil, (*C.mg_event)(ev), e, n)
	})
}

func backendBCInit(dev int, depth, sigma, delta unsafe.Pointer, nv uint64, source uint32, list unsafe.Pointer) error {
	return call("bc init", func(e *C.char, n C.size_t) C.int {
		return C.mg_bc_init(C.int(dev), (*C.int32_t)(depth), (*C.double)(sigma), (*C.double)(delta), C.uint64_t(nv),
			C.uint32_t(source), (*C.uint32_t)(list), nil, e, n)
	})
}

func backendBCOrder(dev int, depth unsafe.Pointer, nv uint64, levels uint32, cursor, order unsafe.Pointer) error {
	return call("bc order", func(e *C.char, n C.size_t) C.int {
		return C.mg_bc_order(C.int(dev), (*C.int32_t)(depth), C.uint64_t(nv), C.uint32_t(levels),
			(*C.uint32_t)(cursor), (*C.uint32_t)(order), nil, e, n)
	})
}

func backendBCBackward(dev int, desc, depth, sigma, delta, level unsafe.Pointer, count uint32, d int32) error {
	return call("bc backward", func(e *C.char, n C.size_t) C.int {
		return C.mg_bc_backward(C.int(dev), (*C.mg_dlayout)(desc), (*C.int32_t)(depth), (*C.double)(sigma),
			(*C.double)(delta), (*C.uint32_t)(level), C.uint32_t(count), C.int32_t(d), nil, nil, e, n)
	})
}

func backendBCAccumulate(dev int, delta, bc unsafe.Pointer, nv uint64, source uint32) error {
	return call("bc accumulate", func(e *C.char, n C.size_t) C.int {
		return C.mg_bc_accumulate(C.int(dev), (*C.double)(delta), (*C.double)(bc), C.uint64_t(nv),
			C.uint32_t(source), nil, e, n)
	})
}

func backendBCAsync(dev int, desc, levels unsafe.Pointer, source uint32, depth, sigma, delta, predLeft, succLeft, dag, ring unsafe.Pointer, ringLog2 uint32, queued, state unsafe.Pointer, blocksPerSM uint32, ev unsafe.Pointer) error {
	return call("bc async", func(e *C.char, n C.size_t) C.int {
		return C.mg_bc_async(C.int(dev), (*C.mg_dlayout)(desc), (*C.uint32_t)(levels), C.uint32_t(source),
			(*C.int32_t)(depth), (*C.double)(sigma), (*C.double)(delta), (*C.uint32_t)(predLeft),
			(*C.uint32_t)(succLeft), (*C.uint8_t)(dag), (*C.uint64_t)(ring), C.uint32_t(ringLog2), (*C.uint32_t)(queued),
			(*C.mg_async_state)(state), C.uint32_t(blocksPerSM), nil, (*C.mg_event)(ev), e, n)
	})
}

func backendPRDeltaAsync(dev int, desc unsafe.Pointer, damping, eps float64, x, residual, ring unsafe.Pointer, ringLog2 uint32, queued, state unsafe.Pointer, blocksPerSM uint32, ev unsafe.Pointer) error {
	return call("pr-delta async", func(e *C.char, n C.size_t) C.int {
		return C.mg_prdelta_async(C.int(dev), (*C.mg_dlayout)(desc), C.double(damping), C.double(eps),
			(*C.double)(x), (*C.double)(residual), (*C.uint64_t)(ring), C.uint32_t(ringLog2), (*C.uint32_t)(queued),
			(*C.mg_async_state)(state), C.uint32_t(blocksPerSM), nil, (*C.mg_event)(ev), e, n)
	})
}

func backendBCCluster(dev int, desc, rows unsafe.Pointer, blocks, source uint32, levels, order, levelEnd, qrows, spill unsafe.Pointer, bailout uint32, sigma, delta, stats, ev unsafe.Pointer) error {
	return call("bc cluster", func(e *C.char, n C.size_t) C.int {
		return C.mg_bc_cluster(C.int(dev), (*C.mg_dlayout)(desc), (*C.uint32_t)(rows), C.uint32_t(blocks),
			C.uint32_t(source), (*C.uint32_t)(levels), (*C.uint32_t)(order), (*C.uint32_t)(levelEnd),
			(*C.uint32_t)(qrows), (*C.uint32_t)(spill), C.uint32_t(bailout), (*C.double)(sigma), (*C.double)(delta),
			(*C.mg_block_stats)(stats), nil, (*C.mg_event)(ev), e, n)
	})
}

func backendBCBlock(dev int, desc, rows unsafe.Pointer, source uint32, levels, order, levelEnd, arcBegin, arcCount, links, qvals unsafe.Pointer, bailout uint32, sigma, delta, stats, ev unsafe.Pointer) error {
	return call("bc block", func(e *C.char, n C.size_t) C.int {
		return C.mg_bc_block(C.int(dev), (*C.mg_dlayout)(desc), (*C.uint32_t)(rows), C.uint32_t(source), (*C.uint32_t)(levels),
			(*C.uint32_t)(order), (*C.uint32_t)(levelEnd), (*C.uint64_t)(arcBegin), (*C.uint32_t)(arcCount),
			(*C.uint32_t)(links), (*C.double)(qvals), C.uint32_t(bailout), (*C.double)(sigma), (*C.double)(delta),
			(*C.mg_block_stats)(stats), nil, (*C.mg_event)(ev), e, n)
	})
}
