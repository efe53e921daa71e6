package sparse

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
)

// plainProg is monoProg marked engine.PlainMin (SSSP-like: the in-place
// path); eePlainProg is also engine.EarlyExit (BFS-like: every
// contribution of a step is equal, no claims).
type plainProg struct{ monoProg[uint32] }

func (plainProg) PlainMin() {}

type eePlainProg struct{ eeProg[uint32] }

func (eePlainProg) PlainMin() {}

var (
	_ engine.PlainMin          = plainProg{}
	_ engine.PlainMin          = eePlainProg{}
	_ engine.EarlyExit[uint32] = eePlainProg{}
)

func plainOf(edge engine.EdgeOp) plainProg {
	return plainProg{monoProg[uint32]{minProg[uint32]{edge}}}
}

// TestInPlacePath runs engine.PlainMin programs through the in-place path,
// inline and in parallel (thresholds lowered so that tiny frontiers take
// it), over uint32 weights, float32 weights and none, and compares the
// next frontier (as a set, each vertex once) and the values with the
// reference step, which combines and applies; the engine is left reset.
// Some sources are lowered by other sources of the same step, so a step
// that read the new values instead of the old ones would differ.
func TestInPlacePath(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(31, 32))
	for _, g := range testGraphs() {
		for _, wk := range []string{"none", "uint32", "float32"} {
			el := g.el.Clone()
			switch wk {
			case "uint32":
				el.SetRandomWeights(9, 0, 20, 1)
			case "float32":
				el.WeightKind = graph.Float32Weights
				el.Weights = make([]uint32, len(el.Src))
				for i := range el.Weights {
					el.Weights[i] = math.Float32bits(r.Float32() * 4)
				}
			}
			for pi, params := range []layout.Params{layout.DefaultParams(), smallParams} {
				l, err := preprocess.Build(ctx, el, params, preprocess.Options{Workers: 1})
				require.NoError(t, err)
				var progs []engine.Program[uint32]
				switch wk {
				case "none":
					progs = []engine.Program[uint32]{plainOf(engine.EdgeSourcePlusOne), plainOf(engine.EdgeSource),
						eePlainProg{eeProg[uint32]{monoProg[uint32]{minProg[uint32]{engine.EdgeSourcePlusOne}}}}}
				case "uint32":
					progs = []engine.Program[uint32]{plainOf(engine.EdgeSourcePlusWeight)}
				default:
					progs = []engine.Program[uint32]{plainOf(engine.EdgeSourcePlusFloat32Weight)}
				}
				for _, c := range configs {
					e := newEngine[uint32](t, l, c)
					for _, frac := range []float64{0.004, 0.1, 0.5, 1} {
						for _, p := range progs {
							what := fmt.Sprintf("%s/%s/params=%d/%s/%v frac %v", g.name, wk, pi, c.name, p, frac)
							values := inPlaceValues(r, l.NumVertices, wk == "float32")
							frontier := randomFrontier(r, l.NumVertices, frac)
							if _, ok := p.(engine.EarlyExit[uint32]); ok {
								for _, u := range frontier {
									values[u] = 3
								}
							}
							total, err := e.plan(frontier)
							require.NoError(t, err, what)
							require.True(t, len(frontier) == 0 || e.inPlaceOK(p, total), what)
							wantNext, wantVals := reference(el, l, p, values, frontier)
							vals := slices.Clone(values)
							next, phases, err := e.Step(ctx, p, vals, frontier)
							require.NoError(t, err, what)
							require.Len(t, phases, 3, what)
							assert.ElementsMatch(t, wantNext, next, what)
							equalValues(t, wantVals, vals, what)
							checkReset(t, e)
						}
					}
				}
			}
		}
	}
}

// TestInPlaceOneRow runs BFS-like steps (every contribution equal) from a
// frontier of one vertex, which the parallel in-place path lowers with
// plain writes (lowerRow), inline and in parallel with pieces down to one
// arc (so that pieces start inside runs of parallel arcs), from the
// vertex of most out-arcs and from others: the next frontier lists each
// lowered destination once, and the values are the reference step's.
func TestInPlaceOneRow(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(61, 62))
	p := eePlainProg{eeProg[uint32]{monoProg[uint32]{minProg[uint32]{engine.EdgeSourcePlusOne}}}}
	for _, g := range testGraphs() {
		l, err := preprocess.Build(ctx, g.el, smallParams, preprocess.Options{Workers: 1})
		require.NoError(t, err)
		n := l.NumVertices
		if n == 0 {
			continue
		}
		off := l.SparseOffsets
		hub := uint32(0)
		for v := range uint32(n) {
			if off[v+1]-off[v] > off[hub+1]-off[hub] {
				hub = v
			}
		}
		sources := []uint32{hub, uint32(r.Uint64N(n)), uint32(n - 1)}
		for _, c := range configs {
			e := newEngine[uint32](t, l, c)
			for _, u := range sources {
				what := fmt.Sprintf("%s/%s/from %d", g.name, c.name, u)
				values := inPlaceValues(r, n, false)
				values[u] = 3
				wantNext, wantVals := reference(g.el, l, p, values, []uint32{u})
				vals := slices.Clone(values)
				next, _, err := e.Step(ctx, p, vals, []uint32{u})
				require.NoError(t, err, what)
				assert.ElementsMatch(t, wantNext, next, what)
				equalValues(t, wantVals, vals, what)
				checkReset(t, e)
			}
		}
	}
}

// TestLowerRowPiecesDisjoint cuts a sorted row with runs of parallel arcs
// into pieces of every size and lowers each piece from the values before
// the step, as concurrent workers may all see them: every destination the
// step lowers is listed by exactly one piece.
func TestLowerRowPiecesDisjoint(t *testing.T) {
	row := []uint32{0, 1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7, 7}
	dst := append([]uint32{9, 9}, row...) // the row starts at arc 2
	const start = 2
	for piece := 1; piece <= len(row); piece++ {
		var listed []uint32
		for lo := start; lo < len(dst); lo += piece {
			vals := []uint32{math.MaxUint32, 0, math.MaxUint32, math.MaxUint32, 0, math.MaxUint32, math.MaxUint32, math.MaxUint32, 0, 0}
			ip := inPlace{dst: dst, vals: vals}
			listed = ip.lowerRow(uint64(lo), uint64(min(lo+piece, len(dst))), start, 1, listed)
		}
		require.ElementsMatch(t, []uint32{0, 2, 3, 5, 6, 7}, listed, "pieces of %d arcs", piece)
	}
}

// inPlaceValues returns random values for a min step: a tenth unreached,
// the others small (so that many arcs lower their destination), as
// float32 bits when float.
func inPlaceValues(r *rand.Rand, n uint64, float bool) []uint32 {
	vals := make([]uint32, n)
	for i := range vals {
		switch {
		case r.IntN(10) == 0:
			vals[i] = math.MaxUint32
		case float:
			vals[i] = math.Float32bits(r.Float32() * 40)
		default:
			vals[i] = uint32(r.IntN(40))
		}
	}
	return vals
}

// TestInPlaceThreshold: a frontier of e.inPlaceMax arcs or more takes the
// general path, with the same result.
func TestInPlaceThreshold(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(41, 42))
	g := testGraphs()[0]
	el := g.el.Clone()
	el.SetRandomWeights(9, 0, 20, 1)
	l, err := preprocess.Build(ctx, el, smallParams, preprocess.Options{Workers: 1})
	require.NoError(t, err)
	p := plainOf(engine.EdgeSourcePlusWeight)
	for _, max := range []uint64{1, 100, math.MaxUint64} {
		e, err := New[uint32](l, 2)
		require.NoError(t, err)
		e.inPlaceMax = max
		values := inPlaceValues(r, l.NumVertices, false)
		frontier := randomFrontier(r, l.NumVertices, 0.3)
		total, err := e.plan(frontier)
		require.NoError(t, err)
		require.Equal(t, total < max, e.inPlaceOK(p, total))
		wantNext, wantVals := reference(el, l, p, values, frontier)
		vals := slices.Clone(values)
		next, _, err := e.Step(ctx, p, vals, frontier)
		require.NoError(t, err)
		assert.ElementsMatch(t, wantNext, next)
		equalValues(t, wantVals, vals, fmt.Sprint("max ", max))
		checkReset(t, e)
	}
	// A vertex out of range fails the step, values unchanged.
	e, err := New[uint32](l, 2)
	require.NoError(t, err)
	values := inPlaceValues(r, l.NumVertices, false)
	vals := slices.Clone(values)
	_, _, err = e.Step(ctx, p, vals, []uint32{0, uint32(l.NumVertices)})
	require.Error(t, err)
	require.Equal(t, values, vals)
	checkReset(t, e)
}

// TestStepNearFar: a near-far step, by the in-place path (inline and in
// parallel) and by the general path (inPlaceMax 0), returns the reference
// step's next frontier split at the split (engine.SplitNearFar): the same
// near vertices, the same far ones (those not piled already; the others
// stay piled; stale entries aside), and the same bits, whatever was piled
// before.
func TestStepNearFar(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(51, 52))
	for _, g := range testGraphs() {
		el := g.el.Clone()
		el.SetRandomWeights(9, 0, 20, 1)
		l, err := preprocess.Build(ctx, el, smallParams, preprocess.Options{Workers: 1})
		require.NoError(t, err)
		n := l.NumVertices
		p := plainOf(engine.EdgeSourcePlusWeight)
		for _, c := range configs {
			for _, general := range []bool{false, true} {
				e := newEngine[uint32](t, l, c)
				if general {
					e.inPlaceMax = 0
				}
				for _, frac := range []float64{0.01, 0.3, 1} {
					for _, split := range []uint32{0, 10, 25, math.MaxUint32} {
						what := fmt.Sprintf("%s/%s/general=%v/frac %v/split %d", g.name, c.name, general, frac, split)
						values := inPlaceValues(r, n, false)
						frontier := randomFrontier(r, n, frac)
						piled := make([]uint32, (n+31)/32)
						for i := range piled {
							piled[i] = r.Uint32() & r.Uint32()
						}
						wantNext, wantVals := reference(el, l, p, values, frontier)
						wantPiled := slices.Clone(piled)
						wantNear, wantFar := engine.SplitNearFar(wantVals, slices.Clone(wantNext), split, wantPiled, []uint32{7})
						vals := slices.Clone(values)
						near, far, _, err := e.StepNearFar(ctx, p, vals, frontier, split, piled, []uint32{7})
						require.NoError(t, err, what)
						assert.ElementsMatch(t, wantNear, near, what)
						require.Equal(t, uint32(7), far[0], what)
						require.Equal(t, wantPiled, piled, what)
						// far's live entries (bit set) are the reference's; its
						// stale ones (a vertex piled, then lowered below the
						// split in the same step) are near vertices.
						var live []uint32
						for _, v := range far[1:] {
							if piled[v>>5]&(1<<(v&31)) != 0 {
								live = append(live, v)
							} else {
								require.Contains(t, near, v, what)
							}
						}
						assert.ElementsMatch(t, wantFar[1:], live, what)
						equalValues(t, wantVals, vals, what)
						checkReset(t, e)
						for w := range e.ws {
							require.Empty(t, e.ws[w].far, what)
						}
					}
				}
			}
		}
	}
}
