//go:build !cuda

package cuda

import (
	"time"
	"unsafe"

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

// BuildLayoutDeferred returns ErrNoCUDA in the build without CUDA.
func BuildLayoutDeferred(Device, uint64, []uint32, []uint32, []uint32, bool, layout.Params) (*BuiltLayout, LayoutTimings, error) {
	return nil, LayoutTimings{}, ErrNoCUDA
}

func backendPPSectionPtr(unsafe.Pointer, int) (unsafe.Pointer, uint64, error) {
	return nil, 0, ErrNoCUDA
}
func backendPPFree(int, unsafe.Pointer) error { return ErrNoCUDA }

// layoutSections and makeSection exist only where the device builder does.
func layoutSections(*layout.Layout) []any              { return make([]any, numSections) }
func makeSection(any, uint64) (unsafe.Pointer, uint64) { return nil, 0 }
