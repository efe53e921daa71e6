package apps

import (
	"context"

	"github.com/mgraph-dev/mgraph/engine"
)

// ssspProgram: a vertex's value is its tentative distance; an arc offers
// distance+weight (saturating); a vertex whose distance drops is active
// (data-driven Bellman–Ford, as in the papers).
type ssspProgram struct{}

func (ssspProgram) Edge() engine.EdgeOp       { return engine.EdgeSourcePlusWeight }
func (ssspProgram) Combine() engine.CombineOp { return engine.CombineMin }
func (ssspProgram) ApplyAll() bool            { return false }

// DeviceKernel names the GPU functor (engine.DeviceProgram).
func (ssspProgram) DeviceKernel() string { return "sssp" }

// Monotone marks the program as safe to run asynchronously (engine.Monotone).
func (ssspProgram) Monotone() {}
func (ssspProgram) Apply(v uint32, acc uint32, dist []uint32) bool {
	if acc < dist[v] {
		dist[v] = acc
		return true
	}
	return false
}

// SSSP returns the shortest-path distance of every vertex from source over
// the uint32 arc weights, with Unreached for vertices it does not reach.
// Distances are exact while they stay below 2^32-1; a path longer than that
// saturates and reads as Unreached.
// The result may be a buffer the backend reuses (engine.Backend.RunMin).
func SSSP(ctx context.Context, b engine.Backend, source uint32, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	return runTraversal(ctx, b, "sssp", source, opts)
}
