package gen

import (
	"context"
	"fmt"
	"math"
	"math/bits"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/mix"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/internal/progress"
)

// Grid generates a rows×cols 2D grid with 4-neighbour edges, each undirected
// edge removed independently with probability removeFraction: a stand-in for
// road networks (degree at most 4, diameter about rows+cols). Vertex (r, c)
// has id r*cols + c. The result is undirected (symmetrized), without
// self-loops or repeated edges, and its arcs are sorted by source, then
// destination. With removeFraction 0 it has exactly
// 2*(rows*(cols-1) + cols*(rows-1)) arcs.
//
// Whether an edge is removed is a hash of the seed and the edge's index, so
// the graph does not depend on the number of workers.
func Grid(ctx context.Context, rows, cols uint64, removeFraction float64, seed uint64, workers int, m *progress.Meter) (*graph.EdgeList, error) {
	if rows < 1 || cols < 1 {
		return nil, fmt.Errorf("gen: grid: %dx%d has no vertices; rows and columns must be at least 1", rows, cols)
	}
	if hi, n := bits.Mul64(rows, cols); hi != 0 || n > graph.MaxVertices {
		return nil, fmt.Errorf("gen: grid: %dx%d has more than %d vertices", rows, cols, uint64(graph.MaxVertices))
	}
	if math.IsNaN(removeFraction) || removeFraction < 0 || removeFraction > 1 {
		return nil, fmt.Errorf("gen: grid: remove fraction %g outside [0, 1]", removeFraction)
	}
	n := rows * cols
	horiz := rows * (cols - 1) // edge ids: horizontal first, r*(cols-1)+c
	maxArcs := 2 * (horiz + cols*(rows-1))
	if err := checkArcs("grid", maxArcs); err != nil {
		return nil, err
	}
	g := gridGen{
		rows: rows, cols: cols, horiz: horiz,
		seed:   gridKey(seed),
		thresh: uint64(removeFraction * (1 << 53)),
	}
	nb := numBlocks(n)
	counts := make([]uint64, nb+1)
	err := runBlocks(ctx, nb, workers, func(b int) {
		lo, hi := blockRange(b, n)
		counts[b] = g.block(lo, hi, nil, nil)
	})
	if err != nil {
		return nil, fmt.Errorf("gen: grid: %w", err)
	}
	total := par.ExclusiveScan(counts)
	src := make([]uint32, total)
	dst := make([]uint32, total)
	err = runBlocks(ctx, nb, workers, func(b int) {
		lo, hi := blockRange(b, n)
		k := g.block(lo, hi, src[counts[b]:counts[b+1]], dst[counts[b]:counts[b+1]])
		m.Add(int64(k))
	})
	if err != nil {
		return nil, fmt.Errorf("gen: grid: %w", err)
	}
	return &graph.EdgeList{NumVertices: n, Src: src, Dst: dst, Directed: false}, nil
}

// gridGen holds a grid's shape and its edge-removal rule.
type gridGen struct {
	rows, cols, horiz uint64
	seed              uint64
	thresh            uint64 // edge removed when its 53-bit hash is below thresh
}

// kept reports whether edge id survives removal.
func (g *gridGen) kept(id uint64) bool {
	if g.thresh == 0 {
		return true
	}
	return mix.Mix64(g.seed+id*golden)>>11 >= g.thresh
}

// block emits the out-arcs of vertices [lo, hi) in order (up, left, right,
// down: ascending destination) into src and dst, or only counts them when
// src is nil. It returns the number of arcs.
func (g *gridGen) block(lo, hi uint64, src, dst []uint32) uint64 {
	var k uint64
	emit := func(u, v uint64) {
		if src != nil {
			src[k], dst[k] = uint32(u), uint32(v)
		}
		k++
	}
	r, c := lo/g.cols, lo%g.cols
	for v := lo; v < hi; v++ {
		if r > 0 && g.kept(g.horiz+(r-1)*g.cols+c) {
			emit(v, v-g.cols)
		}
		if c > 0 && g.kept(r*(g.cols-1)+c-1) {
			emit(v, v-1)
		}
		if c+1 < g.cols && g.kept(r*(g.cols-1)+c) {
			emit(v, v+1)
		}
		if r+1 < g.rows && g.kept(g.horiz+r*g.cols+c) {
			emit(v, v+g.cols)
		}
		if c++; c == g.cols {
			c = 0
			r++
		}
	}
	return k
}

// gridKey derives the edge-hash key of a grid from the seed.
func gridKey(seed uint64) uint64 {
	rng := blockRNG(seed, streamGrid, 0)
	return rng.next()
}
