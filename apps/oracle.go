package apps

import (
	"context"
	"fmt"

	"github.com/mgraph-dev/mgraph/engine"
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
// values and frontier in l's numbering, exactly as BFS, SSSP and CC start
// their runs; source is in original numbering (ignored by cc). The caller
// owns the returned slices.
func Traversal(app string, l *layout.Layout, source uint32, workers int) (engine.Program[uint32], []uint32, *engine.Frontier, error) {
	n := l.NumVertices
	switch app {
	case "bfs", "sssp":
		if app == "sssp" && !l.Weighted {
			return nil, nil, nil, fmt.Errorf("sssp needs edge weights, and the graph has none (generate them with --weights SEED)")
		}
		s, err := checkSource(l, source)
		if err != nil {
			return nil, nil, nil, err
		}
		values := make([]uint32, n)
		fill(values, Unreached, workers)
		values[s] = 0
		var p engine.Program[uint32] = bfsProgram{}
		if app == "sssp" {
			p = ssspProgram{}
		}
		return p, values, engine.NewFrontierList(n, []uint32{s}), nil
	case "cc":
		if l.Directed {
			return nil, nil, nil, fmt.Errorf("cc needs an undirected graph; symmetrize the directed input (weak components)")
		}
		values := make([]uint32, n)
		for v := range values {
			values[v] = uint32(v)
		}
		return ccProgram{}, values, engine.AllActive(n), nil
	}
	return nil, nil, nil, fmt.Errorf("no traversal set-up for %q (want bfs, sssp or cc)", app)
}

// runTraversal runs app (bfs, sssp or cc) to completion from its Traversal
// set-up and returns the values in l's numbering.
func runTraversal(ctx context.Context, b engine.Backend, app string, source uint32, opts engine.RunOptions) ([]uint32, engine.Result, error) {
	p, values, f, err := Traversal(app, b.Layout(), source, b.Workers())
	if err != nil {
		return nil, engine.Result{}, err
	}
	run, err := engine.NewRunner[uint32](b, opts)
	if err != nil {
		return nil, engine.Result{}, err
	}
	res, err := run.Run(ctx, p, values, f)
	return values, res, err
}
