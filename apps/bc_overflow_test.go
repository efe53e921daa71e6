package apps_test

import (
	"context"
	"math"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/stretchr/testify/require"
)

// TestBCPathCountOverflow: where σ overflows float64 (a doubling ladder of
// 1,100 rungs: 2^1100 shortest paths to its last rungs), the CPU's
// Brandes by levels and async agree with the reference: NaN where its
// per-arc sums are NaN, and 0 for every leaf of the BFS DAG (the pendants,
// whatever their σ), not +Inf · 0.
func TestBCPathCountOverflow(t *testing.T) {
	const layers = 1100
	el := testgraphs.DoublingLadder(layers)
	b, _ := backends(t, el, testgraphs.SmallParams())
	csr := graph.ToCSR(el, 2)
	for _, mode := range []engine.Mode{engine.Auto, engine.Hybrid, engine.Async} {
		bc, _, err := apps.BC(context.Background(), b, b, []uint32{0}, engine.RunOptions{Mode: mode})
		require.NoError(t, err, mode)
		require.NoError(t, apps.ValidateBC(csr, []uint32{0}, bc), mode)
		nan := 0
		for _, x := range bc {
			if math.IsNaN(x) {
				nan++
			}
		}
		require.Positive(t, nan, "%s: σ overflowed, the deep rungs' scores are NaN", mode)
		for j := uint32(0); j < 2*layers; j++ {
			require.Zero(t, bc[1+2*layers+j], "%s: pendant %d is a leaf", mode, j)
		}
	}
}
