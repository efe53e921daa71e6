//go:build cuda

package cuda

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// device returns device 0, or skips the test when no GPU is visible.
func device(t *testing.T) Device {
	t.Helper()
	d, err := GetDevice(0)
	if errors.Is(err, ErrNoDevice) {
		t.Skipf("no CUDA device visible: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestBuiltWithCUDA(t *testing.T) {
	if !BuiltWithCUDA() {
		t.Fatal("BuiltWithCUDA() = false in the cuda build")
	}
	drv, rt, err := Versions()
	if err != nil {
		t.Fatal(err)
	}
	if rt < 11000 {
		t.Errorf("runtime version %d", rt)
	}
	t.Logf("driver %s, runtime %s", FormatVersion(drv), FormatVersion(rt))
	if _, err := DeviceCount(); err != nil && !errors.Is(err, ErrNoDevice) {
		t.Errorf("DeviceCount: %v: want a count or ErrNoDevice", err)
	} else if err != nil {
		if Available() {
			t.Error("Available() with no device")
		}
		if !strings.Contains(err.Error(), "cudaGetDeviceCount") {
			t.Errorf("no-device error %q does not name the call", err)
		}
	}
}

func TestProps(t *testing.T) {
	d := device(t)
	if !Available() {
		t.Error("Available() = false with a device")
	}
	p, err := d.Props()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", p)
	switch {
	case p.Name == "":
		t.Error("empty name")
	case p.Major < 7:
		t.Errorf("compute capability %s", p.ComputeCapability())
	case p.Multiprocessors < 1 || p.Multiprocessors > 1024:
		t.Errorf("SM count %d", p.Multiprocessors)
	case p.TotalMemory < 1<<30 || p.FreeMemory > p.TotalMemory || p.FreeMemory == 0:
		t.Errorf("memory %d free of %d", p.FreeMemory, p.TotalMemory)
	case p.SharedPerBlock != 48<<10:
		t.Errorf("shared per block %d, want 48 KiB", p.SharedPerBlock)
	case p.SharedPerBlockOptin < p.SharedPerBlock || p.SharedPerSM < p.SharedPerBlockOptin:
		t.Errorf("shared memory: block %d, opt-in %d, SM %d", p.SharedPerBlock, p.SharedPerBlockOptin, p.SharedPerSM)
	case p.L2Bytes < 1<<20:
		t.Errorf("L2 %d", p.L2Bytes)
	case p.WarpSize != 32 || p.MaxThreadsPerBlock != 1024:
		t.Errorf("warp %d, threads per block %d", p.WarpSize, p.MaxThreadsPerBlock)
	case p.ClockKHz < 100_000 || p.MemoryClockKHz < 100_000 || p.MemoryBusWidth < 64:
		t.Errorf("clocks %d/%d kHz, bus %d bits", p.ClockKHz, p.MemoryClockKHz, p.MemoryBusWidth)
	case p.DriverVersion < p.RuntimeVersion:
		t.Errorf("driver %d older than runtime %d", p.DriverVersion, p.RuntimeVersion)
	}
	free, total, err := d.MemInfo()
	if err != nil || total != p.TotalMemory || free == 0 {
		t.Errorf("MemInfo = %d, %d, %v", free, total, err)
	}
	if _, err := GetDevice(1 << 20); !errors.Is(err, ErrInvalid) {
		t.Errorf("GetDevice(huge): %v, want ErrInvalid", err)
	}
}

func TestRoundTrip(t *testing.T) {
	d := device(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 4096, 1<<20 + 3} {
		host := make([]uint64, n)
		for i := range host {
			host[i] = rng.Uint64()
		}
		b, err := Alloc[uint64](d, n)
		if err != nil {
			t.Fatal(err)
		}
		if b.Len() != n || b.Bytes() != uint64(8*n) {
			t.Errorf("Len %d Bytes %d for n=%d", b.Len(), b.Bytes(), n)
		}
		if err := b.CopyFromHost(host); err != nil {
			t.Fatal(err)
		}
		c, err := Alloc[uint64](d, n)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.CopyFrom(b); err != nil {
			t.Fatal(err)
		}
		back := make([]uint64, n)
		for i := range back {
			back[i] = ^host[i] // poison
		}
		if err := c.CopyToHost(back); err != nil {
			t.Fatal(err)
		}
		for i := range host {
			if back[i] != host[i] {
				t.Fatalf("n=%d: element %d: got %#x, want %#x", n, i, back[i], host[i])
			}
		}
		if n > 10 {
			// Partial copies at an offset.
			part := []uint64{1, 2, 3}
			if err := c.CopyFromHostAt(n-3, part); err != nil {
				t.Fatal(err)
			}
			got := make([]uint64, 4)
			if err := c.CopyToHostAt(n-4, got); err != nil {
				t.Fatal(err)
			}
			if got[0] != host[n-4] || got[1] != 1 || got[3] != 3 {
				t.Errorf("offset copy: got %v", got)
			}
			if err := c.CopyFromHostAt(n-2, part); !errors.Is(err, ErrInvalid) {
				t.Errorf("copy past the end: %v, want ErrInvalid", err)
			}
		}
		if err := c.CopyToHost(make([]uint64, n+1)); !errors.Is(err, ErrInvalid) {
			t.Errorf("CopyToHost of n+1: %v, want ErrInvalid", err)
		}
		if err := b.Free(); err != nil {
			t.Fatal(err)
		}
		if err := c.Free(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMemset(t *testing.T) {
	d := device(t)
	b, err := Alloc[uint32](d, 1000)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	for _, v := range []byte{0xA5, 0, 0xFF} {
		if err := b.Memset(v); err != nil {
			t.Fatal(err)
		}
		got := make([]uint32, 1000)
		if err := b.CopyToHost(got); err != nil {
			t.Fatal(err)
		}
		want := uint32(v) * 0x01010101
		for i, g := range got {
			if g != want {
				t.Fatalf("Memset(%#x): element %d = %#x", v, i, g)
			}
		}
	}
}

func TestOutOfMemory(t *testing.T) {
	d := device(t)
	const huge = 1 << 50 // 1 PiB
	_, err := Alloc[byte](d, huge)
	if !errors.Is(err, ErrOutOfMemory) {
		t.Fatalf("Alloc of 1 PiB: %v, want ErrOutOfMemory", err)
	}
	var oom *OutOfMemoryError
	if !errors.As(err, &oom) || oom.Requested != huge {
		t.Fatalf("error %v is not an *OutOfMemoryError of %d bytes", err, uint64(huge))
	}
	msg := err.Error()
	for _, want := range []string{"1024.0 TiB", "1125899906842624 bytes", "cudaMalloc", "cudaErrorMemoryAllocation"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	t.Log(msg)
	// The failure must not poison later work.
	b, err := Alloc[uint32](d, 16)
	if err != nil {
		t.Fatalf("allocation after OOM: %v", err)
	}
	if err := b.Memset(1); err != nil {
		t.Fatal(err)
	}
	if _, err := SumUint32(b, nil); err != nil {
		t.Fatalf("kernel after OOM: %v", err)
	}
	b.Free()
}

func TestUseAfterFree(t *testing.T) {
	d := device(t)
	b, err := Alloc[float32](d, 64)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Free(); err != nil {
		t.Fatal(err)
	}
	if err := b.Free(); !errors.Is(err, ErrFreed) {
		t.Errorf("double Free: %v, want ErrFreed", err)
	}
	if err := b.CopyFromHost(make([]float32, 64)); !errors.Is(err, ErrFreed) {
		t.Errorf("CopyFromHost after Free: %v, want ErrFreed", err)
	}
	if err := b.CopyToHost(make([]float32, 64)); !errors.Is(err, ErrFreed) {
		t.Errorf("CopyToHost after Free: %v, want ErrFreed", err)
	}
	if err := b.Memset(0); !errors.Is(err, ErrFreed) {
		t.Errorf("Memset after Free: %v, want ErrFreed", err)
	}
	if b.Len() != 0 {
		t.Errorf("Len after Free = %d", b.Len())
	}
	s, err := d.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Destroy(); err != nil {
		t.Fatal(err)
	}
	if err := s.Destroy(); !errors.Is(err, ErrFreed) {
		t.Errorf("double Stream.Destroy: %v, want ErrFreed", err)
	}
	if err := s.Synchronize(); !errors.Is(err, ErrFreed) {
		t.Errorf("Synchronize after Destroy: %v, want ErrFreed", err)
	}
	e, err := d.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Destroy(); err != nil {
		t.Fatal(err)
	}
	if err := e.Record(nil); !errors.Is(err, ErrFreed) {
		t.Errorf("Record after Destroy: %v, want ErrFreed", err)
	}
	c, err := Alloc[float32](d, 64)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Free()
	if err := c.MemsetAsync(0, s); !errors.Is(err, ErrFreed) {
		t.Errorf("MemsetAsync on a destroyed stream: %v, want ErrFreed", err)
	}
}

func TestConcurrentFree(t *testing.T) {
	d := device(t)
	b, err := Alloc[uint32](d, 1<<16)
	if err != nil {
		t.Fatal(err)
	}
	host := make([]uint32, 1<<16)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if err := b.CopyFromHost(host); err != nil && !errors.Is(err, ErrFreed) {
					t.Error(err)
				}
			}
		}()
	}
	time.Sleep(time.Millisecond)
	if err := b.Free(); err != nil {
		t.Error(err)
	}
	wg.Wait()
}

func TestEvents(t *testing.T) {
	d := device(t)
	s, err := d.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Destroy()
	start, _ := d.NewEvent()
	end, err := d.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	defer start.Destroy()
	defer end.Destroy()
	b, err := Alloc[byte](d, 256<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	if err := start.Record(s); err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if err := b.MemsetAsync(byte(i), s); err != nil {
			t.Fatal(err)
		}
	}
	if err := end.Record(s); err != nil {
		t.Fatal(err)
	}
	if err := end.Synchronize(); err != nil {
		t.Fatal(err)
	}
	el, err := Elapsed(start, end)
	if err != nil {
		t.Fatal(err)
	}
	if el <= 0 || el > 10*time.Second {
		t.Errorf("1 GiB of memset took %v", el)
	}
	t.Logf("4 × 256 MiB memset: %v (%.0f GB/s)", el, 1<<30/el.Seconds()/1e9)
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
}

func TestSumUint32(t *testing.T) {
	d := device(t)
	s, err := d.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Destroy()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 31, 255, 256, 257, 1000, 65537, 1 << 20, 3<<20 + 11} {
		host := make([]uint32, n)
		var want uint64
		for i := range host {
			host[i] = rng.Uint32()
			want += uint64(host[i])
		}
		b, err := Alloc[uint32](d, n)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.CopyFromHost(host); err != nil {
			t.Fatal(err)
		}
		for _, st := range []*Stream{nil, s} {
			got, err := SumUint32(b, st)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("n=%d: SumUint32 = %d, want %d", n, got, want)
			}
		}
		b.Free()
	}
}

func TestSumFloat64(t *testing.T) {
	d := device(t)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 3, 256, 257, 4099, 1 << 20, 1<<21 + 5} {
		host := make([]float64, n)
		var want, abs float64
		for i := range host {
			host[i] = rng.NormFloat64() * 1e3
			want += host[i]
			abs += math.Abs(host[i])
		}
		b, err := Alloc[float64](d, n)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.CopyFromHost(host); err != nil {
			t.Fatal(err)
		}
		got, err := SumFloat64(b, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Reordering n additions changes the sum by at most ~n·eps·Σ|x|.
		if tol := float64(n+1) * 1e-16 * abs; math.Abs(got-want) > tol {
			t.Errorf("n=%d: SumFloat64 = %.17g, want %.17g (tolerance %.3g)", n, got, want, tol)
		}
		again, err := SumFloat64(b, nil)
		if err != nil || again != got {
			t.Errorf("n=%d: second sum %.17g (%v) differs from %.17g: not reproducible", n, again, err, got)
		}
		b.Free()
	}
}

func TestProbe(t *testing.T) {
	d := device(t)
	res, err := Probe(d, ProbeOptions{Bytes: 256 << 20, Runs: 5})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", res)
	// An odd size: not a multiple of 16 bytes nor of the grid.
	if _, err := Probe(d, ProbeOptions{Bytes: 16*12345 + 7, Runs: 1}); err != nil {
		t.Errorf("small probe: %v", err)
	}
	if underCUDATool() {
		t.Log("running under a CUDA tool (compute-sanitizer, ncu): bandwidth not checked")
		return
	}
	// Plausible for any data-centre GPU: above 100 GB/s, below 1.2 × peak
	// (reads through L2 cannot beat DRAM by more than that with 256 MiB).
	for _, c := range []struct {
		what string
		v    float64
	}{{"read", res.ReadGBps}, {"copy", res.CopyGBps}} {
		if c.v < 100 || (res.PeakGBps > 0 && c.v > 1.2*res.PeakGBps) {
			t.Errorf("%s %.1f GB/s implausible (peak %.0f)", c.what, c.v, res.PeakGBps)
		}
	}
	if res.ReadMedianGBps > res.ReadGBps || res.CopyMedianGBps > res.CopyGBps {
		t.Error("median faster than best")
	}
}

// underCUDATool reports whether a CUDA tool that slows kernels down is
// attached, so that timings mean nothing: compute-sanitizer (it sets
// NV_SANITIZER_INJECTION_PORT_BASE, seen with CUDA 13.0) or Nsight Compute
// (CUDA_INJECTION64_PATH); MGRAPH_NO_TIMING_CHECKS=1 says so by hand.
func underCUDATool() bool {
	for _, v := range []string{"NV_SANITIZER_INJECTION_PORT_BASE", "CUDA_INJECTION64_PATH", "MGRAPH_NO_TIMING_CHECKS"} {
		if os.Getenv(v) != "" {
			return true
		}
	}
	return false
}
