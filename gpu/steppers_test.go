//go:build cuda

package gpu_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/dense"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/sparse"
	"github.com/stretchr/testify/require"
)

// TestSteppersMatchCPU steps BFS, SSSP (over uint32 and over float32
// weights) and CC iteration by iteration on the
// device (dense, sparse and, for BFS, pull; directed BFS pulls over the
// uploaded in-adjacency) and on the
// CPU engines from the same state, and checks that values and frontiers
// agree at every iteration and that the phases carry device times. CC's
// pointer jumping makes an iteration's labels depend on the order of
// Apply, so CC is compared at its fixed point only.
func TestSteppersMatchCPU(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	el := testgraphs.Generated(t, "rmat:12:8", 3)
	directed := el.Clone()
	// Heavy in-rows (cuda.PullHeavyDegree and more), scanned a block per
	// vertex: 0 -> v -> 1 for v in [2, 3000), so 1 finds a parent in its
	// long row; v -> 3000 for v in [3001, 5000), never reached, so 3000
	// scans its whole row every pull step.
	heavy := &graph.EdgeList{NumVertices: 5000, Directed: true}
	for v := uint32(2); v < 3000; v++ {
		heavy.Src = append(heavy.Src, 0, v)
		heavy.Dst = append(heavy.Dst, v, 1)
	}
	for v := uint32(3001); v < 5000; v++ {
		heavy.Src, heavy.Dst = append(heavy.Src, v), append(heavy.Dst, 3000)
	}
	el.Symmetrize(2)
	weighted := el.Clone()
	weighted.SetRandomWeights(9, 1, 64, 2)
	fweighted := el.Clone()
	fweighted.SetRandomFloat32Weights(9, 2) // SSSP over float32 weights: the values are float32 bits
	for _, tc := range []struct {
		app string
		l   *layout.Layout
	}{{"bfs", build(t, el, testgraphs.SmallParams())}, {"sssp", build(t, weighted, testgraphs.SmallParams())}, {"cc", build(t, el, testgraphs.SmallParams())},
		{"sssp", build(t, fweighted, testgraphs.SmallParams())},
		{"bfs", build(t, directed, testgraphs.SmallParams())}, {"bfs", build(t, heavy, testgraphs.SmallParams())},
		{"bfs", build(t, hubs(), testgraphs.SmallParams())}} {
		name := fmt.Sprintf("%s-directed=%v-n=%d", tc.app, tc.l.Directed, tc.l.NumVertices)
		if tc.l.WeightKind == graph.Float32Weights {
			name += "-float32"
		}
		t.Run(name, func(t *testing.T) {
			l := tc.l
			b, err := gpu.New(l, 2)
			require.NoError(t, err)
			st, err := gpu.NewSteppersOwning(b)
			require.NoError(t, err)
			defer func() { require.NoError(t, st.Close()) }()
			cd, err := dense.New[uint32](l, 2)
			require.NoError(t, err)
			cs, err := sparse.New[uint32](l, 2)
			require.NoError(t, err)
			p, values, f, err := apps.Traversal(tc.app, l, 0, 2)
			require.NoError(t, err)
			ee, early := p.(engine.EarlyExit[uint32])
			frontier := slices.Clone(f.List(2))
			n := int(l.NumVertices)
			exact := tc.app != "cc"
			fixed := fixedPoint(t, cs, p, slices.Clone(values), slices.Clone(frontier))
			for i := 0; len(frontier) > 0; i++ {
				require.Less(t, i, n+1, "no convergence")
				active := engine.ListToFlags(l.NumVertices, frontier, 2)
				want := slices.Clone(values)
				wantNext := make([]uint8, n)
				wantCount, _, err := cd.Step(ctx, p, want, active, wantNext)
				require.NoError(t, err)

				got := slices.Clone(values)
				next := make([]uint8, n)
				count, ph, err := st.Dense().Step(ctx, p, got, active, next)
				require.NoError(t, err)
				require.Len(t, ph, 3)
				if exact {
					require.Equal(t, wantCount, count, "dense count, iteration %d", i)
					require.Equal(t, want, got, "dense values, iteration %d", i)
					require.Equal(t, wantNext, next, "dense next, iteration %d", i)
				}

				if exact && early {
					got = slices.Clone(values)
					count, ph, err = st.Pull().Step(ctx, ee, got, active, next)
					require.NoError(t, err)
					require.Equal(t, wantCount, count, "pull count, iteration %d", i)
					require.Equal(t, want, got, "pull values, iteration %d", i)
					require.Equal(t, wantNext, next, "pull next, iteration %d", i)
					require.Len(t, ph, 1)
				}

				got = slices.Clone(values)
				out, ph, err := st.Sparse().Step(ctx, p, got, frontier)
				require.NoError(t, err)
				cpuVals := slices.Clone(values)
				cpuOut, _, err := cs.Step(ctx, p, cpuVals, frontier)
				require.NoError(t, err)
				slices.Sort(cpuOut)
				require.Len(t, ph, 2)
				if exact {
					require.Equal(t, cpuVals, got, "sparse values, iteration %d", i)
					require.Equal(t, cpuOut, out, "sparse next, iteration %d", i)
				}
				var dev float64
				for _, x := range ph {
					require.GreaterOrEqual(t, x.Seconds, 0.0)
					dev += x.Seconds
				}
				require.Greater(t, dev, 0.0)
				values, frontier = got, out
			}
			require.Equal(t, fixed, values, "fixed point")
			_, err = st.Dense().Estimate(ctx, p, values)
			require.NoError(t, err)
		})
	}
}

// fixedPoint runs CPU sparse steps from values and frontier to the end and
// returns the values.
func fixedPoint(t *testing.T, cs engine.SparseStepper[uint32], p engine.Program[uint32], values, frontier []uint32) []uint32 {
	for i := 0; len(frontier) > 0; i++ {
		require.LessOrEqual(t, i, len(values), "no convergence")
		var err error
		frontier, _, err = cs.Step(context.Background(), p, values, frontier)
		require.NoError(t, err)
	}
	return values
}
