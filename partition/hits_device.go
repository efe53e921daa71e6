package partition

import (
	"context"
	"fmt"
	"sync"
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

// runDeviceHITS is RunHITS over device parts hps: a goroutine a part.
func runDeviceHITS(ctx context.Context, hps []HITSPart, parts []*Part, ex Exchanger, salsa bool, maxIter int, tol float64, setup time.Duration) ([]float64, []float64, int, Stats, error) {
	n := parts[0].NumVertices
	hubs, authorities := make([]float64, n), make([]float64, n)
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	done := abortOnStop(runCtx, ex)
	ws := make([]*worker, len(hps))
	iters := make([]int, len(hps))
	var wg sync.WaitGroup
	for i, hp := range hps {
		w := &worker{rank: i, setup: setup}
		ws[i] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			fail := func(err error) {
				w.err = fmt.Errorf("part %d: %w", i, err)
				cancel(w.err)
			}
			start := time.Now()
			if err := hp.Start(runCtx, float64(n)); err != nil {
				fail(fmt.Errorf("start: %w", err))
				return
			}
			w.setup += time.Since(start)
			for it := 0; it < maxIter; it++ {
				start := time.Now()
				hc, ac, rs, err := hp.Iterate(runCtx)
				if err != nil {
					fail(fmt.Errorf("iteration %d: %w", it, err))
					return
				}
				w.steps = append(w.steps, rankStep{active: parts[i].NumLocal, sent: rs.Sent, compute: rs.Compute, wall: time.Since(start), phases: rs.Phases})
				iters[i] = it + 1
				if hc < tol && (!salsa || ac < tol) {
					w.done = true
					break
				}
			}
			start = time.Now()
			if err := hp.Collect(runCtx, hubs, authorities); err != nil {
				fail(err)
				return
			}
			w.collect = time.Since(start)
		}()
	}
	wg.Wait()
	done()
	if err := runError(ctx, runCtx, ws); err != nil {
		return nil, nil, 0, Stats{}, err
	}
	st := mergeStats(ws)
	st.Converged = ws[0].done || maxIter == 0
	return hubs, authorities, iters[0], st, nil
}
