package apps

import (
	"fmt"
	"math"
	"testing"

	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/stretchr/testify/require"
)

// refDistances returns Dijkstra's distances from source as the engines give
// them: uint32, saturated at Unreached.
func refDistances(t *testing.T, g *graph.CSR, source uint32) []uint32 {
	t.Helper()
	want, err := ref.SSSP(g, source)
	require.NoError(t, err)
	dist := make([]uint32, len(want))
	for v, d := range want {
		dist[v] = uint32(min(d, Unreached))
	}
	return dist
}

// TestSSSPCertificate checks that the certificate accepts Dijkstra's
// distances on every shape and refuses each way of being wrong: a distance
// too small, one too large, a reachable vertex left unreached, an
// unreachable one given a distance, a source not at zero.
func TestSSSPCertificate(t *testing.T) {
	for _, sh := range testgraphs.Shapes(t, testgraphs.Small) {
		if sh.EL.NumVertices == 0 {
			continue
		}
		el := *sh.EL
		el.SetRandomWeights(7, 1, 64, 2)
		g := graph.ToCSR(&el, 2)
		for _, workers := range []int{1, 3} {
			t.Run(fmt.Sprintf("%s/%d", sh.Name, workers), func(t *testing.T) {
				dist := refDistances(t, g, 0)
				require.NoError(t, CheckSSSPCertificate(g, 0, dist, workers))
				reached, unreached := -1, -1
				for v := len(dist) - 1; v > 0; v-- {
					if dist[v] != Unreached && reached < 0 {
						reached = v
					}
					if dist[v] == Unreached && unreached < 0 {
						unreached = v
					}
				}
				bad := func(v int, d uint32, msg string) {
					wrong := append([]uint32(nil), dist...)
					wrong[v] = d
					err := CheckSSSPCertificate(g, 0, wrong, workers)
					require.Error(t, err, msg)
					require.NotErrorIs(t, err, ErrZeroWeight)
				}
				bad(0, 1, "source not at zero")
				if reached > 0 {
					bad(reached, dist[reached]-1, "too small")
					bad(reached, dist[reached]+1, "too large")
					bad(reached, Unreached, "reachable left unreached")
				}
				if unreached > 0 {
					bad(unreached, 5, "unreachable given a distance")
				}
			})
		}
	}
}

// TestSSSPCertificateSaturates: a distance of 2^32−1 or more reads
// Unreached, and the certificate accepts it (and refuses it below that).
func TestSSSPCertificateSaturates(t *testing.T) {
	el := testgraphs.Path(4)
	el.Weights = make([]uint32, len(el.Src))
	for i := range el.Weights {
		el.Weights[i] = math.MaxUint32/2 + 1 // 0 → 1 → 2 sums past 2^32−1
	}
	g := graph.ToCSR(el, 1)
	dist := refDistances(t, g, 0)
	require.Equal(t, []uint32{0, math.MaxUint32/2 + 1, Unreached, Unreached}, dist)
	require.NoError(t, CheckSSSPCertificate(g, 0, dist, 2))
	for i := range el.Weights {
		el.Weights[i] = math.MaxUint32 / 2
	}
	g = graph.ToCSR(el, 1)
	require.Error(t, CheckSSSPCertificate(g, 0, dist, 2), "0 → 2 is 2^32−2: not saturated")
}

// TestSSSPCertificateRefusesZeroWeights: with a zero-weight cycle out of
// reach, tight arcs prove nothing, so the check refuses the graph and
// ValidateSSSP's Dijkstra decides.
func TestSSSPCertificateRefusesZeroWeights(t *testing.T) {
	el := testgraphs.Undirected(4, [2]uint32{0, 1}, [2]uint32{2, 3})
	el.Weights = make([]uint32, len(el.Src))
	g := graph.ToCSR(el, 1)
	fake := []uint32{0, 0, 7, 7} // 2 and 3 are unreachable, yet tight to each other
	require.ErrorIs(t, CheckSSSPCertificate(g, 0, fake, 1), ErrZeroWeight)
	require.Error(t, ValidateSSSP(g, 0, fake))
}

// TestArcChunks: the chunks cover every row once, in order, and a chunk of
// a skewed graph holds about its share of the arcs.
func TestArcChunks(t *testing.T) {
	offsets := []uint64{0, 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 2000}
	for _, parts := range []int{1, 2, 3, 7, 10, 40} {
		chunks := arcChunks(offsets, parts)
		next := 0
		for i, c := range chunks {
			require.Equal(t, i, c.Index)
			require.Equal(t, next, c.Lo)
			require.Greater(t, c.Hi, c.Lo)
			next = c.Hi
		}
		require.Equal(t, len(offsets)-1, next, "parts %d", parts)
		require.LessOrEqual(t, len(chunks), parts)
	}
	chunks := arcChunks(offsets, 2)
	require.Equal(t, []int{0, 1}, []int{chunks[0].Lo, chunks[0].Hi}, "the first row holds half the arcs")
	require.Len(t, arcChunks([]uint64{0, 0, 0}, 4), 2, "no arcs: cut by vertices")
}
