package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/layout/cache"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/mgraph-dev/mgraph/preprocess"
)

// partitioned is a run over several parts of the graph (--parts, --gpus):
// multi-GPU Gunrock's partitioned layouts, one backend per part, the
// updates of every superstep exchanged (NCCL when each GPU holds one
// part, in memory otherwise).
type partitioned struct {
	parts     []*partition.Part
	layouts   []*layout.Layout // the parts' layouts
	backends  []engine.Backend
	x         partition.Exchanger // nil: a new one per run (peer copies on GPUs, in memory on the CPU)
	onGPUs    bool
	host      bool // --exchange host: package on the host
	workers   int  // host threads (--threads)
	closers   []func() error
	describe  string          // for the summary line
	first     partition.Stats // the first run's (its setup and warm-up)
	last      partition.Stats // the last run's
	runs      int             // the runs so far
	perVertex bool            // tc counts every vertex's triangles too (--out)
	store     func()          // caches the parts made by this run (storeParts), once the trials are done; nil: nothing to cache
}

// storeAfterTrials caches the parts this run made, if any (the trials
// come first: the user's result does not wait for the cache write, as the
// unpartitioned layout's does not).
func (p *partitioned) storeAfterTrials() {
	if p.store != nil {
		p.store()
		p.store = nil
	}
}

// outDegree returns original vertex v's out-degree: its row's length in
// the layout of the part that owns it (0 when no part owns it).
func (p *partitioned) outDegree(v uint32) uint64 {
	for i, pt := range p.parts {
		if u, ok := pt.Local(v); ok {
			l := p.layouts[i]
			return l.OutDegree(l.Perm[u])
		}
	}
	return 0
}

// originalCSR returns the whole graph in original ids, gathered from the
// parts' layouts (every arc is in its source's part): the validation's
// graph, as apps.OriginalCSR gives it from a whole layout (a row lists
// the arcs in its part's layout order).
func (p *partitioned) originalCSR(workers int) *graph.CSR {
	first := p.layouts[0]
	n := p.parts[0].NumVertices
	g := &graph.CSR{Adjacency: graph.Adjacency{NumVertices: n, Offsets: make([]uint64, n+1), Directed: p.parts[0].Directed}}
	var m uint64
	for _, l := range p.layouts {
		m += l.NumArcs
	}
	g.Neighbors = make([]uint32, m)
	if first.Weighted {
		g.Weights, g.WeightKind = make([]uint32, m), first.WeightKind
	}
	// The degrees, then the offsets, then the rows, each part's vertices
	// shared out among the workers.
	each := func(fn func(pt *partition.Part, l *layout.Layout, u uint64)) {
		for i, pt := range p.parts {
			l := p.layouts[i]
			par.For(int(pt.NumLocal), workers, originalMinVertices, func(lo, hi int) {
				for u := lo; u < hi; u++ {
					fn(pt, l, uint64(u))
				}
			})
		}
	}
	each(func(pt *partition.Part, l *layout.Layout, u uint64) {
		g.Offsets[pt.Global[u]+1] = l.OutDegree(l.Perm[u])
	})
	for v := range n {
		g.Offsets[v+1] += g.Offsets[v]
	}
	each(func(pt *partition.Part, l *layout.Layout, u uint64) {
		v := l.Perm[u]
		src, at := l.SparseOffsets[v], g.Offsets[pt.Global[u]]
		for i := range l.OutDegree(v) {
			g.Neighbors[at+i] = pt.Global[l.InvPerm[l.SparseDst[src+i]]]
			if g.Weights != nil {
				g.Weights[at+i] = l.SparseWeights[src+i]
			}
		}
	})
	return g
}

// originalMinVertices is the fewest vertices per worker of originalCSR's
// loops.
const originalMinVertices = 1 << 14

// validate checks a partitioned run's result as validateResult checks an
// unpartitioned one's, on the graph gathered from the parts (l, a
// description of the whole graph without sections, is not read).
func (p *partitioned) validate(app string, _ *layout.Layout, workers int, sources []uint32, pr apps.PageRankOptions, maxIter int, result any) error {
	return validateGraph(app, func() *graph.CSR { return p.originalCSR(workers) }, sources, pr, maxIter, result)
}

// partitionedApps maps the apps a partitioned run has to partition.Run's.
var partitionedApps = map[string]string{"bfs": "bfs", "bfs-tree": "bfs-tree", "sssp": "sssp", "cc": "cc", "cc-lp": "cc-lp", "pr": "pr", "pr-delta": "pr-delta", "bc": "bc", "kcore": "kcore", "mis": "mis", "color": "color", "ppr": "ppr", "hits": "hits", "salsa": "salsa", "tc": "tc", "wtf": "wtf", "msf": "msf"}

// parseGPUs reads --gpus: a count or "all" (every visible GPU); 0 when
// not given.
func parseGPUs(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	if s == "all" {
		n, err := cuda.DeviceCount()
		if err != nil {
			return 0, fmt.Errorf("--gpus all: %w", err)
		}
		return n, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, usageError("--gpus %q: want a number of GPUs or all", s)
	}
	return n, nil
}

// opsPartApp says whether app is one of the operators' apps, which over
// parts run supersteps of their own (not the operators: --lb is refused).
func opsPartApp(app string) bool {
	return slices.Contains([]string{"kcore", "mis", "color", "ppr", "hits", "salsa", "tc", "wtf", "msf"}, app)
}

// partSpec is a partitioned run's shape: the GPUs (0: the CPU backend),
// the parts (0: no partitioned run) and the partitioner.
type partSpec struct {
	gpus, parts int
	method      partition.Method
	host        bool // --exchange host
}

// checkParts validates the partitioned run's flags for app.
func (f *runFlags) checkParts(app string, mode engine.Mode, from []uint32) (spec partSpec, err error) {
	if f.gpus == "" && f.parts == 0 {
		return partSpec{}, nil
	}
	gpus, parts := 0, 0
	if gpus, err = parseGPUs(f.gpus); err != nil {
		return partSpec{}, err
	}
	if gpus == 0 && f.backend == "cuda" {
		gpus = 1 // --parts on one GPU
	}
	parts = f.parts
	if parts == 0 {
		parts = gpus
	}
	switch {
	case parts < 0 || parts > partition.MaxParts:
		return partSpec{}, usageError("--parts %d: want 1 to %d", parts, partition.MaxParts)
	case partitionedApps[app] == "":
		return partSpec{}, usageError("--parts and --gpus run bfs, bfs-tree, sssp, cc, cc-lp, pr, pr-delta, ppr, hits, salsa, wtf, bc, tc, kcore, mis, color and msf; not %s", app)
	case mode == engine.Async:
		return partSpec{}, usageError("--parts and --gpus: mode async has no iterations to exchange between")
	case from != nil:
		return partSpec{}, usageError("--from does not run partitioned")
	case f.engine == string(apps.Operators):
		return partSpec{}, usageError("--parts and --gpus run the MultiGraph engines, not the operators")
	case opsPartApp(app) && f.lb != "auto":
		return partSpec{}, usageError("--lb is the operators' load balancing: %s over parts runs supersteps of its own", app)
	case app == "pr-delta" && f.exchange == "host" && (f.gpus != "" || f.backend == "cuda"):
		return partSpec{}, usageError("pr-delta over GPU parts exchanges on the devices only: drop --exchange host, or run CPU parts (--parts N)")
	case f.gpus != "" && f.backend == "cpu":
		return partSpec{}, usageError("--gpus with --backend cpu: give --parts for CPU parts")
	case gpus > 0:
		f.backend = "cuda"
		if !cuda.BuiltWithCUDA() {
			return partSpec{}, fmt.Errorf("--gpus: this mgraph was built without CUDA (see docs/gpu.md)")
		}
		if n, err := cuda.DeviceCount(); err != nil || n < gpus {
			return partSpec{}, fmt.Errorf("--gpus %d: %d GPUs visible (%v)", gpus, n, err)
		}
	}
	method, err := partition.ParseMethod(f.partitioner)
	if err != nil {
		return partSpec{}, usageError("--partition: %v", err)
	}
	if f.exchange != "device" && f.exchange != "host" {
		return partSpec{}, usageError("--exchange %q: want device or host", f.exchange)
	}
	return partSpec{gpus: gpus, parts: parts, method: method, host: f.exchange == "host"}, nil
}

// partInput is what a partitioned run starts from: the parts and their
// layouts taken from the cache, or else the graph to partition, in
// original ids. No layout of the whole graph is built for a partitioned
// run: whole only describes the graph (its counts, flags and the layout
// parameters) and has no sections.
type partInput struct {
	whole   *layout.Layout
	el      *graph.EdgeList   // the graph to partition; nil when cached
	parts   []*partition.Part // the cached parts, or nil
	layouts []*layout.Layout  // their layouts
	cut     uint64            // the arcs the cached parts cut
	cache   *cache.Cache      // the cache the parts are stored in (nil: none)
	keys    []string          // the parts' keys in it
	phases  []string          // what making the graph to partition took (a layout file's graph in original ids)
	chosen  string            // the partitioner that assigned (partitionGraph: --partition auto's choice); "" when cached
}

// loadPartInput finds what a partitioned run of app over path starts
// from: the parts cached under the graph's key (partKeys), else the graph
// as read or generated (loadGraph, as a layout is built from it), or, for
// a layout file, its graph in original ids. An app that needs an
// undirected graph reads a directed one symmetrized (--undirected), as
// the unpartitioned run does.
func loadPartInput(ctx context.Context, e *env, f *runFlags, app, path string, spec partSpec) (*partInput, error) {
	if ok, err := layout.IsLayoutFile(path); err == nil && ok {
		return layoutPartInput(ctx, e, f, app, path)
	}
	p, err := f.lf.params()
	if err != nil {
		return nil, err
	}
	for {
		in := &partInput{}
		if !f.lf.noCache {
			var key string
			if in.cache, key, err = cacheFor(path, &f.in, &f.lf, p); err != nil {
				return nil, err
			}
			in.keys = partKeys(key, spec, f.seed, p)
			start := time.Now()
			if ps, ls, cut, ok := loadCachedParts(e, in.cache, in.keys, p); ok {
				if symmetrizeFor(e, f, app, ps[0].Directed) {
					continue
				}
				fmt.Fprintf(e.stderr, "loaded %d cached parts in %s\n", len(ps), fmtSeconds(time.Since(start).Seconds()))
				in.parts, in.layouts, in.cut = ps, ls, cut
				in.whole = &layout.Layout{Params: p, NumVertices: ps[0].NumVertices, Directed: ps[0].Directed,
					Weighted: ls[0].Weighted, WeightKind: ls[0].WeightKind}
				for _, l := range ls {
					in.whole.NumArcs += l.NumArcs
				}
				return in, nil
			}
		}
		g, err := loadGraph(ctx, e, path, &f.in)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(e.stderr, "read %s (%d vertices, %d arcs) in %.3fs\n", path, g.el.NumVertices, g.el.NumArcs(), g.elapsed.Seconds())
		if symmetrizeFor(e, f, app, g.el.Directed) {
			continue
		}
		in.el = g.el
		in.whole = &layout.Layout{Params: p, NumVertices: g.el.NumVertices, NumArcs: g.el.NumArcs(), Directed: g.el.Directed,
			Weighted: g.el.Weighted(), WeightKind: g.el.WeightKind}
		return in, nil
	}
}

// layoutPartInput is loadPartInput's for a layout file: the graph to
// partition is the layout's, in original ids (no cache).
func layoutPartInput(ctx context.Context, e *env, f *runFlags, app, path string) (*partInput, error) {
	l, err := loadLayout(ctx, e, path, &f.in, &f.lf)
	if err != nil {
		return nil, err
	}
	symmetrizeFor(e, f, app, l.Directed) // a layout file is taken as it is
	start := time.Now()
	el := apps.OriginalCSR(l, f.in.threads).IntoEdgeList(f.in.threads)
	return &partInput{whole: l, el: el, phases: []string{"graph in original ids " + fmtSeconds(time.Since(start).Seconds())}}, nil
}

// symmetrizeFor reports whether app, which may need an undirected graph,
// is to read the graph again symmetrized (--undirected) because it is
// directed, and then says so on stderr and sets the flag.
func symmetrizeFor(e *env, f *runFlags, app string, directed bool) bool {
	if !apps.Undirected(app) || !directed || f.in.undirected {
		return false
	}
	fmt.Fprintf(e.stderr, "%s: the graph is directed; using its symmetrized layout (%s)\n", app, undirectedWhy(app))
	f.in.undirected = true
	return true
}

// undirectedWhy says why app runs on the symmetrized graph.
func undirectedWhy(app string) string {
	if app != "cc" && app != "cc-lp" {
		return app + " needs an undirected graph"
	}
	return "weak components"
}

// newPartitioned partitions in's graph into spec's parts, or takes in's
// cached parts, and makes a backend per part: part i on GPU i mod
// spec.gpus, or on the CPU when spec.gpus is 0 (threads shared out). With
// a cache, parts made here are cached (after the trials: storeAfterTrials)
// and taken from there next time.
func newPartitioned(ctx context.Context, e *env, f *runFlags, in *partInput, spec partSpec) (*partitioned, error) {
	gpus, parts := spec.gpus, spec.parts
	t0 := time.Now()
	ps, ls, cut, cached := in.parts, in.layouts, in.cut, in.parts != nil
	var store func()
	if !cached {
		var err error
		if ps, ls, cut, err = partitionGraph(ctx, e, f, in, spec); err != nil {
			return nil, err
		}
		if c, keys := in.cache, in.keys; c != nil {
			store = func() { storeParts(e, c, keys, ps, ls, f) }
		}
	}
	backendsStart := time.Now()
	p := &partitioned{parts: ps, layouts: ls, backends: make([]engine.Backend, parts), onGPUs: gpus > 0, host: spec.host, workers: f.in.threads,
		store: store}
	fail := func(err error) (*partitioned, error) { p.close(); return nil, err }
	for i, pl := range ls {
		if gpus == 0 {
			b, err := cpu.New(pl, max(1, f.in.threads/parts))
			if err != nil {
				return fail(err)
			}
			p.backends[i] = b
			continue
		}
		gopts := []gpu.Option{gpu.WithDevice(i % gpus)}
		if f.gpuOverlap {
			gopts = append(gopts, gpu.WithPartOverlap())
		}
		b, err := gpu.New(pl, f.in.threads, gopts...)
		if err != nil {
			return fail(fmt.Errorf("part %d on GPU %d: %w", i, i%gpus, err))
		}
		p.backends[i], p.closers = b, append(p.closers, b.Close)
	}
	exchange := "in memory"
	if gpus > 0 {
		exchange = "by peer copies on the devices"
		if spec.host {
			exchange = "in memory through the host"
		}
	}
	if gpus > 1 && parts == gpus {
		devs := make([]int, gpus)
		for i := range devs {
			devs[i] = i
		}
		x, err := gpu.NewNCCLExchanger(devs)
		if err != nil {
			return fail(err)
		}
		p.x, p.closers, exchange = x, append(p.closers, x.Close), "NCCL on the devices"
		if spec.host {
			exchange = "NCCL through the host"
		}
	}
	if gpus > 0 && !spec.host && store == nil {
		dropCPUSections(ls)
	}
	fmt.Fprintf(e.stderr, "parts' backends ready in %s\n", fmtSeconds(time.Since(backendsStart).Seconds()))
	if gpus > 0 {
		fmt.Fprintf(e.stderr, "parts' layouts on the GPUs: %s\n", deviceShares(p.backends, gpus))
	}
	where := "CPU"
	if gpus > 0 {
		where = "1 GPU"
		if gpus > 1 {
			where = fmt.Sprintf("%d GPUs", gpus)
		}
	}
	method := spec.method.String()
	if spec.method == partition.Auto && in.chosen != "" {
		method = "auto: " + in.chosen
	}
	p.describe = fmt.Sprintf("%d parts on %s (%s, %.1f%% of the arcs cut, exchange %s)", parts, where, method,
		100*float64(cut)/float64(max(in.whole.NumArcs, 1)), exchange)
	how := "partitioned into"
	if cached {
		how = "cached partition:"
	}
	fmt.Fprintf(e.stderr, "%s %s in %s\n", how, p.describe, fmtSeconds(time.Since(t0).Seconds()))
	return p, nil
}

// dropCPUSections lets the parts' layouts' SegmentSplit go, and returns
// the memory to the OS, when no CPU engine will read them: the parts run on
// GPUs, exchange on the devices and are not written to the cache. It is
// the sparse CPU engine's split of the high segments, segments × part
// vertices × 4 bytes (about 11–18 bytes an arc on R-MAT parts: 120 GB on a
// graph of 10G arcs), which only the host would hold through the trials
// and the validation.
func dropCPUSections(ls []*layout.Layout) {
	for _, l := range ls {
		l.SegmentSplit = nil
	}
	debug.FreeOSMemory()
}

// deviceShares says how much device memory the parts' layouts take (GPU
// backends, part i on GPU i mod gpus): in all, and on the GPU that holds
// the most.
func deviceShares(backends []engine.Backend, gpus int) string {
	per := make([]uint64, gpus)
	var all uint64
	for i, b := range backends {
		if g, ok := b.(*gpu.Backend); ok {
			per[i%gpus] += g.DeviceBytes()
			all += g.DeviceBytes()
		}
	}
	most := 0
	for i, x := range per {
		if x > per[most] {
			most = i
		}
	}
	return fmt.Sprintf("%s in all, at most %s on one (GPU %d)", cuda.FormatBytes(all), cuda.FormatBytes(per[most]), most)
}

// partitionGraph partitions in's graph and builds every part's layout; it
// returns the parts, their layouts and the arcs cut, and says on stderr
// how long each phase took (the assignment, the split, the parts'
// layouts). The graph is let go once split (in.el is cleared), so that
// the layouts' builds can reuse its memory.
func partitionGraph(ctx context.Context, e *env, f *runFlags, in *partInput, spec partSpec) ([]*partition.Part, []*layout.Layout, uint64, error) {
	phases := in.phases
	t := time.Now()
	phase := func(name string) {
		phases = append(phases, fmt.Sprintf("%s %s", name, fmtSeconds(time.Since(t).Seconds())))
		t = time.Now()
	}
	el := in.el
	chosen, owner, err := partition.Choose(ctx, el, partition.Options{Method: spec.method, Parts: spec.parts, Seed: f.seed})
	if err != nil {
		return nil, nil, 0, err
	}
	in.chosen = chosen.String()
	phase("assignment")
	ps, err := partition.Split(ctx, el, owner, spec.parts)
	if err != nil {
		return nil, nil, 0, err
	}
	var cut uint64
	for _, pt := range ps {
		cut += pt.GhostArcs
	}
	in.el = nil // the parts hold the arcs now
	phase("split")
	where, err := f.lf.where()
	if err != nil {
		return nil, nil, 0, err
	}
	ls, notes, err := buildPartLayouts(ctx, ps, in.whole.Params, preprocess.Options{Workers: f.in.threads}, partBuild{where: where, gpus: spec.gpus})
	if err != nil {
		return nil, nil, 0, err
	}
	phase("layouts")
	fmt.Fprintf(e.stderr, "partitioning: %s\n", strings.Join(phases, ", "))
	for _, note := range notes {
		fmt.Fprintln(e.stderr, note)
	}
	return ps, ls, cut, nil
}

// partBuild says where buildPartLayouts builds the parts' layouts: on
// the CPU (gpus 0, or where preprocess.OnCPU), or each part on the GPU
// that will run it (part i on GPU i mod gpus) by preprocess.BuildOn with
// where (--preprocess-on), which builds a part the device builder cannot
// take (too large, short of memory) on the CPU instead.
type partBuild struct {
	where string
	gpus  int
}

// buildPartLayouts builds the parts' layouts, on the CPU one after the
// other as partition.BuildLayouts does, or (on.gpus > 0) on the parts'
// GPUs, every GPU building its parts one after the other while the others
// build theirs (byte for byte the same layouts). Each part's arcs go
// (pt.EL = nil) as soon as its layout is built, so that the collections
// preprocess.Build makes between its stages reclaim them while the next
// part builds: the parts' lists (12 bytes an arc with weights) no longer
// all stay until the last layout is done. It then collects and returns
// the freed memory to the OS: without that, the last part's list and the
// last build's buffers, garbage below the collector's goal (twice the live
// heap), would stay through the trials and the validation. The notes say
// where the layouts were built and why a part went to the CPU. On GPUs,
// opts.OnStage (when set) is called from one goroutine per GPU.
func buildPartLayouts(ctx context.Context, ps []*partition.Part, p layout.Params, opts preprocess.Options, on partBuild) ([]*layout.Layout, []string, error) {
	defer debug.FreeOSMemory()
	ls := make([]*layout.Layout, len(ps))
	if on.gpus == 0 || on.where == preprocess.OnCPU {
		for i, pt := range ps {
			l, err := preprocess.Build(ctx, pt.EL, p, opts)
			if err != nil {
				return nil, nil, fmt.Errorf("partition: layout of part %d: %w", i, err)
			}
			ls[i], pt.EL = l, nil // built: the arcs are in the layout
		}
		return ls, nil, nil
	}
	reps := make([]preprocess.Report, len(ps))
	errs := make([]error, len(ps))
	bctx, cancel := context.WithCancel(ctx) // a part that fails stops the other GPUs' builds
	defer cancel()
	var wg sync.WaitGroup
	var onCPU sync.Mutex // a part the GPUs cannot take is built on every core, one at a time
	for g := range min(on.gpus, len(ps)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := opts
			o.Device, o.CPULock = g, &onCPU
			for i := g; i < len(ps); i += on.gpus {
				pt := ps[i]
				if ls[i], reps[i], errs[i] = preprocess.BuildOn(bctx, on.where, pt.EL, p, o); errs[i] != nil {
					cancel()
					return
				}
				pt.EL = nil // built: the arcs are in the layout
			}
		}()
	}
	wg.Wait()
	onGPU := 0
	var notes []string
	if i := firstFailure(ctx, errs); i >= 0 {
		return nil, nil, fmt.Errorf("partition: layout of part %d: %w", i, errs[i])
	}
	for i := range errs {
		if reps[i].On == preprocess.OnGPU {
			onGPU++
		} else if reps[i].Fallback != "" {
			notes = append(notes, fmt.Sprintf("part %d's layout: %s", i, reps[i].Fallback))
		}
	}
	notes = append([]string{fmt.Sprintf("%d of the %d parts' layouts built on their GPUs", onGPU, len(ps))}, notes...)
	return ls, notes, nil
}

// firstFailure returns the first part whose error is its own, not the
// cancellation another part's failure caused (unless ctx itself ended),
// or -1 when no part failed.
func firstFailure(ctx context.Context, errs []error) int {
	first := -1
	for i, err := range errs {
		switch {
		case err == nil:
		case ctx.Err() == nil && errors.Is(err, context.Canceled):
			if first < 0 {
				first = i
			}
		default:
			return i
		}
	}
	return first
}

// partKeys returns the cache keys of the parts' layouts of the graph
// cached under key, partitioned as spec says with seed (the tables are
// the key plus partition.TablesExt).
func partKeys(key string, spec partSpec, seed uint64, p layout.Params) []string {
	base := cache.Key(cache.HashString(key), fmt.Sprintf("partition method=%s parts=%d seed=%d", spec.method, spec.parts, seed), p)
	keys := make([]string, spec.parts)
	for i := range keys {
		keys[i] = cache.Key(cache.HashString(base), fmt.Sprintf("part %d", i), p)
	}
	return keys
}

// tablesPath is where part key's tables are kept beside its layout.
func tablesPath(c *cache.Cache, key string) string {
	return filepath.Join(c.Dir(), key+partition.TablesExt)
}

// loadCachedParts returns the cached parts under keys, their layouts and
// the arcs cut, or cached false when one is missing or unusable (said on
// stderr; a bad file was removed by the cache or is overwritten next).
func loadCachedParts(e *env, c *cache.Cache, keys []string, p layout.Params) ([]*partition.Part, []*layout.Layout, uint64, bool) {
	if c == nil {
		return nil, nil, 0, false
	}
	ps, ls := make([]*partition.Part, len(keys)), make([]*layout.Layout, len(keys))
	for i, k := range keys {
		l, err := c.Lookup(k, p)
		if err != nil {
			fmt.Fprintf(e.stderr, "warning: cached part %d: %v; partitioning again\n", i, err)
			return nil, nil, 0, false
		}
		if l == nil {
			return nil, nil, 0, false
		}
		pt, err := partition.LoadTables(tablesPath(c, k))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, 0, false
		}
		if err == nil && (l.NumVertices != pt.NumPartVertices() || l.NumArcs < pt.GhostArcs) {
			err = fmt.Errorf("part %d's layout has %d vertices and %d arcs, its tables %d vertices and %d arcs to ghosts",
				i, l.NumVertices, l.NumArcs, pt.NumPartVertices(), pt.GhostArcs)
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "warning: cached part %d: %v; partitioning again\n", i, err)
			return nil, nil, 0, false
		}
		ps[i], ls[i] = pt, l
	}
	if err := partition.Consistent(ps); err != nil {
		fmt.Fprintf(e.stderr, "warning: cached parts: %v; partitioning again\n", err)
		return nil, nil, 0, false
	}
	var cut uint64
	for _, pt := range ps {
		cut += pt.GhostArcs
	}
	return ps, ls, cut, true
}

// storeParts caches the parts' layouts and tables under keys; a failure is
// only warned about.
func storeParts(e *env, c *cache.Cache, keys []string, ps []*partition.Part, ls []*layout.Layout, f *runFlags) {
	start := time.Now()
	for i, k := range keys {
		if _, err := c.Store(k, ls[i], layout.SaveOptions{Level: f.lf.level, Workers: f.in.threads}); err != nil {
			fmt.Fprintf(e.stderr, "warning: could not cache part %d: %v\n", i, err)
			return
		}
		if err := partition.SaveTables(tablesPath(c, k), ps[i]); err != nil {
			fmt.Fprintf(e.stderr, "warning: could not cache part %d: %v\n", i, err)
			return
		}
	}
	fmt.Fprintf(e.stderr, "cached %d parts in %.2fs\n", len(keys), time.Since(start).Seconds())
	evictCache(e, c, f.lf.cacheMax, keys[len(keys)-1])
}

// run runs app from sources[0] (wtf's user; cc, pr, pr-delta, kcore,
// mis, color, hits, salsa, tc, msf: none; bc, ppr: from all of them) over the
// parts (wtf with ref.DefaultWTFOptions, as on one backend); pr's and pr-delta's options
// are pr, mis's and color's priorities drawn from seed (GPU parts stay on
// the devices unless --exchange host).
func (p *partitioned) run(ctx context.Context, app string, sources []uint32, mode engine.Mode, seed uint64, noPull bool, maxIter int, pr apps.PageRankOptions) (any, engine.Result, error) {
	var src uint32
	if len(sources) > 0 {
		src = sources[0]
	}
	ro := partition.RunOptions{Engine: engine.RunOptions{Mode: mode, Seed: seed, NoPull: noPull}, Exchanger: p.x, HostExchange: p.host}
	if ro.Exchanger == nil && p.onGPUs && !p.host {
		ro.Exchanger = gpu.NewPeerExchanger(len(p.parts))
	}
	rank := partition.RankOptions{Damping: pr.Damping, Tolerance: pr.Tolerance, MaxIterations: pr.MaxIterations}
	switch app {
	case "bc":
		return p.runBC(ctx, sources, mode, ro.Exchanger)
	case "msf":
		weight, edges, st, err := partition.RunMSF(ctx, p.parts, p.backends, p.host, p.workers)
		return p.done(apps.Forest{Weight: weight, Edges: edges}, st.Supersteps, st, err)
	case "wtf":
		rec, st, err := partition.RunWhoToFollow(ctx, p.parts, p.backends, src, ref.DefaultWTFOptions(), ro.Exchanger, p.host, p.workers)
		return p.done(apps.Recommendations(rec), st.Supersteps, st, err)
	case "tc":
		total, per, st, err := partition.RunTriangles(ctx, p.parts, p.backends, p.perVertex, p.host, p.workers)
		return p.done(apps.Triangles{Total: total, PerVertex: per}, 1, st, err)
	case "hits", "salsa":
		hubs, auth, iters, st, err := partition.RunHITS(ctx, p.parts, p.backends, app == "salsa", pr.MaxIterations, pr.Tolerance, ro.Exchanger, p.host, p.workers)
		return p.done(apps.HubsAuthorities{Hubs: hubs, Authorities: auth}, iters, st, err)
	case "ppr":
		ranks, iters, st, err := partition.RunPersonalizedPageRank(ctx, p.parts, p.backends, sources, rank, ro.Exchanger, p.host, p.workers)
		return p.done(ranks, iters, st, err)
	case "mis":
		set, st, err := partition.RunMIS(ctx, p.parts, p.backends, seed, ro.Exchanger, p.host, p.workers)
		return p.done(set, st.Supersteps, st, err)
	case "color":
		colors, st, err := partition.RunColor(ctx, p.parts, p.backends, seed, ro.Exchanger, p.host, p.workers)
		return p.done(colors, st.Supersteps, st, err)
	case "kcore":
		core, st, err := partition.RunKCore(ctx, p.parts, p.backends, ro.Exchanger, p.host)
		return p.done(core, st.Supersteps, st, err)
	case "pr-delta":
		if mode == engine.Pull {
			return nil, engine.Result{}, fmt.Errorf("pr-delta: %w", engine.ErrPullMode)
		}
		ranks, steps, st, err := partition.RunPageRankDelta(ctx, p.parts, p.backends, rank, engine.RunOptions{Mode: mode, Seed: seed}, ro.Exchanger, p.host)
		return p.done(ranks, steps, st, err)
	case "pr":
		ranks, iters, st, err := partition.RunPageRank(ctx, p.parts, p.backends, rank, ro.Exchanger, p.host, p.workers)
		return p.done(ranks, iters, st, err)
	}
	if maxIter > 0 {
		ro.MaxSupersteps = maxIter
	}
	values, st, err := partition.Run(ctx, partitionedApps[app], p.parts, p.backends, src, ro)
	var result any = values
	if l := p.backends[0].Layout(); err == nil && app == "sssp" && l.WeightKind == graph.Float32Weights {
		result = apps.Float32Distances(values, p.backends[0].Workers()) // float32 distances, as one backend gives them
	}
	return p.done(result, st.Supersteps, st, err) // the exchange is the rest of the trial
}

// done records a run's stats (record) and makes its result: value (none
// with err), the iterations run, and the slowest parts' compute time.
func (p *partitioned) done(value any, iterations int, st partition.Stats, err error) (any, engine.Result, error) {
	p.record(st)
	res := engine.Result{Iterations: iterations, Seconds: st.Compute.Seconds()}
	if err != nil {
		return nil, res, err
	}
	return value, res, nil
}

// runBC runs BC from sources over the parts (partition.RunBC) through
// exchanger x: on the GPUs, the parts' levels, path counts and offers
// staying on the devices (x a gpu exchanger, not --exchange host), else on
// the host over the parts' layouts, the threads shared out among the
// parts; mode pull is refused as the unpartitioned bc refuses it.
func (p *partitioned) runBC(ctx context.Context, sources []uint32, mode engine.Mode, x partition.Exchanger) (any, engine.Result, error) {
	if mode == engine.Pull {
		return nil, engine.Result{}, fmt.Errorf("bc: %w", engine.ErrPullMode)
	}
	workers := p.workers
	if workers > 0 {
		workers = max(1, workers/len(p.parts))
	}
	scores, st, err := partition.RunBC(ctx, p.parts, p.backends, sources, x, p.host, workers)
	return p.done(scores, st.Supersteps, st, err)
}

// record keeps a run's stats: the first's and the last's.
func (p *partitioned) record(st partition.Stats) {
	if p.runs == 0 {
		p.first = st
	}
	p.last = st
	p.runs++
}

// stats describes the last run's supersteps, where the time went, and the
// first run's too when there were several (the first pays the setup and
// warm-up: on GPUs about a second where the next runs take milliseconds).
func (p *partitioned) stats() string {
	line := describeStats("last trial", p.last)
	if p.runs > 1 {
		line = describeStats("first trial", p.first) + "\n" + line
	}
	return line
}

// describeStats describes one run's supersteps, named what.
func describeStats(what string, st partition.Stats) string {
	phases := ""
	if ph := st.Phases; !ph.IsZero() {
		phases = fmt.Sprintf(" (the slowest part's, by phase: packaging %s, exchange %s, unpackaging %s, all-reduce %s)",
			fmtSeconds(ph.Pack.Seconds()), fmtSeconds(ph.Exchange.Seconds()), fmtSeconds(ph.Unpack.Seconds()), fmtSeconds(ph.Reduce.Seconds()))
	}
	if st.Parents > 0 {
		phases += fmt.Sprintf(", the parent pass %s", fmtSeconds(st.Parents.Seconds()))
	}
	steps := fmt.Sprint(st.Supersteps)
	if st.Pulled > 0 {
		steps = fmt.Sprintf("%d (%d pulled)", st.Supersteps, st.Pulled)
	}
	return fmt.Sprintf("%s: setup %s, %s supersteps, compute %s (the slowest part's, summed), packaging, exchange and waiting %s%s, %d messages (%s), result collection %s",
		what, fmtSeconds(st.Setup.Seconds()), steps, fmtSeconds(st.Compute.Seconds()), fmtSeconds(st.Exchange.Seconds()), phases, st.Messages, cuda.FormatBytes(st.Bytes),
		fmtSeconds(st.Collect.Seconds()))
}

// close frees the parts' backends and the exchanger.
func (p *partitioned) close() error {
	var errs []error
	for _, c := range slices.Backward(p.closers) {
		errs = append(errs, c())
	}
	p.closers = nil
	return errors.Join(errs...)
}

// partitionNames lists the partitioners for the flag's help.
func partitionNames() string {
	names := make([]string, len(partition.Methods))
	for i, m := range partition.Methods {
		names[i] = m.String()
	}
	return strings.Join(names, ", ") + " or auto (of balanced and brp, the one that cuts fewer arcs)"
}
