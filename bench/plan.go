// Package bench is mgraph's benchmark harness: a Plan of apps × graphs ×
// modes × backends × trials is run with fixed-seed sources, and every trial
// is recorded with the environment (CPU, GPU, commit, layout parameters),
// the time and MTEPS by the papers' definitions, and apart from it the
// reading, preprocessing (or cache-load) and upload times. It also runs the
// renumbering study (each graph with its own numbering and a random one),
// the per-iteration oracle (each iteration of a traversal in dense and in
// sparse mode from the same state, the paper's Table 2), and external
// programs on the same graph files, for baselines.
//
// Results are written as JSON (every trial) and CSV and printed as a table;
// package bench/report turns result files into plots and a Markdown page.
// The harness is used by `mgraph bench` and by tests.
package bench

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/layout"
)

// Apps lists the programs a plan can run, in table order.
var Apps = apps.Names

// Plan is what a benchmark run does.
type Plan struct {
	Apps     []string      // subset of Apps
	Graphs   []string      // graph files or generator specs (rmat:20, grid:1024, ...)
	Modes    []engine.Mode // hybrid, dense, sparse
	Backends []string      // registered backends ("cpu"; "cuda" with the GPU engines)
	Trials   int           // trials per configuration (each bfs/sssp/bc trial its own source)
	Threads  int           // CPU worker goroutines (0 = all cores)
	Seed     uint64        // seed of the sources and of the hybrid's samples

	// Budget, when positive, limits the trials of one configuration: after
	// the first, another trial runs only while the configuration's total
	// time stays under Budget (slow configurations get fewer trials).
	Budget time.Duration

	// Graph preparation.
	GenSeed         uint64 // seed of generated graphs
	WeightSeed      uint64 // seed of the random weights given to unweighted graphs for sssp
	Symmetrize      bool   // symmetrize, drop self-loops and duplicate arcs before anything else
	Format          string // input file format ("auto", "mtx", ...)
	UndirectedInput bool   // an edge-list file lists each undirected edge once
	IgnoreWeights   bool   // drop the weights a file carries
	Params          layout.Params
	PreprocessOn    string // "cpu", "gpu" or "auto" (preprocess.BuildOn)
	CacheDir        string // layout cache directory ("" = the default cache)
	NoCache         bool   // build every layout, read and write no cache
	CacheLevel      int    // zstd level of cached layouts (0 = default)

	// Renumber runs every graph a second time with a random renumbering
	// (graph.EdgeList.Renumber(RenumberSeed)) applied before preprocessing.
	Renumber     bool
	RenumberSeed uint64

	// Oracle lists the apps (of apps.OracleApps) whose per-iteration oracle
	// runs on every graph (original numbering).
	Oracle []string
	// OracleRepeats is how often each oracle step is timed (the minimum is
	// kept); steps slower than 20 ms run once. 0 means 3.
	OracleRepeats int

	// App parameters.
	PageRank  apps.PageRankOptions // MaxIterations applies to pr; pr-delta runs to convergence
	BCSources int                  // bc sources per trial (0 = 1)

	// Externals are other programs timed on the same graphs.
	Externals []External
}

// DefaultPlan returns a plan with the defaults of `mgraph bench`.
func DefaultPlan() Plan {
	return Plan{
		Apps:     slices.Clone(Apps),
		Modes:    []engine.Mode{engine.Hybrid, engine.Dense, engine.Sparse},
		Backends: []string{"cpu"},
		Trials:   3,
		Seed:     1, GenSeed: 1, WeightSeed: 1, RenumberSeed: 1,
		Format:       "auto",
		Params:       layout.DefaultParams(),
		PreprocessOn: "auto",
		PageRank:     apps.PageRankOptions{Damping: 0.85, Tolerance: 1e-4, MaxIterations: 20},
	}
}

// Validate checks the plan and fills the defaults of zero fields.
func (p *Plan) Validate() error {
	if len(p.Apps) == 0 && len(p.Externals) == 0 {
		return fmt.Errorf("plan: no apps")
	}
	for _, a := range p.Apps {
		if !slices.Contains(Apps, a) {
			return fmt.Errorf("plan: unknown app %q (want %s)", a, strings.Join(Apps, ", "))
		}
	}
	if len(p.Graphs) == 0 {
		return fmt.Errorf("plan: no graphs")
	}
	if len(p.Modes) == 0 {
		p.Modes = []engine.Mode{engine.Hybrid}
	}
	if len(p.Backends) == 0 {
		p.Backends = []string{"cpu"}
	}
	for _, b := range p.Backends {
		if _, err := backendFor(b); err != nil {
			return fmt.Errorf("plan: %w", err)
		}
	}
	if p.Trials < 1 {
		return fmt.Errorf("plan: trials must be at least 1, got %d", p.Trials)
	}
	if p.Threads < 0 {
		return fmt.Errorf("plan: threads must be ≥ 0, got %d", p.Threads)
	}
	if p.BCSources < 0 {
		return fmt.Errorf("plan: bc sources must be ≥ 0, got %d", p.BCSources)
	}
	if p.BCSources == 0 {
		p.BCSources = 1
	}
	if p.OracleRepeats < 0 {
		return fmt.Errorf("plan: oracle repeats must be ≥ 0, got %d", p.OracleRepeats)
	}
	if p.OracleRepeats == 0 {
		p.OracleRepeats = 3
	}
	for _, a := range p.Oracle {
		if !slices.Contains(apps.OracleApps, a) {
			return fmt.Errorf("plan: no per-iteration oracle for %q (want one of %s)", a, strings.Join(apps.OracleApps, ", "))
		}
	}
	if p.Params.PanelSize == 0 {
		p.Params = layout.DefaultParams()
	}
	if err := p.Params.Validate(); err != nil {
		return fmt.Errorf("plan: layout parameters: %w", err)
	}
	if p.Format == "" {
		p.Format = "auto"
	}
	if p.PreprocessOn == "" {
		p.PreprocessOn = "auto"
	}
	if p.PageRank.Damping == 0 {
		p.PageRank = apps.PageRankOptions{Damping: 0.85, Tolerance: 1e-4, MaxIterations: 20}
	}
	for i := range p.Externals {
		if err := p.Externals[i].check(); err != nil {
			return fmt.Errorf("plan: %w", err)
		}
	}
	return nil
}

// ParseApps reads a comma-separated app list; "all" means every app and
// "pr-data" is accepted for pr-delta.
func ParseApps(s string) ([]string, error) {
	var out []string
	for _, a := range splitList(s) {
		if a == "all" {
			return slices.Clone(Apps), nil
		}
		if a == "pr-data" {
			a = "pr-delta"
		}
		if !slices.Contains(Apps, a) {
			return nil, fmt.Errorf("unknown app %q (want %s, or all)", a, strings.Join(Apps, ", "))
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no apps in %q", s)
	}
	return out, nil
}

// ParseModes reads a comma-separated list of modes; "all" means hybrid,
// dense and sparse.
func ParseModes(s string) ([]engine.Mode, error) {
	var out []engine.Mode
	for _, m := range splitList(s) {
		if m == "all" {
			return []engine.Mode{engine.Hybrid, engine.Dense, engine.Sparse}, nil
		}
		mode, err := engine.ParseMode(m)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, mode) {
			out = append(out, mode)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no modes in %q", s)
	}
	return out, nil
}

// ParseBackends reads a comma-separated backend list and checks that each
// is available in this build.
func ParseBackends(s string) ([]string, error) {
	var out []string
	for _, b := range splitList(s) {
		if _, err := backendFor(b); err != nil {
			return nil, err
		}
		if !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no backends in %q", s)
	}
	return out, nil
}

// splitList splits a comma-separated list, trimming blanks and dropping
// empty items.
func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, strings.ToLower(part))
		}
	}
	return out
}

// SplitGraphs splits a comma-separated list of graphs (files or specs),
// keeping case (file names).
func SplitGraphs(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}
