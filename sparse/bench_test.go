package sparse

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
)

var (
	benchOnce   sync.Once
	benchLayout *layout.Layout
	benchErr    error
)

// benchGraph builds, once and only when a benchmark asks for it, the layout
// of R-MAT scale 20 edge factor 16, symmetrized, without self-loops and
// duplicates (about 31M arcs), with the default parameters.
// MGRAPH_SPARSE_BENCH_SCALE picks another scale.
func benchGraph(b *testing.B) *layout.Layout {
	benchOnce.Do(func() {
		scale := 20
		if s := os.Getenv("MGRAPH_SPARSE_BENCH_SCALE"); s != "" {
			if scale, benchErr = strconv.Atoi(s); benchErr != nil {
				return
			}
		}
		ctx := context.Background()
		el, err := gen.RMAT(ctx, gen.DefaultRMAT(scale, 16), 0, nil)
		if err != nil {
			benchErr = err
			return
		}
		el.Symmetrize(0)
		el.DropSelfLoops()
		el.Dedupe(0)
		benchLayout, benchErr = preprocess.Build(ctx, el, layout.DefaultParams(), preprocess.Options{})
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchLayout
}

// BenchmarkSparseStep times BFS-style steps (min over uint32, source+1) on
// R-MAT scale 20 from random frontiers of 1%, 10% and 50% of the vertices
// (sorted, as the runner produces them) and from tiny ones, with
// GOMAXPROCS workers (use -cpu). Every vertex outside the frontier is
// unvisited, so Apply activates every destination reached; the values it
// changes are restored inside the timed loop (O(next frontier)). A
// PageRank-style float64 sum step is timed as well.
func BenchmarkSparseStep(b *testing.B) {
	l := benchGraph(b)
	n := l.NumVertices
	workers := runtime.GOMAXPROCS(0)
	cases := []struct {
		name string
		frac float64
		k    int
	}{{"tiny1", 0, 1}, {"tiny10", 0, 10}, {"tiny100", 0, 100}, {"1pct", 0.01, 0}, {"10pct", 0.1, 0}, {"50pct", 0.5, 0}}
	for _, c := range cases {
		r := rand.New(rand.NewPCG(11, 12))
		var frontier []uint32
		if c.k > 0 {
			for len(frontier) < c.k {
				v := uint32(r.Uint64N(n))
				if !slices.Contains(frontier, v) {
					frontier = append(frontier, v)
				}
			}
		} else {
			for v := range n {
				if r.Float64() < c.frac {
					frontier = append(frontier, uint32(v))
				}
			}
		}
		var arcs uint64
		for _, u := range frontier {
			arcs += l.OutDegree(u)
		}
		b.Run(fmt.Sprintf("bfs/%s", c.name), func(b *testing.B) {
			e, err := New[uint32](l, workers)
			if err != nil {
				b.Fatal(err)
			}
			values := make([]uint32, n)
			for i := range values {
				values[i] = math.MaxUint32
			}
			for _, u := range frontier {
				values[u] = 2
			}
			p := minProg[uint32]{engine.EdgeSourcePlusOne}
			ctx := context.Background()
			step := func() ([]engine.Phase, int) {
				next, ph, err := e.Step(ctx, p, values, frontier)
				if err != nil {
					b.Fatal(err)
				}
				for _, v := range next {
					values[v] = math.MaxUint32
				}
				return ph, len(next)
			}
			step() // the accumulator's first fill is not part of a step
			b.ResetTimer()
			start := time.Now()
			phase := make([]float64, 3)
			var next int
			for range b.N {
				ph, k := step()
				next = k
				for i := range ph {
					phase[i] += ph[i].Seconds
				}
			}
			el := time.Since(start)
			if os.Getenv("MGRAPH_SPARSE_BENCH_PHASES") != "" {
				b.Logf("%d arcs, next %d: traverse %.3f ms merge %.3f ms apply %.3f ms", arcs, next,
					phase[0]/float64(b.N)*1e3, phase[1]/float64(b.N)*1e3, phase[2]/float64(b.N)*1e3)
			}
			b.ReportMetric(float64(el.Nanoseconds())/float64(arcs)/float64(b.N), "ns/arc")
			b.ReportMetric(float64(arcs), "arcs")
		})
		if c.k == 0 && c.frac == 0.1 {
			b.Run(fmt.Sprintf("sum-f64/%s", c.name), func(b *testing.B) {
				e, err := New[float64](l, workers)
				if err != nil {
					b.Fatal(err)
				}
				values := make([]float64, n)
				for i := range values {
					values[i] = 1 / float64(n)
				}
				p := sumProg[float64]{engine.EdgeSource, false}
				ctx := context.Background()
				if _, _, err := e.Step(ctx, p, slices.Clone(values), frontier); err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for range b.N {
					if _, _, err := e.Step(ctx, p, values, frontier); err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					for i := range values {
						values[i] = 1 / float64(n)
					}
					b.StartTimer()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(arcs)/float64(b.N), "ns/arc")
			})
		}
	}
}
