package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/bench"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/atomicfile"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/ops"
	"github.com/spf13/pflag"
)

// runFlags are the flags of `mgraph run`.
type runFlags struct {
	in          inputFlags
	lf          layoutFlags
	mode        string
	backend     string
	source      int64
	sources     int
	from        string
	seed        uint64
	trials      int
	validate    bool
	json        bool
	out         string
	trace       string
	weights     int64
	noPull      bool
	damping     float64
	tolerance   float64
	maxIter     int
	gpuSplit    string
	gpuNoLoop   bool
	gpuOverlap  bool
	gpuPartPull bool // --gpu-part-pull, deprecated: no effect
	gpuNoBlock  bool
	gpuNoClust  bool
	gpuClustBl  uint
	gpuNoRows   bool
	gpuNoLPull  bool
	gpuAsyncBl  uint32
	gpuStream   bool
	gpuMemMax   string
	gpus        string // --gpus: a count or all
	parts       int
	partitioner string
	exchange    string
	autoCUDA    bool // --backend auto chose the GPU
	cpuProfile  string
	gpuLoopBl   uint32
	gpuDelta    int64
	engine      string
	lb          string
	// set reports whether a flag was given on the command line.
	set func(name string) bool
}

func runCommand() command {
	return command{
		name:    "run",
		summary: "run a graph program: " + strings.Join(apps.Names, ", "),
		usage:   "[flags] APP GRAPH",
		help: `APP is one of:
  bfs        levels from a source (hop distance)
  bfs-tree   BFS parents from a source (GAPBS's BFS result: the source is its own parent)
  sssp       shortest-path distances from a source over the weights:
             uint32 distances over uint32 weights, float32 ones over
             float32 weights (--weight-type; --out writes them in full
             float32 precision, inf where unreached)
  cc         connected components by hooking and compressing (Afforest:
             a few passes over the arcs; the mode does not apply; directed
             input is symmetrized, giving weak components), labelled by
             the smallest original id
  cc-lp      the same components by label propagation through the
             MultiGraph engines (the papers' CC; about diameter iterations)
  pr         PageRank, topology-driven (every vertex every iteration)
  pr-delta   PageRank, data-driven (only vertices whose rank still changes)
  bc         betweenness centrality (Brandes) from one or more sources
or one written with the operators (package ops; --lb picks their load
balancing of an advance):
  tc         triangle count, total and per vertex (undirected)
  kcore      core number of every vertex (undirected)
  color      a proper colouring, Jones–Plassmann with random priorities
             from --seed (undirected; at most max degree + 1 colours)
  mis        a maximal independent set, Luby's rule from --seed
             (undirected; --out writes 1 for members, 0 for the others)
  msf        a minimum spanning forest, Borůvka (undirected; unweighted
             arcs weigh 1; --out writes one edge per line: u, v, weight)
  ppr        personalised PageRank over all the run's sources (--sources,
             default 1; --damping, --tolerance, --max-iterations as pr)
  hits       HITS hub and authority scores (--tolerance, --max-iterations)
  salsa      SALSA hub and authority scores (as hits)
  wtf        who-to-follow: 10 recommendations for the source (a user),
             Gunrock's circle of trust (personalised PageRank, then SALSA)
tc, kcore, color, mis and msf run on the symmetrized layout of a directed
graph. --engine operators runs bfs and sssp with the operators too (the
default, multigraph, is the MultiGraph engines); the operators have no
modes (--mode is refused), and their bfs pulls (bottom-up) by Beamer's
rule unless --no-pull.
GRAPH is a graph file, a layout file from 'mgraph preprocess', or a
generator spec (rmat:20, grid:2048, ...). Layouts are cached (see 'mgraph
preprocess --help'); reading and preprocessing are timed apart from the run.

A trial is the app call: from the call to its result in host memory, in
original ids (what GAPBS times). Its line also shows the engine time (the
iterations) and the copy (the result mapped and copied to the host).
Reading, preprocessing and the layout's upload are timed apart. MTEPS follows the
papers: |E|/time for bfs, sssp, cc and pr-delta, |E| per iteration for pr,
and 2|E|·sources/time for bc, |E| being the graph's arcs; |E|/time for the
operator apps too (tc: the symmetrized layout's arcs, not the oriented half
it intersects).

--out writes one line per vertex (vertex, value): tc its triangles, kcore
its core number, color its colour, mis 1 or 0, ppr its rank; hits and salsa
two values (vertex, hub, authority; .bin: all hubs, then all authorities);
wtf one line per recommendation (rank, vertex), best first; msf one line
per forest edge (u, v, weight; .bin: three uint32s per edge). tc counts
the total only unless --out asks for every vertex's triangles.

--from V,W,... runs bfs or sssp from all of those vertices at once
(cuGraph's multi-source BFS): every vertex gets its distance to the nearest
of them, in every trial. It runs with the operators (--engine operators is
implied), and --validate checks against the minimum of the single-source
references.

Examples:
  mgraph run bfs rmat:20 --undirected --trials 5 --threads 2
  mgraph run sssp grid:1024 --weights 1 --validate
  mgraph run sssp roads.mtx --weight-type float32 --validate --out dist.tsv
  mgraph run pr web.mtx.zst --mode dense --trace pr-trace.json
  mgraph run bc coauthors.mtx.zst --sources 4 --out bc.tsv
  mgraph run bfs rmat:20 --undirected --engine operators --lb twc --validate
  mgraph run sssp road.gr --from 3,17,42 --validate --out nearest.tsv
  mgraph run tc rmat:18 --validate --out triangles.tsv
  mgraph run hits web.mtx.zst --tolerance 1e-8 --max-iterations 100 --out hits.csv`,
		flags: func(fs *pflag.FlagSet) func(context.Context, *env, []string) error {
			f := &runFlags{}
			fs.StringVar(&f.mode, "mode", "auto", "auto (the hybrid, handing a long run over to async where its cost model estimates the rest cheaper so: the fast choice on every graph), hybrid (MultiGraph's: sampling picks dense or sparse per iteration, for the paper's study), dense, sparse, async (bfs, sssp, cc-lp, pr-delta and bc: no iterations, a shared worklist) or pull (every iteration a pull step: bfs, bfs-tree, sssp, cc-lp, pr)")
			fs.StringVar(&f.backend, "backend", "auto", "cpu, cuda, or auto (cuda when a GPU engine is available)")
			fs.Int64Var(&f.source, "source", -1, "source vertex, original id (-1: random, seeded, with out-degree > 0)")
			fs.IntVar(&f.sources, "sources", 0, "number of random sources: bfs, sssp and wtf use one per trial (default: trials), bc and ppr use all (default 1)")
			fs.StringVar(&f.from, "from", "", "bfs, sssp: comma-separated original ids to run from all at once (multi-source: the distance to the nearest; runs with the operators)")
			fs.Uint64Var(&f.seed, "seed", 1, "seed of the random sources, of the hybrid's samples and of color's and mis's priorities")
			fs.IntVar(&f.trials, "trials", 1, "times to run the program")
			fs.BoolVar(&f.validate, "validate", false, "check the result against the serial reference (exit 1 on mismatch; sssp from 2^28 arcs on: the distances' certificate, checked on every core)")
			fs.BoolVar(&f.json, "json", false, "print one JSON object on stdout (graph, app, mode, backend, every trial's trial, engine and copy times and MTEPS, the best and median, the wall times, the validation); the human lines go to stderr")
			fs.StringVar(&f.out, "out", "", "write vertex → value (original ids): TSV, CSV (with a header line) if FILE ends in .csv, or raw little-endian values if it ends in .bin")
			fs.StringVar(&f.trace, "trace", "", "write a JSON record of every iteration (mode, frontier, estimates, phase times; with the operators, of every operator call: advance:lb, filter:equals, ...; with --parts or --gpus, of every superstep: messages, compute, packaging, exchange, unpackaging, all-reduce)")
			fs.BoolVar(&f.noPull, "no-pull", false, "bfs without pull (bottom-up) steps: the hybrid keeps the paper's dense and sparse modes, the operators push only")
			fs.Int64Var(&f.weights, "weights", -1, "give an unweighted graph random weights from this seed (for sssp): integers in [1, 64], or with --weight-type float32 floats in (0, 1]")
			fs.Float64Var(&f.damping, "damping", 0.85, "pr, ppr: damping factor")
			fs.Float64Var(&f.tolerance, "tolerance", 1e-4, "pr, ppr, hits, salsa: stop when the L1 change of the ranks (scores) falls below this")
			fs.StringVar(&f.engine, "engine", "multigraph", "bfs, sssp: multigraph (the MultiGraph engines) or operators (package ops); the operator apps always use the operators")
			fs.StringVar(&f.lb, "lb", "auto", "the operators' load balancing of an advance: auto (Gunrock's rule per call), thread (a thread per frontier vertex), twc (thread, warp or block by degree), lb (equal arcs per thread)")
			fs.StringVar(&f.gpuSplit, "gpu-split", "", "cuda: the dense kernels' work split ROWS,EDGES,SLOTS (rows per heavy row chunk, light edges per chunk, slots per phase 2 chunk; 0 or empty: the default)")
			fs.Uint32Var(&f.gpuAsyncBl, "gpu-async-blocks", 0, "cuda: thread blocks per SM of --mode async runs (0: the default; at most what fits)")
			fs.BoolVar(&f.gpuNoBlock, "gpu-no-block", false, "cuda: --mode auto hands long runs with small frontiers to the grid-wide async engine, never to one thread block (for comparing the two)")
			fs.BoolVar(&f.gpuNoClust, "gpu-no-cluster", false, "cuda: --mode auto never runs a Brandes source (bc) in one thread-block cluster; where one block does not take it on a narrow graph it goes to the grid-wide async engine (for comparing the two)")
			fs.UintVar(&f.gpuClustBl, "gpu-cluster-blocks", 0, "cuda: blocks of the cluster runs' clusters (2, 4, 8 or 16; 0: the largest the device launches)")
			fs.BoolVar(&f.gpuNoRows, "gpu-no-block-rows", false, fmt.Sprintf("cuda: one-block runs and async runs of bfs, sssp and cc read the CSR even where every vertex has at most %d out-arcs, instead of fixed-width rows (for comparing the two)", cuda.BlockRowWidth))
			fs.BoolVar(&f.gpuPartPull, "gpu-part-pull", false, "no effect: bfs and bfs-tree over device parts pull by default (--no-pull turns pulls off)")
			_ = fs.MarkDeprecated("gpu-part-pull", "the device parts pull by default; --no-pull turns pulls off")
			fs.BoolVar(&f.gpuOverlap, "gpu-overlap", false, "cuda, pr over --parts/--gpus: a part gathers its ghosts' row panels first and the rest while their sums travel, instead of all its rows before the exchange")
			fs.BoolVar(&f.gpuNoLPull, "gpu-no-loop-pull", false, "cuda: bfs's device loops stop for the host's pull (bottom-up) steps instead of running them inside the loop (for comparing the two)")
			fs.BoolVar(&f.gpuNoLoop, "gpu-no-loop", false, "cuda: return to the host after every iteration instead of keeping runs of small sparse iterations on the device (for comparing the two)")
			fs.StringVar(&f.gpus, "gpus", "", "every app: run partitioned over N GPUs (or all), a part per GPU unless --parts, the updates exchanged by NCCL")
			fs.IntVar(&f.parts, "parts", 0, "every app: run partitioned into N parts (on the CPU, on one GPU with --backend cuda, or over --gpus), each with its own engines, exchanging updates every iteration")
			fs.StringVar(&f.partitioner, "partition", "auto", "the partitioner of --parts and --gpus: "+partitionNames())
			fs.StringVar(&f.exchange, "exchange", "device", "--parts and --gpus on GPUs: package and exchange the updates on the devices (device) or through the host (host)")
			fs.StringVar(&f.gpuMemMax, "gpu-memory-limit", "", "cuda: the GPU memory the layout may take (e.g. 8GiB; default: what is free); over it, --backend auto runs on the CPU")
			fs.BoolVar(&f.gpuStream, "gpu-pr-stream", false, "cuda, pr: the paper's stream buffer for the light edges instead of reading them row panel by row panel (for comparing the two)")
			fs.Uint32Var(&f.gpuLoopBl, "gpu-loop-blocks", 0, "cuda: thread blocks per SM of the device loops (0: sized by the frontier)")
			fs.Int64Var(&f.gpuDelta, "gpu-near-far", 0, "cuda, sssp: bucket width of the near-far iterations in device loops and async runs, in distance units (a float for float32 weights) (0: 32 (async: 64) times the mean arc weight, negative: off)")
			fs.StringVar(&f.cpuProfile, "cpu-profile", "", "write a Go CPU profile of the trials to FILE ('go tool pprof' reads it)")
			fs.IntVar(&f.maxIter, "max-iterations", -1, "iteration cap (-1: the app's default: 20 for pr, ppr, hits and salsa, none otherwise); for bfs and bfs-tree a depth limit (vertices further away are unreached); tc, kcore, color, mis, msf and wtf take none")
			f.in.register(fs)
			f.lf.register(fs)
			return func(ctx context.Context, e *env, args []string) error {
				f.set = fs.Changed
				return f.run(ctx, e, args)
			}
		},
	}
}

// trialRecord is one trial in the --trace file.
type trialRecord struct {
	Trial   int           `json:"trial"`
	Sources []uint32      `json:"sources,omitempty"`
	Seconds float64       `json:"seconds"`
	MTEPS   float64       `json:"mteps"`
	Result  engine.Result `json:"result"`
	Parts   *partsTrace   `json:"parts,omitempty"` // a partitioned trial's supersteps (--trace only)
}

// traceFile is the --trace document.
type traceFile struct {
	App      string        `json:"app"`
	Graph    string        `json:"graph"`
	Vertices uint64        `json:"vertices"`
	Arcs     uint64        `json:"arcs"`
	Mode     string        `json:"mode,omitempty"` // the MultiGraph engines' mode; none for the operators
	Engine   string        `json:"engine"`         // multigraph, operators, or partitioned (an operator app over parts)
	LB       string        `json:"lb,omitempty"`   // the operators' load balancing
	Backend  string        `json:"backend"`
	Threads  int           `json:"threads"`
	Trials   []trialRecord `json:"trials"`
}

// runSummary is what --json prints: one object per run.
type runSummary struct {
	traceFile
	BestSeconds   float64 `json:"best_seconds"`   // the fastest trial
	MedianSeconds float64 `json:"median_seconds"` // the median trial
	BestEngine    float64 `json:"best_engine_seconds"`
	BestCopy      float64 `json:"best_copy_seconds"`
	BestMTEPS     float64 `json:"best_mteps"`
	Wall          struct {
		LayoutReady  float64 `json:"layout_ready"`  // reading and preprocessing, or the cache
		BackendReady float64 `json:"backend_ready"` // the layout uploaded
		FirstResult  float64 `json:"first_result"`
		TrialsDone   float64 `json:"trials_done"`
		After        float64 `json:"after"` // the layout's download and cache write, after the trials
	} `json:"wall_seconds"` // from the command's start
	// Validation is "ok", "failed: WHY", or "" when not asked for.
	Validation string `json:"validation,omitempty"`
	// Triangles is tc's total; Recommendations wtf's list (of the last
	// trial).
	Triangles       *uint64  `json:"triangles,omitempty"`
	ForestWeight    *uint64  `json:"forest_weight,omitempty"` // msf
	Recommendations []uint32 `json:"recommendations,omitempty"`
}

func (f *runFlags) run(ctx context.Context, e *env, args []string) error {
	if f.json {
		// The human lines go to stderr; stdout gets the object alone.
		human := *e
		human.stdout = e.stderr
		return f.runJSON(ctx, &human, e.stdout, args)
	}
	return f.runJSON(ctx, e, nil, args)
}

// runJSON is run; with js not nil, it writes the run's runSummary there.
func (f *runFlags) runJSON(ctx context.Context, e *env, js io.Writer, args []string) error {
	if len(args) != 2 {
		return usageError("run takes APP and GRAPH, got %d arguments", len(args))
	}
	app, graphPath := args[0], args[1]
	if app == "pr-data" {
		app = "pr-delta"
	}
	if !slices.Contains(apps.Names, app) {
		return usageError("unknown app %q (want one of %s)", app, strings.Join(apps.Names, ", "))
	}
	mode, err := engine.ParseMode(f.mode)
	if err != nil {
		return usageError("--mode: %v", err)
	}
	split, err := parseGPUSplit(f.gpuSplit)
	if err != nil {
		return err
	}
	switch {
	case f.trials < 1:
		return usageError("--trials must be at least 1, got %d", f.trials)
	case f.sources < 0:
		return usageError("--sources must be ≥ 0, got %d", f.sources)
	case f.in.threads < 0:
		return usageError("--threads must be ≥ 0, got %d", f.in.threads)
	case f.maxIter < -1:
		return usageError("--max-iterations must be ≥ 0 (or -1 for the default), got %d", f.maxIter)
	}
	from, err := f.checkFrom(app, mode)
	if err != nil {
		return err
	}
	spec, err := f.checkParts(app, mode, from)
	if err != nil {
		return err
	}
	eng, strategy, err := f.checkEngine(app, mode)
	if err != nil {
		return err
	}
	useOps := apps.UsesOperators(app, eng)
	if f.weights >= 0 {
		f.in.addWeights, f.in.weightSeed = true, uint64(f.weights)
	}
	if err := f.checkBackend(app); err != nil {
		return err
	}

	wall := time.Now()
	// A layout built on the GPU for a run there stays on the device: the run
	// starts from it, and the host gets the rest of it (for the cache and
	// the validation) after the results, as the cache write does.
	keep := f.backend == "cuda" && spec.parts == 0 // a partitioned run reads the whole graph on the host
	var dl *deferredLayout
	var pin *partInput
	if spec.parts > 0 {
		// A partitioned run builds no whole layout: its parts are made from
		// the graph as read, or taken from the cache (dl.l describes the graph).
		if pin, err = loadPartInput(ctx, e, f, app, graphPath, spec); err != nil {
			return err
		}
		dl = &deferredLayout{l: pin.whole, done: true}
	} else if dl, err = loadLayoutDeferred(ctx, e, graphPath, &f.in, &f.lf, keep); err != nil {
		return err
	}
	l := dl.l
	if apps.Undirected(app) && l.Directed && pin == nil {
		fmt.Fprintf(e.stderr, "%s: the graph is directed; using its symmetrized layout (%s)\n", app, undirectedWhy(app))
		dl.finish(false)
		f.in.undirected = true
		if dl, err = loadLayoutDeferred(ctx, e, graphPath, &f.in, &f.lf, keep); err != nil {
			return err
		}
		l = dl.l
	}
	defer func() { dl.finish(false) }() // on the way out, whatever happened
	layoutReady := time.Since(wall)
	if app == "sssp" && !l.Weighted {
		return fmt.Errorf("sssp needs edge weights and %s has none: add --weights SEED to generate them", graphPath)
	}
	var fwd engine.Backend
	var parted *partitioned
	if spec.parts > 0 {
		if parted, err = newPartitioned(ctx, e, f, pin, spec); err != nil {
			return err
		}
		defer parted.close()
		parted.perVertex = f.out != "" // tc's per-vertex counts only for --out, as on one backend
		fwd = parted.backends[0]
	} else if f.backend == "cuda" {
		gopts := []gpu.Option{gpu.WithWorkSplit(split), gpu.WithLoopBlocksPerSM(f.gpuLoopBl), gpu.WithNearFarDelta(f.gpuDelta),
			gpu.WithAsyncBlocksPerSM(f.gpuAsyncBl)}
		if f.gpuNoLoop {
			gopts = append(gopts, gpu.WithoutDeviceLoop())
		}
		if f.gpuNoBlock {
			gopts = append(gopts, gpu.WithoutBlockRuns())
		}
		if f.gpuNoRows {
			gopts = append(gopts, gpu.WithoutBlockRows())
		}
		if f.gpuNoLPull {
			gopts = append(gopts, gpu.WithoutLoopPulls())
		}
		if f.gpuNoClust {
			gopts = append(gopts, gpu.WithoutClusterRuns())
		}
		if f.gpuClustBl > 0 {
			gopts = append(gopts, gpu.WithClusterBlocks(uint32(f.gpuClustBl)))
		}
		if f.gpuStream {
			gopts = append(gopts, gpu.WithPRScheme(cuda.PRStream))
		}
		if dl.built != nil {
			gopts = append(gopts, gpu.WithBuilt(dl.built))
		}
		limit, err := f.gpuMemoryLimit()
		if err != nil {
			return err
		}
		gopts = append(gopts, gpu.WithMemoryLimit(limit))
		g, err := gpu.New(l, f.in.threads, gopts...)
		switch {
		case err != nil && f.autoCUDA && gpu.Unfit(err):
			// --backend auto: a graph the GPU cannot hold runs on the CPU.
			fmt.Fprintf(e.stderr, "%v; --backend auto: running on the CPU\n", err)
			if dl.built != nil {
				if err := dl.built.Download(); err != nil {
					return fmt.Errorf("the layout built on the GPU: %w", err)
				}
			}
			f.backend = "cpu"
		case err != nil:
			return err
		default:
			defer g.Close()
			fwd = g
		}
	}
	if f.backend == "cpu" && parted == nil {
		c, err := cpu.New(l, f.in.threads)
		if err != nil {
			return err
		}
		fwd = c
	}
	bwd := fwd
	_, devBrandes := fwd.(engine.BrandesBackend)
	if app == "bc" && l.Directed && !devBrandes && parted == nil { // partitioned bc reads the parts' out-arcs only
		tin := f.in
		tin.transpose = true
		lt, err := loadLayout(ctx, e, graphPath, &tin, &f.lf)
		if err != nil {
			return fmt.Errorf("bc: transposed layout: %w", err)
		}
		if bwd, err = cpu.New(lt, f.in.threads); err != nil {
			return err
		}
	}

	uploaded := time.Since(wall)
	var sources []uint32
	if from != nil {
		sources, err = checkFromVertices(from, l)
	} else if parted != nil {
		sources, err = f.pickSources(app, l.NumVertices, parted.outDegree)
	} else {
		sources, err = f.pickSources(app, l.NumVertices, func(v uint32) uint64 { return l.OutDegree(l.Perm[v]) })
	}
	if err != nil {
		return err
	}
	opts := engine.RunOptions{Mode: mode, Trace: f.trace != "", Seed: f.seed, NoPull: f.noPull}
	pr := apps.PageRankOptions{Damping: f.damping, Tolerance: f.tolerance, MaxIterations: 20}
	if app == "pr-delta" {
		pr.MaxIterations = 0
	}
	if f.maxIter >= 0 {
		pr.MaxIterations = f.maxIter
		if !rankApp(app) {
			opts.MaxIterations = f.maxIter
		}
	}
	cfg := apps.Config{Engine: eng, Ops: apps.OpsOptions{Strategy: strategy, Trace: opts.Trace, MaxIterations: opts.MaxIterations, NoPull: f.noPull},
		TrianglesPerVertex: f.out != ""} // tc's per-vertex pass only for --out (GAPBS counts the total)

	doc := traceFile{App: app, Graph: graphPath, Vertices: l.NumVertices, Arcs: l.NumArcs,
		Mode: mode.String(), Engine: string(apps.MultiGraph), Backend: fwd.Name(), Threads: fwd.Workers()}
	how := mode.String() // the summary line's
	switch {
	case useOps && parted != nil: // an operator app over parts (partition.RunKCore, RunMIS, RunColor, RunPersonalizedPageRank, RunHITS, RunTriangles, RunWhoToFollow, RunMSF)
		doc.Mode, doc.Engine = "", "partitioned"
		how = "rounds over parts"
	case useOps && app == "ppr" && strategy == ops.Auto && !f.gpuStream && isPersonalRanker(fwd):
		doc.Mode, doc.Engine = "", "device pagerank"
		how = "the device's PageRank with a teleport set"
	case useOps:
		doc.Mode, doc.Engine, doc.LB = "", string(apps.Operators), strategy.String()
		how = "operators (lb " + strategy.String() + ")"
	}
	if from != nil {
		how += fmt.Sprintf(", from %d sources", len(distinct(sources)))
	}
	if parted != nil {
		how += ", " + parted.describe
	}
	var last any
	var lastSources []uint32
	var times []float64
	var firstResult time.Duration
	stopProfile := func(bool) error { return nil }
	if f.cpuProfile != "" {
		if stopProfile, err = startCPUProfile(f.cpuProfile); err != nil {
			return err
		}
	}
	for t := 0; t < f.trials; t++ {
		trialSources := sources
		if apps.SingleSource(app) && !apps.MultiSource(app) && from == nil {
			trialSources = []uint32{sources[t%len(sources)]}
		}
		start := time.Now()
		var res engine.Result
		if parted != nil {
			last, res, err = parted.run(ctx, app, trialSources, mode, f.seed, f.noPull, opts.MaxIterations, pr)
		} else if from != nil {
			last, res, err = runFrom(ctx, app, fwd, trialSources, cfg.Ops)
		} else {
			last, res, err = apps.RunWith(ctx, app, fwd, bwd, trialSources, pr, opts, cfg)
		}
		if err != nil {
			stopProfile(false)
			if strings.HasPrefix(err.Error(), app+": ") {
				return err // the app named itself
			}
			return fmt.Errorf("%s: %w", app, err)
		}
		secs := time.Since(start).Seconds()
		times = append(times, secs)
		lastSources = trialSources
		mteps := teps(app, l, res, len(trialSources), secs) / 1e6
		rec := trialRecord{Trial: t + 1, Seconds: secs, MTEPS: mteps, Result: res}
		if apps.SingleSource(app) || apps.MultiSource(app) {
			rec.Sources = trialSources
		}
		if parted != nil && f.trace != "" {
			rec.Parts = traceOf(parted.last)
		}
		doc.Trials = append(doc.Trials, rec)
		switches := fmt.Sprintf(", %d mode switches", res.Switches)
		if useOps {
			switches = "" // the operators have no modes
		}
		fmt.Fprintf(e.stdout, "trial %d/%d: %s (engine %s, copy %s), %.1f MTEPS, %d iterations%s%s\n",
			t+1, f.trials, fmtSeconds(secs), fmtSeconds(res.Seconds), fmtSeconds(res.CopySeconds), mteps,
			res.Iterations, switches, modeCounts(res))
		if t == 0 {
			firstResult = time.Since(wall)
		}
	}
	trialsDone := time.Since(wall)
	storeStart := time.Now()
	if parted != nil {
		parted.storeAfterTrials()
	}
	if err := dl.finish(f.validate); err != nil {
		return err
	}
	if dl.built != nil && dl.built.DownloadTime > 0 {
		fmt.Fprintf(e.stderr, "downloaded the rest of the layout in %.3fs (after the trials)\n", dl.built.DownloadTime)
	}
	after := time.Since(storeStart)
	fmt.Fprintf(e.stderr, "wall: layout ready at %s (reading and preprocessing, or the cache), %s backend ready at %s, first result at %s, %d trials done at %s; after them, the layout's download and cache write: %s\n",
		fmtSeconds(layoutReady.Seconds()), fwd.Name(), fmtSeconds(uploaded.Seconds()), fmtSeconds(firstResult.Seconds()),
		f.trials, fmtSeconds(trialsDone.Seconds()), fmtSeconds(after.Seconds()))
	sum := runSummary{traceFile: doc}
	sum.Wall.LayoutReady, sum.Wall.BackendReady, sum.Wall.FirstResult = layoutReady.Seconds(), uploaded.Seconds(), firstResult.Seconds()
	sum.Wall.TrialsDone, sum.Wall.After = trialsDone.Seconds(), after.Seconds()
	if err := stopProfile(true); err != nil {
		return err
	}
	best := slices.Min(times)
	bestRes := doc.Trials[slices.Index(times, best)].Result
	slices.Sort(times)
	median := times[len(times)/2]
	sum.BestSeconds, sum.MedianSeconds, sum.BestEngine, sum.BestCopy = best, median, bestRes.Seconds, bestRes.CopySeconds
	sum.BestMTEPS = teps(app, l, bestRes, len(lastSources), best) / 1e6
	fmt.Fprintf(e.stdout, "%s on %s (%d vertices, %d arcs), %s×%d, %s: trial best %s, median %s (best trial: engine %s, copy %s), %.1f MTEPS (best)\n",
		app, graphPath, l.NumVertices, l.NumArcs, fwd.Name(), fwd.Workers(), how,
		fmtSeconds(best), fmtSeconds(median), fmtSeconds(bestRes.Seconds), fmtSeconds(bestRes.CopySeconds), sum.BestMTEPS)
	if parted != nil {
		fmt.Fprintln(e.stdout, parted.stats())
	}
	if line := describeResult(app, lastSources, last); line != "" {
		fmt.Fprintln(e.stdout, line)
	}
	switch v := last.(type) {
	case apps.Triangles:
		sum.Triangles = &v.Total
	case apps.Recommendations:
		sum.Recommendations = []uint32(v)
	case apps.Forest:
		sum.ForestWeight = &v.Weight
	}
	printSummary := func() error {
		if js == nil {
			return nil
		}
		for i := range sum.Trials {
			sum.Trials[i].Result.Trace, sum.Trials[i].Parts = nil, nil // the per-iteration records are --trace's
		}
		enc := json.NewEncoder(js)
		enc.SetIndent("", "  ")
		return enc.Encode(sum)
	}

	if f.trace != "" {
		if err := writeJSONFile(f.trace, doc); err != nil {
			return err
		}
	}
	if f.out != "" {
		if err := writeValues(f.out, last); err != nil {
			return err
		}
	}
	if scores, ok := last.([]float64); ok && app == "bc" {
		if k := countNaN(scores); k > 0 {
			fmt.Fprintf(e.stderr, "warning: bc: %d of %d scores are NaN: from some source more than about 1e308 shortest paths reach them, past float64 path counts (as in GAPBS and the reference; a large grid from its middle)\n", k, len(scores))
		}
	}
	if f.validate {
		start := time.Now()
		validate := validateResult
		if from != nil {
			validate = validateFrom
		}
		if parted != nil {
			validate = parted.validate
		}
		if err := validate(app, l, fwd.Workers(), lastSources, pr, opts.MaxIterations, last); err != nil {
			sum.Validation = "failed: " + err.Error()
			if perr := printSummary(); perr != nil {
				return perr
			}
			return fmt.Errorf("validation FAILED: %w", err)
		}
		sum.Validation = "ok"
		// The time is the whole validation's (the graph in original ids built
		// from the layout, the reference, the comparison), not the
		// reference's alone: bench/reftime times that.
		fmt.Fprintf(e.stdout, "validation: ok (against the reference; the validation took %s)\n", fmtSeconds(time.Since(start).Seconds()))
	}
	return printSummary()
}

// countNaN returns how many of xs are NaN.
func countNaN(xs []float64) int {
	k := 0
	for _, x := range xs {
		if math.IsNaN(x) {
			k++
		}
	}
	return k
}

// gpuApps are the apps with a GPU implementation: all of them (the min
// programs, both PageRanks and BC on the GPU engines; the operator apps on
// the backend's operator device).
var gpuApps = []string{"bfs", "bfs-tree", "sssp", "cc", "cc-lp", "pr", "pr-delta", "bc",
	"tc", "kcore", "color", "mis", "msf", "ppr", "hits", "salsa", "wtf"}

// rankApp reports whether app takes its iteration cap from the PageRank
// options (pr, pr-delta, and the operator apps ppr, hits and salsa, whose
// validation runs the reference with the same cap).
func rankApp(app string) bool {
	switch app {
	case "pr", "pr-delta", "ppr", "hits", "salsa":
		return true
	}
	return false
}

// noCap lists the apps that have no iteration cap (--max-iterations is
// refused rather than ignored).
var noCap = []string{"tc", "kcore", "color", "mis", "msf", "wtf"}

// checkEngine resolves --engine and --lb for app and refuses the flags that
// do not apply: --engine operators for an app not written with the
// operators, --engine multigraph for one written with them alone, --lb
// with the MultiGraph engines, a --mode other than hybrid with the
// operators (they have no modes), and an iteration cap for the operator
// apps that have none.
func (f *runFlags) checkEngine(app string, mode engine.Mode) (apps.Engine, ops.Strategy, error) {
	set := f.set
	if set == nil {
		set = func(string) bool { return false }
	}
	eng, err := apps.ParseEngine(f.engine)
	if err != nil {
		return eng, ops.Auto, usageError("--engine: %v", err)
	}
	strategy, err := ops.ParseStrategy(f.lb)
	if err != nil {
		return eng, ops.Auto, usageError("--lb: %v", err)
	}
	opsApp := slices.Contains(apps.OperatorApps, app)
	switch {
	case eng == apps.Operators && !apps.UsesOperators(app, eng):
		return eng, strategy, usageError("--engine operators: %s is not written with the operators (they run bfs and sssp, and %s always)",
			app, strings.Join(apps.OperatorApps, ", "))
	case eng == apps.MultiGraph && opsApp && set("engine"):
		return eng, strategy, usageError("--engine multigraph: %s is written with the operators alone (drop --engine)", app)
	}
	useOps := apps.UsesOperators(app, eng)
	switch {
	case set("lb") && !useOps:
		return eng, strategy, usageError("--lb is the operators' load balancing: %s runs on the MultiGraph engines (give --engine operators for bfs and sssp)", app)
	case useOps && set("mode") && mode != engine.Hybrid:
		return eng, strategy, usageError("--mode %s: the operators have no modes (%s runs with the operators; --lb picks their load balancing)", mode, app)
	case f.maxIter >= 0 && slices.Contains(noCap, app):
		return eng, strategy, usageError("--max-iterations: %s has no iteration cap", app)
	}
	if useOps {
		for _, name := range engineOnlyFlags {
			if set(name) {
				return eng, strategy, usageError("--%s tunes the MultiGraph engines: %s runs with the operators", name, app)
			}
		}
	}
	return eng, strategy, nil
}

// gpuMemoryLimit parses --gpu-memory-limit (0 when not given).
func (f *runFlags) gpuMemoryLimit() (uint64, error) {
	if f.gpuMemMax == "" {
		return 0, nil
	}
	n, err := parseSize(f.gpuMemMax)
	if err != nil || n == 0 {
		return 0, usageError("--gpu-memory-limit %q: want a size such as 512MiB or 8GiB", f.gpuMemMax)
	}
	return n, nil
}

// engineOnlyFlags tune the MultiGraph engines only; the operators refuse
// them rather than ignore them.
var engineOnlyFlags = []string{"gpu-split", "gpu-async-blocks", "gpu-no-loop", "gpu-no-loop-pull", "gpu-no-block", "gpu-no-block-rows", "gpu-no-cluster", "gpu-cluster-blocks", "gpu-loop-blocks", "gpu-near-far", "gpu-pr-stream"}

// checkFrom parses --from (comma-separated original ids; nil when not
// given) and refuses what does not go with it: an app other than bfs and
// sssp, --source and --sources (--from gives the sources), --engine
// multigraph (the multi-source runs are written with the operators, which
// --from implies) and a --mode other than hybrid (the operators have none).
func (f *runFlags) checkFrom(app string, mode engine.Mode) ([]uint32, error) {
	set := f.set
	if set == nil {
		set = func(string) bool { return false }
	}
	if !set("from") {
		return nil, nil
	}
	switch {
	case !apps.HasEngines(app):
		return nil, usageError("--from: %s has no multi-source run (bfs and sssp have)", app)
	case set("source"):
		return nil, usageError("--from gives the sources: drop --source")
	case set("sources"):
		return nil, usageError("--from gives the sources: drop --sources")
	case set("engine") && f.engine != string(apps.Operators):
		return nil, usageError("--engine %s: --from runs with the operators (drop --engine)", f.engine)
	case set("mode") && mode != engine.Hybrid:
		return nil, usageError("--mode %s: --from runs with the operators, which have no modes", mode)
	}
	var ids []uint32
	for i, field := range strings.Split(f.from, ",") {
		id, err := strconv.ParseUint(strings.TrimSpace(field), 10, 32)
		if err != nil {
			return nil, usageError("--from %q: field %d (%q) is not a vertex id", f.from, i+1, field)
		}
		ids = append(ids, uint32(id))
	}
	f.engine = string(apps.Operators)
	return ids, nil
}

// checkFromVertices returns --from's ids once they are known to be
// vertices of l.
func checkFromVertices(ids []uint32, l *layout.Layout) ([]uint32, error) {
	for _, v := range ids {
		if uint64(v) >= l.NumVertices {
			return nil, usageError("--from: %d is not a vertex: the graph has %d vertices (0..%d)", v, l.NumVertices, int64(l.NumVertices)-1)
		}
	}
	return ids, nil
}

// runFrom runs --from's multi-source bfs or sssp from all of sources
// (float32 distances on a graph of float32 weights).
func runFrom(ctx context.Context, app string, b engine.Backend, sources []uint32, o apps.OpsOptions) (any, engine.Result, error) {
	if l := b.Layout(); app == "sssp" && l.Weighted && l.WeightKind == graph.Float32Weights {
		values, res, err := apps.MultiSourceSSSPFloat32(ctx, b, sources, o)
		if err != nil {
			return nil, res, err
		}
		return values, res, nil
	}
	run := apps.MultiSourceBFS
	if app == "sssp" {
		run = apps.MultiSourceSSSP
	}
	values, res, err := run(ctx, b, sources, o)
	if err != nil {
		return nil, res, err
	}
	return values, res, nil
}

// checkBackend resolves --backend for app: auto is cuda when a GPU is
// visible and app runs there, else cpu; cuda fails without a GPU build, a
// visible GPU, or a GPU implementation of app.
func (f *runFlags) checkBackend(app string) error {
	switch f.backend {
	case "cpu":
		return nil
	case "auto":
		f.backend = "cpu"
		if slices.Contains(gpuApps, app) && gpu.Available() {
			f.backend, f.autoCUDA = "cuda", true
		}
		return nil
	case "cuda":
		switch {
		case !cuda.BuiltWithCUDA():
			return fmt.Errorf("--backend cuda: this mgraph was built without CUDA (see docs/gpu.md); use --backend cpu")
		case !slices.Contains(gpuApps, app):
			return fmt.Errorf("--backend cuda: %s has no GPU implementation yet (GPU apps: %s); use --backend cpu", app, strings.Join(gpuApps, ", "))
		case !gpu.Available():
			return fmt.Errorf("--backend cuda: no usable GPU is visible; use --backend cpu")
		}
		return nil
	}
	return usageError("--backend %q: want cpu, cuda or auto", f.backend)
}

// pickSources returns the sources of the run: --source, or random vertices
// with out-degree > 0 drawn from --seed (n vertices, outDegree by original
// id).
func (f *runFlags) pickSources(app string, n uint64, outDegree func(v uint32) uint64) ([]uint32, error) {
	if !apps.SingleSource(app) && !apps.MultiSource(app) {
		return nil, nil
	}
	if f.source >= 0 {
		if uint64(f.source) >= n {
			return nil, usageError("--source %d is not a vertex: the graph has %d vertices (0..%d)", f.source, n, int64(n)-1)
		}
		return []uint32{uint32(f.source)}, nil
	}
	if n == 0 {
		return nil, fmt.Errorf("%s needs a source, and the graph has no vertices", app)
	}
	count := f.sources
	if count == 0 {
		count = 1
		if !apps.MultiSource(app) {
			count = f.trials
		}
	}
	rng := rand.New(rand.NewPCG(f.seed, 0x736f75726365)) // stream: "source"
	out := make([]uint32, 0, count)
	for tries := 0; len(out) < count; tries++ {
		v := uint32(rng.Uint64N(n))
		if outDegree(v) > 0 || tries > 1000*count {
			out = append(out, v)
		}
	}
	return out, nil
}

// teps is the papers' traversed-edges-per-second figure of one run (see
// bench.TEPS, shared with 'mgraph bench').
func teps(app string, l *layout.Layout, res engine.Result, sources int, secs float64) float64 {
	return bench.TEPS(app, l.NumArcs, res.Iterations, sources, secs)
}

// modeCounts summarises how many iterations ran in each mode, when traced:
// the MultiGraph modes first, then the others (the operator calls, such as
// advance:lb or filter:equals) in the order they first ran.
func modeCounts(res engine.Result) string {
	if len(res.Trace) == 0 {
		return ""
	}
	counts := map[string]int{}
	order := []string{"sparse", "dense", "pull", "async"}
	for _, it := range res.Trace {
		if counts[it.Mode] == 0 && !slices.Contains(order, it.Mode) {
			order = append(order, it.Mode)
		}
		counts[it.Mode]++
	}
	out := ""
	for _, m := range order {
		if counts[m] > 0 {
			if out != "" {
				out += ", "
			}
			out += fmt.Sprintf("%s %d", m, counts[m])
		}
	}
	return " (" + out + ")"
}

// describeResult returns a line summing up an operator app's result (""
// for the other apps): the triangles, the largest core, the colours, the
// set's size, the top authority, the recommendations.
func describeResult(app string, sources []uint32, result any) string {
	switch v := result.(type) {
	case apps.Triangles:
		return fmt.Sprintf("triangles: %d", v.Total)
	case apps.Forest:
		return fmt.Sprintf("spanning forest: %d edges, weight %d", len(v.Edges), v.Weight)
	case apps.HubsAuthorities:
		best := -1
		for u, a := range v.Authorities {
			if best < 0 || a > v.Authorities[best] {
				best = u
			}
		}
		if best < 0 {
			return ""
		}
		return fmt.Sprintf("top authority: vertex %d (authority %.6g, hub %.6g)", best, v.Authorities[best], v.Hubs[best])
	case apps.Recommendations:
		ids := make([]string, len(v))
		for i, u := range v {
			ids[i] = strconv.FormatUint(uint64(u), 10)
		}
		return fmt.Sprintf("recommendations for vertex %d: %s", sources[0], strings.Join(ids, " "))
	case []bool:
		k := 0
		for _, in := range v {
			if in {
				k++
			}
		}
		return fmt.Sprintf("independent set: %d of %d vertices", k, len(v))
	case []uint32:
		switch app {
		case "kcore":
			return fmt.Sprintf("largest core number: %d", slices.Max(append([]uint32{0}, v...)))
		case "color":
			used := map[uint32]bool{}
			for _, c := range v {
				used[c] = true
			}
			return fmt.Sprintf("colours: %d", len(used))
		}
	}
	return ""
}

func fmtSeconds(s float64) string {
	switch {
	case s < 1e-3:
		return fmt.Sprintf("%.1f µs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.3f ms", s*1e3)
	}
	return fmt.Sprintf("%.3f s", s)
}

// validateResult checks an app's result against apps/ref; maxIter is the
// run's iteration cap (bfs's depth limit; other apps but pr, pr-delta, ppr,
// hits and salsa, whose caps are pr's, are not validated under one).
func validateResult(app string, l *layout.Layout, workers int, sources []uint32, pr apps.PageRankOptions, maxIter int, result any) error {
	return validateGraph(app, func() *graph.CSR { return apps.OriginalCSR(l, workers) }, sources, pr, maxIter, result)
}

// validateGraph is validateResult on the graph in original ids that
// original returns (called once, after the checks of the arguments).
func validateGraph(app string, original func() *graph.CSR, sources []uint32, pr apps.PageRankOptions, maxIter int, result any) error {
	if maxIter > 0 && app != "bfs" && app != "bfs-tree" {
		return fmt.Errorf("%s is not validated under --max-iterations (only bfs and bfs-tree, as a depth limit)", app)
	}
	g := original()
	switch app {
	case "bfs":
		return apps.ValidateBFSWithin(g, sources[0], maxIter, result.([]uint32))
	case "bfs-tree":
		return apps.ValidateBFSTreeWithin(g, sources[0], maxIter, result.([]uint32))
	case "sssp":
		if dist, ok := result.([]float32); ok {
			return apps.ValidateSSSPFloat32(g, sources[0], dist)
		}
		return apps.ValidateSSSP(g, sources[0], result.([]uint32))
	case "cc", "cc-lp":
		return apps.ValidateCC(g, result.([]uint32))
	case "pr":
		return apps.ValidatePageRank(g, pr, result.([]float64))
	case "pr-delta":
		if pr.MaxIterations > 0 {
			return fmt.Errorf("pr-delta is validated against the converged ranks; drop --max-iterations")
		}
		return apps.ValidatePageRankDelta(g, pr, result.([]float64))
	case "bc":
		return apps.ValidateBC(g, sources, result.([]float64))
	case "tc":
		t := result.(apps.Triangles)
		return apps.ValidateTriangles(g, t.Total, t.PerVertex)
	case "kcore":
		return apps.ValidateKCore(g, result.([]uint32))
	case "color":
		return apps.ValidateColor(g, result.([]uint32))
	case "mis":
		return apps.ValidateMIS(g, result.([]bool))
	case "ppr":
		return apps.ValidatePPR(g, sources, pr, result.([]float64))
	case "hits", "salsa":
		h := result.(apps.HubsAuthorities)
		return apps.ValidateHubsAuthorities(g, app == "salsa", pr.MaxIterations, pr.Tolerance, h.Hubs, h.Authorities)
	case "wtf":
		return apps.ValidateWTF(g, sources[0], ref.DefaultWTFOptions(), []uint32(result.(apps.Recommendations)))
	case "msf":
		fo := result.(apps.Forest)
		return apps.ValidateMSF(g, fo.Weight, fo.Edges)
	}
	return fmt.Errorf("no validation for %s", app)
}

// minOverSources returns, for each of n vertices, the least over the
// distinct sources of the reference distance from that source (inf where
// none reaches).
func minOverSources[D cmp.Ordered](sources []uint32, inf D, n int, reference func(s uint32) ([]D, error)) ([]D, error) {
	want := slices.Repeat([]D{inf}, n)
	for _, s := range distinct(sources) {
		dist, err := reference(s)
		if err != nil {
			return nil, err
		}
		for v, d := range dist {
			want[v] = min(want[v], d)
		}
	}
	return want, nil
}

// validateFrom checks a multi-source bfs or sssp (--from) against the
// minimum over sources of the single-source references; maxIter is bfs's
// depth limit (sssp is not validated under a cap). Its signature is
// validateResult's.
func validateFrom(app string, l *layout.Layout, workers int, sources []uint32, _ apps.PageRankOptions, maxIter int, result any) error {
	if maxIter > 0 && app != "bfs" {
		return fmt.Errorf("%s is not validated under --max-iterations (only bfs, as a depth limit)", app)
	}
	g := apps.OriginalCSR(l, workers)
	if fgot, ok := result.([]float32); ok { // sssp over float32 weights
		want, err := minOverSources(sources, float32(math.Inf(1)), len(fgot), func(s uint32) ([]float32, error) { return ref.SSSPFloat32(g, s) })
		if err != nil {
			return err
		}
		return ref.CompareFloat32Distances(want, fgot)
	}
	got := result.([]uint32)
	if app == "bfs" {
		want, _ := minOverSources(sources, ref.Unreached, len(got), func(s uint32) ([]uint32, error) {
			levels, _ := ref.BFS(g, s)
			return levels, nil
		})
		for v, x := range want {
			if maxIter > 0 && x != ref.Unreached && x > uint32(maxIter) {
				want[v] = ref.Unreached
			}
		}
		return ref.CompareLevels(want, got)
	}
	want, err := minOverSources(sources, ref.Infinity, len(got), func(s uint32) ([]uint64, error) { return ref.SSSP(g, s) })
	if err != nil {
		return err
	}
	gotDist := make([]uint64, len(got))
	for v, d := range got {
		gotDist[v] = uint64(d)
		if d == apps.Unreached {
			gotDist[v] = ref.Infinity
		}
		if want[v] >= uint64(apps.Unreached) { // saturated, as ValidateSSSP reads it
			want[v] = ref.Infinity
		}
	}
	return ref.CompareDistances(want, gotDist)
}

// distinct returns ids sorted, each once (a new slice).
func distinct(ids []uint32) []uint32 {
	return slices.Compact(slices.Sorted(slices.Values(ids)))
}

// writeValues writes vertex → value in original numbering: TSV lines, CSV
// lines under a header when path ends in .csv, or the raw little-endian
// array when path ends in .bin. Besides the apps' []uint32 (MaxUint32 as
// "inf"), []float32 (sssp over float32 weights: the shortest decimal that
// reads back as the same float32, +Inf as "inf") and []float64, it writes tc's per-vertex counts, mis's []bool (1
// or 0), hits' and salsa's two scores (vertex, hub, authority; .bin: the
// hubs, then the authorities) and wtf's list (rank, vertex). Written to a
// temporary file and renamed, so no partial file is left under path.
func writeValues(path string, values any) error {
	return writeAtomic(path, func(w io.Writer) error {
		if strings.HasSuffix(path, ".bin") {
			return writeBinary(w, values)
		}
		bw := bufio.NewWriterSize(w, 1<<20)
		sep := byte('\t')
		if strings.HasSuffix(strings.ToLower(path), ".csv") {
			sep = ','
			header := "vertex,value\n"
			switch values.(type) {
			case apps.HubsAuthorities:
				header = "vertex,hub,authority\n"
			case apps.Recommendations:
				header = "rank,vertex\n"
			case apps.Forest:
				header = "u,v,weight\n"
			}
			bw.WriteString(header)
		}
		var buf []byte
		line := func(v int, fill func([]byte) []byte) {
			buf = strconv.AppendUint(buf[:0], uint64(v), 10)
			buf = append(buf, sep)
			buf = fill(buf)
			buf = append(buf, '\n')
			bw.Write(buf)
		}
		switch vs := values.(type) {
		case []uint32:
			for v, x := range vs {
				line(v, func(b []byte) []byte {
					if x == math.MaxUint32 {
						return append(b, "inf"...)
					}
					return strconv.AppendUint(b, uint64(x), 10)
				})
			}
		case []float32:
			for v, x := range vs {
				line(v, func(b []byte) []byte {
					if math.IsInf(float64(x), 1) {
						return append(b, "inf"...)
					}
					return strconv.AppendFloat(b, float64(x), 'g', -1, 32)
				})
			}
		case []float64:
			for v, x := range vs {
				line(v, func(b []byte) []byte { return strconv.AppendFloat(b, x, 'g', -1, 64) })
			}
		case []bool:
			for v, x := range vs {
				line(v, func(b []byte) []byte {
					if x {
						return append(b, '1')
					}
					return append(b, '0')
				})
			}
		case apps.Triangles:
			for v, x := range vs.PerVertex {
				line(v, func(b []byte) []byte { return strconv.AppendUint(b, x, 10) })
			}
		case apps.HubsAuthorities:
			for v, h := range vs.Hubs {
				line(v, func(b []byte) []byte {
					b = strconv.AppendFloat(b, h, 'g', -1, 64)
					b = append(b, sep)
					return strconv.AppendFloat(b, vs.Authorities[v], 'g', -1, 64)
				})
			}
		case apps.Recommendations:
			for i, u := range vs {
				line(i, func(b []byte) []byte { return strconv.AppendUint(b, uint64(u), 10) })
			}
		case apps.Forest:
			for _, ed := range vs.Edges {
				line(int(ed.U), func(b []byte) []byte {
					b = strconv.AppendUint(b, uint64(ed.V), 10)
					b = append(b, sep)
					return strconv.AppendUint(b, uint64(ed.W), 10)
				})
			}
		default:
			return fmt.Errorf("cannot write values of type %T", values)
		}
		return bw.Flush()
	})
}

// writeBinary writes values as raw little-endian arrays (see writeValues).
func writeBinary(w io.Writer, values any) error {
	switch vs := values.(type) {
	case apps.Triangles:
		return binary.Write(w, binary.LittleEndian, vs.PerVertex)
	case apps.HubsAuthorities:
		if err := binary.Write(w, binary.LittleEndian, vs.Hubs); err != nil {
			return err
		}
		return binary.Write(w, binary.LittleEndian, vs.Authorities)
	case apps.Recommendations:
		return binary.Write(w, binary.LittleEndian, []uint32(vs))
	case apps.Forest:
		return binary.Write(w, binary.LittleEndian, vs.Edges) // U, V, W uint32 each
	case []uint32, []float32, []float64, []bool:
		return binary.Write(w, binary.LittleEndian, values)
	}
	return fmt.Errorf("cannot write values of type %T", values)
}

// writeJSONFile writes v as indented JSON, atomically.
func writeJSONFile(path string, v any) error {
	return writeAtomic(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", " ")
		return enc.Encode(v)
	})
}

// startCPUProfile starts Go's CPU profiler into a temporary file beside
// path; the returned stop ends it and, when ok, renames the file to path
// (otherwise removes it).
func startCPUProfile(path string) (stop func(ok bool) error, err error) {
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile %s: %w", path, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Abort()
		return nil, fmt.Errorf("cpu profile %s: %w", path, err)
	}
	return func(ok bool) error {
		pprof.StopCPUProfile()
		if !ok {
			f.Abort()
			return nil
		}
		if err := f.Commit(); err != nil {
			return fmt.Errorf("cpu profile %s: %w", path, err)
		}
		return nil
	}, nil
}

// writeAtomic writes a file through fill into a temporary file in the same
// directory and renames it to path once complete (package atomicfile).
func writeAtomic(path string, fill func(io.Writer) error) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer f.Abort()
	if err := fill(f); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// parseGPUSplit parses --gpu-split: "" or three comma-separated counts, each
// 0 for the default.
func parseGPUSplit(s string) (cuda.WorkSplit, error) {
	var ws cuda.WorkSplit
	if s == "" {
		return ws, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return ws, usageError("--gpu-split %q: want ROWS,EDGES,SLOTS (three counts, 0 for the default)", s)
	}
	for i, dst := range []*uint32{&ws.HeavyChunkRows, &ws.LightChunkEdges, &ws.SlotChunk} {
		v, err := strconv.ParseUint(strings.TrimSpace(parts[i]), 10, 32)
		if err != nil {
			return ws, usageError("--gpu-split %q: field %d (%s): not a count in [0, 4294967295]", s, i+1, []string{"ROWS", "EDGES", "SLOTS"}[i])
		}
		*dst = uint32(v)
	}
	return ws, nil
}

// isPersonalRanker says whether b runs personalised PageRank whole on its
// device (engine.PersonalPageRankBackend: apps.PersonalizedPageRank then
// does, unless a load-balancing strategy is asked for).
func isPersonalRanker(b engine.Backend) bool {
	_, ok := b.(engine.PersonalPageRankBackend)
	return ok
}
