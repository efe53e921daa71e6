package gen

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/progress"
)

// Uniform generates a directed Erdős–Rényi-style graph (the G(n, m) model
// with replacement): n vertices and exactly arcs arcs, each with source and
// destination drawn independently and uniformly from [0, n). The list is
// raw: self-loops and repeated arcs are kept.
func Uniform(ctx context.Context, n uint64, arcs uint64, seed uint64, workers int, m *progress.Meter) (*graph.EdgeList, error) {
	if n < 1 || n > graph.MaxVertices {
		return nil, fmt.Errorf("gen: uniform: vertex count %d out of range 1..%d", n, uint64(graph.MaxVertices))
	}
	if err := checkArcs("uniform", arcs); err != nil {
		return nil, err
	}
	src := make([]uint32, arcs)
	dst := make([]uint32, arcs)
	err := runBlocks(ctx, numBlocks(arcs), workers, func(b int) {
		lo, hi := blockRange(b, arcs)
		rng := blockRNG(seed, streamUniform, b)
		s, d := src[lo:hi], dst[lo:hi]
		d = d[:len(s)]
		for i := range s {
			// The high word of r*n is uniform in [0, n) up to a bias
			// below n/2^64 (Lemire's multiply-shift, no division).
			u, _ := bits.Mul64(rng.next(), n)
			v, _ := bits.Mul64(rng.next(), n)
			s[i], d[i] = uint32(u), uint32(v)
		}
		m.Add(int64(hi - lo))
	})
	if err != nil {
		return nil, fmt.Errorf("gen: uniform: %w", err)
	}
	return &graph.EdgeList{NumVertices: n, Src: src, Dst: dst, Directed: true}, nil
}
