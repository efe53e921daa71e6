package bench

import (
	"testing"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseLists(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    []string
		wantErr string
	}{
		{"bfs,sssp", []string{"bfs", "sssp"}, ""},
		{" BFS , pr-data,bfs", []string{"bfs", "pr-delta"}, ""},
		{"all", Apps, ""},
		{"bfs,triangles", nil, `unknown app "triangles"`},
		{",", nil, "no apps"},
	} {
		got, err := ParseApps(tc.in)
		if tc.wantErr != "" {
			assert.ErrorContains(t, err, tc.wantErr, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}

	modes, err := ParseModes("dense,hybrid,dense")
	require.NoError(t, err)
	assert.Equal(t, []engine.Mode{engine.Dense, engine.Hybrid}, modes)
	_, err = ParseModes("fast")
	assert.ErrorContains(t, err, `unknown mode "fast"`)

	b, err := ParseBackends("cpu")
	require.NoError(t, err)
	assert.Equal(t, []string{"cpu"}, b)
	_, err = ParseBackends("cuda")
	assert.ErrorContains(t, err, "GPU engines are not built")
	_, err = ParseBackends("tpu")
	assert.ErrorContains(t, err, `unknown backend "tpu"`)

	assert.Equal(t, []string{"rmat:20", "grid:1024:0.1", "My.mtx"}, SplitGraphs("rmat:20, grid:1024:0.1,,My.mtx"))
}

func TestParseExternal(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    External
		wantErr string
	}{
		{"gap=bfs -f {graph} -r {source}", External{Name: "gap", Command: "bfs -f {graph} -r {source}"}, ""},
		{"sssp:dimacs=sp {graph:gr} {source1}", External{Name: "dimacs", App: "sssp", Command: "sp {graph:gr} {source1}"}, ""},
		{"pr-data:x=run {graph:mtx} -t {threads}", External{Name: "x", App: "pr-delta", Command: "run {graph:mtx} -t {threads}"}, ""},
		{"no command", External{}, "want [APP:]NAME="},
		{"=cmd", External{}, "one word"},
		{"a=cmd {graph:xyz}", External{}, "unknown format"},
		{"a=cmd {vertex}", External{}, "unknown placeholder {vertex}"},
		{"tri:a=cmd", External{}, `unknown app "tri"`},
	} {
		got, err := ParseExternal(tc.in)
		if tc.wantErr != "" {
			assert.ErrorContains(t, err, tc.wantErr, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
	x := External{Name: "a", Command: "t {graph} {graph:mtx} {graph:el} {source} {source1} {threads}"}
	assert.Equal(t, []string{"el", "mtx"}, x.formats())
	assert.Equal(t, "t /g.el '/my g.mtx' /g.el 4 5 2", x.expand(map[string]string{"el": "/g.el", "mtx": "/my g.mtx"}, 4, 2))
}

func TestPlanValidate(t *testing.T) {
	ok := DefaultPlan()
	ok.Graphs = []string{"rmat:8"}
	require.NoError(t, ok.Validate())

	for _, tc := range []struct {
		name    string
		edit    func(*Plan)
		wantErr string
	}{
		{"no graphs", func(p *Plan) { p.Graphs = nil }, "no graphs"},
		{"no apps", func(p *Plan) { p.Apps = nil }, "no apps"},
		{"bad app", func(p *Plan) { p.Apps = []string{"x"} }, `unknown app "x"`},
		{"trials", func(p *Plan) { p.Trials = 0 }, "trials must be at least 1"},
		{"threads", func(p *Plan) { p.Threads = -1 }, "threads must be ≥ 0"},
		{"oracle", func(p *Plan) { p.Oracle = []string{"pr"} }, `no per-iteration oracle for "pr"`},
		{"backend", func(p *Plan) { p.Backends = []string{"cuda"} }, "issue #6"},
		{"params", func(p *Plan) { p.Params.PanelSize = 40000 }, "layout parameters"},
	} {
		p := DefaultPlan()
		p.Graphs = []string{"rmat:8"}
		tc.edit(&p)
		assert.ErrorContains(t, p.Validate(), tc.wantErr, tc.name)
	}
}

func TestTEPS(t *testing.T) {
	assert.Equal(t, 1000.0, TEPS("bfs", 100, 7, 1, 0.1))
	assert.Equal(t, 7000.0, TEPS("pr", 100, 7, 1, 0.1))
	assert.Equal(t, 6000.0, TEPS("bc", 100, 7, 3, 0.1))
	assert.Equal(t, 0.0, TEPS("bfs", 100, 7, 1, 0))
}
