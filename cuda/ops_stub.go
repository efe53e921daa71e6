//go:build !cuda

package cuda

import "unsafe"

func backendOpFill(int, unsafe.Pointer, int, uint64, uint64) error { return ErrNoCUDA }
func backendOpTempBytes(uint64) (uint64, error)                    { return 0, ErrNoCUDA }
func backendOpAdvancePlan(int, *opGraph, *opIn, unsafe.Pointer, *uint64, opTemp) error {
	return ErrNoCUDA
}
func backendOpAdvance(int, int, *opArgs, *opGraph, *opIn, unsafe.Pointer, uint64, int, *opOut, *uint64) error {
	return ErrNoCUDA
}
func backendOpAdvancePull(int, int, *opArgs, *opGraph, *opIn, unsafe.Pointer, int, *opOut, *uint64) error {
	return ErrNoCUDA
}
func backendOpFilter(int, int, *opArgs, *opIn, *opOut, *uint64, opTemp) error { return ErrNoCUDA }
func backendOpSum(int, int, *opArgs, *opIn, *float64, opTemp) error           { return ErrNoCUDA }
func backendOpReduce(int, int, *opArgs, *opGraph, *opIn, int) error           { return ErrNoCUDA }
func backendOpIntersect(int, int, *opArgs, *opGraph, *opIn, *uint64, opTemp) error {
	return ErrNoCUDA
}
func backendOpFilterArcsCount(int, int, *opArgs, *opGraph, unsafe.Pointer, *uint64, opTemp) error {
	return ErrNoCUDA
}
func backendOpFilterArcsWrite(int, int, *opArgs, *opGraph, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
