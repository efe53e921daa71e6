package ops

import "fmt"

// MaxArrays and MaxScalars bound what a functor is given: its arrays and
// its scalars (kernels/mgraph.h's MG_OP_ARRAYS and MG_OP_SCALARS).
const (
	MaxArrays  = 8
	MaxScalars = 4
)

// Functor is an app's per-element code: the id of its CUDA struct in the
// kernels library (MG_FN_*, kernels/functors.cuh) and its Go twin, with
// the data both see — arrays (by position, a[i] in CUDA) and scalars
// (u[i] as integers, f[i] as floats). An operator calls the method it
// needs; the Go twin implements the interfaces below for those it is
// given to.
type Functor struct {
	Name   string    // for errors and traces
	ID     int       // MG_FN_* of the CUDA struct
	Arrays []Mem     // at most MaxArrays
	Ints   []uint64  // at most MaxScalars
	Floats []float64 // at most MaxScalars
	CPU    any       // the Go twin, made for a CPU device
}

// Check returns why f cannot be given to an operator.
func (f *Functor) Check() error {
	if f == nil {
		return fmt.Errorf("ops: nil functor")
	}
	if len(f.Arrays) > MaxArrays || len(f.Ints) > MaxScalars || len(f.Floats) > MaxScalars {
		return fmt.Errorf("ops: functor %s has %d arrays, %d ints and %d floats (at most %d, %d, %d)",
			f.Name, len(f.Arrays), len(f.Ints), len(f.Floats), MaxArrays, MaxScalars, MaxScalars)
	}
	return nil
}

// EdgeFunc is the Go twin of a functor's edge method (advance, FilterArcs):
// arc id arc of the graph goes from src to dst with weight w (0 when the
// graph is unweighted); it returns whether the arc produces output. It is
// called concurrently.
type EdgeFunc interface {
	Edge(src, dst uint32, arc uint64, w uint32) bool
}

// VertexFunc is the Go twin of a functor's vertex method (filter, compute).
type VertexFunc interface {
	Vertex(v uint32) bool
}

// MeasureFunc is the Go twin of a functor's measure method (Sum).
type MeasureFunc interface {
	Measure(v uint32) float64
}

// ReduceFunc is the Go twin of a functor's value and reduced methods
// (Reduce): Value is arc's contribution to row v (u its other end), Reduced
// gets the reduction of row v.
type ReduceFunc interface {
	Value(v, u uint32, arc uint64, w uint32) float64
	Reduced(v uint32, acc float64)
}

// CommonFunc is the Go twin of a functor's common method (Intersect): rows
// u and v of the graph share count vertices.
type CommonFunc interface {
	Common(u, v uint32, arc uint64, count uint32)
}

// twin returns f's Go twin as a T, or an error naming the method missing.
func twin[T any](f *Functor, method string) (T, error) {
	var zero T
	if err := f.Check(); err != nil {
		return zero, err
	}
	t, ok := f.CPU.(T)
	if !ok {
		return zero, fmt.Errorf("ops: functor %s has no Go %s method (its CPU twin is %T)", f.Name, method, f.CPU)
	}
	return t, nil
}

// Twin returns f's Go twin as a T (for CPU devices outside this package).
func Twin[T any](f *Functor, method string) (T, error) { return twin[T](f, method) }
