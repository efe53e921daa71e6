//go:build !cuda

package cuda

import "unsafe"

func backendPartPack(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint64,
	unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendPartUnpack(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint64, unsafe.Pointer, unsafe.Pointer,
	unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendPartLabels(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint64) error {
	return ErrNoCUDA
}
func backendPartGather(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error { return ErrNoCUDA }
func backendCopyPeer(int, unsafe.Pointer, int, unsafe.Pointer, uint64) error      { return ErrNoCUDA }
func backendEnablePeerAccess(int, int) (bool, error)                              { return false, ErrNoCUDA }
func backendPartScatter(int, unsafe.Pointer, unsafe.Pointer, uint64, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendPartBcastPack(int, unsafe.Pointer, unsafe.Pointer, uint64, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendPartBcastUnpack(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint32) error {
	return ErrNoCUDA
}
func backendPartParents(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer,
	unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendCCHookAll(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint64, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendPartCCRoots(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint64) error {
	return ErrNoCUDA
}
func backendCCRowlessIn(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) (uint64, error) {
	return 0, ErrNoCUDA
}

func backendPartStateStep(int, unsafe.Pointer, unsafe.Pointer, int, uint64, uint64, unsafe.Pointer) error {
	return ErrNoCUDA
}

func backendPartTriangles(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint64, unsafe.Pointer, unsafe.Pointer, uint64) error {
	return ErrNoCUDA
}

func backendPartMSFLightest(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint64, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
