package apps_test

import (
	"context"
	"fmt"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"path/filepath"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/format"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/require"
)

var modes = []engine.Mode{engine.Hybrid, engine.Dense, engine.Sparse, engine.Async, engine.Auto}

// backends builds the forward backend and, for directed graphs, the
// backend over the transpose; withWeights adds weights first.
func backends(t testing.TB, el *graph.EdgeList, p layout.Params) (fwd, bwd *cpu.Backend) {
	ctx := context.Background()
	l, err := preprocess.Build(ctx, el, p, preprocess.Options{Workers: 2})
	require.NoError(t, err)
	fwd, err = cpu.New(l, 2)
	require.NoError(t, err)
	bwd = fwd
	if el.Directed {
		tr := el.Clone()
		tr.Transpose()
		lt, err := preprocess.Build(ctx, tr, p, preprocess.Options{Workers: 2})
		require.NoError(t, err)
		bwd, err = cpu.New(lt, 2)
		require.NoError(t, err)
	}
	return fwd, bwd
}

// sourcesOf picks up to three sources spread over the vertex ids.
func sourcesOf(n uint64) []uint32 {
	if n == 0 {
		return nil
	}
	return []uint32{0, uint32(n / 2), uint32(n - 1)}
}

// checkAll runs every app in every mode on el and validates each result
// against the reference; it also checks the modes agree with each other.
func checkAll(t *testing.T, el *graph.EdgeList, p layout.Params) {
	ctx := context.Background()
	weighted := el.Clone()
	weighted.SetRandomWeights(9, 1, 64, 2)
	fwd, bwd := backends(t, el, p)
	wfwd, _ := backends(t, weighted, p)
	g := apps.OriginalCSR(fwd.Layout(), 2)
	wg := apps.OriginalCSR(wfwd.Layout(), 2)
	sym := el.Clone()
	sym.Symmetrize(2)
	sfwd, _ := backends(t, sym, p)
	sg := apps.OriginalCSR(sfwd.Layout(), 2)
	n := el.NumVertices
	pr := apps.DefaultPageRankOptions()
	prDelta := pr
	prDelta.MaxIterations = 0

	results := map[string][]any{}
	for _, mode := range modes {
		opts := engine.RunOptions{Mode: mode, Seed: 5}
		tag := func(app string) string { return fmt.Sprintf("%s/%s", app, mode) }
		for _, s := range sourcesOf(n) {
			levels, _, err := apps.BFS(ctx, fwd, s, opts)
			require.NoError(t, err, tag("bfs"))
			require.NoError(t, apps.ValidateBFS(g, s, levels), tag("bfs"))
			results["bfs"] = append(results["bfs"], levels)

			parents, _, err := apps.BFSParents(ctx, fwd, s, opts)
			require.NoError(t, err, tag("bfs-tree"))
			require.NoError(t, apps.ValidateBFSTree(g, s, parents), tag("bfs-tree"))
			results["bfs-tree"] = append(results["bfs-tree"], parents)

			dist, _, err := apps.SSSP(ctx, wfwd, s, opts)
			require.NoError(t, err, tag("sssp"))
			require.NoError(t, apps.ValidateSSSP(wg, s, dist), tag("sssp"))
			results["sssp"] = append(results["sssp"], dist)
		}
		labels, _, err := apps.CC(ctx, sfwd, opts)
		require.NoError(t, err, tag("cc"))
		require.NoError(t, apps.ValidateCC(sg, labels), tag("cc"))
		results["cc"] = append(results["cc"], labels)
		lpLabels, _, err := apps.CCLabels(ctx, sfwd, opts)
		require.NoError(t, err, tag("cc-lp"))
		require.Equal(t, labels, lpLabels, tag("cc-lp")+": label propagation and hooking disagree")

		if mode == engine.Async { // pr and (on the CPU) bc refuse it
			_, _, err := apps.PageRank(ctx, fwd, pr, opts)
			require.ErrorIs(t, err, engine.ErrNotMonotone, tag("pr"))
			dranks, _, err := apps.PageRankDelta(ctx, fwd, prDelta, opts)
			require.NoError(t, err, tag("pr-delta"))
			require.NoError(t, apps.ValidatePageRankDelta(g, prDelta, dranks), tag("pr-delta"))
			_, _, err = apps.BC(ctx, fwd, bwd, []uint32{0}, opts)
			require.ErrorIs(t, err, engine.ErrNotMonotone, tag("bc"))
			continue
		}
		ranks, _, err := apps.PageRank(ctx, fwd, pr, opts)
		require.NoError(t, err, tag("pr"))
		require.NoError(t, apps.ValidatePageRank(g, pr, ranks), tag("pr"))

		dranks, _, err := apps.PageRankDelta(ctx, fwd, prDelta, opts)
		require.NoError(t, err, tag("pr-delta"))
		require.NoError(t, apps.ValidatePageRankDelta(g, prDelta, dranks), tag("pr-delta"))

		if srcs := sourcesOf(n); len(srcs) > 0 {
			bc, _, err := apps.BC(ctx, fwd, bwd, srcs, opts)
			require.NoError(t, err, tag("bc"))
			require.NoError(t, apps.ValidateBC(g, srcs, bc), tag("bc"))
		}
	}
	// Min-style results are exact, so the modes must agree exactly.
	for app, rs := range results {
		per := len(rs) / len(modes)
		for i := per; i < len(rs); i++ {
			require.Equal(t, rs[i%per], rs[i], "%s: mode %s differs from hybrid", app, modes[i/per])
		}
	}
}

func TestAppsAllModesAllShapes(t *testing.T) {
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		t.Run(s.Name, func(t *testing.T) {
			checkAll(t, s.EL, testgraphs.SmallParams())
			if s.EL.NumArcs() > 1000 {
				checkAll(t, s.EL, layout.DefaultParams())
			}
		})
	}
}

func TestAppsOnDatasets(t *testing.T) {
	if testing.Short() {
		t.Skip("datasets: skipped in -short")
	}
	dir := filepath.Join("..", "..", "shared", "datasets")
	files, _ := filepath.Glob(filepath.Join(dir, "*.mtx.zst"))
	if len(files) == 0 {
		t.Skipf("no datasets in %s", dir)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			el, _, err := format.ReadFile(context.Background(), f, format.ReadOptions{})
			require.NoError(t, err)
			checkAll(t, el, layout.DefaultParams())
		})
	}
}

func TestBadArguments(t *testing.T) {
	ctx := context.Background()
	fwd, _ := backends(t, testgraphs.Undirected(4, [2]uint32{0, 1}), testgraphs.SmallParams())
	_, _, err := apps.BFS(ctx, fwd, 4, engine.RunOptions{})
	require.ErrorContains(t, err, "source 4 is not a vertex")
	_, _, err = apps.SSSP(ctx, fwd, 0, engine.RunOptions{})
	require.ErrorContains(t, err, "needs edge weights")
	dir := &graph.EdgeList{NumVertices: 2, Directed: true, Src: []uint32{0}, Dst: []uint32{1}}
	dfwd, _ := backends(t, dir, testgraphs.SmallParams())
	_, _, err = apps.CC(ctx, dfwd, engine.RunOptions{})
	require.ErrorContains(t, err, "undirected")
	_, _, err = apps.BC(ctx, dfwd, dfwd, []uint32{0}, engine.RunOptions{})
	require.ErrorContains(t, err, "transpose")
	_, _, err = apps.PageRank(ctx, fwd, apps.PageRankOptions{Damping: 1.5}, engine.RunOptions{})
	require.ErrorContains(t, err, "damping")
}

// TestBFSDepthLimit: an iteration cap is a depth limit for bfs and
// bfs-tree in every synchronous mode (and auto, which then stays
// synchronous); mode async refuses it rather than ignore it.
func TestBFSDepthLimit(t *testing.T) {
	ctx := context.Background()
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		fwd, _ := backends(t, s.EL, testgraphs.SmallParams())
		g := apps.OriginalCSR(fwd.Layout(), 2)
		for _, src := range sourcesOf(s.EL.NumVertices) {
			for _, depth := range []int{1, 2, 5} {
				for _, mode := range modes {
					tag := fmt.Sprintf("%s/source %d/depth %d/%s", s.Name, src, depth, mode)
					opts := engine.RunOptions{Mode: mode, MaxIterations: depth}
					levels, _, err := apps.BFS(ctx, fwd, src, opts)
					parents, _, perr := apps.BFSParents(ctx, fwd, src, opts)
					if mode == engine.Async {
						require.ErrorContains(t, err, "no iterations to cap", tag)
						require.ErrorContains(t, perr, "no iterations to cap", tag)
						continue
					}
					require.NoError(t, err, tag)
					require.NoError(t, apps.ValidateBFSWithin(g, src, depth, levels), tag)
					require.NoError(t, perr, tag)
					require.NoError(t, apps.ValidateBFSTreeWithin(g, src, depth, parents), tag)
				}
			}
		}
	}
}
