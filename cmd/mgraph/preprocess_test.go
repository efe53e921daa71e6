package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mgraph-dev/mgraph/layout"
	"github.com/spf13/pflag"
)

func TestPreprocessToFileAndCache(t *testing.T) {
	dir := t.TempDir()
	cacheDir := filepath.Join(dir, "cache")
	out := filepath.Join(dir, "g.mgl")
	small := []string{"--panel-size", "64", "--heavy-threshold", "100", "--heavy-columns", "32", "--segment-size", "50", "--group-thresholds", "64,32,16,8,4"}

	code, stdout, stderr := mgraph(t, append([]string{"preprocess", "rmat:10:8", "-o", out, "--validate", "--info"}, small...)...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "validated")
	assert.Contains(t, stdout, "wrote "+out)
	assert.Contains(t, stdout, "HeavyMatrix")
	assert.Contains(t, stdout, "× CSR")
	l, err := layout.LoadFile(out)
	require.NoError(t, err)
	assert.Equal(t, uint32(64), l.Params.PanelSize)

	// loadLayout takes a layout file directly, whatever the flags say.
	var in inputFlags
	var lf layoutFlags
	lf.register(pflagSet())
	e := &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	got, err := loadLayout(context.Background(), e, out, &in, &lf)
	require.NoError(t, err)
	assert.Equal(t, l, got)

	// Through the cache: a miss builds and stores, a hit loads.
	args := append([]string{"preprocess", "rmat:10:8", "--cache-dir", cacheDir}, small...)
	code, stdout, stderr = mgraph(t, args...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "wrote "+cacheDir)
	code, stdout, stderr = mgraph(t, args...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "cache holds")
	files, err := filepath.Glob(filepath.Join(cacheDir, "*.mgl"))
	require.NoError(t, err)
	require.Len(t, files, 1)

	// A corrupt cached file is reported, removed and rebuilt.
	b, err := os.ReadFile(files[0])
	require.NoError(t, err)
	b[len(b)-3] ^= 0xff
	require.NoError(t, os.WriteFile(files[0], b, 0o644))
	code, stdout, stderr = mgraph(t, args...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "checksum")
	assert.Contains(t, stderr, "rebuilding")
	assert.Contains(t, stdout, "wrote "+cacheDir)
	rebuilt, err := layout.LoadFile(files[0])
	require.NoError(t, err)
	assert.Equal(t, l, rebuilt)

	// loadLayout with a graph input uses the same cache entry.
	lf2 := layoutFlags{}
	fs := pflagSet()
	lf2.register(fs)
	require.NoError(t, fs.Parse(append([]string{"--cache-dir", cacheDir}, small[:]...)))
	in2 := inputFlags{seed: 1, format: "auto"}
	e2 := &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	got, err = loadLayout(context.Background(), e2, "rmat:10:8", &in2, &lf2)
	require.NoError(t, err)
	assert.Equal(t, l, got)
	assert.Contains(t, e2.stderr.(*bytes.Buffer).String(), "loaded cached layout")
}

func TestPreprocessUsageErrors(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := mgraph(t, "preprocess")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "one INPUT")
	code, _, stderr = mgraph(t, "preprocess", "rmat:6", "--panel-size", "40000", "-o", filepath.Join(dir, "x.mgl"))
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "panel size")
	code, _, stderr = mgraph(t, "preprocess", "rmat:6", "--group-thresholds", "5,x", "-o", filepath.Join(dir, "x.mgl"))
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "group-thresholds")
	code, _, stderr = mgraph(t, "preprocess", "rmat:6", "--no-cache")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--no-cache")
	code, _, stderr = mgraph(t, "preprocess", "rmat:6", "--level", "30", "-o", filepath.Join(dir, "x.mgl"))
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--level")
	code, _, stderr = mgraph(t, "preprocess", filepath.Join(dir, "missing.mtx"), "-o", filepath.Join(dir, "x.mgl"))
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "no such file")
}

func pflagSet() *pflag.FlagSet { return pflag.NewFlagSet("test", pflag.ContinueOnError) }

// TestCacheCommandAndLimit: stores beyond --cache-max evict the least
// recently used layouts; cache ls, du and prune see and manage them.
func TestCacheCommandAndLimit(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := mgraph(t, "preprocess", "rmat:9:8", "--undirected", "--cache-dir", dir)
	require.Equal(t, 0, code, errOut)
	code, out, errOut := mgraph(t, "cache", "ls", "--cache-dir", dir)
	require.Equal(t, 0, code, errOut)
	require.Len(t, strings.Split(strings.TrimSpace(out), "\n"), 2, out) // header and one layout
	// A second layout with a limit below the two: the first goes.
	code, _, errOut = mgraph(t, "preprocess", "rmat:9:8", "--cache-dir", dir, "--cache-max", "1B")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, errOut, "removed 1 least recently used layout")
	code, out, _ = mgraph(t, "cache", "du", "--cache-dir", dir, "--max-size", "off")
	require.Equal(t, 0, code)
	require.Contains(t, out, "1 layouts")
	require.Contains(t, out, "limit none")
	code, out, errOut = mgraph(t, "cache", "prune", "--cache-dir", dir, "--max-size", "0")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "after removing 1 layouts")
	code, out, _ = mgraph(t, "cache", "ls", "--cache-dir", dir)
	require.Equal(t, 0, code)
	require.Equal(t, 1, len(strings.Split(strings.TrimSpace(out), "\n")), out)
	code, _, errOut = mgraph(t, "cache", "prune", "--cache-dir", dir, "--max-size", "12 parsecs")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "--max-size")
}
