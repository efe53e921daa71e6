//go:build !cuda

package cuda

import "unsafe"

func backendNCCLOpen(string) (int, error)                { return 0, ErrNoCUDA }
func backendNCCLInitAll([]int) ([]unsafe.Pointer, error) { return nil, ErrNoCUDA }
func backendNCCLDestroy(unsafe.Pointer) error            { return ErrNoCUDA }
func backendNCCLAbort(unsafe.Pointer) error              { return ErrNoCUDA }
func backendNCCLAllReduceSum(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint64, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendNCCLExchange(int, unsafe.Pointer, int, int, unsafe.Pointer, []uint64, []uint64, unsafe.Pointer, []uint64,
	[]uint64, unsafe.Pointer) error {
	return ErrNoCUDA
}
