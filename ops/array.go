package ops

import (
	"errors"
	"fmt"
	"unsafe"
)

// Mem is a block of memory on a device.
type Mem interface {
	// Bytes is its size.
	Bytes() uint64
	// Ptr is its address: on the device for a GPU, in the Go heap for the
	// CPU (valid while the Mem is reachable).
	Ptr() unsafe.Pointer
	// Host is the block as host bytes: CPU devices only, nil on a GPU.
	Host() []byte
	// Upload copies src into the block's bytes [off, off+len(src));
	// Download copies the block's bytes [off, off+len(dst)) into dst.
	Upload(off uint64, src []byte) error
	Download(off uint64, dst []byte) error
	// Free releases the block; it is safe to call twice.
	Free() error
}

// Elem is an element type of Arrays.
type Elem interface {
	~uint8 | ~uint32 | ~int32 | ~uint64 | ~float32 | ~float64
}

// Array is n elements of T on a device.
type Array[T Elem] struct {
	d   Device
	mem Mem
	n   int
}

// NewArray allocates n elements of T on d (uninitialised).
func NewArray[T Elem](d Device, n int) (*Array[T], error) {
	if n < 0 {
		return nil, fmt.Errorf("ops: array of %d elements", n)
	}
	var zero T
	m, err := d.Alloc(uint64(n) * uint64(unsafe.Sizeof(zero)))
	if err != nil {
		return nil, err
	}
	return &Array[T]{d: d, mem: m, n: n}, nil
}

// NewFilled allocates n elements of T on d, each x.
func NewFilled[T Elem](d Device, n int, x T) (*Array[T], error) {
	a, err := NewArray[T](d, n)
	if err != nil {
		return nil, err
	}
	if err := a.Fill(x); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// Len is the number of elements.
func (a *Array[T]) Len() int { return a.n }

// Mem is the array's memory, to bind to a Functor.
func (a *Array[T]) Mem() Mem { return a.mem }

// Host returns the elements as a slice on a CPU device, nil on a GPU.
func (a *Array[T]) Host() []T {
	b := a.mem.Host()
	if b == nil || a.n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), a.n)
}

// Fill sets every element to x.
func (a *Array[T]) Fill(x T) error {
	var bits uint64
	switch size := unsafe.Sizeof(x); size {
	case 1:
		bits = uint64(*(*uint8)(unsafe.Pointer(&x)))
	case 4:
		bits = uint64(*(*uint32)(unsafe.Pointer(&x)))
	case 8:
		bits = *(*uint64)(unsafe.Pointer(&x))
	default:
		return fmt.Errorf("ops: fill of %d-byte elements", size)
	}
	return a.d.Fill(a.mem, int(unsafe.Sizeof(x)), bits, a.n)
}

// CopyIn copies src into the first len(src) elements.
func (a *Array[T]) CopyIn(src []T) error {
	if len(src) > a.n {
		return fmt.Errorf("ops: copy of %d elements into an array of %d", len(src), a.n)
	}
	return a.mem.Upload(0, Bytes(src))
}

// CopyInAt copies src into elements [at, at+len(src)).
func (a *Array[T]) CopyInAt(at int, src []T) error {
	if at < 0 || at+len(src) > a.n {
		return fmt.Errorf("ops: copy of %d elements at %d into an array of %d", len(src), at, a.n)
	}
	var zero T
	return a.mem.Upload(uint64(at)*uint64(unsafe.Sizeof(zero)), Bytes(src))
}

// CopyOut copies the first len(dst) elements into dst.
func (a *Array[T]) CopyOut(dst []T) error {
	if len(dst) > a.n {
		return fmt.Errorf("ops: copy of %d elements out of an array of %d", len(dst), a.n)
	}
	return a.mem.Download(0, Bytes(dst))
}

// Get returns the elements in a new slice.
func (a *Array[T]) Get() ([]T, error) {
	out := make([]T, a.n)
	return out, a.CopyOut(out)
}

// Original returns the elements, one per vertex of the device's layout
// in layout numbering, as a new slice in original numbering.
func (a *Array[T]) Original() ([]T, error) {
	out := make([]T, a.n)
	var zero T
	if err := a.d.Original(a.mem, int(unsafe.Sizeof(zero)), Bytes(out)); err != nil {
		return nil, err
	}
	return out, nil
}

// Result returns the elements, one per vertex of the device's layout in
// layout numbering, in original numbering in host memory the device
// provides (Device.Result): on a GPU its pinned result buffer, valid until
// the next result of T's size on the backend (copy it to keep it).
func (a *Array[T]) Result() ([]T, error) {
	var zero T
	b, err := a.d.Result(a.mem, int(unsafe.Sizeof(zero)))
	if err != nil {
		return nil, err
	}
	return view[T](b, a.n), nil
}

// Close frees the array (safe to call twice and on nil).
func (a *Array[T]) Close() error {
	if a == nil || a.mem == nil {
		return nil
	}
	err := a.mem.Free()
	a.mem = nil
	return err
}

// Bytes returns the bytes of s (no copy).
func Bytes[T Elem](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(zero)))
}

// checkSpan returns the error of a copy of count bytes at off in a block
// of size bytes that does not fit.
func checkSpan(what string, off uint64, count int, size uint64) error {
	if off > size || uint64(count) > size-off {
		return fmt.Errorf("ops: %s of %d bytes at %d in a block of %d", what, count, off, size)
	}
	return nil
}

// checkOriginal returns why n values of elemBytes in m cannot be mapped
// into dst (for devices).
func checkOriginal(m Mem, elemBytes int, dst []byte, n int) error {
	if elemBytes != 4 && elemBytes != 8 {
		return fmt.Errorf("ops: original: %d-byte values (want 4 or 8)", elemBytes)
	}
	if need := uint64(n) * uint64(elemBytes); m.Bytes() < need || uint64(len(dst)) != need {
		return fmt.Errorf("ops: original: %d vertices of %d bytes from %d bytes into %d", n, elemBytes, m.Bytes(), len(dst))
	}
	return nil
}

// CheckOriginal is checkOriginal for devices outside this package.
func CheckOriginal(m Mem, elemBytes int, dst []byte, n int) error {
	return checkOriginal(m, elemBytes, dst, n)
}

// closeAll closes what it is given, returning the first error.
func closeAll(cs ...interface{ Close() error }) error {
	var errs []error
	for _, c := range cs {
		if c != nil {
			errs = append(errs, c.Close())
		}
	}
	return errors.Join(errs...)
}
