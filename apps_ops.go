package mgraph

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/bench"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
)

// The apps written with the operators (package ops): triangles, core
// numbers, colouring, maximal independent sets, personalised PageRank,
// HITS, SALSA and who-to-follow. They run on the graph's backend like the
// others, take turns with them, and return new slices in original ids;
// the graph's Mode does not apply to them. Triangles, CoreNumbers, Color
// and MaximalIndependentSet need an undirected graph (Options.Undirected,
// or FromEdges with directed false): on a directed one they return the
// app's error.

// runOps runs the operator app named app (f, on the graph's backend) under
// the graph's lock and returns its Stats. MTEPS is |E|·iterations/t for
// the iterative rank apps (ppr, hits, salsa: as PageRank), |E|/t for the
// others.
func runOps(g *Graph, app string, f func(b engine.Backend) (engine.Result, error)) (Stats, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.backend == nil {
		return Stats{}, fmt.Errorf("mgraph: %s on a closed graph", app)
	}
	start := time.Now()
	res, err := f(g.backend)
	if err != nil {
		if strings.HasPrefix(err.Error(), app+" ") || strings.HasPrefix(err.Error(), app+":") {
			return Stats{}, fmt.Errorf("mgraph: %w", err) // the app named itself
		}
		return Stats{}, fmt.Errorf("mgraph: %s: %w", app, err)
	}
	trial := time.Since(start)
	rate := "" // |E|/t
	if app == "ppr" || app == "hits" || app == "salsa" {
		rate = "pr"
	}
	return Stats{Trial: trial, Engine: secs(res.Seconds), Copy: secs(res.CopySeconds), Iterations: res.Iterations,
		MTEPS: bench.TEPS(rate, g.l.NumArcs, res.Iterations, 0, trial.Seconds()) / 1e6}, nil
}

// keep copies an app's result out of the backend's result buffer (on a
// GPU the pinned memory its next result reuses) into new memory, on the
// graph's threads, while the caller still holds the graph's lock; a CPU
// result is already the caller's.
func keep[T any](g *Graph, x []T) []T {
	if x == nil || g.backend.Name() == "cpu" {
		return x
	}
	out := make([]T, len(x))
	par.Copy(out, x, g.threads, 1<<16)
	return out
}

// Triangles returns the number of triangles of an undirected graph and
// every vertex's (the triangles it is a corner of: NetworkX's triangles),
// self-loops and parallel arcs ignored. TriangleCount is cheaper when the
// total is all that is wanted.
func (g *Graph) Triangles(ctx context.Context) (total uint64, perVertex []uint64, st Stats, err error) {
	st, err = runOps(g, "tc", func(b engine.Backend) (res engine.Result, err error) {
		total, perVertex, res, err = apps.TriangleCount(ctx, b, true, apps.OpsOptions{})
		perVertex = keep(g, perVertex)
		return res, err
	})
	if err != nil {
		return 0, nil, st, err
	}
	return total, perVertex, st, nil
}

// TriangleCount returns the number of triangles of an undirected graph
// (self-loops and parallel arcs ignored), each counted once.
func (g *Graph) TriangleCount(ctx context.Context) (uint64, Stats, error) {
	var total uint64
	st, err := runOps(g, "tc", func(b engine.Backend) (res engine.Result, err error) {
		total, _, res, err = apps.TriangleCount(ctx, b, false, apps.OpsOptions{})
		return res, err
	})
	if err != nil {
		return 0, st, err
	}
	return total, st, nil
}

// CoreNumbers returns every vertex's core number in an undirected graph
// (the largest k such that the vertex is in the k-core, the maximal
// subgraph whose vertices all have degree k or more: NetworkX's
// core_number), self-loops and parallel arcs ignored.
func (g *Graph) CoreNumbers(ctx context.Context) ([]uint32, Stats, error) {
	var core []uint32
	st, err := runOps(g, "kcore", func(b engine.Backend) (res engine.Result, err error) {
		core, res, err = apps.KCore(ctx, b, apps.OpsOptions{})
		core = keep(g, core)
		return res, err
	})
	if err != nil {
		return nil, st, err
	}
	return core, st, nil
}

// MultiSourceBFS returns every vertex's distance in arcs to the nearest of
// sources (original ids; repeats allowed), apps.Unreached where none
// reaches it: cuGraph's multi-source BFS, run with the operators.
func (g *Graph) MultiSourceBFS(ctx context.Context, sources []uint32) ([]uint32, Stats, error) {
	var levels []uint32
	st, err := runOps(g, "bfs", func(b engine.Backend) (res engine.Result, err error) {
		levels, res, err = apps.MultiSourceBFS(ctx, b, sources, apps.OpsOptions{})
		levels = keep(g, levels)
		return res, err
	})
	if err != nil {
		return nil, st, err
	}
	return levels, st, nil
}

// MultiSourceSSSPFloat32 is MultiSourceSSSP on a graph of float32
// weights: float32 distances to the nearest source, +Inf where none
// reaches (as SSSPFloat32).
func (g *Graph) MultiSourceSSSPFloat32(ctx context.Context, sources []uint32) ([]float32, Stats, error) {
	var dist []float32
	st, err := runOps(g, "sssp", func(b engine.Backend) (res engine.Result, err error) {
		dist, res, err = apps.MultiSourceSSSPFloat32(ctx, b, sources, apps.OpsOptions{})
		dist = keep(g, dist)
		return res, err
	})
	if err != nil {
		return nil, st, err
	}
	return dist, st, nil
}

// MultiSourceSSSP returns every vertex's weighted distance to the nearest
// of sources (a weighted graph; apps.Unreached where none reaches it), run
// with the operators. A graph of float32 weights is refused:
// MultiSourceSSSPFloat32 runs it.
func (g *Graph) MultiSourceSSSP(ctx context.Context, sources []uint32) ([]uint32, Stats, error) {
	var dist []uint32
	st, err := runOps(g, "sssp", func(b engine.Backend) (res engine.Result, err error) {
		dist, res, err = apps.MultiSourceSSSP(ctx, b, sources, apps.OpsOptions{})
		dist = keep(g, dist)
		return res, err
	})
	if err != nil {
		return nil, st, err
	}
	return dist, st, nil
}

// Edge is an edge of a spanning forest: its ends (original ids, U < V)
// and its weight.
type Edge struct {
	U, V, W uint32
}

// MinimumSpanningForest returns a minimum spanning forest of an
// undirected graph (self-loops ignored; an unweighted graph's edges weigh
// 1) by Borůvka's algorithm, with its total weight: one tree per
// component, n − components edges in no particular order. With tied
// weights it is one of the minimum forests (NetworkX's
// minimum_spanning_edges may pick another of the same weight).
func (g *Graph) MinimumSpanningForest(ctx context.Context) (uint64, []Edge, Stats, error) {
	var weight uint64
	var edges []Edge
	st, err := runOps(g, "msf", func(b engine.Backend) (res engine.Result, err error) {
		w, es, res, err := apps.MSF(ctx, b, apps.OpsOptions{})
		if err != nil {
			return res, err
		}
		weight, edges = w, make([]Edge, len(es))
		for i, e := range es {
			edges[i] = Edge{U: e.U, V: e.V, W: e.W}
		}
		return res, nil
	})
	if err != nil {
		return 0, nil, st, err
	}
	return weight, edges, st, nil
}

// Color colours an undirected graph (self-loops ignored) by Jones and
// Plassmann's parallel greedy rule, largest degree first, with random
// priorities drawn from seed among equal degrees:
// no two adjacent vertices share a colour, a vertex's colour is at most
// its degree (so at most Δ+1 colours, numbered from 0), and a seed always
// gives the same colouring of a graph.
func (g *Graph) Color(ctx context.Context, seed uint64) ([]uint32, Stats, error) {
	var colors []uint32
	st, err := runOps(g, "color", func(b engine.Backend) (res engine.Result, err error) {
		colors, res, err = apps.Color(ctx, b, seed, apps.OpsOptions{})
		colors = keep(g, colors)
		return res, err
	})
	if err != nil {
		return nil, st, err
	}
	return colors, st, nil
}

// MaximalIndependentSet returns a maximal independent set of an undirected
// graph (self-loops ignored) as one flag per vertex, by Luby's algorithm
// with random priorities drawn from seed: no two members are adjacent, and
// every other vertex has a neighbour in the set.
func (g *Graph) MaximalIndependentSet(ctx context.Context, seed uint64) ([]bool, Stats, error) {
	var in []bool
	st, err := runOps(g, "mis", func(b engine.Backend) (res engine.Result, err error) {
		in, res, err = apps.MIS(ctx, b, seed, apps.OpsOptions{})
		return res, err
	})
	if err != nil {
		return nil, st, err
	}
	return in, st, nil
}

// PersonalizedPageRank is PageRank whose teleports, and the rank of
// vertices without out-arcs, go to the sources (uniformly over the
// distinct ones; NetworkX's pagerank with a personalization of equal
// weights on them). Ranks sum to 1; opts as for PageRank.
func (g *Graph) PersonalizedPageRank(ctx context.Context, sources []uint32, opts PageRankOptions) ([]float64, Stats, error) {
	if len(sources) == 0 {
		return nil, Stats{}, fmt.Errorf("mgraph: ppr needs at least one source")
	}
	sources = slices.Clone(sources)
	var ranks []float64
	st, err := runOps(g, "ppr", func(b engine.Backend) (res engine.Result, err error) {
		ranks, res, err = apps.PersonalizedPageRank(ctx, b, sources, opts.options(), apps.OpsOptions{})
		ranks = keep(g, ranks)
		return res, err
	})
	if err != nil {
		return nil, st, err
	}
	return ranks, st, nil
}

// HITS returns Kleinberg's hub and authority scores, each summing to 1
// (NetworkX's hits: the principal singular vectors of the adjacency
// matrix), by power iteration from uniform hubs; it stops after the first
// iteration whose L1 change of the hubs is below tol, or after maxIter
// (> 0).
func (g *Graph) HITS(ctx context.Context, maxIter int, tol float64) (hubs, authorities []float64, st Stats, err error) {
	return g.hubsAuthorities(ctx, "hits", maxIter, tol)
}

// SALSA returns Lempel and Moran's hub and authority scores: from hubs
// uniform over the vertices with out-arcs (authorities over those with
// in-arcs), each iteration sets a(v) = Σ_{u→v} h(u)/outdeg(u) and h(u) =
// Σ_{u→v} a(v)/indeg(v); it stops after the first iteration whose L1
// changes of both are below tol, or after maxIter (> 0).
func (g *Graph) SALSA(ctx context.Context, maxIter int, tol float64) (hubs, authorities []float64, st Stats, err error) {
	return g.hubsAuthorities(ctx, "salsa", maxIter, tol)
}

func (g *Graph) hubsAuthorities(ctx context.Context, app string, maxIter int, tol float64) (hubs, authorities []float64, st Stats, err error) {
	if maxIter <= 0 {
		return nil, nil, Stats{}, fmt.Errorf("mgraph: %s: an iteration cap of %d (want > 0)", app, maxIter)
	}
	run := apps.HITS
	if app == "salsa" {
		run = apps.SALSA
	}
	st, err = runOps(g, app, func(b engine.Backend) (res engine.Result, err error) {
		hubs, authorities, res, err = run(ctx, b, maxIter, tol, apps.OpsOptions{})
		return res, err
	})
	if err != nil {
		return nil, nil, st, err
	}
	return hubs, authorities, st, nil
}

// WTFOptions are WhoToFollow's parameters; a zero field takes its default.
type WTFOptions struct {
	// CircleSize is the most vertices in the user's circle of trust
	// (default 20; Twitter's and Gunrock's 1000 suit large follow graphs).
	CircleSize int
	// TopK is the most recommendations (default 10).
	TopK int
	// PageRank is the personalised PageRank from the user; its zero fields
	// are damping 0.85, tolerance 1e-4 and at most 100 iterations.
	PageRank PageRankOptions
	// SALSAIterations (default 100) and SALSATolerance (default 1e-4) are
	// SALSA's iteration cap and tolerance.
	SALSAIterations int
	SALSATolerance  float64
}

// options fills in the defaults (ref.DefaultWTFOptions).
func (o WTFOptions) options() (apps.WTFOptions, error) {
	if o.CircleSize < 0 || o.TopK < 0 || o.SALSAIterations < 0 || o.SALSATolerance < 0 {
		return apps.WTFOptions{}, fmt.Errorf("mgraph: wtf: a negative option in %+v", o)
	}
	w := ref.DefaultWTFOptions()
	if o.CircleSize != 0 {
		w.CircleSize = o.CircleSize
	}
	if o.TopK != 0 {
		w.TopK = o.TopK
	}
	if o.PageRank.Damping != 0 {
		w.PageRank.Damping = o.PageRank.Damping
	}
	if o.PageRank.Tolerance != 0 {
		w.PageRank.Tolerance = o.PageRank.Tolerance
	}
	if o.PageRank.MaxIterations != 0 {
		w.PageRank.MaxIterations = o.PageRank.MaxIterations
	}
	if o.SALSAIterations != 0 {
		w.SALSAIterations = o.SALSAIterations
	}
	if o.SALSATolerance != 0 {
		w.SALSATolerance = o.SALSATolerance
	}
	return w, nil
}

// WhoToFollow recommends accounts for user to follow, best first, as
// Twitter's who-to-follow (and Gunrock's) does on a follow graph (an arc
// u→v: u follows v): the user's circle of trust is the CircleSize vertices
// of highest personalised PageRank from the user; SALSA on the arcs
// leaving the circle ranks the accounts they follow, and the TopK of them
// the user does not follow yet are returned (ties to the smaller id).
func (g *Graph) WhoToFollow(ctx context.Context, user uint32, opts WTFOptions) ([]uint32, Stats, error) {
	w, err := opts.options()
	if err != nil {
		return nil, Stats{}, err
	}
	var rec []uint32
	st, err := runOps(g, "wtf", func(b engine.Backend) (res engine.Result, err error) {
		rec, res, err = apps.WhoToFollow(ctx, b, user, w, apps.OpsOptions{})
		return res, err
	})
	if err != nil {
		return nil, st, err
	}
	return rec, st, nil
}
