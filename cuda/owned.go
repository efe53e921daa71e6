package cuda

import "fmt"

// owned holds what a device-side object allocated (buffers, events) so it
// can all be released together, in allocation order, reporting the first
// error. DeviceLayout, MinRun and PRRun embed one.
type owned struct {
	frees []func() error
}

// allocOwned allocates a buffer of n elements on dev, released with o.
func allocOwned[T any](o *owned, dev Device, n int) (*Buffer[T], error) {
	b, err := Alloc[T](dev, n)
	if err != nil {
		return nil, err
	}
	o.frees = append(o.frees, b.Free)
	return b, nil
}

// allocNamed is allocOwned naming the buffer, with its size, in the error
// (a part's buffers: which one did not fit).
func allocNamed[T any](o *owned, dev Device, name string, n int) (*Buffer[T], error) {
	b, err := allocOwned[T](o, dev, n)
	if err != nil {
		size, _ := elemSize[T]("allocNamed")
		return nil, fmt.Errorf("%s (%s): %w", name, FormatBytes(uint64(n)*size), err)
	}
	return b, nil
}

// uploadNamed is allocNamed of len(src) elements filled with src.
func uploadNamed[T any](o *owned, dev Device, name string, src []T) (*Buffer[T], error) {
	b, err := allocNamed[T](o, dev, name, len(src))
	if err == nil && len(src) > 0 {
		err = b.CopyFromHost(src)
	}
	return b, err
}

// idsUpload is a table of 32-bit ids for uploadIds: src goes to a new
// buffer in *dst, named name in errors.
type idsUpload struct {
	name string
	dst  **Buffer[uint32]
	src  []uint32
}

// uploadIds uploads every table of us into buffers o owns on dev, stopping
// at the first error.
func (o *owned) uploadIds(dev Device, us ...idsUpload) error {
	for _, u := range us {
		b, err := uploadNamed(o, dev, u.name, u.src)
		if err != nil {
			return err
		}
		*u.dst = b
	}
	return nil
}

// newEvents creates one event on dev for every entry of evs (as uintptr
// handles, see evp), each destroyed with o.
func (o *owned) newEvents(dev Device, evs []uintptr) error {
	for i := range evs {
		ev, err := backendEventCreate(dev.ordinal)
		if err != nil {
			return err
		}
		h := uintptr(ev)
		evs[i] = h
		o.frees = append(o.frees, func() error { return backendEventDestroy(dev.ordinal, evp(h)) })
	}
	return nil
}

// release frees everything o holds. Releasing twice is harmless.
func (o *owned) release() error {
	var first error
	for _, f := range o.frees {
		if err := f(); err != nil && first == nil {
			first = err
		}
	}
	o.frees = nil
	return first
}
