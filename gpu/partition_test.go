package gpu_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/require"
)

// gpuParts partitions el and builds a GPU backend per part, part i on GPU
// i mod gpus.
func gpuParts(t *testing.T, el *graph.EdgeList, o partition.Options, gpus int, opts ...gpu.Option) ([]*partition.Part, []engine.Backend) {
	t.Helper()
	ctx := context.Background()
	owner, err := partition.Assign(ctx, el, o)
	require.NoError(t, err)
	ps, err := partition.Split(ctx, el, owner, o.Parts)
	require.NoError(t, err)
	ls, err := partition.BuildLayouts(ctx, ps, testgraphs.SmallParams(), preprocess.Options{Workers: 4})
	require.NoError(t, err)
	bs := make([]engine.Backend, len(ls))
	for i, l := range ls {
		b, err := gpu.New(l, 4, append([]gpu.Option{gpu.WithDevice(i % gpus)}, opts...)...)
		require.NoError(t, err)
		t.Cleanup(func() { b.Close() })
		bs[i] = b
	}
	return ps, bs
}

// TestPartitionedRuns runs bfs, bfs-tree, sssp and cc partitioned: 2–4 and 8 parts
// on one GPU (8 leave parts of the small shapes without a vertex, and the
// one-vertex and empty shapes have more parts than vertices), and a part
// or two per GPU on every GPU there is (when there are several), each
// partitioner, packaged on the host (in memory) and on the devices (peer
// copies, the same GPU's included), validated against the references.
func TestPartitionedRuns(t *testing.T) {
	needGPU(t)
	devices, err := cuda.DeviceCount()
	require.NoError(t, err)
	type config struct{ parts, gpus int }
	configs := []config{{2, 1}, {3, 1}, {4, 1}, {8, 1}}
	if devices > 1 {
		configs = append(configs, config{devices, devices}, config{2 * devices, devices})
	}
	peers := func(parts int) partition.Exchanger { return gpu.NewPeerExchanger(parts) }
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		for _, c := range configs {
			checkPartitioned(t, s, c.parts, c.gpus, nil, false)
			checkPartitioned(t, s, c.parts, c.gpus, peers, false)
		}
	}
}

// TestDevicePartsRefuseMismatch: an exchanger of the wrong size is an
// error, and a peer exchanger runs CPU parts on the host.
func TestDevicePartsRefuseMismatch(t *testing.T) {
	needGPU(t)
	s := testgraphs.Shapes(t, testgraphs.Small)[0]
	ps, bs := gpuParts(t, s.EL, partition.Options{Method: partition.Random, Parts: 2, Seed: 1}, 1)
	_, _, err := partition.Run(context.Background(), "bfs", ps, bs, 0, partition.RunOptions{Exchanger: gpu.NewPeerExchanger(3)})
	require.Error(t, err)
}

// checkPartitioned runs bfs, bfs-tree, sssp and cc on shape s cut into parts parts
// on gpus GPUs by every partitioner, through the exchanger mk makes for
// each run (nil: in memory), packaged on the host when host, validated
// against the references; bfs runs a second time from another source over
// the same parts (the held tables and the pinned result reused). The
// empty graph runs cc only (no source).
func checkPartitioned(t *testing.T, s testgraphs.Shape, parts, gpus int, mk func(parts int) partition.Exchanger, host bool) {
	ctx := context.Background()
	weighted := s.EL.Clone()
	weighted.SetRandomWeights(9, 1, 64, 4)
	sym := s.EL.Clone()
	sym.Symmetrize(4)
	g, wg, sg := graph.ToCSR(s.EL, 4), graph.ToCSR(weighted, 4), graph.ToCSR(sym, 4)
	for _, m := range []partition.Method{partition.Random, partition.BRP, partition.Balanced} {
		var x partition.Exchanger
		if mk != nil {
			x = mk(parts)
		}
		tag := fmt.Sprintf("%s/%s/%d parts on %d GPUs (exchanger %T, host %v)", s.Name, m, parts, gpus, x, host)
		o := partition.Options{Method: m, Parts: parts, Seed: 7, Bias: 0.8}
		ps, bs := gpuParts(t, s.EL, o, gpus)
		wps, wbs := gpuParts(t, weighted, o, gpus)
		sps, sbs := gpuParts(t, sym, o, gpus)
		ro := partition.RunOptions{Exchanger: x, HostExchange: host}
		next := func() { // an exchanger per run
			if mk != nil {
				ro.Exchanger = mk(parts)
			}
		}
		if n := s.EL.NumVertices; n > 0 {
			for k, src := range []uint32{uint32(n / 2), uint32(n - 1)} {
				if k > 0 {
					next()
				}
				levels, st, err := partition.Run(ctx, "bfs", ps, bs, src, ro)
				require.NoError(t, err, "%s: bfs from %d", tag, src)
				require.NoError(t, apps.ValidateBFS(g, src, levels), "%s: bfs from %d", tag, src)
				require.True(t, st.Converged, tag)
			}
			next()
			src := uint32(n / 2)
			// A directed shape's tree runs on the host path; the symmetrized
			// one's on the devices (the parents from the out-rows), unless host.
			parents, _, err := partition.Run(ctx, "bfs-tree", ps, bs, src, ro)
			require.NoError(t, err, "%s: bfs-tree from %d", tag, src)
			require.NoError(t, apps.ValidateBFSTree(g, src, parents), "%s: bfs-tree from %d", tag, src)
			next()
			parents, _, err = partition.Run(ctx, "bfs-tree", sps, sbs, src, ro)
			require.NoError(t, err, "%s: bfs-tree (symmetrized) from %d", tag, src)
			require.NoError(t, apps.ValidateBFSTree(sg, src, parents), "%s: bfs-tree (symmetrized) from %d", tag, src)
			next()
			dist, _, err := partition.Run(ctx, "sssp", wps, wbs, src, ro)
			require.NoError(t, err, tag)
			require.NoError(t, apps.ValidateSSSP(wg, src, dist), tag)
			next()
		}
		// cc hooks on the devices (partition.FromHooks), cc-lp propagates
		// labels: the same labels, each component's smallest original id.
		labels, st, err := partition.Run(ctx, "cc", sps, sbs, 0, ro)
		require.NoError(t, err, tag)
		require.NoError(t, apps.ValidateCC(sg, labels), tag)
		labels = slices.Clone(labels) // the result may be the parts' reused memory
		next()
		lp, lst, err := partition.Run(ctx, "cc-lp", sps, sbs, 0, ro)
		require.NoError(t, err, tag)
		require.Equal(t, labels, lp, "%s: cc and cc-lp", tag)
		t.Logf("%s: cc %d supersteps, %d messages; cc-lp %d supersteps", tag, st.Supersteps, st.Messages, lst.Supersteps)
	}
}

// TestPartitionedRunsNCCL runs bfs, sssp and cc with a part per GPU and
// NCCL moving the updates (gpu.NCCLExchanger), packaged on the devices
// and on the host, validated against the references; it needs two GPUs or
// more and NCCL (cuda.OpenNCCL).
func TestPartitionedRunsNCCL(t *testing.T) {
	devices := needNCCLPair(t)
	devs := make([]int, devices)
	for i := range devs {
		devs[i] = i
	}
	x, err := gpu.NewNCCLExchanger(devs)
	require.NoError(t, err)
	defer func() { require.NoError(t, x.Close()) }()
	same := func(int) partition.Exchanger { return x }
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		checkPartitioned(t, s, devices, devices, same, false)
		checkPartitioned(t, s, devices, devices, same, true)
	}
	_, err = gpu.NewNCCLExchanger([]int{0, 0})
	require.ErrorContains(t, err, "twice")
}

// needNCCLPair skips unless there are two GPUs or more and NCCL, and
// returns the GPU count.
func needNCCLPair(t *testing.T) int {
	t.Helper()
	needGPU(t)
	devices, err := cuda.DeviceCount()
	require.NoError(t, err)
	if devices < 2 {
		t.Skip("one GPU: NCCL takes one rank per GPU")
	}
	v, err := cuda.OpenNCCL()
	if err != nil {
		t.Skipf("no NCCL: %v", err)
	}
	t.Logf("NCCL %d, %d GPUs", v, devices)
	return devices
}

// TestNCCLAbort: a rank waiting in a collective that its peer never joins
// returns cuda.ErrNCCLAborted once the exchanger is aborted, and so does
// every later call; Close still works, and a new clique on the same GPUs
// works.
func TestNCCLAbort(t *testing.T) {
	needNCCLPair(t)
	ctx := context.Background()
	x, err := gpu.NewNCCLExchanger([]int{0, 1})
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() {
		_, err := x.AllReduceSum(ctx, 0, 1) // rank 1 never joins
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("rank 0's all-reduce returned without rank 1: %v", err)
	case <-time.After(500 * time.Millisecond):
	}
	start := time.Now()
	require.NoError(t, x.Abort())
	select {
	case err := <-done:
		require.ErrorIs(t, err, cuda.ErrNCCLAborted)
		t.Logf("the waiting rank returned %v after the abort", time.Since(start))
	case <-time.After(30 * time.Second):
		t.Fatal("rank 0 still waits 30 s after the abort")
	}
	_, err = x.AllToAll(ctx, 1, make([][]partition.Message, 2))
	require.ErrorIs(t, err, cuda.ErrNCCLAborted)
	require.NoError(t, x.Abort(), "aborting twice")
	require.NoError(t, x.Close())

	y, err := gpu.NewNCCLExchanger([]int{0, 1})
	require.NoError(t, err)
	defer func() { require.NoError(t, y.Close()) }()
	sums := make([]uint64, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for r := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sums[r], errs[r] = y.AllReduceSum(ctx, r, uint64(r+1))
		}()
	}
	wg.Wait()
	require.NoError(t, errors.Join(errs...))
	require.Equal(t, []uint64{3, 3}, sums)
}

// failingNCCL is an NCCL exchanger whose rank 1 fails its third
// all-reduce instead of joining it.
type failingNCCL struct {
	*gpu.NCCLExchanger
	calls atomic.Int32
}

var errLinkDown = errors.New("link down")

func (f *failingNCCL) AllReduceSum(ctx context.Context, rank int, x uint64) (uint64, error) {
	if rank == 1 && f.calls.Add(1) == 3 {
		return 0, errLinkDown
	}
	return f.NCCLExchanger.AllReduceSum(ctx, rank, x)
}

// TestPartitionedRunNCCLPartFails: a partitioned run over NCCL whose part
// fails returns that part's error (the other part, waiting for it in an
// NCCL all-reduce, is released by the run's abort) instead of hanging.
func TestPartitionedRunNCCLPartFails(t *testing.T) {
	needNCCLPair(t)
	el := testgraphs.Path(300)
	ps, bs := gpuParts(t, el, partition.Options{Method: partition.Static, Parts: 2}, 2)
	x, err := gpu.NewNCCLExchanger([]int{0, 1})
	require.NoError(t, err)
	defer func() { require.NoError(t, x.Close()) }()
	f := &failingNCCL{NCCLExchanger: x}
	done := make(chan error, 1)
	go func() {
		_, _, err := partition.Run(context.Background(), "bfs", ps, bs, 0, partition.RunOptions{Exchanger: f, HostExchange: true})
		done <- err
	}()
	select {
	case err := <-done:
		require.ErrorIs(t, err, errLinkDown)
		require.ErrorContains(t, err, "part 1")
	case <-time.After(60 * time.Second):
		t.Fatal("the run still waits 60 s after its part 1 failed")
	}
}

// TestEnablePeerAccess: enabling direct access between the visible GPUs
// succeeds, counts each ordered pair once whatever was enabled before
// (a second call gives the same count), and one GPU has no pair.
func TestEnablePeerAccess(t *testing.T) {
	needGPU(t)
	devices, err := cuda.DeviceCount()
	require.NoError(t, err)
	n, err := cuda.EnablePeerAccess([]int{0})
	require.NoError(t, err)
	require.Zero(t, n)
	devs := make([]int, devices)
	for i := range devs {
		devs[i] = i
	}
	first, err := cuda.EnablePeerAccess(devs)
	require.NoError(t, err)
	require.LessOrEqual(t, first, devices*(devices-1))
	again, err := cuda.EnablePeerAccess(devs)
	require.NoError(t, err)
	require.Equal(t, first, again)
	t.Logf("%d GPUs: direct access between %d ordered pairs", devices, first)
}

// TestPartitionedBFSPulls: by default the device parts of an
// undirected R-MAT graph pull in its large supersteps and give the
// push-only levels, validated, and bfs-tree a valid tree: 2 and 3 parts on
// one GPU (peer copies), and a part per GPU over NCCL when there are two
// GPUs and NCCL.
func TestPartitionedBFSPulls(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	el := testgraphs.Generated(t, "rmat:12:16", 5)
	el.Symmetrize(4)
	g := graph.ToCSR(el, 4)
	type config struct {
		parts, gpus int
		nccl        bool
	}
	configs := []config{{2, 1, false}, {3, 1, false}}
	if devices, err := cuda.DeviceCount(); err == nil && devices >= 2 {
		if _, err := cuda.OpenNCCL(); err == nil {
			configs = append(configs, config{2, 2, true})
		}
	}
	for _, c := range configs {
		tag := fmt.Sprintf("%d parts on %d GPUs (nccl %v)", c.parts, c.gpus, c.nccl)
		o := partition.Options{Method: partition.Random, Parts: c.parts, Seed: 3}
		ps, bs := gpuParts(t, el, o, c.gpus)
		var nccl *gpu.NCCLExchanger // one clique for the runs; peer exchangers are one per run
		exchanger := func() partition.Exchanger {
			if !c.nccl {
				return gpu.NewPeerExchanger(c.parts)
			}
			if nccl == nil {
				x, err := gpu.NewNCCLExchanger([]int{0, 1})
				require.NoError(t, err)
				t.Cleanup(func() { x.Close() })
				nccl = x
			}
			return nccl
		}
		ro := partition.RunOptions{Exchanger: exchanger()}
		levels, st, err := partition.Run(ctx, "bfs", ps, bs, 1, ro)
		require.NoError(t, err, tag)
		require.NoError(t, apps.ValidateBFS(g, 1, levels), tag)
		require.Positive(t, st.Pulled, tag)
		t.Logf("%s: %d supersteps, %d pulled", tag, st.Supersteps, st.Pulled)
		levels = append([]uint32(nil), levels...) // the result is the parts' reused memory
		ro.Exchanger = exchanger()
		pushed, st, err := partition.Run(ctx, "bfs", ps, bs, 1, partition.RunOptions{Exchanger: ro.Exchanger, Engine: engine.RunOptions{NoPull: true}})
		require.NoError(t, err, tag)
		require.Equal(t, levels, pushed, tag)
		require.Zero(t, st.Pulled, tag)
		ro.Exchanger = exchanger()
		parents, _, err := partition.Run(ctx, "bfs-tree", ps, bs, 1, ro)
		require.NoError(t, err, tag)
		require.NoError(t, apps.ValidateBFSTree(g, 1, parents), tag)
	}
}
