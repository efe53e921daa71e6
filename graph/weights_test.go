package graph

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFloat32WeightBits(t *testing.T) {
	for _, w := range []float32{0, 0.5, 1, math.SmallestNonzeroFloat32, math.MaxFloat32} {
		b, err := Float32WeightBits(w)
		require.NoError(t, err)
		assert.Equal(t, math.Float32bits(w), b)
	}
	b, err := Float32WeightBits(float32(math.Copysign(0, -1)))
	require.NoError(t, err)
	assert.Equal(t, uint32(0), b, "-0 is stored as +0")
	for _, w := range []float32{-1, -math.SmallestNonzeroFloat32, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())} {
		_, err := Float32WeightBits(w)
		assert.Error(t, err, w)
		assert.Error(t, CheckFloat32Weight(math.Float32bits(w)), w)
	}
	assert.Error(t, CheckFloat32Weight(0x80000000), "-0's bits")
	assert.NoError(t, CheckFloat32Weight(MaxFloat32Bits))
	assert.ErrorContains(t, CheckFloat32Weights([]uint32{0, 1, 0xbf800000}), "arc 2: weight -1")
	k, err := ParseWeightKind("float32")
	require.NoError(t, err)
	assert.Equal(t, Float32Weights, k)
	assert.Equal(t, "float32", k.String())
	_, err = ParseWeightKind("float64")
	assert.ErrorContains(t, err, "want uint32 or float32")
}

func TestValidateFloat32Weights(t *testing.T) {
	el := &EdgeList{NumVertices: 2, Src: []uint32{0, 1}, Dst: []uint32{1, 0}, Weights: []uint32{0x3f800000, 0x7f800000},
		WeightKind: Float32Weights}
	assert.ErrorContains(t, el.Validate(), "arc 1: weight +Inf")
	el.Weights[1] = 0
	assert.NoError(t, el.Validate())
	unweighted := &EdgeList{NumVertices: 2, WeightKind: Float32Weights}
	assert.ErrorContains(t, unweighted.Validate(), "float32 weight type but no weights")
	assert.ErrorContains(t, (&EdgeList{NumVertices: 2, WeightKind: 7}).Validate(), "unknown weight type")
	// The kind travels through the conversions.
	g := ToCSR(el, 2)
	assert.Equal(t, Float32Weights, g.WeightKind)
	assert.NoError(t, g.Validate())
	assert.Equal(t, Float32Weights, ToCSC(el, 2).WeightKind)
	assert.Equal(t, Float32Weights, g.EdgeList(2).WeightKind)
	assert.Equal(t, Float32Weights, g.Transpose(2).WeightKind)
	assert.Equal(t, Float32Weights, el.Clone().WeightKind)
	assert.Equal(t, Float32Weights, ToCSR(el, 2).IntoEdgeList(2).WeightKind)
	g.Weights[0] = 0xffffffff
	assert.ErrorContains(t, g.Validate(), "adjacency: arc 0")
}

func TestConvertWeights(t *testing.T) {
	el := &EdgeList{NumVertices: 3, Directed: true, Src: []uint32{0, 1, 2}, Dst: []uint32{1, 2, 0}, Weights: []uint32{3, 16777217, 0}}
	require.NoError(t, el.ConvertWeights(Float32Weights, 2))
	assert.Equal(t, Float32Weights, el.WeightKind)
	assert.Equal(t, []uint32{math.Float32bits(3), math.Float32bits(16777216), 0}, el.Weights)
	require.NoError(t, el.ConvertWeights(Uint32Weights, 2))
	assert.Equal(t, []uint32{3, 16777216, 0}, el.Weights)
	require.NoError(t, el.ConvertWeights(Float32Weights, 2))
	el.Weights[1] = math.Float32bits(2.5)
	assert.ErrorContains(t, el.ConvertWeights(Uint32Weights, 2), "arc 1 (1→2): float32 weight 2.5 is not a uint32 integer")
	el.Weights[1] = math.Float32bits(5e9)
	assert.ErrorContains(t, el.ConvertWeights(Uint32Weights, 2), "not a uint32 integer")
	assert.Equal(t, Float32Weights, el.WeightKind, "a failed conversion changes nothing")
	none := &EdgeList{NumVertices: 1}
	require.NoError(t, none.ConvertWeights(Float32Weights, 1))
	assert.Equal(t, Uint32Weights, none.WeightKind, "an unweighted list keeps the default kind")
}

func TestRandomFloat32Weights(t *testing.T) {
	el := randomList(200, 3000, false, 3)
	el.Symmetrize(2)
	el.SetRandomFloat32Weights(5, 3)
	require.NoError(t, el.Validate())
	assert.Equal(t, Float32Weights, el.WeightKind)
	w := map[[2]uint32]uint32{}
	for i := range el.Src {
		f := math.Float32frombits(el.Weights[i])
		require.Greater(t, f, float32(0))
		require.LessOrEqual(t, f, float32(1))
		require.Equal(t, f, float32(math.Round(float64(f)*(1<<24)))/(1<<24), "a multiple of 2^-24")
		w[[2]uint32{el.Src[i], el.Dst[i]}] = el.Weights[i]
	}
	for e, x := range w {
		if y, ok := w[[2]uint32{e[1], e[0]}]; ok {
			require.Equal(t, x, y, "symmetric")
		}
	}
	// SetRandomWeights gives integers again.
	el.SetRandomWeights(1, 1, 9, 2)
	assert.Equal(t, Uint32Weights, el.WeightKind)
}
