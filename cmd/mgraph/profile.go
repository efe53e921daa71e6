package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/profile"
	"github.com/spf13/pflag"
)

// profileFlags are the flags of `mgraph profile` of its own; the run's
// flags (graph, mode, source, ...) are those of `mgraph run`, forwarded.
type profileFlags struct {
	app         string
	ncu         string
	kernelName  string
	launchSkip  int
	launchCount int
	nvtx        []string
	out         string
	in          inputFlags
	lf          layoutFlags
}

// profileOwn are the flags `mgraph profile` does not forward to the run.
var profileOwn = []string{"app", "ncu", "kernel-name", "launch-skip", "launch-count", "nvtx-include", "out"}

// runNotForwarded are the flags of `mgraph run` that profile sets itself or
// that make no sense under ncu.
var runNotForwarded = []string{"out", "trace", "backend", "validate"}

func profileCommand() command {
	return command{
		name:    "profile",
		summary: "hardware counters per kernel and per traversed edge, under Nsight Compute (the paper's Fig. 14)",
		usage:   "[flags] GRAPH   (or APP GRAPH)",
		help: `Runs 'mgraph run --backend cuda APP GRAPH' under Nsight Compute (ncu, found
on the PATH or given with --ncu) collecting, for every kernel launch, DRAM
bytes read and written, global atomics (ATOM and RED requests), shared
atomics (ATOMS instructions), and global load/store sectors and requests.
It prints them per kernel and, summed over all launches, per traversed edge:
DRAM bytes/edge, global and shared atomics/edge, sectors per request, load
efficiency, and the memory footprint of the layout relative to plain CSR.
docs/profile.md explains each figure.

The layout is loaded (or built and cached) before ncu starts, so the
profiled run does no preprocessing. ncu replays every kernel several times:
expect a run to take minutes; --kernel-name, --launch-count and
--nvtx-include narrow it. Reading the counters needs root or the driver
option NVreg_RestrictProfilingToAdminUsers=0 (ERR_NVGPUCTRPERM otherwise).

The run's flags (--mode, --source, --trials, --max-iterations, --undirected,
...) are those of 'mgraph run' and are passed on to it.

Examples:
  mgraph profile --app pr rmat:21:16 --undirected --out prof/
  mgraph profile bfs road.gr --kernel-name regex:dense --launch-count 50`,
		flags: func(fs *pflag.FlagSet) func(context.Context, *env, []string) error {
			f := &profileFlags{}
			fs.StringVar(&f.app, "app", "pr", "the program: "+strings.Join(gpuApps, ", ")+" (or give it before GRAPH)")
			fs.StringVar(&f.ncu, "ncu", "", "path of Nsight Compute's ncu (default: ncu on the PATH)")
			fs.StringVar(&f.kernelName, "kernel-name", "", "profile only kernels of this name (ncu syntax: NAME or regex:PATTERN)")
			fs.IntVar(&f.launchSkip, "launch-skip", 0, "skip this many matching kernel launches first")
			fs.IntVar(&f.launchCount, "launch-count", 0, "profile at most this many kernel launches (0: all)")
			fs.StringSliceVar(&f.nvtx, "nvtx-include", nil, "profile only kernels inside these NVTX ranges (ncu --nvtx-include syntax)")
			fs.StringVar(&f.out, "out", "", "directory for profile.json, profile.md, ncu's report (profile.ncu-rep), its CSV and log")
			f.in.register(fs)
			f.lf.register(fs)
			// Every other flag of `mgraph run`, sharing its definitions.
			rfs := pflag.NewFlagSet("run", pflag.ContinueOnError)
			runCommand().flags(rfs)
			rfs.VisitAll(func(fl *pflag.Flag) {
				if fs.Lookup(fl.Name) == nil && !slices.Contains(runNotForwarded, fl.Name) {
					fs.AddFlag(fl)
				}
			})
			if fl := fs.Lookup("trials"); fl != nil {
				fl.Usage += " (each kernel is replayed under ncu: keep it small)"
			}
			return func(ctx context.Context, e *env, args []string) error { return f.run(ctx, e, fs, args) }
		},
	}
}

// profileDoc is profile.json.
type profileDoc struct {
	App      string                  `json:"app"`
	Graph    string                  `json:"graph"`
	Mode     string                  `json:"mode"`
	Vertices uint64                  `json:"vertices"`
	Arcs     uint64                  `json:"arcs"`
	Device   string                  `json:"device,omitempty"`
	NCU      string                  `json:"ncu_version,omitempty"`
	Command  []string                `json:"command"`
	Metrics  []string                `json:"metrics"`
	Units    map[string]string       `json:"units"`
	Figures  profile.Figures         `json:"figures"`
	Kernels  []profile.KernelFigures `json:"kernels"`
	Time     string                  `json:"time"`
}

func (f *profileFlags) run(ctx context.Context, e *env, fs *pflag.FlagSet, args []string) error {
	var graphArg string
	switch len(args) {
	case 1:
		graphArg = args[0]
	case 2:
		if fs.Changed("app") && f.app != args[0] {
			return usageError("APP %q and --app %q disagree", args[0], f.app)
		}
		f.app, graphArg = args[0], args[1]
	default:
		return usageError("profile takes GRAPH (or APP GRAPH), got %d arguments", len(args))
	}
	if f.app == "pr-data" {
		f.app = "pr-delta"
	}
	if !slices.Contains(gpuApps, f.app) {
		return usageError("--app %q: profile runs the GPU programs, one of %s", f.app, strings.Join(gpuApps, ", "))
	}
	if f.launchSkip < 0 || f.launchCount < 0 {
		return usageError("--launch-skip and --launch-count must be ≥ 0")
	}
	ncu, err := findNCU(f.ncu, ncuFallbacks())
	if err != nil {
		return err
	}
	switch {
	case !cuda.BuiltWithCUDA():
		return fmt.Errorf("profile measures the GPU kernels, and this mgraph was built without CUDA: build it with nvcc present (make; see docs/gpu.md)")
	case !gpu.Available():
		return fmt.Errorf("profile measures the GPU kernels, and no usable GPU is visible")
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("profile: finding this program to run under ncu: %w", err)
	}

	// Load (or build and cache) the layout here, so that the run under ncu
	// finds it and profiles no preprocessing kernels.
	if fl := fs.Lookup("weights"); fl != nil && fl.Changed {
		seed, err := strconv.ParseInt(fl.Value.String(), 10, 64)
		if err == nil && seed >= 0 {
			f.in.addWeights, f.in.weightSeed = true, uint64(seed)
		}
	}
	l, err := loadLayout(ctx, e, graphArg, &f.in, &f.lf)
	if err != nil {
		return err
	}
	if apps.Undirected(f.app) && l.Directed {
		f.in.undirected = true
		if l, err = loadLayout(ctx, e, graphArg, &f.in, &f.lf); err != nil {
			return err
		}
	}
	fp := profile.Footprint{DeviceBytes: cuda.LayoutDeviceBytes(l), LayoutBytes: l.Footprint(), CSRBytes: l.CSRBytes()}

	tmp, err := os.MkdirTemp("", "mgraph-profile-")
	if err != nil {
		return fmt.Errorf("profile: %w", err)
	}
	defer os.RemoveAll(tmp)
	dir := tmp
	if f.out != "" {
		if err := os.MkdirAll(f.out, 0o755); err != nil {
			return fmt.Errorf("profile: %w", err)
		}
		dir = f.out
	}
	childGraph := graphArg
	if f.lf.noCache {
		if ok, _ := layout.IsLayoutFile(graphArg); !ok {
			childGraph = filepath.Join(tmp, "graph.mgl")
			if err := layout.SaveFile(childGraph, l, layout.SaveOptions{Level: 1, Workers: f.in.threads}); err != nil {
				return fmt.Errorf("profile: passing the layout to the run: %w", err)
			}
		}
	}
	tracePath := filepath.Join(tmp, "trace.json")
	child := childRunArgs(fs, f.app, childGraph, tracePath)
	report := filepath.Join(dir, "profile")
	ncuArgs, err := profile.Command(profile.Options{Export: report, KernelName: f.kernelName,
		LaunchSkip: f.launchSkip, LaunchCount: f.launchCount, NVTXInclude: f.nvtx}, exe, child...)
	if err != nil {
		return err
	}
	cmdline := append([]string{ncu}, ncuArgs...)
	fmt.Fprintf(e.stderr, "profile: %s\n", shellJoin(cmdline))
	if err := runNCU(ctx, e, ncu, ncuArgs, filepath.Join(dir, "ncu.log")); err != nil {
		return err
	}

	imp := exec.CommandContext(ctx, ncu, profile.ImportCommand(report+".ncu-rep")...)
	var stderr bytes.Buffer
	imp.Stderr = &stderr
	csvText, err := imp.Output()
	if err != nil {
		return fmt.Errorf("profile: reading ncu's report %s.ncu-rep: %w: %s", report, err, strings.TrimSpace(stderr.String()))
	}
	if f.out != "" {
		if err := writeAtomic(filepath.Join(dir, "ncu-raw.csv"), func(w io.Writer) error { _, err := w.Write(csvText); return err }); err != nil {
			return err
		}
	}
	rep, err := profile.ParseCSV(bytes.NewReader(csvText), profile.Metrics...)
	if err != nil {
		return fmt.Errorf("profile: %w", err)
	}
	if len(rep.Launches) == 0 {
		return fmt.Errorf("profile: ncu profiled no kernel launch (check --kernel-name, --launch-skip and --nvtx-include)")
	}
	edges, err := tracedEdges(tracePath)
	if err != nil {
		return err
	}
	if f.kernelName != "" || f.launchSkip > 0 || f.launchCount > 0 || len(f.nvtx) > 0 {
		fmt.Fprintln(e.stderr, "note: --kernel-name, --launch-skip, --launch-count and --nvtx-include leave launches out: the per-edge figures count the profiled launches only, against all the edges the run traversed")
	}
	kernels := profile.Aggregate(rep)
	fig, per := profile.Compute(kernels, edges, fp)
	for _, k := range kernels {
		for m, n := range k.Missing {
			fmt.Fprintf(e.stderr, "warning: %s: ncu gave no %s for %d of %d launches; the sums leave them out\n", k.Display, m, n, k.Launches)
		}
	}
	mode := "auto"
	if fl := fs.Lookup("mode"); fl != nil {
		mode = fl.Value.String()
	}
	meta := profile.Meta{App: f.app, Graph: graphArg, Mode: mode, Device: deviceName(),
		Vertices: l.NumVertices, Arcs: l.NumArcs, Command: shellJoin(cmdline)}
	if err := profile.WriteText(e.stdout, meta, fig, per); err != nil {
		return err
	}
	if f.out == "" {
		return nil
	}
	doc := profileDoc{App: f.app, Graph: graphArg, Mode: mode, Vertices: l.NumVertices, Arcs: l.NumArcs,
		Device: meta.Device, NCU: ncuVersion(ctx, ncu), Command: cmdline, Metrics: rep.Metrics, Units: rep.Units,
		Figures: fig, Kernels: per, Time: time.Now().UTC().Format(time.RFC3339)}
	if err := writeJSONFile(filepath.Join(dir, "profile.json"), doc); err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(dir, "profile.md"), func(w io.Writer) error { return profile.WriteMarkdown(w, meta, fig, per) }); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "wrote %s: profile.json, profile.md, profile.ncu-rep (open in Nsight Compute), ncu-raw.csv, ncu.log\n", dir)
	return nil
}

// childRunArgs returns the arguments of the `mgraph run` that ncu profiles:
// the app on the GPU with a trace, and every run flag set on fs.
func childRunArgs(fs *pflag.FlagSet, app, graph, trace string) []string {
	args := []string{"run", app, graph, "--backend", "cuda", "--trace", trace}
	fs.Visit(func(fl *pflag.Flag) {
		if !slices.Contains(profileOwn, fl.Name) {
			args = append(args, "--"+fl.Name+"="+fl.Value.String())
		}
	})
	return args
}

// ncuFallbacks are where ncu usually lives when it is not on the PATH.
func ncuFallbacks() []string {
	return []string{"/usr/local/cuda/bin/ncu", "/opt/nvidia/nsight-compute/ncu"}
}

// findNCU returns the ncu to run: explicit when given, else ncu on the PATH,
// else the first fallback that exists.
func findNCU(explicit string, fallbacks []string) (string, error) {
	if explicit != "" {
		p, err := exec.LookPath(explicit)
		if err != nil {
			return "", fmt.Errorf("--ncu %s: %w", explicit, err)
		}
		return p, nil
	}
	if p, err := exec.LookPath("ncu"); err == nil {
		return p, nil
	}
	for _, p := range fallbacks {
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", errors.New("ncu (Nsight Compute) not found on the PATH: install Nsight Compute " +
		"(it ships with the CUDA toolkit as /usr/local/cuda/bin/ncu, or from https://developer.nvidia.com/nsight-compute), " +
		"then put its directory on the PATH or pass --ncu /path/to/ncu")
}

// runNCU runs ncu, copying its output to logPath and to stderr, where the
// per-launch "==PROF== Profiling" lines are condensed into a progress line
// every few seconds. ncu's own failures (counter permission, unknown
// metric) are turned into errors that say what to do.
func runNCU(ctx context.Context, e *env, ncu string, args []string, logPath string) error {
	logFile, err := os.Create(logPath)
	if err != nil {
		return fmt.Errorf("profile: %w", err)
	}
	defer logFile.Close()
	cmd := exec.CommandContext(ctx, ncu, args...)
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	var (
		wg      sync.WaitGroup
		errText strings.Builder
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		start, last := time.Now(), time.Now()
		launches := 0
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(logFile, line)
			switch {
			case strings.HasPrefix(line, "==PROF== Profiling"):
				launches++
				if time.Since(last) >= 3*time.Second || launches == 1 {
					last = time.Now()
					fmt.Fprintf(e.stderr, "profile: ncu has profiled %d kernel launch(es) (%s)\n", launches, time.Since(start).Round(time.Second))
				}
			case strings.HasPrefix(line, "==PROF=="):
			default:
				if strings.HasPrefix(line, "==ERROR==") || strings.HasPrefix(line, "==WARNING==") {
					errText.WriteString(line + "\n")
				}
				fmt.Fprintln(e.stderr, line)
			}
		}
		io.Copy(io.Discard, pr)
		fmt.Fprintf(e.stderr, "profile: ncu done: %d kernel launches in %s\n", launches, time.Since(start).Round(time.Second))
	}()
	runErr := cmd.Run()
	pw.Close()
	wg.Wait()
	if err := profile.CheckOutput(errText.String()); err != nil {
		return fmt.Errorf("profile: %w", err)
	}
	if runErr != nil {
		return fmt.Errorf("profile: ncu failed (%w); its output is in %s", runErr, logPath)
	}
	return nil
}

// tracedEdges returns the arcs the run traversed, summed over its trials,
// from its --trace file.
func tracedEdges(path string) (uint64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("profile: the run's trace: %w", err)
	}
	var doc traceFile
	if err := json.Unmarshal(data, &doc); err != nil {
		return 0, fmt.Errorf("profile: the run's trace %s: %w", path, err)
	}
	var edges uint64
	for _, t := range doc.Trials {
		edges += t.Result.Edges
	}
	if edges == 0 {
		return 0, fmt.Errorf("profile: the run traversed no edges (trace %s): nothing to divide by", path)
	}
	return edges, nil
}

// deviceName returns the first GPU's name, or "".
func deviceName() string {
	devs, err := cuda.Devices()
	if err != nil || len(devs) == 0 {
		return ""
	}
	p, err := devs[0].Props()
	if err != nil {
		return ""
	}
	return p.Name
}

// ncuVersion returns the last line of `ncu --version`, or "".
func ncuVersion(ctx context.Context, ncu string) string {
	out, err := exec.CommandContext(ctx, ncu, "--version").Output()
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// shellJoin quotes args for display as a shell command line.
func shellJoin(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`*?;&|<>()") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}
