package preprocess

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/layout"
)

// smallParams makes tiny graphs exercise every feature: heavy blocks,
// repeated markers, several segments, several panels.
func smallParams() layout.Params {
	return layout.Params{
		PanelSize:       64,
		HeavyThreshold:  100,
		HeavyColumns:    32,
		SegmentSize:     50,
		GroupThresholds: []uint64{64, 32, 16, 8, 4},
		HighGroups:      4,
	}
}

func edges(n uint64, arcs ...[2]uint32) *graph.EdgeList {
	el := &graph.EdgeList{NumVertices: n, Directed: true, Src: []uint32{}, Dst: []uint32{}}
	for _, a := range arcs {
		el.Src = append(el.Src, a[0])
		el.Dst = append(el.Dst, a[1])
	}
	return el
}

// star has k leaves pointing at the centre and the centre pointing back.
func star(k uint32) *graph.EdgeList {
	el := edges(uint64(k) + 1)
	for i := uint32(1); i <= k; i++ {
		el.Src = append(el.Src, i, 0)
		el.Dst = append(el.Dst, 0, i)
	}
	return el
}

func chain(n uint32) *graph.EdgeList {
	el := edges(uint64(n))
	for i := uint32(0); i+1 < n; i++ {
		el.Src = append(el.Src, i)
		el.Dst = append(el.Dst, i+1)
	}
	return el
}

// randomGraph has n vertices and m random arcs, skewed towards low ids so
// some vertices reach high in-degree, with duplicates and self-loops.
func randomGraph(seed uint64, n uint64, m int, weighted bool) *graph.EdgeList {
	rng := rand.New(rand.NewPCG(seed, 7))
	el := edges(n)
	if n == 0 {
		return el
	}
	for range m {
		s := uint32(rng.Uint64N(n))
		d := uint32(rng.Uint64N(n))
		if rng.IntN(3) == 0 {
			d = uint32(rng.Uint64N(min(n, 1+n/16)))
		}
		el.Src = append(el.Src, s)
		el.Dst = append(el.Dst, d)
		if rng.IntN(10) == 0 { // duplicate
			el.Src = append(el.Src, s)
			el.Dst = append(el.Dst, d)
		}
		if rng.IntN(20) == 0 { // self-loop
			el.Src = append(el.Src, s)
			el.Dst = append(el.Dst, s)
		}
	}
	if weighted {
		el.Weights = make([]uint32, len(el.Src))
		for i := range el.Weights {
			el.Weights[i] = uint32(rng.IntN(100))
		}
	}
	return el
}

func withWeights(el *graph.EdgeList, seed uint64) *graph.EdgeList {
	c := el.Clone()
	c.SetRandomWeights(seed, 1, 64, 0)
	return c
}

func build(t *testing.T, el *graph.EdgeList, p layout.Params, workers int) *layout.Layout {
	t.Helper()
	l, err := Build(context.Background(), el, p, Options{Workers: workers})
	require.NoError(t, err)
	return l
}

func buildAndValidate(t *testing.T, el *graph.EdgeList, p layout.Params) *layout.Layout {
	t.Helper()
	l := build(t, el, p, 0)
	require.NoError(t, layout.Validate(l, el))
	return l
}

func generated(t *testing.T) map[string]*graph.EdgeList {
	t.Helper()
	ctx := context.Background()
	rmat, err := gen.RMAT(ctx, gen.DefaultRMAT(11, 8), 0, nil)
	require.NoError(t, err)
	rmatSym := rmat.Clone()
	rmatSym.Symmetrize(0)
	rgg, err := gen.RGG(ctx, 3000, gen.DefaultRGGRadius(3000), 1, 0, nil)
	require.NoError(t, err)
	grid, err := gen.Grid(ctx, 37, 41, 0.1, 1, 0, nil)
	require.NoError(t, err)
	return map[string]*graph.EdgeList{"rmat": rmat, "rmat-sym": rmatSym, "rgg": rgg, "grid": grid}
}

func shapes(t *testing.T) map[string]*graph.EdgeList {
	t.Helper()
	g := generated(t)
	g["star"] = star(500)
	g["star-small"] = star(99)
	g["chain"] = chain(1000)
	g["single"] = edges(1)
	g["single-loop"] = edges(1, [2]uint32{0, 0}, [2]uint32{0, 0})
	g["empty"] = edges(0)
	g["isolated"] = edges(200, [2]uint32{3, 150}, [2]uint32{150, 3})
	pieces := chain(130)
	pieces.NumVertices = 400
	for i := uint32(200); i < 330; i++ {
		pieces.Src = append(pieces.Src, i, i+1)
		pieces.Dst = append(pieces.Dst, i+1, i)
	}
	g["disconnected"] = pieces
	for _, n := range []uint64{63, 65, 64*5 - 1, 64*5 + 1, 97, 389, 1031} {
		g[fmt.Sprintf("random-n%d", n)] = randomGraph(n, n, int(n)*6, false)
	}
	g["dense-small"] = randomGraph(5, 70, 4000, false)
	return g
}

func TestBuildValidatesOnShapes(t *testing.T) {
	for name, el := range shapes(t) {
		for _, weighted := range []bool{false, true} {
			g := el
			if weighted {
				g = withWeights(el, 9)
			}
			for pname, p := range map[string]layout.Params{"small": smallParams(), "default": layout.DefaultParams()} {
				t.Run(fmt.Sprintf("%s/weighted=%v/%s", name, weighted, pname), func(t *testing.T) {
					buildAndValidate(t, g, p)
				})
			}
		}
	}
}

func TestBuildExercisesFeatures(t *testing.T) {
	// The small parameters must produce heavy blocks, repeated markers,
	// several segments and several panels on these graphs.
	g := generated(t)
	l := buildAndValidate(t, g["rmat-sym"], smallParams())
	st := l.Stats()
	assert.Greater(t, st.HeavyBlocks, uint64(1))
	assert.Greater(t, st.LightBlocks, uint64(1))
	assert.Greater(t, st.HighSegments, 2)
	assert.Greater(t, l.NumPanels(), uint64(10))
	assert.True(t, hasRepeatedMarker(l), "no heavy column starts with a repeated marker")

	s := buildAndValidate(t, star(500), smallParams())
	assert.Equal(t, uint64(1), s.Stats().HeavyBlocks, "the star's centre row holds one heavy block")
	assert.Equal(t, uint32(0), s.InvPerm[0], "the centre has the highest in-degree group")
}

func hasRepeatedMarker(l *layout.Layout) bool {
	t := l.Params.HeavyColumns
	for h := range l.HeavyRow {
		last := int16(0)
		for j := uint32(0); j < t; j++ {
			for i := uint32(0); i < l.HeavyRows[h]; i++ {
				x := l.HeavyEntry(h, i, j)
				if i == 0 && j > 0 && x < 0 && x != layout.Invalid && x == last {
					return true
				}
				if x < 0 && x != layout.Invalid {
					last = x
				}
			}
		}
	}
	return false
}

func TestBuildDeterministicAcrossWorkers(t *testing.T) {
	g := generated(t)
	for name, el := range map[string]*graph.EdgeList{"rmat-sym": withWeights(g["rmat-sym"], 3), "grid": g["grid"], "random": randomGraph(1, 389, 5000, true)} {
		var ref []byte
		for _, w := range []int{1, 2, 3, 5} {
			l := build(t, el, smallParams(), w)
			var buf bytes.Buffer
			require.NoError(t, layout.Save(&buf, l, layout.SaveOptions{Workers: w}))
			if ref == nil {
				ref = buf.Bytes()
				continue
			}
			assert.True(t, bytes.Equal(ref, buf.Bytes()), "%s: workers=%d gives a different file", name, w)
		}
	}
}

func TestBuildRejectsBadInput(t *testing.T) {
	ctx := context.Background()
	_, err := Build(ctx, edges(3, [2]uint32{0, 5}), smallParams(), Options{})
	assert.ErrorContains(t, err, "outside")
	p := smallParams()
	p.PanelSize = 0
	_, err = Build(ctx, edges(3), p, Options{})
	assert.ErrorContains(t, err, "panel size")
	el := edges(3, [2]uint32{0, 1})
	el.Weights = []uint32{1, 2}
	_, err = Build(ctx, el, smallParams(), Options{})
	assert.Error(t, err)
	_, err = Build(ctx, &graph.EdgeList{NumVertices: 1 << 32}, smallParams(), Options{})
	assert.ErrorIs(t, err, ErrTooLarge)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = Build(cctx, chain(100), smallParams(), Options{})
	assert.ErrorIs(t, err, context.Canceled)
}
