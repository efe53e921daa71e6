package main

import (
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/format"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunSSSPFloat32: gen makes float32 weights, convert keeps them in
// every format that holds weights, and run validates float32 distances in
// every mode and with the operators and several sources, writing them in
// full precision.
func TestRunSSSPFloat32(t *testing.T) {
	dir := t.TempDir()
	mtx := filepath.Join(dir, "g.mtx")
	code, _, errOut := mgraph(t, "gen", "rmat:8:8", "--symmetrize", "--weights", "5", "--weight-type", "float32", "-o", mtx)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "float32 weights uniform in (0, 1]")
	head, err := os.ReadFile(mtx)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(head), "%%MatrixMarket matrix coordinate real symmetric\n"))
	assert.Contains(t, string(head), "mgraph weights: float32")
	code, out, errOut := mgraph(t, "info", mtx)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "weighted (float32)")
	for _, ext := range []string{".wel", ".gr", ".mgb", ".mtx.zst"} {
		conv := filepath.Join(dir, "g"+ext)
		code, _, errOut = mgraph(t, "convert", mtx, conv)
		require.Equal(t, 0, code, "%s: %s", ext, errOut)
		a, _, err := format.ReadFile(context.Background(), mtx, format.ReadOptions{})
		require.NoError(t, err)
		b, _, err := format.ReadFile(context.Background(), conv, format.ReadOptions{Undirected: ext == ".wel" || ext == ".gr"})
		require.NoError(t, err, ext)
		assert.Equal(t, graph.Float32Weights, b.WeightKind, ext)
		assert.ElementsMatch(t, arcTriples(a), arcTriples(b), ext)
	}
	for _, mode := range []string{"hybrid", "dense", "sparse", "async", "auto"} {
		code, out, errOut = mgraph(t, "run", "sssp", mtx, "--mode", mode, "--validate", "--cache-dir", dir, "--panel-size", "64", "--trials", "2")
		require.Equal(t, 0, code, "%s: %s", mode, errOut)
		assert.Contains(t, out, "validation: ok", mode)
	}
	for _, extra := range [][]string{{"--engine", "operators"}, {"--from", "0,5,9"}} {
		code, out, errOut = mgraph(t, append([]string{"run", "sssp", mtx, "--validate", "--cache-dir", dir}, extra...)...)
		require.Equal(t, 0, code, "%v: %s", extra, errOut)
		assert.Contains(t, out, "validation: ok", extra)
	}
	// --out: the shortest decimal of each float32, inf where unreached; .bin:
	// the float32s.
	tsv, bin := filepath.Join(dir, "d.tsv"), filepath.Join(dir, "d.bin")
	code, _, errOut = mgraph(t, "run", "sssp", mtx, "--source", "3", "--out", tsv, "--cache-dir", dir)
	require.Equal(t, 0, code, errOut)
	code, _, errOut = mgraph(t, "run", "sssp", mtx, "--source", "3", "--out", bin, "--cache-dir", dir)
	require.Equal(t, 0, code, errOut)
	el, _, err := format.ReadFile(context.Background(), mtx, format.ReadOptions{})
	require.NoError(t, err)
	want, err := ref.SSSPFloat32(graph.ToCSR(el, 2), 3)
	require.NoError(t, err)
	data, err := os.ReadFile(tsv)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	require.Len(t, lines, len(want))
	raw, err := os.ReadFile(bin)
	require.NoError(t, err)
	require.Len(t, raw, 4*len(want))
	unreached := 0
	for v, line := range lines {
		f := strings.Split(line, "\t")
		require.Equal(t, strconv.Itoa(v), f[0])
		gotBin := math.Float32frombits(binary.LittleEndian.Uint32(raw[4*v:]))
		require.Equal(t, want[v], gotBin, "vertex %d (.bin)", v)
		if math.IsInf(float64(want[v]), 1) {
			require.Equal(t, "inf", f[1])
			unreached++
			continue
		}
		x, err := strconv.ParseFloat(f[1], 32)
		require.NoError(t, err)
		require.Equal(t, want[v], float32(x), "vertex %d", v)
	}
	assert.Positive(t, unreached, "R-MAT 8 has isolated vertices")
}

// arcTriples lists a list's arcs with their weights' bits.
func arcTriples(el *graph.EdgeList) [][3]uint32 {
	out := make([][3]uint32, len(el.Src))
	for i := range el.Src {
		out[i] = [3]uint32{el.Src[i], el.Dst[i], el.Weights[i]}
	}
	return out
}

// TestWeightTypeFlags: reading a file's real weights as uint32 names the
// file and line; the weight type is part of the cache key; bad values and
// what float32 weights cannot do are refused.
func TestWeightTypeFlags(t *testing.T) {
	dir := t.TempDir()
	mtx := filepath.Join(dir, "r.mtx")
	require.NoError(t, os.WriteFile(mtx, []byte("%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 0.5\n2 3 2\n1 3 3\n"), 0o644))
	code, out, errOut := mgraph(t, "run", "sssp", mtx, "--source", "0", "--validate", "--cache-dir", dir)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "validation: ok")
	code, _, errOut = mgraph(t, "run", "sssp", mtx, "--source", "0", "--weight-type", "uint32", "--cache-dir", dir)
	require.Equal(t, 1, code)
	assert.Contains(t, errOut, "r.mtx: line 3: value is not an integer")
	code, _, errOut = mgraph(t, "run", "sssp", mtx, "--weight-type", "float64", "--cache-dir", dir)
	require.Equal(t, 2, code)
	assert.Contains(t, errOut, "--weight-type")
	// Integers read as float32 on request (a cache entry of its own).
	ints := filepath.Join(dir, "i.wel")
	require.NoError(t, os.WriteFile(ints, []byte("0 1 16777217\n1 2 1\n"), 0o644))
	tsv := filepath.Join(dir, "i.tsv")
	code, _, errOut = mgraph(t, "run", "sssp", ints, "--source", "0", "--out", tsv, "--cache-dir", dir)
	require.Equal(t, 0, code, errOut)
	data, _ := os.ReadFile(tsv)
	assert.Equal(t, "0\t0\n1\t16777217\n2\t16777218\n", string(data))
	code, _, errOut = mgraph(t, "run", "sssp", ints, "--source", "0", "--out", tsv, "--weight-type", "float32", "--validate", "--cache-dir", dir)
	require.Equal(t, 0, code, errOut)
	data, _ = os.ReadFile(tsv)
	assert.Equal(t, "0\t0\n1\t1.6777216e+07\n2\t1.6777216e+07\n", string(data), "float32 sums round (the shortest decimals)")
	// Partitioned runs give the float32 distances one backend gives.
	whole, parted := filepath.Join(dir, "whole.tsv"), filepath.Join(dir, "parted.tsv")
	code, _, errOut = mgraph(t, "run", "sssp", mtx, "--source", "0", "--out", whole, "--cache-dir", dir)
	require.Equal(t, 0, code, errOut)
	code, partOut, errOut := mgraph(t, "run", "sssp", mtx, "--source", "0", "--parts", "2", "--validate", "--out", parted, "--cache-dir", dir)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, partOut, "validation: ok")
	wantOut, err := os.ReadFile(whole)
	require.NoError(t, err)
	gotOut, err := os.ReadFile(parted)
	require.NoError(t, err)
	assert.Equal(t, string(wantOut), string(gotOut))
	// msf takes no float32 weights; GAPBS's .wsg holds none.
	code, _, errOut = mgraph(t, "run", "msf", mtx, "--cache-dir", dir)
	require.Equal(t, 1, code)
	assert.Contains(t, errOut, "float32 weights are not supported")
	code, _, errOut = mgraph(t, "convert", mtx, filepath.Join(dir, "r.wsg"))
	require.Equal(t, 1, code)
	assert.Contains(t, errOut, "float32")
	code, _, errOut = mgraph(t, "gen", "grid:4", "--weights", "1", "--weight-type", "float32", "--weight-max", "9", "-o", filepath.Join(dir, "x.mtx"))
	require.Equal(t, 2, code)
	assert.Contains(t, errOut, "--weight-min and --weight-max bound integer weights")
	// convert --weight-type uint32 of integral floats gives integers back.
	fl := filepath.Join(dir, "f.mgb")
	code, _, errOut = mgraph(t, "convert", ints, fl, "--weight-type", "float32")
	require.Equal(t, 0, code, errOut)
	back := filepath.Join(dir, "back.wel")
	code, _, errOut = mgraph(t, "convert", fl, back, "--weight-type", "uint32")
	require.Equal(t, 0, code, errOut)
	data, _ = os.ReadFile(back)
	assert.Contains(t, string(data), "0\t1\t16777216\n", "the float32 of 16777217, as an integer")
	assert.NotContains(t, string(data), "mgraph weights: float32")
}
