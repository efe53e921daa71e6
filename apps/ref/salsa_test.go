package ref

import (
	"math/rand/v2"
	"testing"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/stretchr/testify/require"
)

func TestSALSAHandChecked(t *testing.T) {
	cases := []struct {
		name        string
		g           *graph.CSR
		hubs, auths []float64
	}{
		// Two components of a bipartite graph, hubs 0,1,2 | 6,7 and
		// authorities 3,4,5 | 8,9:
		//   C1: 0→3, 0→4, 1→3, 1→5, 2→5, 2→3 (6 arcs, 3 of the 5 hubs)
		//   C2: 6→8, 7→8, 7→9                (3 arcs, 2 of the 5 hubs)
		// a(v) = m(C)·indeg(v)/arcs(C), h(u) = m(C)·outdeg(u)/arcs(C), with
		// m(C1) = 3/5, m(C2) = 2/5:
		// a3 = 3/5·3/6, a4 = 3/5·1/6, a5 = 3/5·2/6, a8 = 2/5·2/3, a9 = 2/5·1/3;
		// h0 = h1 = h2 = 3/5·2/6, h6 = 2/5·1/3, h7 = 2/5·2/3.
		{"two bipartite components",
			directed(10, edges{{0, 3}, {0, 4}, {1, 3}, {1, 5}, {2, 5}, {2, 3}, {6, 8}, {7, 8}, {7, 9}}),
			[]float64{0.2, 0.2, 0.2, 0, 0, 0, 2.0 / 15, 4.0 / 15, 0, 0},
			[]float64{0, 0, 0, 0.3, 0.1, 0.2, 0, 0, 4.0 / 15, 2.0 / 15}},
		// Directed star: one hub, three equal authorities.
		{"directed star", directed(4, edges{{0, 1}, {0, 2}, {0, 3}}), []float64{1, 0, 0, 0}, []float64{0, 1.0 / 3, 1.0 / 3, 1.0 / 3}},
		// Undirected star K1,3: being bipartite, its double cover splits into
		// {h0, a1, a2, a3} (1 of the 4 hubs, 3 arcs) and {h1, h2, h3, a0}
		// (3 of the 4 hubs, 3 arcs): h0 = 1/4·3/3, a1 = 1/4·1/3,
		// h1 = 3/4·1/3, a0 = 3/4·3/3.
		{"undirected star", undirected(4, edges{{0, 1}, {0, 2}, {0, 3}}), []float64{0.25, 0.25, 0.25, 0.25},
			[]float64{0.75, 1.0 / 12, 1.0 / 12, 1.0 / 12}},
		// Path 0-1-2-3 undirected: the bipartite double cover splits into
		// {h0, a1, h2, a3} and {h1, a0, h3, a2}, each with 3 arcs and 2 of
		// the 4 hubs: a0 = 1/2·1/3, a1 = 1/2·2/3, and symmetrically.
		{"path", undirected(4, edges{{0, 1}, {1, 2}, {2, 3}}), []float64{1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6},
			[]float64{1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6}},
		// A triangle and a K4 (one component each in the double cover, as
		// neither is bipartite): mass 3/7 and 4/7, spread evenly.
		{"two components", undirected(7, triangleAndK4),
			[]float64{1.0 / 7, 1.0 / 7, 1.0 / 7, 1.0 / 7, 1.0 / 7, 1.0 / 7, 1.0 / 7},
			[]float64{1.0 / 7, 1.0 / 7, 1.0 / 7, 1.0 / 7, 1.0 / 7, 1.0 / 7, 1.0 / 7}},
		// Duplicates and self-loops are ordinary arcs: 0→1 twice, 0→0, 2→1.
		// One component, 4 arcs, hubs 0 and 2: a = (1, 3, 0)/4,
		// h = (3, 0, 1)/4.
		{"duplicate arcs and a self-loop", directed(3, edges{{0, 1}, {0, 1}, {0, 0}, {2, 1}}),
			[]float64{0.75, 0, 0.25}, []float64{0.25, 0.75, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, a, iters := SALSA(c.g, 10000, 1e-14)
			require.Less(t, iters, 10000)
			require.NoError(t, CompareFloats(c.hubs, h, 1e-9, 1e-12), "hubs")
			require.NoError(t, CompareFloats(c.auths, a, 1e-9, 1e-12), "authorities")
		})
	}
}

// TestSALSAIsDegreeProportionalPerComponent checks the closed form of the
// fixed point on random directed graphs: within each component C of the
// hub–authority graph (hub u is node u, authority v is node n+v, an arc
// u→v joins them), a(v) = m(C)·indeg(v)/arcs(C) and
// h(u) = m(C)·outdeg(u)/arcs(C), where m(C) is C's share of the hubs.
func TestSALSAIsDegreeProportionalPerComponent(t *testing.T) {
	rng := rand.New(rand.NewPCG(91, 92))
	for trial := range 40 {
		n := 1 + rng.Uint64N(40)
		el := randomEdgeList(rng, n, rng.IntN(3*int(n)), 0, false)
		g := graphToCSR(el)
		uf := newUnionFind(2 * n)
		outdeg := make([]float64, n)
		indeg := make([]float64, n)
		for i := range el.Src {
			uf.union(el.Src[i], uint32(n)+el.Dst[i])
			outdeg[el.Src[i]]++
			indeg[el.Dst[i]]++
		}
		hubsIn := map[uint32]float64{}
		arcsIn := map[uint32]float64{}
		totalHubs := 0.0
		for u := range n {
			if outdeg[u] > 0 {
				hubsIn[uf.find(uint32(u))]++
				arcsIn[uf.find(uint32(u))] += outdeg[u]
				totalHubs++
			}
		}
		wantH := make([]float64, n)
		wantA := make([]float64, n)
		for v := range n {
			if c := uf.find(uint32(v)); outdeg[v] > 0 {
				wantH[v] = hubsIn[c] / totalHubs * outdeg[v] / arcsIn[c]
			}
			if c := uf.find(uint32(n + v)); indeg[v] > 0 {
				wantA[v] = hubsIn[c] / totalHubs * indeg[v] / arcsIn[c]
			}
		}
		h, a, iters := SALSA(g, 100000, 1e-14)
		require.Less(t, iters, 100000, "trial %d", trial)
		require.NoError(t, CompareFloats(wantH, h, 1e-8, 1e-12), "trial %d hubs", trial)
		require.NoError(t, CompareFloats(wantA, a, 1e-8, 1e-12), "trial %d authorities", trial)
	}
}

func TestSALSAIterations(t *testing.T) {
	g := directed(4, edges{{0, 2}, {0, 3}, {1, 3}})
	// maxIter 0: uniform over hubs (0, 1) and over authorities (2, 3).
	h, a, iters := SALSA(g, 0, 1e-8)
	require.Equal(t, 0, iters)
	require.Equal(t, []float64{0.5, 0.5, 0, 0}, h)
	require.Equal(t, []float64{0, 0, 0.5, 0.5}, a)
	// One iteration by hand: a2 = h0/2 = 1/4, a3 = h0/2 + h1 = 3/4;
	// h0 = a2/1 + a3/2 = 5/8, h1 = a3/2 = 3/8.
	h, a, iters = SALSA(g, 1, 0)
	require.Equal(t, 1, iters)
	require.Equal(t, []float64{0.625, 0.375, 0, 0}, h)
	require.Equal(t, []float64{0, 0, 0.25, 0.75}, a)
	// Fixed point: a ∝ indeg = (1, 2)/3, h ∝ outdeg = (2, 1)/3; no
	// tolerance runs every iteration.
	h, a, iters = SALSA(g, 200, 0)
	require.Equal(t, 200, iters)
	require.NoError(t, CompareFloats([]float64{2.0 / 3, 1.0 / 3, 0, 0}, h, 1e-12, 1e-15))
	require.NoError(t, CompareFloats([]float64{0, 0, 1.0 / 3, 2.0 / 3}, a, 1e-12, 1e-15))
	// A fixed point from the start stops after one iteration.
	_, _, iters = SALSA(directed(4, edges{{0, 1}, {0, 2}, {0, 3}}), 100, 1e-12)
	require.Equal(t, 1, iters)
	// 0→2, 0→3, 1→3, 1→4: the hubs start at their fixed point (1/2, 1/2)
	// and keep it, but the authorities move from 1/3 each to (1, 2, 1)/4,
	// so the first iteration is not the last; the second changes nothing.
	h, a, iters = SALSA(directed(5, edges{{0, 2}, {0, 3}, {1, 3}, {1, 4}}), 100, 1e-12)
	require.Equal(t, 2, iters)
	require.Equal(t, []float64{0.5, 0.5, 0, 0, 0}, h)
	require.Equal(t, []float64{0, 0, 0.25, 0.5, 0.25}, a)
}

func TestSALSAEdgeCases(t *testing.T) {
	h, a, iters := SALSA(directed(0, nil), 100, 1e-8)
	require.Empty(t, h)
	require.Empty(t, a)
	require.Equal(t, 0, iters)
	h, a, iters = SALSA(directed(3, nil), 100, 1e-8)
	require.Equal(t, []float64{0, 0, 0}, h)
	require.Equal(t, []float64{0, 0, 0}, a)
	require.Equal(t, 1, iters)
}
