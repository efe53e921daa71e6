package partition_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/stretchr/testify/require"
)

// TestRunHITSMatchesReference: HITS and SALSA over parts, on every test
// shape, directed and symmetrized, every partitioner and part count, pass
// apps.ValidateHubsAuthorities and take the reference's iterations; with
// no iteration they are the start.
func TestRunHITSMatchesReference(t *testing.T) {
	ctx := context.Background()
	counts := partCounts
	if testing.Short() {
		counts = []int{1, 3}
	}
	const maxIter, tol = 100, 1e-9
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		sym := s.EL.Clone()
		sym.Symmetrize(2)
		for _, el := range []*graph.EdgeList{s.EL, sym} {
			g := graph.ToCSR(el, 2)
			for _, salsa := range []bool{false, true} {
				run := ref.HITS
				if salsa {
					run = ref.SALSA
				}
				_, _, wantIters := run(g, maxIter, tol)
				for _, m := range partition.Methods {
					for _, parts := range counts {
						tag := fmt.Sprintf("%s/directed=%v/salsa=%v/%s/%d parts", s.Name, el.Directed, salsa, m, parts)
						ps, bs := split(t, el, partition.Options{Method: m, Parts: parts, Seed: 7, Bias: 0.8})
						hubs, auth, iters, _, err := partition.RunHITS(ctx, ps, bs, salsa, maxIter, tol, nil, true, 2)
						require.NoError(t, err, tag)
						require.NoError(t, apps.ValidateHubsAuthorities(g, salsa, maxIter, tol, hubs, auth), tag)
						require.Equal(t, wantIters, iters, tag)
					}
				}
				ps, bs := split(t, el, partition.Options{Method: partition.Random, Parts: 2, Seed: 1})
				h0, a0, _ := run(g, 0, tol)
				hubs, auth, iters, _, err := partition.RunHITS(ctx, ps, bs, salsa, 0, tol, nil, true, 1)
				require.NoError(t, err)
				require.Zero(t, iters)
				require.InDeltaSlice(t, h0, hubs, 1e-15, "the start's hubs")
				require.InDeltaSlice(t, a0, auth, 1e-15, "the start's authorities")
			}
		}
	}
}
