package main

import (
	"context"
	"fmt"
	"time"

	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/internal/progress"
	"github.com/spf13/pflag"
)

func genCommand() command {
	return command{
		name:    "gen",
		summary: "generate a graph (R-MAT, Kronecker, uniform, random geometric, grid)",
		usage:   "[flags] SPEC -o OUTPUT",
		help: `SPEC names a generator and its size:
  rmat:SCALE[:EF]         R-MAT, 2^SCALE vertices, EF·2^SCALE arcs (Graph500 a,b,c = .57,.19,.19), directed
  kron:SCALE[:EF]         Graph500 Kronecker: R-MAT with scrambled ids, undirected
  uniform:N:ARCS          uniform random (Erdős–Rényi style) arcs, directed
  rgg:SCALE | rgg:n=N     random geometric graph in the unit square, radius 0.55·sqrt(ln n / n)
  grid:SIDE[:FRAC]        SIDE×SIDE 2D grid with a fraction FRAC of edges removed (default 0.1)
  grid:RxC[:FRAC]         R×C grid
The output format follows OUTPUT's extension (.mtx .el .wel .gr .mgb, with .gz or .zst).

Examples:
  mgraph gen rmat:20:16 --symmetrize --dedupe --drop-self-loops -o rmat20.mgb
  mgraph gen grid:2048:0.1 --weights 7 -o grid2048.wel.zst
  mgraph gen grid:2048:0.1 --weights 7 --weight-type float32 -o grid2048f.mtx
  mgraph gen rgg:20 --seed 3 -o rgg20.mtx`,
		flags: func(fs *pflag.FlagSet) func(context.Context, *env, []string) error {
			var out, outFormat string
			var seed uint64
			var threads int
			var tf transformFlags
			fs.StringVarP(&out, "output", "o", "", "output file (required)")
			fs.StringVar(&outFormat, "out-format", "auto", "output format: auto (by extension), mtx, el, wel, gr, mgb, sg, wsg (GAPBS)")
			fs.Uint64Var(&seed, "seed", 1, "random seed; the same seed gives the same graph on any core count")
			fs.IntVar(&threads, "threads", 0, "worker goroutines (0 = all cores)")
			fs.StringVar(&tf.weightType, "weight-type", "uint32", "the type of --weights' random weights: uint32 (integers in [--weight-min, --weight-max]) or float32 (floats in (0, 1])")
			tf.register(fs)
			return func(ctx context.Context, e *env, args []string) error {
				if len(args) != 1 {
					return usageError("gen takes one SPEC, got %d arguments", len(args))
				}
				if out == "" {
					return usageError("name the output file with -o")
				}
				if threads < 0 {
					return usageError("--threads must be ≥ 0, got %d", threads)
				}
				spec, err := gen.ParseSpec(args[0])
				if err != nil {
					return usageError("%v", err)
				}
				start := time.Now()
				m := progress.New(e.stderr, "generating "+spec.String(), 0, "arcs")
				el, err := spec.Generate(ctx, seed, threads, m)
				m.Done()
				if err != nil {
					return fmt.Errorf("generate %s: %w", spec, err)
				}
				fmt.Fprintf(e.stderr, "generated %s: %d vertices, %d arcs in %.2fs\n",
					spec, el.NumVertices, el.NumArcs(), time.Since(start).Seconds())
				if err := tf.apply(e, el, threads); err != nil {
					return err
				}
				return writeGraph(ctx, e, out, outFormat, el, threads)
			}
		},
	}
}
