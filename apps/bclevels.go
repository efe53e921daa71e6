package apps

import (
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// BCLevelDegree is the mean degree (arcs per vertex) below which BC on an
// undirected graph, on a backend without a device (the CPU), runs level
// by level over the layout's rows (bcLevels) instead of through the
// engines: a grid's or a road network's thousands of small levels each
// cost the engines' accumulator, merge and apply passes, while here a
// level is one discovery pass and one pull (as GAPBS's bc).
const BCLevelDegree = 8

// bcLevelSerialVertices: a level with fewer vertices runs on the calling
// goroutine.
const bcLevelSerialVertices = 1 << 12

// bcLevelsApply reports whether BC runs level by level on fwd (see
// BCLevelDegree): an undirected layout, its own backward graph, mode
// hybrid or auto.
func bcLevelsApply(fwd, bwd engine.Backend, opts engine.RunOptions) bool {
	l := fwd.Layout()
	return fwd == bwd && !l.Directed && l.NumVertices > 0 && l.NumArcs < BCLevelDegree*l.NumVertices &&
		(opts.Mode == engine.Hybrid || opts.Mode == engine.Auto)
}

// bcLevels adds source s's dependencies (Brandes) into result (original
// numbering), over l's rows: the forward pass discovers each level from
// the last (an atomic claim of a vertex's depth when in parallel) and
// pulls its path counts σ from the level above; the backward pass, deepest
// level first, pulls each vertex's dependency from its neighbours one
// level down. depth and sigma must be reset (resetBC); order (n entries)
// and delta (n) are work arrays. It returns the levels and the arcs read.
func bcLevels(l *layout.Layout, s uint32, depth []int32, sigma, delta, result []float64, order []uint32, workers int) (int, uint64) {
	off, dst, orig := l.SparseOffsets, l.SparseDst, l.InvPerm
	depth[s], sigma[s], order[0] = 0, 1, s
	start := []int{0, 1}
	var arcs uint64
	// forEach runs fn over the vertices of level lv in parallel (or on
	// this goroutine for a small level), chunk by chunk.
	forEach := func(lv []uint32, fn func(c par.Chunk)) {
		if len(lv) < bcLevelSerialVertices || workers == 1 {
			fn(par.Chunk{Lo: 0, Hi: len(lv)})
			return
		}
		par.ForChunks(par.Split(len(lv), 4*par.Workers(workers)), fn)
	}
	for d := int32(0); ; d++ {
		front := order[start[d]:start[d+1]]
		k := start[d+1]
		if len(front) < bcLevelSerialVertices || workers == 1 {
			for _, u := range front {
				arcs += off[u+1] - off[u]
				for _, v := range dst[off[u]:off[u+1]] {
					if depth[v] == unvisited {
						depth[v] = d + 1
						order[k] = v
						k++
					}
				}
			}
		} else {
			chunks := par.Split(len(front), 4*par.Workers(workers))
			found := make([][]uint32, len(chunks))
			read := make([]uint64, len(chunks))
			par.ForChunks(chunks, func(c par.Chunk) {
				var out []uint32
				for _, u := range front[c.Lo:c.Hi] {
					read[c.Index] += off[u+1] - off[u]
					for _, v := range dst[off[u]:off[u+1]] {
						if atomic.LoadInt32(&depth[v]) == unvisited && atomic.CompareAndSwapInt32(&depth[v], unvisited, d+1) {
							out = append(out, v)
						}
					}
				}
				found[c.Index] = out
			})
			for i, out := range found {
				k += copy(order[k:], out)
				arcs += read[i]
			}
		}
		if k == start[d+1] {
			break
		}
		start = append(start, k)
		next := order[start[d+1]:k]
		forEach(next, func(c par.Chunk) {
			for _, v := range next[c.Lo:c.Hi] {
				var paths float64
				for _, u := range dst[off[v]:off[v+1]] {
					if depth[u] == d {
						paths += sigma[u]
					}
				}
				sigma[v] = paths
			}
		})
	}
	levels := len(start) - 1
	for d := levels - 1; d >= 0; d-- {
		lv := order[start[d]:start[d+1]]
		forEach(lv, func(c par.Chunk) {
			for _, v := range lv[c.Lo:c.Hi] {
				var acc float64
				for _, w := range dst[off[v]:off[v+1]] {
					if depth[w] == int32(d)+1 {
						acc += (1 + delta[w]) / sigma[w]
					}
				}
				delta[v] = sigma[v] * acc
				if v != s {
					result[orig[v]] += delta[v]
				}
			}
		})
	}
	return levels, 2 * arcs
}

// bcByLevels is BC over sources by bcLevels, in bufs (sized), adding the
// passes' levels and arcs to total.
func bcByLevels(l *layout.Layout, sources []uint32, bufs *bcScratch, workers int, total *engine.Result) error {
	start := time.Now()
	for i, source := range sources {
		s, err := checkSource(l, source)
		if err != nil {
			return err
		}
		resetBC(bufs.depth, bufs.sigma, bufs.result, i == 0, workers)
		levels, arcs := bcLevels(l, s, bufs.depth, bufs.sigma, bufs.offer, bufs.result, bufs.order, workers)
		total.Iterations += 2 * levels
		total.Edges += arcs
	}
	total.Seconds += time.Since(start).Seconds()
	return nil
}
