package sampler

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/dense"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/mgraph-dev/mgraph/sparse"
)

// dist is SSSP over uint32 weights (and, with edge
// EdgeSourcePlusFloat32Weight, over float32 ones): a Monotone, PlainMin
// min program, which the runner runs near-far.
type dist struct{ edge engine.EdgeOp }

func (d dist) Edge() engine.EdgeOp     { return d.edge }
func (dist) Combine() engine.CombineOp { return engine.CombineMin }
func (dist) ApplyAll() bool            { return false }
func (dist) Monotone()                 {}
func (dist) PlainMin()                 {}
func (dist) Apply(v, acc uint32, d []uint32) bool {
	if acc < d[v] {
		d[v] = acc
		return true
	}
	return false
}

// stoppingDist is dist that stops before iteration stop (engine.Stopper):
// a run that ends with vertices still piled.
type stoppingDist struct {
	dist
	stop int
}

func (s stoppingDist) BeforeIteration(i int) bool { return i < s.stop }

func nearFarLayout(t *testing.T, el *graph.EdgeList) *layout.Layout {
	p := layout.Params{PanelSize: 64, HeavyThreshold: 100, HeavyColumns: 16, SegmentSize: 32,
		GroupThresholds: graph.DefaultGroupThresholds(), HighGroups: 4}
	l, err := preprocess.Build(context.Background(), el, p, preprocess.Options{Workers: 2})
	require.NoError(t, err)
	return l
}

func nearFarRunner(t *testing.T, l *layout.Layout, workers int, opts engine.RunOptions, delta uint32) *Runner[uint32] {
	d, err := dense.New[uint32](l, workers)
	require.NoError(t, err)
	s, err := sparse.New[uint32](l, workers)
	require.NoError(t, err)
	return New[uint32](l, d, s, workers, opts).WithNearFar(delta)
}

// runDist runs p from source (original id) and returns the distances in
// the original numbering.
func runDist(t *testing.T, r *Runner[uint32], l *layout.Layout, p engine.Program[uint32], source uint32) ([]uint32, engine.Result) {
	n := l.NumVertices
	vals := make([]uint32, n)
	for i := range vals {
		vals[i] = math.MaxUint32
	}
	src := l.Perm[source]
	vals[src] = 0
	res, err := r.Run(context.Background(), p, vals, engine.NewFrontierList(n, []uint32{src}))
	require.NoError(t, err)
	out := make([]uint32, n)
	for v, x := range vals {
		out[l.InvPerm[v]] = x
	}
	return out, res
}

// requireClear checks that the runner's near-far flags are all clear.
func requireClear(t *testing.T, r *Runner[uint32], what string) {
	t.Helper()
	for i, w := range r.inFar {
		require.Zero(t, w, "%s: near-far flags word %d left set", what, i)
	}
}

// TestNearFarMatchesReference: near-far SSSP, with widths from one
// distance unit to beyond every distance, in the hybrid and in mode Sparse,
// on one and several workers, gives the reference distances (uint32 and
// float32 weights), takes more iterations than the plain run when the
// width is narrow, and leaves the runner's flags clear for its next run.
func TestNearFarMatchesReference(t *testing.T) {
	ctx := context.Background()
	grid, err := gen.Grid(ctx, 40, 50, 0.1, 3, 2, nil)
	require.NoError(t, err)
	rmat, err := gen.RMAT(ctx, gen.DefaultRMAT(11, 8), 2, nil)
	require.NoError(t, err)
	rmat.Symmetrize(2)
	rmat.DropSelfLoops()
	rmat.Dedupe(2)
	for name, el := range map[string]*graph.EdgeList{"grid": grid, "rmat": rmat} {
		el.SetRandomWeights(7, 1, 64, 2)
		l := nearFarLayout(t, el)
		want64, err := ref.SSSP(graph.ToCSR(el, 2), 0)
		require.NoError(t, err)
		want := make([]uint32, len(want64))
		for i, d := range want64 {
			want[i] = uint32(min(d, math.MaxUint32))
		}
		plain, pres := runDist(t, nearFarRunner(t, l, 2, engine.RunOptions{Mode: engine.Sparse}, 0), l, dist{engine.EdgeSourcePlusWeight}, 0)
		require.Equal(t, want, plain, name)
		for _, workers := range []int{1, 3} {
			for _, mode := range []engine.Mode{engine.Hybrid, engine.Sparse} {
				for _, delta := range []uint32{1, 7, 100, math.MaxUint32 >> 1} {
					what := fmt.Sprintf("%s/w%d/%s/delta %d", name, workers, mode, delta)
					r := nearFarRunner(t, l, workers, engine.RunOptions{Mode: mode, Trace: true}, delta)
					for range 2 { // the second run reuses the runner's near-far state
						got, res := runDist(t, r, l, dist{engine.EdgeSourcePlusWeight}, 0)
						require.Equal(t, want, got, what)
						requireClear(t, r, what)
						require.Equal(t, PhaseNearFar, res.Trace[0].Phases[len(res.Trace[0].Phases)-1].Name, what)
						if delta == 1 {
							require.Greater(t, res.Iterations, pres.Iterations, what)
						}
					}
				}
			}
		}
	}

	// Float32 weights.
	el := grid.Clone()
	el.SetRandomFloat32Weights(5, 2)
	l := nearFarLayout(t, el)
	want, err := ref.SSSPFloat32(graph.ToCSR(el, 2), 0)
	require.NoError(t, err)
	for _, delta := range []uint32{1, math.Float32bits(0.05), math.Float32bits(3)} {
		r := nearFarRunner(t, l, 2, engine.RunOptions{}, delta)
		got, _ := runDist(t, r, l, dist{engine.EdgeSourcePlusFloat32Weight}, 0)
		gotF := make([]float32, len(got))
		for i, b := range got {
			gotF[i] = float32(math.Inf(1))
			if b != math.MaxUint32 {
				gotF[i] = math.Float32frombits(b)
			}
		}
		require.NoError(t, ref.CompareFloat32Distances(want, gotF), "delta bits %#x", delta)
		requireClear(t, r, "float32")
	}
}

// TestNearFarOff: a capped run, a forced dense run and a program that is
// not SSSP run without near-far (the capped run's distances are those of
// the plain iterations: over paths of at most the cap's arcs), and a run
// stopped early leaves the flags clear.
func TestNearFarOff(t *testing.T) {
	ctx := context.Background()
	el, err := gen.Grid(ctx, 30, 30, 0.1, 3, 2, nil)
	require.NoError(t, err)
	el.SetRandomWeights(7, 1, 64, 2)
	l := nearFarLayout(t, el)
	p := dist{engine.EdgeSourcePlusWeight}
	for _, capped := range []int{1, 5, 20} {
		plain, _ := runDist(t, nearFarRunner(t, l, 2, engine.RunOptions{Mode: engine.Sparse, MaxIterations: capped}, 0), l, p, 0)
		r := nearFarRunner(t, l, 2, engine.RunOptions{Mode: engine.Sparse, MaxIterations: capped, Trace: true}, 3)
		got, res := runDist(t, r, l, p, 0)
		require.Equal(t, plain, got, "cap %d", capped)
		for _, tr := range res.Trace {
			for _, ph := range tr.Phases {
				require.NotEqual(t, PhaseNearFar, ph.Name, "cap %d", capped)
			}
		}
	}
	r := nearFarRunner(t, l, 2, engine.RunOptions{Mode: engine.Dense, Trace: true}, 3)
	require.Nil(t, r.nearFarFor(p, make([]uint32, l.NumVertices)))
	r = nearFarRunner(t, l, 2, engine.RunOptions{Trace: true}, 3)
	require.Nil(t, r.nearFarFor(level{}, make([]uint32, l.NumVertices)), "an unweighted program")
	require.NotNil(t, r.nearFarFor(p, make([]uint32, l.NumVertices)))

	for _, stop := range []int{1, 3, 10} {
		r := nearFarRunner(t, l, 2, engine.RunOptions{Trace: true}, 3)
		_, res := runDist(t, r, l, stoppingDist{p, stop}, 0)
		require.Equal(t, stop, res.Iterations)
		requireClear(t, r, fmt.Sprint("stopped at ", stop))
	}
}

// level is BFS (not weighted: never near-far).
type level struct{}

func (level) Edge() engine.EdgeOp       { return engine.EdgeSourcePlusOne }
func (level) Combine() engine.CombineOp { return engine.CombineMin }
func (level) ApplyAll() bool            { return false }
func (level) Monotone()                 {}
func (level) Apply(v, acc uint32, lv []uint32) bool {
	if acc < lv[v] {
		lv[v] = acc
		return true
	}
	return false
}
