// Package cuda is mgraph's bridge to its CUDA kernels (the C API in
// kernels/mgraph.h, compiled into build/kernels/libmgraphkernels.a): device
// enumeration and properties, typed device buffers, streams, events, the
// memory-bandwidth probe and a reduction. Later it launches the graph kernels.
//
// The package has two builds with the same exported API:
//
//   - with the build tag "cuda" it calls the kernels library through cgo,
//     linking the CUDA runtime statically (the binary needs only the driver);
//   - without it every operation returns [ErrNoCUDA], so every caller builds
//     and runs on machines with no CUDA toolkit and no GPU.
//
// Every CUDA failure is an [*Error] naming the operation, the failing CUDA
// call and the CUDA error's name and string. Out-of-memory matches
// [ErrOutOfMemory] under errors.Is (and is an [*OutOfMemoryError] carrying the
// requested size); a machine without a usable GPU matches [ErrNoDevice]. A
// buffer, stream or event used after Free/Destroy, or never allocated, gives
// [ErrFreed] rather than a crash. Memory is always plain device memory
// (cudaMalloc), never managed memory.
//
// The import path ends in cgo/ (the repository's layout); the package name is
// cuda:
//
//	import "github.com/mgraph-dev/mgraph/cuda"
package cuda
