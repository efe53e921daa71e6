package preprocess

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// GPUTimings are the times of one device build (BuildGPU), in the spirit of
// the paper's Table 7: file reading is never included; the host-to-device
// copy of the edge list is reported apart from the build.
type GPUTimings struct {
	// Device names the GPU, e.g. "cuda:0 (NVIDIA H100 80GB HBM3)".
	Device string
	// Check is the host-side validation of the edge list and parameters.
	Check time.Duration
	// Upload is the host-to-device copy of the edge list (CUDA events).
	Upload time.Duration
	// Build is the device time of the build (CUDA events from the end of the
	// upload to the last kernel; the few host steps in between, such as
	// reading back counts to size arrays, are included).
	Build time.Duration
	// Phases split Build; PhaseNames names them.
	Phases [6]time.Duration
	// Download is the device-to-host copy of every array (host clock).
	Download time.Duration
	// PeakDeviceBytes is the most device memory the build held at once;
	// EstimatedBytes what EstimateGPUBytes predicted beforehand.
	PeakDeviceBytes, EstimatedBytes uint64
}

// PhaseNames names GPUTimings.Phases.
var PhaseNames = cuda.LayoutPhases

// Total is upload + build + download.
func (t GPUTimings) Total() time.Duration { return t.Upload + t.Build + t.Download }

// ErrGPUMemory reports a graph whose device build would not fit in the
// device's free memory (estimated up front, or an allocation that failed).
// It matches cuda.ErrOutOfMemory too.
var ErrGPUMemory = fmt.Errorf("preprocess: not enough device memory: %w", cuda.ErrOutOfMemory)

// EstimateGPUBytes returns an upper estimate of the device memory BuildGPU
// needs for a graph of n vertices and m arcs: the peak of the build's
// stages (the dense fill holds the sort-2 keys and values, the runs, the
// block-of-arc map and the dense outputs at once) with worst-case counts
// (every arc its own run, heavy matrices at their largest, every possible
// high in-degree vertex), plus 10% and 512 MiB for CUB's scratch and the
// CUDA context.
func EstimateGPUBytes(n, m uint64, weighted bool, p layout.Params) uint64 {
	t := uint64(p.HeavyColumns)
	panels := layout.NumPanelsFor(n, p.PanelSize)
	heavyMax := min(panels*panels, m/(p.HeavyThreshold+1))
	matrix := 2*m + 2*t*heavyMax // Σ rows·T ≤ Σ (edges + D + 2T)
	blocks := min(m, panels*panels)
	perArc, perEntry := uint64(40), uint64(2)
	if weighted {
		perArc, perEntry = 48, 6
	}
	high := n
	if hg := int(p.HighGroups); hg <= len(p.GroupThresholds) {
		high = 0
		if hg > 0 {
			high = min(n, m/p.GroupThresholds[hg-1])
		}
	}
	nhs := (high + uint64(p.SegmentSize) - 1) / uint64(p.SegmentSize)
	need := perArc*m + perEntry*matrix + 32*blocks + 40*n + 4*nhs*n
	return need + need/10 + 512<<20
}

// BuildGPU builds the layout of el on GPU opts.Device: the same layout as Build, byte
// for byte. It validates the input as Build does, estimates the device
// memory it needs (EstimateGPUBytes) and fails with ErrGPUMemory when the
// device's free memory is short, before copying anything. Errors from the
// device are cuda errors (cuda.ErrNoCUDA in a build without CUDA,
// cuda.ErrNoDevice without a GPU, cuda.ErrOutOfMemory when an allocation
// fails during the build). opts.Workers bounds the host-side check;
// opts.OnStage receives "gpu upload", "gpu " + each phase, "gpu download".
func BuildGPU(ctx context.Context, el *graph.EdgeList, p layout.Params, opts Options) (*layout.Layout, GPUTimings, error) {
	opts.KeepOnDevice = false
	l, _, tm, err := buildGPU(ctx, el, p, opts)
	return l, tm, err
}

// buildGPU is BuildGPU that, with opts.KeepOnDevice, returns the layout
// still on the device (the host layout without its deferred sections).
func buildGPU(ctx context.Context, el *graph.EdgeList, p layout.Params, opts Options) (*layout.Layout, *cuda.BuiltLayout, GPUTimings, error) {
	var tm GPUTimings
	if el == nil {
		return nil, nil, tm, fmt.Errorf("preprocess: nil graph")
	}
	start := time.Now()
	b := &builder{ctx: ctx, el: el, p: p, opts: opts, workers: par.Workers(opts.Workers), n: el.NumVertices, m: el.NumArcs()}
	if err := b.check(); err != nil {
		return nil, nil, tm, err
	}
	if b.n > cuda.MaxLayoutItems || b.m > cuda.MaxLayoutItems {
		return nil, nil, tm, fmt.Errorf("preprocess: %d vertices and %d arcs; the GPU builder takes at most %d of each: %w",
			b.n, b.m, cuda.MaxLayoutItems, cuda.ErrInvalid)
	}
	tm.Check = time.Since(start)
	if err := ctx.Err(); err != nil {
		return nil, nil, tm, fmt.Errorf("preprocess: %w", err)
	}
	dev, err := cuda.GetDevice(opts.Device)
	if err != nil {
		return nil, nil, tm, err
	}
	tm.Device = dev.String()
	if props, err := dev.Props(); err == nil {
		tm.Device += " (" + props.Name + ")"
	}
	tm.EstimatedBytes = EstimateGPUBytes(b.n, b.m, el.Weighted(), p)
	free, total, err := dev.MemInfo()
	if err != nil {
		return nil, nil, tm, err
	}
	if tm.EstimatedBytes > free {
		return nil, nil, tm, fmt.Errorf("%w: the build needs up to %s, %s of %s free on %s", ErrGPUMemory,
			cuda.FormatBytes(tm.EstimatedBytes), cuda.FormatBytes(free), cuda.FormatBytes(total), tm.Device)
	}
	var l *layout.Layout
	var built *cuda.BuiltLayout
	var ct cuda.LayoutTimings
	if opts.KeepOnDevice {
		if built, ct, err = cuda.BuildLayoutDeferred(dev, b.n, el.Src, el.Dst, el.Weights, el.Directed, p); err == nil {
			l = built.Layout()
		}
	} else {
		l, ct, err = cuda.BuildLayout(dev, b.n, el.Src, el.Dst, el.Weights, el.Directed, p)
	}
	tm.Upload, tm.Build, tm.Phases, tm.Download, tm.PeakDeviceBytes = ct.Upload, ct.Build, ct.Phases, ct.Download, ct.PeakBytes
	if err == nil && el.Weighted() {
		l.WeightKind = el.WeightKind // the device builder moves weights as bits
	}
	if err != nil {
		if errors.Is(err, cuda.ErrOutOfMemory) {
			return nil, nil, tm, fmt.Errorf("%w: %v", ErrGPUMemory, err)
		}
		return nil, nil, tm, fmt.Errorf("preprocess: %w", err)
	}
	if opts.OnStage != nil {
		opts.OnStage("gpu upload", tm.Upload)
		for i, d := range tm.Phases {
			opts.OnStage("gpu "+PhaseNames[i], d)
		}
		opts.OnStage("gpu download", tm.Download)
	}
	if err := ctx.Err(); err != nil {
		if built != nil {
			built.Release()
		}
		return nil, nil, tm, fmt.Errorf("preprocess: %w", err)
	}
	return l, built, tm, nil
}

// Where a layout is built (BuildOn).
const (
	OnCPU  = "cpu"
	OnGPU  = "gpu"
	OnAuto = "auto"
)

// Report says where BuildOn built a layout and how long it took.
type Report struct {
	// On is OnCPU or OnGPU: where the layout was built.
	On string
	// Fallback, when not empty, says why a GPU build that was asked for
	// (or chosen by auto) was replaced by the CPU builder.
	Fallback string
	// Total is the wall time of BuildOn (validation, transfers, build, and
	// any failed GPU attempt included).
	Total time.Duration
	// GPU holds the device build's times (On == OnGPU).
	GPU *GPUTimings
	// Built, with Options.KeepOnDevice and a GPU build, is the layout still
	// on the device: the returned layout lacks its largest sections until
	// Built.Download, and the caller must Release it (see
	// cuda.BuildLayoutDeferred).
	Built *cuda.BuiltLayout
}

// BuildOn builds the layout of el where says: OnCPU (Build), OnGPU
// (BuildGPU; an error when the binary has no CUDA or no GPU is visible) or
// OnAuto (the GPU when one is visible, else the CPU). In both GPU modes a
// graph beyond the device builder's limits, or one whose build does not fit
// in device memory (estimated up front, or an allocation failing during the
// build), is built by the CPU builder instead, and Report.Fallback says why;
// with OnAuto any other device failure falls back the same way. Invalid
// input and cancellation are errors everywhere.
func BuildOn(ctx context.Context, where string, el *graph.EdgeList, p layout.Params, opts Options) (*layout.Layout, Report, error) {
	start := time.Now()
	rep := Report{On: OnCPU}
	cpu := func() (*layout.Layout, Report, error) {
		if opts.CPULock != nil {
			opts.CPULock.Lock()
			defer opts.CPULock.Unlock()
		}
		l, err := Build(ctx, el, p, opts)
		rep.Total = time.Since(start)
		return l, rep, err
	}
	switch where {
	case OnCPU:
		return cpu()
	case OnGPU, OnAuto:
	default:
		return nil, rep, fmt.Errorf("preprocess: build on %q: want cpu, gpu or auto", where)
	}
	if _, err := cuda.DeviceCount(); err != nil {
		if where == OnGPU {
			return nil, rep, fmt.Errorf("preprocess: --preprocess-on gpu: %w", err)
		}
		return cpu()
	}
	if el != nil && (el.NumVertices > cuda.MaxLayoutItems || el.NumArcs() > cuda.MaxLayoutItems) {
		rep.Fallback = fmt.Sprintf("%d vertices and %d arcs exceed the GPU builder's limit of %d each; building on the CPU",
			el.NumVertices, el.NumArcs(), cuda.MaxLayoutItems)
		return cpu()
	}
	l, built, tm, err := buildGPU(ctx, el, p, opts)
	switch {
	case err == nil:
		rep.On, rep.GPU, rep.Total, rep.Built = OnGPU, &tm, time.Since(start), built
		return l, rep, nil
	case ctx.Err() != nil:
		return nil, rep, fmt.Errorf("preprocess: %w", ctx.Err())
	case errors.Is(err, ErrGPUMemory):
		rep.Fallback = err.Error() + "; building on the CPU"
		return cpu()
	case errors.Is(err, layout.ErrTooLarge) || !isDeviceError(err):
		return nil, rep, err // invalid input: the CPU builder would fail too
	case where == OnAuto:
		rep.Fallback = fmt.Sprintf("GPU build failed (%v); building on the CPU", err)
		return cpu()
	}
	return nil, rep, err
}

// isDeviceError reports whether err came from the CUDA layer rather than
// from validating the input.
func isDeviceError(err error) bool {
	var ce *cuda.Error
	var oom *cuda.OutOfMemoryError
	return errors.As(err, &ce) || errors.As(err, &oom) || errors.Is(err, cuda.ErrNoCUDA) || errors.Is(err, cuda.ErrNoDevice)
}
