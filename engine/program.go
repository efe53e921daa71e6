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
	"fmt"
	"math"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/layout"
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
	// graph must have uint32 weights.
	EdgeSourcePlusWeight
	// EdgeSourcePlusFloat32Weight contributes source+weight over float32
	// distances held as their bits in uint32 values (SSSP on
	// graph.Float32Weights): the float32 sum, rounded to nearest as an IEEE
	// 754 add rounds it, with the unreached value 2^32-1 (the identity of
	// min; a NaN's bits, above every non-negative float's, +Inf's included)
	// staying unreached. The graph must have float32 weights. Because the
	// weights are finite and non-negative, the bits of the sums are ordered
	// as their values, so every engine's min and atomic min on the bits is
	// the float min, and a sum overflows to +Inf (a reached vertex), never
	// to the unreached value.
	EdgeSourcePlusFloat32Weight
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
	case EdgeSourcePlusFloat32Weight:
		return "source+float32 weight"
	}
	return "unknown"
}

// Weighted reports whether the operation reads arc weights.
func (op EdgeOp) Weighted() bool {
	return op == EdgeSourcePlusWeight || op == EdgeSourcePlusFloat32Weight
}

// Valid reports whether op is one of the operations above.
func (op EdgeOp) Valid() bool { return op <= EdgeSourcePlusFloat32Weight }

// CheckWeights returns why a program of edge operation op cannot run over
// l, or nil: a weighted operation needs weights of its type.
func CheckWeights(op EdgeOp, l *layout.Layout) error {
	want := graph.Uint32Weights
	switch op {
	case EdgeSource, EdgeSourcePlusOne:
		return nil
	case EdgeSourcePlusWeight:
	case EdgeSourcePlusFloat32Weight:
		want = graph.Float32Weights
	default:
		return fmt.Errorf("unknown edge operation %d", op)
	}
	switch {
	case !l.Weighted:
		return fmt.Errorf("the program adds edge weights but the graph has none")
	case l.WeightKind != want:
		return fmt.Errorf("the program adds %v edge weights but the graph's weights are %v", want, l.WeightKind)
	}
	return nil
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
// infinity never makes a finite contribution. EdgeSourcePlusFloat32Weight
// adds float32s held as bits in uint32 values (AddFloat32Bits); for
// float64 values it adds the float32 weight.
func Contribute[V Value](op EdgeOp, src V, w uint32) V {
	switch op {
	case EdgeSourcePlusOne:
		return satAdd(src, 1)
	case EdgeSourcePlusWeight:
		return satAdd(src, w)
	case EdgeSourcePlusFloat32Weight:
		if x, ok := any(src).(uint32); ok {
			return V(AddFloat32Bits(x, w))
		}
		return src + V(math.Float32frombits(w))
	}
	return src
}

// AddFloat32Bits returns the bits of float32(x) + float32(w) (x a float32
// distance's bits, w a float32 weight's), or math.MaxUint32 when x is
// math.MaxUint32 (unreached). The sum is the IEEE 754 float32 add, rounded
// to nearest even, as the GPU's __fadd_rn.
func AddFloat32Bits(x, w uint32) uint32 {
	if x == math.MaxUint32 {
		return x
	}
	return math.Float32bits(math.Float32frombits(x) + math.Float32frombits(w))
}

// NearFarAdd moves a near-far split x by the bucket width delta (> 0) in
// the value space of edge operation op: float32 bits add as floats
// (AddFloat32Bits), other values saturate at math.MaxUint32. The split
// always moves past x, so that a bucket change makes progress: a float sum
// that rounds back to x (delta below half of x's ulp) takes the next float
// above x instead, and a float split that reaches +Inf becomes
// math.MaxUint32, so that distances at +Inf (sums past float32's range:
// reached vertices) are near too. Without either, a split stuck at the
// smallest piled value would pile its vertices for ever.
func NearFarAdd(op EdgeOp, x, delta uint32) uint32 {
	if op == EdgeSourcePlusFloat32Weight {
		if x >= float32InfBits {
			return math.MaxUint32
		}
		if s := max(AddFloat32Bits(x, delta), x+1); s < float32InfBits {
			return s
		}
		return math.MaxUint32
	}
	return satAdd(x, delta)
}

// float32InfBits is the bit pattern of float32 +Inf.
const float32InfBits = 0x7f800000

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
var ErrNotMonotone = errors.New("mode async runs bfs, sssp, cc-lp, pr-delta and bc, not this app")

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
