package gpu_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/stretchr/testify/require"
)

// longChain is an undirected path longer than one device loop's records, so
// a traversal from one end takes several loops.
func longChain() *graph.EdgeList {
	return testgraphs.Path(uint32(2*cuda.LoopRecords + 500))
}

// loopShapes are the graphs of the device-loop tests: a chain longer than
// one loop, a grid (many small iterations) and R-MAT (loops between dense
// and pull steps).
func loopShapes(t *testing.T) []testgraphs.Shape {
	return []testgraphs.Shape{
		{Name: "chain", EL: longChain()},
		{Name: "grid", EL: testgraphs.Generated(t, "grid:60x70:0.1", 4)},
		{Name: "rmat", EL: testgraphs.Shapes(t, testgraphs.Large)[0].EL},
	}
}

// ranInLoop reports whether a traced iteration ran in a device loop (its
// only phase is gpu.LoopPhase).
func ranInLoop(tr engine.IterationTrace) bool {
	return len(tr.Phases) == 1 && tr.Phases[0].Name == gpu.LoopPhase
}

// TestDeviceLoop compares runs with the device loop against the host loop
// (gpu.WithoutDeviceLoop) on graphs whose traversals take many small
// iterations, and an R-MAT graph where the hybrid also takes dense and pull
// steps around the loops: the same values; for BFS and SSSP, whose frontiers
// do not depend on the schedule, the same frontiers, out-arcs and unsettled
// arcs in every iteration. With the loop, the iterations that the hybrid
// takes sparse by a rule the device can apply (all of them when sparse is
// forced) run in a loop (see checkLoopIterations), which a cut by MaxIterations ends
// where it ends the host's.
func TestDeviceLoop(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	shapes := loopShapes(t)
	looped := 0
	for _, s := range shapes {
		weighted := s.EL.Clone()
		weighted.SetRandomWeights(9, 1, 64, 4)
		sym := s.EL.Clone()
		sym.Symmetrize(4)
		for _, job := range []struct {
			app string
			el  *graph.EdgeList
		}{{"bfs", s.EL}, {"sssp", weighted}, {"cc-lp", sym}} {
			l := build(t, job.el, layout.DefaultParams())
			off, err := gpu.New(l, 4, gpu.WithoutDeviceLoop())
			require.NoError(t, err)
			// SSSP loops near-far by default, in other iterations than the
			// host's; plain loops must match the host's iteration by
			// iteration.
			variants := map[string][]gpu.Option{"loop": nil}
			if job.app == "sssp" {
				variants["plain loop"] = []gpu.Option{gpu.WithNearFarDelta(-1)}
			}
			for name, opts := range variants {
				on, err := gpu.New(l, 4, opts...)
				require.NoError(t, err)
				nearFar := job.app == "sssp" && name == "loop"
				for _, mode := range []engine.Mode{engine.Hybrid, engine.Sparse} {
					for _, maxIter := range []int{0, 7} {
						tag := fmt.Sprintf("%s/%s/%s/%s/max %d", s.Name, job.app, name, mode, maxIter)
						ro := engine.RunOptions{Mode: mode, Trace: true, MaxIterations: maxIter}
						want, wres, err := apps.Run(ctx, job.app, off, off, []uint32{0}, apps.PageRankOptions{}, ro)
						require.NoError(t, err, tag)
						got, res, err := apps.Run(ctx, job.app, on, on, []uint32{0}, apps.PageRankOptions{}, ro)
						require.NoError(t, err, tag)
						// A cut CC depends on the order of its pointer jumps, a
						// cut near-far SSSP on its buckets.
						if maxIter == 0 || (job.app != "cc-lp" && !nearFar) {
							require.Equal(t, want, got, tag)
						}
						require.Len(t, res.Trace, res.Iterations, tag)
						if job.app != "cc-lp" && !nearFar {
							require.Equal(t, wres.Iterations, res.Iterations, tag)
							require.Equal(t, wres.Edges, res.Edges, tag)
							for i, tr := range res.Trace {
								w := wres.Trace[i]
								require.Equal(t, i, tr.Iteration, tag)
								require.Equal(t, w.FrontierVertices, tr.FrontierVertices, "%s: iteration %d", tag, i)
								require.Equal(t, w.FrontierEdges, tr.FrontierEdges, "%s: iteration %d", tag, i)
								require.Equal(t, w.UnsettledEdges, tr.UnsettledEdges, "%s: iteration %d", tag, i)
							}
						}
						looped += checkLoopIterations(t, l, mode, res, tag)
					}
				}
				require.NoError(t, on.Close())
			}
			require.NoError(t, off.Close())
		}
	}
	require.Greater(t, looped, 3*cuda.LoopRecords)
}

// checkLoopIterations checks which iterations of res ran in a device loop
// (their only phase is gpu.LoopPhase): all when sparse was forced; in the
// hybrid only sparse ones, and every sparse one of a frontier with fewer
// than m/SparseFastRatio out-arcs that is not every vertex, but for at most
// gpu.FixedSamples on the host (the steps that calibrate the ESP model's
// fixed cost).
// It returns how many ran in a loop.
func checkLoopIterations(t *testing.T, l *layout.Layout, mode engine.Mode, res engine.Result, tag string) int {
	n, hostSmall := 0, 0
	for _, tr := range res.Trace {
		inLoop := false
		for _, p := range tr.Phases {
			if p.Name == gpu.LoopPhase {
				inLoop = true
				require.GreaterOrEqual(t, p.Seconds, 0.0, tag)
			}
		}
		small := tr.Mode == "sparse" && tr.FrontierEdges*gpu.SparseFastRatio < l.NumArcs && tr.FrontierVertices != l.NumVertices
		switch mode {
		case engine.Sparse:
			require.True(t, inLoop, "%s: iteration %d did not run in a device loop", tag, tr.Iteration)
		case engine.Hybrid:
			if inLoop {
				require.Equal(t, "sparse", tr.Mode, "%s: iteration %d", tag, tr.Iteration)
			}
			if small && !inLoop {
				hostSmall++
			}
		}
		if inLoop {
			n++
		}
	}
	require.LessOrEqual(t, hostSmall, gpu.FixedSamples, "%s: small sparse iterations on the host", tag)
	return n
}

// TestSparseLoopOnce runs a few device loops, with and without hubs, against
// the CPU backend: the target of the sanitizer runs.
func TestSparseLoopOnce(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	grid := testgraphs.Generated(t, "grid:20x23:0.1", 4)
	grid.SetRandomWeights(9, 1, 64, 4)
	for _, el := range []*graph.EdgeList{grid, hubs()} {
		l := build(t, el, layout.DefaultParams())
		cb, err := cpu.New(l, 2)
		require.NoError(t, err)
		gb, err := gpu.New(l, 2)
		require.NoError(t, err)
		app := "bfs"
		if l.Weighted {
			app = "sssp"
		}
		want, _, err := apps.Run(ctx, app, cb, cb, []uint32{0}, apps.PageRankOptions{}, engine.RunOptions{})
		require.NoError(t, err)
		got, res, err := apps.Run(ctx, app, gb, gb, []uint32{0}, apps.PageRankOptions{}, engine.RunOptions{Mode: engine.Sparse, Trace: true})
		require.NoError(t, err)
		require.Equal(t, want, got, app)
		require.Equal(t, res.Iterations, checkLoopIterations(t, l, engine.Sparse, res, app))
		require.NoError(t, gb.Close())
	}
}

// TestSumLoopOnce runs BC's forward pass and pr-delta with sparse forced, so
// in device loops, on a small grid and validates them: the compute-sanitizer
// target for the sum programs' loop kernels.
func TestSumLoopOnce(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	l := build(t, testgraphs.Generated(t, "grid:12x13:0.1", 4), layout.DefaultParams())
	g := apps.OriginalCSR(l, 2)
	gb, err := gpu.New(l, 2)
	require.NoError(t, err)
	defer gb.Close()
	ro := engine.RunOptions{Mode: engine.Sparse, Trace: true}
	srcs := []uint32{0, 77}
	bc, res, err := apps.BC(ctx, gb, gb, srcs, ro)
	require.NoError(t, err)
	require.NoError(t, apps.ValidateBC(g, srcs, bc))
	inLoop := 0
	for _, tr := range res.Trace {
		if ranInLoop(tr) {
			inLoop++
		}
	}
	require.Positive(t, inLoop)
	prd := apps.DefaultPageRankOptions()
	prd.MaxIterations = 0
	ranks, _, err := apps.PageRankDelta(ctx, gb, prd, ro)
	require.NoError(t, err)
	require.NoError(t, apps.ValidatePageRankDelta(g, prd, ranks))
}

// TestSumDeviceLoop runs the sum programs (BC's forward pass, pr-delta) with
// device loops against host iterations (gpu.WithoutDeviceLoop) on graphs of
// many small iterations and on R-MAT: BC takes the same levels (they do not
// depend on the schedule) and the same centralities up to rounding, both
// pass their validations, and sparse iterations ran in loops (every forward
// iteration when sparse is forced; a BC forward pass on the long chain
// needs several loops, its depth advancing in each).
func TestSumDeviceLoop(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	shapes := loopShapes(t)
	prd := apps.DefaultPageRankOptions()
	prd.MaxIterations = 0
	looped := 0
	for _, s := range shapes {
		l := build(t, s.EL, layout.DefaultParams())
		g := apps.OriginalCSR(l, 4)
		off, err := gpu.New(l, 4, gpu.WithoutDeviceLoop())
		require.NoError(t, err)
		on, err := gpu.New(l, 4)
		require.NoError(t, err)
		srcs := []uint32{0}
		for _, mode := range []engine.Mode{engine.Hybrid, engine.Sparse} {
			tag := fmt.Sprintf("%s/%s", s.Name, mode)
			ro := engine.RunOptions{Mode: mode, Trace: true}
			want, wres, err := apps.BC(ctx, off, off, srcs, ro)
			require.NoError(t, err, tag)
			got, res, err := apps.BC(ctx, on, on, srcs, ro)
			require.NoError(t, err, tag)
			require.Equal(t, wres.Iterations, res.Iterations, tag)
			for v := range want {
				require.InDelta(t, want[v], got[v], 1e-9*math.Abs(want[v])+1e-12, "%s: bc of vertex %d", tag, v)
			}
			require.NoError(t, apps.ValidateBC(g, srcs, got), tag)
			forward, inLoop := 0, 0
			for _, tr := range res.Trace {
				if tr.Mode == "backward" {
					continue
				}
				forward++
				if ranInLoop(tr) {
					inLoop++
				}
			}
			if mode == engine.Sparse {
				require.Equal(t, forward, inLoop, "%s: bc forward iterations outside a device loop", tag)
			}
			if s.Name == "chain" {
				require.Greater(t, inLoop, cuda.LoopRecords, tag)
			}
			looped += inLoop

			ranks, pres, err := apps.PageRankDelta(ctx, on, prd, ro)
			require.NoError(t, err, tag)
			require.NoError(t, apps.ValidatePageRankDelta(g, prd, ranks), tag+": pr-delta")
			for _, tr := range pres.Trace {
				if ranInLoop(tr) {
					looped++
				}
			}
		}
		require.NoError(t, on.Close())
		require.NoError(t, off.Close())
	}
	require.Greater(t, looped, 3*cuda.LoopRecords)
}
