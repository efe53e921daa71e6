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
// smaller labels before it is sent. A weighted program (SSSP) with a
// bucket width delta > 0 runs by delta-stepping instead (runBuckets,
// buckets.go).
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
	if delta > 0 {
		// SSSP: delta-stepping (buckets.go).
		tr, err := runBuckets(ctx, l, op, values, f.List(r.workers), delta, r.workers)
		res.Seconds = time.Since(start).Seconds()
		if err != nil {
			return res, err
		}
		res.Iterations = 1
		if r.opts.Trace {
			res.Trace = append(res.Trace, tr.Record(res.Seconds, engine.Phase{Name: "async", Seconds: res.Seconds}))
		}
		return res, nil
	}
	pool := newAsyncPool(r.workers, f.List(r.workers))
	if err := pool.run(ctx, minVisit(l, op, jump, values)); err != nil {
		res.Seconds = time.Since(start).Seconds()
		return res, err
	}
	res.Seconds = time.Since(start).Seconds()
	res.Iterations = 1
	if opts := r.opts; opts.Trace {
		res.Trace = append(res.Trace, pool.trace().Record(res.Seconds, engine.Phase{Name: "async", Seconds: res.Seconds}))
	}
	return res, nil
}

// asyncPool is the work the workers share: chunks of vertices, and the
// idle count by which they detect the end.
type asyncPool struct {
	mu      sync.Mutex
	cond    *sync.Cond
	chunks  [][]uint32
	idle    int // workers waiting in take
	workers int
	done    bool
	err     error
	items   atomic.Uint64
	shared  atomic.Uint64 // vertices given to the pool by workers
	waiting atomic.Int32  // idle, readable without the lock (a hint)
}

func newAsyncPool(workers int, first []uint32) *asyncPool {
	p := &asyncPool{workers: workers}
	p.cond = sync.NewCond(&p.mu)
	// take pops the last chunk: the first vertices go in last, to be taken
	// first (CC's smallest labels spread before the others).
	for i := (len(first) - 1) / asyncChunk * asyncChunk; i >= 0 && len(first) > 0; i -= asyncChunk {
		p.chunks = append(p.chunks, first[i:min(i+asyncChunk, len(first))])
	}
	return p
}

// take returns a chunk of work, or nil when the run is over (every worker
// idle and nothing shared) or failed. It is where a worker waits.
func (p *asyncPool) take() []uint32 {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		if p.done {
			return nil
		}
		if k := len(p.chunks); k > 0 {
			c := p.chunks[k-1]
			p.chunks = p.chunks[:k-1]
			return c
		}
		p.idle++
		p.waiting.Add(1)
		if p.idle == p.workers {
			p.idle--
			p.waiting.Add(-1)
			p.done = true
			p.cond.Broadcast()
			return nil
		}
		p.cond.Wait()
		p.idle--
		p.waiting.Add(-1)
	}
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

// trace is what the run did, for its trace record. Call it after the run.
func (p *asyncPool) trace() engine.AsyncTrace {
	return engine.AsyncTrace{Items: p.items.Load(), Shared: p.shared.Load()}
}

// failure returns the error that ended the run, if any.
func (p *asyncPool) failure() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// visitFunc processes vertex v for worker w and returns q with the
// vertices it queues appended.
type visitFunc func(w int, v uint32, q []uint32) []uint32

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
	var processed uint64
	defer func() { p.items.Add(processed) }()
	for {
		if head == len(q) {
			c := p.take()
			if c == nil {
				return p.failure()
			}
			q, head = append(q[:0], c...), 0
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
		q = visit(w, v, q)
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
// (the program's edge operation op) and queues the destinations it
// lowered.
func minVisit(l *layout.Layout, op engine.EdgeOp, jump bool, values []uint32) visitFunc {
	off, dst, wts := l.SparseOffsets, l.SparseDst, l.SparseWeights
	return func(_ int, v uint32, q []uint32) []uint32 {
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
			if c != math.MaxUint32 && lowerTo(&values[u], c) {
				q = append(q, u)
			}
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
