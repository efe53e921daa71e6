package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/spf13/pflag"
)

// graphReport is what `mgraph info` reports, also as JSON.
type graphReport struct {
	Source           string             `json:"source"`
	Format           string             `json:"format,omitempty"`
	Compression      string             `json:"compression,omitempty"`
	FileBytes        int64              `json:"file_bytes,omitempty"`
	Entries          uint64             `json:"entries,omitempty"` // as stored in the file
	Vertices         uint64             `json:"vertices"`
	Arcs             uint64             `json:"arcs"`
	Directed         bool               `json:"directed"`
	Weighted         bool               `json:"weighted"`
	WeightType       string             `json:"weight_type,omitempty"` // uint32 or float32, when weighted
	SelfLoops        uint64             `json:"self_loops"`
	OutDegree        graph.DegreeStats  `json:"out_degree"`
	InDegree         graph.DegreeStats  `json:"in_degree"`
	InDegreeGroups   graph.DegreeGroups `json:"in_degree_groups"`
	Components       int                `json:"components"`
	LargestComponent uint64             `json:"largest_component"`
	ReadSeconds      float64            `json:"read_seconds"`
}

func infoCommand() command {
	return command{
		name:    "info",
		summary: "describe a graph: sizes, degrees, MultiGraph degree groups, components",
		usage:   "[flags] INPUT",
		help: `INPUT is a graph file or a generator spec (see 'mgraph gen --help').
Prints the vertex, entry and arc counts, self-loops, degree statistics, the
histogram over MultiGraph's six in-degree groups (≥2048, [1024,2048),
[512,1024), [256,512), [128,256), <128) and the size of the largest (weakly)
connected component.

With --layout (or when INPUT is a layout file written by 'mgraph
preprocess') it also describes the graph's dual layout: heavy and light
blocks and their edges, sparse segments, the bytes of every section and the
footprint relative to plain CSR. The layout comes from the cache, or is built
and cached (see 'mgraph preprocess --help').

Examples:
  mgraph info ../shared/datasets/cit-HepPh.mtx.zst
  mgraph info --json rmat:16
  mgraph info --layout rmat:16`,
		flags: func(fs *pflag.FlagSet) func(context.Context, *env, []string) error {
			var in inputFlags
			var lf layoutFlags
			var asJSON, withLayout bool
			in.register(fs)
			fs.BoolVar(&asJSON, "json", false, "print the report as JSON")
			fs.BoolVar(&withLayout, "layout", false, "also describe the graph's dual layout")
			lf.register(fs)
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) != 1 {
					return usageError("info takes one INPUT, got %d arguments", len(args))
				}
				isLayout, _ := layout.IsLayoutFile(args[0])
				if withLayout || isLayout {
					if asJSON {
						return usageError("--json describes graphs only, not layouts")
					}
					if !isLayout {
						if err := graphInfo(ctx, e, args[0], &in, false); err != nil {
							return err
						}
						fmt.Fprintln(e.stdout)
					}
					l, err := loadLayout(ctx, e, args[0], &in, &lf)
					if err != nil {
						return err
					}
					printLayoutInfo(e.stdout, l)
					return nil
				}
				return graphInfo(ctx, e, args[0], &in, asJSON)
			}
		},
	}
}

// graphInfo prints the graph report of path.
func graphInfo(ctx context.Context, e *env, path string, in *inputFlags, asJSON bool) error {
	g, err := loadGraph(ctx, e, path, in)
	if err != nil {
		return err
	}
	rep := describe(path, g, in.threads)
	if asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printInfo(e.stdout, rep)
	return nil
}

// describe computes the report for a loaded graph.
func describe(source string, g *loaded, threads int) *graphReport {
	el := g.el
	rep := &graphReport{
		Source:      source,
		Vertices:    el.NumVertices,
		Arcs:        el.NumArcs(),
		Directed:    el.Directed,
		Weighted:    el.Weighted(),
		SelfLoops:   el.CountSelfLoops(),
		ReadSeconds: g.elapsed.Seconds(),
	}
	if el.Weighted() {
		rep.WeightType = el.WeightKind.String()
	}
	if g.info != nil {
		rep.Format = g.info.Format.String()
		rep.Compression = g.info.Compression
		rep.FileBytes = g.info.Bytes
		rep.Entries = g.info.Entries
	}
	if g.spec != "" {
		rep.Format = "generated " + g.spec
	}
	inDeg := el.InDegrees(threads)
	rep.OutDegree = graph.Summarize(el.OutDegrees(threads))
	rep.InDegree = graph.Summarize(inDeg)
	rep.InDegreeGroups = graph.GroupHistogram(inDeg, graph.DefaultGroupThresholds())
	rep.Components, rep.LargestComponent = ref.ComponentSizes(ref.CC(el))
	return rep
}

func printInfo(w io.Writer, r *graphReport) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	kind := "undirected (stored symmetrized)"
	if r.Directed {
		kind = "directed"
	}
	fmt.Fprintf(tw, "source:\t%s\n", r.Source)
	if r.Format != "" {
		f := r.Format
		if r.Compression != "" && r.Compression != "none" {
			f += ", " + r.Compression
		}
		fmt.Fprintf(tw, "format:\t%s\n", f)
	}
	fmt.Fprintf(tw, "vertices:\t%d\n", r.Vertices)
	if r.Entries > 0 {
		fmt.Fprintf(tw, "entries (in file):\t%d\n", r.Entries)
	}
	fmt.Fprintf(tw, "arcs:\t%d\n", r.Arcs)
	weights := "unweighted"
	if r.Weighted {
		weights = "weighted (" + r.WeightType + ")"
	}
	fmt.Fprintf(tw, "kind:\t%s, %s\n", kind, weights)
	fmt.Fprintf(tw, "self-loops:\t%d\n", r.SelfLoops)
	deg := func(name string, s graph.DegreeStats) {
		fmt.Fprintf(tw, "%s:\tmin %d, median %d, mean %.2f, p99 %d, max %d (vertex %d), %d zero\n",
			name, s.Min, s.Median, s.Mean, s.P99, s.Max, s.MaxVertex, s.Zero)
	}
	deg("out-degree", r.OutDegree)
	deg("in-degree", r.InDegree)
	comp := "components:"
	if r.Directed {
		comp = "weak components:"
	}
	fmt.Fprintf(tw, "%s\t%d (largest %d vertices, %.1f%%)\n", comp, r.Components, r.LargestComponent,
		pct(r.LargestComponent, r.Vertices))
	tw.Flush()

	fmt.Fprintln(w, "\nin-degree groups (MultiGraph §3):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "group\tin-degree\tvertices\t% vertices\tarcs\t% arcs\t")
	g := r.InDegreeGroups
	for i := range g.Vertices {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%.2f\t%d\t%.2f\t\n", i+1, groupRange(g.Thresholds, i),
			g.Vertices[i], pct(g.Vertices[i], r.Vertices), g.Arcs[i], pct(g.Arcs[i], r.Arcs))
	}
	tw.Flush()
}

// groupRange names the degree range of group i for descending thresholds.
func groupRange(th []uint64, i int) string {
	switch {
	case i == 0:
		return fmt.Sprintf("≥%d", th[0])
	case i == len(th):
		return fmt.Sprintf("<%d", th[len(th)-1])
	default:
		return strings.TrimSpace(fmt.Sprintf("[%d,%d)", th[i], th[i-1]))
	}
}

func pct(a, b uint64) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
