package apps_test

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/format"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/stretchr/testify/require"
)

var (
	stressN    = flag.Int("stress.n", 4, "random graphs TestStress checks (besides the shape zoo); raise it for a long hunt")
	stressSeed = flag.Uint64("stress.seed", 1, "seed of TestStress's random graphs")
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
	rng := rand.New(rand.NewPCG(*stressSeed, 0x5eed))
	graphs := stressZoo()
	for i := 0; i < *stressN; i++ {
		graphs = append(graphs, randomStressGraph(t, rng, i))
	}
	for _, s := range graphs {
		err := checkGraph(s.EL, testgraphs.SmallParams())
		if err == nil {
			continue
		}
		small := minimise(s.EL, func(el *graph.EdgeList) bool {
			return checkGraph(el, testgraphs.SmallParams()) != nil
		})
		path := saveStress(t, s.Name, small)
		t.Errorf("%s: %v\nminimised to %d vertices, %d arcs: %s (now a regression test)",
			s.Name, err, small.NumVertices, small.NumArcs(), path)
	}
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

// stressZoo is the shapes engines get wrong first: nothing, one vertex,
// self-loops only, duplicate arcs, a hub of most arcs, a long chain, many
// two-vertex components, a directed graph with unreachable parts, and
// weights at 0 and at the uint32 limit.
func stressZoo() []testgraphs.Shape {
	arcs := func(n uint64, directed bool, pairs ...[2]uint32) *graph.EdgeList {
		el := &graph.EdgeList{NumVertices: n, Directed: true}
		for _, p := range pairs {
			el.Src, el.Dst = append(el.Src, p[0]), append(el.Dst, p[1])
		}
		if !directed {
			el.Symmetrize(2)
		}
		return el
	}
	var loops, dups, hub, chain, pairs, reach [][2]uint32
	for v := uint32(0); v < 20; v++ {
		loops = append(loops, [2]uint32{v, v})
		dups = append(dups, [2]uint32{v, (v + 1) % 20}, [2]uint32{v, (v + 1) % 20}, [2]uint32{v, v})
	}
	for v := uint32(1); v < 3000; v++ {
		hub = append(hub, [2]uint32{0, v})
	}
	for v := uint32(0); v+1 < 2000; v++ {
		chain = append(chain, [2]uint32{v, v + 1})
	}
	for v := uint32(0); v+1 < 1000; v += 2 {
		pairs = append(pairs, [2]uint32{v, v + 1})
	}
	// 0 -> 1..9 -> 10; 20..29 point into the reachable part and are never reached.
	for v := uint32(1); v < 10; v++ {
		reach = append(reach, [2]uint32{0, v}, [2]uint32{v, 10})
	}
	for v := uint32(20); v < 30; v++ {
		reach = append(reach, [2]uint32{v, v % 10})
	}
	extreme := arcs(6, true, [2]uint32{0, 1}, [2]uint32{1, 2}, [2]uint32{0, 2}, [2]uint32{2, 3}, [2]uint32{3, 4}, [2]uint32{0, 5})
	extreme.Weights = []uint32{0, 0, 5, math.MaxUint32, 1, math.MaxUint32 - 1}
	return []testgraphs.Shape{
		{Name: "empty", EL: arcs(0, true)},
		{Name: "one-vertex", EL: arcs(1, true)},
		{Name: "self-loops", EL: arcs(20, true, loops...)},
		{Name: "duplicates", EL: arcs(20, false, dups...)},
		{Name: "hub", EL: arcs(3000, false, hub...)},
		{Name: "chain", EL: arcs(2000, true, chain...)},
		{Name: "pairs", EL: arcs(1001, false, pairs...)},
		{Name: "unreachable", EL: arcs(31, true, reach...)},
		{Name: "extreme-weights", EL: extreme},
	}
}

// randomStressGraph draws a generator spec, a size and a direction.
func randomStressGraph(t *testing.T, rng *rand.Rand, i int) testgraphs.Shape {
	specs := []string{"rmat:%d:4", "uniform:%d:3", "rgg:%d", "grid:%d"}
	k := rng.IntN(len(specs))
	size := 6 + rng.IntN(4) // R-MAT and rgg scales; n for the others below
	if k == 1 || k == 3 {
		size = 1 << size / 8
	}
	spec := fmt.Sprintf(specs[k], size)
	if k == 1 {
		spec = fmt.Sprintf("uniform:%d:%d", size, size*(1+rng.IntN(4)))
	}
	el := testgraphs.Generated(t, spec, rng.Uint64())
	name := fmt.Sprintf("random-%d-%s", i, strings.ReplaceAll(spec, ":", "_"))
	if rng.IntN(2) == 0 && el.Directed {
		el.Symmetrize(2)
		name += "-sym"
	}
	if rng.IntN(3) == 0 {
		el.SetRandomWeights(rng.Uint64(), 0, 1000, 2)
		name += "-w"
	}
	return testgraphs.Shape{Name: name, EL: el}
}

// minimise drops arcs of el (halves, then quarters, ... then single arcs)
// as long as fails still holds, and returns the smallest failing graph.
func minimise(el *graph.EdgeList, fails func(*graph.EdgeList) bool) *graph.EdgeList {
	cur := el.Clone()
	for chunk := max(1, len(cur.Src)/2); ; chunk /= 2 {
		for lo := 0; lo < len(cur.Src); {
			try := withoutArcs(cur, lo, min(lo+chunk, len(cur.Src)))
			if fails(try) {
				cur = try // keep lo: the next arcs moved into place
			} else {
				lo += chunk
			}
		}
		if chunk == 1 {
			return cur
		}
	}
}

// withoutArcs returns el without its arcs [lo, hi).
func withoutArcs(el *graph.EdgeList, lo, hi int) *graph.EdgeList {
	out := &graph.EdgeList{NumVertices: el.NumVertices, Directed: el.Directed}
	out.Src = append(append([]uint32(nil), el.Src[:lo]...), el.Src[hi:]...)
	out.Dst = append(append([]uint32(nil), el.Dst[:lo]...), el.Dst[hi:]...)
	if el.Weights != nil {
		out.Weights = append(append([]uint32(nil), el.Weights[:lo]...), el.Weights[hi:]...)
	}
	return out
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
	got := minimise(el, func(el *graph.EdgeList) bool { return has(el, 3, 7) && has(el, 9, 11) })
	require.Equal(t, 2, len(got.Src))
	require.True(t, has(got, 3, 7) && has(got, 9, 11))
	require.Equal(t, el.NumVertices, got.NumVertices)
}
