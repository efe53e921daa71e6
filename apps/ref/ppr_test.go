package ref

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/stretchr/testify/require"
)

// solveLinear solves a·x = b by Gaussian elimination with partial pivoting
// (a and b are overwritten).
func solveLinear(a [][]float64, b []float64) []float64 {
	n := len(b)
	for col := range n {
		p := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[p][col]) {
				p = r
			}
		}
		a[col], a[p] = a[p], a[col]
		b[col], b[p] = b[p], b[col]
		for r := col + 1; r < n; r++ {
			f := a[r][col] / a[col][col]
			for c := col; c < n; c++ {
				a[r][c] -= f * a[col][c]
			}
			b[r] -= f * b[col]
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for c := r + 1; c < n; c++ {
			s -= a[r][c] * x[c]
		}
		x[r] = s / a[r][r]
	}
	return x
}

// pprBySolving returns the exact personalised PageRank: the solution of
// r = (1-d)·p + d·(M·r + (sum of r over dangling vertices)·p), that is
// (I - d·(M + p·1_danglingᵀ))·r = (1-d)·p, with M[v][u] = (arcs u→v)/outdeg(u).
func pprBySolving(g *graph.CSR, sources []uint32, d float64) []float64 {
	n := int(g.NumVertices)
	p := make([]float64, n)
	distinct := map[uint32]bool{}
	for _, s := range sources {
		distinct[s] = true
	}
	for s := range distinct {
		p[s] = 1 / float64(len(distinct))
	}
	a := make([][]float64, n)
	b := make([]float64, n)
	for v := range a {
		a[v] = make([]float64, n)
		a[v][v] = 1
		b[v] = (1 - d) * p[v]
	}
	for _, arc := range arcs(g) {
		a[arc[1]][arc[0]] -= d / float64(g.Degree(arc[0]))
	}
	for u := range n {
		if g.Degree(uint32(u)) == 0 {
			for v := range n {
				a[v][u] -= d * p[v]
			}
		}
	}
	return solveLinear(a, b)
}

// pprGraph is 0→1, 0→2, 1→2, 2→0, 2→3, with 3 dangling.
func pprGraph() *graph.CSR { return directed(4, edges{{0, 1}, {0, 2}, {1, 2}, {2, 0}, {2, 3}}) }

func TestPersonalizedPageRankHandChecked(t *testing.T) {
	cases := []struct {
		name    string
		g       *graph.CSR
		sources []uint32
		want    []float64
	}{
		// 0→1, 1 dangling, source 0: r0 = 0.15 + 0.85·r1 (1's mass returns
		// to 0), r1 = 0.85·r0 ⇒ 0.2775·r0 = 0.15 ⇒ r0 = 20/37, r1 = 17/37.
		{"one arc into a dangling vertex", directed(2, edges{{0, 1}}), []uint32{0}, []float64{20.0 / 37, 17.0 / 37}},
		// Source 1 never reaches 0: r0 = 0, r1 = 1.
		{"unreachable vertex", directed(2, edges{{0, 1}}), []uint32{1}, []float64{0, 1}},
		// Star K1,3, centre 0, source 1: leaves 2 and 3 get r = 0.85·r0/3,
		// r0 = 0.85·(r1 + 2r), r1 = 0.15 + 0.85·r0/3.
		// ⇒ r0·(1 - 0.85²·2/3 - 0.85²/3) = 0.85·0.15 ⇒ r0 = 0.1275/0.2775 = 17/37,
		// r = 0.85·17/111 = 14.45/111, r1 = 0.15 + 14.45/111 = 31.1/111.
		{"star from a leaf", undirected(4, edges{{0, 1}, {0, 2}, {0, 3}}), []uint32{1},
			[]float64{17.0 / 37, 31.1 / 111, 14.45 / 111, 14.45 / 111}},
		// _pagerank_python(G, alpha=0.85, personalization={1: 1}, tol=1e-15)
		// from NetworkX 3.6 on the same graph.
		{"NetworkX, one source", pprGraph(), []uint32{1},
			[]float64{0.15103214005748594, 0.3425659785732951, 0.3553697413117331, 0.15103214005748594}},
		// The same with personalization={1: 1, 3: 1}.
		{"NetworkX, two sources", pprGraph(), []uint32{1, 3},
			[]float64{0.11814363240569421, 0.2679693807679337, 0.2779850174251643, 0.3359019694012077}},
		{"duplicate sources count once", pprGraph(), []uint32{3, 1, 3, 3},
			[]float64{0.11814363240569421, 0.2679693807679337, 0.2779850174251643, 0.3359019694012077}},
		{"single vertex", directed(1, nil), []uint32{0}, []float64{1}},
		// A self-loop is an ordinary arc: 0→0, 0→1, source 0:
		// r1 = 0.85·r0/2, r0 = 0.15 + 0.85·(r0/2 + r1) (1 is dangling).
		// ⇒ r0·(1 - 0.425 - 0.36125) = 0.15 ⇒ r0 = 0.15/0.21375 = 40/57, r1 = 17/57.
		{"self-loop", directed(2, edges{{0, 0}, {0, 1}}), []uint32{0}, []float64{40.0 / 57, 17.0 / 57}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ranks, iters := PersonalizedPageRank(c.g, c.sources, converged)
			require.Less(t, iters, converged.MaxIterations)
			require.NoError(t, CompareFloats(c.want, ranks, 1e-10, 1e-12))
			require.NoError(t, CompareFloats(pprBySolving(c.g, c.sources, 0.85), ranks, 1e-10, 1e-12))
		})
	}
}

func TestPersonalizedPageRankKarate(t *testing.T) {
	// _pagerank_python(nx.karate_club_graph(), personalization={0: 1},
	// weight=None, tol=1e-15), NetworkX 3.6.
	want := []float64{0.2663736031484216, 0.06488790798684252, 0.05494775351279116, 0.04623141631952724,
		0.030943355919900276, 0.03776458388393527, 0.03776458388393527, 0.03149940978209271, 0.0270616426834219,
		0.007230558508746669, 0.030943355919900276, 0.014151097667259721, 0.02070054831252597, 0.03405940924225212,
		0.004915562772105624, 0.004915562772105624, 0.016049948150671678, 0.020279400088239204, 0.004915562772105624,
		0.022839399548398618, 0.004915562772105624, 0.020279400088239204, 0.004915562772105624, 0.011586470513438848,
		0.008630131700717046, 0.008236655761026581, 0.004422527292647352, 0.011645462477901491, 0.011052310300618429,
		0.00876483685876577, 0.015644344449266885, 0.026977071472035083, 0.03325501146276764, 0.051199989203185206}
	ranks, _ := PersonalizedPageRank(karate(), []uint32{0}, converged)
	require.NoError(t, CompareFloats(want, ranks, 1e-9, 1e-12))
}

func TestPersonalizedPageRankFromAllVerticesIsPageRank(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	for trial := range 30 {
		n := 1 + rng.Uint64N(50)
		g := graphToCSR(randomEdgeList(rng, n, rng.IntN(3*int(n)), 0, trial%2 == 0))
		all := make([]uint32, n)
		for v := range all {
			all[v] = uint32(v)
		}
		want, _ := PageRank(g, converged)
		got, _ := PersonalizedPageRank(g, all, converged)
		require.NoError(t, CompareFloats(want, got, 1e-9, 1e-12), "trial %d", trial)
	}
}

func TestPersonalizedPageRankMatchesLinearSystemOnRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(73, 74))
	for trial := range 50 {
		n := 1 + rng.Uint64N(40)
		g := graphToCSR(randomEdgeList(rng, n, rng.IntN(3*int(n)), 0, trial%2 == 0))
		sources := []uint32{uint32(rng.Uint64N(n)), uint32(rng.Uint64N(n))}
		ranks, _ := PersonalizedPageRank(g, sources, converged)
		require.NoError(t, CompareFloats(pprBySolving(g, sources, 0.85), ranks, 1e-9, 1e-12), "trial %d", trial)
		require.InDelta(t, 1, sum(ranks), 1e-9, "trial %d", trial)
		// Vertices no source reaches have rank exactly 0.
		reached := make([]bool, n)
		for _, s := range sources {
			levels, _ := BFS(g, s)
			for v, l := range levels {
				reached[v] = reached[v] || l != Unreached
			}
		}
		for v, r := range ranks {
			require.Equal(t, reached[v], r > 0, "trial %d, vertex %d", trial, v)
		}
	}
}

func TestPersonalizedPageRankIterations(t *testing.T) {
	g := pprGraph()
	ranks, iters := PersonalizedPageRank(g, []uint32{1}, PageRankOptions{Damping: 0.85, MaxIterations: 0})
	require.Equal(t, 0, iters)
	require.Equal(t, []float64{0, 1, 0, 0}, ranks, "no iteration returns the personalisation vector")
	_, iters = PersonalizedPageRank(g, []uint32{1}, PageRankOptions{Damping: 0.85, MaxIterations: 7})
	require.Equal(t, 7, iters, "no tolerance runs every iteration")
	// One iteration from p = e1: 1's rank all moves to 2, plus (1-d) back to 1.
	ranks, _ = PersonalizedPageRank(g, []uint32{1}, PageRankOptions{Damping: 0.85, MaxIterations: 1})
	require.NoError(t, CompareFloats([]float64{0, 0.15, 0.85, 0}, ranks, 1e-15, 1e-15))
	// Stops at the first iteration whose L1 change is below the tolerance.
	loose, looseIters := PersonalizedPageRank(g, []uint32{1}, DefaultPageRankOptions())
	require.Less(t, looseIters, 100)
	prev, _ := PersonalizedPageRank(g, []uint32{1}, PageRankOptions{Damping: 0.85, MaxIterations: looseIters - 1})
	var change float64
	for v := range loose {
		change += math.Abs(loose[v] - prev[v])
	}
	require.Less(t, change, 1e-4)
	before, _ := PersonalizedPageRank(g, []uint32{1}, PageRankOptions{Damping: 0.85, MaxIterations: looseIters - 2})
	change = 0
	for v := range prev {
		change += math.Abs(prev[v] - before[v])
	}
	require.GreaterOrEqual(t, change, 1e-4)
}

func TestPersonalizedPageRankEmptyGraphAndPanics(t *testing.T) {
	ranks, iters := PersonalizedPageRank(directed(0, nil), nil, DefaultPageRankOptions())
	require.Empty(t, ranks)
	require.Equal(t, 0, iters)
	require.Panics(t, func() { PersonalizedPageRank(directed(0, nil), []uint32{0}, DefaultPageRankOptions()) })
	require.Panics(t, func() { PersonalizedPageRank(directed(3, nil), []uint32{1, 3}, DefaultPageRankOptions()) })
	require.Panics(t, func() { PersonalizedPageRank(directed(3, nil), nil, DefaultPageRankOptions()) })
}
