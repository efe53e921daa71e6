package cuda

import (
	"errors"
	"fmt"
)

// Status codes of the C API (MG_* in kernels/mgraph.h; the cuda build checks
// that they agree).
const (
	codeOK       = 0
	codeCUDA     = 1
	codeOOM      = 2
	codeNoDevice = 3
	codeInvalid  = 4
)

// ErrDeviceLost is a device a fault made unusable for the rest of the
// process: a reset (Device.Recover) did not bring it back, as on platforms
// that give a process no new context after one. Another process, or the
// CPU backend, can go on.
var ErrDeviceLost = errors.New("cuda: the device faulted and cannot be used again by this process")

var (
	// ErrNoCUDA is returned by every operation of a binary built without the
	// "cuda" build tag.
	ErrNoCUDA = errors.New("cuda: built without CUDA support (build with -tags cuda; see docs/gpu.md)")

	// ErrNoDevice matches (errors.Is) the error of any operation that finds no
	// usable GPU: none visible, or a driver too old for the runtime.
	ErrNoDevice = errors.New("cuda: no CUDA device visible")

	// ErrOutOfMemory matches (errors.Is) a device allocation that failed for
	// lack of memory. The error is an *OutOfMemoryError with the size asked for.
	ErrOutOfMemory = errors.New("cuda: out of device memory")

	// ErrFreed is returned when a Buffer, Stream or Event is used after Free or
	// Destroy, or was never allocated (its zero value).
	ErrFreed = errors.New("cuda: use of a freed, destroyed or never-allocated handle")

	// ErrInvalid matches errors caused by invalid arguments (sizes, lengths,
	// devices that do not match), caught before or by the C layer.
	ErrInvalid = errors.New("cuda: invalid argument")
)

// Error is a failure reported by the CUDA kernels library.
type Error struct {
	// Op is the Go operation that failed, e.g. "Alloc" or "Probe".
	Op string
	// Detail is the C layer's message: the failing CUDA call with the CUDA
	// error's name, number and string, e.g.
	// "cudaMalloc(ptr, (size_t)bytes): cudaErrorMemoryAllocation (2): out of memory".
	Detail string
	// Code is the kernels library's status code (MG_ERR_* in mgraph.h).
	Code int
}

// Error formats the error as "cuda: OP: DETAIL".
func (e *Error) Error() string { return "cuda: " + e.Op + ": " + e.Detail }

// Is reports whether the error matches one of the package's sentinels:
// ErrOutOfMemory, ErrNoDevice or ErrInvalid, depending on Code.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrOutOfMemory:
		return e.Code == codeOOM
	case ErrNoDevice:
		return e.Code == codeNoDevice
	case ErrInvalid:
		return e.Code == codeInvalid
	}
	return false
}

// OutOfMemoryError is the error of a device allocation that did not fit. It
// matches ErrOutOfMemory under errors.Is and unwraps to the *Error of the
// failed CUDA call.
type OutOfMemoryError struct {
	// Device is the ordinal of the device asked.
	Device int
	// Requested is the size of the failed allocation in bytes.
	Requested uint64
	// Free and Total are the device's free and total memory in bytes just
	// after the failure (0 when they could not be read).
	Free, Total uint64
	// Err is the underlying CUDA error.
	Err error
}

// Error says how much was asked for and how much was free.
func (e *OutOfMemoryError) Error() string {
	s := fmt.Sprintf("cuda: out of device memory: allocating %s (%d bytes) on device %d",
		FormatBytes(e.Requested), e.Requested, e.Device)
	if e.Total > 0 {
		s += fmt.Sprintf(" (%s free of %s)", FormatBytes(e.Free), FormatBytes(e.Total))
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Is reports true for ErrOutOfMemory.
func (e *OutOfMemoryError) Is(target error) bool { return target == ErrOutOfMemory }

// Unwrap returns the underlying CUDA error.
func (e *OutOfMemoryError) Unwrap() error { return e.Err }

// invalidf returns an error matching ErrInvalid.
func invalidf(op, format string, a ...any) error {
	return &Error{Op: op, Detail: fmt.Sprintf(format, a...), Code: codeInvalid}
}

// freed returns an error matching ErrFreed for operation op on what.
func freed(op, what string) error { return fmt.Errorf("%w: %s on %s", ErrFreed, op, what) }

// FormatBytes formats a byte count with binary units (B, KiB, MiB, GiB, TiB).
func FormatBytes(n uint64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := uint64(unit), 0
	for m := n / unit; m >= unit && exp < 3; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGT"[exp])
}
