package layout

import (
	"fmt"
	"math/bits"

	"github.com/mgraph-dev/mgraph/graph"
)

// section indices in sectionNames order.
const (
	sPerm = iota
	sInvPerm
	sGroupStart
	sBlockRow
	sBlockCol
	sBlockEdges
	sBlockHeavy
	sHeavyRow
	sHeavyCol
	sHeavyRows
	sHeavyMatrixStart
	sHeavyNumDst
	sHeavySlot
	sHeavyMatrix
	sHeavyWeights
	sLightStart
	sLightSrc
	sLightWeights
	sLightSlot
	sRowSlotStart
	sSlotDst
	sSparseOffsets
	sSparseDst
	sSparseWeights
	sSegmentBounds
	sSegmentSplit
	numSections
)

// mulLimit returns a·b, or limit when the product exceeds limit.
func mulLimit(a, b, limit uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 || lo > limit {
		return limit
	}
	return lo
}

// checkLengths checks the element counts of the sections (in sectionNames
// order) against the graph sizes and parameters: the relations that hold
// whatever the arrays contain. Load runs it on the section table before it
// allocates anything, so every count it accepts is bounded by n, m and the
// parameters.
func checkLengths(n, m uint64, weighted bool, p Params, lens []uint64) error {
	if len(lens) != numSections {
		return fmt.Errorf("layout has %d sections, want %d", len(lens), numSections)
	}
	if err := p.Validate(); err != nil {
		return err
	}
	if n > MaxVertices {
		return fmt.Errorf("layout has %d vertices; at most %d are supported", n, uint64(MaxVertices))
	}
	const huge = 1 << 62
	if m > huge {
		return fmt.Errorf("layout has %d arcs; too many", m)
	}
	panels := NumPanelsFor(n, p.PanelSize)
	want := func(s int, v uint64) error {
		if lens[s] != v {
			return fmt.Errorf("section %s has %d entries, want %d", sectionNames[s], lens[s], v)
		}
		return nil
	}
	atMost := func(s int, v uint64, why string) error {
		if lens[s] > v {
			return fmt.Errorf("section %s has %d entries, more than %d (%s)", sectionNames[s], lens[s], v, why)
		}
		return nil
	}
	weightsLen := func(base uint64) uint64 {
		if weighted {
			return base
		}
		return 0
	}
	blocks := lens[sBlockRow]
	heavy := lens[sHeavyRow]
	light := lens[sLightSrc]
	var nhs uint64
	if lens[sSegmentBounds] >= 2 {
		nhs = lens[sSegmentBounds] - 2
	}
	maxMatrix := 2*m + mulLimit(heavy, 2*uint64(p.HeavyColumns), huge)
	for _, err := range []error{
		want(sPerm, n), want(sInvPerm, n), want(sGroupStart, uint64(p.NumGroups())+1),
		atMost(sBlockRow, min(m, mulLimit(panels, panels, huge)), "non-empty blocks"),
		want(sBlockCol, blocks), want(sBlockEdges, blocks), want(sBlockHeavy, blocks),
		atMost(sHeavyRow, blocks, "heavy blocks are blocks"),
		want(sHeavyCol, heavy), want(sHeavyRows, heavy), want(sHeavyMatrixStart, heavy+1),
		want(sHeavyNumDst, heavy), want(sHeavySlot, heavy),
		atMost(sHeavyMatrix, maxMatrix, "rows·T per heavy block is below edges+D+2T"),
		want(sHeavyWeights, weightsLen(lens[sHeavyMatrix])),
		want(sLightStart, panels+1), atMost(sLightSrc, m, "light edges are arcs"),
		want(sLightWeights, weightsLen(light)), want(sLightSlot, light),
		want(sRowSlotStart, panels+1), atMost(sSlotDst, m, "slots are at most arcs"),
		want(sSparseOffsets, n+1), want(sSparseDst, m), want(sSparseWeights, weightsLen(m)),
		atMost(sSegmentBounds, (n+uint64(p.SegmentSize)-1)/uint64(p.SegmentSize)+2, "segments"),
		want(sSegmentSplit, mulLimit(nhs, n, huge)),
	} {
		if err != nil {
			return err
		}
	}
	if lens[sSegmentBounds] < 2 {
		return fmt.Errorf("section SegmentBounds has %d entries, want at least 2", lens[sSegmentBounds])
	}
	return nil
}

// checkOffsets checks that off starts at 0, never decreases and ends at end.
func checkOffsets(name string, off []uint64, end uint64) error {
	if len(off) == 0 || off[0] != 0 {
		return fmt.Errorf("%s does not start at 0", name)
	}
	for i := 1; i < len(off); i++ {
		if off[i] < off[i-1] {
			return fmt.Errorf("%s decreases at entry %d (%d after %d)", name, i, off[i], off[i-1])
		}
	}
	if off[len(off)-1] != end {
		return fmt.Errorf("%s ends at %d, want %d", name, off[len(off)-1], end)
	}
	return nil
}

// CheckShape is the cheap structural check Load runs: array lengths
// consistent with n, m and the parameters, and every offset array (group
// starts, heavy matrix starts, light starts, row slot starts, sparse offsets,
// segment bounds) monotone and ending at its array's length. It does not
// look at the arcs; Validate does.
func (l *Layout) CheckShape() error {
	rs := l.refs()
	lens := make([]uint64, len(rs))
	for i, r := range rs {
		lens[i] = r.length()
	}
	if err := checkLengths(l.NumVertices, l.NumArcs, l.Weighted, l.Params, lens); err != nil {
		return fmt.Errorf("layout: %w", err)
	}
	switch {
	case l.WeightKind != graph.Uint32Weights && l.WeightKind != graph.Float32Weights:
		return fmt.Errorf("layout: unknown weight type %d", uint8(l.WeightKind))
	case l.WeightKind == graph.Float32Weights && !l.Weighted:
		return fmt.Errorf("layout: float32 weight type without weights")
	}
	n := l.NumVertices
	if err := checkOffsets("GroupStart", l.GroupStart, n); err != nil {
		return fmt.Errorf("layout: %w", err)
	}
	if err := checkOffsets("HeavyMatrixStart", l.HeavyMatrixStart, uint64(len(l.HeavyMatrix))); err != nil {
		return fmt.Errorf("layout: %w", err)
	}
	t := uint64(l.Params.HeavyColumns)
	for h := range l.HeavyRows {
		if got := l.HeavyMatrixStart[h+1] - l.HeavyMatrixStart[h]; got != uint64(l.HeavyRows[h])*t {
			return fmt.Errorf("layout: heavy block %d: matrix has %d entries, want rows·T = %d·%d", h, got, l.HeavyRows[h], t)
		}
	}
	if err := checkOffsets("LightStart", l.LightStart, uint64(len(l.LightSrc))); err != nil {
		return fmt.Errorf("layout: %w", err)
	}
	if err := checkOffsets("RowSlotStart", l.RowSlotStart, uint64(len(l.SlotDst))); err != nil {
		return fmt.Errorf("layout: %w", err)
	}
	if err := checkOffsets("SparseOffsets", l.SparseOffsets, l.NumArcs); err != nil {
		return fmt.Errorf("layout: %w", err)
	}
	sb := l.SegmentBounds
	if sb[0] != 0 || uint64(sb[len(sb)-1]) != n {
		return fmt.Errorf("layout: SegmentBounds span [%d, %d], want [0, %d]", sb[0], sb[len(sb)-1], n)
	}
	for i := 1; i < len(sb); i++ {
		if sb[i] < sb[i-1] {
			return fmt.Errorf("layout: SegmentBounds decrease at entry %d", i)
		}
	}
	return nil
}
