package partition

import (
	"context"
	"fmt"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
)

// DeltaPart is one part of RunPageRankDelta on a device: every owned
// vertex's absorbed mass, residual and share stay there; a superstep
// gathers the active vertices' shares over the part's arcs, sends the
// ghosts' sums to their owners (RunPageRank's exchange) and applies them.
// Only counters come to the host until Collect. Every method but Close
// is collective over the parts.
type DeltaPart interface {
	// Start makes every owned vertex active, its residual 1 absorbed.
	Start() error
	// Superstep is one superstep; it returns this part's active vertices
	// next and their total over the parts (0: the run has converged),
	// and what the part did (RankStep: Delta and Dangling unused).
	Superstep(ctx context.Context) (active, total uint64, step RankStep, err error)
	// Collect divides every owned vertex's mass by the mass absorbed over
	// all parts and assembles the ranks at their original ids in host
	// memory: part 0 returns them, which may be memory the parts reuse
	// (valid until their next run), the others nil.
	Collect(ctx context.Context) ([]float64, error)
	// Close releases what the part took for the run.
	Close() error
}

// DeltaExchanger is an Exchanger that can also run pr-delta on the parts'
// devices; RunPageRankDelta uses it unless told to run on the host.
type DeltaExchanger interface {
	// DeltaParts returns a DeltaPart for every part, part i on
	// backends[i], with opts' damping and tolerance, or nil and no error
	// when these backends cannot run on their devices.
	DeltaParts(parts []*Part, backends []engine.Backend, opts RankOptions) ([]DeltaPart, error)
}

// deviceDeltaParts returns the device parts of a pr-delta run over ex, or
// nil when ex has none for these backends (the run then stays on the
// host).
func deviceDeltaParts(parts []*Part, backends []engine.Backend, opts RankOptions, ex Exchanger, host bool) ([]DeltaPart, time.Duration, error) {
	dx, ok := ex.(DeltaExchanger)
	if !ok || host {
		return nil, 0, nil
	}
	start := time.Now()
	dps, err := dx.DeltaParts(parts, backends, opts)
	dps, err = madeParts("delta", dps, err, len(parts))
	return dps, time.Since(start), err
}

// runDeviceDelta is RunPageRankDelta over device parts dps, a goroutine a
// part: Start, the supersteps until no vertex is active on any part (or
// MaxIterations), then Collect, whose result (part 0's) it returns with
// the supersteps run.
func runDeviceDelta(ctx context.Context, dps []DeltaPart, parts []*Part, ex Exchanger, maxIter int, setup time.Duration) ([]float64, int, Stats, error) {
	n := parts[0].NumVertices
	var out []float64
	steps := make([]int, len(dps))
	ws, err := eachDevicePart(ctx, len(dps), ex, setup, func(ctx context.Context, i int, w *worker) error {
		dp := dps[i]
		start := time.Now()
		if err := dp.Start(); err != nil {
			return fmt.Errorf("start: %w", err)
		}
		w.setup += time.Since(start)
		active := parts[i].NumLocal
		for s := 0; maxIter == 0 || s < maxIter; s++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			start := time.Now()
			next, total, rs, err := dp.Superstep(ctx)
			if err != nil {
				return fmt.Errorf("superstep %d: %w", s, err)
			}
			w.steps = append(w.steps, rankStep{active: active, sent: rs.Sent, compute: rs.Compute, wall: time.Since(start), phases: rs.Phases})
			steps[i], active = s+1, next
			if total == 0 {
				w.done = true
				break
			}
		}
		start = time.Now()
		res, err := dp.Collect(ctx)
		if err != nil {
			return err
		}
		w.collect = time.Since(start)
		if i == 0 {
			out = res
		}
		return nil
	}, func() error { return closeAll(dps) })
	if err != nil {
		return nil, 0, Stats{}, err
	}
	if uint64(len(out)) != n {
		return nil, 0, Stats{}, fmt.Errorf("part 0 collected %d ranks for %d vertices", len(out), n)
	}
	return out, steps[0], mergeStats(ws), nil
}
