package apps

import (
	"context"
	"fmt"

	"github.com/mgraph-dev/mgraph/engine"
)

// bfsProgram: a vertex's value is its level; an arc offers level+1; a
// vertex takes the smallest offer if it beats its level and is then active.
//
// It implements engine.EarlyExit: all the active vertices of an iteration
// are at the same level, so every offer of an iteration is equal, and a
// vertex with a level never takes a later (larger) offer. The hybrid may
// therefore run its large iterations as pull steps.
type bfsProgram struct{}

var (
	_ engine.EarlyExit[uint32] = bfsProgram{}
	_ engine.PlainMin          = bfsProgram{}
)

func (bfsProgram) Edge() engine.EdgeOp       { return engine.EdgeSourcePlusOne }
func (bfsProgram) Combine() engine.CombineOp { return engine.CombineMin }
func (bfsProgram) ApplyAll() bool            { return false }

// DeviceKernel names the GPU functor (engine.DeviceProgram).
func (bfsProgram) DeviceKernel() string { return "bfs" }

// Monotone marks the program as safe to run asynchronously (engine.Monotone).
func (bfsProgram) Monotone() {}

// PlainMin marks Apply as the plain min (engine.PlainMin): the engines may
// relax the levels in place.
func (bfsProgram) PlainMin() {}

func (bfsProgram) Apply(v uint32, acc uint32, level []uint32) bool {
	if acc < level[v] {
		level[v] = acc
		return true
	}
	return false
}

// Unsettled reports the vertices of [lo, lo+len(out)) that have no level yet.
func (bfsProgram) Unsettled(lo uint32, level []uint32, out []bool) {
	level = level[lo : int(lo)+len(out)]
	for i, x := range level {
		out[i] = x == Unreached
	}
}

// BFS returns the level (hop distance) of every vertex from source, with
// Unreached for vertices it does not reach. opts.MaxIterations > 0 is a
// depth limit: vertices further than it are Unreached (not in mode async,
// which has no levels to stop at: an error).
// The backend makes the initial levels and returns the result (see
// engine.Backend.RunMin: it may be a buffer the backend reuses).
func BFS(ctx context.Context, b engine.Backend, source uint32, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	return runTraversal(ctx, b, "bfs", source, opts)
}

// BFSParents runs BFS from source and returns its tree (app "bfs-tree",
// GAPBS's BFS result): every vertex's parent in original ids, the source's
// being itself and an unreached vertex's Unreached. Of the vertices one
// level up with an arc to a vertex, the parent is the first in the
// layout's order, so every backend and mode gives the same tree. b must
// implement engine.TreeBackend (both backends do).
func BFSParents(ctx context.Context, b engine.Backend, source uint32, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	tb, ok := b.(engine.TreeBackend)
	if !ok {
		return nil, engine.Result{}, fmt.Errorf("bfs-tree: the %s backend gives no BFS tree", b.Name())
	}
	if err := refuseAsyncCap("bfs-tree", opts, opts.MaxIterations); err != nil {
		return nil, engine.Result{}, err
	}
	p, init, _, err := traversalSetup("bfs", b.Layout(), source)
	if err != nil {
		return nil, engine.Result{}, err
	}
	return tb.BFSParents(ctx, p, init, opts)
}
