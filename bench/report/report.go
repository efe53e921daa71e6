// Package report turns benchmark results (bench.Results, as written by
// `mgraph bench --out`) into plots, as PNG and SVG, and one Markdown page,
// report.md, that shows where the engine stands: MTEPS per app and graph by
// mode (the style of the MultiGraph paper's Figs. 8–13), the renumbering
// slowdowns, the per-iteration oracle (Table 2) as a chart and a table, the
// preparation times and the environment.
package report

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mgraph-dev/mgraph/bench"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Options tune Generate.
type Options struct {
	// Title heads report.md ("mgraph benchmark report" when empty).
	Title string
	// Sources names the result files the report was made from.
	Sources []string
	// MaxOracleRows caps each per-iteration table of report.md (the chart
	// shows every iteration); 0 means 40.
	MaxOracleRows int
}

// Generate writes the plots (each as .png and .svg) and report.md into dir
// and returns the paths written.
func Generate(dir string, r *bench.Results, opts Options) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	if opts.MaxOracleRows == 0 {
		opts.MaxOracleRows = 40
	}
	g := &gen{dir: dir, r: r, opts: opts, sums: bench.Summarize(r.Trials)}
	g.slow = bench.Slowdowns(g.sums)
	if err := g.mtepsCharts(); err != nil {
		return g.files, err
	}
	if err := g.renumberCharts(); err != nil {
		return g.files, err
	}
	if err := g.oracleCharts(); err != nil {
		return g.files, err
	}
	if err := g.bandwidthChart(); err != nil {
		return g.files, err
	}
	if err := g.markdown(); err != nil {
		return g.files, err
	}
	return g.files, nil
}

type gen struct {
	dir   string
	r     *bench.Results
	opts  Options
	sums  []bench.Summary
	slow  []bench.Slowdown
	files []string
	// images lists the charts per section, base names without extension.
	mteps, renumber, oracle []string
	// bw are the GPU dense steps against the bandwidth limit, bwChart
	// their chart ("" when none).
	bw      []BandwidthRow
	bwChart string
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func fileName(parts ...string) string {
	return unsafeName.ReplaceAllString(strings.Join(parts, "-"), "_")
}

// save writes p as base.png and base.svg.
func (g *gen) save(p *plot.Plot, base string, w, h vg.Length) error {
	for _, ext := range []string{".png", ".svg"} {
		path := filepath.Join(g.dir, base+ext)
		if err := p.Save(w, h, path); err != nil {
			return fmt.Errorf("report: save %s: %w", path, err)
		}
		g.files = append(g.files, path)
	}
	return nil
}

// palette is colour-blind-safe (Okabe–Ito), mode colours first.
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{0, 158, 115, 255},   // green
	color.RGBA{204, 121, 167, 255}, // purple
	color.RGBA{86, 180, 233, 255},  // sky
	color.RGBA{213, 94, 0, 255},    // vermillion
	color.RGBA{240, 228, 66, 255},  // yellow
	color.RGBA{0, 0, 0, 255},
}

// seriesColor gives the modes fixed colours across charts.
func seriesColor(series string, i int) color.Color {
	switch series {
	case "hybrid":
		return palette[0]
	case "dense":
		return palette[1]
	case "sparse":
		return palette[2]
	}
	return palette[3+i%(len(palette)-3)]
}

// order returns the distinct values of key over xs in first-seen order.
func order[T any](xs []T, key func(T) string) []string {
	var out []string
	for _, x := range xs {
		if k := key(x); !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

func newPlot(title, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.Y.Label.Text = ylabel
	p.Y.Label.TextStyle.Font.Size = vg.Points(11)
	p.X.Tick.Label.Font.Size = vg.Points(10)
	p.Y.Tick.Label.Font.Size = vg.Points(10)
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(10)
	p.Add(plotter.NewGrid())
	return p
}

// groupedBars adds one bar series per name in series over the groups;
// value(group, series) returns NaN for a missing bar.
func groupedBars(p *plot.Plot, groups, series []string, value func(g, s string) float64) error {
	width := vg.Points(math.Max(8, math.Min(28, 300/float64(len(groups)*len(series)+1))))
	for i, s := range series {
		vals := make(plotter.Values, len(groups))
		for j, gname := range groups {
			v := value(gname, s)
			if math.IsNaN(v) {
				v = 0
			}
			vals[j] = v
		}
		bars, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return err
		}
		bars.LineStyle.Width = vg.Length(0)
		bars.Color = seriesColor(s, i)
		bars.Offset = vg.Length(float64(i)-float64(len(series)-1)/2) * width
		p.Add(bars)
		p.Legend.Add(s, bars)
	}
	p.NominalX(groups...)
	// Bar offsets are in points, not data units, so the automatic range
	// would clip the outer bars: leave half a group of room on each side.
	p.X.Min, p.X.Max = -0.5, float64(len(groups))-0.5
	return nil
}

// mtepsCharts draws, per app, MTEPS by graph (groups) and mode (bars), on
// the original numbering.
func (g *gen) mtepsCharts() error {
	var orig []bench.Summary
	for _, s := range g.sums {
		if s.Numbering == "original" && s.Error == "" {
			orig = append(orig, s)
		}
	}
	for _, app := range order(orig, func(s bench.Summary) string { return s.App }) {
		var sums []bench.Summary
		for _, s := range orig {
			if s.App == app {
				sums = append(sums, s)
			}
		}
		graphs := order(sums, func(s bench.Summary) string { return s.Graph })
		series := order(sums, func(s bench.Summary) string { return s.Series })
		p := newPlot(fmt.Sprintf("%s: MTEPS by mode (best of trials, higher is better)", strings.ToUpper(app)), "MTEPS")
		err := groupedBars(p, graphs, series, func(gr, se string) float64 {
			for _, s := range sums {
				if s.Graph == gr && s.Series == se {
					return s.MTEPS
				}
			}
			return math.NaN()
		})
		if err != nil {
			return fmt.Errorf("report: %s chart: %w", app, err)
		}
		p.Y.Min = 0
		top := 0.0
		for _, s := range sums {
			top = math.Max(top, s.MTEPS)
		}
		p.Y.Max = top * 1.3 // room for the legend
		base := fileName("mteps", app)
		if err := g.save(p, base, vg.Points(float64(260+150*len(graphs))), vg.Points(260)); err != nil {
			return err
		}
		g.mteps = append(g.mteps, base)
	}
	return nil
}

// renumberCharts draws, per graph, the slowdown of the renumbered graph by
// app (groups) and mode (bars).
func (g *gen) renumberCharts() error {
	for _, graph := range order(g.slow, func(s bench.Slowdown) string { return s.Graph }) {
		var sl []bench.Slowdown
		for _, s := range g.slow {
			if s.Graph == graph {
				sl = append(sl, s)
			}
		}
		appsOf := order(sl, func(s bench.Slowdown) string { return s.App })
		series := order(sl, func(s bench.Slowdown) string { return s.Series })
		p := newPlot(fmt.Sprintf("%s: time renumbered / original (above 1: slower)", graph), "slowdown ×")
		err := groupedBars(p, appsOf, series, func(a, se string) float64 {
			for _, s := range sl {
				if s.App == a && s.Series == se {
					return s.Ratio
				}
			}
			return math.NaN()
		})
		if err != nil {
			return fmt.Errorf("report: renumbering chart: %w", err)
		}
		one := plotter.NewFunction(func(float64) float64 { return 1 })
		one.Color = color.Gray{Y: 60}
		one.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		one.Width = vg.Points(1)
		p.Add(one)
		p.Y.Min = 0
		maxRatio := 1.0
		for _, s := range sl {
			maxRatio = max(maxRatio, s.Ratio)
		}
		p.Y.Max = maxRatio * 1.25 // room for the legend
		base := fileName("renumber", graph)
		if err := g.save(p, base, vg.Points(float64(240+70*len(appsOf))), vg.Points(260)); err != nil {
			return err
		}
		g.renumber = append(g.renumber, base)
	}
	return nil
}

// oracleCharts draws each oracle: sparse and dense time per iteration (log
// scale) with the hybrid's choice marked on the time of the mode it chose.
func (g *gen) oracleCharts() error {
	for _, o := range g.r.Oracles {
		p := newPlot(fmt.Sprintf("%s on %s: one iteration in each mode (oracle)", strings.ToUpper(o.App), o.Graph), "time per iteration (log scale)")
		p.X.Label.Text = "iteration"
		p.X.Label.TextStyle.Font.Size = vg.Points(11)
		p.Y.Scale = plot.LogScale{}
		n := len(o.Iterations)
		sparse, dense, pull := make(plotter.XYs, n), make(plotter.XYs, n), make(plotter.XYs, n)
		var chosenS, chosenD, chosenP plotter.XYs
		lo, hi := math.Inf(1), 0.0
		for i, it := range o.Iterations {
			ds, ss := math.Max(it.DenseSeconds, 1e-7), math.Max(it.SparseSeconds, 1e-7)
			sparse[i] = plotter.XY{X: float64(it.Iteration), Y: ss}
			dense[i] = plotter.XY{X: float64(it.Iteration), Y: ds}
			ps := math.Max(it.PullSeconds, 1e-7)
			pull[i] = plotter.XY{X: float64(it.Iteration), Y: ps}
			lo = math.Min(lo, math.Min(ds, ss))
			hi = math.Max(hi, math.Max(ds, ss))
			if o.HasPull {
				lo, hi = math.Min(lo, ps), math.Max(hi, ps)
			}
			switch it.Hybrid {
			case "pull":
				if o.HasPull {
					chosenP = append(chosenP, pull[i])
				} else {
					chosenP = append(chosenP, plotter.XY{X: float64(it.Iteration), Y: math.Max(it.HybridSeconds, 1e-7)})
				}
			case "sparse":
				chosenS = append(chosenS, sparse[i])
			case "dense":
				chosenD = append(chosenD, dense[i])
			}
		}
		small := n <= 80
		lines := []struct {
			name string
			xy   plotter.XYs
			c    color.Color
		}{{"sparse", sparse, seriesColor("sparse", 0)}, {"dense", dense, seriesColor("dense", 0)}}
		if o.HasPull {
			lines = append(lines, struct {
				name string
				xy   plotter.XYs
				c    color.Color
			}{"pull", pull, palette[3]})
		}
		for _, line := range lines {
			l, err := plotter.NewLine(line.xy)
			if err != nil {
				return fmt.Errorf("report: oracle chart: %w", err)
			}
			l.Color, l.Width = line.c, vg.Points(1.5)
			p.Add(l)
			if small {
				sc, _ := plotter.NewScatter(line.xy)
				sc.GlyphStyle = draw.GlyphStyle{Color: line.c, Radius: vg.Points(2), Shape: draw.CircleGlyph{}}
				p.Add(sc)
			}
			p.Legend.Add(line.name, l)
		}
		for _, ch := range []struct {
			name string
			xy   plotter.XYs
		}{{"hybrid chose sparse", chosenS}, {"hybrid chose dense", chosenD}, {"hybrid chose pull", chosenP}} {
			if len(ch.xy) == 0 {
				continue
			}
			sc, err := plotter.NewScatter(ch.xy)
			if err != nil {
				return fmt.Errorf("report: oracle chart: %w", err)
			}
			r := vg.Points(5)
			if !small {
				r = vg.Points(2.5)
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: r, Shape: draw.RingGlyph{}}
			switch ch.name {
			case "hybrid chose dense":
				sc.GlyphStyle.Shape = draw.BoxGlyph{}
				sc.GlyphStyle.Color = color.RGBA{213, 94, 0, 255}
				sc.GlyphStyle.Radius = r * 0.7
			case "hybrid chose pull":
				sc.GlyphStyle.Shape = draw.TriangleGlyph{}
				sc.GlyphStyle.Color = color.RGBA{120, 40, 140, 255}
				sc.GlyphStyle.Radius = r * 0.8
			}
			p.Add(sc)
			p.Legend.Add(ch.name, sc)
		}
		if !math.IsInf(lo, 1) {
			p.Y.Min, p.Y.Max = lo/2, hi*40 // headroom for the legend
		}
		p.Y.Tick.Marker = secondsTicks{}
		p.X.Tick.Marker = iterationTicks{}
		base := fileName("oracle", o.App, o.Graph)
		if err := g.save(p, base, vg.Points(560), vg.Points(320)); err != nil {
			return err
		}
		g.oracle = append(g.oracle, base)
	}
	return nil
}

// iterationTicks marks whole iterations, about ten labels whatever the
// number of iterations.
type iterationTicks struct{}

func (iterationTicks) Ticks(lo, hi float64) []plot.Tick {
	first, last := math.Ceil(lo), math.Floor(hi)
	step := math.Max(1, math.Ceil((last-first)/10))
	var ticks []plot.Tick
	for x := first; x <= last; x += step {
		ticks = append(ticks, plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'f', 0, 64)})
	}
	return ticks
}

// secondsTicks marks decades of a log time axis with readable units and
// the 2–9 multiples without labels.
type secondsTicks struct{}

func (secondsTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		d := math.Pow(10, e)
		if d >= lo && d <= hi {
			ticks = append(ticks, plot.Tick{Value: d, Label: bench.FormatSeconds(d)})
		}
		for k := 2.0; k < 10; k++ {
			if v := k * d; v >= lo && v <= hi {
				ticks = append(ticks, plot.Tick{Value: v})
			}
		}
	}
	return ticks
}

// markdown writes report.md.
func (g *gen) markdown() error {
	path := filepath.Join(g.dir, "report.md")
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := g.writeMarkdown(f); err != nil {
		f.Close()
		return fmt.Errorf("report: write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("report: write %s: %w", path, err)
	}
	g.files = append(g.files, path)
	return nil
}

func (g *gen) writeMarkdown(w io.Writer) error {
	r, env := g.r, g.r.Environment
	title := g.opts.Title
	if title == "" {
		title = "mgraph benchmark report"
	}
	fmt.Fprintf(w, "# %s\n\n", title)
	fmt.Fprintf(w, "Made by `mgraph report` from %s. Time is the trial: the app call as `mgraph run` times it, from the call to the result in host memory in original ids (no reading, preprocessing or upload); engine is the fastest trial's iterations and copy its result's mapping and copy to the host; MTEPS follows the papers: |E|/time for bfs, sssp, cc and pr-delta, |E|·iterations/time for pr, 2|E|·sources/time for bc, |E| being the graph's arcs. Bars and tables show the fastest trial; medians are in the tables.\n\n",
		strings.Join(quoteAll(g.opts.Sources), ", "))

	fmt.Fprintf(w, "## Environment\n\n| | |\n| --- | --- |\n")
	fmt.Fprintf(w, "| CPU | %s, %d logical cores, GOMAXPROCS %d, --threads %d |\n", env.CPUModel, env.Cores, env.GOMAXPROCS, env.Threads)
	gpu := "none (CPU backend)"
	if len(env.GPUs) > 0 {
		var names []string
		for _, d := range env.GPUs {
			names = append(names, fmt.Sprintf("%s (cc %s, %.0f GB/s peak, driver %s)", d.Name, d.ComputeCapability, d.PeakBandwidthGBps, d.Driver))
		}
		gpu = strings.Join(names, "; ")
	}
	fmt.Fprintf(w, "| GPU | %s |\n", gpu)
	fmt.Fprintf(w, "| build | commit %s, %s, %s/%s, CUDA built in: %v |\n", env.Commit, env.GoVersion, env.OS, env.Arch, env.CUDABuilt)
	fmt.Fprintf(w, "| layout | P=%d, heavy > %d, T=%d, segments of %d, groups %v, %d high |\n", env.Params.PanelSize,
		env.Params.HeavyThreshold, env.Params.HeavyColumns, env.Params.SegmentSize, env.Params.GroupThresholds, env.Params.HighGroups)
	pl := r.Plan
	fmt.Fprintf(w, "| plan | apps %s; modes %s; backends %s; %d trials%s; seed %d; symmetrize %v; renumber %v (seed %d); %s |\n",
		strings.Join(pl.Apps, ", "), strings.Join(pl.Modes, ", "), strings.Join(pl.Backends, ", "), pl.Trials,
		budgetNote(pl.BudgetSecs), pl.Seed, pl.Symmetrize, pl.Renumber, pl.RenumberSeed, pl.PageRank)
	fmt.Fprintf(w, "| run | %s, %.0f s wall |\n", env.Time, r.WallSeconds)
	if env.Command != "" {
		fmt.Fprintf(w, "| command | `%s` |\n", env.Command)
	}
	fmt.Fprintln(w)

	g.writeHeadline(w)

	fmt.Fprintf(w, "## MTEPS by app, graph and mode\n\n")
	for _, b := range g.mteps {
		fmt.Fprintf(w, "![%s](%s.png)\n\n", b, b)
	}
	fmt.Fprintf(w, "| app | graph | numbering | mode | trials | min | median | engine | copy | MTEPS | iterations | switches |\n| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	var failed []bench.Summary
	for _, s := range g.sums {
		if s.Error != "" {
			fmt.Fprintf(w, "| %s | %s | %s | %s | 0 | **error** | – | – | – | – | – | – |\n", s.App, s.Graph, s.Numbering, s.Series)
			failed = append(failed, s)
			continue
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %d | %s | %s | %s | %s | %.1f | %d | %d |\n", s.App, s.Graph, s.Numbering, s.Series,
			s.Trials, bench.FormatSeconds(s.Min), bench.FormatSeconds(s.Median), bench.FormatSeconds(s.Engine), bench.FormatSeconds(s.Copy),
			s.MTEPS, s.Iterations, s.Switches)
	}
	fmt.Fprintln(w)
	if len(failed) > 0 {
		fmt.Fprintf(w, "### Configurations that did not run\n\nThese failed at their first trial and were recorded as error rows; the rest of the plan went on.\n\n| app | graph | numbering | mode | error |\n| --- | --- | --- | --- | --- |\n")
		for _, s := range failed {
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", s.App, s.Graph, s.Numbering, s.Series, strings.ReplaceAll(s.Error, "|", "\\|"))
		}
		fmt.Fprintln(w)
	}

	if len(g.slow) > 0 {
		fmt.Fprintf(w, "## Renumbering\n\nEach graph was also run after a random renumbering of its vertices (before preprocessing). The ratio is the fastest renumbered trial over the fastest original one (above 1: slower; the paper found most frameworks lose about 30%%).\n\n")
		for _, b := range g.renumber {
			fmt.Fprintf(w, "![%s](%s.png)\n\n", b, b)
		}
		fmt.Fprintf(w, "| app | graph | mode | original | renumbered | ratio |\n| --- | --- | --- | ---: | ---: | ---: |\n")
		for _, s := range g.slow {
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %.2f× |\n", s.App, s.Graph, s.Series,
				bench.FormatSeconds(s.Original), bench.FormatSeconds(s.Renumbered), s.Ratio)
		}
		fmt.Fprintln(w)
		g.writeRenumberSummary(w)
	}

	if len(r.Oracles) > 0 {
		g.writeOracles(w)
	}
	g.writeBandwidth(w)
	g.writePreps(w)
	if len(r.Notes) > 0 {
		fmt.Fprintf(w, "## Notes\n\n")
		for _, n := range r.Notes {
			fmt.Fprintf(w, "- %s\n", n)
		}
		fmt.Fprintln(w)
	}
	if len(g.bw) == 0 {
		fmt.Fprintf(w, "## Not in this report\n\nBytes per arc against the memory-bandwidth limit come with GPU results (`--backends cuda`, dense steps).\n")
	}
	return nil
}

func budgetNote(secs float64) string {
	if secs <= 0 {
		return ""
	}
	return fmt.Sprintf(" (fewer when a configuration passed %.0f s)", secs)
}

func quoteAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = "`" + x + "`"
	}
	if len(out) == 0 {
		out = []string{"results.json"}
	}
	return out
}

// writeHeadline states, per app and graph, the best mode and how the
// hybrid compares with it.
func (g *gen) writeHeadline(w io.Writer) {
	type key struct{ app, graph string }
	best := map[key]bench.Summary{}
	hyb := map[key]bench.Summary{}
	var keys []key
	for _, s := range g.sums {
		if s.Numbering != "original" || s.Mode == "external" || s.Error != "" {
			continue
		}
		k := key{s.App, s.Graph}
		if _, ok := best[k]; !ok {
			keys = append(keys, k)
		}
		if b, ok := best[k]; !ok || s.Min < b.Min {
			best[k] = s
		}
		if s.Mode == "hybrid" {
			hyb[k] = s
		}
	}
	if len(keys) == 0 {
		return
	}
	fmt.Fprintf(w, "## Where the engine stands\n\nOriginal numbering, fastest trial. \"Hybrid vs best\" is the hybrid's time over the fastest mode's (1.00× when the hybrid is the fastest).\n\n")
	fmt.Fprintf(w, "| app | graph | fastest mode | time | MTEPS | hybrid | hybrid vs best |\n| --- | --- | --- | ---: | ---: | ---: | ---: |\n")
	for _, k := range keys {
		b := best[k]
		h, ok := hyb[k]
		hs, ratio := "–", "–"
		if ok {
			hs = fmt.Sprintf("%s (%.1f MTEPS)", bench.FormatSeconds(h.Min), h.MTEPS)
			ratio = fmt.Sprintf("%.2f×", h.Min/b.Min)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %.1f | %s | %s |\n", k.app, k.graph, b.Series, bench.FormatSeconds(b.Min), b.MTEPS, hs, ratio)
	}
	fmt.Fprintln(w)
}

// writeRenumberSummary gives the geometric mean of the slowdowns per mode.
func (g *gen) writeRenumberSummary(w io.Writer) {
	series := order(g.slow, func(s bench.Slowdown) string { return s.Series })
	var parts []string
	for _, se := range series {
		var sum float64
		var k int
		for _, s := range g.slow {
			if s.Series == se && s.Ratio > 0 {
				sum += math.Log(s.Ratio)
				k++
			}
		}
		if k > 0 {
			parts = append(parts, fmt.Sprintf("%s %.2f×", se, math.Exp(sum/float64(k))))
		}
	}
	fmt.Fprintf(w, "Geometric mean of the slowdowns over apps and graphs: %s.\n\n", strings.Join(parts, ", "))
}

func (g *gen) writeOracles(w io.Writer) {
	fmt.Fprintf(w, "## Per-iteration oracle (the paper's Table 2)\n\n")
	fmt.Fprintf(w, "Every iteration was run in dense and in sparse mode (and pull, for BFS on undirected graphs) from the same state (values and frontier copied; each engine given the frontier in its own form, prepared outside the timing; the minimum of up to %d runs, steps over 20 ms once), the two results checked equal, and the run continued from the sparse one. \"Hybrid\" is what the hybrid chose in a separate traced run, aligned by iteration; its regret is the oracle time of its choices minus the best possible. The hybrid's own iteration times add its sampling and frontier conversions.\n\n", max(1, g.r.Oracles[0].Repeats))
	fmt.Fprintf(w, "Async has no iterations to step: it is timed as whole runs, as are the hybrid and auto; \"best possible\" is the faster of the best per-iteration choice and the async run, and the whole-run regrets are against it.\n\n")
	fmt.Fprintf(w, "| app | graph | source | iterations | sparse only | dense only | pull only | best per iteration | hybrid's choices | regret | hybrid measured | async run | best possible | hybrid run | auto run | mismatches |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, o := range g.r.Oracles {
		pullOnly := "–"
		if o.HasPull {
			pullOnly = bench.FormatSeconds(o.TotalPull)
		}
		fmt.Fprintf(w, "| %s | %s | %d | %d | %s | %s | %s | %s | %s | %s (%+.1f%%) | %s | %s | %s | %s (%+.1f%%) | %s (%+.1f%%) | %d |\n", o.App, o.Graph, o.Source, len(o.Iterations),
			bench.FormatSeconds(o.TotalSparse), bench.FormatSeconds(o.TotalDense), pullOnly, bench.FormatSeconds(o.TotalBest),
			bench.FormatSeconds(o.TotalChosen), bench.FormatSeconds(o.Regret), o.RegretPercent,
			bench.FormatSeconds(o.HybridIterationSecs), bench.FormatSeconds(o.AsyncRunSeconds), bench.FormatSeconds(o.BestPossible),
			bench.FormatSeconds(o.HybridRunSeconds), o.HybridRunRegretPercent, bench.FormatSeconds(o.AutoRunSeconds),
			o.AutoRunRegretPercent, o.Mismatches)
	}
	fmt.Fprintln(w)
	for i, o := range g.r.Oracles {
		fmt.Fprintf(w, "### %s on %s\n\n", o.App, o.Graph)
		if i < len(g.oracle) {
			fmt.Fprintf(w, "![%s](%s.png)\n\n", g.oracle[i], g.oracle[i])
		}
		var wrong int
		for _, it := range o.Iterations {
			if it.Hybrid != "" && it.Hybrid != it.Best {
				wrong++
			}
		}
		fmt.Fprintf(w, "The hybrid picked the faster mode in %d of %d iterations.\n\n", len(o.Iterations)-wrong, len(o.Iterations))
		pullHead, pullSep := "", ""
		if o.HasPull {
			pullHead, pullSep = " pull |", " ---: |"
		}
		fmt.Fprintf(w, "| iteration | frontier vertices | frontier arcs | sparse | dense |%s best | hybrid chose |\n| ---: | ---: | ---: | ---: | ---: |%s --- | --- |\n", pullHead, pullSep)
		rows := o.Iterations
		cut := 0
		if len(rows) > g.opts.MaxOracleRows {
			cut = len(rows) - g.opts.MaxOracleRows
			rows = rows[:g.opts.MaxOracleRows]
		}
		for _, it := range rows {
			mark := it.Hybrid
			if it.Hybrid != "" && it.Hybrid != it.Best {
				mark += " ✗"
			}
			pullCell := ""
			if o.HasPull {
				pullCell = " " + bench.FormatSeconds(it.PullSeconds) + " |"
			}
			fmt.Fprintf(w, "| %d | %d | %d | %s | %s |%s %s | %s |\n", it.Iteration, it.FrontierVertices, it.FrontierEdges,
				bench.FormatSeconds(it.SparseSeconds), bench.FormatSeconds(it.DenseSeconds), pullCell, it.Best, mark)
		}
		if cut > 0 {
			fmt.Fprintf(w, "\n(%d more iterations in results.json and the chart.)\n", cut)
		}
		fmt.Fprintln(w)
	}
}

func (g *gen) writePreps(w io.Writer) {
	if len(g.r.Preps) == 0 {
		return
	}
	fmt.Fprintf(w, "## Graphs and preparation\n\nReading (or generating) happens once per graph; each layout variant is then preprocessed, or loaded from the layout cache. Upload is the host→device copy (none on the CPU).\n\n")
	fmt.Fprintf(w, "| graph | variant | vertices | arcs | read/generate | preprocess | cache load | footprint / CSR |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	dash := func(x float64) string {
		if x <= 0 {
			return "–"
		}
		return bench.FormatSeconds(x)
	}
	for _, p := range g.r.Preps {
		ratio := 0.0
		if p.CSRBytes > 0 {
			ratio = float64(p.FootprintBytes) / float64(p.CSRBytes)
		}
		fmt.Fprintf(w, "| %s | %s | %d | %d | %s | %s | %s | %.2f× |\n", p.Graph, p.Variant, p.Vertices, p.Arcs,
			dash(p.ReadSeconds), dash(p.PreprocessSeconds), dash(p.CacheLoadSeconds), ratio)
	}
	fmt.Fprintln(w)
}
