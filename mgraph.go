// Package mgraph is the Go API of the mgraph graph-analytics engine: load a
// graph (a file in any format mgraph reads, a generator spec, or arrays of
// arcs), and run BFS, SSSP, connected components, PageRank, betweenness
// centrality, triangle counting, core numbers, colouring, maximal
// independent sets, personalised PageRank, HITS, SALSA or who-to-follow on
// it, on the GPU when there is one and on all CPU cores otherwise. Results are in the graph's original vertex ids, in slices the
// caller owns.
//
//	g, err := mgraph.Load(ctx, "web.mtx.zst", mgraph.Options{})
//	if err != nil { ... }
//	defer g.Close()
//	levels, stats, err := g.BFS(ctx, 0)
//
// A Graph preprocesses its input once into MultiGraph's dual layout and
// keeps it (and, on a GPU, its device state) for every later run. Its
// methods may be called from several goroutines; runs on one Graph take
// turns.
package mgraph

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/bench"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/format"
	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
)

// Unreached is the BFS level and SSSP distance of a vertex the source does
// not reach.
const Unreached = apps.Unreached

// Backend says where a Graph runs.
type Backend string

const (
	// Auto runs on the GPU when one is usable (and the binary has CUDA)
	// and the graph fits its memory, else on the CPU (Graph.Backend says
	// which); after a fault lost the GPU to the process, on the CPU.
	Auto Backend = ""
	// CPU runs on all cores (Options.Threads).
	CPU Backend = "cpu"
	// CUDA runs on GPU 0; Load fails without one.
	CUDA Backend = "cuda"
)

// Options set how a graph is read, prepared and run. The zero value reads
// the input as it is and runs on the GPU when there is one.
type Options struct {
	// Backend: Auto (default), CPU or CUDA.
	Backend Backend
	// GPUMemoryLimit caps the GPU memory the graph's layout may take
	// (bytes; 0: what the device has free): a larger one fails with CUDA
	// and runs on the CPU with Auto.
	GPUMemoryLimit uint64
	// Threads is the CPU goroutines for reading, preprocessing and the CPU
	// backend (0: all cores).
	Threads int
	// Undirected symmetrizes the input (for edge lists that list each edge
	// once, directed files, generator specs).
	Undirected bool
	// Weights gives an unweighted graph random weights in [1, 64] from
	// WeightSeed (SSSP needs weights); with WeightType Float32Weights,
	// random float32 weights in (0, 1] instead.
	Weights    bool
	WeightSeed uint64
	// WeightType is the type of the graph's weights: AutoWeights (the
	// default: a file's weights are float32 when one of them is not a
	// uint32 integer or mgraph wrote them as float32, uint32 otherwise;
	// FromEdges' are uint32, FromEdgesFloat32's float32), Uint32Weights or
	// Float32Weights (a file's or FromEdges' weights converted; float32
	// ones to uint32 only when they are all integers). SSSP on a graph of
	// float32 weights is SSSPFloat32.
	WeightType WeightType
	// Seed is a generator spec's seed (0 is taken as 1, the CLI's default).
	Seed uint64
	// Mode is how the engines run iterations: "auto" (default: the hybrid,
	// handing a long run with a small frontier over to async), "hybrid"
	// (dense or sparse chosen per iteration by sampling, MultiGraph's),
	// "dense", "sparse", "async" (BFS, SSSP, label-propagation CC,
	// data-driven PageRank and, on the GPU, BC without iterations, over a
	// shared worklist) or "pull" (every iteration a pull step: BFS, SSSP and
	// label-propagation CC).
	Mode string
	// Params are the layout's parameters (nil: the paper's defaults).
	Params *layout.Params
	// CacheDir, when not empty, is a layout cache directory for Load: a
	// layout built from the same input (the file's bytes, or the spec and
	// seed), options and parameters is loaded from it instead of read and
	// preprocessed again, and a new one is stored there, the least recently
	// used layouts beyond the cache's size limit removed (the CLI's, from
	// $MGRAPH_CACHE_MAX or a tenth of the disk). The API's entries are its
	// own: the CLI reads files with options of its own.
	CacheDir string
}

// WeightType is the type of a graph's arc weights (Options.WeightType,
// Graph.WeightType).
type WeightType string

const (
	// AutoWeights takes the weights' type from the input (Options only).
	AutoWeights WeightType = ""
	// Uint32Weights are unsigned integers; SSSP gives uint32 distances.
	Uint32Weights WeightType = "uint32"
	// Float32Weights are finite, non-negative float32s; SSSPFloat32 gives
	// float32 distances.
	Float32Weights WeightType = "float32"
)

// readType returns the reading option of t, checked.
func (t WeightType) readType() (format.WeightType, error) {
	switch t {
	case AutoWeights:
		return format.WeightsAuto, nil
	case Uint32Weights:
		return format.WeightsUint32, nil
	case Float32Weights:
		return format.WeightsFloat32, nil
	}
	return format.WeightsAuto, fmt.Errorf("mgraph: unknown weight type %q (want uint32, float32 or auto)", string(t))
}

// Stats describe one run: the trial (the call, to the result in host
// memory in original ids), the engine's share (the iterations) and the
// result's mapping and copy, and what the iterations did.
type Stats struct {
	Trial, Engine, Copy time.Duration
	Iterations          int
	// MTEPS is the papers' rate from the trial time (|E|/t; |E|·iterations/t
	// for PageRank, personalised PageRank, HITS and SALSA; 2|E|·sources/t
	// for BC).
	MTEPS float64
}

// Graph is a graph prepared for analysis. Close releases its device memory.
type Graph struct {
	l       *layout.Layout
	backend engine.Backend
	closer  func() error
	mode    engine.Mode
	threads int
	// bwd is the CPU backend over the transposed graph that BC's backward
	// pass needs on a directed graph (the GPU's Brandes needs none), made on
	// first use.
	bwd engine.Backend
	// pinned maps the address of every live pinned HostBuffer of the
	// graph to its bytes: Into delivers straight into those.
	pinned map[uintptr]uint64
	mu     sync.Mutex
}

// Load reads path (a graph file in any format mgraph reads: .mtx, .el,
// .wel, .gr, .mgb, .sg, .wsg, optionally .gz/.zst; or a generator spec such
// as "rmat:20" or "grid:1024") and prepares it.
func Load(ctx context.Context, path string, opts Options) (*Graph, error) {
	if opts.CacheDir != "" {
		return loadCached(ctx, path, opts)
	}
	el, err := readInput(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	return prepare(ctx, el, opts)
}

// readInput reads the graph file path, or generates the spec path names.
func readInput(ctx context.Context, path string, opts Options) (*graph.EdgeList, error) {
	spec, isSpec, err := generatorSpec(path)
	if err != nil {
		return nil, err
	}
	if isSpec {
		el, err := spec.Generate(ctx, opts.seed(), opts.Threads, nil)
		if err != nil {
			return nil, fmt.Errorf("mgraph: generate %s: %w", spec, err)
		}
		return el, nil
	}
	wt, err := opts.WeightType.readType()
	if err != nil {
		return nil, err
	}
	el, _, err := format.ReadFile(ctx, path, format.ReadOptions{Workers: opts.Threads, WeightType: wt})
	if err != nil {
		return nil, fmt.Errorf("mgraph: %w", err)
	}
	return el, nil
}

// generatorSpec returns the generator spec path names when no file is
// there (isSpec), or that path is a file.
func generatorSpec(path string) (spec gen.Spec, isSpec bool, err error) {
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return gen.Spec{}, false, nil
	}
	spec, err = gen.ParseSpec(path)
	if err != nil {
		return gen.Spec{}, false, fmt.Errorf("mgraph: %s: no such file, and not a generator spec (%v)", path, err)
	}
	return spec, true, nil
}

// seed is a generator spec's seed (0 is taken as 1, the CLI's default).
func (opts Options) seed() uint64 { return max(opts.Seed, 1) }

// FromEdges prepares the graph of numVertices vertices with the arcs
// src[i] → dst[i] (weights nil, or one uint32 per arc; Options.WeightType
// Float32Weights converts them to float32). An undirected graph lists
// each edge once (or both ways; duplicates are kept as parallel arcs). The
// slices are copied.
func FromEdges(ctx context.Context, numVertices int, src, dst, weights []uint32, directed bool, opts Options) (*Graph, error) {
	el, err := edgeList(numVertices, src, dst, len(weights), weights != nil)
	if err != nil {
		return nil, err
	}
	el.Weights = slices.Clone(weights)
	return prepareEdges(ctx, el, directed, opts)
}

// FromEdgesFloat32 is FromEdges with float32 weights (weights nil, or one
// finite, non-negative float32 per arc; -0 is taken as 0): SSSPFloat32
// runs on the graph. Options.WeightType Uint32Weights converts them to
// integers, which they must then all be.
func FromEdgesFloat32(ctx context.Context, numVertices int, src, dst []uint32, weights []float32, directed bool, opts Options) (*Graph, error) {
	el, err := edgeList(numVertices, src, dst, len(weights), weights != nil)
	if err != nil {
		return nil, err
	}
	if weights != nil {
		el.Weights, el.WeightKind = make([]uint32, len(weights)), graph.Float32Weights
		for i, w := range weights {
			b, err := graph.Float32WeightBits(w)
			if err != nil {
				return nil, fmt.Errorf("mgraph: arc %d (%d→%d): %w", i, src[i], dst[i], err)
			}
			el.Weights[i] = b
		}
	}
	return prepareEdges(ctx, el, directed, opts)
}

// edgeList checks FromEdges' arrays (weights: how many, and whether given)
// and returns the directed list of their arcs, without weights.
func edgeList(numVertices int, src, dst []uint32, weights int, weighted bool) (*graph.EdgeList, error) {
	if numVertices < 0 {
		return nil, fmt.Errorf("mgraph: %d vertices", numVertices)
	}
	if len(src) != len(dst) || (weighted && weights != len(src)) {
		return nil, fmt.Errorf("mgraph: %d sources, %d destinations and %d weights", len(src), len(dst), weights)
	}
	return &graph.EdgeList{NumVertices: uint64(numVertices), Src: slices.Clone(src), Dst: slices.Clone(dst), Directed: true}, nil
}

// prepareEdges is prepare for FromEdges' list: undirected when asked, its
// weights of opts' type.
func prepareEdges(ctx context.Context, el *graph.EdgeList, directed bool, opts Options) (*Graph, error) {
	if !directed {
		opts.Undirected = true
	}
	if err := el.Validate(); err != nil {
		return nil, fmt.Errorf("mgraph: %w", err)
	}
	switch opts.WeightType {
	case Uint32Weights, Float32Weights:
		k, _ := graph.ParseWeightKind(string(opts.WeightType))
		if err := el.ConvertWeights(k, opts.Threads); err != nil {
			return nil, fmt.Errorf("mgraph: weight type %s: %w", opts.WeightType, err)
		}
	}
	return prepare(ctx, el, opts)
}

// prepare applies opts' transforms to el, builds the layout and the backend.
func prepare(ctx context.Context, el *graph.EdgeList, opts Options) (*Graph, error) {
	l, err := buildLayout(ctx, el, opts)
	if err != nil {
		return nil, err
	}
	return newGraph(l, opts)
}

// settings returns opts' engine mode, layout parameters and whether the
// graph runs on the GPU, checked.
func (opts Options) settings() (engine.Mode, layout.Params, bool, error) {
	mode := engine.Auto
	if opts.Mode != "" {
		m, err := engine.ParseMode(opts.Mode)
		if err != nil {
			return 0, layout.Params{}, false, fmt.Errorf("mgraph: %w", err)
		}
		mode = m
	}
	p := layout.DefaultParams()
	if opts.Params != nil {
		p = *opts.Params
	}
	if opts.Backend != Auto && opts.Backend != CPU && opts.Backend != CUDA {
		return 0, layout.Params{}, false, fmt.Errorf("mgraph: unknown backend %q (want cpu, cuda or auto)", opts.Backend)
	}
	useGPU := opts.Backend == CUDA || (opts.Backend == Auto && gpu.Available())
	return mode, p, useGPU, nil
}

// buildLayout applies opts' transforms to el and builds its layout (on the
// GPU when the graph will run there and fits).
func buildLayout(ctx context.Context, el *graph.EdgeList, opts Options) (*layout.Layout, error) {
	if err := el.Validate(); err != nil {
		return nil, fmt.Errorf("mgraph: %w", err)
	}
	_, p, useGPU, err := opts.settings()
	if err != nil {
		return nil, err
	}
	if opts.Undirected && el.Directed {
		el.Symmetrize(opts.Threads)
	}
	if _, err := opts.WeightType.readType(); err != nil {
		return nil, err
	}
	if opts.Weights && !el.Weighted() {
		if opts.WeightType == Float32Weights {
			el.SetRandomFloat32Weights(opts.WeightSeed, opts.Threads)
		} else {
			el.SetRandomWeights(opts.WeightSeed, 1, 64, opts.Threads)
		}
	}
	where := preprocess.OnCPU
	if useGPU {
		where = preprocess.OnAuto
	}
	l, _, err := preprocess.BuildOn(ctx, where, el, p, preprocess.Options{Workers: opts.Threads})
	if err != nil {
		return nil, fmt.Errorf("mgraph: %w", err)
	}
	return l, nil
}

// newGraph makes the graph of layout l with opts' backend and mode.
func newGraph(l *layout.Layout, opts Options) (*Graph, error) {
	mode, _, useGPU, err := opts.settings()
	if err != nil {
		return nil, err
	}
	g := &Graph{l: l, mode: mode, threads: opts.Threads}
	if useGPU {
		b, err := gpu.New(l, opts.Threads, gpu.WithMemoryLimit(opts.GPUMemoryLimit))
		if err != nil && opts.Backend == Auto && gpu.Unfit(err) {
			useGPU = false // it does not fit, or an earlier fault lost the GPU: the CPU runs it
		} else if err != nil {
			return nil, fmt.Errorf("mgraph: %w", err)
		} else {
			g.backend, g.closer = b, b.Close
		}
	}
	if !useGPU {
		b, err := cpu.New(l, opts.Threads)
		if err != nil {
			return nil, fmt.Errorf("mgraph: %w", err)
		}
		g.backend, g.closer = b, func() error { return nil }
	}
	return g, nil
}

// Close releases the graph's device memory; the graph cannot run after.
// Closing twice is harmless.
func (g *Graph) Close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closer == nil {
		return nil
	}
	err := g.closer()
	g.closer, g.backend = nil, nil
	return err
}

// NumVertices returns the number of vertices.
func (g *Graph) NumVertices() int { return int(g.l.NumVertices) }

// NumArcs returns the number of arcs (both directions of an undirected
// edge count).
func (g *Graph) NumArcs() int { return int(g.l.NumArcs) }

// Directed reports whether the graph is directed.
func (g *Graph) Directed() bool { return g.l.Directed }

// Weighted reports whether the arcs have weights.
func (g *Graph) Weighted() bool { return g.l.Weighted }

// WeightType returns the type of the arcs' weights: Float32Weights, or
// Uint32Weights (also for an unweighted graph).
func (g *Graph) WeightType() WeightType {
	if g.l.Weighted && g.l.WeightKind == graph.Float32Weights {
		return Float32Weights
	}
	return Uint32Weights
}

// float32Weights reports whether the graph's weights are float32.
func (g *Graph) float32Weights() bool { return g.WeightType() == Float32Weights }

// Backend returns where the graph runs: CPU or CUDA.
func (g *Graph) Backend() Backend {
	if g.backend != nil && g.backend.Name() == "cuda" {
		return CUDA
	}
	return CPU
}

// run runs app under the graph's lock and returns its result copied into a
// slice the caller owns.
func run[V uint32 | float32 | float64](ctx context.Context, g *Graph, app string, sources []uint32, pr apps.PageRankOptions, depth int) ([]V, Stats, error) {
	values := make([]V, g.NumVertices())
	st, err := runInto(ctx, g, app, sources, pr, depth, values)
	if err != nil {
		return nil, st, err
	}
	return values, st, nil
}

// runInto runs app under the graph's lock and copies its result into dst
// (one element per vertex) on all cores: the backend may reuse its own
// buffer at the next run. When dst is a pinned HostBuffer's memory the
// backend writes the result there itself and nothing is copied.
func runInto[V uint32 | float32 | float64](ctx context.Context, g *Graph, app string, sources []uint32, pr apps.PageRankOptions, depth int, dst []V) (Stats, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.backend == nil {
		return Stats{}, fmt.Errorf("mgraph: %s on a closed graph", app)
	}
	if len(dst) != g.NumVertices() {
		return Stats{}, fmt.Errorf("mgraph: %s: a result buffer of %d elements for %d vertices", app, len(dst), g.NumVertices())
	}
	bwd, err := g.backward(ctx, app)
	if err != nil {
		return Stats{}, fmt.Errorf("mgraph: %s: %w", app, err)
	}
	start := time.Now()
	direct, undo := collectInto(g, dst)
	out, res, err := apps.Run(ctx, app, g.backend, bwd, sources, pr, engine.RunOptions{Mode: g.mode, MaxIterations: depth})
	undo()
	if err != nil {
		return Stats{}, fmt.Errorf("mgraph: %s: %w", app, err)
	}
	src, ok := out.([]V)
	if !ok {
		if _, f := out.([]float32); f && app == "sssp" {
			return Stats{}, fmt.Errorf("mgraph: sssp: %w: its result is a []float32 (SSSPFloat32)", apps.ErrFloat32Weights)
		}
		return Stats{}, fmt.Errorf("mgraph: %s returns %T, not %T", app, out, dst)
	}
	if !direct || len(src) != len(dst) || &src[0] != &dst[0] {
		par.Copy(dst, src, g.threads, 1<<16)
	}
	trial := time.Since(start)
	return Stats{Trial: trial, Engine: secs(res.Seconds), Copy: secs(res.CopySeconds), Iterations: res.Iterations,
		MTEPS: bench.TEPS(app, g.l.NumArcs, res.Iterations, len(sources), trial.Seconds()) / 1e6}, nil
}

// Into runs app ("bfs", "bfs-tree", "sssp", "cc", "pr" or "bc"; sources as
// the methods take them: bfs, bfs-tree and sssp use sources[0], bc all; pr
// uses pr) and writes its result into dst, one element per vertex:
// []uint32 for bfs, bfs-tree, sssp and cc, []float32 for sssp on a graph
// of float32 weights, []float64 for pr and bc. It allocates nothing per call, for callers that
// reuse their buffers (the Python package writes into NumPy arrays).
func (g *Graph) Into(ctx context.Context, app string, sources []uint32, pr PageRankOptions, dst any) (Stats, error) {
	return g.IntoWith(ctx, app, sources, pr, RunOptions{}, dst)
}

// RunOptions are a run's options beyond its app's arguments.
type RunOptions struct {
	// DepthLimit (> 0) stops bfs and bfs-tree that many levels from the
	// source: vertices further away are Unreached. A graph in mode async
	// refuses it (async has no levels to stop at).
	DepthLimit int
}

// IntoWith is Into with run options ro.
func (g *Graph) IntoWith(ctx context.Context, app string, sources []uint32, pr PageRankOptions, ro RunOptions, dst any) (Stats, error) {
	if ro.DepthLimit < 0 || (ro.DepthLimit > 0 && app != "bfs" && app != "bfs-tree") {
		return Stats{}, fmt.Errorf("mgraph: %s: a depth limit of %d (bfs and bfs-tree take one > 0)", app, ro.DepthLimit)
	}
	switch app {
	case "bfs", "bfs-tree", "sssp":
		if len(sources) == 0 {
			return Stats{}, fmt.Errorf("mgraph: %s needs a source", app)
		}
		sources = sources[:1]
	case "bc":
		if len(sources) == 0 {
			return Stats{}, fmt.Errorf("mgraph: bc needs at least one source")
		}
	case "cc", "pr":
		sources = nil
	default:
		return Stats{}, fmt.Errorf("mgraph: unknown app %q (want bfs, bfs-tree, sssp, cc, pr or bc)", app)
	}
	switch d := dst.(type) {
	case []uint32:
		return runInto(ctx, g, app, sources, pr.options(), ro.DepthLimit, d)
	case []float32:
		if app != "sssp" || !g.float32Weights() {
			return Stats{}, fmt.Errorf("mgraph: %s: a result buffer of type []float32 (only sssp on a graph of float32 weights has one)", app)
		}
		return runInto(ctx, g, app, sources, pr.options(), ro.DepthLimit, d)
	case []float64:
		return runInto(ctx, g, app, sources, pr.options(), ro.DepthLimit, d)
	}
	return Stats{}, fmt.Errorf("mgraph: %s: a result buffer of type %T (want []uint32, []float32 or []float64)", app, dst)
}

// backward returns the backend BC's backward pass runs on: the forward one,
// unless the graph is directed and the backend cannot run Brandes whole
// (the CPU): then a CPU backend over the transposed graph, built once. The
// caller holds g.mu.
func (g *Graph) backward(ctx context.Context, app string) (engine.Backend, error) {
	_, whole := g.backend.(engine.BrandesBackend)
	if app != "bc" || !g.l.Directed || whole {
		return g.backend, nil
	}
	if g.bwd == nil {
		el := apps.OriginalCSR(g.l, g.threads).IntoEdgeList(g.threads) // the CSR is not used again
		el.Transpose()
		lt, err := preprocess.Build(ctx, el, g.l.Params, preprocess.Options{Workers: g.threads})
		if err != nil {
			return nil, fmt.Errorf("the transposed layout: %w", err)
		}
		b, err := cpu.New(lt, g.threads)
		if err != nil {
			return nil, err
		}
		g.bwd = b
	}
	return g.bwd, nil
}

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// BFS returns every vertex's level (hop distance) from source, Unreached
// where source does not reach.
func (g *Graph) BFS(ctx context.Context, source uint32) ([]uint32, Stats, error) {
	return run[uint32](ctx, g, "bfs", []uint32{source}, apps.PageRankOptions{}, 0)
}

// BFSWithin is BFS stopped depth levels from source (depth > 0): vertices
// further away are Unreached (NetworkX's depth_limit).
func (g *Graph) BFSWithin(ctx context.Context, source uint32, depth int) ([]uint32, Stats, error) {
	if depth <= 0 {
		return nil, Stats{}, fmt.Errorf("mgraph: bfs: a depth limit of %d (want > 0)", depth)
	}
	return run[uint32](ctx, g, "bfs", []uint32{source}, apps.PageRankOptions{}, depth)
}

// BFSParents returns the BFS tree from source as every vertex's parent
// (GAPBS's BFS result, cuGraph's predecessors): source's parent is source,
// an unreached vertex's Unreached, and a reached vertex's is a vertex one
// level up with an arc to it (the same one on every backend and mode).
func (g *Graph) BFSParents(ctx context.Context, source uint32) ([]uint32, Stats, error) {
	return run[uint32](ctx, g, "bfs-tree", []uint32{source}, apps.PageRankOptions{}, 0)
}

// SSSP returns every vertex's shortest-path distance from source over the
// uint32 arc weights (the graph must be weighted), Unreached where source
// does not reach. A graph of float32 weights has float32 distances:
// SSSPFloat32 (SSSP refuses it, with an error wrapping
// apps.ErrFloat32Weights).
func (g *Graph) SSSP(ctx context.Context, source uint32) ([]uint32, Stats, error) {
	if g.float32Weights() {
		return nil, Stats{}, fmt.Errorf("mgraph: sssp: %w: use SSSPFloat32", apps.ErrFloat32Weights)
	}
	return run[uint32](ctx, g, "sssp", []uint32{source}, apps.PageRankOptions{}, 0)
}

// SSSPFloat32 returns every vertex's shortest-path distance from source
// over the float32 arc weights (the graph's WeightType must be
// Float32Weights), +Inf where source does not reach. A distance is the
// least, over the paths, of the path's float32 sum taken in path order
// (each add rounded to nearest), the same on every backend and mode;
// float64 sums of the same weights (NetworkX's) differ from it by the
// rounding, about 6e-8 relative per arc of a path. A path whose sum passes
// float32's largest value reads +Inf too.
func (g *Graph) SSSPFloat32(ctx context.Context, source uint32) ([]float32, Stats, error) {
	if !g.float32Weights() {
		return nil, Stats{}, fmt.Errorf("mgraph: sssp: the graph's weights are %s: use SSSP (or load it with WeightType Float32Weights)", g.WeightType())
	}
	return run[float32](ctx, g, "sssp", []uint32{source}, apps.PageRankOptions{}, 0)
}

// ConnectedComponents labels every vertex with its component, named by the
// smallest vertex id in it (weak components of a directed graph are not
// computed: load it with Options.Undirected).
func (g *Graph) ConnectedComponents(ctx context.Context) ([]uint32, Stats, error) {
	return run[uint32](ctx, g, "cc", nil, apps.PageRankOptions{}, 0)
}

// PageRankOptions are PageRank's parameters; the zero value is damping
// 0.85, tolerance 1e-4 (Σ|Δr|) and at most 20 iterations.
type PageRankOptions struct {
	Damping       float64
	Tolerance     float64
	MaxIterations int
}

// PageRank returns every vertex's rank (they sum to 1; the rank of vertices
// without out-arcs is spread over all vertices, as GAPBS and NetworkX do).
func (g *Graph) PageRank(ctx context.Context, opts PageRankOptions) ([]float64, Stats, error) {
	return run[float64](ctx, g, "pr", nil, opts.options(), 0)
}

// options fills in the defaults.
func (o PageRankOptions) options() apps.PageRankOptions {
	pr := apps.DefaultPageRankOptions()
	if o.Damping != 0 {
		pr.Damping = o.Damping
	}
	if o.Tolerance != 0 {
		pr.Tolerance = o.Tolerance
	}
	if o.MaxIterations != 0 {
		pr.MaxIterations = o.MaxIterations
	}
	return pr
}

// BetweennessCentrality returns every vertex's betweenness (Brandes),
// summed over the paths from the given sources, unnormalised (each ordered
// pair of an undirected graph counts once per direction).
func (g *Graph) BetweennessCentrality(ctx context.Context, sources []uint32) ([]float64, Stats, error) {
	if len(sources) == 0 {
		return nil, Stats{}, fmt.Errorf("mgraph: bc needs at least one source")
	}
	return run[float64](ctx, g, "bc", slices.Clone(sources), apps.PageRankOptions{}, 0)
}
