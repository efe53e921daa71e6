package format

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mgraph-dev/mgraph/graph"
)

// arc is one arc with its weight, for order-independent comparisons.
type arc struct{ u, v, w uint32 }

// arcs returns the list's arcs sorted; weights are 0 when the list has none
// or withWeights is false.
func arcs(el *graph.EdgeList, withWeights bool) []arc {
	out := make([]arc, len(el.Src))
	for i := range el.Src {
		out[i] = arc{u: el.Src[i], v: el.Dst[i]}
		if withWeights && el.Weights != nil {
			out[i].w = el.Weights[i]
		}
	}
	slices.SortFunc(out, func(a, b arc) int {
		return cmp.Or(cmp.Compare(a.u, b.u), cmp.Compare(a.v, b.v), cmp.Compare(a.w, b.w))
	})
	return out
}

// inOrder returns the list's arcs in list order.
func inOrder(el *graph.EdgeList) []arc {
	out := make([]arc, len(el.Src))
	for i := range el.Src {
		out[i] = arc{u: el.Src[i], v: el.Dst[i]}
		if el.Weights != nil {
			out[i].w = el.Weights[i]
		}
	}
	return out
}

// randomList makes a random list with self-loops, duplicates and (with
// isolated) trailing vertices without arcs.
func randomList(seed uint64, n uint64, m int, weighted, directed bool) *graph.EdgeList {
	rng := rand.New(rand.NewPCG(seed, 1))
	el := &graph.EdgeList{NumVertices: n, Directed: true}
	for range m {
		u := uint32(rng.Uint64N(n - 3)) // the last vertices stay isolated
		v := uint32(rng.Uint64N(n - 3))
		if rng.IntN(20) == 0 {
			v = u
		}
		el.Src = append(el.Src, u)
		el.Dst = append(el.Dst, v)
		if weighted {
			w := uint32(rng.Uint64N(100))
			if rng.IntN(50) == 0 {
				w = 4294967295
			}
			el.Weights = append(el.Weights, w)
		}
	}
	if !directed {
		el.Symmetrize(2)
	}
	return el
}

func readString(t *testing.T, name, content string, opts ReadOptions) (*graph.EdgeList, *Info, error) {
	t.Helper()
	return Read(context.Background(), strings.NewReader(content), name, opts)
}

// setTuning shrinks the reader's blocks and chunks so that small inputs
// cross many block and chunk boundaries; it returns the restore function.
func setTuning(block, chunk int) func() {
	b, c := blockSize, minChunk
	blockSize, minChunk = block, chunk
	return func() { blockSize, minChunk = b, c }
}

func TestParseFormatAndPath(t *testing.T) {
	for name, want := range map[string]Format{"auto": Auto, "": Auto, "mtx": MatrixMarket, "MM": MatrixMarket,
		"el": EdgeList, "snap": EdgeList, "wel": WeightedEdgeList, "gr": DIMACS, "dimacs": DIMACS, "mgb": Binary, "binary": Binary} {
		got, err := ParseFormat(name)
		require.NoError(t, err, name)
		assert.Equal(t, want, got, name)
	}
	_, err := ParseFormat("xml")
	assert.ErrorContains(t, err, "unknown graph format")
	for path, want := range map[string]Format{"a.mtx": MatrixMarket, "a/b.mtx.zst": MatrixMarket, "x.mm.gz": MatrixMarket,
		"g.el": EdgeList, "g.txt.gz": EdgeList, "g.snap": EdgeList, "g.edges": EdgeList, "g.wel.zst": WeightedEdgeList,
		"USA.gr.gz": DIMACS, "g.mgb": Binary, "G.MGB.ZST": Binary} {
		got, err := FormatFromPath(path)
		require.NoError(t, err, path)
		assert.Equal(t, want, got, path)
	}
	_, err = FormatFromPath("graph.csv.gz")
	assert.ErrorContains(t, err, "graph.csv.gz")
	for f := Auto; f <= Binary; f++ {
		got, err := ParseFormat(f.String())
		require.NoError(t, err)
		assert.Equal(t, f, got)
	}
}

func TestMatrixMarketSymmetricHandWritten(t *testing.T) {
	content := "%%MatrixMarket matrix coordinate pattern symmetric\n% a comment\n%\n3 3 4\n1 1\n2 1\n3 2\n\n3 3\n"
	el, info, err := readString(t, "sym.mtx", content, ReadOptions{})
	require.NoError(t, err)
	require.NoError(t, el.Validate())
	assert.False(t, el.Directed)
	assert.Equal(t, uint64(3), el.NumVertices)
	assert.Nil(t, el.Weights)
	// Self-loops once, other entries both ways, in file order.
	assert.Equal(t, []arc{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {2, 1, 0}, {1, 2, 0}, {2, 2, 0}}, inOrder(el))
	assert.Equal(t, Info{Format: MatrixMarket, Compression: "none", Bytes: int64(len(content)), DeclaredVertices: 3,
		Entries: 4, Symmetric: true, Field: "pattern"}, *info)
}

func TestMatrixMarketGeneralIntegerCRLF(t *testing.T) {
	// Tabs, CRLF, a rectangular matrix and no final newline.
	content := "%%MatrixMarket matrix coordinate integer general\r\n%c\r\n4 3 3\r\n1\t2\t7\r\n  4 3 0 \r\n2 1 +4294967295"
	el, info, err := readString(t, "g.mtx", content, ReadOptions{})
	require.NoError(t, err)
	assert.True(t, el.Directed)
	assert.Equal(t, uint64(4), el.NumVertices)
	assert.Equal(t, []arc{{0, 1, 7}, {3, 2, 0}, {1, 0, 4294967295}}, inOrder(el))
	assert.Equal(t, uint64(3), info.Entries)
	assert.True(t, info.Weighted)
	assert.Equal(t, "integer", info.Field)

	el, _, err = readString(t, "g.mtx", content, ReadOptions{IgnoreWeights: true})
	require.NoError(t, err)
	assert.Nil(t, el.Weights)
	assert.Equal(t, []arc{{0, 1, 0}, {3, 2, 0}, {1, 0, 0}}, inOrder(el))

	// Undirected on a general file symmetrizes it.
	el, _, err = readString(t, "g.mtx", content, ReadOptions{Undirected: true})
	require.NoError(t, err)
	assert.False(t, el.Directed)
	assert.Equal(t, 6, len(el.Src))
}

func TestMatrixMarketReal(t *testing.T) {
	content := "%%MatrixMarket matrix coordinate real general\n3 3 6\n1 2 3\n1 3 3.0\n2 1 2e1\n2 3 0.5e1\n3 1 -0.0\n3 2 250E-2\n"
	_, _, err := readString(t, "r.mtx", content, ReadOptions{WeightType: WeightsUint32})
	require.Error(t, err)
	assert.ErrorContains(t, err, "r.mtx: line 8: value is not an integer")
	assert.ErrorContains(t, err, "IgnoreWeights")
	assert.ErrorContains(t, err, "float32")

	// Auto: the fractional value makes every weight float32.
	el, info, err := readString(t, "r.mtx", content, ReadOptions{})
	require.NoError(t, err)
	assert.Equal(t, graph.Float32Weights, el.WeightKind)
	assert.Equal(t, graph.Float32Weights, info.WeightKind)
	assert.Equal(t, []float32{3, 3, 20, 5, 0, 2.5}, floats(el.Weights))

	content = strings.Replace(content, "250E-2", "2500E-2", 1)
	el, _, err = readString(t, "r.mtx", content, ReadOptions{})
	require.NoError(t, err)
	assert.Equal(t, graph.Uint32Weights, el.WeightKind)
	assert.Equal(t, []uint32{3, 3, 20, 5, 0, 25}, el.Weights)
	assert.Equal(t, "real", must(readString(t, "r.mtx", content, ReadOptions{})).Field)

	// Float32 reads the same integers as floats.
	el, _, err = readString(t, "r.mtx", content, ReadOptions{WeightType: WeightsFloat32})
	require.NoError(t, err)
	assert.Equal(t, graph.Float32Weights, el.WeightKind)
	assert.Equal(t, []float32{3, 3, 20, 5, 0, 25}, floats(el.Weights))
}

// floats views float32 weight bits as floats (a copy).
func floats(bits []uint32) []float32 {
	out := make([]float32, len(bits))
	for i, b := range bits {
		out[i] = math.Float32frombits(b)
	}
	return out
}

// TestFloatWeightsAutoSwitchAcrossChunks reads a weighted edge list whose
// one fractional weight comes late, in tiny blocks on several workers:
// every chunk's integers before it become float32 too, and the result is
// the same as reading the file as float32 from the start.
func TestFloatWeightsAutoSwitchAcrossChunks(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&b, "%d %d %d\n", i, i+1, 16777217+i) // above 2^24: rounded as float32
	}
	b.WriteString("7 8 0.1\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "%d %d %d\n", i+1, i, i)
	}
	restore := setTuning(64, 16)
	defer restore()
	auto, _, err := Read(context.Background(), strings.NewReader(b.String()), "x.wel", ReadOptions{Workers: 3})
	require.NoError(t, err)
	f32, _, err := Read(context.Background(), strings.NewReader(b.String()), "x.wel", ReadOptions{Workers: 3, WeightType: WeightsFloat32})
	require.NoError(t, err)
	assert.Equal(t, graph.Float32Weights, auto.WeightKind)
	assert.Equal(t, f32.Weights, auto.Weights)
	assert.Equal(t, float32(16777217), math.Float32frombits(auto.Weights[0])) // 16777216: the nearest float32
	assert.Equal(t, float32(0.1), math.Float32frombits(auto.Weights[500]))
	_, _, err = Read(context.Background(), strings.NewReader(b.String()), "x.wel", ReadOptions{Workers: 3, WeightType: WeightsUint32})
	assert.ErrorContains(t, err, "x.wel: line 501: weight is not a number")
}

func TestParseFloat32(t *testing.T) {
	good := map[string]float32{"0": 0, "-0": 0, "-0.0e5": 0, "3": 3, "3.": 3, ".5": 0.5, "+2.5e-1": 0.25, "0.1": 0.1,
		"1e-50": 0, "3.4028235e38": math.MaxFloat32, "16777217": 16777216, "1.401298464324817e-45": math.SmallestNonzeroFloat32}
	for s, want := range good {
		bits, code := parseFloat32([]byte(s))
		assert.Equal(t, codeNone, code, s)
		assert.Equal(t, math.Float32bits(want), bits, s) // -0 stored as +0
	}
	bad := map[string]errCode{"-1": codeNegWeight, "-1e-3": codeNegWeight, "-inf": codeNegWeight, "nan": codeNaNWeight,
		"NaN": codeNaNWeight, "inf": codeInfWeight, "+Infinity": codeInfWeight, "3.5e38": codeFloatRange, "1e99999": codeFloatRange,
		"": codeNotNumber, ".": codeNotNumber, "e5": codeNotNumber, "1e": codeNotNumber, "0x1p3": codeNotNumber, "1_0": codeNotNumber,
		"1.5.": codeNotNumber, "infx": codeNotNumber, "--1": codeNotNumber}
	for s, want := range bad {
		_, code := parseFloat32([]byte(s))
		assert.Equal(t, want, code, s)
	}
}

func must(_ *graph.EdgeList, info *Info, err error) *Info {
	if err != nil {
		panic(err)
	}
	return info
}

func TestParseIntegralReal(t *testing.T) {
	good := map[string]uint64{"0": 0, "3": 3, "3.": 3, "3.000": 3, ".3e1": 3, "3e0": 3, "30e-1": 3, "+7": 7, "-0": 0,
		"-0.0e5": 0, "4294967295": 4294967295, "4.294967295e9": 4294967295, "1e9": 1000000000, "0e99999999": 0, "0.0": 0}
	for s, want := range good {
		v, code := parseIntegralReal([]byte(s))
		assert.Equal(t, codeNone, code, s)
		assert.Equal(t, want, v, s)
	}
	bad := map[string]errCode{"0.5": codeBadReal, "3.1": codeBadReal, "1e-1": codeBadReal, "-1": codeNegWeight, "-1.5e3": codeNegWeight,
		"4294967296": codeOverflow, "1e10": codeOverflow, "1e999999999": codeOverflow, "nan": codeNotNumber, "inf": codeNotNumber,
		"": codeNotNumber, ".": codeNotNumber, "1e": codeNotNumber, "1.2.3": codeNotNumber, "e5": codeNotNumber, "0x10": codeNotNumber}
	for s, want := range bad {
		_, code := parseIntegralReal([]byte(s))
		assert.Equal(t, want, code, s)
	}
}

func TestEdgeListHandWritten(t *testing.T) {
	content := "# comment\n% other comment\n\n0 1\n1\t2\r\n  3 0  \n\t# late comment\n5 5"
	el, info, err := readString(t, "g.el", content, ReadOptions{})
	require.NoError(t, err)
	assert.True(t, el.Directed)
	assert.Equal(t, uint64(6), el.NumVertices)
	assert.Equal(t, []arc{{0, 1, 0}, {1, 2, 0}, {3, 0, 0}, {5, 5, 0}}, inOrder(el))
	assert.Equal(t, uint64(4), info.Entries)
	assert.Equal(t, uint64(0), info.DeclaredVertices)

	// SNAP's "# Nodes:" comment keeps isolated vertices; Undirected adds
	// reverse arcs but not for self-loops.
	el, info, err = readString(t, "g.txt", "# Directed graph\n# Nodes: 10 Edges: 2\n0 1\n2 2\n", ReadOptions{Undirected: true})
	require.NoError(t, err)
	assert.False(t, el.Directed)
	assert.Equal(t, uint64(10), el.NumVertices)
	assert.Equal(t, uint64(10), info.DeclaredVertices)
	assert.Equal(t, []arc{{0, 1, 0}, {1, 0, 0}, {2, 2, 0}}, inOrder(el))

	// Ids beyond the declared count win.
	el, _, err = readString(t, "g.el", "# Nodes: 2\n0 7\n", ReadOptions{})
	require.NoError(t, err)
	assert.Equal(t, uint64(8), el.NumVertices)

	// A third column is allowed only when ignoring weights.
	el, _, err = readString(t, "g.el", "0 1 17 99\n1 0 3\n", ReadOptions{IgnoreWeights: true})
	require.NoError(t, err)
	assert.Equal(t, []arc{{0, 1, 0}, {1, 0, 0}}, inOrder(el))

	// Empty input: an empty graph.
	el, _, err = readString(t, "empty.el", "", ReadOptions{})
	require.NoError(t, err)
	assert.Equal(t, uint64(0), el.NumVertices)
	assert.Empty(t, el.Src)
}

func TestWeightedEdgeListHandWritten(t *testing.T) {
	content := "# w\n0 1 5\n1\t0\t4294967295\r\n2 2 0"
	el, info, err := readString(t, "g.wel", content, ReadOptions{})
	require.NoError(t, err)
	assert.Equal(t, uint64(3), el.NumVertices)
	assert.Equal(t, []arc{{0, 1, 5}, {1, 0, 4294967295}, {2, 2, 0}}, inOrder(el))
	assert.True(t, info.Weighted)
	el, _, err = readString(t, "g.wel", content, ReadOptions{IgnoreWeights: true})
	require.NoError(t, err)
	assert.Nil(t, el.Weights)
}

func TestDIMACSHandWritten(t *testing.T) {
	content := "c 9th DIMACS\nc\np sp 4 3\nc between\na 1 2 10\n\na 3 1 0\r\na\t4\t4\t7"
	el, info, err := readString(t, "g.gr", content, ReadOptions{})
	require.NoError(t, err)
	assert.True(t, el.Directed)
	assert.Equal(t, uint64(4), el.NumVertices)
	assert.Equal(t, []arc{{0, 1, 10}, {2, 0, 0}, {3, 3, 7}}, inOrder(el))
	assert.Equal(t, Info{Format: DIMACS, Compression: "none", Bytes: int64(len(content)), DeclaredVertices: 4, Entries: 3, Weighted: true}, *info)

	el, _, err = readString(t, "g.gr", content, ReadOptions{Undirected: true, IgnoreWeights: true})
	require.NoError(t, err)
	assert.False(t, el.Directed)
	assert.Nil(t, el.Weights)
	assert.Equal(t, []arc{{0, 1, 0}, {1, 0, 0}, {2, 0, 0}, {0, 2, 0}, {3, 3, 0}}, inOrder(el))
}

func TestSniffing(t *testing.T) {
	cases := map[string]Format{
		"%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n": MatrixMarket,
		"c x\np sp 2 1\na 1 2 3\n":                                       DIMACS,
		"# x\n0 1\n":                                                     EdgeList,
		"0 1 5\n":                                                        WeightedEdgeList,
	}
	for content, want := range cases {
		_, info, err := readString(t, "stdin", content, ReadOptions{})
		require.NoError(t, err, content)
		assert.Equal(t, want, info.Format, content)
	}
	var buf bytes.Buffer
	require.NoError(t, Write(context.Background(), &buf, randomList(1, 10, 20, false, true), WriteOptions{Format: Binary}))
	_, info, err := Read(context.Background(), &buf, "stdin", ReadOptions{})
	require.NoError(t, err)
	assert.Equal(t, Binary, info.Format)
}

// TestRoundTrip writes and reads back every format, weighted and not,
// directed and undirected, plain and compressed, with no reading options:
// every file reads back as the graph written (arcs, weights where the
// format has them, vertex count and direction).
func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, fm := range []Format{MatrixMarket, EdgeList, WeightedEdgeList, DIMACS, Binary, GAPBS, GAPBSWeighted} {
		for _, weighted := range []bool{false, true} {
			for _, directed := range []bool{true, false} {
				for _, comp := range []string{"", ".gz", ".zst"} {
					name := fmt.Sprintf("g-%v-w%v-d%v.%v%s", fm, weighted, directed, fm, comp)
					t.Run(name, func(t *testing.T) {
						el := randomList(uint64(len(name)), 500, 3000, weighted, directed)
						if fm == GAPBSWeighted {
							for i := range el.Weights { // GAPBS's weights are int32
								el.Weights[i] &= math.MaxInt32
							}
						}
						path := filepath.Join(dir, name)
						require.NoError(t, WriteFile(context.Background(), path, el, WriteOptions{CompressionLevel: 3}))
						// No reading options: the file alone says what it holds
						// (an undirected edge list or DIMACS file is marked).
						got, info, err := ReadFile(context.Background(), path, ReadOptions{})
						require.NoError(t, err)
						require.NoError(t, got.Validate())
						assert.Equal(t, el.NumVertices, got.NumVertices)
						assert.Equal(t, el.Directed, got.Directed)
						wantComp := map[string]string{"": "none", ".gz": "gzip", ".zst": "zstd"}[comp]
						assert.Equal(t, wantComp, info.Compression)
						st, err := os.Stat(path)
						require.NoError(t, err)
						assert.Equal(t, st.Size(), info.Bytes)
						switch {
						case fm == EdgeList || fm == GAPBS:
							assert.Nil(t, got.Weights)
							assert.Equal(t, arcs(el, false), arcs(got, false))
						case !weighted && (fm == WeightedEdgeList || fm == DIMACS || fm == GAPBSWeighted):
							assert.Equal(t, arcs(el, false), arcs(got, false))
							for _, w := range got.Weights {
								require.Equal(t, uint32(1), w)
							}
						default:
							assert.Equal(t, weighted, got.Weighted())
							assert.Equal(t, arcs(el, true), arcs(got, true))
						}
						// No temporary files left behind.
						left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*"))
						assert.Empty(t, left)
					})
				}
			}
		}
	}
}

// randomFloatList is randomList with float32 weights: random bit patterns
// of valid weights (every exponent, subnormals included) and awkward
// values (0, the extremes, decimals without an exact float32), or, with
// integral, integers only (which only the writers' marker keeps float32).
func randomFloatList(seed uint64, n uint64, m int, directed, integral bool) *graph.EdgeList {
	rng := rand.New(rand.NewPCG(seed, 2))
	el := randomList(seed, n, m, true, true)
	el.WeightKind = graph.Float32Weights
	special := []float32{0, math.SmallestNonzeroFloat32, math.MaxFloat32, 0.1, 1.0 / 3, 16777217, 1e-38, 2.5}
	for i := range el.Weights {
		switch {
		case integral:
			el.Weights[i] = math.Float32bits(float32(rng.IntN(1000)))
		case rng.IntN(4) == 0:
			el.Weights[i] = math.Float32bits(special[rng.IntN(len(special))])
		default:
			el.Weights[i] = uint32(rng.Uint64N(graph.MaxFloat32Bits + 1))
		}
	}
	if !directed {
		el.Symmetrize(2)
	}
	return el
}

// TestRoundTripFloat32 writes float32 weights in every format that holds
// weights and reads them back with the default options: the same bits,
// and the weight type float32 even when every weight is an integer.
func TestRoundTripFloat32(t *testing.T) {
	dir := t.TempDir()
	for _, fm := range []Format{MatrixMarket, WeightedEdgeList, DIMACS, Binary} {
		for _, integral := range []bool{false, true} {
			for _, directed := range []bool{true, false} {
				for _, comp := range []string{"", ".zst"} {
					name := fmt.Sprintf("f-%v-i%v-d%v.%v%s", fm, integral, directed, fm, comp)
					t.Run(name, func(t *testing.T) {
						el := randomFloatList(uint64(len(name))*7, 300, 2000, directed, integral)
						require.NoError(t, el.Validate())
						path := filepath.Join(dir, name)
						require.NoError(t, WriteFile(context.Background(), path, el, WriteOptions{Workers: 3}))
						got, info, err := ReadFile(context.Background(), path, ReadOptions{Workers: 2})
						require.NoError(t, err)
						require.NoError(t, got.Validate())
						assert.Equal(t, graph.Float32Weights, got.WeightKind)
						assert.Equal(t, graph.Float32Weights, info.WeightKind)
						assert.Equal(t, el.Directed, got.Directed)
						assert.Equal(t, arcs(el, true), arcs(got, true))
						// Asked for uint32, only the integral ones read.
						got, _, err = ReadFile(context.Background(), path, ReadOptions{WeightType: WeightsUint32})
						if integral {
							require.NoError(t, err)
							assert.Equal(t, graph.Uint32Weights, got.WeightKind)
							want := el.Clone()
							require.NoError(t, want.ConvertWeights(graph.Uint32Weights, 1))
							assert.Equal(t, arcs(want, true), arcs(got, true))
						} else {
							require.Error(t, err)
							assert.ErrorIs(t, err, ErrFormat)
						}
					})
				}
			}
		}
	}
	el := randomFloatList(3, 50, 100, true, false)
	err := WriteFile(context.Background(), filepath.Join(dir, "f.wsg"), el, WriteOptions{})
	assert.ErrorContains(t, err, "float32")
	// Integer files read as float32 on request.
	iel := randomList(5, 50, 200, true, true)
	path := filepath.Join(dir, "i.mgb")
	require.NoError(t, WriteFile(context.Background(), path, iel, WriteOptions{}))
	got, _, err := ReadFile(context.Background(), path, ReadOptions{WeightType: WeightsFloat32})
	require.NoError(t, err)
	assert.Equal(t, graph.Float32Weights, got.WeightKind)
	want := iel.Clone()
	require.NoError(t, want.ConvertWeights(graph.Float32Weights, 1))
	assert.Equal(t, arcs(want, true), arcs(got, true))
}

func TestBinaryRefusesBadFloat32Weights(t *testing.T) {
	el := randomFloatList(9, 20, 40, true, false)
	var buf bytes.Buffer
	require.NoError(t, Write(context.Background(), &buf, el, WriteOptions{Format: Binary}))
	good := buf.Bytes()
	got, _, err := Read(context.Background(), bytes.NewReader(good), "ok.mgb", ReadOptions{})
	require.NoError(t, err)
	assert.Equal(t, graph.Float32Weights, got.WeightKind)
	for _, bad := range []float32{-1, float32(math.Inf(1)), float32(math.NaN()), float32(math.Copysign(0, -1))} {
		b := bytes.Clone(good)
		// The last weight, then its section's checksum, then the header's.
		binary.LittleEndian.PutUint32(b[len(b)-4:], math.Float32bits(bad))
		m := len(el.Src)
		binary.LittleEndian.PutUint32(b[40:], crc32.Checksum(b[len(b)-4*m:], crc32.MakeTable(crc32.Castagnoli)))
		binary.LittleEndian.PutUint32(b[60:], crc32.Checksum(b[:60], crc32.MakeTable(crc32.Castagnoli)))
		_, _, err := Read(context.Background(), bytes.NewReader(b), "bad.mgb", ReadOptions{})
		require.Error(t, err, bad)
		assert.ErrorIs(t, err, ErrFormat)
		assert.ErrorContains(t, err, fmt.Sprintf("bad.mgb: binary graph of float32 weights: arc %d", m-1))
	}
	// The float32 flag without weights.
	b := bytes.Clone(good[:64])
	binary.LittleEndian.PutUint32(b[12:], 1<<2)
	binary.LittleEndian.PutUint32(b[60:], crc32.Checksum(b[:60], crc32.MakeTable(crc32.Castagnoli)))
	_, _, err = Read(context.Background(), bytes.NewReader(b), "flag.mgb", ReadOptions{})
	assert.ErrorContains(t, err, "float32 weights but no weights")
}

func TestWriteReadStreams(t *testing.T) {
	el := randomList(7, 100, 400, true, false)
	for _, fm := range []Format{MatrixMarket, WeightedEdgeList, DIMACS, Binary} {
		var buf bytes.Buffer
		require.NoError(t, Write(context.Background(), &buf, el, WriteOptions{Format: fm, Workers: 3}))
		got, _, err := Read(context.Background(), &buf, "stream", ReadOptions{Format: fm, Undirected: true})
		require.NoError(t, err, fm)
		assert.Equal(t, arcs(el, true), arcs(got, true), fm)
	}
	assert.ErrorContains(t, Write(context.Background(), io_discard{}, el, WriteOptions{}), "format")
	// Undirected lists must be symmetric.
	bad := &graph.EdgeList{NumVertices: 3, Src: []uint32{0}, Dst: []uint32{1}}
	assert.ErrorContains(t, Write(context.Background(), io_discard{}, bad, WriteOptions{Format: MatrixMarket}), "not symmetric")
	asym := &graph.EdgeList{NumVertices: 3, Src: []uint32{0, 1}, Dst: []uint32{1, 0}, Weights: []uint32{4, 5}}
	assert.ErrorContains(t, Write(context.Background(), io_discard{}, asym, WriteOptions{Format: WeightedEdgeList}), "not symmetric")
	// Invalid lists are refused.
	bad = &graph.EdgeList{NumVertices: 1, Src: []uint32{0}, Dst: []uint32{1}, Directed: true}
	assert.Error(t, Write(context.Background(), io_discard{}, bad, WriteOptions{Format: EdgeList}))
}

type io_discard struct{}

func (io_discard) Write(p []byte) (int, error) { return len(p), nil }

// TestMatrixMarketWriterOutput checks the exact text of a small file.
func TestMatrixMarketWriterOutput(t *testing.T) {
	el := &graph.EdgeList{NumVertices: 3, Src: []uint32{0, 1, 2, 1}, Dst: []uint32{1, 0, 2, 2}, Directed: false}
	el.Src, el.Dst = append(el.Src, 2), append(el.Dst, 1)
	var buf bytes.Buffer
	require.NoError(t, Write(context.Background(), &buf, el, WriteOptions{Format: MatrixMarket}))
	lines := strings.Split(buf.String(), "\n")
	assert.Equal(t, "%%MatrixMarket matrix coordinate pattern symmetric", lines[0])
	assert.Contains(t, lines[1], "written by mgraph")
	assert.Equal(t, []string{"3 3 3", "2 1", "3 3", "3 2", ""}, lines[2:])
}

func TestBlockAndChunkBoundaries(t *testing.T) {
	// The same files parsed with tiny blocks and chunks on several
	// workers give the same lists and the same error lines.
	el := randomList(3, 5000, 20000, true, true)
	for _, fm := range []Format{MatrixMarket, EdgeList, WeightedEdgeList, DIMACS} {
		var buf bytes.Buffer
		require.NoError(t, Write(context.Background(), &buf, el, WriteOptions{Format: fm}))
		content := strings.ReplaceAll(buf.String(), "\n", "\r\n")
		want, _, err := readString(t, "x", content, ReadOptions{Format: fm})
		require.NoError(t, err)
		restore := setTuning(97, 13)
		for _, workers := range []int{1, 3, 8} {
			got, _, err := readString(t, "x", content, ReadOptions{Format: fm, Workers: workers})
			require.NoError(t, err)
			assert.Equal(t, inOrder(want), inOrder(got))
		}
		// An error on line 15001 is reported there.
		lines := strings.SplitAfter(content, "\n")
		head := map[Format]int{MatrixMarket: 3, EdgeList: 2, WeightedEdgeList: 2, DIMACS: 2}[fm]
		lines[15000] = "1 x 3\r\n"
		if fm == DIMACS {
			lines[15000] = "a 1 x 3\r\n"
		}
		require.Greater(t, 15000, head)
		_, _, err = readString(t, "x", strings.Join(lines, ""), ReadOptions{Format: fm, Workers: 3})
		assert.ErrorContains(t, err, "x: line 15001: ")
		restore()
		_, _, err = readString(t, "x", strings.Join(lines, ""), ReadOptions{Format: fm})
		assert.ErrorContains(t, err, "x: line 15001: ")
	}
}

func TestLongLine(t *testing.T) {
	defer func(l int) { maxLineLen = l }(maxLineLen)
	maxLineLen = 100
	restore := setTuning(64, 16)
	defer restore()
	_, _, err := readString(t, "long.el", "0 1\n1 2\n"+strings.Repeat("7", 500)+"\n", ReadOptions{})
	assert.ErrorContains(t, err, "long.el: line 3: line longer than 100 bytes")
	// Lines longer than a block but within the limit are fine.
	el, _, err := readString(t, "ok.el", "0 1\n# "+strings.Repeat("c", 90)+"\n1 2\n", ReadOptions{})
	require.NoError(t, err)
	assert.Len(t, el.Src, 2)
}

func TestContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := Read(ctx, strings.NewReader("0 1\n"), "x.el", ReadOptions{})
	assert.ErrorIs(t, err, context.Canceled)
	dir := t.TempDir()
	err = WriteFile(ctx, filepath.Join(dir, "x.el"), randomList(1, 10, 10, false, true), WriteOptions{})
	assert.ErrorIs(t, err, context.Canceled)
	left, _ := os.ReadDir(dir)
	assert.Empty(t, left)
}

func TestWriteFileAtomicOnError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "g.mtx")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	bad := &graph.EdgeList{NumVertices: 1, Src: []uint32{3}, Dst: []uint32{0}, Directed: true}
	require.Error(t, WriteFile(context.Background(), path, bad, WriteOptions{}))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "old", string(b))
	ents, _ := os.ReadDir(dir)
	assert.Len(t, ents, 1)
	assert.Error(t, WriteFile(context.Background(), filepath.Join(dir, "g.unknown"), bad, WriteOptions{}))
}

func TestErrorsAreTyped(t *testing.T) {
	_, _, err := readString(t, "a.mtx", "%%MatrixMarket matrix array real general\n", ReadOptions{})
	assert.ErrorIs(t, err, ErrUnsupported)
	var fe *Error
	require.True(t, errors.As(err, &fe))
	assert.Equal(t, "a.mtx", fe.File)
	assert.Equal(t, int64(1), fe.Line)
	_, _, err = readString(t, "a.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 1\n", ReadOptions{})
	assert.ErrorIs(t, err, ErrTruncated)
	assert.ErrorIs(t, err, ErrFormat)
}
