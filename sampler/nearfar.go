package sampler

import (
	"math"

	"github.com/mgraph-dev/mgraph/engine"
)

// PhaseNearFar names the part of an iteration that near-far spends
// splitting the next frontier into its near band and the far pile, and
// refilling an empty band from the pile.
const PhaseNearFar = "near-far"

// nearFar is a run's near-far state (SSSP: Davidson et al.'s near-far
// buckets, the scheme of the GPU's device loops, cuda.MinRun.SparseLoop):
// a vertex an iteration activates at a value of at least the split waits in
// the far pile instead of joining the next frontier; when the next frontier
// is empty, the split moves past the smallest piled value by delta and the
// piled vertices below it form the next frontier. Each iteration's frontier
// is then a band of the wavefront, and a vertex is seldom relaxed before
// its distance is final: far fewer arc visits than a plain data-driven
// Bellman–Ford, in more, smaller iterations.
//
// The split starts at 0, so every vertex the first iteration activates is
// piled and the first bucket starts at the smallest of their values, as on
// the device. The sparse stepper splits the next frontiers of sparse steps
// as it makes them (engine.NearFarStepper); a dense or pull step's next
// frontier, large and no band of a wavefront, is not split: its far
// vertices run early, as in a plain iteration (a piled one among them is
// run again when its bucket comes), and only an empty one is refilled.
type nearFar struct {
	delta  uint32
	op     engine.EdgeOp // how the split moves by delta (engine.NearFarAdd)
	split  uint32
	values []uint32
	pile   []uint32 // may hold stale entries (inFar clear): skipped
	inFar  []uint32 // a bitset of the piled vertices, the runner's, clear between runs
}

// splitNext splits next (distinct vertices) at the split
// (engine.SplitNearFar, in place) and returns the near ones; when there
// are none it refills them from the pile (refill).
func (nf *nearFar) splitNext(next []uint32) []uint32 {
	next, nf.pile = engine.SplitNearFar(nf.values, next, nf.split, nf.inFar, nf.pile)
	if len(next) == 0 {
		next = nf.refill(next)
	}
	return next
}

// piled reports whether v is in the pile (a live entry).
func (nf *nearFar) piled(v uint32) bool { return nf.inFar[v>>5]&(1<<(v&31)) != 0 }

// unpile clears v's pile flag.
func (nf *nearFar) unpile(v uint32) { nf.inFar[v>>5] &^= 1 << (v & 31) }

// refill moves the split past the smallest piled value by delta and the
// piled vertices below it into next (empty), keeping the others piled;
// next stays empty when nothing is piled.
func (nf *nearFar) refill(next []uint32) []uint32 {
	for len(next) == 0 && len(nf.pile) > 0 {
		low := uint32(math.MaxUint32)
		live := nf.pile[:0]
		for _, v := range nf.pile {
			if nf.piled(v) {
				low = min(low, nf.values[v])
				live = append(live, v)
			}
		}
		nf.pile = live
		if len(live) == 0 {
			break
		}
		nf.split = engine.NearFarAdd(nf.op, max(nf.split, low), nf.delta)
		kept := nf.pile[:0]
		for _, v := range nf.pile {
			if nf.values[v] < nf.split {
				nf.unpile(v)
				next = append(next, v)
			} else {
				kept = append(kept, v)
			}
		}
		nf.pile = kept
	}
	return next
}

// drain returns the live piled vertices appended to next and empties the
// pile, leaving every flag clear: the pile joins the frontier when the run
// hands over to an async runner, and is dropped (flags cleared) when it
// stops early.
func (nf *nearFar) drain(next []uint32) []uint32 {
	for _, v := range nf.pile {
		if nf.piled(v) {
			nf.unpile(v)
			next = append(next, v)
		}
	}
	nf.pile = nf.pile[:0]
	return next
}
