package cuda

import (
	"fmt"
	"sync"
	"time"
	"unsafe"

	"github.com/mgraph-dev/mgraph/layout"
)

// Section indices of the device builder's arrays (mgraph.h's MG_PP_*: the
// order of layoutSections).
const (
	secLightSrc      = 16
	secLightWeights  = 17
	secLightSlot     = 18
	secSlotDst       = 20
	secSparseDst     = 22
	secSparseWeights = 23
	secSegmentSplit  = 25
	numSections      = 26
)

// deferredSections are the sections BuildLayoutDeferred leaves on the
// device: the largest, which before a run's end only the device engines
// read (the host's dense plan, sources, frontier sizes and permutation use
// the others); SegmentSplit is read by the CPU engines alone.
var deferredSections = []int{secLightSrc, secLightWeights, secLightSlot, secSlotDst, secSparseDst, secSparseWeights, secSegmentSplit}

func isDeferred(i int) bool {
	for _, s := range deferredSections {
		if s == i {
			return true
		}
	}
	return false
}

// BuiltLayout is a layout the device builder made, still on the device
// (BuildLayoutDeferred). Layout has every section but the deferred ones,
// which stay empty until Download brings them; a DeviceLayout made from it
// (UploadLayoutFrom) reads those from the builder's arrays instead of
// uploading them again, so a run can start before the download. The device
// arrays are freed once the owner has called Release and every
// DeviceLayout made from it is closed.
type BuiltLayout struct {
	dev        Device
	h          unsafe.Pointer // the C builder's mg_pp_layout
	l          *layout.Layout
	lens       [numSections]uint64 // elements per section
	mu         sync.Mutex
	refs       int
	downloaded bool
	// DownloadTime is how long Download took (0 before).
	DownloadTime float64
}

// Layout returns the host layout: complete after Download, without the
// deferred sections before.
func (b *BuiltLayout) Layout() *layout.Layout { return b.l }

// SlotCount returns the layout's stream-buffer slots (len(SlotDst), known
// before the download).
func (b *BuiltLayout) SlotCount() uint64 { return b.lens[secSlotDst] }

// LightEdges returns the layout's light edges (len(LightSrc)).
func (b *BuiltLayout) LightEdges() uint64 { return b.lens[secLightSrc] }

// deferredBytes returns the device bytes of the deferred sections while
// the host layout lacks them (before Download), else 0: what a
// DeviceLayout made from b uses on top of its uploaded arrays.
func (b *BuiltLayout) deferredBytes() uint64 {
	b.mu.Lock()
	down := b.downloaded
	b.mu.Unlock()
	if down {
		return 0
	}
	var n uint64
	for _, i := range deferredSections {
		if _, sz, err := b.section(i); err == nil {
			n += sz
		}
	}
	return n
}

// section returns the device address and byte size of section i, or an
// error once the arrays are freed.
func (b *BuiltLayout) section(i int) (unsafe.Pointer, uint64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.refs == 0 {
		return nil, 0, freed("BuiltLayout", "built layout")
	}
	return backendPPSectionPtr(b.h, i)
}

// acquire takes a reference for a DeviceLayout.
func (b *BuiltLayout) acquire() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.refs == 0 {
		return freed("BuiltLayout", "built layout")
	}
	b.refs++
	return nil
}

// Release drops a reference; the last frees the device arrays. The owner
// calls it once (after Download, if it wants the whole layout).
func (b *BuiltLayout) Release() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.refs == 0 {
		return nil
	}
	b.refs--
	if b.refs > 0 {
		return nil
	}
	h := b.h
	b.h = nil
	return backendPPFree(b.dev.ordinal, h)
}

// Download copies the deferred sections into the host layout (through
// pinned staging buffers), which is then complete. Calling it again does
// nothing.
func (b *BuiltLayout) Download() error {
	b.mu.Lock()
	done := b.downloaded
	b.mu.Unlock()
	if done {
		return nil
	}
	start := time.Now()
	sections := layoutSections(b.l)
	var copies []stagedCopy
	for _, i := range deferredSections {
		host, bytes := makeSection(sections[i], b.lens[i])
		if bytes == 0 {
			continue
		}
		dev, have, err := b.section(i)
		if err != nil {
			return err
		}
		if have != bytes {
			return invalidf("BuiltLayout.Download", "section %d has %d bytes on the device, %d expected", i, have, bytes)
		}
		copies = append(copies, stagedCopy{host: host, dev: dev, bytes: bytes})
	}
	if err := stagedTransfer(b.dev, true, copies); err != nil {
		return fmt.Errorf("download the layout: %w", err)
	}
	b.l.Normalize()
	b.mu.Lock()
	b.downloaded = true
	b.DownloadTime = time.Since(start).Seconds()
	b.mu.Unlock()
	return nil
}

// SampleSparseWeights returns up to about k arc weights spread evenly over
// the sparse part (blocks of consecutive arcs copied from the device), or
// the host's when they are downloaded. It is nil for an unweighted layout.
func (b *BuiltLayout) SampleSparseWeights(k int) ([]uint32, error) {
	n := b.lens[secSparseWeights]
	if n == 0 {
		return nil, nil
	}
	const block = 256
	blocks := uint64(max(k/block, 1))
	if n <= blocks*block {
		blocks = 1
	}
	dev, _, err := b.section(secSparseWeights)
	if err != nil {
		return nil, err
	}
	out := make([]uint32, 0, blocks*block)
	buf := make([]uint32, block)
	for j := uint64(0); j < blocks; j++ {
		lo := j * (n / blocks)
		cnt := min(uint64(block), n-lo)
		if blocks == 1 {
			cnt = n
			buf = make([]uint32, n)
		}
		if err := backendCopyDtoH(b.dev.ordinal, unsafe.Pointer(&buf[0]), unsafe.Add(dev, lo*4), cnt*4); err != nil {
			return nil, err
		}
		out = append(out, buf[:cnt]...)
	}
	return out, nil
}
