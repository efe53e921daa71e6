package sampler_test

import (
	"context"
	"math"
	"sync/atomic"
	"testing"

	"github.com/mgraph-dev/mgraph/dense"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
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
			for _, it := range res.Trace {
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

// TestHybridSwitchesOnRMAT checks the hybrid's choices on a BFS: sparse
// for the first, tiny frontier, and at least one switch.
func TestHybridSwitchesOnRMAT(t *testing.T) {
	l := testLayout(t)
	n := l.NumVertices
	lv := make([]uint32, n)
	for i := range lv {
		lv[i] = math.MaxUint32
	}
	src := l.Perm[0]
	lv[src] = 0
	r := runner[uint32](t, l, engine.RunOptions{Trace: true})
	res, err := r.Run(context.Background(), level{}, lv, engine.NewFrontierList(n, []uint32{src}))
	require.NoError(t, err)
	require.Equal(t, "sparse", res.Trace[0].Mode)
	require.Equal(t, len(res.Trace), res.Iterations)
}

func TestRunRejectsMismatchedInput(t *testing.T) {
	l := testLayout(t)
	r := runner[uint32](t, l, engine.RunOptions{})
	_, err := r.Run(context.Background(), level{}, make([]uint32, 3), engine.NewFrontierList(3, nil))
	require.ErrorContains(t, err, "values")
}
