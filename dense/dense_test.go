package dense

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
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

// recorder is a test program: it records the combined contribution every
// applied vertex receives, and for min programs behaves like BFS/SSSP
// (lowers values[v] and activates v when acc improves it); sum programs
// activate v when acc > 1.
type recorder[V engine.Value] struct {
	edge     engine.EdgeOp
	comb     engine.CombineOp
	applyAll bool
	got      []V
}

func newRecorder[V engine.Value](n uint64, edge engine.EdgeOp, comb engine.CombineOp, applyAll bool) *recorder[V] {
	r := &recorder[V]{edge: edge, comb: comb, applyAll: applyAll, got: make([]V, n)}
	r.reset()
	return r
}

func (r *recorder[V]) reset() {
	id := engine.Identity[V](r.comb)
	for i := range r.got {
		r.got[i] = id
	}
}

func (r *recorder[V]) Edge() engine.EdgeOp       { return r.edge }
func (r *recorder[V]) Combine() engine.CombineOp { return r.comb }
func (r *recorder[V]) ApplyAll() bool            { return r.applyAll }
func (r *recorder[V]) Apply(v uint32, acc V, values []V) bool {
	r.got[v] = acc
	if r.comb == engine.CombineSum {
		return acc > 1
	}
	if acc < values[v] {
		values[v] = acc
		return true
	}
	return false
}

// reference combines the contributions of every arc of el (mapped through
// l.Perm) whose source is active, in new ids.
func reference[V engine.Value](el *graph.EdgeList, l *layout.Layout, edge engine.EdgeOp, comb engine.CombineOp, values []V, active []uint8) []V {
	acc := make([]V, el.NumVertices)
	id := engine.Identity[V](comb)
	for i := range acc {
		acc[i] = id
	}
	for i := range el.Src {
		u, v := l.Perm[el.Src[i]], l.Perm[el.Dst[i]]
		if active[u] == 0 {
			continue
		}
		var w uint32
		if el.Weights != nil {
			w = el.Weights[i]
		}
		acc[v] = engine.Combine(comb, acc[v], engine.Contribute(edge, values[u], w))
	}
	return acc
}

func params(p uint32, heavy uint64, t uint32) layout.Params {
	q := layout.DefaultParams()
	q.PanelSize, q.HeavyThreshold, q.HeavyColumns, q.SegmentSize = p, heavy, t, 50
	return q
}

// paramSets are the layouts every graph is tested with: small panels and
// blocks so that heavy blocks, repeated markers and many panels appear.
var paramSets = []layout.Params{
	params(64, 100, 32),
	params(100, 40, 7),   // P does not divide n, odd T
	params(1, 1, 1),      // P = 1, T = 1: heavy blocks only from repeated arcs
	params(37, 20, 1),    // T = 1: one long column per heavy block
	params(256, 300, 64), // bigger blocks
	layout.DefaultParams(),
}

type testGraph struct {
	name string
	el   *graph.EdgeList
}

func testGraphs(t *testing.T) []testGraph {
	ctx := context.Background()
	var gs []testGraph
	add := func(name string, el *graph.EdgeList, err error) {
		require.NoError(t, err, name)
		gs = append(gs, testGraph{name, el})
	}
	u, err := gen.Uniform(ctx, 1037, 20000, 7, 2, nil) // repeated arcs and self-loops included
	add("uniform", u, err)
	u2, err := gen.Uniform(ctx, 3000, 6000, 8, 2, nil) // sparse: many isolated vertices
	add("uniform-sparse", u2, err)
	rp := gen.DefaultRMAT(11, 16)
	r, err := gen.RMAT(ctx, rp, 2, nil)
	if err == nil {
		r.Symmetrize(2)
		r.DropSelfLoops()
		r.Dedupe(2)
	}
	add("rmat11", r, err)
	rRaw, err := gen.RMAT(ctx, gen.DefaultRMAT(9, 8), 2, nil) // raw: duplicates, self-loops
	add("rmat9-raw", rRaw, err)
	g, err := gen.Grid(ctx, 23, 31, 0.1, 3, 2, nil)
	add("grid", g, err)
	// A star: vertex 0 linked both ways to every other vertex, plus
	// repeated arcs into the centre, so its blocks are heavy.
	star := &graph.EdgeList{NumVertices: 1500, Directed: true}
	for v := uint32(1); v < 1500; v++ {
		star.Src = append(star.Src, 0, v, v)
		star.Dst = append(star.Dst, v, 0, 0)
	}
	add("star", star, nil)
	loops := &graph.EdgeList{NumVertices: 5, Directed: true,
		Src: []uint32{0, 0, 0, 1, 1, 2, 4, 4, 4, 4},
		Dst: []uint32{0, 0, 1, 1, 2, 2, 0, 0, 0, 4}}
	add("loops-dups", loops, nil)
	add("isolated", &graph.EdgeList{NumVertices: 300, Directed: true, Src: []uint32{5, 17, 290}, Dst: []uint32{17, 5, 5}}, nil)
	add("single", &graph.EdgeList{NumVertices: 1, Directed: true}, nil)
	add("single-loop", &graph.EdgeList{NumVertices: 1, Directed: true, Src: []uint32{0, 0}, Dst: []uint32{0, 0}}, nil)
	add("empty", &graph.EdgeList{NumVertices: 0, Directed: true}, nil)
	return gs
}

func withWeights(el *graph.EdgeList, seed uint64) *graph.EdgeList {
	c := el.Clone()
	c.SetRandomWeights(seed, 1, 100, 2)
	return c
}

type activity struct {
	name string
	prob float64
}

var activities = []activity{{"all", 1}, {"half", 0.5}, {"tenth", 0.1}, {"none", 0}}

func randomActive(n uint64, prob float64, rng *rand.Rand) []uint8 {
	a := make([]uint8, n)
	for i := range a {
		if rng.Float64() < prob {
			a[i] = 1
		}
	}
	return a
}

// checkStep runs one Step with 1, 2 and 3 workers and compares with the
// reference: exactly for min, within 1e-12 relative for sums; results must
// not depend on the worker count.
func checkStep[V engine.Value](t *testing.T, el *graph.EdgeList, l *layout.Layout, edge engine.EdgeOp, comb engine.CombineOp, applyAll bool, values []V, active []uint8) {
	t.Helper()
	n := l.NumVertices
	want := reference(el, l, edge, comb, values, active)
	id := engine.Identity[V](comb)
	var first []V
	var firstNext []uint8
	for _, workers := range []int{1, 2, 3} {
		e, err := New[V](l, workers)
		require.NoError(t, err)
		p := newRecorder[V](n, edge, comb, applyAll)
		vals := append([]V(nil), values...)
		next := make([]uint8, n)
		for i := range next {
			next[i] = 7 // must be overwritten
		}
		cnt, phases, err := e.Step(context.Background(), p, vals, active, next)
		require.NoError(t, err)
		require.Len(t, phases, 2)
		assert.Equal(t, PhaseOne, phases[0].Name)
		assert.Equal(t, PhaseTwo, phases[1].Name)
		var wantCnt uint64
		for v := range want {
			got := p.got[v]
			if comb == engine.CombineMin {
				require.Equal(t, want[v], got, "vertex %d workers %d", v, workers)
			} else {
				w, g := float64(want[v]), float64(got)
				require.InDelta(t, w, g, 1e-12*math.Max(1, math.Abs(w)), "vertex %d workers %d", v, workers)
			}
			// Next flags and values follow the program's rule.
			wantAct := false
			if want[v] != id || applyAll {
				if comb == engine.CombineSum {
					wantAct = got > 1
				} else {
					wantAct = got < values[v]
				}
			}
			if wantAct {
				wantCnt++
				require.Equal(t, uint8(1), next[v], "next of vertex %d", v)
			} else {
				require.Equal(t, uint8(0), next[v], "next of vertex %d", v)
			}
			if comb == engine.CombineMin {
				require.Equal(t, min(values[v], want[v]), vals[v])
			}
		}
		require.Equal(t, wantCnt, cnt)
		if first == nil {
			first, firstNext = p.got, next
		} else {
			require.Equal(t, first, p.got, "results depend on the worker count")
			require.Equal(t, firstNext, next)
		}
	}
}

func build(t *testing.T, el *graph.EdgeList, p layout.Params) *layout.Layout {
	t.Helper()
	l, err := preprocess.Build(context.Background(), el, p, preprocess.Options{Workers: 2})
	require.NoError(t, err)
	return l
}

func TestStepMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, g := range testGraphs(t) {
		wel := withWeights(g.el, 11)
		for pi, p := range paramSets {
			if p.PanelSize == 1 && g.el.NumArcs() > 30000 {
				continue // a layout of n² blocks' worth of panels is slow to build; small graphs cover P = 1
			}
			l := build(t, g.el, p)
			wl := build(t, wel, p)
			n := l.NumVertices
			t.Run(fmt.Sprintf("%s/params%d", g.name, pi), func(t *testing.T) {
				for _, a := range activities {
					active := randomActive(n, a.prob, rng)
					u := make([]uint32, n)
					f := make([]float64, n)
					for i := range u {
						u[i] = uint32(rng.IntN(1000))
						if rng.IntN(10) == 0 {
							u[i] = math.MaxUint32 // unreached: saturates
						}
						f[i] = rng.Float64()
					}
					t.Run(a.name, func(t *testing.T) {
						checkStep(t, g.el, l, engine.EdgeSourcePlusOne, engine.CombineMin, false, u, active)
						checkStep(t, g.el, l, engine.EdgeSource, engine.CombineMin, false, u, active)
						checkStep(t, g.el, l, engine.EdgeSource, engine.CombineSum, true, f, active)
						checkStep(t, wel, wl, engine.EdgeSourcePlusWeight, engine.CombineMin, false, u, active)
						checkStep(t, wel, wl, engine.EdgeSourcePlusWeight, engine.CombineMin, true, f, active)
						checkStep(t, wel, wl, engine.EdgeSourcePlusWeight, engine.CombineSum, true, f, active)
						checkStep(t, g.el, l, engine.EdgeSourcePlusOne, engine.CombineSum, false, f, active)
					})
				}
			})
		}
	}
}

func TestEstimateChangesNothing(t *testing.T) {
	ctx := context.Background()
	el, err := gen.RMAT(ctx, gen.DefaultRMAT(12, 16), 2, nil)
	require.NoError(t, err)
	el.Symmetrize(2)
	el.DropSelfLoops()
	el.Dedupe(2)
	wel := withWeights(el, 3)
	for _, p := range []layout.Params{params(64, 100, 32), layout.DefaultParams()} {
		l := build(t, wel, p)
		n := l.NumVertices
		rng := rand.New(rand.NewPCG(3, 4))
		active := randomActive(n, 0.3, rng)
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = rng.Float64()
		}
		for _, edge := range []engine.EdgeOp{engine.EdgeSource, engine.EdgeSourcePlusWeight} {
			for _, comb := range []engine.CombineOp{engine.CombineMin, engine.CombineSum} {
				// Reference: a fresh engine's step.
				e0, err := New[float64](l, 2)
				require.NoError(t, err)
				p0 := newRecorder[float64](n, edge, comb, true)
				v0 := append([]float64(nil), vals...)
				next0 := make([]uint8, n)
				c0, _, err := e0.Step(ctx, p0, v0, active, next0)
				require.NoError(t, err)

				e, err := New[float64](l, 2)
				require.NoError(t, err)
				// A step first, so the stream buffer holds data, then an
				// estimate, then the step under test.
				p := newRecorder[float64](n, edge, comb, true)
				v1 := append([]float64(nil), vals...)
				_, _, err = e.Step(ctx, p, v1, randomActive(n, 0.9, rng), make([]uint8, n))
				require.NoError(t, err)
				p.reset()
				v := append([]float64(nil), vals...)
				d, err := e.Estimate(ctx, p, v)
				require.NoError(t, err)
				assert.Positive(t, d)
				require.Equal(t, vals, v, "Estimate changed values")
				for _, g := range p.got {
					require.Equal(t, engine.Identity[float64](comb), g, "Estimate called Apply")
				}
				next := make([]uint8, n)
				c, _, err := e.Step(ctx, p, v, active, next)
				require.NoError(t, err)
				require.Equal(t, c0, c)
				require.Equal(t, next0, next)
				require.Equal(t, p0.got, p.got)
				require.Equal(t, v0, v)
			}
		}
	}
}

// bfs is BFS levels as a vertex program.
type bfs struct{}

func (bfs) Edge() engine.EdgeOp       { return engine.EdgeSourcePlusOne }
func (bfs) Combine() engine.CombineOp { return engine.CombineMin }
func (bfs) ApplyAll() bool            { return false }
func (bfs) Apply(v uint32, acc uint32, values []uint32) bool {
	if acc < values[v] {
		values[v] = acc
		return true
	}
	return false
}

func TestBFSByRepeatedSteps(t *testing.T) {
	ctx := context.Background()
	el, err := gen.RMAT(ctx, gen.DefaultRMAT(12, 8), 2, nil)
	require.NoError(t, err)
	el.Symmetrize(2)
	el.DropSelfLoops()
	el.Dedupe(2)
	grid, err := gen.Grid(ctx, 40, 50, 0.2, 5, 2, nil)
	require.NoError(t, err)
	for _, g := range []*graph.EdgeList{el, grid} {
		for _, p := range []layout.Params{params(64, 100, 32), layout.DefaultParams()} {
			l := build(t, g, p)
			n := l.NumVertices
			for _, src := range []uint32{0, uint32(n / 2), uint32(n - 1)} {
				want, _ := ref.BFS(graph.ToCSR(g, 2), src)
				e, err := New[uint32](l, 2)
				require.NoError(t, err)
				levels := make([]uint32, n)
				for i := range levels {
					levels[i] = ref.Unreached
				}
				active := make([]uint8, n)
				next := make([]uint8, n)
				levels[l.Perm[src]] = 0
				active[l.Perm[src]] = 1
				for it := 0; ; it++ {
					require.Less(t, it, int(n)+1)
					cnt, _, err := e.Step(ctx, bfs{}, levels, active, next)
					require.NoError(t, err)
					if cnt == 0 {
						break
					}
					active, next = next, active
				}
				got := make([]uint32, n)
				for old := range got {
					got[old] = levels[l.Perm[old]]
				}
				require.NoError(t, ref.CompareLevels(want, got))
			}
		}
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	el := &graph.EdgeList{NumVertices: 4, Directed: true, Src: []uint32{0, 1}, Dst: []uint32{1, 2}}
	l := build(t, el, params(2, 1, 2))
	_, err := New[uint32](nil, 1)
	require.Error(t, err)
	e, err := New[uint32](l, 0)
	require.NoError(t, err)
	assert.Positive(t, e.Workers())
	assert.Same(t, l, e.Layout())
	vals, act, next := make([]uint32, 4), make([]uint8, 4), make([]uint8, 4)
	_, _, err = e.Step(ctx, newRecorder[uint32](4, engine.EdgeSourcePlusWeight, engine.CombineMin, false), vals, act, next)
	require.ErrorContains(t, err, "unweighted")
	_, err = e.Estimate(ctx, newRecorder[uint32](4, engine.EdgeSourcePlusWeight, engine.CombineMin, false), vals)
	require.ErrorContains(t, err, "unweighted")
	_, _, err = e.Step(ctx, bfs{}, vals[:3], act, next)
	require.Error(t, err)
	_, _, err = e.Step(ctx, bfs{}, vals, act, next[:2])
	require.Error(t, err)
	_, _, err = e.Step(ctx, nil, vals, act, next)
	require.Error(t, err)
	_, err = e.Estimate(ctx, bfs{}, vals[:1])
	require.Error(t, err)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, _, err = e.Step(cctx, bfs{}, vals, act, next)
	require.ErrorIs(t, err, context.Canceled)
	_, err = e.Estimate(cctx, bfs{}, vals)
	require.ErrorIs(t, err, context.Canceled)
}
