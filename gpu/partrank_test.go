package gpu_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/stretchr/testify/require"
)

// TestPartitionedPageRank runs PageRank on the devices with 2–4 parts on
// one GPU (peer copies), and a part per GPU (NCCL, and peer copies) where
// there are several, on every shape, directed and symmetrized, twice over
// the same parts (the second run reuses the held state), and checks the
// ranks and iterations against the reference. The parts gather all their
// rows before the exchange, and, in the configurations marked overlap,
// their ghosts' row panels first and the rest during the exchange
// (gpu.WithPartOverlap). After each PageRank, personalised PageRank runs
// on the same parts (from one source, then from several, one repeated)
// and is checked against apps.ValidatePPR and the reference's
// iterations; then HITS and SALSA, against apps.ValidateHubsAuthorities
// and the reference's iterations.
func TestPartitionedPageRank(t *testing.T) {
	needGPU(t)
	devices, err := cuda.DeviceCount()
	require.NoError(t, err)
	type config struct {
		parts, gpus   int
		nccl, overlap bool
	}
	// 8 parts leave some part of a small graph without a vertex (found on
	// 4 GPUs: 8 parts of a star, the balanced partitioner).
	configs := []config{{2, 1, false, false}, {3, 1, false, false}, {4, 1, false, false}, {8, 1, false, false},
		{3, 1, false, true}}
	var x *gpu.NCCLExchanger
	if devices > 1 {
		configs = append(configs, config{devices, devices, false, false}, config{2 * devices, devices, false, false})
		if _, err := cuda.OpenNCCL(); err == nil {
			devs := make([]int, devices)
			for i := range devs {
				devs[i] = i
			}
			x, err = gpu.NewNCCLExchanger(devs)
			require.NoError(t, err)
			defer func() { require.NoError(t, x.Close()) }()
			configs = append(configs, config{devices, devices, true, false}, config{devices, devices, true, true})
		}
	}
	pprSources := [2]func(n uint32) []uint32{
		func(n uint32) []uint32 { return []uint32{n / 2} },
		func(n uint32) []uint32 { return []uint32{0, n - 1, n / 3, 0} },
	}
	ctx := context.Background()
	opts := apps.DefaultPageRankOptions()
	ro := partition.RankOptions{Damping: opts.Damping, Tolerance: opts.Tolerance, MaxIterations: opts.MaxIterations}
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		if s.EL.NumVertices < 2 {
			continue
		}
		sym := s.EL.Clone()
		sym.Symmetrize(4)
		for _, el := range []*graph.EdgeList{s.EL, sym} {
			g := graph.ToCSR(el, 4)
			_, want := ref.PageRank(g, ref.PageRankOptions{Damping: opts.Damping, Tolerance: opts.Tolerance, MaxIterations: opts.MaxIterations})
			for _, c := range configs {
				for _, m := range []partition.Method{partition.Random, partition.Balanced} {
					tag := fmt.Sprintf("%s/directed=%v/%s/%d parts on %d GPUs/nccl=%v/overlap=%v", s.Name, el.Directed, m, c.parts,
						c.gpus, c.nccl, c.overlap)
					var extra []gpu.Option
					if c.overlap {
						extra = append(extra, gpu.WithPartOverlap())
					}
					ps, bs := gpuParts(t, el, partition.Options{Method: m, Parts: c.parts, Seed: 7, Bias: 0.8}, c.gpus, extra...)
					for round := range 2 {
						var ex partition.Exchanger = gpu.NewPeerExchanger(c.parts)
						if c.nccl {
							ex = x
						}
						ranks, iters, st, err := partition.RunPageRank(ctx, ps, bs, ro, ex, false, 2)
						require.NoError(t, err, "%s round %d", tag, round)
						require.NoError(t, apps.ValidatePageRank(g, opts, ranks), "%s round %d", tag, round)
						require.Equal(t, want, iters, tag)
						require.Equal(t, iters, st.Supersteps, tag)
						// pr-delta on the same held state: CPU parts' supersteps and
						// ranks over the same layouts (up to the order of the sums),
						// validated.
						dro := ro
						dro.MaxIterations = 0
						dopts := opts
						dopts.MaxIterations = 0
						dranks, dsteps, dst, err := partition.RunPageRankDelta(ctx, ps, bs, dro, engine.RunOptions{}, ex, false)
						require.NoError(t, err, "%s round %d pr-delta", tag, round)
						require.NoError(t, apps.ValidatePageRankDelta(g, dopts, dranks), "%s round %d pr-delta", tag, round)
						require.True(t, dst.Converged, tag)
						dranks = slices.Clone(dranks) // the parts' memory, reused by the next run
						cbs := make([]engine.Backend, len(bs))
						for i, b := range bs {
							cbs[i], err = cpu.New(b.Layout(), 2)
							require.NoError(t, err)
						}
						hranks, hsteps, _, err := partition.RunPageRankDelta(ctx, ps, cbs, dro, engine.RunOptions{}, nil, true)
						require.NoError(t, err, "%s round %d pr-delta on the host", tag, round)
						require.Equal(t, hsteps, dsteps, "%s round %d pr-delta", tag, round)
						require.InDeltaSlice(t, hranks, dranks, 1e-9, "%s round %d pr-delta", tag, round)
						// Personalised on the same held state (the next round's pr
						// must teleport uniformly again).
						sources := pprSources[round](uint32(el.NumVertices))
						ranks, iters, _, err = partition.RunPersonalizedPageRank(ctx, ps, bs, sources, ro, ex, false, 2)
						require.NoError(t, err, "%s round %d ppr", tag, round)
						require.NoError(t, apps.ValidatePPR(g, sources, opts, ranks), "%s round %d ppr", tag, round)
						_, wantPPR := ref.PersonalizedPageRank(g, sources, ref.PageRankOptions{Damping: opts.Damping, Tolerance: opts.Tolerance, MaxIterations: opts.MaxIterations})
						require.Equal(t, wantPPR, iters, "%s round %d ppr", tag, round)
						// Who-to-follow: its personalised PageRank on the same held
						// state, from the first source.
						wopts := ref.DefaultWTFOptions()
						rec, _, err := partition.RunWhoToFollow(ctx, ps, bs, sources[0], wopts, ex, false, 2)
						require.NoError(t, err, "%s round %d wtf", tag, round)
						require.NoError(t, apps.ValidateWTF(g, sources[0], wopts, rec), "%s round %d wtf", tag, round)
						// HITS and SALSA on the same held state.
						for _, salsa := range []bool{false, true} {
							refRun := ref.HITS
							if salsa {
								refRun = ref.SALSA
							}
							const maxIter, tol = 100, 1e-9
							_, _, wantIters := refRun(g, maxIter, tol)
							hubs, auth, iters, st, err := partition.RunHITS(ctx, ps, bs, salsa, maxIter, tol, ex, false, 2)
							require.NoError(t, err, "%s round %d salsa=%v", tag, round, salsa)
							require.NoError(t, apps.ValidateHubsAuthorities(g, salsa, maxIter, tol, hubs, auth), "%s round %d salsa=%v", tag, round, salsa)
							require.Equal(t, wantIters, iters, "%s round %d salsa=%v", tag, round, salsa)
							require.Equal(t, iters, st.Supersteps, tag)
						}
					}
				}
			}
		}
	}
}
