package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/format"
	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/internal/progress"
	"github.com/spf13/pflag"
)

// inputFlags are the flags of every command that reads a graph.
type inputFlags struct {
	format     string
	undirected bool
	noWeights  bool
	weightType string // --weight-type: auto, uint32 or float32
	seed       uint64
	threads    int

	// Set by commands, not flags: transforms applied after reading, part of
	// the layout cache key (see variant).
	transpose  bool   // reverse every arc (BC's backward pass on directed graphs)
	addWeights bool   // give an unweighted graph random weights in [1, 64] ...
	weightSeed uint64 // ... from this seed
}

// variant names the reading options and transforms that change the graph,
// for the layout cache key.
func (f *inputFlags) variant() string {
	v := fmt.Sprintf("format=%s undirected=%v ignore-weights=%v transpose=%v",
		f.format, f.undirected, f.noWeights, f.transpose)
	if f.addWeights {
		v += fmt.Sprintf(" weights=%d", f.weightSeed)
	}
	if t := f.weightType; t != "" && t != "auto" {
		v += " weight-type=" + t // absent for auto: the keys of older caches stay valid
	}
	return v
}

// readWeightType parses --weight-type.
func (f *inputFlags) readWeightType() (format.WeightType, error) {
	t, err := format.ParseWeightType(f.weightType)
	if err != nil {
		return t, usageError("--weight-type: %v", err)
	}
	return t, nil
}

// transform applies the variant's transforms to a graph just read.
func (f *inputFlags) transform(el *graph.EdgeList) {
	if f.undirected && el.Directed {
		el.Symmetrize(f.threads)
	}
	if f.transpose {
		el.Transpose()
	}
	if f.addWeights && !el.Weighted() {
		if t, _ := f.readWeightType(); t == format.WeightsFloat32 {
			el.SetRandomFloat32Weights(f.weightSeed, f.threads)
		} else {
			el.SetRandomWeights(f.weightSeed, 1, 64, f.threads)
		}
	}
}

func (f *inputFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.format, "format", "auto", "input format: auto, mtx, el, wel, gr, mgb, sg, wsg (GAPBS)")
	fs.BoolVar(&f.undirected, "undirected", false, "treat the input as undirected and symmetrize it (edge lists listing each edge once, directed files, generator specs)")
	fs.BoolVar(&f.noWeights, "ignore-weights", false, "drop the weights the input carries")
	fs.StringVar(&f.weightType, "weight-type", "auto", "the weights' type: auto (float32 when a weight is not a uint32 integer, such as 0.5 in a Matrix Market real or .wel file, or mgraph wrote the file with float32 weights; uint32 otherwise), uint32 or float32 (an input's weights converted: float32 to uint32 only when all are integers); random weights (--weights) are integers in [1, 64] or, with float32, floats in (0, 1]")
	fs.Uint64Var(&f.seed, "gen-seed", 1, "seed when INPUT is a generator spec (rmat:20, grid:1024, ...)")
	fs.IntVar(&f.threads, "threads", 0, "worker goroutines (0 = all cores)")
}

// loaded is a graph read from a file or made by a generator, with what the
// source said about itself.
type loaded struct {
	el      *graph.EdgeList
	info    *format.Info // nil for generated graphs
	spec    string       // generator spec, when generated
	elapsed time.Duration
}

// loadGraph reads path, or generates a graph when path names no file and
// parses as a generator spec.
func loadGraph(ctx context.Context, e *env, path string, f *inputFlags) (*loaded, error) {
	if f.threads < 0 {
		return nil, usageError("--threads must be ≥ 0, got %d", f.threads)
	}
	wt, err := f.readWeightType()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	st, statErr := os.Stat(path)
	if errors.Is(statErr, fs.ErrNotExist) {
		spec, specErr := gen.ParseSpec(path)
		if specErr != nil {
			return nil, fmt.Errorf("%s: no such file, and not a generator spec (%v)", path, specErr)
		}
		m := progress.New(e.stderr, "generating "+spec.String(), 0, "arcs")
		el, err := spec.Generate(ctx, f.seed, f.threads, m)
		m.Done()
		if err != nil {
			return nil, fmt.Errorf("generate %s: %w", spec, err)
		}
		f.transform(el)
		return &loaded{el: el, spec: spec.String(), elapsed: time.Since(start)}, nil
	}
	if statErr != nil {
		return nil, statErr
	}
	fm, err := format.ParseFormat(f.format)
	if err != nil {
		return nil, usageError("%v", err)
	}
	m := progress.New(e.stderr, "reading "+path, st.Size(), "B")
	el, info, err := format.ReadFile(ctx, path, format.ReadOptions{
		Format: fm, Workers: f.threads, Undirected: f.undirected, IgnoreWeights: f.noWeights, WeightType: wt, Progress: m,
	})
	m.Done()
	if err != nil {
		return nil, err
	}
	f.transform(el)
	return &loaded{el: el, info: info, elapsed: time.Since(start)}, nil
}

// transformFlags are the clean-ups convert and gen apply before writing.
type transformFlags struct {
	symmetrize    bool
	dedupe        bool
	dropSelfLoops bool
	renumber      int64
	weights       int64
	weightMin     uint32
	weightMax     uint32
	// weightType is the type of the random weights (--weights): uint32
	// (also "" and auto) or float32; gen's --weight-type, or convert's
	// input flag.
	weightType string
}

func (t *transformFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&t.symmetrize, "symmetrize", false, "make the graph undirected (add every reverse arc)")
	fs.BoolVar(&t.dedupe, "dedupe", false, "remove duplicate arcs (keeps the smallest weight)")
	fs.BoolVar(&t.dropSelfLoops, "drop-self-loops", false, "remove arcs u→u")
	fs.Int64Var(&t.renumber, "renumber", -1, "relabel vertices by a random permutation from this seed (-1: keep ids)")
	fs.Int64Var(&t.weights, "weights", -1, "give every arc a random weight from this seed: an integer in [--weight-min, --weight-max], or with --weight-type float32 a float in (0, 1] (-1: keep weights)")
	fs.Uint32Var(&t.weightMin, "weight-min", 1, "smallest random integer weight")
	fs.Uint32Var(&t.weightMax, "weight-max", 64, "largest random integer weight")
}

// apply runs the requested transforms in a fixed order and reports each one.
func (t *transformFlags) apply(e *env, el *graph.EdgeList, threads int) error {
	if t.weights >= 0 && t.weightMin > t.weightMax {
		return usageError("--weight-min %d is above --weight-max %d", t.weightMin, t.weightMax)
	}
	wt, err := format.ParseWeightType(t.weightType)
	if err != nil {
		return usageError("--weight-type: %v", err)
	}
	float := wt == format.WeightsFloat32
	if t.weights >= 0 && float && (t.weightMin != 1 || t.weightMax != 64) {
		return usageError("--weight-min and --weight-max bound integer weights; --weight-type float32 draws floats in (0, 1]")
	}
	if t.symmetrize && el.Directed {
		before := el.NumArcs()
		el.Symmetrize(threads)
		fmt.Fprintf(e.stderr, "symmetrized: %d → %d arcs\n", before, el.NumArcs())
	}
	if t.dropSelfLoops {
		fmt.Fprintf(e.stderr, "dropped %d self-loops\n", el.DropSelfLoops())
	}
	if t.dedupe {
		fmt.Fprintf(e.stderr, "removed %d duplicate arcs\n", el.Dedupe(threads))
	}
	if t.renumber >= 0 {
		el.Renumber(uint64(t.renumber), threads)
		fmt.Fprintf(e.stderr, "renumbered vertices (seed %d)\n", t.renumber)
	}
	switch {
	case t.weights >= 0 && float:
		el.SetRandomFloat32Weights(uint64(t.weights), threads)
		fmt.Fprintf(e.stderr, "float32 weights uniform in (0, 1] (seed %d)\n", t.weights)
	case t.weights >= 0:
		el.SetRandomWeights(uint64(t.weights), t.weightMin, t.weightMax, threads)
		fmt.Fprintf(e.stderr, "weights uniform in [%d, %d] (seed %d)\n", t.weightMin, t.weightMax, t.weights)
	case wt != format.WeightsAuto && el.Weighted():
		// The weights read as they were (gen's have none): make them the type asked for.
		k, _ := graph.ParseWeightKind(wt.String())
		if err := el.ConvertWeights(k, threads); err != nil {
			return fmt.Errorf("--weight-type %s: %w", wt, err)
		}
	}
	return nil
}

// writeGraph writes el to path in the format named by outFormat or, for
// "auto", by the path's extension.
func writeGraph(ctx context.Context, e *env, path, outFormat string, el *graph.EdgeList, threads int) error {
	fm, err := format.ParseFormat(outFormat)
	if err != nil {
		return usageError("%v", err)
	}
	if fm == format.Auto {
		if fm, err = format.FormatFromPath(path); err != nil {
			return usageError("%v (name the format with --out-format)", err)
		}
	}
	start := time.Now()
	m := progress.New(e.stderr, "writing "+path, int64(el.NumArcs()), "arcs")
	err = format.WriteFile(ctx, path, el, format.WriteOptions{Format: fm, Workers: threads, Progress: m})
	m.Done()
	if err != nil {
		return err
	}
	size := int64(0)
	if st, err := os.Stat(path); err == nil {
		size = st.Size()
	}
	fmt.Fprintf(e.stdout, "wrote %s: %s, %d vertices, %d arcs, %s in %.2fs\n",
		path, fm, el.NumVertices, el.NumArcs(), progress.Quantity(float64(size), "B"), time.Since(start).Seconds())
	return nil
}
