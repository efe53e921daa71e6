package partition_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/stretchr/testify/require"
)

// partCounts are the part counts the tests split into: 8 leaves some part of
// a small test graph without a vertex.
var partCounts = []int{1, 2, 3, 4, 8}

// eachSplit calls fn with el split by every partitioner into each of
// partCounts parts (1 and 3 with -short), and the tag naming them after
// name.
func eachSplit(t *testing.T, name string, el *graph.EdgeList, fn func(tag string, parts int, ps []*partition.Part, bs []engine.Backend)) {
	t.Helper()
	counts := partCounts
	if testing.Short() {
		counts = []int{1, 3}
	}
	for _, m := range partition.Methods {
		for _, parts := range counts {
			ps, bs := split(t, el, partition.Options{Method: m, Parts: parts, Seed: 7, Bias: 0.8})
			fn(fmt.Sprintf("%s/%s/%d parts", name, m, parts), parts, ps, bs)
		}
	}
}

func TestParseMethod(t *testing.T) {
	for _, m := range partition.Methods {
		got, err := partition.ParseMethod(m.String())
		require.NoError(t, err)
		require.Equal(t, m, got)
	}
	auto, err := partition.ParseMethod("Auto")
	require.NoError(t, err)
	require.Equal(t, partition.Auto, auto)
	require.Equal(t, "auto", auto.String())
	got, err := partition.ParseMethod("RAND")
	require.NoError(t, err)
	require.Equal(t, partition.Random, got)
	_, err = partition.ParseMethod("metis")
	require.ErrorContains(t, err, "unknown method")
}

func TestOptionsValidate(t *testing.T) {
	ok := partition.Options{Method: partition.BRP, Parts: 2, Bias: 0.5}
	require.NoError(t, ok.Validate())
	for _, bad := range []partition.Options{
		{Method: partition.Random, Parts: 0},
		{Method: partition.Random, Parts: partition.MaxParts + 1},
		{Method: partition.Method(9), Parts: 2},
		{Method: partition.BRP, Parts: 2, Bias: 1.5},
		{Method: partition.BRP, Parts: 2, Bias: -0.1},
		{Method: partition.BRP, Parts: 2, Slack: -1},
	} {
		require.Error(t, bad.Validate(), "%+v", bad)
		_, err := partition.Assign(context.Background(), testgraphs.Undirected(3, [2]uint32{0, 1}), bad)
		require.Error(t, err, "%+v", bad)
	}
	_, err := partition.Assign(context.Background(), nil, ok)
	require.ErrorContains(t, err, "nil graph")
}

// sizes returns each part's vertex count.
func sizes(owner []uint32, parts int) []uint64 {
	s := make([]uint64, parts)
	for _, p := range owner {
		s[p]++
	}
	return s
}

// optionsFor returns the options the tests use for a method (BRP with
// several biases).
func optionsFor(m partition.Method, parts int, seed uint64) []partition.Options {
	o := partition.Options{Method: m, Parts: parts, Seed: seed}
	if m != partition.BRP {
		return []partition.Options{o}
	}
	var os []partition.Options
	for _, b := range []float64{0, 0.5, 1} {
		o.Bias = b
		os = append(os, o)
	}
	return os
}

func TestAssignOwnershipAndBalance(t *testing.T) {
	ctx := context.Background()
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		n := s.EL.NumVertices
		for _, m := range partition.Methods {
			for _, parts := range append(partCounts, 7) {
				for _, o := range optionsFor(m, parts, 11) {
					tag := fmt.Sprintf("%s/%s/bias %v/%d parts", s.Name, m, o.Bias, parts)
					owner, err := partition.Assign(ctx, s.EL, o)
					require.NoError(t, err, tag)
					require.Len(t, owner, int(n), tag)
					for v, p := range owner {
						require.Less(t, p, uint32(parts), "%s: vertex %d", tag, v)
					}
					sz := sizes(owner, parts)
					switch m {
					case partition.Random, partition.Static:
						require.LessOrEqual(t, slices.Max(sz)-slices.Min(sz), uint64(1), "%s: sizes %v", tag, sz)
					case partition.BRP:
						require.LessOrEqual(t, slices.Max(sz), partition.Capacity(n, parts, o.Slack), "%s: sizes %v", tag, sz)
					case partition.Balanced:
						checkBalanced(t, tag, s.EL, owner, parts)
					}
					if m == partition.Static {
						require.True(t, slices.IsSorted(owner), tag)
					}
					again, err := partition.Assign(ctx, s.EL, o)
					require.NoError(t, err, tag)
					require.Equal(t, owner, again, "%s: same seed, other assignment", tag)
				}
			}
		}
	}
}

// checkBalanced checks Balanced's promise: contiguous ranges of the
// degree-group order, each weighing (out-degree+1 summed) at most
// total/parts plus the largest weight.
func checkBalanced(t *testing.T, tag string, el *graph.EdgeList, owner []uint32, parts int) {
	t.Helper()
	order := partition.GroupOrder(el, graph.DefaultGroupThresholds())
	outdeg := el.OutDegrees(1)
	weight := make([]uint64, parts)
	var maxW uint64
	for i, v := range order {
		if i > 0 {
			require.LessOrEqual(t, owner[order[i-1]], owner[v], "%s: not contiguous in group order", tag)
		}
		w := outdeg[v] + 1
		weight[owner[v]] += w
		maxW = max(maxW, w)
	}
	total := el.NumVertices + el.NumArcs()
	bound := (total+uint64(parts)-1)/uint64(parts) + maxW
	require.LessOrEqual(t, slices.Max(weight), bound, "%s: weights %v", tag, weight)
}

func TestGroupOrder(t *testing.T) {
	// A star: the centre's in-degree puts it in a higher group than the leaves.
	el := testgraphs.Undirected(6, [2]uint32{5, 0}, [2]uint32{5, 1}, [2]uint32{5, 2}, [2]uint32{5, 3}, [2]uint32{5, 4})
	require.Equal(t, []uint32{5, 0, 1, 2, 3, 4}, partition.GroupOrder(el, []uint64{4, 2}))
}

func TestAssignSeeds(t *testing.T) {
	ctx := context.Background()
	el := testgraphs.Generated(t, "rgg:n=800", 3)
	for _, m := range []partition.Method{partition.Random, partition.BRP} {
		a, err := partition.Assign(ctx, el, partition.Options{Method: m, Parts: 4, Seed: 1, Bias: 0.5})
		require.NoError(t, err)
		b, err := partition.Assign(ctx, el, partition.Options{Method: m, Parts: 4, Seed: 2, Bias: 0.5})
		require.NoError(t, err)
		require.NotEqual(t, a, b, "%s: seeds 1 and 2 gave the same assignment", m)
	}
}

// TestBRPKeepsNeighboursTogether: fully biased BRP cuts fewer arcs than
// the random partitioner (and than BRP with bias 0) on graphs with
// locality.
func TestBRPKeepsNeighboursTogether(t *testing.T) {
	ctx := context.Background()
	shapes := map[string]bool{"rgg": true, "grid": true, "chain": true, "rmat": true}
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		if !shapes[s.Name] {
			continue
		}
		for _, parts := range []int{2, 4} {
			cut := func(o partition.Options) uint64 {
				owner, err := partition.Assign(ctx, s.EL, o)
				require.NoError(t, err)
				return partition.EdgeCut(s.EL, owner)
			}
			random := cut(partition.Options{Method: partition.Random, Parts: parts, Seed: 5})
			unbiased := cut(partition.Options{Method: partition.BRP, Parts: parts, Seed: 5, Bias: 0})
			biased := cut(partition.Options{Method: partition.BRP, Parts: parts, Seed: 5, Bias: 1})
			t.Logf("%s/%d parts: edge cut random %d, brp bias 0 %d, brp bias 1 %d of %d arcs",
				s.Name, parts, random, unbiased, biased, s.EL.NumArcs())
			require.Less(t, biased, random, "%s/%d parts", s.Name, parts)
			require.Less(t, biased, unbiased, "%s/%d parts", s.Name, parts)
		}
	}
}

func TestEdgeCut(t *testing.T) {
	el := testgraphs.Undirected(4, [2]uint32{0, 1}, [2]uint32{1, 2}, [2]uint32{2, 3})
	require.Equal(t, uint64(2), partition.EdgeCut(el, []uint32{0, 0, 1, 1}))
	require.Equal(t, uint64(6), partition.EdgeCut(el, []uint32{0, 1, 0, 1}))
}

func TestAssignCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, m := range partition.Methods {
		_, err := partition.Assign(ctx, testgraphs.Generated(t, "rgg:n=800", 3), partition.Options{Method: m, Parts: 2})
		require.ErrorIs(t, err, context.Canceled, m.String())
	}
}

// TestChooseAuto: Auto takes, of Balanced and BRP, the assignment that
// cuts fewer arcs (BRP on a tie), exactly as that method assigns; on a
// path (locally numbered) it is Balanced, which cuts one arc a border.
func TestChooseAuto(t *testing.T) {
	ctx := context.Background()
	shapes := testgraphs.Shapes(t, testgraphs.Small)
	els := []*graph.EdgeList{testgraphs.Path(300)}
	for _, s := range shapes {
		els = append(els, s.EL)
	}
	for i, el := range els {
		for _, parts := range []int{2, 3} {
			o := partition.Options{Method: partition.Auto, Parts: parts, Seed: 3}
			m, owner, err := partition.Choose(ctx, el, o)
			require.NoError(t, err)
			require.Contains(t, []partition.Method{partition.Balanced, partition.BRP}, m)
			ob, op := o, o
			ob.Method, op.Method = partition.Balanced, partition.BRP
			balanced, err := partition.Assign(ctx, el, ob)
			require.NoError(t, err)
			brp, err := partition.Assign(ctx, el, op)
			require.NoError(t, err)
			cb, cp := partition.EdgeCut(el, balanced), partition.EdgeCut(el, brp)
			if cb < cp {
				require.Equal(t, partition.Balanced, m, "graph %d, %d parts: cuts %d < %d", i, parts, cb, cp)
				require.Equal(t, balanced, owner)
			} else {
				require.Equal(t, partition.BRP, m, "graph %d, %d parts: cuts %d >= %d", i, parts, cb, cp)
				require.Equal(t, brp, owner)
			}
			same, err := partition.Assign(ctx, el, o)
			require.NoError(t, err)
			require.Equal(t, owner, same, "Assign with Auto is Choose's")
			if i == 0 {
				require.Equal(t, partition.Balanced, m, "a path")
				require.Equal(t, uint64(2*(parts-1)), cb, "a path's borders, both arcs of each")
			}
		}
	}
}
