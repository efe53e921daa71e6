//go:build !cuda

package cuda

import "unsafe"

func backendPartBCStart(int, unsafe.Pointer, uint32) error                   { return ErrNoCUDA }
func backendPartBCForward(int, unsafe.Pointer, uint32, uint64, uint64) error { return ErrNoCUDA }
func backendPartBCReceive(int, unsafe.Pointer, uint32, uint64, int, int, []uint64, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendPartBCPublish(int, unsafe.Pointer, uint32, unsafe.Pointer) error { return ErrNoCUDA }
func backendPartBCReadCounters(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendPartBCBackward(int, unsafe.Pointer, uint32, uint64, uint64) error { return ErrNoCUDA }
