package pull

import (
	"context"
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
)

const unreached = math.MaxUint32

// bfs is BFS as an early-exit program.
type bfs struct{}

func (bfs) Edge() engine.EdgeOp       { return engine.EdgeSourcePlusOne }
func (bfs) Combine() engine.CombineOp { return engine.CombineMin }
func (bfs) ApplyAll() bool            { return false }
func (bfs) Apply(v uint32, acc uint32, lv []uint32) bool {
	if acc < lv[v] {
		lv[v] = acc
		return true
	}
	return false
}
func (bfs) Unsettled(lo uint32, lv []uint32, out []bool) {
	for i := range out {
		out[i] = lv[int(lo)+i] == unreached
	}
}

// plainBFS is bfs marked engine.PlainMin (as apps' BFS is): a step folds
// its contributions with the min in place of calling Apply.
type plainBFS struct{ bfs }

func (plainBFS) PlainMin() {}

// weightedBFS is BFS written with EdgeSourcePlusWeight on a layout whose
// weights are all 1: it exercises the weighted path of the step.
type weightedBFS struct{ bfs }

func (weightedBFS) Edge() engine.EdgeOp { return engine.EdgeSourcePlusWeight }

// build preprocesses el with small parameters (several panels, segments
// and heavy blocks even on small graphs).
func build(t testing.TB, el *graph.EdgeList) *layout.Layout {
	t.Helper()
	p := layout.Params{PanelSize: 64, HeavyThreshold: 100, HeavyColumns: 16, SegmentSize: 32,
		GroupThresholds: graph.DefaultGroupThresholds(), HighGroups: 4}
	l, err := preprocess.Build(context.Background(), el, p, preprocess.Options{Workers: 2})
	require.NoError(t, err)
	return l
}

func undirected(n uint64, arcs [][2]uint32) *graph.EdgeList {
	el := &graph.EdgeList{NumVertices: n, Directed: true}
	for _, a := range arcs {
		el.Src = append(el.Src, a[0])
		el.Dst = append(el.Dst, a[1])
	}
	el.Symmetrize(1)
	el.DropSelfLoops()
	el.Dedupe(1)
	return el
}

// shapes are the undirected test graphs.
func shapes(t *testing.T) map[string]*graph.EdgeList {
	ctx := context.Background()
	out := map[string]*graph.EdgeList{}
	rm, err := gen.RMAT(ctx, gen.DefaultRMAT(11, 8), 2, nil)
	require.NoError(t, err)
	rm.Symmetrize(2)
	rm.DropSelfLoops()
	rm.Dedupe(2)
	out["rmat"] = rm
	var grid, chain, star, disc [][2]uint32
	const side = 30
	for r := uint32(0); r < side; r++ {
		for c := uint32(0); c < side; c++ {
			v := r*side + c
			if c+1 < side {
				grid = append(grid, [2]uint32{v, v + 1})
			}
			if r+1 < side {
				grid = append(grid, [2]uint32{v, v + side})
			}
		}
	}
	out["grid"] = undirected(side*side, grid)
	for v := uint32(0); v+1 < 500; v++ {
		chain = append(chain, [2]uint32{v, v + 1})
	}
	out["chain"] = undirected(500, chain)
	for v := uint32(1); v < 3000; v++ {
		star = append(star, [2]uint32{0, v})
	}
	out["star"] = undirected(3000, star)
	// Three components and isolated vertices.
	for v := uint32(0); v+1 < 100; v++ {
		disc = append(disc, [2]uint32{v, v + 1}, [2]uint32{200 + v, 200 + (v*7+3)%100})
	}
	disc = append(disc, [2]uint32{400, 401}, [2]uint32{401, 402})
	out["disconnected"] = undirected(450, disc)
	out["single"] = undirected(1, nil)
	out["empty"] = undirected(0, nil)
	return out
}

// pullBFS runs BFS from src (layout numbering) with pull steps only.
func pullBFS(t testing.TB, e *Engine[uint32], p engine.EarlyExit[uint32], src uint32) []uint32 {
	n := e.l.NumVertices
	lv := make([]uint32, n)
	for i := range lv {
		lv[i] = unreached
	}
	active, next := make([]uint8, n), make([]uint8, n)
	lv[src], active[src] = 0, 1
	off := e.l.SparseOffsets
	for count := uint64(1); count > 0; {
		var err error
		count, _, err = e.Step(context.Background(), p, lv, active, next)
		require.NoError(t, err)
		var k, arcs uint64
		for v, f := range next {
			if f != 0 {
				k++
				arcs += off[v+1] - off[v]
			}
		}
		require.Equal(t, k, count)
		require.Equal(t, arcs, e.NextArcs())
		active, next = next, active
	}
	return lv
}

// inOriginal maps layout-numbered levels back to the original numbering.
func inOriginal(l *layout.Layout, lv []uint32) []uint32 {
	out := make([]uint32, len(lv))
	for v, x := range lv {
		out[l.InvPerm[v]] = x
	}
	return out
}

func TestPullBFSMatchesReference(t *testing.T) {
	for name, el := range shapes(t) {
		l := build(t, el)
		g := graph.ToCSR(el, 2)
		var sources []uint32
		if l.NumVertices > 0 {
			sources = []uint32{0, uint32(l.NumVertices - 1), uint32(l.NumVertices / 2)}
		}
		for _, w := range []int{1, 2, 3, 5, 8} {
			e, err := New[uint32](l, nil, w)
			require.NoError(t, err)
			e.chunk = 64 // many ranges, so several workers take part on small graphs
			for _, s := range sources {
				want, _ := ref.BFS(g, s)
				got := inOriginal(l, pullBFS(t, e, bfs{}, l.Perm[s]))
				require.Equal(t, want, got, "%s, %d workers, source %d", name, w, s)
				got = inOriginal(l, pullBFS(t, e, plainBFS{}, l.Perm[s]))
				require.Equal(t, want, got, "%s, %d workers, source %d, plain min", name, w, s)
			}
		}
		if l.NumVertices == 0 {
			e, err := New[uint32](l, nil, 2)
			require.NoError(t, err)
			n, _, err := e.Step(context.Background(), bfs{}, nil, nil, nil)
			require.NoError(t, err)
			require.Zero(t, n)
		}
	}
}

func TestPullWeightedEdgeOp(t *testing.T) {
	el := shapes(t)["rmat"]
	el.Weights = make([]uint32, len(el.Src))
	for i := range el.Weights {
		el.Weights[i] = 1
	}
	l := build(t, el)
	g := graph.ToCSR(el, 2)
	e, err := New[uint32](l, nil, 2)
	require.NoError(t, err)
	want, _ := ref.BFS(g, 3)
	require.Equal(t, want, inOriginal(l, pullBFS(t, e, weightedBFS{}, l.Perm[3])))
}

func TestNewRejectsDirectedWithoutIn(t *testing.T) {
	el := &graph.EdgeList{NumVertices: 3, Directed: true, Src: []uint32{0, 1}, Dst: []uint32{1, 2}}
	l := build(t, el)
	_, err := New[uint32](l, nil, 2)
	require.ErrorIs(t, err, ErrDirected)
	_, err = New[uint32](l, &layout.InArcs{Offsets: []uint64{0, 0, 0, 0}}, 2)
	require.ErrorContains(t, err, "in-adjacency does not match")
}

// TestPullBFSDirected runs pull-only BFS over the transposed sparse part of
// directed graphs (R-MAT, a one-way chain, a graph with unreachable parts)
// against the reference, with several worker counts.
func TestPullBFSDirected(t *testing.T) {
	rm, err := gen.RMAT(context.Background(), gen.DefaultRMAT(11, 8), 2, nil)
	require.NoError(t, err)
	rm.DropSelfLoops()
	rm.Dedupe(2)
	chain := &graph.EdgeList{NumVertices: 300, Directed: true}
	for v := uint32(0); v+1 < 300; v++ {
		chain.Src, chain.Dst = append(chain.Src, v), append(chain.Dst, v+1)
	}
	// 0 -> 1 -> 2, 3 -> 0 (3 unreachable from 0), 4 isolated.
	parts := &graph.EdgeList{NumVertices: 5, Directed: true, Src: []uint32{0, 1, 3}, Dst: []uint32{1, 2, 0}}
	for name, el := range map[string]*graph.EdgeList{"rmat": rm, "chain": chain, "parts": parts} {
		l := build(t, el)
		g := graph.ToCSR(el, 2)
		in := l.In(2)
		require.Equal(t, l.NumArcs, uint64(len(in.Src)), name)
		for _, w := range []int{1, 3} {
			e, err := New[uint32](l, in, w)
			require.NoError(t, err)
			e.chunk = 64
			for _, s := range []uint32{0, uint32(l.NumVertices / 2), uint32(l.NumVertices - 1)} {
				want, _ := ref.BFS(g, s)
				require.Equal(t, want, inOriginal(l, pullBFS(t, e, bfs{}, l.Perm[s])), "%s from %d, %d workers", name, s, w)
			}
		}
	}
}

func TestStepChecksArguments(t *testing.T) {
	l := build(t, shapes(t)["chain"])
	e, err := New[uint32](l, nil, 2)
	require.NoError(t, err)
	n := l.NumVertices
	_, _, err = e.Step(context.Background(), bfs{}, make([]uint32, n), make([]uint8, n), make([]uint8, n-1))
	require.Error(t, err)
	_, _, err = e.Step(context.Background(), weightedBFS{}, make([]uint32, n), make([]uint8, n), make([]uint8, n))
	require.ErrorContains(t, err, "unweighted")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err = e.Step(ctx, bfs{}, make([]uint32, n), make([]uint8, n), make([]uint8, n))
	require.ErrorIs(t, err, context.Canceled)
}

func TestEstimateIsADryRun(t *testing.T) {
	l := build(t, shapes(t)["rmat"])
	e, err := New[uint32](l, nil, 2)
	require.NoError(t, err)
	n := l.NumVertices
	lv := make([]uint32, n)
	active := make([]uint8, n)
	for i := range lv {
		lv[i] = unreached
	}
	lv[0], active[0] = 0, 1
	before := append([]uint32(nil), lv...)
	d, err := e.Estimate(context.Background(), bfs{}, lv, active)
	require.NoError(t, err)
	require.Positive(t, d)
	require.Equal(t, before, lv)
}

// BenchmarkPullRMAT20 times pull steps of a BFS on R-MAT scale 20 (the
// layout in $MGRAPH_BENCH_LAYOUT, default /tmp/r20.mgl; skipped when
// absent) from the states of its large middle levels.
func BenchmarkPullRMAT20(b *testing.B) {
	path := os.Getenv("MGRAPH_BENCH_LAYOUT")
	if path == "" {
		path = "/tmp/r20.mgl"
	}
	l, err := layout.LoadFile(path)
	if err != nil {
		b.Skip(err)
	}
	e, err := New[uint32](l, nil, 2)
	if err != nil {
		b.Skip(err)
	}
	full := pullBFS(b, e, bfs{}, 0)
	n := l.NumVertices
	for _, level := range []uint32{1, 2, 3, 4} {
		b.Run("level"+string(rune('0'+level)), func(b *testing.B) {
			lv := make([]uint32, n)
			active, next := make([]uint8, n), make([]uint8, n)
			for b.Loop() {
				b.StopTimer()
				for v, x := range full {
					if x > level {
						x = unreached
					}
					lv[v] = x
					active[v] = 0
					if x == level {
						active[v] = 1
					}
				}
				b.StartTimer()
				if _, _, err := e.Step(context.Background(), plainBFS{}, lv, active, next); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestCandidates checks the packing of Unsettled's answers, full words
// (eight at a time) and the short last one, against a bit-by-bit loop.
func TestCandidates(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		x := seed*0x9e3779b97f4a7c15 + 1
		uns := make([]bool, 64)
		for j := range uns {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			uns[j] = x&1 == 1
		}
		linked := x * 0xbf58476d1ce4e5b9
		for _, k := range []int{64, 63, 17, 1} {
			var want uint64
			for j, u := range uns[:k] {
				if u {
					want |= 1 << j
				}
			}
			require.Equal(t, want&linked, candidates(uns[:k], linked), "seed %d, %d flags", seed, k)
		}
	}
}

// TestOutDegreeSaturated: a head entry holds an out-degree below
// headSaturated itself; a saturated one is read from the out-offsets.
func TestOutDegreeSaturated(t *testing.T) {
	r := rows{outOff: []uint64{0, 7, 7 + headSaturated + 3}}
	require.Equal(t, uint64(7), r.outDegree(0, 5|7<<32))
	require.Equal(t, uint64(headSaturated+3), r.outDegree(1, 5|headSaturated<<32))
}
