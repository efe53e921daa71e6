package cuda

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// These tests need no GPU and run in both builds.

func TestZeroValuesAreNotAllocated(t *testing.T) {
	var b Buffer[uint32]
	if err := b.CopyFromHost([]uint32{1}); !errors.Is(err, ErrFreed) {
		t.Errorf("CopyFromHost on zero Buffer: %v, want ErrFreed", err)
	}
	if err := b.CopyToHost(make([]uint32, 1)); !errors.Is(err, ErrFreed) {
		t.Errorf("CopyToHost on zero Buffer: %v, want ErrFreed", err)
	}
	if err := b.Memset(0); !errors.Is(err, ErrFreed) {
		t.Errorf("Memset on zero Buffer: %v, want ErrFreed", err)
	}
	if err := b.Free(); !errors.Is(err, ErrFreed) {
		t.Errorf("Free on zero Buffer: %v, want ErrFreed", err)
	}
	var nb *Buffer[float64]
	if err := nb.Free(); !errors.Is(err, ErrFreed) {
		t.Errorf("Free on nil Buffer: %v, want ErrFreed", err)
	}
	if nb.Len() != 0 || b.Len() != 0 {
		t.Error("Len of an unallocated buffer is not 0")
	}
	if _, err := SumUint32(&b, nil); !errors.Is(err, ErrFreed) {
		t.Errorf("SumUint32 on zero Buffer: %v, want ErrFreed", err)
	}
	var s Stream
	if err := s.Synchronize(); !errors.Is(err, ErrFreed) {
		t.Errorf("Synchronize on zero Stream: %v, want ErrFreed", err)
	}
	if err := s.Destroy(); !errors.Is(err, ErrFreed) {
		t.Errorf("Destroy on zero Stream: %v, want ErrFreed", err)
	}
	var e Event
	if err := e.Record(nil); !errors.Is(err, ErrFreed) {
		t.Errorf("Record on zero Event: %v, want ErrFreed", err)
	}
	if _, err := Elapsed(&e, &e); !errors.Is(err, ErrFreed) {
		t.Errorf("Elapsed on zero Events: %v, want ErrFreed", err)
	}
}

func TestAllocRejectsNonPlainData(t *testing.T) {
	type withPtr struct {
		a int
		p *int
	}
	if _, err := Alloc[withPtr](Device{}, 1); !errors.Is(err, ErrInvalid) {
		t.Errorf("Alloc of a struct with a pointer: %v, want ErrInvalid", err)
	}
	if _, err := Alloc[string](Device{}, 1); !errors.Is(err, ErrInvalid) {
		t.Errorf("Alloc[string]: %v, want ErrInvalid", err)
	}
	if _, err := Alloc[uint32](Device{}, -1); !errors.Is(err, ErrInvalid) {
		t.Errorf("Alloc of -1 elements: %v, want ErrInvalid", err)
	}
	type plain struct {
		A uint32
		B [3]float64
	}
	if _, err := elemSize[plain]("test"); err != nil {
		t.Errorf("plain struct rejected: %v", err)
	}
}

func TestErrorMatching(t *testing.T) {
	cudaErr := &Error{Op: "Alloc", Detail: "cudaMalloc(ptr, (size_t)bytes): cudaErrorMemoryAllocation (2): out of memory", Code: codeOOM}
	oom := &OutOfMemoryError{Device: 0, Requested: 3 << 40, Free: 1 << 30, Total: 80 << 30, Err: cudaErr}
	if !errors.Is(oom, ErrOutOfMemory) || !errors.Is(cudaErr, ErrOutOfMemory) {
		t.Error("out-of-memory errors do not match ErrOutOfMemory")
	}
	if errors.Is(oom, ErrNoDevice) {
		t.Error("out-of-memory error matches ErrNoDevice")
	}
	var as *OutOfMemoryError
	if !errors.As(error(oom), &as) || as.Requested != 3<<40 {
		t.Error("errors.As does not find the requested size")
	}
	msg := oom.Error()
	for _, want := range []string{"3.0 TiB", "3298534883328 bytes", "1.0 GiB free of 80.0 GiB", "cudaMalloc", "cudaErrorMemoryAllocation"} {
		if !strings.Contains(msg, want) {
			t.Errorf("OOM message %q lacks %q", msg, want)
		}
	}
	nd := &Error{Op: "DeviceCount", Detail: "cudaGetDeviceCount(count): cudaErrorNoDevice (100): no CUDA-capable device is detected", Code: codeNoDevice}
	if !errors.Is(nd, ErrNoDevice) || errors.Is(nd, ErrOutOfMemory) {
		t.Error("no-device error matching is wrong")
	}
	if got := nd.Error(); !strings.HasPrefix(got, "cuda: DeviceCount: cudaGetDeviceCount") {
		t.Errorf("Error() = %q", got)
	}
}

func TestFormatBytes(t *testing.T) {
	for _, c := range []struct {
		n    uint64
		want string
	}{{0, "0 B"}, {1023, "1023 B"}, {1024, "1.0 KiB"}, {1536, "1.5 KiB"}, {1 << 30, "1.0 GiB"}, {80 << 30, "80.0 GiB"}, {5 << 40, "5.0 TiB"}, {5 << 50, "5120.0 TiB"}} {
		if got := FormatBytes(c.n); got != c.want {
			t.Errorf("FormatBytes(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	if got := FormatVersion(11080); got != "11.8" {
		t.Errorf("FormatVersion(11080) = %q", got)
	}
	if got := FormatVersion(13000); got != "13.0" {
		t.Errorf("FormatVersion(13000) = %q", got)
	}
}

func TestPeakBandwidth(t *testing.T) {
	// H100 SXM: HBM3 at 2619 MHz on a 5120-bit bus.
	p := DeviceProps{MemoryClockKHz: 2619000, MemoryBusWidth: 5120}
	if got := p.PeakBandwidthGBps(); got < 3352 || got > 3353 {
		t.Errorf("PeakBandwidthGBps = %.1f, want 3352.3", got)
	}
}

// TestProgramID: every min program's kernel name maps to its MG_PROG_* id
// (the cuda build checks the ids against mgraph.h), SSSP over float32
// weights included.
func TestProgramID(t *testing.T) {
	for name, id := range map[string]int{"bfs": ProgBFS, "sssp": ProgSSSP, "cc": ProgCC, "label": ProgLabel, "sssp-f32": ProgSSSPF32} {
		if got := ProgramID(name); got != id {
			t.Errorf("ProgramID(%q) = %d, want %d", name, got, id)
		}
	}
	if got := ProgramID("sssp-f64"); got != 0 {
		t.Errorf("ProgramID of an unknown kernel = %d, want 0", got)
	}
}

func TestRowWidth(t *testing.T) {
	for _, c := range []struct{ maxDeg, want uint32 }{
		{0, 1}, {1, 1}, {2, 2}, {3, 4}, {4, 4}, {5, 8}, {6, 8}, {8, 8},
	} {
		if got := RowWidth(c.maxDeg); got != c.want {
			t.Errorf("RowWidth(%d) = %d, want %d", c.maxDeg, got, c.want)
		}
	}
	if BlockRowWidth&(BlockRowWidth-1) != 0 {
		t.Fatalf("BlockRowWidth %d is not a power of two", BlockRowWidth)
	}
}

// TestGhostPanels: a row panel is PanelGhosts when one of its rows is a
// ghost's, PanelOwned otherwise; a ghost beyond the panels, or panels of no
// vertex, are refused.
func TestGhostPanels(t *testing.T) {
	got, err := GhostPanels([]uint32{3, 17, 18, 40}, 8, 6)
	require.NoError(t, err)
	require.Equal(t, []uint8{PanelGhosts, PanelOwned, PanelGhosts, PanelOwned, PanelOwned, PanelGhosts}, got)
	got, err = GhostPanels(nil, 8, 3)
	require.NoError(t, err)
	require.Equal(t, []uint8{PanelOwned, PanelOwned, PanelOwned}, got)
	got, err = GhostPanels(nil, 8, 0)
	require.NoError(t, err)
	require.Empty(t, got)
	_, err = GhostPanels([]uint32{48}, 8, 6)
	require.ErrorIs(t, err, ErrInvalid)
	_, err = GhostPanels([]uint32{1}, 0, 6)
	require.ErrorIs(t, err, ErrInvalid)
}

func TestPartIdTables(t *testing.T) {
	// A part of 6 layout ids: ghosts 0, 1, 2 at layout ids 4, 0, 3.
	require.Equal(t, []uint32{1, partOwned, partOwned, 2, 0, partOwned}, lidGhosts([]uint32{4, 0, 3}, 6))
	require.Equal(t, []uint32{1, 2, 5}, ascending([]uint32{5, 1, 2}, 6))
	require.Empty(t, ascending(nil, 4))
}
