package apps

import (
	"context"
	"fmt"

	"github.com/mgraph-dev/mgraph/engine"
)

// ssspProgram: a vertex's value is its tentative distance; an arc offers
// distance+weight (saturating); a vertex whose distance drops is active
// (data-driven Bellman–Ford, as in the papers).
type ssspProgram struct{}

func (ssspProgram) Edge() engine.EdgeOp       { return engine.EdgeSourcePlusWeight }
func (ssspProgram) Combine() engine.CombineOp { return engine.CombineMin }
func (ssspProgram) ApplyAll() bool            { return false }
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
func SSSP(ctx context.Context, b engine.Backend, source uint32, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	l := b.Layout()
	if !l.Weighted {
		return nil, engine.Result{}, fmt.Errorf("sssp needs edge weights, and the graph has none (generate them with --weights SEED)")
	}
	s, err := checkSource(l, source)
	if err != nil {
		return nil, engine.Result{}, err
	}
	run, err := engine.NewRunner[uint32](b, opts)
	if err != nil {
		return nil, engine.Result{}, err
	}
	dist := make([]uint32, l.NumVertices)
	fill(dist, Unreached, b.Workers())
	dist[s] = 0
	res, err := run.Run(ctx, ssspProgram{}, dist, engine.NewFrontierList(l.NumVertices, []uint32{s}))
	if err != nil {
		return nil, res, err
	}
	return toOriginal(l, dist, b.Workers()), res, nil
}
