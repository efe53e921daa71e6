package cuda

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sync"
	"time"
	"unsafe"
)

// handle is the state shared by Buffer, Stream and Event: a device-side
// pointer or handle, its device, and whether it is live. Operations hold the
// read lock while they use the handle, Free/Destroy the write lock, so a
// handle is never used after it is released, even by racing goroutines.
type handle struct {
	mu   sync.RWMutex
	p    unsafe.Pointer
	dev  int
	live bool
}

// acquire read-locks h and returns its pointer, or ErrFreed (unlocked).
func (h *handle) acquire(op, what string) (unsafe.Pointer, error) {
	if h == nil {
		return nil, freed(op, "nil "+what)
	}
	h.mu.RLock()
	if !h.live {
		h.mu.RUnlock()
		return nil, freed(op, what)
	}
	return h.p, nil
}

func (h *handle) release() { h.mu.RUnlock() }

// kill marks h released and returns its pointer, or ErrFreed if it already
// was (or never was live).
func (h *handle) kill(op, what string) (unsafe.Pointer, int, error) {
	if h == nil {
		return nil, 0, freed(op, "nil "+what)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.live {
		return nil, 0, freed(op, what)
	}
	h.live = false
	p := h.p
	h.p = nil
	return p, h.dev, nil
}

// Buffer is a typed array in device memory, allocated with Alloc. T must be
// plain data (numbers, arrays and structs of them): no pointers, slices,
// strings, maps, channels, functions or interfaces.
//
// A Buffer may be used by several goroutines at once; Free waits for
// operations in progress and makes later ones fail with ErrFreed. The zero
// Buffer is "never allocated": every operation on it returns ErrFreed.
type Buffer[T any] struct {
	h handle
	n int
}

// Alloc allocates a buffer of n elements of T on device d (uninitialized
// memory). n may be 0. A failure for lack of memory is an *OutOfMemoryError
// (errors.Is(err, ErrOutOfMemory)).
func Alloc[T any](d Device, n int) (*Buffer[T], error) {
	size, err := elemSize[T]("Alloc")
	if err != nil {
		return nil, err
	}
	if n < 0 || uint64(n) > math.MaxInt64/size {
		return nil, invalidf("Alloc", "bad element count %d", n)
	}
	bytes := uint64(n) * size
	p, err := backendMalloc(d.ordinal, bytes)
	if err != nil {
		if errors.Is(err, ErrOutOfMemory) {
			oom := &OutOfMemoryError{Device: d.ordinal, Requested: bytes, Err: err}
			oom.Free, oom.Total, _ = backendMemInfo(d.ordinal)
			return nil, oom
		}
		return nil, err
	}
	b := &Buffer[T]{n: n}
	b.h.p, b.h.dev, b.h.live = p, d.ordinal, true
	return b, nil
}

// minGrowth is the smallest scratch buffer growBuffer allocates, so that
// small requests do not reallocate one after another.
const minGrowth = 64 << 10

// growBuffer makes *b, a scratch buffer on d whose contents need not
// survive, hold at least n bytes: kept when it does, else freed and
// allocated again (at least minGrowth bytes).
func growBuffer(d Device, b **Buffer[byte], n uint64) error {
	if *b != nil && (*b).Bytes() >= n {
		return nil
	}
	if *b != nil {
		if err := (*b).Free(); err != nil {
			return err
		}
		*b = nil
	}
	nb, err := Alloc[byte](d, int(max(n, minGrowth)))
	if err != nil {
		return err
	}
	*b = nb
	return nil
}

// elemSize returns the size of T, checking that T is plain data.
func elemSize[T any](op string) (uint64, error) {
	t := reflect.TypeFor[T]()
	if !plainData(t) {
		return 0, invalidf(op, "element type %v is not plain data (no pointers, slices, strings, maps, ...)", t)
	}
	return uint64(t.Size()), nil
}

func plainData(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Array:
		return plainData(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !plainData(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// Len returns the number of elements (0 after Free).
func (b *Buffer[T]) Len() int {
	if b == nil {
		return 0
	}
	b.h.mu.RLock()
	defer b.h.mu.RUnlock()
	if !b.h.live {
		return 0
	}
	return b.n
}

// Bytes returns the buffer's size in bytes (0 after Free).
func (b *Buffer[T]) Bytes() uint64 {
	var zero T
	return uint64(b.Len()) * uint64(unsafe.Sizeof(zero))
}

// Device returns the device the buffer lives on.
func (b *Buffer[T]) Device() Device { return Device{b.h.dev} }

// Free releases the device memory. Freeing twice, or a buffer never
// allocated, returns ErrFreed.
func (b *Buffer[T]) Free() error {
	p, dev, err := b.hdl().kill("Free", "buffer")
	if err != nil {
		return err
	}
	return backendFree(dev, p)
}

func (b *Buffer[T]) hdl() *handle {
	if b == nil {
		return nil
	}
	return &b.h
}

// span checks that [off, off+count) lies inside the buffer and returns the
// byte offset and length.
func (b *Buffer[T]) span(op string, off, count int) (uint64, uint64, error) {
	if off < 0 || count < 0 || off > b.n || count > b.n-off {
		return 0, 0, invalidf(op, "elements [%d, %d+%d) outside buffer of %d", off, off, count, b.n)
	}
	var zero T
	size := uint64(unsafe.Sizeof(zero))
	return uint64(off) * size, uint64(count) * size, nil
}

// CopyFromHost copies src into the buffer's first len(src) elements
// (synchronously). len(src) must not exceed Len.
func (b *Buffer[T]) CopyFromHost(src []T) error { return b.CopyFromHostAt(0, src) }

// CopyFromHostAt copies src into elements [off, off+len(src)) (synchronously).
func (b *Buffer[T]) CopyFromHostAt(off int, src []T) error {
	p, err := b.hdl().acquire("CopyFromHost", "buffer")
	if err != nil {
		return err
	}
	defer b.h.release()
	boff, n, err := b.span("CopyFromHost", off, len(src))
	if err != nil || n == 0 {
		return err
	}
	return backendCopyHtoD(b.h.dev, unsafe.Add(p, boff), unsafe.Pointer(&src[0]), n)
}

// CopyToHost copies the buffer's first len(dst) elements into dst
// (synchronously, after all work queued on the default stream). len(dst)
// must not exceed Len.
func (b *Buffer[T]) CopyToHost(dst []T) error { return b.CopyToHostAt(0, dst) }

// CopyToHostAt copies elements [off, off+len(dst)) into dst (synchronously).
func (b *Buffer[T]) CopyToHostAt(off int, dst []T) error {
	p, err := b.hdl().acquire("CopyToHost", "buffer")
	if err != nil {
		return err
	}
	defer b.h.release()
	boff, n, err := b.span("CopyToHost", off, len(dst))
	if err != nil || n == 0 {
		return err
	}
	return backendCopyDtoH(b.h.dev, unsafe.Pointer(&dst[0]), unsafe.Add(p, boff), n)
}

// CopyFrom copies all of src, a buffer on the same device no longer than b,
// into b's first src.Len() elements (device to device, synchronously).
func (b *Buffer[T]) CopyFrom(src *Buffer[T]) error {
	if b == src {
		return nil
	}
	dp, err := b.hdl().acquire("CopyFrom", "destination buffer")
	if err != nil {
		return err
	}
	defer b.h.release()
	sp, err := src.hdl().acquire("CopyFrom", "source buffer")
	if err != nil {
		return err
	}
	defer src.h.release()
	if src.h.dev != b.h.dev {
		return invalidf("CopyFrom", "buffers on devices %d and %d", src.h.dev, b.h.dev)
	}
	_, n, err := b.span("CopyFrom", 0, src.n)
	if err != nil || n == 0 {
		return err
	}
	return backendCopyDtoD(b.h.dev, dp, sp, n)
}

// Memset sets every byte of the buffer to value. It is queued on the
// default stream, so later copies and default-stream work see it.
func (b *Buffer[T]) Memset(value byte) error { return b.MemsetAsync(value, nil) }

// MemsetAsync sets every byte of the buffer to value, queued on stream s
// (nil: the default stream).
func (b *Buffer[T]) MemsetAsync(value byte, s *Stream) error {
	p, err := b.hdl().acquire("Memset", "buffer")
	if err != nil {
		return err
	}
	defer b.h.release()
	sp, err := s.get("Memset", b.h.dev)
	if err != nil {
		return err
	}
	defer s.put()
	_, n, _ := b.span("Memset", 0, b.n)
	return backendMemset(b.h.dev, p, value, n, sp)
}

// Stream is a CUDA stream: work queued on one stream runs in order. A nil
// *Stream stands for the device's legacy default stream wherever a stream is
// taken.
type Stream struct{ h handle }

// NewStream creates a stream on device d.
func (d Device) NewStream() (*Stream, error) {
	p, err := backendStreamCreate(d.ordinal)
	if err != nil {
		return nil, err
	}
	s := &Stream{}
	s.h.p, s.h.dev, s.h.live = p, d.ordinal, true
	return s, nil
}

// get read-locks s for an operation on device dev and returns its handle
// (nil for the default stream); put releases it.
func (s *Stream) get(op string, dev int) (unsafe.Pointer, error) {
	if s == nil {
		return nil, nil
	}
	p, err := s.h.acquire(op, "stream")
	if err != nil {
		return nil, err
	}
	if s.h.dev != dev {
		s.h.release()
		return nil, invalidf(op, "stream of device %d used with device %d", s.h.dev, dev)
	}
	return p, nil
}

func (s *Stream) put() {
	if s != nil {
		s.h.release()
	}
}

// Synchronize waits until all work queued on the stream has finished and
// returns the first error of any of it.
func (s *Stream) Synchronize() error {
	if s == nil {
		return invalidf("Stream.Synchronize", "nil stream: use Device.Synchronize for the default stream")
	}
	p, err := s.h.acquire("Stream.Synchronize", "stream")
	if err != nil {
		return err
	}
	defer s.h.release()
	return backendStreamSync(s.h.dev, p)
}

// Destroy releases the stream (work already queued still completes).
// Destroying twice returns ErrFreed.
func (s *Stream) Destroy() error {
	var h *handle
	if s != nil {
		h = &s.h
	}
	p, dev, err := h.kill("Stream.Destroy", "stream")
	if err != nil {
		return err
	}
	return backendStreamDestroy(dev, p)
}

// Event marks a point in a stream; the time between two completed events
// measures the device work between them.
type Event struct{ h handle }

// NewEvent creates an event on device d.
func (d Device) NewEvent() (*Event, error) {
	p, err := backendEventCreate(d.ordinal)
	if err != nil {
		return nil, err
	}
	e := &Event{}
	e.h.p, e.h.dev, e.h.live = p, d.ordinal, true
	return e, nil
}

func (e *Event) hdl() *handle {
	if e == nil {
		return nil
	}
	return &e.h
}

// Record queues the event on stream s (nil: the default stream).
func (e *Event) Record(s *Stream) error {
	p, err := e.hdl().acquire("Event.Record", "event")
	if err != nil {
		return err
	}
	defer e.h.release()
	sp, err := s.get("Event.Record", e.h.dev)
	if err != nil {
		return err
	}
	defer s.put()
	return backendEventRecord(e.h.dev, p, sp)
}

// Synchronize waits until the work before the event's last Record is done.
func (e *Event) Synchronize() error {
	p, err := e.hdl().acquire("Event.Synchronize", "event")
	if err != nil {
		return err
	}
	defer e.h.release()
	return backendEventSync(e.h.dev, p)
}

// Destroy releases the event. Destroying twice returns ErrFreed.
func (e *Event) Destroy() error {
	p, dev, err := e.hdl().kill("Event.Destroy", "event")
	if err != nil {
		return err
	}
	return backendEventDestroy(dev, p)
}

// Elapsed returns the device time from start to end, two events of one
// device that have been recorded and have completed (resolution about half
// a microsecond).
func Elapsed(start, end *Event) (time.Duration, error) {
	sp, err := start.hdl().acquire("Elapsed", "start event")
	if err != nil {
		return 0, err
	}
	defer start.h.release()
	if start == end {
		return 0, nil
	}
	ep, err := end.hdl().acquire("Elapsed", "end event")
	if err != nil {
		return 0, err
	}
	defer end.h.release()
	if start.h.dev != end.h.dev {
		return 0, invalidf("Elapsed", "events of devices %d and %d", start.h.dev, end.h.dev)
	}
	ms, err := backendEventElapsed(start.h.dev, sp, ep)
	if err != nil {
		return 0, err
	}
	return time.Duration(float64(ms) * float64(time.Millisecond)), nil
}

// String describes the buffer, e.g. "Buffer[uint32](1024 on cuda:0)".
func (b *Buffer[T]) String() string {
	return fmt.Sprintf("Buffer[%v](%d on cuda:%d)", reflect.TypeFor[T](), b.Len(), b.h.dev)
}
