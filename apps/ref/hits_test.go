package ref

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/stretchr/testify/require"
)

func TestHITSHandChecked(t *testing.T) {
	phi := (1 + math.Sqrt(5)) / 2
	cases := []struct {
		name        string
		g           *graph.CSR
		hubs, auths []float64
	}{
		// 0 points to 1, 2, 3: 0 is the only hub, the others equal
		// authorities.
		{"directed star", directed(4, edges{{0, 1}, {0, 2}, {0, 3}}), []float64{1, 0, 0, 0}, []float64{0, 1.0 / 3, 1.0 / 3, 1.0 / 3}},
		// 0→2, 0→3, 1→3: AAᵀ = [[2,1],[1,1]] on hubs 0, 1, top eigenvector
		// (φ, 1) ⇒ h = (1/φ, 1/φ²); a = Aᵀh = (h0, h0+h1 = 1) on 2, 3,
		// normalised (1/φ², 1/φ).
		{"bipartite", directed(4, edges{{0, 2}, {0, 3}, {1, 3}}), []float64{1 / phi, 1 / (phi * phi), 0, 0},
			[]float64{0, 0, 1 / (phi * phi), 1 / phi}},
		// Path 0-1-2-3: top eigenvector of A² reached from uniform is
		// (1, φ, φ, 1), so h = a = ((3-√5)/4, (√5-1)/4, (√5-1)/4, (3-√5)/4);
		// _hits_python(nx.path_graph(4)) gives 0.19098300562505263 and
		// 0.30901699437494734.
		{"path", undirected(4, edges{{0, 1}, {1, 2}, {2, 3}}),
			[]float64{0.19098300562505263, 0.30901699437494734, 0.30901699437494734, 0.19098300562505263},
			[]float64{0.19098300562505263, 0.30901699437494734, 0.30901699437494734, 0.19098300562505263}},
		// _hits_python(G, tol=1e-14) on the DiGraph 0→1, 0→2, 1→2, 2→0,
		// 3→2, 3→4, 4→4 (NetworkX 3.6; its 1e-23 entries are 0).
		{"NetworkX, with a self-loop", directed(5, edges{{0, 1}, {0, 2}, {1, 2}, {2, 0}, {3, 2}, {3, 4}, {4, 4}}),
			[]float64{0.30540728933227823, 0.22668159690567732, 0, 0.3472963553338609, 0.12061475842818362},
			[]float64{0, 0.18479253090409484, 0.5320888862379557, 0, 0.28311858285794944}},
		// A triangle and a K4: the K4's eigenvalue 9 beats the triangle's 4.
		{"two components", undirected(7, triangleAndK4), []float64{0, 0, 0, 0.25, 0.25, 0.25, 0.25},
			[]float64{0, 0, 0, 0.25, 0.25, 0.25, 0.25}},
		// A doubled arc counts twice: A = [[0,2,1],...] for 0→1 twice, 0→2.
		// Only 0 is a hub; a ∝ (0, 2, 1).
		{"duplicate arcs", directed(3, edges{{0, 1}, {0, 1}, {0, 2}}), []float64{1, 0, 0}, []float64{0, 2.0 / 3, 1.0 / 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, a, iters := HITS(c.g, 10000, 1e-14)
			require.Less(t, iters, 10000)
			require.NoError(t, CompareFloats(c.hubs, h, 1e-9, 1e-10), "hubs")
			require.NoError(t, CompareFloats(c.auths, a, 1e-9, 1e-10), "authorities")
		})
	}
}

func TestHITSKarate(t *testing.T) {
	// Hubs of _hits_python(nx.Graph(nx.karate_club_graph().edges()),
	// tol=1e-15) (NetworkX 3.6; the edges are copied to drop the "weight"
	// attribute, which _hits_python would use). The graph is undirected, so
	// the authorities are the same.
	want := []float64{
		0.07141272880825197, 0.05342723123552997, 0.06371906455637477, 0.04242273712470899, 0.015260959706207482,
		0.015966913503059642, 0.015966913503059642, 0.034343167219053644, 0.045681925119750305,
		0.020625667749388638, 0.015260959706207482, 0.01061789151107122, 0.01692545079230686, 0.045494864068056355,
		0.020370345825614276, 0.020370345825614276, 0.004748031847301572, 0.018561637037432077,
		0.020370345825614276, 0.029713333886434788, 0.020370345825614276, 0.018561637037432077,
		0.020370345825614276, 0.030156497509356398, 0.011460952230971702, 0.011893664396281383,
		0.015182734330338387, 0.02681349411710477, 0.02633150577795389, 0.02711153962821768, 0.03510623797671439,
		0.03837574186295605, 0.06200184647383096, 0.07500294215657549}
	h, a, _ := HITS(karate(), 10000, 1e-15)
	require.NoError(t, CompareFloats(want, h, 1e-8, 1e-12))
	require.NoError(t, CompareFloats(want, a, 1e-8, 1e-12))
}

// hitsDense runs iters iterations of a = Aᵀh, h = A·a with sum
// normalisation on the dense arc-count matrix.
func hitsDense(g *graph.CSR, iters int) (h, a []float64) {
	n := int(g.NumVertices)
	m := make([][]float64, n)
	for u := range m {
		m[u] = make([]float64, n)
	}
	for _, arc := range arcs(g) {
		m[arc[0]][arc[1]]++
	}
	h = make([]float64, n)
	for v := range h {
		h[v] = 1 / float64(n)
	}
	a = make([]float64, n)
	for range iters {
		for v := range a {
			a[v] = 0
			for u := range h {
				a[v] += m[u][v] * h[u]
			}
		}
		normalizeSum(a)
		for u := range h {
			h[u] = 0
			for v := range a {
				h[u] += m[u][v] * a[v]
			}
		}
		normalizeSum(h)
	}
	return h, a
}

func TestHITSMatchesDenseIterationOnRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(81, 82))
	for trial := range 40 {
		n := 1 + rng.Uint64N(30)
		g := graphToCSR(randomEdgeList(rng, n, rng.IntN(3*int(n)), 0, trial%2 == 0))
		iters := 1 + rng.IntN(20)
		h, a, got := HITS(g, iters, 0)
		require.Equal(t, iters, got)
		wantH, wantA := hitsDense(g, iters)
		require.NoError(t, CompareFloats(wantH, h, 1e-12, 1e-14), "trial %d hubs", trial)
		require.NoError(t, CompareFloats(wantA, a, 1e-12, 1e-14), "trial %d authorities", trial)
		if g.NumArcs() > 0 {
			require.InDelta(t, 1, sum(h), 1e-12)
			require.InDelta(t, 1, sum(a), 1e-12)
		}
	}
}

func TestHITSEdgeCases(t *testing.T) {
	h, a, iters := HITS(directed(0, nil), 100, 1e-8)
	require.Empty(t, h)
	require.Empty(t, a)
	require.Equal(t, 0, iters)
	// No arcs: everything is 0 after the first iteration, which changes h
	// by 1, and the second changes nothing.
	h, a, iters = HITS(directed(3, nil), 100, 1e-8)
	require.Equal(t, []float64{0, 0, 0}, h)
	require.Equal(t, []float64{0, 0, 0}, a)
	require.Equal(t, 2, iters)
	// maxIter 0 returns the uniform start.
	h, a, iters = HITS(directed(2, edges{{0, 1}}), 0, 1e-8)
	require.Equal(t, []float64{0.5, 0.5}, h)
	require.Equal(t, []float64{0.5, 0.5}, a)
	require.Equal(t, 0, iters)
	// The directed star is exact after one iteration; the second sees no
	// change and stops.
	_, _, iters = HITS(directed(4, edges{{0, 1}, {0, 2}, {0, 3}}), 100, 1e-8)
	require.Equal(t, 2, iters)
}
