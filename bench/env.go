package bench

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/layout"
)

// Environment is where and with what a benchmark ran.
type Environment struct {
	Time       string        `json:"time"` // start, RFC 3339
	Host       string        `json:"host"`
	OS         string        `json:"os"`
	Arch       string        `json:"arch"`
	CPUModel   string        `json:"cpu_model"`
	Cores      int           `json:"cores"` // logical CPUs
	GOMAXPROCS int           `json:"gomaxprocs"`
	Threads    int           `json:"threads"` // the plan's --threads (0 = all cores)
	GoVersion  string        `json:"go_version"`
	Commit     string        `json:"commit"`
	CUDABuilt  bool          `json:"cuda_built"`
	CUDADriver string        `json:"cuda_driver,omitempty"`
	GPUs       []GPU         `json:"gpus,omitempty"`
	Params     layout.Params `json:"layout_params"`
	Command    string        `json:"command,omitempty"`
	// Probe is device 0's measured memory bandwidth (cuda.Probe with its
	// default sizes, as `mgraph probe` runs it), taken when the plan has
	// the cuda backend; the report puts the GPU's dense steps against it.
	Probe *cuda.ProbeResult `json:"probe,omitempty"`
	// ProbeError says why the probe was not taken, when it failed.
	ProbeError string `json:"probe_error,omitempty"`
}

// GPU describes one visible device.
type GPU struct {
	Name              string  `json:"name"`
	ComputeCapability string  `json:"compute_capability"`
	MemoryBytes       uint64  `json:"memory_bytes"`
	PeakBandwidthGBps float64 `json:"peak_bandwidth_gbps"`
	Driver            string  `json:"driver"`
	Runtime           string  `json:"runtime"`
}

// CollectEnvironment describes this machine and build. commit is the
// caller's description of the build (e.g. the CLI's version string); when
// it is empty or says nothing, the VCS stamp of the binary and then
// `git describe --always --dirty` in the working directory are tried.
func CollectEnvironment(commit string, p Plan) Environment {
	host, _ := os.Hostname()
	env := Environment{
		Time: time.Now().Format(time.RFC3339), Host: host,
		OS: runtime.GOOS, Arch: runtime.GOARCH,
		CPUModel: cpuModel(), Cores: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0),
		Threads: p.Threads, GoVersion: runtime.Version(), Commit: describeCommit(commit),
		CUDABuilt: cuda.BuiltWithCUDA(), Params: p.Params,
		Command: strings.Join(os.Args, " "),
	}
	if env.CUDABuilt {
		if drv, rt, err := cuda.Versions(); err == nil {
			env.CUDADriver = cuda.FormatVersion(drv)
			_ = rt
		}
		if devs, err := cuda.Devices(); err == nil {
			for _, d := range devs {
				pr, err := d.Props()
				if err != nil {
					continue
				}
				env.GPUs = append(env.GPUs, GPU{
					Name: pr.Name, ComputeCapability: pr.ComputeCapability(), MemoryBytes: pr.TotalMemory,
					PeakBandwidthGBps: pr.PeakBandwidthGBps(),
					Driver:            cuda.FormatVersion(pr.DriverVersion), Runtime: cuda.FormatVersion(pr.RuntimeVersion),
				})
			}
		}
	}
	return env
}

// ProbeBandwidth measures device 0's bandwidth into env (Probe, or
// ProbeError when it fails), for plans that run on the cuda backend.
func ProbeBandwidth(env *Environment) {
	d, err := cuda.GetDevice(0)
	if err == nil {
		var res cuda.ProbeResult
		if res, err = cuda.Probe(d, cuda.ProbeOptions{}); err == nil {
			env.Probe = &res
			return
		}
	}
	env.ProbeError = fmt.Sprintf("bandwidth probe: %v", err)
}

// cpuModel returns the first "model name" of /proc/cpuinfo, or the
// architecture when there is none.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

// describeCommit returns given when it names a commit, else the binary's VCS
// stamp, else `git describe`, else "unknown".
func describeCommit(given string) string {
	if given != "" && !strings.Contains(given, "devel") && !strings.Contains(given, "unknown") {
		return given
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		rev, dirty := "", false
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if rev != "" {
			if len(rev) > 12 {
				rev = rev[:12]
			}
			if dirty {
				rev += "+dirty"
			}
			return rev
		}
	}
	if out, err := exec.Command("git", "describe", "--always", "--dirty").Output(); err == nil {
		if s := strings.TrimSpace(string(out)); s != "" {
			return s + " (git describe at run time)"
		}
	}
	return "unknown"
}
