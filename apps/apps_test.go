package apps_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mgraph-dev/mgraph/internal/testgraphs"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/format"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/require"
)

var modes = []engine.Mode{engine.Hybrid, engine.Dense, engine.Sparse, engine.Async, engine.Auto, engine.Pull}

// backends builds the forward backend and, for directed graphs, the
// backend over the transpose.
func backends(t testing.TB, el *graph.EdgeList, p layout.Params) (fwd, bwd *cpu.Backend) {
	fwd, bwd, err := buildBackends(el, p)
	require.NoError(t, err)
	return fwd, bwd
}

// buildBackends is backends returning its error.
func buildBackends(el *graph.EdgeList, p layout.Params) (fwd, bwd *cpu.Backend, err error) {
	ctx := context.Background()
	l, err := preprocess.Build(ctx, el, p, preprocess.Options{Workers: 2})
	if err != nil {
		return nil, nil, err
	}
	if fwd, err = cpu.New(l, 2); err != nil {
		return nil, nil, err
	}
	bwd = fwd
	if el.Directed {
		tr := el.Clone()
		tr.Transpose()
		lt, err := preprocess.Build(ctx, tr, p, preprocess.Options{Workers: 2})
		if err != nil {
			return nil, nil, err
		}
		if bwd, err = cpu.New(lt, 2); err != nil {
			return nil, nil, err
		}
	}
	return fwd, bwd, nil
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
	require.NoError(t, checkGraph(el, p))
}

// checkGraphCases is checkAll returning the first disagreement as an
// error naming the app, mode and source (the stress test minimises graphs
// with it), and the number of app × mode × source cases it validated.
func checkGraphCases(el *graph.EdgeList, p layout.Params) (int, error) {
	cases := 0
	ctx := context.Background()
	weighted := el.Clone()
	if !weighted.Weighted() {
		weighted.SetRandomWeights(9, 1, 64, 2)
	}
	// Float32 weights: the graph's own as floats (the extremes included),
	// or random ones in (0, 1] whose sums round.
	fweighted := el.Clone()
	if fweighted.Weighted() {
		if err := fweighted.ConvertWeights(graph.Float32Weights, 2); err != nil {
			return cases, err
		}
	} else {
		fweighted.SetRandomFloat32Weights(9, 2)
	}
	if weighted.WeightKind == graph.Float32Weights {
		if err := weighted.ConvertWeights(graph.Uint32Weights, 2); err != nil {
			weighted.SetRandomWeights(9, 1, 64, 2) // not integers: random ones for the uint32 sssp
		}
	}
	sym := el.Clone()
	sym.Symmetrize(2)
	fwd, bwd, err := buildBackends(el, p)
	if err != nil {
		return cases, err
	}
	wfwd, _, err := buildBackends(weighted, p)
	if err != nil {
		return cases, err
	}
	ffwd, _, err := buildBackends(fweighted, p)
	if err != nil {
		return cases, err
	}
	fg := apps.OriginalCSR(ffwd.Layout(), 2)
	sfwd, _, err := buildBackends(sym, p)
	if err != nil {
		return cases, err
	}
	g := apps.OriginalCSR(fwd.Layout(), 2)
	wg := apps.OriginalCSR(wfwd.Layout(), 2)
	sg := apps.OriginalCSR(sfwd.Layout(), 2)
	n := el.NumVertices
	pr := apps.DefaultPageRankOptions()
	prDelta := pr
	prDelta.MaxIterations = 0
	// check wraps a run's error, or its validation's, with its tag.
	check := func(tag string, runErr, valErr func() error) error {
		if err := runErr(); err != nil {
			return fmt.Errorf("%s: %w", tag, err)
		}
		if err := valErr(); err != nil {
			return fmt.Errorf("%s: %w", tag, err)
		}
		cases++
		return nil
	}

	results := map[string][]any{}
	for _, mode := range modes {
		opts := engine.RunOptions{Mode: mode, Seed: 5}
		tag := func(app string) string { return fmt.Sprintf("%s/%s", app, mode) }
		for _, s := range sourcesOf(n) {
			stag := func(app string) string { return fmt.Sprintf("%s/source %d", tag(app), s) }
			var levels, parents, dist []uint32
			if err := check(stag("bfs"), func() (err error) { levels, _, err = apps.BFS(ctx, fwd, s, opts); return },
				func() error { return apps.ValidateBFS(g, s, levels) }); err != nil {
				return cases, err
			}
			results["bfs"] = append(results["bfs"], slices.Clone(levels)) // a backend may reuse its result buffer
			if err := check(stag("bfs-tree"), func() (err error) { parents, _, err = apps.BFSParents(ctx, fwd, s, opts); return },
				func() error { return apps.ValidateBFSTree(g, s, parents) }); err != nil {
				return cases, err
			}
			results["bfs-tree"] = append(results["bfs-tree"], parents)
			if err := check(stag("sssp"), func() (err error) { dist, _, err = apps.SSSP(ctx, wfwd, s, opts); return },
				func() error { return apps.ValidateSSSP(wg, s, dist) }); err != nil {
				return cases, err
			}
			results["sssp"] = append(results["sssp"], slices.Clone(dist))
			var fdist []float32
			if err := check(stag("sssp-float32"), func() (err error) { fdist, _, err = apps.SSSPFloat32(ctx, ffwd, s, opts); return },
				func() error { return apps.ValidateSSSPFloat32(fg, s, fdist) }); err != nil {
				return cases, err
			}
			results["sssp-float32"] = append(results["sssp-float32"], slices.Clone(fdist))
		}
		var labels, lpLabels []uint32
		if err := check(tag("cc"), func() (err error) { labels, _, err = apps.CC(ctx, sfwd, opts); return },
			func() error { return apps.ValidateCC(sg, labels) }); err != nil {
			return cases, err
		}
		results["cc"] = append(results["cc"], slices.Clone(labels))
		if err := check(tag("cc-lp"), func() (err error) { lpLabels, _, err = apps.CCLabels(ctx, sfwd, opts); return },
			func() error {
				if !slices.Equal(labels, lpLabels) {
					return fmt.Errorf("label propagation and hooking disagree")
				}
				return nil
			}); err != nil {
			return cases, err
		}

		var ranks, dranks, bc []float64
		if mode == engine.Pull { // pr pulls; pr-delta and bc refuse it
			if err := check(tag("pr"), func() (err error) { ranks, _, err = apps.PageRank(ctx, fwd, pr, opts); return },
				func() error { return apps.ValidatePageRank(g, pr, ranks) }); err != nil {
				return cases, err
			}
			_, _, err1 := apps.PageRankDelta(ctx, fwd, prDelta, opts)
			_, _, err2 := apps.BC(ctx, fwd, bwd, []uint32{0}, opts)
			for i, err := range []error{err1, err2} {
				if !errors.Is(err, engine.ErrPullMode) {
					return cases, fmt.Errorf("%s: app %d of pr-delta, bc: want ErrPullMode, got %v", tag("sum apps"), i, err)
				}
			}
			continue
		}
		if err := check(tag("pr-delta"), func() (err error) { dranks, _, err = apps.PageRankDelta(ctx, fwd, prDelta, opts); return },
			func() error { return apps.ValidatePageRankDelta(g, prDelta, dranks) }); err != nil {
			return cases, err
		}
		if mode == engine.Async { // pr refuses it
			if _, _, err := apps.PageRank(ctx, fwd, pr, opts); !errors.Is(err, engine.ErrNotMonotone) {
				return cases, fmt.Errorf("%s: want ErrNotMonotone, got %v", tag("pr"), err)
			}
		} else if err := check(tag("pr"), func() (err error) { ranks, _, err = apps.PageRank(ctx, fwd, pr, opts); return },
			func() error { return apps.ValidatePageRank(g, pr, ranks) }); err != nil {
			return cases, err
		}
		if srcs := sourcesOf(n); len(srcs) > 0 {
			if err := check(tag("bc"), func() (err error) { bc, _, err = apps.BC(ctx, fwd, bwd, srcs, opts); return },
				func() error { return apps.ValidateBC(g, srcs, bc) }); err != nil {
				return cases, err
			}
		}
	}
	// Min-style results are exact, so the modes must agree exactly.
	for app, rs := range results {
		per := len(rs) / len(modes)
		for i := per; i < len(rs); i++ {
			if !equalResults(rs[i%per], rs[i]) {
				return cases, fmt.Errorf("%s: mode %s differs from hybrid", app, modes[i/per])
			}
		}
	}
	return cases, nil
}

// equalResults reports whether two min-style results ([]uint32 or
// []float32, compared bit for bit) are equal.
func equalResults(a, b any) bool {
	switch x := a.(type) {
	case []uint32:
		return slices.Equal(x, b.([]uint32))
	case []float32:
		y := b.([]float32)
		return len(x) == len(y) && slices.EqualFunc(x, y, func(p, q float32) bool { return math.Float32bits(p) == math.Float32bits(q) })
	}
	return false
}

// checkGraph is checkGraphCases without the count.
func checkGraph(el *graph.EdgeList, p layout.Params) error {
	_, err := checkGraphCases(el, p)
	return err
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
	_, _, err = apps.SSSPFloat32(ctx, fwd, 0, engine.RunOptions{})
	require.ErrorContains(t, err, "needs edge weights")
	fel := testgraphs.Undirected(4, [2]uint32{0, 1})
	fel.SetRandomFloat32Weights(1, 1)
	ffwd, _ := backends(t, fel, testgraphs.SmallParams())
	_, _, err = apps.SSSP(ctx, ffwd, 0, engine.RunOptions{})
	require.ErrorIs(t, err, apps.ErrFloat32Weights)
	require.ErrorContains(t, err, "use SSSPFloat32")
	_, _, err = apps.SSSPOps(ctx, ffwd, 0, apps.OpsOptions{})
	require.ErrorIs(t, err, apps.ErrFloat32Weights)
	_, _, err = apps.MultiSourceSSSP(ctx, ffwd, []uint32{0}, apps.OpsOptions{})
	require.ErrorIs(t, err, apps.ErrFloat32Weights)
	_, _, _, err = apps.MSF(ctx, ffwd, apps.OpsOptions{})
	require.ErrorContains(t, err, "float32 weights are not supported")
	wel := testgraphs.Undirected(4, [2]uint32{0, 1})
	wel.SetRandomWeights(1, 1, 9, 1)
	wfwd, _ := backends(t, wel, testgraphs.SmallParams())
	_, _, err = apps.SSSPFloat32(ctx, wfwd, 0, engine.RunOptions{})
	require.ErrorContains(t, err, "weights are uint32, not float32")
	_, _, err = apps.MultiSourceSSSPFloat32(ctx, wfwd, []uint32{0}, apps.OpsOptions{})
	require.ErrorContains(t, err, "weights are uint32, not float32")
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
