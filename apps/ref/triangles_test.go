package ref

import (
	"math/rand/v2"
	"testing"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/stretchr/testify/require"
)

// karateEdges is Zachary's karate club (NetworkX karate_club_graph, 34
// vertices, 78 edges, weights dropped).
var karateEdges = edges{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {0, 6}, {0, 7}, {0, 8}, {0, 10}, {0, 11}, {0, 12}, {0, 13},
	{0, 17}, {0, 19}, {0, 21}, {0, 31}, {1, 2}, {1, 3}, {1, 7}, {1, 13}, {1, 17}, {1, 19}, {1, 21}, {1, 30}, {2, 3}, {2, 7},
	{2, 8}, {2, 9}, {2, 13}, {2, 27}, {2, 28}, {2, 32}, {3, 7}, {3, 12}, {3, 13}, {4, 6}, {4, 10}, {5, 6}, {5, 10}, {5, 16},
	{6, 16}, {8, 30}, {8, 32}, {8, 33}, {9, 33}, {13, 33}, {14, 32}, {14, 33}, {15, 32}, {15, 33}, {18, 32}, {18, 33},
	{19, 33}, {20, 32}, {20, 33}, {22, 32}, {22, 33}, {23, 25}, {23, 27}, {23, 29}, {23, 32}, {23, 33}, {24, 25}, {24, 27},
	{24, 31}, {25, 31}, {26, 29}, {26, 33}, {27, 33}, {28, 31}, {28, 33}, {29, 32}, {29, 33}, {30, 32}, {30, 33}, {31, 32},
	{31, 33}, {32, 33}}

// karate returns the karate club as a symmetric CSR.
func karate() *graph.CSR { return undirected(34, karateEdges) }

// k4 is the complete graph on 4 vertices.
var k4 = edges{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}

// triangleAndK4 is a triangle on 0,1,2 and, as a second component, a K4 on
// 3,4,5,6.
var triangleAndK4 = edges{{0, 1}, {1, 2}, {2, 0}, {3, 4}, {3, 5}, {3, 6}, {4, 5}, {4, 6}, {5, 6}}

func TestTrianglesHandChecked(t *testing.T) {
	cases := []struct {
		name  string
		g     *graph.CSR
		total uint64
		per   []uint64
	}{
		{"triangle", undirected(3, edges{{0, 1}, {1, 2}, {2, 0}}), 1, []uint64{1, 1, 1}},
		// nx.triangles(nx.complete_graph(4)) = {0: 3, 1: 3, 2: 3, 3: 3}.
		{"K4", undirected(4, k4), 4, []uint64{3, 3, 3, 3}},
		// nx.triangles(nx.complete_graph(5)): 6 each, 10 in all.
		{"K5", undirected(5, edges{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}), 10, []uint64{6, 6, 6, 6, 6}},
		{"star", undirected(5, edges{{0, 1}, {0, 2}, {0, 3}, {0, 4}}), 0, []uint64{0, 0, 0, 0, 0}},
		{"path", undirected(4, edges{{0, 1}, {1, 2}, {2, 3}}), 0, []uint64{0, 0, 0, 0}},
		{"4-cycle", undirected(4, edges{{0, 1}, {1, 2}, {2, 3}, {3, 0}}), 0, []uint64{0, 0, 0, 0}},
		// Two triangles sharing edge 1–2 (a diamond).
		{"diamond", undirected(4, edges{{0, 1}, {0, 2}, {1, 2}, {1, 3}, {2, 3}}), 2, []uint64{1, 2, 2, 1}},
		{"two components", undirected(8, triangleAndK4), 5, []uint64{1, 1, 1, 3, 3, 3, 3, 0}},
		{"self-loops ignored", undirected(3, edges{{0, 0}, {0, 1}, {1, 1}, {1, 2}, {2, 0}, {2, 2}}), 1, []uint64{1, 1, 1}},
		// A self-loop must not turn the path u–v plus loop v–v into a triangle.
		{"self-loop on a path", undirected(3, edges{{0, 1}, {1, 1}, {1, 2}}), 0, []uint64{0, 0, 0}},
		{"duplicate arcs", undirected(3, edges{{0, 1}, {0, 1}, {1, 0}, {1, 2}, {2, 0}, {2, 0}}), 1, []uint64{1, 1, 1}},
		// A directed cycle is read as its underlying undirected triangle.
		{"arcs one way only", directed(3, edges{{0, 1}, {1, 2}, {2, 0}}), 1, []uint64{1, 1, 1}},
		{"no edges", undirected(3, nil), 0, []uint64{0, 0, 0}},
		{"empty graph", undirected(0, nil), 0, []uint64{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			total, per := Triangles(c.g)
			require.Equal(t, c.total, total)
			require.Equal(t, c.per, per)
		})
	}
}

func TestTrianglesKarate(t *testing.T) {
	// sum(nx.triangles(G).values()) // 3 == 45 and nx.triangles(G) for
	// G = nx.karate_club_graph() (NetworkX 3.6).
	want := []uint64{18, 12, 11, 10, 2, 3, 3, 6, 5, 0, 2, 0, 1, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4, 1, 1, 1, 1, 1, 4, 3, 3, 13, 15}
	total, per := Triangles(karate())
	require.Equal(t, uint64(45), total)
	require.Equal(t, want, per)
}

// adjacencyMatrix returns the simple undirected adjacency matrix of g: an
// arc either way between distinct vertices sets both entries.
func adjacencyMatrix(g *graph.CSR) [][]bool {
	n := g.NumVertices
	m := make([][]bool, n)
	for v := range m {
		m[v] = make([]bool, n)
	}
	for _, a := range arcs(g) {
		if a[0] != a[1] {
			m[a[0]][a[1]] = true
			m[a[1]][a[0]] = true
		}
	}
	return m
}

func TestTrianglesMatchBruteForceOnRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for trial := range 100 {
		n := 1 + rng.Uint64N(25)
		g := graphToCSR(randomEdgeList(rng, n, rng.IntN(4*int(n)), 0, trial%2 == 0))
		m := adjacencyMatrix(g)
		var total uint64
		per := make([]uint64, n)
		for u := range m {
			for v := u + 1; v < len(m); v++ {
				for w := v + 1; w < len(m); w++ {
					if m[u][v] && m[v][w] && m[u][w] {
						total++
						per[u]++
						per[v]++
						per[w]++
					}
				}
			}
		}
		gotTotal, gotPer := Triangles(g)
		require.Equal(t, total, gotTotal, "trial %d", trial)
		require.Equal(t, per, gotPer, "trial %d", trial)
		var s uint64
		for _, x := range gotPer {
			s += x
		}
		require.Equal(t, 3*gotTotal, s, "trial %d", trial)
	}
}
