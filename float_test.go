package mgraph_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/mgraph-dev/mgraph"
	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/stretchr/testify/require"
)

// floatGraph is a generated directed graph with random float32 weights,
// as arrays for FromEdgesFloat32 and as the reference's CSR.
func floatGraph(t *testing.T) (n int, src, dst []uint32, w []float32, g *graph.CSR) {
	t.Helper()
	el, err := gen.RMAT(context.Background(), gen.DefaultRMAT(10, 8), 3, nil)
	require.NoError(t, err)
	el.SetRandomFloat32Weights(7, 2)
	w = make([]float32, len(el.Weights))
	for i, b := range el.Weights {
		w[i] = math.Float32frombits(b)
	}
	return int(el.NumVertices), el.Src, el.Dst, w, graph.ToCSR(el, 2)
}

// floatBackends are the backends a float test runs on.
func floatBackends() []mgraph.Backend {
	if gpu.Available() {
		return []mgraph.Backend{mgraph.CPU, mgraph.CUDA}
	}
	return []mgraph.Backend{mgraph.CPU}
}

// TestFloat32SSSP: float32 weights give float32 distances equal to the
// reference's float32 Dijkstra, in every mode on every backend there is,
// through every way the API returns them.
func TestFloat32SSSP(t *testing.T) {
	ctx := context.Background()
	n, src, dst, w, g := floatGraph(t)
	want, err := ref.SSSPFloat32(g, 5)
	require.NoError(t, err)
	for _, be := range floatBackends() {
		for _, mode := range []string{"hybrid", "dense", "sparse", "async", "auto"} {
			fg, err := mgraph.FromEdgesFloat32(ctx, n, src, dst, w, true, mgraph.Options{Backend: be, Mode: mode})
			require.NoError(t, err)
			require.Equal(t, mgraph.Float32Weights, fg.WeightType())
			dist, st, err := fg.SSSPFloat32(ctx, 5)
			require.NoError(t, err, "%s/%s", be, mode)
			require.Positive(t, st.Trial)
			require.NoError(t, ref.CompareFloat32Distances(want, dist), "%s/%s", be, mode)
			require.True(t, math.IsInf(float64(dist[n-1]), 1) || dist[n-1] >= 0)
			_, _, err = fg.SSSP(ctx, 5)
			require.ErrorIs(t, err, apps.ErrFloat32Weights)
			require.ErrorContains(t, err, "use SSSPFloat32")
			// Into a plain slice, and into a host buffer.
			out := make([]float32, n)
			_, err = fg.Into(ctx, "sssp", []uint32{5}, mgraph.PageRankOptions{}, out)
			require.NoError(t, err)
			require.Equal(t, dist, out)
			hb, err := mgraph.NewHostBuffer[float32](fg)
			require.NoError(t, err)
			_, err = fg.Into(ctx, "sssp", []uint32{5}, mgraph.PageRankOptions{}, hb.Slice())
			require.NoError(t, err)
			require.Equal(t, dist, hb.Slice(), "%s/%s: host buffer", be, mode)
			require.NoError(t, hb.Free())
			_, err = fg.Into(ctx, "sssp", []uint32{5}, mgraph.PageRankOptions{}, make([]uint32, n))
			require.ErrorContains(t, err, "[]float32")
			_, err = fg.Into(ctx, "bfs", []uint32{5}, mgraph.PageRankOptions{}, out)
			require.ErrorContains(t, err, "only sssp")
			require.NoError(t, fg.Close())
		}
		// Several sources: the least of the references.
		fg, err := mgraph.FromEdgesFloat32(ctx, n, src, dst, w, true, mgraph.Options{Backend: be})
		require.NoError(t, err)
		sources := []uint32{5, 9, 5, 100}
		least := make([]float32, n)
		for v := range least {
			least[v] = float32(math.Inf(1))
		}
		for _, s := range sources {
			d, err := ref.SSSPFloat32(g, s)
			require.NoError(t, err)
			for v, x := range d {
				least[v] = min(least[v], x)
			}
		}
		got, _, err := fg.MultiSourceSSSPFloat32(ctx, sources)
		require.NoError(t, err)
		require.NoError(t, ref.CompareFloat32Distances(least, got), "%s: multi-source", be)
		_, _, err = fg.MultiSourceSSSP(ctx, sources)
		require.ErrorIs(t, err, apps.ErrFloat32Weights)
		require.NoError(t, fg.Close())
	}
}

// TestFloat32Weights: how graphs get float32 weights, and what is refused.
func TestFloat32Weights(t *testing.T) {
	ctx := context.Background()
	src, dst := []uint32{0, 1, 2}, []uint32{1, 2, 0}
	_, err := mgraph.FromEdgesFloat32(ctx, 3, src, dst, []float32{1, float32(math.NaN()), 2}, true, mgraph.Options{Backend: mgraph.CPU})
	require.ErrorContains(t, err, "arc 1 (1→2): weight is NaN")
	_, err = mgraph.FromEdgesFloat32(ctx, 3, src, dst, []float32{1, -2, 2}, true, mgraph.Options{Backend: mgraph.CPU})
	require.ErrorContains(t, err, "arc 1 (1→2): weight -2 is negative")
	_, err = mgraph.FromEdgesFloat32(ctx, 3, src, dst, []float32{1, float32(math.Inf(1)), 2}, true, mgraph.Options{Backend: mgraph.CPU})
	require.ErrorContains(t, err, "infinite")
	_, err = mgraph.FromEdgesFloat32(ctx, 3, src, dst, []float32{1, 2}, true, mgraph.Options{Backend: mgraph.CPU})
	require.ErrorContains(t, err, "3 sources, 3 destinations and 2 weights")
	_, err = mgraph.FromEdgesFloat32(ctx, 3, src, dst, []float32{1, 2.5, 2}, true, mgraph.Options{Backend: mgraph.CPU, WeightType: mgraph.Uint32Weights})
	require.ErrorContains(t, err, "not a uint32 integer")
	_, err = mgraph.Load(ctx, "grid:4", mgraph.Options{Backend: mgraph.CPU, WeightType: "float64"})
	require.ErrorContains(t, err, `unknown weight type "float64"`)

	// Integers made float32, and a negative zero taken as zero.
	g, err := mgraph.FromEdges(ctx, 3, src, dst, []uint32{1, 2, 3}, true, mgraph.Options{Backend: mgraph.CPU, WeightType: mgraph.Float32Weights})
	require.NoError(t, err)
	d, _, err := g.SSSPFloat32(ctx, 0)
	require.NoError(t, err)
	require.Equal(t, []float32{0, 1, 3}, d)
	require.NoError(t, g.Close())
	g, err = mgraph.FromEdgesFloat32(ctx, 4, src, dst, []float32{float32(math.Copysign(0, -1)), 0.25, 2}, true, mgraph.Options{Backend: mgraph.CPU})
	require.NoError(t, err)
	d, _, err = g.SSSPFloat32(ctx, 0)
	require.NoError(t, err)
	require.Equal(t, uint32(0), math.Float32bits(d[1]), "+0, not -0")
	require.Equal(t, []float32{0, 0, 0.25, float32(math.Inf(1))}, d, "vertex 3 is unreached: +Inf")
	require.NoError(t, g.Close())
	// SSSPFloat32 on a graph of integers is refused.
	g, err = mgraph.FromEdges(ctx, 3, src, dst, []uint32{1, 2, 3}, true, mgraph.Options{Backend: mgraph.CPU})
	require.NoError(t, err)
	require.Equal(t, mgraph.Uint32Weights, g.WeightType())
	_, _, err = g.SSSPFloat32(ctx, 0)
	require.ErrorContains(t, err, "weights are uint32: use SSSP")
	require.NoError(t, g.Close())

	// A Matrix Market file of real weights reads as float32; asked for
	// uint32 it is refused with the file and line.
	path := filepath.Join(t.TempDir(), "w.mtx")
	require.NoError(t, os.WriteFile(path, []byte("%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 0.5\n2 3 0.25\n1 3 1\n"), 0o644))
	g, err = mgraph.Load(ctx, path, mgraph.Options{Backend: mgraph.CPU})
	require.NoError(t, err)
	require.Equal(t, mgraph.Float32Weights, g.WeightType())
	d, _, err = g.SSSPFloat32(ctx, 0)
	require.NoError(t, err)
	require.Equal(t, []float32{0, 0.5, 0.75}, d)
	require.NoError(t, g.Close())
	_, err = mgraph.Load(ctx, path, mgraph.Options{Backend: mgraph.CPU, WeightType: mgraph.Uint32Weights})
	require.ErrorContains(t, err, "w.mtx: line 3: value is not an integer")
	// Random float32 weights for a generated graph.
	g, err = mgraph.Load(ctx, "grid:8", mgraph.Options{Backend: mgraph.CPU, Undirected: true, Weights: true, WeightSeed: 3,
		WeightType: mgraph.Float32Weights})
	require.NoError(t, err)
	require.Equal(t, mgraph.Float32Weights, g.WeightType())
	d, _, err = g.SSSPFloat32(ctx, 0)
	require.NoError(t, err)
	for _, x := range d {
		require.False(t, math.IsInf(float64(x), 0), "a grid is connected")
	}
	require.NoError(t, g.Close())
}

// TestFloat32Cache: the layout cache keeps the weight type.
func TestFloat32Cache(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	opts := mgraph.Options{Backend: mgraph.CPU, Undirected: true, Weights: true, WeightSeed: 3, WeightType: mgraph.Float32Weights, CacheDir: dir}
	var first []float32
	for i := 0; i < 2; i++ { // built, then from the cache
		g, err := mgraph.Load(ctx, "grid:8", opts)
		require.NoError(t, err)
		require.Equal(t, mgraph.Float32Weights, g.WeightType())
		d, _, err := g.SSSPFloat32(ctx, 0)
		require.NoError(t, err)
		if i == 0 {
			first = d
		}
		require.Equal(t, first, d)
		require.NoError(t, g.Close())
	}
	opts.WeightType = mgraph.AutoWeights // another entry: integer weights
	g, err := mgraph.Load(ctx, "grid:8", opts)
	require.NoError(t, err)
	require.Equal(t, mgraph.Uint32Weights, g.WeightType())
	require.NoError(t, g.Close())
}
