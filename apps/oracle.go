package apps

import (
	"context"
	"fmt"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/layout"
)

// OracleApps lists the apps whose every iteration is a deterministic
// function of the state before it, whatever the mode: an iteration can be
// run in both modes from the same state and either result continued from
// (bench's per-iteration oracle, the paper's Table 2). CC is not among them:
// its pointer jumping reads labels that other vertices' Apply calls of the
// same iteration may already have lowered, so its intermediate labels depend
// on scheduling (its final labels do not).
var OracleApps = []string{"bfs", "sssp"}

// Traversal returns the program of app (bfs, sssp or cc) with its initial
// values and frontier in l's numbering, exactly as BFS, SSSP (SSSPFloat32
// on float32 weights: the values are float32 bits) and CCLabels start
// their runs; source is in original numbering (ignored by cc). The caller
// owns the returned slices.
func Traversal(app string, l *layout.Layout, source uint32, workers int) (engine.Program[uint32], []uint32, *engine.Frontier, error) {
	p, init, _, err := traversalSetup(app, l, source)
	if err != nil {
		return nil, nil, nil, err
	}
	values, f, err := init.Values(l.NumVertices, workers)
	if err != nil {
		return nil, nil, nil, err
	}
	return p, values, f, nil
}

// TraversalProgram returns the program of app (bfs, sssp or cc) over l,
// as Traversal does, without making initial values.
func TraversalProgram(app string, l *layout.Layout) (engine.Program[uint32], error) {
	p, _, _, err := traversalSetup(app, l, 0)
	return p, err
}

// traversalSetup returns the program of app (bfs, sssp or cc), how its run
// starts and how its values become the result.
func traversalSetup(app string, l *layout.Layout, source uint32) (engine.Program[uint32], engine.Init, engine.Output, error) {
	switch app {
	case "bfs", "sssp":
		if app == "sssp" && !l.Weighted {
			return nil, engine.Init{}, 0, fmt.Errorf("sssp needs edge weights, and the graph has none (generate them with --weights SEED)")
		}
		s, err := checkSource(l, source)
		if err != nil {
			return nil, engine.Init{}, 0, err
		}
		init := engine.Init{Fill: Unreached, HasSource: true, Source: s, SourceValue: 0}
		if app == "sssp" && l.WeightKind == graph.Float32Weights {
			return ssspF32Program{}, init, engine.OutputValues, nil // values: float32 bits (0 is +0)
		}
		if app == "sssp" {
			return ssspProgram{}, init, engine.OutputValues, nil
		}
		return bfsProgram{}, init, engine.OutputValues, nil
	case "cc":
		if l.Directed {
			return nil, engine.Init{}, 0, fmt.Errorf("cc needs an undirected graph; symmetrize the directed input (weak components)")
		}
		return ccProgram{}, engine.Init{Identity: true}, engine.OutputComponents, nil
	}
	return nil, engine.Init{}, 0, fmt.Errorf("no traversal set-up for %q (want bfs, sssp or cc)", app)
}

// runTraversal runs app (bfs, sssp or cc by label propagation) to
// completion on b, which makes the initial state and returns the result in
// the original numbering.
func runTraversal(ctx context.Context, b engine.Backend, app string, source uint32, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	if err := refuseAsyncCap(app, opts, opts.MaxIterations); err != nil {
		return nil, engine.Result{}, err
	}
	p, init, out, err := traversalSetup(app, b.Layout(), source)
	if err != nil {
		return nil, engine.Result{}, err
	}
	return b.RunMin(ctx, p, init, out, opts)
}
