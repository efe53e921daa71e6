package gen

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/progress"
)

// Spec kinds, the word before the first colon of a spec string.
const (
	KindRMAT    = "rmat"
	KindKron    = "kron"
	KindUniform = "uniform"
	KindRGG     = "rgg"
	KindGrid    = "grid"
)

// Default spec values.
const (
	DefaultEdgeFactor     = 16
	DefaultRemoveFraction = 0.1
)

// Spec names a generated graph without its seed, as written on command lines
// and in benchmark configurations. ParseSpec reads one and String writes it
// back; Generate builds the graph. Only the fields of its Kind are used.
//
//	rmat:SCALE[:EF]       R-MAT, Graph500 probabilities, directed (RMAT)
//	kron:SCALE[:EF]       Graph500 Kronecker, undirected (Kronecker)
//	uniform:N:ARCS        uniform random arcs, directed (Uniform)
//	rgg:SCALE | rgg:n=N   random geometric graph of 2^SCALE or N points (RGG)
//	grid:SIDE[:FRAC]      SIDE×SIDE grid, FRAC of edges removed (Grid)
//	grid:ROWSxCOLS[:FRAC]
//
// EF defaults to 16 and FRAC to 0.1. Counts (N, ARCS, SIDE, ROWS, COLS) are
// decimal integers or powers of two written 2^K.
type Spec struct {
	Kind           string  // one of the Kind constants
	Scale          int     // rmat, kron; rgg when written as rgg:SCALE (else 0)
	EdgeFactor     int     // rmat, kron
	N              uint64  // uniform, rgg: vertex count
	Arcs           uint64  // uniform: arc count
	Rows, Cols     uint64  // grid
	RemoveFraction float64 // grid
}

// ParseSpec parses a graph spec such as "rmat:20", "kron:16:8",
// "uniform:1000:5000", "rgg:18", "rgg:n=100000", "grid:1000" or
// "grid:200x300:0.2"; see Spec for the grammar.
func ParseSpec(s string) (Spec, error) {
	fail := func(format string, args ...any) (Spec, error) {
		return Spec{}, fmt.Errorf("gen: spec %q: %s", s, fmt.Sprintf(format, args...))
	}
	parts := strings.Split(strings.TrimSpace(s), ":")
	kind, args := strings.ToLower(parts[0]), parts[1:]
	nargs := func(lo, hi int, usage string) error {
		if len(args) < lo || len(args) > hi {
			return fmt.Errorf("gen: spec %q: want %s", s, usage)
		}
		return nil
	}
	switch kind {
	case KindRMAT, KindKron:
		usage := kind + ":SCALE[:EDGE_FACTOR]"
		if err := nargs(1, 2, usage); err != nil {
			return Spec{}, err
		}
		sp := Spec{Kind: kind, EdgeFactor: DefaultEdgeFactor}
		var err error
		if sp.Scale, err = parseInt(args[0], 1, 32); err != nil {
			return fail("scale: %v", err)
		}
		if len(args) == 2 {
			if sp.EdgeFactor, err = parseInt(args[1], 1, MaxArcs); err != nil {
				return fail("edge factor: %v", err)
			}
		}
		if err := sp.rmatParams(1).check(); err != nil {
			return fail("%v", err)
		}
		if kind == KindKron && 2*sp.rmatParams(1).NumArcs() > MaxArcs {
			return fail("scale %d with edge factor %d gives %d arcs once symmetrized; at most %d (2^36) are supported",
				sp.Scale, sp.EdgeFactor, 2*sp.rmatParams(1).NumArcs(), uint64(MaxArcs))
		}
		return sp, nil
	case KindUniform:
		if err := nargs(2, 2, "uniform:N:ARCS"); err != nil {
			return Spec{}, err
		}
		sp := Spec{Kind: kind}
		var err error
		if sp.N, err = parseCount(args[0], 1, graph.MaxVertices); err != nil {
			return fail("vertex count: %v", err)
		}
		if sp.Arcs, err = parseCount(args[1], 0, MaxArcs); err != nil {
			return fail("arc count: %v", err)
		}
		return sp, nil
	case KindRGG:
		if err := nargs(1, 1, "rgg:SCALE or rgg:n=N"); err != nil {
			return Spec{}, err
		}
		sp := Spec{Kind: kind}
		if v, ok := strings.CutPrefix(args[0], "n="); ok {
			n, err := parseCount(v, 1, MaxRGGPoints)
			if err != nil {
				return fail("point count: %v", err)
			}
			sp.N = n
			return sp, nil
		}
		scale, err := parseInt(args[0], 1, 31)
		if err != nil {
			return fail("scale: %v (or write rgg:n=N)", err)
		}
		sp.Scale, sp.N = scale, 1<<uint(scale)
		return sp, nil
	case KindGrid:
		if err := nargs(1, 2, "grid:SIDE[:REMOVE_FRACTION] or grid:ROWSxCOLS[:REMOVE_FRACTION]"); err != nil {
			return Spec{}, err
		}
		sp := Spec{Kind: kind, RemoveFraction: DefaultRemoveFraction}
		var err error
		if r, c, ok := strings.Cut(strings.ToLower(args[0]), "x"); ok {
			if sp.Rows, err = parseCount(r, 1, graph.MaxVertices); err != nil {
				return fail("rows: %v", err)
			}
			if sp.Cols, err = parseCount(c, 1, graph.MaxVertices); err != nil {
				return fail("columns: %v", err)
			}
		} else {
			if sp.Rows, err = parseCount(args[0], 1, 1<<16); err != nil {
				return fail("side: %v", err)
			}
			sp.Cols = sp.Rows
		}
		if sp.Rows*sp.Cols > graph.MaxVertices { // both <= 2^32: no overflow past 2^64
			return fail("%d×%d grid has more than %d vertices", sp.Rows, sp.Cols, uint64(graph.MaxVertices))
		}
		if len(args) == 2 {
			f, err := strconv.ParseFloat(args[1], 64)
			if err != nil || math.IsNaN(f) || f < 0 || f > 1 {
				return fail("remove fraction %q is not a number in [0, 1]", args[1])
			}
			sp.RemoveFraction = f
		}
		return sp, nil
	case "":
		return fail("empty spec; want rmat:, kron:, uniform:, rgg: or grid:")
	default:
		return fail("unknown kind %q; want rmat, kron, uniform, rgg or grid", parts[0])
	}
}

// parseInt parses a decimal int within [lo, hi].
func parseInt(s string, lo, hi int) (int, error) {
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not an integer", s)
	}
	if v < lo || v > hi {
		return 0, fmt.Errorf("%d out of range %d..%d", v, lo, hi)
	}
	return v, nil
}

// parseCount parses a decimal count or a power of two written 2^K, within
// [lo, hi].
func parseCount(s string, lo, hi uint64) (uint64, error) {
	var v uint64
	if k, ok := strings.CutPrefix(s, "2^"); ok {
		e, err := strconv.ParseUint(k, 10, 8)
		if err != nil || e > 63 {
			return 0, fmt.Errorf("%q is not a power of two 2^K with K at most 63", s)
		}
		v = 1 << e
	} else {
		var err error
		if v, err = strconv.ParseUint(s, 10, 64); err != nil {
			return 0, fmt.Errorf("%q is not a non-negative integer", s)
		}
	}
	if v < lo || v > hi {
		return 0, fmt.Errorf("%d out of range %d..%d", v, lo, hi)
	}
	return v, nil
}

// rmatParams returns the Graph500 R-MAT parameters of an rmat or kron spec.
func (s Spec) rmatParams(seed uint64) RMATParams {
	p := DefaultRMAT(s.Scale, s.EdgeFactor)
	p.Seed = seed
	return p
}

// NumVertices returns the vertex count of the graph the spec describes (0
// for an unknown kind).
func (s Spec) NumVertices() uint64 {
	switch s.Kind {
	case KindRMAT, KindKron:
		if s.Scale < 0 || s.Scale > 63 {
			return 0
		}
		return 1 << uint(s.Scale)
	case KindUniform, KindRGG:
		return s.N
	case KindGrid:
		return s.Rows * s.Cols
	}
	return 0
}

// Generate builds the graph the spec describes from seed; see the
// generator of each kind for the result's form.
func (s Spec) Generate(ctx context.Context, seed uint64, workers int, m *progress.Meter) (*graph.EdgeList, error) {
	switch s.Kind {
	case KindRMAT:
		return RMAT(ctx, s.rmatParams(seed), workers, m)
	case KindKron:
		return Kronecker(ctx, s.rmatParams(seed), workers, m)
	case KindUniform:
		return Uniform(ctx, s.N, s.Arcs, seed, workers, m)
	case KindRGG:
		return RGG(ctx, s.N, 0, seed, workers, m)
	case KindGrid:
		return Grid(ctx, s.Rows, s.Cols, s.RemoveFraction, seed, workers, m)
	}
	return nil, fmt.Errorf("gen: unknown graph kind %q; want rmat, kron, uniform, rgg or grid", s.Kind)
}

// String returns the spec in the syntax ParseSpec reads, with every default
// written out (for example "rmat:20:16", "grid:100x100:0.1"), so that
// ParseSpec(s.String()) == s for a parsed spec.
func (s Spec) String() string {
	switch s.Kind {
	case KindRMAT, KindKron:
		return fmt.Sprintf("%s:%d:%d", s.Kind, s.Scale, s.EdgeFactor)
	case KindUniform:
		return fmt.Sprintf("uniform:%d:%d", s.N, s.Arcs)
	case KindRGG:
		if s.Scale > 0 {
			return fmt.Sprintf("rgg:%d", s.Scale)
		}
		return fmt.Sprintf("rgg:n=%d", s.N)
	case KindGrid:
		return fmt.Sprintf("grid:%dx%d:%s", s.Rows, s.Cols, strconv.FormatFloat(s.RemoveFraction, 'g', -1, 64))
	}
	return s.Kind + ":?"
}
