package report

import (
	"fmt"
	"image/color"
	"io"
	"math"

	"github.com/mgraph-dev/mgraph/bench"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// BandwidthRow is one GPU configuration put against the memory-bandwidth
// limit: the compulsory bytes of its dense step per arc
// (bench.DenseStepBytes over the layout's arcs; a dense step streams every
// arc) and the rate at which its fastest trial moved them.
type BandwidthRow struct {
	App, Graph, Numbering, Series string
	Arcs                          uint64
	BytesPerStep                  uint64  // bench.DenseStepBytes
	BytesPerArc                   float64 // BytesPerStep / Arcs
	IterationSeconds              float64 // engine seconds / iterations of the fastest trial
	NsPerArc                      float64 // IterationSeconds / Arcs, in ns
	GBps                          float64 // BytesPerStep / IterationSeconds, 10^9 B/s
	PercentOfLimit                float64 // of the limit's GB/s (0 without one)
}

// BandwidthLimit returns the bandwidth the report compares against: the
// probe's copy bandwidth recorded with the results, else the first GPU's
// theoretical peak, else 0; and says which it is.
func BandwidthLimit(env bench.Environment) (float64, string) {
	if env.Probe != nil && env.Probe.CopyGBps > 0 {
		return env.Probe.CopyGBps, fmt.Sprintf("the probe's copy bandwidth on %s (%.0f GB/s, bytes read + written)", env.Probe.Name, env.Probe.CopyGBps)
	}
	for _, g := range env.GPUs {
		if g.PeakBandwidthGBps > 0 {
			return g.PeakBandwidthGBps, fmt.Sprintf("the theoretical peak of %s (%.0f GB/s; no probe was recorded)", g.Name, g.PeakBandwidthGBps)
		}
	}
	return 0, ""
}

// BandwidthRows returns, for every GPU configuration whose iterations are
// all full dense steps (mode dense, and pr, whose device iterations are
// always dense) and that has a traffic model (bench.DenseStepBytes), its
// fastest trial's figures against limitGBps.
func BandwidthRows(r *bench.Results, limitGBps float64) []BandwidthRow {
	type key struct{ app, graph, numbering, series string }
	type prepKey struct{ graph, variant string }
	preps := map[prepKey]bench.Prep{}
	for _, p := range r.Preps {
		preps[prepKey{p.Graph, p.Variant}] = p
	}
	best := map[key]bench.Trial{}
	var keys []key
	for _, t := range r.Trials {
		if t.Backend != "cuda" || t.Error != "" || t.Iterations == 0 || t.EngineSecs <= 0 {
			continue
		}
		if t.Mode != "dense" && t.App != "pr" {
			continue
		}
		k := key{t.App, t.Graph, t.Numbering, t.Series()}
		b, ok := best[k]
		if !ok {
			keys = append(keys, k)
		}
		if !ok || t.EngineSecs/float64(t.Iterations) < b.EngineSecs/float64(b.Iterations) {
			best[k] = t
		}
	}
	var out []BandwidthRow
	for _, k := range keys {
		t := best[k]
		p, ok := preps[prepKey{t.Graph, t.Variant}]
		if !ok || t.Arcs == 0 {
			continue
		}
		bytes := bench.DenseStepBytes(t.App, t.Vertices, p.Dense)
		if bytes == 0 || p.Dense.Slots == 0 {
			continue
		}
		it := t.EngineSecs / float64(t.Iterations)
		row := BandwidthRow{App: t.App, Graph: t.Graph, Numbering: t.Numbering, Series: t.Series(), Arcs: t.Arcs,
			BytesPerStep: bytes, BytesPerArc: float64(bytes) / float64(t.Arcs), IterationSeconds: it,
			NsPerArc: it / float64(t.Arcs) * 1e9, GBps: float64(bytes) / it / 1e9}
		if limitGBps > 0 {
			row.PercentOfLimit = 100 * row.GBps / limitGBps
		}
		out = append(out, row)
	}
	return out
}

// bandwidthChart draws the bandwidth rows: bytes per arc (x) against
// nanoseconds per arc and iteration (y, log scale), with the limit's line
// (ns per arc = bytes per arc / GB/s): the distance above the line is how
// far the step is from streaming its bytes at the limit.
func (g *gen) bandwidthChart() error {
	limit, _ := BandwidthLimit(g.r.Environment)
	g.bw = BandwidthRows(g.r, limit)
	if len(g.bw) == 0 {
		return nil
	}
	p := newPlot("GPU dense steps: bytes per arc against the bandwidth limit", "ns per arc and iteration (log scale)")
	p.X.Label.Text = "compulsory bytes per arc of a dense step"
	p.X.Label.TextStyle.Font.Size = vg.Points(11)
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	xlo, xhi, ylo, yhi := math.Inf(1), 0.0, math.Inf(1), 0.0
	labeled := map[string]bool{} // each app and graph is named once
	for _, numbering := range []string{"original", "renumbered"} {
		var xy plotter.XYs
		var labels []string
		for _, r := range g.bw {
			if r.Numbering != numbering {
				continue
			}
			xy = append(xy, plotter.XY{X: r.BytesPerArc, Y: r.NsPerArc})
			name := r.App + " " + r.Graph
			if labeled[name] {
				name = ""
			}
			labeled[r.App+" "+r.Graph] = true
			labels = append(labels, name)
			xlo, xhi = math.Min(xlo, r.BytesPerArc), math.Max(xhi, r.BytesPerArc)
			ylo, yhi = math.Min(ylo, r.NsPerArc), math.Max(yhi, r.NsPerArc)
		}
		if len(xy) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return fmt.Errorf("report: bandwidth chart: %w", err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: palette[0], Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}
		if numbering == "renumbered" {
			sc.GlyphStyle = draw.GlyphStyle{Color: palette[1], Radius: vg.Points(3.5), Shape: draw.TriangleGlyph{}}
		}
		p.Add(sc)
		p.Legend.Add(numbering+" numbering", sc)
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: xy, Labels: labels})
		if err != nil {
			return fmt.Errorf("report: bandwidth chart: %w", err)
		}
		for i := range lb.TextStyle {
			lb.TextStyle[i].Font.Size = vg.Points(8)
			lb.TextStyle[i].XAlign = draw.XLeft
		}
		lb.Offset = vg.Point{X: vg.Points(5), Y: vg.Points(-3)}
		p.Add(lb)
	}
	xlo, xhi = xlo*0.8, xhi*1.35
	if limit > 0 {
		ylo = math.Min(ylo, xlo/limit)
		line := plotter.NewFunction(func(x float64) float64 { return x / limit })
		line.XMin, line.XMax = xlo, xhi
		line.Color = color.Gray{Y: 60}
		line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		line.Width = vg.Points(1)
		p.Add(line)
		p.Legend.Add(fmt.Sprintf("at %.0f GB/s", limit), line)
	}
	p.X.Min, p.X.Max = xlo, xhi
	p.Y.Min, p.Y.Max = ylo/2, yhi*8 // headroom for the legend
	base := "bandwidth"
	if err := g.save(p, base, vg.Points(560), vg.Points(340)); err != nil {
		return err
	}
	g.bwChart = base
	return nil
}

// writeBandwidth writes the bandwidth section of report.md.
func (g *gen) writeBandwidth(w io.Writer) {
	if len(g.bw) == 0 {
		return
	}
	limit, what := BandwidthLimit(g.r.Environment)
	fmt.Fprintf(w, "## Bytes per arc against the bandwidth limit\n\n")
	fmt.Fprintf(w, "GPU configurations whose iterations are all full dense steps (mode dense; pr, which is dense on the device in every mode). "+
		"Bytes are the compulsory traffic of one dense step from the layout's sizes: every array of the dense part read once "+
		"(HeavyCol, HeavyRows, HeavyMatrixStart, HeavyNumDst, HeavySlot, HeavyMatrix, LightStart, LightSrc, LightSlot, RowSlotStart, SlotDst; "+
		"the weights too for sssp), the stream written once and read once (2 × slots × 4 bytes, 8 for pr-delta), and per vertex "+
		"the value read and written plus the two frontier flags (10 bytes; pr-delta: share read, rank read and written, share written, 32 bytes). "+
		"pr runs the pull scheme (docs/gpu-engines.md): the heavy blocks' arrays and the heavy slots' SlotDst, 6 bytes per light edge "+
		"(source and destination, read by row panel in source order) and 56 bytes per vertex (share read, rank and accumulator read and written, "+
		"share written, offsets read); results recorded before it existed use the stream model. "+
		"It is a lower bound of what a step moves (repeated source reads, shared-memory staging and partial sectors are not counted), "+
		"so the rate is a lower bound too. Time per iteration is the fastest trial's engine time over its iterations (host round trips included). ")
	if limit > 0 {
		fmt.Fprintf(w, "The limit is %s.\n\n", what)
	} else {
		fmt.Fprintf(w, "No bandwidth was recorded (no probe, no GPU in the environment): the rates stand alone.\n\n")
	}
	if g.bwChart != "" {
		fmt.Fprintf(w, "![%s](%s.png)\n\n", g.bwChart, g.bwChart)
	}
	fmt.Fprintf(w, "| app | graph | numbering | mode | arcs | MB per step | bytes per arc | time per iteration | GB/s | of the limit |\n| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range g.bw {
		pct := "–"
		if limit > 0 {
			pct = fmt.Sprintf("%.1f%%", r.PercentOfLimit)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %d | %.1f | %.2f | %s | %.1f | %s |\n", r.App, r.Graph, r.Numbering, r.Series, r.Arcs,
			float64(r.BytesPerStep)/1e6, r.BytesPerArc, bench.FormatSeconds(r.IterationSeconds), r.GBps, pct)
	}
	fmt.Fprintln(w)
}
