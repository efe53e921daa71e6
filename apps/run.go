package apps

import (
	"context"
	"fmt"

	"github.com/mgraph-dev/mgraph/engine"
)

// Names lists the apps Run knows, in the order help texts show them.
var Names = []string{"bfs", "bfs-tree", "sssp", "cc", "cc-lp", "pr", "pr-delta", "bc"}

// SingleSource reports whether app runs from one source (the first of
// Run's sources): bfs, bfs-tree and sssp.
func SingleSource(app string) bool { return app == "bfs" || app == "bfs-tree" || app == "sssp" }

// Run runs the named app and returns its values in original numbering
// ([]uint32 for bfs, sssp, cc and cc-lp; []float64 for pr, pr-delta and
// bc; possibly a buffer the backend reuses, see engine.Backend.RunMin). bfs
// and sssp start from sources[0]; bc sums over all sources and runs its
// backward pass on bwd (fwd again for undirected graphs); pr and pr-delta
// use pr.
func Run(ctx context.Context, name string, fwd, bwd engine.Backend, sources []uint32, pr PageRankOptions, opts engine.RunOptions) (any, engine.Result, error) {
	if SingleSource(name) && len(sources) == 0 {
		return nil, engine.Result{}, fmt.Errorf("%s needs a source", name)
	}
	switch name {
	case "bfs":
		return wrap(BFS(ctx, fwd, sources[0], opts))
	case "bfs-tree":
		return wrap(BFSParents(ctx, fwd, sources[0], opts))
	case "sssp":
		return wrap(SSSP(ctx, fwd, sources[0], opts))
	case "cc":
		return wrap(CC(ctx, fwd, opts))
	case "cc-lp":
		return wrap(CCLabels(ctx, fwd, opts))
	case "pr":
		return wrap(PageRank(ctx, fwd, pr, opts))
	case "pr-delta":
		return wrap(PageRankDelta(ctx, fwd, pr, opts))
	case "bc":
		return wrap(BC(ctx, fwd, bwd, sources, opts))
	}
	return nil, engine.Result{}, fmt.Errorf("unknown app %q (want one of %v)", name, Names)
}

// Undirected reports whether app needs an undirected graph (the components
// apps: a directed input is run on its symmetrization, weak components).
func Undirected(app string) bool { return app == "cc" || app == "cc-lp" }

// wrap turns an app's typed result into Run's.
func wrap[T any](values []T, res engine.Result, err error) (any, engine.Result, error) {
	if err != nil {
		return nil, res, err
	}
	return values, res, nil
}

// refuseAsyncCap returns the error of an iteration cap (a BFS depth
// limit) in mode async, which has no iterations: its result would be the
// uncapped one.
func refuseAsyncCap(app string, opts engine.RunOptions, limit int) error {
	if opts.Mode == engine.Async && limit > 0 {
		return fmt.Errorf("%s: mode async has no iterations to cap (an iteration cap or depth limit of %d); use hybrid or auto", app, limit)
	}
	return nil
}

// refuseAsync returns the error of an app that has no Async mode (the sum
// programs: their contributions add up, so they cannot be applied in any
// order as they come).
func refuseAsync(app string, opts engine.RunOptions) error {
	if opts.Mode == engine.Async {
		return fmt.Errorf("%s: %w", app, engine.ErrNotMonotone)
	}
	return nil
}
