package partition_test

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
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/require"
)

// split partitions el with o and returns its parts with a CPU backend over
// each part's layout (SmallParams).
func split(t testing.TB, el *graph.EdgeList, o partition.Options) ([]*partition.Part, []engine.Backend) {
	t.Helper()
	ctx := context.Background()
	owner, err := partition.Assign(ctx, el, o)
	require.NoError(t, err)
	return splitOwned(t, el, owner, o.Parts)
}

func splitOwned(t testing.TB, el *graph.EdgeList, owner []uint32, parts int) ([]*partition.Part, []engine.Backend) {
	t.Helper()
	ctx := context.Background()
	ps, err := partition.Split(ctx, el, owner, parts)
	require.NoError(t, err)
	ls, err := partition.BuildLayouts(ctx, ps, testgraphs.SmallParams(), preprocess.Options{Workers: 1})
	require.NoError(t, err)
	bs := make([]engine.Backend, len(ls))
	for i, l := range ls {
		b, err := cpu.New(l, 1)
		require.NoError(t, err)
		bs[i] = b
	}
	return ps, bs
}

func sourcesOf(n uint64) []uint32 {
	if n == 0 {
		return nil
	}
	return []uint32{0, uint32(n / 2), uint32(n - 1)}
}

// TestRunMatchesReference runs bfs, sssp and cc with 1–4 and 8 parts and every
// partitioner on every test shape and validates against the references.
func TestRunMatchesReference(t *testing.T) {
	ctx := context.Background()
	counts := partCounts
	if testing.Short() {
		counts = []int{1, 3}
	}
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		weighted := s.EL.Clone()
		weighted.SetRandomWeights(9, 1, 64, 2)
		sym := s.EL.Clone()
		sym.Symmetrize(2)
		g, wg, sg := graph.ToCSR(s.EL, 2), graph.ToCSR(weighted, 2), graph.ToCSR(sym, 2)
		for _, m := range partition.Methods {
			for _, parts := range counts {
				tag := fmt.Sprintf("%s/%s/%d parts", s.Name, m, parts)
				o := partition.Options{Method: m, Parts: parts, Seed: 7, Bias: 0.8}
				ps, bs := split(t, s.EL, o)
				wps, wbs := split(t, weighted, o)
				sps, sbs := split(t, sym, o)
				for _, src := range sourcesOf(s.EL.NumVertices) {
					levels, st, err := partition.Run(ctx, "bfs", ps, bs, src, partition.RunOptions{})
					require.NoError(t, err, "%s/bfs from %d", tag, src)
					require.NoError(t, apps.ValidateBFS(g, src, levels), "%s/bfs from %d", tag, src)
					require.True(t, st.Converged, tag)
					parents, st, err := partition.Run(ctx, "bfs-tree", ps, bs, src, partition.RunOptions{})
					require.NoError(t, err, "%s/bfs-tree from %d", tag, src)
					require.NoError(t, apps.ValidateBFSTree(g, src, parents), "%s/bfs-tree from %d", tag, src)
					require.Equal(t, smallestParents(g, src, levels), parents, "%s/bfs-tree from %d", tag, src)
					require.Positive(t, st.Parents, tag)
					dist, _, err := partition.Run(ctx, "sssp", wps, wbs, src, partition.RunOptions{})
					require.NoError(t, err, "%s/sssp from %d", tag, src)
					require.NoError(t, apps.ValidateSSSP(wg, src, dist), "%s/sssp from %d", tag, src)
				}
				labels, _, err := partition.Run(ctx, "cc", sps, sbs, 0, partition.RunOptions{})
				require.NoError(t, err, "%s/cc", tag)
				require.NoError(t, apps.ValidateCC(sg, labels), "%s/cc", tag)
				lp, _, err := partition.Run(ctx, "cc-lp", sps, sbs, 0, partition.RunOptions{})
				require.NoError(t, err, "%s/cc-lp", tag)
				require.Equal(t, labels, lp, "%s: cc (hooking) and cc-lp (label propagation)", tag)
			}
		}
	}
}

// smallestParents returns the BFS tree whose parents are the smallest
// original ids one level up (what partition.Run's bfs-tree promises),
// from the graph's levels.
func smallestParents(g *graph.CSR, src uint32, levels []uint32) []uint32 {
	parents := make([]uint32, len(levels))
	for v := range parents {
		parents[v] = apps.Unreached
	}
	parents[src] = src
	for u := range g.NumVertices {
		if levels[u] == apps.Unreached {
			continue
		}
		row, _ := g.Row(uint32(u))
		for _, v := range row {
			if levels[v] == levels[u]+1 && (parents[v] == apps.Unreached || uint32(u) < parents[v]) {
				parents[v] = uint32(u)
			}
		}
	}
	return parents
}

// TestRunFloat32SSSP: SSSP over float32 weights partitioned equals the
// float32 reference bit for bit (every relaxation order reaches the same
// float sums; apps.ValidateSSSPFloat32), the parts keeping the weight type.
func TestRunFloat32SSSP(t *testing.T) {
	ctx := context.Background()
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		el := s.EL.Clone()
		el.SetRandomFloat32Weights(5, 2)
		g := graph.ToCSR(el, 2)
		for _, parts := range []int{2, 3} {
			ps, bs := split(t, el, partition.Options{Method: partition.Random, Parts: parts, Seed: 3})
			for _, pt := range ps {
				require.Equal(t, graph.Float32Weights, pt.EL.WeightKind, s.Name)
			}
			for _, src := range sourcesOf(el.NumVertices) {
				bits, _, err := partition.Run(ctx, "sssp", ps, bs, src, partition.RunOptions{})
				require.NoError(t, err, "%s/%d parts from %d", s.Name, parts, src)
				dist := apps.Float32Distances(bits, 2)
				require.NoError(t, apps.ValidateSSSPFloat32(g, src, dist), "%s/%d parts from %d", s.Name, parts, src)
			}
		}
	}
}

// TestRunModes: every synchronous mode of the parts' engines gives the
// same result (the hybrid's pull steps run on the parts' directed layouts).
func TestRunModes(t *testing.T) {
	ctx := context.Background()
	el := testgraphs.Shapes(t, testgraphs.Small)[0].EL // rmat
	weighted := el.Clone()
	weighted.SetRandomWeights(9, 1, 64, 2)
	g, wg := graph.ToCSR(el, 2), graph.ToCSR(weighted, 2)
	o := partition.Options{Method: partition.Random, Parts: 3, Seed: 1}
	ps, bs := split(t, el, o)
	wps, wbs := split(t, weighted, o)
	for _, mode := range []engine.Mode{engine.Hybrid, engine.Dense, engine.Sparse, engine.Auto} {
		opts := partition.RunOptions{Engine: engine.RunOptions{Mode: mode, Seed: 3}}
		levels, _, err := partition.Run(ctx, "bfs", ps, bs, 5, opts)
		require.NoError(t, err, mode.String())
		require.NoError(t, apps.ValidateBFS(g, 5, levels), mode.String())
		dist, _, err := partition.Run(ctx, "sssp", wps, wbs, 5, opts)
		require.NoError(t, err, mode.String())
		require.NoError(t, apps.ValidateSSSP(wg, 5, dist), mode.String())
		labels, _, err := partition.Run(ctx, "cc", ps, bs, 0, opts)
		require.NoError(t, err, mode.String())
		require.NoError(t, apps.ValidateCC(g, labels), mode.String())
	}
	_, _, err := partition.Run(ctx, "bfs", ps, bs, 0, partition.RunOptions{Engine: engine.RunOptions{Mode: engine.Async}})
	require.ErrorContains(t, err, "async")
}

// TestRunDepthLimit: a superstep cap is a BFS depth limit.
func TestRunDepthLimit(t *testing.T) {
	ctx := context.Background()
	for _, s := range testgraphs.Shapes(t, testgraphs.Small)[:6] {
		g := graph.ToCSR(s.EL, 2)
		ps, bs := split(t, s.EL, partition.Options{Method: partition.BRP, Parts: 3, Seed: 2, Bias: 0.5})
		for _, depth := range []int{1, 2, 5} {
			levels, st, err := partition.Run(ctx, "bfs", ps, bs, 0, partition.RunOptions{MaxSupersteps: depth})
			require.NoError(t, err, s.Name)
			require.NoError(t, apps.ValidateBFSWithin(g, 0, depth, levels), "%s/depth %d", s.Name, depth)
			require.LessOrEqual(t, st.Supersteps, depth, s.Name)
		}
	}
}

func TestRunStats(t *testing.T) {
	ctx := context.Background()
	el := testgraphs.Path(100)
	// One part: no messages; BFS from 0 takes 99 levels plus the empty last superstep.
	ps, bs := split(t, el, partition.Options{Method: partition.Static, Parts: 1})
	_, st, err := partition.Run(ctx, "bfs", ps, bs, 0, partition.RunOptions{})
	require.NoError(t, err)
	require.Equal(t, 100, st.Supersteps)
	require.True(t, st.Converged)
	require.Len(t, st.Steps, st.Supersteps)
	require.Zero(t, st.Messages)
	require.Equal(t, uint64(1), st.Steps[0].Active)
	// Four static parts of a chain, pushing only: the wave crosses three
	// part borders, one message each, and each border's first vertex
	// sends one back (its ghost copy of the previous vertex is stale),
	// which the owner discards.
	ps, bs = split(t, el, partition.Options{Method: partition.Static, Parts: 4})
	pushOnly := partition.RunOptions{Engine: engine.RunOptions{NoPull: true}}
	_, st, err = partition.Run(ctx, "bfs", ps, bs, 0, pushOnly)
	require.NoError(t, err)
	require.Equal(t, 100, st.Supersteps)
	require.Equal(t, uint64(6), st.Messages)
	require.Equal(t, 6*uint64(partition.MessageBytes), st.Bytes)
	require.Len(t, st.PartCompute, 4)
	var msgs, bytes uint64
	for _, s := range st.Steps {
		require.Equal(t, uint64(1), s.Active) // one vertex per level
		msgs, bytes = msgs+s.Messages, bytes+s.Bytes
	}
	require.Equal(t, st.Messages, msgs)
	require.Equal(t, st.Bytes, bytes)
	// Every superstep times its phases on the host path, and the run's
	// phases are their sums.
	var sum partition.Phases
	for _, s := range st.Steps {
		require.Positive(t, s.Phases.Exchange)
		require.Positive(t, s.Phases.Reduce)
		sum.Pack += s.Phases.Pack
		sum.Exchange += s.Phases.Exchange
		sum.Unpack += s.Phases.Unpack
		sum.Reduce += s.Phases.Reduce
	}
	require.Equal(t, sum, st.Phases)
	require.False(t, st.Phases.IsZero())
	// With pull allowed (the chain is undirected) the owners also send
	// each border vertex's level, once reached, to the part holding it as
	// a ghost (six), and no stale copy is sent back: 3 + 6 messages.
	_, st, err = partition.Run(ctx, "bfs", ps, bs, 0, partition.RunOptions{})
	require.NoError(t, err)
	require.Equal(t, 100, st.Supersteps)
	require.Equal(t, uint64(9), st.Messages)
	// A cap stops the run unconverged.
	_, st, err = partition.Run(ctx, "bfs", ps, bs, 0, partition.RunOptions{MaxSupersteps: 10})
	require.NoError(t, err)
	require.Equal(t, 10, st.Supersteps)
	require.False(t, st.Converged)
}

// hookExchanger wraps an exchanger and calls hook before every all-reduce
// of every rank; a non-nil error from hook fails that call.
type hookExchanger struct {
	partition.Exchanger
	hook func(rank int) error
}

func (h hookExchanger) AllReduceSum(ctx context.Context, rank int, x uint64) (uint64, error) {
	if err := h.hook(rank); err != nil {
		return 0, err
	}
	return h.Exchanger.AllReduceSum(ctx, rank, x)
}

func TestRunCancelled(t *testing.T) {
	el := testgraphs.Path(500)
	ps, bs := split(t, el, partition.Options{Method: partition.Static, Parts: 3})

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := partition.Run(ctx, "bfs", ps, bs, 0, partition.RunOptions{})
	require.ErrorIs(t, err, context.Canceled)

	// Cancelled in the middle of the run, by rank 0 at its tenth superstep.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	var calls atomic.Int32
	ex := hookExchanger{partition.NewMemExchanger(3), func(rank int) error {
		if rank == 0 && calls.Add(1) == 10 {
			cancel()
		}
		return nil
	}}
	_, _, err = partition.Run(ctx, "bfs", ps, bs, 0, partition.RunOptions{Exchanger: ex})
	require.ErrorIs(t, err, context.Canceled)
}

// TestRunCCHooks: on CPU parts cc hooks (FromHooks on the host path): a
// path of 500 vertices in 3 contiguous parts takes a superstep to link
// each part's piece and two to carry the labels across two borders,
// plus the one that finds nothing left, where cc-lp's label propagation
// takes a superstep per hop; the labels are the same.
func TestRunCCHooks(t *testing.T) {
	ctx := context.Background()
	el := testgraphs.Path(500)
	ps, bs := split(t, el, partition.Options{Method: partition.Static, Parts: 3})
	labels, st, err := partition.Run(ctx, "cc", ps, bs, 0, partition.RunOptions{})
	require.NoError(t, err)
	require.NoError(t, apps.ValidateCC(graph.ToCSR(el, 2), labels))
	require.LessOrEqual(t, st.Supersteps, 4)
	lp, lst, err := partition.Run(ctx, "cc-lp", ps, bs, 0, partition.RunOptions{})
	require.NoError(t, err)
	require.Equal(t, labels, lp)
	require.Greater(t, lst.Supersteps, 100)
}

// TestRunPartFails: an error on one part stops every part and is the one
// reported. cc-lp: label propagation along the path makes the fifth
// exchange (cc's hooking would be done first).
func TestRunPartFails(t *testing.T) {
	el := testgraphs.Path(500)
	ps, bs := split(t, el, partition.Options{Method: partition.Static, Parts: 3})
	boom := errors.New("link down")
	var calls atomic.Int32
	ex := hookExchanger{partition.NewMemExchanger(3), func(rank int) error {
		if rank == 1 && calls.Add(1) == 5 {
			return boom
		}
		return nil
	}}
	_, _, err := partition.Run(context.Background(), "cc-lp", ps, bs, 0, partition.RunOptions{Exchanger: ex})
	require.ErrorIs(t, err, boom)
	require.ErrorContains(t, err, "part 1")
}

func TestRunBadArguments(t *testing.T) {
	ctx := context.Background()
	dir := &graph.EdgeList{NumVertices: 3, Directed: true, Src: []uint32{0, 1}, Dst: []uint32{1, 2}}
	ps, bs := split(t, dir, partition.Options{Method: partition.Static, Parts: 2})
	none := partition.RunOptions{}
	_, _, err := partition.Run(ctx, "pr", ps, bs, 0, none)
	require.ErrorContains(t, err, "unknown app")
	_, _, err = partition.Run(ctx, "bfs", ps, bs, 3, none)
	require.ErrorContains(t, err, "source 3 is not a vertex")
	_, _, err = partition.Run(ctx, "sssp", ps, bs, 0, none)
	require.ErrorContains(t, err, "needs edge weights")
	_, _, err = partition.Run(ctx, "cc", ps, bs, 0, none)
	require.ErrorContains(t, err, "undirected")
	_, _, err = partition.Run(ctx, "bfs", ps, bs[:1], 0, none)
	require.ErrorContains(t, err, "1 backends for 2 parts")
	_, _, err = partition.Run(ctx, "bfs", ps, []engine.Backend{bs[1], bs[0]}, 0, none)
	require.Error(t, err)
	_, _, err = partition.Run(ctx, "bfs", ps, bs, 0, partition.RunOptions{Exchanger: partition.NewMemExchanger(3)})
	require.ErrorContains(t, err, "3 ranks for 2 parts")
	_, _, err = partition.Run(ctx, "bfs", nil, nil, 0, none)
	require.ErrorContains(t, err, "no parts")
	// A directed BFS across the parts is right.
	levels, _, err := partition.Run(ctx, "bfs", ps, bs, 0, none)
	require.NoError(t, err)
	require.Equal(t, []uint32{0, 1, 2}, levels)
}

func TestMemExchanger(t *testing.T) {
	ctx := context.Background()
	ex := partition.NewMemExchanger(3)
	got := make([][]partition.Message, 3)
	sums := make([]uint64, 3)
	errs := make(chan error, 3)
	for r := 0; r < 3; r++ {
		go func() {
			send := make([][]partition.Message, 3)
			for q := range send {
				if q != r {
					send[q] = []partition.Message{{Vertex: uint32(r), Value: uint32(10*r + q)}}
				}
			}
			in, err := ex.AllToAll(ctx, r, send)
			if err == nil {
				got[r] = in
				sums[r], err = ex.AllReduceSum(ctx, r, uint64(r+1))
			}
			errs <- err
		}()
	}
	for range 3 {
		require.NoError(t, <-errs)
	}
	for r := range 3 {
		var want []partition.Message
		for q := range 3 {
			if q != r {
				want = append(want, partition.Message{Vertex: uint32(q), Value: uint32(10*q + r)})
			}
		}
		require.Equal(t, want, got[r])
		require.Equal(t, uint64(6), sums[r])
	}
	require.True(t, slices.Equal([]int{3}, []int{ex.Parts()}))
	_, err := ex.AllToAll(ctx, 5, make([][]partition.Message, 3))
	require.Error(t, err)
}

// stuckExchanger behaves like NCCL's collectives: a rank's all-reduce
// waits for every rank without looking at the context, and only Abort
// (partition.Aborter) ends the wait. Rank fail fails its call number
// failAt instead of joining.
type stuckExchanger struct {
	n, fail int
	failAt  int32
	mu      sync.Mutex
	arrived int
	round   chan struct{}
	aborted chan struct{}
	once    sync.Once
	calls   atomic.Int32
	aborts  atomic.Int32
}

var errAborted = errors.New("aborted")

func newStuckExchanger(n, fail int, failAt int32) *stuckExchanger {
	return &stuckExchanger{n: n, fail: fail, failAt: failAt, round: make(chan struct{}), aborted: make(chan struct{})}
}

func (s *stuckExchanger) Parts() int { return s.n }

// AllToAll sends nothing (the test's runs only reach the all-reduce).
func (s *stuckExchanger) AllToAll(_ context.Context, _ int, _ [][]partition.Message) ([]partition.Message, error) {
	return nil, nil
}

func (s *stuckExchanger) AllReduceSum(_ context.Context, rank int, _ uint64) (uint64, error) {
	if rank == s.fail && s.calls.Add(1) == s.failAt {
		return 0, errors.New("rank failed")
	}
	s.mu.Lock()
	round := s.round
	s.arrived++
	if s.arrived == s.n {
		s.arrived = 0
		s.round = make(chan struct{})
		close(round)
	}
	s.mu.Unlock()
	select {
	case <-round:
		return 1, nil // every rank keeps going
	case <-s.aborted:
		return 0, errAborted
	}
}

func (s *stuckExchanger) Abort() error {
	s.aborts.Add(1)
	s.once.Do(func() { close(s.aborted) })
	return nil
}

// TestRunAbortsExchanger: when a part fails, a run aborts an exchanger
// whose collectives ignore the context (NCCL's), so the other parts stop
// waiting for the failed one; the part's error is the one reported. A run
// that ends normally does not abort it.
func TestRunAbortsExchanger(t *testing.T) {
	el := testgraphs.Path(200)
	ps, bs := split(t, el, partition.Options{Method: partition.Static, Parts: 3})
	ex := newStuckExchanger(3, 1, 3)
	done := make(chan error, 1)
	go func() {
		_, _, err := partition.Run(context.Background(), "bfs", ps, bs, 0, partition.RunOptions{Exchanger: ex, MaxSupersteps: 50})
		done <- err
	}()
	select {
	case err := <-done:
		require.ErrorContains(t, err, "rank failed")
		require.ErrorContains(t, err, "part 1")
		require.NotErrorIs(t, err, errAborted)
		require.Equal(t, int32(1), ex.aborts.Load())
	case <-time.After(30 * time.Second):
		t.Fatal("the other parts still wait for the failed one: the exchanger was not aborted")
	}

	// Ten supersteps that all join: no abort.
	ok := newStuckExchanger(3, -1, 0)
	_, st, err := partition.Run(context.Background(), "bfs", ps, bs, 0, partition.RunOptions{Exchanger: ok, MaxSupersteps: 10})
	require.NoError(t, err)
	require.Equal(t, 10, st.Supersteps)
	require.Zero(t, ok.aborts.Load())

	// Cancelled from outside while every rank waits: aborted too.
	ctx, cancel := context.WithCancel(context.Background())
	never := newStuckExchanger(4, -1, 0) // a fourth rank that never comes
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	_, _, err = partition.Run(ctx, "bfs", ps, bs, 0, partition.RunOptions{Exchanger: &threeOfFour{never}, MaxSupersteps: 50})
	require.Error(t, err)
	require.Equal(t, int32(1), never.aborts.Load())
}

// threeOfFour presents a four-rank stuck exchanger as three ranks: its
// rounds never complete.
type threeOfFour struct{ *stuckExchanger }

func (t *threeOfFour) Parts() int { return 3 }

// TestRunPulls: a BFS over the parts of an undirected R-MAT graph pulls in
// its large middle supersteps (Beamer's rule over all parts) and gives the
// push-only levels, with 2–4 parts; push-only (NoPull) and a directed
// graph never pull.
func TestRunPulls(t *testing.T) {
	ctx := context.Background()
	el := testgraphs.Generated(t, "rmat:12:16", 5)
	el.Symmetrize(2)
	g := graph.ToCSR(el, 2)
	for _, parts := range []int{2, 3, 4} {
		ps, bs := split(t, el, partition.Options{Method: partition.Random, Parts: parts, Seed: 3})
		levels, st, err := partition.Run(ctx, "bfs", ps, bs, 1, partition.RunOptions{})
		require.NoError(t, err)
		require.NoError(t, apps.ValidateBFS(g, 1, levels), "%d parts", parts)
		require.Positive(t, st.Pulled, "%d parts", parts)
		pulled := 0
		for _, s := range st.Steps {
			if s.Pull {
				pulled++
			}
		}
		require.Equal(t, st.Pulled, pulled)
		require.False(t, st.Steps[0].Pull, "the first superstep pushes from the source")
		pushed, st, err := partition.Run(ctx, "bfs", ps, bs, 1, partition.RunOptions{Engine: engine.RunOptions{NoPull: true}})
		require.NoError(t, err)
		require.Equal(t, levels, pushed, "%d parts", parts)
		require.Zero(t, st.Pulled)
		parents, _, err := partition.Run(ctx, "bfs-tree", ps, bs, 1, partition.RunOptions{})
		require.NoError(t, err)
		require.NoError(t, apps.ValidateBFSTree(g, 1, parents), "%d parts", parts)
	}
	weighted := el.Clone() // the parts' layouts carry weights, which BFS ignores
	weighted.SetRandomWeights(9, 1, 64, 2)
	ps, bs := split(t, weighted, partition.Options{Method: partition.Random, Parts: 2, Seed: 3})
	levels, st, err := partition.Run(ctx, "bfs", ps, bs, 1, partition.RunOptions{})
	require.NoError(t, err)
	require.NoError(t, apps.ValidateBFS(g, 1, levels))
	require.Positive(t, st.Pulled)
	directed := testgraphs.Generated(t, "rmat:12:16", 5)
	ps, bs = split(t, directed, partition.Options{Method: partition.Random, Parts: 2, Seed: 3})
	levels, st, err = partition.Run(ctx, "bfs", ps, bs, 1, partition.RunOptions{})
	require.NoError(t, err)
	require.NoError(t, apps.ValidateBFS(graph.ToCSR(directed, 2), 1, levels))
	require.Zero(t, st.Pulled)
}
