// Package gpu is mgraph's CUDA backend: it uploads a layout to the GPU once
// and runs programs there with the device engines (MultiGraphD and
// MultiGraphS kernels in kernels/) and a hybrid that mirrors the CPU
// sampler's (package sampler). It implements engine.Backend.
//
// It runs the uint32 min programs that implement engine.DeviceProgram
// (BFS, SSSP, CC-LP) through RunMin, connected components by hooking
// (Components), PageRank and data-driven PageRank (engine.PageRankBackend,
// pagerank.go) and betweenness (engine.BrandesBackend, brandes.go), each
// from its initial state made on the device to its result in original ids
// (resident.go); other programs get a clear error.
// Without the cuda build tag, or without a visible GPU, New fails with an
// error matching cuda.ErrNoCUDA or cuda.ErrNoDevice.
package gpu

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/ops"
	"github.com/mgraph-dev/mgraph/sampler"
)

// Available reports whether a GPU the backend can use is visible.
func Available() bool { return cuda.Available() }

// Backend runs programs on one GPU over a layout uploaded once.
type Backend struct {
	l       *layout.Layout
	dl      *cuda.DeviceLayout
	workers int
	sms     int // the device's SM count

	mu  sync.Mutex // one run at a time on run and pr
	run *cuda.MinRun
	pr  *cuda.PRRun
	sum *cuda.SumRun
	col *cuda.Collector       // results to the host in original ids
	edp map[int]time.Duration // EDP per program id
	// The ESP model per program id: fixed, the shortest real sparse step
	// (launches and the counters copy, seconds); arcCost, the seconds per
	// frontier out-arc of the largest real sparse step so far with at least
	// m/CalibrateRatio arcs (arcRef of them), beyond fixed for a host step,
	// beyond loopFixed for a device-loop iteration.
	fixed, arcCost map[int]float64
	arcRef         map[int]uint64
	loopFixed      map[int]float64            // the shortest device-loop iteration per program id (seconds)
	pullSecs       map[int]float64            // the shortest pull iteration per program id (seconds; pullMinArcs)
	loopPullSecs   map[int]float64            // the shortest pull step in a device loop per program id (seconds; pullMinArcs)
	asyncRuns      map[int]sampler.AsyncCosts // the async part of auto's model per program id (asyncCosts)
	fixedSamples   map[int]int                // host sparse steps fixed is the shortest of
	noLoop         bool                       // WithoutDeviceLoop
	noLoopPull     bool                       // WithoutLoopPulls
	// loopPullLost marks the programs whose device loops stopped pulling
	// themselves: a pull step there cost more than the push model's
	// estimate of the push it replaced (loopPulls).
	loopPullLost map[int]bool
	partOverlap  bool              // WithPartOverlap
	loopBlocks   uint32            // WithLoopBlocksPerSM
	asyncBlocks  uint32            // WithAsyncBlocksPerSM
	blockMax     uint64            // the most vertices a one-block run takes (0: none, or WithoutBlockRuns)
	noBlockRows  bool              // WithoutBlockRows
	cluster      cuda.ClusterShape // what the cluster runs take (zero: none, or WithoutClusterRuns)
	// outgrown is set once a one-block run over this layout's rows gave a
	// level back: later traversals start past the block (narrowStart).
	outgrown   atomic.Bool
	asyncDelta uint32        // SSSP's near-far bucket width in async runs
	delta      uint32        // SSSP's near-far bucket width in device loops (0: off; WithNearFarDelta)
	prScheme   cuda.PRScheme // WithPRScheme

	// The operator device (package ops), made by the first OpsDevice and
	// kept with its scratch and uploaded permutation; opsMu is held from
	// OpsDevice until the device handed out is closed.
	opsMu  sync.Mutex
	opsDev *cuda.OpsDevice
	// recovered is the fault New found the device in and reset it from.
	recovered error
	// part is the packaging state of the partitioned runs over this
	// backend's layout (a part of a graph), kept for the next run (under
	// mu); gpu/partrun.go.
	part *heldPart
	// rankHeld is the partitioned PageRank state over this backend's
	// layout (a part), kept for the next run (under mu); gpu/partrank.go.
	rankHeld *heldRank
	// bcHeld is the partitioned BC state over this backend's layout (a
	// part), kept for the next run (under mu); gpu/partbc.go.
	bcHeld *heldBC
}

var _ engine.Backend = (*Backend)(nil)

// Option changes how New sets a backend up.
type Option func(*options)

type options struct {
	device      int // the CUDA ordinal
	built       *cuda.BuiltLayout
	split       cuda.WorkSplit
	noLoop      bool
	overlap     bool
	loopBlocks  uint32
	asyncBlocks uint32
	noBlock     bool
	noBlockRows bool
	noLoopPull  bool
	noCluster   bool
	clusterSize uint32
	nearFar     int64
	prScheme    cuda.PRScheme
	memLimit    uint64 // bytes of the device the layout may take (0: all)
}

// WithMemoryLimit makes New fail, with a *cuda.OutOfMemoryError naming the
// bytes needed and the limit, when the layout takes more than bytes of the
// device (a GPU shared with other work; 0, the default, is no limit
// beyond the device's free memory). The engines' run state comes on top.
func WithMemoryLimit(bytes uint64) Option {
	return func(o *options) { o.memLimit = bytes }
}

// WithWorkSplit changes the dense kernels' work split (cuda.WorkSplit): tiny
// pieces exercise the split paths on small graphs.
func WithWorkSplit(ws cuda.WorkSplit) Option {
	return func(o *options) { o.split = ws }
}

// WithBuilt runs on a layout the device built (cuda.BuildLayoutDeferred,
// preprocess.Options.KeepOnDevice): its largest arrays are used where the
// builder left them instead of being uploaded again, and New's layout must
// be b.Layout(), which may still lack them on the host (the backend's host
// code does not read them). The backend holds a reference to b until Close.
func WithBuilt(b *cuda.BuiltLayout) Option {
	return func(o *options) { o.built = b }
}

// WithoutDeviceLoop makes the backend return to the host after every
// iteration, as it did before the device loop (for comparing the two; the
// results are the same).
func WithoutDeviceLoop() Option {
	return func(o *options) { o.noLoop = true }
}

// WithPartOverlap makes a partitioned PageRank's part gather the row
// panels that hold its ghosts first, and the rest while the ghosts' sums
// travel, instead of all its rows before the exchange (the ranks agree
// within the validation's tolerance). Off by default until it is measured
// on GPUs.
func WithPartOverlap() Option {
	return func(o *options) { o.overlap = true }
}

// WithLoopBlocksPerSM fixes the thread blocks per SM of the device loops'
// grid (at most what fits); 0, the default, sizes it by the frontier
// (loopGrid).
func WithLoopBlocksPerSM(n uint32) Option {
	return func(o *options) { o.loopBlocks = n }
}

// WithAsyncBlocksPerSM fixes the thread blocks per SM of async runs' grid
// (at most what fits); 0, the default, takes MG_ASYNC_BLOCKS_PER_SM.
func WithAsyncBlocksPerSM(n uint32) Option {
	return func(o *options) { o.asyncBlocks = n }
}

// WithoutBlockRuns keeps mode auto's hand-over of a long run with small
// frontiers on the grid-wide async engine, never in one thread block (for
// comparing the two; the results are the same).
func WithoutBlockRuns() Option {
	return func(o *options) { o.noBlock = true }
}

// WithoutClusterRuns keeps mode auto's Brandes sources on narrow layouts
// (every vertex at most cuda.BlockRowWidth out-arcs) out of one
// thread-block cluster: where one block does not take them, they go to the
// grid-wide async engine (for comparing the two; the results are the
// same). A BFS never runs in a cluster (the async engine is faster).
func WithoutClusterRuns() Option {
	return func(o *options) { o.noCluster = true }
}

// WithClusterBlocks makes the cluster runs launch clusters of n blocks (a
// power of two from 2 to cuda.ClusterMaxBlocks, at most the device's
// largest) instead of the largest that launches (0); for study and tests.
func WithClusterBlocks(n uint32) Option {
	return func(o *options) { o.clusterSize = n }
}

// WithoutBlockRows makes the one-block runs and the async runs of the min
// programs read the layout's CSR even where every vertex has at most
// cuda.BlockRowWidth out-arcs, instead of the fixed-width rows built for
// them (for comparing the two; the results are the same).
func WithoutBlockRows() Option {
	return func(o *options) { o.noBlockRows = true }
}

// WithoutLoopPulls makes BFS's device loops stop for the host's pull
// steps where the pull rule holds, instead of running them inside the
// loop (cuda.LoopRule.PullInLoop), for comparing the two; the results are
// the same. docs/gpu-engines.md.
func WithoutLoopPulls() Option {
	return func(o *options) { o.noLoopPull = true }
}

// WithNearFarDelta sets the bucket width of SSSP's near-far iterations in
// device loops (cuda.MinRun.SparseLoop) and async runs: a width in
// distance units (for float32 weights the float of that integer), 0 for
// the default (NearFarWeights times the mean arc weight in loops,
// engine.AsyncNearFarWeights times it in async runs), or a negative number
// for none.
func WithNearFarDelta(delta int64) Option {
	return func(o *options) { o.nearFar = delta }
}

// WithPRScheme sets how topology-driven PageRank handles the light edges:
// cuda.PRPull, the default, or cuda.PRStream, the paper's stream buffer (for
// comparing the two; the ranks agree to rounding).
func WithPRScheme(s cuda.PRScheme) Option {
	return func(o *options) { o.prScheme = s }
}

// NearFarWeights is the default near-far bucket width of SSSP in mean arc
// weights (engine.NearFarWeights).
const NearFarWeights = engine.NearFarWeights

// WithDevice makes New use the GPU of CUDA ordinal dev (default 0): one
// backend per GPU for partitioned runs (package partition).
func WithDevice(dev int) Option { return func(o *options) { o.device = dev } }

// New uploads l to device 0 (or WithDevice's). workers is the number of
// host goroutines apps use for their host-side work (0 = all cores).
func New(l *layout.Layout, workers int, opts ...Option) (*Backend, error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	d, err := cuda.GetDevice(o.device)
	if err != nil {
		return nil, fmt.Errorf("cuda backend: %w", err)
	}
	// A device an earlier fault left unusable (every call would fail) is
	// reset first: a fresh backend works after a faulted one.
	recovered, err := d.Recover()
	if err != nil {
		return nil, fmt.Errorf("cuda backend: %s: %w", d, err)
	}
	props, err := d.Props()
	if err != nil {
		return nil, fmt.Errorf("cuda backend: %w", err)
	}
	var dl *cuda.DeviceLayout
	weights := l.SparseWeights // for near-far's bucket width
	if o.built != nil {
		if o.built.Layout() != l {
			return nil, fmt.Errorf("cuda backend: the built layout is not the one given")
		}
		if dl, err = cuda.UploadLayoutFrom(o.built, o.split); err == nil && l.Weighted && len(weights) == 0 {
			weights, err = o.built.SampleSparseWeights(nearFarSample)
			if err != nil {
				dl.Close()
			}
		}
	} else {
		dl, err = cuda.UploadLayoutSplit(d, l, o.split)
	}
	if err != nil {
		return nil, fmt.Errorf("cuda backend: %w", err)
	}
	if o.memLimit > 0 && dl.Bytes() > o.memLimit {
		need := dl.Bytes()
		dl.Close()
		return nil, fmt.Errorf("cuda backend: %w", &cuda.OutOfMemoryError{Device: o.device, Requested: need, Free: o.memLimit,
			Err: fmt.Errorf("the layout needs %s, over the limit of %s", cuda.FormatBytes(need), cuda.FormatBytes(o.memLimit))})
	}
	if workers <= 0 {
		workers = defaultWorkers()
	}
	// The result buffers (the permutation on the device, pinned host
	// memory) are allocated with the layout, not by the first trial.
	col, err := cuda.NewCollector(dl)
	if err == nil {
		if err = col.Reserve(); err != nil {
			col.Close()
		}
	}
	if err != nil {
		dl.Close()
		return nil, fmt.Errorf("cuda backend: %w", err)
	}
	b := &Backend{l: l, dl: dl, col: col, workers: workers, sms: max(props.Multiprocessors, 1), recovered: recovered,
		edp: map[int]time.Duration{}, fixed: map[int]float64{}, arcCost: map[int]float64{}, arcRef: map[int]uint64{},
		loopFixed: map[int]float64{}, pullSecs: map[int]float64{}, loopPullSecs: map[int]float64{}, fixedSamples: map[int]int{}, asyncRuns: map[int]sampler.AsyncCosts{},
		noLoop: o.noLoop, partOverlap: o.overlap, loopBlocks: o.loopBlocks, asyncBlocks: o.asyncBlocks, delta: nearFarDelta(l.WeightKind, weights, o.nearFar),
		asyncDelta: nearFarDeltaTimes(l.WeightKind, weights, o.nearFar, engine.AsyncNearFarWeights), prScheme: o.prScheme,
		noBlockRows: o.noBlockRows, noLoopPull: o.noLoopPull, loopPullLost: map[int]bool{}}
	if !o.noBlock {
		if b.blockMax, err = cuda.BlockMaxVertices(dl.Device()); err != nil {
			b.Close()
			return nil, fmt.Errorf("cuda backend: %w", err)
		}
	}
	if !o.noCluster {
		if b.cluster, err = clusterShape(dl.Device(), o.clusterSize); err != nil {
			b.Close()
			return nil, fmt.Errorf("cuda backend: %w", err)
		}
	}
	// A directed layout's in-adjacency, for BFS's pull steps, is built
	// with the layout (milliseconds on the device), not by the first run.
	if err := b.buildIn(); err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// CollectInto makes the runs until the next CollectInto write their
// results into host, page-locked memory of bytes bytes (HostAlloc's) that
// the caller keeps until then, instead of the backend's own pinned buffers:
// the result slice a run returns is then host's memory, filled by the one
// device-to-host copy. CollectInto(nil, 0) undoes it.
func (b *Backend) CollectInto(host unsafe.Pointer, bytes uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.col.Into(host, bytes)
}

// HostAlloc returns page-locked host memory for n elements of T on the
// backend's device, for CollectInto; free it with its Free.
func HostAlloc[T any](b *Backend, n int) (*cuda.Pinned[T], error) {
	p, err := cuda.AllocPinned[T](b.dl.Device(), n)
	if err != nil {
		return nil, fmt.Errorf("cuda backend: %w", err)
	}
	return p, nil
}

// Close frees the device memory of the layout and of the run state.
func (b *Backend) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	var first error
	if b.part != nil { // before the MinRun it packages
		first = b.part.pr.Close()
		b.part = nil
	}
	if b.rankHeld != nil { // before the PRRun it extends
		if err := b.rankHeld.pr.Close(); err != nil && first == nil {
			first = err
		}
		b.rankHeld = nil
	}
	if b.bcHeld != nil { // before the layout it runs over
		if err := b.bcHeld.st.Close(); err != nil && first == nil {
			first = err
		}
		b.bcHeld = nil
	}
	if b.run != nil {
		if err := b.run.Close(); err != nil && first == nil {
			first = err
		}
		b.run = nil
	}
	if b.pr != nil {
		if err := b.pr.Close(); err != nil && first == nil {
			first = err
		}
		b.pr = nil
	}
	if b.sum != nil {
		if err := b.sum.Close(); err != nil && first == nil {
			first = err
		}
		b.sum = nil
	}
	if b.col != nil {
		if err := b.col.Close(); err != nil && first == nil {
			first = err
		}
		b.col = nil
	}
	b.opsMu.Lock()
	if b.opsDev != nil {
		if err := b.opsDev.Close(); err != nil && first == nil {
			first = err
		}
		b.opsDev = nil
	}
	b.opsMu.Unlock()
	if err := b.dl.Close(); err != nil && first == nil {
		first = err
	}
	return first
}

// OpsDevice returns the operator device (package ops) over the backend's
// device layout: one per backend, made on first use, whose scratch and
// permutation stay for the next app. It is the caller's until it closes
// it (other callers wait); operators and the backend's own runs must not
// overlap.
func (b *Backend) OpsDevice() (ops.Device, error) {
	b.opsMu.Lock()
	if b.opsDev == nil {
		d, err := cuda.NewOpsDevice(b.dl)
		if err != nil {
			b.opsMu.Unlock()
			return nil, err
		}
		d.CollectWith(lockedResults{b})
		b.opsDev = d
	}
	h := &heldOps{OpsDevice: b.opsDev}
	h.release = sync.OnceFunc(b.opsMu.Unlock)
	return h, nil
}

// lockedResults hands the operator apps' results over through the
// backend's collector, under its lock: they land in the pinned buffers the
// engines' results use, and CollectInto applies to them too.
type lockedResults struct{ b *Backend }

func (r lockedResults) Uint32At(values unsafe.Pointer) ([]uint32, float32, error) {
	r.b.mu.Lock()
	defer r.b.mu.Unlock()
	return r.b.col.Uint32At(values)
}

func (r lockedResults) Float64At(values unsafe.Pointer) ([]float64, float32, error) {
	r.b.mu.Lock()
	defer r.b.mu.Unlock()
	return r.b.col.Float64At(values)
}

// heldOps is the backend's operator device while one caller holds it:
// closing it hands it back.
type heldOps struct {
	*cuda.OpsDevice
	release func()
}

// Close hands the device back to the backend, which keeps its memory.
func (h *heldOps) Close() error {
	h.release()
	return nil
}

// Unfit reports whether err, from New, says that the graph cannot run on
// this GPU but can on the CPU: it does not fit the device's free memory
// (or WithMemoryLimit's), or a fault made the device unusable to this
// process (cuda.ErrDeviceLost). Callers that fall back to the CPU ask it.
func Unfit(err error) bool {
	oom := (*cuda.OutOfMemoryError)(nil)
	return errors.As(err, &oom) || errors.Is(err, cuda.ErrDeviceLost)
}

// RecoveredFrom returns the fault New found the device in (left by an
// earlier backend's kernel) and reset it from, or nil.
func (b *Backend) RecoveredFrom() error { return b.recovered }

// Name returns "cuda".
func (b *Backend) Name() string { return "cuda" }

// Layout returns the host copy of the layout.
func (b *Backend) Layout() *layout.Layout { return b.l }

// Workers returns the host goroutines apps use around the device runs.
func (b *Backend) Workers() int { return b.workers }

// DeviceBytes returns the device memory the uploaded layout takes.
func (b *Backend) DeviceBytes() uint64 { return b.dl.Bytes() }

// Uint32Runner returns a runner for the min programs that implement
// engine.DeviceProgram.
func (b *Backend) Uint32Runner(opts engine.RunOptions) (engine.Runner[uint32], error) {
	return &runner{b: b, opts: opts}, nil
}

// Float64Runner returns the float64 runner, which refuses every program:
// float64 apps run whole on the device through PageRank, PageRankDelta and
// Brandes (see prRunner).
func (b *Backend) Float64Runner(opts engine.RunOptions) (engine.Runner[float64], error) {
	return &prRunner{b: b, opts: opts}, nil
}

// SparseFastRatio: the hybrid runs a frontier whose out-arcs are fewer than
// m / SparseFastRatio sparse without sampling (a dense step streams all m
// arcs; such a frontier's sparse step costs a small fraction of it), which
// saves the sample's host round trip in the many small iterations.
const SparseFastRatio = 64

// CalibrateRatio: a real sparse step over at least m/CalibrateRatio
// frontier out-arcs sets the per-arc cost ESP is computed from (smaller
// steps are dominated by their fixed launch and copy costs).
const CalibrateRatio = 4096

// ExploreRatio: when the ESP model would choose dense for a frontier of
// more than ExploreRatio times the out-arcs of the sparse step its per-arc
// cost came from, the hybrid runs that frontier sparse instead, which
// calibrates the model at its size. A small step's time is latency more
// than arcs: on uk-2007-05_100000 (H100) a 25K-arc device-loop step gave
// 0.5 ns an arc, against 18 ps for a 1.58M-arc one, and with only small
// steps measured every mid-size frontier went dense (90–130 µs on the
// host, against 20–40 µs in the device loop), so no larger sparse step
// ever corrected the model. Each exploration multiplies the reference
// step's size by more than ExploreRatio, so a program explores at most
// log(CalibrateRatio)/log(ExploreRatio) times on a backend.
const ExploreRatio = 8

type runner struct {
	b    *Backend
	opts engine.RunOptions
}

// Run runs p on the device from host values and frontier (layout
// numbering), which it uploads first and updates at the end; see
// engine.Runner. Result.Seconds is the time of the iterations, from after
// the values' upload to before their download. Apps use RunMin instead,
// which keeps the values on the device.
func (r *runner) Run(ctx context.Context, p engine.Program[uint32], values []uint32, f *engine.Frontier) (engine.Result, error) {
	var res engine.Result
	b, l := r.b, r.b.l
	prog, err := b.minProgram(p)
	if err != nil {
		return res, err
	}
	if err := engine.CheckRun(l, p, values, f); err != nil {
		return res, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	run, err := b.minRun()
	if err != nil {
		return res, err
	}
	isList, err := loadFrontier(b, run, values, f)
	if err != nil {
		return res, err
	}
	count, edges := f.Size(l.SparseOffsets, b.workers)
	res, err = b.iterateMin(ctx, run, p, prog, r.opts, count, edges, isList)
	if err != nil {
		return res, err
	}
	if err := run.Store(values); err != nil {
		return res, fmt.Errorf("cuda backend: %w", err)
	}
	return res, nil
}

// minProgram returns the kernel id of min program p, or why the device
// cannot run it.
func (b *Backend) minProgram(p engine.Program[uint32]) (int, error) {
	prog, err := minProgramID(p, b.l)
	if err != nil {
		return 0, fmt.Errorf("cuda backend: %w", err)
	}
	return prog, nil
}

// minProgramID returns the kernel id of min program p over layout l, or
// why the device cannot run it (its weights: engine.CheckProgram; a float32
// program must name the float32 kernel, and the reverse).
func minProgramID(p engine.Program[uint32], l *layout.Layout) (int, error) {
	dp, ok := p.(engine.DeviceProgram)
	prog := 0
	if ok {
		prog = cuda.ProgramID(dp.DeviceKernel())
	}
	switch {
	case prog == 0:
		return 0, fmt.Errorf("program %T has no GPU implementation yet", p)
	case p.Combine() != engine.CombineMin || p.ApplyAll():
		return 0, fmt.Errorf("program %T is not a min program", p)
	case (prog == cuda.ProgSSSPF32) != (p.Edge() == engine.EdgeSourcePlusFloat32Weight):
		return 0, fmt.Errorf("program %T: kernel %q does not add %v", p, dp.DeviceKernel(), p.Edge())
	}
	if err := engine.CheckProgram(p, l); err != nil {
		return 0, err
	}
	return prog, nil
}

// nearFarProg reports whether kernel prog takes a near-far width (the
// weighted ones, the SSSPs; the width is in the values' space, float32
// bits for ProgSSSPF32, as the backend's deltas are for its layout's
// weights).
func nearFarProg(prog int) bool { return cuda.WeightedProg(prog) }

// withSampleRate returns opts with the hybrid's default sample rate when
// its own is out of (0, 1], and the synchronous mode of its mode (Auto runs
// the hybrid; iterateMin hands over to async itself).
func withSampleRate(opts engine.RunOptions) engine.RunOptions {
	opts.Mode = opts.Mode.Sync()
	if opts.SampleRate <= 0 || opts.SampleRate > 1 {
		opts.SampleRate = sampler.DefaultSampleRate
	}
	return opts
}

// minRun returns the backend's uint32 run state, allocating it on first
// use. The caller holds b.mu.
func (b *Backend) minRun() (*cuda.MinRun, error) {
	if b.run == nil {
		run, err := cuda.NewMinRun(b.dl)
		if err != nil {
			return nil, fmt.Errorf("cuda backend: %w", err)
		}
		b.run = run
	}
	return b.run, nil
}

// buildIn builds a directed layout's in-adjacency on the device for New (4
// bytes an arc; an undirected layout's is its sparse part). When the
// device has no room for it, or the layout has more arcs than one build
// takes, there is none: pull steps need it (cuda.DeviceLayout.HasIn), so
// BFS runs push-only.
func (b *Backend) buildIn() error {
	if b.dl.HasIn() || b.l.NumArcs > cuda.MaxTransposeArcs {
		return nil
	}
	err := b.dl.BuildIn()
	if oom := (*cuda.OutOfMemoryError)(nil); errors.As(err, &oom) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	return nil
}

// iterateMin runs the iterations of min program p (kernel prog) from the
// run's loaded state, whose frontier has count vertices and edges out-arcs
// (a list when isList), and times them into Result.Seconds. BFS in hybrid
// mode may take pull steps (direction optimisation, with the CPU sampler's
// switching rule, sampler.Alpha and sampler.Beta; on a directed layout over
// its in-adjacency, when New could build it).
func (b *Backend) iterateMin(ctx context.Context, run *cuda.MinRun, p engine.Program[uint32], prog int, opts engine.RunOptions, count, edges uint64, isList bool) (engine.Result, error) {
	if opts.Mode == engine.Async {
		return b.iterateAsync(run, p, prog, opts, count, isList)
	}
	var handoff func(count uint64) (engine.Result, error)
	if _, ok := p.(engine.Monotone); ok && opts.Mode == engine.Auto {
		handoff = func(count uint64) (engine.Result, error) {
			if prog == cuda.ProgBFS && b.blockFits(count) && !b.outgrown.Load() {
				return b.iterateBlock(run, p, prog, opts, count)
			}
			return b.iterateAsync(run, p, prog, opts, count, true)
		}
		if prog == cuda.ProgBFS && isList && opts.MaxIterations == 0 {
			where, err := b.narrowStart(run.BlockRows, count, false)
			if err != nil {
				return engine.Result{}, err
			}
			if where != startLevels { // a road network's or a mesh's BFS: one block, or async once outgrown
				start := time.Now()
				var res engine.Result
				if where == startBlock {
					res, err = b.iterateBlock(run, p, prog, opts, count)
				} else {
					res, err = b.iterateAsync(run, p, prog, opts, count, true)
				}
				res.Seconds = time.Since(start).Seconds()
				return res, err
			}
		}
	}
	opts = withSampleRate(opts)
	_, ee := p.(engine.EarlyExit[uint32])
	canPull := ee && prog == cuda.ProgBFS && !opts.NoPull && opts.Mode == engine.Hybrid && b.dl.HasIn()
	start := time.Now()
	res, err := b.iterate(ctx, minSteps{run, prog}, prog, opts, canPull, count, edges, isList, nil, handoff)
	res.Seconds = time.Since(start).Seconds()
	return res, err
}

// loadFrontier uploads values and the initial frontier f into run, as a
// list if f holds one, else as flags, and returns which (iterate's isList:
// f.Len may add a list to f afterwards).
func loadFrontier(b *Backend, run *cuda.MinRun, values []uint32, f *engine.Frontier) (isList bool, err error) {
	isList = f.IsList()
	if isList {
		err = run.Load(values, f.List(b.workers), nil)
	} else {
		err = run.Load(values, nil, f.Flags(b.workers))
	}
	if err != nil {
		return isList, fmt.Errorf("cuda backend: %w", err)
	}
	return isList, nil
}

// steps is a device run as the hybrid loop drives it: one program's dense,
// sparse and pull steps, its ESP sample, and the frontier conversions. The
// run holds the current frontier as a list or as flags.
type steps interface {
	begin(i int) // before iteration i
	dense(dry bool) (cuda.StepCounters, []float32, error)
	sparse(count uint32) (cuda.StepCounters, []float32, error)
	pull() (cuda.StepCounters, []float32, error)
	sample(count, stride uint32) (float32, error)
	ToList() (float32, error)
	ToFlags(count uint32) (float32, error)
}

// minSteps drives a min program prog on a MinRun.
type minSteps struct {
	*cuda.MinRun
	prog int
}

func (minSteps) begin(int) {}
func (s minSteps) dense(dry bool) (cuda.StepCounters, []float32, error) {
	return s.Dense(s.prog, dry)
}
func (s minSteps) sparse(count uint32) (cuda.StepCounters, []float32, error) {
	return s.Sparse(s.prog, count)
}
func (s minSteps) pull() (cuda.StepCounters, []float32, error) {
	if s.prog == cuda.ProgBFS {
		return s.Pull(s.prog) // stops at the first active in-neighbour
	}
	return s.PullAll(s.prog)
}
func (s minSteps) sample(count, stride uint32) (float32, error) {
	return s.Sample(s.prog, count, stride)
}

// sumSteps drives a sum program on a SumRun. bcDepth: the program is BC's
// forward pass, whose frontier at iteration i has depth i.
type sumSteps struct {
	*cuda.SumRun
	p       *cuda.SumProgram
	bcDepth bool
}

func (s sumSteps) begin(i int) {
	if s.bcDepth {
		s.p.Depth = int32(i)
	}
}
func (s sumSteps) dense(dry bool) (cuda.StepCounters, []float32, error) {
	return s.Dense(*s.p, dry)
}
func (s sumSteps) sparse(count uint32) (cuda.StepCounters, []float32, error) {
	return s.Sparse(*s.p, count)
}
func (sumSteps) pull() (cuda.StepCounters, []float32, error) {
	return cuda.StepCounters{}, nil, fmt.Errorf("sum programs have no pull step")
}
func (s sumSteps) sample(count, stride uint32) (float32, error) {
	return s.Sample(*s.p, count, stride)
}

// sumKey is the key of a sum program's EDP/ESP model (min programs use
// their program id, 1..3).
func sumKey(id int) int { return 16 + id }

// iterate runs the iterations of a loaded run from the initial frontier of
// count vertices with edges out-arcs (on the device as a list when isList,
// else as flags):
// the forced mode or the hybrid's choice per iteration (key selects the
// EDP/ESP model), with pull steps when canPull. onStep, when not nil, gets
// every iteration's next frontier size and out-arcs.
//
// A run of sparse iterations (sparse forced, or iterations the hybrid takes
// sparse by its small-frontier rule or its calibrated ESP model) stays on
// the device when st can loop (loopSteps): one device loop runs them until
// the host's rules, which it applies itself, would choose otherwise; their
// bookkeeping and traces are replayed from the loop's records.
func (b *Backend) iterate(ctx context.Context, st steps, key int, opts engine.RunOptions, canPull bool, count, edges uint64, isList bool, onStep func(next, edges uint64), handoff func(count uint64) (engine.Result, error)) (engine.Result, error) {
	var res engine.Result
	// Mode pull: every iteration a pull step (BFS's bottom-up step, the
	// other min programs' step over every in-arc); the sum programs have
	// none.
	forcePull := opts.Mode == engine.Pull
	if forcePull {
		ms, ok := st.(minSteps)
		if !ok {
			return res, fmt.Errorf("cuda backend: %w", engine.ErrPullMode)
		}
		if !b.dl.HasIn() {
			return res, fmt.Errorf("cuda backend: mode pull: the layout's in-adjacency is not on the device (it did not fit)")
		}
		if cuda.WeightedProg(ms.prog) { // a directed layout's in-arcs get their weights on first use
			if err := b.dl.BuildInWeights(); err != nil {
				return res, fmt.Errorf("cuda backend: mode pull: %w", err)
			}
		}
	}
	l := b.l
	n := l.NumVertices
	// count and edges are the initial frontier's; later frontiers are
	// counted by the steps.
	hasList, hasFlags := isList, !isList
	prev := engine.Mode(255)
	// The arcs of the unsettled vertices (an estimate), the vertices not yet
	// in a frontier, and the previous frontier's size.
	var unsettled, unsetVtx, prevCount uint64
	if canPull {
		unsettled, unsetVtx = l.NumArcs, n
	}
	var hist sampler.FrontierHistory // auto's record of the frontiers
	// open starts iteration i's trace and bookkeeping; finish ends it with
	// its next frontier.
	open := func(i int) engine.IterationTrace {
		st.begin(i)
		tr := engine.IterationTrace{Iteration: i, FrontierVertices: count, FrontierEdges: edges}
		res.Edges += edges
		hist.Push(count)
		if canPull {
			unsettled -= min(unsettled, edges)
			unsetVtx -= min(unsetVtx, count)
			tr.UnsettledEdges = unsettled
			tr.PullEdges = sampler.PullScan(l.NumArcs, edges, unsettled, unsetVtx)
		}
		return tr
	}
	finish := func(tr engine.IterationTrace, c cuda.StepCounters) {
		count, edges = uint64(c.NextCount), c.NextEdges
		if onStep != nil {
			onStep(count, edges)
		}
		res.Iterations++
		if opts.Trace {
			res.Trace = append(res.Trace, tr)
		}
	}
	for i := 0; ; i++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if opts.MaxIterations > 0 && i >= opts.MaxIterations {
			break
		}
		if count == 0 {
			break
		}
		tr := open(i)
		iterStart := time.Now()
		usePull := forcePull
		if canPull && !forcePull && edges >= b.pullMinArcs(key, b.loopPulls(key, canPull)) {
			if prev == modePull {
				usePull = count >= prevCount || count*sampler.Beta > n
			} else {
				usePull = sampler.PullPays(n, l.NumArcs, edges, unsettled, unsetVtx)
			}
		}
		prevCount = count
		mode := modePull
		if !usePull {
			var err error
			if mode, err = b.decide(st, key, opts, count, edges, &hasList, &hasFlags, &tr); err != nil {
				return res, fmt.Errorf("cuda backend: hybrid: %w", err)
			}
		}
		if i > 0 && mode != prev {
			res.Switches++
			tr.Switched = true
		}
		prev = mode
		tr.Mode = modeName(mode)
		// A pull step may start a device loop that pulls itself.
		loopMode, pullFirst := mode, false
		if mode == modePull && !forcePull && b.loopPulls(key, canPull) {
			loopMode, pullFirst = engine.Sparse, true
		}
		if ls, ok := b.loopable(st, key, opts, loopMode, edges); ok {
			autoAsync := handoff != nil && opts.MaxIterations == 0
			if autoAsync && i >= engine.AutoAsyncIterations {
				// Auto: a long run whose rest is estimated cheaper
				// asynchronously goes on so.
				costs := b.asyncCosts(key, count, edges)
				est, ok := costs.Estimate(&hist, n)
				est.Note(&tr)
				if ok && est.Pays() {
					if err := toList(st, &hasList, &hasFlags, &tr); err != nil {
						return res, fmt.Errorf("cuda backend: %w", err)
					}
					left := hist.Left(n)
					asyncStart := time.Now()
					ar, err := handoff(count)
					if err != nil {
						return res, err
					}
					if ar.Iterations > 0 { // a run (BC's hand-over runs later, elsewhere)
						b.asyncRuns[key] = costs.ObserveAsync(time.Since(asyncStart).Seconds(), est, left)
					}
					if len(ar.Trace) > 0 { // the async run's record carries the choice
						ar.Trace[0].Iteration = i
						est.Note(&ar.Trace[0])
					}
					res.Add(ar) // its time is counted by the caller's clock
					res.Switches++
					break
				}
			}
			maxIters := cuda.LoopRecords
			if opts.MaxIterations > 0 {
				maxIters = min(maxIters, opts.MaxIterations-i)
			}
			if autoAsync {
				maxIters = min(maxIters, nextAsyncCheck(i)-i) // back to the host to weigh async
			}
			rule := b.loopRule(key, opts, canPull, unsettled, unsetVtx)
			rule.PullFirst = pullFirst
			lp, err := b.loop(ls, st, count, maxIters, rule, &hasList, &hasFlags, &tr)
			if err != nil {
				return res, fmt.Errorf("cuda backend: %w", err)
			}
			for j, rec := range lp.Records {
				recMode := engine.Sparse
				if rec.Pulled() {
					recMode = modePull
				}
				if j > 0 {
					i++
					tr = open(i)
					prevCount = count
					tr.Mode = modeName(recMode)
					if recMode != prev {
						res.Switches++
						tr.Switched = true
					}
					if !rec.Pulled() && rule.Hybrid && rule.Calibrated && edges*SparseFastRatio >= l.NumArcs {
						tr.EDPSeconds, tr.ESPSeconds = rule.EDP, rule.ESP(edges) // the device's reason
					}
				}
				prev = recMode
				secs := lp.IterationSeconds(j)
				if rec.Pulled() {
					lowerTo(b.loopPullSecs, key, secs)
					b.weighLoopPull(key, edges, secs)
				} else {
					b.calibrateLoop(key, edges, secs)
				}
				tr.Phases = append(tr.Phases, engine.Phase{Name: LoopPhase, Seconds: secs})
				tr.Seconds = secs
				finish(tr, rec.Counters)
			}
			continue
		}
		c, err := b.step(st, key, mode, count, edges, &hasList, &hasFlags, &tr)
		if err != nil {
			return res, fmt.Errorf("cuda backend: %w", err)
		}
		tr.Seconds = time.Since(iterStart).Seconds()
		if mode == modePull && !forcePull {
			lowerTo(b.pullSecs, key, tr.Seconds)
		}
		finish(tr, c)
	}
	return res, nil
}

// nextAsyncCheck returns the next iteration after i at which auto weighs
// going on asynchronously: engine.AutoAsyncIterations, then each double
// of it (a device loop returns to the host there; a run whose frontier
// settles into a wavefront late is still weighed, with few returns).
func nextAsyncCheck(i int) int {
	c := engine.AutoAsyncIterations
	for c <= i {
		c *= 2
	}
	return c
}

// asyncCosts returns auto's costs of program key as this backend has
// measured them (sampler.AsyncCosts): a synchronous iteration's fixed
// cost is the shortest device-loop iteration's (a host step's before any
// loop ran), its cost per frontier vertex the ESP model's cost per arc
// times the current frontier's arcs per vertex, and an async run's cost
// per vertex left the last measured run's (sampler.AsyncColdRuns).
func (b *Backend) asyncCosts(key int, count, edges uint64) sampler.AsyncCosts {
	fixed, ok := b.loopFixed[key]
	if !ok {
		fixed = b.fixed[key]
	}
	a := b.asyncRuns[key]
	c := sampler.AsyncCosts{IterFixed: fixed, AsyncVertex: a.AsyncVertex, AsyncRuns: a.AsyncRuns}
	if count > 0 {
		c.VertexCost = b.arcCost[key] * float64(edges) / float64(count)
	}
	return c
}

// LoopPhase names the phase of an iteration that ran in a device loop: its
// device time, from the loop's records.
const LoopPhase = "device-loop"

// loopSteps is a run that can keep iterations on the device.
type loopSteps interface {
	loop(count uint32, maxIters int, blocksPerSM uint32, rule cuda.LoopRule) (cuda.Loop, error)
}

func (s minSteps) loop(count uint32, maxIters int, blocksPerSM uint32, rule cuda.LoopRule) (cuda.Loop, error) {
	return s.SparseLoop(s.prog, count, maxIters, blocksPerSM, rule)
}

// loop keeps a sum program's iterations on the device; BC's forward pass
// advances its depth in each (begin set it for the loop's first).
func (s sumSteps) loop(count uint32, maxIters int, blocksPerSM uint32, rule cuda.LoopRule) (cuda.Loop, error) {
	return s.SparseLoop(*s.p, count, maxIters, blocksPerSM, rule) // loopRule gives only SSSP near-far
}

// FixedSamples is the number of sparse steps the hybrid runs on the host,
// per program and backend, before it keeps sparse iterations on the device:
// the ESP model's fixed cost is the shortest of them (a single step can be
// an outlier, e.g. the first of a process, 1.2 ms instead of 20 µs on the
// 2048 grid, and the model would then prefer dense steps for good).
const FixedSamples = 3

// loopable reports whether an iteration in mode starts a device loop: st
// can loop, the backend may, and the iteration is sparse because sparse was
// forced, or, in the hybrid, once FixedSamples sparse steps have run on the
// host (they calibrate the ESP model's fixed cost), because the frontier is
// small or the calibrated ESP model chose it (decide's rules, which the
// device loop applies to the iterations after this one; see loopRule).
func (b *Backend) loopable(st steps, key int, opts engine.RunOptions, mode engine.Mode, edges uint64) (loopSteps, bool) {
	ls, ok := st.(loopSteps)
	if !ok || b.noLoop || mode != engine.Sparse {
		return nil, false
	}
	switch opts.Mode {
	case engine.Sparse:
		return ls, true
	case engine.Hybrid:
		if b.fixedSamples[key] < FixedSamples {
			return nil, false
		}
		// decide took it sparse (not the every-vertex case, which is dense):
		// by the small-frontier rule, or by the model once calibrated.
		return ls, edges*SparseFastRatio < b.l.NumArcs || b.arcRef[key] != 0
	}
	return nil, false
}

// The device loop's grid: its barriers cost more with more blocks, while a
// large frontier needs more blocks in flight.
const (
	// LoopMinBlocksPerSM is the smallest grid, for small frontiers.
	LoopMinBlocksPerSM = 2
	// LoopMaxBlocksPerSM is the most asked for (the kernel takes at most
	// what fits on an SM).
	LoopMaxBlocksPerSM = 8
	// loopGroupsPerBlock is the number of 64-vertex advance groups per block
	// that a grid is sized for; a loop whose frontier outgrows twice that
	// stops, and the next one gets a larger grid.
	loopGroupsPerBlock = 2
	loopGroupVertices  = 64 // kVertsPerBlock in kernels/sparsework.cuh
)

// loopGrid returns the blocks per SM of a device loop that starts from a
// frontier of count vertices, and the largest frontier that grid is for
// (0: any), unless WithLoopBlocksPerSM fixed the grid.
func (b *Backend) loopGrid(count uint64) (uint32, uint64) {
	if b.loopBlocks > 0 {
		return b.loopBlocks, 0
	}
	level := uint64(b.sms) * loopGroupVertices * loopGroupsPerBlock // the frontier one block per SM is for
	per := min(max((count+level-1)/level, LoopMinBlocksPerSM), LoopMaxBlocksPerSM)
	if per == LoopMaxBlocksPerSM {
		return uint32(per), 0
	}
	return uint32(per), 2 * per * level
}

// loopRule is the device loop's copy of the hybrid's rules for program key
// (cuda.LoopRule): the pull rule's state, and the ESP model and EDP as they
// are now; and SSSP's near-far bucket width. The model stays frozen for the
// loop; its iterations update the per-arc cost for the next one
// (calibrateLoop).
func (b *Backend) loopRule(key int, opts engine.RunOptions, canPull bool, unsettled, unsettledVertices uint64) cuda.LoopRule {
	r := cuda.LoopRule{N: b.l.NumVertices, M: b.l.NumArcs, Unsettled: unsettled, UnsettledVertices: unsettledVertices,
		Alpha: sampler.Alpha, Beta: sampler.Beta, PullArcRatio: sampler.PullArcRatio, FastRatio: SparseFastRatio,
		Hybrid: opts.Mode == engine.Hybrid, CanPull: canPull, PullInLoop: b.loopPulls(key, canPull)}
	r.PullMinArcs = b.pullMinArcs(key, r.PullInLoop)
	edp, okEDP := b.edp[key]
	cost, okCost := b.arcCost[key]
	if okEDP && okCost && b.arcRef[key] != 0 {
		r.Calibrated, r.Fixed, r.ArcCost, r.EDP = true, b.fixed[key], cost, edp.Seconds()
	}
	if nearFarProg(key) {
		r.Delta = b.delta
	}
	return r
}

// LoopPullVerticesPerSM bounds the layouts whose BFS pulls inside device
// loops: at most this many vertices per SM (32 per thread of the loop's
// largest grid, 4 blocks of 256 per SM). A loop's pull step scans every
// vertex on that grid, where the host's pull kernels fill the GPU:
// Kronecker 24 (16.8M vertices, 128 per thread on an H200) took 3.9 ms
// a BFS with in-loop pulls against 3.3 with the host's, R-MAT 21 (2.1M)
// 0.63–0.67 against 0.76–0.80 (bench/results/2026-11-27-loop-pull.md).
const LoopPullVerticesPerSM = 4 * 256 * 32

// loopPulls reports whether program key's device loops run its pull
// steps themselves (cuda.LoopRule.PullInLoop): BFS where pull steps may
// run (canPull: the hybrid, the in-adjacency on the device) on a layout
// of at most LoopPullVerticesPerSM vertices per SM, unless
// WithoutLoopPulls or one of them lost to the push it replaced
// (weighLoopPull). A pull step in the loop scans the unsettled vertices'
// in-rows for a neighbour at the frontier's level: no conversion of the
// frontier to flags and back, no launches, no return to the host.
func (b *Backend) loopPulls(key int, canPull bool) bool {
	return canPull && key == cuda.ProgBFS && !b.noLoopPull && !b.loopPullLost[key] &&
		b.l.NumVertices <= uint64(b.sms)*LoopPullVerticesPerSM
}

// weighLoopPull weighs a pull step that took secs inside a device loop
// against the push model's estimate for its frontier of edges out-arcs
// (a loop iteration's fixed cost plus the calibrated cost per arc): one
// that cost more ends program key's in-loop pulls on this backend, and
// its pull steps return to the host's (bounded by pullMinArcs). On a web
// crawl whose unsettled vertices mostly scan whole in-rows
// (uk-2007-05_100000: 128–220 µs a pull step against 40–60 µs a push)
// the first trial pays for it; on R-MAT the in-loop pulls stay (H200,
// R-MAT 21 BFS 0.77–0.82 → 0.65–0.67 ms).
func (b *Backend) weighLoopPull(key int, edges uint64, secs float64) {
	fixed, cost, ok := b.loopPushModel(key)
	if ok && secs > fixed+cost*float64(edges) {
		b.loopPullLost[key] = true
	}
}

// loopPushModel returns program key's push model inside a device loop: a
// loop iteration's fixed cost and the calibrated cost per frontier arc
// (seconds), or false before the per-arc cost is calibrated.
func (b *Backend) loopPushModel(key int) (fixed, perArc float64, ok bool) {
	perArc = b.arcCost[key]
	if b.arcRef[key] == 0 || perArc <= 0 {
		return 0, 0, false
	}
	return b.loopFixed[key], perArc, true
}

// pullMinArcs returns the fewest frontier out-arcs for which a pull step
// of program key may pay on this backend (0: no bound yet): the shortest
// pull iteration measured so far (its conversions, launches and return to
// the host included; with inLoop, the shortest pull step inside a device
// loop), beyond a device-loop iteration's fixed cost, over the calibrated
// cost of a pushed arc. The pull rule (sampler.PullPays) counts arcs only;
// on a small graph a device-loop push of a whole frontier costs less than
// any host pull step (uk-2007-05_100000, H100: 38 µs for 1.58M arcs
// against 65–119 µs a pull iteration), so once a run has measured one,
// pull steps are kept to frontiers whose push costs more.
func (b *Backend) pullMinArcs(key int, inLoop bool) uint64 {
	pulls := b.pullSecs
	if inLoop {
		pulls = b.loopPullSecs
	}
	secs, ok := pulls[key]
	fixed, cost, calibrated := b.loopPushModel(key)
	if !ok || !calibrated || secs <= fixed {
		return 0
	}
	return uint64((secs - fixed) / cost)
}

// toList makes the current frontier a list unless it is one, recording
// the conversion in tr; the list is then the frontier's only form.
func toList(st steps, hasList, hasFlags *bool, tr *engine.IterationTrace) error {
	if !*hasList {
		ms, err := st.ToList()
		if err != nil {
			return err
		}
		tr.Phases = append(tr.Phases, engine.Phase{Name: "to-list", Seconds: float64(ms) / 1e3})
	}
	*hasList, *hasFlags = true, false
	return nil
}

// loop runs a device loop from the current frontier (made a list first),
// recording the conversion in tr.
func (b *Backend) loop(ls loopSteps, st steps, count uint64, maxIters int, rule cuda.LoopRule, hasList, hasFlags *bool, tr *engine.IterationTrace) (cuda.Loop, error) {
	if err := toList(st, hasList, hasFlags, tr); err != nil {
		return cuda.Loop{}, err
	}
	endRange := cuda.Range("device loop")
	defer endRange()
	perSM, maxCount := b.loopGrid(count)
	rule.MaxCount = maxCount
	return ls.loop(uint32(count), maxIters, perSM, rule)
}

// step runs one iteration in mode (dense, sparse or pull) on the host's
// side of the loop: the frontier conversion it needs, the step, the EDP or
// ESP model's update, and the kernels' phases into tr.
func (b *Backend) step(st steps, key int, mode engine.Mode, count, edges uint64, hasList, hasFlags *bool, tr *engine.IterationTrace) (cuda.StepCounters, error) {
	var c cuda.StepCounters
	var times []float32
	var names []string
	var err error
	endRange := cuda.Range(modeName(mode) + " step")
	defer endRange()
	if mode == modePull || mode == engine.Dense {
		if !*hasFlags {
			ms, err := st.ToFlags(uint32(count))
			if err != nil {
				return c, err
			}
			tr.Phases = append(tr.Phases, engine.Phase{Name: "to-flags", Seconds: float64(ms) / 1e3})
		}
		if mode == modePull {
			c, times, err = st.pull()
			names = cuda.PullPhases
		} else {
			c, times, err = st.dense(false)
			names = cuda.DensePhases
			if err == nil {
				// A dense iteration costs about the same whatever the
				// frontier: once one has run, its time is the best EDP.
				b.edp[key] = msDuration(sum(times))
			}
		}
		*hasList, *hasFlags = false, true
	} else {
		if err := toList(st, hasList, hasFlags, tr); err != nil {
			return c, err
		}
		c, times, err = st.sparse(uint32(count))
		names = cuda.SparsePhases
		if err == nil {
			b.calibrate(key, edges, float64(sum(times))/1e3)
		}
	}
	if err != nil {
		return c, err
	}
	for k, t := range times {
		tr.Phases = append(tr.Phases, engine.Phase{Name: names[k], Seconds: float64(t) / 1e3})
	}
	return c, nil
}

// DryEDPSteps is the number of dry dense steps whose fastest is a program's
// first EDP: the first launch of a kernel in a process may include loading
// it (CUDA's lazy module loading). On R-MAT 21 a single dry step gave BC's
// forward pass an EDP of 1.9 ms against 0.63 ms for real dense steps, and
// device loops, which run no dense step to correct it, then kept its large
// iterations sparse (1.35 ms instead of 0.65).
const DryEDPSteps = 2

// decide picks an iteration's mode: the forced one, or the hybrid's choice
// between EDP (measured once per program by DryEDPSteps dry dense steps,
// then the last dense step's time) and ESP. ESP is fixed + arcs × arcCost
// (see calibrate) once a large enough real sparse step has run (a frontier
// far larger than that step runs sparse to calibrate it: ExploreRatio);
// before that it is a dry sparse run of a systematic sample of the
// frontier list, whose time beyond fixed is scaled up by frontier/sample
// (the CPU sampler's estimate, less the fixed cost it would scale up with
// the sample).
func (b *Backend) decide(st steps, key int, opts engine.RunOptions, count, edges uint64, hasList, hasFlags *bool, tr *engine.IterationTrace) (engine.Mode, error) {
	l := b.l
	switch {
	case opts.Mode != engine.Hybrid:
		return opts.Mode, nil
	case count == l.NumVertices && b.arcRef[key] == 0:
		// Every vertex active and no sparse step measured yet (a later
		// trial, or a later run on the backend, compares the estimates).
		return engine.Dense, nil
	case edges*SparseFastRatio < l.NumArcs:
		return engine.Sparse, nil
	}
	sampleStart := time.Now()
	edp, ok := b.edp[key]
	if !ok {
		for k := 0; k < DryEDPSteps; k++ {
			_, t, err := st.dense(true)
			if err != nil {
				return 0, fmt.Errorf("dense estimate: %w", err)
			}
			if d := msDuration(sum(t)); k == 0 || d < edp {
				edp = d
			}
		}
		b.edp[key] = edp
	}
	fixed := b.fixed[key]
	if cost, ok := b.arcCost[key]; ok {
		esp := time.Duration((fixed + cost*float64(edges)) * 1e9)
		tr.EDPSeconds, tr.ESPSeconds = edp.Seconds(), esp.Seconds()
		tr.SampleSeconds = time.Since(sampleStart).Seconds()
		if esp < edp || edges > ExploreRatio*b.arcRef[key] {
			return engine.Sparse, nil
		}
		return engine.Dense, nil
	}
	if !*hasList {
		if _, err := st.ToList(); err != nil {
			return 0, err
		}
		*hasList = true
	}
	want := uint64(float64(count) * opts.SampleRate)
	want = min(max(want, sampler.MinSample), sampler.MaxSample, count)
	stride := count / want
	taken := count / stride
	ms, err := st.sample(uint32(taken), uint32(stride))
	if err != nil {
		return 0, fmt.Errorf("sparse estimate: %w", err)
	}
	// Only the part above the fixed cost scales with the frontier.
	esp := time.Duration((fixed + max(float64(ms)/1e3-fixed, 0)*float64(count)/float64(taken)) * 1e9)
	tr.EDPSeconds, tr.ESPSeconds = edp.Seconds(), esp.Seconds()
	tr.SampleSeconds = time.Since(sampleStart).Seconds()
	if esp < edp {
		return engine.Sparse, nil
	}
	return engine.Dense, nil
}

// modePull is the runner's own mode for pull steps (engine.Mode has no pull
// mode: pull is never forced), as in package sampler.
const modePull engine.Mode = 100

func modeName(m engine.Mode) string {
	if m == modePull {
		return "pull"
	}
	return m.String()
}

// calibrate updates the ESP model of prog with a real sparse step over
// edges frontier out-arcs that took t seconds (advance and apply).
func (b *Backend) calibrate(prog int, edges uint64, t float64) {
	b.fixedSamples[prog]++
	b.calibrateAbove(b.fixed, prog, edges, t)
}

// calibrateLoop updates the ESP model's per-arc cost of prog with a device
// loop's iteration over edges frontier out-arcs that took t seconds of
// device time, measured above the shortest loop iteration's time (a loop
// iteration has no launches or copies: the host steps' fixed cost is not
// its own). The model's fixed cost stays the host steps'.
func (b *Backend) calibrateLoop(prog int, edges uint64, t float64) {
	b.calibrateAbove(b.loopFixed, prog, edges, t)
}

// lowerTo sets m[key] to t if it has none or a longer one: the shortest
// time seen.
func lowerTo(m map[int]float64, key int, t float64) {
	if f, ok := m[key]; !ok || t < f {
		m[key] = t
	}
}

// calibrateAbove lowers fixed[prog] to t if it is shorter, and sets the
// per-arc cost from the time above it.
func (b *Backend) calibrateAbove(fixed map[int]float64, prog int, edges uint64, t float64) {
	lowerTo(fixed, prog, t)
	// The largest step is the one most like the large frontiers the hybrid
	// decides on; smaller ones cost more per arc (fewer blocks in flight,
	// hubs), so the model keeps the largest one's cost.
	if edges > 0 && edges*CalibrateRatio >= b.l.NumArcs && edges >= b.arcRef[prog] {
		b.arcRef[prog] = edges
		b.arcCost[prog] = max(t-fixed[prog], 0) / float64(edges)
	}
}

func sum(t []float32) float32 {
	var s float32
	for _, x := range t {
		s += x
	}
	return s
}

func msDuration(ms float32) time.Duration { return time.Duration(float64(ms) * 1e6) }

// nearFarSample is the number of arc weights whose mean sets the default
// near-far bucket width (engine.NearFarSample).
const nearFarSample = engine.NearFarSample

// nearFarDelta returns SSSP's near-far bucket width for the option value
// opt (see WithNearFarDelta), from a sample of the arc weights of kind k
// (weights: the layout's, or a sample of them; nil without weights): 0
// without weights or when off; for float32 weights a float32's bits.
func nearFarDelta(k graph.WeightKind, weights []uint32, opt int64) uint32 {
	return nearFarDeltaTimes(k, weights, opt, engine.NearFarWeights)
}

// nearFarDeltaTimes is nearFarDelta with factor mean weights as the
// default (async runs take engine.AsyncNearFarWeights).
func nearFarDeltaTimes(k graph.WeightKind, weights []uint32, opt int64, factor uint64) uint32 {
	switch {
	case opt < 0 || len(weights) == 0:
		return 0
	case opt > 0:
		return engine.NearFarDeltaOption(k, opt)
	}
	return engine.NearFarDeltaOf(k, weights, factor)
}
