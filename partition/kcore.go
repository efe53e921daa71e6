package partition

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/engine"
)

// RunKCore computes every vertex's core number (apps.KCore's: NetworkX's
// core_number, self-loops and repeated arcs ignored) over the parts of an
// undirected graph and returns them at their original ids
// with the supersteps run. It peels as apps.KCore does, the parts in
// lockstep: for k = 1, 2, …, a superstep removes every live owned vertex
// of degree below k (its core number k−1); each removed vertex's part
// lowers the degrees of its live owned neighbours and sends one
// decrement a ghost neighbour to the ghost's owner (Exchanger.AllToAll;
// a message's value is the count); the all-reduce of the vertices removed
// says whether k stays, and of those still live whether the run goes on.
// Core numbers do not depend on the order of removals within a k, so the
// result is apps.KCore's exactly.
//
// The parts run on their devices when ex is a StateExchanger that has
// device parts for the backends and host is false (the same core
// numbers, which may then be memory the parts reuse, valid until their
// next run), else on the host.
func RunKCore(ctx context.Context, parts []*Part, backends []engine.Backend, ex Exchanger, host bool) ([]uint32, Stats, error) {
	var st Stats
	fail := func(err error) ([]uint32, Stats, error) {
		return nil, st, fmt.Errorf("partition: run kcore: %w", err)
	}
	if err := checkUndirectedParts("kcore", parts, backends); err != nil {
		return fail(err)
	}
	n := parts[0].NumVertices
	st.Converged = true
	if n == 0 {
		return []uint32{}, st, nil
	}
	if ex == nil {
		ex = NewMemExchanger(len(parts))
	}
	if err := checkExchanger(ex, len(parts)); err != nil {
		return fail(err)
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	sps, taking, err := deviceStateParts("kcore", parts, backends, ex, host)
	if err != nil {
		return fail(err)
	}
	if sps != nil {
		out, st, err := runDeviceState(ctx, sps, parts, ex, "kcore", 0, taking)
		if err != nil {
			return fail(err)
		}
		st.Converged = true
		return out, st, nil
	}
	out := make([]uint32, n)
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	ranksDone := abortOnStop(runCtx, ex)
	ws := make([]*worker, len(parts))
	var wg sync.WaitGroup
	for i, pt := range parts {
		w := &worker{rank: i, pt: pt, b: backends[i], l: backends[i].Layout(), send: make([][]Message, len(parts))}
		ws[i] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			kc, err := newKCorePart(w)
			if err != nil {
				w.err = fmt.Errorf("part %d: %w", i, err)
				cancel(w.err)
				return
			}
			w.setup = time.Since(start)
			if err := kc.peel(runCtx, ex); err != nil {
				w.err = err
				cancel(err)
				return
			}
			start = time.Now()
			kc.collect(out)
			w.collect = time.Since(start)
		}()
	}
	wg.Wait()
	ranksDone()
	if err := runError(ctx, runCtx, ws); err != nil {
		return fail(err)
	}
	st = mergeStats(ws)
	return out, st, nil
}

// checkUndirectedParts is checkParts for app, which also needs an
// undirected graph.
func checkUndirectedParts(app string, parts []*Part, backends []engine.Backend) error {
	if err := checkParts(parts, backends); err != nil {
		return err
	}
	if parts[0].Directed {
		return fmt.Errorf("%s needs an undirected graph; symmetrize the directed input", app)
	}
	return nil
}

// kcorePart is one part's side of RunKCore, in its layout's numbering:
// the live owned vertices' degrees (distinct neighbours other than
// themselves, live ones) and everyone's core number (apps.Unreached while
// live).
type kcorePart struct {
	w     *worker
	owned []uint32 // the owned vertices' layout ids (the part's numbering)
	deg   []uint32
	core  []uint32
	live  uint64 // owned vertices still live
}

// newKCorePart counts the owned vertices' distinct neighbours (rows are
// sorted: repeats are adjacent) and makes them live.
func newKCorePart(w *worker) (*kcorePart, error) {
	pt, l := w.pt, w.l
	nv := l.NumVertices
	if nv != pt.NumPartVertices() || uint64(len(l.Perm)) != nv {
		return nil, fmt.Errorf("a layout of %d vertices for %d owned and %d ghosts", nv, pt.NumLocal, pt.NumGhosts)
	}
	kc := &kcorePart{w: w, owned: l.Perm[:pt.NumLocal], deg: make([]uint32, nv), core: make([]uint32, nv), live: pt.NumLocal}
	for _, u := range kc.owned {
		kc.eachNeighbour(u, func(uint32) { kc.deg[u]++ })
		kc.core[u] = apps.Unreached
	}
	return kc, nil
}

// eachNeighbour calls fn for every distinct neighbour of owned vertex u
// other than u.
func (kc *kcorePart) eachNeighbour(u uint32, fn func(v uint32)) {
	l := kc.w.l
	row := l.SparseDst[l.SparseOffsets[u]:l.SparseOffsets[u+1]]
	for i, v := range row {
		if v != u && (i == 0 || v != row[i-1]) {
			fn(v)
		}
	}
}

// peel runs the supersteps until no vertex is live on any part.
func (kc *kcorePart) peel(ctx context.Context, ex Exchanger) error {
	w := kc.w
	pt, l := w.pt, w.l
	const owned = ^uint32(0)
	ghostAt := make([]uint32, l.NumVertices) // layout id → ghost index, or owned
	for i := range ghostAt {
		ghostAt[i] = owned
	}
	for g := range pt.NumGhosts {
		ghostAt[l.Perm[pt.NumLocal+g]] = uint32(g)
	}
	decrements := make([]uint32, pt.NumGhosts) // a superstep's count for each ghost
	var removed, touched []uint32
	// The first superstep of each k tests every live owned vertex (and
	// drops the peeled ones from live); a later one with the same k only
	// those whose degree fell in the superstep before (lowered, each once:
	// loweredIn holds the superstep + 1 that listed it), since the others
	// kept a degree of k or more.
	live := append([]uint32(nil), kc.owned...)
	loweredIn := make([]uint32, l.NumVertices)
	var lowered []uint32
	lower := func(v uint32, by uint32, s int) {
		kc.deg[v] -= by
		if loweredIn[v] != uint32(s)+1 {
			loweredIn[v] = uint32(s) + 1
			lowered = append(lowered, v)
		}
	}
	newK := true
	for k, s := uint32(1), 0; ; s++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		removed = removed[:0]
		if newK {
			kept := live[:0]
			for _, u := range live {
				if kc.core[u] != apps.Unreached {
					continue
				}
				kept = append(kept, u)
				if kc.deg[u] < k {
					removed = append(removed, u)
				}
			}
			live = kept
		} else {
			for _, u := range lowered {
				if kc.core[u] == apps.Unreached && kc.deg[u] < k {
					removed = append(removed, u)
				}
			}
		}
		lowered = lowered[:0]
		for q := range w.send {
			w.send[q] = w.send[q][:0]
		}
		for _, u := range removed {
			kc.core[u] = k - 1
		}
		touched = touched[:0]
		for _, u := range removed {
			kc.eachNeighbour(u, func(v uint32) {
				switch g := ghostAt[v]; {
				case g != owned:
					if decrements[g] == 0 {
						touched = append(touched, g)
					}
					decrements[g]++
				case kc.core[v] == apps.Unreached:
					lower(v, 1, s)
				}
			})
		}
		for _, g := range touched {
			o := pt.GhostOwner[g]
			w.send[o] = append(w.send[o], Message{Vertex: pt.GhostRemote[g], Value: decrements[g]})
			decrements[g] = 0
		}
		compute := time.Since(start)
		var ph Phases
		clock := NewPhaseClock()
		var sent uint64
		for _, m := range w.send {
			sent += uint64(len(m))
		}
		recv, err := ex.AllToAll(ctx, w.rank, w.send)
		if err != nil {
			return fmt.Errorf("part %d: superstep %d: %w", w.rank, s, err)
		}
		clock.Lap(&ph.Exchange)
		for _, m := range recv {
			if uint64(m.Vertex) >= pt.NumLocal {
				return fmt.Errorf("part %d: superstep %d: a decrement for vertex %d, which the part does not own", w.rank, s, m.Vertex)
			}
			if v := kc.owned[m.Vertex]; kc.core[v] == apps.Unreached {
				lower(v, min(m.Value, kc.deg[v]), s)
			}
		}
		clock.Lap(&ph.Unpack)
		kc.live -= uint64(len(removed))
		gone, err := ex.AllReduceSum(ctx, w.rank, uint64(len(removed)))
		if err != nil {
			return fmt.Errorf("part %d: superstep %d: %w", w.rank, s, err)
		}
		live, err := ex.AllReduceSum(ctx, w.rank, kc.live)
		if err != nil {
			return fmt.Errorf("part %d: superstep %d: %w", w.rank, s, err)
		}
		clock.Lap(&ph.Reduce)
		w.steps = append(w.steps, rankStep{active: uint64(len(removed)), sent: sent, compute: compute, wall: time.Since(start), phases: ph})
		if live == 0 {
			w.done = true
			return nil
		}
		newK = gone == 0
		if newK {
			k++
		}
	}
}

// collect writes the owned vertices' core numbers at their original ids.
func (kc *kcorePart) collect(out []uint32) {
	global := kc.w.pt.Global
	for i, u := range kc.owned {
		out[global[i]] = kc.core[u]
	}
}
