package preprocess

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strconv"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/format"
	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/layout"
)

// These tests compare the GPU builder with the CPU builder byte for byte.
// They skip where no GPU is visible (CI, builds without -tags cuda); the
// BuildOn tests run everywhere.

func needGPU(t testing.TB) {
	t.Helper()
	if !cuda.BuiltWithCUDA() {
		t.Skip("built without CUDA (-tags cuda): no GPU builder to compare")
	}
	if _, err := cuda.DeviceCount(); err != nil {
		t.Skipf("no CUDA device visible: %v", err)
	}
}

// layoutDiff names the first array (and index) where a and b differ, or "".
// Arrays are compared as bytes (fast enough for layouts of 10^9 arcs).
func layoutDiff(a, b *layout.Layout) string {
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	for i := range va.NumField() {
		name := va.Type().Field(i).Name
		fa, fb := va.Field(i), vb.Field(i)
		if fa.Kind() != reflect.Slice {
			if !reflect.DeepEqual(fa.Interface(), fb.Interface()) {
				return fmt.Sprintf("%s: cpu %v, gpu %v", name, fa.Interface(), fb.Interface())
			}
			continue
		}
		if fa.Len() != fb.Len() {
			return fmt.Sprintf("%s: cpu has %d elements, gpu %d", name, fa.Len(), fb.Len())
		}
		if fa.IsNil() != fb.IsNil() {
			return fmt.Sprintf("%s: nil versus empty", name)
		}
		if fa.Len() == 0 {
			continue
		}
		size := int(fa.Type().Elem().Size())
		ba := unsafe.Slice((*byte)(fa.UnsafePointer()), fa.Len()*size)
		bb := unsafe.Slice((*byte)(fb.UnsafePointer()), fb.Len()*size)
		if bytes.Equal(ba, bb) {
			continue
		}
		j := 0
		for j < len(ba) && ba[j] == bb[j] {
			j++
		}
		j /= size
		diffs := 0
		for k := j * size; k < len(ba); k += size {
			if !bytes.Equal(ba[k:k+size], bb[k:k+size]) {
				diffs++
			}
		}
		lo, hi := max(0, j-3), min(fa.Len(), j+5)
		return fmt.Sprintf("%s[%d]: cpu %v, gpu %v (%d of %d differ; cpu[%d:%d] %v, gpu %v)", name, j,
			fa.Index(j).Interface(), fb.Index(j).Interface(), diffs, fa.Len(), lo, hi,
			fa.Slice(lo, hi).Interface(), fb.Slice(lo, hi).Interface())
	}
	return ""
}

func saved(t testing.TB, l *layout.Layout) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, layout.Save(&buf, l, layout.SaveOptions{}))
	return buf.Bytes()
}

// compareGPU builds el both ways and requires identical layouts and files.
func compareGPU(t *testing.T, el *graph.EdgeList, p layout.Params) *layout.Layout {
	t.Helper()
	want, err := Build(context.Background(), el, p, Options{})
	require.NoError(t, err)
	got, tm, err := BuildGPU(context.Background(), el, p, Options{})
	require.NoError(t, err)
	if d := layoutDiff(want, got); d != "" {
		t.Fatalf("GPU layout differs from the CPU layout (n=%d m=%d %v): %s", el.NumVertices, el.NumArcs(), p, d)
	}
	require.True(t, bytes.Equal(saved(t, want), saved(t, got)), "saved files differ")
	require.LessOrEqual(t, tm.PeakDeviceBytes, tm.EstimatedBytes, "peak above the estimate")
	return got
}

func gpuParams() map[string]layout.Params {
	tiny := layout.Params{PanelSize: 7, HeavyThreshold: 5, HeavyColumns: 3, SegmentSize: 4, GroupThresholds: []uint64{9, 5, 2}, HighGroups: 2}
	allHigh := smallParams()
	allHigh.HighGroups = uint32(len(allHigh.GroupThresholds) + 1)
	oneGroup := layout.Params{PanelSize: 100, HeavyThreshold: 40, HeavyColumns: 5, SegmentSize: 30, HighGroups: 1}
	noHigh := smallParams()
	noHigh.HighGroups = 0
	wide := smallParams()
	wide.HeavyColumns = 1500 // more columns than one chunk of the heavy kernel
	wide.HeavyThreshold = 20
	return map[string]layout.Params{"small": smallParams(), "default": layout.DefaultParams(), "tiny": tiny,
		"all-high": allHigh, "one-group": oneGroup, "no-high": noHigh, "wide": wide}
}

func TestGPUMatchesCPUOnShapes(t *testing.T) {
	needGPU(t)
	g := shapes(t)
	g["random-big"] = randomGraph(11, 20000, 300000, false)
	g["dup-heavy"] = randomGraph(12, 300, 40000, false) // many duplicates per (dst, src)
	sg := star(3000)
	sg.NumVertices += 5 // isolated vertices after the star
	g["star-isolated"] = sg
	names := make([]string, 0, len(g))
	for name := range g {
		names = append(names, name)
	}
	sort.Strings(names)
	params := gpuParams()
	pnames := make([]string, 0, len(params))
	for name := range params {
		pnames = append(pnames, name)
	}
	sort.Strings(pnames)
	var heavy, repeated int
	for _, name := range names {
		for _, weighted := range []bool{false, true} {
			el := g[name]
			if weighted {
				el = withWeights(el, 9)
			}
			for _, pname := range pnames {
				t.Run(fmt.Sprintf("%s/weighted=%v/%s", name, weighted, pname), func(t *testing.T) {
					l := compareGPU(t, el, params[pname])
					if l.NumHeavy() > 0 {
						heavy++
					}
					if hasRepeatedMarker(l) {
						repeated++
					}
				})
			}
		}
	}
	t.Logf("%d graph×parameter cases had heavy blocks, %d repeated markers", heavy, repeated)
	assert.Greater(t, heavy, 10)
	assert.Greater(t, repeated, 5)
}

// datasetFiles are the shared datasets: ../shared/datasets beside the
// checkout, or a copy in .device-carry/datasets (on the GPU machine).
func datasetFiles() []string {
	for _, dir := range []string{"../../shared/datasets", "../.device-carry/datasets"} {
		if files, _ := filepath.Glob(filepath.Join(dir, "*.mtx*")); len(files) > 0 {
			return files
		}
	}
	return nil
}

func TestGPUMatchesCPUOnDatasets(t *testing.T) {
	needGPU(t)
	if testing.Short() {
		t.Skip("reads every shared dataset")
	}
	files := datasetFiles()
	if len(files) == 0 {
		t.Skip("no ../shared/datasets or .device-carry/datasets here")
	}
	mid := layout.DefaultParams()
	mid.PanelSize, mid.HeavyThreshold, mid.HeavyColumns, mid.SegmentSize = 1000, 1000, 64, 2000
	for _, path := range files {
		el, _, err := format.ReadFile(context.Background(), path, format.ReadOptions{})
		require.NoError(t, err)
		for pname, p := range map[string]layout.Params{"default": layout.DefaultParams(), "mid": mid, "small": smallParams()} {
			for _, weighted := range []bool{false, true} {
				g := el
				if weighted && !el.Weighted() {
					g = withWeights(el, 5)
				}
				t.Run(fmt.Sprintf("%s/%s/weighted=%v", filepath.Base(path), pname, g.Weighted()), func(t *testing.T) {
					l := compareGPU(t, g, p)
					st := l.Stats()
					t.Logf("n=%d m=%d heavy=%d light=%d segments=%d", l.NumVertices, l.NumArcs, st.HeavyBlocks, st.LightBlocks, st.Segments)
				})
			}
		}
	}
}

func TestGPUTooLittleMemoryFallsBack(t *testing.T) {
	needGPU(t)
	dev, err := cuda.GetDevice(0)
	require.NoError(t, err)
	free, _, err := dev.MemInfo()
	require.NoError(t, err)
	// Take all but 64 MiB of the device, then build a graph that needs more.
	hog, err := cuda.Alloc[byte](dev, int(free-64<<20))
	if err != nil {
		t.Skipf("could not take the device's memory: %v", err)
	}
	defer hog.Free()
	el := randomGraph(3, 100000, 3000000, false)
	_, _, err = BuildGPU(context.Background(), el, smallParams(), Options{})
	require.ErrorIs(t, err, ErrGPUMemory)
	l, rep, err := BuildOn(context.Background(), OnAuto, el, smallParams(), Options{})
	require.NoError(t, err)
	assert.Equal(t, OnCPU, rep.On)
	assert.Contains(t, rep.Fallback, "device memory")
	require.NoError(t, layout.Validate(l, el))
}

// TestGPUBigRMAT times the GPU builder against the CPU builder on R-MAT
// (scale from MGRAPH_GPU_BENCH_SCALE, edge factor 16, symmetrized; skipped
// when unset) and checks that both layouts are identical.
func TestGPUBigRMAT(t *testing.T) {
	scale, err := strconv.Atoi(os.Getenv("MGRAPH_GPU_BENCH_SCALE"))
	if err != nil || scale <= 0 {
		t.Skip("set MGRAPH_GPU_BENCH_SCALE (e.g. 24) to run")
	}
	needGPU(t)
	ctx := context.Background()
	start := time.Now()
	el, err := gen.RMAT(ctx, gen.DefaultRMAT(scale, 16), 0, nil)
	require.NoError(t, err)
	el.Symmetrize(0)
	t.Logf("R-MAT scale %d ef 16 symmetrized: n=%d m=%d arcs, generated in %.2fs", scale, el.NumVertices, el.NumArcs(), time.Since(start).Seconds())
	p := layout.DefaultParams()
	var gl *layout.Layout
	for run := range 3 {
		runtime.GC()
		start = time.Now()
		l, tm, err := BuildGPU(ctx, el, p, Options{})
		require.NoError(t, err)
		wall := time.Since(start)
		phases := ""
		for i, d := range tm.Phases {
			phases += fmt.Sprintf(" %s=%.1fms", PhaseNames[i], d.Seconds()*1e3)
		}
		t.Logf("GPU run %d on %s: build %.1f ms, upload %.1f ms, download %.1f ms, check %.1f ms, wall %.2fs; peak %s (estimate %s);%s",
			run, tm.Device, tm.Build.Seconds()*1e3, tm.Upload.Seconds()*1e3, tm.Download.Seconds()*1e3, tm.Check.Seconds()*1e3,
			wall.Seconds(), cuda.FormatBytes(tm.PeakDeviceBytes), cuda.FormatBytes(tm.EstimatedBytes), phases)
		gl = l
	}
	runtime.GC()
	start = time.Now()
	cl, err := Build(ctx, el, p, Options{OnStage: func(stage string, d time.Duration) { t.Logf("  cpu %s: %.2fs", stage, d.Seconds()) }})
	require.NoError(t, err)
	t.Logf("CPU build (%d workers): %.2fs", runtime.GOMAXPROCS(0), time.Since(start).Seconds())
	if d := layoutDiff(cl, gl); d != "" {
		t.Fatalf("GPU layout differs: %s", d)
	}
	st := gl.Stats()
	t.Logf("identical layouts: %d blocks (%d heavy), %d slots, %d segments, footprint %s",
		st.Blocks, st.HeavyBlocks, st.Slots, st.Segments, cuda.FormatBytes(gl.Footprint()))
}

func TestBuildOn(t *testing.T) {
	ctx := context.Background()
	el := randomGraph(4, 389, 5000, true)
	want := build(t, el, smallParams(), 0)
	l, rep, err := BuildOn(ctx, OnCPU, el, smallParams(), Options{})
	require.NoError(t, err)
	assert.Equal(t, OnCPU, rep.On)
	assert.Equal(t, "", layoutDiff(want, l))

	l, rep, err = BuildOn(ctx, OnAuto, el, smallParams(), Options{})
	require.NoError(t, err)
	assert.Equal(t, "", layoutDiff(want, l))
	if cuda.Available() {
		assert.Equal(t, OnGPU, rep.On)
		require.NotNil(t, rep.GPU)
	} else {
		assert.Equal(t, OnCPU, rep.On)
		_, _, err = BuildOn(ctx, OnGPU, el, smallParams(), Options{})
		assert.Error(t, err)
		_, _, err = BuildGPU(ctx, el, smallParams(), Options{})
		assert.True(t, errors.Is(err, cuda.ErrNoCUDA) || errors.Is(err, cuda.ErrNoDevice), "%v", err)
	}
	_, _, err = BuildOn(ctx, "tpu", el, smallParams(), Options{})
	assert.ErrorContains(t, err, "cpu, gpu or auto")
	// Invalid input is an error on every path, never a fallback.
	for _, where := range []string{OnCPU, OnGPU, OnAuto} {
		_, _, err = BuildOn(ctx, where, edges(3, [2]uint32{0, 5}), smallParams(), Options{})
		assert.Error(t, err, where)
	}
}

func TestEstimateGPUBytes(t *testing.T) {
	p := layout.DefaultParams()
	small := EstimateGPUBytes(1000, 10000, false, p)
	big := EstimateGPUBytes(1<<24, 1<<29, false, p)
	assert.Less(t, small, uint64(1<<30))
	assert.Greater(t, big, uint64(20<<30))
	assert.Less(t, big, uint64(60<<30), "scale 24 must fit an 80 GB device")
	assert.Greater(t, EstimateGPUBytes(1<<24, 1<<29, true, p), big)
}

// countingLocker counts its Lock calls and checks they pair with Unlocks.
type countingLocker struct{ locks, held int }

func (c *countingLocker) Lock()   { c.locks++; c.held++ }
func (c *countingLocker) Unlock() { c.held-- }

// TestBuildOnHoldsCPULock: a build on the CPU, asked for or a fallback (a
// graph beyond the GPU builder's limits goes to the CPU with the reason,
// whether a GPU is visible or not), holds Options.CPULock; a build on the
// GPU does not.
func TestBuildOnHoldsCPULock(t *testing.T) {
	ctx := context.Background()
	el := randomGraph(4, 389, 5000, true)
	var lk countingLocker
	_, rep, err := BuildOn(ctx, OnCPU, el, smallParams(), Options{CPULock: &lk})
	require.NoError(t, err)
	assert.Equal(t, OnCPU, rep.On)
	assert.Equal(t, 1, lk.locks)
	assert.Zero(t, lk.held)

	_, rep, err = BuildOn(ctx, OnAuto, el, smallParams(), Options{CPULock: &lk})
	require.NoError(t, err)
	if rep.On == OnGPU {
		assert.Equal(t, 1, lk.locks, "a GPU build takes no CPU lock")
	} else {
		assert.Equal(t, 2, lk.locks)
	}

	huge := &graph.EdgeList{NumVertices: 1 << 32}
	before := lk.locks
	_, rep, err = BuildOn(ctx, OnAuto, huge, smallParams(), Options{CPULock: &lk})
	require.Error(t, err, "2^32 vertices: the CPU builder refuses too")
	assert.Equal(t, before+1, lk.locks)
	assert.Zero(t, lk.held)
	if cuda.Available() {
		assert.Contains(t, rep.Fallback, "exceed the GPU builder's limit")
	}
}
