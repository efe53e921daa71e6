package apps

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/require"
)

// randomDepths returns n depths drawn with the weights of a small-world
// graph's BFS levels (most vertices two to four levels out), some
// unvisited.
func randomDepths(n int, seed uint64) []int32 {
	weights := []int{0, 1, 40, 600, 300, 40, 5, 1}
	total := 0
	for _, w := range weights {
		total += w
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	depth := make([]int32, n)
	for v := range depth {
		if rng.IntN(50) == 0 {
			depth[v] = unvisited
			continue
		}
		r := rng.IntN(total)
		d := 0
		for r >= weights[d] {
			r -= weights[d]
			d++
		}
		depth[v] = int32(d)
	}
	if n > 0 {
		depth[0] = 0
	}
	return depth
}

// TestSortByDepth: the parallel counting sort lists each level's vertices
// in increasing id, as the serial one does, whatever the workers, drops
// trailing empty levels and ignores depths beyond the levels asked for.
func TestSortByDepth(t *testing.T) {
	for _, n := range []int{0, 1, 7, 1000, 3 * depthSortMinPart, 10*depthSortMinPart + 17} {
		depth := randomDepths(n, uint64(n))
		for _, levels := range []int{0, 3, 8, 12} {
			var want [][]uint32
			for d := range levels {
				var lv []uint32
				for v, dv := range depth {
					if int(dv) == d {
						lv = append(lv, uint32(v))
					}
				}
				want = append(want, lv)
			}
			for len(want) > 0 && len(want[len(want)-1]) == 0 {
				want = want[:len(want)-1]
			}
			for _, workers := range []int{1, 3, 8} {
				order := make([]uint32, n)
				for i := range order {
					order[i] = 0xdeadbeef
				}
				start, counts := sortByDepth(depth, levels, order, []int{5, 5}, workers)
				require.Len(t, start, len(want)+1, "n %d levels %d workers %d", n, levels, workers)
				again, _ := sortByDepth(depth, levels, order, counts, workers) // its dirty counts reused
				require.Equal(t, start, again)
				for d, lv := range want {
					got := order[start[d]:start[d+1]]
					require.True(t, slices.Equal(lv, got) || (len(lv) == 0 && len(got) == 0),
						"n %d levels %d workers %d level %d", n, levels, workers, d)
				}
			}
		}
	}
}

// BenchmarkSortByDepth sorts 4M vertices of random depths by depth.
func BenchmarkSortByDepth(b *testing.B) {
	const n = 1 << 22
	depth := randomDepths(n, 3)
	order := make([]uint32, n)
	var counts []int
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprint("workers", workers), func(b *testing.B) {
			for range b.N {
				_, counts = sortByDepth(depth, 12, order, counts, workers)
			}
		})
	}
}

// TestBCByLevels: on a low-degree undirected graph BC in hybrid and auto
// runs level by level, and gives the reference's scores, the engines'
// (mode dense) within rounding, from one and from several sources; a
// directed graph, mode dense and a denser graph keep the engines.
func TestBCByLevels(t *testing.T) {
	ctx := context.Background()
	grid := testgraphs.Generated(t, "grid:40:0.1", 2)
	grid.Symmetrize(2)
	l, b := cpuBackend(t, grid)
	require.True(t, bcLevelsApply(b, b, engine.RunOptions{Mode: engine.Hybrid}))
	require.True(t, bcLevelsApply(b, b, engine.RunOptions{Mode: engine.Auto}))
	require.False(t, bcLevelsApply(b, b, engine.RunOptions{Mode: engine.Dense}))
	g := OriginalCSR(l, 2)
	for _, sources := range [][]uint32{{0}, {5, 800, 1599}} {
		got, res, err := BC(ctx, b, b, sources, engine.RunOptions{Mode: engine.Hybrid})
		require.NoError(t, err)
		require.Positive(t, res.Iterations)
		require.NoError(t, ValidateBC(g, sources, got))
		got = slices.Clone(got)
		want, _, err := BC(ctx, b, b, sources, engine.RunOptions{Mode: engine.Dense})
		require.NoError(t, err)
		require.InDeltaSlice(t, want, got, 1e-6)
	}
	rmat := testgraphs.Generated(t, "rmat:10:16", 2)
	rmat.Symmetrize(2)
	lr, br := cpuBackend(t, rmat)
	require.False(t, bcLevelsApply(br, br, engine.RunOptions{Mode: engine.Hybrid}), "%d arcs, %d vertices", lr.NumArcs, lr.NumVertices)
	directed := testgraphs.Generated(t, "grid:20:0.1", 2)
	directed.Directed = true
	_, bd := cpuBackend(t, directed)
	require.False(t, bcLevelsApply(bd, bd, engine.RunOptions{Mode: engine.Hybrid}))
}

// cpuBackend returns el's layout (test parameters) and a CPU backend over it.
func cpuBackend(t *testing.T, el *graph.EdgeList) (*layout.Layout, *cpu.Backend) {
	t.Helper()
	l, err := preprocess.Build(context.Background(), el, testgraphs.SmallParams(), preprocess.Options{Workers: 2})
	require.NoError(t, err)
	b, err := cpu.New(l, 2)
	require.NoError(t, err)
	return l, b
}
