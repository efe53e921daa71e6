package main

import (
	"context"
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/spf13/pflag"
)

func devicesCommand() command {
	return command{
		name:    "devices",
		summary: "list the visible GPUs and their properties",
		help: `Lists every visible CUDA device: name, compute capability, SM count,
memory, shared memory per block (default and opt-in maximum), L2 size, clocks,
memory bus width and theoretical memory bandwidth. Fails with a clear message
when mgraph was built without CUDA or no GPU is visible.

Examples:
  mgraph devices
  mgraph devices --json`,
		flags: func(fs *pflag.FlagSet) func(context.Context, *env, []string) error {
			asJSON := fs.Bool("json", false, "print the properties as JSON")
			return func(_ context.Context, e *env, args []string) error {
				if len(args) != 0 {
					return usageError("devices takes no arguments")
				}
				devs, err := cuda.Devices()
				if err != nil {
					return cudaUnavailable(err)
				}
				props := make([]cuda.DeviceProps, len(devs))
				for i, d := range devs {
					if props[i], err = d.Props(); err != nil {
						return err
					}
				}
				if *asJSON {
					enc := json.NewEncoder(e.stdout)
					enc.SetIndent("", "  ")
					return enc.Encode(props)
				}
				printDevices(e, props)
				return nil
			}
		},
	}
}

func printDevices(e *env, props []cuda.DeviceProps) {
	if len(props) > 0 {
		p := props[0]
		fmt.Fprintf(e.stdout, "CUDA driver %s, runtime %s (static); %d device(s)\n",
			cuda.FormatVersion(p.DriverVersion), cuda.FormatVersion(p.RuntimeVersion), len(props))
	}
	for _, p := range props {
		fmt.Fprintf(e.stdout, "\ndevice %d: %s\n", p.Ordinal, p.Name)
		w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
		row := func(k, format string, a ...any) { fmt.Fprintf(w, "  %s\t"+format+"\n", append([]any{k}, a...)...) }
		row("compute capability", "%s (sm_%d%d)", p.ComputeCapability(), p.Major, p.Minor)
		row("PCI bus id", "%s", p.PCIBusID)
		row("multiprocessors", "%d (max %d threads, %d blocks each; %d threads per block)",
			p.Multiprocessors, p.MaxThreadsPerSM, p.MaxBlocksPerSM, p.MaxThreadsPerBlock)
		row("memory", "%s total, %s free (ECC %s)", cuda.FormatBytes(p.TotalMemory), cuda.FormatBytes(p.FreeMemory), onOff(p.ECC))
		row("shared memory", "%s per block (opt-in max %s), %s per SM",
			cuda.FormatBytes(p.SharedPerBlock), cuda.FormatBytes(p.SharedPerBlockOptin), cuda.FormatBytes(p.SharedPerSM))
		row("L2 cache", "%s (persisting max %s)", cuda.FormatBytes(p.L2Bytes), cuda.FormatBytes(p.PersistingL2MaxBytes))
		row("registers per block", "%d (warp size %d)", p.RegistersPerBlock, p.WarpSize)
		row("clocks", "SM %d MHz, memory %d MHz", p.ClockKHz/1000, p.MemoryClockKHz/1000)
		row("memory bus", "%d bits, theoretical %.0f GB/s", p.MemoryBusWidth, p.PeakBandwidthGBps())
		row("copy engines", "%d", p.AsyncEngines)
		w.Flush()
	}
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
