package partition_test

import (
	"context"
	"testing"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/stretchr/testify/require"
)

// deltaExchangerStub is an in-memory exchanger that is a DeltaExchanger
// whose parts are scripted (scriptedDeltaPart).
type deltaExchangerStub struct {
	*partition.MemExchanger
	n     uint64
	steps int  // the superstep after which no vertex is active (0: never)
	fail  bool // every part's second superstep fails
	parts []*scriptedDeltaPart
}

func (x *deltaExchangerStub) DeltaParts(parts []*partition.Part, _ []engine.Backend, _ partition.RankOptions) ([]partition.DeltaPart, error) {
	x.parts = make([]*scriptedDeltaPart, len(parts))
	out := make([]partition.DeltaPart, len(parts))
	for i := range parts {
		x.parts[i] = &scriptedDeltaPart{index: i, x: x}
		out[i] = x.parts[i]
	}
	return out, nil
}

// scriptedDeltaPart is a DeltaPart that converges after x.steps
// supersteps (and with x.fail fails its second), and whose part 0
// collects n halves.
type scriptedDeltaPart struct {
	index, steps int
	x            *deltaExchangerStub
	closed       bool
}

func (p *scriptedDeltaPart) Start() error { return nil }

func (p *scriptedDeltaPart) Superstep(context.Context) (uint64, uint64, partition.RankStep, error) {
	p.steps++
	if p.x.fail && p.steps == 2 {
		return 0, 0, partition.RankStep{}, errScripted
	}
	if p.x.steps > 0 && p.steps >= p.x.steps {
		return 0, 0, partition.RankStep{}, nil
	}
	return 1, 2, partition.RankStep{}, nil
}

func (p *scriptedDeltaPart) Collect(context.Context) ([]float64, error) {
	if p.index != 0 {
		return nil, nil
	}
	out := make([]float64, p.x.n)
	for i := range out {
		out[i] = 0.5
	}
	return out, nil
}

func (p *scriptedDeltaPart) Close() error {
	p.closed = true
	return nil
}

// TestRunPageRankDeltaOnDeviceParts: RunPageRankDelta drives a
// DeltaExchanger's parts (part 0's collection is the result, the
// supersteps are counted, every part is closed), stops at the superstep
// cap unconverged, and reports a part's failure with its superstep.
func TestRunPageRankDeltaOnDeviceParts(t *testing.T) {
	ctx := context.Background()
	el := &graph.EdgeList{NumVertices: 4, Directed: true, Src: []uint32{0, 1, 2, 3}, Dst: []uint32{1, 2, 3, 0}}
	ps, bs := split(t, el, partition.Options{Method: partition.Static, Parts: 2})
	ro := partition.RankOptions{Damping: 0.85, Tolerance: 1e-6}

	x := &deltaExchangerStub{MemExchanger: partition.NewMemExchanger(2), n: 4, steps: 3}
	ranks, steps, st, err := partition.RunPageRankDelta(ctx, ps, bs, ro, engine.RunOptions{}, x, false)
	require.NoError(t, err)
	require.Equal(t, []float64{0.5, 0.5, 0.5, 0.5}, ranks)
	require.Equal(t, 3, steps)
	require.Equal(t, 3, st.Supersteps)
	require.True(t, st.Converged)
	for _, p := range x.parts {
		require.True(t, p.closed)
	}

	capped := ro
	capped.MaxIterations = 2
	x = &deltaExchangerStub{MemExchanger: partition.NewMemExchanger(2), n: 4}
	_, steps, st, err = partition.RunPageRankDelta(ctx, ps, bs, capped, engine.RunOptions{}, x, false)
	require.NoError(t, err)
	require.Equal(t, 2, steps)
	require.False(t, st.Converged)

	x = &deltaExchangerStub{MemExchanger: partition.NewMemExchanger(2), n: 4, fail: true}
	_, _, _, err = partition.RunPageRankDelta(ctx, ps, bs, ro, engine.RunOptions{}, x, false)
	require.ErrorIs(t, err, errScripted)
	require.Regexp(t, "part [01]: superstep 1", err.Error())
	for _, p := range x.parts {
		require.True(t, p.closed)
	}
}
