package ops

import "fmt"

// Kind is what a frontier's elements are.
type Kind int

const (
	// Vertices: elements are vertex ids.
	Vertices Kind = iota
	// Arcs: elements are arc ids of a graph (below 2³², see MaxArcFrontier).
	Arcs
)

// MaxArcFrontier bounds the arc ids an arc frontier holds: they are
// 32-bit, like vertex ids.
const MaxArcFrontier = 1<<32 - 1

// Frontier is a set of vertices or arcs on a device, sparse (a list, which
// may repeat elements) or dense (one flag per possible element). Operators
// grow its storage as needed; Len is always known on the host.
type Frontier struct {
	d        Device
	kind     Kind
	universe int // elements possible: vertices or arcs
	dense    bool
	// List holds the sparse elements in [0, Len); Flags one byte per
	// possible element in the dense form (1: in). Operators replace them
	// when they grow; apps read them through Elements.
	List  *Array[uint32]
	Flags *Array[uint8]
	n     int
}

// NewFrontier returns an empty frontier of elements of kind, out of
// universe possible ones (the graph's vertices, or a graph's arcs).
func NewFrontier(d Device, kind Kind, universe int, dense bool) (*Frontier, error) {
	if kind == Arcs && uint64(universe) > MaxArcFrontier {
		return nil, fmt.Errorf("ops: arc frontier over %d arcs (at most %d)", universe, uint64(MaxArcFrontier))
	}
	f := &Frontier{d: d, kind: kind, universe: universe, dense: dense}
	if dense {
		flags, err := NewFilled[uint8](d, universe, 0)
		if err != nil {
			return nil, err
		}
		f.Flags = flags
	}
	return f, nil
}

// Kind is what the elements are.
func (f *Frontier) Kind() Kind { return f.kind }

// Universe is the number of possible elements.
func (f *Frontier) Universe() int { return f.universe }

// Dense reports whether f is a flag per element.
func (f *Frontier) Dense() bool { return f.dense }

// Len is the number of elements (with repeats, for a sparse list).
func (f *Frontier) Len() int { return f.n }

// Empty reports whether f has no element.
func (f *Frontier) Empty() bool { return f.n == 0 }

// SetLen is for devices: it records the number of elements after an
// operator wrote them.
func (f *Frontier) SetLen(n int) { f.n = n }

// Reserve is for devices: it makes the sparse list hold at least n
// elements, keeping none of its contents.
func (f *Frontier) Reserve(n int) error {
	if f.List != nil && f.List.Len() >= n {
		return nil
	}
	if err := f.List.Close(); err != nil {
		return err
	}
	f.List = nil
	c := max(n, 1024)
	if f.universe > 0 {
		c = max(n, min(c, f.universe))
	}
	l, err := NewArray[uint32](f.d, c)
	if err != nil {
		return fmt.Errorf("frontier of %d elements: %w", n, err)
	}
	f.List = l
	return nil
}

// Set makes f the given elements (a sparse frontier; a dense one gets
// their flags).
func (f *Frontier) Set(elems []uint32) error {
	for _, e := range elems {
		if int(e) >= f.universe {
			return fmt.Errorf("ops: frontier element %d is not below %d", e, f.universe)
		}
	}
	dense := f.dense
	f.dense = false
	f.n = 0
	if err := f.Reserve(len(elems)); err != nil {
		return err
	}
	if err := f.List.CopyIn(elems); err != nil {
		return err
	}
	f.n = len(elems)
	if dense {
		return f.d.Convert(f, true)
	}
	return nil
}

// Elements returns f's elements on the host, in order for a sparse
// frontier and increasing for a dense one.
func (f *Frontier) Elements() ([]uint32, error) {
	if f.dense {
		flags, err := f.Flags.Get()
		if err != nil {
			return nil, err
		}
		out := make([]uint32, 0, f.n)
		for i, x := range flags {
			if x != 0 {
				out = append(out, uint32(i))
			}
		}
		return out, nil
	}
	out := make([]uint32, f.n)
	if f.n == 0 {
		return out, nil
	}
	return out, f.List.CopyOut(out)
}

// SetDense is for devices converting f: it records the form now valid.
func (f *Frontier) SetDense(dense bool) { f.dense = dense }

// Swap exchanges the contents of f and g (the next iteration's input
// becomes this one's output).
func (f *Frontier) Swap(g *Frontier) { *f, *g = *g, *f }

// Close frees f's storage.
func (f *Frontier) Close() error {
	if f == nil {
		return nil
	}
	err := closeAll(f.List, f.Flags)
	f.List, f.Flags, f.n = nil, nil, 0
	return err
}
