package format

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"slices"
	"unsafe"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/crc32c"
	"github.com/mgraph-dev/mgraph/internal/mix"
	"github.com/mgraph-dev/mgraph/internal/par"
)

// The binary CSR format (.mgb), version 1. All integers are little-endian.
//
//	offset  size  field
//	0       8     magic "\x89MGB\r\n\x1a\n"
//	8       4     format version (1)
//	12      4     flags: bit 0 directed, bit 1 weighted, bit 2 float32
//	              weights (the weights are float32 bit patterns, each a
//	              finite, non-negative float other than -0; needs bit 1);
//	              other bits 0 (an mgraph older than float weights refuses
//	              a file with bit 2 as having unknown flags)
//	16      8     vertex count n (at most 2^32)
//	24      8     arc count m
//	32      4     CRC-32C of the offsets section
//	36      4     CRC-32C of the neighbours section
//	40      4     CRC-32C of the weights section (0 when unweighted)
//	44      16    reserved, zero
//	60      4     CRC-32C of bytes 0–59
//	64            offsets: n+1 uint64 (row v's arcs are [offsets[v], offsets[v+1]))
//	              neighbours: m uint32
//	              weights: m uint32, when weighted
//
// The file is exactly 64 + 8(n+1) + 4m (+ 4m) bytes long.

// BinaryVersion is the version of the binary format this package writes.
const BinaryVersion = 1

const (
	binaryHeaderSize = 64
	flagDirected     = 1 << 0
	flagWeighted     = 1 << 1
	flagFloat32      = 1 << 2
	knownFlags       = flagDirected | flagWeighted | flagFloat32
	// maxBinaryArcs bounds the arc count so that byte sizes cannot overflow.
	maxBinaryArcs = 1 << 56
	// streamAlloc caps the first allocation of a section read from a stream
	// of unknown length; the section grows as data actually arrives.
	streamAlloc = 64 << 20
	// ioPiece is the size of the pieces read concurrently from a file.
	ioPiece = 8 << 20
)

var binaryMagic = [8]byte{0x89, 'M', 'G', 'B', '\r', '\n', 0x1a, '\n'}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// littleEndian reports whether the host stores integers little-endian; the
// sections are then read and written straight from the slices' memory.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// binaryHeader is the decoded fixed header.
type binaryHeader struct {
	version             uint32
	flags               uint32
	n, m                uint64
	crcOff, crcNb, crcW uint32
}

func (h *binaryHeader) weighted() bool { return h.flags&flagWeighted != 0 }

// bodySize returns the number of bytes after the header.
func (h *binaryHeader) bodySize() uint64 {
	s := 8*(h.n+1) + 4*h.m
	if h.weighted() {
		s += 4 * h.m
	}
	return s
}

func (h *binaryHeader) encode() []byte {
	b := make([]byte, binaryHeaderSize)
	copy(b, binaryMagic[:])
	binary.LittleEndian.PutUint32(b[8:], h.version)
	binary.LittleEndian.PutUint32(b[12:], h.flags)
	binary.LittleEndian.PutUint64(b[16:], h.n)
	binary.LittleEndian.PutUint64(b[24:], h.m)
	binary.LittleEndian.PutUint32(b[32:], h.crcOff)
	binary.LittleEndian.PutUint32(b[36:], h.crcNb)
	binary.LittleEndian.PutUint32(b[40:], h.crcW)
	binary.LittleEndian.PutUint32(b[60:], crc32.Checksum(b[:60], castagnoli))
	return b
}

// decodeBinaryHeader checks and decodes a header; size is the file's length
// when known, else -1.
func decodeBinaryHeader(b []byte, name string, size int64) (*binaryHeader, error) {
	if len(b) == 0 {
		return nil, formatErr(name, 0, "empty file, not an mgraph binary graph")
	}
	if len(b) < binaryHeaderSize {
		if bytes.HasPrefix(binaryMagic[:], b) || bytes.HasPrefix(b, binaryMagic[:]) {
			return nil, kindErr(ErrTruncated, name, 0, nil, "truncated binary header (%d of %d bytes)", len(b), binaryHeaderSize)
		}
		return nil, formatErr(name, 0, "not an mgraph binary graph (bad magic)")
	}
	if !bytes.Equal(b[:8], binaryMagic[:]) {
		return nil, formatErr(name, 0, "not an mgraph binary graph (bad magic % x)", b[:8])
	}
	h := &binaryHeader{
		version: binary.LittleEndian.Uint32(b[8:]),
		flags:   binary.LittleEndian.Uint32(b[12:]),
		n:       binary.LittleEndian.Uint64(b[16:]),
		m:       binary.LittleEndian.Uint64(b[24:]),
		crcOff:  binary.LittleEndian.Uint32(b[32:]),
		crcNb:   binary.LittleEndian.Uint32(b[36:]),
		crcW:    binary.LittleEndian.Uint32(b[40:]),
	}
	if h.version != BinaryVersion {
		return nil, kindErr(ErrUnsupported, name, 0, nil, "binary format version %d is not supported (this build reads version %d)", h.version, BinaryVersion)
	}
	if got, want := crc32.Checksum(b[:60], castagnoli), binary.LittleEndian.Uint32(b[60:]); got != want {
		return nil, kindErr(ErrChecksum, name, 0, nil, "binary header checksum mismatch (stored %08x, computed %08x)", want, got)
	}
	if h.flags&^knownFlags != 0 {
		return nil, formatErr(name, 0, "binary header has unknown flags %#x", h.flags)
	}
	if h.flags&flagFloat32 != 0 && !h.weighted() {
		return nil, formatErr(name, 0, "binary header says float32 weights but no weights (flags %#x)", h.flags)
	}
	if h.n > graph.MaxVertices {
		return nil, formatErr(name, 0, "binary header declares %d vertices; at most %d are supported", h.n, uint64(graph.MaxVertices))
	}
	if h.m > maxBinaryArcs {
		return nil, formatErr(name, 0, "binary header declares an absurd arc count %d", h.m)
	}
	if h.bodySize() > math.MaxInt-binaryHeaderSize {
		return nil, formatErr(name, 0, "binary graph of %d vertices and %d arcs is too large for this machine", h.n, h.m)
	}
	if size >= 0 {
		want := binaryHeaderSize + h.bodySize()
		if uint64(size) < want {
			return nil, kindErr(ErrTruncated, name, 0, nil, "truncated binary graph: %d vertices and %d arcs need %d bytes, the file has %d", h.n, h.m, want, size)
		}
		if uint64(size) > want {
			return nil, formatErr(name, 0, "binary graph has %d trailing bytes after its %d vertices and %d arcs", uint64(size)-want, h.n, h.m)
		}
	}
	return h, nil
}

// asBytes views a slice's memory as bytes.
func asBytes[T uint32 | uint64](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
}

// fromLE converts a section read in little-endian byte order to host order.
func fromLE[T uint32 | uint64](s []T) {
	if littleEndian {
		return
	}
	b := asBytes(s)
	switch any(s).(type) {
	case []uint32:
		for i := range s {
			s[i] = T(binary.LittleEndian.Uint32(b[4*i:]))
		}
	case []uint64:
		for i := range s {
			s[i] = T(binary.LittleEndian.Uint64(b[8*i:]))
		}
	}
}

// leBytes returns the little-endian bytes of s: its own memory on
// little-endian hosts, a converted copy otherwise.
func leBytes[T uint32 | uint64](s []T) []byte {
	if littleEndian {
		return asBytes(s)
	}
	size := int(unsafe.Sizeof(T(0)))
	b := make([]byte, len(s)*size)
	for i, v := range s {
		if size == 4 {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
		} else {
			binary.LittleEndian.PutUint64(b[8*i:], uint64(v))
		}
	}
	return b
}

// WriteBinary writes g to w in the binary CSR format (.mgb): a 64-byte
// little-endian header (magic "\x89MGB\r\n\x1a\n", format version, flags
// for directed and weighted, vertex and arc counts, a CRC-32C of each
// section and of the header), then the offsets (n+1 uint64), the neighbours
// (m uint32) and, when weighted, the weights (m uint32: integers, or the
// bits of float32 weights, which a flag says). g must be consistent (see
// graph.Adjacency.Validate).
func WriteBinary(w io.Writer, g *graph.CSR) error {
	return writeBinary(w, g, 0)
}

func writeBinary(w io.Writer, g *graph.CSR, workers int) error {
	if g.NumVertices > graph.MaxVertices || uint64(len(g.Offsets)) != g.NumVertices+1 ||
		(g.Weights != nil && len(g.Weights) != len(g.Neighbors)) {
		return fmt.Errorf("write binary graph: inconsistent CSR (%d vertices, %d offsets, %d arcs, %d weights)",
			g.NumVertices, len(g.Offsets), len(g.Neighbors), len(g.Weights))
	}
	h := &binaryHeader{version: BinaryVersion, n: g.NumVertices, m: uint64(len(g.Neighbors))}
	if g.Directed {
		h.flags |= flagDirected
	}
	sections := [][]byte{leBytes(g.Offsets), leBytes(g.Neighbors)}
	if g.Weights != nil {
		h.flags |= flagWeighted
		sections = append(sections, leBytes(g.Weights))
		if g.WeightKind == graph.Float32Weights {
			h.flags |= flagFloat32
		}
	}
	crcs := make([]uint32, len(sections))
	for i, s := range sections {
		crcs[i] = crc32c.Checksum(s, workers)
	}
	h.crcOff, h.crcNb = crcs[0], crcs[1]
	if len(crcs) > 2 {
		h.crcW = crcs[2]
	}
	if _, err := w.Write(h.encode()); err != nil {
		return fmt.Errorf("write binary graph: %w", err)
	}
	for _, s := range sections {
		if _, err := w.Write(s); err != nil {
			return fmt.Errorf("write binary graph: %w", err)
		}
	}
	return nil
}

// WriteBinaryFile writes g to path in the binary CSR format, compressed when
// the path ends in .gz or .zst. The file appears under its name only once
// complete.
func WriteBinaryFile(path string, g *graph.CSR) error {
	return writeFileAtomic(context.Background(), path, WriteOptions{Format: Binary}, func(w io.Writer) error {
		return writeBinary(w, g, 0)
	})
}

// ReadBinary reads a binary CSR graph from r (which may be gzip or zstd
// compressed). name is used in errors.
func ReadBinary(r io.Reader, name string) (*graph.CSR, error) {
	src, err := openSource(r, name, -1, &ReadOptions{})
	if err != nil {
		return nil, err
	}
	defer src.close()
	return readBinary(context.Background(), src.r, nil, name, -1, 0, nil)
}

// ReadBinaryFile reads a binary CSR graph file. Uncompressed files are read
// with concurrent positioned reads straight into the graph's slices.
func ReadBinaryFile(path string) (*graph.CSR, error) {
	g, _, err := readBinaryFile(context.Background(), path, &ReadOptions{})
	return g, err
}

func readBinaryFile(ctx context.Context, path string, opts *ReadOptions) (*graph.CSR, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	head := make([]byte, 4)
	k, _ := f.ReadAt(head, 0)
	if st.Mode().IsRegular() && !bytes.HasPrefix(head[:k], gzipMagic) && !bytes.HasPrefix(head[:k], zstdMagic) {
		g, err := readBinary(ctx, nil, f, path, st.Size(), opts.Workers, opts)
		return g, st.Size(), err
	}
	src, err := openSource(f, path, -1, opts)
	if err != nil {
		return nil, 0, err
	}
	defer src.close()
	g, err := readBinary(ctx, src.r, nil, path, -1, opts.Workers, opts)
	return g, src.raw.n, err
}

// readBinary reads a binary graph from ra (positioned reads, size known) or
// else from the stream r.
func readBinary(ctx context.Context, r io.Reader, ra io.ReaderAt, name string, size int64, workers int, opts *ReadOptions) (*graph.CSR, error) {
	hb := make([]byte, binaryHeaderSize)
	var k int
	var err error
	if ra != nil {
		k, err = ra.ReadAt(hb, 0)
	} else {
		k, err = io.ReadFull(r, hb)
	}
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, kindErr(ErrFormat, name, 0, err, "reading binary header")
	}
	h, err := decodeBinaryHeader(hb[:k], name, size)
	if err != nil {
		return nil, err
	}
	if opts != nil && ra != nil {
		opts.Progress.Add(binaryHeaderSize)
	}
	g := &graph.CSR{}
	g.NumVertices = h.n
	g.Directed = h.flags&flagDirected != 0
	sections := []struct {
		what string
		crc  uint32
	}{{"offsets", h.crcOff}, {"neighbours", h.crcNb}, {"weights", h.crcW}}
	pos := int64(binaryHeaderSize)
	readSec := func(i int, view func(count uint64) []byte, grow func(count uint64) []byte, count, esz uint64) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if ra != nil {
			b := view(count)
			if err := readAtParallel(ra, b, pos, workers, opts); err != nil {
				return kindErr(ErrTruncated, name, 0, err, "reading binary %s", sections[i].what)
			}
			pos += int64(len(b))
		} else {
			// Unknown length: allocate at most streamAlloc up front and grow
			// as data arrives, so a lying header cannot force a huge
			// allocation.
			have := min(count, max(1, streamAlloc/esz))
			b := view(have)
			done := 0
			for {
				m, err := io.ReadFull(r, b[done:])
				done += m
				if err != nil {
					return kindErr(ErrTruncated, name, 0, err, "truncated binary graph: %s section ends after %d of %d bytes", sections[i].what, done, count*esz)
				}
				if have == count {
					break
				}
				have = min(count, 2*have)
				b = grow(have)
			}
		}
		return nil
	}
	err = readSec(0, func(c uint64) []byte { g.Offsets = make([]uint64, c); return asBytes(g.Offsets) },
		func(c uint64) []byte {
			g.Offsets = slices.Grow(g.Offsets, int(c)-len(g.Offsets))[:c]
			return asBytes(g.Offsets)
		},
		h.n+1, 8)
	if err != nil {
		return nil, err
	}
	err = readSec(1, func(c uint64) []byte { g.Neighbors = make([]uint32, c); return asBytes(g.Neighbors) },
		func(c uint64) []byte {
			g.Neighbors = slices.Grow(g.Neighbors, int(c)-len(g.Neighbors))[:c]
			return asBytes(g.Neighbors)
		},
		h.m, 4)
	if err != nil {
		return nil, err
	}
	if g.Neighbors == nil {
		g.Neighbors = []uint32{}
	}
	if h.weighted() {
		err = readSec(2, func(c uint64) []byte { g.Weights = make([]uint32, c); return asBytes(g.Weights) },
			func(c uint64) []byte {
				g.Weights = slices.Grow(g.Weights, int(c)-len(g.Weights))[:c]
				return asBytes(g.Weights)
			},
			h.m, 4)
		if err != nil {
			return nil, err
		}
		if g.Weights == nil {
			g.Weights = []uint32{}
		}
	}
	if ra == nil {
		// A stream must end with the weights.
		var one [1]byte
		if m, _ := io.ReadFull(r, one[:]); m > 0 {
			return nil, formatErr(name, 0, "binary graph has trailing bytes after its %d vertices and %d arcs", h.n, h.m)
		}
	}
	// Checksums, then structure.
	secs := [][]byte{asBytes(g.Offsets), asBytes(g.Neighbors)}
	if h.weighted() {
		secs = append(secs, asBytes(g.Weights))
	}
	for i, b := range secs {
		if got := crc32c.Checksum(b, workers); got != sections[i].crc {
			return nil, kindErr(ErrChecksum, name, 0, nil, "binary %s section checksum mismatch (stored %08x, computed %08x): the file is corrupt", sections[i].what, sections[i].crc, got)
		}
	}
	fromLE(g.Offsets)
	fromLE(g.Neighbors)
	fromLE(g.Weights)
	if h.flags&flagFloat32 != 0 {
		g.WeightKind = graph.Float32Weights
		if err := graph.CheckFloat32Weights(g.Weights); err != nil {
			return nil, kindErr(ErrFormat, name, 0, err, "binary graph of float32 weights")
		}
	}
	if err := validateCSR(&g.Adjacency, workers); err != nil {
		return nil, kindErr(ErrFormat, name, 0, err, "inconsistent binary graph")
	}
	return g, nil
}

// readAtParallel fills b from ra at offset off with concurrent positioned
// reads of ioPiece bytes.
func readAtParallel(ra io.ReaderAt, b []byte, off int64, workers int, opts *ReadOptions) error {
	if len(b) == 0 {
		return nil
	}
	pieces := (len(b) + ioPiece - 1) / ioPiece
	errs := make([]error, pieces)
	par.Dynamic(pieces, workers, 1, func(i int) {
		lo := i * ioPiece
		hi := min(len(b), lo+ioPiece)
		n, err := ra.ReadAt(b[lo:hi], off+int64(lo))
		if n == hi-lo {
			err = nil
		} else if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		errs[i] = err
		if opts != nil {
			opts.Progress.Add(int64(n))
		}
	})
	return errors.Join(errs...)
}

// errNotSymmetric reports an undirected graph whose arcs are not symmetric.
var errNotSymmetric = errors.New("the graph is marked undirected but its arcs (with their weights) are not symmetric")

// arcHash maps arc u→v of weight w to a pseudo-random value such that
// arcHash(u, v, w) + arcHash(v, u, w) = 0 (mod 2^64). The sum over the arcs
// of a symmetric graph is therefore 0, and the sum over an asymmetric one is
// 0 only by a 2^-64 accident: a cheap, sort-free symmetry check.
func arcHash(u, v, w uint32) uint64 {
	if u == v {
		return 0
	}
	lo, hi := min(u, v), max(u, v)
	h := mix.Hash64(uint64(lo)<<32 | uint64(hi))
	h = mix.Hash64(h ^ uint64(w)*0x9e3779b97f4a7c15)
	if u < v {
		return h
	}
	return -h
}

// validateCSR is Adjacency.Validate, in parallel, plus a symmetry check
// for undirected graphs.
func validateCSR(a *graph.Adjacency, workers int) error {
	n := a.NumVertices
	if uint64(len(a.Offsets)) != n+1 {
		return fmt.Errorf("%d offsets for %d vertices", len(a.Offsets), n)
	}
	if a.Offsets[0] != 0 || a.Offsets[n] != uint64(len(a.Neighbors)) {
		return fmt.Errorf("offsets span [%d, %d] but there are %d arcs", a.Offsets[0], a.Offsets[n], len(a.Neighbors))
	}
	if a.Weights != nil && len(a.Weights) != len(a.Neighbors) {
		return fmt.Errorf("%d arcs but %d weights", len(a.Neighbors), len(a.Weights))
	}
	workers = par.Workers(workers)
	var badV, badArc = make([]int64, workers*4), make([]int64, workers*4)
	chunksV := par.Split(int(n), len(badV))
	par.Dynamic(len(chunksV), workers, 1, func(i int) {
		c := chunksV[i]
		badV[i] = -1
		off := a.Offsets
		for v := c.Lo; v < c.Hi; v++ {
			if off[v+1] < off[v] {
				badV[i] = int64(v)
				return
			}
		}
	})
	for _, v := range badV[:len(chunksV)] {
		if v >= 0 {
			return fmt.Errorf("offsets decrease at vertex %d", v)
		}
	}
	chunksA := par.Split(len(a.Neighbors), len(badArc))
	par.Dynamic(len(chunksA), workers, 1, func(i int) {
		c := chunksA[i]
		badArc[i] = -1
		for j, u := range a.Neighbors[c.Lo:c.Hi] {
			if uint64(u) >= n {
				badArc[i] = int64(c.Lo + j)
				return
			}
		}
	})
	for _, j := range badArc[:len(chunksA)] {
		if j >= 0 {
			return fmt.Errorf("arc %d points to vertex %d, outside 0..%d", j, a.Neighbors[j], int64(n)-1)
		}
	}
	if !a.Directed {
		chunks := par.Split(int(n), workers*4)
		sums := make([]uint64, len(chunks))
		par.Dynamic(len(chunks), workers, 1, func(i int) {
			var d uint64
			for v := chunks[i].Lo; v < chunks[i].Hi; v++ {
				for j := a.Offsets[v]; j < a.Offsets[v+1]; j++ {
					var w uint32
					if a.Weights != nil {
						w = a.Weights[j]
					}
					d += arcHash(uint32(v), a.Neighbors[j], w)
				}
			}
			sums[i] = d
		})
		var d uint64
		for _, x := range sums {
			d += x
		}
		if d != 0 {
			return errNotSymmetric
		}
	}
	return nil
}
