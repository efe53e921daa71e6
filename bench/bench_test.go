package bench

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tinyPlan is a quick plan on tiny generated graphs.
func tinyPlan(t *testing.T) Plan {
	p := DefaultPlan()
	p.Graphs = []string{"rmat:8:8", "grid:16:0.1"}
	p.Apps = []string{"bfs", "bfs-tree", "sssp", "cc", "cc-lp", "pr", "pr-delta", "bc"} // the MultiGraph apps (the operator apps have no modes)
	p.Trials = 2
	p.Threads = 2
	p.Symmetrize = true
	p.Renumber = true
	p.Oracle = []string{"bfs", "sssp"}
	p.CacheDir = t.TempDir()
	p.Params = layout.DefaultParams()
	p.Params.PanelSize = 64
	return p
}

func TestRunEndToEnd(t *testing.T) {
	p := tinyPlan(t)
	p.Externals = []External{{Name: "true", App: "bfs", Command: "test -s {graph} && test -s {graph:mtx} && test {source} -ge 0"}}
	var log strings.Builder
	res, err := Run(context.Background(), p, Options{Log: &log})
	require.NoError(t, err)
	assert.Contains(t, log.String(), "[1/")

	// 2 graphs × 2 numberings × (8 apps × 3 modes + 1 external) × 2 trials.
	require.Len(t, res.Trials, 2*2*(8*3+1)*2)
	for _, tr := range res.Trials {
		assert.Positive(t, tr.Seconds, "%+v", tr)
		assert.Positive(t, tr.MTEPS, "%+v", tr)
		assert.Positive(t, tr.Arcs)
		if tr.Mode != "external" {
			assert.Positive(t, tr.Iterations, "%+v", tr)
			assert.Equal(t, 2, tr.Threads)
		}
		if tr.App == "bfs" || tr.App == "sssp" || tr.App == "bc" {
			assert.Len(t, tr.Sources, 1)
		}
	}
	// The same vertices are the sources of every mode, renumbered for the
	// renumbered graph.
	var orig, ren []uint32
	for _, tr := range res.Trials {
		if tr.App == "bfs" && tr.Graph == "rmat:8:8" && tr.Mode == "dense" && tr.Trial == 1 {
			if tr.Numbering == "original" {
				orig = tr.Sources
			} else {
				ren = tr.Sources
			}
		}
	}
	require.NotNil(t, orig)
	require.NotNil(t, ren)

	// Preparation: the first layout of each graph was read and
	// preprocessed; sssp got a weighted variant.
	var variants []string
	for _, pr := range res.Preps {
		variants = append(variants, pr.Graph+" "+pr.Variant)
		assert.Positive(t, pr.PreprocessSeconds+pr.CacheLoadSeconds, pr.Variant)
	}
	assert.Contains(t, variants, "rmat:8:8 original+weights")
	assert.Contains(t, variants, "grid:16x16:0.1 renumbered")
	assert.Positive(t, res.Preps[0].ReadSeconds)

	sl := Slowdowns(Summarize(res.Trials))
	assert.Len(t, sl, 2*(8*3+1))

	dir := t.TempDir()
	require.NoError(t, WriteDir(dir, res))
	back, err := Load(dir)
	require.NoError(t, err)
	assert.Equal(t, len(res.Trials), len(back.Trials))
	assert.Positive(t, back.Environment.Cores)
	assert.NotEmpty(t, back.Environment.CPUModel)
	assert.NotEmpty(t, back.Environment.GoVersion)
	assert.Equal(t, uint32(64), back.Environment.Params.PanelSize)
	assert.Len(t, back.Oracles, 4)

	f, err := os.Open(filepath.Join(dir, "results.csv"))
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, len(res.Trials)+1)
	assert.Equal(t, csvHeader, rows[0])
	for _, row := range rows {
		assert.Len(t, row, len(csvHeader))
	}
	table, err := os.ReadFile(filepath.Join(dir, "table.txt"))
	require.NoError(t, err)
	assert.Contains(t, string(table), "renumbering")
	assert.Contains(t, string(table), "oracle bfs on grid:16x16:0.1")
}

func TestOracleAgreesAndAddsUp(t *testing.T) {
	p := tinyPlan(t)
	p.Apps = []string{"bfs"}
	p.Modes = nil
	p.Renumber = false
	res, err := Run(context.Background(), p, Options{})
	require.NoError(t, err)
	require.Len(t, res.Oracles, 4) // bfs and sssp on two graphs
	for _, o := range res.Oracles {
		require.NotEmpty(t, o.Iterations, o.App)
		assert.Zero(t, o.Mismatches, "%s on %s: dense and sparse disagree", o.App, o.Graph)
		var sparse, dense, best, chosen float64
		for i, it := range o.Iterations {
			assert.Equal(t, i, it.Iteration)
			assert.True(t, it.Agree)
			assert.Positive(t, it.FrontierVertices)
			assert.Positive(t, it.SparseSeconds)
			assert.Positive(t, it.DenseSeconds)
			assert.LessOrEqual(t, it.BestSeconds, min(it.SparseSeconds, it.DenseSeconds))
			sparse += it.SparseSeconds
			dense += it.DenseSeconds
			best += it.BestSeconds
			switch it.Hybrid {
			case "sparse":
				chosen += it.SparseSeconds
			case "dense":
				chosen += it.DenseSeconds
			case "pull":
				chosen += it.PullSeconds
			}
		}
		assert.InDelta(t, sparse, o.TotalSparse, 1e-12)
		assert.InDelta(t, dense, o.TotalDense, 1e-12)
		assert.InDelta(t, best, o.TotalBest, 1e-12)
		assert.LessOrEqual(t, o.TotalBest, min(o.TotalSparse, o.TotalDense))
		assert.InDelta(t, o.TotalChosen-o.TotalBest, o.Regret, 1e-12)
		assert.GreaterOrEqual(t, o.Regret, -1e-12)
		// min programs: the hybrid ran the same iterations.
		assert.Equal(t, len(o.Iterations), o.HybridIterations, "%s on %s", o.App, o.Graph)
		assert.InDelta(t, chosen, o.TotalChosen, 1e-12)
	}
}

func TestRunErrorsNameTheConfiguration(t *testing.T) {
	p := tinyPlan(t)
	p.Graphs = []string{"no-such-file.mtx"}
	_, err := Run(context.Background(), p, Options{})
	assert.ErrorContains(t, err, "no-such-file.mtx: no such file, and not a generator spec")

	p = tinyPlan(t)
	p.Apps, p.Oracle, p.Renumber = nil, nil, false
	p.Graphs = []string{"rmat:6"}
	p.Externals = []External{{Name: "fails", Command: "echo boom; exit 3"}}
	_, err = Run(context.Background(), p, Options{})
	assert.ErrorContains(t, err, "external fails")
	assert.ErrorContains(t, err, "boom")
}

func TestDenseStepBytes(t *testing.T) {
	d := DenseBytes{Layout: 1000, Weights: 300, Slots: 50}
	assert.Equal(t, uint64(1000+2*50*4+10*10), DenseStepBytes("bfs", 10, d))
	assert.Equal(t, uint64(1000+300+2*50*4+10*10), DenseStepBytes("sssp", 10, d))
	assert.Equal(t, uint64(1000+2*50*8+10*32), DenseStepBytes("pr", 10, d))
	assert.Zero(t, DenseStepBytes("bc", 10, d))
	d.PRPull = 700 // the pull scheme's model for pr only
	assert.Equal(t, uint64(700+10*56), DenseStepBytes("pr", 10, d))
	assert.Equal(t, uint64(1000+2*50*8+10*32), DenseStepBytes("pr-delta", 10, d))

	l := buildTiny(t)
	got := DenseBytesOf(l)
	assert.Equal(t, uint64(len(l.SlotDst)), got.Slots)
	assert.Equal(t, 2*uint64(len(l.LightSrc))+4*uint64(len(l.LightSlot))+2*uint64(len(l.HeavyMatrix))+2*uint64(len(l.SlotDst))+
		4*uint64(len(l.HeavyCol)+len(l.HeavyRows)+len(l.HeavyNumDst))+8*uint64(len(l.HeavyMatrixStart)+len(l.HeavySlot)+len(l.LightStart)+len(l.RowSlotStart)),
		got.Layout)
	assert.Positive(t, got.Layout)
	var heavySlots uint64
	for _, d := range l.HeavyNumDst {
		heavySlots += uint64(d)
	}
	require.Positive(t, heavySlots)
	assert.Equal(t, 2*uint64(len(l.HeavyMatrix))+2*heavySlots+6*uint64(len(l.LightSrc))+
		4*uint64(len(l.HeavyRow)+len(l.HeavyCol)+len(l.HeavyRows)+len(l.HeavyNumDst))+8*uint64(len(l.HeavyMatrixStart)+len(l.HeavySlot)),
		got.PRPull)
}

// buildTiny builds the layout of a small symmetric R-MAT graph.
func buildTiny(t *testing.T) *layout.Layout {
	t.Helper()
	s, err := gen.ParseSpec("rmat:9:8")
	require.NoError(t, err)
	el, err := s.Generate(context.Background(), 1, 2, nil)
	require.NoError(t, err)
	el.Symmetrize(2)
	p := layout.DefaultParams()
	p.PanelSize, p.HeavyThreshold, p.HeavyColumns = 64, 100, 32
	l, err := preprocess.Build(context.Background(), el, p, preprocess.Options{Workers: 2})
	require.NoError(t, err)
	return l
}
