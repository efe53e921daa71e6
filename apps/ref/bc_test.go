package ref

import (
	"math/rand/v2"
	"testing"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBCHandChecked(t *testing.T) {
	cases := []struct {
		name string
		g    *graph.CSR
		want []float64
	}{
		// Vertex 1 lies between 0 and {2,3,4}: 3 pairs, both directions: 6.
		// Vertex 2 lies between {0,1} and {3,4}: 4 pairs, both directions: 8.
		{"path P5", undirected(5, edges{{0, 1}, {1, 2}, {2, 3}, {3, 4}}), []float64{0, 6, 8, 6, 0}},
		// The centre lies on the one path between any two of the 4 leaves:
		// (n-1)(n-2) = 4·3 = 12 ordered pairs.
		{"star K1,4", undirected(5, edges{{0, 1}, {0, 2}, {0, 3}, {0, 4}}), []float64{12, 0, 0, 0, 0}},
		// Diamond 0-1, 0-2, 1-3, 2-3: pair {0,3} has sigma = 2 paths, via 1
		// and via 2, so each gets 1/2 per direction; likewise pair {1,2}
		// gives 1/2 per direction to 0 and to 3. Every vertex: 1.
		{"diamond", undirected(4, edges{{0, 1}, {0, 2}, {1, 3}, {2, 3}}), []float64{1, 1, 1, 1}},
		// Directed diamond 0→1, 0→2, 1→3, 2→3: only the pair (0,3) has an
		// intermediate vertex, with sigma = 2.
		{"directed diamond", directed(4, edges{{0, 1}, {0, 2}, {1, 3}, {2, 3}}), []float64{0, 0.5, 0.5, 0}},
		// C5: each vertex is strictly inside the shortest path of the one
		// pair of its two neighbours (distance 2; the other way is 3): 2 ordered pairs.
		{"cycle C5", undirected(5, edges{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}}), []float64{2, 2, 2, 2, 2}},
		// C4: the pair of v's neighbours has sigma = 2 (via v or via the
		// opposite vertex): 1/2 per direction.
		{"cycle C4", undirected(4, edges{{0, 1}, {1, 2}, {2, 3}, {3, 0}}), []float64{1, 1, 1, 1}},
		// Directed path 0→1→2→3: vertex 1 is inside (0,2), (0,3); vertex 2
		// inside (0,3), (1,3). No reverse direction.
		{"directed path", directed(4, edges{{0, 1}, {1, 2}, {2, 3}}), []float64{0, 2, 2, 0}},
		// Two P3 components and an isolated vertex: only the middles score.
		{"two components and an isolated vertex", undirected(7, edges{{0, 1}, {1, 2}, {3, 4}, {4, 5}}),
			[]float64{0, 2, 0, 0, 2, 0, 0}},
		{"single vertex", directed(1, nil), []float64{0}},
		{"empty graph", directed(0, nil), []float64{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.NoError(t, CompareFloats(c.want, BCAll(c.g), 1e-12, 1e-12))
		})
	}
}

func TestBCFromChosenSources(t *testing.T) {
	g := undirected(5, edges{{0, 1}, {1, 2}, {2, 3}, {3, 4}})
	// From 0 alone: v gets one unit for each vertex beyond it.
	assert.Equal(t, []float64{0, 3, 2, 1, 0}, BC(g, []uint32{0}))
	// From 2 alone: 1 is on the way to 0, 3 on the way to 4; the source gets nothing.
	assert.Equal(t, []float64{0, 1, 0, 1, 0}, BC(g, []uint32{2}))
	// Repeated sources count again.
	assert.Equal(t, []float64{0, 7, 4, 3, 0}, BC(g, []uint32{0, 0, 2}))
	assert.Equal(t, []float64{0, 0, 0, 0, 0}, BC(g, nil))
	assert.Panics(t, func() { BC(g, []uint32{5}) })
}

// bcBruteForce computes betweenness from path counts taken from powers of
// the adjacency matrix: the number of shortest s-t paths is A^d[s][t] for
// the least d with A^d[s][t] > 0 (walks of minimal length are paths). Then
// bc(v) = sum over s ≠ v ≠ t, s ≠ t, with d(s,v)+d(v,t) = d(s,t), of
// sigma(s,v)·sigma(v,t)/sigma(s,t).
func bcBruteForce(g *graph.CSR) []float64 {
	n := int(g.NumVertices)
	const inf = -1
	dist := make([][]int, n)
	sigma := make([][]float64, n)
	for s := range n {
		dist[s] = make([]int, n)
		sigma[s] = make([]float64, n)
		for t := range n {
			dist[s][t] = inf
		}
		dist[s][s], sigma[s][s] = 0, 1
	}
	a := make([][]float64, n)
	for u := range n {
		a[u] = make([]float64, n)
	}
	for _, e := range arcs(g) {
		a[e[0]][e[1]]++
	}
	power := a // A^k
	for k := 1; k < n; k++ {
		for s := range n {
			for t := range n {
				if dist[s][t] == inf && power[s][t] > 0 {
					dist[s][t], sigma[s][t] = k, power[s][t]
				}
			}
		}
		next := make([][]float64, n)
		for s := range n {
			next[s] = make([]float64, n)
			for m := range n {
				if power[s][m] == 0 {
					continue
				}
				for t := range n {
					next[s][t] += power[s][m] * a[m][t]
				}
			}
		}
		power = next
	}
	bc := make([]float64, n)
	for s := range n {
		for t := range n {
			if s == t || dist[s][t] == inf {
				continue
			}
			for v := range n {
				if v == s || v == t || dist[s][v] == inf || dist[v][t] == inf {
					continue
				}
				if dist[s][v]+dist[v][t] == dist[s][t] {
					bc[v] += sigma[s][v] * sigma[v][t] / sigma[s][t]
				}
			}
		}
	}
	return bc
}

func TestBCMatchesBruteForceOnRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 200 {
		n := 1 + rng.Uint64N(14)
		g := graphToCSR(randomEdgeList(rng, n, rng.IntN(3*int(n)), 0, trial%2 == 0))
		require.NoError(t, CompareFloats(bcBruteForce(g), BCAll(g), 1e-9, 1e-9), "trial %d", trial)
	}
}

func TestBCOnLongChain(t *testing.T) {
	const n = 1_000_000
	g := chain(n, false)
	bc := BC(g, []uint32{0})
	for v := range bc {
		want := float64(n - 1 - v)
		if v == 0 {
			want = 0
		}
		if bc[v] != want {
			t.Fatalf("vertex %d: %g, want %g", v, bc[v], want)
		}
	}
}
