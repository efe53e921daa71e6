package apps

import (
	"context"
	"fmt"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/ops"
)

// OpsOptions control the apps written with the operators (package ops).
type OpsOptions struct {
	// Strategy is the advance's load balancing (ops.Auto: Gunrock's rule).
	Strategy ops.Strategy
	// Trace records an engine.IterationTrace per operator call.
	Trace bool
	// MaxIterations caps the iterations of iterative apps (0: their own
	// default or until they converge).
	MaxIterations int
	// NoPull keeps BFS's advances pushing (no direction optimisation).
	NoPull bool
}

// enactor is what an operator app holds while it runs (Gunrock's enactor):
// the device, the options and the result it accumulates.
type enactor struct {
	ctx   context.Context
	d     ops.Device
	l     *layout.Layout
	o     OpsOptions
	res   engine.Result
	start time.Time
	app   string
}

// newEnactor opens b's operator device for app.
func newEnactor(ctx context.Context, app string, b engine.Backend, o OpsOptions) (*enactor, error) {
	d, err := ops.Open(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", app, err)
	}
	return &enactor{ctx: ctx, d: d, l: b.Layout(), o: o, start: time.Now(), app: app}, nil
}

// needUndirected refuses a directed graph for the apps on undirected ones.
func (e *enactor) needUndirected() error {
	if e.l.Directed {
		return fmt.Errorf("%s needs an undirected graph: read the input with --undirected (or symmetrize it)", e.app)
	}
	return nil
}

// record adds one operator call to the trace.
func (e *enactor) record(op string, frontier int, arcs uint64, t0 time.Time) {
	e.res.Edges += arcs
	if !e.o.Trace {
		return
	}
	e.res.Trace = append(e.res.Trace, engine.IterationTrace{Iteration: e.res.Iterations, Mode: op,
		FrontierVertices: uint64(frontier), FrontierEdges: arcs, Seconds: time.Since(t0).Seconds()})
}

// advance runs an advance and records it ("advance:<strategy>").
func (e *enactor) advance(g *ops.Graph, f *ops.Functor, in, out *ops.Frontier, o ops.AdvanceOptions) error {
	t0 := time.Now()
	if o.Strategy == ops.Auto {
		o.Strategy = e.o.Strategy
	}
	st, err := e.d.Advance(e.ctx, g, f, in, out, o)
	if err != nil {
		return fmt.Errorf("%s: %w", e.app, err)
	}
	size := int(g.NumVertices)
	if in != nil {
		size = in.Len()
	}
	how := st.Strategy.String()
	if st.Direction == ops.Pull {
		how = "pull"
	}
	e.record("advance:"+how, size, st.Arcs, t0)
	return nil
}

// filter runs a filter and records it.
func (e *enactor) filter(f *ops.Functor, in, out *ops.Frontier, o ops.FilterOptions) error {
	t0 := time.Now()
	if err := e.d.Filter(e.ctx, f, in, out, o); err != nil {
		return fmt.Errorf("%s: %w", e.app, err)
	}
	e.record("filter:"+f.Name, e.size(in), 0, t0)
	return nil
}

// compute runs a compute and records it.
func (e *enactor) compute(f *ops.Functor, in *ops.Frontier) error {
	t0 := time.Now()
	if err := e.d.Compute(e.ctx, f, in); err != nil {
		return fmt.Errorf("%s: %w", e.app, err)
	}
	e.record("compute:"+f.Name, e.size(in), 0, t0)
	return nil
}

// filterArcs runs an arc filter and records it.
func (e *enactor) filterArcs(g *ops.Graph, f *ops.Functor) (*ops.Graph, error) {
	t0 := time.Now()
	sub, err := e.d.FilterArcs(e.ctx, g, f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.app, err)
	}
	e.record("filter-arcs:"+f.Name, int(g.NumVertices), g.NumArcs, t0)
	return sub, nil
}

// intersect runs a segmented intersection and records it.
func (e *enactor) intersect(g *ops.Graph, f *ops.Functor) (uint64, error) {
	t0 := time.Now()
	total, err := e.d.Intersect(e.ctx, g, f, nil)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", e.app, err)
	}
	e.record("intersect:"+f.Name, int(g.NumArcs), g.NumArcs, t0)
	return total, nil
}

// sum runs a sum.
func (e *enactor) sum(f *ops.Functor, in *ops.Frontier) (float64, error) {
	s, err := e.d.Sum(e.ctx, f, in)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", e.app, err)
	}
	return s, nil
}

// reduce runs a neighbourhood reduction and records it.
func (e *enactor) reduce(g *ops.Graph, f *ops.Functor, in *ops.Frontier, op ops.ReduceOp) error {
	t0 := time.Now()
	if err := e.d.Reduce(e.ctx, g, f, in, op); err != nil {
		return fmt.Errorf("%s: %w", e.app, err)
	}
	e.record("reduce:"+f.Name, e.size(in), g.NumArcs, t0)
	return nil
}

func (e *enactor) size(in *ops.Frontier) int {
	if in == nil {
		return int(e.l.NumVertices)
	}
	return in.Len()
}

// vertices returns a new empty vertex frontier.
func (e *enactor) vertices() (*ops.Frontier, error) {
	return ops.NewFrontier(e.d, ops.Vertices, int(e.l.NumVertices), false)
}

// finish closes the device and what the app allocated, and stamps the
// result's time.
func (e *enactor) finish(closers ...interface{ Close() error }) error {
	var first error
	for _, c := range closers {
		if c != nil {
			if err := c.Close(); err != nil && first == nil {
				first = err
			}
		}
	}
	if err := e.d.Close(); err != nil && first == nil {
		first = err
	}
	e.res.Seconds = time.Since(e.start).Seconds()
	return first
}

// original returns a's per-vertex values in original numbering (mapped on
// the device) in the device's result memory (ops.Array.Result: on a GPU
// the backend's pinned result buffer, valid until its next result of T's
// size, as the MultiGraph engines' results), adding the time to the
// result's CopySeconds. An app returns one such result per element size.
func original[T ops.Elem](e *enactor, a *ops.Array[T]) ([]T, error) {
	t0 := time.Now()
	out, err := a.Result()
	e.res.CopySeconds += time.Since(t0).Seconds()
	return out, err
}

// originalCopy is original into new Go memory, for an app that returns
// two results of one element size.
func originalCopy[T ops.Elem](e *enactor, a *ops.Array[T]) ([]T, error) {
	t0 := time.Now()
	out, err := a.Original()
	e.res.CopySeconds += time.Since(t0).Seconds()
	return out, err
}

// toOriginal maps values in layout numbering to the original one.
func toOriginal[T any](l *layout.Layout, x []T) []T {
	out := make([]T, len(x))
	for v, p := range l.Perm {
		out[v] = x[p]
	}
	return out
}
