package gpu_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/stretchr/testify/require"
)

// TestModePull runs the min programs with --mode pull on the device (every
// iteration a pull step: BFS's bottom-up one, the others' over every
// in-arc) on every shape, directed and symmetrized, against the CPU
// backend and the references (a weighted pull on a directed layout over
// the in-arcs' weights, made on first use); the sum programs are refused.
func TestModePull(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	pull := engine.RunOptions{Mode: engine.Pull, Trace: true}
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		sym := s.EL.Clone()
		sym.Symmetrize(4)
		for _, el := range []*graph.EdgeList{s.EL, sym} {
			weighted, fweighted := weightedCopies(t, el)
			for _, c := range []struct {
				app string
				el  *graph.EdgeList
			}{{"bfs", el}, {"bfs-tree", el}, {"sssp", weighted}, {"sssp", fweighted}, {"cc-lp", el}} {
				if c.app == "cc-lp" && el.Directed {
					continue // components of an undirected graph
				}
				l := build(t, c.el, testgraphs.SmallParams())
				g := apps.OriginalCSR(l, 4)
				cb, err := cpu.New(l, 4)
				require.NoError(t, err)
				gb, err := gpu.New(l, 4)
				require.NoError(t, err)
				for _, src := range sourcesOf(l.NumVertices) {
					tag := fmt.Sprintf("%s/%s/directed=%v/weights %v/source %d", s.Name, c.app, el.Directed, l.WeightKind, src)
					want, _, err := apps.Run(ctx, c.app, cb, cb, []uint32{src}, apps.PageRankOptions{}, engine.RunOptions{})
					require.NoError(t, err, tag)
					got, res, err := apps.Run(ctx, c.app, gb, gb, []uint32{src}, apps.PageRankOptions{}, pull)
					require.NoError(t, err, tag)
					require.Equal(t, want, got, tag+": differs from the CPU backend")
					switch c.app {
					case "bfs":
						require.NoError(t, apps.ValidateBFS(g, src, got.([]uint32)), tag)
					case "cc-lp":
						require.NoError(t, apps.ValidateCC(g, got.([]uint32)), tag)
					}
					for _, tr := range res.Trace {
						require.Equal(t, "pull", tr.Mode, tag)
					}
				}
				for _, app := range []string{"pr-delta", "bc"} {
					_, _, err := apps.Run(ctx, app, gb, gb, []uint32{0}, apps.DefaultPageRankOptions(), pull)
					if l.NumVertices > 0 {
						require.True(t, errors.Is(err, engine.ErrPullMode), "%s: %v", app, err)
					}
				}
				ranks, _, err := apps.PageRank(ctx, gb, apps.DefaultPageRankOptions(), pull) // the pull scheme
				require.NoError(t, err)
				require.NoError(t, apps.ValidatePageRank(g, apps.DefaultPageRankOptions(), ranks))
				require.NoError(t, gb.Close())
			}
		}
	}
}
