package sampler_test

import (
	"context"
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/dense"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/mgraph-dev/mgraph/pull"
	"github.com/mgraph-dev/mgraph/sampler"
	"github.com/mgraph-dev/mgraph/sparse"
	"github.com/stretchr/testify/require"
)

// pathCount is a sum-style program: the number of shortest paths from the
// source (BC's forward pass). It records the last iteration each vertex was
// applied in and counts repeats within one iteration, which sampling (or a
// double-applied contribution) would cause.
type pathCount struct {
	depth   []int32
	d       int32
	lastIt  []atomic.Int32
	repeats atomic.Int32
}

func (*pathCount) Edge() engine.EdgeOp       { return engine.EdgeSource }
func (*pathCount) Combine() engine.CombineOp { return engine.CombineSum }
func (*pathCount) ApplyAll() bool            { return false }
func (p *pathCount) BeforeIteration(i int) bool {
	p.d = int32(i)
	return true
}
func (p *pathCount) Apply(v uint32, acc float64, sigma []float64) bool {
	if p.lastIt[v].Swap(p.d+1) == p.d+1 {
		p.repeats.Add(1)
	}
	if p.depth[v] >= 0 || acc == 0 {
		return false
	}
	p.depth[v], sigma[v] = p.d+1, acc
	return true
}

// level is a min-style program (BFS).
type level struct{}

func (level) Edge() engine.EdgeOp       { return engine.EdgeSourcePlusOne }
func (level) Combine() engine.CombineOp { return engine.CombineMin }
func (level) ApplyAll() bool            { return false }
func (level) Apply(v uint32, acc uint32, lv []uint32) bool {
	if acc < lv[v] {
		lv[v] = acc
		return true
	}
	return false
}

func testLayout(t *testing.T) *layout.Layout {
	el, err := gen.RMAT(context.Background(), gen.DefaultRMAT(12, 8), 2, nil)
	require.NoError(t, err)
	el.Symmetrize(2)
	el.DropSelfLoops()
	el.Dedupe(2)
	p := layout.Params{PanelSize: 256, HeavyThreshold: 500, HeavyColumns: 64, SegmentSize: 64,
		GroupThresholds: graph.DefaultGroupThresholds(), HighGroups: 4}
	l, err := preprocess.Build(context.Background(), el, p, preprocess.Options{Workers: 2})
	require.NoError(t, err)
	return l
}

func runner[V engine.Value](t *testing.T, l *layout.Layout, opts engine.RunOptions) *sampler.Runner[V] {
	d, err := dense.New[V](l, 2)
	require.NoError(t, err)
	s, err := sparse.New[V](l, 2)
	require.NoError(t, err)
	return sampler.New[V](l, d, s, 2, opts)
}

// TestSamplingDoesNotChangeResults runs a sum-style and a min-style program
// with the hybrid sampling the whole frontier before every iteration, and
// compares with the forced modes, which never sample.
func TestSamplingDoesNotChangeResults(t *testing.T) {
	l := testLayout(t)
	n := l.NumVertices
	ctx := context.Background()
	src := l.Perm[0]

	paths := func(mode engine.Mode) ([]float64, *pathCount, engine.Result) {
		p := &pathCount{depth: make([]int32, n), lastIt: make([]atomic.Int32, n)}
		sigma := make([]float64, n)
		for i := range p.depth {
			p.depth[i] = -1
		}
		p.depth[src], sigma[src] = 0, 1
		r := runner[float64](t, l, engine.RunOptions{Mode: mode, SampleRate: 1, Trace: true})
		res, err := r.Run(ctx, p, sigma, engine.NewFrontierList(n, []uint32{src}))
		require.NoError(t, err)
		return sigma, p, res
	}
	want, _, _ := paths(engine.Sparse)
	for _, mode := range []engine.Mode{engine.Hybrid, engine.Dense} {
		got, p, res := paths(mode)
		for v := range want {
			require.InDelta(t, want[v], got[v], 1e-9*math.Max(1, want[v]), "%s: vertex %d", mode, v)
		}
		require.Zero(t, p.repeats.Load(), "%s: a vertex was applied twice in one iteration", mode)
		if mode == engine.Hybrid {
			for i, it := range res.Trace {
				if sparseSure(l, res.Trace, i) {
					require.Zero(t, it.EDPSeconds+it.ESPSeconds, "iteration %d of few arcs was sampled", it.Iteration)
					require.Equal(t, "sparse", it.Mode, "iteration %d", it.Iteration)
					continue
				}
				require.Positive(t, it.EDPSeconds+it.ESPSeconds, "iteration %d was not sampled", it.Iteration)
			}
		}
	}

	levels := func(mode engine.Mode) []uint32 {
		lv := make([]uint32, n)
		for i := range lv {
			lv[i] = math.MaxUint32
		}
		lv[src] = 0
		r := runner[uint32](t, l, engine.RunOptions{Mode: mode, SampleRate: 1})
		_, err := r.Run(ctx, level{}, lv, engine.NewFrontierList(n, []uint32{src}))
		require.NoError(t, err)
		return lv
	}
	wantLv := levels(engine.Dense)
	require.Equal(t, wantLv, levels(engine.Hybrid))
	require.Equal(t, wantLv, levels(engine.Sparse))
}

// sparseSure reports whether the hybrid ran iteration i of trace sparse
// without sampling: its frontier, a list (the first one, or one a sparse
// iteration made), has fewer arcs than the graph's / sampler.SparseSure.
func sparseSure(l *layout.Layout, trace []engine.IterationTrace, i int) bool {
	list := i == 0 || trace[i-1].Mode == "sparse"
	return list && trace[i].FrontierEdges*sampler.SparseSure < l.NumArcs
}

// fixedDense is a dense stepper whose EDP is a fixed cost, so that a test
// of the hybrid's choices does not depend on the machine's timing.
type fixedDense[V engine.Value] struct {
	engine.DenseStepper[V]
	cost time.Duration
}

func (d fixedDense[V]) Estimate(context.Context, engine.Program[V], []V) (time.Duration, error) {
	return d.cost, nil
}

// perVertexSparse is a sparse stepper whose sample costs a fixed time per
// vertex, so ESP is that time times the frontier's size.
type perVertexSparse[V engine.Value] struct {
	engine.SparseStepper[V]
	perVertex time.Duration
}

func (s perVertexSparse[V]) Estimate(_ context.Context, _ engine.Program[V], _ []V, sample []uint32) (time.Duration, error) {
	return time.Duration(len(sample)) * s.perVertex, nil
}

// TestHybridSwitchesOnRMAT checks the hybrid's choices on a BFS, with
// estimates of fixed cost (EDP is a tenth of the vertices' ESP): sparse
// without sampling for a frontier of few arcs (SparseSure), sparse for
// every other frontier below n/10 until the first dense step, dense for
// the first frontier above it, and levels equal to forced sparse's. Real estimates are timings, which a loaded machine can
// tip either way for a single iteration, so they are not asserted on here.
func TestHybridSwitchesOnRMAT(t *testing.T) {
	l := testLayout(t)
	n := l.NumVertices
	src := l.Perm[0]
	lv := make([]uint32, n)
	for i := range lv {
		lv[i] = math.MaxUint32
	}
	lv[src] = 0
	const perVertex = time.Microsecond
	edp := time.Duration(n/10) * perVertex
	d, err := dense.New[uint32](l, 2)
	require.NoError(t, err)
	s, err := sparse.New[uint32](l, 2)
	require.NoError(t, err)
	r := sampler.New[uint32](l, fixedDense[uint32]{d, edp}, perVertexSparse[uint32]{s, perVertex}, 2,
		engine.RunOptions{Trace: true})
	res, err := r.Run(context.Background(), level{}, lv, engine.NewFrontierList(n, []uint32{src}))
	require.NoError(t, err)
	require.Equal(t, len(res.Trace), res.Iterations)

	firstDense := -1
	for i, it := range res.Trace {
		if firstDense >= 0 {
			break // a dense step's measured time has replaced the fixed EDP
		}
		if sparseSure(l, res.Trace, i) {
			require.Equal(t, "sparse", it.Mode, "iteration %d: frontier of %d arcs", i, it.FrontierEdges)
			require.Zero(t, it.ESPSeconds+it.EDPSeconds, "iteration %d: frontier of %d arcs", i, it.FrontierEdges)
			continue
		}
		esp := time.Duration(it.FrontierVertices) * perVertex
		want := "sparse"
		if esp >= edp {
			want, firstDense = "dense", i
		}
		require.Equal(t, want, it.Mode, "iteration %d: frontier of %d vertices", i, it.FrontierVertices)
		require.InDelta(t, esp.Seconds(), it.ESPSeconds, 1e-9, "iteration %d", i)
		require.InDelta(t, edp.Seconds(), it.EDPSeconds, 1e-12, "iteration %d", i)
	}
	require.Positive(t, firstDense, "BFS on R-MAT never had a frontier of n/10 vertices")
	require.Positive(t, res.Switches)

	want := make([]uint32, n)
	for i := range want {
		want[i] = math.MaxUint32
	}
	want[src] = 0
	_, err = runner[uint32](t, l, engine.RunOptions{Mode: engine.Sparse}).
		Run(context.Background(), level{}, want, engine.NewFrontierList(n, []uint32{src}))
	require.NoError(t, err)
	require.Equal(t, want, lv)
}

func TestRunRejectsMismatchedInput(t *testing.T) {
	l := testLayout(t)
	r := runner[uint32](t, l, engine.RunOptions{})
	_, err := r.Run(context.Background(), level{}, make([]uint32, 3), engine.NewFrontierList(3, nil))
	require.ErrorContains(t, err, "values")
}

// earlyLevel is level with engine.EarlyExit: the hybrid may pull.
type earlyLevel struct{ level }

func (earlyLevel) Unsettled(lo uint32, lv []uint32, out []bool) {
	for i := range out {
		out[i] = lv[int(lo)+i] == math.MaxUint32
	}
}

// TestHybridPullMatchesForcedModes runs BFS with the pull engine from
// several sources and worker counts: the hybrid pulls in the large
// iterations and its levels equal the forced modes' (which never pull).
func TestHybridPullMatchesForcedModes(t *testing.T) {
	l := testLayout(t)
	n := l.NumVertices
	ctx := context.Background()
	pulled := false
	for _, workers := range []int{1, 2, 3, 7} {
		for _, src := range []uint32{l.Perm[0], l.Perm[n/2], uint32(n - 1)} {
			levels := func(mode engine.Mode) ([]uint32, engine.Result) {
				lv := make([]uint32, n)
				for i := range lv {
					lv[i] = math.MaxUint32
				}
				lv[src] = 0
				d, err := dense.New[uint32](l, workers)
				require.NoError(t, err)
				s, err := sparse.New[uint32](l, workers)
				require.NoError(t, err)
				pe, err := pull.New[uint32](l, nil, workers)
				require.NoError(t, err)
				r := sampler.New[uint32](l, d, s, workers, engine.RunOptions{Mode: mode, Trace: true}).WithPull(pe)
				res, err := r.Run(ctx, earlyLevel{}, lv, engine.NewFrontierList(n, []uint32{src}))
				require.NoError(t, err)
				return lv, res
			}
			want, _ := levels(engine.Sparse)
			dl, dres := levels(engine.Dense)
			require.Equal(t, want, dl)
			for _, it := range dres.Trace {
				require.Equal(t, "dense", it.Mode, "a forced mode never pulls")
			}
			got, res := levels(engine.Hybrid)
			require.Equal(t, want, got, "workers %d, source %d", workers, src)
			for _, it := range res.Trace {
				if it.Mode == "pull" {
					pulled = true
					require.Positive(t, it.UnsettledEdges+1)
				}
			}
		}
	}
	require.True(t, pulled, "the hybrid never pulled on R-MAT")
}

// TestHybridPullOnShapes checks pull-enabled hybrid BFS against the
// reference on small undirected shapes (a star pulls on its second
// iteration; a chain never does).
func TestHybridPullOnShapes(t *testing.T) {
	ctx := context.Background()
	mk := func(n uint64, arcs [][2]uint32) *graph.EdgeList {
		el := &graph.EdgeList{NumVertices: n, Directed: true}
		for _, a := range arcs {
			el.Src, el.Dst = append(el.Src, a[0]), append(el.Dst, a[1])
		}
		el.Symmetrize(1)
		el.Dedupe(1)
		return el
	}
	var star, chain [][2]uint32
	for v := uint32(1); v < 2000; v++ {
		star = append(star, [2]uint32{v, (v - 1) / 40})
		chain = append(chain, [2]uint32{v - 1, v})
	}
	p := layout.Params{PanelSize: 64, HeavyThreshold: 100, HeavyColumns: 16, SegmentSize: 32,
		GroupThresholds: graph.DefaultGroupThresholds(), HighGroups: 4}
	for name, el := range map[string]*graph.EdgeList{"tree": mk(2000, star), "chain": mk(2000, chain), "single": mk(1, nil)} {
		l, err := preprocess.Build(ctx, el, p, preprocess.Options{Workers: 2})
		require.NoError(t, err)
		want, _ := ref.BFS(graph.ToCSR(el, 1), 0)
		n := l.NumVertices
		lv := make([]uint32, n)
		for i := range lv {
			lv[i] = math.MaxUint32
		}
		lv[l.Perm[0]] = 0
		r := runner[uint32](t, l, engine.RunOptions{})
		pe, err := pull.New[uint32](l, nil, 2)
		require.NoError(t, err)
		_, err = r.WithPull(pe).Run(ctx, earlyLevel{}, lv, engine.NewFrontierList(n, []uint32{l.Perm[0]}))
		require.NoError(t, err)
		got := make([]uint32, n)
		for v, x := range lv {
			got[l.InvPerm[v]] = x
		}
		require.Equal(t, want, got, name)
	}
}

// TestPullPays: Beamer's rule gates the pull; the cost check then keeps
// a frontier whose arcs mostly reach settled vertices on push (a web crawl's
// middle iteration) and lets a large frontier pull (R-MAT's).
func TestPullPays(t *testing.T) {
	// Directed R-MAT 21: 26.7M frontier arcs, 5.0M unsettled arcs, 1.9M unsettled vertices.
	require.True(t, sampler.PullPays(2_097_152, 32_416_256, 26_722_525, 5_028_037, 1_860_000))
	// uk-2007-05_100000: 319k frontier arcs, 2.63M unsettled arcs, 85k unsettled vertices.
	require.False(t, sampler.PullPays(100_000, 3_050_615, 319_126, 2_631_542, 85_000))
	// ... and its large frontier a few iterations later pulls.
	require.True(t, sampler.PullPays(100_000, 3_050_615, 1_724_336, 522_859, 40_000))
	// Beamer's rule first: too few frontier arcs against the unsettled ones, or against n.
	require.False(t, sampler.PullPays(1000, 1_000_000, 10_000, 900_000, 10))
	require.False(t, sampler.PullPays(1_000_000, 1_000_000, 50_000, 10, 10))
}
