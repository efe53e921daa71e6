package partition

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/par"
)

// RunMSF finds a minimum spanning forest of an undirected graph over its
// parts by Borůvka's algorithm as apps.MSF does (self-loops
// ignored, unweighted arcs weighing 1, uint32 weights; ties broken by the
// least pair of end ids, a total order). It returns the forest's total
// weight and edges (original ids, U < V). Each round every part finds,
// for each component, the lightest edge leaving it from the part's owned
// vertices' rows (the component labels are one array of original ids the
// parts share); the parts' choices are combined per component, every
// component hooks along its edge (a mutual pair's edge is recorded once),
// and the labels are flattened; a round that hooks nothing ends the run.
//
// When every backend is an MSFDevice (the GPU's) and host is false, each
// round's scan of the parts' rows runs on their devices (the components
// uploaded by layout id, each owned vertex's lightest leaving edge back),
// and the rest on the host as here.
func RunMSF(ctx context.Context, parts []*Part, backends []engine.Backend, host bool, workers int) (uint64, []ref.Edge, Stats, error) {
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
	var devs []MSFRounds
	var outs [][]uint32
	if !host {
		var err error
		if devs, err = msfDevices(parts, backends, origs); err != nil {
			return fail(err)
		}
		defer func() {
			for _, d := range devs {
				d.Close()
			}
		}()
		for _, pt := range parts {
			outs = append(outs, make([]uint32, 3*pt.NumLocal))
		}
	}
	ws := make([]*worker, len(parts))
	for i := range ws {
		ws[i] = &worker{rank: i}
	}
	var scanErr error
	var errOnce sync.Once
	var weight uint64
	edges := make([]ref.Edge, 0, n-1) // a forest has at most n−1 edges: appended without regrowth
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
				var sent uint64
				if devs != nil {
					if err := lightestOnDevice(pt, devs[i], origs[i], comp, best[i], outs[i], workers); err != nil {
						errOnce.Do(func() { scanErr = fmt.Errorf("part %d: round %d: %w", i, round, err) })
					}
				} else {
					sent = lightestOut(pt, backends[i], origs[i], comp, best[i], workers)
				}
				ws[i].steps = append(ws[i].steps, rankStep{active: pt.NumLocal, sent: sent, compute: time.Since(start), wall: time.Since(start)})
			}()
		}
		wg.Wait()
		if scanErr != nil {
			return fail(scanErr)
		}
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
	compL := componentsByLid(orig, comp, workers)
	return mergeChoices(int(pt.NumLocal), workers, best, func(i int) (msfChoice, uint32, uint64) {
		lid := l.Perm[i]
		u := pt.Global[i]
		cu := comp[u]
		var mine msfChoice
		var g uint64
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
		return mine, cu, g
	})
}

// componentsByLid returns every layout id's component (orig: the layout
// ids' original ids), so that an arc reads one label.
func componentsByLid(orig, comp []uint32, workers int) []uint32 {
	compL := make([]uint32, len(orig))
	par.For(len(orig), workers, 1<<14, func(lo, hi int) {
		for x := lo; x < hi; x++ {
			compL[x] = comp[orig[x]]
		}
	})
	return compL
}

// mergeChoices merges the lightest edges of owned vertices [0, num)
// (choose(i): vertex i's edge, its component and the ghosts its row
// reached) into best, by component: one update of best per run of
// consecutive vertices of a component (the giant one of the later rounds
// is one long run), under one of msfLocks striped locks. It returns the
// ghosts reached.
func mergeChoices(num, workers int, best []msfChoice, choose func(i int) (msfChoice, uint32, uint64)) uint64 {
	var locks [msfLocks]sync.Mutex
	var ghosts atomic.Uint64
	par.For(num, workers, 1<<12, func(lo, hi int) {
		var run msfChoice // the lightest edge out of component runC so far
		runC := ^uint32(0)
		flush := func() {
			if run.ok {
				m := &locks[runC%msfLocks]
				m.Lock()
				if b := best[runC]; !b.ok || run.less(b) {
					best[runC] = run
				}
				m.Unlock()
			}
		}
		var g uint64
		for i := lo; i < hi; i++ {
			mine, cu, gi := choose(i)
			g += gi
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
		ghosts.Add(g)
	})
	return ghosts.Load()
}

// msfLocks is the number of locks mergeChoices stripes the components
// over.
const msfLocks = 1024

// MSFDevice is a backend that scans a part's rows on its device for each
// of RunMSF's rounds (RunMSF uses it when every part's backend is one and
// the run is not told to stay on the host).
type MSFDevice interface {
	// MSFPart readies part pt's scans over the backend's layout, whose
	// layout ids' original ids are orig; the backend is the part's until
	// the MSFRounds' Close.
	MSFPart(pt *Part, orig []uint32) (MSFRounds, error)
}

// MSFRounds is a part's scans on its device (MSFDevice).
type MSFRounds interface {
	// Lightest writes every owned vertex's (the part's numbering)
	// lightest edge to another component (compByLid: every layout id's
	// component) into out as (weight, lesser original id, greater), three
	// 0xffffffff without one.
	Lightest(compByLid, out []uint32) error
	// Close releases the part's state and its backend.
	Close() error
}

// msfDevices readies every part's scans on its device, or returns nil
// when a backend is not an MSFDevice.
func msfDevices(parts []*Part, backends []engine.Backend, origs [][]uint32) ([]MSFRounds, error) {
	ds := make([]MSFDevice, len(backends))
	for i, b := range backends {
		d, ok := b.(MSFDevice)
		if !ok {
			return nil, nil
		}
		ds[i] = d
	}
	rs := make([]MSFRounds, 0, len(parts))
	for i, d := range ds {
		r, err := d.MSFPart(parts[i], origs[i])
		if err != nil {
			for _, r := range rs {
				r.Close()
			}
			return nil, fmt.Errorf("part %d: %w", i, err)
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// lightestOnDevice is lightestOut with the scan on the part's device (r)
// and the merge on the host; out is the part's scratch of 3 per owned
// vertex. It returns no ghost count (the device does not count them).
func lightestOnDevice(pt *Part, r MSFRounds, orig, comp []uint32, best []msfChoice, out []uint32, workers int) error {
	if err := r.Lightest(componentsByLid(orig, comp, workers), out); err != nil {
		return err
	}
	mergeChoices(int(pt.NumLocal), workers, best, func(i int) (msfChoice, uint32, uint64) {
		w, u, v := out[3*i], out[3*i+1], out[3*i+2]
		if u == v {
			return msfChoice{}, 0, 0
		}
		return msfChoice{e: ref.Edge{U: u, V: v, W: w}, ok: true}, comp[pt.Global[i]], 0
	})
	return nil
}
