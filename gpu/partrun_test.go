package gpu

import (
	"context"
	"testing"

	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/stretchr/testify/require"
)

// TestPartTables: the tables a device run uploads size each part's send
// segments by the ghosts of each owner and its receive buffer by the ghost
// copies of its vertices elsewhere (no GPU needed).
func TestPartTables(t *testing.T) {
	ctx := context.Background()
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		for _, parts := range []int{1, 2, 3} {
			owner, err := partition.Assign(ctx, s.EL, partition.Options{Method: partition.Random, Parts: parts, Seed: 3})
			require.NoError(t, err)
			ps, err := partition.Split(ctx, s.EL, owner, parts)
			require.NoError(t, err)
			for _, labels := range []bool{false, true} {
				ts, err := partTables(ps, labels)
				require.NoError(t, err, s.Name)
				copies := make([]uint64, parts) // ghost copies of each part's vertices elsewhere
				for i, pt := range ps {
					tb := ts[i]
					require.Len(t, tb.OwnerStart, parts+1)
					require.Equal(t, pt.NumGhosts, tb.OwnerStart[parts])
					for g, o := range pt.GhostOwner {
						require.True(t, uint64(g) >= tb.OwnerStart[o] && uint64(g) < tb.OwnerStart[o+1], "%s: ghost %d of part %d", s.Name, g, i)
						copies[o]++
					}
					require.Equal(t, labels, tb.Global != nil)
				}
				for i := range ps {
					require.Equal(t, copies[i], ts[i].RecvCap, "%s: part %d of %d", s.Name, i, parts)
				}
			}
		}
	}
	// Ghosts out of owner order are refused.
	owner, err := partition.Assign(ctx, testgraphs.Shapes(t, testgraphs.Small)[0].EL, partition.Options{Method: partition.Random, Parts: 3, Seed: 1})
	require.NoError(t, err)
	ps, err := partition.Split(ctx, testgraphs.Shapes(t, testgraphs.Small)[0].EL, owner, 3)
	require.NoError(t, err)
	for _, pt := range ps {
		if k := len(pt.GhostOwner); k > 1 && pt.GhostOwner[0] != pt.GhostOwner[k-1] {
			pt.GhostOwner[0], pt.GhostOwner[k-1] = pt.GhostOwner[k-1], pt.GhostOwner[0]
			_, err := partTables(ps, false)
			require.ErrorContains(t, err, "not ordered by owner")
			return
		}
	}
	t.Fatal("no part has ghosts of two owners")
}
