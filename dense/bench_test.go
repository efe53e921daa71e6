package dense

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/layout"
)

// pagerank is a PageRank-style sum program: values hold rank/out-degree.
type pagerank struct {
	base, damp float64
	invDeg     []float64
}

func (*pagerank) Edge() engine.EdgeOp       { return engine.EdgeSource }
func (*pagerank) Combine() engine.CombineOp { return engine.CombineSum }
func (*pagerank) ApplyAll() bool            { return true }
func (p *pagerank) Apply(v uint32, acc float64, values []float64) bool {
	values[v] = (p.base + p.damp*acc) * p.invDeg[v]
	return true
}

func newPageRank(l *layout.Layout) (*pagerank, []float64) {
	n := l.NumVertices
	p := &pagerank{base: 0.15 / float64(n), damp: 0.85, invDeg: make([]float64, n)}
	vals := make([]float64, n)
	for v := range vals {
		if d := l.OutDegree(uint32(v)); d > 0 {
			p.invDeg[v] = 1 / float64(d)
		}
		vals[v] = p.invDeg[v] / float64(n)
	}
	return p, vals
}

// BenchmarkDenseStep times one dense iteration on R-MAT scale 20, edge
// factor 16, symmetrized, without self-loops and repeated arcs (about 31M
// arcs), with 2 workers: PageRank (sum, float64) and BFS-like (min,
// uint32), with every source active and with 10% active. The layout is
// built on first use and cached in the temporary directory.
func BenchmarkDenseStep(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a scale-20 R-MAT layout")
	}
	l := rmatLayout(b, 20)
	n := l.NumVertices
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 6))
	for _, frac := range []struct {
		name string
		p    float64
	}{{"all", 1}, {"tenth", 0.1}} {
		active := randomActive(n, frac.p, rng)
		next := make([]uint8, n)
		b.Run("pr-sum-float64/"+frac.name, func(b *testing.B) {
			e, err := New[float64](l, 2)
			if err != nil {
				b.Fatal(err)
			}
			p, vals := newPageRank(l)
			benchSteps(b, ctx, e, p, vals, active, next)
		})
		b.Run("min-uint32/"+frac.name, func(b *testing.B) {
			e, err := New[uint32](l, 2)
			if err != nil {
				b.Fatal(err)
			}
			vals := make([]uint32, n)
			for v := range vals {
				vals[v] = uint32(rng.IntN(20))
			}
			benchSteps(b, ctx, e, bfs{}, vals, active, next)
		})
	}
}

func benchSteps[V engine.Value](b *testing.B, ctx context.Context, e *Engine[V], p engine.Program[V], vals []V, active, next []uint8) {
	var ph1, ph2 float64
	b.ResetTimer()
	for b.Loop() {
		_, phases, err := e.Step(ctx, p, vals, active, next)
		if err != nil {
			b.Fatal(err)
		}
		ph1 += phases[0].Seconds
		ph2 += phases[1].Seconds
	}
	el := b.Elapsed()
	arcs := float64(b.N) * float64(e.l.NumArcs)
	b.ReportMetric(float64(el.Nanoseconds())/arcs, "ns/arc")
	b.ReportMetric(arcs/el.Seconds()/1e6, "Marcs/s")
	b.ReportMetric(ph1/float64(b.N)*1e3, "phase1-ms")
	b.ReportMetric(ph2/float64(b.N)*1e3, "phase2-ms")
}

// BenchmarkDenseEstimate times Estimate on the same graph and reports the
// estimate next to a measured step.
func BenchmarkDenseEstimate(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a scale-20 R-MAT layout")
	}
	l := rmatLayout(b, 20)
	e, err := New[float64](l, 2)
	if err != nil {
		b.Fatal(err)
	}
	p, vals := newPageRank(l)
	ctx := context.Background()
	active := randomActive(l.NumVertices, 1, rand.New(rand.NewPCG(1, 1)))
	next := make([]uint8, l.NumVertices)
	best := time.Duration(1 << 62)
	for range 3 {
		t := time.Now()
		if _, _, err := e.Step(ctx, p, vals, active, next); err != nil {
			b.Fatal(err)
		}
		best = min(best, time.Since(t))
	}
	var est time.Duration
	for b.Loop() {
		est, err = e.Estimate(ctx, p, vals)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(est.Microseconds())/1e3, "estimate-ms")
	b.ReportMetric(float64(best.Microseconds())/1e3, "step-ms")
}
