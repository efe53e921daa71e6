package gpu_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/stretchr/testify/require"
)

// TestFloat32SSSPVariants runs SSSP over float32 weights (the
// MG_PROG_SSSP_F32 kernels) on the GPU's every path: the device loop and
// the host loop, near-far at the default width, at a narrow one (many
// buckets, each move of the split a float add) and off, the dense kernels
// cut into tiny pieces, and async with one block per SM; in every mode,
// from three sources, against the CPU backend and the float32 Dijkstra,
// exactly. The graphs: a chain longer than a device loop, a grid (many
// small iterations, near-far buckets), R-MAT (dense and loop steps), with
// random weights in (0, 1] and, on the grid, with weights spanning the
// whole float32 range (subnormals, and sums that overflow to +Inf; with
// the narrow width, distances whose ulp exceeds the width, where a bucket
// change must still move the split: SSSPF32Op::bucket).
func TestFloat32SSSPVariants(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	variants := map[string][]gpu.Option{
		"default":      nil,
		"host loop":    {gpu.WithoutDeviceLoop()},
		"no near-far":  {gpu.WithNearFarDelta(-1)},
		"narrow":       {gpu.WithNearFarDelta(1)}, // width 1.0: several buckets
		"tiny split":   {tinySplit},
		"one block/SM": {gpu.WithAsyncBlocksPerSM(1), gpu.WithLoopBlocksPerSM(1)},
	}
	type graphCase struct {
		name string
		el   *graph.EdgeList
	}
	var cases []graphCase
	for _, s := range loopShapes(t) {
		el := s.EL.Clone()
		el.SetRandomFloat32Weights(11, 4)
		cases = append(cases, graphCase{s.Name, el})
	}
	wide := testgraphs.Generated(t, "grid:40x50:0.1", 4)
	wide.Symmetrize(4)
	wide.Directed = true // both arcs of an edge, each with a weight of its own
	wide.SetRandomFloat32Weights(5, 4)
	for i := range wide.Weights { // every exponent: the bits, scattered evenly
		wide.Weights[i] = uint32(uint64(wide.Weights[i]) * 2654435761 % (graph.MaxFloat32Bits + 1))
	}
	cases = append(cases, graphCase{"grid-wide-range", wide})
	for _, c := range cases {
		l := build(t, c.el, layout.DefaultParams())
		require.Equal(t, graph.Float32Weights, l.WeightKind)
		g := apps.OriginalCSR(l, 4)
		cb, err := cpu.New(l, 4)
		require.NoError(t, err)
		want := map[uint32][]float32{} // the CPU's, the same in every mode (apps' TestStress)
		for _, s := range sourcesOf(l.NumVertices) {
			d, _, err := apps.SSSPFloat32(ctx, cb, s, engine.RunOptions{})
			require.NoError(t, err, c.name)
			want[s] = append([]float32(nil), d...)
		}
		for name, opts := range variants {
			gb, err := gpu.New(l, 4, opts...)
			require.NoError(t, err)
			for _, s := range sourcesOf(l.NumVertices) {
				for _, mode := range modes {
					tag := fmt.Sprintf("%s/%s/%s/source %d", c.name, name, mode, s)
					got, res, err := apps.SSSPFloat32(ctx, gb, s, engine.RunOptions{Mode: mode, Trace: true})
					require.NoError(t, err, tag)
					require.Equal(t, bitsOf(want[s]), bitsOf(got), tag+": differs from the CPU backend")
					require.NoError(t, apps.ValidateSSSPFloat32(g, s, got), tag)
					require.Len(t, res.Trace, res.Iterations, tag)
					checkedCases.Add(1)
				}
			}
			// The uint32 program is refused on float32 weights.
			_, _, err = apps.Run(ctx, "sssp", gb, gb, []uint32{0}, apps.PageRankOptions{}, engine.RunOptions{})
			require.NoError(t, err) // Run picks SSSPFloat32
			_, _, err = apps.SSSP(ctx, gb, 0, engine.RunOptions{})
			require.ErrorIs(t, err, apps.ErrFloat32Weights)
			require.NoError(t, gb.Close())
		}
	}
}

// TestFloat32SSSPOverflow: sums past float32's largest value are +Inf on
// the device as on the host, and a vertex only such a path reaches reads
// +Inf, as an unreached one does (the CPU always, the GPU where there is
// one).
func TestFloat32SSSPOverflow(t *testing.T) {
	ctx := context.Background()
	el := &graph.EdgeList{NumVertices: 5, Directed: true, WeightKind: graph.Float32Weights,
		Src: []uint32{0, 1, 2, 0}, Dst: []uint32{1, 2, 3, 3}}
	for _, w := range []float32{math.MaxFloat32, math.MaxFloat32, 1, float32(math.Inf(1)) / 2} {
		el.Weights = append(el.Weights, math.Float32bits(min(w, math.MaxFloat32)))
	}
	l := build(t, el, testgraphs.SmallParams())
	inf := float32(math.Inf(1))
	want := []float32{0, math.MaxFloat32, inf, math.MaxFloat32, inf}
	backends := []engine.Backend{}
	cb, err := cpu.New(l, 2)
	require.NoError(t, err)
	backends = append(backends, cb)
	if gpu.Available() {
		gb, err := gpu.New(l, 2)
		require.NoError(t, err)
		defer gb.Close()
		backends = append(backends, gb)
	}
	for _, b := range backends {
		for _, mode := range modes {
			d, _, err := apps.SSSPFloat32(ctx, b, 0, engine.RunOptions{Mode: mode})
			require.NoError(t, err, "%s/%s", b.Name(), mode)
			require.Equal(t, want, d, "%s/%s", b.Name(), mode)
		}
	}
}

// bitsOf returns the bit patterns of float32 distances (exact equality,
// +Inf included).
func bitsOf(d []float32) []uint32 {
	b := make([]uint32, len(d))
	for i, x := range d {
		b[i] = math.Float32bits(x)
	}
	return b
}
