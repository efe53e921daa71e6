package ref

import (
	"math/rand/v2"
	"testing"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCCHandChecked(t *testing.T) {
	cases := []struct {
		name       string
		n          uint64
		es         edges
		undirected bool
		want       []uint32
		count      int
		largest    uint64
	}{
		{"path", 4, edges{{3, 2}, {2, 1}, {1, 0}}, true, []uint32{0, 0, 0, 0}, 1, 4},
		{"star", 5, edges{{4, 0}, {4, 1}, {4, 2}, {4, 3}}, true, []uint32{0, 0, 0, 0, 0}, 1, 5},
		{"cycle", 5, edges{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}}, true, []uint32{0, 0, 0, 0, 0}, 1, 5},
		{"two components and an isolated vertex", 7, edges{{5, 1}, {1, 3}, {6, 2}, {2, 4}}, true,
			[]uint32{0, 1, 2, 1, 2, 1, 2}, 3, 3},
		// 0→1←2 has no directed path from 0 to 2, but it is one weak component.
		{"directed input gives weak components", 5, edges{{0, 1}, {2, 1}, {4, 3}}, false,
			[]uint32{0, 0, 0, 3, 3}, 2, 3},
		{"self-loops and duplicates", 3, edges{{2, 2}, {1, 2}, {1, 2}}, false, []uint32{0, 1, 1}, 2, 2},
		{"no edges", 3, nil, true, []uint32{0, 1, 2}, 3, 1},
		{"single vertex", 1, nil, true, []uint32{0}, 1, 1},
		{"empty graph", 0, nil, true, []uint32{}, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			el := edgeList(c.n, c.es, c.undirected)
			labels := CC(el)
			assert.Equal(t, c.want, labels)
			assert.Equal(t, c.want, CCAdjacency(&graph.ToCSR(el, 1).Adjacency))
			assert.Equal(t, c.want, CCAdjacency(&graph.ToCSC(el, 1).Adjacency))
			count, largest := ComponentSizes(labels)
			assert.Equal(t, c.count, count)
			assert.Equal(t, c.largest, largest)
		})
	}
}

// ccByDFS labels weak components by depth-first search (explicit stack)
// over the arcs taken both ways, each labelled with its smallest vertex.
func ccByDFS(el *graph.EdgeList) []uint32 {
	n := el.NumVertices
	adj := make([][]uint32, n)
	for i := range el.Src {
		adj[el.Src[i]] = append(adj[el.Src[i]], el.Dst[i])
		adj[el.Dst[i]] = append(adj[el.Dst[i]], el.Src[i])
	}
	labels := make([]uint32, n)
	for v := range labels {
		labels[v] = Unreached
	}
	for s := range labels {
		if labels[s] != Unreached {
			continue
		}
		labels[s] = uint32(s)
		stack := []uint32{uint32(s)}
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, v := range adj[u] {
				if labels[v] == Unreached {
					labels[v] = uint32(s)
					stack = append(stack, v)
				}
			}
		}
	}
	return labels
}

func TestCCMatchesDFSOnRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 300 {
		n := 1 + rng.Uint64N(60)
		m := rng.IntN(int(n) + 1) // sparse enough for several components
		el := randomEdgeList(rng, n, m, 0, trial%2 == 0)
		want := ccByDFS(el)
		require.Equal(t, want, CC(el), "trial %d", trial)
		require.Equal(t, want, CCAdjacency(&graphToCSR(el).Adjacency), "trial %d", trial)
	}
}

func TestCCOnLongChain(t *testing.T) {
	const n = 1_000_000
	g := chain(n, false)
	el := g.EdgeList(0)
	for _, labels := range [][]uint32{CC(el), CCAdjacency(&g.Adjacency)} {
		count, largest := ComponentSizes(labels)
		require.Equal(t, 1, count)
		require.Equal(t, uint64(n), largest)
		require.Equal(t, uint32(0), labels[n-1])
	}
}

func TestComponentSizesWithArbitraryLabels(t *testing.T) {
	count, largest := ComponentSizes([]uint32{7, 1 << 31, 7, Unreached, 7, 1 << 31})
	assert.Equal(t, 3, count)
	assert.Equal(t, uint64(3), largest)
}
