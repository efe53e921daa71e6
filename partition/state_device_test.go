package partition_test

import (
	"context"
	"errors"
	"testing"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/stretchr/testify/require"
)

// stateExchangerStub is an in-memory exchanger that is a StateExchanger
// whose parts are scripted (scriptedStatePart).
type stateExchangerStub struct {
	*partition.MemExchanger
	n     uint64
	fail  bool   // every part's third step fails
	live  uint64 // what every Peel and Round says is left (0: the run ends at once)
	parts []*scriptedStatePart
}

func (x *stateExchangerStub) StateParts(parts []*partition.Part, _ []engine.Backend, _ string) ([]partition.StatePart, error) {
	x.parts = make([]*scriptedStatePart, len(parts))
	out := make([]partition.StatePart, len(parts))
	for i := range parts {
		x.parts[i] = &scriptedStatePart{index: i, x: x}
		out[i] = x.parts[i]
	}
	return out, nil
}

// scriptedStatePart is a StatePart whose steps leave x.live vertices (and
// with x.fail, whose third step fails), and whose part 0 collects n
// sevens.
type scriptedStatePart struct {
	index, steps int
	x            *stateExchangerStub
	closed       bool
}

var errScripted = errors.New("scripted failure")

func (p *scriptedStatePart) Start(context.Context) error { return nil }

func (p *scriptedStatePart) step(ctx context.Context) error {
	p.steps++
	if p.x.fail && p.steps == 3 {
		return errScripted
	}
	return ctx.Err()
}

func (p *scriptedStatePart) Round(ctx context.Context, _ uint64) (uint64, partition.DeviceStep, error) {
	return p.x.live, partition.DeviceStep{}, p.step(ctx)
}

func (p *scriptedStatePart) Peel(ctx context.Context, _ uint32) (uint64, uint64, partition.DeviceStep, error) {
	return 0, p.x.live, partition.DeviceStep{}, p.step(ctx)
}

func (p *scriptedStatePart) Collect(context.Context) ([]uint32, error) {
	if p.index != 0 {
		return nil, nil
	}
	out := make([]uint32, p.x.n)
	for i := range out {
		out[i] = 7
	}
	return out, nil
}

func (p *scriptedStatePart) Close() error {
	p.closed = true
	return nil
}

// TestRunStatesOnDeviceParts: RunKCore, RunMIS and RunColor drive a
// StateExchanger's parts (part 0's collection is the result, every part
// is closed), report a part's failure with its part and step, stop a run whose
// steps never end, and stay on the host when told to.
func TestRunStatesOnDeviceParts(t *testing.T) {
	ctx := context.Background()
	el := &graph.EdgeList{NumVertices: 6, Src: []uint32{0, 1, 2, 3, 4}, Dst: []uint32{1, 2, 3, 4, 5}}
	el.Symmetrize(1)
	ps, bs := split(t, el, partition.Options{Method: partition.Static, Parts: 2})
	run := func(app string, x *stateExchangerStub, host bool) ([]uint32, partition.Stats, error) {
		switch app {
		case "kcore":
			return partition.RunKCore(ctx, ps, bs, x, host)
		case "mis":
			set, st, err := partition.RunMIS(ctx, ps, bs, 3, x, host, 1)
			var out []uint32
			for _, in := range set {
				v := uint32(0)
				if in {
					v = 1
				}
				out = append(out, v)
			}
			return out, st, err
		}
		return partition.RunColor(ctx, ps, bs, 3, x, host, 1)
	}
	for _, app := range []string{"kcore", "mis", "color"} {
		x := &stateExchangerStub{MemExchanger: partition.NewMemExchanger(2), n: 6}
		out, st, err := run(app, x, false)
		require.NoError(t, err, app)
		if app == "mis" {
			require.Equal(t, []uint32{0, 0, 0, 0, 0, 0}, out, app) // only state 1 is "in"
		} else {
			require.Equal(t, []uint32{7, 7, 7, 7, 7, 7}, out, app)
		}
		require.Equal(t, 1, st.Supersteps, app)
		for _, p := range x.parts {
			require.True(t, p.closed, app)
		}

		x = &stateExchangerStub{MemExchanger: partition.NewMemExchanger(2), n: 6, fail: true, live: 1}
		_, _, err = run(app, x, false)
		require.ErrorIs(t, err, errScripted, app)
		require.Regexp(t, "part [01]: step 2", err.Error(), app)
		for _, p := range x.parts {
			require.True(t, p.closed, app)
		}

		x = &stateExchangerStub{MemExchanger: partition.NewMemExchanger(2), n: 6, live: 1}
		_, _, err = run(app, x, false)
		require.ErrorContains(t, err, "did not end", app)

		x = &stateExchangerStub{MemExchanger: partition.NewMemExchanger(2), n: 6}
		_, _, err = run(app, x, true)
		require.NoError(t, err, app)
		require.Nil(t, x.parts, "%s: on the host, no device parts", app)
	}
}
