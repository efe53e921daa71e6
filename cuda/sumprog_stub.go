//go:build !cuda

package cuda

import "unsafe"

// The sum engines and BC without CUDA: every call returns ErrNoCUDA.

func backendSumDense(int, int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, bool, unsafe.Pointer) error {
	return ErrNoCUDA
}

func backendSumSparse(int, int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint32, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}

func backendSumSample(int, int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint32, uint32, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}

func backendBCInit(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint64, uint32, unsafe.Pointer) error {
	return ErrNoCUDA
}

func backendBCOrder(int, unsafe.Pointer, uint64, uint32, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}

func backendBCBackward(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint32, int32) error {
	return ErrNoCUDA
}

func backendBCAccumulate(int, unsafe.Pointer, unsafe.Pointer, uint64, uint32) error { return ErrNoCUDA }
func backendSumSparseLoop(int, int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint32, uint32, uint32, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
