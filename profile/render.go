package profile

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Meta describes what was profiled, for the headings of the tables.
type Meta struct {
	App, Graph, Mode, Device string
	Vertices, Arcs           uint64
	Command                  string // the ncu command line
}

// fmtOpt formats an optional figure with format, "n/a" when absent.
func fmtOpt(format string, v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf(format, *v)
}

// figureRows are the Fig. 14 rows: name, value, meaning.
func figureRows(f Figures) [][3]string {
	return [][3]string{
		{"traversed edges", fmt.Sprintf("%d", f.Edges), "arcs the run traversed (frontier edges summed over iterations and trials)"},
		{"kernel launches", fmt.Sprintf("%d", f.Launches), "profiled launches"},
		{"kernel time", fmtOpt("%.3f ms", scaled(f.KernelSeconds, 1e3)), "sum of the launches' durations under ncu (caches flushed before each)"},
		{"DRAM bytes read / edge", fmtOpt("%.2f", f.DRAMReadPerEdge), MetricDRAMRead},
		{"DRAM bytes written / edge", fmtOpt("%.2f", f.DRAMWritePerEdge), MetricDRAMWrite},
		{"DRAM bytes / edge", fmtOpt("%.2f", f.DRAMBytesPerEdge), "read + written"},
		{"global atomics / edge", fmtOpt("%.4f", f.GlobalAtomicsPerEdge), "warp-level ATOM + RED requests (" + MetricGlobalAtom + " + " + MetricGlobalRed + ")"},
		{"shared atomics / edge", fmtOpt("%.4f", f.SharedAtomicsPerEdge), "warp-level ATOMS instructions (" + MetricSharedAtom + ")"},
		{"global load sectors / request", fmtOpt("%.2f", f.LoadSectorsPerRequest), "4 = a warp reading 32 consecutive 4-byte words; 32 = fully scattered"},
		{"global store sectors / request", fmtOpt("%.2f", f.StoreSectorsPerRequest), "as for loads"},
		{"global load efficiency", fmtOpt("%.1f%%", scaled(f.LoadEfficiency, 100)), "bytes requested / bytes of the sectors fetched (" + MetricLoadBytes + " / 32·sectors)"},
		{"device layout / CSR", fmtOpt("%.2f×", f.FootprintRatio), fmt.Sprintf("%s uploaded vs %s plain CSR", bytesStr(f.Footprint.DeviceBytes), bytesStr(f.Footprint.CSRBytes))},
		{"whole layout / CSR", fmtOpt("%.2f×", f.LayoutRatio), fmt.Sprintf("%s with permutation and segments", bytesStr(f.Footprint.LayoutBytes))},
	}
}

func bytesStr(b uint64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	v, i := float64(b), 0
	for v >= unit && i < 4 {
		v /= unit
		i++
	}
	return fmt.Sprintf("%.2f %s", v, []string{"B", "KiB", "MiB", "GiB", "TiB"}[i])
}

// WriteText prints the per-kernel table and the per-edge totals for a
// terminal.
func WriteText(w io.Writer, m Meta, f Figures, per []KernelFigures) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kernel\tlaunches\ttime ms\tDRAM B/edge\tgatom/edge\tsatom/edge\tld sect/req\tst sect/req\tld eff\t")
	for _, k := range per {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", k.Display, k.Launches,
			fmtOpt("%.3f", scaled(k.Seconds, 1e3)), fmtOpt("%.2f", k.DRAMBytesPerEdge),
			fmtOpt("%.4f", k.GlobalAtomicsPerEdge), fmtOpt("%.4f", k.SharedAtomicsPerEdge),
			fmtOpt("%.2f", k.LoadSectorsPerRequest), fmtOpt("%.2f", k.StoreSectorsPerRequest),
			fmtOpt("%.1f%%", scaled(k.LoadEfficiency, 100)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s on %s (%d vertices, %d arcs), %s mode", m.App, m.Graph, m.Vertices, m.Arcs, m.Mode)
	if m.Device != "" {
		fmt.Fprintf(w, ", %s", m.Device)
	}
	fmt.Fprintln(w, ":")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range figureRows(f) {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", r[0], r[1], r[2])
	}
	return tw.Flush()
}

// WriteMarkdown writes profile.md: the Fig. 14 figures and the per-kernel
// table as Markdown.
func WriteMarkdown(w io.Writer, m Meta, f Figures, per []KernelFigures) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Profile: %s on %s\n\n", m.App, m.Graph)
	fmt.Fprintf(&b, "%d vertices, %d arcs, %s mode", m.Vertices, m.Arcs, m.Mode)
	if m.Device != "" {
		fmt.Fprintf(&b, ", %s", m.Device)
	}
	b.WriteString(". Counters from Nsight Compute, summed over every profiled kernel launch and divided by the traversed edges (the MultiGraph paper's Fig. 14).\n\n")
	b.WriteString("| figure | value | meaning |\n| --- | ---: | --- |\n")
	for _, r := range figureRows(f) {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", r[0], r[1], mdEscape(r[2]))
	}
	b.WriteString("\n## Per kernel\n\n")
	b.WriteString("| kernel | launches | time ms | DRAM B/edge | global atomics/edge | shared atomics/edge | ld sectors/req | st sectors/req | ld efficiency |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, k := range per {
		fmt.Fprintf(&b, "| `%s` | %d | %s | %s | %s | %s | %s | %s | %s |\n", k.Display, k.Launches,
			fmtOpt("%.3f", scaled(k.Seconds, 1e3)), fmtOpt("%.2f", k.DRAMBytesPerEdge),
			fmtOpt("%.4f", k.GlobalAtomicsPerEdge), fmtOpt("%.4f", k.SharedAtomicsPerEdge),
			fmtOpt("%.2f", k.LoadSectorsPerRequest), fmtOpt("%.2f", k.StoreSectorsPerRequest),
			fmtOpt("%.1f%%", scaled(k.LoadEfficiency, 100)))
	}
	if m.Command != "" {
		fmt.Fprintf(&b, "\nCommand:\n\n```\n%s\n```\n", m.Command)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
