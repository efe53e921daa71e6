package cuda

import "unsafe"

// stepState is what the device engines' runs (MinRun, SumRun) share
// whatever their value type: the frontier as two lists and two flag arrays
// (current and next), the sparse step's touched list, an all-ones flag array
// for dry dense steps, the counters a step leaves for the host, and the
// events that time the kernels. It owns its buffers and events.
type stepState struct {
	dl                *DeviceLayout
	n                 uint64
	touched           *Buffer[uint32]
	list              [2]*Buffer[uint32]
	flags             [2]*Buffer[uint8]
	ones              *Buffer[uint8]
	ctr               *Buffer[StepCounters]
	pos               *Buffer[uint32]
	ev                [4]uintptr // event handles as uintptr (see dlayout)
	curList, curFlags int
	// The device loop's state, records and two counters (SparseLoop),
	// allocated on its first use.
	loopState *Buffer[loopState]
	records   *Buffer[LoopRecord]
	loopCtr   *Buffer[StepCounters]
	rows      blockRows // the one-block runs' fixed-width rows (block.go), built on first use
	// clusterSpill is the cluster runs' spill (cluster.go), allocated on
	// first use.
	clusterSpill *Buffer[uint32]
	owned
}

// Kernel phase names of the steps' times, in order.
var (
	DensePhases  = []string{"phase1-heavy", "phase1-light", "phase2"}
	SparsePhases = []string{"advance", "apply"}
	PullPhases   = []string{"pull"}
)

// initSteps allocates the frontier state over dl.
func (s *stepState) initSteps(dl *DeviceLayout) error {
	s.dl, s.n = dl, dl.desc.n
	n := int(s.n)
	var err error
	for _, p := range []**Buffer[uint32]{&s.touched, &s.list[0], &s.list[1]} {
		if *p, err = allocOwned[uint32](&s.owned, dl.dev, n); err != nil {
			return err
		}
	}
	for i := range s.flags {
		if s.flags[i], err = allocOwned[uint8](&s.owned, dl.dev, n); err != nil {
			return err
		}
	}
	if s.ctr, err = allocOwned[StepCounters](&s.owned, dl.dev, 1); err != nil {
		return err
	}
	if s.pos, err = allocOwned[uint32](&s.owned, dl.dev, 1); err != nil {
		return err
	}
	return s.newEvents(dl.dev, s.ev[:])
}

// bufSpec names a buffer to allocate and its length (allocEach).
type bufSpec[T any] struct {
	p **Buffer[T]
	n int
}

// allocEach allocates every buffer of specs on dev, owned by o.
func allocEach[T any](o *owned, dev Device, specs ...bufSpec[T]) error {
	for _, b := range specs {
		var err error
		if *b.p, err = allocOwned[T](o, dev, b.n); err != nil {
			return err
		}
	}
	return nil
}

// loadFrontier copies the initial frontier (a list, or flags when flags is
// not nil) into the current list or flags.
func (s *stepState) loadFrontier(list []uint32, flags []uint8) error {
	if flags != nil {
		return s.flags[s.curFlags].CopyFromHost(flags)
	}
	return s.list[s.curList].CopyFromHost(list)
}

// activeFlags returns the flags a dense step reads: the current ones, or
// (dry) an all-ones array allocated on first use.
func (s *stepState) activeFlags(dry bool) (unsafe.Pointer, error) {
	if !dry {
		return s.flags[s.curFlags].h.p, nil
	}
	if s.ones == nil {
		ones, err := allocOwned[uint8](&s.owned, s.dl.dev, int(s.n))
		if err != nil {
			return nil, err
		}
		if err := ones.Memset(1); err != nil {
			return nil, err
		}
		s.ones = ones
	}
	return s.ones.h.p, nil
}

// finishStep reads a step's counters (waiting for it) and the times of its
// k kernels phases, and makes the next flags (flip) or list current.
func (s *stepState) finishStep(k int, flipFlags, flipList bool) (StepCounters, []float32, error) {
	c, err := s.counters()
	if err != nil {
		return c, nil, err
	}
	t, err := s.times(k)
	if flipFlags {
		s.curFlags = 1 - s.curFlags
	}
	if flipList {
		s.curList = 1 - s.curList
	}
	return c, t, err
}

func (s *stepState) counters() (StepCounters, error) {
	c := make([]StepCounters, 1)
	err := s.ctr.CopyToHost(c) // synchronous: waits for the step
	return c[0], err
}

// times returns the elapsed milliseconds between events 0..k.
func (s *stepState) times(k int) ([]float32, error) {
	return eventTimes(s.dl.dev.ordinal, s.ev[:k+1])
}

// eventTimes returns the milliseconds between consecutive events of ev on
// device dev.
func eventTimes(dev int, ev []uintptr) ([]float32, error) {
	out := make([]float32, len(ev)-1)
	for i := range out {
		ms, err := backendEventElapsed(dev, evp(ev[i]), evp(ev[i+1]))
		if err != nil {
			return nil, err
		}
		out[i] = ms
	}
	return out, nil
}

// ToList converts the current flags into the current list and returns the
// time it took in milliseconds (waiting for it).
func (s *stepState) ToList() (float32, error) {
	dev := s.dl.dev.ordinal
	return s.timed(func() error {
		return backendFlagsToList(dev, s.flags[s.curFlags].h.p, s.n, s.list[s.curList].h.p, s.pos.h.p)
	})
}

// ToFlags converts the current list of count vertices into the current
// flags and returns the time it took in milliseconds (waiting for it).
func (s *stepState) ToFlags(count uint32) (float32, error) {
	dev := s.dl.dev.ordinal
	return s.timed(func() error {
		return backendListToFlags(dev, s.list[s.curList].h.p, count, s.flags[s.curFlags].h.p, s.n)
	})
}

// timed runs f between two events and returns their distance in
// milliseconds (waiting for the second).
func (s *stepState) timed(f func() error) (float32, error) {
	dev := s.dl.dev.ordinal
	if err := backendEventRecord(dev, evp(s.ev[0]), nil); err != nil {
		return 0, err
	}
	if err := f(); err != nil {
		return 0, err
	}
	if err := backendEventRecord(dev, evp(s.ev[1]), nil); err != nil {
		return 0, err
	}
	if err := backendEventSync(dev, evp(s.ev[1])); err != nil {
		return 0, err
	}
	t, err := s.times(1)
	if err != nil {
		return 0, err
	}
	return t[0], nil
}

// sampleTime waits for a sample's second event and returns its time.
func (s *stepState) sampleTime() (float32, error) {
	if err := backendEventSync(s.dl.dev.ordinal, evp(s.ev[1])); err != nil {
		return 0, err
	}
	t, err := s.times(1)
	if err != nil {
		return 0, err
	}
	return t[0], nil
}

// evp turns an event handle, or a device address held as uintptr, back
// into the pointer the C API takes (it was made by the C API; the
// conversion only restores its type).
func evp(e uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&e)) }

// cargs returns copies of the layout descriptor and the event handles for a
// C call: cgo checks all of the Go allocation an unsafe.Pointer argument
// points into, so they must not be passed as fields of a run or of dl, whose
// other fields are Go pointers.
func (s *stepState) cargs() (*dlayout, *[4]uintptr) {
	desc, ev := new(dlayout), new([4]uintptr)
	*desc, *ev = s.dl.desc, s.ev
	return desc, ev
}
