package main

import (
	"os"
	"path/filepath"
	"testing"

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
		{[]string{"bench", "--backends", "cuda", "rmat:6"}, "GPU engines are not built"},
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
	code, _, errOut := mgraph(t, "report", t.TempDir())
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
