package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/bench"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/ops"
	"github.com/spf13/pflag"
)

// benchFlags are the flags of `mgraph bench`.
type benchFlags struct {
	in            inputFlags
	lf            layoutFlags
	config        string
	apps          string
	graphs        string
	modes         string
	backends      string
	trials        int
	seed          uint64
	budget        time.Duration
	symmetrize    bool
	weightSeed    uint64
	renumber      bool
	renumberSeed  uint64
	oracle        string
	oracleRepeats int
	prIterations  int
	bcSources     int
	externals     []string
	out           string
	engines       string
	lb            string
}

func benchCommand() command {
	return command{
		name:    "bench",
		summary: "benchmark apps × graphs × modes × backends; renumbering study, per-iteration oracle, external tools",
		usage:   "[flags] [GRAPH...]",
		help: `Runs every app of --apps on every graph (--graphs and the arguments: graph
files or generator specs such as rmat:20, grid:1024:0.1, rgg:20) in every
mode and on every backend, --trials times each, with sources drawn from
--seed (the same vertices 'mgraph run --seed' picks; trial t of bfs, sssp
and bc uses the t-th). Prints one line per trial and a table (min and
median time, MTEPS at the min); --out DIR also writes results.json (every
trial and the environment: CPU, cores, GPU and driver, commit, layout
parameters), results.csv and table.txt, which 'mgraph report' turns into
plots and a Markdown page.

Time excludes reading, preprocessing and uploads, which are recorded
apart. MTEPS follows the papers: |E|/time for bfs, sssp, cc and pr-delta,
|E|·iterations/time for pr, 2|E|·sources/time for bc; |E|/time for the
operator apps (tc: the symmetrized layout's arcs, not the oriented half it
intersects; tc counts per vertex too, as 'mgraph run tc' does).

The operator apps (tc, kcore, color, mis, ppr, hits, salsa, wtf; written
with package ops) run on every backend, with the operators; they have no
modes, so every mode of the plan runs the same program (give --modes
hybrid to run them once). ppr personalises on, and wtf recommends for, the
trial's source; ppr, hits and salsa stop at --pr-iterations.
--engines multigraph,operators times bfs and sssp on both engines side by
side: each backend B gets a twin B-ops (cpu-ops, cuda-ops; B-ops-STRATEGY
for each --lb strategy but auto) that runs bfs, sssp and the operator apps
with the operators, shown as its own series in the table (the other apps
are error rows there, and the oracle, which steps the MultiGraph engines,
leaves a note for it).

Layouts come from the layout cache (see 'mgraph preprocess --help') or are
built and stored. sssp runs on a weighted variant (random weights in
[1, 64] from --weight-seed) when the graph has none; cc, cc-lp, tc,
kcore, color and mis symmetrize and bc transposes directed graphs as
'mgraph run' does.

--renumber runs every graph a second time after a random renumbering of its
vertices (before preprocessing) and reports the slowdown.
--oracle[=APPS] steps every iteration of bfs (or the listed traversals) in
dense and in sparse mode from the same state, the paper's Table 2, and
compares the hybrid's choices with the best possible.
--external [APP:]NAME='CMD ...' times another program as a whole process on
the same graph, written once in the format its placeholders ask for:
{graph} or {graph:el}, {graph:wel}, {graph:mtx}, {graph:gr}; {source}
(0-based), {source1} (1-based), {threads}. APP gives its MTEPS definition.

--config FILE reads flags from a file, one 'name = value' a line ('#'
comments; repeat 'external = ...' for several), or, for a FILE.json, one
JSON object {"name": value, ...} (arrays for repeatable flags); flags on
the command line win. bench/plans/ holds the plans of the GPU studies.

With --backends cuda (a build with the GPU engines) the GPU's bandwidth
is probed first and recorded with the environment; an app the GPU does
not run yet is recorded as an error row and the plan goes on.

Examples:
  mgraph bench --graphs rmat:18:16,grid:1024:0.1 --symmetrize --threads 2 --renumber --oracle=bfs --out results/
  mgraph bench --apps bfs,pr --modes hybrid rmat:20 --trials 5
  mgraph bench --apps bfs rmat:16 --external "bfs:gapbs=bfs -f {graph:el} -r {source} -n 1"
  mgraph bench --config bench/plans/gpu-rmat21.json --out results/gpu-rmat21
  mgraph bench --apps bfs,sssp --engines multigraph,operators --lb auto,twc,lb --modes hybrid rmat:18:16 --symmetrize
  mgraph bench --apps tc,kcore,color,mis --modes hybrid rmat:18:16 --symmetrize`,
		flags: func(fs *pflag.FlagSet) func(context.Context, *env, []string) error {
			f := &benchFlags{}
			fs.StringVar(&f.config, "config", "", "read flags from FILE (name = value lines, or a JSON object for FILE.json); command-line flags win")
			fs.StringVar(&f.apps, "apps", "all", "comma-separated apps: "+strings.Join(bench.Apps, ", ")+", or all")
			fs.StringVar(&f.graphs, "graphs", "", "comma-separated graph files or generator specs (also taken as arguments)")
			fs.StringVar(&f.modes, "modes", "hybrid,dense,sparse", "comma-separated modes: hybrid, dense, sparse, or all")
			fs.StringVar(&f.backends, "backends", "cpu", "comma-separated backends: cpu, cuda (in builds with the GPU engines)")
			fs.IntVar(&f.trials, "trials", 3, "trials per configuration")
			fs.Uint64Var(&f.seed, "seed", 1, "seed of the sources and of the hybrid's samples")
			fs.DurationVar(&f.budget, "budget", 0, "after the first trial of a configuration, run more only while its total stays under this (0: always --trials)")
			fs.BoolVar(&f.symmetrize, "symmetrize", false, "symmetrize every graph and drop self-loops and duplicate arcs first")
			fs.Uint64Var(&f.weightSeed, "weight-seed", 1, "seed of the random weights sssp gets on unweighted graphs")
			fs.BoolVar(&f.renumber, "renumber", false, "also run every graph with a random renumbering of its vertices")
			fs.Uint64Var(&f.renumberSeed, "renumber-seed", 1, "seed of the random renumbering")
			fs.StringVar(&f.oracle, "oracle", "", "per-iteration oracle for these traversals (bfs, sssp, cc; --oracle alone: bfs)")
			fs.Lookup("oracle").NoOptDefVal = "bfs"
			fs.IntVar(&f.oracleRepeats, "oracle-repeats", 3, "times each oracle step is timed (the minimum is kept; steps over 20 ms run once)")
			fs.IntVar(&f.prIterations, "pr-iterations", 20, "pr, ppr, hits, salsa: iteration cap (pr-delta runs to convergence)")
			fs.IntVar(&f.bcSources, "bc-sources", 1, "bc: sources per trial")
			fs.StringArrayVar(&f.externals, "external", nil, "[APP:]NAME='COMMAND {graph} {source}': time another program on the same graph (repeatable)")
			fs.StringVar(&f.out, "out", "", "write results.json, results.csv and table.txt into this directory")
			fs.StringVar(&f.engines, "engines", "multigraph", "comma-separated engines of bfs and sssp: multigraph (the backends as named), operators (their twins cpu-ops, cuda-ops: bfs, sssp and the operator apps with the operators)")
			fs.StringVar(&f.lb, "lb", "auto", "comma-separated load balancing of the operator backends: auto, thread, twc, lb (one twin each; needs --engines operators)")
			f.in.register(fs)
			f.lf.register(fs)
			return func(ctx context.Context, e *env, args []string) error { return f.run(ctx, e, fs, args) }
		},
	}
}

// applyConfig sets, from a config file, the flags not given on the command
// line. A file named *.json holds one object of flag names and values
// (strings, numbers, booleans, or arrays for repeatable flags such as
// "external"); any other file holds 'name = value' lines.
func applyConfig(fs *pflag.FlagSet, path string) error {
	if strings.EqualFold(filepath.Ext(path), ".json") {
		return applyJSONConfig(fs, path)
	}
	file, err := os.Open(path)
	if err != nil {
		return usageError("--config: %v", err)
	}
	defer file.Close()
	set := map[string]bool{}
	fs.Visit(func(fl *pflag.Flag) { set[fl.Name] = true })
	sc := bufio.NewScanner(file)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		name, value, ok := strings.Cut(text, "=")
		if !ok {
			name, value, ok = strings.Cut(text, ":")
		}
		name, value = strings.TrimPrefix(strings.TrimSpace(name), "--"), strings.TrimSpace(value)
		if !ok || name == "" {
			return usageError("%s:%d: want 'name = value', got %q", path, line, text)
		}
		value = strings.Trim(value, `"'`)
		if name == "config" || fs.Lookup(name) == nil {
			return usageError("%s:%d: unknown flag %q", path, line, name)
		}
		if set[name] {
			continue
		}
		if err := fs.Set(name, value); err != nil {
			return usageError("%s:%d: %s: %v", path, line, name, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("--config %s: %w", path, err)
	}
	return nil
}

// applyJSONConfig is applyConfig for a JSON object of flag names and
// values, set in sorted name order.
func applyJSONConfig(fs *pflag.FlagSet, path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return usageError("--config: %v", err)
	}
	var obj map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&obj); err != nil {
		return usageError("--config %s: want one JSON object of flag names and values: %v", path, err)
	}
	set := map[string]bool{}
	fs.Visit(func(fl *pflag.Flag) { set[fl.Name] = true })
	names := make([]string, 0, len(obj))
	for name := range obj {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, key := range names {
		name := strings.TrimPrefix(key, "--")
		if name == "config" || fs.Lookup(name) == nil {
			return usageError("%s: unknown flag %q", path, key)
		}
		if set[name] {
			continue
		}
		values, ok := obj[key].([]any)
		if !ok {
			values = []any{obj[key]}
		}
		for _, v := range values {
			var text string
			switch x := v.(type) {
			case string:
				text = x
			case json.Number:
				text = x.String()
			case bool:
				text = strconv.FormatBool(x)
			default:
				return usageError("%s: %s: want a string, number, boolean or an array of them, got %v", path, key, v)
			}
			if err := fs.Set(name, text); err != nil {
				return usageError("%s: %s: %v", path, key, err)
			}
		}
	}
	return nil
}

// plan turns the flags into a bench plan.
func (f *benchFlags) plan(args []string) (bench.Plan, error) {
	p := bench.DefaultPlan()
	var err error
	if p.Apps, err = bench.ParseApps(f.apps); err != nil {
		return p, usageError("--apps: %v", err)
	}
	for _, a := range args {
		if _, err := os.Stat(a); err != nil && (slices.Contains(bench.Apps, a) || a == "all") {
			return p, usageError("%q is taken as a graph: give optional-value flags with '=' (--oracle=%s)", a, a)
		}
	}
	p.Graphs = append(bench.SplitGraphs(f.graphs), args...)
	if len(p.Graphs) == 0 {
		return p, usageError("no graphs: give --graphs or GRAPH arguments (files or specs such as rmat:18)")
	}
	if p.Modes, err = bench.ParseModes(f.modes); err != nil {
		return p, usageError("--modes: %v", err)
	}
	if p.Backends, err = bench.ParseBackends(f.backends); err != nil {
		return p, usageError("--backends: %v", err)
	}
	if p.Backends, err = f.engineBackends(p.Backends); err != nil {
		return p, err
	}
	switch {
	case f.trials < 1:
		return p, usageError("--trials must be at least 1, got %d", f.trials)
	case f.in.threads < 0:
		return p, usageError("--threads must be ≥ 0, got %d", f.in.threads)
	case f.budget < 0:
		return p, usageError("--budget must be ≥ 0, got %s", f.budget)
	case f.oracleRepeats < 1:
		return p, usageError("--oracle-repeats must be at least 1, got %d", f.oracleRepeats)
	case f.prIterations < 0:
		return p, usageError("--pr-iterations must be ≥ 0, got %d", f.prIterations)
	case f.bcSources < 1:
		return p, usageError("--bc-sources must be at least 1, got %d", f.bcSources)
	}
	p.Trials, p.Threads, p.Seed, p.Budget = f.trials, f.in.threads, f.seed, f.budget
	p.GenSeed, p.WeightSeed, p.Symmetrize = f.in.seed, f.weightSeed, f.symmetrize
	p.Format, p.UndirectedInput, p.IgnoreWeights = f.in.format, f.in.undirected, f.in.noWeights
	p.Renumber, p.RenumberSeed = f.renumber, f.renumberSeed
	p.OracleRepeats, p.BCSources = f.oracleRepeats, f.bcSources
	p.PageRank.MaxIterations = f.prIterations
	if f.oracle != "" {
		for _, a := range strings.Split(f.oracle, ",") {
			if a = strings.TrimSpace(a); a != "" {
				p.Oracle = append(p.Oracle, a)
			}
		}
	}
	for _, x := range f.externals {
		ext, err := bench.ParseExternal(x)
		if err != nil {
			return p, usageError("--external: %v", err)
		}
		p.Externals = append(p.Externals, ext)
	}
	if p.Params, err = f.lf.params(); err != nil {
		return p, err
	}
	p.PreprocessOn, _ = f.lf.where()
	p.CacheDir, p.NoCache, p.CacheLevel = f.lf.cacheDir, f.lf.noCache, f.lf.level
	if err := p.Validate(); err != nil {
		return p, usageError("%v", err)
	}
	return p, nil
}

func (f *benchFlags) run(ctx context.Context, e *env, fs *pflag.FlagSet, args []string) error {
	registerBenchBackends()
	if f.config != "" {
		if err := applyConfig(fs, f.config); err != nil {
			return err
		}
	}
	p, err := f.plan(args)
	if err != nil {
		return err
	}
	if slices.ContainsFunc(p.Backends, isCUDABackend) && !cuda.Available() {
		return errors.New("--backends cuda: no CUDA device visible (no GPU, or no usable driver)")
	}
	res, err := bench.Run(ctx, p, bench.Options{Log: e.stdout, Progress: e.stderr, Commit: buildVersion()})
	if err != nil {
		if res != nil && f.out != "" && len(res.Trials) > 0 {
			if werr := bench.WriteDir(f.out, res); werr == nil {
				fmt.Fprintf(e.stderr, "wrote the %d trials measured so far to %s\n", len(res.Trials), f.out)
			}
		}
		return err
	}
	fmt.Fprintln(e.stdout)
	if err := bench.WriteTable(e.stdout, res); err != nil {
		return err
	}
	for _, n := range res.Notes {
		fmt.Fprintf(e.stderr, "note: %s\n", n)
	}
	if f.out != "" {
		if err := bench.WriteDir(f.out, res); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "\nwrote %s/results.json, results.csv and table.txt (%s wall); 'mgraph report %s' makes the plots\n",
			f.out, bench.FormatSeconds(res.WallSeconds), f.out)
	}
	return nil
}

// benchNew loads a layout onto a backend kind for bench (bench.Backend.New).
type benchNew = func(l *layout.Layout, threads int) (engine.Backend, time.Duration, error)

// isCUDABackend reports whether a bench backend runs on the GPU (cuda and
// its operator twins).
func isCUDABackend(name string) bool { return name == "cuda" || strings.HasPrefix(name, "cuda-ops") }

// opsBackendName names the operator twin of backend base with strategy st:
// base-ops for auto, base-ops-STRATEGY otherwise.
func opsBackendName(base string, st ops.Strategy) string {
	if st == ops.Auto {
		return base + "-ops"
	}
	return base + "-ops-" + st.String()
}

// engineBackends applies --engines and --lb to the plan's backends: with
// multigraph each backend stays; with operators each gets a twin per
// strategy (registered here) on which apps.Run runs bfs and sssp with the
// operators.
func (f *benchFlags) engineBackends(base []string) ([]string, error) {
	var engines []apps.Engine
	for _, x := range strings.Split(f.engines, ",") {
		if x = strings.TrimSpace(x); x == "" {
			continue
		}
		e, err := apps.ParseEngine(x)
		if err != nil {
			return nil, usageError("--engines: %v", err)
		}
		if !slices.Contains(engines, e) {
			engines = append(engines, e)
		}
	}
	if len(engines) == 0 {
		return nil, usageError("--engines: no engines in %q (want multigraph, operators or both)", f.engines)
	}
	var strategies []ops.Strategy
	for _, x := range strings.Split(f.lb, ",") {
		if x = strings.TrimSpace(x); x == "" {
			continue
		}
		st, err := ops.ParseStrategy(x)
		if err != nil {
			return nil, usageError("--lb: %v", err)
		}
		if !slices.Contains(strategies, st) {
			strategies = append(strategies, st)
		}
	}
	if len(strategies) == 0 {
		return nil, usageError("--lb: no strategies in %q (want auto, thread, twc or lb)", f.lb)
	}
	operators := slices.Contains(engines, apps.Operators)
	if !operators && !slices.Equal(strategies, []ops.Strategy{ops.Auto}) {
		return nil, usageError("--lb is the operators' load balancing: add --engines operators (or multigraph,operators)")
	}
	var out []string
	for _, b := range base {
		if slices.Contains(engines, apps.MultiGraph) {
			out = append(out, b)
		}
		if !operators {
			continue
		}
		var newBase benchNew
		switch b {
		case "cpu":
			newBase = func(l *layout.Layout, threads int) (engine.Backend, time.Duration, error) {
				c, err := cpu.New(l, threads)
				return c, 0, err
			}
		case "cuda":
			newBase = cudaBenchNew()
		}
		if newBase == nil {
			return nil, usageError("--engines operators: backend %s has no operator twin (cpu and cuda have)", b)
		}
		for _, st := range strategies {
			name := opsBackendName(b, st)
			registerOpsBackend(name, b, newBase, apps.OpsOptions{Strategy: st})
			out = append(out, name)
		}
	}
	return out, nil
}

// registerOpsBackend registers name, the operator twin of backend base:
// base's backends marked by apps.WithOperators(o). It has no steppers:
// the per-iteration oracle is the MultiGraph engines' (it runs on base).
func registerOpsBackend(name, base string, newBase benchNew, o apps.OpsOptions) {
	bench.RegisterBackend(name, bench.Backend{
		New: func(l *layout.Layout, threads int) (engine.Backend, time.Duration, error) {
			b, upload, err := newBase(l, threads)
			if err != nil {
				return nil, 0, err
			}
			return apps.WithOperators(b, o), upload, nil
		},
		Steppers: func(*layout.Layout, int) (engine.DenseStepper[uint32], engine.SparseStepper[uint32], error) {
			return nil, nil, fmt.Errorf("%s runs the operators, which have no dense and sparse steppers (the oracle runs on %s)", name, base)
		},
		DeviceTime: base == "cuda",
	})
}
