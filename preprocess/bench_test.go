package preprocess

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/layout"
)

// The benchmarks preprocess R-MAT scale 22, edge factor 16, symmetrized
// (about 134M arcs): run them with
//
//	go test -run '^$' -bench 'Build|Save|Load' -benchtime 1x ./preprocess/
//
// MGRAPH_BENCH_SCALE overrides the scale (e.g. 16 for a quick run). They
// are skipped with -short.

var bench struct {
	once sync.Once
	el   *graph.EdgeList
	l    *layout.Layout
	file []byte
	err  error
}

func benchScale() int {
	if s, err := strconv.Atoi(os.Getenv("MGRAPH_BENCH_SCALE")); err == nil && s > 0 {
		return s
	}
	return 22
}

func benchGraph(b *testing.B) *graph.EdgeList {
	if testing.Short() {
		b.Skip("big graph; skipped with -short")
	}
	bench.once.Do(func() {
		el, err := gen.RMAT(context.Background(), gen.DefaultRMAT(benchScale(), 16), 0, nil)
		if err != nil {
			bench.err = err
			return
		}
		el.Symmetrize(0)
		bench.el = el
		runtime.GC()
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return bench.el
}

// heapPeak samples the heap's object bytes until stop is closed and
// returns the largest value seen.
func heapPeak(stop <-chan struct{}) <-chan uint64 {
	out := make(chan uint64, 1)
	go func() {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var peak uint64
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-stop:
				out <- peak
				return
			case <-t.C:
			}
		}
	}()
	return out
}

func BenchmarkBuild(b *testing.B) {
	el := benchGraph(b)
	inputBytes := float64(len(el.Src)+len(el.Dst)+len(el.Weights)) * 4
	stages := map[string]time.Duration{}
	var l *layout.Layout
	for b.Loop() {
		clear(stages)
		bench.l = nil
		runtime.GC()
		stop := make(chan struct{})
		peak := heapPeak(stop)
		var err error
		l, err = Build(context.Background(), el, layout.DefaultParams(), Options{
			OnStage: func(s string, d time.Duration) { stages[s] += d },
		})
		close(stop)
		if err != nil {
			b.Fatal(err)
		}
		p := float64(<-peak)
		b.ReportMetric(p/float64(1<<20), "peak-heap-MiB")
		b.ReportMetric((p-inputBytes)/float64(l.Footprint()), "peak-minus-input/layout")
		b.ReportMetric(p/float64(l.Footprint()), "peak/layout")
	}
	bench.l = l
	b.ReportMetric(float64(el.NumArcs()), "arcs")
	b.ReportMetric(float64(l.Footprint())/float64(1<<20), "layout-MiB")
	b.ReportMetric(l.FootprintRatio(), "footprint/CSR")
	for s, d := range stages {
		b.Logf("stage %-20s %6.2fs", s, d.Seconds())
	}
	st := l.Stats()
	b.Logf("n=%d m=%d blocks=%d heavy=%d light=%d heavy-edges=%d light-edges=%d slots=%d segments=%d footprint=%d (%.2f× CSR)",
		l.NumVertices, l.NumArcs, st.Blocks, st.HeavyBlocks, st.LightBlocks, st.HeavyEdges, st.LightEdges, st.Slots, st.Segments, l.Footprint(), l.FootprintRatio())
}

func benchLayout(b *testing.B) *layout.Layout {
	el := benchGraph(b)
	if bench.l == nil {
		l, err := Build(context.Background(), el, layout.DefaultParams(), Options{})
		if err != nil {
			b.Fatal(err)
		}
		bench.l = l
	}
	return bench.l
}

func BenchmarkSave(b *testing.B) {
	l := benchLayout(b)
	dir := b.TempDir()
	var size int64
	for b.Loop() {
		path := dir + "/bench.mgl"
		if err := layout.SaveFile(path, l, layout.SaveOptions{}); err != nil {
			b.Fatal(err)
		}
		st, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		size = st.Size()
	}
	b.SetBytes(int64(l.Footprint()))
	b.ReportMetric(float64(size)/float64(1<<20), "file-MiB")
	b.ReportMetric(float64(l.Footprint())/float64(size), "compression")
}

func BenchmarkLoad(b *testing.B) {
	l := benchLayout(b)
	if bench.file == nil {
		var buf bytes.Buffer
		if err := layout.Save(&buf, l, layout.SaveOptions{}); err != nil {
			b.Fatal(err)
		}
		bench.file = buf.Bytes()
	}
	path := b.TempDir() + "/bench.mgl"
	if err := os.WriteFile(path, bench.file, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(l.Footprint()))
	for b.Loop() {
		got, err := layout.LoadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		if got.NumArcs != l.NumArcs {
			b.Fatal("wrong layout")
		}
	}
}
