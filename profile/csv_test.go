package profile

import (
	"math"
	"os"
	"strings"
	"testing"
)

func TestParseCSVSample(t *testing.T) {
	f, err := os.Open("testdata/ncu-raw.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := ParseCSV(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Metrics) != 11 || len(rep.Launches) != 4 {
		t.Fatalf("%d metrics, %d launches; want 11, 4", len(rep.Metrics), len(rep.Launches))
	}
	l := rep.Launches[1]
	if l.ID != "1" || l.Process != "41872" || l.Line != 6 {
		t.Errorf("launch 1: id %q process %q line %d", l.ID, l.Process, l.Line)
	}
	if got := l.Values[MetricDRAMRead]; got != 8388608 {
		t.Errorf("dram read %v, want 8388608", got)
	}
	if _, ok := l.Values[MetricSharedAtom]; ok {
		t.Errorf("n/a value parsed as a number")
	}
	if rep.Units[MetricTime] != "ns" || rep.Units[MetricDRAMRead] != "byte" {
		t.Errorf("units %v", rep.Units)
	}

	ks := Aggregate(rep)
	if len(ks) != 2 || ks[0].Display != "pr_phase1_heavy" || ks[1].Display != "pr_phase2" || ks[0].Launches != 2 {
		t.Fatalf("aggregate: %+v", ks)
	}
	if ks[0].Values[MetricTime] != 41216+40960 || ks[1].Missing[MetricSharedAtom] != 2 {
		t.Errorf("kernel sums %v missing %v", ks[0].Values, ks[1].Missing)
	}

	const edges = 1 << 20
	fig, per := Compute(ks, edges, Footprint{DeviceBytes: 300, LayoutBytes: 400, CSRBytes: 200})
	check := func(name string, got *float64, want float64) {
		t.Helper()
		if got == nil || math.Abs(*got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("%s = %v, want %v", name, deref(got), want)
		}
	}
	check("read/edge", fig.DRAMReadPerEdge, 2*(12582912+8388608)/float64(edges))
	check("write/edge", fig.DRAMWritePerEdge, 2*(4194304+1048576)/float64(edges))
	check("bytes/edge", fig.DRAMBytesPerEdge, 2*(12582912+8388608+4194304+1048576)/float64(edges))
	check("gatom/edge", fig.GlobalAtomicsPerEdge, 2*(264+8192)/float64(edges))
	check("satom/edge", fig.SharedAtomicsPerEdge, 2*32768/float64(edges))
	check("ld sect/req", fig.LoadSectorsPerRequest, (524288+262144)/float64(98304+65536))
	check("st sect/req", fig.StoreSectorsPerRequest, (65536+32768)/float64(16384+8192))
	check("ld eff", fig.LoadEfficiency, (12582912+8388608)/(32*float64(524288+262144)))
	check("footprint", fig.FootprintRatio, 1.5)
	check("layout", fig.LayoutRatio, 2)
	check("seconds", fig.KernelSeconds, (41216+40960+20480+20736)*1e-9)
	if fig.Launches != 4 || fig.Edges != edges {
		t.Errorf("launches %d edges %d", fig.Launches, fig.Edges)
	}
	if per[1].SharedAtomicsPerEdge != nil {
		t.Errorf("pr_phase2 had no shared-atomic values, got %v", *per[1].SharedAtomicsPerEdge)
	}
	check("phase2 ld sect/req", per[1].LoadSectorsPerRequest, 4)

	var b strings.Builder
	if err := WriteMarkdown(&b, Meta{App: "pr", Graph: "rmat:18:16", Mode: "hybrid"}, fig, per); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| DRAM bytes / edge | 50.00 |", "| `pr_phase2` | 2 |", "| device layout / CSR | 1.50× |"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := WriteText(&b, Meta{App: "pr"}, fig, per); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "pr_phase1_heavy") || !strings.Contains(b.String(), "n/a") {
		t.Errorf("text table:\n%s", b.String())
	}
}

// TestParseCSVCaptured reads a raw page captured from ncu 2025.3 on an H100
// (PageRank, R-MAT scale 18): 313 columns, device attributes among them, of
// which only the requested metrics are read.
func TestParseCSVCaptured(t *testing.T) {
	f, err := os.Open("testdata/ncu-2025.3-h100-pr-rmat18.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := ParseCSV(f, Metrics...)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Launches) != 36 || len(rep.Metrics) != len(Metrics) {
		t.Fatalf("%d launches, metrics %v", len(rep.Launches), rep.Metrics)
	}
	if rep.Units[MetricTime] != "ns" || rep.Units[MetricDRAMRead] != "byte" || rep.Units[MetricLoadRequests] != "" {
		t.Errorf("units %v", rep.Units)
	}
	ks := Aggregate(rep)
	var names []string
	for _, k := range ks {
		names = append(names, k.Display)
		if k.Launches != 9 || len(k.Missing) != 0 {
			t.Errorf("%s: %d launches, missing %v", k.Display, k.Launches, k.Missing)
		}
	}
	if strings.Join(names, " ") != "pr_heavy_kernel pr_light_kernel pr_phase2_kernel pr_fold_kernel" {
		t.Errorf("kernels %v", names)
	}
	if got := rep.Launches[0].Values[MetricDRAMRead]; got != 16822016 {
		t.Errorf("first launch DRAM read %v", got)
	}
	if got := ks[0].Values[MetricLoadSectors]; got != 9*589179 {
		t.Errorf("heavy load sectors %v", got)
	}
	// Without the metric list the text columns are errors that say where.
	f.Seek(0, 0)
	if _, err := ParseCSV(f); err == nil || !strings.Contains(err.Error(), `line 3: column "device__attribute_confidential_computing_mode"`) {
		t.Errorf("strict parse: %v", err)
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestParseCSVUnitsAndErrors(t *testing.T) {
	const head = `"ID","Kernel Name","dram__bytes_read.sum","gpu__time_duration.sum"` + "\n"
	rep, err := ParseCSV(strings.NewReader(head + `"","","Kbyte","usecond"` + "\n" + `"0","k","1.5","2"` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if v := rep.Launches[0].Values; v[MetricDRAMRead] != 1500 || v[MetricTime] != 2000 {
		t.Errorf("scaled values %v", v)
	}
	// No units row.
	if rep, err = ParseCSV(strings.NewReader(head + `"0","k","1","2"` + "\n")); err != nil || len(rep.Launches) != 1 {
		t.Errorf("without units row: %v %v", rep, err)
	}
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "no header row"},
		{"short row", head + `"","","byte","nsecond"` + "\n" + `"0","k","1"` + "\n", "line 3: 3 fields, the header has 4"},
		{"not a number", head + `"0","k","abc","1"` + "\n", `line 2: column "dram__bytes_read.sum": value "abc" is not a number`},
		{"bad grouping", head + `"0","k","12,34","1"` + "\n", "misplaced thousands separators"},
		{"bare quote", head + `"0","k","1""2,"1"` + "\n", "line 2:"},
		{"no kernel name", head + `"0","","1","2"` + "\n", `empty "Kernel Name"`},
		{"duplicate metric", `"Kernel Name","a__b","a__b"` + "\n", `metric "a__b" appears twice`},
		{"unnamed column", `"Kernel Name",""` + "\n", "column 2 of the header has no name"},
	} {
		_, err := ParseCSV(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
}

func TestDisplayName(t *testing.T) {
	for in, want := range map[string]string{
		"void (anonymous namespace)::phase1<mg::MinProg, 256>(const unsigned int *, int)": "phase1",
		"mg_copy(float*)":               "mg_copy",
		"pr_phase2":                     "pr_phase2",
		"void mg::dense<Op<A, B>>(int)": "mg::dense",
		"weird<":                        "weird<",
		"void cub::DeviceReduceKernel<Policy>(int)": "cub::DeviceReduceKernel",
	} {
		if got := DisplayName(in); got != want {
			t.Errorf("DisplayName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCommand(t *testing.T) {
	args, err := Command(Options{Export: "/tmp/p", KernelName: "regex:pr_", LaunchCount: 10, NVTXInclude: []string{"pr"}}, "/bin/mgraph", "run", "pr", "g")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(args, " ")
	for _, want := range []string{"--metrics dram__bytes_read.sum,", "--target-processes all", "--export /tmp/p", "--kernel-name regex:pr_",
		"--launch-count 10", "--nvtx --nvtx-include pr", "/bin/mgraph run pr g"} {
		if !strings.Contains(got, want) {
			t.Errorf("command %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "--launch-skip") {
		t.Errorf("launch skip 0 passed: %q", got)
	}
	if _, err := Command(Options{}, "x"); err == nil {
		t.Error("no export: no error")
	}
	if err := CheckOutput("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission"); err == nil || !strings.Contains(err.Error(), "NVreg_RestrictProfilingToAdminUsers") {
		t.Errorf("permission: %v", err)
	}
	if err := CheckOutput("==ERROR== Failed to find metric foo__bar.sum"); err == nil || !strings.Contains(err.Error(), "foo__bar") {
		t.Errorf("metric: %v", err)
	}
	if CheckOutput("fine") != nil {
		t.Error("ok output gave an error")
	}
}

func FuzzParseCSV(f *testing.F) {
	sample, err := os.ReadFile("testdata/ncu-raw.csv")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(sample))
	f.Add(`"ID","Kernel Name","a__b.sum"` + "\n" + `"","","Kbyte"` + "\n" + `"0","k","1,234.5"` + "\n")
	f.Add(`"Kernel Name","x__y"` + "\n" + `"k","n/a"` + "\n")
	f.Fuzz(func(t *testing.T, in string) {
		rep, err := ParseCSV(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, l := range rep.Launches {
			if l.Kernel == "" {
				t.Fatalf("launch without a kernel name: %+v", l)
			}
			for m, v := range l.Values {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("metric %s = %v", m, v)
				}
			}
		}
		ks := Aggregate(rep)
		n := 0
		for _, k := range ks {
			n += k.Launches
		}
		if n != len(rep.Launches) {
			t.Fatalf("aggregate counts %d launches of %d", n, len(rep.Launches))
		}
		Compute(ks, 1, Footprint{})
	})
}
