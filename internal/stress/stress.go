// Package stress holds the graphs of the differential stress tests (a zoo
// of the shapes engines get wrong first, and random graphs from every
// generator) and the minimiser of a failing graph. The CPU's (apps) and
// the GPU's (gpu) TestStress share them.
package stress

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
)

// BigHubDegree is the degree of the hub of the star Graphs adds on
// request (a long hunt's: minutes on two cores).
const BigHubDegree = 1_000_000

// Graphs returns the zoo and n random graphs drawn from seed, and with
// bigHub a star whose hub has BigHubDegree arcs.
func Graphs(t testing.TB, n int, seed uint64, bigHub bool) []testgraphs.Shape {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	gs := Zoo()
	if bigHub {
		el := &graph.EdgeList{NumVertices: BigHubDegree + 1, Directed: true,
			Src: make([]uint32, BigHubDegree), Dst: make([]uint32, BigHubDegree)}
		for v := range el.Dst {
			el.Dst[v] = uint32(v + 1)
		}
		el.Symmetrize(2)
		gs = append(gs, testgraphs.Shape{Name: "hub-1M", EL: el})
	}
	for i := 0; i < n; i++ {
		gs = append(gs, Random(t, rng, i))
	}
	return gs
}

// Zoo is the shapes engines get wrong first: nothing, one vertex,
// self-loops only, duplicate arcs, a hub of most arcs, a long chain, many
// two-vertex components, a directed graph with unreachable parts, and
// weights at 0 and at the uint32 limit, and float32 weights at their
// extremes.
func Zoo() []testgraphs.Shape {
	arcs := func(n uint64, directed bool, pairs ...[2]uint32) *graph.EdgeList {
		el := &graph.EdgeList{NumVertices: n, Directed: true}
		for _, p := range pairs {
			el.Src, el.Dst = append(el.Src, p[0]), append(el.Dst, p[1])
		}
		if !directed {
			el.Symmetrize(2)
		}
		return el
	}
	var loops, dups, hub, chain, pairs, reach [][2]uint32
	for v := uint32(0); v < 20; v++ {
		loops = append(loops, [2]uint32{v, v})
		dups = append(dups, [2]uint32{v, (v + 1) % 20}, [2]uint32{v, (v + 1) % 20}, [2]uint32{v, v})
	}
	for v := uint32(1); v < 3000; v++ {
		hub = append(hub, [2]uint32{0, v})
	}
	for v := uint32(0); v+1 < 2000; v++ {
		chain = append(chain, [2]uint32{v, v + 1})
	}
	for v := uint32(0); v+1 < 1000; v += 2 {
		pairs = append(pairs, [2]uint32{v, v + 1})
	}
	// 0 -> 1..9 -> 10; 20..29 point into the reachable part and are never reached.
	for v := uint32(1); v < 10; v++ {
		reach = append(reach, [2]uint32{0, v}, [2]uint32{v, 10})
	}
	for v := uint32(20); v < 30; v++ {
		reach = append(reach, [2]uint32{v, v % 10})
	}
	extreme := arcs(6, true, [2]uint32{0, 1}, [2]uint32{1, 2}, [2]uint32{0, 2}, [2]uint32{2, 3}, [2]uint32{3, 4}, [2]uint32{0, 5})
	extreme.Weights = []uint32{0, 0, 5, math.MaxUint32, 1, math.MaxUint32 - 1}
	// Float32 weights at 0, the smallest subnormal, the largest float (sums
	// overflow to +Inf, which stays "reached": vertex 8 only so), and
	// decimals whose sums round differently along the two ways to 2 and
	// to 6.
	fextreme := arcs(9, true, [2]uint32{0, 1}, [2]uint32{1, 2}, [2]uint32{0, 2}, [2]uint32{2, 3}, [2]uint32{3, 4},
		[2]uint32{0, 5}, [2]uint32{5, 6}, [2]uint32{4, 6}, [2]uint32{6, 7}, [2]uint32{5, 8})
	fextreme.WeightKind = graph.Float32Weights
	for _, w := range []float32{0.1, 0.2, 0.3, math.SmallestNonzeroFloat32, 0, math.MaxFloat32, math.MaxFloat32, 1e-30, 0.7, math.MaxFloat32} {
		fextreme.Weights = append(fextreme.Weights, math.Float32bits(w))
	}
	return []testgraphs.Shape{
		{Name: "empty", EL: arcs(0, true)},
		{Name: "one-vertex", EL: arcs(1, true)},
		{Name: "self-loops", EL: arcs(20, true, loops...)},
		{Name: "duplicates", EL: arcs(20, false, dups...)},
		{Name: "hub", EL: arcs(3000, false, hub...)},
		{Name: "chain", EL: arcs(2000, true, chain...)},
		{Name: "pairs", EL: arcs(1001, false, pairs...)},
		{Name: "unreachable", EL: arcs(31, true, reach...)},
		{Name: "extreme-weights", EL: extreme},
		{Name: "extreme-float32-weights", EL: fextreme},
	}
}

// Random is random graph i: a generator spec (R-MAT, uniform, geometric or
// grid) with a small size, directed or symmetrized, weighted or not, all
// drawn from rng.
func Random(t testing.TB, rng *rand.Rand, i int) testgraphs.Shape {
	specs := []string{"rmat:%d:4", "uniform:%d:3", "rgg:%d", "grid:%d"}
	k := rng.IntN(len(specs))
	size := 6 + rng.IntN(4) // R-MAT and rgg scales; n for the others below
	if k == 1 || k == 3 {
		size = 1 << size / 8
	}
	spec := fmt.Sprintf(specs[k], size)
	if k == 1 {
		spec = fmt.Sprintf("uniform:%d:%d", size, size*(1+rng.IntN(4)))
	}
	el := testgraphs.Generated(t, spec, rng.Uint64())
	name := fmt.Sprintf("random-%d-%s", i, strings.ReplaceAll(spec, ":", "_"))
	if rng.IntN(2) == 0 && el.Directed {
		el.Symmetrize(2)
		name += "-sym"
	}
	if rng.IntN(3) == 0 {
		el.SetRandomWeights(rng.Uint64(), 0, 1000, 2)
		name += "-w"
		if rng.IntN(2) == 0 {
			el.SetRandomFloat32Weights(rng.Uint64(), 2)
			name += "f"
		}
	}
	return testgraphs.Shape{Name: name, EL: el}
}

// Minimise drops arcs of el (halves, then quarters, ... then single arcs)
// as long as fails still holds, and returns the smallest failing graph.
func Minimise(el *graph.EdgeList, fails func(*graph.EdgeList) bool) *graph.EdgeList {
	cur := el.Clone()
	for chunk := max(1, len(cur.Src)/2); ; chunk /= 2 {
		for lo := 0; lo < len(cur.Src); {
			try := withoutArcs(cur, lo, min(lo+chunk, len(cur.Src)))
			if fails(try) {
				cur = try // keep lo: the next arcs moved into place
			} else {
				lo += chunk
			}
		}
		if chunk == 1 {
			return cur
		}
	}
}

// withoutArcs returns el without its arcs [lo, hi).
func withoutArcs(el *graph.EdgeList, lo, hi int) *graph.EdgeList {
	out := &graph.EdgeList{NumVertices: el.NumVertices, Directed: el.Directed, WeightKind: el.WeightKind}
	out.Src = append(append([]uint32(nil), el.Src[:lo]...), el.Src[hi:]...)
	out.Dst = append(append([]uint32(nil), el.Dst[:lo]...), el.Dst[hi:]...)
	if el.Weights != nil {
		out.Weights = append(append([]uint32(nil), el.Weights[:lo]...), el.Weights[hi:]...)
	}
	return out
}
