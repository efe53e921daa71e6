package gen

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// BenchmarkRMAT measures R-MAT generation with the Graph500 parameters and
// edge factor 16. Scale 24 (268M arcs, 2 GiB) runs only when the environment
// sets MGRAPH_GEN_BIG=1, e.g.
//
//	MGRAPH_GEN_BIG=1 go test -run '^$' -bench 'RMAT/scale=24' -benchtime 1x ./graph/gen
func BenchmarkRMAT(b *testing.B) {
	scales := []int{16, 20}
	if os.Getenv("MGRAPH_GEN_BIG") == "1" {
		scales = append(scales, 24)
	}
	for _, scale := range scales {
		b.Run(fmt.Sprintf("scale=%d", scale), func(b *testing.B) {
			p := DefaultRMAT(scale, 16)
			var arcs uint64
			for b.Loop() {
				el, err := RMAT(context.Background(), p, 0, nil)
				if err != nil {
					b.Fatal(err)
				}
				arcs += el.NumArcs()
			}
			b.ReportMetric(float64(arcs)/b.Elapsed().Seconds(), "arcs/s")
		})
	}
}

func BenchmarkKronecker(b *testing.B) {
	p := DefaultRMAT(20, 16)
	var arcs uint64
	for b.Loop() {
		el, err := Kronecker(context.Background(), p, 0, nil)
		if err != nil {
			b.Fatal(err)
		}
		arcs += el.NumArcs()
	}
	b.ReportMetric(float64(arcs)/b.Elapsed().Seconds(), "arcs/s")
}

func BenchmarkUniform(b *testing.B) {
	var arcs uint64
	for b.Loop() {
		el, err := Uniform(context.Background(), 1<<20, 16<<20, 1, 0, nil)
		if err != nil {
			b.Fatal(err)
		}
		arcs += el.NumArcs()
	}
	b.ReportMetric(float64(arcs)/b.Elapsed().Seconds(), "arcs/s")
}

func BenchmarkRGG(b *testing.B) {
	const n = 1 << 20
	var arcs uint64
	for b.Loop() {
		el, err := RGG(context.Background(), n, 0, 1, 0, nil)
		if err != nil {
			b.Fatal(err)
		}
		arcs += el.NumArcs()
	}
	b.ReportMetric(float64(arcs)/b.Elapsed().Seconds(), "arcs/s")
	b.ReportMetric(float64(b.N)*n/b.Elapsed().Seconds(), "points/s")
}

func BenchmarkGrid(b *testing.B) {
	var arcs uint64
	for b.Loop() {
		el, err := Grid(context.Background(), 2048, 2048, 0.1, 1, 0, nil)
		if err != nil {
			b.Fatal(err)
		}
		arcs += el.NumArcs()
	}
	b.ReportMetric(float64(arcs)/b.Elapsed().Seconds(), "arcs/s")
}
