package report

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mgraph-dev/mgraph/bench"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGenerateFromTinyResults(t *testing.T) {
	p := bench.DefaultPlan()
	p.Graphs = []string{"rmat:7:8", "grid:12:0.1"}
	p.Apps = []string{"bfs", "pr"}
	p.Trials, p.Threads, p.Symmetrize, p.Renumber = 1, 2, true, true
	p.Oracle = []string{"bfs"}
	p.NoCache = true
	p.Params.PanelSize = 64
	res, err := bench.Run(context.Background(), p, bench.Options{})
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, bench.WriteDir(dir, res))
	loaded, err := bench.Load(dir)
	require.NoError(t, err)

	files, err := Generate(dir, loaded, Options{Sources: []string{dir}})
	require.NoError(t, err)
	for _, want := range []string{"mteps-bfs.png", "mteps-pr.svg", "renumber-rmat_7_8.png", "renumber-grid_12x12_0.1.svg",
		"oracle-bfs-rmat_7_8.png", "oracle-bfs-grid_12x12_0.1.svg", "report.md"} {
		path := filepath.Join(dir, want)
		assert.Contains(t, files, path)
		st, err := os.Stat(path)
		require.NoError(t, err, want)
		assert.Greater(t, st.Size(), int64(500), want)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	require.NoError(t, err)
	for _, want := range []string{"## Environment", "## Where the engine stands", "![mteps-bfs](mteps-bfs.png)",
		"## Renumbering", "Table 2", "![oracle-bfs-grid_12x12_0.1](oracle-bfs-grid_12x12_0.1.png)", "## Graphs and preparation"} {
		assert.Contains(t, string(md), want)
	}
	png, err := os.ReadFile(filepath.Join(dir, "mteps-bfs.png"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(png), "\x89PNG"))
}
