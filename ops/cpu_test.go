package ops_test

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/ops"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/require"
)

// workerCounts are the worker counts every operator is tested with.
var workerCounts = []int{1, 4}

// Go twins made of functions.

type edgeFn func(src, dst uint32, arc uint64, w uint32) bool

func (f edgeFn) Edge(src, dst uint32, arc uint64, w uint32) bool { return f(src, dst, arc, w) }

type vertexFn func(v uint32) bool

func (f vertexFn) Vertex(v uint32) bool { return f(v) }

type measureFn func(v uint32) float64

func (f measureFn) Measure(v uint32) float64 { return f(v) }

type reducer struct {
	value   func(v, u uint32, arc uint64, w uint32) float64
	reduced func(v uint32, acc float64)
}

func (r reducer) Value(v, u uint32, arc uint64, w uint32) float64 { return r.value(v, u, arc, w) }
func (r reducer) Reduced(v uint32, acc float64)                   { r.reduced(v, acc) }

type commonFn func(u, v uint32, arc uint64, count uint32)

func (f commonFn) Common(u, v uint32, arc uint64, count uint32) { f(u, v, arc, count) }

// functor wraps a Go twin.
func functor(twin any) *ops.Functor { return &ops.Functor{Name: "test", CPU: twin} }

// Graphs and devices.

// build makes the layout of el.
func build(t *testing.T, el *graph.EdgeList) *layout.Layout {
	t.Helper()
	l, err := preprocess.Build(context.Background(), el, testgraphs.SmallParams(), preprocess.Options{Workers: 2})
	require.NoError(t, err)
	return l
}

// rmat is a small undirected R-MAT without self-loops or repeated arcs,
// weighted when asked.
func rmat(t *testing.T, weighted bool) *layout.Layout {
	el := testgraphs.Generated(t, "rmat:10:8", 1)
	if weighted {
		el.SetRandomWeights(5, 1, 64, 2)
	}
	el.Symmetrize(2)
	el.DropSelfLoops()
	el.Dedupe(2)
	return build(t, el)
}

// complete is K_n.
func complete(t *testing.T, n uint32) *layout.Layout {
	var pairs [][2]uint32
	for u := uint32(0); u < n; u++ {
		for v := u + 1; v < n; v++ {
			pairs = append(pairs, [2]uint32{u, v})
		}
	}
	return build(t, testgraphs.Undirected(uint64(n), pairs...))
}

// disconnected has isolated vertices (empty rows).
func disconnected(t *testing.T) *layout.Layout {
	return build(t, testgraphs.Undirected(12, [2]uint32{0, 1}, [2]uint32{1, 2}, [2]uint32{4, 5}, [2]uint32{7, 8}, [2]uint32{8, 9}))
}

// device returns a CPU device over l, closed at the end of the test.
func device(t *testing.T, l *layout.Layout, workers int) ops.Device {
	t.Helper()
	d, err := ops.NewCPU(l, workers)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, d.Close()) })
	return d
}

// frontier returns a frontier holding elems.
func frontier(t *testing.T, d ops.Device, kind ops.Kind, universe int, dense bool, elems []uint32) *ops.Frontier {
	t.Helper()
	f, err := ops.NewFrontier(d, kind, universe, dense)
	require.NoError(t, err)
	require.NoError(t, f.Set(elems))
	t.Cleanup(func() { require.NoError(t, f.Close()) })
	return f
}

// elements returns f's elements.
func elements(t *testing.T, f *ops.Frontier) []uint32 {
	t.Helper()
	e, err := f.Elements()
	require.NoError(t, err)
	return e
}

// forWorkers runs test once per worker count.
func forWorkers(t *testing.T, test func(t *testing.T, workers int)) {
	for _, w := range workerCounts {
		t.Run(fmt.Sprintf("workers=%d", w), func(t *testing.T) { test(t, w) })
	}
}

// Direct computations.

// arcSources returns the source of every arc of l's sparse part.
func arcSources(l *layout.Layout) []uint32 {
	src := make([]uint32, l.NumArcs)
	for u := uint64(0); u < l.NumVertices; u++ {
		for e := l.SparseOffsets[u]; e < l.SparseOffsets[u+1]; e++ {
			src[e] = uint32(u)
		}
	}
	return src
}

// weight is arc e's weight in l (0 unweighted).
func weight(l *layout.Layout, e uint64) uint32 {
	if l.SparseWeights == nil {
		return 0
	}
	return l.SparseWeights[e]
}

// distinctSorted returns s's distinct elements, increasing.
func distinctSorted(s []uint32) []uint32 {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

// firstOccurrences returns s without repeats, in order.
func firstOccurrences(s []uint32) []uint32 {
	seen := map[uint32]bool{}
	var out []uint32
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// someVertices returns a frontier's worth of vertices of n, with repeats.
func someVertices(n uint64) []uint32 {
	var list []uint32
	for v := uint64(0); v < n; v += 3 {
		list = append(list, uint32(v), uint32((v*7+1)%n))
	}
	return append(list, 0, uint32(n-1), 0)
}

// keepArc is the tests' edge predicate.
func keepArc(dst uint32, arc uint64, w uint32) bool { return (uint64(dst)+arc+uint64(w))%3 != 0 }

// edgeChecker returns an Edge twin that checks its arguments against l,
// counts its calls per arc and returns keepArc; bad counts wrong calls.
func edgeChecker(l *layout.Layout, calls []atomic.Int32, bad *atomic.Int32) edgeFn {
	src := arcSources(l)
	return func(u, v uint32, e uint64, w uint32) bool {
		if e >= l.NumArcs || src[e] != u || l.SparseDst[e] != v || weight(l, e) != w {
			bad.Add(1)
			return false
		}
		calls[e].Add(1)
		return keepArc(v, e, w)
	}
}

// TestAdvanceVertices: a vertex frontier's arcs, with every output, into
// sparse and dense frontiers.
func TestAdvanceVertices(t *testing.T) {
	l := rmat(t, true)
	n, m := int(l.NumVertices), int(l.NumArcs)
	list := someVertices(l.NumVertices)
	// The direct computation: arcs visited, outputs in traversal order.
	var wantArcs uint64
	var wantV, wantE []uint32
	wantCalls := make([]int32, m)
	for _, u := range list {
		for e := l.SparseOffsets[u]; e < l.SparseOffsets[u+1]; e++ {
			wantArcs++
			wantCalls[e]++
			if v := l.SparseDst[e]; keepArc(v, e, l.SparseWeights[e]) {
				wantV, wantE = append(wantV, v), append(wantE, uint32(e))
			}
		}
	}
	forWorkers(t, func(t *testing.T, workers int) {
		d := device(t, l, workers)
		ctx := context.Background()
		advance := func(in, out *ops.Frontier, o ops.AdvanceOptions) ops.AdvanceStats {
			calls := make([]atomic.Int32, m)
			var bad atomic.Int32
			s, err := d.Advance(ctx, d.Out(), functor(edgeChecker(l, calls, &bad)), in, out, o)
			require.NoError(t, err)
			require.Zero(t, bad.Load())
			require.Equal(t, wantArcs, s.Arcs)
			for e := range calls {
				require.Equal(t, wantCalls[e], calls[e].Load(), "calls of arc %d", e)
			}
			return s
		}
		in := frontier(t, d, ops.Vertices, n, false, list)

		s := advance(in, nil, ops.AdvanceOptions{})
		require.Zero(t, s.Output)
		require.Equal(t, ops.Choose(ops.Auto, len(list), s.Arcs, l.NumVertices, l.NumArcs), s.Strategy)

		out := frontier(t, d, ops.Vertices, n, false, []uint32{1, 2, 3})
		s = advance(in, out, ops.AdvanceOptions{Output: ops.OutVertices, Strategy: ops.Merged})
		require.Equal(t, ops.Merged, s.Strategy)
		require.Equal(t, len(wantV), s.Output)
		require.Equal(t, wantV, elements(t, out), "worker order is traversal order")

		s = advance(in, out, ops.AdvanceOptions{Output: ops.OutVertices, Unique: true})
		require.Equal(t, len(distinctSorted(wantV)), s.Output)
		got := elements(t, out)
		if workers == 1 {
			require.Equal(t, firstOccurrences(wantV), got)
		}
		require.Equal(t, distinctSorted(wantV), distinctSorted(got))
		require.Len(t, got, s.Output, "no repeats")

		arcsOut := frontier(t, d, ops.Arcs, m, false, nil)
		s = advance(in, arcsOut, ops.AdvanceOptions{Output: ops.OutArcs})
		require.Equal(t, wantE, elements(t, arcsOut))
		require.Equal(t, len(wantE), s.Output)

		dense := frontier(t, d, ops.Vertices, n, true, []uint32{0, 1, 2, 3, 4, 5})
		s = advance(in, dense, ops.AdvanceOptions{Output: ops.OutVertices})
		require.Equal(t, distinctSorted(wantV), elements(t, dense), "dense output overwritten")
		require.Equal(t, len(distinctSorted(wantV)), dense.Len())
		require.Equal(t, dense.Len(), s.Output)
	})
}

// TestAdvanceDenseInput: a dense frontier advances from its flagged
// vertices, in increasing order.
func TestAdvanceDenseInput(t *testing.T) {
	l := rmat(t, false)
	n := int(l.NumVertices)
	set := distinctSorted(someVertices(l.NumVertices))
	var want []uint32
	for _, u := range set {
		for e := l.SparseOffsets[u]; e < l.SparseOffsets[u+1]; e++ {
			if v := l.SparseDst[e]; keepArc(v, e, 0) {
				want = append(want, v)
			}
		}
	}
	forWorkers(t, func(t *testing.T, workers int) {
		d := device(t, l, workers)
		in := frontier(t, d, ops.Vertices, n, true, set)
		out := frontier(t, d, ops.Vertices, n, false, nil)
		edge := edgeFn(func(_, v uint32, e uint64, w uint32) bool { return keepArc(v, e, w) })
		s, err := d.Advance(context.Background(), d.Out(), functor(edge), in, out, ops.AdvanceOptions{Output: ops.OutVertices})
		require.NoError(t, err)
		require.Equal(t, want, elements(t, out))
		require.Equal(t, len(want), s.Output)

		// An advance may write its own input.
		_, err = d.Advance(context.Background(), d.Out(), functor(edge), in, in, ops.AdvanceOptions{Output: ops.OutVertices})
		require.NoError(t, err)
		require.Equal(t, distinctSorted(want), elements(t, in))
	})
}

// TestAdvanceArcs: an arc frontier (sparse with repeats, or dense) calls
// Edge with each arc's source, destination and weight.
func TestAdvanceArcs(t *testing.T) {
	l := rmat(t, true)
	n, m := int(l.NumVertices), int(l.NumArcs)
	var list []uint32
	for e := 0; e < m; e += 5 {
		list = append(list, uint32(e), uint32((e*13+7)%m))
	}
	list = append(list, uint32(m-1), 0)
	wantCalls := make([]int32, m)
	var wantV, wantE []uint32
	for _, e := range list {
		wantCalls[e]++
		if v := l.SparseDst[e]; keepArc(v, uint64(e), l.SparseWeights[e]) {
			wantV, wantE = append(wantV, v), append(wantE, e)
		}
	}
	forWorkers(t, func(t *testing.T, workers int) {
		d := device(t, l, workers)
		for _, dense := range []bool{false, true} {
			in := frontier(t, d, ops.Arcs, m, dense, list)
			calls := make([]atomic.Int32, m)
			var bad atomic.Int32
			out := frontier(t, d, ops.Arcs, m, false, nil)
			s, err := d.Advance(context.Background(), d.Out(), functor(edgeChecker(l, calls, &bad)), in, out, ops.AdvanceOptions{Output: ops.OutArcs})
			require.NoError(t, err)
			require.Zero(t, bad.Load())
			if dense {
				require.Equal(t, distinctSorted(wantE), elements(t, out))
				require.Equal(t, uint64(len(distinctSorted(list))), s.Arcs)
				continue
			}
			require.Equal(t, wantE, elements(t, out))
			require.Equal(t, uint64(len(list)), s.Arcs)
			for e := range calls {
				require.Equal(t, wantCalls[e], calls[e].Load())
			}
			vout := frontier(t, d, ops.Vertices, n, true, nil)
			_, err = d.Advance(context.Background(), d.Out(), functor(edgeChecker(l, calls, &bad)), in, vout, ops.AdvanceOptions{Output: ops.OutVertices})
			require.NoError(t, err)
			require.Equal(t, distinctSorted(wantV), elements(t, vout))
		}
	})
}

// TestFilter: order kept, repeats dropped with Unique (first occurrences,
// one call each), dense outputs and inputs, every vertex for a nil input.
func TestFilter(t *testing.T) {
	l := rmat(t, false)
	n := int(l.NumVertices)
	keep := func(v uint32) bool { return v%3 != 0 }
	var list []uint32
	for i := 0; i < 5000; i++ {
		list = append(list, uint32((i*i+7*i)%n))
	}
	filtered := func(s []uint32) []uint32 {
		var out []uint32
		for _, v := range s {
			if keep(v) {
				out = append(out, v)
			}
		}
		return out
	}
	all := make([]uint32, n)
	for v := range all {
		all[v] = uint32(v)
	}
	forWorkers(t, func(t *testing.T, workers int) {
		d := device(t, l, workers)
		ctx := context.Background()
		calls := make([]atomic.Int32, n)
		f := functor(vertexFn(func(v uint32) bool { calls[v].Add(1); return keep(v) }))
		in := frontier(t, d, ops.Vertices, n, false, list)
		out := frontier(t, d, ops.Vertices, n, false, nil)

		require.NoError(t, d.Filter(ctx, f, in, out, ops.FilterOptions{}))
		require.Equal(t, filtered(list), elements(t, out))

		clear(calls)
		require.NoError(t, d.Filter(ctx, f, in, out, ops.FilterOptions{Unique: true}))
		require.Equal(t, filtered(firstOccurrences(list)), elements(t, out))
		for v := range calls {
			require.LessOrEqual(t, calls[v].Load(), int32(1), "vertex %d", v)
		}

		dense := frontier(t, d, ops.Vertices, n, true, all)
		require.NoError(t, d.Filter(ctx, f, in, dense, ops.FilterOptions{}))
		require.Equal(t, distinctSorted(filtered(list)), elements(t, dense))
		require.Equal(t, len(distinctSorted(filtered(list))), dense.Len())

		require.NoError(t, d.Filter(ctx, f, nil, out, ops.FilterOptions{}))
		require.Equal(t, filtered(all), elements(t, out))

		require.NoError(t, d.Filter(ctx, f, dense, out, ops.FilterOptions{}))
		require.Equal(t, distinctSorted(filtered(list)), elements(t, out))

		require.NoError(t, d.Filter(ctx, functor(vertexFn(func(v uint32) bool { return v%2 == 0 })), dense, dense, ops.FilterOptions{}))
		var even []uint32
		for _, v := range distinctSorted(filtered(list)) {
			if v%2 == 0 {
				even = append(even, v)
			}
		}
		require.Equal(t, even, elements(t, dense), "in place")
	})
}

// TestComputeAndSum: Vertex once per element (repeats included), Measure's
// sum, over sparse, dense and nil inputs.
func TestComputeAndSum(t *testing.T) {
	l := rmat(t, false)
	n := int(l.NumVertices)
	list := someVertices(l.NumVertices)
	measure := func(v uint32) float64 { return float64(v) + 0.5 }
	forWorkers(t, func(t *testing.T, workers int) {
		d := device(t, l, workers)
		ctx := context.Background()
		sparse := frontier(t, d, ops.Vertices, n, false, list)
		dense := frontier(t, d, ops.Vertices, n, true, list)
		for _, c := range []struct {
			name string
			in   *ops.Frontier
			want []uint32 // elements, with repeats
		}{
			{"sparse", sparse, list},
			{"dense", dense, distinctSorted(list)},
			{"all", nil, allVertices(n)},
		} {
			calls := make([]atomic.Int32, n)
			require.NoError(t, d.Compute(ctx, functor(vertexFn(func(v uint32) bool { calls[v].Add(1); return false })), c.in), c.name)
			wantCalls := make([]int32, n)
			wantSum := 0.0
			for _, v := range c.want {
				wantCalls[v]++
				wantSum += measure(v)
			}
			for v := range calls {
				require.Equal(t, wantCalls[v], calls[v].Load(), "%s: vertex %d", c.name, v)
			}
			sum, err := d.Sum(ctx, functor(measureFn(measure)), c.in)
			require.NoError(t, err)
			require.Equal(t, wantSum, sum, c.name)
		}
	})
}

// allVertices returns 0, …, n-1.
func allVertices(n int) []uint32 {
	all := make([]uint32, n)
	for v := range all {
		all[v] = uint32(v)
	}
	return all
}

// TestReduce: the three reductions over every row and over a frontier's,
// with identities on empty rows.
func TestReduce(t *testing.T) {
	for _, c := range []struct {
		name string
		l    *layout.Layout
	}{{"rmat", rmat(t, true)}, {"disconnected", disconnected(t)}} {
		l := c.l
		n := int(l.NumVertices)
		value := func(_, u uint32, e uint64, w uint32) float64 { return float64(u)*2 + float64(w) - float64(e%5) }
		want := func(op ops.ReduceOp, v uint32) float64 {
			acc := map[ops.ReduceOp]float64{ops.ReduceSum: 0, ops.ReduceMin: math.Inf(1), ops.ReduceMax: math.Inf(-1)}[op]
			for e := l.SparseOffsets[v]; e < l.SparseOffsets[v+1]; e++ {
				x := value(v, l.SparseDst[e], e, weight(l, e))
				switch op {
				case ops.ReduceSum:
					acc += x
				case ops.ReduceMin:
					acc = min(acc, x)
				case ops.ReduceMax:
					acc = max(acc, x)
				}
			}
			return acc
		}
		t.Run(c.name, func(t *testing.T) {
			forWorkers(t, func(t *testing.T, workers int) {
				d := device(t, l, workers)
				list := distinctSorted(someVertices(l.NumVertices))
				in := frontier(t, d, ops.Vertices, n, false, list)
				for _, op := range []ops.ReduceOp{ops.ReduceSum, ops.ReduceMin, ops.ReduceMax} {
					for _, f := range []*ops.Frontier{nil, in} {
						got := make([]atomic.Uint64, n)
						calls := make([]atomic.Int32, n)
						r := reducer{value: value, reduced: func(v uint32, acc float64) {
							got[v].Store(math.Float64bits(acc))
							calls[v].Add(1)
						}}
						require.NoError(t, d.Reduce(context.Background(), d.Out(), functor(r), f, op))
						vs := allVertices(n)
						if f != nil {
							vs = list
						}
						for _, v := range vs {
							require.Equal(t, int32(1), calls[v].Load(), "op %d, vertex %d", op, v)
							require.Equal(t, want(op, v), math.Float64frombits(got[v].Load()), "op %d, vertex %d", op, v)
						}
					}
				}
			})
		})
	}
}

// rowSets returns the destinations of every row.
func rowSets(l *layout.Layout) []map[uint32]bool {
	sets := make([]map[uint32]bool, l.NumVertices)
	for u := range sets {
		sets[u] = map[uint32]bool{}
		for _, v := range l.SparseDst[l.SparseOffsets[u]:l.SparseOffsets[u+1]] {
			sets[u][v] = true
		}
	}
	return sets
}

// TestIntersect: common neighbours of every arc (K4: 2 each, 4
// triangles; an R-MAT against a brute force), and of an arc frontier.
func TestIntersect(t *testing.T) {
	for _, c := range []struct {
		name string
		l    *layout.Layout
	}{{"k4", complete(t, 4)}, {"rmat", rmat(t, false)}} {
		l := c.l
		m := int(l.NumArcs)
		src, sets := arcSources(l), rowSets(l)
		want := make([]uint32, m)
		var wantSum uint64
		for e := range want {
			a, b := sets[src[e]], sets[l.SparseDst[e]]
			for x := range a {
				if b[x] {
					want[e]++
				}
			}
			wantSum += uint64(want[e])
		}
		if c.name == "k4" {
			require.Equal(t, uint64(24), wantSum, "4 triangles, 6 arcs each")
		}
		t.Run(c.name, func(t *testing.T) {
			forWorkers(t, func(t *testing.T, workers int) {
				d := device(t, l, workers)
				got := make([]atomic.Int64, m)
				var bad atomic.Int32
				f := functor(commonFn(func(u, v uint32, e uint64, count uint32) {
					if src[e] != u || l.SparseDst[e] != v {
						bad.Add(1)
					}
					got[e].Add(int64(count) + 1) // +1: called once
				}))
				sum, err := d.Intersect(context.Background(), d.Out(), f, nil)
				require.NoError(t, err)
				require.Zero(t, bad.Load())
				require.Equal(t, wantSum, sum)
				for e := range got {
					require.Equal(t, int64(want[e])+1, got[e].Load(), "arc %d", e)
				}

				var list []uint32
				var listSum uint64
				for e := 0; e < m; e += 3 {
					list = append(list, uint32(e))
					listSum += uint64(want[e])
				}
				in := frontier(t, d, ops.Arcs, m, false, list)
				sum, err = d.Intersect(context.Background(), d.Out(), functor(commonFn(func(uint32, uint32, uint64, uint32) {})), in)
				require.NoError(t, err)
				require.Equal(t, listSum, sum)
			})
		})
	}
}

// TestFilterArcs keeps the arcs u→v with u < v (weights kept), and counts
// triangles on the result.
func TestFilterArcs(t *testing.T) {
	l := rmat(t, true)
	n := l.NumVertices
	wantOff := []uint64{0}
	var wantDst, wantW []uint32
	for u := uint64(0); u < n; u++ {
		for e := l.SparseOffsets[u]; e < l.SparseOffsets[u+1]; e++ {
			if uint64(l.SparseDst[e]) > u {
				wantDst, wantW = append(wantDst, l.SparseDst[e]), append(wantW, l.SparseWeights[e])
			}
		}
		wantOff = append(wantOff, uint64(len(wantDst)))
	}
	noop := functor(commonFn(func(uint32, uint32, uint64, uint32) {}))
	forWorkers(t, func(t *testing.T, workers int) {
		d := device(t, l, workers)
		ctx := context.Background()
		g, err := d.FilterArcs(ctx, d.Out(), functor(edgeFn(func(u, v uint32, _ uint64, _ uint32) bool { return u < v })))
		require.NoError(t, err)
		require.Equal(t, n, g.NumVertices)
		require.Equal(t, uint64(len(wantDst)), g.NumArcs)
		require.Equal(t, wantOff, g.HostOffsets)
		require.Equal(t, wantDst, g.HostDst)
		require.Equal(t, wantW, g.HostWeights)
		require.True(t, g.Weighted())
		dst := make([]byte, 4*g.NumArcs)
		require.NoError(t, g.Dst.Download(0, dst))
		require.Equal(t, wantDst, unsafe.Slice((*uint32)(unsafe.Pointer(&dst[0])), g.NumArcs))

		// Oriented triangles count each triangle once; the whole graph six times.
		oriented, err := d.Intersect(ctx, g, noop, nil)
		require.NoError(t, err)
		whole, err := d.Intersect(ctx, d.Out(), noop, nil)
		require.NoError(t, err)
		require.Equal(t, whole, 6*oriented)
		require.NotZero(t, oriented)

		require.NoError(t, g.Close())
		require.NoError(t, g.Close())
	})
}

// TestConvert: sparse (with repeats) to dense and back.
func TestConvert(t *testing.T) {
	l := rmat(t, false)
	n := int(l.NumVertices)
	list := someVertices(l.NumVertices)
	forWorkers(t, func(t *testing.T, workers int) {
		d := device(t, l, workers)
		f := frontier(t, d, ops.Vertices, n, false, list)
		require.NoError(t, d.Convert(f, true))
		require.True(t, f.Dense())
		require.Equal(t, len(distinctSorted(list)), f.Len())
		require.Equal(t, distinctSorted(list), elements(t, f))
		require.NoError(t, d.Convert(f, true), "already dense")
		require.NoError(t, d.Convert(f, false))
		require.False(t, f.Dense())
		require.Equal(t, distinctSorted(list), elements(t, f))

		empty := frontier(t, d, ops.Arcs, int(l.NumArcs), true, nil)
		require.NoError(t, d.Convert(empty, false))
		require.Zero(t, empty.Len())
		require.Empty(t, elements(t, empty))
		require.NoError(t, d.Convert(empty, true))
		require.Zero(t, empty.Len())
	})
}

// TestMemory: Alloc, Fill, copies and Free.
func TestMemory(t *testing.T) {
	l := complete(t, 4)
	d := device(t, l, 2)
	m, err := d.Alloc(13)
	require.NoError(t, err)
	require.Equal(t, uint64(13), m.Bytes())
	require.Zero(t, uintptr(m.Ptr())%8, "8-byte aligned")
	require.Error(t, m.Upload(0, make([]byte, 14)))
	require.NoError(t, m.Upload(0, []byte{1, 2, 3}))
	out := make([]byte, 3)
	require.NoError(t, m.Download(0, out))
	require.Equal(t, []byte{1, 2, 3}, out)
	require.Error(t, m.Download(0, make([]byte, 14)))
	require.Error(t, d.Fill(m, 4, 7, 4), "16 bytes in 13")
	require.Error(t, d.Fill(m, 2, 7, 1), "2-byte elements")
	require.NoError(t, d.Fill(m, 4, 0x01020304, 3))
	require.Equal(t, byte(4), m.Host()[8])
	require.NoError(t, m.Free())
	require.NoError(t, m.Free())
	require.Nil(t, m.Host())

	empty, err := d.Alloc(0)
	require.NoError(t, err)
	require.Nil(t, empty.Ptr())

	const size = 100_000 // several workers' worth
	u8, err := ops.NewFilled[uint8](d, size, 9)
	require.NoError(t, err)
	u32, err := ops.NewFilled[uint32](d, size, 0xdeadbeef)
	require.NoError(t, err)
	f64, err := ops.NewFilled(d, size, 2.5)
	require.NoError(t, err)
	for i := 0; i < size; i++ {
		require.Equal(t, uint8(9), u8.Host()[i])
		require.Equal(t, uint32(0xdeadbeef), u32.Host()[i])
		require.Equal(t, 2.5, f64.Host()[i])
	}
	require.NoError(t, u8.Close())
	require.NoError(t, u32.Close())
	require.NoError(t, f64.Close())
}

// TestGraphs: Out is the sparse part, not freed by Close; In is Out
// undirected and the transpose directed.
func TestGraphs(t *testing.T) {
	l := rmat(t, true)
	d := device(t, l, 2)
	out := d.Out()
	require.Equal(t, l.SparseOffsets, out.HostOffsets)
	require.Equal(t, l.SparseDst, out.HostDst)
	require.Equal(t, l.SparseWeights, out.HostWeights)
	require.Equal(t, uint64(8*(l.NumVertices+1)), out.Offsets.Bytes())
	require.NoError(t, out.Close())
	require.NoError(t, out.Dst.Free())
	require.NotNil(t, out.Dst.Host(), "a view is not freed")
	in, err := d.In()
	require.NoError(t, err)
	require.Same(t, out, in)

	directed := build(t, testgraphs.Generated(t, "rmat:9:6", 2))
	require.True(t, directed.Directed)
	dd := device(t, directed, 2)
	in, err = dd.In()
	require.NoError(t, err)
	again, err := dd.In()
	require.NoError(t, err)
	require.Same(t, in, again, "built once")
	type arc struct{ u, v uint32 }
	var want, got []arc
	src := arcSources(directed)
	for e, v := range directed.SparseDst {
		want = append(want, arc{src[e], v})
	}
	for v := uint64(0); v < in.NumVertices; v++ {
		for _, u := range in.HostDst[in.HostOffsets[v]:in.HostOffsets[v+1]] {
			got = append(got, arc{u, uint32(v)})
		}
	}
	byEnds := func(a, b arc) int {
		if c := cmp.Compare(a.u, b.u); c != 0 {
			return c
		}
		return cmp.Compare(a.v, b.v)
	}
	slices.SortFunc(want, byEnds)
	slices.SortFunc(got, byEnds)
	require.Equal(t, want, got)
}

// TestProvider: the CPU backend opens a CPU device.
func TestProvider(t *testing.T) {
	l := complete(t, 4)
	b, err := cpu.New(l, 2)
	require.NoError(t, err)
	d, err := ops.Open(b)
	require.NoError(t, err)
	require.Equal(t, "cpu", d.Name())
	require.Same(t, l, d.Layout())
	_, err = ops.Open(struct{}{})
	require.Error(t, err)
}

// TestCancelled: a cancelled context ends every operator with its error.
func TestCancelled(t *testing.T) {
	l := rmat(t, true)
	n := int(l.NumVertices)
	d := device(t, l, 2)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	in := frontier(t, d, ops.Vertices, n, false, []uint32{0, 1})
	out := frontier(t, d, ops.Vertices, n, false, nil)
	edge := functor(edgeFn(func(uint32, uint32, uint64, uint32) bool { return true }))
	vertex := functor(vertexFn(func(uint32) bool { return true }))
	_, err := d.Advance(ctx, d.Out(), edge, in, out, ops.AdvanceOptions{Output: ops.OutVertices})
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorIs(t, d.Filter(ctx, vertex, in, out, ops.FilterOptions{}), context.Canceled)
	require.ErrorIs(t, d.Compute(ctx, vertex, nil), context.Canceled)
	_, err = d.Sum(ctx, functor(measureFn(func(uint32) float64 { return 1 })), nil)
	require.ErrorIs(t, err, context.Canceled)
	r := reducer{value: func(uint32, uint32, uint64, uint32) float64 { return 1 }, reduced: func(uint32, float64) {}}
	require.ErrorIs(t, d.Reduce(ctx, d.Out(), functor(r), nil, ops.ReduceSum), context.Canceled)
	_, err = d.Intersect(ctx, d.Out(), functor(commonFn(func(uint32, uint32, uint64, uint32) {})), nil)
	require.ErrorIs(t, err, context.Canceled)
	_, err = d.FilterArcs(ctx, d.Out(), edge)
	require.ErrorIs(t, err, context.Canceled)
}

// TestCancelMidway: an operator stops within 64Ki elements of its context
// being cancelled, inside a long row too.
func TestCancelMidway(t *testing.T) {
	const n, hub = 200_000, 200_000
	// Vertex 0 has hub arcs to vertex 1; the rest have none.
	off := make([]uint64, n+1)
	for v := 1; v <= n; v++ {
		off[v] = hub
	}
	dst := make([]uint32, hub)
	for i := range dst {
		dst[i] = 1
	}
	l := &layout.Layout{NumVertices: n, NumArcs: hub, SparseOffsets: off, SparseDst: dst}
	d := device(t, l, 1)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var calls atomic.Int64
	err := d.Compute(ctx, functor(vertexFn(func(uint32) bool { calls.Add(1); cancel(); return true })), nil)
	require.ErrorIs(t, err, context.Canceled)
	require.Less(t, calls.Load(), int64(n))

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	calls.Store(0)
	in := frontier(t, d, ops.Vertices, n, false, []uint32{0})
	_, err = d.Advance(ctx, d.Out(), functor(edgeFn(func(uint32, uint32, uint64, uint32) bool { calls.Add(1); cancel(); return true })), in, nil, ops.AdvanceOptions{})
	require.ErrorIs(t, err, context.Canceled)
	require.Less(t, calls.Load(), int64(hub))
}

// TestErrors: missing Go methods, bad vertex ids, wrong kinds and
// universes are errors, not panics.
func TestErrors(t *testing.T) {
	l := rmat(t, false)
	n, m := int(l.NumVertices), int(l.NumArcs)
	d := device(t, l, 2)
	ctx := context.Background()
	edge := functor(edgeFn(func(uint32, uint32, uint64, uint32) bool { return true }))
	vertex := functor(vertexFn(func(uint32) bool { return true }))
	in := frontier(t, d, ops.Vertices, n, false, []uint32{0, 1})
	out := frontier(t, d, ops.Vertices, n, false, nil)
	arcs := frontier(t, d, ops.Arcs, m, false, []uint32{0})

	_, err := d.Advance(ctx, d.Out(), vertex, in, out, ops.AdvanceOptions{})
	require.ErrorContains(t, err, "ops: advance: functor test has no Go Edge method")
	err = d.Reduce(ctx, d.Out(), edge, nil, ops.ReduceMax)
	require.ErrorContains(t, err, "Value/Reduced")
	_, err = d.Sum(ctx, edge, nil)
	require.ErrorContains(t, err, "Measure")
	_, err = d.Intersect(ctx, d.Out(), edge, nil)
	require.ErrorContains(t, err, "Common")
	require.ErrorContains(t, d.Filter(ctx, edge, nil, out, ops.FilterOptions{}), "Vertex")
	require.Error(t, d.Compute(ctx, nil, nil))

	// Wrong kinds and universes.
	_, err = d.Advance(ctx, d.Out(), edge, in, arcs, ops.AdvanceOptions{Output: ops.OutVertices})
	require.ErrorContains(t, err, "output frontier of arcs, want vertices")
	_, err = d.Advance(ctx, d.Out(), edge, in, out, ops.AdvanceOptions{Output: ops.OutArcs})
	require.ErrorContains(t, err, "output frontier of vertices, want arcs")
	_, err = d.Advance(ctx, d.Out(), edge, in, nil, ops.AdvanceOptions{Output: ops.OutVertices})
	require.Error(t, err)
	_, err = d.Advance(ctx, d.Out(), edge, nil, nil, ops.AdvanceOptions{}) // nil input: every vertex
	require.NoError(t, err)
	require.ErrorContains(t, d.Reduce(ctx, d.Out(), functor(reducer{}), arcs, ops.ReduceSum), "want vertices")
	_, err = d.Intersect(ctx, d.Out(), functor(commonFn(nil)), in)
	require.ErrorContains(t, err, "want arcs")
	wide := frontier(t, d, ops.Vertices, n+1, false, []uint32{uint32(n)})
	_, err = d.Advance(ctx, d.Out(), edge, wide, nil, ops.AdvanceOptions{})
	require.ErrorContains(t, err, "want")
	require.Error(t, d.Compute(ctx, vertex, wide))
	require.Error(t, d.Filter(ctx, vertex, arcs, out, ops.FilterOptions{}), "output kind differs from the input's")

	// A vertex id beyond the graph, written behind the frontier's back.
	bad := frontier(t, d, ops.Vertices, n, false, []uint32{0, 1})
	bad.List.Host()[1] = uint32(n + 5)
	_, err = d.Advance(ctx, d.Out(), edge, bad, out, ops.AdvanceOptions{Output: ops.OutVertices})
	require.ErrorContains(t, err, "is not below")
	require.ErrorContains(t, d.Filter(ctx, vertex, bad, out, ops.FilterOptions{}), "is not below")
	require.ErrorContains(t, d.Compute(ctx, vertex, bad), "is not below")
	require.ErrorContains(t, d.Reduce(ctx, d.Out(), functor(reducer{}), bad, ops.ReduceSum), "is not below")
	require.ErrorContains(t, d.Convert(bad, true), "is not below")
	require.ErrorContains(t, d.Reduce(ctx, d.Out(), functor(reducer{}), nil, ops.ReduceOp(9)), "unknown reduction")
}

// TestTinyGraphs: every operator on the empty graph and a single vertex.
func TestTinyGraphs(t *testing.T) {
	for _, el := range []*graph.EdgeList{{}, {NumVertices: 1}} {
		l := build(t, el)
		n, m := int(l.NumVertices), int(l.NumArcs)
		d := device(t, l, 4)
		ctx := context.Background()
		edge := functor(edgeFn(func(uint32, uint32, uint64, uint32) bool { return true }))
		vertex := functor(vertexFn(func(uint32) bool { return true }))
		in := frontier(t, d, ops.Vertices, n, false, allVertices(n))
		out := frontier(t, d, ops.Vertices, n, true, nil)
		s, err := d.Advance(ctx, d.Out(), edge, in, out, ops.AdvanceOptions{Output: ops.OutVertices})
		require.NoError(t, err)
		require.Zero(t, s.Arcs)
		require.NoError(t, d.Filter(ctx, vertex, nil, out, ops.FilterOptions{}))
		require.Equal(t, n, out.Len())
		sum, err := d.Sum(ctx, functor(measureFn(func(uint32) float64 { return 1 })), nil)
		require.NoError(t, err)
		require.Equal(t, float64(n), sum)
		var reduced atomic.Int32
		r := reducer{value: func(uint32, uint32, uint64, uint32) float64 { return 1 }, reduced: func(_ uint32, acc float64) {
			if acc == math.Inf(1) {
				reduced.Add(1)
			}
		}}
		require.NoError(t, d.Reduce(ctx, d.Out(), functor(r), nil, ops.ReduceMin))
		require.Equal(t, int32(n), reduced.Load())
		common, err := d.Intersect(ctx, d.Out(), functor(commonFn(func(uint32, uint32, uint64, uint32) {})), frontier(t, d, ops.Arcs, m, false, nil))
		require.NoError(t, err)
		require.Zero(t, common)
		g, err := d.FilterArcs(ctx, d.Out(), edge)
		require.NoError(t, err)
		require.Equal(t, uint64(n), g.NumVertices)
		require.NoError(t, g.Close())
		require.NoError(t, d.Convert(out, false))
		require.Equal(t, allVertices(n), elements(t, out))
	}
}

// pullTwin is the Go twin the pull tests give: vertices v%3 != 0 are
// candidates, an arc (u, v) is taken when u is even, and every call is
// counted per in-arc position.
type pullTwin struct {
	calls []atomic.Int32
}

func (p *pullTwin) Vertex(v uint32) bool { return v%3 != 0 }

func (p *pullTwin) Edge(u, _ uint32, e uint64, _ uint32) bool {
	p.calls[e].Add(1)
	return u%2 == 0
}

// TestAdvancePull: the pull advance calls Edge on the candidates' in-arcs
// from the input (in row order, stopping at the first true with First),
// writes each candidate that got a true once, on directed and undirected
// graphs, from sparse, dense and all-vertex inputs, into sparse and dense
// outputs; Optimized pulls by Beamer's rule.
func TestAdvancePull(t *testing.T) {
	el := testgraphs.Generated(t, "rmat:9:8", 4)
	directed := build(t, el)
	for name, l := range map[string]*layout.Layout{"directed": directed, "undirected": rmat(t, false)} {
		forWorkers(t, func(t *testing.T, workers int) {
			d := device(t, l, workers)
			tr, err := d.In()
			require.NoError(t, err)
			n := int(l.NumVertices)
			list := someVertices(l.NumVertices)
			member := make([]bool, n)
			for _, u := range list {
				member[u] = true
			}
			for _, form := range []string{"sparse", "dense", "all"} {
				for _, first := range []bool{false, true} {
					for _, denseOut := range []bool{false, true} {
						tag := fmt.Sprintf("%s/%s/first %v/dense out %v", name, form, first, denseOut)
						in := member
						var fin *ops.Frontier
						if form != "all" {
							fin = frontier(t, d, ops.Vertices, n, form == "dense", list)
						} else {
							in = nil
						}
						twin := &pullTwin{calls: make([]atomic.Int32, tr.NumArcs)}
						out := frontier(t, d, ops.Vertices, n, denseOut, nil)
						st, err := d.Advance(context.Background(), d.Out(), functor(twin), fin, out,
							ops.AdvanceOptions{Output: ops.OutVertices, Direction: ops.Pull, First: first})
						require.NoError(t, err, tag)
						require.Equal(t, ops.Pull, st.Direction, tag)
						// The direct computation over the transpose.
						var want []uint32
						wantCalls := make([]int32, tr.NumArcs)
						for v := uint32(0); int(v) < n; v++ {
							if v%3 == 0 {
								continue
							}
							got := false
							for e := tr.HostOffsets[v]; e < tr.HostOffsets[v+1]; e++ {
								u := tr.HostDst[e]
								if in != nil && !in[u] {
									continue
								}
								wantCalls[e]++
								if u%2 == 0 {
									got = true
									if first {
										break
									}
								}
							}
							if got {
								want = append(want, v)
							}
						}
						require.Equal(t, want, distinctSorted(elements(t, out)), tag)
						require.Equal(t, len(want), out.Len(), tag)
						for e := range wantCalls {
							require.Equal(t, wantCalls[e], twin.calls[e].Load(), "%s: in-arc %d", tag, e)
						}
					}
				}
			}
		})
	}
}

// TestOptimizer: Beamer's rule pushes small frontiers, pulls once the
// frontier's arcs exceed the unexplored ones / α, and pushes again when
// the frontier shrinks below n / β.
func TestOptimizer(t *testing.T) {
	g := &ops.Graph{NumVertices: 1800, NumArcs: 15000}
	o := ops.NewOptimizer(g)
	require.False(t, o.KeepPulling(10, g.NumVertices))
	require.False(t, o.PullFor(10, 900))                // 900 ≤ 15000/15
	require.True(t, o.PullFor(200, 14100/15+1))         // 941 > (15000−900)/15
	require.True(t, o.KeepPulling(300, g.NumVertices))  // growing
	require.True(t, o.KeepPulling(150, g.NumVertices))  // shrinking, above 1800/18
	require.False(t, o.KeepPulling(90, g.NumVertices))  // shrinking and below
	require.False(t, o.KeepPulling(500, g.NumVertices)) // pushing now: asks the plan
}

// TestPullErrors: a pull needs a candidate test, vertex frontiers, the
// transpose of a graph other than the device's, and an optimizer.
func TestPullErrors(t *testing.T) {
	l := rmat(t, false)
	d := device(t, l, 2)
	n := int(l.NumVertices)
	ctx := context.Background()
	out := frontier(t, d, ops.Vertices, n, false, nil)
	in := frontier(t, d, ops.Vertices, n, false, []uint32{1, 2})
	pull := ops.AdvanceOptions{Output: ops.OutVertices, Direction: ops.Pull}
	_, err := d.Advance(ctx, d.Out(), functor(edgeFn(func(uint32, uint32, uint64, uint32) bool { return true })), in, out, pull)
	require.ErrorContains(t, err, "Vertex")
	twin := &pullTwin{calls: make([]atomic.Int32, l.NumArcs)}
	arcs := frontier(t, d, ops.Arcs, int(l.NumArcs), false, []uint32{0})
	_, err = d.Advance(ctx, d.Out(), functor(twin), arcs, out, pull)
	require.ErrorContains(t, err, "vertex frontier")
	_, err = d.Advance(ctx, d.Out(), functor(twin), in, nil, pull)
	require.Error(t, err)
	other, err := d.FilterArcs(ctx, d.Out(), functor(edgeFn(func(uint32, uint32, uint64, uint32) bool { return true })))
	require.NoError(t, err)
	defer other.Close()
	_, err = d.Advance(ctx, other, functor(twin), in, out, pull)
	require.ErrorContains(t, err, "Transpose")
	pull.Transpose = other
	_, err = d.Advance(ctx, other, functor(twin), in, out, pull)
	require.NoError(t, err)
	_, err = d.Advance(ctx, d.Out(), functor(twin), in, out, ops.AdvanceOptions{Output: ops.OutVertices, Direction: ops.Optimized})
	require.ErrorContains(t, err, "Optimizer")
}
