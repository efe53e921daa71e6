package gpu

import (
	"math"
	"testing"
	"time"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/sampler"

	"github.com/stretchr/testify/require"
)

// TestLoopGrid: small frontiers get the smallest grid, which a frontier of
// more than twice what it is sized for ends; large ones the largest, which
// nothing ends; WithLoopBlocksPerSM fixes the grid.
func TestLoopGrid(t *testing.T) {
	b := &Backend{sms: 132}
	level := uint64(132 * loopGroupVertices * loopGroupsPerBlock)
	for _, c := range []struct {
		count    uint64
		per      uint32
		maxCount uint64
	}{
		{1, LoopMinBlocksPerSM, 2 * LoopMinBlocksPerSM * level},
		{2 * level, LoopMinBlocksPerSM, 2 * LoopMinBlocksPerSM * level},
		{3*level + 1, 4, 8 * level},
		{100 * level, LoopMaxBlocksPerSM, 0},
	} {
		per, maxCount := b.loopGrid(c.count)
		require.Equal(t, c.per, per, "count %d", c.count)
		require.Equal(t, c.maxCount, maxCount, "count %d", c.count)
		require.True(t, maxCount == 0 || maxCount >= c.count, "count %d: the grid ends its own first frontier", c.count)
	}
	b.loopBlocks = 3
	per, maxCount := b.loopGrid(100 * level)
	require.Equal(t, uint32(3), per)
	require.Zero(t, maxCount)
}

// TestNearFarDelta: off without weights or when asked; a width as given;
// by default NearFarWeights times the mean weight (of a sample).
func TestNearFarDelta(t *testing.T) {
	w := make([]uint32, 3*nearFarSample)
	for i := range w {
		w[i] = uint32(1 + i%64) // mean 32.5
	}
	l := &layout.Layout{Weighted: true, SparseWeights: w}
	u := graph.Uint32Weights
	require.Equal(t, uint32(NearFarWeights*65/2), nearFarDelta(u, l.SparseWeights, 0))
	require.Equal(t, uint32(7), nearFarDelta(u, l.SparseWeights, 7))
	require.Zero(t, nearFarDelta(u, l.SparseWeights, -1))
	require.Zero(t, nearFarDelta(u, nil, 0))
	require.Equal(t, uint32(1), nearFarDelta(u, []uint32{0, 0}, 0))
	// Float32 weights: a float width (the bits of one).
	f := graph.Float32Weights
	fw := []uint32{math.Float32bits(0.25), math.Float32bits(0.75)} // mean 0.5
	require.Equal(t, float32(NearFarWeights)*0.5, math.Float32frombits(nearFarDelta(f, fw, 0)))
	require.Equal(t, float32(engine.AsyncNearFarWeights)*0.5, math.Float32frombits(nearFarDeltaTimes(f, fw, 0, engine.AsyncNearFarWeights)))
	require.Equal(t, float32(7), math.Float32frombits(nearFarDelta(f, fw, 7)))
	require.Zero(t, nearFarDelta(f, fw, -1))
}

// TestMinProgramID: each program names its kernel, which must add the
// weights the graph has.
func TestMinProgramID(t *testing.T) {
	ints := &layout.Layout{Weighted: true}
	floats := &layout.Layout{Weighted: true, WeightKind: graph.Float32Weights}
	none := &layout.Layout{}
	sssp, _, _, err := apps.Traversal("sssp", &layout.Layout{Weighted: true, NumVertices: 1, Perm: []uint32{0}}, 0, 1)
	require.NoError(t, err)
	fsssp, _, _, err := apps.Traversal("sssp", &layout.Layout{Weighted: true, WeightKind: graph.Float32Weights, NumVertices: 1, Perm: []uint32{0}}, 0, 1)
	require.NoError(t, err)
	prog, err := minProgramID(sssp, ints)
	require.NoError(t, err)
	require.Equal(t, cuda.ProgSSSP, prog)
	prog, err = minProgramID(fsssp, floats)
	require.NoError(t, err)
	require.Equal(t, cuda.ProgSSSPF32, prog)
	_, err = minProgramID(sssp, floats)
	require.ErrorContains(t, err, "weights are float32")
	_, err = minProgramID(fsssp, ints)
	require.ErrorContains(t, err, "weights are uint32")
	_, err = minProgramID(fsssp, none)
	require.ErrorContains(t, err, "has none")
}

// TestWithSampleRate: rates outside (0, 1] become the sampler's default.
func TestWithSampleRate(t *testing.T) {
	for _, r := range []float64{0, -1, 1.5} {
		require.Equal(t, sampler.DefaultSampleRate, withSampleRate(engine.RunOptions{SampleRate: r}).SampleRate, r)
	}
	require.Equal(t, 0.25, withSampleRate(engine.RunOptions{SampleRate: 0.25}).SampleRate)
}

// TestPullMinArcs: no bound until a pull iteration has been measured and
// the push model calibrated; then the pull iteration's time beyond a loop
// iteration's fixed cost over the cost of a pushed arc, which the loop
// rule carries; a pull no slower than the fixed cost sets none. A BFS
// whose loops pull themselves is bounded by the loops' pull steps
// instead, and stops pulling in its loops once one of those cost more
// than the push model's estimate of the push it replaced.
func TestPullMinArcs(t *testing.T) {
	const key = cuda.ProgBFS
	b := &Backend{l: &layout.Layout{NumVertices: 100, NumArcs: 1000}, pullSecs: map[int]float64{},
		loopPullSecs: map[int]float64{}, arcCost: map[int]float64{}, arcRef: map[int]uint64{},
		loopFixed: map[int]float64{}, edp: map[int]time.Duration{}, fixed: map[int]float64{}, noLoopPull: true,
		loopPullLost: map[int]bool{}}
	require.Zero(t, b.pullMinArcs(key, false))
	b.pullSecs[key] = 65e-6
	require.Zero(t, b.pullMinArcs(key, false), "push model not calibrated")
	b.arcRef[key], b.arcCost[key], b.loopFixed[key] = 1_000_000, 20e-12, 9e-6
	require.InDelta(t, 2_800_000, float64(b.pullMinArcs(key, false)), 1)
	hybrid := engine.RunOptions{Mode: engine.Hybrid}
	r := b.loopRule(key, hybrid, true, 0, 0)
	require.False(t, r.PullInLoop)
	require.Equal(t, b.pullMinArcs(key, false), r.PullMinArcs)

	b.noLoopPull = false
	require.False(t, b.loopRule(key, hybrid, true, 0, 0).PullInLoop, "no SMs: every layout too large")
	b.sms = 1
	r = b.loopRule(key, hybrid, true, 0, 0)
	require.True(t, r.PullInLoop)
	require.Zero(t, r.PullMinArcs, "no pull step measured in a loop yet")
	b.loopPullSecs[key] = 19e-6
	require.InDelta(t, 500_000, float64(b.loopRule(key, hybrid, true, 0, 0).PullMinArcs), 1)
	require.False(t, b.loopRule(key, hybrid, false, 0, 0).PullInLoop, "no pull steps at all")
	require.False(t, b.loopRule(cuda.ProgSSSP, hybrid, true, 0, 0).PullInLoop, "BFS only")
	// push estimate for 1M arcs: 9 µs + 20 µs
	b.weighLoopPull(key, 1_000_000, 25e-6)
	require.True(t, b.loopRule(key, hybrid, true, 0, 0).PullInLoop, "a pull cheaper than the push")
	b.weighLoopPull(key, 1_000_000, 35e-6)
	require.False(t, b.loopRule(key, hybrid, true, 0, 0).PullInLoop, "a pull dearer than the push")
	require.Equal(t, b.pullMinArcs(key, false), b.loopRule(key, hybrid, true, 0, 0).PullMinArcs)

	b.pullSecs[key] = 8e-6
	require.Zero(t, b.pullMinArcs(key, false))
}

// TestDecideExplores: with the ESP model calibrated, the hybrid follows
// it, except that a frontier of more than ExploreRatio times the model's
// reference step runs sparse (to calibrate the model at that size); small
// frontiers run sparse without the model.
func TestDecideExplores(t *testing.T) {
	const key = cuda.ProgBFS
	b := &Backend{l: &layout.Layout{NumVertices: 100_000, NumArcs: 3_050_615},
		edp: map[int]time.Duration{key: 90 * time.Microsecond}, fixed: map[int]float64{key: 20e-6},
		arcCost: map[int]float64{key: 0.5e-9}, arcRef: map[int]uint64{key: 25_000}}
	opts := engine.RunOptions{Mode: engine.Hybrid}
	for _, c := range []struct {
		ref, edges uint64
		want       engine.Mode
	}{
		{25_000, 30_000, engine.Sparse},     // small: below m / SparseFastRatio
		{25_000, 360_000, engine.Sparse},    // the model says dense; 14x its reference: explore
		{200_000, 360_000, engine.Dense},    // the model, close to its reference
		{200_000, 1_700_000, engine.Sparse}, // explore again
	} {
		b.arcRef[key] = c.ref
		var tr engine.IterationTrace
		got, err := b.decide(nil, key, opts, 5000, c.edges, nil, nil, &tr)
		require.NoError(t, err)
		require.Equal(t, c.want, got, "reference %d, frontier arcs %d", c.ref, c.edges)
	}
}
