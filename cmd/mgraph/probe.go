package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/spf13/pflag"
)

func probeCommand() command {
	return command{
		name:    "probe",
		summary: "measure a GPU's memory bandwidth (streaming read and copy, GB/s)",
		help: `Measures device memory bandwidth with two kernels using 16-byte accesses:
a streaming read of one buffer and a streaming copy between two buffers of
--size bytes each. Each kernel runs --runs times after two warm-up runs,
timed with CUDA events; the best run is reported (the median too). Copy
counts bytes read plus bytes written. GB/s are 10^9 bytes per second. This is
the physical limit that kernels are compared against.

Examples:
  mgraph probe
  mgraph probe --size 4GiB --runs 50 --json`,
		flags: func(fs *pflag.FlagSet) func(context.Context, *env, []string) error {
			size := fs.String("size", "1GiB", "bytes per buffer (suffixes KiB MiB GiB, KB MB GB)")
			runs := fs.Int("runs", cuda.DefaultProbeRuns, "timed runs of each kernel")
			dev := fs.Int("device", 0, "device ordinal")
			asJSON := fs.Bool("json", false, "print the result as JSON")
			return func(_ context.Context, e *env, args []string) error {
				if len(args) != 0 {
					return usageError("probe takes no arguments")
				}
				bytes, err := parseSize(*size)
				if err != nil {
					return usageError("--size: %v", err)
				}
				if bytes < 16 {
					return usageError("--size must be at least 16 bytes")
				}
				if *runs < 1 {
					return usageError("--runs must be at least 1")
				}
				d, err := cuda.GetDevice(*dev)
				if err != nil {
					return cudaUnavailable(err)
				}
				res, err := cuda.Probe(d, cuda.ProbeOptions{Bytes: bytes, Runs: *runs})
				if err != nil {
					return cudaUnavailable(err)
				}
				if *asJSON {
					enc := json.NewEncoder(e.stdout)
					enc.SetIndent("", "  ")
					return enc.Encode(res)
				}
				fmt.Fprintf(e.stdout, "device %d: %s\n", res.Device, res.Name)
				fmt.Fprintf(e.stdout, "buffers of %s, best of %d runs (median in parentheses)\n", cuda.FormatBytes(res.Bytes), res.Runs)
				fmt.Fprintf(e.stdout, "  read  %7.1f GB/s  (%7.1f)  %9.3f ms\n", res.ReadGBps, res.ReadMedianGBps, float64(res.ReadBest.Nanoseconds())/1e6)
				fmt.Fprintf(e.stdout, "  copy  %7.1f GB/s  (%7.1f)  %9.3f ms  bytes read + written\n", res.CopyGBps, res.CopyMedianGBps, float64(res.CopyBest.Nanoseconds())/1e6)
				if res.PeakGBps > 0 {
					fmt.Fprintf(e.stdout, "  theoretical peak %.0f GB/s: read %.0f%%, copy %.0f%%\n",
						res.PeakGBps, 100*res.ReadGBps/res.PeakGBps, 100*res.CopyGBps/res.PeakGBps)
				}
				return nil
			}
		},
	}
}

// parseSize parses a byte count with an optional binary (KiB, MiB, GiB, TiB,
// or K, M, G, T) or decimal (KB, MB, GB, TB) suffix.
func parseSize(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	units := []struct {
		suffix string
		mult   uint64
	}{
		{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
		{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}, {"B", 1},
	}
	mult := uint64(1)
	for _, u := range units {
		if len(t) > len(u.suffix) && strings.EqualFold(t[len(t)-len(u.suffix):], u.suffix) {
			t, mult = strings.TrimSpace(t[:len(t)-len(u.suffix)]), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("bad size %q", s)
	}
	b := v * float64(mult)
	if b >= 1<<63 {
		return 0, fmt.Errorf("size %q too large", s)
	}
	return uint64(b), nil
}
