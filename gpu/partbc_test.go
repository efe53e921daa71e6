package gpu_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/require"
)

// placement is a partitioned run's placement: parts on gpus GPUs (part i
// on GPU i mod gpus), exchanging by NCCL or by peer copies.
type placement struct {
	parts, gpus int
	nccl        bool
}

// placements returns the placements a test runs: the part counts onOne on
// one GPU (8 leave parts of the small shapes without a vertex, the
// one-vertex graph's too), and, with several GPUs, a part and two parts
// per GPU by peer copies and a part per GPU by NCCL (x, made here, when
// NCCL loads; closed at the test's end).
func placements(t *testing.T, onOne ...int) ([]placement, *gpu.NCCLExchanger) {
	t.Helper()
	devices, err := cuda.DeviceCount()
	require.NoError(t, err)
	var configs []placement
	for _, parts := range onOne {
		configs = append(configs, placement{parts, 1, false})
	}
	if devices < 2 {
		return configs, nil
	}
	configs = append(configs, placement{devices, devices, false}, placement{2 * devices, devices, false})
	if _, err := cuda.OpenNCCL(); err != nil {
		t.Logf("no NCCL (%v): peer copies only", err)
		return configs, nil
	}
	devs := make([]int, devices)
	for i := range devs {
		devs[i] = i
	}
	x, err := gpu.NewNCCLExchanger(devs)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, x.Close()) })
	return append(configs, placement{devices, devices, true}), x
}

// bcConfigs returns partitioned BC's placements: 2, 3 and 8 parts on one
// GPU, and the several GPUs' (placements).
func bcConfigs(t *testing.T) ([]placement, *gpu.NCCLExchanger) {
	t.Helper()
	return placements(t, 2, 3, 8)
}

// exchanger returns the exchanger of a run of c: x for NCCL (shared by the
// runs), else a new peer exchanger.
func (c placement) exchanger(x *gpu.NCCLExchanger) partition.Exchanger {
	if c.nccl {
		return x
	}
	return gpu.NewPeerExchanger(c.parts)
}

// bcSourceLists are the source lists a device BC test runs on a graph of
// n vertices: one source, and several with a repeat.
func bcSourceLists(n uint64) [][]uint32 {
	if n == 0 {
		return [][]uint32{nil}
	}
	last := uint32(n - 1)
	return [][]uint32{{uint32(n / 2)}, {0, last, uint32(n / 3), 0}}
}

// checkDeviceBC runs BC from sources over ps on their GPU backends bs
// through exchanger ex and checks it: the scores against ref.BC (within
// apps.ValidateBC's tolerance) and against the host parts' over the same
// parts (partition.RunBC on the host, within 1e-9 relative), the same
// supersteps as the host's (a forward step per level and the empty one, a
// backward step per level, for every source), the bytes (a forward level
// sends 8 bytes per ghost of every part), and, with again, a second run
// bit-equal to the first (the device's sums have a fixed order; the first
// run's result is copied, as the second reuses its memory). It returns the
// scores.
func checkDeviceBC(t *testing.T, tag string, g *graph.CSR, ps []*partition.Part, bs []engine.Backend, sources []uint32,
	ex func() partition.Exchanger, again bool) []float64 {
	t.Helper()
	ctx := context.Background()
	got, st, err := partition.RunBC(ctx, ps, bs, sources, ex(), false, 2)
	require.NoError(t, err, tag)
	got = slices.Clone(got) // the parts' memory, reused by their next run
	require.Len(t, got, int(g.NumVertices), tag)
	require.NoError(t, apps.ValidateBC(g, sources, got), tag)
	want, hst, err := partition.RunBC(ctx, ps, bs, sources, nil, true, 2)
	require.NoError(t, err, tag)
	requireNear(t, want, got, tag)
	require.True(t, st.Converged, tag)
	require.Equal(t, hst.Supersteps, st.Supersteps, "%s: the device's levels are the host's", tag)
	require.Len(t, st.Steps, st.Supersteps, tag)
	if len(sources) > 0 && g.NumVertices > 0 {
		var ghosts uint64
		for _, pt := range ps {
			ghosts += pt.NumGhosts
		}
		require.Equal(t, ghosts, st.Steps[0].Messages, "%s: a forward level sends a value per ghost", tag)
		require.Equal(t, 8*ghosts, st.Steps[0].Bytes, tag)
		var sum uint64
		for _, s := range st.Steps {
			sum += s.Bytes
		}
		require.Equal(t, sum, st.Bytes, tag)
	}
	if again {
		second, _, err := partition.RunBC(ctx, ps, bs, sources, ex(), false, 2)
		require.NoError(t, err, tag)
		require.Equal(t, got, second, "%s: a second run's scores differ", tag)
	}
	return got
}

// requireNear checks got against want within 1e-9 relative (absolute
// near 0).
func requireNear(t *testing.T, want, got []float64, tag string) {
	t.Helper()
	require.Len(t, got, len(want), tag)
	for v := range want {
		if diff := math.Abs(want[v] - got[v]); diff > 1e-9*math.Max(1, math.Abs(want[v])) {
			require.Failf(t, "scores differ from the host parts'", "%s: vertex %d: %g, want %g", tag, v, got[v], want[v])
		}
	}
}

// TestPartitionedBC runs BC on the devices over 2, 3 and 8 parts on one
// GPU (peer copies), and a part or two per GPU (peer copies) and a part
// per GPU (NCCL) where there are several, on every small shape (path,
// grid, R-MAT, raw directed R-MAT with duplicates and self-loops, random
// geometric, star, isolated vertices, one vertex, empty), directed and
// symmetrized, with three partitioners, from one source and from several
// with a repeat; checkDeviceBC validates each run (ref.BC, the host
// parts, supersteps, bytes) and, for the first partitioner, runs it twice
// for bit-equal scores.
func TestPartitionedBC(t *testing.T) {
	needGPU(t)
	configs, x := bcConfigs(t)
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		sym := s.EL.Clone()
		sym.Symmetrize(4)
		for _, el := range []*graph.EdgeList{s.EL, sym} {
			g := graph.ToCSR(el, 4)
			for _, c := range configs {
				for k, m := range []partition.Method{partition.Random, partition.BRP, partition.Balanced} {
					ps, bs := gpuParts(t, el, partition.Options{Method: m, Parts: c.parts, Seed: 7, Bias: 0.8}, c.gpus)
					for _, sources := range bcSourceLists(el.NumVertices) {
						tag := fmt.Sprintf("%s/directed=%v/%s/%d parts on %d GPUs/nccl=%v/sources %v", s.Name, el.Directed, m,
							c.parts, c.gpus, c.nccl, sources)
						checkDeviceBC(t, tag, g, ps, bs, sources, func() partition.Exchanger { return c.exchanger(x) }, k == 0)
					}
				}
			}
		}
	}
}

// TestPartitionedBCHubs runs BC on the devices over the larger shapes,
// whose star has rows of 2,999 arcs (more than cuda.PartBCHubArcs: the
// claims, σ sums and dependencies of its centre take a block each) and
// whose R-MAT has wider levels, in one part (no exchange) and in two, from
// the centre, from a leaf and from several vertices.
func TestPartitionedBCHubs(t *testing.T) {
	needGPU(t)
	configs, x := bcConfigs(t)
	configs = append([]placement{{1, 1, false}}, configs...)
	for _, s := range testgraphs.Shapes(t, testgraphs.Large) {
		if s.Name != "star" && s.Name != "rmat" && s.Name != "grid" {
			continue
		}
		g := graph.ToCSR(s.EL, 4)
		n := uint32(s.EL.NumVertices)
		for _, c := range configs {
			if c.parts > 3 && s.Name == "grid" { // the grid's depth makes each run long
				continue
			}
			ps, bs := gpuParts(t, s.EL, partition.Options{Method: partition.Random, Parts: c.parts, Seed: 3}, c.gpus)
			for _, sources := range [][]uint32{{0}, {1}, {n - 1, 0, n / 2, 1}} {
				tag := fmt.Sprintf("%s/%d parts on %d GPUs/nccl=%v/sources %v", s.Name, c.parts, c.gpus, c.nccl, sources)
				checkDeviceBC(t, tag, g, ps, bs, sources, func() partition.Exchanger { return c.exchanger(x) }, true)
			}
		}
	}
}

// TestPartitionedBCReusesState runs the same partitioned BC twice over the
// same parts and backends, in every placement of bcConfigs (2, 3 and 8
// parts on one GPU by peer copies; with several GPUs, a part or two per
// GPU by peer copies and a part per GPU by NCCL), on the larger R-MAT (a
// few rows of more than cuda.PartBCHubArcs arcs) from several sources:
// the first run leaves every backend holding its part's state (gpu's
// HeldBC); the second makes none (the same cuda.PartBC, two runs over it),
// fills the same result memory and gives the same scores bit for bit. A
// run from other sources over that state then validates against ref.BC
// (the scores and levels the runs before left are cleared), and, after
// NCCL, a run by peer copies over the same state gives the NCCL run's
// scores bit for bit (the same sums in the same order).
func TestPartitionedBCReusesState(t *testing.T) {
	needGPU(t)
	configs, x := bcConfigs(t)
	var el *graph.EdgeList
	for _, s := range testgraphs.Shapes(t, testgraphs.Large) {
		if s.Name == "rmat" {
			el = s.EL
		}
	}
	require.NotNil(t, el, "the large shapes have an R-MAT")
	g := graph.ToCSR(el, 4)
	n := uint32(el.NumVertices)
	sources, other := []uint32{0, n / 2, n - 1, 0}, []uint32{1, n / 3}
	ctx := context.Background()
	for _, c := range configs {
		tag := fmt.Sprintf("%d parts on %d GPUs/nccl=%v", c.parts, c.gpus, c.nccl)
		ps, bs := gpuParts(t, el, partition.Options{Method: partition.Random, Parts: c.parts, Seed: 5}, c.gpus)
		held := func(runs int) []*cuda.PartBC {
			sts := make([]*cuda.PartBC, len(bs))
			for i, b := range bs {
				st, r := gpu.HeldBC(b.(*gpu.Backend))
				require.NotNil(t, st, "%s: part %d's backend holds no state after a run", tag, i)
				require.Equal(t, runs, r, "%s: part %d's state's runs", tag, i)
				sts[i] = st
			}
			return sts
		}
		res, _, err := partition.RunBC(ctx, ps, bs, sources, c.exchanger(x), false, 1)
		require.NoError(t, err, tag)
		require.NoError(t, apps.ValidateBC(g, sources, res), tag)
		first := slices.Clone(res)
		states := held(1)
		second, _, err := partition.RunBC(ctx, ps, bs, sources, c.exchanger(x), false, 1)
		require.NoError(t, err, tag)
		require.Equal(t, first, second, "%s: the second run's scores differ", tag)
		require.Same(t, &res[0], &second[0], "%s: the second run's result is new memory", tag)
		again := held(2)
		for i := range states {
			require.Same(t, states[i], again[i], "%s: part %d's state was made again", tag, i)
		}
		bc, _, err := partition.RunBC(ctx, ps, bs, other, c.exchanger(x), false, 1)
		require.NoError(t, err, tag)
		require.NoError(t, apps.ValidateBC(g, other, bc), "%s: from %v over the held state", tag, other)
		if c.nccl {
			bc, _, err = partition.RunBC(ctx, ps, bs, sources, gpu.NewPeerExchanger(c.parts), false, 1)
			require.NoError(t, err, tag)
			require.Equal(t, first, bc, "%s: peer copies over the state NCCL used", tag)
			held(4)
		}
	}
}

// TestPartitionedBCPath checks the exact scores of the path 0–1–2–3–4
// from every source (0, 6, 8, 6, 0) on the devices over parts that cut
// every arc (vertices 0, 2 in part 0, 1, 3 in part 1, 4 in part 2), and
// from 0 alone (0, 3, 2, 1, 0: nine supersteps).
func TestPartitionedBCPath(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	el := testgraphs.Path(5)
	owner := []uint32{0, 1, 0, 1, 2}
	ps, err := partition.Split(ctx, el, owner, 3)
	require.NoError(t, err)
	ls, err := partition.BuildLayouts(ctx, ps, testgraphs.SmallParams(), preprocess.Options{Workers: 2})
	require.NoError(t, err)
	bs := make([]engine.Backend, len(ls))
	for i, l := range ls {
		b, err := gpu.New(l, 2)
		require.NoError(t, err)
		t.Cleanup(func() { b.Close() })
		bs[i] = b
	}
	bc, st, err := partition.RunBC(ctx, ps, bs, []uint32{0, 1, 2, 3, 4}, gpu.NewPeerExchanger(3), false, 1)
	require.NoError(t, err)
	require.Equal(t, []float64{0, 6, 8, 6, 0}, bc)
	require.NotZero(t, st.Messages)
	bc, st, err = partition.RunBC(ctx, ps, bs, []uint32{0}, gpu.NewPeerExchanger(3), false, 1)
	require.NoError(t, err)
	require.Equal(t, []float64{0, 3, 2, 1, 0}, bc)
	require.Equal(t, 9, st.Supersteps)
	require.Len(t, st.PartCompute, 3)
}

// TestPartitionedBCStops: a run cancelled while it runs (many sources)
// returns the context's error, and the parts' backends are released (a
// run after it succeeds); an exchanger of the wrong size is an error.
func TestPartitionedBCStops(t *testing.T) {
	needGPU(t)
	s := testgraphs.Shapes(t, testgraphs.Small)[0]
	ps, bs := gpuParts(t, s.EL, partition.Options{Method: partition.Random, Parts: 2, Seed: 1}, 1)
	sources := make([]uint32, 20000)
	for i := range sources {
		sources[i] = uint32(i) % uint32(s.EL.NumVertices)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err := partition.RunBC(ctx, ps, bs, sources, gpu.NewPeerExchanger(2), false, 1)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Less(t, time.Since(start), 30*time.Second)
	g := graph.ToCSR(s.EL, 4)
	bc, _, err := partition.RunBC(context.Background(), ps, bs, []uint32{3}, gpu.NewPeerExchanger(2), false, 1)
	require.NoError(t, err)
	require.NoError(t, apps.ValidateBC(g, []uint32{3}, bc))
	_, _, err = partition.RunBC(context.Background(), ps, bs, []uint32{3}, gpu.NewPeerExchanger(3), false, 1)
	require.ErrorContains(t, err, "peer exchanger: 3 ranks for 2 parts")
}

// TestBCPartsOnCPUBackends: a peer exchanger over CPU backends makes no
// device parts, so the run stays on the host (no GPU needed).
func TestBCPartsOnCPUBackends(t *testing.T) {
	ctx := context.Background()
	el := testgraphs.Shapes(t, testgraphs.Small)[0].EL
	owner, err := partition.Assign(ctx, el, partition.Options{Method: partition.Random, Parts: 2, Seed: 1})
	require.NoError(t, err)
	ps, err := partition.Split(ctx, el, owner, 2)
	require.NoError(t, err)
	ls, err := partition.BuildLayouts(ctx, ps, testgraphs.SmallParams(), preprocess.Options{Workers: 2})
	require.NoError(t, err)
	bs := make([]engine.Backend, len(ls))
	for i, l := range ls {
		b, err := cpu.New(l, 1)
		require.NoError(t, err)
		bs[i] = b
	}
	x := gpu.NewPeerExchanger(2)
	dps, err := x.BCParts(ps, bs)
	require.NoError(t, err)
	require.Nil(t, dps)
	bc, st, err := partition.RunBC(ctx, ps, bs, []uint32{0, 5}, x, false, 1)
	require.NoError(t, err)
	require.NoError(t, apps.ValidateBC(graph.ToCSR(el, 2), []uint32{0, 5}, bc))
	require.NotZero(t, st.Supersteps)
	_, err = x.BCParts(ps[:1], bs[:1])
	require.ErrorContains(t, err, "peer exchanger: 2 ranks for 1 parts")
}

// failingBCExchanger is an NCCL exchanger whose BC parts are NCCL's, but
// part 1 fails forward level 2 instead of joining its exchange.
type failingBCExchanger struct {
	*gpu.NCCLExchanger
}

func (f failingBCExchanger) BCParts(parts []*partition.Part, backends []engine.Backend) ([]partition.BCPart, error) {
	bps, err := f.NCCLExchanger.BCParts(parts, backends)
	if err != nil || bps == nil {
		return bps, err
	}
	bps[1] = failingBCPart{bps[1]}
	return bps, nil
}

type failingBCPart struct{ partition.BCPart }

func (p failingBCPart) Forward(ctx context.Context, d uint32) (partition.BCStep, error) {
	if d == 2 {
		return partition.BCStep{}, errLinkDown
	}
	return p.BCPart.Forward(ctx, d)
}

// TestPartitionedBCNCCLPartFails: a BC run over NCCL whose part 1 fails
// returns that part's error (part 0, waiting for it in an NCCL exchange,
// is released by the run's abort) instead of hanging, and releases the
// backends (a run after it, over a new clique, succeeds).
func TestPartitionedBCNCCLPartFails(t *testing.T) {
	needNCCLPair(t)
	el := testgraphs.Path(300)
	ps, bs := gpuParts(t, el, partition.Options{Method: partition.Static, Parts: 2}, 2)
	x, err := gpu.NewNCCLExchanger([]int{0, 1})
	require.NoError(t, err)
	defer func() { require.NoError(t, x.Close()) }()
	done := make(chan error, 1)
	go func() {
		_, _, err := partition.RunBC(context.Background(), ps, bs, []uint32{0}, failingBCExchanger{x}, false, 1)
		done <- err
	}()
	select {
	case err := <-done:
		require.ErrorIs(t, err, errLinkDown)
		require.ErrorContains(t, err, "part 1")
	case <-time.After(60 * time.Second):
		t.Fatal("the run still waits 60 s after its part 1 failed")
	}
	y, err := gpu.NewNCCLExchanger([]int{0, 1})
	require.NoError(t, err)
	defer func() { require.NoError(t, y.Close()) }()
	bc, _, err := partition.RunBC(context.Background(), ps, bs, []uint32{0, 150}, y, false, 1)
	require.NoError(t, err)
	require.NoError(t, apps.ValidateBC(graph.ToCSR(el, 2), []uint32{0, 150}, bc))
}
