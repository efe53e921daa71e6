package gpu_test

import (
	"context"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/stretchr/testify/require"
)

// TestRunsFromBuiltLayout runs every app on a backend made from a layout the
// device built and kept (the largest sections never uploaded again, nor on
// the host yet), against the CPU backend on the CPU builder's layout; the
// download afterwards completes the host layout byte for byte as the CPU
// builds it, and after the owner's release the backend still runs (it holds
// the arrays until Close).
func TestRunsFromBuiltLayout(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	el := testgraphs.Generated(t, "rmat:12:8", 4)
	el.Symmetrize(4)
	el.SetRandomWeights(3, 1, 64, 4)
	p := testgraphs.SmallParams()
	want := build(t, el, p)
	d, err := cuda.GetDevice(0)
	require.NoError(t, err)
	b, _, err := cuda.BuildLayoutDeferred(d, el.NumVertices, el.Src, el.Dst, el.Weights, el.Directed, p)
	require.NoError(t, err)
	l := b.Layout()
	require.Empty(t, l.SparseDst, "the deferred sections stay on the device")
	require.NotEmpty(t, l.Perm)
	gb, err := gpu.New(l, 2, gpu.WithBuilt(b))
	require.NoError(t, err)
	cb, err := cpu.New(want, 2)
	require.NoError(t, err)
	srcs := []uint32{0, uint32(l.NumVertices / 2)}
	pr := apps.DefaultPageRankOptions()
	for _, app := range apps.Names {
		w, _, err := apps.Run(ctx, app, cb, cb, srcs, pr, engine.RunOptions{})
		require.NoError(t, err, app)
		got, _, err := apps.Run(ctx, app, gb, gb, srcs, pr, engine.RunOptions{})
		require.NoError(t, err, app)
		switch w := w.(type) {
		case []uint32:
			require.Equal(t, w, got, app)
		case []float64:
			requireClose(t, w, got.([]float64), 1e-9, app)
		}
	}
	require.NoError(t, b.Download())
	require.Equal(t, want, l, "downloaded layout differs from the CPU builder's")
	require.NoError(t, b.Release())
	// The backend still holds the arrays.
	got, _, err := apps.BFS(ctx, gb, srcs[0], engine.RunOptions{})
	require.NoError(t, err)
	require.NoError(t, apps.ValidateBFS(apps.OriginalCSR(want, 2), srcs[0], got))
	require.NoError(t, gb.Close())
}

// TestBuildInMatchesHost: the device's transpose of a directed layout's
// sparse part (cuda.DeviceLayout.BuildIn) equals the host's
// (layout.Layout.In), on R-MAT (hubs, vertices without in-arcs), a chain,
// a graph without arcs and a weighted R-MAT (its weights transposed too,
// by BuildInWeights); and on a layout the device built and kept
// (no sparse part on the host), the hybrid BFS takes pull steps over it and
// matches the CPU.
func TestBuildInMatchesHost(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	d, err := cuda.GetDevice(0)
	require.NoError(t, err)
	rm := testgraphs.Generated(t, "rmat:13:16", 6)
	chain := &graph.EdgeList{NumVertices: 200, Directed: true}
	for v := uint32(0); v+1 < 200; v++ {
		chain.Src, chain.Dst = append(chain.Src, v+1), append(chain.Dst, v)
	}
	none := &graph.EdgeList{NumVertices: 7, Directed: true}
	weighted := testgraphs.Generated(t, "rmat:12:8", 3)
	weighted.SetRandomWeights(5, 1, 64, 2)
	for _, el := range []*graph.EdgeList{rm, chain, none, weighted} {
		l := build(t, el, testgraphs.SmallParams())
		dl, err := cuda.UploadLayout(d, l)
		require.NoError(t, err)
		require.False(t, dl.HasIn())
		require.NoError(t, dl.BuildIn())
		got, err := dl.InArcs()
		require.NoError(t, err)
		want := l.In(2)
		require.Equal(t, want.Offsets, got.Offsets)
		require.Equal(t, want.Src, got.Src)
		require.Nil(t, got.Weights) // BuildInWeights makes them
		require.NoError(t, dl.BuildInWeights())
		require.Equal(t, l.Weighted, dl.HasInWeights())
		got, err = dl.InArcs()
		require.NoError(t, err)
		require.Equal(t, want.Src, got.Src)
		require.Equal(t, want.Weights, got.Weights)
		require.NoError(t, dl.Close())
	}

	b, _, err := cuda.BuildLayoutDeferred(d, rm.NumVertices, rm.Src, rm.Dst, nil, true, testgraphs.SmallParams())
	require.NoError(t, err)
	require.Empty(t, b.Layout().SparseDst)
	gb, err := gpu.New(b.Layout(), 2, gpu.WithBuilt(b))
	require.NoError(t, err)
	require.NoError(t, b.Release())
	cb, err := cpu.New(build(t, rm, testgraphs.SmallParams()), 2)
	require.NoError(t, err)
	pulls := 0
	for _, s := range []uint32{0, 1, 2, 3} {
		want, _, err := apps.BFS(ctx, cb, s, engine.RunOptions{NoPull: true})
		require.NoError(t, err)
		got, res, err := apps.BFS(ctx, gb, s, engine.RunOptions{Trace: true})
		require.NoError(t, err)
		require.Equal(t, want, got, "source %d", s)
		for _, tr := range res.Trace {
			if tr.Mode == "pull" {
				pulls++
			}
		}
	}
	require.Greater(t, pulls, 0)
	require.NoError(t, gb.Close())
}
