//go:build ignore

// plot.go draws the strong scaling of lease m66 (four H200s, R-MAT 25,
// best trial of 8, result in host memory): go run plot.go writes
// ../2026-11-26-multigpu-strong-4xh200.png.
package main

import (
	"log"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

func main() {
	gpus := []float64{1, 2, 4}
	trials := []struct {
		app string
		ms  [3]float64
	}{
		{"pr", [3]float64{67.818, 40.223, 27.919}},
		{"pr --gpu-overlap", [3]float64{67.818, 40.484, 25.235}},
		{"sssp", [3]float64{28.727, 20.615, 15.942}},
		{"bfs", [3]float64{9.546, 8.568, 7.452}},
		{"bfs-tree", [3]float64{10.045, 11.487, 10.993}},
		{"cc (label propagation)", [3]float64{5.600, 16.311, 11.502}},
	}
	p := plot.New()
	p.Title.Text = "Strong scaling, R-MAT 25 (1.05G arcs), four H200s"
	p.X.Label.Text = "GPUs"
	p.Y.Label.Text = "speed-up over one GPU (trial time)"
	p.Legend.Top, p.Legend.Left = true, true
	var args []any
	for _, t := range trials {
		pts := make(plotter.XYs, len(gpus))
		for i, g := range gpus {
			pts[i].X, pts[i].Y = g, t.ms[0]/t.ms[i]
		}
		args = append(args, t.app, pts)
	}
	ideal := plotter.NewFunction(func(x float64) float64 { return x })
	ideal.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	p.Add(ideal)
	p.Legend.Add("ideal", ideal)
	if err := plotutil.AddLinePoints(p, args...); err != nil {
		log.Fatal(err)
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 1, 4, 0, 4
	if err := p.Save(7*vg.Inch, 4.5*vg.Inch, "../2026-11-26-multigpu-strong-4xh200.png"); err != nil {
		log.Fatal(err)
	}
}
