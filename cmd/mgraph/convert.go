package main

import (
	"context"
	"fmt"

	"github.com/spf13/pflag"
)

func convertCommand() command {
	return command{
		name:    "convert",
		summary: "convert a graph between formats, with optional clean-ups",
		usage:   "[flags] INPUT OUTPUT",
		help: `Reads INPUT (Matrix Market, SNAP edge list, .wel, DIMACS .gr or .mgb, plain,
gzip or zstd) and writes OUTPUT in the format of its extension. Clean-ups run
in this order: symmetrize, drop self-loops, dedupe, renumber, weights.

Examples:
  mgraph convert web.mtx.zst web.mgb
  mgraph convert --symmetrize --dedupe --drop-self-loops road.gr road.mgb
  mgraph convert --renumber 1 --weights 2 social.el social-shuffled.wel
  mgraph convert --weight-type float32 road.gr road-float.mgb`,
		flags: func(fs *pflag.FlagSet) func(context.Context, *env, []string) error {
			var in inputFlags
			var tf transformFlags
			var outFormat string
			in.register(fs)
			fs.StringVar(&outFormat, "out-format", "auto", "output format: auto (by extension), mtx, el, wel, gr, mgb, sg, wsg (GAPBS)")
			tf.register(fs)
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) != 2 {
					return usageError("convert takes INPUT and OUTPUT, got %d arguments", len(args))
				}
				g, err := loadGraph(ctx, e, args[0], &in)
				if err != nil {
					return err
				}
				fmt.Fprintf(e.stderr, "read %s: %d vertices, %d arcs in %.2fs\n",
					args[0], g.el.NumVertices, g.el.NumArcs(), g.elapsed.Seconds())
				tf.weightType = in.weightType
				if err := tf.apply(e, g.el, in.threads); err != nil {
					return err
				}
				return writeGraph(ctx, e, args[1], outFormat, g.el, in.threads)
			}
		},
	}
}
