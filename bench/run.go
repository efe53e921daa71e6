package bench

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"time"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/layout"
)

// Options are how Run reports while it works.
type Options struct {
	// Log gets one line per trial and per finished step (nil: silent).
	Log io.Writer
	// Progress gets the progress meters of reading, generating and
	// preprocessing, drawn only when it is a terminal (nil: none).
	Progress io.Writer
	// Commit describes the build for the environment record.
	Commit string
}

// runner is one execution of a plan.
type runner struct {
	plan  *Plan
	opts  Options
	log   io.Writer
	prep  *preparer
	res   *Results
	done  int // configurations finished
	total int // configurations planned
	start time.Time
}

// Run executes the plan and returns every measurement. An app that fails on
// a backend in a mode at its first trial (no implementation there, a
// layout the device cannot hold) is recorded as an error row (Trial.Error)
// with a note, and the plan goes on; so does a failed oracle (a note). A
// later trial's failure, a failing external, a graph that cannot be
// prepared, or a cancelled context stop the run with an error that names
// the configuration, and the results measured until then (with a note
// saying so).
func Run(ctx context.Context, plan Plan, opts Options) (*Results, error) {
	if err := plan.Validate(); err != nil {
		return nil, err
	}
	r := &runner{plan: &plan, opts: opts, log: opts.Log, start: time.Now()}
	if r.log == nil {
		r.log = io.Discard
	}
	progressW := opts.Progress
	if progressW == nil {
		progressW = io.Discard
	}
	var err error
	if r.prep, err = newPreparer(&plan, progressW); err != nil {
		return nil, err
	}
	r.res = &Results{FormatVersion: FormatVersion, Environment: CollectEnvironment(opts.Commit, plan), Plan: plan.record()}
	if slices.Contains(plan.Backends, "cuda") {
		fmt.Fprintf(r.log, "probing the GPU's memory bandwidth…\n")
		ProbeBandwidth(&r.res.Environment)
		if pr := r.res.Environment.Probe; pr != nil {
			fmt.Fprintf(r.log, "  %s: copy %.0f GB/s, read %.0f GB/s\n", pr.Name, pr.CopyGBps, pr.ReadGBps)
		} else {
			fmt.Fprintf(r.log, "  %s\n", r.res.Environment.ProbeError)
		}
	}
	numberings := 1
	if plan.Renumber {
		numberings = 2
	}
	r.total = len(plan.Graphs) * numberings * (len(plan.Apps)*len(plan.Backends)*len(plan.Modes) + len(plan.Externals))
	for _, g := range plan.Graphs { // fail before hours of work, not after
		if _, err := newSource(g); err != nil {
			return nil, err
		}
	}
	for _, g := range plan.Graphs {
		if err := r.graph(ctx, g); err != nil {
			r.res.WallSeconds = time.Since(r.start).Seconds()
			r.res.Notes = append(r.res.Notes, "incomplete run: "+err.Error())
			return r.res, err
		}
	}
	r.res.WallSeconds = time.Since(r.start).Seconds()
	return r.res, nil
}

// loadedLayout is a layout with its preparation record.
type loadedLayout struct {
	l   *layout.Layout
	rec Prep
}

// graphRun holds one graph's layouts while its configurations run.
type graphRun struct {
	src     *source
	layouts map[variant]*loadedLayout
	sources []uint32 // original numbering, drawn once per graph
}

func (r *runner) graph(ctx context.Context, name string) error {
	src, err := newSource(name)
	if err != nil {
		return err
	}
	g := &graphRun{src: src, layouts: map[variant]*loadedLayout{}}
	for _, renumber := range []bool{false, true} {
		if renumber && !r.plan.Renumber {
			break
		}
		for _, app := range r.plan.Apps {
			if err := r.app(ctx, g, app, renumber); err != nil {
				return err
			}
		}
		if len(r.plan.Externals) > 0 {
			if err := r.externals(ctx, g, renumber); err != nil {
				return err
			}
		}
		if !renumber {
			for _, app := range r.plan.Oracle {
				if err := r.oracle(ctx, g, app); err != nil {
					return err
				}
			}
		}
		for v := range g.layouts { // free this numbering's layouts
			if v.renumber == renumber {
				delete(g.layouts, v)
			}
		}
	}
	return nil
}

// layoutOf returns (loading once) the layout of a variant of g.
func (r *runner) layoutOf(ctx context.Context, g *graphRun, v variant) (*loadedLayout, error) {
	if ll, ok := g.layouts[v]; ok {
		return ll, nil
	}
	fmt.Fprintf(r.log, "preparing %s (%s)…\n", g.src.name, v.name())
	l, rec, err := r.prep.layout(ctx, g.src, v)
	if err != nil {
		return nil, err
	}
	how := fmt.Sprintf("preprocessed in %s", FormatSeconds(rec.PreprocessSeconds))
	if rec.Cached {
		how = fmt.Sprintf("loaded from the cache in %s", FormatSeconds(rec.CacheLoadSeconds))
	}
	if rec.ReadSeconds > 0 {
		how = fmt.Sprintf("read/generated in %s, %s", FormatSeconds(rec.ReadSeconds), how)
	}
	fmt.Fprintf(r.log, "  %d vertices, %d arcs; %s\n", l.NumVertices, l.NumArcs, how)
	r.res.Preps = append(r.res.Preps, rec)
	ll := &loadedLayout{l: l, rec: rec}
	g.layouts[v] = ll
	return ll, nil
}

// appLayouts returns the forward (and, for bc on a directed graph, the
// backward) layout an app runs on.
func (r *runner) appLayouts(ctx context.Context, g *graphRun, app string, renumber bool) (fwd, bwd *loadedLayout, err error) {
	v := variant{renumber: renumber, weights: app == "sssp"}
	if fwd, err = r.layoutOf(ctx, g, v); err != nil {
		return nil, nil, err
	}
	if apps.Undirected(app) && fwd.l.Directed {
		v.symmetrize = true
		if fwd, err = r.layoutOf(ctx, g, v); err != nil {
			return nil, nil, err
		}
	}
	bwd = fwd
	if app == "bc" && fwd.l.Directed {
		v.transpose = true
		if bwd, err = r.layoutOf(ctx, g, v); err != nil {
			return nil, nil, err
		}
	}
	return fwd, bwd, nil
}

// pickSources draws the graph's sources once, in original numbering, as
// `mgraph run` does: random vertices with out-degree > 0 from the seed.
func (r *runner) pickSources(l *layout.Layout, count int) []uint32 {
	n := l.NumVertices
	if n == 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(r.plan.Seed, 0x736f75726365)) // stream: "source"
	out := make([]uint32, 0, count)
	for tries := 0; len(out) < count; tries++ {
		v := uint32(rng.Uint64N(n))
		if l.OutDegree(l.Perm[v]) > 0 || tries > 1000*count {
			out = append(out, v)
		}
	}
	return out
}

// trialSources returns trial t's sources (original numbering of the
// variant: renumbered ids for the renumbered graph).
func (r *runner) trialSources(g *graphRun, app string, t int, renumber bool, n uint64) []uint32 {
	var s []uint32
	switch {
	case apps.SingleSource(app):
		s = []uint32{g.sources[t]}
	case app == "bc":
		k := r.plan.BCSources
		s = slices.Clone(g.sources[t*k : (t+1)*k])
	default:
		return nil
	}
	if renumber {
		perm := graph.RandomPermutation(n, r.plan.RenumberSeed)
		for i, v := range s {
			s[i] = perm[v]
		}
	}
	return s
}

func (r *runner) ensureSources(ctx context.Context, g *graphRun, app string) error {
	if g.sources != nil {
		return nil
	}
	ll, _, err := r.appLayouts(ctx, g, app, false)
	if err != nil {
		return err
	}
	g.sources = r.pickSources(ll.l, r.plan.Trials*max(1, r.plan.BCSources))
	return nil
}

// app runs every backend × mode × trial of one app on one numbering.
func (r *runner) app(ctx context.Context, g *graphRun, app string, renumber bool) error {
	if err := r.ensureSources(ctx, g, app); err != nil {
		return err
	}
	fwd, bwd, err := r.appLayouts(ctx, g, app, renumber)
	if err != nil {
		return err
	}
	numbering := map[bool]string{false: "original", true: "renumbered"}[renumber]
	p := r.plan
	for _, bname := range p.Backends {
		if err := r.appOnBackend(ctx, g, app, numbering, renumber, bname, fwd, bwd); err != nil {
			return err
		}
	}
	return nil
}

// appOnBackend runs every mode × trial of app on one backend. A failure of
// the app there (the backend cannot load the layout, or has no
// implementation of the app) is recorded as an error row per mode and the
// plan goes on; only a cancelled context stops it.
func (r *runner) appOnBackend(ctx context.Context, g *graphRun, app, numbering string, renumber bool, bname string, fwd, bwd *loadedLayout) (err error) {
	p := r.plan
	bk, _ := backendFor(bname)
	row := func(mode engine.Mode, t int) Trial {
		return Trial{App: app, Graph: g.src.name, Vertices: fwd.l.NumVertices, Arcs: fwd.l.NumArcs,
			Numbering: numbering, Variant: fwd.rec.Variant, Mode: mode.String(), Backend: bname, Threads: p.Threads,
			Trial: t, ReadSeconds: fwd.rec.ReadSeconds, PreprocessSeconds: fwd.rec.PreprocessSeconds,
			CacheLoadSeconds: fwd.rec.CacheLoadSeconds}
	}
	// failed records err as the error row of every mode from modes on.
	failed := func(modes []engine.Mode, what string, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		for _, mode := range modes {
			tr := row(mode, 1)
			tr.Error = fmt.Sprintf("%s: %v", what, err)
			r.res.Trials = append(r.res.Trials, tr)
			r.done++
			fmt.Fprintf(r.log, "[%d/%d %s] %s %s %s %s/%s: FAILED: %s\n", r.done, r.total, r.elapsed(), app,
				g.src.name, numbering, bname, mode, tr.Error)
		}
		r.res.Notes = append(r.res.Notes, fmt.Sprintf("%s on %s (%s, %s): %s: %v", app, g.src.name, numbering, bname, what, err))
		return nil
	}
	fb, upload, err := bk.New(fwd.l, p.Threads)
	if err != nil {
		return failed(p.Modes, "backend "+bname, err)
	}
	defer func() {
		if cerr := closeIfCloser(fb); cerr != nil && err == nil {
			err = fmt.Errorf("%s on %s: closing backend %s: %w", app, g.src.name, bname, cerr)
		}
	}()
	bb := fb
	if bwd != fwd {
		var up2 time.Duration
		if bb, up2, err = bk.New(bwd.l, p.Threads); err != nil {
			return failed(p.Modes, "backend "+bname+" (transposed)", err)
		}
		defer func() {
			if cerr := closeIfCloser(bb); cerr != nil && err == nil {
				err = fmt.Errorf("%s on %s: closing backend %s (transposed): %w", app, g.src.name, bname, cerr)
			}
		}()
		upload += up2
	}
modes:
	for mi, mode := range p.Modes {
		var spent float64
		for t := 0; t < p.Trials; t++ {
			if t > 0 && p.Budget > 0 && spent >= p.Budget.Seconds() {
				fmt.Fprintf(r.log, "  (budget of %s spent after %d trials)\n", p.Budget, t)
				break
			}
			srcs := r.trialSources(g, app, t, renumber, fwd.l.NumVertices)
			res, secs, err := r.runApp(ctx, app, fb, bb, srcs, mode)
			if err != nil {
				if t == 0 {
					// The app does not run here (in this mode): one error
					// row for this mode; the other modes are tried.
					if ferr := failed(p.Modes[mi:mi+1], mode.String()+" mode", err); ferr != nil {
						return ferr
					}
					continue modes
				}
				return fmt.Errorf("%s on %s (%s, %s, %s, trial %d): %w", app, g.src.name, numbering, bname, mode, t+1, err)
			}
			spent += secs
			tr := row(mode, t+1)
			tr.Threads, tr.Sources, tr.Seconds, tr.EngineSecs, tr.CopySecs = fb.Workers(), srcs, secs, res.Seconds, res.CopySeconds
			tr.MTEPS = TEPS(app, fwd.l.NumArcs, res.Iterations, len(srcs), secs) / 1e6
			tr.Iterations, tr.Switches, tr.UploadSeconds = res.Iterations, res.Switches, upload.Seconds()
			r.res.Trials = append(r.res.Trials, tr)
			fmt.Fprintf(r.log, "[%d/%d %s] %s %s %s %s/%s trial %d: %s (engine %s, copy %s), %.1f MTEPS, %d iterations, %d switches\n",
				r.done+1, r.total, r.elapsed(), app, g.src.name, numbering, bname, mode, t+1,
				FormatSeconds(secs), FormatSeconds(res.Seconds), FormatSeconds(res.CopySeconds), tr.MTEPS, res.Iterations, res.Switches)
		}
		r.done++
	}
	return nil
}

// runApp runs one trial and returns its result and wall time.
func (r *runner) runApp(ctx context.Context, app string, fwd, bwd engine.Backend, srcs []uint32, mode engine.Mode) (engine.Result, float64, error) {
	p := r.plan
	opts := engine.RunOptions{Mode: mode, Seed: p.Seed}
	pr := p.PageRank
	if app == "pr-delta" {
		pr.MaxIterations = 0
	}
	start := time.Now()
	_, res, err := apps.Run(ctx, app, fwd, bwd, srcs, pr, opts)
	return res, time.Since(start).Seconds(), err
}

func (r *runner) elapsed() string {
	return time.Since(r.start).Truncate(time.Second).String()
}

// oracle runs the per-iteration oracle of app on g's original numbering,
// from the first source, on every backend of the plan.
func (r *runner) oracle(ctx context.Context, g *graphRun, app string) error {
	if err := r.ensureSources(ctx, g, app); err != nil {
		return err
	}
	fwd, _, err := r.appLayouts(ctx, g, app, false)
	if err != nil {
		return err
	}
	for _, bname := range r.plan.Backends {
		bk, _ := backendFor(bname)
		b, _, err := bk.New(fwd.l, r.plan.Threads)
		if err != nil {
			if err := r.oracleFailed(ctx, app, g, bname, fmt.Errorf("backend %s: %w", bname, err)); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(r.log, "[%s] oracle %s on %s (%s): stepping every iteration in both modes…\n", r.elapsed(), app, g.src.name, bname)
		o, err := Oracle(ctx, bname, b, fwd.l, app, g.sources[0], r.plan.OracleRepeats, r.plan.Seed)
		if cerr := closeIfCloser(b); cerr != nil && err == nil {
			err = fmt.Errorf("closing backend %s: %w", bname, cerr)
		}
		if err != nil {
			if err := r.oracleFailed(ctx, app, g, bname, err); err != nil {
				return err
			}
			continue
		}
		o.Graph = g.src.name
		if o.Mismatches > 0 {
			r.res.Notes = append(r.res.Notes, fmt.Sprintf("oracle %s on %s: the modes disagreed in %d iterations", app, g.src.name, o.Mismatches))
		}
		r.res.Oracles = append(r.res.Oracles, *o)
		fmt.Fprintf(r.log, "  %d iterations: sparse only %s, dense only %s, best %s, hybrid's choices %s (regret %+.1f%%); "+
			"async run %s, auto run %s (%+.1f%% of the best possible %s)\n",
			len(o.Iterations), FormatSeconds(o.TotalSparse), FormatSeconds(o.TotalDense), FormatSeconds(o.TotalBest),
			FormatSeconds(o.TotalChosen), o.RegretPercent, FormatSeconds(o.AsyncRunSeconds), FormatSeconds(o.AutoRunSeconds),
			o.AutoRunRegretPercent, FormatSeconds(o.BestPossible))
	}
	return nil
}

// oracleFailed records a failed oracle as a note (the plan goes on),
// unless the run was cancelled.
func (r *runner) oracleFailed(ctx context.Context, app string, g *graphRun, bname string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	msg := fmt.Sprintf("oracle %s on %s (%s) failed: %v", app, g.src.name, bname, err)
	fmt.Fprintf(r.log, "  %s\n", msg)
	r.res.Notes = append(r.res.Notes, msg)
	return nil
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// externals times the plan's external programs on g's numbering.
func (r *runner) externals(ctx context.Context, g *graphRun, renumber bool) error {
	p := r.plan
	numbering := map[bool]string{false: "original", true: "renumbered"}[renumber]
	if g.sources == nil {
		// Sources need a layout of the original numbering.
		if err := r.ensureSources(ctx, g, "bfs"); err != nil {
			return err
		}
	}
	dir, err := os.MkdirTemp("", "mgraph-bench-")
	if err != nil {
		return fmt.Errorf("externals: %w", err)
	}
	defer os.RemoveAll(dir)
	base, err := r.prep.read(ctx, g.src)
	if err != nil {
		return err
	}
	files := map[variant]map[string]string{}
	for i := range p.Externals {
		x := &p.Externals[i]
		weights := x.App == "sssp"
		for _, f := range x.formats() {
			if f == "wel" || f == "gr" {
				weights = true
			}
		}
		v := variant{renumber: renumber, weights: weights}
		el := r.prep.derive(base, v)
		if files[v] == nil {
			files[v] = map[string]string{}
		}
		for _, f := range x.formats() {
			if files[v][f] != "" {
				continue
			}
			name := unsafeName.ReplaceAllString(g.src.name+"-"+v.name(), "_")
			path, err := writeGraphFile(ctx, dir, name, f, el, p.Threads)
			if err != nil {
				return err
			}
			files[v][f] = path
		}
		app := x.App
		if app == "" {
			app = "external"
		}
		var spent float64
		for t := 0; t < p.Trials; t++ {
			if t > 0 && p.Budget > 0 && spent >= p.Budget.Seconds() {
				break
			}
			var srcs []uint32
			if x.usesSource() || x.App == "bfs" || x.App == "sssp" || x.App == "bc" {
				a := x.App
				if a == "" || a == "external" || (a != "bc" && a != "sssp") {
					a = "bfs"
				}
				srcs = r.trialSources(g, a, t, renumber, el.NumVertices)
			}
			var s0 uint32
			if len(srcs) > 0 {
				s0 = srcs[0]
			}
			cmdline := x.expand(files[v], s0, p.Threads)
			secs, err := runExternal(ctx, x, cmdline)
			if err != nil {
				return fmt.Errorf("%s on %s (%s, trial %d): %w", x.Name, g.src.name, numbering, t+1, err)
			}
			spent += secs
			tr := Trial{App: app, Graph: g.src.name, Vertices: el.NumVertices, Arcs: el.NumArcs(), Numbering: numbering,
				Variant: v.name(), Mode: "external", Backend: x.Name, Threads: p.Threads, Trial: t + 1, Sources: srcs,
				Seconds: secs, EngineSecs: secs, MTEPS: TEPS(app, el.NumArcs(), 1, len(srcs), secs) / 1e6, Command: cmdline}
			r.res.Trials = append(r.res.Trials, tr)
			fmt.Fprintf(r.log, "[%d/%d %s] external %s on %s %s trial %d: %s (whole process)\n",
				r.done+1, r.total, r.elapsed(), x.Name, g.src.name, numbering, t+1, FormatSeconds(secs))
		}
		r.done++
	}
	return nil
}

// WriteDir writes results.json, results.csv and table.txt (the printed
// table) under dir, creating it.
func WriteDir(dir string, r *Results) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	write := func(name string, fill func(io.Writer) error) error {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			return fmt.Errorf("results: %w", err)
		}
		if err := fill(f); err != nil {
			f.Close()
			return fmt.Errorf("results: write %s: %w", path, err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("results: write %s: %w", path, err)
		}
		return nil
	}
	if err := write("results.json", func(w io.Writer) error { return writeJSON(w, r) }); err != nil {
		return err
	}
	if err := write("results.csv", func(w io.Writer) error { return WriteCSV(w, r.Trials) }); err != nil {
		return err
	}
	return write("table.txt", func(w io.Writer) error { return WriteTable(w, r) })
}
