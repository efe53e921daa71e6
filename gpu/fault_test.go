package gpu_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"testing"

	"github.com/mgraph-dev/mgraph"
	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/stretchr/testify/require"
)

// faultGraph is the fault tests' graph and a BFS on a backend, validated.
func faultGraph(t *testing.T) (*graph.CSR, func(b engine.Backend) error, *gpu.Backend) {
	el := testgraphs.Generated(t, "rmat:10:8", 2)
	el.Symmetrize(2)
	l := build(t, el, testgraphs.SmallParams())
	g := apps.OriginalCSR(l, 2)
	bfs := func(b engine.Backend) error {
		levels, _, err := apps.BFS(context.Background(), b, 1, engine.RunOptions{Mode: engine.Hybrid})
		if err != nil {
			return err
		}
		return apps.ValidateBFS(g, 1, levels)
	}
	b, err := gpu.New(l, 2)
	require.NoError(t, err)
	return g, bfs, b
}

// TestDeviceFaults: a launch the device refuses is a Go error naming the
// kernel, and the backend goes on.
func TestDeviceFaults(t *testing.T) {
	needGPU(t)
	_, bfs, b := faultGraph(t)
	defer b.Close()
	require.NoError(t, b.RecoveredFrom())
	require.NoError(t, bfs(b))
	d, err := cuda.GetDevice(0)
	require.NoError(t, err)
	err = d.InjectFault(cuda.FaultLaunch)
	require.ErrorContains(t, err, "mg_fault_kernel")
	require.ErrorContains(t, err, "cudaErrorInvalidConfiguration")
	require.NoError(t, bfs(b), "a launch error leaves the context usable")
	levels, _, err := apps.BFSOps(context.Background(), b, 1, apps.OpsOptions{})
	require.NoError(t, err)
	require.Len(t, levels, int(b.Layout().NumVertices))
}

// faultChild is the environment variable that makes TestDeviceLost the
// child process that faults.
const faultChild = "MGRAPH_TEST_FAULT_CHILD"

// TestDeviceLost: a kernel's illegal address (the context lost for the
// whole process) is a Go error naming the kernel; the faulted backend's
// runs fail; a fresh backend resets the device and runs again, or, where
// the platform gives the process no new context, fails with
// cuda.ErrDeviceLost, and the Go API's Auto backend goes on on the CPU.
// The fault happens in a child process, so the other tests keep a working
// device.
func TestDeviceLost(t *testing.T) {
	needGPU(t)
	if os.Getenv(faultChild) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestDeviceLost$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), faultChild+"=1")
		out, err := cmd.CombinedOutput()
		t.Logf("child:\n%s", out)
		require.NoError(t, err)
		require.Contains(t, string(out), "--- PASS: TestDeviceLost")
		_, bfs, b := faultGraph(t) // this process's device is untouched
		defer b.Close()
		require.NoError(t, bfs(b))
		return
	}
	_, bfs, b := faultGraph(t)
	require.NoError(t, bfs(b))
	d, err := cuda.GetDevice(0)
	require.NoError(t, err)
	err = d.InjectFault(cuda.FaultIllegalAddress)
	require.ErrorContains(t, err, "mg_fault_kernel")
	require.ErrorContains(t, err, "cudaErrorIllegalAddress")
	require.Error(t, bfs(b), "the context is lost")
	_ = b.Close() // its memory went with the context

	el := testgraphs.Generated(t, "rmat:10:8", 2)
	el.Symmetrize(2)
	fresh, err := gpu.New(build(t, el, testgraphs.SmallParams()), 2)
	lost := err != nil
	if !lost {
		t.Log("the device was reset and works again")
		defer fresh.Close()
		require.ErrorContains(t, fresh.RecoveredFrom(), "cudaErrorIllegalAddress")
		require.NoError(t, bfs(fresh))
	} else {
		t.Logf("the device is lost to this process: %v", err)
		require.True(t, errors.Is(err, cuda.ErrDeviceLost), "%v", err)
		require.ErrorContains(t, err, "cudaErrorIllegalAddress")
	}
	ctx := context.Background()
	g, err := mgraph.Load(ctx, "rmat:10:8", mgraph.Options{Undirected: true})
	require.NoError(t, err)
	defer g.Close()
	if lost {
		require.Equal(t, mgraph.CPU, g.Backend())
	}
	levels, _, err := g.BFS(ctx, 1)
	require.NoError(t, err)
	require.Len(t, levels, g.NumVertices())
	t.Logf("the Go API went on on backend %q", g.Backend())
}
