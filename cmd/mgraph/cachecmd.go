package main

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/mgraph-dev/mgraph/internal/progress"
	"github.com/mgraph-dev/mgraph/layout/cache"
	"github.com/spf13/pflag"
)

func cacheCommand() command {
	return command{
		name:    "cache",
		summary: "list, measure and prune the layout cache",
		usage:   "[flags] ls|du|prune",
		help: `ls      the cached layouts, most recently used first: key, size, last use
du      their number and total size, against the size limit
prune   remove the least recently used layouts until the rest fit
        --max-size (default: the limit: --max-size, else $` + cache.EnvMax + `, else a
        tenth of the disk, 1-64 GiB); --max-size 0 empties the cache

Runs and preprocess keep the cache under its limit by themselves, after
each layout they store.

Examples:
  mgraph cache ls
  mgraph cache du --cache-dir /scratch/mgraph
  mgraph cache prune --max-size 10GiB`,
		flags: func(fs *pflag.FlagSet) func(context.Context, *env, []string) error {
			var dir, maxSize string
			fs.StringVar(&dir, "cache-dir", "", "layout cache directory (default $"+cache.EnvDir+" or the user cache dir + /mgraph)")
			fs.StringVar(&maxSize, "max-size", "", "prune: the size to prune to (e.g. 10GiB; 0: everything)")
			return func(_ context.Context, e *env, args []string) error {
				if len(args) != 1 {
					return usageError("cache takes one of ls, du, prune")
				}
				d, err := cache.Dir(dir)
				if err != nil {
					return err
				}
				c, err := cache.Open(d)
				if err != nil {
					return err
				}
				limit, err := cache.Limit(maxSize, d)
				if err != nil {
					return usageError("--max-size: %v", err)
				}
				switch args[0] {
				case "ls":
					es, err := c.Entries()
					if err != nil {
						return err
					}
					tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
					fmt.Fprintln(tw, "key\tsize\tlast used")
					for _, en := range es {
						fmt.Fprintf(tw, "%s\t%s\t%s\n", en.Key, progress.Quantity(float64(en.Bytes), "B"),
							en.LastUsed.Format(time.DateTime))
					}
					return tw.Flush()
				case "du":
					es, err := c.Entries()
					if err != nil {
						return err
					}
					var total int64
					for _, en := range es {
						total += en.Bytes
					}
					lim := "none"
					if limit > 0 {
						lim = progress.Quantity(float64(limit), "B")
					}
					fmt.Fprintf(e.stdout, "%s: %d layouts, %s (limit %s)\n", d, len(es), progress.Quantity(float64(total), "B"), lim)
					return nil
				case "prune":
					if maxSize == "" && limit <= 0 {
						return nil // no limit: nothing to do
					}
					removed, err := c.Prune(limit, "")
					for _, r := range removed {
						fmt.Fprintf(e.stdout, "removed %s (%s, last used %s)\n", r.Key, progress.Quantity(float64(r.Bytes), "B"),
							r.LastUsed.Format(time.DateTime))
					}
					if err != nil {
						return err
					}
					total, err := c.Size()
					if err != nil {
						return err
					}
					fmt.Fprintf(e.stdout, "%s: %s left after removing %d layouts\n", d, progress.Quantity(float64(total), "B"), len(removed))
					return nil
				}
				return usageError("cache: unknown action %q (want ls, du or prune)", args[0])
			}
		},
	}
}
