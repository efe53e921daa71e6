package partition

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/internal/par"
)

// TriangleRows are one part's rows for a triangle count on its device
// (TriangleCounter): every row lists a vertex's neighbours above it in
// (degree, original id) order, in original ids, sorted. Rows
// [0, NumLocal) are the part's owned vertices (its local ids), the others
// the ghosts the owned rows name (Orig gives every row's original id).
// ArcSrc and ArcRow give, for each arc of the owned rows (the first
// entries of Adj), its source's row and its destination's.
type TriangleRows struct {
	Offsets        []uint64
	Adj            []uint32
	ArcSrc, ArcRow []uint32
	Orig           []uint32
}

// TriangleCounter is a backend that counts a part's triangles on its
// device: the intersections of every owned row's arcs (RunTriangles uses
// it when every part's backend is one and the run is not told to stay on
// the host). It returns the part's triangles and, with perRow, every
// row's.
type TriangleCounter interface {
	CountPartTriangles(rows *TriangleRows, perRow bool) (total uint64, counts []uint64, err error)
}

// rows makes the part's TriangleRows (after every part's orientation):
// its owned vertices' rows, then a row for each ghost one of them names
// (in ghost order), taken from the ghost's owner. rowOf is n zeros of
// scratch, which it leaves zero.
func (tp *trianglePart) rows(all []*trianglePart, rowOf []uint32) *TriangleRows {
	pt := tp.pt
	nl := int(pt.NumLocal)
	me := uint32(pt.Index)
	// The ghosts the owned rows name (rowOf 1), then every row's number + 1:
	// the owned vertices' their local ids, the named ghosts' in ghost order.
	par.For(nl, tp.workers, 1<<10, func(lo, hi int) {
		for _, v := range tp.plus[tp.plusOff[lo]:tp.plusOff[hi]] {
			if tp.loc.owner[v] != me {
				atomic.StoreUint32(&rowOf[v], 1)
			}
		}
	})
	r := &TriangleRows{Orig: make([]uint32, nl, nl+int(pt.NumGhosts))}
	copy(r.Orig, pt.Global[:nl])
	for _, v := range pt.Global[nl:] {
		if rowOf[v] == 1 {
			r.Orig = append(r.Orig, v)
			rowOf[v] = uint32(len(r.Orig)) // its row + 1
		}
	}
	par.For(nl, tp.workers, 1<<14, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			rowOf[pt.Global[i]] = uint32(i) + 1
		}
	})
	// The rows' offsets: the owned rows' oriented lists, then the ghosts'
	// at their owners.
	rows := len(r.Orig)
	r.Offsets = make([]uint64, rows+1)
	copy(r.Offsets, tp.plusOff)
	for k, v := range r.Orig[nl:] {
		o, j := tp.where(all, v)
		r.Offsets[nl+k+1] = r.Offsets[nl+k] + uint64(len(o.above(j)))
	}
	arcs := tp.plusOff[nl]
	r.Adj = make([]uint32, r.Offsets[rows])
	r.ArcSrc, r.ArcRow = make([]uint32, arcs), make([]uint32, arcs)
	par.For(nl, tp.workers, 1<<10, func(lo, hi int) {
		copy(r.Adj[tp.plusOff[lo]:tp.plusOff[hi]], tp.plus[tp.plusOff[lo]:tp.plusOff[hi]])
		for i := lo; i < hi; i++ {
			for e := tp.plusOff[i]; e < tp.plusOff[i+1]; e++ {
				r.ArcSrc[e], r.ArcRow[e] = uint32(i), rowOf[tp.plus[e]]-1
			}
		}
	})
	par.For(rows-nl, tp.workers, 1<<10, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			o, j := tp.where(all, r.Orig[nl+k])
			copy(r.Adj[r.Offsets[nl+k]:r.Offsets[nl+k+1]], o.above(j))
		}
	})
	par.For(rows, tp.workers, 1<<14, func(lo, hi int) { // leave rowOf zero for the next part
		for _, v := range r.Orig[lo:hi] {
			rowOf[v] = 0
		}
	})
	return r
}

// countOnDevices is RunTriangles' count on the parts' devices (counters:
// the parts' backends): each part's rows are made on the host, the
// intersections run on its device, and the per-row counts (with per) are
// added at their original ids. It returns the triangles, the ghosts' rows
// each part took and the parts' times.
func countOnDevices(ts []*trianglePart, counters []TriangleCounter, n uint64, per []uint64) (uint64, []*worker, error) {
	ws := make([]*worker, len(ts))
	counts := make([][]uint64, len(ts))
	rows := make([]*TriangleRows, len(ts))
	var total atomic.Uint64
	var wg sync.WaitGroup
	for i, tp := range ts {
		w := &worker{rank: i}
		ws[i] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			rows[i] = tp.rows(ts, make([]uint32, n))
			w.setup = time.Since(start)
			start = time.Now()
			c, per, err := counters[i].CountPartTriangles(rows[i], per != nil)
			if err != nil {
				w.err = fmt.Errorf("part %d: %w", i, err)
				return
			}
			total.Add(c)
			counts[i] = per
			sent := uint64(len(rows[i].Orig)) - tp.pt.NumLocal // ghosts' rows taken
			w.steps = []rankStep{{active: tp.pt.NumLocal, sent: sent, compute: time.Since(start), wall: time.Since(start)}}
			w.done = true
		}()
	}
	wg.Wait()
	for _, w := range ws {
		if w.err != nil {
			return 0, nil, w.err
		}
	}
	if per != nil {
		start := time.Now()
		for i, c := range counts { // part after part: their rows may share vertices
			if len(c) != len(rows[i].Orig) {
				return 0, nil, fmt.Errorf("part %d: %d row counts for %d rows", i, len(c), len(rows[i].Orig))
			}
			for r, x := range c {
				per[rows[i].Orig[r]] += x
			}
		}
		ws[0].collect = time.Since(start)
	}
	return total.Load(), ws, nil
}
