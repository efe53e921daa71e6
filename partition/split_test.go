package partition_test

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/stretchr/testify/require"
)

// arc is one arc in original ids, for multiset comparisons.
type arc struct{ src, dst, w uint32 }

func arcsOf(el *graph.EdgeList) []arc {
	out := make([]arc, len(el.Src))
	for i := range el.Src {
		out[i] = arc{el.Src[i], el.Dst[i], 0}
		if el.Weights != nil {
			out[i].w = el.Weights[i]
		}
	}
	return out
}

func sortArcs(a []arc) {
	slices.SortFunc(a, func(x, y arc) int {
		return cmp.Or(cmp.Compare(x.src, y.src), cmp.Compare(x.dst, y.dst), cmp.Compare(x.w, y.w))
	})
}

// checkSplit checks every promise of Split for parts made from el by owner.
func checkSplit(t *testing.T, tag string, el *graph.EdgeList, owner []uint32, parts []*partition.Part) {
	t.Helper()
	n := el.NumVertices
	seen := make([]int, n)
	var back []arc
	var cut uint64
	boundary := make([]map[uint32]bool, len(parts))
	for i := range boundary {
		boundary[i] = map[uint32]bool{}
	}
	for i, p := range parts {
		require.Equal(t, i, p.Index, tag)
		require.Equal(t, len(parts), p.NumParts, tag)
		require.Equal(t, n, p.NumVertices, tag)
		require.Equal(t, el.Directed, p.Directed, tag)
		require.True(t, p.EL.Directed, "%s: a part's arcs are never symmetric", tag)
		require.Equal(t, el.Weighted(), p.EL.Weighted(), tag)
		require.Equal(t, p.NumPartVertices(), p.EL.NumVertices, tag)
		require.NoError(t, p.EL.Validate(), tag)
		require.Len(t, p.Global, int(p.NumPartVertices()), tag)
		locals := p.Global[:p.NumLocal]
		require.True(t, slices.IsSorted(locals), "%s: locals not in increasing id", tag)
		for l, v := range locals {
			require.Equal(t, uint32(i), owner[v], "%s: part %d holds %d", tag, i, v)
			seen[v]++
			got, ok := p.Local(v)
			require.True(t, ok, tag)
			require.Equal(t, uint32(l), got, tag)
		}
		for g, v := range p.Global[p.NumLocal:] {
			o := p.GhostOwner[g]
			require.NotEqual(t, uint32(i), o, "%s: a ghost owned by its own part", tag)
			require.Equal(t, owner[v], o, tag)
			require.Equal(t, v, parts[o].Global[p.GhostRemote[g]], "%s: ghost %d's remote id", tag, g)
			_, ok := p.Local(v)
			require.False(t, ok, tag)
			boundary[o][p.GhostRemote[g]] = true
		}
		require.True(t, slices.IsSortedFunc(p.Global[p.NumLocal:], func(a, b uint32) int {
			return cmp.Or(cmp.Compare(owner[a], owner[b]), cmp.Compare(a, b))
		}), "%s: ghosts not ordered by owner and id", tag)
		var covered uint64
		for q := range parts {
			lo, hi := p.GhostRange(q)
			for g := lo; g < hi; g++ {
				require.Equal(t, uint32(q), p.GhostOwner[g], "%s: ghost %d in part %d's range", tag, g, q)
			}
			covered += hi - lo
		}
		require.Equal(t, p.NumGhosts, covered, "%s: the owners' ranges cover every ghost", tag)
		var ghostArcs uint64
		for k := range p.EL.Src {
			src, dst := p.EL.Src[k], p.EL.Dst[k]
			require.Less(t, uint64(src), p.NumLocal, "%s: an arc leaves a ghost", tag)
			if uint64(dst) >= p.NumLocal {
				ghostArcs++
			}
			a := arc{p.Global[src], p.Global[dst], 0}
			if p.EL.Weights != nil {
				a.w = p.EL.Weights[k]
			}
			back = append(back, a)
		}
		require.Equal(t, ghostArcs, p.GhostArcs, "%s: part %d's arcs to ghosts", tag, i)
		cut += p.GhostArcs
	}
	require.Equal(t, partition.EdgeCut(el, owner), cut, "%s: the parts' arcs to ghosts are the arcs cut", tag)
	for v, k := range seen {
		require.Equal(t, 1, k, "%s: vertex %d owned %d times", tag, v, k)
	}
	for i, p := range parts {
		var want []uint32
		for v := range boundary[i] {
			want = append(want, v)
		}
		slices.Sort(want)
		require.Equal(t, want, append([]uint32(nil), p.Boundary...), "%s: part %d's boundary", tag, i)
	}
	want := arcsOf(el)
	sortArcs(want)
	sortArcs(back)
	require.Equal(t, len(want), len(back), "%s: the parts' arcs are not the input's", tag)
	require.True(t, slices.Equal(want, back), "%s: the parts' arcs are not the input's", tag)
}

func TestSplitRoundTrip(t *testing.T) {
	ctx := context.Background()
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		weighted := s.EL.Clone()
		weighted.SetRandomWeights(9, 1, 64, 2)
		for _, el := range []*graph.EdgeList{s.EL, weighted} {
			for _, m := range partition.Methods {
				for _, parts := range append(partCounts, 7) {
					tag := fmt.Sprintf("%s/weighted %v/%s/%d parts", s.Name, el.Weighted(), m, parts)
					owner, err := partition.Assign(ctx, el, partition.Options{Method: m, Parts: parts, Seed: 3, Bias: 0.7})
					require.NoError(t, err, tag)
					ps, err := partition.Split(ctx, el, owner, parts)
					require.NoError(t, err, tag)
					require.Len(t, ps, parts, tag)
					checkSplit(t, tag, el, owner, ps)
				}
			}
		}
	}
}

func TestSplitSmall(t *testing.T) {
	// 0-1-2-3 split as {0,1} {2,3}: part 0 has ghost 2 (part 1's local 0),
	// part 1 ghost 1 (part 0's local 1); both have a boundary vertex.
	el := testgraphs.Undirected(4, [2]uint32{0, 1}, [2]uint32{1, 2}, [2]uint32{2, 3})
	ps, err := partition.Split(context.Background(), el, []uint32{0, 0, 1, 1}, 2)
	require.NoError(t, err)
	require.Equal(t, []uint32{0, 1, 2}, ps[0].Global)
	require.Equal(t, []uint32{1}, ps[0].GhostOwner)
	require.Equal(t, []uint32{0}, ps[0].GhostRemote)
	require.Equal(t, []uint32{1}, ps[0].Boundary)
	require.Equal(t, []uint32{2, 3, 1}, ps[1].Global)
	require.Equal(t, []uint32{0}, ps[1].GhostOwner)
	require.Equal(t, []uint32{1}, ps[1].GhostRemote)
	require.Equal(t, []uint32{0}, ps[1].Boundary)
	require.Equal(t, uint64(3), ps[0].EL.NumArcs()) // 0→1, 1→0, 1→2
}

func TestSplitErrors(t *testing.T) {
	ctx := context.Background()
	el := testgraphs.Undirected(3, [2]uint32{0, 1})
	_, err := partition.Split(ctx, el, []uint32{0, 1}, 2)
	require.ErrorContains(t, err, "2 owners for 3 vertices")
	_, err = partition.Split(ctx, el, []uint32{0, 2, 1}, 2)
	require.ErrorContains(t, err, "owner 2")
	_, err = partition.Split(ctx, el, []uint32{0, 0, 0}, 0)
	require.ErrorContains(t, err, "0 parts")
	_, err = partition.Split(ctx, nil, nil, 1)
	require.ErrorContains(t, err, "nil graph")
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = partition.Split(cctx, el, []uint32{0, 1, 0}, 2)
	require.ErrorIs(t, err, context.Canceled)
}

// cancelAfter is a context whose Err reports context.Canceled from its
// calls' n+1th on: a cancellation in the middle of a pass.
type cancelAfter struct {
	context.Context
	calls atomic.Int64
	n     int64
}

func (c *cancelAfter) Err() error {
	if c.calls.Add(1) > c.n {
		return context.Canceled
	}
	return nil
}

// TestSplitCancelledMidway: a cancellation during either pass over the
// arcs is Split's error, not parts left half written.
func TestSplitCancelledMidway(t *testing.T) {
	s := testgraphs.Shapes(t, testgraphs.Small)
	el := s[0].EL
	for _, sh := range s {
		if sh.EL.NumArcs() > el.NumArcs() {
			el = sh.EL
		}
	}
	owner, err := partition.Assign(context.Background(), el, partition.Options{Method: partition.Random, Parts: 3, Seed: 1})
	require.NoError(t, err)
	count := &cancelAfter{Context: context.Background(), n: math.MaxInt64}
	_, err = partition.Split(count, el, owner, 3)
	require.NoError(t, err)
	checks := count.calls.Load()
	require.Greater(t, checks, int64(2), "Split checks its context in its passes")
	for n := range checks {
		ctx := &cancelAfter{Context: context.Background(), n: n}
		ps, err := partition.Split(ctx, el, owner, 3)
		require.ErrorIs(t, err, context.Canceled, "cancelled after %d of %d checks", n, checks)
		require.Nil(t, ps)
	}
}
