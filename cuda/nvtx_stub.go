//go:build !cuda

package cuda

// Range is the build without CUDA's NVTX range: it does nothing and returns
// a function that does nothing (see the cuda build's documentation).
func Range(name string) (end func()) { return func() {} }
