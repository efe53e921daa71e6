package cuda

import (
	"errors"
	"fmt"
	"math/bits"
	"unsafe"
)

// asyncState mirrors mg_async_state (the cuda build checks its size).
type asyncState struct {
	work              uint64
	head, tail        uint32
	farCount          [2]uint32
	farMin, overflow  uint32
	items, shared     uint64
	buckets, reserved uint32
}

// AsyncStats is what one Async run did.
type AsyncStats struct {
	Items   uint64  // vertices processed (a vertex lowered twice counts twice)
	Shared  uint64  // of them, handed between blocks through the device worklist
	Buckets int     // near-far bucket changes
	Millis  float32 // the run's kernel time, from CUDA events
}

// ErrAsyncOverflow is returned (wrapped) by Async when the device worklist
// filled up; the values are then void.
var ErrAsyncOverflow = errors.New("async run: the device worklist overflowed")

// Async runs min program prog asynchronously on the device (mg_min_async:
// SEP-Graph's Async + Push + data-driven mode, one persistent kernel with no
// iteration barrier) from the current frontier list's first count vertices,
// or from every vertex when all is set, until no work is left, and waits
// for it. delta > 0 adds near-far priority (values at or above the moving
// split wait in a far pile). blocksPerSM 0 takes the default. With rows
// set, a layout whose vertices have at most BlockRowWidth arcs runs over
// the fixed-width rows of the one-block runs (built on first use, with
// their weights for SSSP): a round then waits for one dependent global
// access instead of two, and reads RowWidth of the largest out-degree
// slots of each row. The frontier lists are left unspecified.
func (r *MinRun) Async(prog int, count uint32, all bool, delta, blocksPerSM uint32, rows bool) (AsyncStats, error) {
	if all {
		count = uint32(r.n)
	}
	rp, err := r.blockRowsFor(rows)
	if err != nil {
		return AsyncStats{}, err
	}
	var wrp unsafe.Pointer
	if rp != nil && WeightedProg(prog) {
		if wrp, err = r.weightRowsFor(); err != nil {
			return AsyncStats{}, err
		}
		if wrp == nil { // no room for the weights: the CSR
			rp = nil
		}
	}
	if err := r.async.ensure(&r.owned, r.dl.dev, r.n); err != nil {
		return AsyncStats{}, err
	}
	var far0, far1, inFar unsafe.Pointer
	if delta > 0 {
		if err := r.ensureFar(); err != nil {
			return AsyncStats{}, err
		}
		far0, far1, inFar = r.far[0].h.p, r.far[1].h.p, r.inFar.h.p
	}
	var frontier unsafe.Pointer
	if !all {
		frontier = r.list[r.curList].h.p
	}
	desc, ev := r.cargs()
	if err := backendMinAsync(r.dl.dev.ordinal, prog, unsafe.Pointer(desc), rp, wrp, RowWidth(r.rows.maxDeg), r.values.h.p, frontier, count,
		r.async.ring.h.p, r.async.ringLog2, r.async.queued.h.p, delta, far0, far1, inFar, r.async.state.h.p, blocksPerSM, unsafe.Pointer(&ev[0])); err != nil {
		return AsyncStats{}, err
	}
	return r.asyncStats(&r.async, r.inFar)
}

// asyncStats waits for the async run just launched on a (a.finish, which
// resets a and inFar after an overflow) and returns what it did, with the
// kernel time between the state's first two events.
func (s *stepState) asyncStats(a *asyncBufs, inFar *Buffer[uint32]) (AsyncStats, error) {
	st, err := a.finish(inFar)
	if err != nil {
		return AsyncStats{}, err
	}
	t, err := s.times(1)
	if err != nil {
		return AsyncStats{}, err
	}
	return AsyncStats{Items: st.items, Shared: st.shared, Buckets: int(st.buckets), Millis: t[0]}, nil
}

// AsyncRingSlots returns the size of the device worklist of an Async run
// over n vertices: the power of two at least 2n (and 2^16), at most 2^31.
func AsyncRingSlots(n uint64) uint64 {
	want := max(2*n, 1<<16)
	return min(uint64(1)<<bits.Len64(want-1), 1<<31)
}

// asyncBufs is the device worklist of async runs: the ring (2^ringLog2
// slots, every one free between runs), the queued flags (all 0 between
// runs) and the state. MinRun and SumRun each have one, allocated on their
// first async run.
type asyncBufs struct {
	ring     *Buffer[uint64]
	queued   *Buffer[uint32]
	state    *Buffer[asyncState]
	ringLog2 uint32
}

// ensure allocates the buffers for n vertices on dev, owned by o, unless
// they exist.
func (a *asyncBufs) ensure(o *owned, dev Device, n uint64) error {
	if a.state != nil {
		return nil
	}
	slots := AsyncRingSlots(n)
	ring, err := allocOwned[uint64](o, dev, int(slots))
	if err != nil {
		return err
	}
	queued, err := allocOwned[uint32](o, dev, int(n))
	if err != nil {
		return err
	}
	st, err := allocOwned[asyncState](o, dev, 1)
	if err != nil {
		return err
	}
	if err := a.clear(ring, queued); err != nil {
		return err
	}
	a.ring, a.queued, a.state, a.ringLog2 = ring, queued, st, uint32(bits.Len64(slots)-1)
	return nil
}

// clear frees every ring slot and clears every queued flag.
func (a *asyncBufs) clear(ring *Buffer[uint64], queued *Buffer[uint32]) error {
	if err := ring.Memset(0xff); err != nil {
		return err
	}
	return queued.Memset(0)
}

// finish reads the state a run left (waiting for it): an overflow resets
// the ring and flags (and inFar, when given) and is returned as
// ErrAsyncOverflow; work left over is an error too.
func (a *asyncBufs) finish(inFar *Buffer[uint32]) (asyncState, error) {
	st := make([]asyncState, 1)
	if err := a.state.CopyToHost(st); err != nil { // waits for the run
		return asyncState{}, err
	}
	if st[0].overflow != 0 {
		if err := a.clear(a.ring, a.queued); err != nil {
			return asyncState{}, err
		}
		if inFar != nil {
			if err := inFar.Memset(0); err != nil {
				return asyncState{}, err
			}
		}
		return asyncState{}, fmt.Errorf("%w (%d slots)", ErrAsyncOverflow, uint64(1)<<a.ringLog2)
	}
	if st[0].work != 0 {
		return asyncState{}, fmt.Errorf("async run: the device stopped with %d items of work left", st[0].work)
	}
	return st[0], nil
}

// ensureFar allocates near-far's piles, flags (all 0) and scratch on first
// use (SparseLoop and Async share them).
func (r *MinRun) ensureFar() error {
	if r.inFar != nil {
		return nil
	}
	n := int(r.n)
	if err := allocEach(&r.owned, r.dl.dev, bufSpec[uint32]{&r.far[0], n}, bufSpec[uint32]{&r.far[1], n},
		bufSpec[uint32]{&r.inFar, n}, bufSpec[uint32]{&r.farState, 4}); err != nil {
		return err
	}
	return r.inFar.Memset(0)
}

// BCAsync runs both passes of Brandes from source s (layout numbering)
// without levels (mg_bc_async; a directed layout's backward pass over its
// in-adjacency, which BuildIn must have built), from the levels of an
// async BFS from s that bfs holds, leaving the dependencies for
// BCAccumulate, and returns the passes' kernel time in milliseconds
// (waiting for them). BCReset must have been called.
func (r *SumRun) BCAsync(s uint32, bfs *MinRun, blocksPerSM uint32) (float32, error) {
	if r.depth == nil {
		return 0, invalidf("BCAsync", "BCReset was not called")
	}
	if bfs.n != r.n {
		return 0, invalidf("BCAsync", "the BFS has %d vertices, the run %d", bfs.n, r.n)
	}
	if err := r.async.ensure(&r.owned, r.dl.dev, r.n); err != nil {
		return 0, err
	}
	if err := ensure(r, &r.predLeft, int(r.n)); err != nil {
		return 0, err
	}
	if err := ensure(r, &r.succLeft, int(r.n)); err != nil {
		return 0, err
	}
	if err := ensure(r, &r.dag, int(max(r.dl.l.NumArcs, 1))); err != nil {
		return 0, err
	}
	desc, ev := r.cargs()
	if err := backendBCAsync(r.dl.dev.ordinal, unsafe.Pointer(desc), bfs.values.h.p, s, r.depth.h.p, r.values.h.p,
		r.delta.h.p, r.predLeft.h.p, r.succLeft.h.p, r.dag.h.p, r.async.ring.h.p, r.async.ringLog2, r.async.queued.h.p,
		r.async.state.h.p, blocksPerSM, unsafe.Pointer(&ev[0])); err != nil {
		return 0, err
	}
	st, err := r.asyncStats(&r.async, nil)
	return st.Millis, err
}

// PRDeltaAsync runs data-driven PageRank asynchronously (mg_prdelta_async)
// into the pr-delta state that CollectPRDelta reads, and returns the run's
// statistics (waiting for it).
func (r *SumRun) PRDeltaAsync(damping, eps float64, blocksPerSM uint32) (AsyncStats, error) {
	if err := ensure(r, &r.x, int(r.n)); err != nil {
		return AsyncStats{}, err
	}
	if err := ensure(r, &r.residual, int(r.n)); err != nil {
		return AsyncStats{}, err
	}
	if err := r.async.ensure(&r.owned, r.dl.dev, r.n); err != nil {
		return AsyncStats{}, err
	}
	desc, ev := r.cargs()
	if err := backendPRDeltaAsync(r.dl.dev.ordinal, unsafe.Pointer(desc), damping, eps, r.x.h.p, r.residual.h.p,
		r.async.ring.h.p, r.async.ringLog2, r.async.queued.h.p, r.async.state.h.p, blocksPerSM,
		unsafe.Pointer(&ev[0])); err != nil {
		return AsyncStats{}, err
	}
	return r.asyncStats(&r.async, nil)
}
