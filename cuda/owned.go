package cuda

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
