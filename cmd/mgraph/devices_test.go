package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mgraph-dev/mgraph/cuda"
)

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, &env{stdout: &out, stderr: &errOut})
	return code, out.String(), errOut.String()
}

// TestDevicesAndProbe checks both commands: on a GPU they report it, elsewhere
// they fail with a message that says why.
func TestDevicesAndProbe(t *testing.T) {
	if !cuda.Available() {
		want := "no CUDA device visible"
		if !cuda.BuiltWithCUDA() {
			want = "built without CUDA"
		}
		for _, cmd := range []string{"devices", "probe"} {
			code, _, stderr := runCLI(t, cmd)
			if code != 1 || !strings.Contains(stderr, want) {
				t.Errorf("mgraph %s: exit %d, stderr %q; want 1 and %q", cmd, code, stderr, want)
			}
		}
		return
	}
	code, stdout, stderr := runCLI(t, "devices")
	if code != 0 || !strings.Contains(stdout, "device 0: ") || !strings.Contains(stdout, "compute capability") {
		t.Errorf("mgraph devices: exit %d\n%s%s", code, stdout, stderr)
	}
	t.Log("\n" + stdout)
	code, stdout, stderr = runCLI(t, "devices", "--json")
	var props []cuda.DeviceProps
	if code != 0 || json.Unmarshal([]byte(stdout), &props) != nil || len(props) == 0 || props[0].Name == "" {
		t.Errorf("mgraph devices --json: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, "probe", "--size", "64MiB", "--runs", "3", "--json")
	var res cuda.ProbeResult
	if code != 0 || json.Unmarshal([]byte(stdout), &res) != nil || res.CopyGBps <= 0 || res.Bytes != 64<<20 {
		t.Errorf("mgraph probe --json: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, "probe", "--size", "16MiB", "--runs", "2")
	if code != 0 || !strings.Contains(stdout, "read") || !strings.Contains(stdout, "GB/s") {
		t.Errorf("mgraph probe: exit %d\n%s%s", code, stdout, stderr)
	}
	t.Log("\n" + stdout)
}

func TestProbeUsage(t *testing.T) {
	for _, args := range [][]string{{"probe", "--size", "lots"}, {"probe", "--runs", "0"}, {"probe", "extra"}, {"devices", "extra"}} {
		if code, _, _ := runCLI(t, args...); code != 2 {
			t.Errorf("mgraph %v: exit %d, want 2", args, code)
		}
	}
}

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint64
	}{{"1GiB", 1 << 30}, {"512MiB", 512 << 20}, {"4G", 4 << 30}, {"1.5KiB", 1536}, {"2GB", 2e9}, {"100", 100}, {"64B", 64}, {"3 mib", 3 << 20}} {
		got, err := parseSize(c.in)
		if err != nil || got != c.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "GiB", "-1", "x1", "1e30TiB"} {
		if _, err := parseSize(bad); err == nil {
			t.Errorf("parseSize(%q) accepted", bad)
		}
	}
}
