package gpu

import (
	"context"
	"fmt"
	"time"

	cuda "github.com/mgraph-dev/mgraph/cgo"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/sampler"
)

// sumRun returns the backend's float64 run state, allocating it on first
// use. The caller holds b.mu.
func (b *Backend) sumRun() (*cuda.SumRun, error) {
	if b.sum == nil {
		run, err := cuda.NewSumRun(b.dl)
		if err != nil {
			return nil, fmt.Errorf("cuda backend: %w", err)
		}
		b.sum = run
	}
	return b.sum, nil
}

// runDelta runs data-driven PageRank (engine.DevicePRDelta) with the float64
// engines: values are the pushes, f the initially active vertices; the
// program's x and residuals go to the device at the start and come back at
// the end, with the values. The modes and the hybrid are the min programs'
// (Backend.iterate), with their own EDP/ESP model.
func (r *prRunner) runDelta(ctx context.Context, p engine.Program[float64], dp engine.DevicePRDelta, values []float64, f *engine.Frontier) (engine.Result, error) {
	var res engine.Result
	b, l := r.b, r.b.l
	if p.Combine() != engine.CombineSum || p.ApplyAll() || p.Edge() != engine.EdgeSource {
		return res, fmt.Errorf("cuda backend: program %T is not a data-driven sum program", p)
	}
	damping, eps, x, residual := dp.DevicePRDelta()
	n := l.NumVertices
	if uint64(len(values)) != n || uint64(len(x)) != n || uint64(len(residual)) != n || f.NumVertices() != n {
		return res, fmt.Errorf("run: %d values, %d x, %d residuals and a frontier over %d vertices for a graph of %d",
			len(values), len(x), len(residual), f.NumVertices(), n)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	run, err := b.sumRun()
	if err != nil {
		return res, err
	}
	isList, err := loadFrontier(b, f, func(list []uint32, flags []uint8) error { return run.Load(values, list, flags) })
	if err != nil {
		return res, err
	}
	if err := run.LoadPRDelta(x, residual); err != nil {
		return res, fmt.Errorf("cuda backend: %w", err)
	}
	opts := r.opts
	if opts.SampleRate <= 0 || opts.SampleRate > 1 {
		opts.SampleRate = sampler.DefaultSampleRate
	}
	prog := &cuda.SumProgram{ID: cuda.SumProgPRDelta, Damping: damping, Eps: eps}
	start := time.Now()
	res, err = b.iterate(ctx, sumSteps{SumRun: run, p: prog}, sumKey(prog.ID), opts, false, f, isList, nil)
	if err != nil {
		return res, err
	}
	res.Seconds = time.Since(start).Seconds()
	if err := run.Store(values); err != nil {
		return res, fmt.Errorf("cuda backend: %w", err)
	}
	if err := run.StorePRDelta(x, residual); err != nil {
		return res, fmt.Errorf("cuda backend: %w", err)
	}
	return res, nil
}
