package bench

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/dense"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/sparse"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// noFloat is a CPU backend without float64 programs (as the GPU is without
// pr-delta and bc) that counts its Close calls.
type noFloat struct {
	*cpu.Backend
	closed *atomic.Int64
}

func (b noFloat) Float64Runner(engine.RunOptions) (engine.Runner[float64], error) {
	return nil, errors.New("no float64 programs here")
}

func (b noFloat) Close() error { b.closed.Add(1); return nil }

// fixedDense and fixedSparse report a fixed device time as their phase.
type fixedDense struct{ engine.DenseStepper[uint32] }

func (d fixedDense) Step(ctx context.Context, p engine.Program[uint32], values []uint32, active, next []uint8) (uint64, []engine.Phase, error) {
	c, _, err := d.DenseStepper.Step(ctx, p, values, active, next)
	return c, []engine.Phase{{Name: "kernel", Seconds: 0.25}, {Name: "kernel2", Seconds: 0.25}}, err
}

type fixedSparse struct {
	engine.SparseStepper[uint32]
	closed *atomic.Int64
}

func (s fixedSparse) Step(ctx context.Context, p engine.Program[uint32], values []uint32, f []uint32) ([]uint32, []engine.Phase, error) {
	o, _, err := s.SparseStepper.Step(ctx, p, values, f)
	return o, []engine.Phase{{Name: "kernel", Seconds: 0.125}}, err
}

func (s fixedSparse) Close() error { s.closed.Add(1); return nil }

// TestFailingAppIsAnErrorRow runs a plan on a backend without float64
// programs: pr, pr-delta and bc become error rows, the other apps run, the
// backends are closed, and the oracle times steps by their phases.
func TestFailingAppIsAnErrorRow(t *testing.T) {
	var news, closes, stepperCloses atomic.Int64
	RegisterBackend("test-nofloat", Backend{
		New: func(l *layout.Layout, threads int) (engine.Backend, time.Duration, error) {
			b, err := cpu.New(l, threads)
			news.Add(1)
			return noFloat{b, &closes}, time.Millisecond, err
		},
		Steppers: func(l *layout.Layout, threads int) (engine.DenseStepper[uint32], engine.SparseStepper[uint32], error) {
			d, err := dense.New[uint32](l, 2)
			require.NoError(t, err)
			s, err := sparse.New[uint32](l, 2)
			require.NoError(t, err)
			return fixedDense{d}, fixedSparse{s, &stepperCloses}, nil
		},
		DeviceTime: true,
	})
	p := tinyPlan(t)
	p.Graphs = p.Graphs[:1]
	p.Backends = []string{"test-nofloat"}
	p.Oracle = []string{"bfs"}
	res, err := Run(context.Background(), p, Options{})
	require.NoError(t, err)

	failed, ok := map[string]int{}, map[string]int{}
	for _, tr := range res.Trials {
		if tr.Error != "" {
			failed[tr.App]++
			assert.Contains(t, tr.Error, "no float64 programs here")
			assert.Zero(t, tr.Seconds)
		} else {
			ok[tr.App]++
		}
	}
	// One error row per mode and numbering; the others all trials.
	assert.Equal(t, map[string]int{"pr": 6, "pr-delta": 6, "bc": 6}, failed)
	assert.Equal(t, map[string]int{"bfs": 12, "bfs-tree": 12, "sssp": 12, "cc": 12, "cc-lp": 12}, ok)
	assert.Equal(t, news.Load(), closes.Load(), "every backend closed")
	assert.Positive(t, news.Load())
	assert.Equal(t, int64(1), stepperCloses.Load())
	assert.NotEmpty(t, res.Notes)

	require.Len(t, res.Oracles, 1)
	for _, it := range res.Oracles[0].Iterations {
		assert.Equal(t, 0.5, it.DenseSeconds, "device time: the phases' sum")
		assert.Equal(t, 0.125, it.SparseSeconds)
	}

	sums := Summarize(res.Trials)
	var errs int
	for _, s := range sums {
		if s.Error != "" {
			errs++
			assert.Zero(t, s.Trials)
		}
	}
	assert.Equal(t, 3*3*2, errs, "pr, pr-delta and bc × 3 modes × 2 numberings")

	var table strings.Builder
	require.NoError(t, WriteTable(&table, res))
	assert.Contains(t, table.String(), "configurations that did not run")
	assert.Contains(t, table.String(), "ERROR")
}
