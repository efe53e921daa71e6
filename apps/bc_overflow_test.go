package apps_test

import (
	"context"
	"fmt"
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
// Brandes agrees with the reference in every mode, on the ladder and on
// its directed twin: NaN where the reference's per-arc terms are
// +Inf/+Inf, and 0 for every leaf of the BFS DAG (the pendants, whatever
// their σ), not +Inf · 0.
func TestBCPathCountOverflow(t *testing.T) {
	const layers = 1100
	for _, el := range []*graph.EdgeList{testgraphs.DoublingLadder(layers), testgraphs.DoublingLadderDirected(layers)} {
		fwd, bwd := backends(t, el, testgraphs.SmallParams())
		csr := graph.ToCSR(el, 2)
		modes := []engine.Mode{engine.Auto, engine.Hybrid, engine.Async, engine.Sparse, engine.Dense}
		for _, mode := range modes {
			tag := fmt.Sprintf("%s, directed %v", mode, el.Directed)
			bc, _, err := apps.BC(context.Background(), fwd, bwd, []uint32{0}, engine.RunOptions{Mode: mode})
			require.NoError(t, err, tag)
			require.NoError(t, apps.ValidateBC(csr, []uint32{0}, bc), tag)
			nan := 0
			for _, x := range bc {
				if math.IsNaN(x) {
					nan++
				}
			}
			require.Positive(t, nan, "%s: σ overflowed, the deep rungs' scores are NaN", tag)
			for j := uint32(0); j < 2*layers; j++ {
				require.Zero(t, bc[1+2*layers+j], "%s: pendant %d is a leaf", tag, j)
			}
		}
	}
}
