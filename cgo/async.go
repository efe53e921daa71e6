package cuda

import (
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
var ErrAsyncOverflow = fmt.Errorf("async run: the device worklist overflowed")

// Async runs min program prog asynchronously on the device (mg_min_async:
// SEP-Graph's Async + Push + data-driven mode, one persistent kernel with no
// iteration barrier) from the current frontier list's first count vertices,
// or from every vertex when all is set, until no work is left, and waits
// for it. delta > 0 adds near-far priority (values at or above the moving
// split wait in a far pile). blocksPerSM 0 takes the default. The frontier
// lists are left unspecified.
func (r *MinRun) Async(prog int, count uint32, all bool, delta, blocksPerSM uint32) (AsyncStats, error) {
	if all {
		count = uint32(r.n)
	}
	if err := r.ensureAsync(); err != nil {
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
	if err := backendMinAsync(r.dl.dev.ordinal, prog, unsafe.Pointer(desc), r.values.h.p, frontier, count,
		r.ring.h.p, r.ringLog2, r.queued.h.p, delta, far0, far1, inFar, r.asyncState.h.p, blocksPerSM, unsafe.Pointer(&ev[0])); err != nil {
		return AsyncStats{}, err
	}
	st := make([]asyncState, 1)
	if err := r.asyncState.CopyToHost(st); err != nil { // waits for the run
		return AsyncStats{}, err
	}
	if st[0].overflow != 0 {
		// Leave the ring and the far flags as a run expects them.
		if err := r.ring.Memset(0xff); err != nil {
			return AsyncStats{}, err
		}
		if err := r.queued.Memset(0); err != nil {
			return AsyncStats{}, err
		}
		if r.inFar != nil {
			if err := r.inFar.Memset(0); err != nil {
				return AsyncStats{}, err
			}
		}
		return AsyncStats{}, fmt.Errorf("%w (%d slots)", ErrAsyncOverflow, uint64(1)<<r.ringLog2)
	}
	if st[0].work != 0 {
		return AsyncStats{}, fmt.Errorf("async run: the device stopped with %d items of work left", st[0].work)
	}
	t, err := r.times(1)
	if err != nil {
		return AsyncStats{}, err
	}
	return AsyncStats{Items: st[0].items, Shared: st[0].shared, Buckets: int(st[0].buckets), Millis: t[0]}, nil
}

// AsyncRingSlots returns the size of the device worklist of an Async run
// over n vertices: the power of two at least 2n (and 2^16), at most 2^31.
func AsyncRingSlots(n uint64) uint64 {
	want := max(2*n, 1<<16)
	return min(uint64(1)<<bits.Len64(want-1), 1<<31)
}

// ensureAsync allocates the worklist (every slot free), the queued flags
// (all 0) and the state on first use.
func (r *MinRun) ensureAsync() error {
	if r.asyncState != nil {
		return nil
	}
	queued, err := allocOwned[uint32](&r.owned, r.dl.dev, int(r.n))
	if err != nil {
		return err
	}
	if err := queued.Memset(0); err != nil {
		return err
	}
	r.queued = queued
	slots := AsyncRingSlots(r.n)
	ring, err := allocOwned[uint64](&r.owned, r.dl.dev, int(slots))
	if err != nil {
		return err
	}
	if err := ring.Memset(0xff); err != nil {
		return err
	}
	st, err := allocOwned[asyncState](&r.owned, r.dl.dev, 1)
	if err != nil {
		return err
	}
	r.ring, r.ringLog2, r.asyncState = ring, uint32(bits.Len64(slots)-1), st
	return nil
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
