package format

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/internal/readn"
)

// GAPBS's serialized graphs (.sg, and .wsg with weights), as its converter
// writes them (native little-endian, no padding):
//
//	directed    1 byte (0 or 1)
//	num_edges   int64: entries of the neighbour array (both arcs of an undirected edge)
//	num_nodes   int64
//	offsets     (num_nodes+1) int64: out-adjacency offsets
//	neighbours  num_edges entries: int32 vertex (.sg) or int32 vertex, int32 weight (.wsg)
//	if directed: the in-adjacency, offsets and neighbours again
//
// mgraph reads the out-adjacency (and checks that the in-adjacency has the
// size it must) and writes both.
const gapbsHeaderSize = 1 + 8 + 8

// gapbsEntry returns the bytes of one neighbour entry.
func gapbsEntry(weighted bool) int64 {
	if weighted {
		return 8
	}
	return 4
}

// readGAPBS reads a serialized GAPBS graph from r; size is the bytes r
// holds, or -1 when unknown (a compressed stream), when sizes read from the
// header are trusted only as far as data arrives.
func readGAPBS(r io.Reader, name string, size int64, weighted bool, workers int) (*graph.CSR, error) {
	fm := "sg"
	if weighted {
		fm = "wsg"
	}
	var hb [gapbsHeaderSize]byte
	if k, err := io.ReadFull(r, hb[:]); err != nil {
		return nil, kindErr(ErrTruncated, name, 0, nil, "%s header: %d of its %d bytes", fm, k, gapbsHeaderSize)
	}
	if hb[0] > 1 {
		return nil, formatErr(name, 0, "%s header: directed flag is %d, not 0 or 1 (not a GAPBS serialized graph?)", fm, hb[0])
	}
	directed := hb[0] == 1
	edges := int64(binary.LittleEndian.Uint64(hb[1:]))
	nodes := int64(binary.LittleEndian.Uint64(hb[9:]))
	switch {
	case nodes < 0 || nodes > math.MaxInt32:
		return nil, formatErr(name, 0, "%s header: %d vertices (GAPBS ids are int32: 0..%d)", fm, nodes, math.MaxInt32)
	case edges < 0:
		return nil, formatErr(name, 0, "%s header: %d arcs", fm, edges)
	}
	entry := gapbsEntry(weighted)
	parts := int64(1)
	if directed {
		parts = 2
	}
	if edges > (math.MaxInt64/4)/entry || nodes+1 > (math.MaxInt64/4)/8 {
		return nil, formatErr(name, 0, "%s header: %d vertices and %d arcs cannot be stored", fm, nodes, edges)
	}
	want := gapbsHeaderSize + parts*(8*(nodes+1)+entry*edges)
	if size >= 0 && size != want {
		kind := ErrTruncated
		if size > want {
			kind = ErrFormat
		}
		return nil, kindErr(kind, name, 0, nil, "%s: the header declares %d vertices and %d arcs (%s, %d bytes), the file has %d bytes",
			fm, nodes, edges, map[bool]string{true: "directed", false: "undirected"}[directed], want, size)
	}
	off, err := readInt64s(r, nodes+1, name, fm+" offsets")
	if err != nil {
		return nil, err
	}
	g := &graph.CSR{}
	g.NumVertices, g.Directed = uint64(nodes), directed
	g.Offsets = make([]uint64, nodes+1)
	for v, o := range off {
		switch {
		case v == 0 && o != 0:
			return nil, formatErr(name, 0, "%s offsets: the first is %d, not 0", fm, o)
		case v > 0 && o < off[v-1]:
			return nil, formatErr(name, 0, "%s offsets: vertex %d's offset %d is below vertex %d's %d", fm, v, o, v-1, off[v-1])
		}
		g.Offsets[v] = uint64(o)
	}
	if off[nodes] != edges {
		return nil, formatErr(name, 0, "%s offsets: they end at %d, the header declares %d arcs", fm, off[nodes], edges)
	}
	raw, err := readBytes(r, uint64(edges*entry), name, fm+" neighbours")
	if err != nil {
		return nil, err
	}
	g.Neighbors = make([]uint32, edges)
	if weighted {
		g.Weights = make([]uint32, edges)
	}
	bad := make([]int64, par.Workers(workers))
	for i := range bad {
		bad[i] = -1
	}
	chunks := par.Split(int(edges), len(bad))
	par.ForChunks(chunks, func(c par.Chunk) {
		for i := c.Lo; i < c.Hi; i++ {
			b := raw[int64(i)*entry:]
			v := int32(binary.LittleEndian.Uint32(b))
			if v < 0 || int64(v) >= nodes {
				bad[c.Index] = int64(i)
				return
			}
			g.Neighbors[i] = uint32(v)
			if weighted {
				w := int32(binary.LittleEndian.Uint32(b[4:]))
				if w < 0 {
					bad[c.Index] = int64(i)
					return
				}
				g.Weights[i] = uint32(w)
			}
		}
	})
	for _, i := range bad[:len(chunks)] {
		if i < 0 {
			continue
		}
		b := raw[i*entry:]
		if v := int32(binary.LittleEndian.Uint32(b)); v < 0 || int64(v) >= nodes {
			return nil, formatErr(name, 0, "%s neighbour %d: vertex %d is outside 0..%d", fm, i, v, nodes-1)
		}
		return nil, formatErr(name, 0, "%s neighbour %d: negative weight %d (mgraph's weights are unsigned)", fm, i, int32(binary.LittleEndian.Uint32(b[4:])))
	}
	if directed {
		// The in-adjacency repeats the arcs: its size was checked against
		// the file's; skip it.
		if k, err := io.CopyN(io.Discard, r, 8*(nodes+1)+entry*edges); err != nil {
			return nil, kindErr(ErrTruncated, name, 0, nil, "%s in-adjacency: %d of its %d bytes", fm, k, 8*(nodes+1)+entry*edges)
		}
	}
	if size < 0 {
		var one [1]byte
		if k, _ := io.ReadFull(r, one[:]); k != 0 {
			return nil, formatErr(name, 0, "%s: data after the graph the header declares", fm)
		}
	}
	return g, nil
}

// readBytes reads exactly n bytes of what (readn.Read: a corrupt header
// cannot force a large allocation).
func readBytes(r io.Reader, n uint64, name, what string) ([]byte, error) {
	buf, err := readn.Read(r, n)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, kindErr(ErrTruncated, name, 0, nil, "%s: %d of its %d bytes", what, len(buf), n)
	case err != nil:
		return nil, kindErr(ErrFormat, name, 0, err, "reading %s", what)
	}
	return buf, nil
}

// readInt64s reads n little-endian int64s.
func readInt64s(r io.Reader, n int64, name, what string) ([]int64, error) {
	b, err := readBytes(r, uint64(n)*8, name, what)
	if err != nil {
		return nil, err
	}
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out, nil
}

// writeGAPBS writes el as a GAPBS serialized graph: the out-adjacency and,
// for a directed graph, the in-adjacency; with weighted, every entry
// carries its weight (1 for an unweighted list), without, weights are
// dropped.
func writeGAPBS(w io.Writer, el *graph.EdgeList, weighted bool, workers int) error {
	if el.NumVertices > math.MaxInt32 {
		return fmt.Errorf("write graph: %d vertices; GAPBS's ids are int32 (at most %d)", el.NumVertices, math.MaxInt32)
	}
	if weighted && el.Weights != nil && el.WeightKind == graph.Float32Weights {
		return fmt.Errorf("write graph: GAPBS's .wsg holds int32 weights, and these are float32 (write .mgb, .mtx or .wel, or drop the weights with .sg)")
	}
	if weighted {
		for i, wt := range el.Weights {
			if wt > math.MaxInt32 {
				return fmt.Errorf("write graph: arc %d has weight %d; GAPBS's weights are int32 (at most %d)", i, wt, math.MaxInt32)
			}
		}
	}
	var hb [gapbsHeaderSize]byte
	if el.Directed {
		hb[0] = 1
	}
	binary.LittleEndian.PutUint64(hb[1:], uint64(el.NumArcs()))
	binary.LittleEndian.PutUint64(hb[9:], el.NumVertices)
	if _, err := w.Write(hb[:]); err != nil {
		return fmt.Errorf("write graph: %w", err)
	}
	adj := []*graph.Adjacency{&graph.ToCSR(el, workers).Adjacency}
	if el.Directed {
		adj = append(adj, &graph.ToCSC(el, workers).Adjacency)
	}
	entry := gapbsEntry(weighted)
	for _, a := range adj {
		b := make([]byte, 8*len(a.Offsets))
		for i, o := range a.Offsets {
			binary.LittleEndian.PutUint64(b[8*i:], o)
		}
		if _, err := w.Write(b); err != nil {
			return fmt.Errorf("write graph: %w", err)
		}
		b = make([]byte, entry*int64(len(a.Neighbors)))
		par.For(len(a.Neighbors), workers, 1<<16, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				e := b[int64(i)*entry:]
				binary.LittleEndian.PutUint32(e, a.Neighbors[i])
				if weighted {
					wt := uint32(1)
					if a.Weights != nil {
						wt = a.Weights[i]
					}
					binary.LittleEndian.PutUint32(e[4:], wt)
				}
			}
		})
		if _, err := w.Write(b); err != nil {
			return fmt.Errorf("write graph: %w", err)
		}
	}
	return nil
}
