package cpu

import (
	"context"
	"fmt"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
)

// RunMin runs p from init and returns its result in the original numbering
// (engine.Backend): the initial values, the run and the mapping all in
// parallel. The result is a new slice. The run's engines come from the
// backend's idle runners (their buffers and dense estimates reused).
func (b *Backend) RunMin(ctx context.Context, p engine.Program[uint32], init engine.Init, out engine.Output, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	values, f, err := init.Values(b.l.NumVertices, b.workers)
	if err != nil {
		return nil, engine.Result{}, fmt.Errorf("cpu backend: %w", err)
	}
	var res engine.Result
	if opts.Mode == engine.Async {
		res, err = b.asyncRunner(opts).Run(ctx, p, values, f)
	} else {
		var e *engines[uint32]
		if e, err = b.takeMinRunner(opts); err != nil {
			return nil, res, err
		}
		res, err = e.r.Run(ctx, p, values, f)
		b.putMinRunner(e)
	}
	if err != nil {
		return nil, res, err
	}
	start := time.Now()
	var result []uint32
	switch out {
	case engine.OutputComponents:
		result = engine.ComponentsToOriginal(b.l, values, b.workers)
	default:
		result = engine.ToOriginal(b.l, values, b.workers)
	}
	res.CopySeconds = time.Since(start).Seconds()
	return result, res, nil
}
