package mgraph_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/mgraph-dev/mgraph"
	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/stretchr/testify/require"
)

// TestOpsAppsAgainstReference runs the operator apps through the API on
// the graph TestAgainstReference loads and checks them with the serial
// references, from several goroutines at once (runs take turns).
func TestOpsAppsAgainstReference(t *testing.T) {
	ctx := context.Background()
	g, err := mgraph.Load(ctx, "rmat:10:8", mgraph.Options{Backend: mgraph.CPU, Undirected: true, Weights: true, WeightSeed: 5})
	require.NoError(t, err)
	defer g.Close()
	sg, err := loadRef(ctx)
	require.NoError(t, err)
	checks := opsChecks(ctx, g, sg)
	var wg sync.WaitGroup
	errs := make([]error, len(checks))
	for i, check := range checks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = check()
		}()
	}
	wg.Wait()
	for i, err := range errs {
		require.NoError(t, err, "check %d", i)
	}
}

// opsChecks returns one check of each operator app on g against the
// references on its CSR ref (undirected, so every app applies).
func opsChecks(ctx context.Context, g *mgraph.Graph, sg *graph.CSR) []func() error {
	return []func() error{
		func() error {
			total, per, st, err := g.Triangles(ctx)
			if err != nil {
				return err
			}
			if st.Trial <= 0 || st.Iterations == 0 {
				return fmt.Errorf("tc stats %+v", st)
			}
			if only, _, err := g.TriangleCount(ctx); err != nil || only != total {
				return fmt.Errorf("TriangleCount %d (%v), Triangles %d", only, err, total)
			}
			return apps.ValidateTriangles(sg, total, per)
		},
		func() error {
			core, _, err := g.CoreNumbers(ctx)
			if err != nil {
				return err
			}
			return apps.ValidateKCore(sg, core)
		},
		func() error {
			weight, edges, _, err := g.MinimumSpanningForest(ctx)
			if err != nil {
				return err
			}
			es := make([]ref.Edge, len(edges))
			for i, e := range edges {
				es[i] = ref.Edge{U: e.U, V: e.V, W: e.W}
			}
			return apps.ValidateMSF(sg, weight, es)
		},
		func() error {
			colors, _, err := g.Color(ctx, 7)
			if err != nil {
				return err
			}
			again, _, err := g.Color(ctx, 7)
			if err != nil {
				return err
			}
			if !slices.Equal(colors, again) {
				return fmt.Errorf("two colourings with seed 7 differ")
			}
			return apps.ValidateColor(sg, colors)
		},
		func() error {
			in, _, err := g.MaximalIndependentSet(ctx, 7)
			if err != nil {
				return err
			}
			return apps.ValidateMIS(sg, in)
		},
		func() error {
			sources := []uint32{3, 9, 3}
			ranks, _, err := g.PersonalizedPageRank(ctx, sources, mgraph.PageRankOptions{Tolerance: 1e-10, MaxIterations: 100})
			if err != nil {
				return err
			}
			pr := apps.DefaultPageRankOptions()
			pr.Tolerance, pr.MaxIterations = 1e-10, 100
			return apps.ValidatePPR(sg, sources, pr, ranks)
		},
		func() error {
			hubs, auth, _, err := g.HITS(ctx, 50, 1e-10)
			if err != nil {
				return err
			}
			return apps.ValidateHubsAuthorities(sg, false, 50, 1e-10, hubs, auth)
		},
		func() error {
			hubs, auth, _, err := g.SALSA(ctx, 50, 1e-10)
			if err != nil {
				return err
			}
			return apps.ValidateHubsAuthorities(sg, true, 50, 1e-10, hubs, auth)
		},
		func() error {
			rec, _, err := g.WhoToFollow(ctx, 3, mgraph.WTFOptions{})
			if err != nil {
				return err
			}
			if len(rec) == 0 {
				return fmt.Errorf("no recommendations for 3")
			}
			return apps.ValidateWTF(sg, 3, ref.DefaultWTFOptions(), rec)
		},
	}
}

// TestOpsAppsErrors: the undirected apps refuse a directed graph with the
// app's error, arguments are checked, and a closed graph runs nothing.
func TestOpsAppsErrors(t *testing.T) {
	ctx := context.Background()
	g, err := mgraph.FromEdges(ctx, 4, []uint32{0, 1, 2}, []uint32{1, 2, 0}, nil, true, mgraph.Options{Backend: mgraph.CPU})
	require.NoError(t, err)
	_, _, _, err = g.Triangles(ctx)
	require.ErrorContains(t, err, "mgraph: tc needs an undirected graph")
	_, _, err = g.TriangleCount(ctx)
	require.ErrorContains(t, err, "tc needs an undirected graph")
	_, _, err = g.CoreNumbers(ctx)
	require.ErrorContains(t, err, "kcore needs an undirected graph")
	_, _, err = g.Color(ctx, 1)
	require.ErrorContains(t, err, "color needs an undirected graph")
	_, _, err = g.MaximalIndependentSet(ctx, 1)
	require.ErrorContains(t, err, "mis needs an undirected graph")
	_, _, _, err = g.MinimumSpanningForest(ctx)
	require.ErrorContains(t, err, "msf needs an undirected graph")
	// The rank apps take directed graphs.
	hubs, _, _, err := g.HITS(ctx, 10, 0)
	require.NoError(t, err)
	require.InDeltaSlice(t, []float64{1. / 3, 1. / 3, 1. / 3, 0}, hubs, 1e-12)
	_, _, _, err = g.HITS(ctx, 0, 1e-8)
	require.ErrorContains(t, err, "iteration cap of 0")
	_, _, _, err = g.SALSA(ctx, 10, -1)
	require.ErrorContains(t, err, "negative")
	_, _, err = g.PersonalizedPageRank(ctx, nil, mgraph.PageRankOptions{})
	require.ErrorContains(t, err, "ppr needs at least one source")
	_, _, err = g.PersonalizedPageRank(ctx, []uint32{9}, mgraph.PageRankOptions{})
	require.ErrorContains(t, err, "source 9")
	_, _, err = g.PersonalizedPageRank(ctx, []uint32{0}, mgraph.PageRankOptions{Damping: 2})
	require.ErrorContains(t, err, "damping")
	_, _, err = g.WhoToFollow(ctx, 9, mgraph.WTFOptions{})
	require.ErrorContains(t, err, "mgraph: wtf: source 9")
	_, _, err = g.WhoToFollow(ctx, 0, mgraph.WTFOptions{TopK: -1})
	require.ErrorContains(t, err, "negative")
	rec, _, err := g.WhoToFollow(ctx, 0, mgraph.WTFOptions{})
	require.NoError(t, err)
	require.NotNil(t, rec)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, _, _, err = g.HITS(cancelled, 10, 0)
	require.ErrorIs(t, err, context.Canceled)
	require.NoError(t, g.Close())
	_, _, _, err = g.Triangles(ctx)
	require.ErrorContains(t, err, "tc on a closed graph")
	_, _, _, err = g.SALSA(ctx, 10, 0)
	require.ErrorContains(t, err, "salsa on a closed graph")
	_, _, err = g.WhoToFollow(ctx, 0, mgraph.WTFOptions{})
	require.ErrorContains(t, err, "wtf on a closed graph")
}

// TestOpsAppsOnGPU runs the operator apps through the API on the GPU
// (skipped where no GPU is visible).
func TestOpsAppsOnGPU(t *testing.T) {
	if !gpu.Available() {
		t.Skip("no usable GPU (or built without the cuda tag)")
	}
	ctx := context.Background()
	g, err := mgraph.Load(ctx, "rmat:10:8", mgraph.Options{Backend: mgraph.CUDA, Undirected: true, Weights: true, WeightSeed: 5})
	require.NoError(t, err)
	defer g.Close()
	require.Equal(t, mgraph.CUDA, g.Backend())
	sg, err := loadRef(ctx)
	require.NoError(t, err)
	for i, check := range opsChecks(ctx, g, sg) {
		require.NoError(t, check(), "check %d", i)
	}
}
