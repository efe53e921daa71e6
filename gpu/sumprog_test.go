package gpu_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/stretchr/testify/require"
)

// checkSumApps runs data-driven PageRank and BC on the GPU in every mode
// (BC in async mode on a directed graph with its backward pass over the
// in-adjacency), on the graph as given (directed or not) and symmetrized,
// twice each (the run state is reused), against the serial reference.
func checkSumApps(t *testing.T, el *graph.EdgeList, p layout.Params, opts ...gpu.Option) {
	ctx := context.Background()
	sym := el.Clone()
	sym.Symmetrize(4)
	prd := apps.DefaultPageRankOptions()
	prd.MaxIterations = 0
	for k, e := range []*graph.EdgeList{el, sym} {
		l := build(t, e, p)
		g := apps.OriginalCSR(l, 4)
		gb, err := gpu.New(l, 4, opts...)
		require.NoError(t, err)
		srcs := sourcesOf(l.NumVertices)
		for _, mode := range modes {
			for trial := 0; trial < 2; trial++ {
				tag := fmt.Sprintf("graph %d/%s/trial %d", k, mode, trial)
				ro := engine.RunOptions{Mode: mode, Seed: 5, Trace: true}
				ranks, res, err := apps.PageRankDelta(ctx, gb, prd, ro)
				require.NoError(t, err, tag+": pr-delta")
				require.NoError(t, apps.ValidatePageRankDelta(g, prd, ranks), tag+": pr-delta")
				checkTraceModes(t, res, mode, tag+": pr-delta")

				bc, res, err := apps.BC(ctx, gb, gb, srcs, ro)
				require.NoError(t, err, tag+": bc")
				require.NoError(t, apps.ValidateBC(g, srcs, bc), tag+": bc")
				checkTraceModes(t, res, mode, tag+": bc")
				checkedCases.Add(2)
			}
		}
		require.NoError(t, gb.Close())
	}
}

// checkTraceModes: every traced iteration has kernel phases, and a forced
// mode is the mode of every engine iteration (BC's backward passes are
// traced as "backward"; auto chooses as the hybrid does).
func checkTraceModes(t *testing.T, res engine.Result, mode engine.Mode, tag string) {
	t.Helper()
	for _, tr := range res.Trace {
		require.NotEmpty(t, tr.Phases, tag)
		if mode != engine.Hybrid && mode != engine.Auto && tr.Mode != "backward" {
			require.Equal(t, mode.String(), tr.Mode, tag)
		}
	}
}

func TestSumProgramsAllModesAllShapes(t *testing.T) { onShapes(t, checkSumApps) }

func TestSumProgramsOnDatasets(t *testing.T) { onDatasets(t, checkSumApps) }

func TestSumProgramsHubSplit(t *testing.T) {
	needGPU(t)
	checkSumApps(t, hubs(), layout.DefaultParams())
}

// TestBCDirectedNeedsNoTranspose: on the GPU, BC of a directed graph runs
// with the forward backend alone (its backward pass pulls over out-arcs).
func TestBCDirectedNeedsNoTranspose(t *testing.T) {
	needGPU(t)
	el := &graph.EdgeList{NumVertices: 5, Directed: true,
		Src: []uint32{0, 0, 1, 2, 3}, Dst: []uint32{1, 2, 3, 3, 4}}
	l := build(t, el, testgraphs.SmallParams())
	require.True(t, l.Directed)
	gb, err := gpu.New(l, 2)
	require.NoError(t, err)
	defer gb.Close()
	bc, _, err := apps.BC(context.Background(), gb, gb, []uint32{0}, engine.RunOptions{})
	require.NoError(t, err)
	// From 0: σ = 1, 1, 1, 2, 2; δ(3) = 1, δ(1) = δ(2) = ½·(1 + 1).
	require.InDeltaSlice(t, []float64{0, 1, 1, 1, 0}, bc, 1e-12)
}

// TestBCAutoHandsOver: in auto mode, a source whose forward pass is long
// (a path of 300 vertices: 300 levels of one vertex) drops its levels after
// engine.AutoAsyncIterations and runs again without them (async, with
// gpu.WithoutBlockRuns; TestBlockRuns has the one-block runs); a short one
// (a star) stays level-synchronous. Both against the reference.
func TestBCAutoHandsOver(t *testing.T) {
	needGPU(t)
	const n = 300
	var path, star [][2]uint32
	for v := uint32(0); v+1 < n; v++ {
		path = append(path, [2]uint32{v, v + 1})
		star = append(star, [2]uint32{0, v + 1})
	}
	ro := engine.RunOptions{Mode: engine.Auto, Trace: true}
	for _, c := range []struct {
		name  string
		el    *graph.EdgeList
		async bool
	}{{"path", testgraphs.Undirected(n, path...), true}, {"star", testgraphs.Undirected(n, star...), false}} {
		l := build(t, c.el, testgraphs.SmallParams())
		gb, err := gpu.New(l, 2, gpu.WithoutBlockRuns(), gpu.WithoutClusterRuns())
		require.NoError(t, err, c.name)
		srcs := []uint32{0, 7}
		bc, res, err := apps.BC(context.Background(), gb, gb, srcs, ro)
		require.NoError(t, err, c.name)
		require.NoError(t, apps.ValidateBC(graph.ToCSR(c.el, 4), srcs, bc), c.name)
		modes := traceModes(res)
		if c.async {
			require.Equal(t, len(srcs), modes["async"], "%s: %v", c.name, modes)
		} else {
			require.Zero(t, modes["async"], "%s: %v", c.name, modes)
		}
		require.NoError(t, gb.Close())
	}
}

// TestBCPathCountOverflow: where σ overflows float64 (a doubling ladder of
// 1,100 rungs), every GPU Brandes path agrees with the reference: by
// levels (hybrid), async, and in auto one block over fixed-width rows or
// over the CSR, one cluster, or the async engine. The leaves of the BFS
// DAG (the pendants) score 0 whatever their σ, not +Inf · 0.
func TestBCPathCountOverflow(t *testing.T) {
	needGPU(t)
	const layers = 1100
	el := testgraphs.DoublingLadder(layers)
	l := build(t, el, testgraphs.SmallParams())
	csr := graph.ToCSR(el, 4)
	for _, c := range []struct {
		name string
		mode engine.Mode
		opts []gpu.Option
	}{
		{"hybrid", engine.Hybrid, nil},
		{"async", engine.Async, nil},
		{"auto: block rows", engine.Auto, nil},
		{"auto: block csr", engine.Auto, []gpu.Option{gpu.WithoutBlockRows()}},
		{"auto: cluster", engine.Auto, []gpu.Option{gpu.WithoutBlockRuns()}},
		{"auto: async", engine.Auto, []gpu.Option{gpu.WithoutBlockRuns(), gpu.WithoutClusterRuns()}},
	} {
		gb, err := gpu.New(l, 2, c.opts...)
		require.NoError(t, err, c.name)
		bc, res, err := apps.BC(context.Background(), gb, gb, []uint32{0}, engine.RunOptions{Mode: c.mode, Trace: true})
		require.NoError(t, err, c.name)
		require.NoError(t, apps.ValidateBC(csr, []uint32{0}, bc), "%s: %v", c.name, traceModes(res))
		nan := 0
		for _, x := range bc {
			if math.IsNaN(x) {
				nan++
			}
		}
		require.Positive(t, nan, "%s: σ overflowed", c.name)
		for j := uint32(0); j < 2*layers; j++ {
			require.Zero(t, bc[1+2*layers+j], "%s: pendant %d is a leaf", c.name, j)
		}
		t.Logf("%s: %v", c.name, traceModes(res))
		require.NoError(t, gb.Close())
	}
}
