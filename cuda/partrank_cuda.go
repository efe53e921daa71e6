//go:build cuda

package cuda

/*
#include "mgraph.h"
*/
import "C"

import "unsafe"

func backendPRPullGather(dev int, desc, pull, share, acc, sums, panels unsafe.Pointer, want uint8, stream unsafe.Pointer) error {
	return call("pagerank pull gather", func(e *C.char, n C.size_t) C.int {
		return C.mg_pr_pull_gather(C.int(dev), (*C.mg_dlayout)(desc), (*C.mg_pr_pull)(pull), (*C.double)(share),
			(*C.double)(acc), (*C.mg_pr_sums)(sums), (*C.uint8_t)(panels), C.uint32_t(want), C.mg_stream(stream), e, n)
	})
}

func backendPartPRInit(dev int, offsets, owned unsafe.Pointer, numOwned, nv uint64, r0 float64, teleport unsafe.Pointer, p float64, rank, share, acc, dangling unsafe.Pointer) error {
	return call("partitioned pagerank init", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_pr_init(C.int(dev), (*C.uint64_t)(offsets), (*C.uint32_t)(owned), C.uint64_t(numOwned),
			C.uint64_t(nv), C.double(r0), (*C.uint32_t)(teleport), C.double(p), (*C.double)(rank), (*C.double)(share), (*C.double)(acc), (*C.uint64_t)(dangling), e, n)
	})
}

func backendPartPRPack(dev int, ghostLid unsafe.Pointer, numGhosts uint64, acc, send unsafe.Pointer) error {
	return call("partitioned pagerank pack", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_pr_pack(C.int(dev), (*C.uint32_t)(ghostLid), C.uint64_t(numGhosts), (*C.double)(acc), (*C.double)(send), e, n)
	})
}

func backendPartPRUnpack(dev int, recv, recvLid unsafe.Pointer, count uint64, acc unsafe.Pointer) error {
	return call("partitioned pagerank unpack", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_pr_unpack(C.int(dev), (*C.double)(recv), (*C.uint32_t)(recvLid), C.uint64_t(count), (*C.double)(acc), e, n)
	})
}

func backendPartPRApply(dev int, offsets, owned unsafe.Pointer, numOwned uint64, base, damping float64, teleport unsafe.Pointer, p float64, rank, share, acc, sums unsafe.Pointer) error {
	return call("partitioned pagerank apply", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_pr_apply(C.int(dev), (*C.uint64_t)(offsets), (*C.uint32_t)(owned), C.uint64_t(numOwned),
			C.double(base), C.double(damping), (*C.uint32_t)(teleport), C.double(p), (*C.double)(rank), (*C.double)(share), (*C.double)(acc), (*C.double)(sums), e, n)
	})
}

func backendPartPRGather(dev int, owned unsafe.Pointer, numOwned uint64, rank, out unsafe.Pointer) error {
	return call("partitioned pagerank gather", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_pr_gather(C.int(dev), (*C.uint32_t)(owned), C.uint64_t(numOwned), (*C.double)(rank), (*C.double)(out), e, n)
	})
}

func backendNCCLAllReduceSumF64(dev int, comm, send, recv unsafe.Pointer, count uint64, s unsafe.Pointer) error {
	return call("NCCL all-reduce", func(e *C.char, n C.size_t) C.int {
		return C.mg_nccl_all_reduce_sum_f64(C.int(dev), comm, (*C.double)(send), (*C.double)(recv), C.uint64_t(count),
			C.mg_stream(s), e, n)
	})
}

func backendPartPRScatter(dev int, vals, ids unsafe.Pointer, count uint64, full unsafe.Pointer) error {
	return call("partitioned pagerank scatter", func(e *C.char, n C.size_t) C.int {
		return C.mg_part_pr_scatter(C.int(dev), (*C.double)(vals), (*C.uint32_t)(ids), C.uint64_t(count), (*C.double)(full), e, n)
	})
}
