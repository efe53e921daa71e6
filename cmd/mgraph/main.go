// Command mgraph is the command-line front end of the mgraph graph-analytics
// engine: it generates, converts and describes graphs, preprocesses them
// into layouts, runs and benchmarks graph programs on the CPU or the GPU,
// profiles them and manages the layout cache.
//
// Each subcommand lives in its own file and is listed in commands below.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/pflag"
)

// command is one mgraph subcommand.
type command struct {
	name    string
	summary string // one line for the command list
	usage   string // arguments after the name, e.g. "[flags] INPUT OUTPUT"
	help    string // longer description and examples
	// flags declares the subcommand's flags on fs and returns the function
	// that runs it once fs has been parsed.
	flags func(fs *pflag.FlagSet) func(ctx context.Context, env *env, args []string) error
}

// env is what a subcommand may touch of the outside world.
type env struct {
	stdout io.Writer
	stderr io.Writer
}

// commands lists every subcommand, in the order help shows them.
func commands() []command {
	return []command{
		genCommand(),
		convertCommand(),
		infoCommand(),
		runCommand(),
		benchCommand(),
		reportCommand(),
		preprocessCommand(),
		cacheCommand(),
		versionCommand(),
		devicesCommand(),
		probeCommand(),
		profileCommand(),
	}
}

// errUsage marks errors caused by bad command-line usage (exit status 2).
var errUsage = errors.New("usage")

// exitInterrupted is the exit status of a command stopped by SIGINT (the
// shell's 128 + 2).
const exitInterrupted = 130

func main() { os.Exit(cliMain(os.Args[1:])) }

// cliMain runs the command line args on the process's standard streams,
// cancelled by SIGINT, and returns the exit status.
func cliMain(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return run(ctx, args, &env{stdout: os.Stdout, stderr: os.Stderr})
}

// run executes the command line args and returns the process exit status.
func run(ctx context.Context, args []string, e *env) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) > 1 {
			args = []string{args[1], "--help"}
		} else {
			printCommands(e.stdout)
			return 0
		}
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		fs := pflag.NewFlagSet("mgraph "+c.name, pflag.ContinueOnError)
		fs.SetOutput(e.stderr)
		fs.SortFlags = false
		fs.Usage = func() {
			fmt.Fprintf(e.stderr, "Usage: mgraph %s %s\n\n%s\n\n", c.name, c.usage, c.summary)
			if c.help != "" {
				fmt.Fprintf(e.stderr, "%s\n\n", strings.TrimSpace(c.help))
			}
			fmt.Fprintf(e.stderr, "Flags:\n%s", fs.FlagUsages())
		}
		runFn := c.flags(fs)
		if err := fs.Parse(args[1:]); err != nil {
			if errors.Is(err, pflag.ErrHelp) {
				return 0
			}
			fmt.Fprintf(e.stderr, "mgraph %s: %v\n", c.name, err)
			return 2
		}
		if err := runFn(ctx, e, fs.Args()); err != nil {
			if ctx.Err() != nil && errors.Is(err, context.Canceled) {
				fmt.Fprintf(e.stderr, "mgraph %s: interrupted\n", c.name)
				return exitInterrupted
			}
			fmt.Fprintf(e.stderr, "mgraph %s: %v\n", c.name, err)
			if errors.Is(err, errUsage) {
				fmt.Fprintf(e.stderr, "Run 'mgraph %s --help' for usage.\n", c.name)
				return 2
			}
			return 1
		}
		return 0
	}
	fmt.Fprintf(e.stderr, "mgraph: unknown command %q\n\n", args[0])
	printCommands(e.stderr)
	return 2
}

func printCommands(w io.Writer) {
	fmt.Fprintln(w, "mgraph: graph analytics on GPUs and multi-core CPUs (MultiGraph design)")
	fmt.Fprintln(w, "\nUsage: mgraph COMMAND [flags] [args]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'mgraph COMMAND --help' for a command's flags and examples.")
}

// usageError wraps a message as a usage error.
func usageError(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, a...))
}
