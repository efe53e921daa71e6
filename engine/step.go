package engine

import (
	"context"
	"fmt"
	"time"
)

// Mode selects how iterations run.
type Mode uint8

const (
	// Hybrid samples both engines' costs and picks the cheaper one for each
	// iteration (MultiGraph §6).
	Hybrid Mode = iota
	// Dense forces MultiGraphD for every iteration.
	Dense
	// Sparse forces MultiGraphS for every iteration.
	Sparse
)

// String names the mode as the CLI spells it.
func (m Mode) String() string {
	switch m {
	case Dense:
		return "dense"
	case Sparse:
		return "sparse"
	}
	return "hybrid"
}

// ParseMode reads "hybrid", "dense" or "sparse".
func ParseMode(s string) (Mode, error) {
	switch s {
	case "hybrid":
		return Hybrid, nil
	case "dense":
		return Dense, nil
	case "sparse":
		return Sparse, nil
	}
	return Hybrid, fmt.Errorf("unknown mode %q (want hybrid, dense or sparse)", s)
}

// Phase is the time one phase of an iteration took.
type Phase struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
}

// DenseStepper runs MultiGraphD iterations.
type DenseStepper[V Value] interface {
	// Step runs one iteration: every source u with active[u] != 0
	// contributes along its arcs (inactive sources are masked), every vertex
	// is then applied, and next[v] is set to 1 for the vertices Apply made
	// active and 0 for the others. It returns the number of active vertices
	// in next and the time of each phase.
	Step(ctx context.Context, p Program[V], values []V, active, next []uint8) (uint64, []Phase, error)
	// Estimate returns the expected time of one full Step (EDP), measured by
	// running the dense path on a sample of the work without changing
	// values or any state a later Step reads.
	Estimate(ctx context.Context, p Program[V], values []V) (time.Duration, error)
}

// SparseStepper runs MultiGraphS iterations.
type SparseStepper[V Value] interface {
	// Step runs one iteration from the frontier list (distinct vertices):
	// their arcs contribute, the vertices that received a contribution (every
	// vertex when p.ApplyAll) are applied, and the ones Apply made active are
	// returned as the next frontier, without duplicates.
	Step(ctx context.Context, p Program[V], values []V, frontier []uint32) ([]uint32, []Phase, error)
	// Estimate returns the time the traversal of sample takes (a dry run that
	// writes only scratch memory, never values or a later Step's state).
	Estimate(ctx context.Context, p Program[V], values []V, sample []uint32) (time.Duration, error)
}

// IterationTrace records one iteration for --trace.
type IterationTrace struct {
	Iteration        int     `json:"iteration"`
	Mode             string  `json:"mode"`
	FrontierVertices uint64  `json:"frontier_vertices"`
	FrontierEdges    uint64  `json:"frontier_edges"`
	EDPSeconds       float64 `json:"edp_seconds,omitempty"` // dense estimate (hybrid)
	ESPSeconds       float64 `json:"esp_seconds,omitempty"` // sparse estimate (hybrid)
	SampleSeconds    float64 `json:"sample_seconds,omitempty"`
	Switched         bool    `json:"switched,omitempty"`
	Phases           []Phase `json:"phases"`
	Seconds          float64 `json:"seconds"`
}

// Result summarises one run of a program.
type Result struct {
	Iterations int              `json:"iterations"`
	Switches   int              `json:"switches"`
	Edges      uint64           `json:"edges"` // arcs traversed (frontier edges summed)
	Seconds    float64          `json:"seconds"`
	Trace      []IterationTrace `json:"trace,omitempty"`
}

// Add accumulates another run into r (apps made of several runs, e.g. BC's
// forward and backward passes).
func (r *Result) Add(o Result) {
	r.Iterations += o.Iterations
	r.Switches += o.Switches
	r.Edges += o.Edges
	r.Seconds += o.Seconds
	r.Trace = append(r.Trace, o.Trace...)
}
