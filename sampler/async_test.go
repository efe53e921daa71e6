package sampler_test

import (
	"math"
	"testing"

	"github.com/mgraph-dev/mgraph/sampler"
	"github.com/stretchr/testify/require"
)

// history returns a history of the given frontier sizes.
func history(sizes ...uint64) *sampler.FrontierHistory {
	h := &sampler.FrontierHistory{}
	for _, s := range sizes {
		h.Push(s)
	}
	return h
}

// costs: 10 µs an iteration, 10 ns a frontier vertex (no async run yet).
var costs = sampler.AsyncCosts{IterFixed: 10e-6, VertexCost: 10e-9}

func TestGrowthNeedsAWindow(t *testing.T) {
	_, ok := history(1, 4, 8, 12).Growth()
	require.False(t, ok, "four frontiers are one short of the window")
	g, ok := history(1, 4, 8, 12, 16).Growth()
	require.True(t, ok)
	require.InDelta(t, math.Pow(16, 0.25), g, 1e-12)
	_, ok = history(0, 4, 8, 12, 16).Growth()
	require.False(t, ok, "an empty oldest frontier has no growth")
	g, ok = history(1, 2, 3, 4, 8, 16, 32, 64).Growth() // the ring keeps the last five
	require.True(t, ok)
	require.InDelta(t, 2, g, 1e-12)
}

// TestEstimateWavefront: a grid's BFS from a corner (frontiers of i+1
// vertices) goes on asynchronously once the window shows linear growth.
func TestEstimateWavefront(t *testing.T) {
	const n = 1 << 20
	h := &sampler.FrontierHistory{}
	for i := uint64(0); i <= 16; i++ {
		h.Push(i + 1)
	}
	g, _ := h.Growth()
	require.Less(t, g, sampler.SteadyGrowth)
	est, ok := costs.Estimate(h, n)
	require.True(t, ok)
	require.True(t, est.Pays(), "%+v", est)
	unreached := float64(n - 153) // 1 + 2 + ... + 17 vertices seen
	require.InDelta(t, 17+unreached, est.Vertices, 1e-9)
	require.InDelta(t, unreached/17, est.Iterations, 1e-9)
	require.InDelta(t, est.Iterations*costs.IterFixed+est.Vertices*costs.VertexCost, est.Sync, 1e-12)
	require.InDelta(t, sampler.AsyncStartIterations*costs.IterFixed+est.Vertices*sampler.AsyncVertexRatio*costs.VertexCost, est.Async, 1e-12)
}

// TestEstimateSlowTail: an SSSP whose frontiers shrink by 0.7 an iteration
// (coAuthorsDBLP's from iteration 14) has dozens of iterations left, even
// though its frontiers have held more than n vertices (relowered ones
// count again): it goes on asynchronously.
func TestEstimateSlowTail(t *testing.T) {
	h := history(300000, 250000, 145890, 114105, 86625, 63073)
	est, ok := costs.Estimate(h, 300000)
	require.True(t, ok)
	g, _ := h.Growth()
	require.InDelta(t, math.Log(63073)/math.Log(1/g)+1, est.Iterations, 1e-9)
	require.Greater(t, est.Iterations, 30.0)
	require.InDelta(t, 63073/(1-g), est.Vertices, 1e-6)
	require.True(t, est.Pays(), "%+v", est)
}

// TestEstimateExpander: a frontier growing geometrically (R-MAT's first
// levels, or a peripheral source's Fibonacci-like start) is not estimated.
func TestEstimateExpander(t *testing.T) {
	_, ok := costs.Estimate(history(1, 30, 900, 27000, 500000), 1<<21)
	require.False(t, ok)
	_, ok = costs.Estimate(history(1, 2, 3, 5, 8, 13, 21, 34, 55), 1<<21) // growth 1.62 an iteration
	require.False(t, ok)
}

// TestEstimateTail: an expander's last levels shrink fast: few iterations
// are left and the run stays synchronous, even with vertices no frontier
// will reach (R-MAT's isolated ones) counted as left.
func TestEstimateTail(t *testing.T) {
	est, ok := costs.Estimate(history(1, 300, 300000, 1200000, 200000, 3000, 40), 1<<21)
	require.True(t, ok)
	require.Less(t, est.Iterations, 3.0)
	require.False(t, est.Pays(), "%+v", est)
}

// TestEstimateMeasuredAsync: a measured async cost replaces the prior; an
// async run dearer per vertex than the iterations' barriers save keeps a
// wavefront synchronous.
func TestEstimateMeasuredAsync(t *testing.T) {
	h := history(10, 11, 12, 13, 14)
	est, ok := costs.Estimate(h, 1e4)
	require.True(t, ok)
	require.True(t, est.Pays(), "%+v", est)
	c := costs.ObserveAsync(1.0, est, h.Left(1e4)) // a second for the first run: cold, not measured
	require.Zero(t, c.AsyncVertex)
	require.Equal(t, 1, c.AsyncRuns)
	c = c.ObserveAsync(1.0, est, h.Left(1e4)) // a second for the next
	require.InDelta(t, (1.0-c.AsyncStart())/est.Vertices, c.AsyncVertex, 1e-15)
	est, ok = c.Estimate(h, 1e4)
	require.True(t, ok)
	require.False(t, est.Pays(), "%+v", est)
}

// TestEstimateEarlyShrink: a frontier that shrinks before frontiers have
// held half the graph (a road network's near-far band between refills of
// the pile, luxembourg_osm's SSSP at iteration 16) is a wavefront, not a
// tail; and an async run handed over there is measured over the vertices
// left, not over a tail's few.
func TestEstimateEarlyShrink(t *testing.T) {
	const n = 114599
	h := history(8, 6, 5, 3, 2)
	est, ok := costs.Estimate(h, n)
	require.True(t, ok)
	require.InDelta(t, h.Left(n), est.Vertices, 1e-9)
	require.Greater(t, est.Iterations, 1000.0)
	require.True(t, est.Pays(), "%+v", est)
	tail := sampler.AsyncEstimate{Vertices: 20}
	c := costs
	c.AsyncRuns = sampler.AsyncColdRuns
	c = c.ObserveAsync(2e-3, tail, h.Left(n))
	require.InDelta(t, (2e-3-c.AsyncStart())/h.Left(n), c.AsyncVertex, 1e-15)
}

// TestEstimateRelowering: frontiers that have held more than every vertex
// (an SSSP lowering vertices again) and hold steady are expected to last
// as many iterations again as they have: handed over.
func TestEstimateRelowering(t *testing.T) {
	h := history(50000, 60000, 70000, 80000, 75000, 70000, 76000, 83000)
	est, ok := costs.Estimate(h, 100000)
	require.True(t, ok)
	require.Equal(t, 8.0, est.Iterations)
	require.InDelta(t, 8*83000, est.Vertices, 1e-9)
	require.True(t, est.Pays(), "%+v", est)
}

func TestObserveSync(t *testing.T) {
	var c sampler.AsyncCosts
	var ref uint64
	c, ref = c.ObserveSync(30e-6, 100, ref)
	require.Equal(t, 30e-6, c.IterFixed)
	require.Zero(t, c.VertexCost, "a step under CalibrateVertices: all of it fixed")
	require.Zero(t, ref)
	c, ref = c.ObserveSync(20e-6, 10, ref) // shorter: the fixed cost
	require.Equal(t, 20e-6, c.IterFixed)
	c, ref = c.ObserveSync(120e-6, 1000, ref)
	require.Equal(t, uint64(1000), ref)
	require.InDelta(t, 100e-9, c.VertexCost, 1e-15)
	c, ref = c.ObserveSync(500e-6, 999, ref) // smaller than the reference: not taken
	require.Equal(t, uint64(1000), ref)
	require.InDelta(t, 100e-9, c.VertexCost, 1e-15)
}
