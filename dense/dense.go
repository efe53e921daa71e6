// Package dense is MultiGraphD on the CPU (MultiGraph §4): the two-phase
// streaming step over the dense part of a layout (docs/layout.md).
//
// Each Step first stages every source's masked contribution once (the CPU
// analogue of Algorithm 1 and 2 bringing the frontier values and active
// flags into shared memory: inactive sources become the combine's identity),
// then runs
//
//   - phase 1: one work unit per heavy block, which walks its frontier
//     matrix row by row (the matrix is row-major and filled column-major, so
//     this reads memory sequentially while keeping one running accumulator
//     per matrix column), merges each column's run into a block-local array
//     of D accumulators when the column meets a destination marker, and
//     writes the D partials to the block's stream slots; and one work unit
//     per light column panel, which writes each light edge's contribution
//     straight to its stream slot (no atomics: every slot has one writer);
//   - phase 2: one work unit per row panel, which folds the panel's
//     contiguous stream slots into a panel-local accumulator array and
//     applies the program to every vertex of the panel.
//
// Work units are handed to a pool of goroutines dynamically, largest first.
// The inner loops are specialised on the program's (EdgeOp, CombineOp)
// outside the loops, so no function is called per edge.
package dense

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// Phase names reported by Step.
const (
	PhaseOne = "dense-phase1"
	PhaseTwo = "dense-phase2"
)

// accSize is the length of the fixed-size arrays indexed by panel-local
// indices: every such index is below layout.MaxPanelSize+1 = 2^15, so
// masking an index with accMask proves it in range and the hot loops run
// without bounds checks. Entry dummy (2^15-1) is never a real destination
// of a heavy block (D ≤ P ≤ 2^15-1) and absorbs the flushes that padding
// entries trigger.
const (
	accSize = layout.MaxPanelSize + 1
	accMask = accSize - 1
	dummy   = accSize - 1
)

// Engine runs MultiGraphD steps over one layout. It holds the stream buffer
// and all scratch memory, allocated once by New, so steps allocate nothing
// per edge. An Engine is not safe for concurrent use: run one Step or
// Estimate at a time.
type Engine[V engine.Value] struct {
	l       *layout.Layout
	workers int
	p       int // panel size
	t       int // heavy columns

	stream []V     // one entry per stream slot
	stage  []V     // masked contributions, C·P + accSize entries
	act    []uint8 // staged active flags, only for sum with weights
	ws     []worker[V]

	heavyLight []int // phase-1 units, largest first: h ≥ 0 heavy block, -(c+1) light panel
	rowUnits   []int // phase-2 units (row panels), largest first

	scratch []V // Estimate's light-edge target, allocated on first use
}

// worker is one goroutine's scratch memory.
type worker[V engine.Value] struct {
	acc   *[accSize]V // block-local (phase 1) or panel-local (phase 2) accumulators
	reg   []V         // one running accumulator per heavy-matrix column
	dst   []uint16    // the destination each column is accumulating for
	count uint64      // vertices made active (phase 2)
	_     [64]byte    // keep workers' counters on separate cache lines
}

// New prepares an engine for layout l with the given number of goroutines
// (0 means GOMAXPROCS). It allocates the stream buffer (l.NumSlots()
// values), the staging buffer (about n values) and per-worker scratch.
func New[V engine.Value](l *layout.Layout, workers int) (*Engine[V], error) {
	if l == nil {
		return nil, errors.New("dense: nil layout")
	}
	if err := l.Params.Validate(); err != nil {
		return nil, fmt.Errorf("dense: %w", err)
	}
	if err := checkShape(l); err != nil {
		return nil, err
	}
	w := par.Workers(workers)
	e := &Engine[V]{
		l:       l,
		workers: w,
		p:       int(l.Params.PanelSize),
		t:       int(l.Params.HeavyColumns),
	}
	c := int(l.NumPanels())
	e.stream = make([]V, l.NumSlots())
	e.stage = make([]V, c*e.p+accSize)
	if l.Weighted {
		e.act = make([]uint8, c*e.p+accSize) // used by sum programs with weights
	}
	e.ws = make([]worker[V], w)
	for i := range e.ws {
		e.ws[i].acc = new([accSize]V)
		e.ws[i].reg = make([]V, e.t)
		e.ws[i].dst = make([]uint16, e.t)
	}
	e.heavyLight, e.rowUnits = e.units()
	return e, nil
}

// checkShape verifies the array lengths the engine indexes (a layout from
// preprocess.Build or layout.Load always passes).
func checkShape(l *layout.Layout) error {
	n := l.NumVertices
	c := l.NumPanels()
	h := len(l.HeavyRow)
	switch {
	case n > layout.MaxVertices:
		return fmt.Errorf("dense: %d vertices; at most %d", n, uint64(layout.MaxVertices))
	case len(l.HeavyCol) != h || len(l.HeavyRows) != h || len(l.HeavyNumDst) != h ||
		len(l.HeavySlot) != h || len(l.HeavyMatrixStart) != h+1:
		return errors.New("dense: layout's heavy-block arrays disagree in length")
	case len(l.LightStart) != int(c)+1 && !(c == 0 && len(l.LightStart) <= 1):
		return fmt.Errorf("dense: layout has %d light offsets for %d column panels", len(l.LightStart), c)
	case len(l.RowSlotStart) != int(c)+1 && !(c == 0 && len(l.RowSlotStart) <= 1):
		return fmt.Errorf("dense: layout has %d row-slot offsets for %d row panels", len(l.RowSlotStart), c)
	case len(l.LightSlot) != len(l.LightSrc):
		return errors.New("dense: layout's light arrays disagree in length")
	case l.Weighted && (len(l.LightWeights) != len(l.LightSrc) || len(l.HeavyWeights) != len(l.HeavyMatrix)):
		return errors.New("dense: weighted layout without matching weight arrays")
	case l.NumSlots() > layout.MaxSlots:
		return errors.New("dense: too many stream slots")
	}
	return nil
}

// units lists the work units of both phases, largest first, so that the
// dynamic schedule ends with small units and balances well.
func (e *Engine[V]) units() (phase1, phase2 []int) {
	l := e.l
	type unit struct {
		id   int
		cost uint64
	}
	var u []unit
	for h := range l.HeavyRow {
		u = append(u, unit{h, l.HeavyMatrixStart[h+1] - l.HeavyMatrixStart[h] + uint64(l.HeavyNumDst[h])})
	}
	for c := 0; c+1 < len(l.LightStart); c++ {
		if k := l.LightStart[c+1] - l.LightStart[c]; k > 0 {
			u = append(u, unit{-c - 1, k * 3 / 2}) // scattered writes cost more than matrix entries
		}
	}
	byCost := func(a, b unit) int {
		if a.cost != b.cost {
			if a.cost > b.cost {
				return -1
			}
			return 1
		}
		return a.id - b.id
	}
	slices.SortStableFunc(u, byCost)
	for _, x := range u {
		phase1 = append(phase1, x.id)
	}
	u = u[:0]
	for r := 0; r+1 < len(l.RowSlotStart); r++ {
		u = append(u, unit{r, l.RowSlotStart[r+1] - l.RowSlotStart[r] + uint64(e.p)})
	}
	slices.SortStableFunc(u, byCost)
	for _, x := range u {
		phase2 = append(phase2, x.id)
	}
	return phase1, phase2
}

// Layout returns the layout the engine runs on.
func (e *Engine[V]) Layout() *layout.Layout { return e.l }

// Workers returns the number of goroutines a step uses.
func (e *Engine[V]) Workers() int { return e.workers }

var (
	_ engine.DenseStepper[uint32]  = (*Engine[uint32])(nil)
	_ engine.DenseStepper[float64] = (*Engine[float64])(nil)
)

// kind is the specialisation of the inner loops a program needs.
type kind uint8

const (
	kindMin  kind = iota // min of staged contributions (EdgeSource, EdgeSourcePlusOne)
	kindMinW             // min of staged value + weight (EdgeSourcePlusWeight)
	kindSum              // sum of staged contributions
	kindSumW             // sum of value + weight over active sources
	kindMinF             // min of staged value + float32 weight, on bits (EdgeSourcePlusFloat32Weight)
)

// min reports whether the kind combines by min.
func (k kind) min() bool { return k == kindMin || k == kindMinW || k == kindMinF }

// kindOf checks p against the layout and picks the loop specialisation.
func (e *Engine[V]) kindOf(p engine.Program[V]) (kind, error) {
	if p == nil {
		return 0, errors.New("dense: nil program")
	}
	edge, comb := p.Edge(), p.Combine()
	if !edge.Valid() {
		return 0, fmt.Errorf("dense: unknown edge operation %d", edge)
	}
	if comb > engine.CombineSum {
		return 0, fmt.Errorf("dense: unknown combine operation %d", comb)
	}
	weighted := edge.Weighted()
	if weighted && !e.l.Weighted {
		return 0, errors.New("dense: program adds edge weights but the layout is unweighted")
	}
	if err := engine.CheckProgram(p, e.l); err != nil {
		return 0, fmt.Errorf("dense: %w", err)
	}
	switch {
	case edge == engine.EdgeSourcePlusFloat32Weight: // min over uint32 (CheckProgram)
		return kindMinF, nil
	case comb == engine.CombineMin && !weighted:
		return kindMin, nil
	case comb == engine.CombineMin:
		return kindMinW, nil
	case !weighted:
		return kindSum, nil
	}
	return kindSumW, nil
}

// Step runs one synchronous MultiGraphD iteration (see
// engine.DenseStepper): every source u with active[u] != 0 contributes
// along its arcs, then every vertex is applied (for a program that is not
// ApplyAll, vertices whose combined contribution is the identity are not
// passed to Apply, which the Program contract allows) and next[v] is set to
// 1 or 0. It returns the number of active vertices in next and the times of
// phase 1 (staging included) and phase 2.
func (e *Engine[V]) Step(ctx context.Context, p engine.Program[V], values []V, active, next []uint8) (uint64, []engine.Phase, error) {
	k, err := e.kindOf(p)
	if err != nil {
		return 0, nil, err
	}
	n := e.l.NumVertices
	if uint64(len(values)) != n || uint64(len(active)) != n || uint64(len(next)) != n {
		return 0, nil, fmt.Errorf("dense: step needs %d values and flags, got %d values, %d active, %d next", n, len(values), len(active), len(next))
	}
	if err := ctx.Err(); err != nil {
		return 0, nil, err
	}
	t0 := time.Now()
	id := engine.Identity[V](p.Combine())
	e.stageAll(p.Edge(), k, id, values, active)
	e.run(len(e.heavyLight), func(w, i int) {
		e.phase1Unit(&e.ws[w], e.heavyLight[i], k, id, e.stream, nil)
	})
	t1 := time.Now()
	if err := ctx.Err(); err != nil {
		return 0, nil, err
	}
	for i := range e.ws {
		e.ws[i].count = 0
	}
	applyAll := p.ApplyAll()
	e.run(len(e.rowUnits), func(w, i int) {
		ws := &e.ws[w]
		r := e.rowUnits[i]
		lo, hi := e.fold(ws, r, k, id)
		acc := ws.acc[:hi-lo]
		nx := next[lo:hi]
		var cnt uint64
		for j, a := range acc {
			if !applyAll && a == id {
				nx[j] = 0
				continue
			}
			if p.Apply(uint32(lo+j), a, values) {
				nx[j] = 1
				cnt++
			} else {
				nx[j] = 0
			}
		}
		ws.count += cnt
	})
	t2 := time.Now()
	var total uint64
	for i := range e.ws {
		total += e.ws[i].count
	}
	return total, []engine.Phase{
		{Name: PhaseOne, Seconds: t1.Sub(t0).Seconds()},
		{Name: PhaseTwo, Seconds: t2.Sub(t1).Seconds()},
	}, nil
}

// run hands the work units 0..n-1 to the worker pool dynamically, one at a
// time; fn gets the worker's index and the unit.
func (e *Engine[V]) run(n int, fn func(w, i int)) { par.Each(n, e.workers, fn) }

// stageAll writes every vertex's masked contribution into e.stage (and, for
// sum with weights, the active flags into e.act), in parallel chunks.
func (e *Engine[V]) stageAll(op engine.EdgeOp, k kind, id V, values []V, active []uint8) {
	n := len(values)
	chunk := max(1<<14, (n+4*e.workers-1)/(4*e.workers))
	e.run((n+chunk-1)/chunk, func(_, i int) {
		lo, hi := i*chunk, min(n, (i+1)*chunk)
		stageRange(e.stage[lo:hi], values[lo:hi], active[lo:hi], op, id)
		if k == kindSumW {
			copy(e.act[lo:hi], active[lo:hi])
		}
	})
}

// stageRange sets st[v] to the contribution of an active source (before
// adding any edge weight) and to id for an inactive one. With weights the
// staged value is the source value itself: for min, id + w saturates back
// to id, and for sum the flags in e.act mask the source.
func stageRange[V engine.Value](st, vals []V, act []uint8, op engine.EdgeOp, id V) {
	st = st[:len(vals)]
	act = act[:len(vals)]
	if op == engine.EdgeSourcePlusOne {
		for i, v := range vals {
			c := id
			if act[i] != 0 {
				c = satAdd(v, 1)
			}
			st[i] = c
		}
		return
	}
	for i, v := range vals {
		c := id
		if act[i] != 0 {
			c = v
		}
		st[i] = c
	}
}

// satAdd is engine.Contribute's saturating addition, inlined.
func satAdd[V engine.Value](x V, w uint32) V {
	s := x + V(w)
	if s < x {
		return V(math.MaxUint32)
	}
	return s
}

// addF32 is engine.AddFloat32Bits on a value of a min program over uint32
// (kindMinF; the identity stays the identity), inlined.
func addF32[V engine.Value](x V, w uint32) V {
	if uint32(x) == math.MaxUint32 {
		return x
	}
	return V(math.Float32bits(math.Float32frombits(uint32(x)) + math.Float32frombits(w)))
}

// panel returns the fixed-size view of column panel c's staged
// contributions (and flags).
func (e *Engine[V]) panel(c int) (*[accSize]V, *[accSize]uint8) {
	o := c * e.p
	st := (*[accSize]V)(e.stage[o : o+accSize])
	if e.act == nil {
		return st, nil
	}
	return st, (*[accSize]uint8)(e.act[o : o+accSize])
}

// phase1Unit processes one phase-1 work unit: a heavy block (u ≥ 0) or a
// light column panel (u = -(c+1)). Heavy partials go to out[HeavySlot..],
// light contributions to out[LightSlot[i]]; when mask is non-nil (Estimate)
// the light slots are first reduced with *mask to stay inside out.
func (e *Engine[V]) phase1Unit(ws *worker[V], u int, k kind, id V, out []V, mask *uint64) {
	l := e.l
	if u < 0 {
		c := -u - 1
		lo, hi := l.LightStart[c], l.LightStart[c+1]
		st, act := e.panel(c)
		src, slot := l.LightSrc[lo:hi], l.LightSlot[lo:hi]
		var wts []uint32
		if k == kindMinW || k == kindSumW || k == kindMinF {
			wts = l.LightWeights[lo:hi]
		}
		if mask != nil {
			lightMasked(src, slot, wts, st, act, k, out, *mask)
			return
		}
		switch k {
		case kindMin, kindSum:
			lightCopy(src, slot, st, out)
		case kindMinW:
			lightMinW(src, slot, wts, st, out)
		case kindMinF:
			lightMinF(src, slot, wts, st, out)
		case kindSumW:
			lightSumW(src, slot, wts, st, act, out)
		}
		return
	}
	h := int(u)
	t := e.t
	start := l.HeavyMatrixStart[h]
	rows := int(l.HeavyRows[h])
	mat := l.HeavyMatrix[start : start+uint64(rows)*uint64(t)]
	var wts []uint32
	if k == kindMinW || k == kindSumW || k == kindMinF {
		wts = l.HeavyWeights[start : start+uint64(rows)*uint64(t)]
	}
	d := int(l.HeavyNumDst[h])
	st, act := e.panel(int(l.HeavyCol[h]))
	// Columns after the last used one hold only padding: the fill is
	// column-major and padding comes only at its end.
	cols := t
	if rows > 0 {
		if j := slices.Index(mat[:t], layout.Invalid); j >= 0 {
			cols = j
		}
	}
	acc := ws.acc
	reg, dst := ws.reg[:cols], ws.dst[:cols]
	for j := range reg {
		reg[j] = id
		dst[j] = dummy
	}
	for j := range acc[:d] {
		acc[j] = id
	}
	switch k {
	case kindMin:
		heavyMin(mat, t, cols, id, st, acc, reg, dst)
	case kindMinW:
		heavyMinW(mat, wts, t, cols, id, st, acc, reg, dst)
	case kindMinF:
		heavyMinF(mat, wts, t, cols, id, st, acc, reg, dst)
	case kindSum:
		heavySum(mat, t, cols, st, acc, reg, dst)
	case kindSumW:
		heavySumW(mat, wts, t, cols, st, act, acc, reg, dst)
	}
	// Flush the runs still open at the bottom of each column.
	if k.min() {
		for j, r := range reg {
			a := &acc[dst[j]&accMask]
			if r < *a {
				*a = r
			}
		}
	} else {
		for j, r := range reg {
			acc[dst[j]&accMask] += r
		}
	}
	if mask != nil {
		// Estimate: the partials stay in the worker's accumulators.
		return
	}
	s := l.HeavySlot[h]
	copy(out[s:s+uint64(d)], acc[:d])
}

// The heavy-block kernels walk rows 0..rows-1 of a row-major matrix of t
// columns, reading its first cols entries of each row. Column j keeps a
// running accumulator reg[j] for destination dst[j]; a marker -(k+1) (or
// the padding value, which maps to the dummy entry) flushes reg[j] into
// acc[dst[j]] and starts destination k.

func heavyMin[V engine.Value](mat []int16, t, cols int, id V, st, acc *[accSize]V, reg []V, dst []uint16) {
	for o := 0; o+t <= len(mat); o += t {
		row := mat[o : o+cols]
		reg := reg[:len(row)]
		dst := dst[:len(row)]
		for j, x := range row {
			if x >= 0 {
				reg[j] = min(reg[j], st[x&accMask])
				continue
			}
			a := &acc[dst[j]&accMask]
			if r := reg[j]; r < *a {
				*a = r
			}
			dst[j] = uint16(-(x + 1))
			reg[j] = id
		}
	}
}

func heavyMinW[V engine.Value](mat []int16, wts []uint32, t, cols int, id V, st, acc *[accSize]V, reg []V, dst []uint16) {
	for o := 0; o+t <= len(mat); o += t {
		row := mat[o : o+cols]
		wr := wts[o : o+cols]
		wr = wr[:len(row)]
		reg := reg[:len(row)]
		dst := dst[:len(row)]
		for j, x := range row {
			if x >= 0 {
				reg[j] = min(reg[j], satAdd(st[x&accMask], wr[j]))
				continue
			}
			a := &acc[dst[j]&accMask]
			if r := reg[j]; r < *a {
				*a = r
			}
			dst[j] = uint16(-(x + 1))
			reg[j] = id
		}
	}
}

func heavyMinF[V engine.Value](mat []int16, wts []uint32, t, cols int, id V, st, acc *[accSize]V, reg []V, dst []uint16) {
	for o := 0; o+t <= len(mat); o += t {
		row := mat[o : o+cols]
		wr := wts[o : o+cols]
		wr = wr[:len(row)]
		reg := reg[:len(row)]
		dst := dst[:len(row)]
		for j, x := range row {
			if x >= 0 {
				reg[j] = min(reg[j], addF32(st[x&accMask], wr[j]))
				continue
			}
			a := &acc[dst[j]&accMask]
			if r := reg[j]; r < *a {
				*a = r
			}
			dst[j] = uint16(-(x + 1))
			reg[j] = id
		}
	}
}

func heavySum[V engine.Value](mat []int16, t, cols int, st, acc *[accSize]V, reg []V, dst []uint16) {
	for o := 0; o+t <= len(mat); o += t {
		row := mat[o : o+cols]
		reg := reg[:len(row)]
		dst := dst[:len(row)]
		for j, x := range row {
			if x >= 0 {
				reg[j] += st[x&accMask]
				continue
			}
			acc[dst[j]&accMask] += reg[j]
			dst[j] = uint16(-(x + 1))
			reg[j] = 0
		}
	}
}

func heavySumW[V engine.Value](mat []int16, wts []uint32, t, cols int, st *[accSize]V, act *[accSize]uint8, acc *[accSize]V, reg []V, dst []uint16) {
	for o := 0; o+t <= len(mat); o += t {
		row := mat[o : o+cols]
		wr := wts[o : o+cols]
		wr = wr[:len(row)]
		reg := reg[:len(row)]
		dst := dst[:len(row)]
		for j, x := range row {
			if x >= 0 {
				if act[x&accMask] != 0 {
					reg[j] += satAdd(st[x&accMask], wr[j])
				}
				continue
			}
			acc[dst[j]&accMask] += reg[j]
			dst[j] = uint16(-(x + 1))
			reg[j] = 0
		}
	}
}

// The light kernels write one contribution per light edge to its slot.

func lightCopy[V engine.Value](src []uint16, slot []uint32, st *[accSize]V, out []V) {
	slot = slot[:len(src)]
	for i, s := range src {
		out[slot[i]] = st[s&accMask]
	}
}

func lightMinW[V engine.Value](src []uint16, slot, wts []uint32, st *[accSize]V, out []V) {
	slot = slot[:len(src)]
	wts = wts[:len(src)]
	for i, s := range src {
		out[slot[i]] = satAdd(st[s&accMask], wts[i])
	}
}

func lightMinF[V engine.Value](src []uint16, slot, wts []uint32, st *[accSize]V, out []V) {
	slot = slot[:len(src)]
	wts = wts[:len(src)]
	for i, s := range src {
		out[slot[i]] = addF32(st[s&accMask], wts[i])
	}
}

func lightSumW[V engine.Value](src []uint16, slot, wts []uint32, st *[accSize]V, act *[accSize]uint8, out []V) {
	slot = slot[:len(src)]
	wts = wts[:len(src)]
	for i, s := range src {
		var c V
		if act[s&accMask] != 0 {
			c = satAdd(st[s&accMask], wts[i])
		}
		out[slot[i]] = c
	}
}

// lightMasked is the light kernel of Estimate: the same work, with every
// slot reduced by mask so that it writes into a small scratch buffer.
func lightMasked[V engine.Value](src []uint16, slot, wts []uint32, st *[accSize]V, act *[accSize]uint8, k kind, out []V, mask uint64) {
	slot = slot[:len(src)]
	switch k {
	case kindMin, kindSum:
		for i, s := range src {
			out[uint64(slot[i])&mask] = st[s&accMask]
		}
	case kindMinW:
		wts = wts[:len(src)]
		for i, s := range src {
			out[uint64(slot[i])&mask] = satAdd(st[s&accMask], wts[i])
		}
	case kindMinF:
		wts = wts[:len(src)]
		for i, s := range src {
			out[uint64(slot[i])&mask] = addF32(st[s&accMask], wts[i])
		}
	default:
		wts = wts[:len(src)]
		for i, s := range src {
			var c V
			if act[s&accMask] != 0 {
				c = satAdd(st[s&accMask], wts[i])
			}
			out[uint64(slot[i])&mask] = c
		}
	}
}

// fold combines row panel r's stream slots into ws.acc[0 : hi-lo], where
// [lo, hi) are the panel's vertices, and returns lo and hi.
func (e *Engine[V]) fold(ws *worker[V], r int, k kind, id V) (lo, hi int) {
	l := e.l
	lo = r * e.p
	hi = min(lo+e.p, int(l.NumVertices))
	acc := ws.acc
	for j := range acc[:hi-lo] {
		acc[j] = id
	}
	s0, s1 := l.RowSlotStart[r], l.RowSlotStart[r+1]
	sd := l.SlotDst[s0:s1]
	in := e.stream[s0:s1]
	if k.min() {
		foldMin(sd, in, acc)
	} else {
		foldSum(sd, in, acc)
	}
	return lo, hi
}

func foldMin[V engine.Value](sd []uint16, in []V, acc *[accSize]V) {
	in = in[:len(sd)]
	for i, d := range sd {
		a := &acc[d&accMask]
		*a = min(*a, in[i])
	}
}

func foldSum[V engine.Value](sd []uint16, in []V, acc *[accSize]V) {
	in = in[:len(sd)]
	for i, d := range sd {
		acc[d&accMask] += in[i]
	}
}
