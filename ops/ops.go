// Package ops is mgraph's general programming model, after Gunrock
// (../shared/papers/gunrock-topc2017.txt §3–5): an algorithm is a short
// loop of operator calls — advance, filter, compute, neighbourhood reduce,
// segmented intersection — each given a small functor that the app writes
// once, while the operator owns the parallel loop and its load balancing.
//
// The same app code runs on the CPU and on a GPU: a Device is the place the
// operators run (NewCPU, or the gpu package's backend), its Arrays hold the
// app's per-vertex data there, and a Functor names the app's code in both
// languages — a Go value (the CPU twin) and the id of a CUDA struct compiled
// into the kernels library (kernels/functors.cuh, MG_FN_*). Vertex ids are
// the layout's numbering; apps map results back with the layout's InvPerm.
//
// The MultiGraph engines (package engine) stay the fast path of BFS, SSSP,
// CC, PageRank and BC; ops is the general one. docs/operators.md explains
// the contract, the load-balancing strategies and how to add an app.
package ops

import (
	"context"
	"fmt"

	"github.com/mgraph-dev/mgraph/layout"
)

// Device runs operators over one loaded graph. Its methods are not safe
// for concurrent use: an app drives one device from one goroutine.
type Device interface {
	// Name is "cpu" or "cuda".
	Name() string
	// Layout is the layout whose graph the device holds.
	Layout() *layout.Layout
	// Out is the graph's out-adjacency (the layout's sparse part, rows
	// sorted by destination); In its in-adjacency (Out itself for an
	// undirected graph; built on first use for a directed one).
	Out() *Graph
	In() (*Graph, error)

	// Alloc returns bytes of uninitialised memory on the device.
	Alloc(bytes uint64) (Mem, error)
	// Fill sets the first n elements of m, each elemBytes (1, 4 or 8)
	// wide, to the low elemBytes bytes of value.
	Fill(m Mem, elemBytes int, value uint64, n int) error

	// Advance visits every arc (u, v) of g whose source is in (a vertex
	// frontier; nil: every vertex) or that is in (an arc frontier), and
	// calls the functor's
	// Edge; out (which may be nil) receives, for the calls that return
	// true, what o.Output says. It returns what it did. o.Direction Pull
	// (or Optimized, when Beamer's rule says so) walks the other way: see
	// Direction.
	Advance(ctx context.Context, g *Graph, f *Functor, in, out *Frontier, o AdvanceOptions) (AdvanceStats, error)
	// Filter calls the functor's Vertex on every element of in (a nil in
	// is every vertex) and puts those for which it returns true into out
	// (sparse or dense), dropping repeats when o.Unique is set.
	Filter(ctx context.Context, f *Functor, in, out *Frontier, o FilterOptions) error
	// Compute calls the functor's Vertex on every element of in (nil: every
	// vertex), ignoring its result.
	Compute(ctx context.Context, f *Functor, in *Frontier) error
	// Sum returns the sum of the functor's Measure over in (nil: every
	// vertex).
	Sum(ctx context.Context, f *Functor, in *Frontier) (float64, error)
	// Reduce computes, for every vertex v of in (nil: every vertex), the
	// reduction by op of the functor's Value over v's row of g (0 for Sum,
	// +Inf for Min, −Inf for Max over an empty row), and passes it to the
	// functor's Reduced.
	Reduce(ctx context.Context, g *Graph, f *Functor, in *Frontier, op ReduceOp) error
	// Intersect calls the functor's Common for every arc (u, v) of g (in
	// nil) or of the arc frontier in, with the number of vertices in both
	// rows u and v of g (rows must be sorted and free of repeats), and
	// returns the sum of those numbers.
	Intersect(ctx context.Context, g *Graph, f *Functor, in *Frontier) (uint64, error)
	// FilterArcs returns the subgraph of g that keeps the arcs for which
	// the functor's Edge returns true, in their order. The caller closes it.
	FilterArcs(ctx context.Context, g *Graph, f *Functor) (*Graph, error)
	// Convert makes f dense (a flag per element) or sparse (a list), in
	// place, keeping its elements.
	Convert(f *Frontier, dense bool) error
	// Original copies the layout's n vertex values of m, each elemBytes
	// (4 or 8) wide and indexed by layout id, into dst (n·elemBytes bytes)
	// indexed by original id: dst[old] = m[Perm[old]]. A GPU maps them on
	// the device and copies once.
	Original(m Mem, elemBytes int, dst []byte) error
	// Result is Original into host memory the device provides: a GPU's
	// pinned result buffer (the one its backend's engines return their
	// results in), filled by one copy, valid until the next Result of the
	// same element size or an engine's next result of that size on the
	// backend; a CPU's new slice. It is what an app hands its user, as
	// GAPBS and Gunrock time it: no copy into Go memory.
	Result(m Mem, elemBytes int) ([]byte, error)

	// Close frees what the device allocated for itself (not the arrays,
	// frontiers and graphs the app made, which it closes).
	Close() error
}

// Provider is implemented by engine backends that can run operators (the
// CPU and CUDA backends): apps get their device with Open.
type Provider interface {
	OpsDevice() (Device, error)
}

// Open returns the operator device of backend b, which must implement
// Provider.
func Open(b any) (Device, error) {
	p, ok := b.(Provider)
	if !ok {
		return nil, fmt.Errorf("ops: backend %T cannot run operators", b)
	}
	return p.OpsDevice()
}

// Output says what an advance writes to its output frontier for each arc
// (u, v) whose Edge returns true.
type Output int

const (
	// OutNone writes nothing (the functor's side effects are the result).
	OutNone Output = iota
	// OutVertices writes v (vertex → vertex). Into a sparse frontier v may
	// appear several times unless AdvanceOptions.Unique is set; into a
	// dense one it is set once.
	OutVertices
	// OutArcs writes the arc's id (vertex → arc).
	OutArcs
)

// Strategy is how an advance maps arcs to GPU threads (the CPU splits by
// arc count whatever it is told, and records the strategy it was given).
type Strategy int

const (
	// Auto picks per call by Gunrock's rule (§5.1.3): Merged for graphs
	// of average degree AutoAverageDegree or more on frontiers of
	// AutoFrontier elements or more, and for frontiers of long rows
	// (AutoLongRows), TWC otherwise.
	Auto Strategy = iota
	// ThreadMapped gives every frontier element one thread.
	ThreadMapped
	// TWC is Merrill's dynamic grouping: rows of WarpDegree arcs or more
	// are expanded by a warp, of BlockDegree or more by a block, the rest
	// by their own thread.
	TWC
	// Merged balances arcs: each thread takes an equal share of the
	// frontier's arcs and finds their sources by a binary search in the
	// prefix sum of the frontier's degrees (Gunrock's LB over the output).
	Merged
)

// Gunrock's rule of thumb for Auto.
const (
	AutoAverageDegree = 5
	AutoFrontier      = 4096
	// AutoLongRows is MG_OP_BLOCK_DEGREE: TWC's rows for a whole block.
	AutoLongRows = 256
)

// String returns the strategy's flag name.
func (s Strategy) String() string {
	switch s {
	case Auto:
		return "auto"
	case ThreadMapped:
		return "thread"
	case TWC:
		return "twc"
	case Merged:
		return "lb"
	}
	return fmt.Sprintf("Strategy(%d)", int(s))
}

// ParseStrategy reads a strategy's flag name.
func ParseStrategy(s string) (Strategy, error) {
	for _, x := range []Strategy{Auto, ThreadMapped, TWC, Merged} {
		if x.String() == s {
			return x, nil
		}
	}
	return Auto, fmt.Errorf("unknown load-balancing strategy %q (want auto, thread, twc or lb)", s)
}

// Choose is Auto's rule: the strategy for a frontier of size elements and
// arcs arcs on a graph of n vertices and m arcs. Besides Gunrock's rule,
// a frontier whose rows average AutoLongRows arcs or more is merged: TWC
// gives each such row to one block, and a few hubs (a BFS's second
// frontier on a power-law graph) would leave most of the GPU idle.
func Choose(s Strategy, size int, arcs, n, m uint64) Strategy {
	if s != Auto {
		return s
	}
	if n > 0 && m >= AutoAverageDegree*n && size >= AutoFrontier {
		return Merged
	}
	if size > 0 && arcs >= AutoLongRows*uint64(size) {
		return Merged
	}
	return TWC
}

// Direction is which way an advance walks the arcs (Gunrock's push and
// pull advance; Beamer's direction optimisation picks between them).
type Direction int

const (
	// Push walks the rows of the input's elements (top-down).
	Push Direction = iota
	// Pull walks, for every candidate vertex v (the functor's Vertex(v)
	// is true: v still wants an arc), the in-arcs (u, v) whose source u is
	// in the input (a vertex frontier, taken as a set; nil: every vertex)
	// and calls Edge(u, v, arc, w), arc being the arc's position in the
	// transpose; v goes to the output (vertices; once) when a call returned
	// true. With AdvanceOptions.First the row stops there (BFS's
	// bottom-up step: any parent will do). The functor needs Vertex.
	Pull
	// Optimized picks Push or Pull per call by Beamer's rule, with the
	// traversal's state in AdvanceOptions.Optimizer.
	Optimized
)

// String returns the direction's name.
func (d Direction) String() string {
	switch d {
	case Push:
		return "push"
	case Pull:
		return "pull"
	case Optimized:
		return "optimized"
	}
	return fmt.Sprintf("Direction(%d)", int(d))
}

// AdvanceOptions control an advance.
type AdvanceOptions struct {
	Output   Output
	Strategy Strategy
	// Unique keeps each output element once (Gunrock's idempotent culling
	// with a bitmap); a dense output is always unique.
	Unique bool
	// Direction is Push (the zero value), Pull or Optimized.
	Direction Direction
	// First stops a pulled row at its first Edge that returns true.
	First bool
	// Transpose is g's in-adjacency for a pull (row v lists the sources of
	// the arcs into v); nil: the device's In, when g is its Out.
	Transpose *Graph
	// Optimizer carries Beamer's rule across the advances of one
	// traversal (Direction Optimized).
	Optimizer *Optimizer
}

// AdvanceStats is what an advance did, for traces.
type AdvanceStats struct {
	Strategy  Strategy  // the strategy used (Auto resolved; a push's)
	Direction Direction // Push or Pull
	Arcs      uint64    // arcs of the input's rows (a push), 0 for a pull
	Output    int       // elements written to the output frontier
}

// Optimizer is Beamer's direction-optimising rule (SC'12, with GAPBS's
// parameters) for the advances of one traversal: push while the
// frontier's arcs are at most the unexplored arcs / Alpha, then pull until
// the frontier shrinks and is below the vertices / Beta.
type Optimizer struct {
	Alpha, Beta float64
	unexplored  uint64 // arcs not yet walked by a push
	pulling     bool
	last        int // the input of the previous pull
}

// GAPBS's α and β.
const (
	OptimizerAlpha = 15
	OptimizerBeta  = 18
)

// NewOptimizer returns the rule with GAPBS's α and β for a traversal of g.
func NewOptimizer(g *Graph) *Optimizer {
	return &Optimizer{Alpha: OptimizerAlpha, Beta: OptimizerBeta, unexplored: g.NumArcs}
}

// KeepPulling is asked before an advance's plan: whether a traversal
// that pulled last time pulls again, for an input of size vertices out of
// n (it does while the frontier grows or stays above n / Beta).
func (o *Optimizer) KeepPulling(size int, n uint64) bool {
	if !o.pulling {
		return false
	}
	o.pulling = size >= o.last || float64(size) > float64(n)/o.Beta
	o.last = size
	return o.pulling
}

// PullFor is asked after the plan of a push: whether the input (size
// elements, arcs arcs) is better pulled; a push's arcs count as explored.
func (o *Optimizer) PullFor(size int, arcs uint64) bool {
	if float64(arcs) > float64(o.unexplored)/o.Alpha {
		o.pulling, o.last = true, size
		return true
	}
	o.unexplored -= min(arcs, o.unexplored)
	return false
}

// PullNow is asked by a device before an advance's plan: whether o pulls
// without needing the input's arcs (Pull, or Optimized while the
// traversal keeps pulling), for an input of size elements on a graph of n
// vertices.
func (o AdvanceOptions) PullNow(size int, n uint64) bool {
	return o.Direction == Pull || (o.Direction == Optimized && o.Optimizer.KeepPulling(size, n))
}

// PullAfterPlan is asked after the plan of an advance that did not pull:
// whether Optimized turns it into a pull for an input of size elements
// and arcs arcs.
func (o AdvanceOptions) PullAfterPlan(size int, arcs uint64) bool {
	return o.Direction == Optimized && o.Optimizer.PullFor(size, arcs)
}

// Transposed returns the graph a pull over g walks (see
// AdvanceOptions.Transpose), checking the pull's frontiers.
func Transposed(d Device, g *Graph, in, out *Frontier, o AdvanceOptions) (*Graph, error) {
	if o.Output != OutVertices || out == nil || out.Kind() != Vertices {
		return nil, fmt.Errorf("a pull writes vertices: it needs OutVertices and a vertex frontier")
	}
	if in != nil && in.Kind() != Vertices {
		return nil, fmt.Errorf("a pull's input is a vertex frontier")
	}
	t := o.Transpose
	if t == nil {
		if g != d.Out() {
			return nil, fmt.Errorf("a pull over a graph other than the device's needs AdvanceOptions.Transpose")
		}
		var err error
		if t, err = d.In(); err != nil {
			return nil, err
		}
	}
	if t.NumVertices != g.NumVertices {
		return nil, fmt.Errorf("a transpose of %d vertices for a graph of %d", t.NumVertices, g.NumVertices)
	}
	return t, nil
}

// CheckDirection returns why o's direction cannot be used.
func CheckDirection(o AdvanceOptions) error {
	switch o.Direction {
	case Push, Pull:
		return nil
	case Optimized:
		if o.Optimizer == nil {
			return fmt.Errorf("the optimized direction needs an Optimizer")
		}
		return nil
	}
	return fmt.Errorf("unknown direction %d", o.Direction)
}

// FilterOptions control a filter.
type FilterOptions struct {
	// Unique drops repeated elements of the input (culling with a bitmap).
	Unique bool
}

// ReduceOp is the reduction of Reduce.
type ReduceOp int

const (
	// ReduceSum adds the values.
	ReduceSum ReduceOp = iota
	// ReduceMin takes the smallest.
	ReduceMin
	// ReduceMax takes the largest.
	ReduceMax
)
