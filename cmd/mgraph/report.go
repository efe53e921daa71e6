package main

import (
	"context"
	"fmt"

	"github.com/mgraph-dev/mgraph/bench"
	"github.com/mgraph-dev/mgraph/bench/report"
	"github.com/spf13/pflag"
)

func reportCommand() command {
	return command{
		name:    "report",
		summary: "plots (PNG, SVG) and a Markdown page from 'mgraph bench' results",
		usage:   "[flags] RESULTS_DIR...",
		help: `Reads results.json from each RESULTS_DIR (or a results.json path) written
by 'mgraph bench --out', merges them (the first one's environment heads the
page), and writes into --out (default: the first directory):
  mteps-APP.png/.svg           MTEPS per graph by mode (the paper's Figs. 8–13)
  renumber-GRAPH.png/.svg      slowdown of the randomly renumbered graph
  oracle-APP-GRAPH.png/.svg    per-iteration sparse and dense times (log
                               scale) with the hybrid's choices marked
  report.md                    the tables, images and environment

Example:
  mgraph bench --graphs rmat:18:16 --symmetrize --renumber --oracle --out res/
  mgraph report res/`,
		flags: func(fs *pflag.FlagSet) func(context.Context, *env, []string) error {
			out := fs.String("out", "", "directory for the plots and report.md (default: the first RESULTS_DIR)")
			title := fs.String("title", "", "title of report.md")
			rows := fs.Int("oracle-rows", 40, "iterations listed per oracle table in report.md (the chart shows all)")
			return func(_ context.Context, e *env, args []string) error {
				if len(args) == 0 {
					return usageError("report takes one or more result directories (from 'mgraph bench --out DIR')")
				}
				if *rows < 1 {
					return usageError("--oracle-rows must be at least 1, got %d", *rows)
				}
				var res *bench.Results
				for _, a := range args {
					r, err := bench.Load(a)
					if err != nil {
						return err
					}
					if res == nil {
						res = r
					} else {
						res.Merge(r)
					}
				}
				dir := *out
				if dir == "" {
					dir = args[0]
				}
				files, err := report.Generate(dir, res, report.Options{Title: *title, Sources: args, MaxOracleRows: *rows})
				if err != nil {
					return err
				}
				for _, f := range files {
					fmt.Fprintf(e.stdout, "wrote %s\n", f)
				}
				return nil
			}
		},
	}
}
