package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestProfileWithoutNCU(t *testing.T) {
	for _, p := range ncuFallbacks() {
		if _, err := os.Stat(p); err == nil {
			t.Skipf("ncu is installed at %s", p)
		}
	}
	t.Setenv("PATH", "")
	code, _, errOut := mgraph(t, "profile", "--app", "pr", "rmat:8")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "ncu (Nsight Compute) not found on the PATH")
	assert.Contains(t, errOut, "--ncu /path/to/ncu")

	code, _, errOut = mgraph(t, "profile", "--ncu", filepath.Join(t.TempDir(), "ncu"), "rmat:8")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "--ncu ")
}

func TestProfileUsage(t *testing.T) {
	code, _, errOut := mgraph(t, "profile", "--app", "nosuch", "rmat:8")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "profile runs the GPU programs")
	code, _, errOut = mgraph(t, "profile", "--app", "pr", "bfs", "rmat:8")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "disagree")
	code, _, _ = mgraph(t, "profile")
	assert.Equal(t, 2, code)
	code, _, errOut = mgraph(t, "profile", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, errOut, "--max-iterations") // run's flags, shared
	assert.NotContains(t, errOut, "--validate")
}

func TestProfileNeedsCUDA(t *testing.T) {
	if cuda.BuiltWithCUDA() {
		t.Skip("built with CUDA")
	}
	fake := filepath.Join(t.TempDir(), "ncu")
	require.NoError(t, os.WriteFile(fake, []byte("#!/bin/sh\nexit 0\n"), 0o755))
	code, _, errOut := mgraph(t, "profile", "--ncu", fake, "rmat:8")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "built without CUDA")
}

func TestProfileChildArgs(t *testing.T) {
	fs := pflag.NewFlagSet("profile", pflag.ContinueOnError)
	runFn := profileCommand().flags(fs)
	require.NotNil(t, runFn)
	require.NoError(t, fs.Parse([]string{"--app", "bfs", "--mode", "dense", "--undirected", "--source", "3", "--launch-count", "9", "--out", "x", "g"}))
	args := childRunArgs(fs, "bfs", "g", "/tmp/t.json")
	got := strings.Join(args, " ")
	assert.True(t, strings.HasPrefix(got, "run bfs g --backend cuda --trace /tmp/t.json"), got)
	for _, want := range []string{"--mode=dense", "--undirected=true", "--source=3"} {
		assert.Contains(t, got, want)
	}
	for _, not := range []string{"--launch-count", "--out", "--app"} {
		assert.NotContains(t, got, not)
	}
}

func TestTracedEdges(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "trace.json")
	require.NoError(t, writeJSONFile(p, traceFile{Trials: []trialRecord{{Trial: 1}, {Trial: 2}}}))
	_, err := tracedEdges(p)
	assert.ErrorContains(t, err, "traversed no edges")
	doc := traceFile{Trials: []trialRecord{{Trial: 1}, {Trial: 2}}}
	doc.Trials[0].Result.Edges, doc.Trials[1].Result.Edges = 100, 20
	require.NoError(t, writeJSONFile(p, doc))
	n, err := tracedEdges(p)
	require.NoError(t, err)
	assert.Equal(t, uint64(120), n)
	_, err = tracedEdges(filepath.Join(dir, "none.json"))
	assert.ErrorContains(t, err, "the run's trace")
}
