package gpu

import (
	"fmt"
	"time"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
)

// iterateAsync runs min program p (kernel prog) in engine.Async mode: one
// persistent kernel over a device worklist (cuda.MinRun.Async), from the
// run's current list of count vertices, or from every vertex when the
// frontier is not a list (it must then hold every vertex). SSSP gets the
// backend's near-far bucket width. The result counts the run as one
// iteration and, when traced, has one record of it: the vertices it
// processed, the near-far buckets and its kernel time.
func (b *Backend) iterateAsync(run *cuda.MinRun, p engine.Program[uint32], prog int, opts engine.RunOptions, count uint64, isList bool) (engine.Result, error) {
	var res engine.Result
	if _, ok := p.(engine.Monotone); !ok {
		return res, fmt.Errorf("cuda backend: %T: %w", p, engine.ErrNotMonotone)
	}
	if !isList && count != b.l.NumVertices {
		return res, fmt.Errorf("cuda backend: mode async starts from a list or from every vertex, not from %d of %d flags", count, b.l.NumVertices)
	}
	if count == 0 {
		return res, nil
	}
	var delta uint32
	if nearFarProg(prog) {
		delta = b.asyncDelta
	}
	start := time.Now()
	st, err := run.Async(prog, uint32(count), !isList, delta, b.asyncBlocks, !b.noBlockRows)
	res.Seconds = time.Since(start).Seconds()
	if err != nil {
		return res, fmt.Errorf("cuda backend: %w", err)
	}
	res.Iterations = 1
	if opts.Trace {
		res.Trace = append(res.Trace, engine.AsyncTrace{Items: st.Items, Shared: st.Shared, Buckets: st.Buckets, Delta: delta}.
			Record(res.Seconds, engine.Phase{Name: "async", Seconds: float64(st.Millis) / 1e3}))
	}
	return res, nil
}
