package bench

import (
	"github.com/mgraph-dev/mgraph/layout"
)

// DenseBytes are the sizes, from the layout's arrays, that the compulsory
// memory traffic of one dense (MultiGraphD) step is computed from; Prep
// records them for every layout so that reports can put a dense step's
// time against the device's bandwidth.
type DenseBytes struct {
	// Layout is the bytes of the dense part's arrays that every dense step
	// reads once: HeavyCol, HeavyRows, HeavyMatrixStart, HeavyNumDst,
	// HeavySlot, HeavyMatrix, LightStart, LightSrc, LightSlot, RowSlotStart
	// and SlotDst (weights excluded).
	Layout uint64 `json:"layout"`
	// Weights is the bytes of HeavyWeights and LightWeights, read by
	// programs that add edge weights (sssp).
	Weights uint64 `json:"weights"`
	// Slots is the number of stream slots: phase 1 writes one value per
	// slot and phase 2 reads it back.
	Slots uint64 `json:"slots"`
	// PRPull is the bytes of the arrays a step of PageRank's pull scheme
	// (cuda.PRPull) reads once: the heavy blocks' arrays (HeavyRow, HeavyCol,
	// HeavyRows, HeavyMatrixStart, HeavyNumDst, HeavySlot, HeavyMatrix), the
	// heavy slots' SlotDst entries, and per light edge its source (4 bytes)
	// and panel-local destination (2) in the copy sorted by destination row
	// panel and source. 0 in results recorded before the scheme existed.
	PRPull uint64 `json:"pr_pull,omitempty"`
}

// DenseBytesOf returns l's DenseBytes.
func DenseBytesOf(l *layout.Layout) DenseBytes {
	var heavySlots uint64
	for _, d := range l.HeavyNumDst {
		heavySlots += uint64(d)
	}
	// The heavy blocks' arrays both schemes read (the pull scheme HeavyRow too).
	heavy := layout.ArrayBytes(l.HeavyCol) + layout.ArrayBytes(l.HeavyRows) + layout.ArrayBytes(l.HeavyMatrixStart) +
		layout.ArrayBytes(l.HeavyNumDst) + layout.ArrayBytes(l.HeavySlot) + layout.ArrayBytes(l.HeavyMatrix)
	return DenseBytes{
		PRPull: heavy + layout.ArrayBytes(l.HeavyRow) + 2*heavySlots + 6*uint64(len(l.LightSrc)),
		Layout: heavy + layout.ArrayBytes(l.LightStart) + layout.ArrayBytes(l.LightSrc) + layout.ArrayBytes(l.LightSlot) +
			layout.ArrayBytes(l.RowSlotStart) + layout.ArrayBytes(l.SlotDst),
		Weights: layout.ArrayBytes(l.HeavyWeights) + layout.ArrayBytes(l.LightWeights),
		Slots:   uint64(len(l.SlotDst)),
	}
}

// DenseStepBytes is the compulsory traffic of one dense step of app over a
// layout of n vertices with sizes d: every array of the dense part read
// once (the weights too for sssp), the stream written once in phase 1 and
// read once in phase 2 (a value per slot: 4 bytes for the uint32 min
// programs, 8 for PageRank's float64 shares), and the per-vertex state read
// and written once: for the min programs the value read and written (2×4
// bytes) plus the active flag read and the next flag written (2×1); for
// pr and pr-delta the share read (8), the rank read and written (2×8) and
// the new share written (8). PageRank (pr) with d.PRPull set is the pull
// scheme instead: d.PRPull, and per vertex the share read (8), the rank and
// the accumulator read and written (4×8), the new share written (8) and the
// out-degree's offsets read (8). It is a lower bound of what a step moves:
// reads of source values repeated across panels, staging in shared memory
// and partial sectors are not counted. It returns 0 for apps without a
// dense step model (bc, and cc by hooking).
func DenseStepBytes(app string, n uint64, d DenseBytes) uint64 {
	if app == "pr" && d.PRPull > 0 {
		return d.PRPull + n*(8+4*8+8+8)
	}
	var value, perVertex uint64
	switch app {
	case "bfs", "bfs-tree", "cc-lp", "sssp":
		value, perVertex = 4, 2*4+2
	case "pr", "pr-delta":
		value, perVertex = 8, 8+2*8+8
	default:
		return 0
	}
	b := d.Layout + 2*d.Slots*value + n*perVertex
	if app == "sssp" {
		b += d.Weights
	}
	return b
}
