package format

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mgraph-dev/mgraph/graph"
)

const (
	mmPattern = "%%MatrixMarket matrix coordinate pattern general\n"
	mmInteger = "%%MatrixMarket matrix coordinate integer general\n"
	mmReal    = "%%MatrixMarket matrix coordinate real general\n"
)

// malformed is one bad input: its file name (which picks the format), its
// content, the options, and what the error must say.
type malformed struct {
	file    string
	content string
	opts    ReadOptions
	line    int    // 0: the error names no line
	phrase  string // must appear in the error
	kind    error  // nil: ErrFormat
}

var malformedTable = []malformed{
	// Matrix Market headers.
	{file: "empty.mtx", content: "", line: 1, phrase: "missing %%MatrixMarket header"},
	{file: "nobanner.mtx", content: "1 2 3\n1 1\n", line: 1, phrase: "missing %%MatrixMarket header"},
	{file: "short.mtx", content: "%%MatrixMarket matrix coordinate\n", line: 1, phrase: "header should read"},
	{file: "array.mtx", content: "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", line: 1, phrase: "unsupported Matrix Market format \"array\"", kind: ErrUnsupported},
	{file: "complex.mtx", content: "%%MatrixMarket matrix coordinate complex general\n", line: 1, phrase: "\"complex\"", kind: ErrUnsupported},
	{file: "herm.mtx", content: "%%MatrixMarket matrix coordinate real hermitian\n", line: 1, phrase: "unsupported Matrix Market symmetry", kind: ErrUnsupported},
	{file: "skew.mtx", content: "%%MatrixMarket matrix coordinate integer skew-symmetric\n", line: 1, phrase: "skew-symmetric", kind: ErrUnsupported},
	{file: "vector.mtx", content: "%%MatrixMarket vector coordinate real general\n", line: 1, phrase: "object", kind: ErrUnsupported},
	{file: "field.mtx", content: "%%MatrixMarket matrix coordinate double general\n", line: 1, phrase: "unknown Matrix Market field"},
	{file: "nosize.mtx", content: mmPattern + "% only comments\n", line: 3, phrase: "missing size line", kind: ErrTruncated},
	{file: "size2.mtx", content: mmPattern + "3 3\n", line: 2, phrase: "size line should read"},
	{file: "sizex.mtx", content: mmPattern + "3 x 3\n", line: 2, phrase: "\"x\" is not a non-negative integer"},
	{file: "sizeneg.mtx", content: mmPattern + "3 3 -1\n", line: 2, phrase: "not a non-negative integer"},
	{file: "hugennz.mtx", content: mmPattern + "3 3 1000000000000000\n1 1\n", line: 2, phrase: "more than the"},
	{file: "hugenv.mtx", content: mmPattern + "5000000000 5 1\n1 1\n", line: 2, phrase: "at most 4294967296"},
	{file: "nonsquare.mtx", content: "%%MatrixMarket matrix coordinate pattern symmetric\n3 4 1\n1 1\n", line: 2, phrase: "must be square"},
	{file: "emptymat.mtx", content: mmPattern + "0 0 1\n1 1\n", line: 2, phrase: "empty 0×0 matrix"},
	// Matrix Market entries.
	{file: "few.mtx", content: mmPattern + "3 3 3\n1 1\n2 2\n", line: 4, phrase: "truncated: expected 3 entries, found 2", kind: ErrTruncated},
	{file: "many.mtx", content: mmPattern + "3 3 1\n1 1\n% c\n2 2\n", line: 5, phrase: "more entries than the 1 declared"},
	{file: "zero.mtx", content: mmPattern + "3 3 2\n1 1\n0 1\n", line: 4, phrase: "row index 0, but ids in this format start at 1"},
	{file: "zerocol.mtx", content: mmPattern + "3 3 2\n1 1\n1 0\n", line: 4, phrase: "column index 0"},
	{file: "rowrange.mtx", content: mmPattern + "3 3 1\n4 1\n", line: 3, phrase: "index 4 is beyond the 3 rows"},
	{file: "colrange.mtx", content: mmPattern + "3 2 1\n1 3\n", line: 3, phrase: "index 3 is beyond the 2 columns"},
	{file: "nonnum.mtx", content: mmPattern + "3 3 1\n1 x\n", line: 3, phrase: "column index is not a non-negative integer"},
	{file: "suffix.mtx", content: mmPattern + "3 3 1\n1 2x\n", line: 3, phrase: "not a non-negative integer"},
	{file: "oneField.mtx", content: mmPattern + "3 3 1\n1\n", line: 3, phrase: "too few fields (want 2)"},
	{file: "extra.mtx", content: mmPattern + "3 3 1\n1 2 3\n", line: 3, phrase: "too many fields (want 2)"},
	{file: "bigid.mtx", content: mmPattern + "3 3 1\n99999999999 1\n", line: 3, phrase: "row index does not fit in 32 bits"},
	{file: "noval.mtx", content: mmInteger + "3 3 1\n1 2\n", line: 3, phrase: "too few fields (want 3)"},
	{file: "negint.mtx", content: mmInteger + "3 3 2\n1 2 1\n1 3 -4\n", line: 4, phrase: "negative value"},
	{file: "bigint.mtx", content: mmInteger + "3 3 1\n1 2 4294967296\n", line: 3, phrase: "value does not fit in 32 bits"},
	{file: "realint.mtx", content: mmInteger + "3 3 1\n1 2 1.5\n", line: 3, phrase: "value is not a number"},
	{file: "frac.mtx", opts: ReadOptions{WeightType: WeightsUint32}, content: mmReal + "3 3 2\n1 2 1\n1 3 0.25\n", line: 4, phrase: "value is not an integer: \"1 3 0.25\""},
	{file: "negreal.mtx", content: mmReal + "3 3 1\n1 2 -2.0\n", line: 3, phrase: "negative value"},
	{file: "nan.mtx", content: mmReal + "3 3 1\n1 2 nan\n", line: 3, phrase: "value is NaN"},
	{file: "nanu.mtx", opts: ReadOptions{WeightType: WeightsUint32}, content: mmReal + "3 3 1\n1 2 nan\n", line: 3, phrase: "value is not a number"},
	{file: "bigreal.mtx", opts: ReadOptions{WeightType: WeightsUint32}, content: mmReal + "3 3 1\n1 2 1e10\n", line: 3, phrase: "does not fit in 32 bits"},
	{file: "crlfbad.mtx", content: "%%MatrixMarket matrix coordinate pattern general\r\n3 3 2\r\n1 1\r\n1 q\r\n", line: 4, phrase: "\"1 q\""},
	// Edge lists.
	{file: "third.el", content: "0 1\n# c\n0 1 2\n", line: 3, phrase: "too many fields (want 2): \"0 1 2\"; for weighted lists use the wel format"},
	{file: "alpha.el", content: "0 1\na b\n", line: 2, phrase: "source id is not a non-negative integer"},
	{file: "one.el", content: "0 1\n5\n", line: 2, phrase: "too few fields (want 2)"},
	{file: "onecr.el", content: "0 1\r\n5\r\n", line: 2, phrase: "too few fields"},
	{file: "overflow.el", content: "4294967296 1\n", line: 1, phrase: "source id does not fit in 32 bits"},
	{file: "neg.el", content: "0 1\n-1 2\n", line: 2, phrase: "not a non-negative integer"},
	{file: "float.el", content: "0 1.5\n", line: 1, phrase: "destination id is not a non-negative integer"},
	{file: "nodes.el", content: "# Nodes: 99999999999 Edges: 1\n0 1\n", line: 1, phrase: "at most 4294967296"},
	{file: "weird.snap", content: "0,1\n", line: 1, phrase: "not a non-negative integer"},
	// Weighted edge lists.
	{file: "now.wel", content: "0 1 2\n0 1\n", line: 2, phrase: "too few fields (want 3)"},
	{file: "negw.wel", content: "0 1 -5\n", line: 1, phrase: "negative weight"},
	{file: "bigw.wel", opts: ReadOptions{WeightType: WeightsUint32}, content: "0 1 4294967296\n", line: 1, phrase: "weight does not fit in 32 bits"},
	{file: "realw.wel", opts: ReadOptions{WeightType: WeightsUint32}, content: "0 1 1.5\n", line: 1, phrase: "weight is not a number: \"0 1 1.5\"; read with IgnoreWeights"},
	{file: "four.wel", content: "0 1 2 3\n", line: 1, phrase: "too many fields (want 3)"},
	// DIMACS.
	{file: "nop.gr", content: "c only comments\n", line: 2, phrase: "missing problem line", kind: ErrTruncated},
	{file: "early.gr", content: "c x\na 1 2 3\np sp 2 1\n", line: 2, phrase: "arc line before the problem line"},
	{file: "pshort.gr", content: "p sp 3\n", line: 1, phrase: "problem line should read"},
	{file: "pmax.gr", content: "p max 3 2\n", line: 1, phrase: "unsupported DIMACS problem \"max\"", kind: ErrUnsupported},
	{file: "pneg.gr", content: "p sp -3 2\n", line: 1, phrase: "non-negative integers"},
	{file: "pbign.gr", content: "p sp 4294967297 1\na 1 1 1\n", line: 1, phrase: "at most 4294967296"},
	{file: "pbigm.gr", content: "p sp 3 100000000000000\na 1 2 3\n", line: 1, phrase: "more than the"},
	{file: "few.gr", content: "p sp 3 2\na 1 2 1\n", line: 2, phrase: "truncated: expected 2 entries, found 1", kind: ErrTruncated},
	{file: "many.gr", content: "p sp 3 1\na 1 2 1\na 2 3 1\n", line: 3, phrase: "more entries than the 1 declared"},
	{file: "zero.gr", content: "p sp 3 1\na 0 2 1\n", line: 2, phrase: "source id 0, but ids in this format start at 1"},
	{file: "range.gr", content: "p sp 3 1\na 1 4 1\n", line: 2, phrase: "vertex 4 is beyond the 3"},
	{file: "negw.gr", content: "p sp 3 1\na 1 2 -1\n", line: 2, phrase: "negative weight"},
	{file: "p2.gr", content: "p sp 3 2\na 1 2 1\np sp 3 1\n", line: 3, phrase: "second problem line"},
	{file: "junk.gr", content: "p sp 3 1\nx 1 2 3\n", line: 2, phrase: "unexpected line"},
	{file: "junkhdr.gr", content: "hello\n", line: 1, phrase: "unexpected line"},
	{file: "afew.gr", content: "p sp 3 1\na 1 2\n", line: 2, phrase: "too few fields"},
	{file: "amissing.gr", content: "p sp 3 1\na\n", line: 2, phrase: "unexpected line"},
	{file: "bigw.gr", opts: ReadOptions{WeightType: WeightsUint32}, content: "p sp 3 1\na 1 2 99999999999\n", line: 2, phrase: "weight does not fit in 32 bits"},
	// Float32 weights (weight type auto switching to float32, or float32).
	{file: "negf.mtx", content: mmReal + "3 3 2\n1 2 1\n1 3 -0.25\n", line: 4, phrase: "negative value: \"1 3 -0.25\""},
	{file: "inff.mtx", content: mmReal + "3 3 2\n1 2 0.5\n1 3 Inf\n", line: 4, phrase: "value is infinite"},
	{file: "neginf.mtx", content: mmReal + "3 3 1\n1 2 -inf\n", line: 3, phrase: "negative value"},
	{file: "hugef.mtx", content: mmReal + "3 3 1\n1 2 3.5e38\n", line: 3, phrase: "does not fit in a float32"},
	{file: "hexf.mtx", content: mmReal + "3 3 1\n1 2 0x1p3\n", line: 3, phrase: "value is not a number"},
	{file: "under.mtx", content: mmReal + "3 3 1\n1 2 1_0.5\n", line: 3, phrase: "value is not a number"},
	{file: "dot.mtx", content: mmReal + "3 3 1\n1 2 .\n", line: 3, phrase: "value is not a number"},
	{file: "realint32.mtx", opts: ReadOptions{WeightType: WeightsFloat32}, content: mmInteger + "3 3 1\n1 2 -1\n", line: 3, phrase: "negative value"},
	{file: "negf.wel", content: "0 1 2\n0 2 -1.5\n", line: 2, phrase: "negative weight"},
	{file: "nanf.wel", opts: ReadOptions{WeightType: WeightsFloat32}, content: "0 1 2\n0 2 NaN\n", line: 2, phrase: "weight is NaN"},
	{file: "junkf.wel", opts: ReadOptions{WeightType: WeightsFloat32}, content: "0 1 2.5x\n", line: 1, phrase: "weight is not a number"},
	{file: "eonly.wel", content: "0 1 1.5e\n", line: 1, phrase: "weight is not a number"},
	{file: "hugef.gr", content: "p sp 3 2\na 1 2 0.5\na 2 3 1e39\n", line: 3, phrase: "weight does not fit in a float32"},
	{file: "marked.wel", opts: ReadOptions{WeightType: WeightsUint32}, content: "# mgraph weights: float32\n0 1 0.5\n", line: 2, phrase: "weight is not a number"},
	// Compression that does not match the name.
	{file: "plain.mtx.gz", content: mmPattern + "1 1 1\n1 1\n", phrase: "not gzip-compressed"},
	{file: "plain.el.zst", content: "0 1\n", phrase: "not zstd-compressed"},
}

func TestMalformedInputs(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range malformedTable {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			require.NoError(t, os.WriteFile(path, []byte(tc.content), 0o644))
			check := func(name string, err error) {
				require.Error(t, err)
				msg := err.Error()
				if tc.line > 0 {
					assert.Contains(t, msg, fmt.Sprintf("%s: line %d: ", name, tc.line))
				} else {
					assert.True(t, strings.HasPrefix(msg, name+": "), msg)
				}
				assert.Contains(t, msg, tc.phrase)
				kind := tc.kind
				if kind == nil {
					kind = ErrFormat
				}
				assert.ErrorIs(t, err, kind)
			}
			assert.NotPanics(t, func() {
				_, _, err := ReadFile(context.Background(), path, tc.opts)
				check(path, err)
			})
			if strings.Contains(tc.phrase, "more than the") {
				return // needs the file size; a stream fails as truncated instead
			}
			// The same through a stream, on several workers with tiny blocks.
			restore := setTuning(16, 4)
			defer restore()
			opts := tc.opts
			opts.Workers = 3
			_, _, err := Read(context.Background(), strings.NewReader(tc.content), tc.file, opts)
			check(tc.file, err)
		})
	}
}

func TestIgnoreWeightsAcceptsBadWeights(t *testing.T) {
	for file, content := range map[string]string{
		"a.mtx": mmReal + "3 3 2\n1 2 0.25\n2 3 -1e300\n",
		"a.wel": "0 1 -3\n1 2 x\n",
		"a.gr":  "p sp 3 1\na 1 2 -7\n",
	} {
		el, _, err := readString(t, file, content, ReadOptions{IgnoreWeights: true})
		require.NoError(t, err, file)
		assert.Nil(t, el.Weights)
	}
}

func compressed(t *testing.T, comp string, data []byte) []byte {
	var buf bytes.Buffer
	switch comp {
	case "gzip":
		z := gzip.NewWriter(&buf)
		_, err := z.Write(data)
		require.NoError(t, err)
		require.NoError(t, z.Close())
	case "zstd":
		z, err := zstd.NewWriter(&buf)
		require.NoError(t, err)
		_, err = z.Write(data)
		require.NoError(t, err)
		require.NoError(t, z.Close())
	}
	return buf.Bytes()
}

func TestTruncatedCompressedStreams(t *testing.T) {
	var text bytes.Buffer
	require.NoError(t, Write(context.Background(), &text, randomList(5, 2000, 50000, true, true), WriteOptions{Format: MatrixMarket}))
	dir := t.TempDir()
	for _, comp := range []string{"gzip", "zstd"} {
		z := compressed(t, comp, text.Bytes())
		for _, cut := range []int{len(z) / 2, len(z) - 1, 10, 3} {
			ext := map[string]string{"gzip": ".gz", "zstd": ".zst"}[comp]
			path := filepath.Join(dir, fmt.Sprintf("cut%d.mtx%s", cut, ext))
			require.NoError(t, os.WriteFile(path, z[:cut], 0o644))
			_, _, err := ReadFile(context.Background(), path, ReadOptions{})
			require.Error(t, err, "%s cut at %d", comp, cut)
			assert.Contains(t, err.Error(), path+": ")
			assert.ErrorIs(t, err, ErrFormat)
			if cut > 10 {
				assert.Contains(t, err.Error(), "truncated or corrupt "+comp+" stream")
			}
		}
		// Corrupt in the middle.
		bad := bytes.Clone(z)
		for i := len(bad) / 3; i < len(bad)/3+64; i++ {
			bad[i] ^= 0x55
		}
		_, _, err := Read(context.Background(), bytes.NewReader(bad), "corrupt", ReadOptions{Format: MatrixMarket})
		assert.Error(t, err)
	}
}

// validBinary returns a small binary file.
func validBinary(t testing.TB, weighted bool) []byte {
	el := randomList(11, 50, 300, weighted, false)
	var buf bytes.Buffer
	require.NoError(t, WriteBinary(&buf, graph.ToCSR(el, 1)))
	return buf.Bytes()
}

// validFloatBinary is validBinary with float32 weights.
func validFloatBinary(t testing.TB) []byte {
	el := randomFloatList(11, 50, 300, false, false)
	var buf bytes.Buffer
	require.NoError(t, WriteBinary(&buf, graph.ToCSR(el, 1)))
	return buf.Bytes()
}

// resign recomputes a binary file's checksums after a deliberate change.
func resign(b []byte) []byte {
	if len(b) < 64 {
		return b
	}
	n := binary.LittleEndian.Uint64(b[16:])
	m := binary.LittleEndian.Uint64(b[24:])
	off := 64 + 8*(n+1)
	nb := off + 4*m
	if n < 1<<40 && m < 1<<40 && off <= uint64(len(b)) && nb <= uint64(len(b)) {
		binary.LittleEndian.PutUint32(b[32:], crc32.Checksum(b[64:off], castagnoli))
		binary.LittleEndian.PutUint32(b[36:], crc32.Checksum(b[off:nb], castagnoli))
		if binary.LittleEndian.Uint32(b[12:])&flagWeighted != 0 && nb+4*m <= uint64(len(b)) {
			binary.LittleEndian.PutUint32(b[40:], crc32.Checksum(b[nb:nb+4*m], castagnoli))
		}
	}
	binary.LittleEndian.PutUint32(b[60:], crc32.Checksum(b[:60], castagnoli))
	return b
}

func TestBinaryMalformed(t *testing.T) {
	good := validBinary(t, true)
	n := binary.LittleEndian.Uint64(good[16:])
	cases := []struct {
		name   string
		mutate func(b []byte) []byte
		phrase string
		kind   error
	}{
		{"empty", func(b []byte) []byte { return nil }, "empty file", ErrFormat},
		{"text", func(b []byte) []byte { return []byte("0 1\n1 2\n") }, "bad magic", ErrFormat},
		{"magic", func(b []byte) []byte { b[1] = 'X'; return b }, "bad magic", ErrFormat},
		{"shortheader", func(b []byte) []byte { return b[:40] }, "truncated binary header", ErrTruncated},
		{"version", func(b []byte) []byte { binary.LittleEndian.PutUint32(b[8:], 7); return b }, "version 7 is not supported", ErrUnsupported},
		{"headercrc", func(b []byte) []byte { b[17] ^= 1; return b }, "header checksum mismatch", ErrChecksum},
		{"flags", func(b []byte) []byte { binary.LittleEndian.PutUint32(b[12:], 0x10); return resign(b) }, "unknown flags", ErrFormat},
		{"sectioncrc", func(b []byte) []byte { b[len(b)-5] ^= 0x40; return b }, "weights section checksum mismatch", ErrChecksum},
		{"neighbourcrc", func(b []byte) []byte { b[64+8*(n+1)] ^= 0x40; return b }, "neighbours section checksum mismatch", ErrChecksum},
		{"truncated", func(b []byte) []byte { return b[:len(b)-4] }, "truncated", ErrTruncated},
		{"trailing", func(b []byte) []byte { return append(b, 0) }, "trailing bytes", ErrFormat},
		{"hugen", func(b []byte) []byte { binary.LittleEndian.PutUint64(b[16:], 1<<33); return resign(b) }, "at most 4294967296", ErrFormat},
		{"hugem", func(b []byte) []byte { binary.LittleEndian.PutUint64(b[24:], 1<<60); return resign(b) }, "absurd arc count", ErrFormat},
		{"bigm", func(b []byte) []byte { binary.LittleEndian.PutUint64(b[24:], 1<<40); return resign(b) }, "truncated", ErrTruncated},
		{"offsets", func(b []byte) []byte {
			binary.LittleEndian.PutUint64(b[64+8*3:], binary.LittleEndian.Uint64(b[64+8*3:])+1000)
			return resign(b)
		}, "inconsistent binary graph: offsets decrease", ErrFormat},
		{"asymmetric", func(b []byte) []byte { b[len(b)-1] ^= 1; return resign(b) }, "not symmetric", ErrFormat},
		{"first", func(b []byte) []byte { binary.LittleEndian.PutUint64(b[64:], 1); return resign(b) }, "inconsistent binary graph: offsets span", ErrFormat},
		{"neighbour", func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[64+8*(n+1)+4:], uint32(n))
			return resign(b)
		}, "inconsistent binary graph: arc 1 points to vertex 50", ErrFormat},
	}
	dir := t.TempDir()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.mutate(bytes.Clone(good))
			path := filepath.Join(dir, tc.name+".mgb")
			require.NoError(t, os.WriteFile(path, b, 0o644))
			for _, read := range []func() error{
				func() error { _, err := ReadBinaryFile(path); return err },
				func() error { _, _, err := ReadFile(context.Background(), path, ReadOptions{}); return err },
				func() error { _, err := ReadBinary(bytes.NewReader(b), path); return err },
				func() error {
					_, err := ReadBinary(bytes.NewReader(compressed(t, "zstd", b)), path)
					return err
				},
			} {
				var err error
				require.NotPanics(t, func() { err = read() })
				require.Error(t, err)
				assert.True(t, strings.HasPrefix(err.Error(), path+": "), err.Error())
				if tc.name == "bigm" || tc.name == "truncated" {
					assert.ErrorContains(t, err, "truncated")
				} else {
					assert.ErrorContains(t, err, tc.phrase)
				}
				assert.ErrorIs(t, err, tc.kind)
			}
		})
	}
}

func TestBinaryRoundTripAndEdges(t *testing.T) {
	dir := t.TempDir()
	for _, weighted := range []bool{false, true} {
		el := randomList(9, 1000, 100000, weighted, true)
		g := graph.ToCSR(el, 2)
		for _, name := range []string{"g.mgb", "g.mgb.zst", "g.mgb.gz"} {
			path := filepath.Join(dir, name)
			require.NoError(t, WriteBinaryFile(path, g))
			got, err := ReadBinaryFile(path)
			require.NoError(t, err)
			assert.Equal(t, g, got)
			f, err := os.Open(path)
			require.NoError(t, err)
			got, err = ReadBinary(f, path)
			f.Close()
			require.NoError(t, err)
			assert.Equal(t, g, got)
		}
	}
	// The empty graph and a graph of isolated vertices.
	for _, n := range []uint64{0, 5} {
		g := &graph.CSR{Adjacency: graph.Adjacency{NumVertices: n, Offsets: make([]uint64, n+1), Neighbors: []uint32{}, Directed: true}}
		var buf bytes.Buffer
		require.NoError(t, WriteBinary(&buf, g))
		assert.Equal(t, 64+8*int(n+1), buf.Len())
		got, err := ReadBinary(&buf, "empty")
		require.NoError(t, err)
		assert.Equal(t, g, got)
	}
	// Big stream with a lying header does not allocate what it declares.
	b := validBinary(t, false)
	binary.LittleEndian.PutUint64(b[24:], 1<<50)
	resign(b)
	_, err := ReadBinary(bytes.NewReader(b), "liar")
	assert.ErrorIs(t, err, ErrTruncated)
}

// TestReadErrorPropagates checks that a failing reader is reported with the
// file name.
func TestReadErrorPropagates(t *testing.T) {
	r := io.MultiReader(strings.NewReader("0 1\n1 2\n"), errReader{})
	_, _, err := Read(context.Background(), r, "flaky.el", ReadOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "flaky.el: ")
	assert.True(t, errors.Is(err, errBroken))
}

var errBroken = errors.New("disk on fire")

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errBroken }
