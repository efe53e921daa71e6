//go:build !cuda

package cuda

import "unsafe"

func backendMinInit(int, unsafe.Pointer, uint64, uint32, bool, bool, uint32, uint32, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendGatherIDs(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint64) error {
	return ErrNoCUDA
}
func backendBFSParents(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error { return ErrNoCUDA }
func backendGatherU32(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint64) error {
	return ErrNoCUDA
}
func backendGatherF64(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint64) error {
	return ErrNoCUDA
}
func backendGatherComponents(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint64) error {
	return ErrNoCUDA
}
func backendPRInit(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error { return ErrNoCUDA }
func backendPRPersonalInit(int, unsafe.Pointer, unsafe.Pointer, float64, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendPRDeltaInit(int, unsafe.Pointer, float64, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendCountDangling(int, unsafe.Pointer, unsafe.Pointer) error          { return ErrNoCUDA }
func backendHostAlloc(int, uint64) (unsafe.Pointer, error)                    { return nil, ErrNoCUDA }
func backendHostFree(int, unsafe.Pointer) error                               { return ErrNoCUDA }
func backendCopyDtoHAsync(int, unsafe.Pointer, unsafe.Pointer, uint64) error  { return ErrNoCUDA }
func backendCCHook(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error { return ErrNoCUDA }
