package partition

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"unsafe"

	"github.com/mgraph-dev/mgraph/internal/atomicfile"
	"github.com/mgraph-dev/mgraph/internal/crc32c"
)

// A part's tables on disk (TablesExt; the part's layout is a .mgl file of
// its own), so that a partitioned run need not partition again:
//
//	magic "MGPT", version uint32 (TablesVersion)
//	index, parts uint32; vertices, local, ghosts, boundary uint64; directed uint8, 7 zero bytes; ghost arcs uint64
//	Global (local+ghosts uint32), GhostOwner (ghosts), GhostRemote (ghosts), Boundary (boundary)
//	CRC-32C of every byte before it, uint32
//
// All little-endian. Readers check the magic, version, sizes, the checksum
// and the tables' consistency, and name the file and the field at fault.

// TablesExt is the extension of a part's tables file.
const TablesExt = ".mgpt"

// TablesVersion is the tables format's version (2: the arcs to ghosts
// are kept; a version 1 file is refused, and the graph partitioned again).
const TablesVersion = 2

var tablesMagic = [4]byte{'M', 'G', 'P', 'T'}

// tablesHeader is the fixed part before the arrays.
type tablesHeader struct {
	Magic                             [4]byte
	Version                           uint32
	Index, Parts                      uint32
	Vertices, Local, Ghosts, Boundary uint64
	Directed                          uint8
	Pad                               [7]byte // zero
	GhostArcs                         uint64
}

// SaveTables writes pt's tables and its count of arcs to ghosts (not its
// layout, not its arcs) to path, atomically: the file appears whole or not
// at all.
func SaveTables(path string, pt *Part) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return fmt.Errorf("partition: save %s: %w", path, err)
	}
	defer f.Abort()
	if _, err := f.Write(EncodeTables(pt)); err != nil {
		return fmt.Errorf("partition: save %s: %w", path, err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("partition: save %s: %w", path, err)
	}
	return nil
}

// EncodeTables returns the bytes SaveTables writes for pt.
func EncodeTables(pt *Part) []byte {
	var buf bytes.Buffer
	h := tablesHeader{Magic: tablesMagic, Version: TablesVersion, Index: uint32(pt.Index), Parts: uint32(pt.NumParts),
		Vertices: pt.NumVertices, Local: pt.NumLocal, Ghosts: pt.NumGhosts, Boundary: uint64(len(pt.Boundary)), GhostArcs: pt.GhostArcs}
	if pt.Directed {
		h.Directed = 1
	}
	binary.Write(&buf, binary.LittleEndian, h) // a bytes.Buffer does not fail
	for _, a := range [][]uint32{pt.Global, pt.GhostOwner, pt.GhostRemote, pt.Boundary} {
		buf.Write(u32Bytes(a))
	}
	binary.Write(&buf, binary.LittleEndian, crc32c.Checksum(buf.Bytes(), 1))
	return buf.Bytes()
}

// u32Bytes returns a's bytes (little-endian machines, as the layout files
// assume).
func u32Bytes(a []uint32) []byte {
	if len(a) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), 4*len(a))
}

// ErrBadTables is wrapped by LoadTables' errors about the file's contents.
var ErrBadTables = errors.New("bad part tables")

// LoadTables reads a part's tables written by SaveTables; the part's EL is
// nil (its layout is stored apart).
func LoadTables(path string) (*Part, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("partition: %w", err)
	}
	return DecodeTables(data, path)
}

// DecodeTables reads tables from the bytes EncodeTables makes; name (the
// file's) is used in errors.
func DecodeTables(data []byte, path string) (*Part, error) {
	bad := func(format string, a ...any) (*Part, error) {
		return nil, fmt.Errorf("partition: %s: %w: %s", path, ErrBadTables, fmt.Sprintf(format, a...))
	}
	var h tablesHeader
	hsize := int(unsafe.Sizeof(h))
	if len(data) < hsize+4 {
		return bad("%d bytes, shorter than the header", len(data))
	}
	if err := binary.Read(bytes.NewReader(data[:hsize]), binary.LittleEndian, &h); err != nil {
		return bad("header: %v", err)
	}
	switch {
	case h.Magic != tablesMagic:
		return bad("magic %q, want %q", h.Magic[:], tablesMagic[:])
	case h.Version != TablesVersion:
		return bad("version %d, this mgraph reads %d", h.Version, TablesVersion)
	case h.Parts == 0 || h.Parts > MaxParts || h.Index >= h.Parts:
		return bad("part %d of %d", h.Index, h.Parts)
	case h.Directed > 1 || h.Pad != [7]byte{}:
		return bad("directed flag %d and padding %v (want 0 or 1, and zeros)", h.Directed, h.Pad)
	case h.Local > h.Vertices || h.Ghosts > h.Vertices || h.Boundary > h.Local:
		return bad("%d owned, %d ghost and %d boundary vertices for a graph of %d", h.Local, h.Ghosts, h.Boundary, h.Vertices)
	}
	words := h.Local + 2*h.Ghosts + h.Ghosts + h.Boundary
	if want := uint64(hsize) + 4*words + 4; uint64(len(data)) != want {
		return bad("%d bytes, the header says %d", len(data), want)
	}
	body := data[:len(data)-4]
	if got, want := crc32c.Checksum(body, 1), binary.LittleEndian.Uint32(data[len(data)-4:]); got != want {
		return bad("checksum %08x, stored %08x (the file is corrupt)", got, want)
	}
	pt := &Part{Index: int(h.Index), NumParts: int(h.Parts), NumVertices: h.Vertices, NumLocal: h.Local,
		NumGhosts: h.Ghosts, Directed: h.Directed != 0, GhostArcs: h.GhostArcs, tri: new(triangleMemo)}
	rest := body[hsize:]
	take := func(n uint64) []uint32 {
		a := make([]uint32, n)
		copy(u32Bytes(a), rest[:4*n])
		rest = rest[4*n:]
		return a
	}
	pt.Global = take(h.Local + h.Ghosts)
	pt.GhostOwner = take(h.Ghosts)
	pt.GhostRemote = take(h.Ghosts)
	pt.Boundary = take(h.Boundary)
	for i, g := range pt.Global {
		if uint64(g) >= h.Vertices {
			return bad("Global[%d] = %d, not a vertex of %d", i, g, h.Vertices)
		}
	}
	for g, o := range pt.GhostOwner {
		if o >= h.Parts || o == h.Index {
			return bad("GhostOwner[%d] = %d (part %d of %d)", g, o, h.Index, h.Parts)
		}
	}
	for i, b := range pt.Boundary {
		if uint64(b) >= h.Local {
			return bad("Boundary[%d] = %d, not an owned vertex (%d)", i, b, h.Local)
		}
	}
	return pt, nil
}

// Consistent checks that parts, loaded apart, are the parts of one graph:
// numbered 0..len-1 of len, over the same vertices, each vertex owned once,
// and every ghost pointing at an owned vertex of its owner with the same
// original id.
func Consistent(parts []*Part) error {
	if len(parts) == 0 {
		return errors.New("partition: no parts")
	}
	n := parts[0].NumVertices
	var owned uint64
	for i, pt := range parts {
		if pt.Index != i || pt.NumParts != len(parts) || pt.NumVertices != n || pt.Directed != parts[0].Directed {
			return fmt.Errorf("partition: part %d says it is part %d of %d of a graph of %d vertices (directed %v); want part %d of %d of %d",
				i, pt.Index, pt.NumParts, pt.NumVertices, pt.Directed, i, len(parts), n)
		}
		owned += pt.NumLocal
	}
	if owned != n {
		return fmt.Errorf("partition: the parts own %d vertices of %d", owned, n)
	}
	seen := make([]bool, n)
	for i, pt := range parts {
		for _, v := range pt.Global[:pt.NumLocal] {
			if seen[v] {
				return fmt.Errorf("partition: vertex %d is owned twice (again by part %d)", v, i)
			}
			seen[v] = true
		}
	}
	for i, pt := range parts {
		for g, o := range pt.GhostOwner {
			r := pt.GhostRemote[g]
			q := parts[o]
			if uint64(r) >= q.NumLocal || q.Global[r] != pt.Global[pt.NumLocal+uint64(g)] {
				return fmt.Errorf("partition: part %d's ghost %d (vertex %d) is not vertex %d of part %d",
					i, g, pt.Global[pt.NumLocal+uint64(g)], r, o)
			}
		}
	}
	return nil
}
