package report

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mgraph-dev/mgraph/bench"
	"github.com/mgraph-dev/mgraph/cuda"
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

// TestBandwidthSection feeds GPU-like results (dense trials, a probe, an
// error row) and checks the bandwidth chart and tables.
func TestBandwidthSection(t *testing.T) {
	dense := bench.DenseBytes{Layout: 400e6, Weights: 100e6, Slots: 20e6}
	res := &bench.Results{FormatVersion: bench.FormatVersion,
		Environment: bench.Environment{Probe: &cuda.ProbeResult{Name: "H100", CopyGBps: 2800, ReadGBps: 3000}},
		Preps: []bench.Prep{{Graph: "rmat:21:16", Variant: "plain", Vertices: 2e6, Arcs: 60e6, Dense: dense},
			{Graph: "rmat:21:16", Variant: "renumbered", Vertices: 2e6, Arcs: 60e6, Dense: dense}},
	}
	trial := func(app, mode, numbering, variant string, secs float64, iters int) bench.Trial {
		return bench.Trial{App: app, Graph: "rmat:21:16", Vertices: 2e6, Arcs: 60e6, Numbering: numbering, Variant: variant,
			Mode: mode, Backend: "cuda", Trial: 1, Seconds: secs, EngineSecs: secs, Iterations: iters, MTEPS: 1}
	}
	res.Trials = []bench.Trial{
		trial("bfs", "dense", "original", "plain", 0.06, 10),
		trial("bfs", "sparse", "original", "plain", 0.01, 10),
		trial("pr", "hybrid", "original", "plain", 0.2, 20),
		trial("pr", "dense", "renumbered", "renumbered", 0.3, 20),
		{App: "bc", Graph: "rmat:21:16", Numbering: "original", Mode: "dense", Backend: "cuda", Trial: 1, Error: "no GPU bc"},
	}
	rows := BandwidthRows(res, 2800)
	require.Len(t, rows, 3) // the sparse bfs and the failed bc are left out
	b := rows[0]
	want := bench.DenseStepBytes("bfs", 2e6, dense)
	assert.Equal(t, want, b.BytesPerStep)
	assert.InDelta(t, float64(want)/60e6, b.BytesPerArc, 1e-9)
	assert.InDelta(t, float64(want)/0.006/1e9, b.GBps, 1e-9)
	assert.InDelta(t, 100*b.GBps/2800, b.PercentOfLimit, 1e-9)

	dir := t.TempDir()
	files, err := Generate(dir, res, Options{})
	require.NoError(t, err)
	assert.Contains(t, files, filepath.Join(dir, "bandwidth.png"))
	assert.Contains(t, files, filepath.Join(dir, "bandwidth.svg"))
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	require.NoError(t, err)
	for _, want := range []string{"## Bytes per arc against the bandwidth limit", "![bandwidth](bandwidth.png)",
		"the probe's copy bandwidth on H100 (2800 GB/s", "Configurations that did not run", "no GPU bc"} {
		assert.Contains(t, string(md), want)
	}
}
