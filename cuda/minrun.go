package cuda

import (
	"math"
	"unsafe"
)

// MinRun is the device state of runs of the min programs (BFS, SSSP, CC)
// over one DeviceLayout: the values, the frontier (two lists and two flag
// arrays, current and next), the sparse engine's accumulators and touched
// list, the dense engine's stream buffer and the counters a step leaves for
// the host. It is allocated once and reused by every run and trial; one run
// at a time.
//
// Every step is queued on the default stream and ends with one small
// device-to-host copy (the counters), the only host round trip of an
// iteration; the per-kernel times come from CUDA events.
type MinRun struct {
	stepState
	values, acc        *Buffer[uint32]
	scratch, streamBuf *Buffer[uint32]
	// Near-far's far piles, flags (0 between loops) and scratch, allocated
	// on the first loop that uses them.
	far             [2]*Buffer[uint32]
	inFar, farState *Buffer[uint32]
	async           asyncBufs           // Async's worklist
	blockStats      *Buffer[blockStats] // BlockBFS's, allocated on its first run
}

// NewMinRun allocates the run state over dl.
func NewMinRun(dl *DeviceLayout) (*MinRun, error) {
	r := &MinRun{}
	fail := func(e error) (*MinRun, error) { r.Close(); return nil, e }
	if err := r.initSteps(dl); err != nil {
		return fail(err)
	}
	n := int(r.n)
	if err := allocEach(&r.owned, dl.dev, bufSpec[uint32]{&r.values, n}, bufSpec[uint32]{&r.acc, n},
		bufSpec[uint32]{&r.scratch, SampleScratch}, bufSpec[uint32]{&r.streamBuf, dl.StreamLen()}); err != nil {
		return fail(err)
	}
	// The identity, math.MaxUint32, in every accumulator and stream entry.
	if err := backendFillU32(dl.dev.ordinal, r.acc.h.p, r.n, math.MaxUint32); err != nil {
		return fail(err)
	}
	if err := r.streamBuf.Memset(0xff); err != nil {
		return fail(err)
	}
	return r, nil
}

// Close frees the state.
func (r *MinRun) Close() error { return r.release() }

// Load copies the initial values and frontier (a list, or flags when list
// is nil) to the device.
func (r *MinRun) Load(values, list []uint32, flags []uint8) error {
	if err := r.values.CopyFromHost(values); err != nil {
		return err
	}
	return r.loadFrontier(list, flags)
}

// Store copies the values back to the host.
func (r *MinRun) Store(values []uint32) error { return r.values.CopyToHost(values) }

// Dense runs one MultiGraphD step of program prog from the current flags to
// the next ones (which become current) and returns the counters and the
// kernels' times in milliseconds (DensePhases). dry: the EDP measurement,
// from all vertices active, which changes neither values nor frontier.
func (r *MinRun) Dense(prog int, dry bool) (StepCounters, []float32, error) {
	desc, ev := r.cargs()
	active, err := r.activeFlags(dry)
	if err != nil {
		return StepCounters{}, nil, err
	}
	next := r.flags[1-r.curFlags].h.p
	if err := backendMinDense(r.dl.dev.ordinal, prog, unsafe.Pointer(desc), r.values.h.p, active, next,
		r.streamBuf.h.p, r.ctr.h.p, dry, unsafe.Pointer(&ev[0])); err != nil {
		return StepCounters{}, nil, err
	}
	return r.finishStep(3, !dry, false)
}

// Sparse runs one MultiGraphS step of prog from the current list of count
// vertices to the next list (which becomes current) and returns the counters
// and the kernels' times in milliseconds (SparsePhases).
func (r *MinRun) Sparse(prog int, count uint32) (StepCounters, []float32, error) {
	desc, ev := r.cargs()
	if err := backendMinSparse(r.dl.dev.ordinal, prog, unsafe.Pointer(desc), r.values.h.p, r.list[r.curList].h.p,
		count, r.acc.h.p, r.touched.h.p, r.list[1-r.curList].h.p, r.ctr.h.p, unsafe.Pointer(&ev[0])); err != nil {
		return StepCounters{}, nil, err
	}
	return r.finishStep(2, false, true)
}

// Pull runs one pull (bottom-up) step of prog (BFS only, over an undirected
// layout) from the current flags to the next ones (which become current) and
// returns the counters and the kernel's time in milliseconds (PullPhases).
func (r *MinRun) Pull(prog int) (StepCounters, []float32, error) {
	desc, ev := r.cargs()
	if err := backendMinPull(r.dl.dev.ordinal, prog, unsafe.Pointer(desc), r.values.h.p, r.flags[r.curFlags].h.p,
		r.flags[1-r.curFlags].h.p, r.ctr.h.p, unsafe.Pointer(&ev[0])); err != nil {
		return StepCounters{}, nil, err
	}
	return r.finishStep(1, true, false)
}

// PullAll runs one pull step of prog that reads every arc of the vertices'
// in-rows (SSSP, label propagation: --mode pull) from the current flags to
// the next ones (which become current) and returns the counters and the
// kernel's time in milliseconds (PullPhases). A weighted program needs an
// undirected layout.
func (r *MinRun) PullAll(prog int) (StepCounters, []float32, error) {
	desc, ev := r.cargs()
	if err := backendMinPullAll(r.dl.dev.ordinal, prog, unsafe.Pointer(desc), r.values.h.p, r.flags[r.curFlags].h.p,
		r.flags[1-r.curFlags].h.p, r.ctr.h.p, unsafe.Pointer(&ev[0])); err != nil {
		return StepCounters{}, nil, err
	}
	return r.finishStep(1, true, false)
}

// Sample times the sparse advance of every stride-th vertex of the current
// list (count of them) as a dry run, in milliseconds.
func (r *MinRun) Sample(prog int, count, stride uint32) (float32, error) {
	desc, ev := r.cargs()
	if err := backendMinSample(r.dl.dev.ordinal, prog, unsafe.Pointer(desc), r.values.h.p, r.list[r.curList].h.p,
		count, stride, r.scratch.h.p, unsafe.Pointer(&ev[0])); err != nil {
		return 0, err
	}
	return r.sampleTime()
}
