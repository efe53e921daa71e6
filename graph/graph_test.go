package graph

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomList makes a directed list with n vertices and m arcs (loops and
// duplicates included), weighted when weighted is set.
func randomList(n uint64, m int, weighted bool, seed uint64) *EdgeList {
	rng := rand.New(rand.NewPCG(seed, 1))
	el := &EdgeList{NumVertices: n, Directed: true, Src: make([]uint32, m), Dst: make([]uint32, m)}
	if weighted {
		el.Weights = make([]uint32, m)
	}
	for i := 0; i < m; i++ {
		el.Src[i] = uint32(rng.Uint64N(n))
		el.Dst[i] = uint32(rng.Uint64N(n))
		if weighted {
			el.Weights[i] = uint32(rng.IntN(64) + 1)
		}
	}
	return el
}

// arcSet returns the arcs as sorted (src, dst, weight) triples.
func arcSet(el *EdgeList) [][3]uint32 {
	out := make([][3]uint32, len(el.Src))
	for i := range el.Src {
		w := uint32(0)
		if el.Weights != nil {
			w = el.Weights[i]
		}
		out[i] = [3]uint32{el.Src[i], el.Dst[i], w}
	}
	slices.SortFunc(out, func(a, b [3]uint32) int { return slices.Compare(a[:], b[:]) })
	return out
}

func TestCSRAndCSCRoundTripAnyWorkerCount(t *testing.T) {
	el := randomList(1000, 300000, true, 7)
	var first *CSR
	for _, w := range []int{1, 2, 3, 8} {
		g := ToCSR(el, w)
		require.NoError(t, g.Validate())
		if first == nil {
			first = g
		} else {
			require.Equal(t, first, g, "CSR must not depend on workers (%d)", w)
		}
		assert.Equal(t, arcSet(el), arcSet(g.EdgeList(w)))
		moved := ToCSR(el, w).IntoEdgeList(w)
		assert.Equal(t, g.EdgeList(w), moved, "IntoEdgeList must give EdgeList's list")
		c := ToCSC(el, w)
		require.NoError(t, c.Validate())
		assert.Equal(t, arcSet(el), arcSet(c.EdgeList(w)))
	}
	// Rows keep input order (stable counting sort).
	for v := uint32(0); v < 5; v++ {
		row, _ := first.Row(v)
		var want []uint32
		for i := range el.Src {
			if el.Src[i] == v {
				want = append(want, el.Dst[i])
			}
		}
		assert.Equal(t, want, append([]uint32{}, row...))
	}
}

func TestTransposeMatchesCSC(t *testing.T) {
	el := randomList(50, 400, false, 3)
	g := ToCSR(el, 2)
	tr := g.Transpose(2)
	c := ToCSC(el, 2)
	assert.Equal(t, c.Offsets, tr.Offsets)
	assert.Equal(t, arcSet(c.EdgeList(1)), arcSet(func() *EdgeList { x := tr.EdgeList(1); x.Transpose(); return x }()))
}

func TestSymmetrizeDedupeDropLoops(t *testing.T) {
	el := &EdgeList{NumVertices: 4, Directed: true,
		Src:     []uint32{0, 1, 2, 2, 3, 0},
		Dst:     []uint32{1, 0, 2, 3, 1, 1},
		Weights: []uint32{5, 3, 9, 2, 4, 7}}
	el.Symmetrize(2)
	assert.False(t, el.Directed)
	assert.Equal(t, uint64(11), el.NumArcs(), "6 arcs + 5 reversed non-loops")
	assert.Equal(t, uint64(1), el.CountSelfLoops())
	assert.Equal(t, uint64(1), el.DropSelfLoops())
	removed := el.Dedupe(2)
	assert.Equal(t, uint64(4), removed)
	// 0-1 appears as 0→1 (5,7) and 1→0 (3) in both directions: min weight 3.
	assert.Equal(t, [][3]uint32{{0, 1, 3}, {1, 0, 3}, {1, 3, 4}, {2, 3, 2}, {3, 1, 4}, {3, 2, 2}}, arcSet(el))
	require.NoError(t, el.Validate())
	// Symmetrizing an undirected list changes nothing.
	before := arcSet(el)
	el.Symmetrize(2)
	assert.Equal(t, before, arcSet(el))
}

func TestSymmetrizeDeterministicAcrossWorkers(t *testing.T) {
	base := randomList(300, 200000, true, 11)
	a, b := base.Clone(), base.Clone()
	a.Symmetrize(1)
	b.Symmetrize(5)
	assert.Equal(t, a, b)
}

// TestSymmetrizeAllocatesExactly checks that Symmetrize's arrays are as
// long as the arcs they hold: growing them as append does (about 1.22 times
// the doubled list, all of it cleared) held several bytes an arc for
// nothing, tens of gigabytes on a graph of billions of arcs. A list whose
// arrays already have room is extended in place, to the same arcs.
func TestSymmetrizeAllocatesExactly(t *testing.T) {
	base := randomList(1000, 100000, true, 13)
	el := base.Clone()
	el.Symmetrize(3)
	want := el.NumArcs()
	require.Greater(t, want, base.NumArcs())
	assert.Equal(t, len(el.Src), cap(el.Src), "sources")
	assert.Equal(t, len(el.Dst), cap(el.Dst), "destinations")
	assert.Equal(t, len(el.Weights), cap(el.Weights), "weights")

	roomy := &EdgeList{NumVertices: base.NumVertices, Directed: true,
		Src:     append(make([]uint32, 0, 2*len(base.Src)), base.Src...),
		Dst:     append(make([]uint32, 0, 2*len(base.Dst)), base.Dst...),
		Weights: append(make([]uint32, 0, 2*len(base.Weights)), base.Weights...)}
	src, dst, w := &roomy.Src[:1][0], &roomy.Dst[:1][0], &roomy.Weights[:1][0]
	roomy.Symmetrize(2)
	assert.Same(t, src, &roomy.Src[0], "sources extended in place")
	assert.Same(t, dst, &roomy.Dst[0], "destinations extended in place")
	assert.Same(t, w, &roomy.Weights[0], "weights extended in place")
	assert.Equal(t, el.Src, roomy.Src)
	assert.Equal(t, el.Dst, roomy.Dst)
	assert.Equal(t, el.Weights, roomy.Weights)
}

func TestRenumberIsPermutation(t *testing.T) {
	el := randomList(1000, 5000, false, 5)
	orig := el.Clone()
	perm := el.Renumber(42, 2)
	seen := make([]bool, len(perm))
	for _, p := range perm {
		require.False(t, seen[p])
		seen[p] = true
	}
	for i := range el.Src {
		assert.Equal(t, perm[orig.Src[i]], el.Src[i])
		assert.Equal(t, perm[orig.Dst[i]], el.Dst[i])
	}
	assert.Equal(t, perm, RandomPermutation(1000, 42), "same seed, same permutation")
	assert.NotEqual(t, perm, RandomPermutation(1000, 43))
}

func TestRandomWeightsSymmetricAndInRange(t *testing.T) {
	el := randomList(100, 2000, false, 9)
	el.Symmetrize(2)
	el.DropSelfLoops()
	el.Dedupe(2)
	el.SetRandomWeights(1, 1, 64, 2)
	w := map[[2]uint32]uint32{}
	for i := range el.Src {
		require.GreaterOrEqual(t, el.Weights[i], uint32(1))
		require.LessOrEqual(t, el.Weights[i], uint32(64))
		w[[2]uint32{el.Src[i], el.Dst[i]}] = el.Weights[i]
	}
	for k, v := range w {
		assert.Equal(t, v, w[[2]uint32{k[1], k[0]}], "edge %v", k)
	}
}

func TestValidateRejectsBadLists(t *testing.T) {
	assert.Error(t, (&EdgeList{NumVertices: 2, Src: []uint32{0}, Dst: []uint32{}}).Validate())
	assert.Error(t, (&EdgeList{NumVertices: 2, Src: []uint32{0}, Dst: []uint32{2}}).Validate())
	assert.Error(t, (&EdgeList{NumVertices: 2, Src: []uint32{0}, Dst: []uint32{1}, Weights: []uint32{}}).Validate())
	assert.Error(t, (&EdgeList{NumVertices: MaxVertices + 1}).Validate())
	assert.NoError(t, (&EdgeList{}).Validate(), "the empty graph is valid")
	bad := ToCSR(&EdgeList{NumVertices: 3, Src: []uint32{0, 1}, Dst: []uint32{1, 2}}, 1)
	bad.Offsets[1] = 5
	assert.Error(t, bad.Validate())
}

func TestEmptyAndSingleVertex(t *testing.T) {
	for _, n := range []uint64{0, 1} {
		el := &EdgeList{NumVertices: n}
		g := ToCSR(el, 2)
		require.NoError(t, g.Validate())
		assert.Equal(t, uint64(0), g.NumArcs())
		assert.Equal(t, uint64(0), el.Dedupe(2))
		el.Symmetrize(2)
	}
}

func TestStatsAndGroups(t *testing.T) {
	deg := []uint64{0, 1, 2, 3, 3000, 130, 600}
	s := Summarize(deg)
	assert.Equal(t, uint64(0), s.Min)
	assert.Equal(t, uint64(3000), s.Max)
	assert.Equal(t, uint32(4), s.MaxVertex)
	assert.Equal(t, uint64(1), s.Zero)
	assert.Equal(t, uint64(3), s.Median)
	assert.InDelta(t, 3736.0/7, s.Mean, 1e-9)
	assert.Equal(t, uint64(1), s.Log2Bucket[1]) // degree 1
	assert.Equal(t, uint64(2), s.Log2Bucket[2]) // degrees 2,3
	g := GroupHistogram(deg, DefaultGroupThresholds())
	assert.Equal(t, []uint64{1, 0, 1, 0, 1, 4}, g.Vertices)
	assert.Equal(t, []uint64{3000, 0, 600, 0, 130, 6}, g.Arcs)
	el := &EdgeList{NumVertices: 3, Src: []uint32{0, 0, 1}, Dst: []uint32{1, 2, 2}}
	assert.Equal(t, []uint64{2, 1, 0}, el.OutDegrees(2))
	assert.Equal(t, []uint64{0, 1, 2}, el.InDegrees(2))
}

func BenchmarkToCSR(b *testing.B) {
	el := randomList(1<<20, 16<<20, false, 1)
	b.SetBytes(int64(len(el.Src)) * 8)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ToCSR(el, 0)
	}
}

// TestValidateWithNamesFirstBadArc: on any number of workers the error
// names the first arc with an endpoint out of range, not whichever worker
// found one first.
func TestValidateWithNamesFirstBadArc(t *testing.T) {
	const m = 1 << 18
	el := &EdgeList{NumVertices: 10, Src: make([]uint32, m), Dst: make([]uint32, m)}
	require.NoError(t, el.ValidateWith(4))
	el.Dst[200000] = 10
	el.Src[70000] = 11
	for _, workers := range []int{0, 1, 2, 4, 7} {
		err := el.ValidateWith(workers)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "arc 70000 (11→0)", "workers %d", workers)
	}
	require.NoError(t, (&EdgeList{}).ValidateWith(3), "empty")
}
