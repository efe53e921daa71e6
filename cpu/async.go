package cpu

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/layout"
)

// asyncChunk is the number of vertices handed between workers at once: a
// worker with more than twice this many waiting shares a chunk when another
// worker is idle, and the first frontier is dealt out in chunks.
const asyncChunk = 256

// asyncCheckEvery is how many vertices a worker processes between checks of
// its context.
const asyncCheckEvery = 4096

// asyncRunner runs monotone min programs in engine.Async mode: the CPU twin
// of the device's async kernel (cuda.MinRun.Async). Each worker processes
// its own FIFO of vertices, relaxing every out-arc with an atomic min on the
// destination and queueing the destinations it lowered; a worker with a
// long queue gives chunks of it to idle workers through a shared pool. No
// iteration barrier: a lowered value is read by the next relaxation that
// loads it. A LabelJumper's label is followed to the end of its chain of
// smaller labels before it is sent. With near-far (delta > 0) a value at or above the split waits in
// a far pile until every worker is idle; the split then moves past the
// smallest piled value.
type asyncRunner struct {
	l       *layout.Layout
	workers int
	delta   uint32
	opts    engine.RunOptions
}

// Run runs p from f to its fixed point; see engine.Runner. The result
// counts the run as one iteration (with one trace record).
func (r *asyncRunner) Run(ctx context.Context, p engine.Program[uint32], values []uint32, f *engine.Frontier) (engine.Result, error) {
	var res engine.Result
	l := r.l
	if _, ok := p.(engine.Monotone); !ok {
		return res, fmt.Errorf("cpu backend: %T: %w", p, engine.ErrNotMonotone)
	}
	if err := engine.CheckRun(l, p, values, f); err != nil {
		return res, err
	}
	op := p.Edge()
	_, jump := p.(engine.LabelJumper)
	delta := uint32(0)
	if op.Weighted() {
		delta = r.delta
	}
	start := time.Now()
	pool := newAsyncPool(r.workers, values, delta, f.List(r.workers))
	pool.op = op
	if err := pool.run(ctx, minVisit(pool, l, op, jump, values)); err != nil {
		res.Seconds = time.Since(start).Seconds()
		return res, err
	}
	res.Seconds = time.Since(start).Seconds()
	res.Iterations = 1
	if opts := r.opts; opts.Trace {
		res.Trace = append(res.Trace, pool.trace(delta).Record(res.Seconds, engine.Phase{Name: "async", Seconds: res.Seconds}))
	}
	return res, nil
}

// asyncPool is the work the workers share: chunks of vertices, the idle
// count by which they detect the end, and near-far's piles (one per worker,
// read by whoever changes the bucket while every worker is idle).
type asyncPool struct {
	mu      sync.Mutex
	cond    *sync.Cond
	chunks  [][]uint32
	idle    int // workers waiting in take
	workers int
	done    bool
	err     error
	split   uint32        // near-far: values below it are near
	delta   uint32        // near-far bucket width, 0: off
	op      engine.EdgeOp // how the split moves by delta (engine.NearFarAdd)
	far     [][]uint32    // per worker
	inFar   []uint32      // 1: the vertex is in a far pile
	buckets int
	items   atomic.Uint64
	shared  atomic.Uint64 // vertices given to the pool by workers
	waiting atomic.Int32  // idle, readable without the lock (a hint)
	values  []uint32
}

func newAsyncPool(workers int, values []uint32, delta uint32, first []uint32) *asyncPool {
	p := &asyncPool{workers: workers, delta: delta, split: math.MaxUint32, values: values}
	p.cond = sync.NewCond(&p.mu)
	// take pops the last chunk: the first vertices go in last, to be taken
	// first (CC's smallest labels spread before the others).
	for i := (len(first) - 1) / asyncChunk * asyncChunk; i >= 0 && len(first) > 0; i -= asyncChunk {
		p.chunks = append(p.chunks, first[i:min(i+asyncChunk, len(first))])
	}
	if delta > 0 {
		p.split = delta
		p.far = make([][]uint32, workers)
		p.inFar = make([]uint32, len(values))
	}
	return p
}

// take returns a chunk of work and the current split, or nil when the run
// is over (every worker idle, nothing shared and nothing piled) or failed.
// It is where a worker waits, and where the last worker to go idle changes
// near-far's bucket.
func (p *asyncPool) take() ([]uint32, uint32) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		if p.done {
			return nil, 0
		}
		if k := len(p.chunks); k > 0 {
			c := p.chunks[k-1]
			p.chunks = p.chunks[:k-1]
			return c, p.split
		}
		p.idle++
		p.waiting.Add(1)
		if p.idle == p.workers {
			if !p.nextBucket() {
				p.idle--
				p.waiting.Add(-1)
				p.done = true
				p.cond.Broadcast()
				return nil, 0
			}
			p.idle--
			p.waiting.Add(-1)
			p.cond.Broadcast()
			continue
		}
		p.cond.Wait()
		p.idle--
		p.waiting.Add(-1)
	}
}

// nextBucket moves the split past the smallest piled value and the piled
// vertices below it into the shared chunks; false when nothing is piled.
// The caller holds the lock and every other worker waits in take.
func (p *asyncPool) nextBucket() bool {
	if p.delta == 0 {
		return false
	}
	low := uint32(math.MaxUint32)
	for _, pile := range p.far {
		for _, v := range pile {
			low = min(low, p.values[v])
		}
	}
	if low == math.MaxUint32 {
		return false
	}
	p.split = engine.NearFarAdd(p.op, max(p.split, low), p.delta)
	var near []uint32
	for w, pile := range p.far {
		kept := pile[:0]
		for _, v := range pile {
			if p.values[v] < p.split {
				p.inFar[v] = 0
				near = append(near, v)
			} else {
				kept = append(kept, v)
			}
		}
		p.far[w] = kept
	}
	for i := 0; i < len(near); i += asyncChunk {
		p.chunks = append(p.chunks, near[i:min(i+asyncChunk, len(near))])
	}
	p.buckets++
	return true
}

// give shares a chunk with the idle workers.
func (p *asyncPool) give(c []uint32) {
	p.shared.Add(uint64(len(c)))
	p.mu.Lock()
	p.chunks = append(p.chunks, c)
	p.cond.Signal()
	p.mu.Unlock()
}

// fail ends the run with err.
func (p *asyncPool) fail(err error) {
	p.mu.Lock()
	if p.err == nil {
		p.err = err
	}
	p.done = true
	p.cond.Broadcast()
	p.mu.Unlock()
}

// trace is what the run did, for its trace record (delta: its near-far
// bucket width). Call it after the run.
func (p *asyncPool) trace(delta uint32) engine.AsyncTrace {
	return engine.AsyncTrace{Items: p.items.Load(), Shared: p.shared.Load(), Buckets: p.buckets, Delta: delta}
}

// failure returns the error that ended the run, if any.
func (p *asyncPool) failure() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// visitFunc processes vertex v for worker w (with near-far's current
// split) and returns q with the vertices it queues appended.
type visitFunc func(w int, v, split uint32, q []uint32) []uint32

// run runs visit on every worker until the run is over, and returns the
// first error.
func (p *asyncPool) run(ctx context.Context, visit visitFunc) error {
	var wg sync.WaitGroup
	errs := make([]error, p.workers)
	for w := range p.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[w] = p.work(ctx, w, visit)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// work is worker w's loop: take a chunk when its own queue is empty, and
// visit its queue in order.
func (p *asyncPool) work(ctx context.Context, w int, visit visitFunc) error {
	var q []uint32 // q[head:] waits
	head := 0
	split := uint32(math.MaxUint32)
	var processed uint64
	defer func() { p.items.Add(processed) }()
	for {
		if head == len(q) {
			c, s := p.take()
			if c == nil {
				return p.failure()
			}
			q, head, split = append(q[:0], c...), 0, s
		}
		v := q[head]
		head++
		processed++
		if processed%asyncCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				p.fail(err)
				return err
			}
		}
		q = visit(w, v, split, q)
		if len(q)-head > 2*asyncChunk && p.waiting.Load() > 0 {
			k := len(q) - asyncChunk
			p.give(append([]uint32(nil), q[k:]...))
			q = q[:k]
		}
		if head >= asyncCheckEvery && head > len(q)/2 { // reuse the consumed front
			q, head = q[:copy(q, q[head:])], 0
		}
	}
}

// minVisit relaxes v's out-arcs with an atomic min on each destination
// (program p's edge operation op) and queues the destinations it lowered,
// or piles them when at or above the split.
func minVisit(p *asyncPool, l *layout.Layout, op engine.EdgeOp, jump bool, values []uint32) visitFunc {
	off, dst, wts := l.SparseOffsets, l.SparseDst, l.SparseWeights
	return func(w int, v, split uint32, q []uint32) []uint32 {
		dv := atomic.LoadUint32(&values[v])
		if jump {
			dv = follow(values, dv)
		}
		for e := off[v]; e < off[v+1]; e++ {
			c := dv
			switch op {
			case engine.EdgeSourcePlusOne:
				c = satAdd(dv, 1)
			case engine.EdgeSourcePlusWeight:
				c = satAdd(dv, wts[e])
			case engine.EdgeSourcePlusFloat32Weight:
				c = engine.AddFloat32Bits(dv, wts[e])
			}
			u := dst[e]
			if c == math.MaxUint32 || !lowerTo(&values[u], c) {
				continue
			}
			if c >= split { // near-far: wait in this worker's pile
				if atomic.SwapUint32(&p.inFar[u], 1) == 0 {
					p.far[w] = append(p.far[w], u)
				}
				continue
			}
			q = append(q, u)
		}
		return q
	}
}

// follow returns the end of the chain of decreasing labels from c.
func follow(values []uint32, c uint32) uint32 {
	for c != math.MaxUint32 {
		nx := atomic.LoadUint32(&values[c])
		if nx >= c {
			break
		}
		c = nx
	}
	return c
}

// lowerTo lowers *p to x if x is smaller and reports whether it did.
func lowerTo(p *uint32, x uint32) bool {
	for {
		old := atomic.LoadUint32(p)
		if x >= old {
			return false
		}
		if atomic.CompareAndSwapUint32(p, old, x) {
			return true
		}
	}
}

// satAdd adds w to x, saturating at math.MaxUint32 ("infinite").
func satAdd(x, w uint32) uint32 {
	s := x + w
	if s < x {
		return math.MaxUint32
	}
	return s
}
