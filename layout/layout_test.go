package layout_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
)

const inv = layout.Invalid

func smallParams() layout.Params {
	return layout.Params{
		PanelSize:       64,
		HeavyThreshold:  100,
		HeavyColumns:    32,
		SegmentSize:     50,
		GroupThresholds: []uint64{64, 32, 16, 8, 4},
		HighGroups:      4,
	}
}

func build(t testing.TB, el *graph.EdgeList, p layout.Params) *layout.Layout {
	t.Helper()
	l, err := preprocess.Build(context.Background(), el, p, preprocess.Options{})
	require.NoError(t, err)
	require.NoError(t, layout.Validate(l, el))
	return l
}

func arcs(n uint64, list ...[3]uint32) *graph.EdgeList {
	el := &graph.EdgeList{NumVertices: n, Directed: true}
	for _, a := range list {
		el.Src = append(el.Src, a[0])
		el.Dst = append(el.Dst, a[1])
		el.Weights = append(el.Weights, a[2])
	}
	return el
}

// tinyParams: one 8-vertex panel, identity numbering (nobody reaches the
// only group threshold), heavy above 3 edges, T columns.
func tinyParams(t uint32) layout.Params {
	return layout.Params{PanelSize: 8, HeavyThreshold: 3, HeavyColumns: t, SegmentSize: 4, GroupThresholds: []uint64{1000}, HighGroups: 0}
}

// rowMajor flattens a matrix given row by row.
func rowMajor[T any](rows ...[]T) []T {
	var out []T
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}

func TestHeavyBlockHandChecked(t *testing.T) {
	// dst 1 ← 0, 2, 3, 5; dst 4 ← 1; dst 6 ← 0, 7, 7 (the two 7s in input
	// order: weights 16 then 17). E = 8, D = 3, T = 3:
	// rows = ceil((3 + 8 + 3) / 3) = 5. Column-major fill:
	//   col 0: -1 0 2 3 5        (destination 0's run ends with the column)
	//   col 1: -2 1 -3 0 7       (destination 2's run is cut)
	//   col 2: -3 7 x x x        (its marker repeated at the top)
	el := arcs(8,
		[3]uint32{7, 6, 16}, [3]uint32{3, 1, 12}, [3]uint32{0, 1, 10}, [3]uint32{1, 4, 14},
		[3]uint32{5, 1, 13}, [3]uint32{0, 6, 15}, [3]uint32{2, 1, 11}, [3]uint32{7, 6, 17})
	l := build(t, el, tinyParams(3))
	require.Equal(t, []uint32{0}, l.HeavyRow)
	require.Equal(t, []uint32{0}, l.HeavyCol)
	assert.Equal(t, []uint32{5}, l.HeavyRows)
	assert.Equal(t, []uint32{3}, l.HeavyNumDst)
	assert.Equal(t, []uint64{0}, l.HeavySlot)
	assert.Equal(t, []uint64{0, 15}, l.HeavyMatrixStart)
	assert.Equal(t, []uint16{1, 4, 6}, l.SlotDst)
	assert.Equal(t, rowMajor(
		[]int16{-1, -2, -3},
		[]int16{0, 1, 7},
		[]int16{2, -3, inv},
		[]int16{3, 0, inv},
		[]int16{5, 7, inv},
	), l.HeavyMatrix)
	assert.Equal(t, rowMajor(
		[]uint32{0, 0, 0},
		[]uint32{10, 14, 17},
		[]uint32{11, 0, 0},
		[]uint32{12, 15, 0},
		[]uint32{13, 16, 0},
	), l.HeavyWeights)
	assert.Equal(t, []uint64{0, 0}, l.LightStart)
	assert.Empty(t, l.LightSrc)
	assert.Equal(t, []uint64{0, 3}, l.RowSlotStart)
	assert.Equal(t, []uint64{8}, l.BlockEdges)
}

func TestHeavyBlockMarkerAtColumnBottom(t *testing.T) {
	// dst 0 ← 1, 2, 3; dst 1 ← 4, 5; T = 2: rows = ceil((2+5+2)/2) = 5.
	// Destination 1's marker lands in the last row of column 0, so it is
	// repeated at the top of column 1 before its sources.
	el := arcs(8, [3]uint32{1, 0, 1}, [3]uint32{2, 0, 1}, [3]uint32{3, 0, 1}, [3]uint32{4, 1, 1}, [3]uint32{5, 1, 1})
	el.Weights = nil
	l := build(t, el, tinyParams(2))
	assert.Equal(t, rowMajor(
		[]int16{-1, -2},
		[]int16{1, 4},
		[]int16{2, 5},
		[]int16{3, inv},
		[]int16{-2, inv},
	), l.HeavyMatrix)
	assert.Nil(t, l.HeavyWeights)
}

func TestLightBlocksAndSlots(t *testing.T) {
	// Two panels of 4 (n = 7), nothing heavy. Row panel 0 gets the arcs into
	// 0..3, row panel 1 those into 4..6; slots per row panel follow column
	// panel, destination, source.
	p := layout.Params{PanelSize: 4, HeavyThreshold: 100, HeavyColumns: 4, SegmentSize: 4, GroupThresholds: []uint64{1000}}
	el := arcs(7,
		[3]uint32{5, 1, 1}, [3]uint32{0, 1, 2}, [3]uint32{6, 4, 3}, [3]uint32{2, 6, 4}, [3]uint32{1, 1, 5}, [3]uint32{4, 2, 6})
	l := build(t, el, p)
	assert.Equal(t, []uint32{0, 0, 1, 1}, l.BlockRow)
	assert.Equal(t, []uint32{0, 1, 0, 1}, l.BlockCol)
	assert.Equal(t, []uint64{2, 2, 1, 1}, l.BlockEdges)
	// Row panel 0: block (0,0) arcs 0→1, 1→1 (slots 0, 1); block (0,1) arcs
	// 5→1, 4→2 (slots 2, 3). Row panel 1: block (1,0) 2→6 (slot 4); block
	// (1,1) 6→4 (slot 5).
	assert.Equal(t, []uint64{0, 4, 6}, l.RowSlotStart)
	assert.Equal(t, []uint16{1, 1, 1, 2, 2, 0}, l.SlotDst)
	// Light storage by column panel: column 0 = (0,0) then (1,0); column 1 =
	// (0,1) then (1,1).
	assert.Equal(t, []uint64{0, 3, 6}, l.LightStart)
	assert.Equal(t, []uint16{0, 1, 2, 1, 0, 2}, l.LightSrc)
	assert.Equal(t, []uint32{0, 1, 4, 2, 3, 5}, l.LightSlot)
	assert.Equal(t, []uint32{2, 5, 4, 1, 6, 3}, l.LightWeights)
	// Sparse: rows sorted by destination.
	assert.Equal(t, []uint64{0, 1, 2, 3, 3, 4, 5, 6}, l.SparseOffsets)
	assert.Equal(t, []uint32{1, 1, 6, 2, 1, 4}, l.SparseDst)
}

func TestParamsValidate(t *testing.T) {
	require.NoError(t, layout.DefaultParams().Validate())
	for name, mod := range map[string]func(*layout.Params){
		"panel 0":        func(p *layout.Params) { p.PanelSize = 0 },
		"panel too big":  func(p *layout.Params) { p.PanelSize = 32768 },
		"T 0":            func(p *layout.Params) { p.HeavyColumns = 0 },
		"segment 0":      func(p *layout.Params) { p.SegmentSize = 0 },
		"not descending": func(p *layout.Params) { p.GroupThresholds = []uint64{10, 20} },
		"equal":          func(p *layout.Params) { p.GroupThresholds = []uint64{10, 10} },
		"zero threshold": func(p *layout.Params) { p.GroupThresholds = []uint64{10, 0} },
		"high too many":  func(p *layout.Params) { p.HighGroups = 7 },
	} {
		p := layout.DefaultParams()
		mod(&p)
		assert.Error(t, p.Validate(), name)
	}
	p := layout.DefaultParams()
	p.PanelSize = 32767
	p.HighGroups = 6
	assert.NoError(t, p.Validate())
}

func rmatLayout(t testing.TB, weighted bool) (*layout.Layout, *graph.EdgeList) {
	t.Helper()
	el, err := gen.RMAT(context.Background(), gen.DefaultRMAT(10, 8), 0, nil)
	require.NoError(t, err)
	el.Symmetrize(0)
	if weighted {
		el.SetRandomWeights(4, 1, 64, 0)
	}
	return build(t, el, smallParams()), el
}

// clone deep-copies a layout through its file form.
func clone(t testing.TB, l *layout.Layout) *layout.Layout {
	t.Helper()
	c := *l
	c.Params.GroupThresholds = append([]uint64(nil), l.Params.GroupThresholds...)
	c.Perm = append([]uint32(nil), l.Perm...)
	c.InvPerm = append([]uint32(nil), l.InvPerm...)
	c.GroupStart = append([]uint64(nil), l.GroupStart...)
	c.BlockRow = append([]uint32(nil), l.BlockRow...)
	c.BlockCol = append([]uint32(nil), l.BlockCol...)
	c.BlockEdges = append([]uint64(nil), l.BlockEdges...)
	c.BlockHeavy = append([]uint8(nil), l.BlockHeavy...)
	c.HeavyRow = append([]uint32(nil), l.HeavyRow...)
	c.HeavyCol = append([]uint32(nil), l.HeavyCol...)
	c.HeavyRows = append([]uint32(nil), l.HeavyRows...)
	c.HeavyMatrixStart = append([]uint64(nil), l.HeavyMatrixStart...)
	c.HeavyNumDst = append([]uint32(nil), l.HeavyNumDst...)
	c.HeavySlot = append([]uint64(nil), l.HeavySlot...)
	c.HeavyMatrix = append([]int16(nil), l.HeavyMatrix...)
	c.HeavyWeights = append([]uint32(nil), l.HeavyWeights...)
	c.LightStart = append([]uint64(nil), l.LightStart...)
	c.LightSrc = append([]uint16(nil), l.LightSrc...)
	c.LightWeights = append([]uint32(nil), l.LightWeights...)
	c.LightSlot = append([]uint32(nil), l.LightSlot...)
	c.RowSlotStart = append([]uint64(nil), l.RowSlotStart...)
	c.SlotDst = append([]uint16(nil), l.SlotDst...)
	c.SparseOffsets = append([]uint64(nil), l.SparseOffsets...)
	c.SparseDst = append([]uint32(nil), l.SparseDst...)
	c.SparseWeights = append([]uint32(nil), l.SparseWeights...)
	c.SegmentBounds = append([]uint32(nil), l.SegmentBounds...)
	c.SegmentSplit = append([]uint32(nil), l.SegmentSplit...)
	return &c
}

// findEntry returns the index in HeavyMatrix of the first entry of heavy
// block h, in column-major fill order, that satisfies pred.
func findEntry(l *layout.Layout, h int, pred func(x int16, i, j uint32) bool) (uint64, bool) {
	t := l.Params.HeavyColumns
	for j := uint32(0); j < t; j++ {
		for i := uint32(0); i < l.HeavyRows[h]; i++ {
			if pred(l.HeavyEntry(h, i, j), i, j) {
				return l.HeavyMatrixStart[h] + uint64(i)*uint64(t) + uint64(j), true
			}
		}
	}
	return 0, false
}

func TestValidateDetectsCorruption(t *testing.T) {
	base, el := rmatLayout(t, true)
	require.NotEmpty(t, base.HeavyRow)
	require.Greater(t, len(base.LightSlot), 10)
	lastSrcOf := func(l *layout.Layout) uint64 {
		var last uint64
		findEntry(l, 0, func(x int16, i, j uint32) bool {
			if x >= 0 {
				last = l.HeavyMatrixStart[0] + uint64(i)*uint64(l.Params.HeavyColumns) + uint64(j)
			}
			return false
		})
		return last
	}
	cases := map[string]struct {
		mod  func(l *layout.Layout, el *graph.EdgeList) *graph.EdgeList
		want string
	}{
		"swap two light slots": {func(l *layout.Layout, el *graph.EdgeList) *graph.EdgeList {
			l.LightSlot[3], l.LightSlot[7] = l.LightSlot[7], l.LightSlot[3]
			return el
		}, "slot"},
		"duplicate a light slot": {func(l *layout.Layout, el *graph.EdgeList) *graph.EdgeList {
			l.LightSlot[3] = l.LightSlot[4]
			return el
		}, "slot"},
		"drop a heavy edge": {func(l *layout.Layout, el *graph.EdgeList) *graph.EdgeList {
			p := lastSrcOf(l)
			l.HeavyMatrix[p] = layout.Invalid
			l.HeavyWeights[p] = 0
			return el
		}, "heavy block 0"},
		"input has an extra arc": {func(l *layout.Layout, el *graph.EdgeList) *graph.EdgeList {
			c := el.Clone()
			c.Src, c.Dst, c.Weights = c.Src[1:], c.Dst[1:], c.Weights[1:]
			return c
		}, "arcs"},
		"change a light source": {func(l *layout.Layout, el *graph.EdgeList) *graph.EdgeList {
			l.LightSrc[5] ^= 1
			return el
		}, "light block"},
		"change a weight": {func(l *layout.Layout, el *graph.EdgeList) *graph.EdgeList {
			l.LightWeights[9]++
			return el
		}, "weight"},
		"break the permutation": {func(l *layout.Layout, el *graph.EdgeList) *graph.EdgeList {
			l.Perm[0] = l.Perm[1]
			return el
		}, "bijection"},
		"swap two vertices": {func(l *layout.Layout, el *graph.EdgeList) *graph.EdgeList {
			a, b := l.InvPerm[0], l.InvPerm[len(l.InvPerm)-1]
			l.Perm[a], l.Perm[b] = l.Perm[b], l.Perm[a]
			l.InvPerm[0], l.InvPerm[len(l.InvPerm)-1] = b, a
			return el
		}, "group"},
		"bad marker": {func(l *layout.Layout, el *graph.EdgeList) *graph.EdgeList {
			p, ok := findEntry(l, 0, func(x int16, i, j uint32) bool { return x < 0 && x != layout.Invalid && x != -1 })
			require.True(t, ok)
			l.HeavyMatrix[p] = -int16(l.HeavyNumDst[0]) - 5
			return el
		}, "marker"},
		"marker out of order": {func(l *layout.Layout, el *graph.EdgeList) *graph.EdgeList {
			p, ok := findEntry(l, 0, func(x int16, i, j uint32) bool { return x == -3 && i > 0 })
			require.True(t, ok)
			l.HeavyMatrix[p] = -5
			return el
		}, "marker"},
		"column starts with a source": {func(l *layout.Layout, el *graph.EdgeList) *graph.EdgeList {
			l.HeavyMatrix[l.HeavyMatrixStart[0]+1] = 0
			return el
		}, "column 1 starts"},
		"heavy slot destination": {func(l *layout.Layout, el *graph.EdgeList) *graph.EdgeList {
			s := l.HeavySlot[0] + 1
			l.SlotDst[s], l.SlotDst[s-1] = l.SlotDst[s-1], l.SlotDst[s]
			return el
		}, "destination"},
		"block kind": {func(l *layout.Layout, el *graph.EdgeList) *graph.EdgeList {
			l.BlockHeavy[0] ^= 1
			return el
		}, "BlockHeavy"},
		"row slot start": {func(l *layout.Layout, el *graph.EdgeList) *graph.EdgeList {
			l.RowSlotStart[1]++
			return el
		}, "row panel 0"},
		"sparse destination": {func(l *layout.Layout, el *graph.EdgeList) *graph.EdgeList {
			l.SparseDst[len(l.SparseDst)-1]--
			return el
		}, "sparse part"},
		"segment split": {func(l *layout.Layout, el *graph.EdgeList) *graph.EdgeList {
			for i := range l.SegmentSplit {
				if l.SegmentSplit[i] > 0 {
					l.SegmentSplit[i]--
					break
				}
			}
			return el
		}, "SegmentSplit"},
		"short array": {func(l *layout.Layout, el *graph.EdgeList) *graph.EdgeList {
			l.LightSlot = l.LightSlot[1:]
			return el
		}, "LightSlot"},
		"weights dropped": {func(l *layout.Layout, el *graph.EdgeList) *graph.EdgeList {
			l.Weighted = false
			l.HeavyWeights, l.LightWeights, l.SparseWeights = nil, nil, nil
			return el
		}, "weighted"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			l := clone(t, base)
			el := tc.mod(l, el)
			err := layout.Validate(l, el)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			t.Log(err)
		})
	}
}

func TestValidateRandomMutationsNeverPanic(t *testing.T) {
	base, el := rmatLayout(t, true)
	rng := rand.New(rand.NewPCG(1, 2))
	secs := base.Sections()
	detected := 0
	for it := range 300 {
		l := clone(t, base)
		var buf []byte
		var s layout.Section
		for {
			s = secs[rng.IntN(len(secs))]
			if s.Bytes > 0 {
				break
			}
		}
		buf = layout.SectionBytes(l, s.Name)
		pos := rng.IntN(len(buf))
		buf[pos] ^= byte(1 + rng.IntN(255))
		err := layout.Validate(l, el)
		if err != nil {
			detected++
		} else {
			// A flip may be harmless only where the layout has slack: never
			// in the arcs themselves.
			t.Logf("iteration %d: flip in %s byte %d not detected", it, s.Name, pos)
		}
		_ = layout.Validate(l, nil)
	}
	assert.Equal(t, 300, detected)
}

func TestArrayBytes(t *testing.T) {
	require.Equal(t, uint64(6), layout.ArrayBytes([]int16{1, 2, 3}))
	require.Equal(t, uint64(16), layout.ArrayBytes([]uint64{1, 2}))
	require.Equal(t, uint64(0), layout.ArrayBytes([]uint32(nil)))
}
