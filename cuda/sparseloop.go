package cuda

import (
	"fmt"
	"unsafe"
)

// LoopRecords is MG_LOOP_RECORDS: the most iterations one SparseLoop runs.
const LoopRecords = 1024

// LoopRule is the rule by which a device loop (MinRun.SparseLoop) goes on to
// the next iteration. It stops when the next frontier is empty, or has more
// than MaxCount vertices when MaxCount > 0 (the grid was sized for fewer). Without
// Hybrid (sparse forced) it goes on otherwise. With Hybrid it applies the
// host hybrid's rules to the next frontier: it stops when CanPull and the
// pull rule holds (sampler.PullPays over Unsettled and UnsettledVertices,
// decreased by each next frontier's out-arcs and vertices first), and
// when every vertex is in it while the ESP model is not Calibrated; it goes
// on when its out-arcs × FastRatio are below M, or when Calibrated and the
// ESP model, Fixed + ArcCost × out-arcs, is below EDP (seconds; the host's
// model, frozen for the loop); otherwise it stops.
type LoopRule struct {
	N, M      uint64 // vertices and arcs of the layout
	Unsettled uint64 // arcs of the unsettled vertices after the first iteration's frontier
	// UnsettledVertices: the vertices not yet in a frontier, after the
	// first iteration's.
	UnsettledVertices uint64
	Alpha, Beta       uint64  // the pull rule's constants
	PullArcRatio      float64 // and its cost check's (sampler.PullArcRatio)
	MaxCount          uint64  // 0, or the largest frontier the loop's grid is for
	Fixed             float64 // ESP model: a sparse step's fixed cost, seconds
	ArcCost           float64 // ESP model: seconds per frontier out-arc
	EDP               float64 // a dense step's time, seconds
	FastRatio         uint32  // a frontier of fewer than M / FastRatio out-arcs is small
	Hybrid            bool
	CanPull           bool
	Calibrated        bool   // Fixed, ArcCost and EDP hold
	Delta             uint32 // near-far bucket width (see SparseLoop), 0: off
	// PullMinArcs: the fewest frontier out-arcs for which the loop stops
	// for a pull step (0: any the pull rule takes).
	PullMinArcs uint64
	// PullInLoop (BFS over a layout with its in-adjacency on the device):
	// where the pull rule holds, the loop runs the pull (bottom-up) step
	// itself instead of stopping, and pulls again while the frontiers do
	// not shrink or hold more than N / Beta vertices (the host's rule);
	// PullFirst makes the loop's first iteration a pull step.
	PullInLoop, PullFirst bool
}

// loopRule mirrors mg_loop_rule (the cuda build checks its size).
type loopRule struct {
	n, m, unsettled, alpha, beta, maxCount uint64
	fixed, arcCost, edp                    float64
	fastRatio, hybrid, canPull, calibrated uint32
	delta, pullInLoop                      uint32
	unsettledVertices                      uint64
	pullArcRatio                           float64
	pullMinArcs                            uint64
	pullFirst, reserved                    uint32
}

func (r LoopRule) c() loopRule {
	b := func(x bool) uint32 {
		if x {
			return 1
		}
		return 0
	}
	return loopRule{n: r.N, m: r.M, unsettled: r.Unsettled, alpha: r.Alpha, beta: r.Beta, maxCount: r.MaxCount, fixed: r.Fixed,
		arcCost: r.ArcCost, edp: r.EDP, fastRatio: r.FastRatio, hybrid: b(r.Hybrid), canPull: b(r.CanPull),
		calibrated: b(r.Calibrated), delta: r.Delta, unsettledVertices: r.UnsettledVertices, pullArcRatio: r.PullArcRatio,
		pullMinArcs: r.PullMinArcs, pullInLoop: b(r.PullInLoop), pullFirst: b(r.PullFirst)}
}

// ESP returns the rule's ESP model for a frontier of edges out-arcs, in
// seconds.
func (r LoopRule) ESP(edges uint64) float64 { return r.Fixed + r.ArcCost*float64(edges) }

// LoopRecord mirrors mg_loop_record: one device-loop iteration's counters
// (its next frontier), the device's global timer when it ended, in ns, and
// whether it was a pull step (LoopRule.PullInLoop).
type LoopRecord struct {
	Counters StepCounters
	EndNs    uint64
	pull     uint32
	_        uint32
}

// Pulled reports whether the iteration was a pull (bottom-up) step.
func (r LoopRecord) Pulled() bool { return r.pull != 0 }

// loopState mirrors mg_loop_state.
type loopState struct {
	done, reserved uint32
	startNs        uint64
}

// Loop is what one SparseLoop call ran.
type Loop struct {
	Records []LoopRecord // one per iteration, in order
	StartNs uint64       // the device's global timer when the loop started
	Millis  float32      // the loop's kernel time, from CUDA events
}

// IterationSeconds returns the device time of the loop's iteration j, from
// the global timer (its resolution is about a microsecond).
func (lp Loop) IterationSeconds(j int) float64 {
	prev := lp.StartNs
	if j > 0 {
		prev = lp.Records[j-1].EndNs
	}
	return float64(lp.Records[j].EndNs-prev) / 1e9
}

// SparseLoop runs MultiGraphS iterations of prog from the current list of
// count vertices on the device, without a host round trip between them, for
// as long as rule allows and at most maxIters (1..LoopRecords) iterations,
// with blocksPerSM thread blocks per SM (0: as many as fit), and makes the
// last one's next list current. It waits for the loop.
//
// With rule.Delta > 0 the iterations are near-far (mg_min_sparse_loop): a
// vertex activated at a value of at least the split waits in a far pile;
// when the next frontier is empty, the split moves to the smallest waiting
// value plus Delta and the waiting vertices below it form the next frontier.
// The values reach the same fixed point in fewer arc visits (a vertex is not
// pushed on while a shorter path to it may still come), in more, smaller
// iterations; the last frontier the loop returns holds the pile too.
func (r *MinRun) SparseLoop(prog int, count uint32, maxIters int, blocksPerSM uint32, rule LoopRule) (Loop, error) {
	if err := r.startLoop(count, maxIters); err != nil {
		return Loop{}, err
	}
	var far0, far1, inFar, farState unsafe.Pointer
	if rule.Delta > 0 {
		if err := r.ensureFar(); err != nil {
			return Loop{}, err
		}
		far0, far1, inFar, farState = r.far[0].h.p, r.far[1].h.p, r.inFar.h.p, r.farState.h.p
	}
	desc, ev := r.cargs()
	cr := new(loopRule)
	*cr = rule.c()
	if err := backendMinSparseLoop(r.dl.dev.ordinal, prog, unsafe.Pointer(desc), r.values.h.p, r.list[r.curList].h.p,
		r.list[1-r.curList].h.p, count, uint32(maxIters), blocksPerSM, unsafe.Pointer(cr), far0, far1, inFar, farState, r.acc.h.p, r.touched.h.p, r.loopCtr.h.p,
		r.loopState.h.p, r.records.h.p, unsafe.Pointer(&ev[0])); err != nil {
		return Loop{}, err
	}
	return r.finishLoop(maxIters)
}

// SparseLoop is MinRun.SparseLoop for sum program p, without near-far
// (rule.Delta must be 0). BC's forward pass runs depth p.Depth + j in the
// loop's iteration j.
func (r *SumRun) SparseLoop(p SumProgram, count uint32, maxIters int, blocksPerSM uint32, rule LoopRule) (Loop, error) {
	if rule.Delta != 0 {
		return Loop{}, fmt.Errorf("sparse loop: near-far is for the min programs")
	}
	if err := r.startLoop(count, maxIters); err != nil {
		return Loop{}, err
	}
	desc, ev := r.cargs()
	cr := new(loopRule)
	*cr = rule.c()
	if err := backendSumSparseLoop(r.dl.dev.ordinal, p.ID, unsafe.Pointer(desc), unsafe.Pointer(r.params(p)),
		r.values.h.p, r.list[r.curList].h.p, r.list[1-r.curList].h.p, count, uint32(maxIters), blocksPerSM,
		unsafe.Pointer(cr), r.acc.h.p, r.touched.h.p, r.loopCtr.h.p, r.loopState.h.p, r.records.h.p,
		unsafe.Pointer(&ev[0])); err != nil {
		return Loop{}, err
	}
	return r.finishLoop(maxIters)
}

// startLoop checks a loop's arguments and allocates the loop buffers on
// first use.
func (r *stepState) startLoop(count uint32, maxIters int) error {
	if maxIters < 1 || maxIters > LoopRecords {
		return fmt.Errorf("sparse loop: %d iterations asked for, 1..%d allowed", maxIters, LoopRecords)
	}
	if count == 0 {
		return fmt.Errorf("sparse loop: the frontier is empty")
	}
	if r.loopState != nil {
		return nil
	}
	var err error
	if r.loopState, err = allocOwned[loopState](&r.owned, r.dl.dev, 1); err != nil {
		return err
	}
	if r.records, err = allocOwned[LoopRecord](&r.owned, r.dl.dev, LoopRecords); err != nil {
		return err
	}
	r.loopCtr, err = allocOwned[StepCounters](&r.owned, r.dl.dev, 2)
	return err
}

// finishLoop waits for the loop just launched and reads what it ran; the
// last iteration's next list becomes current.
func (r *stepState) finishLoop(maxIters int) (Loop, error) {
	st := make([]loopState, 1)
	if err := r.loopState.CopyToHost(st); err != nil { // waits for the loop
		return Loop{}, err
	}
	done := int(st[0].done)
	if done < 1 || done > maxIters {
		return Loop{}, fmt.Errorf("sparse loop: the device reports %d iterations done of at most %d", done, maxIters)
	}
	lp := Loop{Records: make([]LoopRecord, done), StartNs: st[0].startNs}
	if err := r.records.CopyToHost(lp.Records); err != nil {
		return Loop{}, err
	}
	t, err := r.times(1)
	if err != nil {
		return Loop{}, err
	}
	lp.Millis = t[0]
	if done%2 == 1 {
		r.curList = 1 - r.curList
	}
	return lp, nil
}
