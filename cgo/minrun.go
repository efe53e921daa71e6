package cuda

import (
	"math"
	"unsafe"
)

// MinRun is the device state of runs of the min programs (BFS, SSSP, CC)
// over one DeviceLayout: the values, two frontier lists and two flag arrays
// (current and next), the sparse engine's accumulators and touched list, the
// dense engine's stream buffer and the counters a step leaves for the host.
// It is allocated once and reused by every run and trial; one run at a time.
//
// Every step is queued on the default stream and ends with one small
// device-to-host copy (the counters), the only host round trip of an
// iteration; the per-kernel times come from CUDA events.
type MinRun struct {
	dl                   *DeviceLayout
	n                    uint64
	values, acc, touched *Buffer[uint32]
	scratch, streamBuf   *Buffer[uint32]
	list                 [2]*Buffer[uint32]
	flags                [2]*Buffer[uint8]
	ones                 *Buffer[uint8]
	ctr                  *Buffer[StepCounters]
	pos                  *Buffer[uint32]
	ev                   [4]uintptr // event handles as uintptr (see dlayout)
	curList, curFlags    int
	owned
	lastDense, lastSparse []float32
}

// Kernel phase names of the steps' times, in order.
var (
	DensePhases  = []string{"phase1-heavy", "phase1-light", "phase2"}
	SparsePhases = []string{"advance", "apply"}
	PullPhases   = []string{"pull"}
)

func allocRun[T any](r *MinRun, n int) (*Buffer[T], error) {
	return allocOwned[T](&r.owned, r.dl.dev, n)
}

// NewMinRun allocates the run state over dl.
func NewMinRun(dl *DeviceLayout) (*MinRun, error) {
	n := int(dl.desc.n)
	r := &MinRun{dl: dl, n: dl.desc.n}
	var err error
	fail := func(e error) (*MinRun, error) { r.Close(); return nil, e }
	for _, p := range []**Buffer[uint32]{&r.values, &r.acc, &r.touched, &r.list[0], &r.list[1]} {
		if *p, err = allocRun[uint32](r, n); err != nil {
			return fail(err)
		}
	}
	if r.scratch, err = allocRun[uint32](r, SampleScratch); err != nil {
		return fail(err)
	}
	if r.streamBuf, err = allocRun[uint32](r, int(dl.desc.numSlots)); err != nil {
		return fail(err)
	}
	for i := range r.flags {
		if r.flags[i], err = allocRun[uint8](r, n); err != nil {
			return fail(err)
		}
	}
	if r.ctr, err = allocRun[StepCounters](r, 1); err != nil {
		return fail(err)
	}
	if r.pos, err = allocRun[uint32](r, 1); err != nil {
		return fail(err)
	}
	if err := r.newEvents(dl.dev, r.ev[:]); err != nil {
		return fail(err)
	}
	if err := backendFillU32(dl.dev.ordinal, r.acc.h.p, r.n, math.MaxUint32); err != nil {
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
	if flags != nil {
		return r.flags[r.curFlags].CopyFromHost(flags)
	}
	return r.list[r.curList].CopyFromHost(list)
}

// Store copies the values back to the host.
func (r *MinRun) Store(values []uint32) error { return r.values.CopyToHost(values) }

func (r *MinRun) counters() (StepCounters, error) {
	c := make([]StepCounters, 1)
	err := r.ctr.CopyToHost(c) // synchronous: waits for the step
	return c[0], err
}

// times returns the elapsed milliseconds between events 0..k.
func (r *MinRun) times(k int) ([]float32, error) {
	out := make([]float32, k)
	for i := range out {
		ms, err := backendEventElapsed(r.dl.dev.ordinal, evp(r.ev[i]), evp(r.ev[i+1]))
		if err != nil {
			return nil, err
		}
		out[i] = ms
	}
	return out, nil
}

// Dense runs one MultiGraphD step of program prog from the current flags to
// the next ones (which become current) and returns the counters and the
// kernels' times in milliseconds (DensePhases). dry: the EDP measurement,
// from all vertices active, which changes neither values nor frontier.
func (r *MinRun) Dense(prog int, dry bool) (StepCounters, []float32, error) {
	dev := r.dl.dev.ordinal
	desc, ev := r.cargs()
	active := r.flags[r.curFlags].h.p
	if dry {
		if r.ones == nil {
			var err error
			if r.ones, err = allocRun[uint8](r, int(r.n)); err != nil {
				return StepCounters{}, nil, err
			}
			if err := r.ones.Memset(1); err != nil {
				return StepCounters{}, nil, err
			}
		}
		active = r.ones.h.p
	}
	next := r.flags[1-r.curFlags].h.p
	if err := backendMinDense(dev, prog, unsafe.Pointer(desc), r.values.h.p, active, next,
		r.streamBuf.h.p, r.ctr.h.p, dry, unsafe.Pointer(&ev[0])); err != nil {
		return StepCounters{}, nil, err
	}
	c, err := r.counters()
	if err != nil {
		return c, nil, err
	}
	t, err := r.times(3)
	if !dry {
		r.curFlags = 1 - r.curFlags
	}
	return c, t, err
}

// Sparse runs one MultiGraphS step of prog from the current list of count
// vertices to the next list (which becomes current) and returns the counters
// and the kernels' times in milliseconds (SparsePhases).
func (r *MinRun) Sparse(prog int, count uint32) (StepCounters, []float32, error) {
	dev := r.dl.dev.ordinal
	desc, ev := r.cargs()
	if err := backendMinSparse(dev, prog, unsafe.Pointer(desc), r.values.h.p, r.list[r.curList].h.p, count,
		r.acc.h.p, r.touched.h.p, r.list[1-r.curList].h.p, r.ctr.h.p, unsafe.Pointer(&ev[0])); err != nil {
		return StepCounters{}, nil, err
	}
	c, err := r.counters()
	if err != nil {
		return c, nil, err
	}
	t, err := r.times(2)
	r.curList = 1 - r.curList
	return c, t, err
}

// Pull runs one pull (bottom-up) step of prog (BFS only, over an undirected
// layout) from the current flags to the next ones (which become current) and
// returns the counters and the kernel's time in milliseconds (PullPhases).
func (r *MinRun) Pull(prog int) (StepCounters, []float32, error) {
	dev := r.dl.dev.ordinal
	desc, ev := r.cargs()
	if err := backendMinPull(dev, prog, unsafe.Pointer(desc), r.values.h.p, r.flags[r.curFlags].h.p,
		r.flags[1-r.curFlags].h.p, r.ctr.h.p, unsafe.Pointer(&ev[0])); err != nil {
		return StepCounters{}, nil, err
	}
	c, err := r.counters()
	if err != nil {
		return c, nil, err
	}
	t, err := r.times(1)
	r.curFlags = 1 - r.curFlags
	return c, t, err
}

// Sample times the sparse advance of every stride-th vertex of the current
// list (count of them) as a dry run, in milliseconds.
func (r *MinRun) Sample(prog int, count, stride uint32) (float32, error) {
	dev := r.dl.dev.ordinal
	desc, ev := r.cargs()
	if err := backendMinSample(dev, prog, unsafe.Pointer(desc), r.values.h.p, r.list[r.curList].h.p,
		count, stride, r.scratch.h.p, unsafe.Pointer(&ev[0])); err != nil {
		return 0, err
	}
	if err := backendEventSync(dev, evp(r.ev[1])); err != nil {
		return 0, err
	}
	t, err := r.times(1)
	if err != nil {
		return 0, err
	}
	return t[0], nil
}

// ToList converts the current flags into the current list and returns the
// time it took in milliseconds (waiting for it).
func (r *MinRun) ToList() (float32, error) {
	dev := r.dl.dev.ordinal
	return r.timed(func() error {
		return backendFlagsToList(dev, r.flags[r.curFlags].h.p, r.n, r.list[r.curList].h.p, r.pos.h.p)
	})
}

// ToFlags converts the current list of count vertices into the current
// flags and returns the time it took in milliseconds (waiting for it).
func (r *MinRun) ToFlags(count uint32) (float32, error) {
	dev := r.dl.dev.ordinal
	return r.timed(func() error {
		return backendListToFlags(dev, r.list[r.curList].h.p, count, r.flags[r.curFlags].h.p, r.n)
	})
}

func (r *MinRun) timed(f func() error) (float32, error) {
	dev := r.dl.dev.ordinal
	if err := backendEventRecord(dev, evp(r.ev[0]), nil); err != nil {
		return 0, err
	}
	if err := f(); err != nil {
		return 0, err
	}
	if err := backendEventRecord(dev, evp(r.ev[1]), nil); err != nil {
		return 0, err
	}
	if err := backendEventSync(dev, evp(r.ev[1])); err != nil {
		return 0, err
	}
	t, err := r.times(1)
	if err != nil {
		return 0, err
	}
	return t[0], nil
}

// evp turns an event handle back into the pointer the C API takes (it was
// made by the C API; the conversion only restores its type).
func evp(e uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&e)) }

// cargs returns copies of the layout descriptor and the event handles for a
// C call: cgo checks all of the Go allocation an unsafe.Pointer argument
// points into, so they must not be passed as fields of r or dl, whose other
// fields are Go pointers.
func (r *MinRun) cargs() (*dlayout, *[4]uintptr) {
	desc, ev := new(dlayout), new([4]uintptr)
	*desc, *ev = r.dl.desc, r.ev
	return desc, ev
}
