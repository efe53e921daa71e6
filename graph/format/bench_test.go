package format

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/mgraph-dev/mgraph/graph"
)

// benchTextSize is the size of the generated benchmark inputs.
const benchTextSize = 128 << 20

var benchText = map[Format][]byte{}
var benchMu sync.Mutex

// benchInput generates (once) about benchTextSize bytes of random arcs over
// 2^22 vertices in format fm.
func benchInput(fm Format) []byte {
	benchMu.Lock()
	defer benchMu.Unlock()
	if b, ok := benchText[fm]; ok {
		return b
	}
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 0, benchTextSize+64)
	const n = 1 << 22
	var lines int
	switch fm {
	case MatrixMarket:
		buf = append(buf, "%%MatrixMarket matrix coordinate pattern general\n% benchmark\n"...)
		// The size line is patched below once the count is known; reserve room.
		buf = append(buf, "4194304 4194304 0000000000\n"...)
	case DIMACS:
		buf = append(buf, "c benchmark\np sp 4194304 0000000000\n"...)
	}
	head := len(buf)
	for len(buf) < benchTextSize {
		u, v := rng.Uint64N(n), rng.Uint64N(n)
		if fm == DIMACS {
			buf = append(buf, 'a', ' ')
			u, v = u+1, v+1
		} else if fm == MatrixMarket {
			u, v = u+1, v+1
		}
		buf = strconv.AppendUint(buf, u, 10)
		buf = append(buf, '\t')
		buf = strconv.AppendUint(buf, v, 10)
		if fm == WeightedEdgeList || fm == DIMACS {
			buf = append(buf, '\t')
			buf = strconv.AppendUint(buf, rng.Uint64N(64)+1, 10)
		}
		buf = append(buf, '\n')
		lines++
	}
	if fm == MatrixMarket || fm == DIMACS {
		count := []byte(strconv.Itoa(lines))
		// Right-align the count in its reserved 10 digits with zeros.
		copy(buf[head-1-len(count):head-1], count)
		for i := head - 11; i < head-1-len(count); i++ {
			buf[i] = '0'
		}
	}
	benchText[fm] = buf
	return buf
}

func benchParse(b *testing.B, fm Format) {
	data := benchInput(fm)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		el, _, err := Read(context.Background(), bytes.NewReader(data), "bench", ReadOptions{Format: fm})
		if err != nil {
			b.Fatal(err)
		}
		if el.NumArcs() == 0 {
			b.Fatal("no arcs")
		}
	}
}

// BenchmarkParseEdgeList parses a 128 MiB "u\tv" edge list from memory.
func BenchmarkParseEdgeList(b *testing.B) { benchParse(b, EdgeList) }

// BenchmarkParseWEL parses a 128 MiB "u\tv\tw" edge list from memory.
func BenchmarkParseWEL(b *testing.B) { benchParse(b, WeightedEdgeList) }

// BenchmarkParseMatrixMarket parses a 128 MiB pattern general MM file.
func BenchmarkParseMatrixMarket(b *testing.B) { benchParse(b, MatrixMarket) }

// BenchmarkParseDIMACS parses a 128 MiB DIMACS file.
func BenchmarkParseDIMACS(b *testing.B) { benchParse(b, DIMACS) }

// BenchmarkReadFileEdgeList reads the edge list from a file (page cache).
func BenchmarkReadFileEdgeList(b *testing.B) {
	data := benchInput(EdgeList)
	path := filepath.Join(b.TempDir(), "bench.el")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, err := ReadFile(context.Background(), path, ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchCSR is a random CSR graph of 2^21 vertices and 24M weighted arcs
// (a 208 MiB binary file).
func benchCSR(b *testing.B) *graph.CSR {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, m = 1 << 21, 24 << 20
	el := &graph.EdgeList{NumVertices: n, Src: make([]uint32, m), Dst: make([]uint32, m), Weights: make([]uint32, m), Directed: true}
	for i := range el.Src {
		el.Src[i], el.Dst[i], el.Weights[i] = uint32(rng.Uint64N(n)), uint32(rng.Uint64N(n)), uint32(rng.Uint64N(64))
	}
	return graph.ToCSR(el, 0)
}

// BenchmarkReadBinaryFile loads a binary CSR file from the page cache into
// a graph.CSR (checksums and validation included).
func BenchmarkReadBinaryFile(b *testing.B) {
	g := benchCSR(b)
	path := filepath.Join(b.TempDir(), "bench.mgb")
	if err := WriteBinaryFile(path, g); err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	for b.Loop() {
		if _, err := ReadBinaryFile(path); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteBinary writes the binary CSR format to memory.
func BenchmarkWriteBinary(b *testing.B) {
	g := benchCSR(b)
	var buf bytes.Buffer
	if err := WriteBinary(&buf, g); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		buf.Reset()
		if err := WriteBinary(&buf, g); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteEdgeList formats a 128 MiB-class edge list to memory.
func BenchmarkWriteEdgeList(b *testing.B) {
	el, _, err := Read(context.Background(), bytes.NewReader(benchInput(EdgeList)), "bench", ReadOptions{Format: EdgeList})
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	buf.Grow(benchTextSize + 1<<20)
	for b.Loop() {
		buf.Reset()
		if err := Write(context.Background(), &buf, el, WriteOptions{Format: EdgeList}); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(buf.Len()))
	}
}
