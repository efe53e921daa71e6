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
						bc, st, err := partition.RunBC(ctx, ps, bs, sources, nil, false, 2)
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
						one, _, err := partition.RunBC(ctx, ps, bs, sources, nil, false, 1)
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
	bc, st, err := partition.RunBC(context.Background(), ps, bs, []uint32{0, 1, 2, 3, 4}, nil, false, 1)
	require.NoError(t, err)
	require.Equal(t, []float64{0, 6, 8, 6, 0}, bc)
	require.NotZero(t, st.Messages)
	require.NotZero(t, st.Bytes)
	// From 0: 5 forward steps (levels 1–4 and the empty one) and 4 backward
	// (levels 4–1).
	bc, st, err = partition.RunBC(context.Background(), ps, bs, []uint32{0}, nil, false, 1)
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
			_, _, err := partition.RunBC(ctx, ps, bs, []uint32{0, n}, nil, false, 1)
			return err
		}, fmt.Sprintf("source %d is not a vertex", n)},
		{"too few backends", func() error {
			_, _, err := partition.RunBC(ctx, ps, bs[:2], []uint32{0}, nil, false, 1)
			return err
		}, "2 backends for 3 parts"},
		{"parts out of order", func() error {
			_, _, err := partition.RunBC(ctx, []*partition.Part{ps[1], ps[0], ps[2]}, []engine.Backend{bs[1], bs[0], bs[2]}, []uint32{0}, nil, false, 1)
			return err
		}, "part 0 is part 1 of 3"},
		{"no parts", func() error {
			_, _, err := partition.RunBC(ctx, nil, nil, nil, nil, false, 1)
			return err
		}, "no parts"},
		{"negative workers", func() error {
			_, _, err := partition.RunBC(ctx, ps, bs, []uint32{0}, nil, false, -1)
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
	_, _, err := partition.RunBC(ctx, eps, ebs, []uint32{0}, nil, false, 1)
	require.ErrorContains(t, err, "source 0 is not a vertex")
	bc, _, err := partition.RunBC(ctx, eps, ebs, nil, nil, false, 1)
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
	_, _, err := partition.RunBC(ctx, ps, bs, sources, nil, false, 1)
	require.ErrorIs(t, err, context.Canceled)

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(20*time.Millisecond, cancel)
	start := time.Now()
	_, _, err = partition.RunBC(ctx, ps, bs, sources, nil, false, 1)
	require.ErrorIs(t, err, context.Canceled)
	require.Less(t, time.Since(start), 30*time.Second)

	// A deadline is reported as such.
	dctx, dcancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer dcancel()
	_, _, err = partition.RunBC(dctx, ps, bs, sources, nil, false, 2)
	require.ErrorIs(t, err, context.DeadlineExceeded)
}

// bcExchangerStub is an in-memory exchanger that is a BCExchanger whose
// BCParts returns parts (nil: the run stays on the host) or err.
type bcExchangerStub struct {
	*partition.MemExchanger
	parts []partition.BCPart
	err   error
	calls int
}

func (x *bcExchangerStub) BCParts([]*partition.Part, []engine.Backend) ([]partition.BCPart, error) {
	x.calls++
	return x.parts, x.err
}

// scriptedBCPart is a BCPart whose forward passes reach depth levels (a
// step's Total is 1 until level depth+1, then 0), which logs its calls,
// fails the forward level failAt (0: none), and collects n zeros on part
// 0.
type scriptedBCPart struct {
	index, depth int
	failAt       uint32
	n            uint64
	log          []string
	closed       int
}

func (p *scriptedBCPart) Init() error { p.log = append(p.log, "init"); return nil }

func (p *scriptedBCPart) Start(src uint32, has bool) error {
	p.log = append(p.log, fmt.Sprintf("start %d %v", src, has))
	return nil
}

func (p *scriptedBCPart) Forward(_ context.Context, d uint32) (partition.BCStep, error) {
	p.log = append(p.log, fmt.Sprintf("f%d", d))
	if d == p.failAt {
		return partition.BCStep{}, fmt.Errorf("scripted failure")
	}
	s := partition.BCStep{Active: 1, Sent: 2, Bytes: 16}
	if int(d) <= p.depth {
		s.Total = 1
	}
	return s, nil
}

func (p *scriptedBCPart) Backward(_ context.Context, d uint32) (partition.BCStep, error) {
	p.log = append(p.log, fmt.Sprintf("b%d", d))
	return partition.BCStep{Sent: 1, Bytes: 8}, nil
}

func (p *scriptedBCPart) Collect(context.Context) ([]float64, error) {
	p.log = append(p.log, "collect")
	if p.index != 0 {
		return nil, nil
	}
	return make([]float64, p.n), nil
}

func (p *scriptedBCPart) Close() error { p.closed++; return nil }

// TestRunBCExchanger: RunBC asks a BCExchanger for device parts unless
// told to run on the host, runs on the host when it makes none, reports
// its errors and a wrong part count, and drives the parts it makes: per
// source Start, Forward from level 1 until a Total of 0, Backward from the
// deepest level to 1, then Collect, each part closed once; a part's
// failure names the part, the source and the level, and every part is
// closed.
func TestRunBCExchanger(t *testing.T) {
	ctx := context.Background()
	el := testgraphs.Shapes(t, testgraphs.Small)[0].EL
	ps, bs := split(t, el, partition.Options{Method: partition.Random, Parts: 3, Seed: 1})
	g := graph.ToCSR(el, 2)
	sources := []uint32{0, 7}
	x := &bcExchangerStub{MemExchanger: partition.NewMemExchanger(3)}
	bc, _, err := partition.RunBC(ctx, ps, bs, sources, x, false, 1)
	require.NoError(t, err)
	require.NoError(t, apps.ValidateBC(g, sources, bc))
	require.Equal(t, 1, x.calls)
	_, _, err = partition.RunBC(ctx, ps, bs, sources, x, true, 1)
	require.NoError(t, err)
	require.Equal(t, 1, x.calls, "host: the exchanger is not asked")
	x.err = fmt.Errorf("no room")
	_, _, err = partition.RunBC(ctx, ps, bs, sources, x, false, 1)
	require.ErrorContains(t, err, "partition: run bc: no room")

	scripted := func(failAt uint32) []*scriptedBCPart {
		out := make([]*scriptedBCPart, 3)
		x.parts, x.err = make([]partition.BCPart, 3), nil
		for i := range out {
			out[i] = &scriptedBCPart{index: i, depth: 2, n: el.NumVertices}
			if i == 1 {
				out[i].failAt = failAt
			}
			x.parts[i] = out[i]
		}
		return out
	}
	sp := scripted(0)
	x.parts = x.parts[:2]
	_, _, err = partition.RunBC(ctx, ps, bs, sources, x, false, 1)
	require.ErrorContains(t, err, "the exchanger made 2 bc parts for 3 parts")
	require.Equal(t, 1, sp[0].closed)

	sp = scripted(0)
	bc, st, err := partition.RunBC(ctx, ps, bs, sources, x, false, 1)
	require.NoError(t, err)
	require.Len(t, bc, int(el.NumVertices))
	var lid uint32 // source 0's id in its part (every part is told it)
	for _, pt := range ps {
		if l, ok := pt.Local(0); ok {
			lid = l
		}
	}
	_, has0 := ps[0].Local(0)
	pass := []string{"f1", "f2", "f3", "b2", "b1"}
	want := append([]string{"init", fmt.Sprintf("start %d %v", lid, has0)}, pass...)
	require.Equal(t, want, sp[0].log[:len(want)])
	require.Equal(t, "collect", sp[0].log[len(sp[0].log)-1])
	require.Len(t, sp[0].log, 1+2*(1+len(pass))+1)
	for _, p := range sp {
		require.Equal(t, 1, p.closed)
	}
	require.Equal(t, 2*len(pass), st.Supersteps)
	require.Equal(t, uint64(3*16), st.Steps[0].Bytes)
	require.Equal(t, uint64(3*8), st.Steps[3].Bytes)
	require.Equal(t, uint64(2*(3*3*16+3*2*8)), st.Bytes)

	sp = scripted(2)
	_, _, err = partition.RunBC(ctx, ps, bs, sources, x, false, 1)
	require.ErrorContains(t, err, "part 1: source 0 (1 of 2): forward level 2: scripted failure")
	for _, p := range sp {
		require.Equal(t, 1, p.closed)
	}
}
