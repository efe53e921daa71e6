package cpu

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
)

// TestBucketsMatchReference: async SSSP by delta-stepping gives the
// reference distances on a grid and an R-MAT graph, with widths from one
// distance unit (arcs reaching far beyond the ring of bins: the overflow
// lists) to beyond every distance (one bin), on one to five workers, from
// one source and from several vertices at once (an Auto hand-over's
// frontier). Five workers run as GOMAXPROCS (at most five) allows.
func TestBucketsMatchReference(t *testing.T) {
	ctx := context.Background()
	grid, err := gen.Grid(ctx, 30, 40, 0.1, 3, 2, nil)
	require.NoError(t, err)
	rmat, err := gen.RMAT(ctx, gen.DefaultRMAT(10, 8), 2, nil)
	require.NoError(t, err)
	rmat.Symmetrize(2)
	rmat.DropSelfLoops()
	rmat.Dedupe(2)
	for name, el := range map[string]*graph.EdgeList{"grid": grid, "rmat": rmat} {
		el.SetRandomWeights(11, 1, 5000, 2)
		l, err := preprocess.Build(ctx, el, layout.DefaultParams(), preprocess.Options{Workers: 2})
		require.NoError(t, err)
		want64, err := ref.SSSP(graph.ToCSR(el, 2), 0)
		require.NoError(t, err)
		for _, delta := range []uint32{1, 7, 300, math.MaxUint32 >> 1} {
			if delta == 1 {
				require.Greater(t, uint32(5000)/delta, uint32(bucketRing), "the overflow lists are not used")
			}
			for _, workers := range []int{1, 2, 5} {
				what := fmt.Sprintf("%s/delta %d/w%d", name, delta, workers)
				p, values, f, err := apps.Traversal("sssp", l, 0, 2)
				require.NoError(t, err, what)
				tr, err := runBuckets(ctx, l, p.Edge(), values, f.List(2), delta, workers)
				require.NoError(t, err, what)
				require.Positive(t, tr.Buckets, what)
				got := engine.ToOriginal(l, values, 2)
				for v, d := range want64 {
					require.Equal(t, uint32(min(d, math.MaxUint32)), got[v], "%s: vertex %d", what, v)
				}
				// From a frontier of many vertices with values already set
				// (as a hand-over from the iterations passes): every
				// reached vertex, a fifth of them with values raised by up
				// to 3 (upper bounds still), comes back to its distance.
				var first []uint32
				for v := range values {
					if values[v] != math.MaxUint32 {
						if v%5 == 0 {
							values[v] += uint32(v % 4)
						}
						first = append(first, uint32(v))
					}
				}
				_, err = runBuckets(ctx, l, p.Edge(), values, first, delta, workers)
				require.NoError(t, err, what)
				require.Equal(t, got, engine.ToOriginal(l, values, 2), "%s: from a raised frontier", what)
			}
		}
	}
}

// TestBucketsFloat32: float32 weights bin by float division, the smallest
// width (a subnormal, the bits 1) and +Inf's distances included.
func TestBucketsFloat32(t *testing.T) {
	ctx := context.Background()
	el, err := gen.Grid(ctx, 20, 30, 0.1, 3, 2, nil)
	require.NoError(t, err)
	el.SetRandomFloat32Weights(5, 2)
	el.Weights[3] = math.Float32bits(3e38) // sums past float32's range: +Inf, a reached distance
	el.Weights[4] = math.Float32bits(3e38)
	l, err := preprocess.Build(ctx, el, layout.DefaultParams(), preprocess.Options{Workers: 2})
	require.NoError(t, err)
	want, err := ref.SSSPFloat32(graph.ToCSR(el, 2), 0)
	require.NoError(t, err)
	for _, delta := range []uint32{1, math.Float32bits(0.01), math.Float32bits(2)} {
		for _, workers := range []int{1, 3} {
			p, values, f, err := apps.Traversal("sssp", l, 0, 2)
			require.NoError(t, err)
			_, err = runBuckets(ctx, l, p.Edge(), values, f.List(2), delta, workers)
			require.NoError(t, err)
			got := apps.Float32Distances(engine.ToOriginal(l, values, 2), 2)
			require.NoError(t, ref.CompareFloat32Distances(want, got), "delta bits %#x, %d workers", delta, workers)
		}
	}
}

// TestBucketsCancel: a cancelled context ends a delta-stepping run with
// its error, on every worker.
func TestBucketsCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	el, err := gen.Grid(context.Background(), 30, 30, 0, 3, 2, nil)
	require.NoError(t, err)
	el.SetRandomWeights(3, 1, 64, 2)
	l, err := preprocess.Build(context.Background(), el, layout.DefaultParams(), preprocess.Options{Workers: 2})
	require.NoError(t, err)
	for _, workers := range []int{1, 3} {
		p, values, f, err := apps.Traversal("sssp", l, 0, 2)
		require.NoError(t, err)
		_, err = runBuckets(ctx, l, p.Edge(), values, f.List(2), 5, workers)
		require.ErrorIs(t, err, context.Canceled)
	}
}
