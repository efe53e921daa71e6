package main

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/bench"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunOperatorApps: every operator app runs and validates on the CPU
// backend, on a directed R-MAT (tc, kcore, color and mis on its
// symmetrization), some with every load-balancing strategy, ppr over
// several sources and ppr, hits and salsa under an iteration cap.
func TestRunOperatorApps(t *testing.T) {
	cache := t.TempDir()
	common := []string{"rmat:8:8", "--validate", "--backend", "cpu", "--cache-dir", cache, "--panel-size", "64", "--threads", "2"}
	for _, app := range apps.OperatorApps {
		code, out, errOut := mgraph(t, append([]string{"run", app, "--trials", "2"}, common...)...)
		require.Equal(t, 0, code, "%s: %s", app, errOut)
		assert.Contains(t, out, "validation: ok", app)
		assert.Contains(t, out, "trial 2/2", app)
		assert.Contains(t, out, "cpu×2, operators (lb auto)", app)
		assert.NotContains(t, out, "mode switches", app)
		assert.Regexp(t, `best .*, median .*, [0-9.]+ MTEPS`, out, app)
		if apps.Undirected(app) {
			assert.Contains(t, errOut, app+": the graph is directed; using its symmetrized layout", app)
		}
	}
	for _, lb := range []string{"thread", "twc", "lb"} {
		for _, app := range []string{"tc", "kcore", "mis", "salsa"} {
			code, out, errOut := mgraph(t, append([]string{"run", app, "--lb", lb}, common...)...)
			require.Equal(t, 0, code, "%s --lb %s: %s", app, lb, errOut)
			assert.Contains(t, out, "validation: ok", "%s --lb %s", app, lb)
			assert.Contains(t, out, "operators (lb "+lb+")", "%s --lb %s", app, lb)
		}
	}
	for _, args := range [][]string{
		{"ppr", "--sources", "3", "--tolerance", "1e-9", "--max-iterations", "50"},
		{"ppr", "--source", "7", "--max-iterations", "2"},
		{"hits", "--max-iterations", "3"},
		{"salsa", "--tolerance", "1e-10", "--max-iterations", "60"},
		{"wtf", "--source", "3"},
		{"color", "--seed", "9"},
		{"mis", "--seed", "9"},
	} {
		code, out, errOut := mgraph(t, append(append([]string{"run"}, args...), common...)...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		assert.Contains(t, out, "validation: ok", "%v", args)
	}
	// ppr personalises on all the sources, in every trial.
	code, out, errOut := mgraph(t, append([]string{"run", "ppr", "--sources", "3", "--trials", "2", "--json"}, common...)...)
	require.Equal(t, 0, code, errOut)
	var s struct {
		Trials []struct {
			Sources []uint32 `json:"sources"`
		} `json:"trials"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &s), out)
	require.Len(t, s.Trials, 2)
	require.Len(t, s.Trials[0].Sources, 3)
	require.Equal(t, s.Trials[0].Sources, s.Trials[1].Sources)
}

// TestRunEngineOperators: bfs and sssp with --engine operators give the
// MultiGraph engines' levels and distances with every strategy, validate
// (bfs under a depth limit too), and trace the operator calls.
func TestRunEngineOperators(t *testing.T) {
	dir := t.TempDir()
	for _, app := range []string{"bfs", "sssp"} {
		common := []string{"run", app, "rmat:9:8", "--undirected", "--source", "5", "--backend", "cpu", "--threads", "2",
			"--cache-dir", dir, "--panel-size", "64"}
		if app == "sssp" {
			common = append(common, "--weights", "3")
		}
		want := filepath.Join(dir, app+"-multigraph.tsv")
		code, _, errOut := mgraph(t, append(common, "--out", want)...)
		require.Equal(t, 0, code, errOut)
		wantData, err := os.ReadFile(want)
		require.NoError(t, err)
		for _, lb := range []string{"auto", "thread", "twc", "lb"} {
			got := filepath.Join(dir, app+"-"+lb+".tsv")
			code, out, errOut := mgraph(t, append(common, "--engine", "operators", "--lb", lb, "--validate", "--out", got)...)
			require.Equal(t, 0, code, "%s --lb %s: %s", app, lb, errOut)
			assert.Contains(t, out, "validation: ok")
			assert.Contains(t, out, "operators (lb "+lb+")")
			gotData, err := os.ReadFile(got)
			require.NoError(t, err)
			require.Equal(t, string(wantData), string(gotData), "%s --engine operators --lb %s", app, lb)
		}
	}

	// The operators' bfs pulls by Beamer's rule on R-MAT, and pushes only
	// with --no-pull; the levels are the same.
	for _, dir2 := range [][]string{{"--directed"}, {"--undirected"}} {
		base := []string{"run", "bfs", "rmat:10:16", "--source", "3", "--engine", "operators", "--backend", "cpu",
			"--threads", "2", "--cache-dir", dir, "--panel-size", "64", "--validate", "--trace", filepath.Join(dir, "pull.json")}
		if dir2[0] == "--undirected" {
			base = append(base, "--undirected")
		}
		pulled := filepath.Join(dir, "pulled.tsv")
		code, out, errOut := mgraph(t, append(base, "--out", pulled)...)
		require.Equal(t, 0, code, errOut)
		assert.Contains(t, out, "validation: ok")
		assert.Contains(t, out, "advance:pull", "%v", dir2)
		pushed := filepath.Join(dir, "pushed.tsv")
		code, out, errOut = mgraph(t, append(base, "--no-pull", "--out", pushed)...)
		require.Equal(t, 0, code, errOut)
		assert.NotContains(t, out, "advance:pull")
		a, err := os.ReadFile(pulled)
		require.NoError(t, err)
		b, err := os.ReadFile(pushed)
		require.NoError(t, err)
		assert.Equal(t, string(b), string(a), "%v", dir2)
	}

	code, out, errOut := mgraph(t, "run", "bfs", "rmat:9:8", "--undirected", "--engine", "operators", "--max-iterations", "2",
		"--validate", "--cache-dir", dir, "--panel-size", "64", "--backend", "cpu")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "validation: ok")
	assert.Contains(t, out, "2 iterations")

	trace := filepath.Join(dir, "trace.json")
	code, out, errOut = mgraph(t, "run", "bfs", "grid:8:0", "--source", "0", "--engine", "operators", "--lb", "twc",
		"--no-pull", "--trace", trace, "--cache-dir", dir, "--backend", "cpu")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "15 iterations (advance:twc 15)")
	var doc traceFile
	raw, err := os.ReadFile(trace)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &doc))
	assert.Equal(t, "operators", doc.Engine)
	assert.Equal(t, "twc", doc.LB)
	assert.Empty(t, doc.Mode)
	require.Len(t, doc.Trials, 1)
	res := doc.Trials[0].Result
	require.Len(t, res.Trace, 15)
	assert.Equal(t, "advance:twc", res.Trace[0].Mode)
	assert.Equal(t, uint64(1), res.Trace[0].FrontierVertices)
	assert.Equal(t, []uint32{0}, doc.Trials[0].Sources)

	// An operator app's trace names every operator call.
	code, out, errOut = mgraph(t, "run", "kcore", "grid:8:0", "--trace", trace, "--cache-dir", dir, "--backend", "cpu")
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `iterations \([^)]*filter:equals \d+[^)]*advance:twc \d+\)`, out)
	raw, err = os.ReadFile(trace)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &doc))
	assert.Equal(t, "kcore", doc.App)
	modes := map[string]bool{}
	for _, it := range doc.Trials[0].Result.Trace {
		modes[it.Mode] = true
	}
	assert.True(t, modes["filter:equals"], "%v", modes)
}

// TestRunOperatorsOut: --out of every operator app reads back (TSV, CSV,
// .bin) into values the references accept, and agrees with --json.
func TestRunOperatorsOut(t *testing.T) {
	dir := t.TempDir()
	el := testgraphs.Generated(t, "rmat:8:8", 1)
	dg := graph.ToCSR(el, 2)
	sel := testgraphs.Generated(t, "rmat:8:8", 1)
	sel.Symmetrize(2)
	sg := graph.ToCSR(sel, 2)
	n := int(dg.NumVertices)
	run := func(args ...string) string {
		t.Helper()
		args = append([]string{"run"}, args...)
		code, out, errOut := mgraph(t, append(args, "--cache-dir", dir, "--panel-size", "64", "--backend", "cpu")...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		return out
	}

	// tc: per-vertex counts; the total in --json.
	tsv := filepath.Join(dir, "tc.tsv")
	out := run("tc", "rmat:8:8", "--out", tsv, "--json")
	var js struct {
		Triangles *uint64 `json:"triangles"`
		Engine    string  `json:"engine"`
		LB        string  `json:"lb"`
		Mode      *string `json:"mode"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &js), out)
	require.NotNil(t, js.Triangles)
	assert.Equal(t, "operators", js.Engine)
	assert.Equal(t, "auto", js.LB)
	assert.Nil(t, js.Mode, "no mode for the operators")
	cols := readColumns(t, tsv, "\t", "", n)
	per := make([]uint64, n)
	sum := uint64(0)
	for v, c := range cols {
		per[v] = parseUint(t, c[0])
		sum += per[v]
	}
	assert.Equal(t, *js.Triangles, sum/3)
	require.NoError(t, apps.ValidateTriangles(sg, *js.Triangles, per))
	bin := filepath.Join(dir, "tc.bin")
	run("tc", "rmat:8:8", "--out", bin)
	raw, err := os.ReadFile(bin)
	require.NoError(t, err)
	require.Len(t, raw, 8*n)
	for v := range per {
		require.Equal(t, per[v], binary.LittleEndian.Uint64(raw[8*v:]), v)
	}

	// kcore and color: one value per vertex.
	csv := filepath.Join(dir, "kcore.csv")
	run("kcore", "rmat:8:8", "--out", csv)
	require.NoError(t, apps.ValidateKCore(sg, uint32Column(t, readColumns(t, csv, ",", "vertex,value", n), 0)))
	tsv = filepath.Join(dir, "color.tsv")
	run("color", "rmat:8:8", "--out", tsv, "--seed", "4")
	require.NoError(t, apps.ValidateColor(sg, uint32Column(t, readColumns(t, tsv, "\t", "", n), 0)))

	// mis: 1 for the set, 0 for the others; .bin a byte each.
	tsv, bin = filepath.Join(dir, "mis.tsv"), filepath.Join(dir, "mis.bin")
	run("mis", "rmat:8:8", "--out", tsv)
	run("mis", "rmat:8:8", "--out", bin)
	raw, err = os.ReadFile(bin)
	require.NoError(t, err)
	require.Len(t, raw, n)
	in := make([]bool, n)
	for v, c := range readColumns(t, tsv, "\t", "", n) {
		require.Contains(t, []string{"0", "1"}, c[0])
		in[v] = c[0] == "1"
		require.Equal(t, in[v], raw[v] == 1, v)
	}
	require.NoError(t, apps.ValidateMIS(sg, in))

	// hits and salsa: vertex, hub, authority; .bin all hubs, then all
	// authorities.
	for _, app := range []string{"hits", "salsa"} {
		csv, bin = filepath.Join(dir, app+".csv"), filepath.Join(dir, app+".bin")
		run(app, "rmat:8:8", "--out", csv)
		run(app, "rmat:8:8", "--out", bin)
		cols := readColumns(t, csv, ",", "vertex,hub,authority", n)
		hubs, auth := floatColumn(t, cols, 0), floatColumn(t, cols, 1)
		require.NoError(t, apps.ValidateHubsAuthorities(dg, app == "salsa", 20, 1e-4, hubs, auth), app)
		raw, err = os.ReadFile(bin)
		require.NoError(t, err)
		require.Len(t, raw, 16*n, app)
		for v := range n {
			require.Equal(t, hubs[v], math.Float64frombits(binary.LittleEndian.Uint64(raw[8*v:])), "%s hub %d", app, v)
			require.Equal(t, auth[v], math.Float64frombits(binary.LittleEndian.Uint64(raw[8*(n+v):])), "%s authority %d", app, v)
		}
	}

	// ppr: a rank per vertex.
	tsv = filepath.Join(dir, "ppr.tsv")
	run("ppr", "rmat:8:8", "--source", "3", "--out", tsv)
	pr := apps.PageRankOptions{Damping: 0.85, Tolerance: 1e-4, MaxIterations: 20}
	require.NoError(t, apps.ValidatePPR(dg, []uint32{3}, pr, floatColumn(t, readColumns(t, tsv, "\t", "", n), 0)))

	// wtf: rank, vertex, best first; the same list in --json.
	tsv, csv = filepath.Join(dir, "wtf.tsv"), filepath.Join(dir, "wtf.csv")
	out = run("wtf", "rmat:8:8", "--source", "3", "--out", tsv, "--json")
	var wj struct {
		Recommendations []uint32 `json:"recommendations"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &wj), out)
	require.NotEmpty(t, wj.Recommendations)
	rec := uint32Column(t, readColumns(t, tsv, "\t", "", len(wj.Recommendations)), 0)
	require.Equal(t, wj.Recommendations, rec)
	require.NoError(t, apps.ValidateWTF(dg, 3, ref.DefaultWTFOptions(), rec))
	run("wtf", "rmat:8:8", "--source", "3", "--out", csv)
	require.Equal(t, rec, uint32Column(t, readColumns(t, csv, ",", "rank,vertex", len(rec)), 0))
	_, out, _ = mgraph(t, "run", "wtf", "rmat:8:8", "--source", "3", "--cache-dir", dir, "--panel-size", "64", "--backend", "cpu")
	assert.Contains(t, out, "recommendations for vertex 3: "+strconv.FormatUint(uint64(rec[0]), 10))
}

// TestRunOperatorsBadFlags: flags that do not apply to an app are refused
// with a usage error that says why.
func TestRunOperatorsBadFlags(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"run", "cc", "grid:4", "--engine", "operators"}, 2, "cc is not written with the operators"},
		{[]string{"run", "pr", "grid:4", "--engine", "operators"}, 2, "pr is not written with the operators"},
		{[]string{"run", "tc", "grid:4", "--engine", "multigraph"}, 2, "tc is written with the operators alone"},
		{[]string{"run", "bfs", "grid:4", "--engine", "gunrock"}, 2, `unknown engine "gunrock"`},
		{[]string{"run", "bfs", "grid:4", "--lb", "twc"}, 2, "--lb is the operators' load balancing"},
		{[]string{"run", "cc", "grid:4", "--lb", "lb"}, 2, "--lb is the operators' load balancing"},
		{[]string{"run", "tc", "grid:4", "--lb", "fast"}, 2, `unknown load-balancing strategy "fast"`},
		{[]string{"run", "tc", "grid:4", "--mode", "sparse"}, 2, "the operators have no modes"},
		{[]string{"run", "bfs", "grid:4", "--engine", "operators", "--mode", "async"}, 2, "the operators have no modes"},
		{[]string{"run", "kcore", "grid:4", "--max-iterations", "3"}, 2, "kcore has no iteration cap"},
		{[]string{"run", "wtf", "grid:4", "--max-iterations", "3"}, 2, "wtf has no iteration cap"},
		{[]string{"run", "wtf", "grid:4", "--source", "16"}, 2, "--source 16 is not a vertex"},
		{[]string{"run", "ppr", "grid:4", "--damping", "1.5"}, 1, "damping"},
		{[]string{"run", "sssp", "grid:4", "--engine", "operators"}, 1, "add --weights SEED"},
		{[]string{"run", "tc", "grid:4", "--backend", "cuda"}, 1, "--backend cuda"},
		{[]string{"run", "tc", "grid:4", "--validate", "--out", filepath.Join(dir, "no", "such", "dir.tsv")}, 1, "dir.tsv"},
		{[]string{"bench", "--apps", "bfs", "--lb", "twc", "rmat:6"}, 2, "add --engines operators"},
		{[]string{"bench", "--apps", "bfs", "--engines", "gunrock", "rmat:6"}, 2, `--engines: unknown engine "gunrock"`},
		{[]string{"bench", "--apps", "bfs", "--engines", ",", "rmat:6"}, 2, "--engines: no engines"},
		{[]string{"bench", "--apps", "bfs", "--engines", "operators", "--lb", "fast", "rmat:6"}, 2, `unknown load-balancing strategy "fast"`},
		{[]string{"bench", "--apps", "tri", "rmat:6"}, 2, "tc, kcore, color, mis, msf, ppr, hits, salsa, wtf"},
	}
	for _, c := range cases {
		if c.msg == "--backend cuda" && gpu.Available() {
			continue // the error is for machines without a usable GPU
		}
		args := append(c.args, "--cache-dir", dir)
		code, _, errOut := mgraph(t, args...)
		assert.Equal(t, c.code, code, "%v: %s", c.args, errOut)
		assert.Contains(t, errOut, c.msg, "%v", c.args)
	}
}

// TestBenchOperators: the operator apps run in bench, and bfs and sssp on
// both engines side by side (the operator twins cpu-ops and
// cpu-ops-STRATEGY), the apps without an operator version as error rows
// on the twins.
func TestBenchOperators(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "res")
	code, stdout, errOut := mgraph(t, "bench", "--apps", "bfs,sssp,cc,tc,kcore,color,mis,msf,ppr,hits,salsa,wtf",
		"--engines", "multigraph,operators", "--lb", "auto,lb", "--modes", "hybrid", "--trials", "1", "--symmetrize",
		"--threads", "2", "--cache-dir", dir, "--panel-size", "64", "--out", out, "rmat:7:8")
	require.Equal(t, 0, code, errOut)
	for _, app := range []string{"bfs", "sssp"} {
		for _, series := range []string{"hybrid", "cpu-ops hybrid", "cpu-ops-lb hybrid"} {
			assert.Regexp(t, regexp.MustCompile(`(?m)^`+app+` +rmat:7:8 +original +`+series+` +1 +[0-9.]+ [µm]?s`), stdout, "%s %s", app, series)
		}
	}
	for _, app := range apps.OperatorApps {
		for _, series := range []string{"hybrid", "cpu-ops hybrid", "cpu-ops-lb hybrid"} {
			assert.Regexp(t, regexp.MustCompile(`(?m)^`+app+` +rmat:7:8 +original +`+series+` +1 +[0-9.]+ [µm]?s`), stdout, "%s %s", app, series)
		}
	}
	assert.Regexp(t, `(?m)^cc +rmat:7:8 +original +cpu-ops hybrid +0 +ERROR`, stdout)
	res, err := bench.Load(out)
	require.NoError(t, err)
	assert.Equal(t, []string{"cpu", "cpu-ops", "cpu-ops-lb"}, res.Plan.Backends)
	errors := 0
	for _, tr := range res.Trials {
		if tr.Error != "" {
			errors++
			assert.Equal(t, "cc", tr.App, tr.Error)
			assert.Contains(t, tr.Error, "not written with the operators")
			continue
		}
		assert.Positive(t, tr.MTEPS, "%+v", tr)
		assert.Positive(t, tr.Iterations, "%+v", tr)
		if tr.App == "ppr" || tr.App == "wtf" || tr.App == "bfs" {
			assert.Len(t, tr.Sources, 1, "%+v", tr)
		}
	}
	assert.Equal(t, 2, errors)
}

// readColumns reads a --out file of want lines (after header, when not
// empty) and returns each line's columns after the first, checking that the
// first is the line's index.
func readColumns(t *testing.T, path, sep, header string, want int) [][]string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	if header != "" {
		require.True(t, sc.Scan(), path)
		require.Equal(t, header, sc.Text(), path)
	}
	var out [][]string
	for sc.Scan() {
		c := strings.Split(sc.Text(), sep)
		require.GreaterOrEqual(t, len(c), 2, sc.Text())
		require.Equal(t, strconv.Itoa(len(out)), c[0], path)
		out = append(out, c[1:])
	}
	require.NoError(t, sc.Err())
	require.Len(t, out, want, path)
	return out
}

func parseUint(t *testing.T, s string) uint64 {
	t.Helper()
	x, err := strconv.ParseUint(s, 10, 64)
	require.NoError(t, err, s)
	return x
}

func uint32Column(t *testing.T, cols [][]string, i int) []uint32 {
	t.Helper()
	out := make([]uint32, len(cols))
	for v, c := range cols {
		out[v] = uint32(parseUint(t, c[i]))
	}
	return out
}

func floatColumn(t *testing.T, cols [][]string, i int) []float64 {
	t.Helper()
	out := make([]float64, len(cols))
	for v, c := range cols {
		x, err := strconv.ParseFloat(c[i], 64)
		require.NoError(t, err, c[i])
		out[v] = x
	}
	return out
}

// TestRunOperatorsRefuseEngineFlags: the MultiGraph engines' tuning flags
// are refused with the operators, not ignored.
func TestRunOperatorsRefuseEngineFlags(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"run", "bfs", "rmat:6", "--engine", "operators", "--gpu-no-loop"},
		{"run", "tc", "rmat:6", "--gpu-no-loop"},
	} {
		code, _, errOut := mgraph(t, append(args, "--cache-dir", dir)...)
		assert.Equal(t, 2, code, "%v: %s", args, errOut)
		assert.Contains(t, errOut, "tunes the MultiGraph engines", "%v", args)
	}
}
