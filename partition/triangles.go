package partition

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// RunTriangles counts the triangles of an undirected graph over its parts
// (apps.TriangleCount's: self-loops and repeated arcs ignored), and with
// perVertex every vertex's triangles too (NetworkX's
// nx.triangles, at original ids). Each part lists its owned vertices'
// distinct neighbours in original ids; a triangle is counted by the part
// that owns its lowest vertex in (degree, original id) order, from the
// intersections of that vertex's list with its higher neighbours' lists,
// a ghost's read at its owner (the parts share the process's memory).
// The stats' messages are the ghosts' lists read.
//
// When every backend is a TriangleCounter (the GPU's) and host is false,
// the intersections run on the parts' devices instead: each part's
// oriented lists, and its ghosts' from their owners, go to its device as
// rows (TriangleRows), and the per-vertex counts come back by row.
func RunTriangles(ctx context.Context, parts []*Part, backends []engine.Backend, perVertex bool, host bool, workers int) (uint64, []uint64, Stats, error) {
	var st Stats
	fail := func(err error) (uint64, []uint64, Stats, error) {
		return 0, nil, st, fmt.Errorf("partition: run tc: %w", err)
	}
	if err := checkUndirectedParts("tc", parts, backends); err != nil {
		return fail(err)
	}
	n := parts[0].NumVertices
	st.Converged = true
	var per []uint64
	if perVertex {
		per = make([]uint64, n)
	}
	if n == 0 {
		return 0, per, st, nil
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	start := time.Now()
	ts := make([]*trianglePart, len(parts))
	var wg sync.WaitGroup
	for i, pt := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ts[i] = newTrianglePart(pt, backends[i], workers)
		}()
	}
	wg.Wait()
	loc := locator{owner: make([]uint32, n), local: make([]uint32, n)}
	for i, pt := range parts { // every vertex's owner and local id there (the parts' ids are disjoint)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j, v := range pt.Global[:pt.NumLocal] {
				loc.owner[v], loc.local[v] = uint32(i), uint32(j)
			}
		}()
	}
	wg.Wait()
	for _, tp := range ts {
		tp.loc = loc
	}
	for _, tp := range ts { // every part's lists exist: orient them
		wg.Add(1)
		go func() {
			defer wg.Done()
			tp.orient(ts)
		}()
	}
	wg.Wait()
	setup := time.Since(start)
	if counters := triangleCounters(backends); counters != nil && !host {
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		total, ws, err := countOnDevices(ts, counters, n, per)
		if err != nil {
			return fail(err)
		}
		for _, w := range ws {
			w.setup += setup
		}
		st = mergeStats(ws)
		return total, per, st, nil
	}
	ws := make([]*worker, len(parts))
	var total atomic.Uint64
	for i, tp := range ts {
		ws[i] = &worker{rank: i, setup: setup}
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			c, reads := tp.count(ts, per)
			total.Add(c)
			ws[i].steps = []rankStep{{active: tp.pt.NumLocal, sent: reads, compute: time.Since(start), wall: time.Since(start)}}
			ws[i].done = true
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	st = mergeStats(ws)
	st.Bytes = 0 // lists read in place, not messages
	for i := range st.Steps {
		st.Steps[i].Bytes = 0
	}
	return total.Load(), per, st, nil
}

// triangleCounters returns the backends as TriangleCounters, or nil when
// one is not.
func triangleCounters(backends []engine.Backend) []TriangleCounter {
	cs := make([]TriangleCounter, len(backends))
	for i, b := range backends {
		c, ok := b.(TriangleCounter)
		if !ok {
			return nil
		}
		cs[i] = c
	}
	return cs
}

// trianglePart is one part of RunTriangles: every owned vertex's distinct
// neighbours other than itself, in original ids, sorted (off, adj), and
// of them those above it in (degree, original id) order (plusOff, plus).
type trianglePart struct {
	pt           *Part
	workers      int
	off, plusOff []uint64
	adj, plus    []uint32
	loc          locator
}

// locator finds every vertex (original id) of a run: its owner part and
// its local id there.
type locator struct {
	owner, local []uint32
}

// triangleMemo is what RunTriangles keeps of a part between runs: the
// neighbour lists (they depend only on the part and its layout l). The
// orientation, which is the count's own work (as one backend's
// FilterArcs), is made every run.
type triangleMemo struct {
	mu  sync.Mutex
	l   *layout.Layout
	off []uint64
	adj []uint32
}

// newTrianglePart lists the owned vertices' neighbours from the part's
// layout rows (layout ids) in original ids, or takes the lists a run
// before kept for the same layout.
func newTrianglePart(pt *Part, b engine.Backend, workers int) *trianglePart {
	l := b.Layout()
	if m := pt.tri; m != nil {
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.l != l {
			tp := listTriangles(pt, l, workers)
			m.l, m.off, m.adj = l, tp.off, tp.adj
		}
		return &trianglePart{pt: pt, workers: workers, off: m.off, adj: m.adj}
	}
	return listTriangles(pt, l, workers)
}

// listTriangles lists the owned vertices' distinct neighbours, in
// original ids, from the layout's rows.
func listTriangles(pt *Part, l *layout.Layout, workers int) *trianglePart {
	orig := pt.OriginalIDs(l.Perm)
	tp := &trianglePart{pt: pt, workers: workers, off: make([]uint64, pt.NumLocal+1)}
	lists := make([][]uint32, pt.NumLocal)
	par.For(int(pt.NumLocal), workers, 1<<10, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			lid := l.Perm[i]
			row := l.SparseDst[l.SparseOffsets[lid]:l.SparseOffsets[lid+1]]
			list := make([]uint32, 0, len(row))
			for _, v := range row {
				if o := orig[v]; o != pt.Global[i] {
					list = append(list, o)
				}
			}
			slices.Sort(list)
			lists[i] = slices.Compact(list)
		}
	})
	for i, list := range lists {
		tp.off[i+1] = tp.off[i] + uint64(len(list))
	}
	tp.adj = make([]uint32, 0, tp.off[pt.NumLocal])
	for _, list := range lists {
		tp.adj = append(tp.adj, list...)
	}
	return tp
}

// list returns owned vertex i's neighbours (original ids).
func (tp *trianglePart) list(i uint32) []uint32 { return tp.adj[tp.off[i]:tp.off[i+1]] }

// above returns owned vertex i's neighbours above it.
func (tp *trianglePart) above(i uint32) []uint32 { return tp.plus[tp.plusOff[i]:tp.plusOff[i+1]] }

// where finds original vertex v, the part's own or one of its ghosts: the
// part that owns it and its local id there.
func (tp *trianglePart) where(all []*trianglePart, v uint32) (*trianglePart, uint32) {
	return all[tp.loc.owner[v]], tp.loc.local[v]
}

// orient keeps, of each owned vertex's neighbours, those above it in
// (degree, original id) order, a ghost's degree read at its owner (after
// every part's lists exist). Each worker fills one list for its range of
// vertices, then the ranges are copied into place: no list per vertex.
func (tp *trianglePart) orient(all []*trianglePart) {
	pt := tp.pt
	nl := int(pt.NumLocal)
	chunks := par.Split(nl, par.Workers(tp.workers))
	kept := make([][]uint32, len(chunks))
	tp.plusOff = make([]uint64, nl+1)
	par.ForChunks(chunks, func(c par.Chunk) {
		list := make([]uint32, 0, tp.off[c.Hi]-tp.off[c.Lo]) // at most every neighbour: no regrowth
		for i := c.Lo; i < c.Hi; i++ {
			u, lu := pt.Global[i], tp.list(uint32(i))
			for _, v := range lu {
				o, j := tp.where(all, v)
				if lv := len(o.list(j)); len(lu) < lv || (len(lu) == lv && u < v) {
					list = append(list, v)
				}
			}
			tp.plusOff[i+1] = uint64(len(list)) // within the chunk, until the scan below
		}
		kept[c.Index] = list
	})
	var base uint64
	for _, c := range chunks { // the chunks' offsets, made global
		for i := c.Lo; i < c.Hi; i++ {
			tp.plusOff[i+1] += base
		}
		base += uint64(len(kept[c.Index]))
	}
	tp.plus = make([]uint32, base)
	par.ForChunks(chunks, func(c par.Chunk) {
		copy(tp.plus[tp.plusOff[c.Lo]:], kept[c.Index])
	})
}

// triangleBlock is the owned vertices a worker of count takes at a time
// (dynamically: a hub's list costs far more than a leaf's).
const triangleBlock = 256

// count counts the triangles whose lowest vertex this part owns (adding
// each to per's three vertices, when per is not nil), and the ghosts'
// lists it read. For each owned vertex u it marks u's higher neighbours in
// the worker's bitset of all vertices, then tests every higher neighbour
// of each of them against the marks: a vertex with a thousand higher
// neighbours costs its neighbours' lists, not a thousand merges of its own
// list with theirs.
func (tp *trianglePart) count(all []*trianglePart, per []uint64) (uint64, uint64) {
	pt := tp.pt
	workers := par.Workers(tp.workers)
	marks := make([][]uint64, workers) // a bitset of every vertex per worker, made on first use
	words := (len(tp.loc.owner) + 63) / 64
	blocks := (int(pt.NumLocal) + triangleBlock - 1) / triangleBlock
	var total, reads atomic.Uint64
	par.Each(blocks, workers, func(w, b int) {
		if marks[w] == nil {
			marks[w] = make([]uint64, words)
		}
		mark := marks[w]
		var c, r uint64
		for i := b * triangleBlock; i < min((b+1)*triangleBlock, int(pt.NumLocal)); i++ {
			u, lu := pt.Global[i], tp.above(uint32(i))
			if len(lu) < 2 { // a triangle needs two higher neighbours
				continue
			}
			for _, x := range lu {
				mark[x>>6] |= 1 << (x & 63)
			}
			for _, v := range lu {
				o, j := tp.where(all, v)
				if o != tp {
					r++
				}
				for _, x := range o.above(j) {
					if mark[x>>6]&(1<<(x&63)) == 0 {
						continue
					}
					c++
					if per != nil {
						atomic.AddUint64(&per[u], 1)
						atomic.AddUint64(&per[v], 1)
						atomic.AddUint64(&per[x], 1)
					}
				}
			}
			for _, x := range lu {
				mark[x>>6] = 0 // a word may hold several marks: clear it whole
			}
		}
		total.Add(c)
		reads.Add(r)
	})
	return total.Load(), reads.Load()
}
