package cpu

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/require"
)

// TestAsyncNearFarFloatProgress: over float32 weights, an async run whose
// near-far width is far below the distances' ulp (here the smallest
// subnormal, what an all-zero sample of weights gives, against distances
// near 1e10) still ends, with the exact distances: a bucket change moves
// the split at least to the next float (engine.NearFarAdd); a float add
// alone would leave it at the smallest piled value for ever.
func TestAsyncNearFarFloatProgress(t *testing.T) {
	const n = 200
	el := &graph.EdgeList{NumVertices: n, Directed: true, WeightKind: graph.Float32Weights}
	for v := uint32(0); v+1 < n; v++ {
		el.Src, el.Dst = append(el.Src, v), append(el.Dst, v+1)
		w := float32(1e10)
		if v > 0 {
			w = float32(v % 7)
		}
		el.Weights = append(el.Weights, math.Float32bits(w))
	}
	l, err := preprocess.Build(context.Background(), el, layout.DefaultParams(), preprocess.Options{Workers: 2})
	require.NoError(t, err)
	p, values, f, err := apps.Traversal("sssp", l, 0, 2)
	require.NoError(t, err)
	r := &asyncRunner{l: l, workers: 2, delta: 1}
	done := make(chan error, 1)
	go func() {
		_, err := r.Run(context.Background(), p, values, f)
		done <- err
	}()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(20 * time.Second):
		t.Fatal("the async run with a tiny float width did not end")
	}
	want, err := ref.SSSPFloat32(graph.ToCSR(el, 2), 0)
	require.NoError(t, err)
	got := apps.Float32Distances(engine.ToOriginal(l, values, 2), 2)
	require.NoError(t, ref.CompareFloat32Distances(want, got))
}
