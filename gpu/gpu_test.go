package gpu_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/format"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/require"
)

var modes = []engine.Mode{engine.Hybrid, engine.Dense, engine.Sparse, engine.Async, engine.Auto}

func needGPU(t *testing.T) {
	t.Helper()
	if !gpu.Available() {
		t.Skip("no usable GPU (or built without the cuda tag)")
	}
}

func build(t testing.TB, el *graph.EdgeList, p layout.Params) *layout.Layout {
	l, err := preprocess.Build(context.Background(), el, p, preprocess.Options{Workers: 4})
	require.NoError(t, err)
	return l
}

func sourcesOf(n uint64) []uint32 {
	if n == 0 {
		return nil
	}
	return []uint32{0, uint32(n / 2), uint32(n - 1)}
}

// checkAll runs BFS (levels and tree), SSSP (over uint32 and over float32
// weights) and CC on the GPU in every mode and compares each result with
// the CPU backend's (exactly) and the serial reference.
func checkAll(t *testing.T, el *graph.EdgeList, p layout.Params, opts ...gpu.Option) {
	ctx := context.Background()
	weighted, fweighted := weightedCopies(t, el)
	sym := el.Clone()
	sym.Symmetrize(4)
	type job struct {
		app string
		l   *layout.Layout
	}
	lbfs := build(t, el, p)
	jobs := []job{{"bfs", lbfs}, {"bfs-tree", lbfs}, {"sssp", build(t, weighted, p)}, {"sssp-float32", build(t, fweighted, p)},
		{"cc-lp", build(t, sym, p)}, {"cc", build(t, sym, p)}}
	for _, j := range jobs {
		g := apps.OriginalCSR(j.l, 4)
		cb, err := cpu.New(j.l, 4)
		require.NoError(t, err)
		gb, err := gpu.New(j.l, 4, opts...)
		require.NoError(t, err)
		srcs := sourcesOf(j.l.NumVertices)
		if apps.Undirected(j.app) {
			srcs = []uint32{0}
		}
		app := j.app
		if app == "sssp-float32" {
			app = "sssp" // apps.Run runs SSSPFloat32 on float32 weights
		}
		for _, s := range srcs {
			want, _, err := apps.Run(ctx, app, cb, cb, []uint32{s}, apps.PageRankOptions{}, engine.RunOptions{})
			require.NoError(t, err)
			for _, mode := range modes {
				tag := fmt.Sprintf("%s/%s/source %d", j.app, mode, s)
				ro := engine.RunOptions{Mode: mode, Seed: 5, Trace: true}
				got, res, err := apps.Run(ctx, app, gb, gb, []uint32{s}, apps.PageRankOptions{}, ro)
				require.NoError(t, err, tag)
				require.Equal(t, want, got, tag+": differs from the CPU backend")
				switch j.app {
				case "bfs":
					require.NoError(t, apps.ValidateBFS(g, s, got.([]uint32)), tag)
				case "bfs-tree":
					require.NoError(t, apps.ValidateBFSTree(g, s, got.([]uint32)), tag)
				case "sssp":
					require.NoError(t, apps.ValidateSSSP(g, s, got.([]uint32)), tag)
				case "sssp-float32":
					require.NoError(t, apps.ValidateSSSPFloat32(g, s, got.([]float32)), tag)
				case "cc", "cc-lp":
					require.NoError(t, apps.ValidateCC(g, got.([]uint32)), tag)
				}
				checkedCases.Add(1)
				require.Len(t, res.Trace, res.Iterations, tag)
				for _, tr := range res.Trace {
					if mode != engine.Hybrid && mode != engine.Auto && j.app != "cc" { // cc hooks whatever the mode
						require.Equal(t, mode.String(), tr.Mode, tag)
					}
					require.NotEmpty(t, tr.Phases, tag)
				}
			}
		}
		require.NoError(t, gb.Close())
	}
}

// weightedCopies returns el with uint32 weights (its own, or its float32
// ones when all are integers, else random ones in [1, 64]) and el with
// float32 weights (its own, or its integers as floats, or random ones in
// (0, 1]).
func weightedCopies(t testing.TB, el *graph.EdgeList) (weighted, fweighted *graph.EdgeList) {
	weighted, fweighted = el.Clone(), el.Clone()
	if !weighted.Weighted() || weighted.ConvertWeights(graph.Uint32Weights, 4) != nil {
		weighted.SetRandomWeights(9, 1, 64, 4)
	}
	if fweighted.Weighted() {
		require.NoError(t, fweighted.ConvertWeights(graph.Float32Weights, 4))
	} else {
		fweighted.SetRandomFloat32Weights(9, 4)
	}
	return weighted, fweighted
}

func TestMinProgramsAllModesAllShapes(t *testing.T) { onShapes(t, checkAll) }

// checkFunc checks the GPU backend on one graph and layout parameters.
type checkFunc func(t *testing.T, el *graph.EdgeList, p layout.Params, opts ...gpu.Option)

// tinySplit cuts the dense kernels' work into tiny pieces, so that heavy
// blocks are split into row chunks, column panels into several light chunks
// and row panels into several phase 2 chunks even on small graphs.
var tinySplit = gpu.WithWorkSplit(cuda.WorkSplit{HeavyChunkRows: 2, LightChunkEdges: 7, SlotChunk: 48})

// TestSplitKernelsOnce runs a few dense, split and pull steps on one small
// R-MAT graph with the tiny split, against the CPU backend: a handful of
// launches, the target of the sanitizer runs (racecheck instruments every
// shared-memory access, and the full tests take too long under it).
func TestSplitKernelsOnce(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	el := testgraphs.Generated(t, "rmat:10:8", 1)
	el.Symmetrize(2)
	l := build(t, el, testgraphs.SmallParams())
	cb, err := cpu.New(l, 2)
	require.NoError(t, err)
	gb, err := gpu.New(l, 2, tinySplit)
	require.NoError(t, err)
	defer gb.Close()
	po := apps.PageRankOptions{Damping: 0.85, Tolerance: 0, MaxIterations: 3}
	want, _, err := apps.PageRank(ctx, cb, po, engine.RunOptions{})
	require.NoError(t, err)
	got, _, err := apps.PageRank(ctx, gb, po, engine.RunOptions{})
	require.NoError(t, err)
	require.InDeltaSlice(t, want, got, 1e-12)
	for _, mode := range []engine.Mode{engine.Dense, engine.Hybrid} {
		wantB, _, err := apps.Run(ctx, "bfs", cb, cb, []uint32{0}, po, engine.RunOptions{})
		require.NoError(t, err)
		gotB, _, err := apps.Run(ctx, "bfs", gb, gb, []uint32{0}, po, engine.RunOptions{Mode: mode, Seed: 5})
		require.NoError(t, err)
		require.Equal(t, wantB, gotB, mode.String())
	}
}

// TestDenseWorkSplit runs every app on every shape with the tiny split.
func TestDenseWorkSplit(t *testing.T) {
	needGPU(t)
	for _, s := range testgraphs.Shapes(t, testgraphs.Large) {
		t.Run(s.Name, func(t *testing.T) {
			for _, check := range []checkFunc{checkAll, checkPageRank, checkSumApps} {
				check(t, s.EL, testgraphs.SmallParams(), tinySplit)
			}
		})
	}
	checkAll(t, hubs(), layout.DefaultParams(), tinySplit)
}

// onShapes runs check on every test shape with the small parameters, and
// with the defaults too when the shape has more than 1000 arcs.
func onShapes(t *testing.T, check checkFunc) {
	needGPU(t)
	for _, s := range testgraphs.Shapes(t, testgraphs.Large) {
		t.Run(s.Name, func(t *testing.T) {
			check(t, s.EL, testgraphs.SmallParams())
			if s.EL.NumArcs() > 1000 {
				check(t, s.EL, layout.DefaultParams())
			}
		})
	}
}

func TestMinProgramsOnDatasets(t *testing.T) { onDatasets(t, checkAll) }

// onDatasets runs check with the default parameters on every shared
// dataset (carried in .device-carry/datasets on the GPU machine).
func onDatasets(t *testing.T, check checkFunc) {
	needGPU(t)
	if testing.Short() {
		t.Skip("datasets: skipped in -short")
	}
	var files []string
	for _, dir := range []string{filepath.Join("..", ".device-carry", "datasets"), filepath.Join("..", "..", "shared", "datasets")} {
		if files, _ = filepath.Glob(filepath.Join(dir, "*.mtx.zst")); len(files) > 0 {
			break
		}
	}
	if len(files) == 0 {
		t.Skip("no datasets")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			el, _, err := format.ReadFile(context.Background(), f, format.ReadOptions{})
			require.NoError(t, err)
			check(t, el, layout.DefaultParams())
		})
	}
}

func TestRefusesOtherPrograms(t *testing.T) {
	needGPU(t)
	l := build(t, testgraphs.Undirected(4, [2]uint32{0, 1}), testgraphs.SmallParams())
	gb, err := gpu.New(l, 2)
	require.NoError(t, err)
	defer gb.Close()
	run, err := engine.NewRunner[float64](gb, engine.RunOptions{})
	require.NoError(t, err)
	_, err = run.Run(context.Background(), hostOnly{}, make([]float64, 4), engine.AllActive(4))
	require.ErrorContains(t, err, "not from host values")
	require.Equal(t, "cuda", gb.Name())
	require.Greater(t, gb.DeviceBytes(), uint64(0))
}

// hostOnly is a float64 program without a device implementation.
type hostOnly struct{}

func (hostOnly) Edge() engine.EdgeOp                   { return engine.EdgeSource }
func (hostOnly) Combine() engine.CombineOp             { return engine.CombineSum }
func (hostOnly) ApplyAll() bool                        { return false }
func (hostOnly) Apply(uint32, float64, []float64) bool { return false }

func TestNoGPU(t *testing.T) {
	if gpu.Available() {
		t.Skip("a GPU is visible")
	}
	l := build(t, testgraphs.Undirected(4, [2]uint32{0, 1}), testgraphs.SmallParams())
	_, err := gpu.New(l, 2)
	require.Error(t, err)
	if !cuda.BuiltWithCUDA() {
		require.ErrorIs(t, err, cuda.ErrNoCUDA)
	}
}

// hubs: two hubs of 70,000 and 40,000 arcs (more than the sparse advance's
// per-block limit, so hub_kernel splits them over the grid) joined by a path
// of leaves, plus a chain through the first hub's leaves, so BFS and SSSP
// reach the hubs in different iterations.
func hubs() *graph.EdgeList {
	const a, b = 70000, 40000
	n := uint64(2 + a + b)
	var pairs [][2]uint32
	for v := uint32(2); v < 2+a; v++ {
		pairs = append(pairs, [2]uint32{0, v})
		if v%7 == 0 && v+1 < 2+a {
			pairs = append(pairs, [2]uint32{v, v + 1})
		}
	}
	for v := uint32(2 + a); v < uint32(n); v++ {
		pairs = append(pairs, [2]uint32{1, v})
	}
	pairs = append(pairs, [2]uint32{5, 2 + a + 3})
	return testgraphs.Undirected(n, pairs...)
}

// manyHubs: 300 hubs of 4,200 arcs each over a pool of 20,000 leaves, more
// hubs than hub_kernel takes in one batch (256), plus a path through the
// hubs so they are reached in different iterations.
func manyHubs() *graph.EdgeList {
	const hubsN, leaves, deg = 300, 20000, 4200
	var pairs [][2]uint32
	for h := uint32(0); h < hubsN; h++ {
		for j := uint32(0); j < deg; j++ {
			pairs = append(pairs, [2]uint32{h, hubsN + (h*37+j)%leaves})
		}
		if h%3 == 0 && h+1 < hubsN {
			pairs = append(pairs, [2]uint32{h, h + 1})
		}
	}
	return testgraphs.Undirected(hubsN+leaves, pairs...)
}

func TestMinProgramsHubSplit(t *testing.T) {
	needGPU(t)
	checkAll(t, hubs(), layout.DefaultParams())
	checkAll(t, manyHubs(), layout.DefaultParams())
}

// TestBFSPullSteps: on an undirected and on a directed R-MAT graph the
// hybrid BFS takes pull steps (Beamer's rule; the directed one over its
// in-adjacency, uploaded by the first run) and still matches the CPU; with
// NoPull it takes none. Its device loops run pull steps themselves (the
// trace's pull iterations with a device-loop phase), unless
// WithoutLoopPulls, whose pull steps all run on the host's side.
func TestBFSPullSteps(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	directed := testgraphs.Generated(t, "rmat:14:16", 5)
	directed.DropSelfLoops()
	// In-rows of MG_PULL_HEAVY_DEGREE arcs and more, which a loop's pull
	// step cuts into chunks over the grid.
	hubs := testgraphs.Generated(t, "rmat:16:16", 7)
	hubs.DropSelfLoops()
	for _, el := range []*graph.EdgeList{testgraphs.Shapes(t, testgraphs.Large)[0].EL, directed, hubs} {
		l := build(t, el, layout.DefaultParams())
		cb, err := cpu.New(l, 4)
		require.NoError(t, err)
		for _, loopPulls := range []bool{true, false} {
			var gopts []gpu.Option
			if !loopPulls {
				gopts = append(gopts, gpu.WithoutLoopPulls())
			}
			gb, err := gpu.New(l, 4, gopts...)
			require.NoError(t, err)
			pulls, inLoop := 0, 0
			for _, s := range append(sourcesOf(l.NumVertices), l.InvPerm[0]) { // the last: the top hub
				want, _, err := apps.Run(ctx, "bfs", cb, cb, []uint32{s}, apps.PageRankOptions{}, engine.RunOptions{})
				require.NoError(t, err)
				for _, noPull := range []bool{false, true} {
					opts := engine.RunOptions{Mode: engine.Hybrid, Trace: true, NoPull: noPull}
					got, res, err := apps.Run(ctx, "bfs", gb, gb, []uint32{s}, apps.PageRankOptions{}, opts)
					require.NoError(t, err)
					require.Equal(t, want, got, "directed %v, loop pulls %v, source %d", l.Directed, loopPulls, s)
					for _, tr := range res.Trace {
						if tr.Mode == "pull" {
							require.False(t, noPull)
							pulls++
							for _, ph := range tr.Phases {
								if ph.Name == gpu.LoopPhase {
									inLoop++
								}
							}
						}
					}
				}
			}
			require.NoError(t, gb.Close())
			require.Greater(t, pulls, 0, "directed %v, loop pulls %v", l.Directed, loopPulls)
			if loopPulls {
				require.Greater(t, inLoop, 0, "directed %v: no pull step ran in a device loop", l.Directed)
			} else {
				require.Zero(t, inLoop, "directed %v", l.Directed)
			}
		}
	}
}

// TestBFSDepthLimit: an iteration cap stops BFS and its tree at that depth
// on the device (host steps and device loops alike), as on the CPU, in
// every synchronous mode and auto; async refuses it.
func TestBFSDepthLimit(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		l := build(t, s.EL, testgraphs.SmallParams())
		g := apps.OriginalCSR(l, 2)
		gb, err := gpu.New(l, 2)
		require.NoError(t, err)
		for _, src := range sourcesOf(l.NumVertices) {
			for _, depth := range []int{1, 3, 40} {
				for _, mode := range modes {
					tag := fmt.Sprintf("%s/source %d/depth %d/%s", s.Name, src, depth, mode)
					opts := engine.RunOptions{Mode: mode, MaxIterations: depth}
					levels, _, err := apps.BFS(ctx, gb, src, opts)
					if mode == engine.Async {
						require.Error(t, err, tag)
						continue
					}
					require.NoError(t, err, tag)
					require.NoError(t, apps.ValidateBFSWithin(g, src, depth, levels), tag)
					parents, _, err := apps.BFSParents(ctx, gb, src, opts)
					require.NoError(t, err, tag)
					require.NoError(t, apps.ValidateBFSTreeWithin(g, src, depth, parents), tag)
				}
			}
		}
		require.NoError(t, gb.Close())
	}
}
