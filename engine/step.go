package engine

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Mode selects how iterations run.
type Mode uint8

const (
	// Hybrid samples both engines' costs and picks the cheaper one for each
	// iteration (MultiGraph §6).
	Hybrid Mode = iota
	// Dense forces MultiGraphD for every iteration.
	Dense
	// Sparse forces MultiGraphS for every iteration.
	Sparse
	// Async runs without iterations (SEP-Graph's Async + Push +
	// data-driven mode): a vertex a relaxation lowers is processed as soon
	// as a worker takes it from a shared worklist, reading whatever values
	// are current. For Monotone min programs, data-driven PageRank and (on
	// the GPU, undirected graphs) Brandes' BC; others refuse it
	// (ErrNotMonotone).
	Async
	// Auto is Hybrid that, for a Monotone program, may hand a long run
	// over to Async: from AutoAsyncIterations on, at each iteration the
	// hybrid would run as a sparse step, a cost model (package sampler's
	// AsyncCosts, SEP-Graph's Algorithm 1 with the backend's measured
	// costs) estimates the rest of the run synchronously and
	// asynchronously from the frontier's growth, and the rest runs
	// asynchronously from that frontier when that is cheaper (a graph of
	// high diameter: every further iteration would pay a barrier for
	// little work). Other programs run as in Hybrid.
	Auto
	// Pull forces a pull step for every iteration (SEP-Graph's Sync + Pull):
	// every vertex gathers the contributions of its active in-neighbours —
	// an EarlyExit program (BFS) stops a row at the first, the other min
	// programs (SSSP, CC by label propagation) read the whole row. For the
	// min programs on both backends (on the GPU a weighted pull needs an
	// undirected layout), and for topology-driven PageRank (each vertex
	// sums its in-neighbours' shares, no atomics: on the CPU GAPBS's pull
	// on any graph, on the GPU its pull scheme); pr-delta and BC refuse it
	// (ErrPullMode).
	Pull
)

// ErrPullMode is returned (wrapped) for a run mode Pull cannot make.
var ErrPullMode = errors.New("mode pull runs the min programs (bfs, bfs-tree, sssp, cc-lp) and pr, not pr-delta or bc")

// AutoAsyncIterations is the first iteration at which Auto weighs going
// on asynchronously. Low-diameter graphs (R-MAT, Kronecker: a BFS takes 5
// to 10 iterations) rarely get there. On the GPU, a device loop returns
// to the host for the choice at this iteration and at each double of it;
// an earlier return (8 was tried) cost more than it saved: the host's
// step at the return chose dense steps for coAuthorsDBLP's SSSP that the
// loop's own rule had not (1.2 → 1.6 ms on an H200), while the 2048 grid
// handed over 8 iterations earlier gained nothing measurable.
const AutoAsyncIterations = 16

// Sync returns the mode the synchronous engines run for m: Hybrid for
// Auto, m itself otherwise.
func (m Mode) Sync() Mode {
	if m == Auto {
		return Hybrid
	}
	return m
}

// String names the mode as the CLI spells it.
func (m Mode) String() string {
	switch m {
	case Dense:
		return "dense"
	case Sparse:
		return "sparse"
	case Async:
		return "async"
	case Auto:
		return "auto"
	case Pull:
		return "pull"
	}
	return "hybrid"
}

// ParseMode reads "hybrid", "dense", "sparse", "async", "auto" or "pull".
func ParseMode(s string) (Mode, error) {
	switch s {
	case "hybrid":
		return Hybrid, nil
	case "dense":
		return Dense, nil
	case "sparse":
		return Sparse, nil
	case "async":
		return Async, nil
	case "auto":
		return Auto, nil
	case "pull":
		return Pull, nil
	}
	return Hybrid, fmt.Errorf("unknown mode %q (want hybrid, dense, sparse, async, auto or pull)", s)
}

// Phase is the time one phase of an iteration took.
type Phase struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
}

// DenseStepper runs MultiGraphD iterations.
type DenseStepper[V Value] interface {
	// Step runs one iteration: every source u with active[u] != 0
	// contributes along its arcs (inactive sources are masked), every vertex
	// is then applied, and next[v] is set to 1 for the vertices Apply made
	// active and 0 for the others. It returns the number of active vertices
	// in next and the time of each phase.
	Step(ctx context.Context, p Program[V], values []V, active, next []uint8) (uint64, []Phase, error)
	// Estimate returns the expected time of one full Step (EDP), measured by
	// running the dense path on a sample of the work without changing
	// values or any state a later Step reads.
	Estimate(ctx context.Context, p Program[V], values []V) (time.Duration, error)
}

// SparseStepper runs MultiGraphS iterations.
type SparseStepper[V Value] interface {
	// Step runs one iteration from the frontier list (distinct vertices):
	// their arcs contribute, the vertices that received a contribution (every
	// vertex when p.ApplyAll) are applied, and the ones Apply made active are
	// returned as the next frontier, without duplicates.
	Step(ctx context.Context, p Program[V], values []V, frontier []uint32) ([]uint32, []Phase, error)
	// Estimate returns the time the traversal of sample takes (a dry run that
	// writes only scratch memory, never values or a later Step's state).
	Estimate(ctx context.Context, p Program[V], values []V, sample []uint32) (time.Duration, error)
}

// EarlyExit is implemented by min programs whose iterations can run as a
// pull (bottom-up) step: every unsettled vertex scans its in-neighbours and
// stops at the first active one, instead of every active vertex pushing
// along all its arcs (Beamer's direction-optimizing BFS; SEP-Graph's pull).
// The hybrid uses such a step only for programs that implement EarlyExit
// and only on undirected layouts, where a vertex's out-row is also its
// in-row.
//
// A program may implement EarlyExit only if all of the following hold, for
// every run and every iteration:
//
//   - Combine is CombineMin and ApplyAll is false.
//   - Every contribution made in one iteration is equal: for any two active
//     sources u, u' and arcs of weights w, w',
//     Contribute(Edge, values[u], w) == Contribute(Edge, values[u'], w').
//     The combined value of any vertex that receives contributions is then
//     the first one, so Apply on the first contribution found is final for
//     that iteration. (BFS: every active vertex is at the current level and
//     the edge adds 1, never the weight.)
//   - Unsettled reports a vertex v settled only if no later contribution
//     can change it: Apply(v, c, values) then changes nothing and returns
//     false for any contribution c of this or a later iteration. A pull
//     step skips the vertices reported settled.
//   - Every active vertex is settled, and Apply changes values only of the
//     vertex it is called on: a pull step reads values[u] of active
//     vertices u while Apply runs concurrently on unsettled ones.
//
// Unsettled is called concurrently for disjoint ranges of vertices and must
// only read values (and write out).
type EarlyExit[V Value] interface {
	Program[V]
	// Unsettled sets out[i] to whether vertex lo+i may still take a
	// contribution (BFS: its level is still Unreached), for every i below
	// len(out). It answers for a range of vertices at once so that a pull
	// step makes one call per range, not one per vertex.
	Unsettled(lo uint32, values []V, out []bool)
}

// PlainMin is implemented by min programs over uint32 values whose Apply is
// exactly the min: Apply(v, acc, values) sets values[v] to acc and returns
// true when acc < values[v], and changes nothing and returns false
// otherwise, with no other state (BFS, SSSP; not CC, whose Apply follows
// labels). An engine may then fold a step's contributions straight into
// the values with an atomic min instead of combining them into an
// accumulator and calling Apply: with every contribution computed from the
// source values from before the step, the values and the set of vertices
// made active are those of a step that calls Apply.
type PlainMin interface {
	Program[uint32]
	PlainMin()
}

// NearFarStepper is implemented by sparse steppers that split a step's
// next frontier for near-far iterations (SSSP: sampler.Runner.WithNearFar)
// themselves, as they make it, rather than in a pass of their own.
type NearFarStepper interface {
	// StepNearFar is SparseStepper.Step of a min program over uint32
	// values, which then returns only the vertices of the next frontier
	// whose new value is below split; every other vertex of it whose bit
	// in the bitset piled is clear has its bit set and is appended to far,
	// which it returns. A vertex it returns has its bit cleared (an entry
	// of it in far, from this step or an earlier one, is then stale: far
	// may gain such entries, of vertices lowered below split after being
	// piled in the same step). This is SplitNearFar applied to Step's
	// result, stale entries aside.
	StepNearFar(ctx context.Context, p Program[uint32], values []uint32, frontier []uint32, split uint32, piled, far []uint32) (next, farOut []uint32, phases []Phase, err error)
}

// PullStepper runs pull (bottom-up) iterations of EarlyExit programs over an
// undirected layout.
type PullStepper[V Value] interface {
	// Step runs one iteration: for every vertex v that Unsettled reports,
	// v's in-neighbours are scanned until the first u with active[u] != 0,
	// and Apply(v, Contribute(p.Edge(), values[u], w), values) is called;
	// next[v] is set to 1 for the vertices Apply made active and 0 for all
	// others. It returns the number of active vertices in next and the time
	// of each phase. The result equals a push step's for programs that keep
	// the EarlyExit contract.
	Step(ctx context.Context, p EarlyExit[V], values []V, active, next []uint8) (uint64, []Phase, error)
	// StepAll runs one pull iteration of a min program without early exit
	// (SSSP, CC by label propagation): every vertex v combines the
	// contributions of all its active in-neighbours, read from the values
	// before the iteration, and Apply folds the result in (as a push step
	// would); next as for Step.
	StepAll(ctx context.Context, p Program[V], values []V, active, next []uint8) (uint64, []Phase, error)
	// NextArcs returns the out-arcs of the vertices the last Step made
	// active (the sum of their out-degrees), counted during that Step.
	NextArcs() uint64
	// Estimate returns the expected time of one Step from active, measured
	// as a dry run over a sample of the vertices that calls neither Apply
	// nor writes values or any state a later Step reads.
	Estimate(ctx context.Context, p EarlyExit[V], values []V, active []uint8) (time.Duration, error)
}

// IterationTrace records one iteration for --trace.
type IterationTrace struct {
	Iteration        int     `json:"iteration"`
	Mode             string  `json:"mode"`
	FrontierVertices uint64  `json:"frontier_vertices"`
	FrontierEdges    uint64  `json:"frontier_edges"`
	EDPSeconds       float64 `json:"edp_seconds,omitempty"` // dense estimate (hybrid)
	ESPSeconds       float64 `json:"esp_seconds,omitempty"` // sparse estimate (hybrid)
	// UnsettledEdges is the hybrid's estimate of the arcs of the vertices
	// not yet settled, for EarlyExit programs: it switches to pull when
	// FrontierEdges exceeds UnsettledEdges / alpha.
	UnsettledEdges uint64 `json:"unsettled_edges,omitempty"`
	// PullEdges is the hybrid's estimate of a pull step's work from this
	// frontier, in pushed arcs' worth (sampler.PullScan): with Beamer's
	// rule, a pull step is taken when it is below FrontierEdges. EarlyExit
	// programs only.
	PullEdges float64 `json:"pull_edges,omitempty"`
	// RestIterations, RestVertices, SyncRestSeconds and AsyncRestSeconds
	// are mode Auto's estimates of the rest of the run where it weighed
	// going on asynchronously (sampler.AsyncCosts): the synchronous
	// iterations and the vertices to process left, and the seconds
	// synchronously and asynchronously.
	RestIterations   float64 `json:"rest_iterations,omitempty"`
	RestVertices     float64 `json:"rest_vertices,omitempty"`
	SyncRestSeconds  float64 `json:"sync_rest_seconds,omitempty"`
	AsyncRestSeconds float64 `json:"async_rest_seconds,omitempty"`
	SampleSeconds    float64 `json:"sample_seconds,omitempty"`
	Switched         bool    `json:"switched,omitempty"`
	Phases           []Phase `json:"phases"`
	Seconds          float64 `json:"seconds"`
	// Async describes a whole Async run (its only record).
	Async *AsyncTrace `json:"async,omitempty"`
}

// AsyncTrace is what an Async run did.
type AsyncTrace struct {
	Items   uint64 `json:"items"`           // vertices processed (a vertex lowered twice counts twice)
	Shared  uint64 `json:"shared"`          // of them, handed between workers through the shared worklist
	Buckets int    `json:"buckets"`         // near-far bucket changes
	Delta   uint32 `json:"delta,omitempty"` // near-far bucket width (0: none)
}

// Record returns the one trace record of an Async run that took seconds,
// with its phases.
func (a AsyncTrace) Record(seconds float64, phases ...Phase) IterationTrace {
	return IterationTrace{Mode: Async.String(), FrontierVertices: a.Items, Phases: phases, Seconds: seconds, Async: &a}
}

// Result summarises one run of a program.
type Result struct {
	Iterations int     `json:"iterations"`
	Switches   int     `json:"switches"`
	Edges      uint64  `json:"edges"` // arcs traversed (frontier edges summed)
	Seconds    float64 `json:"seconds"`
	// CopySeconds is the time the result took to reach the caller after
	// the iterations: mapped to the original numbering and, on a device,
	// copied into host memory. A trial (the app call) is Seconds,
	// CopySeconds and whatever the backend did before the iterations.
	CopySeconds float64          `json:"copy_seconds"`
	Trace       []IterationTrace `json:"trace,omitempty"`
}

// Add accumulates another run into r (apps made of several runs, e.g. BC's
// forward and backward passes).
func (r *Result) Add(o Result) {
	r.Iterations += o.Iterations
	r.Switches += o.Switches
	r.Edges += o.Edges
	r.Seconds += o.Seconds
	r.CopySeconds += o.CopySeconds
	r.Trace = append(r.Trace, o.Trace...)
}
