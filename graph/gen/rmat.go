package gen

import (
	"context"
	"fmt"
	"math"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/mix"
	"github.com/mgraph-dev/mgraph/internal/progress"
)

// RMATParams describes an R-MAT (recursive matrix) graph: 2^Scale vertices
// and EdgeFactor*2^Scale arcs, each arc placed by Scale recursive choices of
// one quadrant of the adjacency matrix with probabilities A, B, C and
// D = 1-A-B-C.
//
// Convention: rows are sources and columns destinations. A is the top-left
// quadrant (source bit 0, destination bit 0), B top-right (source 0,
// destination 1), C bottom-left (source 1, destination 0) and D bottom-right
// (both 1). Each level sets one bit of the source and one of the destination,
// so with the Graph500 values low ids get the most arcs unless Scramble is
// set.
type RMATParams struct {
	Scale      int     // log2 of the vertex count, 1..32
	EdgeFactor int     // arcs per vertex, at least 1
	A, B, C    float64 // quadrant probabilities; D = 1-A-B-C
	Scramble   bool    // relabel vertices by a seed-dependent bijective hash of the id
	Seed       uint64  // random seed
}

// DefaultRMAT returns the Graph500 parameters A=0.57, B=C=0.19 (D=0.05) for
// the given scale and edge factor, unscrambled, with seed 1.
func DefaultRMAT(scale, edgeFactor int) RMATParams {
	return RMATParams{Scale: scale, EdgeFactor: edgeFactor, A: 0.57, B: 0.19, C: 0.19, Seed: 1}
}

// D returns the probability of the bottom-right quadrant, 1-A-B-C.
func (p RMATParams) D() float64 { return 1 - p.A - p.B - p.C }

// NumVertices returns 2^Scale.
func (p RMATParams) NumVertices() uint64 { return 1 << uint(p.Scale) }

// NumArcs returns the number of arcs RMAT generates, EdgeFactor*2^Scale.
func (p RMATParams) NumArcs() uint64 { return uint64(p.EdgeFactor) << uint(p.Scale) }

// Validate checks the parameters: scale 1..32, edge factor at least 1,
// probabilities in [0, 1] summing to at most 1, and at most MaxArcs arcs.
func (p RMATParams) Validate() error {
	if err := p.check(); err != nil {
		return fmt.Errorf("gen: rmat parameters: %w", err)
	}
	return nil
}

// check is Validate without the package prefix, for callers that add their
// own context.
func (p RMATParams) check() error {
	if p.Scale < 1 || p.Scale > 32 {
		return fmt.Errorf("scale %d out of range 1..32", p.Scale)
	}
	if p.EdgeFactor < 1 {
		return fmt.Errorf("edge factor %d must be at least 1", p.EdgeFactor)
	}
	for _, q := range []struct {
		name string
		v    float64
	}{{"A", p.A}, {"B", p.B}, {"C", p.C}} {
		if math.IsNaN(q.v) || q.v < 0 || q.v > 1 {
			return fmt.Errorf("probability %s=%g outside [0, 1]", q.name, q.v)
		}
	}
	if s := p.A + p.B + p.C; s > 1+1e-9 {
		return fmt.Errorf("probabilities A+B+C=%g exceed 1", s)
	}
	if uint64(p.EdgeFactor) > MaxArcs>>uint(p.Scale) {
		return fmt.Errorf("scale %d with edge factor %d gives more than %d (2^36) arcs", p.Scale, p.EdgeFactor, uint64(MaxArcs))
	}
	return nil
}

// RMAT generates the raw directed R-MAT graph of p: 2^Scale vertices and
// exactly EdgeFactor*2^Scale arcs, self-loops and repeated arcs included
// (clean them with graph.EdgeList.DropSelfLoops and Dedupe). The quadrant
// thresholds are 16-bit fixed point (probabilities rounded to multiples of
// 2^-16) and one 64-bit random value decides four levels.
func RMAT(ctx context.Context, p RMATParams, workers int, m *progress.Meter) (*graph.EdgeList, error) {
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("gen: rmat: %w", err)
	}
	k := newRMATKernel(p, p.Scramble)
	arcs := p.NumArcs()
	src := make([]uint32, arcs)
	dst := make([]uint32, arcs)
	err := runBlocks(ctx, numBlocks(arcs), workers, func(b int) {
		lo, hi := blockRange(b, arcs)
		rng := blockRNG(p.Seed, streamRMAT, b)
		k.fill(&rng, src[lo:hi], dst[lo:hi])
		m.Add(int64(hi - lo))
	})
	if err != nil {
		return nil, fmt.Errorf("gen: rmat: %w", err)
	}
	return &graph.EdgeList{NumVertices: p.NumVertices(), Src: src, Dst: dst, Directed: true}, nil
}

// Kronecker generates a Graph500-style Kronecker graph: the R-MAT arcs of p
// (its A, B, C, with vertex ids always scrambled whatever p.Scramble says),
// made undirected. The list holds exactly 2*EdgeFactor*2^Scale arcs: the
// generated arcs first, then each one reversed in the same order. It is raw:
// repeated edges stay, and a self-loop appears twice (it is its own
// reverse). Arc i of the first half equals arc i of RMAT with Scramble set.
func Kronecker(ctx context.Context, p RMATParams, workers int, m *progress.Meter) (*graph.EdgeList, error) {
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("gen: kronecker: %w", err)
	}
	half := p.NumArcs()
	if err := checkArcs("kronecker", 2*half); err != nil {
		return nil, err
	}
	k := newRMATKernel(p, true)
	src := make([]uint32, 2*half)
	dst := make([]uint32, 2*half)
	err := runBlocks(ctx, numBlocks(half), workers, func(b int) {
		lo, hi := blockRange(b, half)
		rng := blockRNG(p.Seed, streamRMAT, b)
		k.fill(&rng, src[lo:hi], dst[lo:hi])
		copy(src[half+lo:half+hi], dst[lo:hi])
		copy(dst[half+lo:half+hi], src[lo:hi])
		m.Add(int64(2 * (hi - lo)))
	})
	if err != nil {
		return nil, fmt.Errorf("gen: kronecker: %w", err)
	}
	return &graph.EdgeList{NumVertices: p.NumVertices(), Src: src, Dst: dst, Directed: false}, nil
}

// Fixed-point lane layout for quad4: two 16-bit values per 64-bit word, in
// bits 0..15 and 32..47, each with a guard bit (16 and 48) above it.
const (
	laneMask  = 0x0000ffff0000ffff
	laneGuard = 0x0001000000010000
)

// rmatKernel holds what the inner loop needs: the scale, the cumulative
// quadrant thresholds in 16-bit fixed point (duplicated into both lanes), and
// the optional scrambler.
type rmatKernel struct {
	scale         int
	tA, tAB, tABC uint64
	scramble      bool
	scr           scrambler
}

func newRMATKernel(p RMATParams, scramble bool) *rmatKernel {
	fix := func(x float64) uint64 {
		t := uint64(math.Round(x * 65536))
		t = min(t, 65536)
		return t | t<<32
	}
	return &rmatKernel{
		scale:    p.Scale,
		tA:       fix(p.A),
		tAB:      fix(p.A + p.B),
		tABC:     fix(p.A + p.B + p.C),
		scramble: scramble,
		scr:      newScrambler(p.Scale, p.Seed),
	}
}

// quad4 decides four R-MAT levels from the four 16-bit fields of r. It
// returns the four source bits and the four destination bits (bit i of each
// from field i). Field q falls in quadrant A when q < tA, B when
// tA <= q < tAB, C when tAB <= q < tABC and D otherwise; the source bit is
// [q >= tAB] and the destination bit [q >= tA] xor [q >= tAB] xor
// [q >= tABC]. The comparisons run two fields at a time (SWAR): a field with
// its guard bit set, minus a threshold of at most 2^16, keeps the guard bit
// exactly when the field is at least the threshold, and never borrows from
// the next lane.
func quad4(r, tA, tAB, tABC uint64) (s, d uint64) {
	e := r&laneMask | laneGuard       // fields 0 and 2
	o := (r>>16)&laneMask | laneGuard // fields 1 and 3
	se := e - tAB                     // guard bits: source bits of fields 0, 2
	de := (e - tA) ^ se ^ (e - tABC)  // guard bits: destination bits
	so := o - tAB
	do := (o - tA) ^ so ^ (o - tABC)
	s = se&laneGuard | (so&laneGuard)<<1 // bits 16, 17, 48, 49
	d = de&laneGuard | (do&laneGuard)<<1
	s = (s>>16 | s>>46) & 0xf
	d = (d>>16 | d>>46) & 0xf
	return s, d
}

// fill writes len(src) arcs drawn from rng into src and dst. Each arc takes
// ceil(scale/4) random words; the loop over full words is quad4 written out
// by hand, as the compiler does not inline it.
func (k *rmatKernel) fill(rng *splitMix, src, dst []uint32) {
	full := k.scale / 4
	rem := uint(k.scale % 4)
	remMask := uint64(1)<<rem - 1
	tA, tAB, tABC := k.tA, k.tAB, k.tABC
	dst = dst[:len(src)]
	state := rng.s // a local copy stays in a register
	for i := range src {
		var u, v uint64
		for range full {
			state += golden
			r := mix.Mix64(state)
			e := r&laneMask | laneGuard
			o := (r>>16)&laneMask | laneGuard
			se := e - tAB
			de := (e - tA) ^ se ^ (e - tABC)
			so := o - tAB
			do := (o - tA) ^ so ^ (o - tABC)
			s := se&laneGuard | (so&laneGuard)<<1
			d := de&laneGuard | (do&laneGuard)<<1
			u = u<<4 | (s>>16|s>>46)&0xf
			v = v<<4 | (d>>16|d>>46)&0xf
		}
		if rem != 0 {
			state += golden
			s, d := quad4(mix.Mix64(state), tA, tAB, tABC)
			u = u<<rem | s&remMask
			v = v<<rem | d&remMask
		}
		if k.scramble {
			u, v = k.scr.apply(u), k.scr.apply(v)
		}
		src[i] = uint32(u)
		dst[i] = uint32(v)
	}
	rng.s = state
}

// scrambler is a seed-dependent bijection of [0, 2^scale): two rounds of an
// affine map with an odd multiplier modulo 2^scale (a bijection) followed by
// a right xorshift (a bijection that stays within scale bits).
type scrambler struct {
	mask, m1, a1, m2, a2 uint64
	sh                   uint
}

func newScrambler(scale int, seed uint64) scrambler {
	rng := blockRNG(seed, streamScramble, 0)
	return scrambler{
		mask: uint64(1)<<uint(scale) - 1,
		m1:   rng.next() | 1,
		a1:   rng.next(),
		m2:   rng.next() | 1,
		a2:   rng.next(),
		sh:   uint(max(1, (scale+1)/2)),
	}
}

// apply maps x (below 2^scale) to its scrambled id.
func (s *scrambler) apply(x uint64) uint64 {
	x = (x*s.m1 + s.a1) & s.mask
	x ^= x >> s.sh
	x = (x*s.m2 + s.a2) & s.mask
	x ^= x >> s.sh
	return x
}

// ScrambleID returns the vertex id that RMAT with Scramble (and Kronecker)
// gives the unscrambled R-MAT vertex v under the given scale and seed. It is
// a bijection of [0, 2^scale).
func ScrambleID(v uint64, scale int, seed uint64) uint64 {
	s := newScrambler(scale, seed)
	return s.apply(v & s.mask)
}
