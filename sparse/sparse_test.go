package sparse

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
)

// --- test programs ---------------------------------------------------------

// minProg is BFS/SSSP-like: the smallest contribution wins and activates v
// if it improves its value.
type minProg[V engine.Value] struct{ edge engine.EdgeOp }

func (p minProg[V]) Edge() engine.EdgeOp     { return p.edge }
func (minProg[V]) Combine() engine.CombineOp { return engine.CombineMin }
func (minProg[V]) ApplyAll() bool            { return false }
func (p minProg[V]) String() string          { return "min/" + p.edge.String() }
func (minProg[V]) Apply(v uint32, acc V, values []V) bool {
	if acc < values[v] {
		values[v] = acc
		return true
	}
	return false
}

// sumProg adds the contributions; with all it is topology driven (every
// vertex applied) like PageRank.
type sumProg[V engine.Value] struct {
	edge engine.EdgeOp
	all  bool
}

func (p sumProg[V]) Edge() engine.EdgeOp     { return p.edge }
func (sumProg[V]) Combine() engine.CombineOp { return engine.CombineSum }
func (p sumProg[V]) ApplyAll() bool          { return p.all }
func (p sumProg[V]) String() string          { return fmt.Sprintf("sum/%s/all=%v", p.edge, p.all) }
func (p sumProg[V]) Apply(v uint32, acc V, values []V) bool {
	if !p.all && acc == 0 {
		return false
	}
	old := values[v]
	values[v] = old/2 + acc
	return acc > old
}

// --- reference -------------------------------------------------------------

// reference computes one step from the input edge list mapped through Perm.
func reference[V engine.Value](el *graph.EdgeList, l *layout.Layout, p engine.Program[V], values []V, frontier []uint32) ([]uint32, []V) {
	n := l.NumVertices
	in := make([]bool, n)
	for _, u := range frontier {
		in[u] = true
	}
	id := engine.Identity[V](p.Combine())
	acc := make([]V, n)
	for i := range acc {
		acc[i] = id
	}
	recv := make([]bool, n)
	for i := range el.Src {
		u, v := l.Perm[el.Src[i]], l.Perm[el.Dst[i]]
		if !in[u] {
			continue
		}
		var w uint32
		if el.Weights != nil {
			w = el.Weights[i]
		}
		acc[v] = engine.Combine(p.Combine(), acc[v], engine.Contribute(p.Edge(), values[u], w))
		recv[v] = true
	}
	vals := slices.Clone(values)
	var next []uint32
	for v := range n {
		if recv[v] || p.ApplyAll() {
			if p.Apply(uint32(v), acc[v], vals) {
				next = append(next, uint32(v))
			}
		}
	}
	return next, vals
}

func equalValues[V engine.Value](t *testing.T, want, got []V, what string) {
	t.Helper()
	require.Len(t, got, len(want), what)
	for i := range want {
		a, b := float64(want[i]), float64(got[i])
		if a == b {
			continue
		}
		var zero V
		if _, isInt := any(zero).(uint32); isInt || math.Abs(a-b) > 1e-12*math.Max(math.Abs(a), math.Abs(b)) {
			require.Failf(t, "values differ", "%s: vertex %d: want %v got %v", what, i, want[i], got[i])
		}
	}
}

// checkReset verifies that every accumulator and flag is back at its reset
// state.
func checkReset[V engine.Value](t *testing.T, e *Engine[V]) {
	t.Helper()
	for _, tg := range []*target[V]{&e.main, &e.scratch} {
		for v, a := range tg.acc {
			if a != tg.ident {
				require.Failf(t, "acc not reset", "acc[%d] = %v, identity %v", v, a, tg.ident)
			}
		}
		for i, b := range tg.bits {
			require.Zerof(t, b, "touched bits word %d", i)
		}
	}
	for w := range e.priv {
		pb := &e.priv[w]
		for v, a := range pb.acc {
			if a != pb.ident {
				require.Failf(t, "private acc not reset", "worker %d acc[%d] = %v", w, v, a)
			}
		}
		for i, b := range pb.bits {
			require.Zerof(t, b, "private bits word %d of worker %d", i, w)
		}
	}
	for w := range e.priv {
		require.Empty(t, e.priv[w].list)
	}
	for w := range e.ws {
		require.Empty(t, e.ws[w].touched)
		require.Empty(t, e.ws[w].out)
	}
}

// --- graphs ----------------------------------------------------------------

var smallParams = layout.Params{PanelSize: 64, HeavyThreshold: 100, HeavyColumns: 32, SegmentSize: 5,
	GroupThresholds: []uint64{40, 20, 10, 5, 2}, HighGroups: 4}

type testGraph struct {
	name string
	el   *graph.EdgeList
}

func must[T any](x T, err error) T {
	if err != nil {
		panic(err)
	}
	return x
}

func testGraphs() []testGraph {
	ctx := context.Background()
	var gs []testGraph
	add := func(name string, el *graph.EdgeList) { gs = append(gs, testGraph{name, el}) }

	add("uniform", must(gen.Uniform(ctx, 500, 4000, 7, 1, nil)))
	rawRMAT := must(gen.RMAT(ctx, gen.DefaultRMAT(10, 8), 1, nil)) // duplicates and self-loops
	add("rmat-raw", rawRMAT)
	sym := must(gen.RMAT(ctx, gen.DefaultRMAT(11, 8), 1, nil))
	sym.Symmetrize(1)
	sym.DropSelfLoops()
	sym.Dedupe(1)
	add("rmat-sym", sym)
	add("grid", must(gen.Grid(ctx, 20, 30, 0.1, 3, 1, nil)))

	// Star: every vertex points at 0 (in-degree 2999: group 1, a high
	// segment with the default parameters), plus a ring.
	star := &graph.EdgeList{NumVertices: 3000, Directed: true}
	for v := uint32(1); v < 3000; v++ {
		star.Src = append(star.Src, v, v)
		star.Dst = append(star.Dst, 0, (v+1)%3000)
	}
	star.Src = append(star.Src, 0, 0, 0)
	star.Dst = append(star.Dst, 5, 6, 0)
	add("star", star)

	add("dups-loops", &graph.EdgeList{NumVertices: 6, Directed: true,
		Src: []uint32{0, 0, 0, 1, 1, 2, 2, 2, 3, 4, 4, 5},
		Dst: []uint32{1, 1, 0, 2, 2, 2, 0, 0, 3, 5, 5, 4}})
	iso := &graph.EdgeList{NumVertices: 200, Directed: true}
	r := rand.New(rand.NewPCG(3, 4))
	for range 60 {
		iso.Src = append(iso.Src, uint32(r.IntN(12)))
		iso.Dst = append(iso.Dst, uint32(r.IntN(12)))
	}
	add("isolated", iso)
	add("single", &graph.EdgeList{NumVertices: 1, Directed: true})
	add("single-loop", &graph.EdgeList{NumVertices: 1, Directed: true, Src: []uint32{0, 0}, Dst: []uint32{0, 0}})
	add("no-arcs", &graph.EdgeList{NumVertices: 50, Directed: true})
	add("empty", &graph.EdgeList{NumVertices: 0, Directed: true})
	return gs
}

// engine configurations: default ones and ones with the thresholds lowered so
// that even tiny frontiers take the parallel paths.
type config struct {
	name    string
	workers int
	force   bool
	scanDiv uint64
}

var configs = []config{
	{"w1", 1, false, scanDiv},
	{"w2", 2, false, scanDiv},
	{"w3", 3, false, scanDiv},
	{"w2-forced-lists", 2, true, 0},
	{"w3-forced-scan", 3, true, 1 << 40},
	{"w3-forced", 3, true, scanDiv},
}

func newEngine[V engine.Value](t *testing.T, l *layout.Layout, c config) *Engine[V] {
	e, err := New[V](l, c.workers)
	require.NoError(t, err)
	if c.force {
		e.inlineArcs, e.minArcsPerWorker, e.minApplyWorker, e.parallelPrefix = 0, 1, 1, 1
		e.inPlacePiece = 1
	}
	e.scanDiv = c.scanDiv
	return e
}

func randomFrontier(r *rand.Rand, n uint64, frac float64) []uint32 {
	var f []uint32
	for v := range n {
		if r.Float64() < frac {
			f = append(f, uint32(v))
		}
	}
	r.Shuffle(len(f), func(i, j int) { f[i], f[j] = f[j], f[i] })
	return f
}

func randomValues[V engine.Value](r *rand.Rand, n uint64, min bool) []V {
	vals := make([]V, n)
	var zero V
	_, isInt := any(zero).(uint32)
	for i := range vals {
		switch {
		case min && r.IntN(10) == 0:
			vals[i] = engine.Identity[V](engine.CombineMin)
		case isInt && r.IntN(20) == 0:
			vals[i] = V(math.MaxUint32 - uint32(r.IntN(5))) // saturation
		case isInt:
			vals[i] = V(r.IntN(60))
		default:
			vals[i] = V(r.Float64() * 40)
		}
	}
	return vals
}

// stepCase runs p from a random frontier on every engine and compares with
// the reference; between steps it runs Estimate and checks it changes
// nothing.
func stepCase[V engine.Value](t *testing.T, r *rand.Rand, el *graph.EdgeList, l *layout.Layout, engines []*Engine[V], p engine.Program[V], frac float64) {
	ctx := context.Background()
	n := l.NumVertices
	values := randomValues[V](r, n, p.Combine() == engine.CombineMin)
	frontier := randomFrontier(r, n, frac)
	wantNext, wantVals := reference(el, l, p, values, frontier)
	for i, e := range engines {
		what := fmt.Sprintf("%v engine %d (%s) frontier %d", p, i, configs[i].name, len(frontier))
		vals := slices.Clone(values)
		sample := randomFrontier(r, n, 0.3)
		_, err := e.Estimate(ctx, p, vals, sample)
		require.NoError(t, err, what)
		require.Equal(t, values, vals, "Estimate changed values: %s", what)
		checkReset(t, e)
		next, phases, err := e.Step(ctx, p, vals, frontier)
		require.NoError(t, err, what)
		require.Len(t, phases, 3)
		assert.ElementsMatch(t, wantNext, next, what)
		require.Len(t, next, len(wantNext), what)
		equalValues(t, wantVals, vals, what)
		checkReset(t, e)
	}
}

func TestStepMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, g := range testGraphs() {
		for _, weighted := range []bool{false, true} {
			el := g.el.Clone()
			if weighted {
				el.SetRandomWeights(9, 0, 20, 1)
			}
			for pi, params := range []layout.Params{layout.DefaultParams(), smallParams} {
				name := fmt.Sprintf("%s/weighted=%v/params=%d", g.name, weighted, pi)
				t.Run(name, func(t *testing.T) {
					l, err := preprocess.Build(context.Background(), el, params, preprocess.Options{Workers: 1})
					require.NoError(t, err)
					var eu []*Engine[uint32]
					var ef []*Engine[float64]
					for _, c := range configs {
						eu = append(eu, newEngine[uint32](t, l, c))
						ef = append(ef, newEngine[float64](t, l, c))
					}
					progsU := []engine.Program[uint32]{
						minProg[uint32]{engine.EdgeSourcePlusOne}, sumProg[uint32]{engine.EdgeSource, false},
						minProg[uint32]{engine.EdgeSource}, sumProg[uint32]{engine.EdgeSourcePlusOne, true},
					}
					progsF := []engine.Program[float64]{
						sumProg[float64]{engine.EdgeSource, false}, minProg[float64]{engine.EdgeSourcePlusOne},
						sumProg[float64]{engine.EdgeSource, true},
					}
					if weighted {
						progsU = append(progsU, minProg[uint32]{engine.EdgeSourcePlusWeight}, sumProg[uint32]{engine.EdgeSourcePlusWeight, false})
						progsF = append(progsF, minProg[float64]{engine.EdgeSourcePlusWeight}, sumProg[float64]{engine.EdgeSourcePlusWeight, true})
					}
					for _, frac := range []float64{0, 0.004, 0.1, 0.5, 1} {
						for _, p := range progsU {
							stepCase(t, r, el, l, eu, p, frac)
						}
						for _, p := range progsF {
							stepCase(t, r, el, l, ef, p, frac)
						}
					}
				})
			}
		}
	}
}

func TestSmallParamsHaveHighSegments(t *testing.T) {
	el := must(gen.RMAT(context.Background(), gen.DefaultRMAT(10, 8), 1, nil))
	l, err := preprocess.Build(context.Background(), el, smallParams, preprocess.Options{})
	require.NoError(t, err)
	require.Greater(t, l.NumHighSegments(), 20)
	star := testGraphs()[4]
	require.Equal(t, "star", star.name)
	l, err = preprocess.Build(context.Background(), star.el, layout.DefaultParams(), preprocess.Options{})
	require.NoError(t, err)
	require.Equal(t, 1, l.NumHighSegments())
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	el := must(gen.Uniform(ctx, 100, 500, 1, 1, nil))
	l, err := preprocess.Build(ctx, el, layout.DefaultParams(), preprocess.Options{})
	require.NoError(t, err)
	_, err = New[uint32](nil, 1)
	require.Error(t, err)
	_, err = New[uint32](l, -1)
	require.Error(t, err)
	e, err := New[uint32](l, 2)
	require.NoError(t, err)
	vals := make([]uint32, 100)
	_, _, err = e.Step(ctx, minProg[uint32]{engine.EdgeSourcePlusWeight}, vals, []uint32{1})
	require.ErrorIs(t, err, ErrUnweighted)
	_, err = e.Estimate(ctx, minProg[uint32]{engine.EdgeSourcePlusWeight}, vals, []uint32{1})
	require.ErrorIs(t, err, ErrUnweighted)
	_, _, err = e.Step(ctx, minProg[uint32]{engine.EdgeSourcePlusOne}, vals[:5], []uint32{1})
	require.Error(t, err)
	_, _, err = e.Step(ctx, minProg[uint32]{engine.EdgeSourcePlusOne}, vals, []uint32{1, 100})
	require.Error(t, err)
	big := make([]uint32, 0, 100)
	for v := range uint32(100) {
		big = append(big, v)
	}
	big = append(big, 1000)
	e.inlineArcs = 0
	_, _, err = e.Step(ctx, minProg[uint32]{engine.EdgeSourcePlusOne}, vals, big)
	require.Error(t, err)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, _, err = e.Step(cctx, minProg[uint32]{engine.EdgeSourcePlusOne}, vals, []uint32{1})
	require.ErrorIs(t, err, context.Canceled)
	_, err = e.Estimate(cctx, minProg[uint32]{engine.EdgeSourcePlusOne}, vals, []uint32{1})
	require.ErrorIs(t, err, context.Canceled)
	checkReset(t, e)
	_, err = Advance(cctx, l, []uint32{1}, 1, func(u, v, w uint32) bool { return true })
	require.ErrorIs(t, err, context.Canceled)
	_, err = Filter(cctx, []uint32{1}, 1, func(v uint32) bool { return true })
	require.ErrorIs(t, err, context.Canceled)
	_, err = Advance(ctx, l, []uint32{100}, 1, func(u, v, w uint32) bool { return true })
	require.Error(t, err)
}

// TestBFS drives a multi-iteration BFS with repeated Steps and compares the
// levels with ref.BFS.
func TestBFS(t *testing.T) {
	ctx := context.Background()
	el := must(gen.RMAT(ctx, gen.DefaultRMAT(12, 8), 1, nil))
	el.Symmetrize(1)
	el.DropSelfLoops()
	el.Dedupe(1)
	csr := graph.ToCSR(el, 1)
	for pi, params := range []layout.Params{layout.DefaultParams(), smallParams} {
		l, err := preprocess.Build(ctx, el, params, preprocess.Options{})
		require.NoError(t, err)
		for _, c := range configs {
			e := newEngine[uint32](t, l, c)
			for _, src := range []uint32{0, 1, 77} {
				want, _ := ref.BFS(csr, src)
				levels := make([]uint32, l.NumVertices)
				for i := range levels {
					levels[i] = ref.Unreached
				}
				levels[l.Perm[src]] = 0
				frontier := []uint32{l.Perm[src]}
				for it := 0; len(frontier) > 0; it++ {
					require.Less(t, it, 100)
					frontier, _, err = e.Step(ctx, minProg[uint32]{engine.EdgeSourcePlusOne}, levels, frontier)
					require.NoError(t, err)
				}
				for old := range want {
					require.Equal(t, want[old], levels[l.Perm[old]], "params %d %s source %d vertex %d", pi, c.name, src, old)
				}
				checkReset(t, e)
			}
		}
	}
}

// TestDeterministicSets: the next-frontier set and values do not depend on
// the number of workers, and ascending order holds on the scan path.
func TestNextFrontierOrder(t *testing.T) {
	ctx := context.Background()
	el := must(gen.RMAT(ctx, gen.DefaultRMAT(11, 8), 1, nil))
	l, err := preprocess.Build(ctx, el, smallParams, preprocess.Options{})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(5, 6))
	frontier := randomFrontier(r, l.NumVertices, 0.3)
	values := randomValues[uint32](r, l.NumVertices, true)
	var first []uint32
	for _, c := range configs {
		e := newEngine[uint32](t, l, c)
		vals := slices.Clone(values)
		next, _, err := e.Step(ctx, minProg[uint32]{engine.EdgeSourcePlusOne}, vals, frontier)
		require.NoError(t, err)
		if c.scanDiv > 1<<30 {
			require.True(t, slices.IsSorted(next), c.name)
		}
		slices.Sort(next)
		if first == nil {
			first = next
		}
		require.Equal(t, first, next, c.name)
	}
}

func TestAdvanceFilter(t *testing.T) {
	ctx := context.Background()
	el := must(gen.RMAT(ctx, gen.DefaultRMAT(12, 8), 1, nil))
	el.SetRandomWeights(3, 1, 9, 1)
	l, err := preprocess.Build(ctx, el, layout.DefaultParams(), preprocess.Options{})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(7, 8))
	frontier := randomFrontier(r, l.NumVertices, 0.9)
	in := make([]bool, l.NumVertices)
	for _, u := range frontier {
		in[u] = true
	}
	// Expected: arcs of the frontier with weight ≥ 5 select their
	// destination; sum of weights over visited arcs.
	want := map[uint32]bool{}
	var wantW uint64
	for i := range el.Src {
		u, v := l.Perm[el.Src[i]], l.Perm[el.Dst[i]]
		if in[u] {
			wantW += uint64(el.Weights[i])
			if el.Weights[i] >= 5 {
				want[v] = true
			}
		}
	}
	for _, workers := range []int{1, 2, 3} {
		var gotW uint64
		var mu = make(chan struct{}, 1)
		out, err := Advance(ctx, l, frontier, workers, func(u, v, w uint32) bool {
			mu <- struct{}{}
			gotW += uint64(w)
			<-mu
			return w >= 5
		})
		require.NoError(t, err)
		require.Equal(t, wantW, gotW)
		require.Len(t, out, len(want))
		for _, v := range out {
			require.True(t, want[v])
		}
		kept, err := Filter(ctx, frontier, workers, func(v uint32) bool { return v%3 == 0 })
		require.NoError(t, err)
		var wantKept []uint32
		for _, v := range frontier {
			if v%3 == 0 {
				wantKept = append(wantKept, v)
			}
		}
		require.Equal(t, wantKept, kept)
	}
}

// monoProg is minProg marked engine.Monotone (the flat path's programs);
// eeProg is also engine.EarlyExit (BFS-like: every frontier vertex has the
// same value, so every contribution is equal).
type monoProg[V engine.Value] struct{ minProg[V] }

func (monoProg[V]) Monotone() {}

type eeProg[V engine.Value] struct{ monoProg[V] }

func (eeProg[V]) Unsettled(lo uint32, values []V, out []bool) {
	for i := range out {
		out[i] = values[int(lo)+i] == engine.Identity[V](engine.CombineMin)
	}
}

// TestFlatPath runs monotone programs through the flat path (thresholds
// lowered so that small frontiers take it and some vertices are set aside
// for the arc-balanced path) and compares with the reference.
func TestFlatPath(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(11, 12))
	for _, g := range testGraphs() {
		for _, weighted := range []bool{false, true} {
			el := g.el.Clone()
			if weighted {
				el.SetRandomWeights(9, 0, 20, 1)
			}
			for pi, params := range []layout.Params{layout.DefaultParams(), smallParams} {
				l, err := preprocess.Build(ctx, el, params, preprocess.Options{Workers: 1})
				require.NoError(t, err)
				for _, workers := range []int{2, 3} {
					for _, maxDeg := range []uint64{0, 4, flatMaxDegree} {
						e, err := New[uint32](l, workers)
						require.NoError(t, err)
						e.flatMin, e.flatChunk, e.flatMaxDeg = 1, 3, maxDeg
						progs := []engine.Program[uint32]{
							monoProg[uint32]{minProg[uint32]{engine.EdgeSourcePlusOne}},
							monoProg[uint32]{minProg[uint32]{engine.EdgeSource}},
							eeProg[uint32]{monoProg[uint32]{minProg[uint32]{engine.EdgeSourcePlusOne}}},
						}
						if weighted {
							progs = append(progs, monoProg[uint32]{minProg[uint32]{engine.EdgeSourcePlusWeight}})
						}
						for _, frac := range []float64{0.004, 0.1, 0.5, 1} {
							for _, p := range progs {
								what := fmt.Sprintf("%s/weighted=%v/params=%d/w%d/maxdeg=%d %v frac %v", g.name, weighted, pi, workers, maxDeg, p, frac)
								values := randomValues[uint32](r, l.NumVertices, true)
								frontier := randomFrontier(r, l.NumVertices, frac)
								if _, ok := p.(engine.EarlyExit[uint32]); ok {
									for _, u := range frontier {
										values[u] = 3
									}
								}
								wantNext, wantVals := reference(el, l, p, values, frontier)
								vals := slices.Clone(values)
								_, err := e.Estimate(ctx, p, vals, frontier)
								require.NoError(t, err, what)
								require.Equal(t, values, vals, what)
								checkReset(t, e)
								next, _, err := e.Step(ctx, p, vals, frontier)
								require.NoError(t, err, what)
								assert.ElementsMatch(t, wantNext, next, what)
								equalValues(t, wantVals, vals, what)
								checkReset(t, e)
							}
						}
					}
				}
			}
		}
	}
	// A vertex out of range fails the step and leaves the engine reset.
	el := must(gen.Uniform(ctx, 100, 500, 1, 1, nil))
	l, err := preprocess.Build(ctx, el, layout.DefaultParams(), preprocess.Options{})
	require.NoError(t, err)
	e, err := New[uint32](l, 2)
	require.NoError(t, err)
	e.flatMin, e.flatChunk = 1, 7
	vals := make([]uint32, 100)
	for i := range vals {
		vals[i] = math.MaxUint32
	}
	vals[0] = 0
	for _, bad := range [][]uint32{{100}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 1000, 20}} {
		_, _, err = e.Step(ctx, monoProg[uint32]{minProg[uint32]{engine.EdgeSourcePlusOne}}, vals, bad)
		require.Error(t, err)
		checkReset(t, e)
		for w := range e.ws {
			require.Empty(t, e.ws[w].big)
		}
	}
}

// TestEstimateWindows: a few-vertex sample with many arcs is timed on
// windows of its arcs; the dry run leaves values and the engine reset.
func TestEstimateWindows(t *testing.T) {
	ctx := context.Background()
	// Vertex 0 points at every other vertex and every other at 0.
	star := &graph.EdgeList{NumVertices: 3000, Directed: true}
	for v := uint32(1); v < 3000; v++ {
		star.Src = append(star.Src, 0, v)
		star.Dst = append(star.Dst, v, 0)
	}
	for pi, params := range []layout.Params{layout.DefaultParams(), smallParams} {
		l, err := preprocess.Build(ctx, star, params, preprocess.Options{})
		require.NoError(t, err)
		hub := l.Perm[0]
		require.Equal(t, uint64(2999), l.SparseOffsets[hub+1]-l.SparseOffsets[hub])
		for _, workers := range []int{2, 3} {
			e, err := New[uint32](l, workers)
			require.NoError(t, err)
			e.estimateWindow = 7
			r := rand.New(rand.NewPCG(uint64(pi), uint64(workers)))
			for _, p := range []engine.Program[uint32]{minProg[uint32]{engine.EdgeSourcePlusOne}, sumProg[uint32]{engine.EdgeSource, false},
				monoProg[uint32]{minProg[uint32]{engine.EdgeSourcePlusOne}}} {
				values := randomValues[uint32](r, l.NumVertices, true)
				values[hub] = 1
				vals := slices.Clone(values)
				d, err := e.Estimate(ctx, p, vals, []uint32{hub, (hub + 1) % 3000})
				require.NoError(t, err)
				require.Positive(t, d)
				require.Equal(t, values, vals)
				checkReset(t, e)
			}
		}
	}
}

// TestClaimPath runs a BFS-like program (engine.EarlyExit and
// engine.Monotone, uint32, no weights) over frontiers of fewer than
// estimateFew vertices with the inline threshold lowered, so Step takes
// the claim path (traverseClaim, applyClaim), and compares with the
// reference; the engine is left reset for the next step.
func TestClaimPath(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(21, 22))
	p := eeProg[uint32]{monoProg[uint32]{minProg[uint32]{engine.EdgeSourcePlusOne}}}
	for _, g := range testGraphs() {
		for pi, params := range []layout.Params{layout.DefaultParams(), smallParams} {
			l, err := preprocess.Build(ctx, g.el, params, preprocess.Options{Workers: 1})
			require.NoError(t, err)
			for _, workers := range []int{2, 3} {
				e, err := New[uint32](l, workers)
				require.NoError(t, err)
				e.inlineArcs, e.minArcsPerWorker = 1, 1
				for _, size := range []int{1, 5, estimateFew - 1} {
					what := fmt.Sprintf("%s/params=%d/w%d/size %d", g.name, pi, workers, size)
					values := randomValues[uint32](r, l.NumVertices, true)
					frontier := randomFrontier(r, l.NumVertices, 0.5)
					frontier = frontier[:min(size, len(frontier))]
					for _, u := range frontier {
						values[u] = 3
					}
					require.True(t, len(frontier) == 0 || e.claimOK(newKernel[uint32](p, values, l), frontier), what)
					wantNext, wantVals := reference(g.el, l, p, values, frontier)
					vals := slices.Clone(values)
					next, phases, err := e.Step(ctx, p, vals, frontier)
					require.NoError(t, err, what)
					require.Len(t, phases, 3, what)
					assert.ElementsMatch(t, wantNext, next, what)
					equalValues(t, wantVals, vals, what)
					checkReset(t, e)
				}
			}
		}
	}
}
