package denseplan_test

import (
	"context"
	"fmt"
	"sort"
	"testing"

	"github.com/mgraph-dev/mgraph/internal/denseplan"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/require"
)

// These tests need no GPU: they check the work split against the layout.

// walkColumn appends the (block destination, source) pairs of rows [i0, i1)
// of column j of heavy block h, entering with destination dst: what
// heavy_kernel combines.
func walkColumn(l *layout.Layout, h int, j, i0, i1 uint64, dst int, out [][2]int) [][2]int {
	t := uint64(l.Params.HeavyColumns)
	start := l.HeavyMatrixStart[h]
	for i := i0; i < i1; i++ {
		x := l.HeavyMatrix[start+i*t+j]
		switch {
		case x >= 0:
			if dst >= 0 {
				out = append(out, [2]int{dst, int(x)})
			}
		case x == layout.Invalid:
			return out
		default:
			dst = -int(x) - 1
		}
	}
	return out
}

func sortPairs(p [][2]int) {
	sort.Slice(p, func(a, b int) bool { return p[a][0] < p[b][0] || p[a][0] == p[b][0] && p[a][1] < p[b][1] })
}

func checkPlan(t *testing.T, l *layout.Layout, p *denseplan.Plan) {
	t.Helper()
	tt := uint64(l.Params.HeavyColumns)
	k := uint64(p.HeavyChunkRows)
	// Heavy chunks: in block order, rows covered once, and the chunked walk
	// meets the same arcs as one walk down each whole column.
	whole := make([][][2]int, len(l.HeavyRows))
	for h := range l.HeavyRows {
		for j := uint64(0); j < tt; j++ {
			whole[h] = walkColumn(l, h, j, 0, uint64(l.HeavyRows[h]), -1, whole[h])
		}
	}
	chunked := make([][][2]int, len(l.HeavyRows))
	next := make([]uint64, len(l.HeavyRows))
	for c := range p.HeavyChunkBlock {
		h, i0 := int(p.HeavyChunkBlock[c]), uint64(p.HeavyChunkRow0[c])
		require.Equal(t, next[h], i0, "chunk %d of block %d", c, h)
		i1 := min(i0+k, uint64(l.HeavyRows[h]))
		next[h] = i1
		for j := uint64(0); j < tt; j++ {
			chunked[h] = walkColumn(l, h, j, i0, i1, int(p.HeavyChunkEntry[uint64(c)*tt+j]), chunked[h])
		}
	}
	for h := range l.HeavyRows {
		require.Equal(t, uint64(l.HeavyRows[h]), next[h], "block %d rows", h)
		sortPairs(whole[h])
		sortPairs(chunked[h])
		require.Equal(t, whole[h], chunked[h], "block %d", h)
		if uint64(l.HeavyRows[h]) > k { // split: phase 2 resets its slots
			r := l.HeavyRow[h]
			require.LessOrEqual(t, p.RowResetLo[r], l.HeavySlot[h])
			require.GreaterOrEqual(t, p.RowResetHi[r], l.HeavySlot[h]+uint64(l.HeavyNumDst[h]))
		}
	}
	numPanels := len(l.LightStart) - 1
	for r := 0; r < numPanels; r++ {
		if p.RowResetLo[r] < p.RowResetHi[r] {
			require.GreaterOrEqual(t, p.RowResetLo[r], l.RowSlotStart[r])
			require.LessOrEqual(t, p.RowResetHi[r], l.RowSlotStart[r+1])
		}
	}
	// Light chunks tile each column panel's light edges.
	e := l.LightStart[0]
	for i, c := range p.LightChunkCol {
		require.Equal(t, e, p.LightChunkStart[i])
		end := min(e+uint64(p.LightChunkEdges), l.LightStart[c+1])
		require.Greater(t, end, e)
		e = end
	}
	require.Equal(t, l.LightStart[numPanels], e)
	// Phase 2 chunks: every row panel has one or more, tiling its slots; a
	// row of several is split, with its index in splitRows.
	rowChunks := make([]int, numPanels)
	s := uint64(0)
	for i, r := range p.SlotChunkRow {
		rowChunks[r]++
		require.Equal(t, s, p.SlotChunkStart[i])
		s = min(s+uint64(p.SlotChunk), l.RowSlotStart[r+1])
	}
	require.Equal(t, uint64(len(l.SlotDst)), s)
	for i, r := range p.SlotChunkRow {
		require.GreaterOrEqual(t, rowChunks[r], 1)
		if rowChunks[r] == 1 {
			require.Equal(t, denseplan.NoSplit, p.SlotChunkSplit[i])
		} else {
			require.Equal(t, r, p.SplitRows[p.SlotChunkSplit[i]])
		}
	}
	for r := range rowChunks {
		require.GreaterOrEqual(t, rowChunks[r], 1, "row panel %d", r)
	}
}

func TestPlanDenseSplitsWork(t *testing.T) {
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		l, err := preprocess.Build(context.Background(), s.EL, testgraphs.SmallParams(), preprocess.Options{Workers: 2})
		require.NoError(t, err)
		for _, ws := range []denseplan.Split{{}, {HeavyChunkRows: 1, LightChunkEdges: 1, SlotChunk: 1},
			{HeavyChunkRows: 2, LightChunkEdges: 7, SlotChunk: 48}, {HeavyChunkRows: 5, LightChunkEdges: 100, SlotChunk: 300}} {
			t.Run(fmt.Sprintf("%s/%+v", s.Name, ws), func(t *testing.T) {
				checkPlan(t, l, denseplan.New(l, 132, ws))
			})
		}
	}
}

func TestHeavyChunkRowsSpreadsRows(t *testing.T) {
	l := &layout.Layout{HeavyRows: []uint32{8154, 2214, 38, 28}}
	// 10,434 rows over 132 SMs × 4 chunks: 20 rows (above the minimum).
	require.Equal(t, uint32(20), denseplan.HeavyChunkRowsFor(l, 132))
	require.Equal(t, uint32(denseplan.MinHeavyChunkRows), denseplan.HeavyChunkRowsFor(&layout.Layout{HeavyRows: []uint32{30}}, 132))
	require.Equal(t, uint32(denseplan.MinHeavyChunkRows), denseplan.HeavyChunkRowsFor(&layout.Layout{}, 0))
}
