package preprocess

import (
	"fmt"
	"slices"

	"github.com/mgraph-dev/mgraph/internal/progress"
	"github.com/mgraph-dev/mgraph/layout"
)

// blockInfo is one non-empty block of a row panel found by countBlocks.
type blockInfo struct {
	col   uint32
	dsts  uint32 // destinations with an arc in the block
	edges uint64
}

// forRuns calls fn(c, i, j) for each run row[i:j] of sources in the same
// column panel c (row sorted ascending), with one division per run.
func forRuns(row []uint32, p uint32, fn func(c uint32, i, j int)) {
	for i := 0; i < len(row); {
		c := row[i] / p
		end := uint64(c+1) * uint64(p)
		j := i + 1
		for j < len(row) && uint64(row[j]) < end {
			j++
		}
		fn(c, i, j)
		i = j
	}
}

// countBlocks finds, for every row panel in parallel, its non-empty blocks
// in column order with their edge and destination counts.
func (b *builder) countBlocks(off []uint64, src []uint32, mt *progress.Meter) ([][]blockInfo, error) {
	p := uint64(b.p.PanelSize)
	panels := layout.NumPanelsFor(b.n, b.p.PanelSize)
	rows := make([][]blockInfo, panels)
	type scratch struct {
		edges   []uint64
		dsts    []uint32
		touched []uint32
	}
	scr := make([]*scratch, b.workers)
	dynamicWorkers(int(panels), b.workers, func(w, r int) {
		if b.ctx.Err() != nil {
			return
		}
		s := scr[w]
		if s == nil {
			s = &scratch{edges: make([]uint64, panels), dsts: make([]uint32, panels)}
			scr[w] = s
		}
		lo, hi := uint64(r)*p, min(uint64(r+1)*p, b.n)
		for v := lo; v < hi; v++ {
			forRuns(src[off[v]:off[v+1]], b.p.PanelSize, func(c uint32, i, j int) {
				if s.edges[c] == 0 {
					s.touched = append(s.touched, c)
				}
				s.edges[c] += uint64(j - i)
				s.dsts[c]++
			})
		}
		slices.Sort(s.touched)
		out := make([]blockInfo, len(s.touched))
		for i, c := range s.touched {
			out[i] = blockInfo{col: c, dsts: s.dsts[c], edges: s.edges[c]}
			s.edges[c], s.dsts[c] = 0, 0
		}
		s.touched = s.touched[:0]
		rows[r] = out
		mt.Add(int64(off[hi] - off[lo]))
	})
	if err := b.ctx.Err(); err != nil {
		return nil, fmt.Errorf("preprocess: %w", err)
	}
	return rows, nil
}

// densePlan is where every block's data goes.
type densePlan struct {
	rowFirst []int    // R+1: blocks of row panel r are [rowFirst[r], rowFirst[r+1])
	heavyOf  []int32  // per block: heavy index, or -1
	slot     []uint64 // per block: first stream slot
	lightPos []uint64 // per light block: first index in the light arrays
}

// planDense lays out the block list, the heavy blocks, the stream slots and
// the light edge positions, and allocates the dense arrays.
func (b *builder) planDense(rows [][]blockInfo) (*densePlan, error) {
	l := b.l
	panels := uint64(len(rows))
	t := b.p.HeavyColumns
	var nb int
	for _, r := range rows {
		nb += len(r)
	}
	plan := &densePlan{rowFirst: make([]int, panels+1), heavyOf: make([]int32, nb), slot: make([]uint64, nb), lightPos: make([]uint64, nb)}
	l.BlockRow = make([]uint32, 0, nb)
	l.BlockCol = make([]uint32, 0, nb)
	l.BlockEdges = make([]uint64, 0, nb)
	l.BlockHeavy = make([]uint8, 0, nb)
	l.RowSlotStart = make([]uint64, panels+1)
	l.LightStart = make([]uint64, panels+1)
	l.HeavyMatrixStart = []uint64{0}
	var slots, matrix uint64
	for r, blocks := range rows {
		plan.rowFirst[r] = len(l.BlockRow)
		l.RowSlotStart[r] = slots
		// Heavy blocks' slots first, in column order.
		for _, bi := range blocks {
			bx := len(l.BlockRow)
			heavy := bi.edges > b.p.HeavyThreshold
			l.BlockRow = append(l.BlockRow, uint32(r))
			l.BlockCol = append(l.BlockCol, bi.col)
			l.BlockEdges = append(l.BlockEdges, bi.edges)
			plan.heavyOf[bx] = -1
			if !heavy {
				l.BlockHeavy = append(l.BlockHeavy, 0)
				l.LightStart[bi.col] += bi.edges
				continue
			}
			l.BlockHeavy = append(l.BlockHeavy, 1)
			rowsH := layout.HeavyRowsFor(t, bi.edges, bi.dsts)
			if rowsH > 1<<32-1 {
				return nil, fmt.Errorf("preprocess: heavy block (%d, %d) needs %d matrix rows: %w", r, bi.col, rowsH, ErrTooLarge)
			}
			plan.heavyOf[bx] = int32(len(l.HeavyRow))
			plan.slot[bx] = slots
			l.HeavyRow = append(l.HeavyRow, uint32(r))
			l.HeavyCol = append(l.HeavyCol, bi.col)
			l.HeavyRows = append(l.HeavyRows, uint32(rowsH))
			l.HeavyNumDst = append(l.HeavyNumDst, bi.dsts)
			l.HeavySlot = append(l.HeavySlot, slots)
			matrix += rowsH * uint64(t)
			l.HeavyMatrixStart = append(l.HeavyMatrixStart, matrix)
			slots += uint64(bi.dsts)
		}
		// Then the light blocks' edges, in column order.
		for bx := plan.rowFirst[r]; bx < len(l.BlockRow); bx++ {
			if plan.heavyOf[bx] < 0 {
				plan.slot[bx] = slots
				slots += l.BlockEdges[bx]
			}
		}
		if slots > layout.MaxSlots {
			return nil, fmt.Errorf("preprocess: more than %d stream slots: %w", uint64(layout.MaxSlots), ErrTooLarge)
		}
	}
	plan.rowFirst[panels] = len(l.BlockRow)
	l.RowSlotStart[panels] = slots
	totalLight := layoutScan(l.LightStart)
	// Light positions: column-major over the light blocks (rows ascending
	// inside a column, which row-major iteration gives).
	cursor := slices.Clone(l.LightStart[:panels])
	for bx := range l.BlockRow {
		if plan.heavyOf[bx] < 0 {
			c := l.BlockCol[bx]
			plan.lightPos[bx] = cursor[c]
			cursor[c] += l.BlockEdges[bx]
		}
	}
	l.HeavyMatrix = make([]int16, matrix)
	l.LightSrc = make([]uint16, totalLight)
	l.LightSlot = make([]uint32, totalLight)
	if l.Weighted {
		l.HeavyWeights = make([]uint32, matrix)
		l.LightWeights = make([]uint32, totalLight)
	}
	l.SlotDst = make([]uint16, slots)
	return plan, nil
}

// layoutScan turns counts (the last entry ignored and overwritten) into
// offsets and returns the total.
func layoutScan(off []uint64) uint64 {
	var sum uint64
	for i := 0; i < len(off)-1; i++ {
		x := off[i]
		off[i] = sum
		sum += x
	}
	off[len(off)-1] = sum
	return sum
}

// blockState is the fill cursor of one block of a row panel.
type blockState struct {
	heavy  bool
	pos    uint64 // next light edge index
	slot   uint64 // next light slot, or the heavy block's first slot
	k      int    // heavy: destinations placed so far
	filler layout.HeavyFiller
}

// fillDense writes the heavy matrices, the light edges and the slot map,
// one row panel at a time in parallel; every row panel writes its own
// precomputed ranges, so the result does not depend on scheduling.
func (b *builder) fillDense(plan *densePlan, off []uint64, src, w []uint32, mt *progress.Meter) error {
	l := b.l
	p := uint64(b.p.PanelSize)
	t := b.p.HeavyColumns
	panels := len(plan.rowFirst) - 1
	type scratch struct {
		colBlock []int32
		states   []blockState
	}
	scr := make([]*scratch, b.workers)
	errs := make([]error, panels)
	dynamicWorkers(panels, b.workers, func(wk, r int) {
		if b.ctx.Err() != nil {
			return
		}
		s := scr[wk]
		if s == nil {
			s = &scratch{colBlock: make([]int32, panels)}
			scr[wk] = s
		}
		first, last := plan.rowFirst[r], plan.rowFirst[r+1]
		s.states = s.states[:0]
		for bx := first; bx < last; bx++ {
			st := blockState{slot: plan.slot[bx], pos: plan.lightPos[bx]}
			if h := plan.heavyOf[bx]; h >= 0 {
				st.heavy = true
				lo, hi := l.HeavyMatrixStart[h], l.HeavyMatrixStart[h+1]
				var hw []uint32
				if l.Weighted {
					hw = l.HeavyWeights[lo:hi]
				}
				st.filler = layout.NewHeavyFiller(l.HeavyMatrix[lo:hi], hw, l.HeavyRows[h], t)
			}
			s.states = append(s.states, st)
			s.colBlock[l.BlockCol[bx]] = int32(bx - first)
		}
		ok := true
		rlo, rhi := uint64(r)*p, min(uint64(r+1)*p, b.n)
		for v := rlo; v < rhi; v++ {
			ld := uint16(v - rlo)
			row := src[off[v]:off[v+1]]
			base := off[v]
			forRuns(row, b.p.PanelSize, func(c uint32, i, j int) {
				st := &s.states[s.colBlock[c]]
				cbase := c * uint32(p)
				if st.heavy {
					l.SlotDst[st.slot+uint64(st.k)] = ld
					ok = st.filler.Dest(st.k) && ok
					st.k++
					for x := i; x < j; x++ {
						var wt uint32
						if w != nil {
							wt = w[base+uint64(x)]
						}
						ok = st.filler.Source(uint16(row[x]-cbase), wt) && ok
					}
					return
				}
				for x := i; x < j; x++ {
					l.LightSrc[st.pos] = uint16(row[x] - cbase)
					l.LightSlot[st.pos] = uint32(st.slot)
					if w != nil {
						l.LightWeights[st.pos] = w[base+uint64(x)]
					}
					l.SlotDst[st.slot] = ld
					st.pos++
					st.slot++
				}
			})
		}
		if !ok {
			errs[r] = fmt.Errorf("preprocess: internal error: a heavy matrix of row panel %d overflowed", r)
		}
		mt.Add(int64(off[rhi] - off[rlo]))
	})
	if err := b.ctx.Err(); err != nil {
		return fmt.Errorf("preprocess: %w", err)
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
