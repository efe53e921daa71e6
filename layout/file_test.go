package layout_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
)

func save(t testing.TB, l *layout.Layout, opts layout.SaveOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, layout.Save(&buf, l, opts))
	return buf.Bytes()
}

// smallFile is a saved layout of a tiny weighted graph with heavy and light
// blocks, small enough to corrupt at every byte.
func smallFile(t testing.TB) ([]byte, *layout.Layout) {
	t.Helper()
	el := arcs(20,
		[3]uint32{1, 0, 1}, [3]uint32{2, 0, 2}, [3]uint32{3, 0, 3}, [3]uint32{4, 0, 4}, [3]uint32{5, 0, 5},
		[3]uint32{9, 17, 6}, [3]uint32{17, 9, 7}, [3]uint32{19, 3, 8}, [3]uint32{12, 12, 9})
	p := layout.Params{PanelSize: 8, HeavyThreshold: 3, HeavyColumns: 2, SegmentSize: 1, GroupThresholds: []uint64{4, 2, 1}, HighGroups: 1}
	l := build(t, el, p)
	require.NotEmpty(t, l.HeavyRow)
	require.NotEmpty(t, l.LightSrc)
	require.NotEmpty(t, l.SegmentSplit)
	return save(t, l, layout.SaveOptions{}), l
}

func TestSaveLoadRoundTrip(t *testing.T) {
	rl, _ := rmatLayout(t, true)
	ul, _ := rmatLayout(t, false)
	_, sl := smallFile(t)
	empty := build(t, &graph.EdgeList{}, layout.DefaultParams())
	fel, err := gen.RMAT(context.Background(), gen.DefaultRMAT(10, 8), 0, nil)
	require.NoError(t, err)
	fel.Symmetrize(0)
	fel.SetRandomFloat32Weights(4, 0)
	fl := build(t, fel, smallParams())
	require.Equal(t, graph.Float32Weights, fl.WeightKind)
	for name, l := range map[string]*layout.Layout{"rmat-weighted": rl, "rmat": ul, "small": sl, "empty": empty, "rmat-float32": fl} {
		t.Run(name, func(t *testing.T) {
			for _, level := range []int{1, 3, 9} {
				b := save(t, l, layout.SaveOptions{Level: level})
				got, err := layout.Load(bytes.NewReader(b))
				require.NoError(t, err)
				assert.Equal(t, l, got)
				assert.Equal(t, b, save(t, got, layout.SaveOptions{Level: level}), "Save(Load(Save(x))) != Save(x)")
				// A reader that cannot seek takes the other path.
				got2, err := layout.Load(struct{ io.Reader }{bytes.NewReader(b)})
				require.NoError(t, err)
				assert.Equal(t, l, got2)
				// And a writer that cannot seek buffers.
				var buf bytes.Buffer
				require.NoError(t, layout.Save(struct{ io.Writer }{&buf}, l, layout.SaveOptions{Level: level}))
				assert.Equal(t, b, buf.Bytes())
			}
		})
	}
}

func TestSaveFileIsAtomic(t *testing.T) {
	_, l := smallFile(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "g.mgl")
	require.NoError(t, layout.SaveFile(path, l, layout.SaveOptions{}))
	got, err := layout.LoadFile(path)
	require.NoError(t, err)
	assert.Equal(t, l, got)
	ok, err := layout.IsLayoutFile(path)
	require.NoError(t, err)
	assert.True(t, ok)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file left behind")

	// A layout that fails its shape check is never written.
	bad := clone(t, l)
	bad.Perm = bad.Perm[1:]
	require.Error(t, layout.SaveFile(filepath.Join(dir, "bad.mgl"), bad, layout.SaveOptions{}))
	entries, err = os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1)
	assert.Error(t, layout.SaveFile(filepath.Join(dir, "no/such/dir/x.mgl"), l, layout.SaveOptions{}))
	assert.Error(t, layout.SaveFile(path, l, layout.SaveOptions{Level: 23}))
	got, err = layout.LoadFile(path) // the failed save left the old file intact
	require.NoError(t, err)
	assert.Equal(t, l, got)
}

func TestEveryByteFlipIsDetected(t *testing.T) {
	b, _ := smallFile(t)
	t.Logf("file of %d bytes", len(b))
	for i := range b {
		for _, mask := range []byte{0x01, 0x80, 0xff} {
			c := bytes.Clone(b)
			c[i] ^= mask
			l, err := layout.Load(bytes.NewReader(c))
			require.Error(t, err, "flip %#x at byte %d not detected", mask, i)
			require.Nil(t, l)
			assert.ErrorIs(t, err, layout.ErrFormat)
		}
		// The non-seeking path too (it checks sizes later).
		c := bytes.Clone(b)
		c[i] ^= 0x10
		_, err := layout.Load(struct{ io.Reader }{bytes.NewReader(c)})
		require.Error(t, err, "flip at byte %d not detected without seeking", i)
	}
}

func TestTruncationIsDetected(t *testing.T) {
	b, _ := smallFile(t)
	for n := 0; n < len(b); n++ {
		_, err := layout.Load(bytes.NewReader(b[:n]))
		require.Error(t, err, "truncation to %d bytes not detected", n)
		assert.ErrorIs(t, err, layout.ErrFormat)
		_, err = layout.Load(struct{ io.Reader }{bytes.NewReader(b[:n])})
		require.Error(t, err, "truncation to %d bytes not detected without seeking", n)
	}
	_, err := layout.Load(bytes.NewReader(append(bytes.Clone(b), 0)))
	assert.ErrorContains(t, err, "trailing")
	_, err = layout.Load(struct{ io.Reader }{bytes.NewReader(append(bytes.Clone(b), 0))})
	assert.ErrorContains(t, err, "trailing")
}

// rewriteHeader applies mod to the header of a saved file and fixes the
// header checksum, as a buggy or hostile writer would.
func rewriteHeader(b []byte, mod func(h []byte)) []byte {
	c := bytes.Clone(b)
	hlen := binary.LittleEndian.Uint32(c[12:])
	mod(c[:hlen])
	binary.LittleEndian.PutUint32(c[hlen-4:], crc32.Checksum(c[:hlen-4], crc32.MakeTable(crc32.Castagnoli)))
	return c
}

func TestOldVersionRejected(t *testing.T) {
	b, _ := smallFile(t)
	for _, v := range []uint32{0, 2, 0xffffffff} {
		c := rewriteHeader(b, func(h []byte) { binary.LittleEndian.PutUint32(h[8:], v) })
		_, err := layout.Load(bytes.NewReader(c))
		require.Error(t, err)
		assert.ErrorIs(t, err, layout.ErrVersion)
		assert.ErrorIs(t, err, layout.ErrFormat)
		assert.Contains(t, err.Error(), "version")
		t.Log(err)
	}
	_, err := layout.Load(bytes.NewReader([]byte("PK\x03\x04 this is a zip file")))
	assert.ErrorContains(t, err, "not a layout file")
}

func TestHostileHeaderDoesNotAllocate(t *testing.T) {
	b, _ := smallFile(t)
	// Offsets: n at 24, m at 32, panel at 40. A header with a valid
	// checksum that claims a huge graph must be refused from the sizes.
	for name, mod := range map[string]func(h []byte){
		"huge n": func(h []byte) { binary.LittleEndian.PutUint64(h[24:], 1<<31) },
		"huge m": func(h []byte) { binary.LittleEndian.PutUint64(h[32:], 1<<40) },
		"panel":  func(h []byte) { binary.LittleEndian.PutUint32(h[40:], 0) },
		"flags":  func(h []byte) { h[16] = 0xf },
		"float":  func(h []byte) { h[16] = 0x4 },
		"chunk":  func(h []byte) { binary.LittleEndian.PutUint32(h[20:], 1) },
		"k":      func(h []byte) { binary.LittleEndian.PutUint32(h[64:], 1000) },
		"sections": func(h []byte) {
			binary.LittleEndian.PutUint32(h[68:], 3)
		},
	} {
		c := rewriteHeader(b, mod)
		_, err := layout.Load(bytes.NewReader(c))
		require.Error(t, err, name)
		_, err = layout.Load(struct{ io.Reader }{bytes.NewReader(c)})
		require.Error(t, err, name)
		t.Logf("%s: %v", name, err)
	}
}

// TestFloat32FlagAndWeights: the float32 flag needs weights, and a float32
// layout whose weights are not valid float32 weights is refused.
func TestFloat32FlagAndWeights(t *testing.T) {
	b, _ := smallFile(t)
	_, err := layout.Load(bytes.NewReader(rewriteHeader(b, func(h []byte) { h[16] = 0x4 })))
	assert.ErrorContains(t, err, "float32 weights without weights")
	el := arcs(4, [3]uint32{0, 1, 0x3f800000}, [3]uint32{1, 2, 0xbf800000})
	el.WeightKind = graph.Float32Weights
	_, err = preprocess.Build(context.Background(), el, layout.DefaultParams(), preprocess.Options{})
	assert.ErrorContains(t, err, "arc 1 (1→2): weight -1")
	el.Weights[1] = 0x40000000 // 2.0
	l := build(t, el, layout.DefaultParams())
	other := el.Clone()
	require.NoError(t, other.ConvertWeights(graph.Uint32Weights, 1))
	assert.ErrorContains(t, layout.Validate(l, other), "weight type float32 but the input graph's is uint32")
	got, err := layout.Load(bytes.NewReader(save(t, l, layout.SaveOptions{})))
	require.NoError(t, err)
	assert.Equal(t, graph.Float32Weights, got.WeightKind)
}

func TestSizes(t *testing.T) {
	el, err := gen.Grid(context.Background(), 30, 30, 0, 1, 0, nil)
	require.NoError(t, err)
	l := build(t, el, smallParams())
	secs := l.Sections()
	require.Len(t, secs, 26)
	var sum uint64
	for _, s := range secs {
		assert.Equal(t, s.Len*uint64(s.ElemBytes), s.Bytes, s.Name)
		sum += s.Bytes
	}
	assert.Equal(t, sum, l.Footprint())
	assert.Equal(t, (l.NumVertices+1)*8+l.NumArcs*4, l.CSRBytes())
	assert.InDelta(t, float64(sum)/float64(l.CSRBytes()), l.FootprintRatio(), 1e-12)
	assert.Equal(t, sum, l.DenseBytes()+l.SparseBytes()+uint64(len(l.Perm)+len(l.InvPerm))*4+uint64(len(l.GroupStart))*8)
	st := l.Stats()
	assert.Equal(t, l.NumArcs, st.HeavyEdges+st.LightEdges)
	assert.Equal(t, l.NumSlots(), st.Slots)
}
