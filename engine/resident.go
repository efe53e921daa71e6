package engine

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// Init is how a min program's run starts, in the layout's numbering: every
// vertex's value is Fill, or with Identity its own layout id; with
// HasSource, Source's value is SourceValue and Source alone is active,
// otherwise every vertex is.
type Init struct {
	Fill        uint32
	Identity    bool
	HasSource   bool
	Source      uint32 // a layout id
	SourceValue uint32
}

// Values returns the initial values and frontier that init describes for a
// graph of n vertices, made on the host in parallel (workers goroutines).
func (init Init) Values(n uint64, workers int) ([]uint32, *Frontier, error) {
	return init.ValuesInto(make([]uint32, n), workers)
}

// ValuesInto is Values writing into values (one entry per vertex, any
// contents before), which it returns: a caller that runs again reuses the
// slice instead of allocating and first-touching a new one.
func (init Init) ValuesInto(values []uint32, workers int) ([]uint32, *Frontier, error) {
	n := uint64(len(values))
	if init.HasSource && uint64(init.Source) >= n {
		return nil, nil, fmt.Errorf("init: source %d of a graph of %d vertices", init.Source, n)
	}
	par.For(int(n), workers, 1<<15, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			if init.Identity {
				values[v] = uint32(v)
			} else {
				values[v] = init.Fill
			}
		}
	})
	if !init.HasSource {
		return values, AllActive(n), nil
	}
	values[init.Source] = init.SourceValue
	return values, NewFrontierList(n, []uint32{init.Source}), nil
}

// Output says how a run's values become its result, which is always in the
// original numbering (layout.Perm maps an original id to its layout id).
type Output uint8

const (
	// OutputValues: result[old] = values[Perm[old]].
	OutputValues Output = iota
	// OutputComponents: the values are labels that name components (CC);
	// result[old] is the smallest original id whose vertex has the same
	// label as old's.
	OutputComponents
)

// ComponentsBackend is implemented by backends that find connected
// components by hooking and compressing (Afforest) rather than by
// propagating labels: the result is every vertex's component named by its
// smallest original id, as OutputComponents gives it. The layout must be
// undirected. The result may be a buffer the backend reuses, as RunMin's.
type ComponentsBackend interface {
	Backend
	Components(ctx context.Context, opts RunOptions) ([]uint32, Result, error)
}

// Scratch keeps work buffers between a backend's runs, by name, so that an
// app or a backend method that runs again (the next trial) reuses them
// instead of allocating new ones: a fresh n-sized buffer costs a serial
// pass (Go zeroes recycled heap memory on the allocating goroutine) or page
// faults at its first touch, neither of which shrinks with the cores, and
// on many cores costs more than the parallel passes over it. The zero
// value is ready, and a nil
// *Scratch keeps nothing (Take returns nil, Put drops). It is safe for
// concurrent use: Take removes what it returns, so a buffer is held by one
// run at a time, and a concurrent run that finds none makes its own.
type Scratch struct {
	mu   sync.Mutex
	kept map[string]any
}

// Take removes the buffer kept under name and returns it (nil if none).
func (s *Scratch) Take(name string) any {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	x := s.kept[name]
	delete(s.kept, name)
	return x
}

// Put keeps x under name for a later Take, replacing what was kept there.
func (s *Scratch) Put(name string, x any) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kept == nil {
		s.kept = make(map[string]any)
	}
	s.kept[name] = x
}

// ScratchBackend is a backend that keeps work buffers between runs for the
// apps (the CPU's): an app takes its buffers from Scratch and puts them
// back when done.
type ScratchBackend interface {
	Backend
	Scratch() *Scratch
}

// ScratchOf returns b's Scratch, or nil when b keeps none.
func ScratchOf(b Backend) *Scratch {
	if sb, ok := b.(ScratchBackend); ok {
		return sb.Scratch()
	}
	return nil
}

// Sized returns s when it has n elements, otherwise a new slice of n: a
// kept buffer resized for the graph at hand (its contents are arbitrary).
func Sized[T any](s []T, n int) []T {
	if len(s) == n && s != nil { // never nil: an empty graph's result is an empty slice, as the other backends give
		return s
	}
	return make([]T, n)
}

// TreeBackend is a backend that gives BFS's tree: BFSParents runs BFS
// program p from init (one source) as RunMin does and returns every
// vertex's parent in the original numbering (the source's is itself, an
// unreached vertex's the identity 2^32-1): of the in-neighbours one level
// up, the first in the layout's order (the smallest layout id), so both
// backends give the same tree. The parents' pass is timed with the
// result's mapping and copy (Result.CopySeconds). The result may be a buffer the backend reuses, as
// RunMin's.
type TreeBackend interface {
	Backend
	BFSParents(ctx context.Context, p Program[uint32], init Init, opts RunOptions) ([]uint32, Result, error)
}

// PageRankParams are PageRank's parameters (see apps.PageRankOptions).
type PageRankParams struct {
	Damping       float64
	Tolerance     float64
	MaxIterations int
}

// PageRankBackend is implemented by backends that run PageRank whole on
// their device, from the initial ranks to the result in the original
// numbering: PageRank topology-driven (every vertex every iteration, to
// the tolerance or the cap), PageRankDelta data-driven (residual pushing,
// then normalised to sum 1), with apps.PageRank's and apps.PageRankDelta's
// definitions. The result may be a buffer the backend reuses: it stays
// valid until the backend's next run that returns float64 values.
type PageRankBackend interface {
	Backend
	PageRank(ctx context.Context, p PageRankParams, opts RunOptions) ([]float64, Result, error)
	PageRankDelta(ctx context.Context, p PageRankParams, opts RunOptions) ([]float64, Result, error)
}

// PersonalPageRankBackend is implemented by backends that can run
// personalised PageRank whole on their device (apps.PersonalizedPageRank's
// definition: the ranks start at the teleport vector, weight 1/k on each
// of the k distinct sources, given in the layout's numbering; an
// iteration makes r(v) = ((1−d) + d·D)·p(v) + d·Σ shares of v's
// in-neighbours; the stopping rule and the result as PageRank's).
// PersonalizedPageRank returns ok false, and nothing else, when it does
// not run this way (the operators then run the app).
type PersonalPageRankBackend interface {
	Backend
	PersonalizedPageRank(ctx context.Context, sources []uint32, p PageRankParams, opts RunOptions) (ranks []float64, res Result, ok bool, err error)
}

// PageRankPuller is implemented by backends that can run topology-driven
// PageRank (apps.PageRank's definition) as one pull over their in-arcs per
// iteration, where that pays: PullPageRank returns ok false, and nothing
// else, when it does not run this graph or mode that way (the engines
// then run the program).
type PageRankPuller interface {
	Backend
	PullPageRank(ctx context.Context, p PageRankParams, opts RunOptions) (ranks []float64, res Result, ok bool, err error)
}

// ToOriginal returns values (layout numbering) in the original numbering,
// mapped in parallel (workers goroutines) into a new slice.
func ToOriginal[V any](l *layout.Layout, values []V, workers int) []V {
	return ToOriginalInto(l, values, make([]V, len(values)), workers)
}

// ToOriginalInto is ToOriginal writing into out (one entry per vertex, any
// contents before), which it returns: a caller that maps a result on every
// run reuses out instead of allocating and first-touching a new slice.
func ToOriginalInto[V any](l *layout.Layout, values, out []V, workers int) []V {
	perm := l.Perm[:len(out)]
	par.For(len(out), workers, 1<<15, func(lo, hi int) {
		for old, v := range perm[lo:hi] {
			out[lo+old] = values[v]
		}
	})
	return out
}

// ComponentsToOriginal returns, for labels that name components (layout
// numbering; every label a vertex id < n), each vertex's component named
// by its smallest original id, in the original numbering (OutputComponents),
// computed in parallel into new slices.
func ComponentsToOriginal(l *layout.Layout, label []uint32, workers int) []uint32 {
	return ComponentsToOriginalInto(l, label, make([]uint32, len(label)), make([]uint32, len(label)), workers)
}

// ComponentsToOriginalInto is ComponentsToOriginal with its work array
// smallest and its result out given (one entry per vertex each, any
// contents before; out is returned): a caller that maps components on
// every run reuses both instead of allocating and first-touching them.
func ComponentsToOriginalInto(l *layout.Layout, label, smallest, out []uint32, workers int) []uint32 {
	n := len(label)
	smallest, out = smallest[:n], out[:n]
	par.For(n, workers, 1<<15, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			smallest[i] = math.MaxUint32
		}
	})
	par.For(n, workers, 1<<15, func(lo, hi int) {
		componentMinima(smallest, label[lo:hi], l.InvPerm[lo:hi])
	})
	par.For(n, workers, 1<<15, func(lo, hi int) {
		for old, v := range l.Perm[lo:hi] {
			out[lo+old] = smallest[label[v]]
		}
	})
	return out
}

// minCacheSize is the number of entries of componentMinima's cache.
const minCacheSize = 64

// componentMinima lowers smallest[label[i]] to id[i] for every i, with
// atomics. Running minima wait in a small direct-mapped cache keyed by label
// until evicted, so a large component's entry is updated once per eviction,
// not once per vertex: on many cores, that one cache line bouncing between
// them dominated CC's relabelling.
func componentMinima(smallest, label, id []uint32) {
	var keys, mins [minCacheSize]uint32
	for i := range keys {
		keys[i] = math.MaxUint32 // no label is MaxUint32: labels are vertex ids < n
	}
	for i, c := range label {
		k := c % minCacheSize
		if keys[k] == c {
			mins[k] = min(mins[k], id[i])
			continue
		}
		if keys[k] != math.MaxUint32 {
			AtomicMin(&smallest[keys[k]], mins[k])
		}
		keys[k], mins[k] = c, id[i]
	}
	for k, c := range keys {
		if c != math.MaxUint32 {
			AtomicMin(&smallest[c], mins[k])
		}
	}
}

// AtomicMin lowers *p to x if x is smaller.
func AtomicMin(p *uint32, x uint32) {
	for {
		old := atomic.LoadUint32(p)
		if x >= old || atomic.CompareAndSwapUint32(p, old, x) {
			return
		}
	}
}
