package partition_test

import (
	"context"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/stretchr/testify/require"
)

// TestRunWhoToFollowMatchesReference: on every test shape, directed and
// symmetrized, every partitioner and part count, the recommendations for
// two users pass apps.ValidateWTF (the reference's, ties within its
// tolerance); a user outside the graph is refused.
func TestRunWhoToFollowMatchesReference(t *testing.T) {
	ctx := context.Background()
	opts := ref.DefaultWTFOptions()
	recommended := 0 // the runs that recommended someone
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		if s.EL.NumVertices == 0 {
			continue
		}
		sym := s.EL.Clone()
		sym.Symmetrize(2)
		for _, el := range []*graph.EdgeList{s.EL, sym} {
			g := graph.ToCSR(el, 2)
			n := uint32(el.NumVertices)
			eachSplit(t, s.Name, el, func(tag string, _ int, ps []*partition.Part, bs []engine.Backend) {
				for _, user := range []uint32{0, n / 2} {
					rec, _, err := partition.RunWhoToFollow(ctx, ps, bs, user, opts, nil, false, 2)
					require.NoError(t, err, "%s: user %d", tag, user)
					require.NoError(t, apps.ValidateWTF(g, user, opts, rec), "%s: user %d", tag, user)
					if len(rec) > 0 {
						recommended++
					}
				}
				_, _, err := partition.RunWhoToFollow(ctx, ps, bs, n, opts, nil, false, 1)
				require.ErrorContains(t, err, "not a vertex", tag)
			})
		}
	}
	require.Positive(t, recommended, "some user gets recommendations")
	t.Logf("%d runs recommended someone", recommended)
}
