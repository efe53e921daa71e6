package layout

// HeavyRowsFor returns the number of rows of a heavy block's frontier
// matrix with edges arcs and d destinations: ceil((T + edges + d) / T)
// (paper §4.1). The T extra entries leave room for the repeated markers:
// at most one per column after the first.
func HeavyRowsFor(t uint32, edges uint64, d uint32) uint64 {
	tt := uint64(t)
	return (tt + edges + uint64(d) + tt - 1) / tt
}

// HeavyFiller writes one heavy block's frontier matrix in the canonical
// fill of docs/layout.md: column-major, a marker -(k+1) before the sources
// of the block's k-th destination, the marker repeated at the top of a
// column when a destination's run is cut, Invalid padding. The builder and
// the validator share it so that both agree on the canonical form; the
// hand-checked tests pin it down.
//
// Create it with NewHeavyFiller, then call Dest for each destination in
// order followed by Source for each of its sources.
type HeavyFiller struct {
	matrix  []int16  // rows·T entries, row-major
	weights []uint32 // nil or parallel to matrix
	rows, t uint32
	i, j    uint32 // next entry: row i of column j
	marker  int16  // marker of the current destination
}

// NewHeavyFiller prepares matrix (rows·T entries, row-major) and weights
// (nil, or as long as matrix): every entry is set to Invalid and every
// weight to 0 before filling starts.
func NewHeavyFiller(matrix []int16, weights []uint32, rows, t uint32) HeavyFiller {
	for i := range matrix {
		matrix[i] = Invalid
	}
	clear(weights)
	return HeavyFiller{matrix: matrix, weights: weights, rows: rows, t: t}
}

// put stores x (weight w) at the next entry, moving to the top of the next
// column first when the current one is full. It reports false when the
// matrix is full (which a correctly sized matrix never is).
func (f *HeavyFiller) put(x int16, w uint32) bool {
	if f.i == f.rows {
		f.i = 0
		f.j++
	}
	if f.j >= f.t {
		return false
	}
	p := uint64(f.i)*uint64(f.t) + uint64(f.j)
	f.matrix[p] = x
	if f.weights != nil {
		f.weights[p] = w
	}
	f.i++
	return true
}

// Dest starts destination k (0-based among the block's destinations).
func (f *HeavyFiller) Dest(k int) bool {
	f.marker = int16(-(k + 1))
	return f.put(f.marker, 0)
}

// Source appends a column-panel-local source of the current destination
// with its weight, repeating the destination's marker first when the
// current column is full.
func (f *HeavyFiller) Source(src uint16, w uint32) bool {
	if f.i == f.rows {
		if !f.put(f.marker, 0) {
			return false
		}
	}
	return f.put(int16(src), w)
}
