package ref

import (
	"math/rand/v2"
	"testing"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/stretchr/testify/require"
)

func TestCoreNumbersHandChecked(t *testing.T) {
	cases := []struct {
		name string
		g    *graph.CSR
		want []uint32
	}{
		{"triangle", undirected(3, edges{{0, 1}, {1, 2}, {2, 0}}), []uint32{2, 2, 2}},
		{"K4", undirected(4, k4), []uint32{3, 3, 3, 3}},
		{"star", undirected(5, edges{{0, 1}, {0, 2}, {0, 3}, {0, 4}}), []uint32{1, 1, 1, 1, 1}},
		{"path", undirected(4, edges{{0, 1}, {1, 2}, {2, 3}}), []uint32{1, 1, 1, 1}},
		{"cycle", undirected(5, edges{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}}), []uint32{2, 2, 2, 2, 2}},
		{"two components and an isolated vertex", undirected(8, triangleAndK4), []uint32{2, 2, 2, 3, 3, 3, 3, 0}},
		// K4 on 0..3, a pendant 4 on 0, and a path 4-5-6: peeling 6, 5, 4
		// leaves the K4. nx.core_number gives {0..3: 3, 4..6: 1}.
		{"K4 with a tail", undirected(7, append(edges{{0, 4}, {4, 5}, {5, 6}}, k4...)), []uint32{3, 3, 3, 3, 1, 1, 1}},
		// Vertex 0 has degree 3 but its neighbours form a path 1-2-3 with
		// a tail 3-4, so the graph is 2-degenerate: 0,1,2,3 are in the
		// 2-core (0-1-2 and 0-2-3 are triangles), 4 is not.
		{"fan", undirected(5, edges{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {2, 3}, {3, 4}}), []uint32{2, 2, 2, 2, 1}},
		// Self-loops do not count: 0's only arc is a loop, and the loops
		// on the path must not lift it to a 2-core.
		{"self-loops ignored", undirected(4, edges{{0, 0}, {1, 1}, {1, 2}, {2, 2}, {2, 3}}), []uint32{0, 1, 1, 1}},
		// The path 0-1-2 with every edge tripled is still a path.
		{"duplicate arcs", undirected(3, edges{{0, 1}, {0, 1}, {1, 0}, {1, 2}, {2, 1}, {1, 2}}), []uint32{1, 1, 1}},
		{"no edges", undirected(2, nil), []uint32{0, 0}},
		{"empty graph", undirected(0, nil), []uint32{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			core := CoreNumbers(c.g)
			require.Equal(t, c.want, core)
			require.NoError(t, CheckCoreNumbers(c.g, c.want))
		})
	}
}

func TestCoreNumbersKarate(t *testing.T) {
	// nx.core_number(nx.karate_club_graph()) (NetworkX 3.6).
	want := []uint32{4, 4, 4, 4, 3, 3, 3, 4, 4, 2, 3, 1, 2, 4, 2, 2, 2, 2, 2, 3, 2, 2, 2, 3, 3, 3, 2, 3, 3, 3, 4, 3, 4, 4}
	require.Equal(t, want, CoreNumbers(karate()))
}

// coresByPeeling computes core numbers from the definition: for k = 1, 2,
// ..., repeatedly delete every vertex with fewer than k remaining
// neighbours; the vertices left form the k-core, and core(v) is the last k
// whose core holds v.
func coresByPeeling(g *graph.CSR) []uint32 {
	m := adjacencyMatrix(g)
	n := len(m)
	core := make([]uint32, n)
	alive := make([]bool, n)
	for k := 1; ; k++ {
		for v := range alive {
			alive[v] = core[v] == uint32(k-1) && (k == 1 || alive[v])
		}
		for changed := true; changed; {
			changed = false
			for v := range m {
				if !alive[v] {
					continue
				}
				deg := 0
				for u := range m {
					if alive[u] && m[v][u] {
						deg++
					}
				}
				if deg < k {
					alive[v] = false
					changed = true
				}
			}
		}
		left := false
		for v := range alive {
			if alive[v] {
				core[v] = uint32(k)
				left = true
			}
		}
		if !left {
			return core
		}
	}
}

func TestCoreNumbersMatchPeelingOnRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for trial := range 100 {
		n := 1 + rng.Uint64N(30)
		g := graphToCSR(randomEdgeList(rng, n, rng.IntN(5*int(n)), 0, trial%2 == 0))
		require.Equal(t, coresByPeeling(g), CoreNumbers(g), "trial %d", trial)
	}
}

func TestCheckCoreNumbersRejectsWrongCores(t *testing.T) {
	g := undirected(7, append(edges{{0, 4}, {4, 5}, {5, 6}}, k4...))
	require.NoError(t, CheckCoreNumbers(g, []uint32{3, 3, 3, 3, 1, 1, 1}))
	// Plain degrees are not core numbers: vertex 0 has degree 4.
	require.EqualError(t, CheckCoreNumbers(g, []uint32{4, 3, 3, 3, 2, 2, 1}),
		"3 of 7 vertices differ; first: vertex 0 has core number 4, want 3")
	require.EqualError(t, CheckCoreNumbers(g, []uint32{3, 3, 3, 3, 1, 1}), "got 6 core numbers for 7 vertices")
	require.NoError(t, CheckCoreNumbers(undirected(0, nil), []uint32{}))
}
