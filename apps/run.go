package apps

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/ops"
)

// Names lists the apps Run knows, in the order help texts show them: the
// MultiGraph apps, then OperatorApps.
var Names = []string{"bfs", "bfs-tree", "sssp", "cc", "cc-lp", "pr", "pr-delta", "bc",
	"tc", "kcore", "color", "mis", "msf", "ppr", "hits", "salsa", "wtf"}

// OperatorApps lists the apps written with the operators alone (package
// ops): Run runs them with the operators whatever its engine.
var OperatorApps = []string{"tc", "kcore", "color", "mis", "msf", "ppr", "hits", "salsa", "wtf"}

// Engine names what runs bfs and sssp: the MultiGraph engines (package
// engine; the default) or the operators (BFSOps, SSSPOps).
type Engine string

const (
	MultiGraph Engine = "multigraph"
	Operators  Engine = "operators"
)

// Engines lists the engines, as flags name them.
var Engines = []Engine{MultiGraph, Operators}

// ParseEngine reads an engine's name ("" is MultiGraph).
func ParseEngine(s string) (Engine, error) {
	if s == "" {
		return MultiGraph, nil
	}
	for _, e := range Engines {
		if string(e) == s {
			return e, nil
		}
	}
	return MultiGraph, fmt.Errorf("unknown engine %q (want multigraph or operators)", s)
}

// HasEngines reports whether app runs on either engine (bfs and sssp).
func HasEngines(app string) bool { return app == "bfs" || app == "sssp" }

// UsesOperators reports whether Run runs app with the operators under
// engine e: the operator apps always, bfs and sssp under Operators.
func UsesOperators(app string, e Engine) bool {
	return slices.Contains(OperatorApps, app) || (e == Operators && HasEngines(app))
}

// SingleSource reports whether app needs a source for every run, so that
// harnesses drawing one source per trial (mgraph run, mgraph bench) give it
// one: bfs, bfs-tree, sssp and wtf (the user) run from the first of Run's
// sources; ppr personalises on all of them (MultiSource too: mgraph run
// gives it --sources of them, mgraph bench one per trial).
func SingleSource(app string) bool {
	switch app {
	case "bfs", "bfs-tree", "sssp", "wtf", "ppr":
		return true
	}
	return false
}

// MultiSource reports whether app uses all of Run's sources: bc (a sum
// over them) and ppr (its personalisation set, uniform over them).
func MultiSource(app string) bool { return app == "bc" || app == "ppr" }

// Undirected reports whether app needs an undirected graph: the components
// apps (a directed input is run on its symmetrization, weak components)
// and tc, kcore, color and mis (which refuse a directed layout; harnesses
// run them on the symmetrization too).
func Undirected(app string) bool {
	switch app {
	case "cc", "cc-lp", "tc", "kcore", "color", "mis", "msf":
		return true
	}
	return false
}

// Triangles is tc's result from Run: the number of triangles and every
// vertex's (NetworkX's nx.triangles), in original numbering.
type Triangles struct {
	Total     uint64
	PerVertex []uint64
}

// HubsAuthorities is hits' and salsa's result from Run: both scores of
// every vertex, in original numbering. Authorities are the main result
// (what a vertex is worth as a target); hubs come alongside.
type HubsAuthorities struct {
	Hubs, Authorities []float64
}

// Recommendations is wtf's result from Run: the recommended vertices
// (original ids), best first — a list, not a value per vertex.
type Recommendations []uint32

// Config is what Run needs beyond its arguments for the operator apps and
// the engine choice; the zero Config runs bfs and sssp on the MultiGraph
// engines and the operator apps with their defaults.
type Config struct {
	// Engine runs bfs and sssp ("" is MultiGraph); any other app but the
	// operator apps refuses Operators.
	Engine Engine
	// Ops are the operators' options. Run sets Ops.Trace when opts.Trace is
	// set, and takes opts.MaxIterations when Ops.MaxIterations is 0.
	Ops OpsOptions
	// WTF are who-to-follow's options (nil: ref.DefaultWTFOptions()).
	WTF *WTFOptions
	// TrianglesPerVertex makes tc count every vertex's triangles too (a
	// second intersection over every simple arc); without it tc counts
	// the total only and Triangles.PerVertex is nil.
	TrianglesPerVertex bool
}

// Forest is msf's result from Run: a minimum spanning forest's edges
// (original ids, U < V) and its total weight.
type Forest struct {
	Weight uint64
	Edges  []ref.Edge
}

// float32Weights reports whether l's graph has float32 weights (sssp's
// distances are then float32).
func float32Weights(l *layout.Layout) bool {
	return l.Weighted && l.WeightKind == graph.Float32Weights
}

// Run runs the named app and returns its values in original numbering
// ([]uint32 for bfs, sssp, cc and cc-lp; []float32 for sssp on a graph of
// float32 weights (SSSPFloat32); []float64 for pr, pr-delta and
// bc; possibly a buffer the backend reuses, see engine.Backend.RunMin). bfs
// and sssp start from sources[0]; bc sums over all sources and runs its
// backward pass on bwd (fwd again for undirected graphs); pr and pr-delta
// use pr.
//
// The operator apps (OperatorApps) return: Triangles for tc; []uint32 core
// numbers for kcore and colours for color (seeded by opts.Seed); []bool
// membership for mis (seeded by opts.Seed); []float64 ranks for ppr
// (personalised on all of sources, with pr); HubsAuthorities for hits and
// salsa (iteration cap pr.MaxIterations, tolerance pr.Tolerance);
// Recommendations for wtf (for the user sources[0], ref.DefaultWTFOptions).
//
// Run takes the zero Config, except on a backend from WithOperators,
// which runs bfs and sssp with the operators and the options given there.
func Run(ctx context.Context, name string, fwd, bwd engine.Backend, sources []uint32, pr PageRankOptions, opts engine.RunOptions) (any, engine.Result, error) {
	var c Config
	if ob, ok := fwd.(*opsBackend); ok {
		c = Config{Engine: Operators, Ops: ob.o}
		fwd = ob.Backend
	}
	if ob, ok := bwd.(*opsBackend); ok {
		bwd = ob.Backend
	}
	return RunWith(ctx, name, fwd, bwd, sources, pr, opts, c)
}

// RunWith is Run with the engine and the operator apps' options of c.
func RunWith(ctx context.Context, name string, fwd, bwd engine.Backend, sources []uint32, pr PageRankOptions, opts engine.RunOptions, c Config) (any, engine.Result, error) {
	if !slices.Contains(Names, name) {
		return nil, engine.Result{}, fmt.Errorf("unknown app %q (want one of %v)", name, Names)
	}
	eng, err := ParseEngine(string(c.Engine))
	if err != nil {
		return nil, engine.Result{}, err
	}
	if eng == Operators && !UsesOperators(name, eng) {
		return nil, engine.Result{}, fmt.Errorf("%s is not written with the operators (engine operators runs bfs, sssp and %s)", name, strings.Join(OperatorApps, ", "))
	}
	if SingleSource(name) && len(sources) == 0 {
		return nil, engine.Result{}, fmt.Errorf("%s needs a source", name)
	}
	o := c.Ops
	o.Trace = o.Trace || opts.Trace
	if o.MaxIterations == 0 {
		o.MaxIterations = opts.MaxIterations
	}
	if UsesOperators(name, eng) {
		return runOps(ctx, name, fwd, sources, pr, opts, o, c)
	}
	switch name {
	case "bfs":
		return wrap(BFS(ctx, fwd, sources[0], opts))
	case "bfs-tree":
		return wrap(BFSParents(ctx, fwd, sources[0], opts))
	case "sssp":
		if float32Weights(fwd.Layout()) {
			return wrap(SSSPFloat32(ctx, fwd, sources[0], opts))
		}
		return wrap(SSSP(ctx, fwd, sources[0], opts))
	case "cc":
		return wrap(CC(ctx, fwd, opts))
	case "cc-lp":
		return wrap(CCLabels(ctx, fwd, opts))
	case "pr":
		return wrap(PageRank(ctx, fwd, pr, opts))
	case "pr-delta":
		return wrap(PageRankDelta(ctx, fwd, pr, opts))
	case "bc":
		return wrap(BC(ctx, fwd, bwd, sources, opts))
	}
	return nil, engine.Result{}, fmt.Errorf("unknown app %q (want one of %v)", name, Names)
}

// runOps runs an app with the operators.
func runOps(ctx context.Context, name string, b engine.Backend, sources []uint32, pr PageRankOptions, opts engine.RunOptions, o OpsOptions, c Config) (any, engine.Result, error) {
	switch name {
	case "bfs":
		return wrap(BFSOps(ctx, b, sources[0], o))
	case "sssp":
		if float32Weights(b.Layout()) {
			return wrap(SSSPOpsFloat32(ctx, b, sources[0], o))
		}
		return wrap(SSSPOps(ctx, b, sources[0], o))
	case "tc":
		total, per, res, err := TriangleCount(ctx, b, c.TrianglesPerVertex, o)
		if err != nil {
			return nil, res, err
		}
		return Triangles{Total: total, PerVertex: per}, res, nil
	case "kcore":
		return wrap(KCore(ctx, b, o))
	case "color":
		return wrap(Color(ctx, b, opts.Seed, o))
	case "mis":
		return wrap(MIS(ctx, b, opts.Seed, o))
	case "msf":
		weight, edges, res, err := MSF(ctx, b, o)
		if err != nil {
			return nil, res, err
		}
		return Forest{Weight: weight, Edges: edges}, res, nil
	case "ppr":
		return wrap(PersonalizedPageRank(ctx, b, sources, pr, o))
	case "hits", "salsa":
		run := HITS
		if name == "salsa" {
			run = SALSA
		}
		hubs, auth, res, err := run(ctx, b, pr.MaxIterations, pr.Tolerance, o)
		if err != nil {
			return nil, res, err
		}
		return HubsAuthorities{Hubs: hubs, Authorities: auth}, res, nil
	case "wtf":
		wo := ref.DefaultWTFOptions()
		if c.WTF != nil {
			wo = *c.WTF
		}
		rec, res, err := WhoToFollow(ctx, b, sources[0], wo, o)
		if err != nil {
			return nil, res, err
		}
		return Recommendations(rec), res, nil
	}
	return nil, engine.Result{}, fmt.Errorf("%s is not written with the operators", name)
}

// WithOperators returns b marked for Run: on it Run runs bfs and sssp with
// the operators, and every operator app, with options o (the other apps
// refuse it). It is how harnesses that choose backends but not engines
// (mgraph bench's cpu-ops and cuda-ops backends) time the two engines
// side by side. The result closes b when b is an io.Closer.
func WithOperators(b engine.Backend, o OpsOptions) engine.Backend {
	return &opsBackend{Backend: b, o: o}
}

// opsBackend is WithOperators' backend.
type opsBackend struct {
	engine.Backend
	o OpsOptions
}

// OpsDevice is the wrapped backend's operator device.
func (b *opsBackend) OpsDevice() (ops.Device, error) { return ops.Open(b.Backend) }

// Close closes the wrapped backend when it is an io.Closer.
func (b *opsBackend) Close() error {
	if c, ok := b.Backend.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// wrap turns an app's typed result into Run's.
func wrap[T any](values []T, res engine.Result, err error) (any, engine.Result, error) {
	if err != nil {
		return nil, res, err
	}
	return values, res, nil
}

// refuseAsyncCap returns the error of an iteration cap (a BFS depth
// limit) in mode async, which has no iterations: its result would be the
// uncapped one.
func refuseAsyncCap(app string, opts engine.RunOptions, limit int) error {
	if opts.Mode == engine.Async && limit > 0 {
		return fmt.Errorf("%s: mode async has no iterations to cap (an iteration cap or depth limit of %d); use hybrid or auto", app, limit)
	}
	return nil
}

// refusePull returns the error of an app that has no Pull mode (the sum
// programs: pull steps gather min contributions).
func refusePull(app string, opts engine.RunOptions) error {
	if opts.Mode == engine.Pull {
		return fmt.Errorf("%s: %w", app, engine.ErrPullMode)
	}
	return nil
}

// refuseAsync returns the error of an app that has no Async mode (the sum
// programs: their contributions add up, so they cannot be applied in any
// order as they come).
func refuseAsync(app string, opts engine.RunOptions) error {
	if opts.Mode == engine.Async {
		return fmt.Errorf("%s: %w", app, engine.ErrNotMonotone)
	}
	return nil
}
