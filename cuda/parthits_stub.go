//go:build !cuda

package cuda

import "unsafe"

func backendPartHITSStep(int, unsafe.Pointer, int, float64, float64) error { return ErrNoCUDA }

func backendPartDeltaStep(int, unsafe.Pointer, int, uint64, float64, float64) error { return ErrNoCUDA }
