package partition_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/stretchr/testify/require"
)

// bcSources are the source lists a BC test runs on a graph of n vertices:
// none, one, several with a repeat, and (for larger graphs) a handful
// spread over the ids.
func bcSources(n uint64) [][]uint32 {
	if n == 0 {
		return [][]uint32{nil}
	}
	last := uint32(n - 1)
	out := [][]uint32{nil, {0}, {last, 0, last}}
	if n > 8 {
		out = append(out, []uint32{uint32(n / 2), 3, uint32(n / 3), 3, last - 1, 1})
	}
	return out
}

// TestRunBCMatchesReference runs BC over 1–4 and 7 parts (some part of a
// small graph then holds no vertex) with every partitioner on every test
// shape, directed and symmetrized, from several source lists (none, and
// repeated sources), and checks the scores against ref.BC within the
// tolerance of apps.ValidateBC. The scores must not depend on the worker
// count (the sums have a fixed order).
func TestRunBCMatchesReference(t *testing.T) {
	ctx := context.Background()
	counts := []int{1, 2, 3, 4, 7}
	if testing.Short() {
		counts = []int{1, 3}
	}
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		sym := s.EL.Clone()
		sym.Symmetrize(2)
		for _, el := range []*graph.EdgeList{s.EL, sym} {
			g := graph.ToCSR(el, 2)
			for _, m := range partition.Methods {
				for _, parts := range counts {
					ps, bs := split(t, el, partition.Options{Method: m, Parts: parts, Seed: 7, Bias: 0.8})
					for _, sources := range bcSources(el.NumVertices) {
						tag := fmt.Sprintf("%s/directed=%v/%s/%d parts/sources %v", s.Name, el.Directed, m, parts, sources)
						bc, st, err := partition.RunBC(ctx, ps, bs, sources, 2)
						require.NoError(t, err, tag)
						require.Len(t, bc, int(el.NumVertices), tag)
						require.NoError(t, apps.ValidateBC(g, sources, bc), tag)
						require.True(t, st.Converged, tag)
						if parts == 1 {
							require.Zero(t, st.Messages, tag)
						}
						if len(sources) == 0 {
							require.Zero(t, st.Supersteps, tag)
							continue
						}
						require.GreaterOrEqual(t, st.Supersteps, len(sources), tag) // a forward step at least per source
						one, _, err := partition.RunBC(ctx, ps, bs, sources, 1)
						require.NoError(t, err, tag)
						require.Equal(t, bc, one, "%s: the scores depend on the worker count", tag)
					}
				}
			}
		}
	}
}

// TestRunBCPath checks the exact scores of the path 0–1–2–3–4 from every
// source (ordered pairs: 0, 6, 8, 6, 0) over parts that cut every arc.
func TestRunBCPath(t *testing.T) {
	el := testgraphs.Path(5)
	owner := []uint32{0, 1, 0, 1, 2}
	ps, bs := splitOwned(t, el, owner, 3)
	bc, st, err := partition.RunBC(context.Background(), ps, bs, []uint32{0, 1, 2, 3, 4}, 1)
	require.NoError(t, err)
	require.Equal(t, []float64{0, 6, 8, 6, 0}, bc)
	require.NotZero(t, st.Messages)
	require.NotZero(t, st.Bytes)
	// From 0: 5 forward steps (levels 1–4 and the empty one) and 4 backward
	// (levels 4–1).
	bc, st, err = partition.RunBC(context.Background(), ps, bs, []uint32{0}, 1)
	require.NoError(t, err)
	require.Equal(t, []float64{0, 3, 2, 1, 0}, bc)
	require.Equal(t, 9, st.Supersteps)
	require.Len(t, st.Steps, 9)
	require.Len(t, st.PartCompute, 3)
}

// TestRunBCArguments: bad arguments are refused with errors naming the run
// and what is wrong.
func TestRunBCArguments(t *testing.T) {
	ctx := context.Background()
	el := testgraphs.Shapes(t, testgraphs.Small)[0].EL
	ps, bs := split(t, el, partition.Options{Method: partition.Random, Parts: 3, Seed: 1})
	n := uint32(el.NumVertices)
	for _, c := range []struct {
		name     string
		run      func() error
		contains string
	}{
		{"source out of range", func() error {
			_, _, err := partition.RunBC(ctx, ps, bs, []uint32{0, n}, 1)
			return err
		}, fmt.Sprintf("source %d is not a vertex", n)},
		{"too few backends", func() error {
			_, _, err := partition.RunBC(ctx, ps, bs[:2], []uint32{0}, 1)
			return err
		}, "2 backends for 3 parts"},
		{"parts out of order", func() error {
			_, _, err := partition.RunBC(ctx, []*partition.Part{ps[1], ps[0], ps[2]}, []engine.Backend{bs[1], bs[0], bs[2]}, []uint32{0}, 1)
			return err
		}, "part 0 is part 1 of 3"},
		{"no parts", func() error {
			_, _, err := partition.RunBC(ctx, nil, nil, nil, 1)
			return err
		}, "no parts"},
		{"negative workers", func() error {
			_, _, err := partition.RunBC(ctx, ps, bs, []uint32{0}, -1)
			return err
		}, "negative worker count"},
	} {
		err := c.run()
		require.Error(t, err, c.name)
		require.ErrorContains(t, err, "partition: run bc: ", c.name)
		require.ErrorContains(t, err, c.contains, c.name)
	}
	// The empty graph: no source is a vertex.
	eps, ebs := split(t, &graph.EdgeList{}, partition.Options{Method: partition.Random, Parts: 2, Seed: 1})
	_, _, err := partition.RunBC(ctx, eps, ebs, []uint32{0}, 1)
	require.ErrorContains(t, err, "source 0 is not a vertex")
	bc, _, err := partition.RunBC(ctx, eps, ebs, nil, 1)
	require.NoError(t, err)
	require.Empty(t, bc)
}

// TestRunBCCancel: a cancelled context stops the run, before it starts and
// while it runs (many sources: the parts stop at their next barrier).
func TestRunBCCancel(t *testing.T) {
	el := testgraphs.Shapes(t, testgraphs.Small)[0].EL
	ps, bs := split(t, el, partition.Options{Method: partition.BRP, Parts: 3, Seed: 1, Bias: 0.8})
	sources := make([]uint32, 100000)
	for i := range sources {
		sources[i] = uint32(i) % uint32(el.NumVertices)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := partition.RunBC(ctx, ps, bs, sources, 1)
	require.ErrorIs(t, err, context.Canceled)

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(20*time.Millisecond, cancel)
	start := time.Now()
	_, _, err = partition.RunBC(ctx, ps, bs, sources, 1)
	require.ErrorIs(t, err, context.Canceled)
	require.Less(t, time.Since(start), 30*time.Second)

	// A deadline is reported as such.
	dctx, dcancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer dcancel()
	_, _, err = partition.RunBC(dctx, ps, bs, sources, 2)
	require.ErrorIs(t, err, context.DeadlineExceeded)
}
