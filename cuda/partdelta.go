package cuda

import (
	"fmt"
	"unsafe"
)

// The steps of a partitioned pr-delta over a part's PageRank state
// (MG_DELTA_*; PartRank's Delta methods).
const (
	deltaStart = 1
	deltaApply = 2
	deltaMass  = 3
	deltaScale = 4
)

// partDelta mirrors mg_part_delta: device addresses as uintptr (see
// dlayout).
type partDelta struct {
	offsets, owned uintptr
	numOwned       uint64
	share, acc     uintptr
	x, residual    uintptr
	sums           uintptr
}

// deltaStep runs step op of a pr-delta run (mg_part_delta_step); the
// absorbed mass is the PRRun's ranks, the residuals the part's (made on
// first use).
func (p *PartRank) deltaStep(op int, a, b float64) error {
	r := p.pr
	if p.residual == nil {
		res, err := allocRank[float64](p, "residuals", int(r.dl.desc.n))
		if err != nil {
			return err
		}
		p.residual = res
	}
	args := &partDelta{offsets: r.dl.desc.sparseOffsets, owned: uintptr(p.applyLid.h.p), numOwned: p.numOwned,
		share: ptrOf(r.share), acc: ptrOf(r.acc), x: ptrOf(r.rank), residual: ptrOf(p.residual), sums: ptrOf(p.sums)}
	if err := backendPartDeltaStep(p.dev.ordinal, unsafe.Pointer(args), op, r.dl.desc.n, a, b); err != nil {
		return fmt.Errorf("part %d: %w", p.index, err)
	}
	return nil
}

// DeltaStart begins a pr-delta run on the part: every owned vertex has
// absorbed its residual 1 and is active, its share damping/outdeg.
func (p *PartRank) DeltaStart(damping float64) error {
	if err := p.pr.Start(0); err != nil { // the gather runs while the sums say not done
		return err
	}
	return p.deltaStep(deltaStart, damping, 0)
}

// DeltaApply takes every owned vertex's gathered sum (after Unpack) into
// its residual, which it absorbs when above eps, becoming active with
// share damping·r/outdeg; the part's sums get the number of active
// vertices (Sums, ReduceNCCL).
func (p *PartRank) DeltaApply(damping, eps float64) error {
	return p.deltaStep(deltaApply, damping, eps)
}

// DeltaMass leaves the mass the owned vertices absorbed in the part's
// sums.
func (p *PartRank) DeltaMass() error { return p.deltaStep(deltaMass, 0, 0) }

// DeltaScale multiplies the owned vertices' masses by scale: with 1/the
// total mass, they are the ranks GatherOwned collects.
func (p *PartRank) DeltaScale(scale float64) error { return p.deltaStep(deltaScale, scale, 0) }
