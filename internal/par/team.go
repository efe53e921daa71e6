package par

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	_ "unsafe" // go:linkname
)

// teamSpin is how long a helper of a Team waits for its next task by
// spinning before it exits. A run of small steps (a BFS or SSSP on a grid
// or road network: thousands of steps of tens of microseconds; a BC's
// levels) hands its helpers a task every few microseconds; a goroutine
// started for each task would wake a parked thread each time (a futex wake
// and a reschedule, tens of microseconds on a loaded machine: more than
// the task itself), while a helper spinning between tasks takes the next
// one at once, as an OpenMP thread does. A helper idle for longer exits,
// so an idle Team holds no goroutines.
const teamSpin = 200 * time.Microsecond

// teamPollEvery is how many spins of a waiting helper or caller pass
// between looks at the clock (a vDSO call, not at every spin).
const teamPollEvery = 16

// teamYield is how long a waiting helper or caller spins between calls to
// runtime.Gosched, which let other goroutines of the same P run (such as
// a helper that has just been started, or the workers of the pull step or
// of the result's copy that follows a sparse step while a helper still
// spins) and take the scheduler's lock: not at every spin. It is a time,
// not a number of spins, because a PAUSE instruction lasts from a few
// cycles to over 60 (AMD Zen 5: 1024 spins of spinPause took 0.47 ms,
// during which a goroutine queued behind a spinning helper waited, and the
// helper outlived teamSpin by as much).
const teamYield = 50 * time.Microsecond

// spinPause is how many PAUSE instructions a spinning helper or caller
// runs between two looks at what it waits for: a spinning thread then
// leaves its core's execution units and memory bandwidth to the other
// thread of the core (SMT), which may be the one doing the step's work.
const spinPause = 20

// procyield runs cycles PAUSE instructions (the runtime's, as sync.Mutex
// spins; see go.dev/issue/67401).
//
//go:linkname procyield runtime.procyield
func procyield(cycles uint32)

// Slot states of a Team's helper.
const (
	slotDead    uint32 = iota // no goroutine: the next task starts one
	slotIdle                  // a goroutine spinning for its next task
	slotPosted                // a task handed over, not taken yet
	slotRunning               // the helper runs the task
)

// Team runs parallel phases of fn(0..k-1) with fn(0) on the caller's
// goroutine and fn(1..k-1) on helper goroutines that outlive each call by
// up to teamSpin, spinning for the next one: a fork and join of a few
// microseconds, against the tens of a goroutine started per phase (which
// wakes a parked thread), for runs of thousands of small phases (a sparse
// engine's steps on a grid, a BC's levels).
//
// A Team is used by one goroutine at a time; its zero value is not usable
// (NewTeam). It needs no Close: its helpers exit once idle for teamSpin,
// so an idle Team holds no goroutines and may simply be dropped.
type Team struct {
	slots   []teamSlot // helper w runs in slots[w-1]
	pending atomic.Int32
	// spin is how long an idle helper spins (teamSpin), and yield how long
	// a waiting caller or helper spins between yields (teamYield); a Team
	// of more goroutines than GOMAXPROCS does not spin (both 0: it yields
	// at every look at the clock): its spinning helpers would take the Ps
	// the others need.
	spin, yield time.Duration
}

// teamSlot is one helper's hand-over point, padded so that helpers do not
// share cache lines.
type teamSlot struct {
	state atomic.Uint32
	fn    func(w int) // the task, written before state turns posted
	w     int
	_     [40]byte
}

// NewTeam returns a Team of up to workers goroutines (Workers(workers):
// 0 for GOMAXPROCS), the caller's included; none is started until the
// first Run.
func NewTeam(workers int) *Team {
	workers = Workers(workers)
	t := &Team{slots: make([]teamSlot, workers-1), spin: teamSpin, yield: teamYield}
	if workers > runtime.GOMAXPROCS(0) {
		t.spin, t.yield = 0, 0
	}
	return t
}

// Workers returns how many goroutines the Team runs a call on at most
// without starting goroutines of their own (the caller's included).
func (t *Team) Workers() int { return len(t.slots) + 1 }

// Run calls fn(0..k-1) concurrently, fn(0) on the calling goroutine, and
// returns when every call has returned. More calls than the Team has
// workers run on goroutines of their own.
func (t *Team) Run(k int, fn func(w int)) { t.start(k, fn, false) }

// RunShared is Run for tasks that share their work through a counter
// (each call takes pieces until none is left): once fn(0) returns, every
// piece has been taken, so the calls a helper has not begun yet (one whose
// thread is slow to be scheduled, or preempted by another process) are
// dropped instead of waited for. A call that has begun is waited for. fn
// must therefore leave nothing undone when a call w > 0 never runs.
func (t *Team) RunShared(k int, fn func(w int)) { t.start(k, fn, true) }

// start is Run and RunShared.
func (t *Team) start(k int, fn func(w int), shared bool) {
	if k <= 1 {
		fn(0)
		return
	}
	if k > len(t.slots)+1 {
		Fork(k, fn)
		return
	}
	t.pending.Store(int32(k - 1))
	for w := 1; w < k; w++ {
		s := &t.slots[w-1]
		s.fn, s.w = fn, w
		if s.state.CompareAndSwap(slotIdle, slotPosted) {
			continue // a spinning helper takes it
		}
		s.state.Store(slotPosted)
		go t.help(s)
	}
	fn(0)
	if shared {
		for w := 1; w < k; w++ {
			if t.slots[w-1].state.CompareAndSwap(slotPosted, slotIdle) {
				t.pending.Add(-1) // not begun: dropped
			}
		}
	}
	var w waiter
	for t.pending.Load() != 0 {
		w.spin(t.yield)
	}
	for w := 1; w < k; w++ {
		t.slots[w-1].fn = nil
	}
}

// help is a helper's goroutine: it runs the tasks handed to slot s, and
// exits once teamSpin passes without one.
func (t *Team) help(s *teamSlot) {
	for t.await(s) {
		s.fn(s.w)
		s.state.Store(slotIdle)
		t.pending.Add(-1)
	}
}

// await spins until slot s is handed a task, takes it and returns true, or
// until teamSpin passes without one, when it marks the slot dead and
// returns false. The hand-over, the exit and a RunShared caller dropping
// the task race on the slot's state; whichever swaps it first wins.
func (t *Team) await(s *teamSlot) bool {
	var w waiter
	for {
		if s.state.Load() == slotPosted && s.state.CompareAndSwap(slotPosted, slotRunning) {
			return true
		}
		if w.spin(t.yield) && w.since >= t.spin && s.state.CompareAndSwap(slotIdle, slotDead) {
			return false
		}
	}
}

// Fork calls fn(0..k-1) on k goroutines, fn(0) on the caller's, and waits
// for them all: a fresh goroutine per worker (Team keeps them between
// calls instead).
func Fork(k int, fn func(w int)) {
	if k <= 1 {
		fn(0)
		return
	}
	var wg sync.WaitGroup
	wg.Add(k - 1)
	for w := 1; w < k; w++ {
		go func() {
			defer wg.Done()
			fn(w)
		}()
	}
	fn(0)
	wg.Wait()
}

// waiter is the state of a spin wait: its spins, its first look at the
// clock (the wait's start, teamPollEvery spins late) and when it last
// yielded.
type waiter struct {
	spins       int
	start, last time.Time
	since       time.Duration // from start to the last look at the clock
}

// spin runs one spin of a wait (spinPause PAUSE instructions); every
// teamPollEvery spins it looks at the clock, yields (runtime.Gosched) when
// yield has passed since the last yield, and reports true (since updated).
func (w *waiter) spin(yield time.Duration) bool {
	procyield(spinPause)
	if w.spins++; w.spins%teamPollEvery != 0 {
		return false
	}
	now := time.Now()
	if w.start.IsZero() {
		w.start, w.last = now, now
	}
	w.since = now.Sub(w.start)
	if now.Sub(w.last) >= yield {
		runtime.Gosched()
		w.last = now
	}
	return true
}
