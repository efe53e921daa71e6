//go:build cuda

package main

import (
	"fmt"
	"time"

	"github.com/mgraph-dev/mgraph/bench"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/layout"
)

// registerBenchBackends makes the GPU engines available to `mgraph bench`
// as backend "cuda" (this binary was built with the cuda tag).
//
// New uploads the layout with gpu.New and returns the upload's wall time;
// the harness closes the backend (io.Closer) after its configurations.
// The oracle's steppers upload their own copy of the layout (and Pull one
// more), closed when the oracle is done; their steps are timed by the
// kernels' CUDA-event times (bench.Backend.DeviceTime), not by the host
// copies around each step.
func registerBenchBackends() {
	bench.RegisterBackend("cuda", bench.Backend{
		New: newCUDABench,
		Steppers: func(l *layout.Layout, threads int) (engine.DenseStepper[uint32], engine.SparseStepper[uint32], error) {
			st, err := newGPUSteppers(l, threads)
			if err != nil {
				return nil, nil, err
			}
			return st.Dense(), st.Sparse(), nil
		},
		Pull: func(l *layout.Layout, threads int) (engine.PullStepper[uint32], error) {
			st, err := newGPUSteppers(l, threads)
			if err != nil {
				return nil, err
			}
			return st.Pull(), nil
		},
		DeviceTime: true,
	})
}

// newCUDABench uploads l with gpu.New and returns the upload's wall time.
func newCUDABench(l *layout.Layout, threads int) (engine.Backend, time.Duration, error) {
	start := time.Now()
	b, err := gpu.New(l, threads)
	if err != nil {
		return nil, 0, cudaUnavailable(err)
	}
	return b, time.Since(start), nil
}

// cudaBenchNew is how bench's cuda backend (and its operator twins,
// cuda-ops) loads a layout.
func cudaBenchNew() benchNew { return newCUDABench }

// newGPUSteppers uploads l and returns steppers that own the upload.
func newGPUSteppers(l *layout.Layout, threads int) (*gpu.Steppers, error) {
	b, err := gpu.New(l, threads)
	if err != nil {
		return nil, cudaUnavailable(err)
	}
	st, err := gpu.NewSteppersOwning(b)
	if err != nil {
		return nil, fmt.Errorf("cuda oracle steppers: %w", err)
	}
	return st, nil
}
