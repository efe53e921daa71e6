package ref

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// converged asks for a fixed point to about 1e-12.
var converged = PageRankOptions{Damping: 0.85, Tolerance: 1e-13, MaxIterations: 1000}

func sum(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}

func TestDefaultPageRankOptions(t *testing.T) {
	assert.Equal(t, PageRankOptions{Damping: 0.85, Tolerance: 1e-4, MaxIterations: 100}, DefaultPageRankOptions())
}

func TestPageRankHandChecked(t *testing.T) {
	cases := []struct {
		name string
		g    *graph.CSR
		want []float64
	}{
		// 0→1, 1 dangling. r0 = 0.075 + 0.85·r1/2, r0 + r1 = 1
		// ⇒ 1.425·r0 = 0.5 ⇒ r0 = 20/57, r1 = 37/57.
		{"one arc into a dangling vertex", directed(2, edges{{0, 1}}), []float64{20.0 / 57, 37.0 / 57}},
		// Star K1,3 undirected, centre 0: leaves r = 0.0375 + 0.85·rc/3,
		// rc = 1 - 3r ⇒ 1.85·rc = 0.8875 ⇒ rc = 71/148, r = 77/444.
		{"star", undirected(4, edges{{0, 1}, {0, 2}, {0, 3}}), []float64{71.0 / 148, 77.0 / 444, 77.0 / 444, 77.0 / 444}},
		{"directed cycle", directed(3, edges{{0, 1}, {1, 2}, {2, 0}}), []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}},
		{"no arcs: all dangling", directed(4, nil), []float64{0.25, 0.25, 0.25, 0.25}},
		{"single vertex", directed(1, nil), []float64{1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ranks, iters := PageRank(c.g, converged)
			assert.Less(t, iters, converged.MaxIterations)
			assert.NoError(t, CompareFloats(c.want, ranks, 1e-10, 1e-12))
		})
	}
}

func TestPageRankEmptyGraph(t *testing.T) {
	ranks, iters := PageRank(directed(0, nil), DefaultPageRankOptions())
	assert.Empty(t, ranks)
	assert.Equal(t, 0, iters)
}

func TestPageRankRegularRingIsUniform(t *testing.T) {
	const n = 1000
	var es edges
	for v := uint32(0); v < n; v++ {
		es = append(es, [2]uint32{v, (v + 1) % n}, [2]uint32{v, (v + 7) % n})
	}
	ranks, iters := PageRank(undirected(n, es), DefaultPageRankOptions())
	assert.Equal(t, 1, iters, "uniform is the fixed point: the first iteration changes nothing")
	for v, r := range ranks {
		require.InDelta(t, 1.0/n, r, 1e-15, "vertex %d", v)
	}
}

func TestPageRankSumsToOneWithDanglingVertices(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 50 {
		n := 1 + rng.Uint64N(200)
		g := graphToCSR(randomEdgeList(rng, n, rng.IntN(int(n)), 0, false)) // many dangling vertices
		for _, opts := range []PageRankOptions{DefaultPageRankOptions(), {Damping: 0.85, MaxIterations: 3}, converged} {
			ranks, _ := PageRank(g, opts)
			require.InDelta(t, 1, sum(ranks), 1e-9, "trial %d", trial)
		}
	}
}

// denseGoogleMatrix returns G with r_new = G·r: G[v][u] = (1-d)/n plus
// d·(arcs u→v)/outdeg(u), or d/n for every v when u is dangling.
func denseGoogleMatrix(g *graph.CSR, d float64) [][]float64 {
	n := int(g.NumVertices)
	m := make([][]float64, n)
	for v := range m {
		m[v] = make([]float64, n)
		for u := range m[v] {
			m[v][u] = (1 - d) / float64(n)
		}
	}
	for _, a := range arcs(g) {
		m[a[1]][a[0]] += d / float64(g.Degree(a[0]))
	}
	for u := range n {
		if g.Degree(uint32(u)) == 0 {
			for v := range m {
				m[v][u] += d / float64(n)
			}
		}
	}
	return m
}

// densePowerIteration runs iters iterations of r ← G·r from uniform.
func densePowerIteration(gm [][]float64, iters int) []float64 {
	n := len(gm)
	r := make([]float64, n)
	for v := range r {
		r[v] = 1 / float64(n)
	}
	for range iters {
		next := make([]float64, n)
		for v := range next {
			for u := range r {
				next[v] += gm[v][u] * r[u]
			}
		}
		r = next
	}
	return r
}

func TestPageRankMatchesDenseMatrix(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := range 60 {
		n := 1 + rng.Uint64N(25)
		g := graphToCSR(randomEdgeList(rng, n, rng.IntN(3*int(n)), 0, trial%2 == 0))
		d := []float64{0.85, 0.5, 0.99, 0}[trial%4]
		gm := denseGoogleMatrix(g, d)

		// Same number of iterations: the same numbers up to rounding.
		ranks, iters := PageRank(g, PageRankOptions{Damping: d, MaxIterations: 7})
		require.Equal(t, 7, iters)
		require.NoError(t, CompareFloats(densePowerIteration(gm, 7), ranks, 1e-12, 1e-15), "trial %d", trial)

		// Converged: the fixed point.
		ranks, _ = PageRank(g, PageRankOptions{Damping: d, Tolerance: 1e-14, MaxIterations: 5000})
		require.NoError(t, CompareFloats(densePowerIteration(gm, 5000), ranks, 1e-9, 1e-12), "trial %d", trial)
	}
}

func TestPageRankToleranceIsL1Change(t *testing.T) {
	g := directed(5, edges{{0, 1}, {1, 2}, {2, 0}, {3, 0}, {0, 4}})
	opts := PageRankOptions{Damping: 0.85, Tolerance: 1e-6, MaxIterations: 1000}
	ranks, iters := PageRank(g, opts)
	require.Greater(t, iters, 2)
	l1 := func(a, b []float64) float64 {
		var s float64
		for i := range a {
			s += math.Abs(a[i] - b[i])
		}
		return s
	}
	// The iteration stopped at the first L1 change below the tolerance.
	prev, _ := PageRank(g, PageRankOptions{Damping: 0.85, MaxIterations: iters - 1})
	prev2, _ := PageRank(g, PageRankOptions{Damping: 0.85, MaxIterations: iters - 2})
	assert.Less(t, l1(ranks, prev), opts.Tolerance)
	assert.GreaterOrEqual(t, l1(prev, prev2), opts.Tolerance)

	_, iters = PageRank(g, PageRankOptions{Damping: 0.85, MaxIterations: 0})
	assert.Equal(t, 0, iters)
}
