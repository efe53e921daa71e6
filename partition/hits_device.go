package partition

import (
	"context"
	"fmt"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
)

// HITSPart is one part of RunHITS on a device: the authority step sums
// each vertex's in-arcs in the part and sends the ghosts' sums to their
// owners (RunPageRank's exchange), the hub step sums over the owned
// vertices' out-arcs the authorities (SALSA: divided by the in-degrees)
// that each owner broadcasts to the parts that hold its vertices as
// ghosts. Every method but Close is collective over the parts.
type HITSPart interface {
	// Start counts the in-degrees over all parts and sets the start
	// scores (RunHITS's); n is the graph's vertex count.
	Start(ctx context.Context, n float64) error
	// Iterate is one iteration; it returns Σ|Δhub| and Σ|Δauthority| over
	// all parts and what this part did (RankStep: Delta and Dangling
	// unused).
	Iterate(ctx context.Context) (hubChange, authChange float64, step RankStep, err error)
	// Collect writes the part's share of the hubs and authorities at
	// their original ids into hubs and authorities (the whole results,
	// which the parts fill together).
	Collect(ctx context.Context, hubs, authorities []float64) error
	// Close releases what the part took for the run.
	Close() error
}

// HITSExchanger is an Exchanger that can also run HITS and SALSA on the
// parts' devices; RunHITS uses it unless told to run on the host.
type HITSExchanger interface {
	// HITSParts returns a HITSPart for every part, part i on backends[i],
	// or nil and no error when these backends cannot run on their devices.
	HITSParts(parts []*Part, backends []engine.Backend, salsa bool) ([]HITSPart, error)
}

// runDeviceHITS is RunHITS over device parts hps: a goroutine a part;
// it closes them.
func runDeviceHITS(ctx context.Context, hps []HITSPart, parts []*Part, ex Exchanger, salsa bool, maxIter int, tol float64, setup time.Duration) ([]float64, []float64, int, Stats, error) {
	n := parts[0].NumVertices
	hubs, authorities := make([]float64, n), make([]float64, n)
	iters := make([]int, len(hps))
	ws, err := eachDevicePart(ctx, len(hps), ex, setup, func(ctx context.Context, i int, w *worker) error {
		hp := hps[i]
		start := time.Now()
		if err := hp.Start(ctx, float64(n)); err != nil {
			return fmt.Errorf("start: %w", err)
		}
		w.setup += time.Since(start)
		for it := 0; it < maxIter; it++ {
			start := time.Now()
			hc, ac, rs, err := hp.Iterate(ctx)
			if err != nil {
				return fmt.Errorf("iteration %d: %w", it, err)
			}
			w.steps = append(w.steps, rankStep{active: parts[i].NumLocal, sent: rs.Sent, compute: rs.Compute, wall: time.Since(start), phases: rs.Phases})
			iters[i] = it + 1
			if hc < tol && (!salsa || ac < tol) {
				w.done = true
				break
			}
		}
		start = time.Now()
		if err := hp.Collect(ctx, hubs, authorities); err != nil {
			return err
		}
		w.collect = time.Since(start)
		return nil
	}, func() error { return closeAll(hps) })
	if err != nil {
		return nil, nil, 0, Stats{}, err
	}
	st := mergeStats(ws)
	st.Converged = ws[0].done || maxIter == 0
	return hubs, authorities, iters[0], st, nil
}
