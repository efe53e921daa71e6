package apps

import (
	"context"
	"sync/atomic"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
)

// ccProgram is label propagation with pointer jumping (the papers' CC,
// with the shortcut of Shiloach–Vishkin's hooking): every vertex starts with
// its own id as label; an arc offers the source's label; a vertex that is
// offered a smaller label l follows l → label[l] → … while the labels
// decrease, takes the last one and is then active.
//
// Every label is the id of a vertex in the same component, and a vertex's
// label never exceeds its id, so jumping only shortcuts the propagation:
// the fixed point is still the smallest id in each component, in any mode.
// Apply reads labels other goroutines' Apply calls may be writing, so all
// label accesses in Apply are atomic; the engines read labels only between
// Apply phases.
type ccProgram struct{}

func (ccProgram) Edge() engine.EdgeOp       { return engine.EdgeSource }
func (ccProgram) Combine() engine.CombineOp { return engine.CombineMin }
func (ccProgram) ApplyAll() bool            { return false }

// DeviceKernel names the GPU functor (engine.DeviceProgram).
func (ccProgram) DeviceKernel() string { return "cc" }
func (ccProgram) Apply(v uint32, acc uint32, label []uint32) bool {
	old := atomic.LoadUint32(&label[v])
	if acc >= old {
		return false
	}
	l := acc
	for {
		next := atomic.LoadUint32(&label[l])
		if next >= l {
			break
		}
		l = next
	}
	atomic.StoreUint32(&label[v], l)
	return true
}

// CC labels every vertex with its connected component, the label being the
// smallest original vertex id in the component. The graph must be
// undirected (for weak components of a directed graph, symmetrize it).
func CC(ctx context.Context, b engine.Backend, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	label, res, err := runTraversal(ctx, b, "cc", 0, opts)
	if err != nil {
		return nil, res, err
	}
	l, n := b.Layout(), b.Layout().NumVertices
	// Each component now carries its smallest layout id; relabel it by its
	// smallest original id.
	smallest := make([]uint32, n)
	fill(smallest, Unreached, b.Workers())
	par.For(int(n), b.Workers(), 1<<15, func(lo, hi int) {
		componentMinima(smallest, label[lo:hi], l.InvPerm[lo:hi])
	})
	out := make([]uint32, n)
	par.For(int(n), b.Workers(), 1<<15, func(lo, hi int) {
		for old := lo; old < hi; old++ {
			out[old] = smallest[label[l.Perm[old]]]
		}
	})
	return out, res, nil
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
		keys[i] = Unreached // no label is Unreached: labels are vertex ids < n
	}
	for i, c := range label {
		k := c % minCacheSize
		if keys[k] == c {
			mins[k] = min(mins[k], id[i])
			continue
		}
		if keys[k] != Unreached {
			atomicMin(&smallest[keys[k]], mins[k])
		}
		keys[k], mins[k] = c, id[i]
	}
	for k, c := range keys {
		if c != Unreached {
			atomicMin(&smallest[c], mins[k])
		}
	}
}

// atomicMin lowers *p to x if x is smaller.
func atomicMin(p *uint32, x uint32) {
	for {
		old := atomic.LoadUint32(p)
		if x >= old || atomic.CompareAndSwapUint32(p, old, x) {
			return
		}
	}
}
