package gpu_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/stretchr/testify/require"
)

// TestBlockRuns: mode auto hands a long BFS with small frontiers to one
// thread block, which gives a level wider than gpu.BlockMaxLevel back to
// the async engine (a path into a star), and runs a long Brandes source in
// one block (again async when it reaches so wide a level); with
// WithoutBlockRuns both stay on the grid-wide engines. BFS
// levels and BC against the references.
func TestBlockRuns(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	const pathLen, leaves = 40, gpu.BlockMaxLevel + 100
	var pathStar [][2]uint32
	for v := uint32(0); v+1 < pathLen; v++ {
		pathStar = append(pathStar, [2]uint32{v, v + 1})
	}
	for i := uint32(0); i < leaves; i++ {
		pathStar = append(pathStar, [2]uint32{pathLen - 1, pathLen + i})
	}
	grid := testgraphs.Generated(t, "grid:48", 1)
	grid.Symmetrize(2)
	for _, c := range []struct {
		name    string
		el      *graph.EdgeList
		handsOn bool // the block gives a level back to async
	}{
		{"path", testgraphs.Path(600), false},
		{"grid", grid, false},
		{"path-star", testgraphs.Undirected(pathLen+leaves, pathStar...), true},
	} {
		g := graph.ToCSR(c.el, 4)
		l := build(t, c.el, testgraphs.SmallParams())
		for _, noBlock := range []bool{false, true} {
			tag := c.name
			var opts []gpu.Option
			if noBlock {
				tag += " without block or cluster runs"
				opts = append(opts, gpu.WithoutBlockRuns(), gpu.WithoutClusterRuns())
			}
			gb, err := gpu.New(l, 2, opts...)
			require.NoError(t, err, tag)
			ro := engine.RunOptions{Mode: engine.Auto, Trace: true}
			levels, res, err := apps.BFS(ctx, gb, 0, ro)
			require.NoError(t, err, tag+": bfs")
			require.NoError(t, apps.ValidateBFS(g, 0, levels), tag+": bfs")
			modes := traceModes(res)
			if noBlock {
				require.Zero(t, modes[gpu.ModeBlock], "%s: bfs %v", tag, modes)
				require.Equal(t, 1, modes["async"], "%s: bfs %v", tag, modes)
			} else {
				require.Equal(t, 1, modes[gpu.ModeBlock], "%s: bfs %v", tag, modes)
				want := 0
				if c.handsOn {
					want = 1
				}
				require.Equal(t, want, modes["async"], "%s: bfs %v", tag, modes)
			}
			srcs := []uint32{0, 3}
			bc, res, err := apps.BC(ctx, gb, gb, srcs, ro)
			require.NoError(t, err, tag+": bc")
			require.NoError(t, apps.ValidateBC(g, srcs, bc), tag+": bc")
			modes = traceModes(res)
			if noBlock {
				require.Zero(t, modes[gpu.ModeBlock], "%s: bc %v", tag, modes)
			} else {
				require.Equal(t, len(srcs), modes[gpu.ModeBlock], "%s: bc %v", tag, modes)
				want := 0
				if c.handsOn { // the block gives up at the leaves' level: the sources run again async
					want = len(srcs)
				}
				require.Equal(t, want, modes["async"], "%s: bc %v", tag, modes)
			}
			require.NoError(t, gb.Close(), tag)
		}
	}
}

// roadLike returns the pairs (undirected edges) of a graph shaped for the
// one-block runs: a path of pathLen vertices from 0 (auto hands over on
// it), then a tree from its end widening by fans (each level's vertices
// share out the next level's, round robin), then a cylinder: depth levels
// of the tree's last width, each vertex to its like in the next level, to
// its neighbour in a ring within the level, and diagonally to the next
// level's neighbour (several shortest paths: σ above 1). hub > 0 gives
// the path's fourth vertex from its end hub leaves (past mode auto's
// hand-over from 0 or 3, so that the block expands it). Its vertices: the
// returned count.
func roadLike(pathLen int, fans []int, depth, hub int) ([][2]uint32, uint64) {
	var pairs [][2]uint32
	edge := func(a, b int) { pairs = append(pairs, [2]uint32{uint32(a), uint32(b)}) }
	for v := 0; v+1 < pathLen; v++ {
		edge(v, v+1)
	}
	next := pathLen
	level := []int{pathLen - 1}
	grow := func(width int) []int {
		out := make([]int, width)
		for j := range out {
			out[j] = next
			next++
			edge(level[j%len(level)], out[j])
		}
		return out
	}
	for _, width := range fans {
		level = grow(width)
	}
	width := len(level)
	for d := 0; d < depth; d++ {
		prev := level
		level = grow(width)
		for j := range level {
			edge(level[j], level[(j+1)%width])
			edge(prev[j], level[(j+1)%width])
		}
	}
	if hub > 0 {
		for i := 0; i < hub; i++ {
			edge(pathLen-4, next)
			next++
		}
	}
	return pairs, uint64(next)
}

// TestBlockRows: the one-block runs over the fixed-width rows (every
// vertex of at most cuda.BlockRowWidth out-arcs: a path into a widening
// tree into a cylinder, whose widest levels have more vertices than the
// rows' cache, and a 2-D lattice) and over the CSR (the same with a hub
// wider than a row, or than the heavy limit), with and without
// WithoutBlockRows: BFS levels and BC against the references, the same
// results both ways, and the trace names the source each run read.
func TestBlockRows(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	// A level of 7 · 7 · 7 + 100 = 443 vertices: more than the rows' cache
	// (384), at most gpu.BlockMaxLevel.
	fans := []int{7, 49, 343, 443}
	const pathLen, depth = 24, 30
	const lw, lh = 40, 60 // a lattice: degree at most 4
	var lattice [][2]uint32
	for y := 0; y < lh; y++ {
		for x := 0; x < lw; x++ {
			v := uint32(y*lw + x)
			if x+1 < lw {
				lattice = append(lattice, [2]uint32{v, v + 1})
			}
			if y+1 < lh {
				lattice = append(lattice, [2]uint32{v, v + lw})
			}
		}
	}
	for _, c := range []struct {
		name  string
		pairs [][2]uint32
		n     uint64
		rows  bool // every vertex has at most cuda.BlockRowWidth arcs
	}{
		{"lattice", lattice, lw * lh, true},
		{"broom", nil, 0, true},
		{"broom-hub", nil, 0, false},       // a vertex of 12 arcs: over a row
		{"broom-heavy-hub", nil, 0, false}, // a vertex of 100 arcs: the CSR's heavy path
	} {
		switch c.name {
		case "broom":
			c.pairs, c.n = roadLike(pathLen, fans, depth, 0)
		case "broom-hub":
			c.pairs, c.n = roadLike(pathLen, fans, depth, 10)
		case "broom-heavy-hub":
			c.pairs, c.n = roadLike(pathLen, fans, depth, 98)
		}
		el := testgraphs.Undirected(c.n, c.pairs...)
		g := graph.ToCSR(el, 4)
		l := build(t, el, testgraphs.SmallParams())
		var maxDeg uint64
		for v := uint32(0); uint64(v) < l.NumVertices; v++ {
			maxDeg = max(maxDeg, l.OutDegree(v))
		}
		require.Equal(t, c.rows, maxDeg <= cuda.BlockRowWidth, "%s: largest degree %d", c.name, maxDeg)
		var levels [2][]uint32
		var bcs [2][]float64
		srcs := []uint32{0, 3}
		for k, noRows := range []bool{false, true} {
			tag := c.name
			var opts []gpu.Option
			if noRows {
				tag += " without block rows"
				opts = append(opts, gpu.WithoutBlockRows())
			}
			gb, err := gpu.New(l, 2, opts...)
			require.NoError(t, err, tag)
			wantSource := "csr"
			if c.rows && !noRows {
				wantSource = "rows"
			}
			ro := engine.RunOptions{Mode: engine.Auto, Trace: true}
			for trial := 0; trial < 2; trial++ { // the second reuses the rows the first built
				lv, res, err := apps.BFS(ctx, gb, 0, ro)
				require.NoError(t, err, tag+": bfs")
				require.NoError(t, apps.ValidateBFS(g, 0, lv), tag+": bfs")
				require.Equal(t, 1, traceModes(res)[gpu.ModeBlock], "%s: bfs %v", tag, traceModes(res))
				require.Zero(t, traceModes(res)["async"], "%s: bfs %v", tag, traceModes(res))
				requireBlockSource(t, res, wantSource, tag+": bfs")
				levels[k] = slices.Clone(lv) // the backend's memory, freed by Close
			}
			bc, res, err := apps.BC(ctx, gb, gb, srcs, ro)
			require.NoError(t, err, tag+": bc")
			require.NoError(t, apps.ValidateBC(g, srcs, bc), tag+": bc")
			require.Equal(t, len(srcs), traceModes(res)[gpu.ModeBlock], "%s: bc %v", tag, traceModes(res))
			require.Zero(t, traceModes(res)["async"], "%s: bc %v", tag, traceModes(res))
			requireBlockSource(t, res, wantSource, tag+": bc")
			bcs[k] = slices.Clone(bc)
			require.NoError(t, gb.Close(), tag)
		}
		require.Equal(t, levels[0], levels[1], "%s: bfs levels with and without rows", c.name)
		require.Len(t, bcs[1], len(bcs[0]), c.name)
		for v := range bcs[0] {
			require.LessOrEqual(t, math.Abs(bcs[0][v]-bcs[1][v]), 1e-9*max(1, math.Abs(bcs[0][v])),
				"%s: bc of %d with and without rows", c.name, v)
		}
	}
}

// requireBlockSource checks that every one-block run of res read the row
// source src ("rows" or "csr", as its trace phase names it).
func requireBlockSource(t *testing.T, res engine.Result, src, tag string) {
	t.Helper()
	for _, tr := range res.Trace {
		if tr.Mode != gpu.ModeBlock {
			continue
		}
		require.NotEmpty(t, tr.Phases, tag)
		require.True(t, strings.HasPrefix(tr.Phases[0].Name, gpu.ModeBlock+" ("+src+","), "%s: %q", tag, tr.Phases[0].Name)
	}
}

// traceModes counts a run's trace entries by mode.
func traceModes(res engine.Result) map[string]int {
	modes := map[string]int{}
	for _, tr := range res.Trace {
		modes[tr.Mode]++
	}
	return modes
}
