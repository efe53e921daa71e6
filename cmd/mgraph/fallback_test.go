package main

import (
	"testing"

	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunFallsBackToCPU: a graph over --gpu-memory-limit fails with
// --backend cuda, naming the bytes, and runs on the CPU with a one-line
// notice with --backend auto (skipped where no GPU is visible).
func TestRunFallsBackToCPU(t *testing.T) {
	if !gpu.Available() {
		t.Skip("no usable GPU (or built without the cuda tag)")
	}
	for _, on := range []string{"cpu", "gpu"} { // a layout built on the GPU stays there for the run
		dir := t.TempDir()
		args := []string{"run", "bfs", "rmat:10:8", "--undirected", "--source", "1", "--validate", "--cache-dir", dir,
			"--gpu-memory-limit", "4KiB", "--preprocess-on", on}
		code, _, errOut := mgraph(t, append(args, "--backend", "cuda")...)
		require.Equal(t, 1, code, errOut)
		assert.Contains(t, errOut, "over the limit of 4.0 KiB", on)
		code, out, errOut := mgraph(t, append(args, "--backend", "auto", "--cache-dir", t.TempDir())...)
		require.Equal(t, 0, code, errOut)
		assert.Contains(t, errOut, "--backend auto: running on the CPU", on)
		assert.Contains(t, out, "validation: ok", on)
		assert.Contains(t, out, "cpu×", on)
	}
	dir := t.TempDir()
	code, _, errOut := mgraph(t, "run", "bfs", "rmat:10:8", "--cache-dir", dir, "--backend", "cuda", "--gpu-memory-limit", "lots")
	require.Equal(t, 2, code, errOut)
	assert.Contains(t, errOut, "--gpu-memory-limit")
}
