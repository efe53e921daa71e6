package cuda

import "unsafe"

// reduceScratchElems is MG_REDUCE_SCRATCH_BYTES in 8-byte words (the cuda
// build checks that they agree).
const reduceScratchElems = 1024

// SumUint32 returns the sum of all elements of in (mod 2^64), computed on
// in's device and queued on stream s (nil: the default stream); it waits for
// the result. It allocates a few KiB of temporary device memory.
func SumUint32(in *Buffer[uint32], s *Stream) (uint64, error) {
	return reduce[uint32, uint64](in, s, "SumUint32", backendReduceSumU32)
}

// SumFloat64 returns the sum of all elements of in, computed on in's device
// and queued on stream s (nil: the default stream); it waits for the result.
// The order of additions depends only on the length and the device, so the
// result is reproducible on one device (it may differ from a sequential
// host sum by rounding).
func SumFloat64(in *Buffer[float64], s *Stream) (float64, error) {
	return reduce[float64, float64](in, s, "SumFloat64", backendReduceSumF64)
}

// reduce runs a two-pass reduction launcher over in and returns the result.
func reduce[T, R any](in *Buffer[T], s *Stream, op string,
	launch func(dev int, in unsafe.Pointer, n uint64, out, scratch unsafe.Pointer, scratchBytes uint64, s unsafe.Pointer) error) (R, error) {
	var zero R
	p, err := in.hdl().acquire(op, "buffer")
	if err != nil {
		return zero, err
	}
	defer in.h.release()
	dev := Device{in.h.dev}
	sp, err := s.get(op, dev.ordinal)
	if err != nil {
		return zero, err
	}
	defer s.put()

	scratch, err := Alloc[uint64](dev, reduceScratchElems)
	if err != nil {
		return zero, err
	}
	defer scratch.Free()
	out, err := Alloc[R](dev, 1)
	if err != nil {
		return zero, err
	}
	defer out.Free()
	if err := launch(dev.ordinal, p, uint64(in.n), out.h.p, scratch.h.p, scratch.Bytes(), sp); err != nil {
		return zero, err
	}
	if s != nil {
		if err := backendStreamSync(dev.ordinal, sp); err != nil {
			return zero, err
		}
	}
	res := make([]R, 1)
	if err := out.CopyToHost(res); err != nil {
		return zero, err
	}
	return res[0], nil
}
