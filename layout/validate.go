package layout

import (
	"fmt"

	"github.com/mgraph-dev/mgraph/graph"
)

// Validate checks every invariant of docs/layout.md and, when el is not
// nil, that the layout is the one of el: the permutation is a bijection that
// orders vertices by in-degree group (then original id); the dense part
// (heavy matrices decoded through markers and slots, light edges through
// their slots) and the sparse part each reproduce el's arcs exactly, with
// weights, in the contract's order (ties in input order); stream slots are
// unique and dense; heavy matrices are the canonical fill; segment splits
// point at the first arc of each segment.
//
// With el == nil only the checks that need no input run. Errors name what
// is wrong and where (block, heavy block, matrix entry, slot, vertex in new
// and old ids). Validate never panics on a malformed layout.
func Validate(l *Layout, el *graph.EdgeList) error {
	if l == nil {
		return fmt.Errorf("layout: nil layout")
	}
	if err := l.CheckShape(); err != nil {
		return err
	}
	v := &validator{l: l, n: l.NumVertices, p: uint64(l.Params.PanelSize), panels: l.NumPanels()}
	if el != nil {
		if err := el.Validate(); err != nil {
			return fmt.Errorf("layout: input graph: %w", err)
		}
		if el.NumVertices != l.NumVertices || el.NumArcs() != l.NumArcs {
			return fmt.Errorf("layout: built for %d vertices and %d arcs, the input has %d and %d",
				l.NumVertices, l.NumArcs, el.NumVertices, el.NumArcs())
		}
		if el.Weighted() != l.Weighted {
			return fmt.Errorf("layout: weighted=%v but the input graph weighted=%v", l.Weighted, el.Weighted())
		}
		if el.Weighted() && el.WeightKind != l.WeightKind {
			return fmt.Errorf("layout: weight type %v but the input graph's is %v", l.WeightKind, el.WeightKind)
		}
	}
	if err := v.permutation(el); err != nil {
		return err
	}
	var csc *graph.CSC
	var csr *graph.CSR
	if el != nil {
		csc, csr = expected(el, l.Perm)
	}
	if err := v.dense(csc); err != nil {
		return err
	}
	return v.sparse(csr)
}

type validator struct {
	l         *Layout
	n, p      uint64
	panels    uint64
	slotOwner []uint8 // 1 once a slot has been claimed
}

// old returns the original id of new vertex v for messages.
func (v *validator) old(x uint64) uint64 {
	if x < uint64(len(v.l.InvPerm)) {
		return uint64(v.l.InvPerm[x])
	}
	return x
}

// vtx formats new vertex x with its original id.
func (v *validator) vtx(x uint64) string { return fmt.Sprintf("%d (old %d)", x, v.old(x)) }

// expected returns el in new ids as the in-adjacency with every row sorted
// by source and the out-adjacency with every row sorted by destination
// (ties in input order in both), the two orders the layout must reproduce.
func expected(el *graph.EdgeList, perm []uint32) (*graph.CSC, *graph.CSR) {
	pel := &graph.EdgeList{NumVertices: el.NumVertices, Src: make([]uint32, len(el.Src)), Dst: make([]uint32, len(el.Dst)), Weights: el.Weights, Directed: el.Directed}
	for i := range el.Src {
		pel.Src[i] = perm[el.Src[i]]
		pel.Dst[i] = perm[el.Dst[i]]
	}
	bySrc := graph.ToCSR(pel, 0).EdgeList(0) // ordered by source, ties input order
	csc := graph.ToCSC(bySrc, 0)             // rows by destination, sorted by source
	csr := graph.ToCSR(csc.EdgeList(0), 0)   // rows by source, sorted by destination
	return csc, csr
}

func (v *validator) permutation(el *graph.EdgeList) error {
	l, n := v.l, v.n
	for old := uint64(0); old < n; old++ {
		nw := uint64(l.Perm[old])
		if nw >= n {
			return fmt.Errorf("layout: permutation: Perm[%d] = %d is not a vertex (n = %d)", old, nw, n)
		}
		if uint64(l.InvPerm[nw]) != old {
			return fmt.Errorf("layout: permutation is not a bijection: Perm[%d] = %d but InvPerm[%d] = %d", old, nw, nw, l.InvPerm[nw])
		}
	}
	var indeg []uint64
	if el != nil {
		indeg = el.InDegrees(0)
	}
	for g := 0; g+1 < len(l.GroupStart); g++ {
		lo, hi := l.GroupStart[g], l.GroupStart[g+1]
		for x := lo; x < hi; x++ {
			if x > lo && l.InvPerm[x] <= l.InvPerm[x-1] {
				return fmt.Errorf("layout: group %d: vertex %s comes after old %d; a group must keep original order", g+1, v.vtx(x), l.InvPerm[x-1])
			}
			if indeg != nil {
				d := indeg[l.InvPerm[x]]
				if got := l.Params.Group(d); got != g {
					return fmt.Errorf("layout: vertex %s has in-degree %d (group %d) but is numbered in group %d", v.vtx(x), d, got+1, g+1)
				}
			}
		}
	}
	return nil
}

// claim marks a stream slot used, failing when it was used before.
func (v *validator) claim(slot uint64, what string) error {
	if slot >= uint64(len(v.slotOwner)) {
		return fmt.Errorf("layout: %s: slot %d outside the %d stream slots", what, slot, len(v.slotOwner))
	}
	if v.slotOwner[slot] != 0 {
		return fmt.Errorf("layout: %s: stream slot %d is used twice", what, slot)
	}
	v.slotOwner[slot] = 1
	return nil
}

// rowPanelSize returns the number of vertices in panel r.
func (v *validator) rowPanelSize(r uint64) uint64 { return min(v.p, v.n-r*v.p) }

// arcChecker compares the dense part's arcs with the expected in-adjacency:
// the arcs of each destination must arrive in row order, block by block.
type arcChecker struct {
	v      *validator
	csc    *graph.CSC
	cursor []uint64 // next expected position of each destination's row
}

func (a *arcChecker) arc(where string, dst, src uint64, w uint32) error {
	if a == nil {
		return nil
	}
	row := a.csc.Offsets
	pos := a.cursor[dst]
	if pos >= row[dst+1] {
		return fmt.Errorf("layout: dense part, %s: arc %s→%s is extra: the input has only %d arcs into %s",
			where, a.v.vtx(src), a.v.vtx(dst), row[dst+1]-row[dst], a.v.vtx(dst))
	}
	wantSrc := uint64(a.csc.Neighbors[pos])
	var wantW uint32
	if a.csc.Weights != nil {
		wantW = a.csc.Weights[pos]
	}
	if wantSrc != src || wantW != w {
		return fmt.Errorf("layout: dense part, %s: arc %s→%s (weight %d) found where the input's next arc into %s is from %s (weight %d)",
			where, a.v.vtx(src), a.v.vtx(dst), w, a.v.vtx(dst), a.v.vtx(wantSrc), wantW)
	}
	a.cursor[dst] = pos + 1
	return nil
}

func (a *arcChecker) finish() error {
	if a == nil {
		return nil
	}
	for d := uint64(0); d < a.v.n; d++ {
		if a.cursor[d] != a.csc.Offsets[d+1] {
			pos := a.cursor[d]
			return fmt.Errorf("layout: dense part misses arc %s→%s: it holds %d of the %d arcs into %s",
				a.v.vtx(uint64(a.csc.Neighbors[pos])), a.v.vtx(d), pos-a.csc.Offsets[d], a.csc.Offsets[d+1]-a.csc.Offsets[d], a.v.vtx(d))
		}
	}
	return nil
}

func (v *validator) dense(csc *graph.CSC) error {
	l := v.l
	var chk *arcChecker
	if csc != nil {
		chk = &arcChecker{v: v, csc: csc, cursor: append([]uint64(nil), csc.Offsets[:v.n]...)}
	}
	panels := v.panels
	nb := len(l.BlockRow)
	// Block list: row-major, distinct, in range, kind by threshold.
	h := 0
	var total uint64 // edges of the blocks so far
	for b := 0; b < nb; b++ {
		r, c := uint64(l.BlockRow[b]), uint64(l.BlockCol[b])
		if r >= panels || c >= panels {
			return fmt.Errorf("layout: block %d is (%d, %d), outside the %d×%d panels", b, r, c, panels, panels)
		}
		if b > 0 {
			pr, pc := uint64(l.BlockRow[b-1]), uint64(l.BlockCol[b-1])
			if r < pr || (r == pr && c <= pc) {
				return fmt.Errorf("layout: block %d (%d, %d) is not after block %d (%d, %d) in row-major order", b, r, c, b-1, pr, pc)
			}
		}
		e := l.BlockEdges[b]
		if e == 0 {
			return fmt.Errorf("layout: block %d (%d, %d) is listed but has no edges", b, r, c)
		}
		if e > l.NumArcs-total {
			return fmt.Errorf("layout: block %d (%d, %d) has %d edges; with the blocks before it that is more than the graph's %d arcs", b, r, c, e, l.NumArcs)
		}
		total += e
		heavy := e > l.Params.HeavyThreshold
		switch {
		case l.BlockHeavy[b] > 1:
			return fmt.Errorf("layout: block %d (%d, %d): BlockHeavy is %d, want 0 or 1", b, r, c, l.BlockHeavy[b])
		case heavy != (l.BlockHeavy[b] == 1):
			return fmt.Errorf("layout: block %d (%d, %d) has %d edges (threshold %d) but BlockHeavy = %d", b, r, c, e, l.Params.HeavyThreshold, l.BlockHeavy[b])
		}
		if heavy {
			if h >= len(l.HeavyRow) {
				return fmt.Errorf("layout: block %d (%d, %d) is heavy but the heavy list has only %d blocks", b, r, c, len(l.HeavyRow))
			}
			if uint64(l.HeavyRow[h]) != r || uint64(l.HeavyCol[h]) != c {
				return fmt.Errorf("layout: heavy block %d is (%d, %d), but the %d-th heavy block of the block list is (%d, %d)", h, l.HeavyRow[h], l.HeavyCol[h], h, r, c)
			}
			h++
		}
	}
	if h != len(l.HeavyRow) {
		return fmt.Errorf("layout: the heavy list has %d blocks, the block list %d heavy ones", len(l.HeavyRow), h)
	}
	if total != l.NumArcs {
		return fmt.Errorf("layout: the dense blocks hold %d edges, the graph has %d arcs", total, l.NumArcs)
	}

	// Stream slots: per row panel, heavy blocks' slots then light blocks'.
	v.slotOwner = make([]uint8, len(l.SlotDst))
	lightSlot := make([]uint64, nb) // first slot of each light block
	b, h := 0, 0
	for r := uint64(0); r < panels; r++ {
		pos := l.RowSlotStart[r]
		first := b
		for ; b < nb && uint64(l.BlockRow[b]) == r; b++ {
			if l.BlockHeavy[b] == 1 {
				if l.HeavySlot[h] != pos {
					return fmt.Errorf("layout: heavy block %d (%d, %d): first slot %d, want %d (heavy slots come first in a row panel, in column order)", h, r, l.BlockCol[b], l.HeavySlot[h], pos)
				}
				d := uint64(l.HeavyNumDst[h])
				if d == 0 || d > v.rowPanelSize(r) || d > l.BlockEdges[b] {
					return fmt.Errorf("layout: heavy block %d (%d, %d) has %d destinations; want 1..min(%d panel rows, %d edges)", h, r, l.BlockCol[b], d, v.rowPanelSize(r), l.BlockEdges[b])
				}
				if pos+d > l.RowSlotStart[r+1] {
					return fmt.Errorf("layout: heavy block %d (%d, %d): slots [%d, %d) run past row panel %d's slots [%d, %d)", h, r, l.BlockCol[b], pos, pos+d, r, l.RowSlotStart[r], l.RowSlotStart[r+1])
				}
				pos += d
				h++
			}
		}
		for bb := first; bb < b; bb++ {
			if l.BlockHeavy[bb] == 0 {
				lightSlot[bb] = pos
				pos += l.BlockEdges[bb]
			}
		}
		if pos != l.RowSlotStart[r+1] {
			return fmt.Errorf("layout: row panel %d: its blocks need %d slots but RowSlotStart gives it %d", r, pos-l.RowSlotStart[r], l.RowSlotStart[r+1]-l.RowSlotStart[r])
		}
	}
	if b != nb {
		return fmt.Errorf("layout: block %d lies in no row panel", b)
	}
	// Light storage: by column panel, row panels ascending inside.
	lightPos := make([]uint64, nb)
	byCol := make([][]int, panels)
	for bb := 0; bb < nb; bb++ {
		if l.BlockHeavy[bb] == 0 {
			c := l.BlockCol[bb]
			byCol[c] = append(byCol[c], bb)
		}
	}
	for c := uint64(0); c < panels; c++ {
		pos := l.LightStart[c]
		for _, bb := range byCol[c] {
			lightPos[bb] = pos
			pos += l.BlockEdges[bb]
		}
		if pos != l.LightStart[c+1] {
			return fmt.Errorf("layout: column panel %d: its light blocks have %d edges but LightStart gives it %d", c, pos-l.LightStart[c], l.LightStart[c+1]-l.LightStart[c])
		}
	}

	// Walk the blocks in row-major order, heavy and light, and compare arcs.
	h = 0
	var decoded []heavyArc
	for bb := 0; bb < nb; bb++ {
		r, c := uint64(l.BlockRow[bb]), uint64(l.BlockCol[bb])
		if l.BlockHeavy[bb] == 1 {
			var err error
			decoded, err = v.heavyBlock(h, bb, decoded[:0], chk)
			if err != nil {
				return err
			}
			h++
			continue
		}
		where := func(i uint64) string {
			return fmt.Sprintf("light block %d (%d, %d), edge %d (LightSrc index %d)", bb, r, c, i, lightPos[bb]+i)
		}
		var prevDst, prevSrc uint64
		for i := uint64(0); i < l.BlockEdges[bb]; i++ {
			idx := lightPos[bb] + i
			if idx >= uint64(len(l.LightSrc)) {
				return fmt.Errorf("layout: %s: past the %d light edges", where(i), len(l.LightSrc))
			}
			slot := uint64(l.LightSlot[idx])
			if want := lightSlot[bb] + i; slot != want {
				return fmt.Errorf("layout: %s: slot %d, want %d (a light block's slots follow its edges in order)", where(i), slot, want)
			}
			if err := v.claim(slot, where(i)); err != nil {
				return err
			}
			ld, ls := uint64(l.SlotDst[slot]), uint64(l.LightSrc[idx])
			if ld >= v.rowPanelSize(r) {
				return fmt.Errorf("layout: %s: slot %d's destination %d is outside row panel %d (%d rows)", where(i), slot, ld, r, v.rowPanelSize(r))
			}
			if ls >= v.rowPanelSize(c) {
				return fmt.Errorf("layout: %s: source %d is outside column panel %d (%d columns)", where(i), ls, c, v.rowPanelSize(c))
			}
			dst, src := r*v.p+ld, c*v.p+ls
			if i > 0 && (dst < prevDst || (dst == prevDst && src < prevSrc)) {
				return fmt.Errorf("layout: %s: arc %s→%s is out of (destination, source) order", where(i), v.vtx(src), v.vtx(dst))
			}
			prevDst, prevSrc = dst, src
			var w uint32
			if l.Weighted {
				w = l.LightWeights[idx]
			}
			if err := chk.arc(where(i), dst, src, w); err != nil {
				return err
			}
		}
	}
	for s, used := range v.slotOwner {
		if used == 0 {
			return fmt.Errorf("layout: stream slot %d is never written (slots must be dense)", s)
		}
	}
	return chk.finish()
}

// heavyArc is one decoded (destination index, local source, weight) entry.
type heavyArc struct {
	k   uint32
	src uint16
	w   uint32
}

// heavyBlock decodes heavy block h (block index b), checks the matrix
// grammar, compares it with the canonical fill and feeds its arcs to chk.
func (v *validator) heavyBlock(h, b int, arcs []heavyArc, chk *arcChecker) ([]heavyArc, error) {
	l := v.l
	r, c := uint64(l.HeavyRow[h]), uint64(l.HeavyCol[h])
	t := l.Params.HeavyColumns
	rows := l.HeavyRows[h]
	d := l.HeavyNumDst[h]
	e := l.BlockEdges[b]
	name := fmt.Sprintf("heavy block %d (%d, %d)", h, r, c)
	if want := HeavyRowsFor(t, e, d); uint64(rows) != want {
		return arcs, fmt.Errorf("layout: %s: %d rows, want ceil((T + edges + D) / T) = ceil((%d + %d + %d) / %d) = %d", name, rows, t, e, d, t, want)
	}
	start := l.HeavyMatrixStart[h]
	mat := l.HeavyMatrix[start : start+uint64(rows)*uint64(t)]
	var wts []uint32
	if l.Weighted {
		wts = l.HeavyWeights[start : start+uint64(rows)*uint64(t)]
	}
	entry := func(i, j uint32) string { return fmt.Sprintf("%s, entry (row %d, column %d)", name, i, j) }
	cur := int64(-1) // current destination index
	pending := false // a marker not yet followed by a source
	padding := false // Invalid seen: only Invalid may follow
	panelCols := v.rowPanelSize(c)
	for j := uint32(0); j < t; j++ {
		for i := uint32(0); i < rows; i++ {
			p := uint64(i)*uint64(t) + uint64(j)
			x := mat[p]
			var w uint32
			if wts != nil {
				w = wts[p]
			}
			switch {
			case x == Invalid:
				if pending {
					return arcs, fmt.Errorf("layout: %s: padding right after the marker of destination %d, which has no sources", entry(i, j), cur)
				}
				padding = true
				if w != 0 {
					return arcs, fmt.Errorf("layout: %s: padding carries weight %d, want 0", entry(i, j), w)
				}
			case padding:
				return arcs, fmt.Errorf("layout: %s: value %d after padding began (the fill is column-major with padding only at the end)", entry(i, j), x)
			case x < 0:
				k := int64(-x) - 1
				if w != 0 {
					return arcs, fmt.Errorf("layout: %s: marker carries weight %d, want 0", entry(i, j), w)
				}
				if k >= int64(d) {
					return arcs, fmt.Errorf("layout: %s: marker %d names destination %d, but the block has %d destinations", entry(i, j), x, k, d)
				}
				repeat := i == 0 && j > 0 && k == cur
				if !repeat {
					if k != cur+1 {
						return arcs, fmt.Errorf("layout: %s: marker for destination %d follows destination %d (markers must count up; a repeat is only allowed at the top of a column)", entry(i, j), k, cur)
					}
					if pending {
						return arcs, fmt.Errorf("layout: %s: destination %d has no sources before the next marker", entry(i, j), cur)
					}
				}
				cur, pending = k, true
			default:
				if i == 0 {
					return arcs, fmt.Errorf("layout: %s: column %d starts with source %d, not with a destination marker", entry(i, j), j, x)
				}
				if cur < 0 {
					return arcs, fmt.Errorf("layout: %s: source before any destination marker", entry(i, j))
				}
				if uint64(x) >= panelCols {
					return arcs, fmt.Errorf("layout: %s: source %d is outside column panel %d (%d columns)", entry(i, j), x, c, panelCols)
				}
				arcs = append(arcs, heavyArc{k: uint32(cur), src: uint16(x), w: w})
				pending = false
			}
		}
	}
	if pending {
		return arcs, fmt.Errorf("layout: %s: the last destination %d has no sources", name, cur)
	}
	if cur+1 != int64(d) {
		return arcs, fmt.Errorf("layout: %s: the matrix holds %d destinations, HeavyNumDst says %d", name, cur+1, d)
	}
	if uint64(len(arcs)) != e {
		return arcs, fmt.Errorf("layout: %s: the matrix holds %d edges, BlockEdges says %d", name, len(arcs), e)
	}
	// Destinations and their slots.
	slot0 := l.HeavySlot[h]
	for k := uint64(0); k < uint64(d); k++ {
		s := slot0 + k
		if err := v.claim(s, fmt.Sprintf("%s, destination %d", name, k)); err != nil {
			return arcs, err
		}
		ld := uint64(l.SlotDst[s])
		if ld >= v.rowPanelSize(r) {
			return arcs, fmt.Errorf("layout: %s: destination %d (slot %d) is local row %d, outside row panel %d (%d rows)", name, k, s, ld, r, v.rowPanelSize(r))
		}
		if k > 0 && ld <= uint64(l.SlotDst[s-1]) {
			return arcs, fmt.Errorf("layout: %s: destination %d (slot %d, local row %d) does not come after destination %d (local row %d)", name, k, s, ld, k-1, l.SlotDst[s-1])
		}
	}
	// Arc order and comparison with the input.
	for i, a := range arcs {
		if i > 0 && a.k == arcs[i-1].k && a.src < arcs[i-1].src {
			return arcs, fmt.Errorf("layout: %s: destination %d's sources are not sorted (%d after %d)", name, a.k, a.src, arcs[i-1].src)
		}
		dst := r*v.p + uint64(l.SlotDst[slot0+uint64(a.k)])
		src := c*v.p + uint64(a.src)
		if err := chk.arc(fmt.Sprintf("%s, destination %d", name, a.k), dst, src, a.w); err != nil {
			return arcs, err
		}
	}
	// The canonical fill of the same arcs must give the same matrix.
	want := make([]int16, len(mat))
	var wantW []uint32
	if wts != nil {
		wantW = make([]uint32, len(mat))
	}
	f := NewHeavyFiller(want, wantW, rows, t)
	for i, a := range arcs {
		if i == 0 || a.k != arcs[i-1].k {
			f.Dest(int(a.k))
		}
		f.Source(a.src, a.w)
	}
	for p := range want {
		if want[p] != mat[p] {
			i, j := uint32(p/int(t)), uint32(p%int(t))
			return arcs, fmt.Errorf("layout: %s: entry is %d, the canonical column-major fill has %d there", entry(i, j), mat[p], want[p])
		}
	}
	return arcs, nil
}

func (v *validator) sparse(csr *graph.CSR) error {
	l, n := v.l, v.n
	for x := uint64(0); x < n; x++ {
		lo, hi := l.SparseOffsets[x], l.SparseOffsets[x+1]
		if hi-lo >= 1<<32 {
			return fmt.Errorf("layout: sparse part: vertex %s has %d out-arcs; at most 2^32-1 are supported", v.vtx(x), hi-lo)
		}
		for i := lo; i < hi; i++ {
			dst := uint64(l.SparseDst[i])
			if dst >= n {
				return fmt.Errorf("layout: sparse part: arc %d of vertex %s points to %d, not a vertex", i-lo, v.vtx(x), dst)
			}
			if i > lo && dst < uint64(l.SparseDst[i-1]) {
				return fmt.Errorf("layout: sparse part: row of vertex %s is not sorted by destination at arc %d", v.vtx(x), i-lo)
			}
		}
		if csr == nil {
			continue
		}
		if want := csr.Offsets[x+1] - csr.Offsets[x]; hi-lo != want {
			return fmt.Errorf("layout: sparse part: vertex %s has %d out-arcs, the input has %d", v.vtx(x), hi-lo, want)
		}
		base := csr.Offsets[x]
		for i := lo; i < hi; i++ {
			wantDst := csr.Neighbors[base+i-lo]
			var w, wantW uint32
			if l.Weighted {
				w, wantW = l.SparseWeights[i], csr.Weights[base+i-lo]
			}
			if l.SparseDst[i] != wantDst || w != wantW {
				return fmt.Errorf("layout: sparse part: arc %d of vertex %s is →%s (weight %d), the input's is →%s (weight %d)",
					i-lo, v.vtx(x), v.vtx(uint64(l.SparseDst[i])), w, v.vtx(uint64(wantDst)), wantW)
			}
		}
	}
	// Segments.
	high := l.GroupStart[l.Params.HighGroups]
	seg := uint64(l.Params.SegmentSize)
	nhs := (high + seg - 1) / seg
	if uint64(l.NumHighSegments()) != nhs {
		return fmt.Errorf("layout: sparse part: %d high segments, want ceil(%d high vertices / %d) = %d", l.NumHighSegments(), high, seg, nhs)
	}
	for s := uint64(1); s <= nhs; s++ {
		if want := min(s*seg, high); uint64(l.SegmentBounds[s]) != want {
			return fmt.Errorf("layout: sparse part: segment %d starts at %d, want %d", s, l.SegmentBounds[s], want)
		}
	}
	for s := uint64(1); s <= nhs; s++ {
		bound := l.SegmentBounds[s]
		for x := uint64(0); x < n; x++ {
			lo, hi := l.SparseOffsets[x], l.SparseOffsets[x+1]
			sp := uint64(l.SegmentSplit[(s-1)*n+x])
			if sp > hi-lo {
				return fmt.Errorf("layout: sparse part: SegmentSplit of segment %d, vertex %s is %d, past its %d arcs", s, v.vtx(x), sp, hi-lo)
			}
			if (sp > 0 && l.SparseDst[lo+sp-1] >= bound) || (lo+sp < hi && l.SparseDst[lo+sp] < bound) {
				return fmt.Errorf("layout: sparse part: SegmentSplit of segment %d, vertex %s is %d, not its first arc to a destination ≥ %d", s, v.vtx(x), sp, bound)
			}
		}
	}
	return nil
}
