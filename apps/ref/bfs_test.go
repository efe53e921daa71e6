package ref

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const U = Unreached

func TestBFSHandChecked(t *testing.T) {
	cases := []struct {
		name    string
		g       func() (n uint64, es edges, undirected bool)
		source  uint32
		levels  []uint32
		parents []uint32
	}{
		{"path P5 from 0", func() (uint64, edges, bool) { return 5, edges{{0, 1}, {1, 2}, {2, 3}, {3, 4}}, true }, 0,
			[]uint32{0, 1, 2, 3, 4}, []uint32{0, 0, 1, 2, 3}},
		{"path P5 from 2", func() (uint64, edges, bool) { return 5, edges{{0, 1}, {1, 2}, {2, 3}, {3, 4}}, true }, 2,
			[]uint32{2, 1, 0, 1, 2}, []uint32{1, 2, 2, 2, 3}},
		{"star from a leaf", func() (uint64, edges, bool) { return 5, edges{{0, 1}, {0, 2}, {0, 3}, {0, 4}}, true }, 3,
			[]uint32{1, 2, 2, 0, 2}, []uint32{3, 0, 0, 3, 0}},
		{"cycle C6 from 0", func() (uint64, edges, bool) {
			return 6, edges{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}}, true
		}, 0, []uint32{0, 1, 2, 3, 2, 1}, []uint32{0, 0, 1, 2, 5, 0}},
		{"two components and an isolated vertex", func() (uint64, edges, bool) {
			return 6, edges{{0, 1}, {1, 2}, {3, 4}}, true
		}, 1, []uint32{1, 0, 1, U, U, U}, []uint32{1, 1, 1, U, U, U}},
		{"directed: arcs only one way", func() (uint64, edges, bool) {
			return 4, edges{{0, 1}, {1, 2}, {3, 2}}, false
		}, 1, []uint32{U, 0, 1, U}, []uint32{U, 1, 1, U}},
		{"directed cycle goes the long way", func() (uint64, edges, bool) {
			return 4, edges{{0, 1}, {1, 2}, {2, 3}, {3, 0}}, false
		}, 1, []uint32{3, 0, 1, 2}, []uint32{3, 1, 1, 2}},
		{"single vertex", func() (uint64, edges, bool) { return 1, nil, true }, 0, []uint32{0}, []uint32{0}},
		{"self-loop and duplicates", func() (uint64, edges, bool) {
			return 3, edges{{0, 0}, {0, 1}, {0, 1}, {1, 2}}, false
		}, 0, []uint32{0, 1, 2}, []uint32{0, 0, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, es, und := c.g()
			g := directed(n, es)
			if und {
				g = undirected(n, es)
			}
			levels, parents := BFS(g, c.source)
			assert.Equal(t, c.levels, levels)
			assert.Equal(t, c.parents, parents)
			assert.NoError(t, CheckBFSTree(g, c.source, levels, parents))
		})
	}
}

func TestBFSEmptyGraphAndBadSourcePanic(t *testing.T) {
	assert.Panics(t, func() { BFS(directed(0, nil), 0) })
	assert.Panics(t, func() { BFS(directed(3, nil), 3) })
	assert.Error(t, CheckBFSTree(directed(0, nil), 0, nil, nil))
}

// bfsByRelaxation computes BFS levels by Bellman-Ford-style relaxation of
// every arc until nothing changes.
func bfsByRelaxation(n uint64, as wedges, source uint32) []uint32 {
	levels := make([]uint32, n)
	for v := range levels {
		levels[v] = Unreached
	}
	levels[source] = 0
	for changed := true; changed; {
		changed = false
		for _, a := range as {
			if levels[a[0]] != Unreached && levels[a[0]]+1 < levels[a[1]] {
				levels[a[1]] = levels[a[0]] + 1
				changed = true
			}
		}
	}
	return levels
}

func TestBFSMatchesRelaxationOnRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n := 1 + rng.Uint64N(30)
		m := rng.IntN(3 * int(n))
		undirected := trial%2 == 0
		g := graphToCSR(randomEdgeList(rng, n, m, 0, undirected))
		source := uint32(rng.Uint64N(n))
		levels, parents := BFS(g, source)
		require.Equal(t, bfsByRelaxation(n, arcs(g), source), levels, "trial %d", trial)
		require.NoError(t, CheckBFSTree(g, source, levels, parents), "trial %d", trial)

		// Any single change of a level is caught.
		v := rng.Uint64N(n)
		bad := append([]uint32(nil), levels...)
		if bad[v] == Unreached {
			bad[v] = 7
		} else {
			bad[v]++
		}
		require.Error(t, CheckBFSTree(g, source, bad, parents), "trial %d", trial)
	}
}

func TestCheckBFSTreeRejectsBadParents(t *testing.T) {
	// Directed: 0→1, 0→2, 1→3, 3→2, 4 isolated. Levels 0,1,1,2,U.
	g := directed(5, edges{{0, 1}, {0, 2}, {1, 3}, {3, 2}})
	levels, parents := BFS(g, 0)
	require.Equal(t, []uint32{0, 1, 1, 2, U}, levels)
	require.Equal(t, []uint32{0, 0, 0, 1, U}, parents)
	require.NoError(t, CheckBFSTree(g, 0, levels, parents))
	require.NoError(t, CheckBFSTree(g, 0, levels, nil), "levels only")

	corrupt := func(v int, p uint32) []uint32 {
		c := append([]uint32(nil), parents...)
		c[v] = p
		return c
	}
	for name, bad := range map[string][]uint32{
		"source parent not itself":       corrupt(0, 1),
		"source parent unreached":        corrupt(0, U),
		"parent at the same level":       corrupt(2, 1),
		"parent two levels up":           corrupt(3, 0),
		"arc in the wrong direction":     corrupt(3, 2), // level 1, but only 3→2 exists
		"parent is the vertex itself":    corrupt(1, 1),
		"reached vertex without parent":  corrupt(1, U),
		"unreached vertex with a parent": corrupt(4, 0),
		"parent outside the graph":       corrupt(2, 9),
		"parent unreached":               corrupt(1, 4),
		"wrong length":                   parents[:4],
	} {
		assert.Error(t, CheckBFSTree(g, 0, levels, bad), name)
	}
	// Wrong levels, even with consistent-looking parents.
	assert.Error(t, CheckBFSTree(g, 0, []uint32{0, 1, 1, 3, U}, parents))
	assert.Error(t, CheckBFSTree(g, 0, []uint32{0, 1, 1, 2, 3}, corrupt(4, 3)))
	assert.Error(t, CheckBFSTree(g, 0, levels[:4], parents))
	assert.Error(t, CheckBFSTree(g, 5, levels, parents), "source outside the graph")
}

func TestCheckBFSTreeAcceptsAnyValidParent(t *testing.T) {
	// Diamond 0-1, 0-2, 1-3, 2-3: vertex 3 may hang below 1 or 2.
	g := undirected(4, edges{{0, 1}, {0, 2}, {1, 3}, {2, 3}})
	levels, parents := BFS(g, 0)
	require.Equal(t, []uint32{0, 1, 1, 2}, levels)
	require.Equal(t, []uint32{0, 0, 0, 1}, parents)
	assert.NoError(t, CheckBFSTree(g, 0, levels, []uint32{0, 0, 0, 2}))
}

func TestBFSOnLongChain(t *testing.T) {
	const n = 1_000_000
	g := chain(n, false)
	levels, parents := BFS(g, 0)
	for v := range levels {
		if levels[v] != uint32(v) || (v > 0 && parents[v] != uint32(v-1)) {
			t.Fatalf("vertex %d: level %d parent %d", v, levels[v], parents[v])
		}
	}
	require.NoError(t, CheckBFSTree(g, 0, levels, parents))
}
