//go:build !cuda

package cuda

import "unsafe"

// This file is the build without CUDA: every device operation returns
// ErrNoCUDA.

const builtWithCUDA = false

func backendVersions() (driver, runtime int, err error) { return 0, 0, ErrNoCUDA }
func backendDeviceCount() (int, error)                  { return 0, ErrNoCUDA }
func backendProps(int) (DeviceProps, error)             { return DeviceProps{}, ErrNoCUDA }
func backendMemInfo(int) (free, total uint64, err error) {
	return 0, 0, ErrNoCUDA
}
func backendDeviceSync(int) error                                       { return ErrNoCUDA }
func backendDeviceRecover(int) (error, error)                           { return nil, ErrNoCUDA }
func backendInjectFault(int, int) error                                 { return ErrNoCUDA }
func backendMalloc(int, uint64) (unsafe.Pointer, error)                 { return nil, ErrNoCUDA }
func backendFree(int, unsafe.Pointer) error                             { return ErrNoCUDA }
func backendCopyHtoD(int, unsafe.Pointer, unsafe.Pointer, uint64) error { return ErrNoCUDA }
func backendCopyDtoH(int, unsafe.Pointer, unsafe.Pointer, uint64) error { return ErrNoCUDA }
func backendCopyDtoD(int, unsafe.Pointer, unsafe.Pointer, uint64) error { return ErrNoCUDA }
func backendMemset(int, unsafe.Pointer, byte, uint64, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendStreamCreate(int) (unsafe.Pointer, error)              { return nil, ErrNoCUDA }
func backendStreamDestroy(int, unsafe.Pointer) error               { return ErrNoCUDA }
func backendStreamSync(int, unsafe.Pointer) error                  { return ErrNoCUDA }
func backendEventCreate(int) (unsafe.Pointer, error)               { return nil, ErrNoCUDA }
func backendEventDestroy(int, unsafe.Pointer) error                { return ErrNoCUDA }
func backendEventRecord(int, unsafe.Pointer, unsafe.Pointer) error { return ErrNoCUDA }
func backendEventSync(int, unsafe.Pointer) error                   { return ErrNoCUDA }
func backendEventElapsed(int, unsafe.Pointer, unsafe.Pointer) (float32, error) {
	return 0, ErrNoCUDA
}
func backendProbeCopy(int, unsafe.Pointer, unsafe.Pointer, uint64, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendProbeRead(int, unsafe.Pointer, uint64, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendReduceSumU32(int, unsafe.Pointer, uint64, unsafe.Pointer, unsafe.Pointer, uint64, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendReduceSumF64(int, unsafe.Pointer, uint64, unsafe.Pointer, unsafe.Pointer, uint64, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendMinDense(int, int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, bool, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendMinSparse(int, int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint32, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendMinSparseLoop(int, int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint32, uint32, uint32, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendMinAsync(int, int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint32, unsafe.Pointer, unsafe.Pointer, uint32, unsafe.Pointer, uint32, unsafe.Pointer, uint32, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint32, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendBCAsync(int, unsafe.Pointer, unsafe.Pointer, uint32, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint32, unsafe.Pointer, unsafe.Pointer, uint32, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendPRDeltaAsync(int, unsafe.Pointer, float64, float64, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint32, unsafe.Pointer, unsafe.Pointer, uint32, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendMinPull(int, int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendMinPullAll(int, int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendInHeavy(int, unsafe.Pointer, unsafe.Pointer) (uint64, error) { return 0, ErrNoCUDA }
func backendTranspose(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendMinSample(int, int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint32, uint32, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendFlagsToList(int, unsafe.Pointer, uint64, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendListToFlags(int, unsafe.Pointer, uint32, unsafe.Pointer, uint64) error { return ErrNoCUDA }
func backendFillU32(int, unsafe.Pointer, uint64, uint32) error                     { return ErrNoCUDA }
func backendPRStep(int, unsafe.Pointer, float64, float64, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendPRPullBuild(int, unsafe.Pointer, uint64, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendPRPullStep(int, unsafe.Pointer, unsafe.Pointer, float64, float64, unsafe.Pointer, float64, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendBlockMaxVertices(int) (uint64, error)                     { return 0, ErrNoCUDA }
func backendBlockMaxDegree(int, unsafe.Pointer, unsafe.Pointer) error { return ErrNoCUDA }
func backendClusterMaxVertices(int) (uint64, uint32, error)           { return 0, 0, ErrNoCUDA }
func backendBCCluster(int, unsafe.Pointer, unsafe.Pointer, uint32, uint32, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint32, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendBlockRows(int, unsafe.Pointer, uint32, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendBlockWeightRows(int, unsafe.Pointer, uint32, unsafe.Pointer) error { return ErrNoCUDA }
func backendBlockBFS(int, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint32, unsafe.Pointer, uint32, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
func backendBCBlock(int, unsafe.Pointer, unsafe.Pointer, uint32, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, uint32, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, unsafe.Pointer) error {
	return ErrNoCUDA
}
