package mgraph

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/gpu"
)

// HostBuffer is result memory for one vertex-indexed result of a Graph
// that its backend can fill directly. On the cuda backend it is
// page-locked (pinned) host memory: Into with its Slice gets the result
// in the one device-to-host copy every run makes, with no copy after it
// (Into into other memory copies the result once more, on all cores). On
// the CPU backend it is ordinary memory. A HostBuffer does not depend on
// the graph staying open; Free it when done. Its memory is outside Go's
// heap (on the cuda backend), so a slice of it must not be used after
// Free.
type HostBuffer[V uint32 | float32 | float64] struct {
	g      *Graph
	pinned *cuda.Pinned[V] // nil on the CPU backend
	s      []V
	once   sync.Once
	err    error
}

// NewHostBuffer returns a buffer for one result of g, NumVertices
// elements of V ([]uint32 for bfs, sssp and cc, []float32 for sssp on a
// graph of float32 weights, []float64 for pr and bc).
func NewHostBuffer[V uint32 | float32 | float64](g *Graph) (*HostBuffer[V], error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.backend == nil {
		return nil, fmt.Errorf("mgraph: a host buffer of a closed graph")
	}
	n := g.NumVertices()
	gb, ok := g.backend.(*gpu.Backend)
	if !ok {
		return &HostBuffer[V]{g: g, s: make([]V, n)}, nil
	}
	p, err := gpu.HostAlloc[V](gb, n)
	if err != nil {
		return nil, fmt.Errorf("mgraph: host buffer: %w", err)
	}
	hb := &HostBuffer[V]{g: g, pinned: p, s: p.Slice()}
	if n > 0 {
		if g.pinned == nil {
			g.pinned = map[uintptr]uint64{}
		}
		g.pinned[hb.addr()] = uint64(n) * uint64(unsafe.Sizeof(hb.s[0]))
	}
	return hb, nil
}

// Slice returns the buffer's memory, one element per vertex.
func (b *HostBuffer[V]) Slice() []V { return b.s }

// Pinned reports whether the memory is page-locked (the cuda backend).
func (b *HostBuffer[V]) Pinned() bool { return b.pinned != nil }

func (b *HostBuffer[V]) addr() uintptr {
	if len(b.s) == 0 {
		return 0
	}
	return uintptr(unsafe.Pointer(&b.s[0]))
}

// Free releases the memory (waiting for a run that writes into it). Freeing
// twice is harmless.
func (b *HostBuffer[V]) Free() error {
	b.once.Do(func() {
		if b.pinned == nil {
			b.s = nil
			return
		}
		b.g.mu.Lock()
		delete(b.g.pinned, b.addr())
		b.g.mu.Unlock()
		b.s = nil
		b.err = b.pinned.Free()
	})
	return b.err
}

// collectInto makes g's cuda backend deliver the next run's result straight
// into dst when dst is the memory of one of g's pinned HostBuffers, and
// returns whether it does and the function that undoes it. The caller
// holds g.mu.
func collectInto[V uint32 | float32 | float64](g *Graph, dst []V) (bool, func()) {
	gb, ok := g.backend.(*gpu.Backend)
	if !ok || len(dst) == 0 {
		return false, func() {}
	}
	p := unsafe.Pointer(&dst[0])
	bytes, ok := g.pinned[uintptr(p)]
	if !ok || bytes < uint64(len(dst))*uint64(unsafe.Sizeof(dst[0])) {
		return false, func() {}
	}
	gb.CollectInto(p, bytes)
	return true, func() { gb.CollectInto(nil, 0) }
}
