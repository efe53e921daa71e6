package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/format"
)

// External is another program timed on the same graphs as ours, as a whole
// process (start-up and its own file reading included; nothing it prints is
// parsed).
//
// Command is run by /bin/sh -c after its placeholders are replaced:
//
//	{graph}       the graph written as a plain edge list (same as {graph:el})
//	{graph:FMT}   the graph written in format FMT: el, wel, mtx or gr
//	              (wel and gr carry weights; unweighted graphs get the
//	              plan's random weights)
//	{source}      the trial's source vertex, 0-based (the same as ours)
//	{source1}     the same vertex, 1-based (DIMACS tools)
//	{threads}     the plan's thread count (0 = all cores)
//
// Each graph file is written once per graph and numbering, in a temporary
// directory removed at the end of the run.
type External struct {
	Name    string `json:"name"`
	App     string `json:"app"` // the app it is compared with (its MTEPS definition); "" = none
	Command string `json:"command"`
}

// externalFormats are the graph formats a placeholder may ask for.
var externalFormats = []string{"el", "wel", "mtx", "gr"}

var placeholder = regexp.MustCompile(`\{([a-z0-9]+)(?::([a-z]+))?\}`)

// ParseExternal reads a --external value: [APP:]NAME=COMMAND.
func ParseExternal(s string) (External, error) {
	lhs, cmd, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(cmd) == "" {
		return External{}, fmt.Errorf("external %q: want [APP:]NAME='COMMAND {graph} {source}'", s)
	}
	x := External{Name: strings.TrimSpace(lhs), Command: strings.TrimSpace(cmd)}
	if app, name, ok := strings.Cut(x.Name, ":"); ok {
		x.App, x.Name = strings.TrimSpace(app), strings.TrimSpace(name)
	}
	return x, x.check()
}

// check validates the name, app and placeholders.
func (x *External) check() error {
	if x.Name == "" || strings.ContainsAny(x.Name, " \t,/") {
		return fmt.Errorf("external %q: the name must be one word", x.Name)
	}
	if x.App == "pr-data" {
		x.App = "pr-delta"
	}
	if x.App != "" && !slices.Contains(Apps, x.App) {
		return fmt.Errorf("external %s: unknown app %q (want %s)", x.Name, x.App, strings.Join(Apps, ", "))
	}
	if x.Command == "" {
		return fmt.Errorf("external %s: empty command", x.Name)
	}
	for _, m := range placeholder.FindAllStringSubmatch(x.Command, -1) {
		switch m[1] {
		case "graph":
			if m[2] != "" && !slices.Contains(externalFormats, m[2]) {
				return fmt.Errorf("external %s: {graph:%s}: unknown format (want %s)", x.Name, m[2], strings.Join(externalFormats, ", "))
			}
		case "source", "source1", "threads":
			if m[2] != "" {
				return fmt.Errorf("external %s: {%s} takes no format", x.Name, m[1])
			}
		default:
			return fmt.Errorf("external %s: unknown placeholder {%s} (want {graph}, {graph:FMT}, {source}, {source1}, {threads})", x.Name, m[1])
		}
	}
	return nil
}

// formats returns the graph formats the command needs.
func (x *External) formats() []string {
	var out []string
	for _, m := range placeholder.FindAllStringSubmatch(x.Command, -1) {
		if m[1] != "graph" {
			continue
		}
		f := m[2]
		if f == "" {
			f = "el"
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// usesSource reports whether the command takes a source.
func (x *External) usesSource() bool {
	return strings.Contains(x.Command, "{source}") || strings.Contains(x.Command, "{source1}")
}

// expand returns the command with its placeholders replaced.
func (x *External) expand(files map[string]string, src uint32, threads int) string {
	return placeholder.ReplaceAllStringFunc(x.Command, func(s string) string {
		m := placeholder.FindStringSubmatch(s)
		switch m[1] {
		case "graph":
			f := m[2]
			if f == "" {
				f = "el"
			}
			return shellQuote(files[f])
		case "source":
			return strconv.FormatUint(uint64(src), 10)
		case "source1":
			return strconv.FormatUint(uint64(src)+1, 10)
		case "threads":
			return strconv.Itoa(threads)
		}
		return s
	})
}

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// writeGraphFile writes el in format f under dir and returns the path.
func writeGraphFile(ctx context.Context, dir, base, f string, el *graph.EdgeList, threads int) (string, error) {
	fm, err := format.ParseFormat(f)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, base+"."+f)
	if err := format.WriteFile(ctx, path, el, format.WriteOptions{Format: fm, Workers: threads}); err != nil {
		return "", fmt.Errorf("write %s for external tools: %w", path, err)
	}
	return path, nil
}

// runExternal runs one trial of an external command and returns its wall
// time; a failure reports the end of its output.
func runExternal(ctx context.Context, x *External, cmdline string) (float64, error) {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", cmdline)
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Env = os.Environ()
	start := time.Now()
	err := cmd.Run()
	secs := time.Since(start).Seconds()
	if err != nil {
		tail := out.String()
		if len(tail) > 600 {
			tail = "…" + tail[len(tail)-600:]
		}
		return secs, fmt.Errorf("external %s: %s: %v\n%s", x.Name, cmdline, err, strings.TrimSpace(tail))
	}
	return secs, nil
}
