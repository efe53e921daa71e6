package sampler

import (
	"math"

	"github.com/mgraph-dev/mgraph/engine"
)

// Auto's cost model for going on asynchronously (SEP-Graph's choice of
// Async, its Algorithm 1 with this project's calibrated costs).
//
// From engine.AutoAsyncIterations on, at every iteration the hybrid would
// run as a sparse step, mode Auto estimates the rest of the run two ways
// and takes the cheaper: synchronously, R more iterations each paying a
// fixed cost (launches or the workers' barrier) plus a cost per vertex
// processed; asynchronously, one run's fixed cost plus a cost per vertex
// processed. R and the vertices to process come from the frontier's growth
// over the last GrowthWindow iterations. Shrinking by g per iteration once
// frontiers have held half the graph, the frontier empties in about
// log(count)/log(1/g) iterations, processing about count/(1-g) vertices (a
// geometric tail: an R-MAT's last levels shrink by 100 an iteration and
// end in two or three; a small web graph's SSSP by 0.7 and runs on for
// dozens). Otherwise, growing by less than SteadyGrowth or shrinking
// early (a near-far band between refills of SSSP's pile), each iteration
// settles about a frontier's worth of the vertices no frontier has held
// yet: a grid's or road network's wavefront, thousands of iterations;
// once frontiers have held every vertex (an SSSP lowers vertices again),
// a frontier that does not shrink is expected to last as many iterations
// again as it has run (uk-2007-05_100000's SSSP at iteration 16: 83,000
// vertices, 19 iterations left). Growing faster, the graph is an
// expander whose frontier will soon cover it (R-MAT, Kronecker, social
// networks): the synchronous engines with their pull steps are the choice,
// and async is not estimated. The costs are the backend's, measured: the
// shortest synchronous iteration, the largest sparse step's cost per
// vertex, and the async runs' cost per vertex processed (before one has
// run on the backend, priors: AsyncStartIterations iterations' fixed cost
// and AsyncVertexRatio times the synchronous cost per vertex).

const (
	// GrowthWindow is the number of iterations over which the model
	// measures the frontier's growth.
	GrowthWindow = 4
	// SteadyGrowth: a frontier that grew by less than this factor per
	// iteration over the window is steady (a grid's or a road network's
	// wavefront grows linearly: from its middle, over the four iterations
	// before the sixteenth, by 1.07 an iteration); one that grew faster is
	// an expander's (R-MAT's first levels: by 10 to 1,000).
	SteadyGrowth = 1.5
	// AsyncStartIterations is the prior of an async run's fixed cost (its
	// launch, the worklist's set-up, the detection of its end), in
	// synchronous iterations' fixed costs.
	AsyncStartIterations = 4
	// AsyncVertexRatio is the prior of an async run's cost per vertex
	// processed over a synchronous sparse step's cost per frontier vertex:
	// the same work, so that before an async run has been measured the
	// choice turns on the fixed costs (R iterations' against one async
	// run's). On an H200 a 4 here kept the SSSP tails of coAuthorsDBLP and
	// uk-2007-05_100000 (shrinking by 0.7 an iteration from 60,000
	// vertices) synchronous, 1.3–1.4× slower than handing them over.
	AsyncVertexRatio = 1
	// AsyncColdRuns is how many of a backend's first async runs of a
	// program the model does not measure: the first one in a process
	// includes loading its kernel (CUDA's lazy loading) or starting its
	// workers. On an H200 coAuthorsDBLP's first async SSSP, measured, made
	// the next trials' async estimate 7.9 ms against 0.46 ms synchronously,
	// and they stayed synchronous.
	AsyncColdRuns = 1
	// CalibrateVertices is the fewest frontier vertices of a sparse step
	// whose time sets AsyncCosts.VertexCost: a smaller step's time is its
	// fixed cost and noise (a grid's early levels on the CPU: 1.4–2 µs,
	// with hiccups of tens).
	CalibrateVertices = 256
)

// FrontierHistory is what the model knows of a run's frontiers: the sizes
// of the last GrowthWindow+1 and how many vertices all of them held. The
// zero value is an empty history.
type FrontierHistory struct {
	sizes [GrowthWindow + 1]uint64 // a ring of the last sizes
	iters int                      // frontiers pushed
	seen  uint64                   // their sizes summed
}

// Push records the next iteration's frontier of count vertices.
func (h *FrontierHistory) Push(count uint64) {
	h.sizes[h.iters%len(h.sizes)] = count
	h.iters++
	h.seen += count
}

// Growth returns the frontier's growth per iteration over the last
// GrowthWindow iterations (the geometric mean), or false before
// GrowthWindow+1 frontiers, or when the oldest of them was empty.
func (h *FrontierHistory) Growth() (float64, bool) {
	if h.iters <= GrowthWindow {
		return 0, false
	}
	last := h.last()
	first := h.sizes[h.iters%len(h.sizes)] // the oldest in the ring
	if first == 0 {
		return 0, false
	}
	return math.Pow(float64(last)/float64(first), 1.0/GrowthWindow), true
}

// AsyncCosts are a backend's measured costs for one program, in seconds.
type AsyncCosts struct {
	// IterFixed is a synchronous iteration's fixed cost: the shortest
	// sparse iteration seen.
	IterFixed float64
	// VertexCost is a sparse iteration's cost per frontier vertex beyond
	// IterFixed, from the largest sparse step seen (0: none of
	// CalibrateVertices yet: the fixed cost is all there is).
	VertexCost float64
	// AsyncVertex is an async run's cost per vertex left beyond its fixed
	// cost, from the last async run past AsyncColdRuns (0: none yet; the
	// prior then).
	AsyncVertex float64
	// AsyncRuns counts the async runs observed.
	AsyncRuns int
}

// AsyncEstimate is the model's estimate of the rest of a run from one
// iteration.
type AsyncEstimate struct {
	Iterations float64 // synchronous iterations left
	Vertices   float64 // vertices left to process
	Sync       float64 // seconds, going on synchronously
	Async      float64 // seconds, going on asynchronously
}

// Pays reports whether going on asynchronously is estimated cheaper.
func (e AsyncEstimate) Pays() bool { return e.Async < e.Sync }

// Note records e in tr, the trace of the iteration it was made at (or of
// the async run it chose).
func (e AsyncEstimate) Note(tr *engine.IterationTrace) {
	tr.RestIterations, tr.RestVertices, tr.SyncRestSeconds, tr.AsyncRestSeconds = e.Iterations, e.Vertices, e.Sync, e.Async
}

// AsyncStart is an async run's fixed cost as the model takes it.
func (c AsyncCosts) AsyncStart() float64 { return AsyncStartIterations * c.IterFixed }

// Estimate estimates the rest of a run over n vertices from its history
// (the current frontier pushed last), or returns false where the model
// makes no estimate: too short a history, or a frontier growing by
// SteadyGrowth or more an iteration.
func (c AsyncCosts) Estimate(h *FrontierHistory, n uint64) (AsyncEstimate, bool) {
	g, ok := h.Growth()
	if !ok || g >= SteadyGrowth {
		return AsyncEstimate{}, false
	}
	count := float64(max(h.last(), 1))
	var e AsyncEstimate
	if g < 1 && 2*h.seen >= n { // a geometric tail, once frontiers have held half the graph
		e.Iterations = math.Log(count)/math.Log(1/g) + 1
		e.Vertices = count / (1 - g)
	} else if h.seen < n { // a wavefront (a shrinking one early: a near-far band between refills)
		e.Vertices = h.Left(n)
		e.Iterations = max((e.Vertices-count)/count, 1)
	} else { // frontiers have held every vertex (SSSP lowers some again) and do not shrink: as many again
		e.Iterations = float64(h.iters)
		e.Vertices = count * e.Iterations
	}
	asyncVertex := c.AsyncVertex
	if asyncVertex == 0 {
		asyncVertex = AsyncVertexRatio * c.VertexCost
	}
	e.Sync = e.Iterations*c.IterFixed + e.Vertices*c.VertexCost
	e.Async = c.AsyncStart() + e.Vertices*asyncVertex
	return e, true
}

// ObserveAsync returns c with an async run that took seconds from the
// state whose estimate was e counted, and past AsyncColdRuns measured:
// AsyncVertex over the larger of e's vertices and the vertices left (the
// async run processes at least those it reaches: a tail's estimate can be
// far fewer, and a cost per vertex from it far too high).
func (c AsyncCosts) ObserveAsync(seconds float64, e AsyncEstimate, left float64) AsyncCosts {
	c.AsyncRuns++
	if v := max(e.Vertices, left); v > 0 && c.AsyncRuns > AsyncColdRuns {
		c.AsyncVertex = max(seconds-c.AsyncStart(), 0) / v
	}
	return c
}

// Left returns the vertices left in a wavefront's sense: the current
// frontier's and those no frontier has held yet (n before any frontier).
func (h *FrontierHistory) Left(n uint64) float64 {
	if h.iters == 0 {
		return float64(n)
	}
	return float64(h.last()) + float64(n-min(h.seen, n))
}

// last returns the size of the frontier pushed last (with one pushed).
func (h *FrontierHistory) last() uint64 { return h.sizes[(h.iters-1)%len(h.sizes)] }

// ObserveSync returns c with a sparse iteration's time over count frontier
// vertices taken in: IterFixed the shortest, VertexCost from the largest
// of at least CalibrateVertices (ref is the size it was measured on; the
// new ref is returned).
func (c AsyncCosts) ObserveSync(seconds float64, count, ref uint64) (AsyncCosts, uint64) {
	if c.IterFixed == 0 || seconds < c.IterFixed {
		c.IterFixed = seconds
	}
	if count >= CalibrateVertices && count >= ref {
		c.VertexCost, ref = max(seconds-c.IterFixed, 0)/float64(count), count
	}
	return c, ref
}
