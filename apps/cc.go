package apps

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/mgraph-dev/mgraph/engine"
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

// Monotone marks the program as safe to run asynchronously (engine.Monotone).
func (ccProgram) Monotone() {}

// JumpsLabels lets asynchronous runs follow labels (engine.LabelJumper).
func (ccProgram) JumpsLabels() {}
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
//
// Backends that implement engine.ComponentsBackend (both of mgraph's) find
// the components by Afforest's hooking and compressing, a few passes over
// the arcs whatever the diameter; others, and CCLabels, by label
// propagation through the MultiGraph engines, which takes about as many
// iterations as the graph's diameter. The result may be a buffer the
// backend reuses (see engine.Backend.RunMin).
func CC(ctx context.Context, b engine.Backend, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	if cb, ok := b.(engine.ComponentsBackend); ok {
		if b.Layout().Directed {
			return nil, engine.Result{}, fmt.Errorf("cc needs an undirected graph; symmetrize the directed input (weak components)")
		}
		return cb.Components(ctx, opts)
	}
	return CCLabels(ctx, b, opts)
}

// CCLabels is CC by label propagation (ccProgram) through the MultiGraph
// engines in opts.Mode: the papers' CC, kept for studying the engines
// (app "cc-lp").
func CCLabels(ctx context.Context, b engine.Backend, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	return runTraversal(ctx, b, "cc", 0, opts)
}
