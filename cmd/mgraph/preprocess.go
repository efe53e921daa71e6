package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/mgraph-dev/mgraph/internal/progress"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/layout/cache"
	"github.com/spf13/pflag"
)

func preprocessCommand() command {
	return command{
		name:    "preprocess",
		summary: "build a graph's dual layout (MultiGraph §3–5) into a file or the cache",
		usage:   "[flags] INPUT [-o OUTPUT]",
		help: `INPUT is a graph file or a generator spec (see 'mgraph gen --help').
Builds the layout (in-degree-group renumbering, dense heavy/light blocks with
the stream-buffer map, sparse segments) on the GPU when one is visible and
the graph fits (--preprocess-on auto; gpu or cpu to choose; a graph too big
for device memory is built on the CPU with a note), else on all cores, and
writes it,
zstd-compressed and checksummed, to OUTPUT, or into the layout cache when -o
is not given: keyed by the SHA-256 of the input, the reading flags, the
parameters and the format version. A layout the cache already holds is not
rebuilt unless --force; a corrupt or old cached file is replaced. Commands
that take a graph accept the input (and use the cache) or a layout file.

Examples:
  mgraph preprocess ../shared/datasets/cit-HepPh.mtx.zst
  mgraph preprocess rmat20.mgb -o rmat20.mgl --level 1
  mgraph preprocess grid.mtx --panel-size 4096 --heavy-threshold 8192 --validate
  mgraph preprocess rmat:24:16 --preprocess-on gpu -o rmat24.mgl`,
		flags: func(fs *pflag.FlagSet) func(context.Context, *env, []string) error {
			var in inputFlags
			var lf layoutFlags
			var out string
			var force, validate, info bool
			fs.StringVarP(&out, "output", "o", "", "write the layout to this file instead of the cache")
			fs.BoolVar(&force, "force", false, "rebuild even when the cache holds the layout")
			fs.BoolVar(&validate, "validate", false, "check the layout against the input graph (slow)")
			fs.BoolVar(&info, "info", false, "print the layout's blocks, segments and section sizes")
			in.register(fs)
			lf.register(fs)
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) != 1 {
					return usageError("preprocess takes one INPUT, got %d arguments", len(args))
				}
				if in.threads < 0 {
					return usageError("--threads must be ≥ 0, got %d", in.threads)
				}
				if out == "" && lf.noCache {
					return usageError("--no-cache needs -o: the layout has to go somewhere")
				}
				p, err := lf.params()
				if err != nil {
					return err
				}
				if ok, _ := layout.IsLayoutFile(args[0]); ok {
					return usageError("%s is already a layout file", args[0])
				}
				summary := func(l *layout.Layout) {
					st := l.Stats()
					fmt.Fprintf(e.stdout, "layout: %d vertices, %d arcs; %d heavy + %d light blocks (%d + %d edges); %d segments; %s in memory, %.2f× plain CSR\n",
						l.NumVertices, l.NumArcs, st.HeavyBlocks, st.LightBlocks, st.HeavyEdges, st.LightEdges, st.Segments,
						progress.Quantity(float64(l.Footprint()), "B"), l.FootprintRatio())
					if info {
						printLayoutInfo(e.stdout, l)
					}
				}
				dest := out
				var c *cache.Cache
				var key string
				if out == "" {
					cc, k, err := cacheFor(args[0], &in, &lf, p)
					if err != nil {
						return err
					}
					c, key, dest = cc, k, cc.Path(k)
					if !force && !validate {
						if l := lookupCached(e, cc, k, p); l != nil {
							fmt.Fprintf(e.stdout, "cache holds %s already (use --force to rebuild)\n", dest)
							summary(l)
							return nil
						}
					}
				}
				l, _, g, took, err := buildLayout(ctx, e, args[0], &in, &lf, p, false)
				if err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "built layout of %s in %.2fs\n", args[0], took.Seconds())
				if validate {
					start := time.Now()
					if err := layout.Validate(l, g.el); err != nil {
						return fmt.Errorf("validation failed: %w", err)
					}
					fmt.Fprintf(e.stdout, "validated in %.2fs\n", time.Since(start).Seconds())
				}
				g = nil
				start := time.Now()
				opts := layout.SaveOptions{Level: lf.level, Workers: in.threads}
				if c != nil {
					_, err = c.Store(key, l, opts)
				} else {
					err = layout.SaveFile(out, l, opts)
				}
				if err != nil {
					return err
				}
				size := int64(0)
				if st, err := os.Stat(dest); err == nil {
					size = st.Size()
				}
				fmt.Fprintf(e.stdout, "wrote %s: %s (%.2f× smaller than in memory) in %.2fs\n", dest,
					progress.Quantity(float64(size), "B"), float64(l.Footprint())/float64(max(1, size)), time.Since(start).Seconds())
				if c != nil {
					evictCache(e, c, lf.cacheMax, key)
				}
				summary(l)
				return nil
			}
		},
	}
}
