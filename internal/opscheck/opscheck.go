// Package opscheck runs every operator app (package apps: BFS and SSSP
// with the operators, triangle counting, k-core, colouring, MIS,
// personalised PageRank, HITS, SALSA, who-to-follow) on one backend with
// every load-balancing strategy and validates each result against the
// serial references. The CPU tests and the GPU tests share it.
package opscheck

import (
	"context"
	"fmt"
	"math"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/ops"
)

// Strategies are the load-balancing strategies every traversal runs with.
var Strategies = []ops.Strategy{ops.Auto, ops.ThreadMapped, ops.TWC, ops.Merged}

// Backends are what Check runs on: the graph as given (fwd) and, for the
// apps on undirected or weighted graphs, its symmetrization (sym), a
// weighted copy (weighted) and a weighted symmetrization (symWeighted,
// for the spanning forest), and optionally a copy with float32 weights
// (Float32: the float32 SSSPs, one source and several, against
// ref.SSSPFloat32 exactly). Any may be the same backend.
type Backends struct {
	Fwd, Sym, Weighted, SymWeighted engine.Backend
	Float32                         engine.Backend // nil: no float32 checks
}

// Check runs and validates every operator app, the traversals with each
// of strategies (all of Strategies when none is given); the first failure
// is returned, naming the app, strategy and source.
func Check(ctx context.Context, b Backends, strategies ...ops.Strategy) error {
	if len(strategies) == 0 {
		strategies = Strategies
	}
	g := apps.OriginalCSR(b.Fwd.Layout(), 2)
	sg := apps.OriginalCSR(b.Sym.Layout(), 2)
	wg := apps.OriginalCSR(b.Weighted.Layout(), 2)
	n := b.Fwd.Layout().NumVertices
	var sources []uint32
	if n > 0 {
		sources = []uint32{0, uint32(n / 2), uint32(n - 1)}
	}
	for _, st := range strategies {
		o := apps.OpsOptions{Strategy: st}
		for _, s := range sources {
			for _, noPull := range []bool{false, true} {
				po := o
				po.NoPull = noPull
				levels, _, err := apps.BFSOps(ctx, b.Fwd, s, po)
				if err == nil {
					err = apps.ValidateBFS(g, s, levels)
				}
				if err != nil {
					return fmt.Errorf("bfs ops/%s/no pull %v/source %d: %w", st, noPull, s, err)
				}
			}
			dist, _, err := apps.SSSPOps(ctx, b.Weighted, s, o)
			if err == nil {
				err = apps.ValidateSSSP(wg, s, dist)
			}
			if err != nil {
				return fmt.Errorf("sssp ops/%s/source %d: %w", st, s, err)
			}
		}
		if err := checkFloat32(ctx, b.Float32, sources, o); err != nil {
			return fmt.Errorf("sssp ops float32/%s: %w", st, err)
		}
		if err := checkStructure(ctx, b.Sym, sg, o); err != nil {
			return fmt.Errorf("%s: %w", st, err)
		}
		for _, mb := range []engine.Backend{b.Sym, b.SymWeighted} {
			weight, edges, _, err := apps.MSF(ctx, mb, o)
			if err == nil {
				err = apps.ValidateMSF(apps.OriginalCSR(mb.Layout(), 2), weight, edges)
			}
			if err != nil {
				return fmt.Errorf("msf/%s: %w", st, err)
			}
		}
		hubs, auth, _, err := apps.SALSA(ctx, b.Fwd, 50, 1e-10, o)
		if err == nil {
			err = apps.ValidateHubsAuthorities(g, true, 50, 1e-10, hubs, auth)
		}
		if err != nil {
			return fmt.Errorf("salsa/%s: %w", st, err)
		}
	}
	o := apps.OpsOptions{}
	pr := apps.DefaultPageRankOptions()
	pr.Tolerance, pr.MaxIterations = 1e-10, 100
	if n > 0 {
		// Auto runs on the device where the backend can (the GPU's
		// PageRank with a teleport set); TWC asks for the operators.
		for _, st := range []ops.Strategy{ops.Auto, ops.TWC} {
			ranks, _, err := apps.PersonalizedPageRank(ctx, b.Fwd, sources, pr, apps.OpsOptions{Strategy: st})
			if err == nil {
				err = apps.ValidatePPR(g, sources, pr, ranks)
			}
			if err != nil {
				return fmt.Errorf("ppr/%s: %w", st, err)
			}
		}
		w := ref.DefaultWTFOptions()
		for _, s := range sources {
			rec, _, err := apps.WhoToFollow(ctx, b.Fwd, s, w, o)
			if err == nil {
				err = apps.ValidateWTF(g, s, w, rec)
			}
			if err != nil {
				return fmt.Errorf("wtf/user %d: %w", s, err)
			}
		}
	}
	hubs, auth, _, err := apps.HITS(ctx, b.Fwd, 50, 1e-10, o)
	if err == nil {
		err = apps.ValidateHubsAuthorities(g, false, 50, 1e-10, hubs, auth)
	}
	if err != nil {
		return fmt.Errorf("hits: %w", err)
	}
	return nil
}

// checkStructure runs the apps on undirected graphs.
func checkStructure(ctx context.Context, b engine.Backend, sg *graph.CSR, o apps.OpsOptions) error {
	total, per, _, err := apps.TriangleCount(ctx, b, true, o)
	if err == nil {
		err = apps.ValidateTriangles(sg, total, per)
	}
	if err != nil {
		return fmt.Errorf("tc: %w", err)
	}
	core, _, err := apps.KCore(ctx, b, o)
	if err == nil {
		err = apps.ValidateKCore(sg, core)
	}
	if err != nil {
		return fmt.Errorf("kcore: %w", err)
	}
	for seed := uint64(1); seed <= 2; seed++ {
		colors, _, err := apps.Color(ctx, b, seed, o)
		if err == nil {
			err = apps.ValidateColor(sg, colors)
		}
		if err != nil {
			return fmt.Errorf("color/seed %d: %w", seed, err)
		}
		in, _, err := apps.MIS(ctx, b, seed, o)
		if err == nil {
			err = apps.ValidateMIS(sg, in)
		}
		if err != nil {
			return fmt.Errorf("mis/seed %d: %w", seed, err)
		}
	}
	return nil
}

// checkFloat32 runs the float32 SSSPs with the operators on b (nil: none)
// from each source and from all of them at once.
func checkFloat32(ctx context.Context, b engine.Backend, sources []uint32, o apps.OpsOptions) error {
	if b == nil || len(sources) == 0 {
		return nil
	}
	g := apps.OriginalCSR(b.Layout(), 2)
	least := make([]float32, g.NumVertices)
	for v := range least {
		least[v] = float32(math.Inf(1))
	}
	for _, s := range sources {
		dist, _, err := apps.SSSPOpsFloat32(ctx, b, s, o)
		if err == nil {
			err = apps.ValidateSSSPFloat32(g, s, dist)
		}
		if err != nil {
			return fmt.Errorf("source %d: %w", s, err)
		}
		want, err := ref.SSSPFloat32(g, s)
		if err != nil {
			return err
		}
		for v, x := range want {
			least[v] = min(least[v], x)
		}
	}
	dist, _, err := apps.MultiSourceSSSPFloat32(ctx, b, sources, o)
	if err == nil {
		err = ref.CompareFloat32Distances(least, dist)
	}
	if err != nil {
		return fmt.Errorf("sources %v: %w", sources, err)
	}
	return nil
}
