package cpu

import (
	"context"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/layout"
)

// Delta-stepping for the async runs of weighted min programs (SSSP), as
// GAPBS's sssp: a vertex lowered to value c goes to bin c / delta of the
// worker that lowered it. A step relaxes the current bin, gathered from
// every worker into one frontier that the workers take in chunks; each
// worker then relaxes the vertices it put in the current bin itself,
// again and again, while they are fewer than bucketFuse (GAPBS's bin
// fusion: no barrier for a bin's small remainder, and the vertices a worker
// found stay with it, in its cache); then the workers meet, the smallest
// non-empty bin of any worker becomes the current one, and its vertices
// form the next step's frontier. Three barriers per step, spinning (a
// step takes tens of microseconds: a parked thread would take as long to
// wake). A vertex whose value has fallen into an earlier bin since it was
// binned is skipped: it was relaxed from there.
//
// Bins are kept in a ring of bucketRing bins from the current one; a
// vertex lowered beyond the ring (an arc of hundreds of bucket widths)
// waits in its worker's overflow list, which moves into the ring when the
// current bin comes within a ring's length of its smallest bin.
const (
	bucketRing      = 256
	bucketFuse      = 1000
	bucketChunk     = 64
	bucketSpinYield = 256
	// bucketMaxBin caps the bin of a float32 value (+Inf's included).
	bucketMaxBin = 1 << 62
	// bucketNone stands for no bin (an empty ring or overflow).
	bucketNone = math.MaxUint64
)

// bucketRun is one delta-stepping run.
type bucketRun struct {
	values []uint32
	off    []uint64
	dst    []uint32
	wts    []uint32
	float  bool
	delta  uint32
	deltaF float64
	// Set by the leader (worker 0) between barriers, read by every worker
	// after them.
	frontier []uint32
	tail     int
	cur      uint64
	done     bool
	err      error
	steps    int
	taken    atomic.Int64 // the next frontier index to take
	bar      spinBarrier
	ws       []bucketWorker
}

// bucketWorker is one worker's bins, padded so that workers do not share
// cache lines.
type bucketWorker struct {
	ring      [][]uint32 // ring[b % bucketRing]: bin b, for b in [cur, cur+bucketRing)
	over      []uint32   // vertices lowered into bins beyond the ring when lowered
	overMin   uint64     // the smallest bin of over (when binned; bucketNone: empty)
	spare     []uint32   // a buffer the fusion swaps with the current bin
	spareOver []uint32   // a buffer unflow swaps with over
	low       uint64     // its smallest non-empty ring bin (reported at the step's end)
	offset    int        // where its current bin goes in the next frontier
	items     uint64
	_         [64]byte
}

// runBuckets runs the weighted min program of edge operation op from the
// vertices first to its fixed point by delta-stepping with bucket width
// delta (> 0) on workers goroutines (at most GOMAXPROCS), and returns what
// the run did.
func runBuckets(ctx context.Context, l *layout.Layout, op engine.EdgeOp, values []uint32, first []uint32, delta uint32, workers int) (engine.AsyncTrace, error) {
	// The workers wait for each other at spinning barriers: no more of
	// them than can run at once (the result does not depend on how many).
	workers = max(1, min(workers, runtime.GOMAXPROCS(0)))
	r := &bucketRun{values: values, off: l.SparseOffsets, dst: l.SparseDst, wts: l.SparseWeights,
		float: op == engine.EdgeSourcePlusFloat32Weight, delta: delta, ws: make([]bucketWorker, workers)}
	r.deltaF = float64(math.Float32frombits(delta))
	r.bar.n = int32(workers)
	for w := range r.ws {
		r.ws[w].ring = make([][]uint32, bucketRing)
		r.ws[w].low, r.ws[w].overMin = bucketNone, bucketNone
	}
	// Bin the first vertices (worker 0's), from the smallest bin among them.
	r.cur = bucketMaxBin
	for _, v := range first {
		if x := values[v]; x != math.MaxUint32 {
			r.cur = min(r.cur, r.bin(x))
		}
	}
	for _, v := range first {
		if x := values[v]; x != math.MaxUint32 {
			r.push(&r.ws[0], v, r.bin(x))
		}
	}
	r.ws[0].low = r.lowest(&r.ws[0])
	r.done = !r.nextBin()
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.work(ctx, w)
		}()
	}
	r.work(ctx, 0)
	wg.Wait()
	tr := engine.AsyncTrace{Buckets: r.steps, Delta: delta}
	for w := range r.ws {
		tr.Items += r.ws[w].items
	}
	return tr, r.err
}

// bin returns the bin of value x.
func (r *bucketRun) bin(x uint32) uint64 {
	if r.float {
		return uint64(min(float64(math.Float32frombits(x))/r.deltaF, bucketMaxBin))
	}
	return uint64(x / r.delta)
}

// push puts v, lowered into bin b (not before the current one), into
// worker ws's bins.
func (r *bucketRun) push(ws *bucketWorker, v uint32, b uint64) {
	if b-r.cur < bucketRing {
		s := &ws.ring[b%bucketRing]
		*s = append(*s, v)
		return
	}
	ws.over = append(ws.over, v)
	ws.overMin = min(ws.overMin, b)
}

// work is worker w's loop over the steps.
func (r *bucketRun) work(ctx context.Context, w int) {
	ws := &r.ws[w]
	for !r.done {
		cur, tail := r.cur, r.tail
		for {
			i := int(r.taken.Add(bucketChunk) - bucketChunk)
			if i >= tail {
				break
			}
			for _, u := range r.frontier[i:min(i+bucketChunk, tail)] {
				r.relax(ws, u, cur)
			}
		}
		slot := &ws.ring[cur%bucketRing]
		for len(*slot) > 0 && len(*slot) < bucketFuse {
			batch := *slot
			*slot, ws.spare = ws.spare[:0], batch
			for _, u := range batch {
				r.relax(ws, u, cur)
			}
		}
		ws.low = r.lowest(ws)
		r.bar.wait()
		if w == 0 {
			r.steps++
			if err := ctx.Err(); err != nil {
				r.err, r.done = err, true
			} else {
				r.done = !r.nextBin()
			}
		}
		r.bar.wait()
		if r.done {
			return
		}
		s := &ws.ring[r.cur%bucketRing]
		copy(r.frontier[ws.offset:], *s)
		*s = (*s)[:0]
		r.bar.wait()
	}
}

// relax relaxes the out-arcs of u, binned in bin cur, unless u's value has
// fallen into an earlier bin since (it was relaxed from there).
func (r *bucketRun) relax(ws *bucketWorker, u uint32, cur uint64) {
	x := atomic.LoadUint32(&r.values[u])
	if x == math.MaxUint32 || r.bin(x) < cur {
		return
	}
	ws.items++
	lo, hi := r.off[u], r.off[u+1]
	dst := r.dst[lo:hi]
	wts := r.wts[lo:hi]
	if r.float {
		xf := math.Float32frombits(x)
		for j, v := range dst {
			if c := math.Float32bits(xf + math.Float32frombits(wts[j])); lowerTo(&r.values[v], c) {
				r.push(ws, v, r.bin(c))
			}
		}
		return
	}
	for j, v := range dst {
		if c := x + wts[j]; c >= x && lowerTo(&r.values[v], c) { // c < x: saturated
			r.push(ws, v, r.bin(c))
		}
	}
}

// nextBin is the leader's step change, run while every other worker waits
// at the barrier: the smallest non-empty bin of any worker's ring (as each
// reported it in low) or overflow becomes the current one; the overflow
// vertices whose bins now fall within the ring move into it; and the
// workers' vertices in the current bin are given their places in the next
// frontier. It returns false when every bin is empty.
func (r *bucketRun) nextBin() bool {
	next := uint64(bucketNone)
	for w := range r.ws {
		next = min(next, r.ws[w].low, r.ws[w].overMin)
	}
	if next == bucketNone {
		return false
	}
	r.cur = next
	for w := range r.ws {
		if ws := &r.ws[w]; ws.overMin-next < bucketRing {
			r.unflow(ws)
		}
	}
	total := 0
	for w := range r.ws {
		ws := &r.ws[w]
		ws.offset = total
		total += len(ws.ring[next%bucketRing])
	}
	if cap(r.frontier) < total {
		r.frontier = make([]uint32, total, max(total, 2*cap(r.frontier)))
	}
	r.frontier, r.tail = r.frontier[:total], total
	r.taken.Store(0)
	return true
}

// unflow moves the overflow vertices of worker ws whose bins (by their
// values now) fall within the ring into it, drops those whose bins are
// before the current one (they were lowered since into a bin that has
// been relaxed: every bin before the current one is empty, and none of
// the overflow's is), and keeps the others, with their smallest bin.
func (r *bucketRun) unflow(ws *bucketWorker) {
	over := ws.over
	ws.over, ws.overMin = ws.spareOver[:0], bucketNone
	for _, v := range over {
		if b := r.bin(r.values[v]); b >= r.cur {
			r.push(ws, v, b)
		}
	}
	ws.spareOver = over[:0]
}

// lowest returns worker ws's smallest non-empty ring bin from the current
// one, or bucketNone.
func (r *bucketRun) lowest(ws *bucketWorker) uint64 {
	for b := r.cur; b < r.cur+bucketRing; b++ {
		if len(ws.ring[b%bucketRing]) > 0 {
			return b
		}
	}
	return bucketNone
}

// spinBarrier is a barrier of n goroutines that wait by spinning (yielding
// their P now and then).
type spinBarrier struct {
	n     int32
	count atomic.Int32
	gen   atomic.Uint32
}

// wait returns once all n goroutines have called it.
func (b *spinBarrier) wait() {
	g := b.gen.Load()
	if b.count.Add(1) == b.n {
		b.count.Store(0)
		b.gen.Add(1)
		return
	}
	for spins := 1; b.gen.Load() == g; spins++ {
		if spins%bucketSpinYield == 0 {
			runtime.Gosched()
		}
	}
}
