// Package engine defines what every mgraph backend executes: vertex
// programs, frontiers, and the per-iteration step that the dense
// (MultiGraphD), sparse (MultiGraphS) and hybrid engines implement on the
// CPU and the GPU. Apps are written once against these types and
// never know which backend or mode runs them.
//
// Everything here works in the layout's numbering (layout.Perm); apps map
// results back to the original numbering with layout.InvPerm.
package engine

import (
	"context"
	"errors"
	"math"
)

// Value is a vertex value type the engines support: uint32 for the min-style
// programs (BFS levels, SSSP distances, CC labels) and float64 for the
// sum-style ones (PageRank, BC).
type Value interface{ uint32 | float64 }

// EdgeOp is how an edge turns its source's value into a contribution. The
// set is closed so that engines can specialise their inner loops (and the
// CUDA kernels their functors) without a call per edge.
type EdgeOp uint8

const (
	// EdgeSource contributes the source value unchanged (CC labels, PageRank
	// shares, BC path counts and dependencies).
	EdgeSource EdgeOp = iota
	// EdgeSourcePlusOne contributes source+1 (BFS levels).
	EdgeSourcePlusOne
	// EdgeSourcePlusWeight contributes source+weight (SSSP distances); the
	// graph must be weighted.
	EdgeSourcePlusWeight
)

// String names the operation.
func (op EdgeOp) String() string {
	switch op {
	case EdgeSource:
		return "source"
	case EdgeSourcePlusOne:
		return "source+1"
	case EdgeSourcePlusWeight:
		return "source+weight"
	}
	return "unknown"
}

// CombineOp is the associative, commutative operation that merges the
// contributions reaching one vertex.
type CombineOp uint8

const (
	// CombineMin keeps the smallest contribution. It is idempotent: a
	// contribution applied twice changes nothing.
	CombineMin CombineOp = iota
	// CombineSum adds the contributions. It is not idempotent.
	CombineSum
)

// String names the operation.
func (c CombineOp) String() string {
	if c == CombineMin {
		return "min"
	}
	return "sum"
}

// Program is the per-edge and per-vertex logic of a vertex program.
//
// In each iteration every active source u sends Contribute(op, values[u], w)
// along each of its out-arcs; the contributions reaching a vertex v are
// merged with Combine into acc (Identity when nothing arrived), and then
// Apply(v, acc, values) folds acc into v's state. Iterations are synchronous:
// all contributions of an iteration read the values from before any Apply of
// that iteration, whatever the mode.
type Program[V Value] interface {
	// Edge is the contribution an arc makes from its source's value.
	Edge() EdgeOp
	// Combine merges contributions.
	Combine() CombineOp
	// ApplyAll reports whether every vertex is applied every iteration
	// (topology-driven programs such as PageRank) rather than only those
	// that received a contribution.
	ApplyAll() bool
	// Apply folds the combined contribution acc into vertex v: it may update
	// values[v] (what v's arcs send next) and any state of its own, and
	// returns whether v is active in the next iteration. It is called
	// concurrently for distinct vertices, and exactly once per vertex per
	// iteration for the vertices it is called on. Unless ApplyAll, engines
	// may call it only for vertices that received a contribution, or for
	// every vertex; so Apply(v, Identity) must change nothing and return
	// false.
	Apply(v uint32, acc V, values []V) bool
}

// Identity returns the identity of c for V: the largest value for min
// (math.MaxUint32, +Inf) and zero for sum.
func Identity[V Value](c CombineOp) V {
	if c == CombineSum {
		return 0
	}
	var v V
	switch any(v).(type) {
	case uint32:
		return V(math.MaxUint32)
	default:
		return V(math.Inf(1))
	}
}

// Contribute computes an arc's contribution. For uint32 values the additions
// saturate at math.MaxUint32, which stands for "infinite": a source at
// infinity never makes a finite contribution.
func Contribute[V Value](op EdgeOp, src V, w uint32) V {
	switch op {
	case EdgeSourcePlusOne:
		return satAdd(src, 1)
	case EdgeSourcePlusWeight:
		return satAdd(src, w)
	}
	return src
}

// satAdd adds w to x, saturating for uint32.
func satAdd[V Value](x V, w uint32) V {
	s := x + V(w)
	if s < x { // only uint32 can wrap
		return V(math.MaxUint32)
	}
	return s
}

// Combine merges two contributions.
func Combine[V Value](c CombineOp, a, b V) V {
	if c == CombineSum {
		return a + b
	}
	return min(a, b)
}

// Monotone is implemented by min programs whose fixed point any order of
// relaxations reaches: Apply(v, acc) lowers values[v] to at most acc when
// acc is smaller and then activates v, and does nothing otherwise. Such a
// program may run asynchronously (Mode Async), where each relaxation is an
// atomic min on the destination's value and reads whatever values are
// current.
type Monotone interface {
	Monotone()
}

// LabelJumper is implemented by Monotone programs whose values are labels:
// vertex ids (layout numbering) whose own values are never larger, as CC's
// component labels. An asynchronous relaxation may then replace a
// contribution c by values[c] while that is smaller (pointer jumping), which
// reaches the same fixed point in far fewer relaxations.
type LabelJumper interface {
	Monotone
	JumpsLabels()
}

// ErrNotMonotone is returned (wrapped) for a program that cannot run in
// Mode Async.
var ErrNotMonotone = errors.New("mode async runs bfs, sssp, cc-lp and pr-delta (and bc on the cuda backend), not this app")

// DeviceProgram is implemented by programs that have a GPU implementation:
// DeviceKernel names the functor the CUDA kernels are instantiated with
// ("bfs", "sssp", "cc"). The cuda backend refuses programs without it.
type DeviceProgram interface {
	DeviceKernel() string
}

// BrandesBackend is implemented by backends that run Brandes' betweenness
// centrality whole on their device (forward pass through their engines,
// backward pass and the sum over sources on the device). Sources are in
// layout numbering; the result, in the original numbering, is the sum over
// the sources of each vertex's dependency, the source itself excluded, as
// apps.BC defines it. It may be a buffer the backend reuses, as
// PageRankBackend's results.
type BrandesBackend interface {
	Backend
	Brandes(ctx context.Context, sources []uint32, opts RunOptions) ([]float64, Result, error)
}
