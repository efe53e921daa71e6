package ref

import (
	"math/rand/v2"
	"testing"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/stretchr/testify/require"
)

func TestCheckColoringAcceptsProperColorings(t *testing.T) {
	cases := []struct {
		name   string
		g      *graph.CSR
		colors []uint32
		count  int
	}{
		{"triangle", undirected(3, edges{{0, 1}, {1, 2}, {2, 0}}), []uint32{0, 1, 2}, 3},
		{"K4", undirected(4, k4), []uint32{3, 1, 0, 2}, 4},
		{"star", undirected(5, edges{{0, 1}, {0, 2}, {0, 3}, {0, 4}}), []uint32{0, 1, 1, 1, 1}, 2},
		// Δ = 4: a leaf may use any colour up to 4.
		{"star with spread leaves", undirected(5, edges{{0, 1}, {0, 2}, {0, 3}, {0, 4}}), []uint32{0, 4, 3, 2, 1}, 5},
		{"path", undirected(4, edges{{0, 1}, {1, 2}, {2, 3}}), []uint32{0, 1, 0, 1}, 2},
		{"two components", undirected(8, triangleAndK4), []uint32{0, 1, 2, 0, 1, 2, 3, 0}, 4},
		// A self-loop is not a conflict and does not raise Δ (1 here).
		{"self-loops ignored", undirected(2, edges{{0, 0}, {0, 1}, {1, 1}}), []uint32{1, 0}, 2},
		{"duplicate arcs", undirected(2, edges{{0, 1}, {0, 1}, {1, 0}}), []uint32{0, 1}, 2},
		{"no edges: one colour", undirected(3, nil), []uint32{0, 0, 0}, 1},
		{"empty graph", undirected(0, nil), []uint32{}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.NoError(t, CheckColoring(c.g, c.colors))
			require.Equal(t, c.count, NumColors(c.colors))
		})
	}
}

func TestCheckColoringRejectsBadColorings(t *testing.T) {
	cases := []struct {
		name   string
		g      *graph.CSR
		colors []uint32
		err    string
	}{
		{"conflict", undirected(3, edges{{0, 1}, {1, 2}, {2, 0}}), []uint32{0, 1, 1},
			"arc 1→2 joins two vertices of colour 1"},
		{"conflict on a one-way arc", directed(3, edges{{2, 0}}), []uint32{5, 0, 5},
			"arc 2→0 joins two vertices of colour 5"},
		// The path has Δ = 2, so colour 3 is out of range.
		{"colour above max degree", undirected(4, edges{{0, 1}, {1, 2}, {2, 3}}), []uint32{0, 1, 0, 3},
			"vertex 3 has colour 3, above the maximum degree 2 (colours must be in 0..2)"},
		// Tripled arcs still give Δ = 1.
		{"duplicates do not raise max degree", undirected(2, edges{{0, 1}, {0, 1}, {0, 1}}), []uint32{0, 2},
			"vertex 1 has colour 2, above the maximum degree 1 (colours must be in 0..1)"},
		{"self-loops do not raise max degree", undirected(2, edges{{0, 0}, {0, 1}}), []uint32{2, 0},
			"vertex 0 has colour 2, above the maximum degree 1 (colours must be in 0..1)"},
		{"isolated vertices need colour 0", undirected(2, nil), []uint32{0, 1},
			"vertex 1 has colour 1, above the maximum degree 0 (colours must be in 0..0)"},
		{"wrong length", undirected(3, nil), []uint32{0, 0}, "got 2 colours for 3 vertices"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.EqualError(t, CheckColoring(c.g, c.colors), c.err)
		})
	}
}

// greedyColoring colours vertices in ID order with the smallest colour no
// coloured neighbour has, which never exceeds Δ.
func greedyColoring(g *graph.CSR) []uint32 {
	m := adjacencyMatrix(g)
	colors := make([]uint32, len(m))
	for v := range m {
		used := make(map[uint32]bool)
		for u := range v {
			if m[v][u] {
				used[colors[u]] = true
			}
		}
		c := uint32(0)
		for used[c] {
			c++
		}
		colors[v] = c
	}
	return colors
}

func TestCheckColoringOnRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for trial := range 100 {
		n := 2 + rng.Uint64N(30)
		g := graphToCSR(randomEdgeList(rng, n, 1+rng.IntN(4*int(n)), 0, trial%2 == 0))
		colors := greedyColoring(g)
		require.NoError(t, CheckColoring(g, colors), "trial %d", trial)
		// Giving some vertex its neighbour's colour must be caught.
		for _, a := range arcs(g) {
			if a[0] != a[1] {
				bad := append([]uint32(nil), colors...)
				bad[a[0]] = bad[a[1]]
				require.Error(t, CheckColoring(g, bad), "trial %d", trial)
				break
			}
		}
	}
}

func TestNumColors(t *testing.T) {
	require.Equal(t, 0, NumColors(nil))
	require.Equal(t, 1, NumColors([]uint32{7, 7, 7}))
	require.Equal(t, 3, NumColors([]uint32{0, 4000000000, 2, 2, 0}))
}
