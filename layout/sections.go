package layout

import (
	"unsafe"
)

// Section describes one array of a layout: its name (the Go field name and
// the section name in the file), element size, length and size in bytes.
type Section struct {
	Name      string
	ElemBytes int
	Len       uint64
	Bytes     uint64
}

// elem is the set of element types layout arrays use.
type elem interface {
	~int16 | ~uint16 | ~uint32 | ~uint64 | ~uint8
}

// sectionRef gives typed access to one array of a Layout through byte
// views, so the file code handles every section the same way.
type sectionRef struct {
	name     string
	elem     int
	length   func() uint64
	bytes    func() []byte         // little-endian view of the array
	allocate func(n uint64) []byte // make a zeroed array of n elements, store it, return its byte view
	setNil   func()
}

func ref[T elem](name string, s *[]T) sectionRef {
	var zero T
	size := int(unsafe.Sizeof(zero))
	return sectionRef{
		name:   name,
		elem:   size,
		length: func() uint64 { return uint64(len(*s)) },
		bytes:  func() []byte { return asBytes(*s) },
		allocate: func(n uint64) []byte {
			*s = make([]T, n)
			return asBytes(*s)
		},
		setNil: func() { *s = nil },
	}
}

// ArrayBytes returns the bytes an array of one of the layout's element types
// takes: its length times the element size (the layout's arrays, and the
// device-side arrays derived from them).
func ArrayBytes[T elem](s []T) uint64 {
	var zero T
	return uint64(len(s)) * uint64(unsafe.Sizeof(zero))
}

// asBytes reinterprets a typed slice as its bytes (little-endian machines
// only; see checkLittleEndian).
func asBytes[T elem](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}

// sectionNames is the fixed order of the sections in the file (format
// version 1).
var sectionNames = []string{
	"Perm", "InvPerm", "GroupStart",
	"BlockRow", "BlockCol", "BlockEdges", "BlockHeavy",
	"HeavyRow", "HeavyCol", "HeavyRows", "HeavyMatrixStart", "HeavyNumDst", "HeavySlot", "HeavyMatrix", "HeavyWeights",
	"LightStart", "LightSrc", "LightWeights", "LightSlot",
	"RowSlotStart", "SlotDst",
	"SparseOffsets", "SparseDst", "SparseWeights", "SegmentBounds", "SegmentSplit",
}

// refs returns the section references of l in file order.
func (l *Layout) refs() []sectionRef {
	return []sectionRef{
		ref("Perm", &l.Perm), ref("InvPerm", &l.InvPerm), ref("GroupStart", &l.GroupStart),
		ref("BlockRow", &l.BlockRow), ref("BlockCol", &l.BlockCol), ref("BlockEdges", &l.BlockEdges), ref("BlockHeavy", &l.BlockHeavy),
		ref("HeavyRow", &l.HeavyRow), ref("HeavyCol", &l.HeavyCol), ref("HeavyRows", &l.HeavyRows),
		ref("HeavyMatrixStart", &l.HeavyMatrixStart), ref("HeavyNumDst", &l.HeavyNumDst), ref("HeavySlot", &l.HeavySlot),
		ref("HeavyMatrix", &l.HeavyMatrix), ref("HeavyWeights", &l.HeavyWeights),
		ref("LightStart", &l.LightStart), ref("LightSrc", &l.LightSrc), ref("LightWeights", &l.LightWeights), ref("LightSlot", &l.LightSlot),
		ref("RowSlotStart", &l.RowSlotStart), ref("SlotDst", &l.SlotDst),
		ref("SparseOffsets", &l.SparseOffsets), ref("SparseDst", &l.SparseDst), ref("SparseWeights", &l.SparseWeights),
		ref("SegmentBounds", &l.SegmentBounds), ref("SegmentSplit", &l.SegmentSplit),
	}
}

// Sections lists every array of the layout, in file order, with its size.
func (l *Layout) Sections() []Section {
	rs := l.refs()
	out := make([]Section, len(rs))
	for i, r := range rs {
		n := r.length()
		out[i] = Section{Name: r.name, ElemBytes: r.elem, Len: n, Bytes: n * uint64(r.elem)}
	}
	return out
}

// Footprint returns the total size of the layout's arrays in bytes.
func (l *Layout) Footprint() uint64 {
	var t uint64
	for _, s := range l.Sections() {
		t += s.Bytes
	}
	return t
}

// DenseBytes and SparseBytes split the footprint: the dense part (blocks,
// heavy matrices, light edges, stream map) and the sparse part (offsets,
// destinations, weights, segments). The permutation is in neither.
func (l *Layout) DenseBytes() uint64 {
	return l.bytesOf("Block", "Heavy", "Light", "RowSlotStart", "SlotDst")
}

// SparseBytes returns the bytes of the sparse part (see DenseBytes).
func (l *Layout) SparseBytes() uint64 { return l.bytesOf("Sparse", "Segment") }

func (l *Layout) bytesOf(prefixes ...string) uint64 {
	var t uint64
	for _, s := range l.Sections() {
		for _, p := range prefixes {
			if len(s.Name) >= len(p) && s.Name[:len(p)] == p {
				t += s.Bytes
				break
			}
		}
	}
	return t
}

// CSRBytes returns the size of the same graph as plain CSR: (n+1)·8 bytes
// of offsets, m·4 of neighbours and, when weighted, m·4 of weights.
func CSRBytes(n, m uint64, weighted bool) uint64 {
	b := (n+1)*8 + m*4
	if weighted {
		b += m * 4
	}
	return b
}

// CSRBytes returns the plain-CSR size of the layout's graph.
func (l *Layout) CSRBytes() uint64 { return CSRBytes(l.NumVertices, l.NumArcs, l.Weighted) }

// FootprintRatio returns Footprint / CSRBytes, the memory cost of the dual
// layout relative to plain CSR (the paper reports 1.5–2.5×).
func (l *Layout) FootprintRatio() float64 {
	return float64(l.Footprint()) / float64(l.CSRBytes())
}

// Normalize sets every empty array to nil, so that layouts built, loaded
// or copied compare equal with reflect.DeepEqual whenever their contents
// are equal.
func (l *Layout) Normalize() {
	for _, r := range l.refs() {
		if r.length() == 0 {
			r.setNil()
		}
	}
}
