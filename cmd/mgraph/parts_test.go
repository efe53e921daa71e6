package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunPartitioned: bfs, sssp and cc partitioned into parts (on the CPU,
// and on the GPU where one is visible) validate and write what the
// unpartitioned run writes.
func TestRunPartitioned(t *testing.T) {
	dir := t.TempDir()
	backends := [][]string{{"--backend", "cpu", "--parts", "3"}}
	if gpu.Available() {
		backends = append(backends, []string{"--backend", "cuda", "--parts", "2"}, []string{"--gpus", "all"},
			[]string{"--backend", "cuda", "--parts", "3", "--exchange", "host"}, []string{"--gpus", "all", "--exchange", "host"})
	}
	for _, app := range []string{"bfs", "sssp", "cc"} {
		common := []string{"run", app, "rmat:11:8", "--undirected", "--weights", "3", "--source", "7", "--cache-dir", dir,
			"--threads", "2", "--panel-size", "64"}
		want := filepath.Join(dir, app+".tsv")
		code, _, errOut := mgraph(t, append(common, "--backend", "cpu", "--out", want)...)
		require.Equal(t, 0, code, errOut)
		wantData, err := os.ReadFile(want)
		require.NoError(t, err)
		for _, b := range backends {
			for _, method := range []string{"brp", "random", "balanced", "static"} {
				got := filepath.Join(dir, app+"-parts.tsv")
				args := append(append(append([]string{}, common...), b...), "--partition", method, "--validate", "--out", got, "--trials", "2")
				code, out, errOut := mgraph(t, args...)
				require.Equal(t, 0, code, "%v: %s", args, errOut)
				assert.Contains(t, out, "validation: ok")
				assert.Contains(t, out, "parts on")
				assert.Contains(t, errOut, "partitioned into")
				gotData, err := os.ReadFile(got)
				require.NoError(t, err)
				require.Equal(t, string(wantData), string(gotData), "%v", args)
			}
		}
	}
}

// TestRunPartitionedBadFlags: what a partitioned run refuses, exit 2.
func TestRunPartitionedBadFlags(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"run", "pr", "rmat:8", "--parts", "2"}, "run bfs, sssp and cc"},
		{[]string{"run", "bfs", "rmat:8", "--parts", "-1"}, "--parts -1"},
		{[]string{"run", "bfs", "rmat:8", "--parts", "2", "--mode", "async"}, "async"},
		{[]string{"run", "bfs", "rmat:8", "--parts", "2", "--partition", "metis"}, "--partition"},
		{[]string{"run", "bfs", "rmat:8", "--parts", "2", "--engine", "operators"}, "not the operators"},
		{[]string{"run", "bfs", "rmat:8", "--gpus", "2", "--backend", "cpu"}, "--gpus with --backend cpu"},
		{[]string{"run", "bfs", "rmat:8", "--gpus", "none"}, "--gpus \"none\""},
		{[]string{"run", "bfs", "rmat:8", "--parts", "2", "--exchange", "wire"}, "--exchange \"wire\""},
	} {
		code, _, errOut := mgraph(t, append(c.args, "--cache-dir", dir)...)
		assert.Equal(t, 2, code, "%v: %s", c.args, errOut)
		assert.Contains(t, errOut, c.msg, "%v", c.args)
	}
}
