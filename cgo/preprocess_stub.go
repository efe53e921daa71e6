//go:build !cuda

package cuda

import (
	"time"

	"github.com/mgraph-dev/mgraph/layout"
)

// LayoutPhases names the phases of LayoutTimings.Phases, in order.
var LayoutPhases = [6]string{"degrees+renumber", "sort by source", "sort by block", "blocks+slots", "dense fill", "sparse part"}

// LayoutTimings are the times of one device layout build (see the cuda
// build's documentation).
type LayoutTimings struct {
	Upload, Build time.Duration
	Phases        [6]time.Duration
	Download      time.Duration
	PeakBytes     uint64
}

// MaxLayoutItems bounds the vertices and arcs of a device layout build.
const MaxLayoutItems = uint64(1<<31 - 1)

// BuildLayout returns ErrNoCUDA in the build without CUDA.
func BuildLayout(Device, uint64, []uint32, []uint32, []uint32, bool, layout.Params) (*layout.Layout, LayoutTimings, error) {
	return nil, LayoutTimings{}, ErrNoCUDA
}
