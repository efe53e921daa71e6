package mgraph_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mgraph-dev/mgraph"
	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/stretchr/testify/require"
)

func TestLoadErrors(t *testing.T) {
	ctx := context.Background()
	_, err := mgraph.Load(ctx, "no-such-file.mtx", mgraph.Options{})
	require.ErrorContains(t, err, "no-such-file.mtx")
	_, err = mgraph.Load(ctx, "grid:4", mgraph.Options{Backend: "tpu"})
	require.ErrorContains(t, err, `unknown backend "tpu"`)
	_, err = mgraph.Load(ctx, "grid:4", mgraph.Options{Mode: "fast"})
	require.Error(t, err)
	_, err = mgraph.FromEdges(ctx, 3, []uint32{0, 1}, []uint32{1}, nil, true, mgraph.Options{})
	require.ErrorContains(t, err, "2 sources, 1 destinations")
	_, err = mgraph.FromEdges(ctx, 2, []uint32{0}, []uint32{5}, nil, true, mgraph.Options{})
	require.Error(t, err, "an arc to a vertex that does not exist")
}

func TestRunErrorsAndClose(t *testing.T) {
	ctx := context.Background()
	g, err := mgraph.Load(ctx, "grid:6", mgraph.Options{Backend: mgraph.CPU, Undirected: true})
	require.NoError(t, err)
	_, _, err = g.SSSP(ctx, 0)
	require.ErrorContains(t, err, "weights")
	_, _, err = g.BFS(ctx, 1000)
	require.ErrorContains(t, err, "source 1000")
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, _, err = g.BFS(cancelled, 0)
	require.ErrorIs(t, err, context.Canceled)
	require.NoError(t, g.Close())
	require.NoError(t, g.Close())
	_, _, err = g.BFS(ctx, 0)
	require.ErrorContains(t, err, "closed graph")
}

// TestAgainstReference runs every app through the API on a generated graph
// and checks it with the serial references; results belong to the caller
// (a later run does not change them), and runs from several goroutines
// agree.
func TestAgainstReference(t *testing.T) {
	ctx := context.Background()
	g, err := mgraph.Load(ctx, "rmat:10:8", mgraph.Options{Backend: mgraph.CPU, Undirected: true, Weights: true, WeightSeed: 5})
	require.NoError(t, err)
	defer g.Close()
	require.Equal(t, mgraph.CPU, g.Backend())
	require.False(t, g.Directed())
	require.True(t, g.Weighted())
	el, err := loadRef(ctx)
	require.NoError(t, err)
	ref := el

	levels, st, err := g.BFS(ctx, 3)
	require.NoError(t, err)
	require.Positive(t, st.Trial)
	require.NoError(t, apps.ValidateBFS(ref, 3, levels))
	before := append([]uint32(nil), levels...)
	_, _, err = g.BFS(ctx, 7)
	require.NoError(t, err)
	require.Equal(t, before, levels, "a later run changed an earlier result")

	dist, _, err := g.SSSP(ctx, 3)
	require.NoError(t, err)
	require.NoError(t, apps.ValidateSSSP(ref, 3, dist))
	labels, _, err := g.ConnectedComponents(ctx)
	require.NoError(t, err)
	require.NoError(t, apps.ValidateCC(ref, labels))
	ranks, _, err := g.PageRank(ctx, mgraph.PageRankOptions{})
	require.NoError(t, err)
	require.NoError(t, apps.ValidatePageRank(ref, apps.DefaultPageRankOptions(), ranks))
	bc, _, err := g.BetweennessCentrality(ctx, []uint32{1, 2})
	require.NoError(t, err)
	require.NoError(t, apps.ValidateBC(ref, []uint32{1, 2}, bc))

	var wg sync.WaitGroup
	results := make([][]uint32, 4)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, _, err := g.BFS(ctx, 3)
			if err == nil {
				results[i] = r
			}
		}()
	}
	wg.Wait()
	for _, r := range results {
		require.Equal(t, before, r)
	}
}

// loadRef is the graph TestAgainstReference loads, made the same way
// (generator, symmetrized, weights), as the references take it.
func loadRef(ctx context.Context) (*graph.CSR, error) {
	spec, err := gen.ParseSpec("rmat:10:8")
	if err != nil {
		return nil, err
	}
	el, err := spec.Generate(ctx, 1, 0, nil)
	if err != nil {
		return nil, err
	}
	el.Symmetrize(0)
	el.SetRandomWeights(5, 1, 64, 0)
	return graph.ToCSR(el, 0), nil
}

// TestGPUAgreesWithCPU runs every app through the API on the GPU and on the
// CPU (skipped where no GPU is visible).
func TestGPUAgreesWithCPU(t *testing.T) {
	if !gpu.Available() {
		t.Skip("no usable GPU (or built without the cuda tag)")
	}
	ctx := context.Background()
	opts := mgraph.Options{Undirected: true, Weights: true, WeightSeed: 5}
	opts.Backend = mgraph.CUDA
	gg, err := mgraph.Load(ctx, "rmat:12:8", opts)
	require.NoError(t, err)
	defer gg.Close()
	require.Equal(t, mgraph.CUDA, gg.Backend())
	opts.Backend = mgraph.CPU
	cg, err := mgraph.Load(ctx, "rmat:12:8", opts)
	require.NoError(t, err)
	defer cg.Close()
	for _, f := range []func(g *mgraph.Graph) ([]uint32, error){
		func(g *mgraph.Graph) ([]uint32, error) { r, _, err := g.BFS(ctx, 1); return r, err },
		func(g *mgraph.Graph) ([]uint32, error) { r, _, err := g.SSSP(ctx, 1); return r, err },
		func(g *mgraph.Graph) ([]uint32, error) { r, _, err := g.ConnectedComponents(ctx); return r, err },
	} {
		want, err := f(cg)
		require.NoError(t, err)
		got, err := f(gg)
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
	for _, f := range []func(g *mgraph.Graph) ([]float64, error){
		func(g *mgraph.Graph) ([]float64, error) {
			r, _, err := g.PageRank(ctx, mgraph.PageRankOptions{})
			return r, err
		},
		func(g *mgraph.Graph) ([]float64, error) {
			r, _, err := g.BetweennessCentrality(ctx, []uint32{1, 2})
			return r, err
		},
	} {
		want, err := f(cg)
		require.NoError(t, err)
		got, err := f(gg)
		require.NoError(t, err)
		require.Len(t, got, len(want))
		for i := range want {
			require.InDelta(t, want[i], got[i], 1e-9*max(1, want[i]), "vertex %d", i)
		}
	}
}

// TestDirectedBC: betweenness on a directed graph (on the CPU the backward
// pass needs the transposed graph, which the Graph builds once).
func TestDirectedBC(t *testing.T) {
	ctx := context.Background()
	// 0 -> 1 -> 2 -> 3 and 0 -> 4 -> 3: 1, 2 and 4 lie on paths.
	g, err := mgraph.FromEdges(ctx, 5, []uint32{0, 1, 2, 0, 4}, []uint32{1, 2, 3, 4, 3}, nil, true, mgraph.Options{Backend: mgraph.CPU})
	require.NoError(t, err)
	defer g.Close()
	bc, _, err := g.BetweennessCentrality(ctx, []uint32{0, 1, 2, 3, 4})
	require.NoError(t, err)
	// Paths: 0->2 via 1; 0->3 via 4 only (2 hops; 0-1-2-3 is 3); 1->3 via 2.
	require.Equal(t, []float64{0, 1, 1, 0, 1}, bc)
}

// TestInto writes results into the caller's buffers and refuses wrong ones.
func TestInto(t *testing.T) {
	ctx := context.Background()
	g, err := mgraph.Load(ctx, "grid:8", mgraph.Options{Backend: mgraph.CPU, Undirected: true})
	require.NoError(t, err)
	defer g.Close()
	levels := make([]uint32, g.NumVertices())
	_, err = g.Into(ctx, "bfs", []uint32{0}, mgraph.PageRankOptions{}, levels)
	require.NoError(t, err)
	want, _, err := g.BFS(ctx, 0)
	require.NoError(t, err)
	require.Equal(t, want, levels)
	ranks := make([]float64, g.NumVertices())
	_, err = g.Into(ctx, "pr", nil, mgraph.PageRankOptions{}, ranks)
	require.NoError(t, err)
	require.Positive(t, ranks[0])
	_, err = g.Into(ctx, "bfs", []uint32{0}, mgraph.PageRankOptions{}, ranks)
	require.ErrorContains(t, err, "returns []uint32")
	_, err = g.Into(ctx, "bfs", []uint32{0}, mgraph.PageRankOptions{}, levels[:3])
	require.ErrorContains(t, err, "3 elements for 64 vertices")
	_, err = g.Into(ctx, "tc", nil, mgraph.PageRankOptions{}, levels)
	require.ErrorContains(t, err, `unknown app "tc"`)
}

// TestHostBuffer: results into a graph's host buffers equal the methods'
// on every backend there is (pinned memory, written by the device, on the
// GPU); a buffer outlives its graph and frees once.
func TestHostBuffer(t *testing.T) {
	ctx := context.Background()
	backends := []mgraph.Backend{mgraph.CPU}
	if gpu.Available() {
		backends = append(backends, mgraph.CUDA)
	}
	for _, be := range backends {
		g, err := mgraph.Load(ctx, "rmat:12:8", mgraph.Options{Backend: be, Undirected: true})
		require.NoError(t, err)
		lv, err := mgraph.NewHostBuffer[uint32](g)
		require.NoError(t, err)
		require.Equal(t, be == mgraph.CUDA, lv.Pinned())
		rk, err := mgraph.NewHostBuffer[float64](g)
		require.NoError(t, err)
		for _, s := range []uint32{0, 7} {
			_, err = g.Into(ctx, "bfs", []uint32{s}, mgraph.PageRankOptions{}, lv.Slice())
			require.NoError(t, err)
			want, _, err := g.BFS(ctx, s)
			require.NoError(t, err)
			require.Equal(t, want, lv.Slice(), "%s from %d", be, s)
		}
		_, err = g.Into(ctx, "pr", nil, mgraph.PageRankOptions{}, rk.Slice())
		require.NoError(t, err)
		want, _, err := g.PageRank(ctx, mgraph.PageRankOptions{})
		require.NoError(t, err)
		require.InDeltaSlice(t, want, rk.Slice(), 1e-12) // the GPU's sums may round in another order
		// A plain slice after a host buffer: the backend's own buffers again.
		plain := make([]uint32, g.NumVertices())
		_, err = g.Into(ctx, "cc", nil, mgraph.PageRankOptions{}, plain)
		require.NoError(t, err)
		cc, _, err := g.ConnectedComponents(ctx)
		require.NoError(t, err)
		require.Equal(t, cc, plain)
		require.NoError(t, g.Close())
		_, err = mgraph.NewHostBuffer[uint32](g)
		require.ErrorContains(t, err, "closed graph")
		require.NoError(t, lv.Free())
		require.NoError(t, lv.Free())
		require.NoError(t, rk.Free())
	}
}

// TestBFSParents: every reached vertex's parent is one level up and has an
// arc to it; the backends give the same tree.
func TestBFSParents(t *testing.T) {
	ctx := context.Background()
	backends := []mgraph.Backend{mgraph.CPU}
	if gpu.Available() {
		backends = append(backends, mgraph.CUDA)
	}
	var trees [][]uint32
	for _, be := range backends {
		g, err := mgraph.Load(ctx, "rmat:12:8", mgraph.Options{Backend: be})
		require.NoError(t, err)
		src := []uint32{0, 3}
		for _, s := range src {
			parents, _, err := g.BFSParents(ctx, s)
			require.NoError(t, err)
			levels, _, err := g.BFS(ctx, s)
			require.NoError(t, err)
			require.Equal(t, s, parents[s])
			for v, p := range parents {
				if levels[v] == mgraph.Unreached || uint32(v) == s {
					continue
				}
				require.NotEqual(t, mgraph.Unreached, p, "vertex %d", v)
				require.Equal(t, levels[v]-1, levels[p], "vertex %d, parent %d", v, p)
			}
			trees = append(trees, parents)
		}
		require.NoError(t, g.Close())
	}
	for i := 2; i < len(trees); i++ {
		require.Equal(t, trees[i-2], trees[i], "the backends' trees differ")
	}
}

// TestBFSWithin: a depth limit cuts the levels; bad limits are errors.
func TestBFSWithin(t *testing.T) {
	ctx := context.Background()
	g, err := mgraph.Load(ctx, "grid:16", mgraph.Options{Backend: mgraph.CPU, Undirected: true})
	require.NoError(t, err)
	defer g.Close()
	all, _, err := g.BFS(ctx, 0)
	require.NoError(t, err)
	for _, d := range []int{1, 3, 7} {
		got, _, err := g.BFSWithin(ctx, 0, d)
		require.NoError(t, err)
		for v, l := range all {
			if l > uint32(d) {
				l = mgraph.Unreached
			}
			require.Equal(t, l, got[v], "depth %d, vertex %d", d, v)
		}
	}
	_, _, err = g.BFSWithin(ctx, 0, 0)
	require.ErrorContains(t, err, "depth limit of 0")
	_, err = g.IntoWith(ctx, "sssp", []uint32{0}, mgraph.PageRankOptions{}, mgraph.RunOptions{DepthLimit: 2}, make([]uint32, g.NumVertices()))
	require.ErrorContains(t, err, "bfs and bfs-tree take one")
}

// TestLoadCache: with CacheDir, Load stores the layout it builds and the
// next Load of the same input takes it from the cache (shown by swapping
// the entry for another graph's layout), for generator specs and files.
func TestLoadCache(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "g.el")
	require.NoError(t, os.WriteFile(file, []byte("0 1\n1 2\n2 3\n"), 0o644))
	for _, input := range []string{"rmat:10:4", file} {
		cdir := filepath.Join(t.TempDir(), "cache")
		opts := mgraph.Options{Backend: mgraph.CPU, Undirected: true, CacheDir: cdir}
		g, err := mgraph.Load(ctx, input, opts)
		require.NoError(t, err)
		want, _, err := g.BFS(ctx, 0)
		require.NoError(t, err)
		require.NoError(t, g.Close())
		entries, _ := filepath.Glob(filepath.Join(cdir, "*.mgl"))
		require.Len(t, entries, 1, input)

		again, err := mgraph.Load(ctx, input, opts)
		require.NoError(t, err)
		got, _, err := again.BFS(ctx, 0)
		require.NoError(t, err)
		require.Equal(t, want, got)
		require.NoError(t, again.Close())

		// Another graph's layout under this key: the cache is what Load reads.
		other := filepath.Join(t.TempDir(), "other")
		og, err := mgraph.Load(ctx, "grid:7", mgraph.Options{Backend: mgraph.CPU, Undirected: true, CacheDir: other})
		require.NoError(t, err)
		require.NoError(t, og.Close())
		oentries, _ := filepath.Glob(filepath.Join(other, "*.mgl"))
		require.Len(t, oentries, 1)
		data, err := os.ReadFile(oentries[0])
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(entries[0], data, 0o644))
		swapped, err := mgraph.Load(ctx, input, opts)
		require.NoError(t, err)
		require.Equal(t, 49, swapped.NumVertices(), "the cached layout was not used")
		require.NoError(t, swapped.Close())

		// Other options, another entry.
		opts.Weights, opts.WeightSeed = true, 3
		w, err := mgraph.Load(ctx, input, opts)
		require.NoError(t, err)
		require.True(t, w.Weighted())
		require.NoError(t, w.Close())
		entries, _ = filepath.Glob(filepath.Join(cdir, "*.mgl"))
		require.Len(t, entries, 2)
	}
}

// TestAutoFallsBackToCPU: a graph over the GPU memory limit fails with the
// CUDA backend, naming the bytes, and runs on the CPU with Auto (skipped
// where no GPU is visible).
func TestAutoFallsBackToCPU(t *testing.T) {
	if !gpu.Available() {
		t.Skip("no usable GPU (or built without the cuda tag)")
	}
	ctx := context.Background()
	opts := mgraph.Options{Undirected: true, Backend: mgraph.CUDA, GPUMemoryLimit: 4096}
	_, err := mgraph.Load(ctx, "rmat:12:8", opts)
	require.ErrorContains(t, err, "out of device memory")
	require.ErrorContains(t, err, "over the limit of 4.0 KiB")
	opts.Backend = mgraph.Auto
	g, err := mgraph.Load(ctx, "rmat:12:8", opts)
	require.NoError(t, err)
	defer g.Close()
	require.Equal(t, mgraph.CPU, g.Backend())
	levels, _, err := g.BFS(ctx, 1)
	require.NoError(t, err)
	require.Len(t, levels, g.NumVertices())
	opts.GPUMemoryLimit = 0
	g2, err := mgraph.Load(ctx, "rmat:12:8", opts)
	require.NoError(t, err)
	defer g2.Close()
	require.Equal(t, mgraph.CUDA, g2.Backend())
}
