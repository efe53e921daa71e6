package apps_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/format"
	"github.com/mgraph-dev/mgraph/internal/stress"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/stretchr/testify/require"
)

var (
	stressN    = flag.Int("stress.n", 4, "random graphs TestStress checks (besides the shape zoo); raise it for a long hunt")
	stressSeed = flag.Uint64("stress.seed", 1, "seed of TestStress's random graphs")
	stressHub  = flag.Bool("stress.hub", false, "TestStress also checks a star with a 10⁶-degree hub (minutes)")
)

// stressDir holds the minimised graphs of past failures, checked by
// TestStressRegressions.
const stressDir = "testdata/stress"

// TestStress runs every app in every mode on the CPU backend (checkGraph)
// over a zoo of awkward shapes and -stress.n random graphs, against the
// serial references. A failing graph is minimised (arcs dropped while it
// still fails) and saved under testdata/stress, where
// TestStressRegressions keeps checking it.
func TestStress(t *testing.T) {
	cases := 0
	for _, s := range stress.Graphs(t, *stressN, *stressSeed, *stressHub) {
		n, err := checkGraphCases(s.EL, testgraphs.SmallParams())
		cases += n
		if err == nil {
			continue
		}
		small := stress.Minimise(s.EL, func(el *graph.EdgeList) bool {
			return checkGraph(el, testgraphs.SmallParams()) != nil
		})
		path := saveStress(t, s.Name, small)
		t.Errorf("%s: %v\nminimised to %d vertices, %d arcs: %s (now a regression test)",
			s.Name, err, small.NumVertices, small.NumArcs(), path)
	}
	t.Logf("%d graph × app × mode × source cases checked", cases)
}

// TestStressRegressions checks every graph a past TestStress failure left.
func TestStressRegressions(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(stressDir, "*.el"))
	weighted, _ := filepath.Glob(filepath.Join(stressDir, "*.wel"))
	for _, f := range append(files, weighted...) {
		el, _, err := format.ReadFile(context.Background(), f, format.ReadOptions{})
		require.NoError(t, err, f)
		require.NoError(t, checkGraph(el, testgraphs.SmallParams()), f)
	}
}

// saveStress writes a failing graph under testdata/stress (.wel when
// weighted, .el otherwise) and returns its path.
func saveStress(t *testing.T, name string, el *graph.EdgeList) string {
	require.NoError(t, os.MkdirAll(stressDir, 0o755))
	ext := ".el"
	if el.Weighted() {
		ext = ".wel"
	}
	path := filepath.Join(stressDir, name+ext)
	require.NoError(t, format.WriteFile(context.Background(), path, el, format.WriteOptions{}), "saving %s", path)
	return path
}

// TestMinimise: the minimiser keeps only what the failure needs.
func TestMinimise(t *testing.T) {
	el := &graph.EdgeList{NumVertices: 50, Directed: true}
	for i := uint32(0); i < 100; i++ {
		el.Src, el.Dst = append(el.Src, i%50), append(el.Dst, (i*7+3)%50)
	}
	el.Src, el.Dst = append(el.Src, 3, 9), append(el.Dst, 7, 11)
	has := func(el *graph.EdgeList, u, v uint32) bool {
		for i := range el.Src {
			if el.Src[i] == u && el.Dst[i] == v {
				return true
			}
		}
		return false
	}
	got := stress.Minimise(el, func(el *graph.EdgeList) bool { return has(el, 3, 7) && has(el, 9, 11) })
	require.Equal(t, 2, len(got.Src))
	require.True(t, has(got, 3, 7) && has(got, 9, 11))
	require.Equal(t, el.NumVertices, got.NumVertices)
}
