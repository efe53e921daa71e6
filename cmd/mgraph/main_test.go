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
)

// mgraph runs the CLI in-process and returns its exit status and output.
func mgraph(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, &env{stdout: &out, stderr: &errOut})
	return code, out.String(), errOut.String()
}

func TestHelpListsCommands(t *testing.T) {
	code, out, _ := mgraph(t)
	assert.Equal(t, 0, code)
	for _, c := range commands() {
		assert.Contains(t, out, c.name)
	}
	code, _, errOut := mgraph(t, "gen", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, errOut, "Examples:")
}

func TestUnknownCommandAndBadFlags(t *testing.T) {
	code, _, errOut := mgraph(t, "frobnicate")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `unknown command "frobnicate"`)
	code, _, errOut = mgraph(t, "gen", "--no-such-flag")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "no-such-flag")
	code, _, errOut = mgraph(t, "gen", "rmat:4")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "-o")
	code, _, errOut = mgraph(t, "gen", "bogus:3", "-o", filepath.Join(t.TempDir(), "x.mtx"))
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "bogus")
	code, _, errOut = mgraph(t, "info", "--threads", "-3", "rmat:4")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--threads")
}

func TestGenConvertInfoRoundTrip(t *testing.T) {
	dir := t.TempDir()
	mtx := filepath.Join(dir, "g.mtx")
	code, out, errOut := mgraph(t, "gen", "rmat:8:4", "--seed", "3", "--symmetrize", "--dedupe", "--drop-self-loops", "--weights", "5", "-o", mtx)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "wrote "+mtx)

	for _, name := range []string{"g.mgb", "g.wel.zst", "g.gr.gz", "g.el"} {
		dst := filepath.Join(dir, name)
		code, _, errOut = mgraph(t, "convert", mtx, dst)
		require.Equal(t, 0, code, "%s: %s", name, errOut)
	}
	_, infoMtx, _ := mgraph(t, "info", "--json", mtx)
	_, infoMgb, _ := mgraph(t, "info", "--json", filepath.Join(dir, "g.mgb"))
	// Same graph: same counts and degree statistics whatever the format.
	strip := func(s string) string {
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, `"source"`) || strings.Contains(l, `"format"`) || strings.Contains(l, "seconds") ||
				strings.Contains(l, `"entries"`) || strings.Contains(l, "file_bytes") || strings.Contains(l, "compression") {
				continue
			}
			keep = append(keep, l)
		}
		return strings.Join(keep, "\n")
	}
	assert.Equal(t, strip(infoMtx), strip(infoMgb))

	code, out, errOut = mgraph(t, "info", mtx)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "vertices:")
	assert.Contains(t, out, "in-degree groups")
	assert.Contains(t, out, "undirected")
}

func TestInfoOnGeneratorSpecAndMissingFile(t *testing.T) {
	code, out, errOut := mgraph(t, "info", "grid:16:0")
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `vertices:\s+256\n`, out)
	assert.Regexp(t, `arcs:\s+960\n`, out)
	code, _, errOut = mgraph(t, "info", filepath.Join(t.TempDir(), "missing.mtx"))
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "missing.mtx")
}

func TestConvertBadInputNamesFileAndLine(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.mtx")
	require.NoError(t, os.WriteFile(bad, []byte("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n1 x\n"), 0o644))
	out := filepath.Join(dir, "out.mgb")
	code, _, errOut := mgraph(t, "convert", bad, out)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "bad.mtx")
	assert.Contains(t, errOut, "line 4")
	_, err := os.Stat(out)
	assert.True(t, os.IsNotExist(err), "no output file after a failed conversion")
}

func TestVersion(t *testing.T) {
	code, out, _ := mgraph(t, "version")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "mgraph ")
	assert.Contains(t, out, "cuda:")
}

func TestInfoLayout(t *testing.T) {
	cacheDir := t.TempDir()
	code, out, errOut := mgraph(t, "info", "--layout", "--cache-dir", cacheDir, "--panel-size", "100", "rmat:9:8")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "in-degree groups")
	assert.Contains(t, out, "panels: 6×6")
	assert.Regexp(t, `ratio [0-9.]+× CSR`, out)
	assert.Contains(t, errOut, "cached layout")
	// Second time: from the cache.
	code, _, errOut = mgraph(t, "info", "--layout", "--cache-dir", cacheDir, "--panel-size", "100", "rmat:9:8")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "loaded cached layout")
	code, _, errOut = mgraph(t, "info", "--layout", "--json", "rmat:9:8")
	assert.Equal(t, 2, code, errOut)
}
