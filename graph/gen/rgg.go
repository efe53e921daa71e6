package gen

import (
	"context"
	"fmt"
	"math"
	"math/bits"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/internal/progress"
)

// MaxRGGPoints is the largest point count RGG accepts (2^31).
const MaxRGGPoints = 1 << 31

// DefaultRGGRadius returns 0.55*sqrt(ln n / n), the radius RGG uses when
// given 0: a little above the connectivity threshold sqrt(ln n / (π n)), for
// an average degree of about 0.95 ln n. It is 0 for n <= 1.
func DefaultRGGRadius(n uint64) float64 {
	if n <= 1 {
		return 0
	}
	x := float64(n)
	return 0.55 * math.Sqrt(math.Log(x)/x)
}

// rggPairProb returns the probability that two independent uniform points
// of the unit square are less than r apart: πr² - 8r³/3 + r⁴/2 for r <= 1
// (the boundary makes it less than πr²), and an upper bound above that.
func rggPairProb(r float64) float64 {
	if r >= 1 {
		return 1
	}
	return math.Pi*r*r - 8*r*r*r/3 + r*r*r*r/2
}

// RGG generates a random geometric graph: n points drawn uniformly in the
// unit square [0, 1)², and an undirected edge between every two points less
// than radius apart (Euclidean distance, compared as squared float64
// distances). radius 0 means DefaultRGGRadius(n). The result is symmetrized,
// has no self-loops and no repeated edges, and its arcs are sorted by
// source, then destination.
//
// Vertex numbering is spatial, for locality: the square is cut into g×g
// cells of side 1/g >= radius, and vertices are numbered cell by cell with
// the cells in Z-order (Morton order), so points close in the plane get
// close ids; within a cell, in the order the points were drawn. Each point
// is compared only with those of its own and the 8 neighbouring cells, so
// the work is O(n + arcs) expected.
func RGG(ctx context.Context, n uint64, radius float64, seed uint64, workers int, m *progress.Meter) (*graph.EdgeList, error) {
	lay, err := rggPoints(ctx, n, radius, seed, workers)
	if err != nil {
		return nil, err
	}
	el, err := lay.edges(ctx, workers, m)
	if err != nil {
		return nil, err
	}
	return el, nil
}

// rggLayout is an RGG's points in vertex order, bucketed into cells.
type rggLayout struct {
	n      uint64
	radius float64
	r2     float64   // radius²
	g      uint64    // cells per side
	bits   uint      // log2 of the Morton key space side, 2^bits >= g
	start  []uint32  // start[k]..start[k+1]: vertices of the cell with Morton key k
	xs, ys []float64 // coordinates of vertex v
}

// rggPoints validates the parameters, draws the n points from seed and sorts
// them by cell key, stably, so the numbering does not depend on workers.
func rggPoints(ctx context.Context, n uint64, radius float64, seed uint64, workers int) (*rggLayout, error) {
	if n < 1 || n > MaxRGGPoints {
		return nil, fmt.Errorf("gen: rgg: point count %d out of range 1..%d", n, uint64(MaxRGGPoints))
	}
	if math.IsNaN(radius) || math.IsInf(radius, 0) || radius < 0 {
		return nil, fmt.Errorf("gen: rgg: radius %g must be a finite number >= 0 (0 for the default)", radius)
	}
	if radius == 0 {
		radius = DefaultRGGRadius(n)
	}
	if est := rggPairProb(radius) * float64(n) * float64(n-1); est > MaxArcs {
		return nil, fmt.Errorf("gen: rgg: %d points with radius %g give about %.3g arcs; at most %d (2^36) are supported", n, radius, est, uint64(MaxArcs))
	}
	// Cells of side 1/g >= radius (with a margin for rounding in x*g), at
	// most about n/2 of them so the key space stays O(n).
	g := uint64(1) << 15
	if f := (1 - 1e-9) / radius; f < float64(g) {
		g = max(1, uint64(f))
	}
	g = max(1, min(g, isqrt(n/2)))
	lay := &rggLayout{n: n, radius: radius, r2: radius * radius, g: g, bits: uint(bits.Len64(g - 1))}
	keys := uint64(1) << (2 * lay.bits)

	// Counting sort by key, in two passes over the points (drawn twice from
	// the same block streams rather than stored): per-chunk histograms, then
	// a stable scatter. The result is the same for any chunking.
	nb := numBlocks(n)
	nc := min(par.Workers(workers), 4, max(1, int(2*n/keys)))
	chunks := par.Split(nb, nc)
	hist := make([][]uint32, len(chunks))
	err := lay.forPoints(ctx, chunks, seed, func(c int, x, y float64, key uint64) {
		hist[c][key]++
	}, func(c int) { hist[c] = make([]uint32, keys) })
	if err != nil {
		return nil, fmt.Errorf("gen: rgg: %w", err)
	}
	lay.start = make([]uint32, keys+1)
	var pos uint32
	for k := range keys {
		lay.start[k] = pos
		for _, h := range hist {
			h[k], pos = pos, pos+h[k]
		}
	}
	lay.start[keys] = pos
	lay.xs = make([]float64, n)
	lay.ys = make([]float64, n)
	err = lay.forPoints(ctx, chunks, seed, func(c int, x, y float64, key uint64) {
		p := hist[c][key]
		hist[c][key]++
		lay.xs[p], lay.ys[p] = x, y
	}, nil)
	if err != nil {
		return nil, fmt.Errorf("gen: rgg: %w", err)
	}
	return lay, nil
}

// forPoints draws the points of every block, the chunks in parallel and the
// blocks of a chunk in order, and calls fn with each point and its cell key.
// init, when not nil, runs first in the chunk's goroutine.
func (l *rggLayout) forPoints(ctx context.Context, chunks []par.Chunk, seed uint64, fn func(c int, x, y float64, key uint64), init func(c int)) error {
	errs := make([]error, len(chunks))
	par.ForChunks(chunks, func(ch par.Chunk) {
		if init != nil {
			init(ch.Index)
		}
		for b := ch.Lo; b < ch.Hi; b++ {
			if err := ctx.Err(); err != nil {
				errs[ch.Index] = err
				return
			}
			lo, hi := blockRange(b, l.n)
			rng := blockRNG(seed, streamRGG, b)
			for range hi - lo {
				x, y := unitFloat(rng.next()), unitFloat(rng.next())
				fn(ch.Index, x, y, l.key(l.cell(x), l.cell(y)))
			}
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// cell returns the cell coordinate of a coordinate in [0, 1).
func (l *rggLayout) cell(x float64) uint64 {
	return min(uint64(x*float64(l.g)), l.g-1)
}

// key returns the Morton key of cell (cx, cy).
func (l *rggLayout) key(cx, cy uint64) uint64 { return spreadBits(cx) | spreadBits(cy)<<1 }

// spreadBits moves bit i of x (below 2^16) to bit 2i.
func spreadBits(x uint64) uint64 {
	x &= 0xffff
	x = (x | x<<8) & 0x00ff00ff
	x = (x | x<<4) & 0x0f0f0f0f
	x = (x | x<<2) & 0x33333333
	x = (x | x<<1) & 0x55555555
	return x
}

// compactBits is the inverse of spreadBits: bit 2i of x moves to bit i.
func compactBits(x uint64) uint64 {
	x &= 0x55555555
	x = (x | x>>1) & 0x33333333
	x = (x | x>>2) & 0x0f0f0f0f
	x = (x | x>>4) & 0x00ff00ff
	x = (x | x>>8) & 0x0000ffff
	return x
}

// isqrt returns floor(sqrt(n)).
func isqrt(n uint64) uint64 {
	r := uint64(math.Sqrt(float64(n)))
	for r*r > n {
		r--
	}
	for (r+1)*(r+1) <= n {
		r++
	}
	return r
}

// dist2 is the squared distance the RGG compares with radius²; the
// conversions forbid fused multiply-adds so the result is the same on every
// machine.
func dist2(x1, y1, x2, y2 float64) float64 {
	dx, dy := x2-x1, y2-y1
	return float64(dx*dx) + float64(dy*dy)
}

// keyBlock is the number of cell keys in one block of the edge passes.
const keyBlock = 1 << 12

// edges finds every pair closer than the radius: one pass counts the arcs
// of each block of cells, a second writes them at their final place.
func (l *rggLayout) edges(ctx context.Context, workers int, m *progress.Meter) (*graph.EdgeList, error) {
	keys := uint64(len(l.start) - 1)
	nb := int((keys + keyBlock - 1) / keyBlock)
	counts := make([]uint64, nb+1)
	err := runBlocks(ctx, nb, workers, func(b int) {
		counts[b] = l.scan(uint64(b)*keyBlock, min(uint64(b+1)*keyBlock, keys), nil, nil)
	})
	if err != nil {
		return nil, fmt.Errorf("gen: rgg: %w", err)
	}
	total := par.ExclusiveScan(counts)
	if err := checkArcs("rgg", total); err != nil {
		return nil, err
	}
	src := make([]uint32, total)
	dst := make([]uint32, total)
	err = runBlocks(ctx, nb, workers, func(b int) {
		k := l.scan(uint64(b)*keyBlock, min(uint64(b+1)*keyBlock, keys), src[counts[b]:counts[b+1]], dst[counts[b]:counts[b+1]])
		m.Add(int64(k))
	})
	if err != nil {
		return nil, fmt.Errorf("gen: rgg: %w", err)
	}
	return &graph.EdgeList{NumVertices: l.n, Src: src, Dst: dst, Directed: false}, nil
}

// scan emits the arcs leaving the vertices of cells with keys [klo, khi),
// sorted by source then destination, into src and dst, or only counts them
// when src is nil. It returns the number of arcs.
func (l *rggLayout) scan(klo, khi uint64, src, dst []uint32) uint64 {
	var n uint64
	type span struct{ lo, hi uint32 }
	var nbrs [9]span
	for k := klo; k < khi; k++ {
		ulo, uhi := l.start[k], l.start[k+1]
		if ulo == uhi {
			continue
		}
		cx, cy := compactBits(k), compactBits(k>>1)
		// The (up to 9) non-empty neighbouring cells, sorted by first
		// vertex so destinations come out ascending.
		nn := 0
		for dy := -1; dy <= 1; dy++ {
			y := cy + uint64(dy)
			if y >= l.g { // also catches cy+dy = -1, which wraps
				continue
			}
			for dx := -1; dx <= 1; dx++ {
				x := cx + uint64(dx)
				if x >= l.g {
					continue
				}
				kk := l.key(x, y)
				s := span{l.start[kk], l.start[kk+1]}
				if s.lo == s.hi {
					continue
				}
				j := nn
				for ; j > 0 && nbrs[j-1].lo > s.lo; j-- {
					nbrs[j] = nbrs[j-1]
				}
				nbrs[j] = s
				nn++
			}
		}
		for u := ulo; u < uhi; u++ {
			xu, yu := l.xs[u], l.ys[u]
			for _, s := range nbrs[:nn] {
				xs, ys := l.xs[s.lo:s.hi], l.ys[s.lo:s.hi]
				ys = ys[:len(xs)]
				for i := range xs {
					if dist2(xu, yu, xs[i], ys[i]) >= l.r2 {
						continue
					}
					v := s.lo + uint32(i)
					if v == u {
						continue
					}
					if src != nil {
						src[n], dst[n] = u, v
					}
					n++
				}
			}
		}
	}
	return n
}
