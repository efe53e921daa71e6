package main

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readValues reads a --out TSV of uint32 values ("inf": Unreached).
func readValues(t *testing.T, path string) []uint32 {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []uint32
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		v, x, ok := strings.Cut(line, "\t")
		require.True(t, ok, line)
		require.Equal(t, strconv.Itoa(i), v, path)
		if x == "inf" {
			out = append(out, math.MaxUint32)
			continue
		}
		out = append(out, uint32(parseUint(t, x)))
	}
	return out
}

// TestRunFrom: --from runs bfs and sssp from all its sources at once in
// every trial, with the operators; the result validates and equals the
// minimum of the single-source runs' --out, and --json and --trace list
// every source.
func TestRunFrom(t *testing.T) {
	dir := t.TempDir()
	sources := []string{"3", "17", "42"}
	for _, c := range []struct {
		app  string
		args []string
	}{
		{"bfs", []string{"rmat:9:8", "--undirected"}},
		{"bfs", []string{"rmat:9:8"}},
		{"sssp", []string{"rmat:9:8", "--weights", "3"}},
	} {
		name := c.app + strings.Join(c.args, "")
		common := append([]string{"run", c.app}, c.args...)
		common = append(common, "--backend", "cpu", "--threads", "2", "--cache-dir", dir, "--panel-size", "64")
		var want []uint32
		for _, s := range sources {
			single := filepath.Join(dir, name+"-"+s+".tsv")
			code, _, errOut := mgraph(t, append(common, "--source", s, "--out", single)...)
			require.Equal(t, 0, code, errOut)
			got := readValues(t, single)
			if want == nil {
				want = got
			}
			for v := range want {
				want[v] = min(want[v], got[v])
			}
		}
		out, trace := filepath.Join(dir, name+"-from.tsv"), filepath.Join(dir, name+"-trace.json")
		from := strings.Join(append(sources, sources[0]), ",") // a repeat is allowed
		code, stdout, errOut := mgraph(t, append(common, "--from", from, "--validate", "--trials", "2", "--out", out,
			"--trace", trace, "--json")...)
		require.Equal(t, 0, code, "%s: %s", name, errOut)
		assert.Equal(t, want, readValues(t, out), name)
		assert.Contains(t, errOut, "operators (lb auto), from 3 sources", name)
		assert.Contains(t, errOut, "trial 2/2", name)
		var js runSummary
		require.NoError(t, json.Unmarshal([]byte(stdout), &js), stdout)
		assert.Equal(t, "ok", js.Validation, name)
		assert.Equal(t, "operators", js.Engine, name)
		assert.Empty(t, js.Mode, name)
		require.Len(t, js.Trials, 2, name)
		for _, tr := range js.Trials {
			assert.Equal(t, []uint32{3, 17, 42, 3}, tr.Sources, name)
		}
		var doc traceFile
		raw, err := os.ReadFile(trace)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(raw, &doc))
		require.Len(t, doc.Trials, 2)
		assert.Equal(t, []uint32{3, 17, 42, 3}, doc.Trials[1].Sources, name)
		assert.NotEmpty(t, doc.Trials[0].Result.Trace, name)
		assert.Contains(t, doc.Trials[0].Result.Trace[0].Mode, "advance:", name)
	}

	// bfs under a depth limit validates against the references cut there;
	// --engine operators, --lb and --no-pull go with --from.
	code, out, errOut := mgraph(t, "run", "bfs", "rmat:9:8", "--undirected", "--from", "1,2,3", "--max-iterations", "1",
		"--engine", "operators", "--lb", "twc", "--no-pull", "--validate", "--backend", "cpu", "--cache-dir", dir, "--panel-size", "64")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "validation: ok")
	assert.Contains(t, out, "1 iterations")
	assert.Contains(t, out, "operators (lb twc), from 3 sources")
}

// TestRunFromBadFlags: --from is refused, with exit status 2 and a message
// naming the flag, where it does not apply.
func TestRunFromBadFlags(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"cc", "--from", "1,2"}, "--from: cc has no multi-source run"},
		{[]string{"bfs-tree", "--from", "1,2"}, "--from: bfs-tree has no multi-source run"},
		{[]string{"ppr", "--from", "1,2"}, "--from: ppr has no multi-source run"},
		{[]string{"bfs", "--from", "1,2", "--source", "3"}, "--from gives the sources: drop --source"},
		{[]string{"sssp", "--from", "1,2", "--sources", "3"}, "--from gives the sources: drop --sources"},
		{[]string{"bfs", "--from", "1,2", "--engine", "multigraph"}, "--engine multigraph: --from runs with the operators"},
		{[]string{"bfs", "--from", "1,2", "--mode", "sparse"}, "--mode sparse: --from runs with the operators, which have no modes"},
		{[]string{"bfs", "--from", "1,x"}, `--from "1,x": field 2 ("x") is not a vertex id`},
		{[]string{"bfs", "--from", ""}, `--from "": field 1 ("") is not a vertex id`},
		{[]string{"bfs", "--from", "1,-2"}, `field 2 ("-2") is not a vertex id`},
		{[]string{"bfs", "--from", "1,16"}, "--from: 16 is not a vertex: the graph has 16 vertices (0..15)"},
		{[]string{"bfs", "--from", "1,2", "--gpu-no-loop"}, "--gpu-no-loop tunes the MultiGraph engines"},
	} {
		args := append([]string{"run", c.args[0], "grid:4"}, c.args[1:]...)
		code, _, errOut := mgraph(t, append(args, "--cache-dir", dir, "--backend", "cpu")...)
		assert.Equal(t, 2, code, "%v: %s", c.args, errOut)
		assert.Contains(t, errOut, c.msg, "%v", c.args)
	}
	code, _, errOut := mgraph(t, "run", "sssp", "grid:4", "--from", "1,2", "--cache-dir", dir, "--backend", "cpu")
	assert.Equal(t, 1, code, errOut)
	assert.Contains(t, errOut, "add --weights SEED")
}

// TestValidateFrom: --from's validation takes the minimum over all the
// sources (a single source's levels fail) and catches a wrong distance.
func TestValidateFrom(t *testing.T) {
	// A path 0 - 1 - 2 - 3 - 4 (weights 1, 2, 3, 4) and an isolated 5.
	el := testgraphs.Undirected(6, [2]uint32{0, 1}, [2]uint32{1, 2}, [2]uint32{2, 3}, [2]uint32{3, 4})
	el.Weights = make([]uint32, len(el.Src))
	for i := range el.Src {
		el.Weights[i] = max(el.Src[i], el.Dst[i]) // the edge {i-1, i} weighs i
	}
	l, err := preprocess.Build(context.Background(), el, testgraphs.SmallParams(), preprocess.Options{Workers: 2})
	require.NoError(t, err)
	inf := uint32(apps.Unreached)
	sources := []uint32{4, 0, 4}
	pr := apps.PageRankOptions{}
	require.NoError(t, validateFrom("bfs", l, 2, sources, pr, 0, []uint32{0, 1, 2, 1, 0, inf}))
	require.NoError(t, validateFrom("bfs", l, 2, sources, pr, 1, []uint32{0, 1, inf, 1, 0, inf}))
	require.Error(t, validateFrom("bfs", l, 2, sources, pr, 0, []uint32{0, 1, 2, 3, 4, inf}), "the first source's levels")
	require.Error(t, validateFrom("bfs", l, 2, sources, pr, 0, []uint32{0, 1, 2, 1, 0, 7}))
	require.NoError(t, validateFrom("sssp", l, 2, sources, pr, 0, []uint32{0, 1, 3, 4, 0, inf}))
	require.Error(t, validateFrom("sssp", l, 2, sources, pr, 0, []uint32{0, 1, 3, 6, 10, inf}), "the first source's distances")
	require.ErrorContains(t, validateFrom("sssp", l, 2, sources, pr, 2, []uint32{0, 1, 3, 4, 0, inf}), "not validated under --max-iterations")
}
