// Package layout defines MultiGraph's dual representation of a graph as
// data (docs/layout.md is the contract): the in-degree-group vertex
// permutation, the dense part (2D edge blocks, heavy blocks in the
// column-major frontier-matrix encoding of §4.1, light edges grouped by
// column panel, the stream-buffer map) and the sparse part (out-adjacency
// in new ids with rows sorted by destination, cut into destination
// segments).
//
// Every array is a flat, pointer-free Go slice ready to be copied to a GPU.
// The package also validates a layout against its input graph (Validate),
// accounts for its size (Sections, Footprint) and stores it on disk (Save,
// Load, SaveFile, LoadFile) in a versioned, checksummed, zstd-compressed
// format.
package layout

import (
	"errors"
	"fmt"
	"slices"

	"github.com/mgraph-dev/mgraph/graph"
)

// Invalid marks the unused (padding) entries of a heavy block's frontier
// matrix.
const Invalid int16 = -32768

// MaxPanelSize is the largest panel size: panel-local indices and negated
// destination markers -(k+1) must fit in an int16 next to Invalid.
const MaxPanelSize = 32767

// MaxHeavyColumns bounds T, the columns of a heavy block's frontier matrix
// (a thread block never has more threads than this).
const MaxHeavyColumns = 1 << 16

// MaxSlots is the number of stream-buffer slots a layout may have: slots are
// indexed by uint32 (LightSlot), so there are at most 2^32-1 of them.
const MaxSlots = 1<<32 - 1

// MaxVertices is the largest vertex count a layout may have, 2^32-1: one
// less than graph.MaxVertices, because SegmentBounds stores n as a uint32.
const MaxVertices = 1<<32 - 1

// ErrTooLarge reports a graph whose layout cannot be represented: more
// stream-buffer slots than MaxSlots, more than MaxVertices vertices, or a vertex with 2^32 or more out-arcs
// (SegmentSplit holds row-relative uint32 offsets).
var ErrTooLarge = errors.New("graph too large for the layout")

// Params are the tunables of a layout. They are stored with the layout and
// in the file header; DefaultParams gives the paper's values.
type Params struct {
	// PanelSize (P) is the number of vertices per row and column panel, in
	// [1, MaxPanelSize].
	PanelSize uint32
	// HeavyThreshold: a dense block with more than this many edges is heavy.
	HeavyThreshold uint64
	// HeavyColumns (T) is the number of columns of a heavy block's frontier
	// matrix, in [1, MaxHeavyColumns].
	HeavyColumns uint32
	// SegmentSize is the number of destinations per sparse segment of the
	// high in-degree groups; at least 1.
	SegmentSize uint32
	// GroupThresholds are the in-degree lower bounds of groups 1..k, strictly
	// descending and positive; group k+1 takes the rest.
	GroupThresholds []uint64
	// HighGroups: groups 1..HighGroups are "high in-degree" and are cut into
	// shared-memory segments; in [0, len(GroupThresholds)+1].
	HighGroups uint32
}

// DefaultParams returns the paper's parameters: P = 6144, heavy above 18432
// edges, T = 1024, segments of 12288 destinations, groups at
// 2048/1024/512/256/128 with groups 1–4 high.
func DefaultParams() Params {
	return Params{
		PanelSize:       6144,
		HeavyThreshold:  18432,
		HeavyColumns:    1024,
		SegmentSize:     12288,
		GroupThresholds: []uint64{2048, 1024, 512, 256, 128},
		HighGroups:      4,
	}
}

// maxThresholds bounds the number of group thresholds (a sanity limit for
// files).
const maxThresholds = 64

// NumGroups returns the number of in-degree groups, len(GroupThresholds)+1.
func (p Params) NumGroups() int { return len(p.GroupThresholds) + 1 }

// Validate checks every parameter against its range.
func (p Params) Validate() error {
	if p.PanelSize < 1 || p.PanelSize > MaxPanelSize {
		return fmt.Errorf("layout params: panel size %d outside [1, %d]", p.PanelSize, MaxPanelSize)
	}
	if p.HeavyColumns < 1 || p.HeavyColumns > MaxHeavyColumns {
		return fmt.Errorf("layout params: heavy columns (T) %d outside [1, %d]", p.HeavyColumns, MaxHeavyColumns)
	}
	if p.SegmentSize < 1 {
		return fmt.Errorf("layout params: segment size must be at least 1")
	}
	if len(p.GroupThresholds) > maxThresholds {
		return fmt.Errorf("layout params: %d group thresholds; at most %d", len(p.GroupThresholds), maxThresholds)
	}
	for i, t := range p.GroupThresholds {
		if t == 0 {
			return fmt.Errorf("layout params: group threshold %d is 0; thresholds must be positive", i+1)
		}
		if i > 0 && t >= p.GroupThresholds[i-1] {
			return fmt.Errorf("layout params: group thresholds must be strictly descending, got %v", p.GroupThresholds)
		}
	}
	if int(p.HighGroups) > p.NumGroups() {
		return fmt.Errorf("layout params: high groups %d but only %d groups", p.HighGroups, p.NumGroups())
	}
	return nil
}

// Equal reports whether p and q are the same parameters.
func (p Params) Equal(q Params) bool {
	return p.PanelSize == q.PanelSize && p.HeavyThreshold == q.HeavyThreshold &&
		p.HeavyColumns == q.HeavyColumns && p.SegmentSize == q.SegmentSize &&
		p.HighGroups == q.HighGroups && slices.Equal(p.GroupThresholds, q.GroupThresholds)
}

// String formats the parameters for logs.
func (p Params) String() string {
	return fmt.Sprintf("P=%d heavy>%d T=%d segment=%d groups=%v high=%d",
		p.PanelSize, p.HeavyThreshold, p.HeavyColumns, p.SegmentSize, p.GroupThresholds, p.HighGroups)
}

// Group returns the 0-based in-degree group of a vertex of in-degree d.
func (p Params) Group(d uint64) int {
	for i, t := range p.GroupThresholds {
		if d >= t {
			return i
		}
	}
	return len(p.GroupThresholds)
}

// Layout is the dual representation of one graph. See docs/layout.md for
// the meaning and invariants of every array; the field names are the
// section names of the file.
type Layout struct {
	Params      Params
	NumVertices uint64 // n
	NumArcs     uint64 // m
	Weighted    bool   // the weight arrays are present (length as their index arrays)
	// WeightKind says whether the weight arrays hold uint32 integers or
	// float32 bit patterns (graph.WeightKind; Uint32Weights when unweighted).
	WeightKind graph.WeightKind
	Directed   bool // the input's Directed flag, kept for the applications

	// Vertex numbering: Perm[old] = new, InvPerm[new] = old. Group g
	// (1-based) is new ids [GroupStart[g-1], GroupStart[g]).
	Perm       []uint32
	InvPerm    []uint32
	GroupStart []uint64

	// Dense part: non-empty blocks, row-panel-major.
	BlockRow   []uint32
	BlockCol   []uint32
	BlockEdges []uint64
	BlockHeavy []uint8

	// Heavy blocks, in block order.
	HeavyRow         []uint32
	HeavyCol         []uint32
	HeavyRows        []uint32 // rows of the frontier matrix
	HeavyMatrixStart []uint64 // H+1 offsets into HeavyMatrix
	HeavyNumDst      []uint32 // D: destinations with an arc in the block
	HeavySlot        []uint64 // first stream slot of the block
	HeavyMatrix      []int16  // row-major rows×T matrices, filled column-major
	HeavyWeights     []uint32 // parallel to HeavyMatrix (weighted only)

	// Light edges, grouped by column panel (LightStart has C+1 entries).
	LightStart   []uint64
	LightSrc     []uint16 // column-panel-local source
	LightWeights []uint32 // weighted only
	LightSlot    []uint32 // stream slot of the edge's contribution

	// Stream buffer map.
	RowSlotStart []uint64 // R+1: row panel r owns [RowSlotStart[r], RowSlotStart[r+1])
	SlotDst      []uint16 // row-panel-local destination of every slot

	// Sparse part.
	SparseOffsets []uint64 // n+1
	SparseDst     []uint32 // m, rows sorted by destination
	SparseWeights []uint32 // weighted only
	SegmentBounds []uint32 // NumHighSegments+2
	SegmentSplit  []uint32 // NumHighSegments·n, row-relative offsets
}

// NumPanels returns R = C = ceil(n / P), the number of row (and column)
// panels.
func (l *Layout) NumPanels() uint64 {
	if l.Params.PanelSize == 0 {
		return 0
	}
	return (l.NumVertices + uint64(l.Params.PanelSize) - 1) / uint64(l.Params.PanelSize)
}

// NumPanelsFor returns ceil(n / P).
func NumPanelsFor(n uint64, p uint32) uint64 {
	if p == 0 {
		return 0
	}
	return (n + uint64(p) - 1) / uint64(p)
}

// NumHeavy returns the number of heavy blocks.
func (l *Layout) NumHeavy() int { return len(l.HeavyRow) }

// NumBlocks returns the number of non-empty dense blocks.
func (l *Layout) NumBlocks() int { return len(l.BlockRow) }

// NumSlots returns the number of stream-buffer slots.
func (l *Layout) NumSlots() uint64 { return uint64(len(l.SlotDst)) }

// NumHighSegments returns the number of sparse segments cut from the high
// in-degree groups (the low segment comes after them).
func (l *Layout) NumHighSegments() int {
	if len(l.SegmentBounds) < 2 {
		return 0
	}
	return len(l.SegmentBounds) - 2
}

// NumSegments returns the number of sparse segments, the low one included.
func (l *Layout) NumSegments() int { return l.NumHighSegments() + 1 }

// OutDegree returns the out-degree of new vertex v (from the sparse part).
func (l *Layout) OutDegree(v uint32) uint64 { return l.SparseOffsets[v+1] - l.SparseOffsets[v] }

// SegmentRange returns segment s (0-based; the last is the low segment) of
// new vertex v's sparse row as absolute offsets [lo, hi) into SparseDst.
func (l *Layout) SegmentRange(s int, v uint32) (lo, hi uint64) {
	base := l.SparseOffsets[v]
	split := func(s int) uint64 {
		switch {
		case s == 0:
			return 0
		case s > l.NumHighSegments():
			return l.SparseOffsets[v+1] - base
		default:
			return uint64(l.SegmentSplit[uint64(s-1)*l.NumVertices+uint64(v)])
		}
	}
	return base + split(s), base + split(s+1)
}

// HeavyEntry returns entry (i, j) of heavy block h's frontier matrix.
func (l *Layout) HeavyEntry(h int, i, j uint32) int16 {
	return l.HeavyMatrix[l.HeavyMatrixStart[h]+uint64(i)*uint64(l.Params.HeavyColumns)+uint64(j)]
}

// Stats summarises a layout for reports.
type Stats struct {
	Blocks, HeavyBlocks, LightBlocks uint64
	HeavyEdges, LightEdges           uint64 // arcs in heavy and in light blocks
	HeavyMatrixEntries               uint64 // rows·T summed over heavy blocks
	HeavyPadding                     uint64 // Invalid entries among them
	Slots                            uint64
	HighSegments, Segments           int
	GroupVertices                    []uint64 // vertices per in-degree group
}

// Stats computes the summary (one pass over the block list and the heavy
// matrices).
func (l *Layout) Stats() Stats {
	s := Stats{
		Blocks:             uint64(len(l.BlockRow)),
		HeavyBlocks:        uint64(len(l.HeavyRow)),
		HeavyMatrixEntries: uint64(len(l.HeavyMatrix)),
		Slots:              uint64(len(l.SlotDst)),
		HighSegments:       l.NumHighSegments(),
		Segments:           l.NumSegments(),
	}
	s.LightBlocks = s.Blocks - s.HeavyBlocks
	for i, e := range l.BlockEdges {
		if i < len(l.BlockHeavy) && l.BlockHeavy[i] != 0 {
			s.HeavyEdges += e
		} else {
			s.LightEdges += e
		}
	}
	for _, x := range l.HeavyMatrix {
		if x == Invalid {
			s.HeavyPadding++
		}
	}
	for g := 1; g < len(l.GroupStart); g++ {
		s.GroupVertices = append(s.GroupVertices, l.GroupStart[g]-l.GroupStart[g-1])
	}
	return s
}
