package partition_test

import (
	"context"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/stretchr/testify/require"
)

// deviceExchangerStub is an in-memory exchanger that is a DeviceExchanger
// whose DeviceParts returns scripted parts, counting its calls.
type deviceExchangerStub struct {
	*partition.MemExchanger
	n     uint64
	parts []*scriptedDevicePart
	calls int
}

func (x *deviceExchangerStub) DeviceParts(parts []*partition.Part, _ []engine.Backend, _ engine.Program[uint32], _ engine.RunOptions) ([]partition.DevicePart, error) {
	x.calls++
	x.parts = make([]*scriptedDevicePart, len(parts))
	out := make([]partition.DevicePart, len(parts))
	for i := range parts {
		x.parts[i] = &scriptedDevicePart{index: i, n: x.n}
		out[i] = x.parts[i]
	}
	return out, nil
}

// scriptedDevicePart is a DevicePart whose run converges in one superstep
// and which logs its calls; part 0 collects n zeros.
type scriptedDevicePart struct {
	index int
	n     uint64
	start partition.Start // Init's
	log   []string
}

func (p *scriptedDevicePart) Init(start partition.Start, _ uint32, _ bool) (uint64, error) {
	p.log = append(p.log, "init")
	p.start = start
	return 1, nil
}

func (p *scriptedDevicePart) Superstep(context.Context, uint64) (partition.DeviceStep, error) {
	p.log = append(p.log, "superstep")
	return partition.DeviceStep{}, nil
}

func (p *scriptedDevicePart) Parents(context.Context) error {
	p.log = append(p.log, "parents")
	return nil
}

func (p *scriptedDevicePart) Collect(context.Context) ([]uint32, error) {
	p.log = append(p.log, "collect")
	if p.index == 0 {
		return make([]uint32, p.n), nil
	}
	return nil, nil
}

func (p *scriptedDevicePart) Close() error { return nil }

// TestRunTreeOnDevices: bfs-tree over device parts of an undirected graph
// runs the supersteps, then every part's Parents, then the collection;
// bfs does not call Parents; a directed graph's tree stays on the host
// path (the exchanger is not asked) and is a valid tree.
func TestRunTreeOnDevices(t *testing.T) {
	ctx := context.Background()
	var el *graph.EdgeList // the first directed shape with arcs
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		if s.EL.Directed && s.EL.NumArcs() > 0 {
			el = s.EL
			break
		}
	}
	require.NotNil(t, el, "a directed test shape")
	sym := el.Clone()
	sym.Symmetrize(2)
	sps, sbs := split(t, sym, partition.Options{Method: partition.Random, Parts: 3, Seed: 1})
	x := &deviceExchangerStub{MemExchanger: partition.NewMemExchanger(3), n: sym.NumVertices}
	_, st, err := partition.Run(ctx, "bfs-tree", sps, sbs, 0, partition.RunOptions{Exchanger: x})
	require.NoError(t, err)
	require.Equal(t, 1, x.calls)
	for i, p := range x.parts {
		require.Equal(t, []string{"init", "superstep", "parents", "collect"}, p.log, "part %d", i)
	}
	require.Equal(t, 1, st.Supersteps)
	_, _, err = partition.Run(ctx, "bfs", sps, sbs, 0, partition.RunOptions{Exchanger: x})
	require.NoError(t, err)
	require.Equal(t, []string{"init", "superstep", "collect"}, x.parts[0].log, "bfs has no parent pass")

	ps, bs := split(t, el, partition.Options{Method: partition.Random, Parts: 3, Seed: 1})
	x = &deviceExchangerStub{MemExchanger: partition.NewMemExchanger(3), n: el.NumVertices}
	parents, st, err := partition.Run(ctx, "bfs-tree", ps, bs, 0, partition.RunOptions{Exchanger: x})
	require.NoError(t, err)
	require.Zero(t, x.calls, "a directed graph's tree runs on the host path")
	require.NoError(t, apps.ValidateBFSTree(graph.ToCSR(el, 2), 0, parents))
	require.Positive(t, st.Parents)
}

// TestRunDeviceStarts: device parts of cc start to hook whatever the
// mode; cc-lp's propagate labels; bfs's and bfs-tree's start from their
// source.
func TestRunDeviceStarts(t *testing.T) {
	ctx := context.Background()
	var el *graph.EdgeList // the first undirected shape with arcs
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		if !s.EL.Directed && s.EL.NumArcs() > 0 {
			el = s.EL
			break
		}
	}
	require.NotNil(t, el, "an undirected test shape")
	ps, bs := split(t, el, partition.Options{Method: partition.Random, Parts: 2, Seed: 1})
	for _, c := range []struct {
		app  string
		mode engine.Mode
		want partition.Start
	}{
		{"cc", engine.Auto, partition.FromHooks},
		{"cc", engine.Hybrid, partition.FromHooks},
		{"cc", engine.Dense, partition.FromHooks},
		{"cc", engine.Sparse, partition.FromHooks},
		{"cc-lp", engine.Dense, partition.FromLabels},
		{"cc-lp", engine.Hybrid, partition.FromLabels},
		{"bfs", engine.Hybrid, partition.FromSource},
		{"bfs-tree", engine.Dense, partition.FromSource},
	} {
		x := &deviceExchangerStub{MemExchanger: partition.NewMemExchanger(2), n: el.NumVertices}
		_, _, err := partition.Run(ctx, c.app, ps, bs, 0, partition.RunOptions{Exchanger: x, Engine: engine.RunOptions{Mode: c.mode}})
		require.NoError(t, err, "%s %s", c.app, c.mode)
		for i, p := range x.parts {
			require.Equal(t, c.want, p.start, "%s %s: part %d", c.app, c.mode, i)
		}
	}
}
