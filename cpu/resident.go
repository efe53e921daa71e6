package cpu

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
)

// smallestScratchName names RunMin's work array of components' smallest
// original ids (engine.ComponentsToOriginalInto) in the backend's scratch.
const smallestScratchName = "cpu.runmin.smallest"

// RunMin runs p from init and returns its result in the original numbering
// (engine.Backend): the initial values, the run and the mapping all in
// parallel. The run's engines come from the backend's idle runners (their
// buffers and dense estimates reused). A synchronous run's result (values
// or components) is mapped into a buffer kept with those engines: it stays
// valid until the next run that takes them, as engine.Backend allows; an
// async run's is a new slice.
func (b *Backend) RunMin(ctx context.Context, p engine.Program[uint32], init engine.Init, out engine.Output, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	values, res, e, done, err := b.runMin(ctx, p, init, opts)
	defer done()
	if err != nil {
		return nil, res, err
	}
	start := time.Now()
	var result []uint32
	switch {
	case e == nil:
		result = make([]uint32, len(values))
	default:
		e.out = engine.Sized(e.out, len(values))
		result = e.out
	}
	if out == engine.OutputComponents {
		smallest, _ := b.scratch.Take(smallestScratchName).([]uint32)
		smallest = engine.Sized(smallest, len(values))
		result = engine.ComponentsToOriginalInto(b.l, values, smallest, result, b.workers)
		b.scratch.Put(smallestScratchName, smallest)
	} else {
		result = engine.ToOriginalInto(b.l, values, result, b.workers)
	}
	res.CopySeconds = time.Since(start).Seconds()
	return result, res, nil
}

// runMin runs min program p from init and returns its values in the
// layout numbering, valid until done is called (a synchronous run's values
// live in its pooled engines e, which done gives back; done is never nil,
// e is nil for an async run).
func (b *Backend) runMin(ctx context.Context, p engine.Program[uint32], init engine.Init, opts engine.RunOptions) ([]uint32, engine.Result, *engines[uint32], func(), error) {
	nothing := func() {}
	if opts.Mode == engine.Async {
		values, f, err := init.Values(b.l.NumVertices, b.workers)
		if err != nil {
			return nil, engine.Result{}, nil, nothing, fmt.Errorf("cpu backend: %w", err)
		}
		res, err := b.asyncRunner(opts).Run(ctx, p, values, f)
		return values, res, nil, nothing, err
	}
	e, err := b.takeMinRunner(opts)
	if err != nil {
		return nil, engine.Result{}, nil, nothing, err
	}
	done := func() { b.putMinRunner(e) }
	if uint64(len(e.values)) != b.l.NumVertices {
		e.values = make([]uint32, b.l.NumVertices)
	}
	values, f, err := init.ValuesInto(e.values, b.workers)
	if err != nil {
		return nil, engine.Result{}, e, done, fmt.Errorf("cpu backend: %w", err)
	}
	res, err := e.r.Run(ctx, p, values, f)
	return values, res, e, done, err
}

// BFSParents runs BFS as RunMin does and returns its tree (see
// engine.TreeBackend): each vertex scans its in-row (Backend.In) for the
// first in-neighbour one level up, in parallel, and the parents are mapped
// to the original numbering on the way out.
func (b *Backend) BFSParents(ctx context.Context, p engine.Program[uint32], init engine.Init, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	if !init.HasSource {
		return nil, engine.Result{}, fmt.Errorf("cpu backend: a BFS tree needs a source")
	}
	level, res, _, done, err := b.runMin(ctx, p, init, opts)
	defer done()
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

// Scratch returns the work buffers the backend keeps between runs for the
// apps (engine.ScratchBackend).
func (b *Backend) Scratch() *engine.Scratch { return &b.scratch }
