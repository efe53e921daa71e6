package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/pflag"
)

func versionCommand() command {
	return command{
		name:    "version",
		summary: "print mgraph's version, commit and build settings",
		flags: func(fs *pflag.FlagSet) func(context.Context, *env, []string) error {
			return func(_ context.Context, e *env, args []string) error {
				if len(args) != 0 {
					return usageError("version takes no arguments")
				}
				fmt.Fprintf(e.stdout, "mgraph %s\n", buildVersion())
				fmt.Fprintf(e.stdout, "go: %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
				fmt.Fprintf(e.stdout, "cuda: %s\n", cudaBuildState())
				return nil
			}
		},
	}
}

// stampedCommit is set at link time by the Makefile (-X main.stampedCommit=…)
// for builds where Go's own VCS stamping is unavailable. It is never written
// at run time.
var stampedCommit string

// buildVersion describes the build from the module and VCS information Go
// stamps into the binary: the commit, and "+dirty" for a modified tree.
func buildVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown build)"
	}
	if stampedCommit != "" {
		return "commit " + stampedCommit
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	v := info.Main.Version
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		v = "commit " + rev
		if dirty {
			v += "+dirty"
		}
	}
	return v
}
