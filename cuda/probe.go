package cuda

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
	"unsafe"
)

// Probe defaults.
const (
	// DefaultProbeBytes is the size of each probe buffer: far beyond any L2
	// cache, so the probe measures device memory.
	DefaultProbeBytes = 1 << 30
	// DefaultProbeRuns is the number of timed runs of each kernel.
	DefaultProbeRuns = 20
	// probeWarmups untimed runs of each kernel come first.
	probeWarmups = 2
	// probeChunkWords is the size of the random host block (in uint32 words)
	// that is copied repeatedly to fill the source buffer.
	probeChunkWords = 16 << 20
)

// ProbeOptions sets the size and repetitions of Probe.
type ProbeOptions struct {
	// Bytes is the size of each of the two buffers (default DefaultProbeBytes);
	// it is rounded down to a multiple of 16 and must be at least 16.
	Bytes uint64
	// Runs is the number of timed runs of each kernel (default DefaultProbeRuns).
	Runs int
}

// ProbeResult is what Probe measured. GB/s are 10^9 bytes per second.
type ProbeResult struct {
	Device int    `json:"device"`
	Name   string `json:"name"`
	// Bytes is the size of each buffer; Runs the timed runs of each kernel.
	Bytes uint64 `json:"bytes"`
	Runs  int    `json:"runs"`
	// ReadGBps: bytes read per second by the streaming read kernel, best run.
	ReadGBps       float64 `json:"read_gbps"`
	ReadMedianGBps float64 `json:"read_median_gbps"`
	// CopyGBps: bytes read plus bytes written (2×Bytes) per second by the
	// streaming copy kernel, best run.
	CopyGBps       float64 `json:"copy_gbps"`
	CopyMedianGBps float64 `json:"copy_median_gbps"`
	// ReadBest and CopyBest are the fastest runs' device times.
	ReadBest time.Duration `json:"read_best_ns"`
	CopyBest time.Duration `json:"copy_best_ns"`
	// PeakGBps is the device's theoretical bandwidth (DeviceProps.PeakBandwidthGBps).
	PeakGBps float64 `json:"peak_gbps"`
}

// Probe measures device d's memory bandwidth with two kernels using 16-byte
// accesses: a streaming read (every byte of a buffer read once and summed)
// and a streaming copy (one buffer into another). Each is timed with events
// Runs times after warm-up; the best and median runs are reported. The
// source holds random data, and both kernels' results are checked (the read
// sum against the host's, the copy through the read sum of its output), so
// a kernel that skipped work is an error, not a fast figure.
func Probe(d Device, opt ProbeOptions) (ProbeResult, error) {
	if opt.Bytes == 0 {
		opt.Bytes = DefaultProbeBytes
	}
	opt.Bytes &^= 15
	if opt.Bytes < 16 {
		return ProbeResult{}, invalidf("Probe", "buffer size must be at least 16 bytes")
	}
	if opt.Runs <= 0 {
		opt.Runs = DefaultProbeRuns
	}
	props, err := d.Props()
	if err != nil {
		return ProbeResult{}, err
	}
	res := ProbeResult{Device: d.ordinal, Name: props.Name, Bytes: opt.Bytes, Runs: opt.Runs,
		PeakGBps: props.PeakBandwidthGBps()}

	words := int(opt.Bytes / 4)
	src, err := Alloc[uint32](d, words)
	if err != nil {
		return res, err
	}
	defer src.Free()
	dst, err := Alloc[uint32](d, words)
	if err != nil {
		return res, err
	}
	defer dst.Free()
	sum, err := Alloc[uint32](d, 1)
	if err != nil {
		return res, err
	}
	defer sum.Free()

	// Fill src with random words (a random block repeated) and dst with
	// zeros; want is the wrapping sum of src's words.
	chunk := make([]uint32, min(words, probeChunkWords))
	rng := rand.New(rand.NewPCG(uint64(words), 0x6d677261))
	var chunkSum uint32
	for i := range chunk {
		chunk[i] = rng.Uint32()
		chunkSum += chunk[i]
	}
	var want uint32
	for off := 0; off < words; off += len(chunk) {
		n := min(len(chunk), words-off)
		if err := src.CopyFromHostAt(off, chunk[:n]); err != nil {
			return res, err
		}
		if n == len(chunk) {
			want += chunkSum
		} else {
			for _, w := range chunk[:n] {
				want += w
			}
		}
	}
	if err := dst.Memset(0); err != nil {
		return res, err
	}

	s, err := d.NewStream()
	if err != nil {
		return res, err
	}
	defer s.Destroy()
	start, err := d.NewEvent()
	if err != nil {
		return res, err
	}
	defer start.Destroy()
	end, err := d.NewEvent()
	if err != nil {
		return res, err
	}
	defer end.Destroy()

	// timeRuns runs f warm-up and timed runs, each between two events.
	timeRuns := func(f func() error, check func() error) ([]time.Duration, error) {
		ts := make([]time.Duration, 0, opt.Runs)
		for i := range probeWarmups + opt.Runs {
			if err := start.Record(s); err != nil {
				return nil, err
			}
			if err := f(); err != nil {
				return nil, err
			}
			if err := end.Record(s); err != nil {
				return nil, err
			}
			if err := end.Synchronize(); err != nil {
				return nil, err
			}
			t, err := Elapsed(start, end)
			if err != nil {
				return nil, err
			}
			if check != nil {
				if err := check(); err != nil {
					return nil, err
				}
			}
			if i >= probeWarmups {
				ts = append(ts, t)
			}
		}
		return ts, nil
	}

	// readSum runs the read kernel over b into sum (zeroed first, before the
	// start event) and returns the kernel launch's error.
	host := make([]uint32, 1)
	readOnce := func(b *Buffer[uint32]) error {
		return probeRead(b, sum, s)
	}
	checkSum := func(what string) func() error {
		return func() error {
			if err := sum.CopyToHost(host); err != nil {
				return err
			}
			if host[0] != want {
				return &Error{Op: "Probe", Code: codeCUDA,
					Detail: fmt.Sprintf("%s: device sum %#x, host sum %#x: the kernel did not read every byte", what, host[0], want)}
			}
			return sum.MemsetAsync(0, s)
		}
	}
	if err := sum.MemsetAsync(0, s); err != nil {
		return res, err
	}
	readTimes, err := timeRuns(func() error { return readOnce(src) }, checkSum("read probe"))
	if err != nil {
		return res, err
	}
	copyTimes, err := timeRuns(func() error { return probeCopy(dst, src, s) }, nil)
	if err != nil {
		return res, err
	}
	if err := readOnce(dst); err != nil {
		return res, err
	}
	if err := s.Synchronize(); err != nil {
		return res, err
	}
	if err := checkSum("copy probe")(); err != nil {
		return res, err
	}

	gbps := func(bytes uint64, t time.Duration) float64 { return float64(bytes) / t.Seconds() / 1e9 }
	slices.Sort(readTimes)
	slices.Sort(copyTimes)
	res.ReadBest, res.CopyBest = readTimes[0], copyTimes[0]
	res.ReadGBps = gbps(opt.Bytes, readTimes[0])
	res.ReadMedianGBps = gbps(opt.Bytes, median(readTimes))
	res.CopyGBps = gbps(2*opt.Bytes, copyTimes[0])
	res.CopyMedianGBps = gbps(2*opt.Bytes, median(copyTimes))
	return res, nil
}

func median(sorted []time.Duration) time.Duration {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// probeCopy queues the probe's copy kernel: dst's first src.Bytes() bytes =
// src (both multiples of 16 bytes).
func probeCopy(dst, src *Buffer[uint32], s *Stream) error {
	return withTwo(dst, src, s, "probe copy", func(dev int, dp, sp, st unsafe.Pointer) error {
		if dst.n < src.n {
			return invalidf("probe copy", "destination shorter than source")
		}
		return backendProbeCopy(dev, dp, sp, uint64(src.n)*4, st)
	})
}

// probeRead queues the probe's read kernel: sum[0] += the wrapping sum of
// src's words.
func probeRead(src, sum *Buffer[uint32], s *Stream) error {
	return withTwo(src, sum, s, "probe read", func(dev int, sp, sump, st unsafe.Pointer) error {
		if sum.n < 1 {
			return invalidf("probe read", "empty sum buffer")
		}
		return backendProbeRead(dev, sp, uint64(src.n)*4, sump, st)
	})
}

// withTwo acquires two distinct buffers of one device and a stream, and runs f.
func withTwo[T any](a, b *Buffer[T], s *Stream, op string, f func(dev int, ap, bp, sp unsafe.Pointer) error) error {
	if a == b {
		return invalidf(op, "the same buffer twice")
	}
	ap, err := a.hdl().acquire(op, "buffer")
	if err != nil {
		return err
	}
	defer a.h.release()
	bp, err := b.hdl().acquire(op, "buffer")
	if err != nil {
		return err
	}
	defer b.h.release()
	if a.h.dev != b.h.dev {
		return invalidf(op, "buffers on devices %d and %d", a.h.dev, b.h.dev)
	}
	sp, err := s.get(op, a.h.dev)
	if err != nil {
		return err
	}
	defer s.put()
	return f(a.h.dev, ap, bp, sp)
}
