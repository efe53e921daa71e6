package gen

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/progress"
)

// generator produces a graph from a seed with a given worker count.
type generator func(seed uint64, workers int) (*graph.EdgeList, error)

func generators() map[string]generator {
	ctx := context.Background()
	return map[string]generator{
		"rmat": func(seed uint64, w int) (*graph.EdgeList, error) {
			p := DefaultRMAT(12, 8)
			p.Seed = seed
			return RMAT(ctx, p, w, nil)
		},
		"rmat-scrambled-odd-scale": func(seed uint64, w int) (*graph.EdgeList, error) {
			p := DefaultRMAT(11, 5)
			p.Seed, p.Scramble = seed, true
			return RMAT(ctx, p, w, nil)
		},
		"kron": func(seed uint64, w int) (*graph.EdgeList, error) {
			p := DefaultRMAT(10, 16)
			p.Seed = seed
			return Kronecker(ctx, p, w, nil)
		},
		"uniform": func(seed uint64, w int) (*graph.EdgeList, error) {
			return Uniform(ctx, 1000, 300_000, seed, w, nil)
		},
		"rgg": func(seed uint64, w int) (*graph.EdgeList, error) {
			return RGG(ctx, 200_000, 0, seed, w, nil)
		},
		"grid": func(seed uint64, w int) (*graph.EdgeList, error) {
			return Grid(ctx, 300, 700, 0.3, seed, w, nil)
		},
	}
}

func TestDeterministicWhateverTheWorkers(t *testing.T) {
	for name, gen := range generators() {
		t.Run(name, func(t *testing.T) {
			ref, err := gen(42, 1)
			require.NoError(t, err)
			require.NoError(t, ref.Validate())
			require.NotZero(t, ref.NumArcs())
			for _, w := range []int{2, 3, 7} {
				el, err := gen(42, w)
				require.NoError(t, err)
				require.Equal(t, ref.NumVertices, el.NumVertices)
				require.Equal(t, ref.Directed, el.Directed)
				require.True(t, slices.Equal(ref.Src, el.Src), "workers=%d: sources differ", w)
				require.True(t, slices.Equal(ref.Dst, el.Dst), "workers=%d: destinations differ", w)
			}
			other, err := gen(43, 2)
			require.NoError(t, err)
			assert.False(t, slices.Equal(ref.Src, other.Src) && slices.Equal(ref.Dst, other.Dst), "seeds 42 and 43 gave the same graph")
		})
	}
}

// packedArcs returns the arcs as sorted src<<32|dst keys, reversed if asked.
func packedArcs(el *graph.EdgeList, reverse bool) []uint64 {
	a := make([]uint64, len(el.Src))
	for i := range el.Src {
		u, v := uint64(el.Src[i]), uint64(el.Dst[i])
		if reverse {
			u, v = v, u
		}
		a[i] = u<<32 | v
	}
	slices.Sort(a)
	return a
}

// requireSymmetric checks every arc's reverse is present as often as the
// arc: the sorted arcs equal the sorted reversed arcs.
func requireSymmetric(t *testing.T, el *graph.EdgeList) {
	t.Helper()
	fwd, rev := packedArcs(el, false), packedArcs(el, true)
	for i := range fwd {
		if fwd[i] != rev[i] {
			t.Fatalf("not symmetric: arc %d→%d has no matching reverse", fwd[i]>>32, fwd[i]&0xffffffff)
		}
	}
}

// requireSimpleSorted checks there are no self-loops, and that arcs are
// strictly increasing by (source, destination), hence without repeats.
func requireSimpleSorted(t *testing.T, el *graph.EdgeList) {
	t.Helper()
	for i := range el.Src {
		if el.Src[i] == el.Dst[i] {
			t.Fatalf("self-loop at arc %d", i)
		}
		if i > 0 {
			prev := uint64(el.Src[i-1])<<32 | uint64(el.Dst[i-1])
			cur := uint64(el.Src[i])<<32 | uint64(el.Dst[i])
			if prev >= cur {
				t.Fatalf("arcs %d and %d out of order or repeated", i-1, i)
			}
		}
	}
}

// quad4Reference is the per-level scalar form of quad4.
func quad4Reference(r, tA, tAB, tABC uint64) (s, d uint64) {
	for i := range 4 {
		q := r >> (16 * i) & 0xffff
		var sb, db uint64
		switch {
		case q < tA:
		case q < tAB:
			db = 1
		case q < tABC:
			sb = 1
		default:
			sb, db = 1, 1
		}
		s |= sb << i
		d |= db << i
	}
	return s, d
}

func TestQuad4MatchesScalarReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	thresholds := [][3]uint64{{37355, 49807, 62259}, {0, 0, 0}, {65536, 65536, 65536}, {0, 65536, 65536}, {1, 2, 65535}, {16384, 32768, 49152}}
	for _, th := range thresholds {
		lane := func(t uint64) uint64 { return t | t<<32 }
		for i := range 20000 {
			r := rng.Uint64()
			if i < 4 {
				r = []uint64{0, math.MaxUint64, 0xffff0000ffff0000, 0x0000ffff0000ffff}[i]
			}
			ws, wd := quad4Reference(r, th[0], th[1], th[2])
			s, d := quad4(r, lane(th[0]), lane(th[1]), lane(th[2]))
			require.Equal(t, ws, s, "r=%#x th=%v", r, th)
			require.Equal(t, wd, d, "r=%#x th=%v", r, th)
		}
	}
}

func TestRMATCountsRangeAndSkew(t *testing.T) {
	p := DefaultRMAT(14, 16)
	p.Seed = 7
	el, err := RMAT(context.Background(), p, 2, nil)
	require.NoError(t, err)
	require.Equal(t, uint64(1<<14), el.NumVertices)
	require.Equal(t, uint64(16<<14), el.NumArcs())
	require.True(t, el.Directed)
	require.NoError(t, el.Validate())

	deg := make([]int, el.NumVertices)
	for i := range el.Src {
		deg[el.Src[i]]++
		deg[el.Dst[i]]++
	}
	mean := 2 * float64(el.NumArcs()) / float64(el.NumVertices)
	assert.Greater(t, float64(slices.Max(deg)), 50*mean, "R-MAT should have hubs far above the mean degree")
	zero := 0
	for _, d := range deg {
		if d == 0 {
			zero++
		}
	}
	assert.Greater(t, zero, 100, "R-MAT at these probabilities leaves many vertices isolated")

	// Top-level quadrant: the highest bit of source and destination.
	var q [4]float64
	for i := range el.Src {
		q[(el.Src[i]>>13)<<1|el.Dst[i]>>13]++
	}
	want := [4]float64{p.A, p.B, p.C, p.D()}
	for i := range q {
		assert.InDelta(t, want[i], q[i]/float64(el.NumArcs()), 0.005, "quadrant %c", 'A'+i)
	}
	// Every level is an independent draw: check the lowest bit too.
	var low [4]float64
	for i := range el.Src {
		low[(el.Src[i]&1)<<1|el.Dst[i]&1]++
	}
	for i := range low {
		assert.InDelta(t, want[i], low[i]/float64(el.NumArcs()), 0.005, "quadrant %c at the lowest level", 'A'+i)
	}
}

func TestRMATCustomProbabilities(t *testing.T) {
	p := RMATParams{Scale: 10, EdgeFactor: 4, A: 0.25, B: 0.25, C: 0.25, Seed: 3}
	el, err := RMAT(context.Background(), p, 0, nil)
	require.NoError(t, err)
	// A = B = C = D: every bit is a fair coin, so ids are uniform.
	var hi int
	for _, u := range el.Src {
		if u >= 512 {
			hi++
		}
	}
	assert.InDelta(t, 0.5, float64(hi)/float64(len(el.Src)), 0.02)

	// A = 1: everything goes to vertex 0.
	p = RMATParams{Scale: 5, EdgeFactor: 2, A: 1, Seed: 3}
	el, err = RMAT(context.Background(), p, 0, nil)
	require.NoError(t, err)
	for i := range el.Src {
		require.Zero(t, el.Src[i])
		require.Zero(t, el.Dst[i])
	}
}

func TestScrambleIsABijection(t *testing.T) {
	for scale := 1; scale <= 20; scale++ {
		for _, seed := range []uint64{0, 1, 0xdeadbeef} {
			n := uint64(1) << scale
			seen := make([]bool, n)
			s := newScrambler(scale, seed)
			for v := range n {
				w := s.apply(v)
				if w >= n || seen[w] {
					t.Fatalf("scale %d seed %d: %d maps to %d, out of range or hit twice", scale, seed, v, w)
				}
				seen[w] = true
			}
		}
	}
	// At scale 32 check a sample stays in range and is not the identity.
	moved := 0
	for v := range uint64(1000) {
		w := ScrambleID(v<<20, 32, 1)
		require.Less(t, w, uint64(1)<<32)
		if w != v<<20 {
			moved++
		}
	}
	assert.Greater(t, moved, 990)
}

func TestRMATScrambleIsARelabelling(t *testing.T) {
	p := DefaultRMAT(13, 4)
	p.Seed = 11
	plain, err := RMAT(context.Background(), p, 2, nil)
	require.NoError(t, err)
	p.Scramble = true
	scr, err := RMAT(context.Background(), p, 2, nil)
	require.NoError(t, err)
	for i := range plain.Src {
		if ScrambleID(uint64(plain.Src[i]), 13, 11) != uint64(scr.Src[i]) || ScrambleID(uint64(plain.Dst[i]), 13, 11) != uint64(scr.Dst[i]) {
			t.Fatalf("arc %d: scrambled %d→%d is not the image of %d→%d", i, scr.Src[i], scr.Dst[i], plain.Src[i], plain.Dst[i])
		}
	}
	// Scrambling spreads the hubs: vertex 0 is no longer the busiest.
	deg := make([]int, scr.NumVertices)
	for _, u := range scr.Src {
		deg[u]++
	}
	assert.NotEqual(t, 0, slices.Index(deg, slices.Max(deg)))
}

func TestKroneckerSymmetricAndCounts(t *testing.T) {
	p := DefaultRMAT(12, 16)
	p.Seed = 5
	el, err := Kronecker(context.Background(), p, 3, nil)
	require.NoError(t, err)
	require.False(t, el.Directed)
	require.Equal(t, uint64(1<<12), el.NumVertices)
	require.Equal(t, uint64(2*16<<12), el.NumArcs())
	require.NoError(t, el.Validate())
	requireSymmetric(t, el)

	// The first half is RMAT with scrambling; the second its reverse.
	p.Scramble = true
	r, err := RMAT(context.Background(), p, 1, nil)
	require.NoError(t, err)
	half := len(r.Src)
	assert.True(t, slices.Equal(r.Src, el.Src[:half]))
	assert.True(t, slices.Equal(r.Dst, el.Dst[:half]))
	assert.True(t, slices.Equal(r.Src, el.Dst[half:]))
	assert.True(t, slices.Equal(r.Dst, el.Src[half:]))
}

func TestRMATRejectsBadParams(t *testing.T) {
	ctx := context.Background()
	bad := []RMATParams{
		{Scale: 0, EdgeFactor: 16, A: 0.57, B: 0.19, C: 0.19},
		{Scale: 33, EdgeFactor: 16, A: 0.57, B: 0.19, C: 0.19},
		{Scale: 10, EdgeFactor: 0, A: 0.57, B: 0.19, C: 0.19},
		{Scale: 10, EdgeFactor: 16, A: 0.6, B: 0.3, C: 0.2},
		{Scale: 10, EdgeFactor: 16, A: -0.1, B: 0.3, C: 0.2},
		{Scale: 10, EdgeFactor: 16, A: math.NaN(), B: 0.3, C: 0.2},
		{Scale: 32, EdgeFactor: 32, A: 0.57, B: 0.19, C: 0.19}, // 2^37 arcs
	}
	for _, p := range bad {
		_, err := RMAT(ctx, p, 1, nil)
		assert.Error(t, err, "%+v", p)
		_, err = Kronecker(ctx, p, 1, nil)
		assert.Error(t, err, "%+v", p)
	}
	// 2^36 arcs is allowed by RMAT (validated) but doubled by Kronecker.
	assert.NoError(t, DefaultRMAT(32, 16).Validate())
	_, err := Kronecker(ctx, DefaultRMAT(32, 16), 1, nil)
	assert.ErrorContains(t, err, "arcs")
}

func TestCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := RMAT(ctx, DefaultRMAT(16, 16), 2, nil)
	assert.ErrorIs(t, err, context.Canceled)
	_, err = Kronecker(ctx, DefaultRMAT(16, 16), 2, nil)
	assert.ErrorIs(t, err, context.Canceled)
	_, err = Uniform(ctx, 100, 1<<20, 1, 2, nil)
	assert.ErrorIs(t, err, context.Canceled)
	_, err = RGG(ctx, 1<<18, 0, 1, 2, nil)
	assert.ErrorIs(t, err, context.Canceled)
	_, err = Grid(ctx, 1000, 1000, 0.1, 1, 2, nil)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestUniformCountsAndRange(t *testing.T) {
	el, err := Uniform(context.Background(), 1000, 100_000, 9, 2, nil)
	require.NoError(t, err)
	require.True(t, el.Directed)
	require.Equal(t, uint64(1000), el.NumVertices)
	require.Equal(t, uint64(100_000), el.NumArcs())
	require.NoError(t, el.Validate())
	deg := make([]int, 1000)
	for _, u := range el.Src {
		deg[u]++
	}
	// Mean 100, standard deviation 10: all within 6 sigma.
	assert.Greater(t, slices.Min(deg), 40)
	assert.Less(t, slices.Max(deg), 160)

	one, err := Uniform(context.Background(), 1, 10, 9, 2, nil)
	require.NoError(t, err)
	assert.Equal(t, uint64(10), one.CountSelfLoops())
	empty, err := Uniform(context.Background(), 5, 0, 9, 2, nil)
	require.NoError(t, err)
	assert.Zero(t, empty.NumArcs())

	for _, c := range []struct{ n, arcs uint64 }{{0, 10}, {graph.MaxVertices + 1, 10}, {10, MaxArcs + 1}} {
		_, err := Uniform(context.Background(), c.n, c.arcs, 1, 1, nil)
		assert.Error(t, err, "n=%d arcs=%d", c.n, c.arcs)
	}
}

func TestRGGMatchesBruteForce(t *testing.T) {
	for _, c := range []struct {
		n      uint64
		radius float64
	}{{2000, 0}, {2000, 0.05}, {3000, 0.013}, {500, 0.3}, {50, 2}, {1, 0}, {2, 0.9}} {
		t.Run(fmt.Sprintf("n=%d,r=%g", c.n, c.radius), func(t *testing.T) {
			el, err := RGG(context.Background(), c.n, c.radius, 17, 2, nil)
			require.NoError(t, err)
			require.False(t, el.Directed)
			require.Equal(t, c.n, el.NumVertices)
			require.NoError(t, el.Validate())
			requireSimpleSorted(t, el)
			requireSymmetric(t, el)

			lay, err := rggPoints(context.Background(), c.n, c.radius, 17, 1)
			require.NoError(t, err)
			var src, dst []uint32
			for u := range lay.xs {
				for v := range lay.xs {
					if u != v && dist2(lay.xs[u], lay.ys[u], lay.xs[v], lay.ys[v]) < lay.r2 {
						src, dst = append(src, uint32(u)), append(dst, uint32(v))
					}
				}
			}
			require.Equal(t, len(src), len(el.Src))
			require.True(t, slices.Equal(src, el.Src))
			require.True(t, slices.Equal(dst, el.Dst))
		})
	}
}

func TestRGGPointsAndNumbering(t *testing.T) {
	lay, err := rggPoints(context.Background(), 100_000, 0, 3, 2)
	require.NoError(t, err)
	require.Greater(t, lay.g, uint64(10))
	require.LessOrEqual(t, lay.radius*float64(lay.g), 1-1e-9, "cells must be wider than the radius")
	// Points uniform: a quarter in each quadrant.
	var lowX, lowY int
	for i := range lay.xs {
		require.True(t, lay.xs[i] >= 0 && lay.xs[i] < 1 && lay.ys[i] >= 0 && lay.ys[i] < 1)
		if lay.xs[i] < 0.5 {
			lowX++
		}
		if lay.ys[i] < 0.5 {
			lowY++
		}
	}
	assert.InDelta(t, 0.5, float64(lowX)/1e5, 0.01)
	assert.InDelta(t, 0.5, float64(lowY)/1e5, 0.01)
	// Vertices are numbered by Morton key of their cell.
	prev := uint64(0)
	for i := range lay.xs {
		k := lay.key(lay.cell(lay.xs[i]), lay.cell(lay.ys[i]))
		require.GreaterOrEqual(t, k, prev)
		require.True(t, uint64(lay.start[k]) <= uint64(i) && uint64(i) < uint64(lay.start[k+1]))
		prev = k
	}
	for x := range uint64(1 << 15) {
		require.Equal(t, x, compactBits(spreadBits(x)))
	}
}

func TestRGGAverageDegree(t *testing.T) {
	const n = 1 << 17
	el, err := RGG(context.Background(), n, 0, 23, 0, nil)
	require.NoError(t, err)
	r := DefaultRGGRadius(n)
	got := float64(el.NumArcs()) / n
	// π r² n away from the border; the exact expectation in the unit square
	// subtracts the border loss.
	assert.InDelta(t, math.Pi*r*r*n, got, 0.06*got)
	assert.InDelta(t, rggPairProb(r)*(n-1), got, 0.01*got)
}

func TestRGGRejectsBadParams(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		n uint64
		r float64
	}{{0, 0}, {MaxRGGPoints + 1, 0}, {100, -1}, {100, math.NaN()}, {100, math.Inf(1)}, {1 << 20, 0.5}} {
		_, err := RGG(ctx, c.n, c.r, 1, 1, nil)
		assert.Error(t, err, "n=%d r=%g", c.n, c.r)
	}
	assert.Zero(t, DefaultRGGRadius(1))
	assert.InDelta(t, 0.55*math.Sqrt(math.Log(1e6)/1e6), DefaultRGGRadius(1e6), 1e-15)
}

func TestGridFull(t *testing.T) {
	for _, c := range [][2]uint64{{1, 1}, {1, 7}, {7, 1}, {2, 2}, {13, 29}, {100, 3}} {
		rows, cols := c[0], c[1]
		el, err := Grid(context.Background(), rows, cols, 0, 1, 3, nil)
		require.NoError(t, err)
		require.Equal(t, rows*cols, el.NumVertices)
		require.Equal(t, 2*(rows*(cols-1)+cols*(rows-1)), el.NumArcs(), "%dx%d", rows, cols)
		require.NoError(t, el.Validate())
		require.False(t, el.Directed)
		requireSimpleSorted(t, el)
		requireSymmetric(t, el)
		for i := range el.Src {
			u, v := uint64(el.Src[i]), uint64(el.Dst[i])
			ur, uc, vr, vc := u/cols, u%cols, v/cols, v%cols
			manhattan := max(ur, vr) - min(ur, vr) + max(uc, vc) - min(uc, vc)
			require.Equal(t, uint64(1), manhattan, "%d→%d is not a grid edge in %dx%d", u, v, rows, cols)
		}
	}
}

func TestGridRemoval(t *testing.T) {
	const rows, cols = 400, 500
	full := 2 * (rows*(cols-1) + cols*(rows-1))
	for _, f := range []float64{0.1, 0.5, 0.9} {
		el, err := Grid(context.Background(), rows, cols, f, 77, 2, nil)
		require.NoError(t, err)
		requireSimpleSorted(t, el)
		requireSymmetric(t, el)
		assert.InDelta(t, 1-f, float64(el.NumArcs())/float64(full), 0.005, "remove fraction %g", f)
		for i := range el.Src {
			if d := int64(el.Src[i]) - int64(el.Dst[i]); d != 1 && d != -1 && d != cols && d != -cols {
				t.Fatalf("arc %d→%d is not a grid edge", el.Src[i], el.Dst[i])
			}
		}
	}
	el, err := Grid(context.Background(), rows, cols, 1, 77, 2, nil)
	require.NoError(t, err)
	assert.Zero(t, el.NumArcs())
	assert.Equal(t, uint64(rows*cols), el.NumVertices)

	for _, c := range []struct {
		rows, cols uint64
		f          float64
	}{{0, 5, 0}, {5, 0, 0}, {1 << 17, 1 << 16, 0}, {1 << 40, 1 << 40, 0}, {5, 5, -0.1}, {5, 5, 1.5}, {5, 5, math.NaN()}} {
		_, err := Grid(context.Background(), c.rows, c.cols, c.f, 1, 1, nil)
		assert.Error(t, err, "%+v", c)
	}
}

// rmatReference generates the arcs of block b one level at a time with the
// scalar quadrant rule, for comparison with the optimised kernel.
func rmatReference(p RMATParams, b int, n int) (src, dst []uint32) {
	k := newRMATKernel(p, p.Scramble)
	tA, tAB, tABC := k.tA&0xffffffff, k.tAB&0xffffffff, k.tABC&0xffffffff
	rng := blockRNG(p.Seed, streamRMAT, b)
	for range n {
		var u, v uint64
		for lvl := 0; lvl < p.Scale; lvl += 4 {
			s, d := quad4Reference(rng.next(), tA, tAB, tABC)
			c := min(4, p.Scale-lvl) // levels from this word: fields c-1 .. 0, high to low
			for j := range c {
				u = u<<1 | s>>(c-1-j)&1
				v = v<<1 | d>>(c-1-j)&1
			}
		}
		if p.Scramble {
			u, v = ScrambleID(u, p.Scale, p.Seed), ScrambleID(v, p.Scale, p.Seed)
		}
		src, dst = append(src, uint32(u)), append(dst, uint32(v))
	}
	return src, dst
}

func TestRMATKernelMatchesReference(t *testing.T) {
	for _, scale := range []int{1, 2, 3, 4, 5, 8, 11, 16, 23, 32} {
		for _, scramble := range []bool{false, true} {
			p := DefaultRMAT(scale, 1)
			p.Seed, p.Scramble = uint64(scale)*3+1, scramble
			for _, b := range []int{0, 5} {
				wantSrc, wantDst := rmatReference(p, b, 2000)
				k := newRMATKernel(p, scramble)
				rng := blockRNG(p.Seed, streamRMAT, b)
				src, dst := make([]uint32, 2000), make([]uint32, 2000)
				k.fill(&rng, src, dst)
				require.Equal(t, wantSrc, src, "scale %d scramble %v", scale, scramble)
				require.Equal(t, wantDst, dst, "scale %d scramble %v", scale, scramble)
			}
		}
	}
}

// cancelAfter is a context that reports itself cancelled from its n-th Err
// call on (generators call Err between blocks), to cancel part-way through.
type cancelAfter struct {
	context.Context
	n, calls atomic.Int64
}

func newCancelAfter(n int64) *cancelAfter {
	c := &cancelAfter{Context: context.Background()}
	c.n.Store(n)
	return c
}

func (c *cancelAfter) Err() error {
	if c.calls.Add(1) >= c.n.Load() {
		return context.Canceled
	}
	return nil
}

func TestCancellationPartWay(t *testing.T) {
	_, err := RMAT(newCancelAfter(3), DefaultRMAT(16, 16), 2, nil)
	assert.ErrorIs(t, err, context.Canceled)
	_, err = Kronecker(newCancelAfter(3), DefaultRMAT(16, 16), 2, nil)
	assert.ErrorIs(t, err, context.Canceled)
	_, err = Uniform(newCancelAfter(3), 100, 1<<20, 1, 2, nil)
	assert.ErrorIs(t, err, context.Canceled)
	for _, after := range []int64{2, 5, 30} { // in point drawing, sorting, edge passes
		_, err = RGG(newCancelAfter(after), 1<<18, 0, 1, 2, nil)
		assert.ErrorIs(t, err, context.Canceled, "after %d", after)
	}
	for _, after := range []int64{3, 20} {
		_, err = Grid(newCancelAfter(after), 1000, 1000, 0.1, 1, 2, nil)
		assert.ErrorIs(t, err, context.Canceled, "after %d", after)
	}
}

func TestProgressCountsArcs(t *testing.T) {
	ctx := context.Background()
	for name, gen := range map[string]func(m *progress.Meter) (*graph.EdgeList, error){
		"rmat":    func(m *progress.Meter) (*graph.EdgeList, error) { return RMAT(ctx, DefaultRMAT(5, 20), 2, m) },
		"kron":    func(m *progress.Meter) (*graph.EdgeList, error) { return Kronecker(ctx, DefaultRMAT(4, 20), 2, m) },
		"uniform": func(m *progress.Meter) (*graph.EdgeList, error) { return Uniform(ctx, 50, 999, 1, 2, m) },
		"rgg":     func(m *progress.Meter) (*graph.EdgeList, error) { return RGG(ctx, 100, 0, 1, 2, m) },
		"grid":    func(m *progress.Meter) (*graph.EdgeList, error) { return Grid(ctx, 9, 11, 0.2, 1, 2, m) },
	} {
		var buf bytes.Buffer
		m := progress.NewAlways(&buf, name, 0, "arcs")
		el, err := gen(m)
		require.NoError(t, err)
		m.Done()
		require.Less(t, el.NumArcs(), uint64(1000))
		assert.Contains(t, buf.String(), fmt.Sprintf("%s: %d arcs,", name, el.NumArcs()))
	}
}
