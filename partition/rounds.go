package partition

import (
	"context"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
)

// roundsGrain is the fewest owned vertices per core of a round's passes.
const roundsGrain = 1 << 12

// The states of RunMIS (undecided is apps.Unreached, as colours' unset).
const (
	misOut uint32 = 0
	misIn  uint32 = 1
)

// RunMIS finds a maximal independent set of an undirected graph over its
// parts by Luby's rule as apps.MIS: each round, every undecided vertex
// whose (priority, original id) beats all its undecided neighbours' joins
// the set and its neighbours leave. The priorities are drawn from seed
// and the round over original ids, so the set does not depend on the
// partition (but is not apps.MIS's, whose ids are a layout's). It returns
// membership at original ids. The parts run on their devices when ex is
// a StateExchanger that has device parts for the backends and host is
// false (the same set), else on the host with workers cores.
func RunMIS(ctx context.Context, parts []*Part, backends []engine.Backend, seed uint64, ex Exchanger, host bool, workers int) ([]bool, Stats, error) {
	states, st, err := runRounds(ctx, "mis", parts, backends, seed, ex, host, workers)
	if err != nil {
		return nil, st, err
	}
	in := make([]bool, len(states))
	for v, s := range states {
		in[v] = s == misIn
	}
	return in, st, nil
}

// RunColor colours an undirected graph over its parts by Jones and
// Plassmann's rule as apps.Color: each round, every uncoloured vertex
// whose (degree, priority, original id) beats all its uncoloured
// neighbours' takes the smallest colour none of its neighbours has (at
// most Δ+1 colours). It returns the colours at original ids; on device
// parts (ex and host as RunMIS's, the same colours) they may be memory
// the parts reuse, valid until their next run.
func RunColor(ctx context.Context, parts []*Part, backends []engine.Backend, seed uint64, ex Exchanger, host bool, workers int) ([]uint32, Stats, error) {
	return runRounds(ctx, "color", parts, backends, seed, ex, host, workers)
}

// runRounds is RunMIS and RunColor: on device parts (runDeviceState), or
// on the host, where the parts run the rounds in lockstep,
// reading their ghosts' states in their owners' arrays between barriers
// (they share the process's memory, as RunPageRank's host parts do):
//
//  1. every undecided owned vertex compares itself with its undecided
//     neighbours, owned or ghosts (win);
//  2. barrier; the winners join (MIS) or take a colour (colouring: the
//     smallest no neighbour has, a ghost's read at its owner);
//  3. MIS: barrier; each joined vertex's undecided neighbours leave, a
//     ghost's at its owner (each such write is of misOut alone);
//  4. barrier; the undecided vertices are counted over the parts.
func runRounds(ctx context.Context, app string, parts []*Part, backends []engine.Backend, seed uint64, ex Exchanger, host bool, workers int) ([]uint32, Stats, error) {
	var st Stats
	fail := func(err error) ([]uint32, Stats, error) {
		return nil, st, fmt.Errorf("partition: run %s: %w", app, err)
	}
	if err := checkUndirectedParts(app, parts, backends); err != nil {
		return fail(err)
	}
	n := parts[0].NumVertices
	st.Converged = true
	if n == 0 {
		return []uint32{}, st, nil
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	if err := checkExchanger(ex, len(parts)); err != nil {
		return fail(err)
	}
	sps, taking, err := deviceStateParts(app, parts, backends, ex, host)
	if err != nil {
		return fail(err)
	}
	if sps != nil {
		out, st, err := runDeviceState(ctx, sps, parts, ex, app, seed, taking)
		if err != nil {
			return fail(err)
		}
		st.Converged = true
		return out, st, nil
	}
	rps := make([]*roundsPart, len(parts))
	for i, pt := range parts {
		l := backends[i].Layout()
		if l.NumVertices != pt.NumPartVertices() || uint64(len(l.Perm)) != l.NumVertices {
			return fail(fmt.Errorf("part %d: a layout of %d vertices for %d owned and %d ghosts", i, l.NumVertices, pt.NumLocal, pt.NumGhosts))
		}
		rps[i] = &roundsPart{w: &worker{rank: i, pt: pt, b: backends[i], l: l}, mis: app == "mis", seed: seed, workers: workers}
	}
	bar := NewBarrier(len(parts))
	sums := newHostSums(bar, len(parts))
	for _, rp := range rps {
		rp.init(rps, bar, sums)
	}
	out := make([]uint32, n)
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	for _, rp := range rps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := rp.run(runCtx); err != nil {
				rp.w.err = fmt.Errorf("part %d: %w", rp.w.rank, err)
				cancel(rp.w.err)
				return
			}
			start := time.Now()
			rp.collect(out)
			rp.w.collect = time.Since(start)
		}()
	}
	wg.Wait()
	ws := make([]*worker, len(rps))
	for i, rp := range rps {
		ws[i] = rp.w
	}
	if err := runError(ctx, runCtx, ws); err != nil {
		return fail(err)
	}
	st = mergeStats(ws)
	return out, st, nil
}

// roundsPart is one part of runRounds, in its layout's numbering: the
// owned vertices' states (apps.Unreached while undecided; MIS's misIn or
// misOut, or a colour), which the other parts read for their ghosts, and
// where each ghost's state lives.
type roundsPart struct {
	w       *worker
	mis     bool
	seed    uint64
	workers int
	bar     *Barrier
	sums    *hostSums
	all     []*roundsPart
	owned   []uint32 // the owned vertices' layout ids (the part's numbering)
	orig    []uint32 // every layout id's original id
	state   []uint32 // by layout id; the ghosts' entries are unused
	win     []uint8
	// blocker[v] is the neighbour that beat owned vertex v when it last
	// lost (noBlocker before): a later round tries it first.
	blocker []uint32
	// ghostState[lid] points at the state of the ghost at layout id lid in
	// its owner's array (nil for owned vertices).
	ghostState []*uint32
	undecided  uint64 // the owned vertices undecided
}

// init sets every owned vertex undecided and ties the ghosts to their
// owners' states (every part's arrays exist before any reads them).
func (rp *roundsPart) init(all []*roundsPart, bar *Barrier, sums *hostSums) {
	pt, l := rp.w.pt, rp.w.l
	rp.all, rp.bar, rp.sums = all, bar, sums
	rp.owned = l.Perm[:pt.NumLocal]
	rp.state = make([]uint32, l.NumVertices)
	rp.win = make([]uint8, l.NumVertices)
	rp.blocker = make([]uint32, l.NumVertices)
	for i := range rp.blocker {
		rp.blocker[i] = noBlocker
	}
	rp.ghostState = make([]*uint32, l.NumVertices)
	rp.orig = pt.OriginalIDs(l.Perm)
	for _, v := range rp.owned {
		rp.state[v] = apps.Unreached
	}
	rp.undecided = pt.NumLocal
}

// tie points each ghost at its owner's state (after every part's init).
func (rp *roundsPart) tie() {
	pt, l := rp.w.pt, rp.w.l
	for g := range pt.NumGhosts {
		o := rp.all[pt.GhostOwner[g]]
		rp.ghostState[l.Perm[pt.NumLocal+g]] = &o.state[o.w.l.Perm[pt.GhostRemote[g]]]
	}
}

// stateOf is layout id u's state: its own, or its owner's for a ghost.
func (rp *roundsPart) stateOf(u uint32) uint32 {
	if p := rp.ghostState[u]; p != nil {
		return atomic.LoadUint32(p)
	}
	return atomic.LoadUint32(&rp.state[u])
}

// neighbours calls fn for every neighbour of owned vertex v other than v.
func (rp *roundsPart) neighbours(v uint32, fn func(u uint32)) {
	l := rp.w.l
	for _, u := range l.SparseDst[l.SparseOffsets[v]:l.SparseOffsets[v+1]] {
		if u != v {
			fn(u)
		}
	}
}

// beats says whether neighbour u outranks v in round seed: (degree first
// for colouring), priority, original id.
func (rp *roundsPart) beats(u, v uint32, degU, degV uint64, seed uint64) bool {
	if !rp.mis && degU != degV {
		return degU > degV
	}
	pv, pu := apps.Priority(rp.orig[v], seed), apps.Priority(rp.orig[u], seed)
	return pu > pv || (pu == pv && rp.orig[u] > rp.orig[v])
}

// run runs the rounds until no vertex is undecided on any part.
func (rp *roundsPart) run(ctx context.Context) error {
	w := rp.w
	start := time.Now()
	rp.tie()
	w.setup = time.Since(start)
	if err := rp.bar.Wait(ctx); err != nil { // every part tied before any state changes
		return err
	}
	for round := uint64(0); ; round++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		active := rp.undecided
		rp.mark(rp.seed + round)
		var ph Phases
		clock := NewPhaseClock()
		if err := rp.bar.Wait(ctx); err != nil { // every part marked against unchanged states
			return err
		}
		clock.Lap(&ph.Exchange)
		rp.decide()
		if rp.mis {
			if err := rp.bar.Wait(ctx); err != nil { // the joins are in before the exclusions
				return err
			}
			rp.exclude()
		}
		if err := rp.bar.Wait(ctx); err != nil { // every state written before the count
			return err
		}
		clock.Lap(&ph.Exchange)
		rp.undecided = rp.count()
		total, err := rp.sums.sum(ctx, rp.w.rank, [3]float64{float64(rp.undecided)})
		if err != nil {
			return err
		}
		clock.Lap(&ph.Reduce)
		w.steps = append(w.steps, rankStep{active: active, wall: time.Since(start), compute: time.Since(start) - ph.Exchange - ph.Reduce, phases: ph})
		if total[0] == 0 {
			w.done = true
			return nil
		}
	}
}

// noBlocker marks a vertex that has not lost a round yet (roundsPart's
// blocker).
const noBlocker = ^uint32(0)

// mark sets win for the undecided owned vertices that beat every
// undecided neighbour. One undecided neighbour that beats a vertex is
// enough for it to lose: the one that beat it last time is tried first
// (while undecided, a neighbour of higher degree beats a vertex's
// colouring every round), then the row up to the first.
func (rp *roundsPart) mark(seed uint64) {
	l := rp.w.l
	deg := func(u uint32) uint64 { return l.SparseOffsets[u+1] - l.SparseOffsets[u] }
	beaten := func(u, v uint32) bool {
		return rp.stateOf(u) == apps.Unreached && rp.beats(u, v, rp.degreeOf(u, deg), deg(v), seed)
	}
	par.For(len(rp.owned), rp.workers, roundsGrain, func(lo, hi int) {
		for _, v := range rp.owned[lo:hi] {
			rp.win[v] = 0
			if rp.state[v] != apps.Unreached {
				continue
			}
			if b := rp.blocker[v]; b != noBlocker && beaten(b, v) {
				continue
			}
			won := true
			for _, u := range l.SparseDst[l.SparseOffsets[v]:l.SparseOffsets[v+1]] {
				if u != v && beaten(u, v) {
					won = false
					rp.blocker[v] = u
					break
				}
			}
			if won {
				rp.win[v] = 1
			}
		}
	})
}

// degreeOf is u's degree: its row's length, or for a ghost its owner's.
func (rp *roundsPart) degreeOf(u uint32, deg func(uint32) uint64) uint64 {
	if rp.ghostState[u] == nil {
		return deg(u)
	}
	pt, l := rp.w.pt, rp.w.l
	g := uint64(l.InvPerm[u]) - pt.NumLocal
	o := rp.all[pt.GhostOwner[g]]
	return o.w.l.OutDegree(o.w.l.Perm[pt.GhostRemote[g]])
}

// decide lets the winners join (MIS) or take the smallest colour none of
// their neighbours has (colouring).
func (rp *roundsPart) decide() {
	par.For(len(rp.owned), rp.workers, roundsGrain, func(lo, hi int) {
		for _, v := range rp.owned[lo:hi] {
			if rp.win[v] == 0 {
				continue
			}
			if rp.mis {
				atomic.StoreUint32(&rp.state[v], misIn)
				continue
			}
			for base := uint32(0); ; base += 64 { // colours [base, base+64) at a time
				var used uint64
				rp.neighbours(v, func(u uint32) {
					if c := rp.stateOf(u); c != apps.Unreached && c >= base && c-base < 64 {
						used |= 1 << (c - base)
					}
				})
				if used != ^uint64(0) {
					atomic.StoreUint32(&rp.state[v], base+uint32(bits.TrailingZeros64(^used)))
					break
				}
			}
		}
	})
}

// exclude takes the undecided neighbours of the vertices that joined out
// of the running, a ghost at its owner.
func (rp *roundsPart) exclude() {
	par.For(len(rp.owned), rp.workers, roundsGrain, func(lo, hi int) {
		for _, v := range rp.owned[lo:hi] {
			if rp.win[v] == 0 {
				continue
			}
			rp.neighbours(v, func(u uint32) {
				p := rp.ghostState[u]
				if p == nil {
					p = &rp.state[u]
				}
				atomic.CompareAndSwapUint32(p, apps.Unreached, misOut)
			})
		}
	})
}

// count is the number of undecided owned vertices.
func (rp *roundsPart) count() uint64 {
	var c uint64
	for _, v := range rp.owned {
		if rp.state[v] == apps.Unreached {
			c++
		}
	}
	return c
}

// collect writes the owned vertices' states at their original ids.
func (rp *roundsPart) collect(out []uint32) {
	for i, v := range rp.owned {
		out[rp.w.pt.Global[i]] = rp.state[v]
	}
}
