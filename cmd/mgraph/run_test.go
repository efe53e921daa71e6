package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunAppsValidateEveryMode(t *testing.T) {
	cache := t.TempDir()
	for _, app := range apps.Names {
		for _, mode := range []string{"hybrid", "dense", "sparse"} {
			if slices.Contains(apps.OperatorApps, app) && mode != "hybrid" {
				continue // the operators have no modes (TestRunOperatorApps)
			}
			args := []string{"run", app, "rmat:8:8", "--undirected", "--mode", mode, "--validate",
				"--cache-dir", cache, "--panel-size", "64", "--trials", "2"}
			if app == "sssp" {
				args = append(args, "--weights", "3")
			}
			code, out, errOut := mgraph(t, args...)
			require.Equal(t, 0, code, "%s %s: %s", app, mode, errOut)
			assert.Contains(t, out, "validation: ok", "%s %s", app, mode)
			assert.Contains(t, out, "trial 2/2", "%s %s", app, mode)
			assert.Regexp(t, `best .*, median .*, [0-9.]+ MTEPS`, out)
		}
	}
}

func TestRunDirectedGraphs(t *testing.T) {
	cache := t.TempDir()
	// cc symmetrizes a directed graph; bc builds the transposed layout.
	for _, app := range []string{"cc", "bc", "pr", "bfs"} {
		code, out, errOut := mgraph(t, "run", app, "rmat:8:4", "--validate", "--cache-dir", cache)
		require.Equal(t, 0, code, "%s: %s", app, errOut)
		assert.Contains(t, out, "validation: ok", app)
	}
	_, _, errOut := mgraph(t, "run", "cc", "rmat:8:4", "--cache-dir", cache)
	assert.Contains(t, errOut, "weak components")
}

func TestRunOutAndTrace(t *testing.T) {
	dir := t.TempDir()
	out, trace := filepath.Join(dir, "levels.tsv"), filepath.Join(dir, "trace.json")
	// Mode hybrid: one iteration a level on both backends (auto runs a
	// narrow graph's BFS in one thread block on the GPU: one iteration).
	code, _, errOut := mgraph(t, "run", "bfs", "grid:8:0", "--source", "0", "--out", out, "--trace", trace,
		"--cache-dir", dir, "--trials", "2", "--mode", "hybrid")
	require.Equal(t, 0, code, errOut)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	require.Len(t, lines, 64)
	assert.Equal(t, "0\t0", lines[0])
	assert.Equal(t, "63\t14", lines[63], "corner to corner of an 8×8 grid")

	var doc traceFile
	raw, err := os.ReadFile(trace)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &doc))
	assert.Equal(t, "bfs", doc.App)
	require.Len(t, doc.Trials, 2)
	res := doc.Trials[0].Result
	assert.Equal(t, 15, res.Iterations)
	require.Len(t, res.Trace, res.Iterations)
	assert.Equal(t, uint64(1), res.Trace[0].FrontierVertices)
	assert.NotEmpty(t, res.Trace[0].Phases)
	assert.Equal(t, []uint32{0}, doc.Trials[0].Sources)

	bin := filepath.Join(dir, "ranks.bin")
	code, _, errOut = mgraph(t, "run", "pr", "grid:8:0", "--out", bin, "--cache-dir", dir)
	require.Equal(t, 0, code, errOut)
	st, err := os.Stat(bin)
	require.NoError(t, err)
	assert.Equal(t, int64(64*8), st.Size(), "64 float64 ranks")
}

func TestRunBadArguments(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"run", "bfs"}, 2, "APP and GRAPH"},
		{[]string{"run", "dfs", "grid:4"}, 2, `unknown app "dfs"`},
		{[]string{"run", "bfs", "grid:4", "--mode", "fast"}, 2, "unknown mode"},
		{[]string{"run", "bfs", "grid:4", "--source", "16"}, 2, "--source 16 is not a vertex"},
		{[]string{"run", "bfs", "grid:4", "--threads", "-1"}, 2, "--threads"},
		{[]string{"run", "bfs", "grid:4", "--trials", "0"}, 2, "--trials"},
		{[]string{"run", "sssp", "grid:4"}, 1, "add --weights SEED"},
		{[]string{"run", "bc", "grid:4", "--backend", "cuda"}, 1, "--backend cuda"},
		{[]string{"run", "bfs", "grid:4", "--backend", "tpu"}, 2, "--backend"},
		{[]string{"run", "pr", "grid:4", "--damping", "1.5"}, 1, "damping"},
		{[]string{"run", "pr", "grid:4", "--gpu-split", "1,2"}, 2, "ROWS,EDGES,SLOTS"},
		{[]string{"run", "pr", "grid:4", "--gpu-split", "1,x,3"}, 2, "field 2 (EDGES)"},
		{[]string{"run", "bfs", filepath.Join(dir, "missing.mtx")}, 1, "missing.mtx"},
	}
	for _, c := range cases {
		if c.msg == "--backend cuda" && gpu.Available() {
			continue // the error is for machines without a usable GPU
		}
		args := append(c.args, "--cache-dir", dir)
		code, _, errOut := mgraph(t, args...)
		assert.Equal(t, c.code, code, "%v: %s", c.args, errOut)
		assert.Contains(t, errOut, c.msg, "%v", c.args)
	}
}

// TestGenConvertKeepsUndirected is the round trip a new user tries: an
// undirected graph written as an edge list (each edge once, marked) and
// converted with no flags keeps every arc, in every text format.
func TestGenConvertKeepsUndirected(t *testing.T) {
	dir := t.TempDir()
	ref := filepath.Join(dir, "ref.mgb")
	code, out, errOut := mgraph(t, "gen", "rmat:9:8", "--symmetrize", "--weights", "3", "-o", ref)
	require.Equal(t, 0, code, errOut)
	for _, ext := range []string{"el", "wel", "gr", "mtx"} {
		text := filepath.Join(dir, "g."+ext)
		code, _, errOut = mgraph(t, "gen", "rmat:9:8", "--symmetrize", "--weights", "3", "-o", text)
		require.Equal(t, 0, code, errOut)
		back := filepath.Join(dir, "back-"+ext+".mgb")
		code, _, errOut = mgraph(t, "convert", text, back)
		require.Equal(t, 0, code, errOut)
		_, want, _ := mgraph(t, "info", ref, "--json")
		_, got, _ := mgraph(t, "info", back, "--json")
		var w, g map[string]any
		require.NoError(t, json.Unmarshal([]byte(want), &w), want)
		require.NoError(t, json.Unmarshal([]byte(got), &g), got)
		require.NotNil(t, w["arcs"], want)
		require.Equal(t, w["arcs"], g["arcs"], ext)
		require.Equal(t, false, g["directed"], ext)
	}
	require.Contains(t, out, "ref.mgb")
}

// TestRunJSON: --json prints one object on stdout, and nothing else there.
func TestRunJSON(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := mgraph(t, "run", "bfs", "rmat:9:8", "--undirected", "--trials", "3", "--validate", "--json",
		"--cache-dir", dir, "--backend", "cpu")
	require.Equal(t, 0, code, errOut)
	var s struct {
		App        string  `json:"app"`
		Backend    string  `json:"backend"`
		Arcs       uint64  `json:"arcs"`
		Best       float64 `json:"best_seconds"`
		Median     float64 `json:"median_seconds"`
		MTEPS      float64 `json:"best_mteps"`
		Validation string  `json:"validation"`
		Trials     []struct {
			Seconds float64 `json:"seconds"`
			Result  struct {
				Engine float64 `json:"seconds"`
				Copy   float64 `json:"copy_seconds"`
			} `json:"result"`
		} `json:"trials"`
		Wall struct {
			FirstResult float64 `json:"first_result"`
		} `json:"wall_seconds"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	require.NoError(t, dec.Decode(&s), out)
	require.False(t, dec.More(), "stdout holds more than the object: %s", out)
	require.Equal(t, "bfs", s.App)
	require.Equal(t, "cpu", s.Backend)
	require.Equal(t, "ok", s.Validation)
	require.Len(t, s.Trials, 3)
	require.Positive(t, s.Arcs)
	require.Positive(t, s.Best)
	require.LessOrEqual(t, s.Best, s.Median)
	require.Positive(t, s.MTEPS)
	require.Positive(t, s.Wall.FirstResult)
	for _, tr := range s.Trials {
		require.GreaterOrEqual(t, tr.Seconds, tr.Result.Engine)
	}
	require.Contains(t, errOut, "trial 1/3", "the human lines go to stderr")
}

// TestRunOutCSV: --out FILE.csv writes a header and one vertex,value line
// per vertex in original ids, "inf" for the unreached.
func TestRunOutCSV(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "levels.csv")
	code, _, errOut := mgraph(t, "run", "bfs", "grid:4:0.5", "--undirected", "--source", "0", "--out", out,
		"--cache-dir", dir, "--backend", "cpu")
	require.Equal(t, 0, code, errOut)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	require.Equal(t, "vertex,value", lines[0])
	require.Len(t, lines, 1+16)
	require.Equal(t, "0,0", lines[1])
	for i, l := range lines[1:] {
		f := strings.Split(l, ",")
		require.Len(t, f, 2, l)
		require.Equal(t, strconv.Itoa(i), f[0])
	}
}
