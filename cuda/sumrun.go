package cuda

import "unsafe"

// Sum program ids of the float64 engines' kernels (MG_SPROG_* in mgraph.h;
// the cuda build checks that they agree).
const (
	SumProgPRDelta   = 1 // data-driven PageRank
	SumProgBCForward = 2 // Brandes' forward pass (path counts)
)

// sumParams mirrors mg_sum_params (the cuda build checks its size). Device
// pointers are held as uintptr, as in dlayout.
type sumParams struct {
	damping, eps float64
	x, residual  uintptr
	depth        uintptr
	d, pad       int32
}

// SumProgram selects a sum program's kernels and gives its scalars.
type SumProgram struct {
	ID           int     // SumProgPRDelta or SumProgBCForward
	Damping, Eps float64 // pr-delta
	Depth        int32   // bc forward: the depth of the current frontier
}

// SumRun is the device state of runs of the float64 sum programs over one
// DeviceLayout: what MinRun holds with float64 values, accumulators (0
// between steps), sample scratch and stream buffer, plus the programs' own
// arrays, allocated when a program first needs them: x and residual for
// pr-delta; depth, δ, the BC sums, the vertices by depth and the level
// cursors for BC (whose σ are the values). One run at a time.
type SumRun struct {
	stepState
	values, acc        *Buffer[float64]
	scratch, streamBuf *Buffer[float64]
	x, residual        *Buffer[float64]
	depth              *Buffer[int32]
	delta, bc          *Buffer[float64]
	order, cursor      *Buffer[uint32]
	// BCAsync's counters and worklist, allocated on its first use.
	predLeft, succLeft *Buffer[uint32]
	dag                *Buffer[uint8] // an arc's place in the shortest-path DAG
	async              asyncBufs
	// BCBlock's levels, queue, level ends, the queued vertices' arc ranges
	// and its statistics, allocated on its first use.
	blockLevels, blockOrder, levelEnd, arcCount *Buffer[uint32]
	queueRows                                   *Buffer[uint32]  // BCCluster's rows in queue order; BCBlock's links over rows
	queueSums                                   *Buffer[float64] // BCBlock's 1/σ and sums by queue place over rows (2n)
	arcBegin                                    *Buffer[uint64]
	blockStats                                  *Buffer[blockStats]
}

// NewSumRun allocates the run state over dl (the programs' arrays come
// later, on first use).
func NewSumRun(dl *DeviceLayout) (*SumRun, error) {
	r := &SumRun{}
	fail := func(e error) (*SumRun, error) { r.Close(); return nil, e }
	if err := r.initSteps(dl); err != nil {
		return fail(err)
	}
	n := int(r.n)
	if err := allocEach(&r.owned, dl.dev, bufSpec[float64]{&r.values, n}, bufSpec[float64]{&r.acc, n},
		bufSpec[float64]{&r.scratch, SampleScratch}, bufSpec[float64]{&r.streamBuf, dl.StreamLen()}); err != nil {
		return fail(err)
	}
	// The identity, 0.0, in every accumulator and stream entry.
	for _, b := range []*Buffer[float64]{r.acc, r.streamBuf} {
		if err := b.Memset(0); err != nil {
			return fail(err)
		}
	}
	return r, nil
}

// Close frees the state.
func (r *SumRun) Close() error { return r.release() }

// ensure allocates *b with n elements if it is not allocated yet.
func ensure[T any](r *SumRun, b **Buffer[T], n int) error {
	if *b != nil {
		return nil
	}
	nb, err := allocOwned[T](&r.owned, r.dl.dev, n)
	if err != nil {
		return err
	}
	*b = nb
	return nil
}

// params builds the C parameters of p over r's arrays.
func (r *SumRun) params(p SumProgram) *sumParams {
	c := &sumParams{damping: p.Damping, eps: p.Eps, d: p.Depth}
	if r.x != nil {
		c.x, c.residual = uintptr(r.x.h.p), uintptr(r.residual.h.p)
	}
	if r.depth != nil {
		c.depth = uintptr(r.depth.h.p)
	}
	return c
}

// Dense runs one MultiGraphD step of p from the current flags to the next
// ones (which become current); see MinRun.Dense.
func (r *SumRun) Dense(p SumProgram, dry bool) (StepCounters, []float32, error) {
	desc, ev := r.cargs()
	active, err := r.activeFlags(dry)
	if err != nil {
		return StepCounters{}, nil, err
	}
	next := r.flags[1-r.curFlags].h.p
	if err := backendSumDense(r.dl.dev.ordinal, p.ID, unsafe.Pointer(desc), unsafe.Pointer(r.params(p)),
		r.values.h.p, active, next, r.streamBuf.h.p, r.ctr.h.p, dry, unsafe.Pointer(&ev[0])); err != nil {
		return StepCounters{}, nil, err
	}
	return r.finishStep(3, !dry, false)
}

// Sparse runs one MultiGraphS step of p from the current list of count
// vertices to the next list (which becomes current); see MinRun.Sparse.
func (r *SumRun) Sparse(p SumProgram, count uint32) (StepCounters, []float32, error) {
	desc, ev := r.cargs()
	if err := backendSumSparse(r.dl.dev.ordinal, p.ID, unsafe.Pointer(desc), unsafe.Pointer(r.params(p)),
		r.values.h.p, r.list[r.curList].h.p, count, r.acc.h.p, r.touched.h.p, r.list[1-r.curList].h.p,
		r.ctr.h.p, unsafe.Pointer(&ev[0])); err != nil {
		return StepCounters{}, nil, err
	}
	return r.finishStep(2, false, true)
}

// Sample times the sparse advance of every stride-th vertex of the current
// list (count of them) as a dry run, in milliseconds.
func (r *SumRun) Sample(p SumProgram, count, stride uint32) (float32, error) {
	desc, ev := r.cargs()
	if err := backendSumSample(r.dl.dev.ordinal, p.ID, unsafe.Pointer(desc), unsafe.Pointer(r.params(p)),
		r.values.h.p, r.list[r.curList].h.p, count, stride, r.scratch.h.p, unsafe.Pointer(&ev[0])); err != nil {
		return 0, err
	}
	return r.sampleTime()
}

// BCReset allocates the BC arrays if needed and zeroes the BC sums.
func (r *SumRun) BCReset() error {
	n := int(r.n)
	if err := ensure(r, &r.depth, n); err != nil {
		return err
	}
	for _, b := range []**Buffer[float64]{&r.delta, &r.bc} {
		if err := ensure(r, b, n); err != nil {
			return err
		}
	}
	if err := ensure(r, &r.order, n); err != nil {
		return err
	}
	if err := ensure(r, &r.cursor, n+1); err != nil {
		return err
	}
	return r.bc.Memset(0)
}

// BCStart starts source s: depths −1, σ and δ 0, then depth 0 and σ 1 at s,
// and the current frontier list is [s].
func (r *SumRun) BCStart(s uint32) error {
	if r.depth == nil {
		return invalidf("BCStart", "BCReset was not called")
	}
	return backendBCInit(r.dl.dev.ordinal, r.depth.h.p, r.values.h.p, r.delta.h.p, r.n, s, r.list[r.curList].h.p)
}

// BCBackward sorts the vertices by depth (sizes[d] of depth d, from the
// forward pass) and runs the backward pass from the deepest level up,
// returning its time in milliseconds (waiting for it).
func (r *SumRun) BCBackward(sizes []uint32) (float32, error) {
	if r.depth == nil {
		return 0, invalidf("BCBackward", "BCReset was not called")
	}
	if len(sizes) > int(r.n) {
		return 0, invalidf("BCBackward", "%d levels for %d vertices", len(sizes), r.n)
	}
	start := make([]uint32, len(sizes)+1)
	for d, c := range sizes {
		start[d+1] = start[d] + c
	}
	if uint64(start[len(sizes)]) > r.n {
		return 0, invalidf("BCBackward", "level sizes add up to %d, more than %d vertices", start[len(sizes)], r.n)
	}
	if len(sizes) == 0 {
		return 0, nil
	}
	dev := r.dl.dev.ordinal
	if err := r.cursor.CopyFromHostAt(0, start[:len(sizes)]); err != nil {
		return 0, err
	}
	desc, _ := r.cargs()
	return r.timed(func() error {
		if err := backendBCOrder(dev, r.depth.h.p, r.n, uint32(len(sizes)), r.cursor.h.p, r.order.h.p); err != nil {
			return err
		}
		for d := len(sizes) - 2; d >= 0; d-- {
			level := unsafe.Add(r.order.h.p, 4*uint64(start[d]))
			if err := backendBCBackward(dev, unsafe.Pointer(desc), r.depth.h.p, r.values.h.p, r.delta.h.p, level,
				sizes[d], int32(d)); err != nil {
				return err
			}
		}
		return nil
	})
}

// BCAccumulate adds δ of every vertex but s to the BC sums.
func (r *SumRun) BCAccumulate(s uint32) error {
	return backendBCAccumulate(r.dl.dev.ordinal, r.delta.h.p, r.bc.h.p, r.n, s)
}
