package bench

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// FormatVersion is the version of the results.json layout.
const FormatVersion = 1

// Results is everything a benchmark run measured.
type Results struct {
	FormatVersion int         `json:"format_version"`
	Environment   Environment `json:"environment"`
	Plan          PlanRecord  `json:"plan"`
	Preps         []Prep      `json:"preps"`
	Trials        []Trial     `json:"trials"`
	Oracles       []OracleRun `json:"oracles,omitempty"`
	Notes         []string    `json:"notes,omitempty"`
	WallSeconds   float64     `json:"wall_seconds"`
}

// PlanRecord is the plan as run, for the results file.
type PlanRecord struct {
	Apps         []string   `json:"apps"`
	Graphs       []string   `json:"graphs"`
	Modes        []string   `json:"modes"`
	Backends     []string   `json:"backends"`
	Trials       int        `json:"trials"`
	BudgetSecs   float64    `json:"budget_seconds,omitempty"`
	Threads      int        `json:"threads"`
	Seed         uint64     `json:"seed"`
	GenSeed      uint64     `json:"gen_seed"`
	WeightSeed   uint64     `json:"weight_seed"`
	Symmetrize   bool       `json:"symmetrize"`
	Renumber     bool       `json:"renumber"`
	RenumberSeed uint64     `json:"renumber_seed"`
	Oracle       []string   `json:"oracle,omitempty"`
	PageRank     string     `json:"pagerank"`
	BCSources    int        `json:"bc_sources"`
	Externals    []External `json:"externals,omitempty"`
}

func (p *Plan) record() PlanRecord {
	r := PlanRecord{Apps: p.Apps, Graphs: p.Graphs, Backends: p.Backends, Trials: p.Trials,
		BudgetSecs: p.Budget.Seconds(), Threads: p.Threads, Seed: p.Seed, GenSeed: p.GenSeed,
		WeightSeed: p.WeightSeed, Symmetrize: p.Symmetrize, Renumber: p.Renumber, RenumberSeed: p.RenumberSeed,
		Oracle: p.Oracle, BCSources: p.BCSources, Externals: p.Externals,
		PageRank: fmt.Sprintf("damping %g, tolerance %g, pr max %d iterations", p.PageRank.Damping, p.PageRank.Tolerance, p.PageRank.MaxIterations)}
	for _, m := range p.Modes {
		r.Modes = append(r.Modes, m.String())
	}
	return r
}

// Trial is one timed run.
type Trial struct {
	App        string   `json:"app"`
	Graph      string   `json:"graph"` // generator spec or file
	Vertices   uint64   `json:"vertices"`
	Arcs       uint64   `json:"arcs"`
	Numbering  string   `json:"numbering"` // "original" or "renumbered"
	Variant    string   `json:"variant"`   // the layout variant (numbering plus transforms)
	Mode       string   `json:"mode"`      // hybrid, dense, sparse; "external" for other programs
	Backend    string   `json:"backend"`   // cpu, cuda; the external's name
	Threads    int      `json:"threads"`
	Trial      int      `json:"trial"` // 1-based
	Sources    []uint32 `json:"sources,omitempty"`
	Seconds    float64  `json:"seconds"`        // the app call, as `mgraph run` times it
	EngineSecs float64  `json:"engine_seconds"` // the iterations alone (engine.Result.Seconds)
	CopySecs   float64  `json:"copy_seconds"`   // the result to the host in original ids (engine.Result.CopySeconds)
	MTEPS      float64  `json:"mteps"`
	Iterations int      `json:"iterations"`
	Switches   int      `json:"switches"`
	// Preparation of the layout the trial ran on (repeated from Preps).
	ReadSeconds       float64 `json:"read_seconds"`
	PreprocessSeconds float64 `json:"preprocess_seconds"`
	CacheLoadSeconds  float64 `json:"cache_load_seconds"`
	UploadSeconds     float64 `json:"upload_seconds"`
	Command           string  `json:"command,omitempty"` // externals: the command line run
	// Error, when not empty, says why the configuration did not run (the
	// app has no implementation on the backend, the device could not hold
	// the layout, ...): the row has no time.
	Error string `json:"error,omitempty"`
}

// Series names the bar a trial belongs to in charts and tables: the mode,
// prefixed by the backend when it is not the CPU, or the external's name.
func (t *Trial) Series() string {
	switch {
	case t.Mode == "external":
		return t.Backend
	case t.Backend != "cpu":
		return t.Backend + " " + t.Mode
	}
	return t.Mode
}

// Summary aggregates the trials of one configuration.
type Summary struct {
	App, Graph, Numbering, Series, Mode, Backend string
	Vertices, Arcs                               uint64
	Trials                                       int
	Min, Median                                  float64 // seconds (trials)
	Engine, Copy                                 float64 // of the fastest trial: its iterations and its result copy
	MTEPS                                        float64 // at Min
	Iterations, Switches                         int     // of the fastest trial
	// Error is the error of a configuration with no successful trial (its
	// times are then 0).
	Error string
}

// Summarize groups trials by app, graph, numbering and series, in the
// order they first appear.
func Summarize(trials []Trial) []Summary {
	type key struct{ app, graph, numbering, series string }
	idx := map[key]int{}
	var out []Summary
	times := map[key][]float64{}
	for _, t := range trials {
		k := key{t.App, t.Graph, t.Numbering, t.Series()}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, Summary{App: t.App, Graph: t.Graph, Numbering: t.Numbering, Series: t.Series(),
				Mode: t.Mode, Backend: t.Backend, Vertices: t.Vertices, Arcs: t.Arcs, Min: -1})
		}
		s := &out[i]
		if t.Error != "" {
			if s.Trials == 0 && s.Error == "" {
				s.Error = t.Error
			}
			continue
		}
		s.Error = ""
		s.Trials++
		times[k] = append(times[k], t.Seconds)
		if s.Min < 0 || t.Seconds < s.Min {
			s.Min, s.MTEPS, s.Iterations, s.Switches = t.Seconds, t.MTEPS, t.Iterations, t.Switches
			s.Engine, s.Copy = t.EngineSecs, t.CopySecs
		}
	}
	for k, i := range idx {
		ts := times[k]
		if len(ts) == 0 { // only error rows
			out[i].Min = 0
			continue
		}
		slices.Sort(ts)
		out[i].Median = ts[len(ts)/2]
	}
	return out
}

// Slowdown is the renumbering study's figure for one configuration.
type Slowdown struct {
	App, Graph, Series   string
	Original, Renumbered float64 // min seconds
	Ratio                float64 // Renumbered / Original
}

// Slowdowns pairs the original and renumbered summaries.
func Slowdowns(sums []Summary) []Slowdown {
	type key struct{ app, graph, series string }
	orig := map[key]Summary{}
	for _, s := range sums {
		if s.Numbering == "original" {
			orig[key{s.App, s.Graph, s.Series}] = s
		}
	}
	var out []Slowdown
	for _, s := range sums {
		if s.Numbering != "renumbered" {
			continue
		}
		o, ok := orig[key{s.App, s.Graph, s.Series}]
		if !ok || o.Min <= 0 || s.Min <= 0 {
			continue
		}
		out = append(out, Slowdown{App: s.App, Graph: s.Graph, Series: s.Series, Original: o.Min, Renumbered: s.Min, Ratio: s.Min / o.Min})
	}
	return out
}

// WriteTable prints the summaries as an aligned table (min and median time,
// MTEPS at the min), then the renumbering slowdowns and the oracles' totals.
func WriteTable(w io.Writer, r *Results) error {
	sums := Summarize(r.Trials)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "app\tgraph\tnumbering\tmode\ttrials\tmin\tmedian\tengine\tcopy\tMTEPS\titerations\tswitches")
	var failed []Summary
	for _, s := range sums {
		if s.Error != "" {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t0\tERROR\t–\t–\t–\t–\t–\t–\n", s.App, s.Graph, s.Numbering, s.Series)
			failed = append(failed, s)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%.1f\t%d\t%d\n", s.App, s.Graph, s.Numbering, s.Series,
			s.Trials, FormatSeconds(s.Min), FormatSeconds(s.Median), FormatSeconds(s.Engine), FormatSeconds(s.Copy),
			s.MTEPS, s.Iterations, s.Switches)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(failed) > 0 {
		fmt.Fprintln(w, "\nconfigurations that did not run:")
		for _, s := range failed {
			fmt.Fprintf(w, "  %s %s %s %s: %s\n", s.App, s.Graph, s.Numbering, s.Series, s.Error)
		}
	}
	if sl := Slowdowns(sums); len(sl) > 0 {
		fmt.Fprintln(w, "\nrenumbering (min time renumbered / original; > 1 is slower):")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "app\tgraph\tmode\toriginal\trenumbered\tratio")
		for _, s := range sl {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.2f×\n", s.App, s.Graph, s.Series, FormatSeconds(s.Original), FormatSeconds(s.Renumbered), s.Ratio)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	for _, o := range r.Oracles {
		fmt.Fprintf(w, "\noracle %s on %s (source %d, %d iterations): sparse only %s, dense only %s, best per iteration %s; "+
			"hybrid's choices %s (regret %s, %+.1f%%), hybrid's measured iterations %s; whole runs: async %s, hybrid %s (%+.1f%%), "+
			"auto %s (%+.1f%%) against the best possible %s\n",
			o.App, o.Graph, o.Source, len(o.Iterations), FormatSeconds(o.TotalSparse), FormatSeconds(o.TotalDense),
			FormatSeconds(o.TotalBest), FormatSeconds(o.TotalChosen), FormatSeconds(o.Regret), o.RegretPercent,
			FormatSeconds(o.HybridIterationSecs), FormatSeconds(o.AsyncRunSeconds), FormatSeconds(o.HybridRunSeconds),
			o.HybridRunRegretPercent, FormatSeconds(o.AutoRunSeconds), o.AutoRunRegretPercent, FormatSeconds(o.BestPossible))
	}
	return nil
}

// FormatSeconds writes a time with a unit fit for tables.
func FormatSeconds(s float64) string {
	switch {
	case s < 1e-3:
		return fmt.Sprintf("%.1f µs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.2f ms", s*1e3)
	}
	return fmt.Sprintf("%.3f s", s)
}

// csvHeader is the header of results.csv.
var csvHeader = []string{"app", "graph", "vertices", "arcs", "numbering", "variant", "mode", "backend", "threads",
	"trial", "sources", "seconds", "engine_seconds", "copy_seconds", "mteps", "iterations", "switches",
	"read_seconds", "preprocess_seconds", "cache_load_seconds", "upload_seconds", "error"}

// WriteCSV writes one row per trial.
func WriteCSV(w io.Writer, trials []Trial) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	for _, t := range trials {
		src := make([]string, len(t.Sources))
		for i, s := range t.Sources {
			src[i] = strconv.FormatUint(uint64(s), 10)
		}
		rec := []string{t.App, t.Graph, strconv.FormatUint(t.Vertices, 10), strconv.FormatUint(t.Arcs, 10),
			t.Numbering, t.Variant, t.Mode, t.Backend, strconv.Itoa(t.Threads), strconv.Itoa(t.Trial),
			strings.Join(src, " "), g(t.Seconds), g(t.EngineSecs), g(t.CopySecs), g(t.MTEPS), strconv.Itoa(t.Iterations),
			strconv.Itoa(t.Switches), g(t.ReadSeconds), g(t.PreprocessSeconds), g(t.CacheLoadSeconds), g(t.UploadSeconds), t.Error}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// Load reads a results.json file, or the results.json of a directory.
func Load(path string) (*Results, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = path + string(os.PathSeparator) + "results.json"
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	var r Results
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("results %s: %w", path, err)
	}
	if r.FormatVersion != FormatVersion {
		return nil, fmt.Errorf("results %s: format version %d, want %d", path, r.FormatVersion, FormatVersion)
	}
	return &r, nil
}

// Merge appends other's trials, preparations and oracles to r (reports
// over several result directories); the environment stays r's.
func (r *Results) Merge(other *Results) {
	r.Preps = append(r.Preps, other.Preps...)
	r.Trials = append(r.Trials, other.Trials...)
	r.Oracles = append(r.Oracles, other.Oracles...)
	r.Notes = append(r.Notes, other.Notes...)
}

// writeJSON writes r as indented JSON.
func writeJSON(w io.Writer, r *Results) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(r)
}
