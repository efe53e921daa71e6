//go:build !cuda

package cuda

import "unsafe"

func backendPRPullGather(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer,
	uint8, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendPartPRInit(int, unsafe.Pointer, unsafe.Pointer, uint64, uint64, float64, unsafe.Pointer, float64,
	unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendPartPRPack(int, unsafe.Pointer, uint64, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendPartPRUnpack(int, unsafe.Pointer, unsafe.Pointer, uint64, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendPartPRApply(int, unsafe.Pointer, unsafe.Pointer, uint64, float64, float64, unsafe.Pointer, float64,
	unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendPartPRGather(int, unsafe.Pointer, uint64, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendNCCLAllReduceSumF64(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint64, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendPartPRScatter(int, unsafe.Pointer, unsafe.Pointer, uint64, unsafe.Pointer) error {
	return ErrNoCUDA
}
