package dense

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
)

// sampleStride is the sampling rate of Estimate: one work unit in
// sampleStride of each kind (about 3% of the work).
const sampleStride = 32

// maxScratch bounds the scratch buffer Estimate's light edges write to.
const maxScratch = 1 << 20

// Estimate returns the expected time of one full Step of p with every
// source active (the EDP of MultiGraph §6), measured on a deterministic
// sample of the work and scaled up. For each kind of work unit — heavy
// blocks, light column panels, row panels — the units are ordered by size
// and every sampleStride-th one is taken (at least one of each kind that
// exists), so the sample covers the size distribution. The sampled units
// run on the worker pool exactly as in Step, each timed on its own; a
// kind's summed unit time is scaled by (the kind's total work / its sampled
// work) — matrix entries for heavy blocks, edges for light panels, slots
// plus vertices for row panels — and divided by the worker count. The
// staging of the sampled column panels is timed and scaled by n / staged
// vertices the same way.
//
// Estimate writes only scratch memory: the staging buffer (which every
// Step rewrites before reading), the workers' accumulators and a small
// scratch buffer that takes the light edges' contributions (slots reduced
// modulo its size) instead of the stream buffer. Phase 2 is timed as the
// folding of the sampled row panels' slots (read from the stream buffer,
// whatever it holds) without calling p.Apply, since Apply changes the
// program's state; the per-vertex cost of Apply is therefore not included.
// values are read, never written.
func (e *Engine[V]) Estimate(ctx context.Context, p engine.Program[V], values []V) (time.Duration, error) {
	k, err := e.kindOf(p)
	if err != nil {
		return 0, err
	}
	l := e.l
	n := l.NumVertices
	if uint64(len(values)) != n {
		return 0, fmt.Errorf("dense: estimate needs %d values, got %d", n, len(values))
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, nil
	}
	if e.scratch == nil {
		size := 1 << bits.Len64(min(l.NumSlots(), maxScratch))
		e.scratch = make([]V, size)
	}
	mask := uint64(len(e.scratch) - 1)
	id := engine.Identity[V](p.Combine())
	edge := p.Edge()

	// Work per unit, and the sample.
	var heavy, light []int
	for _, u := range e.heavyLight {
		if u >= 0 {
			heavy = append(heavy, u)
		} else {
			light = append(light, u)
		}
	}
	heavyWork := func(u int) uint64 { return l.HeavyMatrixStart[u+1] - l.HeavyMatrixStart[u] }
	lightWork := func(u int) uint64 { c := -u - 1; return l.LightStart[c+1] - l.LightStart[c] }
	rowWork := func(u int) uint64 {
		return l.RowSlotStart[u+1] - l.RowSlotStart[u] + uint64(min(uint64(e.p), n-uint64(u)*uint64(e.p)))
	}
	sample := func(units []int) []int {
		var s []int
		for i := min(sampleStride/2, (len(units)-1)/2); i >= 0 && i < len(units); i += sampleStride {
			s = append(s, units[i])
		}
		return s
	}
	type part struct {
		units      []int
		total, got uint64
		nanos      atomic.Int64
	}
	parts := [3]*part{{units: sample(heavy)}, {units: sample(light)}, {units: sample(e.rowUnits)}}
	for i, all := range [3][]int{heavy, light, e.rowUnits} {
		work := [3]func(int) uint64{heavyWork, lightWork, rowWork}[i]
		for _, u := range all {
			parts[i].total += work(u)
		}
		for _, u := range parts[i].units {
			parts[i].got += work(u)
		}
	}

	// Stage the column panels the sampled phase-1 units read, all active.
	var cols []uint32
	for _, u := range parts[0].units {
		cols = append(cols, l.HeavyCol[u])
	}
	for _, u := range parts[1].units {
		cols = append(cols, uint32(-u-1))
	}
	slices.Sort(cols)
	cols = slices.Compact(cols)
	var staged uint64
	t0 := time.Now()
	for _, c := range cols {
		lo := int(c) * e.p
		hi := min(lo+e.p, int(n))
		stageAllActive(e.stage[lo:hi], values[lo:hi], edge)
		if k == kindSumW {
			for i := lo; i < hi; i++ {
				e.act[i] = 1
			}
		}
		staged += uint64(hi - lo)
	}
	est := time.Duration(0)
	if staged > 0 {
		est += time.Duration(float64(time.Since(t0)) * float64(n) / float64(staged) / float64(e.workers))
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}

	for i, pt := range parts {
		units := pt.units
		e.run(len(units), func(w, j int) {
			ws := &e.ws[w]
			t := time.Now()
			if i < 2 {
				e.phase1Unit(ws, units[j], k, id, e.scratch, &mask)
			} else {
				e.fold(ws, units[j], k, id)
			}
			pt.nanos.Add(int64(time.Since(t)))
		})
		if pt.got > 0 {
			est += time.Duration(float64(pt.nanos.Load()) * float64(pt.total) / float64(pt.got) / float64(e.workers))
		}
		if err := ctx.Err(); err != nil {
			return 0, err
		}
	}
	return est, nil
}

// stageAllActive stages contributions as if every source were active.
func stageAllActive[V engine.Value](st, vals []V, op engine.EdgeOp) {
	st = st[:len(vals)]
	if op == engine.EdgeSourcePlusOne {
		for i, v := range vals {
			st[i] = satAdd(v, 1)
		}
		return
	}
	copy(st, vals)
}
