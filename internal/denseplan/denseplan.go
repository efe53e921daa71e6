// Package denseplan computes the work split of the GPU's dense kernels over
// a layout (docs/gpu-engines.md, "Work split of the dense step"): cuda
// uploads it with the layout, and the kernels of kernels/densework.cuh read
// it from mg_dlayout.
package denseplan

import (
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// The dense kernels' work split. The layout gives one thread block per heavy
// block, per column panel (light edges) and per row panel (phase 2), which on
// a skewed graph leaves one block with most of the work: on R-MAT 21 the hub
// block (0,0) holds 8.3 M of the 67 M arcs, 8,154 rows that its 1,024 threads
// walk one after another while the rest of the GPU idles. The plan cuts that
// work into pieces of about equal size, computed once when the layout is
// uploaded (docs/gpu-engines.md, "Work split of the dense step").
const (
	// heavyChunksPerSM is how many row chunks of heavy blocks the plan
	// aims at per multiprocessor: enough for two waves at two resident
	// blocks per SM (a heavy block's shared memory is 2·P values).
	heavyChunksPerSM = 4
	// MinHeavyChunkRows is the smallest default row chunk: below it the per-chunk
	// staging of the column panel outweighs the walk.
	MinHeavyChunkRows = 16
	// LightChunkEdges is the most light edges one block of the light kernel
	// writes (256 threads × 64 edges).
	LightChunkEdges = 16384
	// SlotChunk is the most stream slots one block of phase 2 folds
	// (512 threads × 4 unrolled loads × 16 rounds).
	SlotChunk = 32768
	// NoSplit marks a phase 2 chunk whose row panel is a single chunk.
	NoSplit = ^uint32(0)
)

// Split overrides the dense kernels' work split (tests use tiny pieces
// to exercise the split paths on small graphs); a zero field keeps the
// default.
type Split struct {
	HeavyChunkRows  uint32 // rows per heavy row chunk (default: about heavyChunksPerSM chunks per SM)
	LightChunkEdges uint32 // light edges per light chunk (default LightChunkEdges)
	SlotChunk       uint32 // stream slots per phase 2 chunk (default SlotChunk)
}

// Plan is the dense step's work split over a layout (mirrored into
// mg_dlayout). A heavy block with more than HeavyChunkRows rows is split
// into row chunks whose blocks combine their partials into its slots with
// global atomics; a row panel with more than SlotChunk slots is folded by
// several blocks into a global accumulator, and applied by a second kernel.
type Plan struct {
	HeavyChunkRows  uint32   // rows per heavy row chunk
	LightChunkEdges uint32   // light edges per light chunk
	SlotChunk       uint32   // stream slots per phase 2 chunk
	HeavyChunkBlock []uint32 // per chunk: the heavy block
	HeavyChunkRow0  []uint32 // per chunk: its first row
	// HeavyChunkEntry[c·T+j] is the block-local destination whose run
	// continues into chunk c's first row in column j (-1: none).
	HeavyChunkEntry []int16
	LightChunkCol   []uint32 // per light chunk: the column panel
	LightChunkStart []uint64 // per light chunk: its first light edge
	SlotChunkRow    []uint32 // per phase 2 chunk: the row panel
	SlotChunkStart  []uint64 // per phase 2 chunk: its first slot
	SlotChunkSplit  []uint32 // per phase 2 chunk: its row's index in SplitRows, or NoSplit
	SplitRows       []uint32 // row panels folded by more than one chunk
	// RowResetLo/Hi[r]: phase 2 sets slots [lo, hi) of row panel r back to
	// the identity after reading them; the range covers the slots of the
	// row's split heavy blocks (lo = hi when it has none).
	RowResetLo, RowResetHi []uint64
}

// HeavyChunkRowsFor returns the row chunk that spreads the heavy blocks' rows
// over about heavyChunksPerSM chunks per multiprocessor.
func HeavyChunkRowsFor(l *layout.Layout, sms int) uint32 {
	var rows uint64
	for _, r := range l.HeavyRows {
		rows += uint64(r)
	}
	target := uint64(max(sms, 1) * heavyChunksPerSM)
	return uint32(max((rows+target-1)/target, MinHeavyChunkRows))
}

// New computes the work split of l's dense part for a GPU with sms
// multiprocessors, with ws's overrides.
func New(l *layout.Layout, sms int, ws Split) *Plan {
	p := &Plan{HeavyChunkRows: ws.HeavyChunkRows, LightChunkEdges: ws.LightChunkEdges, SlotChunk: ws.SlotChunk}
	if p.HeavyChunkRows == 0 {
		p.HeavyChunkRows = HeavyChunkRowsFor(l, sms)
	}
	if p.LightChunkEdges == 0 {
		p.LightChunkEdges = LightChunkEdges
	}
	if p.SlotChunk == 0 {
		p.SlotChunk = SlotChunk
	}
	k := p.HeavyChunkRows
	numPanels := max(len(l.LightStart), 1) - 1
	p.RowResetLo = make([]uint64, numPanels)
	p.RowResetHi = make([]uint64, numPanels)

	// Heavy row chunks, and the slots phase 2 must reset.
	first := make([]int, len(l.HeavyRows)+1)
	for h, rows := range l.HeavyRows {
		n := max(int((uint64(rows)+uint64(k)-1)/uint64(k)), 1)
		first[h+1] = first[h] + n
		for c := 0; c < n; c++ {
			p.HeavyChunkBlock = append(p.HeavyChunkBlock, uint32(h))
			p.HeavyChunkRow0 = append(p.HeavyChunkRow0, uint32(c)*k)
		}
		if n > 1 {
			r, lo, hi := l.HeavyRow[h], l.HeavySlot[h], l.HeavySlot[h]+uint64(l.HeavyNumDst[h])
			if p.RowResetLo[r] == p.RowResetHi[r] {
				p.RowResetLo[r], p.RowResetHi[r] = lo, hi
			} else {
				p.RowResetLo[r], p.RowResetHi[r] = min(p.RowResetLo[r], lo), max(p.RowResetHi[r], hi)
			}
		}
	}
	t := int(l.Params.HeavyColumns)
	p.HeavyChunkEntry = make([]int16, first[len(l.HeavyRows)]*t)
	for i := range p.HeavyChunkEntry {
		p.HeavyChunkEntry[i] = -1
	}
	par.Dynamic(len(l.HeavyRows), par.Workers(0), 1, func(h int) {
		if first[h+1]-first[h] > 1 {
			heavyEntries(l, h, k, p.HeavyChunkEntry[first[h]*t:first[h+1]*t])
		}
	})

	// Light chunks: each column panel's light edges in pieces.
	for c := 0; c < numPanels; c++ {
		for e := l.LightStart[c]; e < l.LightStart[c+1]; e += uint64(p.LightChunkEdges) {
			p.LightChunkCol = append(p.LightChunkCol, uint32(c))
			p.LightChunkStart = append(p.LightChunkStart, e)
		}
	}

	// Phase 2 chunks: every row panel gets at least one (its vertices are
	// applied even when no slot names them).
	for r := 0; r < numPanels; r++ {
		s0, s1 := l.RowSlotStart[r], l.RowSlotStart[r+1]
		split := NoSplit
		if s1-s0 > uint64(p.SlotChunk) {
			split = uint32(len(p.SplitRows))
			p.SplitRows = append(p.SplitRows, uint32(r))
		}
		for s := s0; s == s0 || s < s1; s += uint64(p.SlotChunk) {
			p.SlotChunkRow = append(p.SlotChunkRow, uint32(r))
			p.SlotChunkStart = append(p.SlotChunkStart, s)
			p.SlotChunkSplit = append(p.SlotChunkSplit, split)
		}
	}
	return p
}

// heavyEntries fills entry (chunks × T) for heavy block h: for every chunk
// after the first and every column, the destination of the last marker
// above the chunk's first row (a column's padding ends it: -1).
func heavyEntries(l *layout.Layout, h int, k uint32, entry []int16) {
	t := uint64(l.Params.HeavyColumns)
	rows := uint64(l.HeavyRows[h])
	mat := l.HeavyMatrix[l.HeavyMatrixStart[h]:l.HeavyMatrixStart[h+1]]
	cur := make([]int16, t)
	for j := range cur {
		cur[j] = -1
	}
	for i := uint64(0); i < rows; i++ {
		if i%uint64(k) == 0 {
			copy(entry[(i/uint64(k))*t:], cur)
		}
		for j, x := range mat[i*t : (i+1)*t] {
			switch {
			case x == layout.Invalid:
				cur[j] = -1
			case x < 0:
				cur[j] = -(x + 1)
			}
		}
	}
}

// HeavyChunks is the number of heavy row chunks.
func (p *Plan) HeavyChunks() int { return len(p.HeavyChunkBlock) }

// SplitAccLen is the length of the phase 2 accumulators of the split row
// panels (P values each), kept in the stream buffer after the slots.
func (p *Plan) SplitAccLen(panel uint32) int { return len(p.SplitRows) * int(panel) }

// Bytes is the device memory the plan's arrays take.
func (p *Plan) Bytes() uint64 {
	return layout.ArrayBytes(p.HeavyChunkBlock) + layout.ArrayBytes(p.HeavyChunkRow0) + layout.ArrayBytes(p.HeavyChunkEntry) +
		layout.ArrayBytes(p.LightChunkCol) + layout.ArrayBytes(p.LightChunkStart) + layout.ArrayBytes(p.SlotChunkRow) +
		layout.ArrayBytes(p.SlotChunkStart) + layout.ArrayBytes(p.SlotChunkSplit) + layout.ArrayBytes(p.SplitRows) +
		layout.ArrayBytes(p.RowResetLo) + layout.ArrayBytes(p.RowResetHi) + 4*uint64(len(p.SplitRows)) // + the split rows' tickets
}
