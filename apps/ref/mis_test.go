package ref

import (
	"math/rand/v2"
	"testing"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/stretchr/testify/require"
)

// set returns the membership flags of the given vertices among n.
func set(n int, vs ...uint32) []bool {
	in := make([]bool, n)
	for _, v := range vs {
		in[v] = true
	}
	return in
}

func TestCheckMISHandChecked(t *testing.T) {
	star := undirected(5, edges{{0, 1}, {0, 2}, {0, 3}, {0, 4}})
	path := undirected(4, edges{{0, 1}, {1, 2}, {2, 3}})
	cases := []struct {
		name  string
		g     *graph.CSR
		inSet []bool
		err   string // "" for a valid MIS
	}{
		{"triangle", undirected(3, edges{{0, 1}, {1, 2}, {2, 0}}), set(3, 1), ""},
		{"triangle: two vertices", undirected(3, edges{{0, 1}, {1, 2}, {2, 0}}), set(3, 0, 2),
			"vertices 0 and 2 are both in the set but joined by arc 0→2 (not independent)"},
		{"K4", undirected(4, k4), set(4, 3), ""},
		{"K4: empty set", undirected(4, k4), set(4),
			"vertex 0 is not in the set and has no neighbour in it (not maximal)"},
		{"star: centre", star, set(5, 0), ""},
		{"star: leaves", star, set(5, 1, 2, 3, 4), ""},
		{"star: some leaves", star, set(5, 1, 2, 4),
			"vertex 3 is not in the set and has no neighbour in it (not maximal)"},
		{"star: centre and a leaf", star, set(5, 0, 3),
			"vertices 0 and 3 are both in the set but joined by arc 0→3 (not independent)"},
		{"path: ends", path, set(4, 0, 3), ""},
		{"path: alternate", path, set(4, 1, 3), ""},
		{"path: one end", path, set(4, 0),
			"vertex 2 is not in the set and has no neighbour in it (not maximal)"},
		{"two components", undirected(8, triangleAndK4), set(8, 2, 5, 7), ""},
		{"two components: isolated vertex left out", undirected(8, triangleAndK4), set(8, 2, 5),
			"vertex 7 is not in the set and has no neighbour in it (not maximal)"},
		// A self-loop is no conflict, and a vertex whose only arc is a
		// self-loop has no neighbour, so it must be in the set.
		{"self-loops", undirected(3, edges{{0, 0}, {1, 1}, {1, 2}}), set(3, 0, 1), ""},
		{"self-loop only vertex left out", undirected(3, edges{{0, 0}, {1, 1}, {1, 2}}), set(3, 1),
			"vertex 0 is not in the set and has no neighbour in it (not maximal)"},
		{"duplicate arcs", undirected(3, edges{{0, 1}, {0, 1}, {1, 2}, {2, 1}}), set(3, 1), ""},
		// A one-way arc 1→0 still covers 1 from 0 and 0 from 1.
		{"arc one way only", directed(2, edges{{1, 0}}), set(2, 0), ""},
		{"no edges: all in", undirected(3, nil), set(3, 0, 1, 2), ""},
		{"empty graph", undirected(0, nil), set(0), ""},
		{"wrong length", undirected(3, nil), set(2, 0, 1), "got 2 set flags for 3 vertices"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckMIS(c.g, c.inSet)
			if c.err == "" {
				require.NoError(t, err)
			} else {
				require.EqualError(t, err, c.err)
			}
		})
	}
}

// TestCheckMISMatchesDefinitionOnAllSubsets tries every subset of small
// random graphs against the definition on the adjacency matrix.
func TestCheckMISMatchesDefinitionOnAllSubsets(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	for trial := range 40 {
		n := 1 + rng.IntN(9)
		g := graphToCSR(randomEdgeList(rng, uint64(n), rng.IntN(3*n), 0, trial%2 == 0))
		m := adjacencyMatrix(g)
		found := 0
		for mask := 0; mask < 1<<n; mask++ {
			in := make([]bool, n)
			for v := range in {
				in[v] = mask>>v&1 == 1
			}
			valid := true
			for v := range in {
				hasNbrInSet := false
				for u := range in {
					if m[v][u] && in[u] {
						hasNbrInSet = true
					}
				}
				if in[v] == hasNbrInSet { // in and adjacent, or out and uncovered
					valid = false
				}
			}
			if valid {
				found++
			}
			require.Equal(t, valid, CheckMIS(g, in) == nil, "trial %d, set %b", trial, mask)
		}
		require.Positive(t, found, "every graph has a maximal independent set")
	}
}
