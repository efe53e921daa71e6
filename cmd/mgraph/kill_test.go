package main

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// cliEnv, when set in the environment, makes the test binary run the mgraph
// command with the arguments it holds (separated by cliSep) instead of the
// tests: TestKilledWritesLeaveNoWrongFile starts it as a process it can kill.
const (
	cliEnv = "MGRAPH_TEST_CLI_ARGS"
	cliSep = "\x1f"
	// fsizeEnv caps the size of the files the CLI process may write
	// (RLIMIT_FSIZE, in bytes): a write past it fails as on a full disk.
	fsizeEnv = "MGRAPH_TEST_FSIZE"
)

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(cliEnv); ok {
		if s := os.Getenv(fsizeEnv); s != "" {
			limit, err := strconv.ParseUint(s, 10, 64)
			if err == nil {
				signal.Ignore(syscall.SIGXFSZ) // the write returns EFBIG instead
				err = syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: limit})
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, "test CLI:", err)
				os.Exit(3)
			}
		}
		os.Exit(cliMain(strings.Split(args, cliSep)))
	}
	os.Exit(m.Run())
}

// TestKilledWritesLeaveNoWrongFile kills (SIGKILL) convert, preprocess
// into a file and preprocess into the cache at moments spread over the
// second half of a run (where the output is written), and checks
// that the output then either does not exist or is byte for byte the
// output of a run that finished: no partial file ever passes for a result.
func TestKilledWritesLeaveNoWrongFile(t *testing.T) {
	dir, in := processTestInput(t, "rmat:16:8")

	cases := []struct {
		name string
		args func(out string) []string
		out  func(out string) string // the file the command leaves (for the cache: its one entry)
	}{
		{"convert", func(out string) []string { return []string{"convert", in, out + ".mgb"} },
			func(out string) string { return out + ".mgb" }},
		{"preprocess", func(out string) []string {
			return []string{"preprocess", "--preprocess-on", "cpu", in, "-o", out + ".mgl"}
		}, func(out string) string { return out + ".mgl" }},
		{"cache", func(out string) []string {
			return []string{"preprocess", "--preprocess-on", "cpu", "--cache-dir", out, in}
		}, cacheEntry},
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// The finished run's output, and how long a run takes.
			ref := filepath.Join(dir, c.name+"-ref")
			start := time.Now()
			cmd := cli(c.args(ref)...)
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, string(out))
			took := time.Since(start)
			want, err := os.ReadFile(c.out(ref))
			require.NoError(t, err)
			var none, whole int
			defer func() { t.Logf("%d kills left no output, %d a whole one", none, whole) }()
			const kills = 12
			for i := 0; i < kills; i++ {
				base := filepath.Join(dir, c.name+"-kill", string(rune('a'+i)))
				require.NoError(t, os.MkdirAll(filepath.Dir(base), 0o755))
				cmd := cli(c.args(base)...)
				require.NoError(t, cmd.Start())
				// Spread over the run's second half and just past its end,
				// where the output is written, with some jitter.
				frac := 0.5 + 0.7*float64(i)/kills + 0.05*rng.Float64()
				time.Sleep(time.Duration(frac * float64(took)))
				_ = cmd.Process.Signal(syscall.SIGKILL)
				_ = cmd.Wait()
				path := c.out(base)
				if path == "" {
					none++ // killed before the cache had an entry
					continue
				}
				got, err := os.ReadFile(path)
				if os.IsNotExist(err) {
					none++
					continue
				}
				whole++
				require.NoError(t, err)
				require.True(t, bytes.Equal(want, got), "%s killed at a random moment left %s (%d bytes) that differs from a finished run's (%d bytes)",
					c.name, path, len(got), len(want))
			}
		})
	}
}

// processTestInput skips a test that starts processes in -short mode, else
// returns a temporary directory and in it an edge list generated from spec.
func processTestInput(t *testing.T, spec string) (dir, in string) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts processes: skipped in -short")
	}
	dir = t.TempDir()
	in = filepath.Join(dir, "in.el")
	code, _, stderr := runCLI(t, "gen", spec, "-o", in)
	require.Zero(t, code, stderr)
	return dir, in
}

// cli returns the command that runs mgraph with args in a new process.
func cli(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), cliEnv+"="+strings.Join(args, cliSep))
	return cmd
}

// cacheEntry returns the last layout file a cache directory holds, or "".
func cacheEntry(dir string) string {
	if e := cacheEntries(dir); len(e) > 0 {
		return e[len(e)-1]
	}
	return ""
}

// cacheEntries returns the layout files a cache directory holds.
func cacheEntries(dir string) []string {
	var found []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".mgl") {
			found = append(found, p)
		}
		return nil
	})
	return found
}

// TestConcurrentCacheWrites: processes building the same layout into one
// cache at once all succeed and leave one entry, byte for byte a lone
// run's.
func TestConcurrentCacheWrites(t *testing.T) {
	dir, in := processTestInput(t, "rmat:15:8")
	args := func(cache string) []string {
		return []string{"preprocess", "--preprocess-on", "cpu", "--cache-dir", cache, in}
	}
	lone := filepath.Join(dir, "lone")
	out, err := cli(args(lone)...).CombinedOutput()
	require.NoError(t, err, string(out))
	want, err := os.ReadFile(cacheEntry(lone))
	require.NoError(t, err)

	shared := filepath.Join(dir, "shared")
	const procs = 4
	cmds := make([]*exec.Cmd, procs)
	outs := make([]bytes.Buffer, procs)
	for i := range cmds {
		cmds[i] = cli(args(shared)...)
		cmds[i].Stdout, cmds[i].Stderr = &outs[i], &outs[i]
		require.NoError(t, cmds[i].Start())
	}
	for i, c := range cmds {
		require.NoError(t, c.Wait(), "process %d: %s", i, outs[i].String())
	}
	entries := cacheEntries(shared)
	require.Len(t, entries, 1)
	got, err := os.ReadFile(entries[0])
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, got), "the shared cache's entry differs from a lone run's")
}

// TestInterruptStopsRun: SIGINT stops a run between iterations: the
// process exits with status 130 and says it was interrupted, promptly.
func TestInterruptStopsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes: skipped in -short")
	}
	cmd := cli("run", "bfs", "rmat:16:16", "--undirected", "--backend", "cpu", "--trials", "1000000")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	// Wait for the trials to run.
	sc := bufio.NewScanner(stdout)
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "trial 3/") {
	}
	go func() { // keep the pipe drained
		for sc.Scan() {
		}
	}()
	sent := time.Now()
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	err = cmd.Wait()
	took := time.Since(sent)
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, stderr.String())
	require.Equal(t, exitInterrupted, exit.ExitCode(), stderr.String())
	require.Contains(t, stderr.String(), "interrupted")
	t.Logf("exited %v after SIGINT", took)
	require.Less(t, took, time.Second, "a run must stop within an iteration or so of SIGINT")
}

// TestWriteFailureLeavesNoFile: when the disk refuses a write halfway
// (the file size limit stands in for a full disk), convert and preprocess
// fail with an error naming the output and leave nothing under its name,
// not even their temporary file.
func TestWriteFailureLeavesNoFile(t *testing.T) {
	dir, in := processTestInput(t, "rmat:14:8")
	outDir := filepath.Join(dir, "out")
	require.NoError(t, os.MkdirAll(outDir, 0o755))
	for _, c := range []struct{ name, out string }{{"convert", "g.mgb"}, {"convert", "g.wel"}, {"preprocess", "g.mgl"}} {
		out := filepath.Join(outDir, c.out)
		args := []string{c.name, in, out}
		if c.name == "preprocess" {
			args = []string{c.name, "--preprocess-on", "cpu", in, "-o", out}
		}
		cmd := cli(args...)
		cmd.Env = append(cmd.Env, fsizeEnv+"=65536")
		msg, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, "%s %s: %s", c.name, c.out, msg)
		require.Equal(t, 1, exit.ExitCode(), string(msg))
		require.Contains(t, string(msg), c.out, "the error names the output")
		left, _ := os.ReadDir(outDir)
		require.Empty(t, left, "%s %s left files behind: %s", c.name, c.out, msg)
	}
}
