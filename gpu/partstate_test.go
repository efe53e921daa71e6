package gpu_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/stretchr/testify/require"
)

// TestPartitionedStates runs tc, msf, kcore, mis and color over device parts: 2–4
// and 8 parts on one GPU (peer copies), a part or two per GPU on every GPU
// there is, and NCCL with a part per GPU, each partitioner, two rounds on
// the same held state; every result is valid (the references' checks) and
// the host path's over the same parts exactly (the same rule, priorities
// over original ids).
func TestPartitionedStates(t *testing.T) {
	needGPU(t)
	configs, x := placements(t, 2, 3, 4, 8)
	ctx := context.Background()
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		if s.EL.NumVertices < 2 {
			continue
		}
		sym := s.EL.Clone()
		sym.Symmetrize(4)
		g := graph.ToCSR(sym, 4)
		wantCore := ref.CoreNumbers(g)
		for _, c := range configs {
			for _, m := range []partition.Method{partition.Random, partition.Balanced} {
				tag := fmt.Sprintf("%s/%s/%d parts on %d GPUs/nccl=%v", s.Name, m, c.parts, c.gpus, c.nccl)
				ps, bs := gpuParts(t, sym, partition.Options{Method: m, Parts: c.parts, Seed: 7, Bias: 0.8}, c.gpus)
				for round := range 2 {
					ex := c.exchanger(x)
					seed := uint64(11 + round)
					total, per, _, err := partition.RunTriangles(ctx, ps, bs, round == 0, false, 2)
					require.NoError(t, err, "%s round %d tc", tag, round)
					hostTotal, hostPer, _, err := partition.RunTriangles(ctx, ps, bs, round == 0, true, 2)
					require.NoError(t, err, tag)
					require.Equal(t, hostTotal, total, "%s round %d: triangles as on the host", tag, round)
					require.Equal(t, hostPer, per, "%s round %d: per vertex as on the host", tag, round)
					weight, forest, _, err := partition.RunMSF(ctx, ps, bs, false, 2)
					require.NoError(t, err, "%s round %d msf", tag, round)
					hostWeight, hostForest, _, err := partition.RunMSF(ctx, ps, bs, true, 2)
					require.NoError(t, err, tag)
					require.Equal(t, hostWeight, weight, "%s round %d: forest weight as on the host", tag, round)
					require.Equal(t, hostForest, forest, "%s round %d: forest as on the host", tag, round)

					core, st, err := partition.RunKCore(ctx, ps, bs, ex, false)
					require.NoError(t, err, "%s round %d kcore", tag, round)
					require.Equal(t, wantCore, core, "%s round %d kcore", tag, round)
					require.True(t, st.Converged, tag)
					require.NotZero(t, st.Supersteps, tag)

					set, _, err := partition.RunMIS(ctx, ps, bs, seed, ex, false, 2)
					require.NoError(t, err, "%s round %d mis", tag, round)
					require.NoError(t, apps.ValidateMIS(g, set), "%s round %d mis", tag, round)
					hostSet, _, err := partition.RunMIS(ctx, ps, bs, seed, nil, true, 2)
					require.NoError(t, err, tag)
					require.Equal(t, hostSet, set, "%s round %d: mis as on the host", tag, round)

					colors, _, err := partition.RunColor(ctx, ps, bs, seed, ex, false, 2)
					require.NoError(t, err, "%s round %d color", tag, round)
					require.NoError(t, apps.ValidateColor(g, colors), "%s round %d color", tag, round)
					colors = slices.Clone(colors) // the parts' memory, reused by the next run
					hostColors, _, err := partition.RunColor(ctx, ps, bs, seed, nil, true, 2)
					require.NoError(t, err, tag)
					require.Equal(t, hostColors, colors, "%s round %d: colours as on the host", tag, round)
				}
			}
		}
	}
}
