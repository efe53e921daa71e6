package format

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGAPBSFilesFromItsConverter reads files GAPBS's converter wrote.
func TestGAPBSFilesFromItsConverter(t *testing.T) {
	type arc struct{ u, v, w uint32 }
	want := []arc{{0, 1, 5}, {1, 2, 7}, {2, 0, 3}, {3, 1, 9}, {0, 3, 2}}
	set := func(el interface {
		NumArcs() uint64
	}, src, dst, w []uint32) map[arc]int {
		m := map[arc]int{}
		for i := range src {
			a := arc{src[i], dst[i], 0}
			if w != nil {
				a.w = w[i]
			}
			m[a]++
		}
		return m
	}
	for _, c := range []struct {
		file             string
		directed, weight bool
	}{{"tiny-directed.sg", true, false}, {"tiny-undirected.sg", false, false}, {"tiny-directed.wsg", true, true}} {
		el, info, err := ReadFile(context.Background(), filepath.Join("testdata", "gapbs", c.file), ReadOptions{})
		require.NoError(t, err, c.file)
		assert.Equal(t, uint64(4), el.NumVertices, c.file)
		assert.Equal(t, c.directed, el.Directed, c.file)
		assert.Equal(t, c.weight, info.Weighted, c.file)
		exp := map[arc]int{}
		for _, a := range want {
			if !c.weight {
				a.w = 0
			}
			exp[a]++
			if !c.directed {
				exp[arc{a.v, a.u, a.w}]++
			}
		}
		assert.Equal(t, exp, set(el, el.Src, el.Dst, el.Weights), c.file)
	}
}

// TestGAPBSMalformed: every kind of bad .sg/.wsg is an error naming the
// file and what is wrong, never a panic.
func TestGAPBSMalformed(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "gapbs", "tiny-directed.wsg"))
	require.NoError(t, err)
	dir := t.TempDir()
	put := func(off int, v uint64, size int) []byte {
		b := append([]byte(nil), good...)
		switch size {
		case 1:
			b[off] = byte(v)
		case 4:
			binary.LittleEndian.PutUint32(b[off:], uint32(v))
		case 8:
			binary.LittleEndian.PutUint64(b[off:], v)
		}
		return b
	}
	const offs = 17          // the offsets after the header
	const neigh = offs + 5*8 // the first neighbour entry (4 vertices: 5 offsets)
	cases := []struct {
		name string
		data []byte
		kind error
		msg  string
	}{
		{"short-header.wsg", good[:10], ErrTruncated, "header"},
		{"flag.wsg", put(0, 7, 1), ErrFormat, "directed flag is 7"},
		{"truncated.wsg", good[:len(good)-3], ErrTruncated, "the file has"},
		{"trailing.wsg", append(append([]byte(nil), good...), 1, 2), ErrFormat, "the file has"},
		{"nodes.wsg", put(9, 1<<40, 8), ErrFormat, "vertices"},
		{"first-offset.wsg", put(offs, 1, 8), ErrFormat, "the first is 1"},
		{"decreasing.wsg", put(offs+16, 0, 8), ErrFormat, "is below vertex"},
		{"vertex.wsg", put(neigh, 9, 4), ErrFormat, "vertex 9 is outside"},
		{"weight.wsg", put(neigh+4, 0xffffffff, 4), ErrFormat, "negative weight"},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.name)
		require.NoError(t, os.WriteFile(path, c.data, 0o644))
		_, _, err := ReadFile(context.Background(), path, ReadOptions{})
		require.Error(t, err, c.name)
		assert.ErrorIs(t, err, c.kind, c.name)
		assert.ErrorContains(t, err, c.msg, c.name)
		assert.ErrorContains(t, err, c.name, c.name)
	}
}

// TestGAPBSWriteRefusesWhatItCannotHold: weights above int32.
func TestGAPBSWriteRefusesWhatItCannotHold(t *testing.T) {
	el := randomList(3, 10, 40, true, true)
	el.Weights[0] = 1 << 31
	path := filepath.Join(t.TempDir(), "big.wsg")
	err := WriteFile(context.Background(), path, el, WriteOptions{})
	require.ErrorContains(t, err, "int32")
	_, statErr := os.Stat(path)
	assert.True(t, os.IsNotExist(statErr), "no partial file")
}

// FuzzGAPBS: any bytes as .sg and .wsg, from a stream (size unknown) and
// from a file (size known): no panic, the two agree, an error names the
// file, and a graph read writes and reads back the same.
func FuzzGAPBS(f *testing.F) {
	for _, name := range []string{"tiny-directed.sg", "tiny-undirected.sg", "tiny-directed.wsg"} {
		b, err := os.ReadFile(filepath.Join("testdata", "gapbs", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, name[len(name)-3:] == "wsg")
		f.Add(b[:len(b)/2], false)
	}
	f.Add([]byte{}, true)
	f.Fuzz(func(t *testing.T, data []byte, weighted bool) {
		fm, name := GAPBS, "fuzz.sg"
		if weighted {
			fm, name = GAPBSWeighted, "fuzz.wsg"
		}
		el, _, err := Read(context.Background(), bytes.NewReader(data), name, ReadOptions{Format: fm})
		path := filepath.Join(t.TempDir(), name)
		if werr := os.WriteFile(path, data, 0o644); werr != nil {
			t.Fatal(werr)
		}
		el2, _, err2 := ReadFile(context.Background(), path, ReadOptions{Format: fm})
		if (err == nil) != (err2 == nil) {
			t.Fatalf("stream and file disagree: %v vs %v", err, err2)
		}
		if err != nil {
			if !strings.Contains(err.Error(), name) {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if err := el.Validate(); err != nil {
			t.Fatalf("invalid list: %v", err)
		}
		if !equalLists(el, el2) {
			t.Fatalf("stream and file give different lists")
		}
		var buf bytes.Buffer
		if err := Write(context.Background(), &buf, el, WriteOptions{Format: fm}); err != nil {
			t.Fatalf("write: %v", err)
		}
		back, _, err := Read(context.Background(), &buf, "back", ReadOptions{Format: fm})
		if err != nil {
			t.Fatalf("re-read: %v", err)
		}
		if back.NumVertices != el.NumVertices || back.Directed != el.Directed || back.NumArcs() != el.NumArcs() {
			t.Fatalf("rewrite changes the graph: %d/%v/%d vs %d/%v/%d", back.NumVertices, back.Directed, back.NumArcs(),
				el.NumVertices, el.Directed, el.NumArcs())
		}
	})
}
