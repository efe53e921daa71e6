package par

import (
	"context"
	"sync"
	"sync/atomic"
)

// WorklistChunk is the number of vertices handed between a Worklist's
// workers at once: a worker with more than twice this many waiting shares
// a chunk when another worker is idle, and the first vertices are dealt
// out in chunks.
const WorklistChunk = 256

// worklistCheckEvery is how many vertices a worker processes between
// checks of its context.
const worklistCheckEvery = 4096

// Visit processes vertex v for worker w and returns q with the vertices
// it queues appended.
type Visit func(w int, v uint32, q []uint32) []uint32

// Worklist runs the asynchronous, barrier-free passes (the CPU's async
// min programs and pr-delta, BC without levels): each worker processes
// its own FIFO of vertices in order, queueing what each visit releases,
// and a worker with a long queue gives chunks of it to idle workers
// through the shared pool. The pass is over when every worker is idle and
// nothing is shared. Which worker visits a vertex, and when, depends on
// the scheduling: a visit must be correct in any order.
type Worklist struct {
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

// NewWorklist returns a worklist of workers (at least one) that starts
// with the vertices first, dealt out in chunks, the first ones taken
// first.
func NewWorklist(workers int, first []uint32) *Worklist {
	p := &Worklist{workers: max(workers, 1)}
	p.cond = sync.NewCond(&p.mu)
	// take pops the last chunk: the first vertices go in last.
	for i := (len(first) - 1) / WorklistChunk * WorklistChunk; i >= 0 && len(first) > 0; i -= WorklistChunk {
		p.chunks = append(p.chunks, first[i:min(i+WorklistChunk, len(first))])
	}
	return p
}

// Run runs visit on every worker until the pass is over, and returns the
// first error (ctx's, when it ends first). A worklist runs once.
func (p *Worklist) Run(ctx context.Context, visit Visit) error {
	Fork(p.workers, func(w int) { p.work(ctx, w, visit) })
	return p.failure()
}

// Items returns the vertices the run processed; Shared those that
// workers handed to others. Call them after Run.
func (p *Worklist) Items() uint64  { return p.items.Load() }
func (p *Worklist) Shared() uint64 { return p.shared.Load() }

// take returns a chunk of work, or nil when the run is over (every worker
// idle and nothing shared) or failed. It is where a worker waits.
func (p *Worklist) take() []uint32 {
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
func (p *Worklist) give(c []uint32) {
	p.shared.Add(uint64(len(c)))
	p.mu.Lock()
	p.chunks = append(p.chunks, c)
	p.cond.Signal()
	p.mu.Unlock()
}

// fail ends the run with err.
func (p *Worklist) fail(err error) {
	p.mu.Lock()
	if p.err == nil {
		p.err = err
	}
	p.done = true
	p.cond.Broadcast()
	p.mu.Unlock()
}

// failure returns the error that ended the run, if any.
func (p *Worklist) failure() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// work is worker w's loop: take a chunk when its own queue is empty, visit
// its queue in order, share its queue's tail when it is long and a worker
// is idle.
func (p *Worklist) work(ctx context.Context, w int, visit Visit) {
	var q []uint32 // q[head:] waits
	head := 0
	var processed uint64
	defer func() { p.items.Add(processed) }()
	for {
		if head == len(q) {
			c := p.take()
			if c == nil {
				return
			}
			q, head = append(q[:0], c...), 0
		}
		v := q[head]
		head++
		processed++
		if processed%worklistCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				p.fail(err)
				return
			}
		}
		q = visit(w, v, q)
		if len(q)-head > 2*WorklistChunk && p.waiting.Load() > 0 {
			k := len(q) - WorklistChunk
			p.give(append([]uint32(nil), q[k:]...))
			q = q[:k]
		}
		if head >= worklistCheckEvery && head > len(q)/2 { // reuse the consumed front
			q, head = q[:copy(q, q[head:])], 0
		}
	}
}
