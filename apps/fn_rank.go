package apps

import (
	"math"
	"sync/atomic"
	"unsafe"

	"github.com/mgraph-dev/mgraph/ops"
)

// The Go twins of kernels/fn_rank.cuh: personalised PageRank, HITS, SALSA
// and who-to-follow. A divisor array may be nil for 1; a zero divisor
// contributes nothing.

func share(x, div []float64, u uint32) float64 {
	d := 1.0
	if div != nil {
		d = div[u]
	}
	if d == 0 {
		return 0
	}
	return x[u] / d
}

// memOf returns a's memory, or nil for a nil array.
func memOf(a *ops.Array[float64]) ops.Mem {
	if a == nil {
		return nil
	}
	return a.Mem()
}

func hostOf(a *ops.Array[float64]) []float64 {
	if a == nil {
		return nil
	}
	return a.Host()
}

type prDanglingFn struct{ rank, outdeg []float64 }

func (f *prDanglingFn) Measure(v uint32) float64 {
	if f.outdeg[v] == 0 {
		return f.rank[v]
	}
	return 0
}

// prDanglingFunctor measures the rank of vertices without out-arcs
// (MG_FN_PR_DANGLING).
func prDanglingFunctor(rank, outdeg *ops.Array[float64]) *ops.Functor {
	return &ops.Functor{Name: "pr-dangling", ID: ops.FnPRDangling, Arrays: []ops.Mem{rank.Mem(), outdeg.Mem()},
		CPU: &prDanglingFn{rank: rank.Host(), outdeg: outdeg.Host()}}
}

type prPullFn struct {
	rank, next, outdeg, teleport []float64
	damping, dangling            float64
}

func (f *prPullFn) Value(_, u uint32, _ uint64, _ uint32) float64 { return share(f.rank, f.outdeg, u) }

func (f *prPullFn) Reduced(v uint32, acc float64) {
	d := f.damping
	f.next[v] = d*acc + (1-d+d*f.dangling)*f.teleport[v]
}

// prPullFunctor is personalised PageRank's pull step over in-rows
// (MG_FN_PR_PULL).
func prPullFunctor(rank, next, outdeg, teleport *ops.Array[float64], damping, dangling float64) *ops.Functor {
	return &ops.Functor{Name: "pr-pull", ID: ops.FnPRPull,
		Arrays: []ops.Mem{rank.Mem(), next.Mem(), outdeg.Mem(), teleport.Mem()}, Floats: []float64{damping, dangling},
		CPU: &prPullFn{rank: rank.Host(), next: next.Host(), outdeg: outdeg.Host(), teleport: teleport.Host(), damping: damping, dangling: dangling}}
}

type l1DiffFn struct{ x, y []float64 }

func (f *l1DiffFn) Measure(v uint32) float64 { return math.Abs(f.x[v] - f.y[v]) }

// l1DiffFunctor measures |x[v] − y[v]| (MG_FN_L1_DIFF).
func l1DiffFunctor(x, y *ops.Array[float64]) *ops.Functor {
	return &ops.Functor{Name: "l1-diff", ID: ops.FnL1Diff, Arrays: []ops.Mem{x.Mem(), y.Mem()},
		CPU: &l1DiffFn{x: x.Host(), y: y.Host()}}
}

type scaleFn struct {
	x []float64
	c float64
}

func (f *scaleFn) Vertex(v uint32) bool {
	f.x[v] *= f.c
	return false
}

// scaleFunctor multiplies x by c (MG_FN_SCALE).
func scaleFunctor(x *ops.Array[float64], c float64) *ops.Functor {
	return &ops.Functor{Name: "scale", ID: ops.FnScale, Arrays: []ops.Mem{x.Mem()}, Floats: []float64{c},
		CPU: &scaleFn{x: x.Host(), c: c}}
}

type gatherFn struct{ from, to, div []float64 }

func (f *gatherFn) Value(_, u uint32, _ uint64, _ uint32) float64 { return share(f.from, f.div, u) }
func (f *gatherFn) Reduced(v uint32, acc float64)                 { f.to[v] = acc }

// gatherFunctor sets to[v] to the sum over v's row of from[u] / div[u]
// (div nil: 1; MG_FN_GATHER).
func gatherFunctor(from, to, div *ops.Array[float64]) *ops.Functor {
	return &ops.Functor{Name: "gather", ID: ops.FnGather, Arrays: []ops.Mem{from.Mem(), to.Mem(), memOf(div)},
		CPU: &gatherFn{from: from.Host(), to: to.Host(), div: hostOf(div)}}
}

type pushAddFn struct{ from, to, div []float64 }

func (f *pushAddFn) Edge(src, dst uint32, _ uint64, _ uint32) bool {
	if x := share(f.from, f.div, src); x != 0 {
		atomicAddFloat64(&f.to[dst], x)
	}
	return false
}

// pushAddFunctor adds from[src] / div[src] into to[dst] over every arc
// (MG_FN_PUSH_ADD).
func pushAddFunctor(from, to, div *ops.Array[float64]) *ops.Functor {
	return &ops.Functor{Name: "push-add", ID: ops.FnPushAdd, Arrays: []ops.Mem{from.Mem(), to.Mem(), memOf(div)},
		CPU: &pushAddFn{from: from.Host(), to: to.Host(), div: hostOf(div)}}
}

// atomicAddFloat64 adds x to *p with a compare-and-swap loop.
func atomicAddFloat64(p *float64, x float64) {
	u := (*uint64)(unsafe.Pointer(p))
	for {
		old := atomic.LoadUint64(u)
		if atomic.CompareAndSwapUint64(u, old, math.Float64bits(math.Float64frombits(old)+x)) {
			return
		}
	}
}

type inSetFn struct{ flags []uint8 }

func (f *inSetFn) Edge(src, _ uint32, _ uint64, _ uint32) bool { return f.flags[src] != 0 }

// inSetFunctor keeps the arcs whose source is flagged (MG_FN_IN_SET).
func inSetFunctor(flags *ops.Array[uint8]) *ops.Functor {
	return &ops.Functor{Name: "in-set", ID: ops.FnInSet, Arrays: []ops.Mem{flags.Mem()}, CPU: &inSetFn{flags: flags.Host()}}
}

type valueFn struct{ x []float64 }

func (f *valueFn) Measure(v uint32) float64 { return f.x[v] }

// valueFunctor measures x[v] (MG_FN_VALUE).
func valueFunctor(x *ops.Array[float64]) *ops.Functor {
	return &ops.Functor{Name: "value", ID: ops.FnValue, Arrays: []ops.Mem{x.Mem()}, CPU: &valueFn{x: x.Host()}}
}
