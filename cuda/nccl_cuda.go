//go:build cuda

package cuda

/*
#include <stdlib.h>
#include "mgraph.h"
*/
import "C"

import "unsafe"

func backendNCCLOpen(path string) (int, error) {
	cp := C.CString(path)
	defer C.free(unsafe.Pointer(cp))
	var v C.int
	err := call("NCCL open", func(e *C.char, n C.size_t) C.int { return C.mg_nccl_open(cp, &v, e, n) })
	return int(v), err
}

func backendNCCLInitAll(devices []int) ([]unsafe.Pointer, error) {
	if len(devices) == 0 {
		return nil, invalidf("NCCL init", "no devices")
	}
	devs := (*C.int)(C.malloc(C.size_t(len(devices)) * C.sizeof_int))
	defer C.free(unsafe.Pointer(devs))
	ds := unsafe.Slice(devs, len(devices))
	for i, d := range devices {
		ds[i] = C.int(d)
	}
	comms := (*unsafe.Pointer)(C.malloc(C.size_t(len(devices)) * C.size_t(unsafe.Sizeof(unsafe.Pointer(nil)))))
	defer C.free(unsafe.Pointer(comms))
	err := call("NCCL init", func(e *C.char, n C.size_t) C.int {
		return C.mg_nccl_init_all(C.int(len(devices)), devs, comms, e, n)
	})
	if err != nil {
		return nil, err
	}
	return append([]unsafe.Pointer(nil), unsafe.Slice(comms, len(devices))...), nil
}

func backendNCCLDestroy(comm unsafe.Pointer) error {
	return call("NCCL destroy", func(e *C.char, n C.size_t) C.int { return C.mg_nccl_destroy(comm, e, n) })
}

func backendNCCLExchange(dev int, comm unsafe.Pointer, ranks, rank int, send unsafe.Pointer, sendOff, sendBytes []uint64,
	recv unsafe.Pointer, recvOff, recvBytes []uint64, s unsafe.Pointer) error {
	// The offsets and sizes go through C memory (cgo forbids passing Go
	// memory that holds Go pointers; these hold none, but C keeps no
	// reference either way).
	arr := (*C.uint64_t)(C.malloc(C.size_t(4*ranks) * 8))
	defer C.free(unsafe.Pointer(arr))
	a := unsafe.Slice((*uint64)(unsafe.Pointer(arr)), 4*ranks)
	copy(a[0:], sendOff)
	copy(a[ranks:], sendBytes)
	copy(a[2*ranks:], recvOff)
	copy(a[3*ranks:], recvBytes)
	p := func(i int) *C.uint64_t { return (*C.uint64_t)(unsafe.Pointer(&a[i*ranks])) }
	return call("NCCL exchange", func(e *C.char, n C.size_t) C.int {
		return C.mg_nccl_exchange(C.int(dev), comm, C.int(ranks), C.int(rank), send, p(0), p(1), recv, p(2), p(3),
			C.mg_stream(s), e, n)
	})
}

func backendNCCLAllReduceSum(dev int, comm, send, recv unsafe.Pointer, count uint64, s unsafe.Pointer) error {
	return call("NCCL all-reduce", func(e *C.char, n C.size_t) C.int {
		return C.mg_nccl_all_reduce_sum_u64(C.int(dev), comm, (*C.uint64_t)(send), (*C.uint64_t)(recv), C.uint64_t(count),
			C.mg_stream(s), e, n)
	})
}

func backendNCCLAbort(comm unsafe.Pointer) error {
	return call("NCCL abort", func(e *C.char, n C.size_t) C.int { return C.mg_nccl_abort(comm, e, n) })
}
