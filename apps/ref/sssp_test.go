package ref

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const Inf = Infinity

func TestSSSPHandChecked(t *testing.T) {
	cases := []struct {
		name       string
		n          uint64
		es         wedges
		undirected bool
		source     uint32
		want       []uint64
	}{
		// Direct arc 0-3 weighs 10; the three-hop path 0-1-2-3 weighs 3.
		{"shortest is not fewest hops", 4, wedges{{0, 3, 10}, {0, 1, 1}, {1, 2, 1}, {2, 3, 1}}, true, 0,
			[]uint64{0, 1, 2, 3}},
		{"weighted path", 4, wedges{{0, 1, 5}, {1, 2, 7}, {2, 3, 1}}, true, 3, []uint64{13, 8, 1, 0}},
		{"directed: the way back is longer", 3, wedges{{0, 1, 2}, {1, 2, 2}, {2, 0, 2}, {1, 0, 100}}, false, 1,
			[]uint64{4, 0, 2}},
		{"two components and an isolated vertex", 5, wedges{{0, 1, 4}, {2, 3, 1}}, true, 0,
			[]uint64{0, 4, Inf, Inf, Inf}},
		{"zero weights and duplicate arcs keep the least", 3, wedges{{0, 1, 0}, {1, 2, 9}, {1, 2, 3}, {0, 0, 5}}, false, 0,
			[]uint64{0, 0, 3}},
		{"single vertex", 1, nil, true, 0, []uint64{0}},
		{"large weights add up in 64 bits", 3, wedges{{0, 1, 4_000_000_000}, {1, 2, 4_000_000_000}}, false, 0,
			[]uint64{0, 4_000_000_000, 8_000_000_000}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := weighted(c.n, c.es, c.undirected)
			dist, err := SSSP(g, c.source)
			require.NoError(t, err)
			assert.Equal(t, c.want, dist)
			assert.NoError(t, CheckSSSP(g, c.source, dist))
		})
	}
}

func TestSSSPErrors(t *testing.T) {
	_, err := SSSP(directed(3, edges{{0, 1}}), 0)
	assert.ErrorContains(t, err, "weighted")
	_, err = SSSP(weighted(3, nil, false), 3)
	assert.Error(t, err)
	_, err = SSSP(weighted(0, nil, false), 0)
	assert.Error(t, err, "empty graph has no source")
	assert.Error(t, CheckSSSP(directed(3, nil), 0, []uint64{0, Inf, Inf}))
}

// bellmanFord computes shortest distances by relaxing every arc until
// nothing changes.
func bellmanFord(n uint64, as wedges, source uint32) []uint64 {
	dist := make([]uint64, n)
	for v := range dist {
		dist[v] = Infinity
	}
	dist[source] = 0
	for changed := true; changed; {
		changed = false
		for _, a := range as {
			if dist[a[0]] != Infinity && dist[a[0]]+uint64(a[2]) < dist[a[1]] {
				dist[a[1]] = dist[a[0]] + uint64(a[2])
				changed = true
			}
		}
	}
	return dist
}

func TestSSSPMatchesBellmanFordOnRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 300 {
		n := 1 + rng.Uint64N(30)
		m := rng.IntN(4 * int(n))
		maxW := []uint32{1, 3, 64, 1 << 30}[trial%4]
		g := graphToCSR(randomEdgeList(rng, n, m, maxW, trial%3 == 0))
		source := uint32(rng.Uint64N(n))
		dist, err := SSSP(g, source)
		require.NoError(t, err)
		require.Equal(t, bellmanFord(n, arcs(g), source), dist, "trial %d", trial)
		require.NoError(t, CheckSSSP(g, source, dist), "trial %d", trial)

		// Any single change of a distance is caught.
		v := rng.Uint64N(n)
		bad := append([]uint64(nil), dist...)
		switch {
		case bad[v] == Infinity:
			bad[v] = 12
		case bad[v] > 0 && rng.IntN(2) == 0:
			bad[v]--
		default:
			bad[v]++
		}
		require.Error(t, CheckSSSP(g, source, bad), "trial %d vertex %d", trial, v)
	}
}

func TestCheckSSSPRejectsCorruptDistances(t *testing.T) {
	// 0→1 (2), 1→2 (3), 0→2 (9), 3⇄4 with zero weights, unreachable from 0.
	g := weighted(5, wedges{{0, 1, 2}, {1, 2, 3}, {0, 2, 9}, {3, 4, 0}, {4, 3, 0}}, false)
	dist, err := SSSP(g, 0)
	require.NoError(t, err)
	require.Equal(t, []uint64{0, 2, 5, Inf, Inf}, dist)
	require.NoError(t, CheckSSSP(g, 0, dist))
	for name, bad := range map[string][]uint64{
		"source not zero":                    {1, 2, 5, Inf, Inf},
		"too large (an arc relaxes it)":      {0, 2, 6, Inf, Inf},
		"too small (no tight in-arc)":        {0, 2, 4, Inf, Inf},
		"too small everywhere":               {0, 1, 4, Inf, Inf},
		"reachable left at infinity":         {0, 2, Inf, Inf, Inf},
		"unreachable given a distance":       {0, 2, 5, 3, Inf},
		"zero-weight cycle, both consistent": {0, 2, 5, 3, 3}, // each has a tight in-arc, yet unreachable
		"wrong length":                       {0, 2, 5, Inf},
		"near overflow":                      {0, 2, Inf - 1, Inf, Inf},
	} {
		assert.Error(t, CheckSSSP(g, 0, bad), name)
	}
	assert.Error(t, CheckSSSP(g, 5, dist), "source outside the graph")
}

func TestSSSPOnLongChain(t *testing.T) {
	const n = 1_000_000
	g := chain(n, true)
	dist, err := SSSP(g, 0)
	require.NoError(t, err)
	var want uint64
	for v := range dist {
		if v > 0 {
			want += uint64((v-1)%7 + 1)
		}
		if dist[v] != want {
			t.Fatalf("vertex %d: distance %d, want %d", v, dist[v], want)
		}
	}
	require.NoError(t, CheckSSSP(g, 0, dist))
}
