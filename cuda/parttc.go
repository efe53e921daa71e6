package cuda

import (
	"fmt"
	"unsafe"
)

// PartTriangleRows are a part's rows for CountPartTriangles
// (partition.TriangleRows' device side).
type PartTriangleRows struct {
	// Offsets (rows+1 entries) and Adj are the rows: vertices' neighbours
	// above them, in original ids, sorted; the first rows are the part's
	// owned vertices.
	Offsets []uint64
	Adj     []uint32
	// ArcSrc and ArcRow give, for each arc of the owned rows (the first
	// entries of Adj), its source's row and its destination's.
	ArcSrc, ArcRow []uint32
}

// CountPartTriangles counts on dev the triangles of a part's rows (every
// arc of the owned rows intersects its two rows, mg_part_triangles) and,
// with perRow, every row's triangles. The buffers are made for the call
// and freed after it; one that does not fit is named with its size.
func CountPartTriangles(dev Device, r PartTriangleRows, perRow bool) (uint64, []uint64, error) {
	rows := len(r.Offsets) - 1
	arcs := len(r.ArcSrc)
	switch {
	case rows < 0:
		return 0, nil, invalidf("CountPartTriangles", "no row offsets")
	case len(r.ArcRow) != arcs || uint64(len(r.Adj)) != r.Offsets[rows] || uint64(arcs) > r.Offsets[rows]:
		return 0, nil, invalidf("CountPartTriangles", "%d arcs' sources, %d destinations, %d entries for rows of %d", arcs,
			len(r.ArcRow), len(r.Adj), r.Offsets[rows])
	}
	for i, x := range r.ArcSrc {
		if int(x) >= rows || int(r.ArcRow[i]) >= rows {
			return 0, nil, invalidf("CountPartTriangles", "arc %d goes from row %d to row %d of %d", i, x, r.ArcRow[i], rows)
		}
	}
	var o owned
	defer o.release()
	offsets, err := uploadNamed(&o, dev, "triangle rows' offsets", r.Offsets)
	if err != nil {
		return 0, nil, err
	}
	var adj, src, dst *Buffer[uint32]
	if err := o.uploadIds(dev, idsUpload{"triangle rows", &adj, r.Adj}, idsUpload{"arcs' source rows", &src, r.ArcSrc},
		idsUpload{"arcs' destination rows", &dst, r.ArcRow}); err != nil {
		return 0, nil, err
	}
	total, err := allocNamed[uint64](&o, dev, "triangle count", 1)
	if err != nil {
		return 0, nil, err
	}
	var per *Buffer[uint64]
	if perRow {
		if per, err = allocNamed[uint64](&o, dev, "rows' triangle counts", rows); err != nil {
			return 0, nil, err
		}
	}
	var perPtr unsafe.Pointer
	if per != nil {
		perPtr = per.h.p
	}
	if err := backendPartTriangles(dev.ordinal, offsets.h.p, adj.h.p, src.h.p, dst.h.p, uint64(arcs), total.h.p, perPtr,
		uint64(rows)); err != nil {
		return 0, nil, fmt.Errorf("GPU %d: %w", dev.ordinal, err)
	}
	t := make([]uint64, 1)
	if err := total.CopyToHost(t); err != nil {
		return 0, nil, err
	}
	var counts []uint64
	if perRow {
		counts = make([]uint64, rows)
		if rows > 0 {
			if err := per.CopyToHost(counts); err != nil {
				return 0, nil, err
			}
		}
	}
	return t[0], counts, nil
}
