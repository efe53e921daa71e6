package pull

import (
	"context"
	"testing"

	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/stretchr/testify/require"
)

// sssp is SSSP as a min program without early exit.
type sssp struct{ bfs }

func (sssp) Edge() engine.EdgeOp { return engine.EdgeSourcePlusWeight }

// sum is a sum program, which StepAll refuses.
type sum struct{ bfs }

func (sum) Combine() engine.CombineOp { return engine.CombineSum }

// TestStepAllSSSPMatchesReference runs SSSP by StepAll alone on every test
// shape, with weights, and compares with Dijkstra; each step's count and
// next arcs must match its flags.
func TestStepAllSSSPMatchesReference(t *testing.T) {
	ctx := context.Background()
	for name, el := range shapes(t) {
		if el.NumVertices == 0 {
			continue
		}
		el.SetRandomWeights(3, 1, 40, 2)
		l := build(t, el)
		e, err := New[uint32](l, nil, 2)
		require.NoError(t, err)
		n := l.NumVertices
		dist := make([]uint32, n)
		for i := range dist {
			dist[i] = unreached
		}
		active, next := make([]uint8, n), make([]uint8, n)
		src := l.Perm[0]
		dist[src], active[src] = 0, 1
		off := l.SparseOffsets
		for count := uint64(1); count > 0; {
			count, _, err = e.StepAll(ctx, sssp{}, dist, active, next)
			require.NoError(t, err, name)
			var k, arcs uint64
			for v, f := range next {
				if f != 0 {
					k++
					arcs += off[v+1] - off[v]
				}
			}
			require.Equal(t, k, count, name)
			require.Equal(t, arcs, e.NextArcs(), name)
			active, next = next, active
		}
		want, err := ref.SSSP(graph.ToCSR(el, 2), 0)
		require.NoError(t, err)
		got := inOriginal(l, dist)
		for v := range want {
			w := want[v]
			if w > uint64(unreached) {
				w = uint64(unreached)
			}
			require.Equal(t, w, uint64(got[v]), "%s: vertex %d", name, v)
		}
	}
}

// TestStepAllChecksArguments: sum programs, short arrays and a cancelled
// context are refused before anything changes.
func TestStepAllChecksArguments(t *testing.T) {
	l := build(t, undirected(4, [][2]uint32{{0, 1}, {1, 2}, {2, 3}}))
	e, err := New[uint32](l, nil, 1)
	require.NoError(t, err)
	v, f := make([]uint32, 4), make([]uint8, 4)
	_, _, err = e.StepAll(context.Background(), sum{}, v, f, f)
	require.ErrorIs(t, err, engine.ErrPullMode)
	_, _, err = e.StepAll(context.Background(), bfs{}, v[:3], f, f)
	require.ErrorContains(t, err, "3 values")
	_, _, err = e.StepAll(context.Background(), sssp{}, v, f, f)
	require.ErrorContains(t, err, "unweighted")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err = e.StepAll(ctx, bfs{}, v, f, f)
	require.ErrorIs(t, err, context.Canceled)
}
