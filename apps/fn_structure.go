package apps

import (
	"math/bits"
	"sync/atomic"

	"github.com/mgraph-dev/mgraph/internal/mix"
	"github.com/mgraph-dev/mgraph/ops"
)

// The Go twins of kernels/fn_structure.cuh: triangle counting, k-core,
// colouring and maximal independent set.

// unset marks a vertex not yet decided (core number, colour, MIS state).
const unset = ^uint32(0)

// rows is a graph's offsets and destinations on the host (nil on a GPU).
type rows struct {
	off []uint64
	adj []uint32
}

// simpleArc reports whether arc of row src is neither a self-loop nor a
// repeat of the arc before it (rows are sorted).
func (r rows) simpleArc(src, dst uint32, arc uint64) bool {
	return src != dst && (arc == r.off[src] || r.adj[arc-1] != dst)
}

// graphArrays binds a graph's offsets and destinations as a functor's
// first two (or given) arrays.
func graphMems(g *ops.Graph) []ops.Mem { return []ops.Mem{g.Offsets, g.Dst} }

type simpleFn struct{ rows }

func (f *simpleFn) Edge(src, dst uint32, arc uint64, _ uint32) bool {
	return f.simpleArc(src, dst, arc)
}

// simpleFunctor keeps g's arcs that are not self-loops or repeats
// (MG_FN_SIMPLE).
func simpleFunctor(g *ops.Graph) *ops.Functor {
	return &ops.Functor{Name: "simple", ID: ops.FnSimple, Arrays: graphMems(g), CPU: &simpleFn{rows{g.HostOffsets, g.HostDst}}}
}

type orientFn struct{ rows }

func (f *orientFn) Edge(src, dst uint32, arc uint64, _ uint32) bool {
	if !f.simpleArc(src, dst, arc) {
		return false
	}
	ds, dd := f.off[src+1]-f.off[src], f.off[dst+1]-f.off[dst]
	return ds < dd || (ds == dd && src < dst)
}

// orientFunctor keeps g's simple arcs from lower to higher (degree, id)
// (MG_FN_ORIENT).
func orientFunctor(g *ops.Graph) *ops.Functor {
	return &ops.Functor{Name: "orient", ID: ops.FnOrient, Arrays: graphMems(g), CPU: &orientFn{rows{g.HostOffsets, g.HostDst}}}
}

type triCountFn struct{ count []uint64 }

func (f *triCountFn) Common(u, _ uint32, _ uint64, c uint32) {
	if f.count != nil && c != 0 {
		atomic.AddUint64(&f.count[u], uint64(c))
	}
}

// triCountFunctor adds each arc's common neighbours to its source's count
// (MG_FN_TRI_COUNT; count nil: totals only).
func triCountFunctor(count *ops.Array[uint64]) *ops.Functor {
	f := &ops.Functor{Name: "tri-count", ID: ops.FnTriCount, Arrays: []ops.Mem{nil}, CPU: &triCountFn{}}
	if count != nil {
		f.Arrays[0] = count.Mem()
		f.CPU = &triCountFn{count: count.Host()}
	}
	return f
}

type equalsFn struct {
	x    []uint32
	want uint32
}

func (f *equalsFn) Vertex(v uint32) bool { return atomic.LoadUint32(&f.x[v]) == f.want }

// equalsFunctor keeps vertices whose entry of x is want (MG_FN_EQUALS).
func equalsFunctor(x *ops.Array[uint32], want uint32) *ops.Functor {
	return &ops.Functor{Name: "equals", ID: ops.FnEquals, Arrays: []ops.Mem{x.Mem()}, Ints: []uint64{uint64(want)},
		CPU: &equalsFn{x: x.Host(), want: want}}
}

type kcorePeelFn struct {
	deg, core []uint32
	k         uint32
}

func (f *kcorePeelFn) Vertex(v uint32) bool {
	if atomic.LoadUint32(&f.deg[v]) >= f.k {
		return false
	}
	atomic.StoreUint32(&f.core[v], f.k-1)
	return true
}

// kcorePeelFunctor removes live vertices of degree below k: their core
// number is k−1 (MG_FN_KCORE_PEEL).
func kcorePeelFunctor(deg, core *ops.Array[uint32], k uint32) *ops.Functor {
	return &ops.Functor{Name: "kcore-peel", ID: ops.FnKcorePeel, Arrays: []ops.Mem{deg.Mem(), core.Mem()},
		Ints: []uint64{uint64(k)}, CPU: &kcorePeelFn{deg: deg.Host(), core: core.Host(), k: k}}
}

type kcoreDropFn struct{ deg, core []uint32 }

func (f *kcoreDropFn) Edge(_, dst uint32, _ uint64, _ uint32) bool {
	if atomic.LoadUint32(&f.core[dst]) == unset {
		atomic.AddUint32(&f.deg[dst], ^uint32(0))
	}
	return false
}

// kcoreDropFunctor lowers the degree of a removed vertex's live
// neighbours (MG_FN_KCORE_DROP).
func kcoreDropFunctor(deg, core *ops.Array[uint32]) *ops.Functor {
	return &ops.Functor{Name: "kcore-drop", ID: ops.FnKcoreDrop, Arrays: []ops.Mem{deg.Mem(), core.Mem()},
		CPU: &kcoreDropFn{deg: deg.Host(), core: core.Host()}}
}

// Priority is vertex v's random priority in round seed of MIS and
// colouring (SplitMix64 of v + seed·Golden, as kernels/fn_structure.cuh's
// priority; partition's MIS and colouring over parts draw theirs too).
func Priority(v uint32, seed uint64) uint64 { return mix.Mix64(uint64(v) + seed*mix.Golden) }

type localMaxFn struct {
	state       []uint32
	win         []uint8
	undecided   uint32
	seed        uint64
	degreeFirst bool
	rows
}

func (f *localMaxFn) Value(v, u uint32, _ uint64, _ uint32) float64 {
	if u == v || atomic.LoadUint32(&f.state[u]) != f.undecided {
		return 0
	}
	if dv, du := f.off[v+1]-f.off[v], f.off[u+1]-f.off[u]; f.degreeFirst && du != dv {
		if du > dv {
			return 1
		}
		return 0
	}
	if p, q := Priority(v, f.seed), Priority(u, f.seed); q > p || (q == p && u > v) {
		return 1
	}
	return 0
}

func (f *localMaxFn) Reduced(v uint32, beaten float64) {
	f.win[v] = 0
	if beaten <= 0 { // an empty row reduces to −Inf
		f.win[v] = 1
	}
}

// localMaxFunctor, reduced with max over the undecided vertices' rows of
// g, marks those whose (priority, id) — (degree, priority, id) with
// degreeFirst — beats every undecided neighbour's (state == undecided;
// MG_FN_LOCAL_MAX).
func localMaxFunctor(g *ops.Graph, state *ops.Array[uint32], win *ops.Array[uint8], undecided uint32, seed uint64, degreeFirst bool) *ops.Functor {
	ldf := uint64(0)
	if degreeFirst {
		ldf = 1
	}
	return &ops.Functor{Name: "local-max", ID: ops.FnLocalMax,
		Arrays: []ops.Mem{state.Mem(), win.Mem(), g.Offsets, g.Dst}, Ints: []uint64{uint64(undecided), seed, ldf},
		CPU: &localMaxFn{state: state.Host(), win: win.Host(), undecided: undecided, seed: seed, degreeFirst: degreeFirst,
			rows: rows{g.HostOffsets, g.HostDst}}}
}

type jpColorFn struct {
	color []uint32
	win   []uint8
	rows
}

func (f *jpColorFn) Vertex(v uint32) bool {
	if f.win[v] == 0 {
		return false
	}
	f.win[v] = 0
	for base := uint32(0); ; base += 64 { // colours [base, base+64) at a time
		var used uint64
		for _, u := range f.adj[f.off[v]:f.off[v+1]] {
			if c := atomic.LoadUint32(&f.color[u]); u != v && c != unset && c >= base && c-base < 64 {
				used |= 1 << (c - base)
			}
		}
		if used != ^uint64(0) {
			atomic.StoreUint32(&f.color[v], base+uint32(bits.TrailingZeros64(^used)))
			return true
		}
	}
}

// jpColorFunctor gives marked vertices the smallest colour no neighbour in
// g has (MG_FN_JP_COLOR).
func jpColorFunctor(g *ops.Graph, color *ops.Array[uint32], win *ops.Array[uint8]) *ops.Functor {
	return &ops.Functor{Name: "jp-color", ID: ops.FnJPColor, Arrays: []ops.Mem{color.Mem(), win.Mem(), g.Offsets, g.Dst},
		CPU: &jpColorFn{color: color.Host(), win: win.Host(), rows: rows{g.HostOffsets, g.HostDst}}}
}

type misJoinFn struct {
	state []uint32
	win   []uint8
}

func (f *misJoinFn) Vertex(v uint32) bool {
	if f.win[v] == 0 {
		return false
	}
	f.win[v] = 0
	atomic.StoreUint32(&f.state[v], misIn)
	return true
}

// misJoinFunctor puts marked vertices in the set (MG_FN_MIS_JOIN).
func misJoinFunctor(state *ops.Array[uint32], win *ops.Array[uint8]) *ops.Functor {
	return &ops.Functor{Name: "mis-join", ID: ops.FnMISJoin, Arrays: []ops.Mem{state.Mem(), win.Mem()},
		CPU: &misJoinFn{state: state.Host(), win: win.Host()}}
}

type misExcludeFn struct{ state []uint32 }

func (f *misExcludeFn) Edge(_, dst uint32, _ uint64, _ uint32) bool {
	atomic.CompareAndSwapUint32(&f.state[dst], unset, misOut)
	return false
}

// misExcludeFunctor excludes the undecided neighbours of set members
// (MG_FN_MIS_EXCLUDE).
func misExcludeFunctor(state *ops.Array[uint32]) *ops.Functor {
	return &ops.Functor{Name: "mis-exclude", ID: ops.FnMISExclude, Arrays: []ops.Mem{state.Mem()},
		CPU: &misExcludeFn{state: state.Host()}}
}
