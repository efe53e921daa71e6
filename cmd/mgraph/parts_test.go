package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// partitionedBackends is the flags of the partitioned runs the tests try:
// CPU parts and, where a GPU is visible, parts on one GPU and a part per
// GPU, each with the exchange on the devices and through the host.
func partitionedBackends() [][]string {
	backends := [][]string{{"--backend", "cpu", "--parts", "3"}}
	if gpu.Available() {
		backends = append(backends, []string{"--backend", "cuda", "--parts", "2"}, []string{"--gpus", "all"},
			[]string{"--backend", "cuda", "--parts", "3", "--exchange", "host"}, []string{"--gpus", "all", "--exchange", "host"})
	}
	return backends
}

// TestRunPartitioned: bfs, bfs-tree, sssp, cc, pr, pr-delta, ppr, hits,
// salsa, wtf, tc, kcore, mis, color and msf partitioned into parts (on
// the CPU, and on the GPU where one is visible) validate and write what
// the unpartitioned run writes (the scores, bfs-tree's parents, the set,
// the colours and the forest validated, not byte-equal).
func TestRunPartitioned(t *testing.T) {
	dir := t.TempDir()
	backends := partitionedBackends()
	for _, app := range []string{"bfs", "bfs-tree", "sssp", "cc", "pr", "pr-delta", "ppr", "hits", "salsa", "wtf", "tc", "kcore", "mis", "color", "msf"} {
		common := []string{"run", app, "rmat:11:8", "--undirected", "--weights", "3", "--source", "7", "--cache-dir", dir,
			"--threads", "2", "--panel-size", "64"}
		want := filepath.Join(dir, app+".tsv")
		code, _, errOut := mgraph(t, append(common, "--backend", "cpu", "--out", want)...)
		require.Equal(t, 0, code, errOut)
		wantData, err := os.ReadFile(want)
		require.NoError(t, err)
		for _, b := range backends {
			if app == "pr-delta" && slices.Contains(b, "host") {
				continue // on the devices only (TestRunPartitionedBadFlags)
			}
			for _, method := range []string{"brp", "random", "balanced", "static"} {
				got := filepath.Join(dir, app+"-parts.tsv")
				args := append(append(append([]string{}, common...), b...), "--partition", method, "--validate", "--out", got, "--trials", "2")
				code, out, errOut := mgraph(t, args...)
				require.Equal(t, 0, code, "%v: %s", args, errOut)
				assert.Contains(t, out, "validation: ok")
				assert.Contains(t, out, "parts on")
				assert.Regexp(t, "partitioned into|cached partition:", errOut) // the parts are cached after the first app
				gotData, err := os.ReadFile(got)
				require.NoError(t, err)
				if slices.Contains([]string{"pr", "pr-delta", "ppr", "hits", "salsa", "wtf", "bfs-tree", "mis", "color", "msf"}, app) { // scores added in another order, parents broken ties otherwise, priorities over other ids: validated, not byte-equal
					require.Equal(t, strings.Count(string(wantData), "\n"), strings.Count(string(gotData), "\n"), "%v", args)
					continue
				}
				require.Equal(t, string(wantData), string(gotData), "%v", args)
			}
		}
	}
}

// TestRunPartitionedBC: bc over parts, undirected and directed, from one
// source and from several, validates and writes as many scores as the
// unpartitioned run; every partitioner runs it, over CPU parts and, where
// a GPU is visible, over GPU parts (parts on one GPU, a part per GPU, each
// with the exchange on the devices and through the host).
func TestRunPartitionedBC(t *testing.T) {
	dir := t.TempDir()
	backends := partitionedBackends()
	for _, c := range [][]string{
		{"rmat:11:8", "--undirected", "--source", "7"},
		{"rmat:10:8", "--sources", "3"},
	} {
		common := append([]string{"run", "bc"}, c...)
		common = append(common, "--cache-dir", dir, "--threads", "2", "--panel-size", "64")
		want := filepath.Join(dir, "bc.tsv")
		code, _, errOut := mgraph(t, append(common, "--backend", "cpu", "--out", want)...)
		require.Equal(t, 0, code, errOut)
		wantData, err := os.ReadFile(want)
		require.NoError(t, err)
		for _, b := range backends {
			for _, method := range []string{"brp", "random", "balanced", "static"} {
				got := filepath.Join(dir, "bc-parts.tsv")
				args := append(append(append([]string{}, common...), b...), "--partition", method, "--validate", "--out", got,
					"--trials", "2")
				code, out, errOut := mgraph(t, args...)
				require.Equal(t, 0, code, "%v: %s", args, errOut)
				assert.Contains(t, out, "validation: ok", "%v", args)
				assert.Contains(t, out, "parts on", "%v", args)
				if b[1] == "cpu" {
					assert.Contains(t, out, "3 parts on CPU", "%v", args)
				}
				assert.NotContains(t, errOut, "transposed", "%v", args)
				gotData, err := os.ReadFile(got)
				require.NoError(t, err)
				// The parts sum the path counts in another order: validated,
				// not byte-equal.
				require.Equal(t, strings.Count(string(wantData), "\n"), strings.Count(string(gotData), "\n"), "%v", args)
			}
		}
	}
	code, _, errOut := mgraph(t, "run", "bc", "rmat:8", "--undirected", "--parts", "2", "--backend", "cpu", "--mode", "pull",
		"--cache-dir", dir)
	require.Equal(t, 1, code, errOut)
	assert.Contains(t, errOut, "bc: mode pull runs the min programs")
}

// TestRunPartitionedBCNoGPU: without a GPU, bc over GPU parts (--gpus,
// --backend cuda --parts) is refused as every partitioned app is: the
// build has no CUDA, or no GPU is visible.
func TestRunPartitionedBCNoGPU(t *testing.T) {
	if gpu.Available() {
		t.Skip("a GPU is visible: TestRunPartitionedBC runs bc over GPU parts")
	}
	want := "GPUs visible"
	if !cuda.BuiltWithCUDA() {
		want = "built without CUDA"
	}
	dir := t.TempDir()
	for _, args := range [][]string{
		{"run", "bc", "rmat:8", "--gpus", "1"},
		{"run", "bc", "rmat:8", "--backend", "cuda", "--parts", "2"},
	} {
		code, _, errOut := mgraph(t, append(args, "--cache-dir", dir)...)
		assert.Equal(t, 1, code, "%v: %s", args, errOut)
		assert.Contains(t, errOut, want, "%v", args)
		assert.NotContains(t, errOut, "CPU parts only", "%v", args)
	}
}

// TestRunPartitionedBadFlags: what a partitioned run refuses, exit 2.
func TestRunPartitionedBadFlags(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"run", "tc", "rmat:8", "--parts", "2", "--engine", "operators"}, "not the operators"},
		{[]string{"run", "bfs", "rmat:8", "--parts", "-1"}, "--parts -1"},
		{[]string{"run", "bfs", "rmat:8", "--parts", "2", "--mode", "async"}, "async"},
		{[]string{"run", "bfs", "rmat:8", "--parts", "2", "--partition", "metis"}, "--partition"},
		{[]string{"run", "bfs", "rmat:8", "--parts", "2", "--engine", "operators"}, "not the operators"},
		{[]string{"run", "bfs", "rmat:8", "--gpus", "2", "--backend", "cpu"}, "--gpus with --backend cpu"},
		{[]string{"run", "bfs", "rmat:8", "--gpus", "none"}, "--gpus \"none\""},
		{[]string{"run", "bfs", "rmat:8", "--parts", "2", "--exchange", "wire"}, "--exchange \"wire\""},
		{[]string{"run", "pr-delta", "rmat:8", "--gpus", "2", "--exchange", "host"}, "on the devices only"},
		{[]string{"run", "kcore", "rmat:8", "--undirected", "--parts", "2", "--lb", "twc"}, "--lb is the operators'"},
	} {
		code, _, errOut := mgraph(t, append(c.args, "--cache-dir", dir)...)
		assert.Equal(t, 2, code, "%v: %s", c.args, errOut)
		assert.Contains(t, errOut, c.msg, "%v", c.args)
	}
}

// TestRunPartitionedCached: a partitioned run caches its parts beside the
// layout; the next run takes them from there and writes the same result;
// a corrupt tables file is reported and the graph partitioned again.
func TestRunPartitionedCached(t *testing.T) {
	dir := t.TempDir()
	args := []string{"run", "sssp", "rmat:10:8", "--undirected", "--weights", "3", "--source", "5", "--cache-dir", dir,
		"--threads", "2", "--panel-size", "64", "--parts", "3", "--partition", "random", "--validate"}
	first, second := filepath.Join(dir, "first.tsv"), filepath.Join(dir, "second.tsv")
	code, out, errOut := mgraph(t, append(args, "--out", first)...)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "validation: ok")
	assert.Contains(t, errOut, "partitioned into")
	assert.Contains(t, errOut, "cached 3 parts")
	tables, err := filepath.Glob(filepath.Join(dir, "*"+partition.TablesExt))
	require.NoError(t, err)
	require.Len(t, tables, 3)
	code, out, errOut = mgraph(t, append(args, "--out", second)...)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "validation: ok")
	assert.Contains(t, errOut, "cached partition:")
	assert.NotContains(t, errOut, "partitioned into")
	a, err := os.ReadFile(first)
	require.NoError(t, err)
	b, err := os.ReadFile(second)
	require.NoError(t, err)
	require.Equal(t, string(a), string(b))
	// Flip a byte of one part's tables: the checksum catches it.
	data, err := os.ReadFile(tables[1])
	require.NoError(t, err)
	data[len(data)/2] ^= 0xff
	require.NoError(t, os.WriteFile(tables[1], data, 0o644))
	code, out, errOut = mgraph(t, append(args, "--out", second)...)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "validation: ok")
	assert.Contains(t, errOut, "checksum")
	assert.Contains(t, errOut, "partitioned into")
	// Another partitioner or part count is another entry.
	code, _, errOut = mgraph(t, append(args[:len(args)-1], "--partition", "static", "--out", second)...)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "partitioned into")
}

// TestRunModePull: --mode pull runs the min programs with a pull step
// every iteration and PageRank by pulls (validated); pr-delta refuses it,
// naming the app once.
func TestRunModePull(t *testing.T) {
	dir := t.TempDir()
	for _, app := range []string{"bfs", "bfs-tree", "sssp", "cc-lp", "pr"} {
		code, out, errOut := mgraph(t, "run", app, "rmat:10:8", "--undirected", "--weights", "3", "--mode", "pull",
			"--backend", "cpu", "--validate", "--cache-dir", dir, "--trials", "2")
		require.Equal(t, 0, code, "%s: %s", app, errOut)
		assert.Contains(t, out, "validation: ok", app)
		assert.Contains(t, out, ", pull:", app)
	}
	code, _, errOut := mgraph(t, "run", "pr-delta", "rmat:10:8", "--undirected", "--mode", "pull", "--backend", "cpu", "--cache-dir", dir)
	require.Equal(t, 1, code)
	assert.Contains(t, errOut, "pr-delta: mode pull runs the min programs")
	assert.NotContains(t, errOut, "pr-delta: pr-delta:")
}

// TestRunPartitionedNoWholeLayout: a partitioned run builds its parts from
// the graph as read (no whole layout is preprocessed, or loaded from the
// cache, or cached), picks the sources the unpartitioned run picks and
// writes what it writes; a second run loads the parts alone; an app that
// needs an undirected graph reads a directed one symmetrized, cached
// under its own key; a layout file is partitioned from its graph in
// original ids.
func TestRunPartitionedNoWholeLayout(t *testing.T) {
	dir := t.TempDir()
	cacheDir := filepath.Join(dir, "cache")
	for _, c := range []struct {
		app   string
		input []string
	}{
		{"bfs", []string{"rmat:10:8", "--undirected"}},    // random sources of out-degree > 0
		{"sssp", []string{"rmat:10:8", "--weights", "5"}}, // directed
		{"cc", []string{"rmat:9:8"}},                      // directed: symmetrized
	} {
		common := append(append([]string{"run", c.app}, c.input...), "--threads", "2", "--panel-size", "64", "--trials", "3")
		want := filepath.Join(dir, c.app+".tsv")
		code, _, errOut := mgraph(t, append(common, "--backend", "cpu", "--no-cache", "--out", want)...)
		require.Equal(t, 0, code, errOut)
		wantData, err := os.ReadFile(want)
		require.NoError(t, err)
		got := filepath.Join(dir, c.app+"-parts.tsv")
		parted := append(common, "--backend", "cpu", "--parts", "2", "--validate", "--cache-dir", cacheDir, "--out", got)
		cuts := map[string]bool{} // the arcs cut, counted by the split, then kept in the tables
		for run, how := range []string{"partitioned into", "cached partition:"} {
			code, out, errOut := mgraph(t, parted...)
			cuts[regexp.MustCompile(`[0-9.]+% of the arcs cut`).FindString(errOut)] = true
			require.Equal(t, 0, code, "%s run %d: %s", c.app, run, errOut)
			assert.Contains(t, out, "validation: ok", c.app)
			assert.Contains(t, errOut, how, "%s run %d", c.app, run)
			assert.NotContains(t, errOut, "preprocessed", "%s run %d: no whole layout", c.app, run)
			assert.NotContains(t, errOut, "cached layout", "%s run %d: no whole layout", c.app, run)
			if c.app == "cc" {
				assert.Contains(t, errOut, "the graph is directed; using its symmetrized layout", c.app)
			}
			gotData, err := os.ReadFile(got)
			require.NoError(t, err)
			require.Equal(t, string(wantData), string(gotData), "%s run %d", c.app, run)
		}
		assert.Len(t, cuts, 1, "%s: %v", c.app, cuts)
		assert.NotContains(t, cuts, "", c.app)
	}
	// The cache holds the parts' layouts and tables, not the whole graph's.
	layouts, err := filepath.Glob(filepath.Join(cacheDir, "*.mgl"))
	require.NoError(t, err)
	tables, err := filepath.Glob(filepath.Join(cacheDir, "*"+partition.TablesExt))
	require.NoError(t, err)
	assert.Len(t, tables, 6)
	assert.Len(t, layouts, len(tables))

	mgl := filepath.Join(dir, "g.mgl")
	code, _, errOut := mgraph(t, "preprocess", "rmat:10:8", "--undirected", "--panel-size", "64", "-o", mgl)
	require.Equal(t, 0, code, errOut)
	code, out, errOut := mgraph(t, "run", "bfs", mgl, "--parts", "3", "--backend", "cpu", "--source", "3", "--validate")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "validation: ok")
	assert.Contains(t, errOut, "graph in original ids")
}

// splitForBuild returns a function that splits the symmetrized, weighted
// generator spec into parts random parts (afresh at each call, with their
// arcs), and the layouts partition.BuildLayouts builds of them.
func splitForBuild(t *testing.T, spec string, parts int) (func() []*partition.Part, []*layout.Layout) {
	t.Helper()
	ctx := context.Background()
	el := testgraphs.Generated(t, spec, 1)
	el.Symmetrize(2)
	el.SetRandomWeights(3, 1, 64, 2)
	owner, err := partition.Assign(ctx, el, partition.Options{Method: partition.Random, Parts: parts, Seed: 1})
	require.NoError(t, err)
	split := func() []*partition.Part {
		ps, err := partition.Split(ctx, el, owner, parts)
		require.NoError(t, err)
		return ps
	}
	want, err := partition.BuildLayouts(ctx, split(), testgraphs.SmallParams(), preprocess.Options{Workers: 2})
	require.NoError(t, err)
	return split, want
}

// TestBuildPartLayoutsReleasesEachPart: buildPartLayouts lets each part's
// arcs go once its layout is built (while the next part builds, every
// earlier part's list is gone, so that preprocess's collections reclaim
// it), and builds the layouts partition.BuildLayouts builds.
func TestBuildPartLayoutsReleasesEachPart(t *testing.T) {
	ctx := context.Background()
	const parts = 3
	split, want := splitForBuild(t, "rmat:10:8", parts)

	ps := split()
	building := -1
	opts := preprocess.Options{Workers: 2, OnStage: func(stage string, _ time.Duration) {
		if stage == preprocess.StageCheck {
			building++
		}
		for j, pt := range ps {
			assert.Equal(t, j < building, pt.EL == nil, "part %d's arcs while part %d builds (%s)", j, building, stage)
		}
	}}
	got, notes, err := buildPartLayouts(ctx, ps, testgraphs.SmallParams(), opts, partBuild{where: preprocess.OnCPU})
	assert.Empty(t, notes)
	require.NoError(t, err)
	assert.Equal(t, parts-1, building)
	for j, pt := range ps {
		assert.Nil(t, pt.EL, "part %d", j)
	}
	require.Equal(t, want, got)
}

// TestBuildPartLayoutsOnGPUs: where a GPU is visible, buildPartLayouts
// builds every part's layout on the GPU that runs it, byte for byte the
// layouts the CPU builds, and says so; with --preprocess-on cpu it builds
// them on the CPU and says nothing. From the CLI, parts built on the GPU
// validate and write what the CPU run writes.
func TestBuildPartLayoutsOnGPUs(t *testing.T) {
	if !gpu.Available() {
		t.Skip("no GPU visible")
	}
	ctx := context.Background()
	split, want := splitForBuild(t, "rmat:11:8", 3)
	opts := preprocess.Options{Workers: 2}
	n, err := cuda.DeviceCount()
	require.NoError(t, err)
	for _, on := range []partBuild{{preprocess.OnGPU, 1}, {preprocess.OnAuto, n}, {preprocess.OnCPU, n}} {
		got, notes, err := buildPartLayouts(ctx, split(), testgraphs.SmallParams(), opts, on)
		require.NoError(t, err, "%+v", on)
		require.Equal(t, want, got, "%+v", on)
		if on.where == preprocess.OnCPU {
			assert.Empty(t, notes)
			continue
		}
		assert.Equal(t, []string{"3 of the 3 parts' layouts built on their GPUs"}, notes, "%+v", on)
	}

	dir := t.TempDir()
	common := []string{"run", "sssp", "rmat:11:8", "--undirected", "--weights", "3", "--source", "7", "--threads", "2", "--no-cache"}
	want1 := filepath.Join(dir, "cpu.tsv")
	code, _, errOut := mgraph(t, append(common, "--backend", "cpu", "--out", want1)...)
	require.Equal(t, 0, code, errOut)
	got1 := filepath.Join(dir, "parts.tsv")
	code, out, errOut := mgraph(t, append(common, "--gpus", "1", "--parts", "2", "--validate", "--out", got1)...)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "validation: ok")
	assert.Contains(t, errOut, "2 of the 2 parts' layouts built on their GPUs")
	wantData, err := os.ReadFile(want1)
	require.NoError(t, err)
	gotData, err := os.ReadFile(got1)
	require.NoError(t, err)
	require.Equal(t, string(wantData), string(gotData))
}

// TestFirstFailure: the part reported is the first whose error is its own,
// not a cancellation caused by another part's failure, unless the run's
// own context ended.
func TestFirstFailure(t *testing.T) {
	own := errors.New("out of memory")
	canceled := fmt.Errorf("preprocess: %w", context.Canceled)
	ctx := context.Background()
	assert.Equal(t, -1, firstFailure(ctx, []error{nil, nil}))
	assert.Equal(t, 2, firstFailure(ctx, []error{nil, canceled, own, canceled}))
	assert.Equal(t, 0, firstFailure(ctx, []error{own, canceled}))
	assert.Equal(t, 1, firstFailure(ctx, []error{nil, canceled}), "only cancellations: the first")
	done, cancel := context.WithCancel(ctx)
	cancel()
	assert.Equal(t, 1, firstFailure(done, []error{nil, canceled, own}), "the run was cancelled: the first error")
}

// TestRunPartitionedTrace: --trace records every superstep of a
// partitioned trial (each app's loop: bfs, cc, pr, bc), their messages
// adding up to the summary's, and --json leaves them out.
func TestRunPartitionedTrace(t *testing.T) {
	dir := t.TempDir()
	for _, app := range []string{"bfs", "cc", "pr", "bc"} {
		path := filepath.Join(dir, app+".json")
		code, out, errOut := mgraph(t, "run", app, "rmat:10:8", "--undirected", "--parts", "3", "--trials", "2", "--no-cache",
			"--trace", path, "--json")
		require.Equal(t, 0, code, errOut)
		var sum runSummary
		require.NoError(t, json.Unmarshal([]byte(out), &sum), app)
		for _, tr := range sum.Trials {
			assert.Nil(t, tr.Parts, "%s: --json leaves the supersteps to --trace", app)
		}
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		var doc traceFile
		require.NoError(t, json.Unmarshal(data, &doc), app)
		require.Len(t, doc.Trials, 2, app)
		for _, tr := range doc.Trials {
			require.NotNil(t, tr.Parts, app)
			require.NotEmpty(t, tr.Parts.Supersteps, app)
			require.Len(t, tr.Parts.PartCompute, 3, app)
			var messages uint64
			for _, s := range tr.Parts.Supersteps {
				messages += s.Messages
				assert.GreaterOrEqual(t, s.Bytes, 8*s.Messages, app) // 8 bytes a min program's update, more for pr's and bc's
				assert.GreaterOrEqual(t, s.ComputeSeconds, 0.0, app)
			}
			assert.Positive(t, messages, "%s: 3 parts of a connected R-MAT exchange updates", app)
		}
	}
}

// TestRunPartitionedAuto: the default partitioner takes, of balanced and
// brp, the one that cuts fewer arcs and says so: a grid's contiguous
// ranges (balanced).
func TestRunPartitionedAuto(t *testing.T) {
	code, out, errOut := mgraph(t, "run", "cc", "grid:32", "--parts", "2", "--trials", "1", "--validate", "--no-cache")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "validation: ok")
	assert.Contains(t, errOut, "(auto: balanced,")
}

// TestRunPartitionedOpsApps: the operators' apps validate over CPU parts
// with every partitioner (and over GPU parts in TestRunPartitioned), and
// refuse --lb over parts. Where the result
// does not depend on the partition, every partition writes the same
// (--out): kcore's core numbers and tc's triangles, one backend's too;
// mis's set and color's colours, drawn over original ids; msf's forest
// weight, one backend's.
func TestRunPartitionedOpsApps(t *testing.T) {
	dir := t.TempDir()
	weightRE := regexp.MustCompile(`spanning forest: \d+ edges, weight \d+`)
	for _, c := range []struct {
		app   string
		graph []string
		same  string // "out": every run writes the same; "backend": and one backend's; "weight": the same forest weight
	}{
		{"pr-delta", []string{"rmat:11:8"}, ""},
		{"kcore", []string{"rmat:11:8", "--undirected"}, "backend"},
		{"mis", []string{"rmat:11:8", "--undirected", "--seed", "5"}, "out"},
		{"color", []string{"rmat:11:8", "--undirected", "--seed", "5"}, "out"},
		{"ppr", []string{"rmat:11:8", "--source", "7"}, ""},
		{"ppr", []string{"rmat:11:8", "--sources", "3"}, ""},
		{"hits", []string{"rmat:11:8"}, ""},
		{"salsa", []string{"rmat:11:8", "--undirected"}, ""},
		{"tc", []string{"rmat:11:8", "--undirected"}, "backend"},
		{"wtf", []string{"rmat:11:8", "--source", "5"}, ""},
		{"msf", []string{"rmat:11:8", "--undirected", "--weights", "5"}, "weight"},
	} {
		common := append([]string{"run", c.app}, c.graph...)
		var first string
		if c.same == "backend" || c.same == "weight" {
			want := filepath.Join(dir, c.app+"-want.tsv")
			code, out, errOut := mgraph(t, append(common, "--backend", "cpu", "--out", want, "--cache-dir", dir)...)
			require.Equal(t, 0, code, errOut)
			first = weightRE.FindString(out)
			if c.same == "backend" {
				data, err := os.ReadFile(want)
				require.NoError(t, err)
				first = string(data)
			}
		}
		for _, method := range []string{"brp", "random", "balanced", "static", "auto"} {
			got := filepath.Join(dir, c.app+"-"+method+".tsv")
			args := append(common, "--parts", "3", "--partition", method, "--trials", "2", "--validate", "--cache-dir", dir, "--out", got)
			code, out, errOut := mgraph(t, args...)
			require.Equal(t, 0, code, "%v: %s", args, errOut)
			assert.Contains(t, out, "validation: ok", args)
			result := weightRE.FindString(out)
			if c.same != "weight" {
				data, err := os.ReadFile(got)
				require.NoError(t, err)
				result = string(data)
			}
			if c.same != "" {
				if first == "" {
					first = result
				}
				assert.Equal(t, first, result, "%v: the same whatever the partition", args)
			}
		}
	}
	code, _, errOut := mgraph(t, "run", "kcore", "rmat:11:8", "--undirected", "--parts", "2", "--lb", "twc", "--no-cache")
	require.Equal(t, 2, code, errOut)
	assert.Contains(t, errOut, "--lb")
}
