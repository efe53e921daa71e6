package partition_test

import (
	"context"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/require"
)

// TestRunKCoreMatchesOneBackend: on every test shape, symmetrized with
// its repeated arcs and self-loops kept, and every partitioner and part
// count, the core numbers over parts are one backend's apps.KCore and
// pass the reference check; one part sends nothing.
func TestRunKCoreMatchesOneBackend(t *testing.T) {
	ctx := context.Background()
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		sym := s.EL.Clone()
		sym.Symmetrize(2)
		g := graph.ToCSR(sym, 2)
		l, err := preprocess.Build(ctx, sym, testgraphs.SmallParams(), preprocess.Options{Workers: 2})
		require.NoError(t, err)
		whole, err := cpu.New(l, 2)
		require.NoError(t, err)
		want, _, err := apps.KCore(ctx, whole, apps.OpsOptions{})
		require.NoError(t, err, s.Name)
		eachSplit(t, s.Name, sym, func(tag string, parts int, ps []*partition.Part, bs []engine.Backend) {
			core, st, err := partition.RunKCore(ctx, ps, bs, nil, false)
			require.NoError(t, err, tag)
			require.Equal(t, want, core, tag)
			require.NoError(t, apps.ValidateKCore(g, core), tag)
			require.True(t, st.Converged, tag)
			if parts == 1 {
				require.Zero(t, st.Messages, tag)
			}
		})
	}
}

// TestRunKCoreRefuses: a directed graph is refused, as are inconsistent
// parts and an exchanger of the wrong size; a cancelled context stops the
// run with its error.
func TestRunKCoreRefuses(t *testing.T) {
	ctx := context.Background()
	dir := &graph.EdgeList{NumVertices: 3, Directed: true, Src: []uint32{0, 1}, Dst: []uint32{1, 2}}
	ps, bs := split(t, dir, partition.Options{Method: partition.Static, Parts: 2})
	_, _, err := partition.RunKCore(ctx, ps, bs, nil, false)
	require.ErrorContains(t, err, "undirected")
	sym := dir.Clone()
	sym.Symmetrize(1)
	ps, bs = split(t, sym, partition.Options{Method: partition.Static, Parts: 2})
	_, _, err = partition.RunKCore(ctx, ps, bs[:1], nil, false)
	require.Error(t, err)
	_, _, err = partition.RunKCore(ctx, ps, bs, partition.NewMemExchanger(3), false)
	require.ErrorContains(t, err, "3 ranks for 2 parts")
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, _, err = partition.RunKCore(cancelled, ps, bs, nil, false)
	require.ErrorIs(t, err, context.Canceled)
}
