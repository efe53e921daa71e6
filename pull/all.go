package pull

import (
	"context"
	"fmt"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
)

// PhaseGather and PhaseApply name the two phases of StepAll.
const (
	PhaseGather = "pull-gather"
	PhaseApply  = "pull-apply"
)

// StepAll runs one pull iteration of a min program that has no early exit
// (see engine.PullStepper): in a first pass every vertex with in-arcs
// combines the contributions of all its active in-neighbours into its
// accumulator (reading only the values from before the iteration), and in
// a second every vertex that received one is applied. next[v] is 1 for the
// vertices Apply made active and 0 for the others. Splitting the passes
// keeps the iteration synchronous (no Apply is seen by a gather) without
// copying the values. The result does not depend on the number of workers
// or on scheduling; on a cancelled ctx StepAll returns ctx.Err() before
// changing anything.
func (e *Engine[V]) StepAll(ctx context.Context, p engine.Program[V], values []V, active, next []uint8) (uint64, []engine.Phase, error) {
	if err := e.check(p, values, active, fmt.Errorf("pull: %w", engine.ErrPullMode)); err != nil {
		return 0, nil, err
	}
	if len(next) != e.n {
		return 0, nil, fmt.Errorf("pull: %d next flags for %d vertices", len(next), e.n)
	}
	if err := ctx.Err(); err != nil {
		return 0, nil, err
	}
	e.prepare()
	if len(e.acc) != e.n {
		e.acc = make([]V, e.n)
	}
	start := time.Now()
	op := p.Edge()
	var wts []uint32
	if op.Weighted() {
		wts = e.in.Weights
	}
	e.pack(active)
	id := engine.Identity[V](engine.CombineMin)
	off, src, acc, bits, linked := e.in.Offsets, e.in.Src, e.acc, e.bits, e.rows.linked
	chunks := (e.n + e.chunk - 1) / e.chunk
	e.run(chunks, func(_, c int) {
		lo, hi := c*e.chunk, min(e.n, (c+1)*e.chunk)
		e.rows.derive(lo, hi)
		for v := lo; v < hi; v++ {
			a := id
			if linked[v>>6]&(1<<(v&63)) != 0 {
				lo, hi := off[v], off[v+1]
				for j, u := range src[lo:hi] {
					if bits[u>>6]&(1<<(u&63)) == 0 {
						continue
					}
					var w uint32
					if wts != nil {
						w = wts[lo+uint64(j)]
					}
					a = min(a, engine.Contribute(op, values[u], w))
				}
			}
			acc[v] = a
		}
	})
	gathered := time.Now()
	for i := range e.ws {
		e.ws[i].count, e.ws[i].arcs = 0, 0
	}
	outOff := e.l.SparseOffsets
	e.run(chunks, func(w, c int) {
		lo, hi := c*e.chunk, min(e.n, (c+1)*e.chunk)
		ws := &e.ws[w]
		for v := lo; v < hi; v++ {
			next[v] = 0
			if acc[v] != id && p.Apply(uint32(v), acc[v], values) {
				next[v] = 1
				ws.count++
				ws.arcs += outOff[v+1] - outOff[v]
			}
		}
	})
	var total, arcs uint64
	for i := range e.ws {
		total += e.ws[i].count
		arcs += e.ws[i].arcs
	}
	e.nextArcs = arcs
	return total, []engine.Phase{
		{Name: PhaseGather, Seconds: gathered.Sub(start).Seconds()},
		{Name: PhaseApply, Seconds: time.Since(gathered).Seconds()},
	}, nil
}
