// Package testgraphs builds the small graphs the engine and app tests run
// on (R-MAT, raw directed R-MAT, random geometric, grid, star, chain,
// disconnected pieces, a single vertex, the empty graph), so every backend
// is checked on the same shapes.
package testgraphs

import (
	"context"
	"testing"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/stretchr/testify/require"
)

// SmallParams returns layout parameters that exercise heavy blocks,
// repeated markers, many panels and several sparse segments on the shapes'
// small graphs.
func SmallParams() layout.Params {
	return layout.Params{PanelSize: 64, HeavyThreshold: 100, HeavyColumns: 32, SegmentSize: 16,
		GroupThresholds: []uint64{64, 32, 16, 8, 4}, HighGroups: 4}
}

// Shape is a named test graph.
type Shape struct {
	Name string
	EL   *graph.EdgeList
}

// Size picks the graphs' sizes: Small for CPU tests, Large for GPU tests,
// where larger frontiers exercise more of the kernels.
type Size int

// The sizes.
const (
	Small Size = iota
	Large
)

// sizes are the generator specs and star size of each Size.
var sizes = [...]struct {
	rmat, rawRMAT, rgg, grid string
	star                     uint32
}{
	Small: {"rmat:10:8", "rmat:9:6", "rgg:n=800", "grid:20x23:0.1", 300},
	Large: {"rmat:12:8", "rmat:10:6", "rgg:n=2000", "grid:40x43:0.1", 3000},
}

// Generated runs a generator spec with a seed on 2 workers.
func Generated(t testing.TB, spec string, seed uint64) *graph.EdgeList {
	t.Helper()
	s, err := gen.ParseSpec(spec)
	require.NoError(t, err)
	el, err := s.Generate(context.Background(), seed, 2, nil)
	require.NoError(t, err)
	return el
}

// Undirected builds an undirected list with n vertices from edge pairs.
func Undirected(n uint64, pairs ...[2]uint32) *graph.EdgeList {
	el := &graph.EdgeList{NumVertices: n, Directed: true}
	for _, p := range pairs {
		el.Src = append(el.Src, p[0])
		el.Dst = append(el.Dst, p[1])
	}
	el.Symmetrize(1)
	return el
}

// Path builds the undirected path 0 – 1 – … – n−1 (a chain of n
// vertices: one vertex a level from 0).
func Path(n uint32) *graph.EdgeList {
	pairs := make([][2]uint32, 0, max(n, 1)-1)
	for v := uint32(0); v+1 < n; v++ {
		pairs = append(pairs, [2]uint32{v, v + 1})
	}
	return Undirected(uint64(n), pairs...)
}

// DoublingLadder builds an undirected graph whose shortest-path counts
// from vertex 0 double every level: 0 joined to both vertices of rung 0,
// each vertex of rung k to both of rung k+1 (layers rungs), and a pendant
// leaf on every rung vertex. From 0, rung k has 2^k shortest paths, past
// float64's range (+Inf) from rung 1024, and every pendant is a leaf of
// the BFS DAG: vertex 1 + 2·layers + j hangs off rung vertex 1 + j.
func DoublingLadder(layers uint32) *graph.EdgeList {
	el := DoublingLadderDirected(layers)
	el.Symmetrize(1)
	return el
}

// DoublingLadderDirected is DoublingLadder with every edge directed away
// from vertex 0 (rung k to rung k+1, rung vertex to its pendant).
func DoublingLadderDirected(layers uint32) *graph.EdgeList {
	rung := func(k, i uint32) uint32 { return 1 + 2*k + i }
	el := &graph.EdgeList{NumVertices: uint64(1 + 4*layers), Directed: true}
	arc := func(u, v uint32) {
		el.Src = append(el.Src, u)
		el.Dst = append(el.Dst, v)
	}
	arc(0, rung(0, 0))
	arc(0, rung(0, 1))
	for k := uint32(0); k < layers; k++ {
		for i := uint32(0); i < 2; i++ {
			arc(rung(k, i), 1+2*layers+2*k+i)
			if k+1 < layers {
				arc(rung(k, i), rung(k+1, 0))
				arc(rung(k, i), rung(k+1, 1))
			}
		}
	}
	return el
}

// Shapes returns the test graphs of the given size.
func Shapes(t testing.TB, size Size) []Shape {
	sz := sizes[size]
	rmat := Generated(t, sz.rmat, 1)
	rmat.Symmetrize(2)
	rmat.DropSelfLoops()
	rmat.Dedupe(2)
	star := &graph.EdgeList{NumVertices: uint64(sz.star), Directed: true}
	for v := uint32(1); v < sz.star; v++ {
		star.Src, star.Dst = append(star.Src, v), append(star.Dst, 0)
	}
	star.Symmetrize(1)
	var chain [][2]uint32
	for v := uint32(0); v+1 < 500; v++ {
		chain = append(chain, [2]uint32{v, v + 1})
	}
	return []Shape{
		{"rmat", rmat},
		{"rmat-directed-raw", Generated(t, sz.rawRMAT, 2)}, // duplicates, self-loops, directed
		{"rgg", Generated(t, sz.rgg, 3)},
		{"grid", Generated(t, sz.grid, 4)},
		{"star", star},
		{"chain", Undirected(500, chain...)},
		{"disconnected", Undirected(12, [2]uint32{0, 1}, [2]uint32{1, 2}, [2]uint32{4, 5}, [2]uint32{7, 8}, [2]uint32{8, 9}, [2]uint32{9, 7})},
		{"single", &graph.EdgeList{NumVertices: 1}},
		{"empty", &graph.EdgeList{}},
	}
}
