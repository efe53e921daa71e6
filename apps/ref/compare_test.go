package ref

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCompareLevels(t *testing.T) {
	assert.NoError(t, CompareLevels([]uint32{0, 1, U}, []uint32{0, 1, U}))
	assert.NoError(t, CompareLevels(nil, []uint32{}))
	assert.ErrorContains(t, CompareLevels([]uint32{0, 1, U}, []uint32{0, 1}), "got 2 levels, want 3")
	err := CompareLevels([]uint32{0, 1, 2, U}, []uint32{0, 2, 2, 3})
	assert.ErrorContains(t, err, "2 of 4 vertices differ")
	assert.ErrorContains(t, err, "vertex 1 has level 2, want 1")
	assert.ErrorContains(t, CompareLevels([]uint32{U}, []uint32{5}), "level 5, want unreached")
}

func TestCompareDistances(t *testing.T) {
	assert.NoError(t, CompareDistances([]uint64{0, 7, Inf}, []uint64{0, 7, Inf}))
	assert.Error(t, CompareDistances([]uint64{0}, []uint64{0, 1}))
	err := CompareDistances([]uint64{0, 7, Inf}, []uint64{0, 7, 9})
	assert.ErrorContains(t, err, "1 of 3 vertices differ")
	assert.ErrorContains(t, err, "vertex 2 has distance 9, want infinity")
}

func TestSamePartition(t *testing.T) {
	// {0,2}, {1,3,4}, {5}.
	minIDs := []uint32{0, 1, 0, 1, 1, 5}
	assert.NoError(t, SamePartition(minIDs, minIDs))
	assert.NoError(t, SamePartition(minIDs, []uint32{2, 4, 2, 4, 4, 5}), "root labels")
	assert.NoError(t, SamePartition(minIDs, []uint32{9, 1 << 30, 9, 1 << 30, 1 << 30, U}), "arbitrary labels")
	assert.NoError(t, SamePartition(nil, nil))

	// Vertex 4 split off into its own component.
	err := SamePartition(minIDs, []uint32{0, 1, 0, 1, 4, 5})
	assert.ErrorContains(t, err, "vertices 4 and 1 are together in the first labeling")
	// Components {0,2} and {5} merged.
	err = SamePartition(minIDs, []uint32{0, 1, 0, 1, 1, 0})
	assert.ErrorContains(t, err, "vertices 5 and 0 are apart in the first labeling")
	// Same number of components and sizes, different membership.
	assert.Error(t, SamePartition([]uint32{0, 0, 2, 2}, []uint32{0, 1, 0, 1}))
	assert.Error(t, SamePartition([]uint32{0, 0}, []uint32{0, 0, 0}))
}

func TestCompareFloats(t *testing.T) {
	want := []float64{1, 2, 0, 1e-20, math.Inf(1)}
	assert.NoError(t, CompareFloats(want, want, 0, 0))
	assert.NoError(t, CompareFloats(want, []float64{1 + 1e-7, 2 - 1e-7, 1e-12, 0, math.Inf(1)}, 1e-6, 1e-10))
	assert.Error(t, CompareFloats(want, want[:4], 1, 1))

	err := CompareFloats(want, []float64{1.1, 2.5, 0, 1e-20, math.Inf(1)}, 1e-3, 0)
	assert.ErrorContains(t, err, "2 of 5 vertices outside tolerance")
	assert.ErrorContains(t, err, "worst: vertex 1 has 2.5, want 2")
	// Relative to its allowance, 1e-9 off a zero with abs tolerance 1e-12
	// is worse than 10% off 1 with rel tolerance 1e-3.
	err = CompareFloats([]float64{1, 0}, []float64{1.1, 1e-9}, 1e-3, 1e-12)
	assert.ErrorContains(t, err, "worst: vertex 1")

	assert.Error(t, CompareFloats([]float64{1}, []float64{math.NaN()}, 1, 1))
	assert.Error(t, CompareFloats([]float64{1}, []float64{math.Inf(1)}, 1, 1))
	assert.Error(t, CompareFloats([]float64{math.Inf(1)}, []float64{math.Inf(-1)}, 1, 1))
	assert.NoError(t, CompareFloats([]float64{math.NaN()}, []float64{math.NaN()}, 0, 0))
}

func TestCompareFloatsInfinities(t *testing.T) {
	assert.Error(t, CompareFloats([]float64{math.Inf(1)}, []float64{1e300}, 1, 1))
	assert.Error(t, CompareFloats([]float64{math.NaN()}, []float64{1}, 1, 1))
}
