// Package profile turns Nsight Compute (ncu) hardware counters into the
// per-traversed-edge figures of the MultiGraph paper's Fig. 14: DRAM bytes
// read and written per edge, global and shared-memory atomics per edge,
// global load/store sectors per request and load efficiency, next to the
// layout's memory footprint relative to plain CSR.
//
// It has one job and no GPU code: it builds ncu's command line (Command),
// parses the CSV of ncu's raw page (ParseCSV), sums the launches of each
// kernel (Aggregate) and divides by the traversed edges (Compute). The
// `mgraph profile` command drives it.
package profile

import (
	"fmt"
	"strconv"
	"strings"
)

// The ncu metrics Compute needs, with names valid on Hopper (sm_90) for
// ncu 2023–2025. Requests and instructions are warp-level: one global atomic
// request carries the operations of up to 32 threads.
const (
	// MetricDRAMRead is the bytes read from device memory.
	MetricDRAMRead = "dram__bytes_read.sum"
	// MetricDRAMWrite is the bytes written to device memory.
	MetricDRAMWrite = "dram__bytes_write.sum"
	// MetricGlobalAtom is the global atomic requests that return a value (ATOM).
	MetricGlobalAtom = "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"
	// MetricGlobalRed is the global reductions, atomics without a return value (RED).
	MetricGlobalRed = "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"
	// MetricSharedAtom is the warp-level shared-memory atomic instructions (ATOMS).
	MetricSharedAtom = "smsp__sass_inst_executed_op_shared_atom.sum"
	// MetricLoadSectors is the 32-byte sectors global loads touched in L1.
	MetricLoadSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
	// MetricLoadRequests is the global load requests (one per warp instruction).
	MetricLoadRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
	// MetricStoreSectors is the 32-byte sectors global stores touched.
	MetricStoreSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
	// MetricStoreRequests is the global store requests.
	MetricStoreRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"
	// MetricLoadBytes is the bytes the threads' global loads asked for; with
	// the sectors it gives the load efficiency.
	MetricLoadBytes = "smsp__sass_data_bytes_mem_global_op_ld.sum"
	// MetricTime is each launch's duration.
	MetricTime = "gpu__time_duration.sum"
)

// Metrics lists the metrics Command collects, in a fixed order.
var Metrics = []string{
	MetricDRAMRead, MetricDRAMWrite,
	MetricGlobalAtom, MetricGlobalRed, MetricSharedAtom,
	MetricLoadSectors, MetricLoadRequests, MetricStoreSectors, MetricStoreRequests,
	MetricLoadBytes, MetricTime,
}

// Options select what ncu profiles.
type Options struct {
	// Export is the report file ncu writes (ncu adds .ncu-rep); required.
	Export string
	// KernelName, when set, is passed as --kernel-name (ncu's syntax: a
	// name, or regex:PATTERN).
	KernelName string
	// LaunchSkip and LaunchCount, when > 0, are --launch-skip and
	// --launch-count (launches of matching kernels).
	LaunchSkip, LaunchCount int
	// NVTXInclude, when set, enables --nvtx and passes each as
	// --nvtx-include (e.g. "pr/" for kernels inside the push/pop range pr,
	// "pr" for a start/end range of that name).
	NVTXInclude []string
	// Metrics overrides the metric list (default Metrics).
	Metrics []string
}

// Command returns the arguments (after the ncu executable) that profile
// target with args: the metrics of every kernel launch of every process the
// target starts, written to o.Export.
func Command(o Options, target string, args ...string) ([]string, error) {
	if o.Export == "" {
		return nil, fmt.Errorf("profile: no export file for ncu's report")
	}
	if o.LaunchSkip < 0 || o.LaunchCount < 0 {
		return nil, fmt.Errorf("profile: launch skip %d and count %d must be ≥ 0", o.LaunchSkip, o.LaunchCount)
	}
	metrics := o.Metrics
	if len(metrics) == 0 {
		metrics = Metrics
	}
	cmd := []string{"--metrics", strings.Join(metrics, ","), "--target-processes", "all",
		"--export", o.Export, "--force-overwrite"}
	if o.KernelName != "" {
		cmd = append(cmd, "--kernel-name", o.KernelName)
	}
	if o.LaunchSkip > 0 {
		cmd = append(cmd, "--launch-skip", strconv.Itoa(o.LaunchSkip))
	}
	if o.LaunchCount > 0 {
		cmd = append(cmd, "--launch-count", strconv.Itoa(o.LaunchCount))
	}
	if len(o.NVTXInclude) > 0 {
		cmd = append(cmd, "--nvtx")
		for _, r := range o.NVTXInclude {
			cmd = append(cmd, "--nvtx-include", r)
		}
	}
	return append(append(cmd, target), args...), nil
}

// ImportCommand returns the arguments that print the report file report
// (as written through Options.Export, with its .ncu-rep) as the CSV of the
// raw page, one row per launch, values in base units.
func ImportCommand(report string) []string {
	return []string{"--import", report, "--csv", "--page", "raw", "--print-units", "base"}
}

// PermissionHint explains ERR_NVGPUCTRPERM, ncu's error when the user may
// not read the GPU's performance counters.
const PermissionHint = "ncu may not read the GPU performance counters (ERR_NVGPUCTRPERM): run as root, " +
	"or let every user profile by loading the driver with NVreg_RestrictProfilingToAdminUsers=0 " +
	"(e.g. 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' in /etc/modprobe.d/, then reboot); " +
	"see https://developer.nvidia.com/ERR_NVGPUCTRPERM"

// CheckOutput returns an error for the failures ncu reports in its own
// output that a user can act on (missing counter permission, unknown
// metrics), or nil.
func CheckOutput(out string) error {
	switch {
	case strings.Contains(out, "ERR_NVGPUCTRPERM"):
		return fmt.Errorf("%s", PermissionHint)
	case strings.Contains(out, "Failed to find metric"):
		for _, line := range strings.Split(out, "\n") {
			if strings.Contains(line, "Failed to find metric") {
				return fmt.Errorf("ncu does not know a metric on this GPU: %s", strings.TrimSpace(line))
			}
		}
	}
	return nil
}
