package cpu

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
)

// RunMin runs p from init and returns its result in the original numbering
// (engine.Backend): the initial values, the run and the mapping all in
// parallel. The result is a new slice. The run's engines come from the
// backend's idle runners (their buffers and dense estimates reused).
func (b *Backend) RunMin(ctx context.Context, p engine.Program[uint32], init engine.Init, out engine.Output, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	values, res, err := b.runMin(ctx, p, init, opts)
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

// runMin runs min program p from init and returns its values in the
// layout numbering.
func (b *Backend) runMin(ctx context.Context, p engine.Program[uint32], init engine.Init, opts engine.RunOptions) ([]uint32, engine.Result, error) {
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
	return values, res, err
}

// BFSParents runs BFS as RunMin does and returns its tree (see
// engine.TreeBackend): each vertex scans its in-row (Backend.In) for the
// first in-neighbour one level up, in parallel, and the parents are mapped
// to the original numbering on the way out.
func (b *Backend) BFSParents(ctx context.Context, p engine.Program[uint32], init engine.Init, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	if !init.HasSource {
		return nil, engine.Result{}, fmt.Errorf("cpu backend: a BFS tree needs a source")
	}
	level, res, err := b.runMin(ctx, p, init, opts)
	if err != nil {
		return nil, res, err
	}
	start := time.Now()
	const none uint32 = math.MaxUint32 // the unreached's level, and no parent
	in, inv := b.In(), b.l.InvPerm
	parents := make([]uint32, len(level))
	par.For(len(level), b.workers, 1<<12, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			lv, p := level[v], none
			switch {
			case lv == 0:
				p = uint32(v)
			case lv != none:
				for _, u := range in.Src[in.Offsets[v]:in.Offsets[v+1]] {
					if level[u] == lv-1 {
						p = u
						break
					}
				}
			}
			if p != none {
				p = inv[p]
			}
			parents[inv[v]] = p
		}
	})
	res.CopySeconds = time.Since(start).Seconds()
	return parents, res, nil
}
