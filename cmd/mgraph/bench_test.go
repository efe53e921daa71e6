package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBenchBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bench"}, "no graphs"},
		{[]string{"bench", "--apps", "bfs,tri", "rmat:6"}, `--apps: unknown app "tri"`},
		{[]string{"bench", "--modes", "fast", "rmat:6"}, `--modes: unknown mode "fast"`},
		{[]string{"bench", "--trials", "0", "rmat:6"}, "--trials must be at least 1"},
		{[]string{"bench", "--oracle=pr", "rmat:6"}, `no per-iteration oracle for "pr"`},
		{[]string{"bench", "--external", "x=cmd {nope}", "rmat:6"}, "unknown placeholder {nope}"},
		{[]string{"bench", "--panel-size", "40000", "rmat:6"}, "panel"},
		{[]string{"bench", "--config", "/no/such/plan.conf", "rmat:6"}, "--config"},
		{[]string{"bench", "--oracle", "bfs", "rmat:6"}, `"bfs" is taken as a graph`},
		{[]string{"report"}, "one or more result directories"},
	} {
		code, _, errOut := mgraph(t, tc.args...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, errOut)
		assert.Contains(t, errOut, tc.want, "%v", tc.args)
	}
	// Without the cuda tag the backend is not there; with it and no GPU,
	// the plan is refused before any work.
	code, _, errOut := mgraph(t, "bench", "--backends", "cuda", "rmat:6")
	if cuda.BuiltWithCUDA() && !cuda.Available() {
		assert.Equal(t, 1, code, errOut)
		assert.Contains(t, errOut, "no CUDA device visible")
	} else if !cuda.BuiltWithCUDA() {
		assert.Equal(t, 2, code, errOut)
		assert.Contains(t, errOut, "GPU engines are not built")
	}
	code, _, errOut = mgraph(t, "report", t.TempDir())
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "results.json")
}

func TestBenchAndReport(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "plan.conf")
	require.NoError(t, os.WriteFile(conf, []byte("# tiny plan\napps = bfs,cc\nmodes: hybrid,sparse\ntrials = 2\nsymmetrize = true\n"), 0o644))
	out := filepath.Join(dir, "res")
	code, stdout, errOut := mgraph(t, "bench", "--config", conf, "--trials", "1", "--graphs", "grid:8:0", "rmat:6:4",
		"--threads", "2", "--renumber", "--oracle", "--cache-dir", dir, "--panel-size", "64", "--out", out)
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `bfs +grid:8x8:0 +original +hybrid +1 `, stdout)
	assert.Contains(t, stdout, "renumbering")
	assert.Contains(t, stdout, "oracle bfs on rmat:6:4")
	assert.NotContains(t, stdout, "cpu/dense", "modes from the config file")
	assert.NotContains(t, stdout, "pr ", "apps from the config file")
	for _, f := range []string{"results.json", "results.csv", "table.txt"} {
		assert.FileExists(t, filepath.Join(out, f))
	}
	code, stdout, errOut = mgraph(t, "report", out)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, stdout, "report.md")
	assert.FileExists(t, filepath.Join(out, "oracle-bfs-grid_8x8_0.png"))
}

func TestBenchJSONConfig(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "plan.json")
	require.NoError(t, os.WriteFile(conf, []byte(`{"apps": "bfs", "modes": "sparse", "trials": 1, "symmetrize": true,
		"graphs": "grid:6:0", "threads": 2, "panel-size": 64, "no-cache": true}`), 0o644))
	code, stdout, errOut := mgraph(t, "bench", "--config", conf, "--modes", "dense")
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `bfs +grid:6x6:0 +original +dense +1 `, stdout, "the command line wins")
	assert.NotContains(t, stdout, "sparse")

	for _, tc := range []struct{ json, want string }{
		{`{"nope": 1}`, `unknown flag "nope"`},
		{`{"trials": {"a": 1}}`, "want a string, number, boolean"},
		{`[1, 2]`, "one JSON object"},
		{`{"trials": "x"}`, "trials"},
	} {
		require.NoError(t, os.WriteFile(conf, []byte(tc.json), 0o644))
		code, _, errOut := mgraph(t, "bench", "--config", conf, "rmat:6")
		assert.Equal(t, 2, code, tc.json)
		assert.Contains(t, errOut, tc.want, tc.json)
	}
}

// TestGPUPlansParse checks that the plans of bench/plans are valid.
func TestGPUPlansParse(t *testing.T) {
	plans, err := filepath.Glob("../../bench/plans/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, plans)
	for _, path := range plans {
		fs := pflag.NewFlagSet("bench", pflag.ContinueOnError)
		benchCommand().flags(fs)
		require.NoError(t, applyConfig(fs, path), path)
		for _, name := range []string{"apps", "graphs", "modes", "backends", "trials", "oracle", "renumber", "symmetrize"} {
			assert.True(t, fs.Lookup(name).Changed, "%s sets %s", path, name)
		}
		assert.Equal(t, "cuda", fs.Lookup("backends").Value.String(), path)
		assert.Equal(t, "bfs,sssp,cc,pr,pr-delta,bc", fs.Lookup("apps").Value.String(), path)
		trials, err := strconv.Atoi(fs.Lookup("trials").Value.String())
		require.NoError(t, err)
		assert.GreaterOrEqual(t, trials, 5, path)
	}
}
