package engine_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/layout"
)

func f32(x float32) uint32 { return math.Float32bits(x) }

func TestContributeFloat32Weight(t *testing.T) {
	op := engine.EdgeSourcePlusFloat32Weight
	inf := float32(math.Inf(1))
	cases := []struct{ src, w, want uint32 }{
		{f32(0), f32(0), f32(0)},
		{f32(0.1), f32(0.2), f32(0.1 + float32(0.2))},
		{f32(1), f32(math.SmallestNonzeroFloat32), f32(1)}, // rounds back
		{f32(math.MaxFloat32), f32(math.MaxFloat32), f32(inf)},
		{f32(inf), f32(3), f32(inf)},             // a reached vertex at +Inf stays there
		{math.MaxUint32, f32(0), math.MaxUint32}, // unreached stays unreached
		{math.MaxUint32, f32(5), math.MaxUint32},
		{f32(16777216), f32(1), f32(16777216)}, // ties to even
		{f32(16777216), f32(3), f32(16777220)},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, engine.Contribute[uint32](op, c.src, c.w), "%v + %v", math.Float32frombits(c.src), math.Float32frombits(c.w))
		assert.Equal(t, c.want, engine.AddFloat32Bits(c.src, c.w))
	}
	// float64 values add the weight's float.
	assert.Equal(t, 1.5, engine.Contribute[float64](op, 1, f32(0.5)))
	// The uint32 operation is unchanged: it saturates.
	assert.Equal(t, uint32(math.MaxUint32), engine.Contribute[uint32](engine.EdgeSourcePlusWeight, math.MaxUint32-1, 5))
	assert.True(t, op.Weighted())
	assert.True(t, engine.EdgeSourcePlusWeight.Weighted())
	assert.False(t, engine.EdgeSourcePlusOne.Weighted())
	assert.True(t, op.Valid())
	assert.False(t, engine.EdgeOp(op+1).Valid())
	assert.Equal(t, "source+float32 weight", op.String())
}

// TestFloat32BitsOrder: for valid float32 weights and their sums (finite
// or +Inf), the unsigned order of the bits is the order of the floats,
// and every one is below the unreached value.
func TestFloat32BitsOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		a, b := uint32(rng.Uint64N(graph.MaxFloat32Bits+1)), uint32(rng.Uint64N(graph.MaxFloat32Bits+1))
		s := engine.AddFloat32Bits(a, b)
		require.Less(t, s, uint32(math.MaxUint32))
		require.Equal(t, math.Float32frombits(a) < math.Float32frombits(b), a < b)
		require.GreaterOrEqual(t, s, max(a, b)) // adding a non-negative weight never lowers
	}
}

func TestCheckWeightsAndProgram(t *testing.T) {
	none := &layout.Layout{}
	ints := &layout.Layout{Weighted: true}
	floats := &layout.Layout{Weighted: true, WeightKind: graph.Float32Weights}
	for _, l := range []*layout.Layout{none, ints, floats} {
		assert.NoError(t, engine.CheckWeights(engine.EdgeSource, l))
		assert.NoError(t, engine.CheckWeights(engine.EdgeSourcePlusOne, l))
	}
	assert.ErrorContains(t, engine.CheckWeights(engine.EdgeSourcePlusWeight, none), "has none")
	assert.ErrorContains(t, engine.CheckWeights(engine.EdgeSourcePlusFloat32Weight, none), "has none")
	assert.NoError(t, engine.CheckWeights(engine.EdgeSourcePlusWeight, ints))
	assert.NoError(t, engine.CheckWeights(engine.EdgeSourcePlusFloat32Weight, floats))
	assert.ErrorContains(t, engine.CheckWeights(engine.EdgeSourcePlusWeight, floats), "adds uint32 edge weights but the graph's weights are float32")
	assert.ErrorContains(t, engine.CheckWeights(engine.EdgeSourcePlusFloat32Weight, ints), "adds float32 edge weights but the graph's weights are uint32")
	assert.ErrorContains(t, engine.CheckWeights(engine.EdgeOp(9), ints), "unknown edge operation")
	assert.NoError(t, engine.CheckProgram[uint32](prog[uint32]{engine.EdgeSourcePlusFloat32Weight, engine.CombineMin}, floats))
	assert.ErrorContains(t, engine.CheckProgram[float64](prog[float64]{engine.EdgeSourcePlusFloat32Weight, engine.CombineMin}, floats), "min program over uint32")
	assert.ErrorContains(t, engine.CheckProgram[uint32](prog[uint32]{engine.EdgeSourcePlusFloat32Weight, engine.CombineSum}, floats), "min program over uint32")
}

// prog is a program with a given edge and combine operation.
type prog[V engine.Value] struct {
	edge engine.EdgeOp
	comb engine.CombineOp
}

func (p prog[V]) Edge() engine.EdgeOp       { return p.edge }
func (p prog[V]) Combine() engine.CombineOp { return p.comb }
func (p prog[V]) ApplyAll() bool            { return false }
func (p prog[V]) Apply(uint32, V, []V) bool { return false }

func TestNearFarFloat32(t *testing.T) {
	w := []uint32{f32(0.5), f32(1.5), f32(1)} // mean 1
	d := engine.NearFarDeltaOf(graph.Float32Weights, w, 32)
	assert.Equal(t, float32(32), math.Float32frombits(d))
	assert.Equal(t, engine.NearFarDelta([]uint32{1, 2, 3}, 32), engine.NearFarDeltaOf(graph.Uint32Weights, []uint32{1, 2, 3}, 32))
	assert.Equal(t, uint32(0), engine.NearFarDeltaOf(graph.Float32Weights, nil, 32))
	assert.Equal(t, uint32(1), engine.NearFarDeltaOf(graph.Float32Weights, []uint32{0, 0}, 32)) // the smallest positive float
	assert.Equal(t, f32(math.MaxFloat32), engine.NearFarDeltaOf(graph.Float32Weights, []uint32{f32(math.MaxFloat32)}, 32))
	// The split moves as a float.
	assert.Equal(t, f32(34), engine.NearFarAdd(engine.EdgeSourcePlusFloat32Weight, f32(2), d))
	assert.Equal(t, uint32(math.MaxUint32), engine.NearFarAdd(engine.EdgeSourcePlusFloat32Weight, f32(math.MaxFloat32), f32(math.MaxFloat32)),
		"a split past float32's range takes every distance, +Inf included")
	assert.Equal(t, uint32(math.MaxUint32), engine.NearFarAdd(engine.EdgeSourcePlusFloat32Weight, f32(float32(math.Inf(1))), 1))
	// A width below half an ulp of the split still moves it, to the next
	// float: the bucket change makes progress.
	assert.Equal(t, f32(1e10)+1, engine.NearFarAdd(engine.EdgeSourcePlusFloat32Weight, f32(1e10), f32(1)))
	assert.Equal(t, f32(1e10+2048), engine.NearFarAdd(engine.EdgeSourcePlusFloat32Weight, f32(1e10), f32(2048)))
	assert.Equal(t, uint32(math.MaxUint32), engine.NearFarAdd(engine.EdgeSourcePlusFloat32Weight, f32(math.MaxFloat32), 1))
	assert.Equal(t, uint32(7), engine.NearFarAdd(engine.EdgeSourcePlusWeight, 2, 5))
	assert.Equal(t, uint32(math.MaxUint32), engine.NearFarAdd(engine.EdgeSourcePlusWeight, math.MaxUint32-1, 5))
	assert.Equal(t, f32(2), engine.NearFarDeltaOption(graph.Float32Weights, 2))
	assert.Equal(t, uint32(2), engine.NearFarDeltaOption(graph.Uint32Weights, 2))
}
