package bench

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/layout"
)

// OracleIteration is one iteration of the per-iteration oracle (one row of
// the paper's Table 2).
type OracleIteration struct {
	Iteration        int     `json:"iteration"`
	FrontierVertices uint64  `json:"frontier_vertices"`
	FrontierEdges    uint64  `json:"frontier_edges"` // out-arcs of the frontier
	SparseSeconds    float64 `json:"sparse_seconds"`
	DenseSeconds     float64 `json:"dense_seconds"`
	// PullSeconds is the pull engine's time, for programs it runs
	// (undirected graphs: engine.EarlyExit programs, and on the CPU every
	// min program, pull.Engine.StepAll); 0 when not timed.
	PullSeconds float64 `json:"pull_seconds,omitempty"`
	Best        string  `json:"best"` // the fastest mode
	BestSeconds float64 `json:"best_seconds"`
	// Hybrid is the mode the hybrid chose for this iteration in its own
	// traced run ("" when that run had no such iteration), HybridSeconds
	// the time it measured for the iteration (its sampling included).
	Hybrid        string  `json:"hybrid"`
	HybridSeconds float64 `json:"hybrid_seconds"`
	// Agree is false when the two modes left different values or
	// frontiers (a bug: min programs give identical results).
	Agree bool `json:"agree"`
}

// OracleRun is the per-iteration oracle of one app on one graph.
type OracleRun struct {
	App        string            `json:"app"`
	Graph      string            `json:"graph"`
	Backend    string            `json:"backend"`
	Threads    int               `json:"threads"`
	Source     uint32            `json:"source"` // original numbering (unused by cc)
	Repeats    int               `json:"repeats"`
	Iterations []OracleIteration `json:"iterations"`
	// Totals over the iterations.
	TotalSparse float64 `json:"total_sparse_seconds"`         // every iteration sparse
	TotalDense  float64 `json:"total_dense_seconds"`          // every iteration dense
	TotalPull   float64 `json:"total_pull_seconds,omitempty"` // every iteration pull (when timed)
	HasPull     bool    `json:"has_pull"`
	TotalBest   float64 `json:"total_best_seconds"` // the best mode every iteration
	// TotalChosen is the oracle's time of the modes the hybrid chose;
	// Regret = TotalChosen − TotalBest is what its choices cost.
	TotalChosen   float64 `json:"total_chosen_seconds"`
	Regret        float64 `json:"regret_seconds"`
	RegretPercent float64 `json:"regret_percent"` // of TotalBest
	// HybridIterationSecs sums the hybrid's own iteration times (sampling
	// and frontier conversions included); HybridRunSeconds is its whole run.
	HybridIterationSecs float64 `json:"hybrid_iteration_seconds"`
	HybridRunSeconds    float64 `json:"hybrid_run_seconds"`
	HybridIterations    int     `json:"hybrid_iterations"`
	// AsyncRunSeconds is a whole run in engine.Async mode (it has no
	// iterations to step), AutoRunSeconds one in engine.Auto, each the
	// fastest of Repeats runs. BestPossible is the faster of TotalBest and
	// the async run; the run regrets compare whole runs with it (the
	// hybrid's own run, and auto's).
	AsyncRunSeconds        float64 `json:"async_run_seconds"`
	AutoRunSeconds         float64 `json:"auto_run_seconds"`
	BestPossible           float64 `json:"best_possible_seconds"`
	HybridRunRegretPercent float64 `json:"hybrid_run_regret_percent"`
	AutoRunRegretPercent   float64 `json:"auto_run_regret_percent"`
	Mismatches             int     `json:"mismatches"` // iterations where the modes disagreed
}

// maxRepeatSecs: a step slower than this is timed once (noise matters
// little there, and the oracle stays quick on long traversals).
const maxRepeatSecs = 0.02

// Oracle runs app (one of apps.OracleApps) on l iteration by iteration: at
// every iteration it runs the iteration in dense and in sparse mode (and
// pull on undirected graphs when the backend has a pull engine: for
// engine.EarlyExit programs, and on the CPU for every min program) from
// the same state (values and frontier copied; each engine gets the
// frontier in its own form, prepared outside the timing), times both
// (the minimum of repeats runs), checks that both give the same values and
// next frontier, and continues from the sparse result. The hybrid's choices
// come from a separate traced hybrid run on b, aligned by iteration.
// source is in original numbering.
//
// A step's time is the host wall time around Step, or, for backends with
// Backend.DeviceTime (cuda), the sum of the phase times Step returns: the
// device kernels' time without the copies of the state to and from the
// device that the oracle's host-driven steps need. The steppers are closed
// (io.Closer) when the oracle returns.
func Oracle(ctx context.Context, backendName string, b engine.Backend, l *layout.Layout, app string, source uint32, repeats int, seed uint64) (run *OracleRun, err error) {
	bk, err := backendFor(backendName)
	if err != nil {
		return nil, err
	}
	workers := b.Workers()
	ds, ss, err := bk.Steppers(l, workers)
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	var ps engine.PullStepper[uint32]
	defer func() { // after the last step: the steppers may share state
		cerr := errors.Join(closeIfCloser(ds), closeIfCloser(ss), closeIfCloser(ps))
		if cerr != nil && err == nil {
			run, err = nil, fmt.Errorf("oracle: closing the steppers: %w", cerr)
		}
	}()
	p, values, f, err := apps.Traversal(app, l, source, workers)
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	ee, early := p.(engine.EarlyExit[uint32])
	// The CPU's pull engine also steps the min programs without early exit
	// (StepAll); the device's pulls are BFS's only.
	pullAll := !early && backendName == "cpu"
	if (early || pullAll) && !l.Directed && bk.Pull != nil {
		if ps, err = bk.Pull(l, workers); err != nil {
			return nil, fmt.Errorf("oracle: %w", err)
		}
	}
	repeats = max(1, repeats)
	run = &OracleRun{App: app, Backend: backendName, Threads: workers, Source: source, Repeats: repeats, HasPull: ps != nil}
	n := l.NumVertices
	frontier := slices.Clone(f.List(workers))
	work := make([]uint32, n)
	denseVals := make([]uint32, n)
	next := make([]uint8, n)
	for i := 0; len(frontier) > 0; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		it := OracleIteration{Iteration: i, FrontierVertices: uint64(len(frontier)), Agree: true}
		for _, v := range frontier {
			it.FrontierEdges += l.OutDegree(v)
		}
		active := engine.ListToFlags(n, frontier, workers)

		// Dense: values copied, flags prepared, Step timed.
		var denseCount uint64
		it.DenseSeconds = -1
		for r := 0; r < repeats; r++ {
			copy(work, values)
			start := time.Now()
			c, ph, err := ds.Step(ctx, p, work, active, next)
			secs := stepSeconds(bk, start, ph)
			if err != nil {
				return nil, fmt.Errorf("oracle: dense step %d: %w", i, err)
			}
			if it.DenseSeconds < 0 || secs < it.DenseSeconds {
				it.DenseSeconds = secs
			}
			denseCount = c
			if secs > maxRepeatSecs {
				break
			}
		}
		copy(denseVals, work)

		pullAgree := true
		// Pull, when the program and graph allow it.
		if ps != nil {
			pullNext := make([]uint8, n)
			it.PullSeconds = -1
			var pullCount uint64
			for r := 0; r < repeats; r++ {
				copy(work, values)
				start := time.Now()
				var c uint64
				var ph []engine.Phase
				var err error
				if early {
					c, ph, err = ps.Step(ctx, ee, work, active, pullNext)
				} else {
					c, ph, err = ps.StepAll(ctx, p, work, active, pullNext)
				}
				secs := stepSeconds(bk, start, ph)
				if err != nil {
					return nil, fmt.Errorf("oracle: pull step %d: %w", i, err)
				}
				if it.PullSeconds < 0 || secs < it.PullSeconds {
					it.PullSeconds = secs
				}
				pullCount = c
				if secs > maxRepeatSecs {
					break
				}
			}
			pullAgree = pullCount == denseCount && slices.Equal(work, denseVals) && slices.Equal(pullNext, next)
		}
		// Sparse: the same from the list; its result is continued from.
		var out []uint32
		it.SparseSeconds = -1
		for r := 0; r < repeats; r++ {
			copy(work, values)
			start := time.Now()
			o, ph, err := ss.Step(ctx, p, work, frontier)
			secs := stepSeconds(bk, start, ph)
			if err != nil {
				return nil, fmt.Errorf("oracle: sparse step %d: %w", i, err)
			}
			if it.SparseSeconds < 0 || secs < it.SparseSeconds {
				it.SparseSeconds = secs
			}
			out = o
			if secs > maxRepeatSecs {
				break
			}
		}
		if !pullAgree || uint64(len(out)) != denseCount || !slices.Equal(work, denseVals) || !sameSet(out, next) {
			it.Agree = false
			run.Mismatches++
		}
		it.Best, it.BestSeconds = "sparse", it.SparseSeconds
		if it.DenseSeconds < it.SparseSeconds {
			it.Best, it.BestSeconds = "dense", it.DenseSeconds
		}
		if ps != nil && it.PullSeconds < it.BestSeconds {
			it.Best, it.BestSeconds = "pull", it.PullSeconds
		}
		run.TotalPull += it.PullSeconds
		run.TotalSparse += it.SparseSeconds
		run.TotalDense += it.DenseSeconds
		run.TotalBest += it.BestSeconds
		run.Iterations = append(run.Iterations, it)
		copy(values, work)
		frontier = out
	}

	// The hybrid's own run, traced, aligned by iteration (on the CPU
	// without SSSP's near-far buckets, whose iterations are not the plain
	// ones stepped above).
	hb := b
	if cb, ok := b.(*cpu.Backend); ok && app == "sssp" {
		if hb, err = cpu.New(l, cb.Workers(), cpu.WithNearFarDelta(-1)); err != nil {
			return nil, fmt.Errorf("oracle: %w", err)
		}
	}
	opts := engine.RunOptions{Mode: engine.Hybrid, Trace: true, Seed: seed}
	var res engine.Result
	switch app {
	case "bfs":
		_, res, err = apps.BFS(ctx, hb, source, opts)
	case "sssp": // SSSPFloat32 on float32 weights
		_, res, err = apps.Run(ctx, "sssp", hb, hb, []uint32{source}, apps.PageRankOptions{}, opts)
	}
	if err != nil {
		return nil, fmt.Errorf("oracle: hybrid run: %w", err)
	}
	run.HybridRunSeconds, run.HybridIterations = res.Seconds, res.Iterations
	for _, tr := range res.Trace {
		run.HybridIterationSecs += tr.Seconds
		if tr.Iteration < len(run.Iterations) {
			it := &run.Iterations[tr.Iteration]
			it.Hybrid, it.HybridSeconds = tr.Mode, tr.Seconds
		}
	}
	for _, it := range run.Iterations {
		switch it.Hybrid {
		case "dense":
			run.TotalChosen += it.DenseSeconds
		case "sparse":
			run.TotalChosen += it.SparseSeconds
		case "pull":
			if ps != nil {
				run.TotalChosen += it.PullSeconds
			} else {
				run.TotalChosen += it.HybridSeconds
			}
		case "":
			// No such hybrid iteration: count the best.
			run.TotalChosen += it.BestSeconds
		default: // a mode the oracle does not step: the hybrid's own time
			run.TotalChosen += it.HybridSeconds
		}
	}
	run.Regret = run.TotalChosen - run.TotalBest
	if run.TotalBest > 0 {
		run.RegretPercent = 100 * run.Regret / run.TotalBest
	}

	// Whole runs in async and auto mode, against the best possible.
	if run.AsyncRunSeconds, err = fastestRun(ctx, b, app, source, engine.Async, repeats, seed); err != nil {
		return nil, fmt.Errorf("oracle: async run: %w", err)
	}
	if run.AutoRunSeconds, err = fastestRun(ctx, b, app, source, engine.Auto, repeats, seed); err != nil {
		return nil, fmt.Errorf("oracle: auto run: %w", err)
	}
	run.BestPossible = min(run.TotalBest, run.AsyncRunSeconds)
	if run.BestPossible > 0 {
		run.HybridRunRegretPercent = 100 * (run.HybridRunSeconds - run.BestPossible) / run.BestPossible
		run.AutoRunRegretPercent = 100 * (run.AutoRunSeconds - run.BestPossible) / run.BestPossible
	}
	return run, nil
}

// fastestRun returns the shortest engine time (Result.Seconds) of repeats
// whole runs of app (bfs or sssp) from source in mode.
func fastestRun(ctx context.Context, b engine.Backend, app string, source uint32, mode engine.Mode, repeats int, seed uint64) (float64, error) {
	opts := engine.RunOptions{Mode: mode, Seed: seed}
	best := 0.0
	for k := 0; k < max(1, repeats); k++ {
		var res engine.Result
		var err error
		switch app {
		case "bfs":
			_, res, err = apps.BFS(ctx, b, source, opts)
		case "sssp": // SSSPFloat32 on float32 weights
			_, res, err = apps.Run(ctx, "sssp", b, b, []uint32{source}, apps.PageRankOptions{}, opts)
		default:
			return 0, fmt.Errorf("no whole run for %q", app)
		}
		if err != nil {
			return 0, err
		}
		if k == 0 || res.Seconds < best {
			best = res.Seconds
		}
	}
	return best, nil
}

// stepSeconds is a step's time: the sum of its phases for backends that
// report device time, else the wall time since start.
func stepSeconds(bk Backend, start time.Time, phases []engine.Phase) float64 {
	wall := time.Since(start).Seconds()
	if !bk.DeviceTime {
		return wall
	}
	var dev float64
	for _, p := range phases {
		dev += p.Seconds
	}
	return dev
}

// sameSet reports whether list holds exactly the vertices flagged in flags
// (list has no duplicates, as engines guarantee).
func sameSet(list []uint32, flags []uint8) bool {
	for _, v := range list {
		if flags[v] == 0 {
			return false
		}
	}
	var k int
	for _, f := range flags {
		if f != 0 {
			k++
		}
	}
	return k == len(list)
}
