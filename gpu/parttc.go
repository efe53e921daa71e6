package gpu

import (
	"fmt"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/partition"
)

var _ partition.TriangleCounter = (*Backend)(nil)

// CountPartTriangles implements partition.TriangleCounter: the part's
// rows go to the backend's GPU for the call, which intersects every owned
// row's arcs there (cuda.CountPartTriangles).
func (b *Backend) CountPartTriangles(rows *partition.TriangleRows, perRow bool) (uint64, []uint64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	total, per, err := cuda.CountPartTriangles(b.dl.Device(), cuda.PartTriangleRows{Offsets: rows.Offsets, Adj: rows.Adj,
		ArcSrc: rows.ArcSrc, ArcRow: rows.ArcRow}, perRow)
	if err != nil {
		return 0, nil, fmt.Errorf("cuda backend: %w", err)
	}
	return total, per, nil
}
