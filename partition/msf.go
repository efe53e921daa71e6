package partition

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/par"
)

// RunMSF finds a minimum spanning forest of an undirected graph over its
// parts, on the host, by Borůvka's algorithm as apps.MSF does (self-loops
// ignored, unweighted arcs weighing 1, uint32 weights; ties broken by the
// least pair of end ids, a total order). It returns the forest's total
// weight and edges (original ids, U < V). Each round every part finds,
// for each component, the lightest edge leaving it from the part's owned
// vertices' rows (the component labels are one array of original ids the
// parts share); the parts' choices are combined per component, every
// component hooks along its edge (a mutual pair's edge is recorded once),
// and the labels are flattened; a round that hooks nothing ends the run.
func RunMSF(ctx context.Context, parts []*Part, backends []engine.Backend, workers int) (uint64, []ref.Edge, Stats, error) {
	var st Stats
	fail := func(err error) (uint64, []ref.Edge, Stats, error) {
		return 0, nil, st, fmt.Errorf("partition: run msf: %w", err)
	}
	if err := checkUndirectedParts("msf", parts, backends); err != nil {
		return fail(err)
	}
	for i, b := range backends {
		if b.Layout().WeightKind == graph.Float32Weights {
			return fail(fmt.Errorf("part %d: float32 weights are not supported (the total is a uint64 sum of uint32 weights)", i))
		}
	}
	n := parts[0].NumVertices
	st.Converged = true
	if n == 0 {
		return 0, []ref.Edge{}, st, nil
	}
	comp := make([]uint32, n) // every vertex's component: its root, a vertex of it
	for v := range comp {
		comp[v] = uint32(v)
	}
	best := make([][]msfChoice, len(parts)) // each part's lightest edge out of each component
	origs := make([][]uint32, len(parts))   // each part's original id of every layout id
	for i, pt := range parts {
		best[i] = make([]msfChoice, n)
		origs[i] = pt.OriginalIDs(backends[i].Layout().Perm)
	}
	ws := make([]*worker, len(parts))
	for i := range ws {
		ws[i] = &worker{rank: i}
	}
	var weight uint64
	edges := []ref.Edge{}
	chosen := make([]msfChoice, n)
	link := make([]uint32, n) // the union-find's links over component labels: itself between rounds
	for v := range link {
		link[v] = uint32(v)
	}
	var linked []uint32
	for round := 0; ; round++ {
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		var wg sync.WaitGroup
		for i, pt := range parts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				start := time.Now()
				sent := lightestOut(pt, backends[i], origs[i], comp, best[i], workers)
				ws[i].steps = append(ws[i].steps, rankStep{active: pt.NumLocal, sent: sent, compute: time.Since(start), wall: time.Since(start)})
			}()
		}
		wg.Wait()
		// Each component's lightest edge over the parts.
		par.For(int(n), workers, 1<<14, func(lo, hi int) {
			for c := lo; c < hi; c++ {
				var b msfChoice
				for i := range best {
					if x := best[i][c]; x.ok && (!b.ok || x.less(b)) {
						b = x
					}
					best[i][c] = msfChoice{}
				}
				chosen[c] = b
			}
		})
		// Hook every component along its edge: the root of the other end's
		// component, unless both chose the same edge and this is the
		// larger root (the smaller hooks, once).
		hooked := 0
		for c := range chosen {
			b := chosen[c]
			if !b.ok {
				continue
			}
			other := comp[b.e.U]
			if other == uint32(c) {
				other = comp[b.e.V]
			}
			if o := chosen[other]; o.ok && o.e == b.e && uint32(c) > other {
				continue // the mutual pair's edge, hooked from the other side
			}
			edges = append(edges, b.e)
			weight += uint64(b.e.W)
			hooked++
		}
		if hooked == 0 {
			break
		}
		// Union along the recorded edges (each root linked to the smaller
		// one), then flatten the labels; the links made are undone after.
		linked = linked[:0]
		find := func(x uint32) uint32 {
			for link[x] != x {
				x = link[x]
			}
			return x
		}
		for _, e := range edges[len(edges)-hooked:] {
			a, b := find(comp[e.U]), find(comp[e.V])
			if a != b {
				link[max(a, b)] = min(a, b)
				linked = append(linked, max(a, b))
			}
		}
		par.For(int(n), workers, 1<<14, func(lo, hi int) {
			for v := lo; v < hi; v++ {
				comp[v] = find(comp[v])
			}
		})
		for _, x := range linked {
			link[x] = x
		}
	}
	st = mergeStats(ws)
	for i := range ws {
		ws[i].done = true
	}
	return weight, edges, st, nil
}

// msfChoice is a component's lightest leaving edge, if ok.
type msfChoice struct {
	e  ref.Edge
	ok bool
}

// less is MSF's total order: weight, then U, then V.
func (x msfChoice) less(y msfChoice) bool {
	if x.e.W != y.e.W {
		return x.e.W < y.e.W
	}
	if x.e.U != y.e.U {
		return x.e.U < y.e.U
	}
	return x.e.V < y.e.V
}

// lightestOut sets, for every component that part pt's owned vertices
// leave, the lightest edge out of it in best (by component label), and
// returns how many of those edges reach a ghost; orig is the original id
// of every layout id of b's layout (Part.OriginalIDs).
func lightestOut(pt *Part, b engine.Backend, orig, comp []uint32, best []msfChoice, workers int) uint64 {
	l := b.Layout()
	// The components by layout id, so that an arc reads one label.
	compL := make([]uint32, len(orig))
	par.For(len(orig), workers, 1<<14, func(lo, hi int) {
		for x := lo; x < hi; x++ {
			compL[x] = comp[orig[x]]
		}
	})
	var mu sync.Mutex
	var ghosts uint64
	par.For(int(pt.NumLocal), workers, 1<<12, func(lo, hi int) {
		// Each vertex's lightest edge out of its component first, then one
		// update per vertex (not per arc) of its component's, kept aside
		// while consecutive vertices share a component (the giant one of
		// the later rounds).
		local := make(map[uint32]msfChoice)
		var run msfChoice // the lightest edge out of component runC so far
		runC := ^uint32(0)
		flush := func() {
			if run.ok {
				if b, had := local[runC]; !had || run.less(b) {
					local[runC] = run
				}
			}
		}
		var g uint64
		for i := lo; i < hi; i++ {
			lid := l.Perm[i]
			u := pt.Global[i]
			cu := comp[u]
			var mine msfChoice
			for e := l.SparseOffsets[lid]; e < l.SparseOffsets[lid+1]; e++ {
				d := l.SparseDst[e]
				if compL[d] == cu { // a self-loop too
					continue
				}
				v := orig[d]
				w := uint32(1)
				if l.SparseWeights != nil {
					w = l.SparseWeights[e]
				}
				if x := (msfChoice{e: ref.Edge{U: min(u, v), V: max(u, v), W: w}, ok: true}); !mine.ok || x.less(mine) {
					mine = x
				}
				if uint64(l.InvPerm[d]) >= pt.NumLocal {
					g++
				}
			}
			if !mine.ok {
				continue
			}
			if cu != runC {
				flush()
				run, runC = msfChoice{}, cu
			}
			if !run.ok || mine.less(run) {
				run = mine
			}
		}
		flush()
		mu.Lock()
		for c, x := range local {
			if b := best[c]; !b.ok || x.less(b) {
				best[c] = x
			}
		}
		ghosts += g
		mu.Unlock()
	})
	return ghosts
}
