package partition

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
)

// Message is one packaged update: a vertex, in its owner part's local
// numbering (Part.GhostRemote), and the value the sender's ghost copy of it
// now has.
type Message struct {
	Vertex uint32 // the vertex's local id in the receiving (owner) part
	Value  uint32 // the sender's value for it (a level, distance or label)
}

// MessageBytes is the size of one Message on the wire.
const MessageBytes = 8

// Exchanger moves packaged updates between the parts of a run and reduces
// their counts: the communication layer of the superstep loop.
//
// Both methods are collective: in every superstep the worker of each part
// (rank 0..Parts()-1, one goroutine each) calls AllToAll once and then
// AllReduceSum once, in that order, and a call returns only when every
// rank has made the matching call (or ctx ends). This is the shape of
// NCCL's grouped ncclSend/ncclRecv and ncclAllReduce with one communicator
// rank per GPU, so a GPU implementation can replace MemExchanger without
// changing Run; it would move device buffers and needs the counts of
// AllToAll's messages exchanged first (an all-to-all of sizes).
//
// After a call has failed (an error or a cancelled context), the exchanger
// is in an undefined state and must not be used again; NCCL's equivalent
// is aborting the communicator (Aborter).
type Exchanger interface {
	// Parts returns the number of ranks.
	Parts() int
	// AllToAll sends send[q] to rank q for every q (send has Parts()
	// entries; send[rank] is normally empty) and returns the messages every
	// rank sent to this one, in rank order. The send slices may be reused
	// once AllToAll returns; the result belongs to the caller.
	AllToAll(ctx context.Context, rank int, send [][]Message) ([]Message, error)
	// AllReduceSum returns the sum of x over all ranks.
	AllReduceSum(ctx context.Context, rank int, x uint64) (uint64, error)
}

// Aborter is an Exchanger whose ranks can be stopped while they wait in a
// collective: Abort makes every pending and later call of every rank
// return an error (NCCL: ncclCommAbort), and the exchanger cannot be used
// again. A run aborts its exchanger when it stops early (a part's error,
// or ctx), so that no rank stays blocked in a collective that a stopped
// rank will never join: an exchanger whose calls honour ctx (MemExchanger,
// the peer copies' barriers) needs no Abort, NCCL's calls do.
type Aborter interface {
	Abort() error
}

// abortOnStop arranges for ex, when it is an Aborter, to be aborted as soon
// as runCtx ends, unless done is called first (the run's ranks have all
// returned: none waits in a collective). done must be called once the
// ranks have returned.
func abortOnStop(runCtx context.Context, ex any) (done func()) {
	a, ok := ex.(Aborter)
	if !ok {
		return func() {}
	}
	var finished atomic.Bool
	stop := context.AfterFunc(runCtx, func() {
		if !finished.Load() {
			a.Abort() // its error: the ranks' calls report the abort
		}
	})
	return func() {
		finished.Store(true)
		stop()
	}
}

// MemExchanger is the in-memory Exchanger: the ranks are goroutines of one
// process, and messages are copied between their slices. It serves the CPU
// backend and tests; make a new one for every run.
type MemExchanger struct {
	n    int
	bar  *Barrier
	box  [][][]Message // box[to][from]
	sums []uint64
}

var _ Exchanger = (*MemExchanger)(nil)

// NewMemExchanger returns an in-memory exchanger between parts ranks.
func NewMemExchanger(parts int) *MemExchanger {
	e := &MemExchanger{n: parts, bar: NewBarrier(parts), sums: make([]uint64, parts)}
	e.box = make([][][]Message, parts)
	for i := range e.box {
		e.box[i] = make([][]Message, parts)
	}
	return e
}

// Parts returns the number of ranks.
func (e *MemExchanger) Parts() int { return e.n }

// AllToAll implements Exchanger: every rank posts its outgoing slices, and
// after a barrier copies the ones addressed to it; a second barrier keeps
// the senders' slices untouched until every rank has copied them.
func (e *MemExchanger) AllToAll(ctx context.Context, rank int, send [][]Message) ([]Message, error) {
	if rank < 0 || rank >= e.n || len(send) != e.n {
		return nil, fmt.Errorf("exchange: rank %d of %d sends to %d ranks", rank, e.n, len(send))
	}
	for q, m := range send {
		e.box[q][rank] = m
	}
	if err := e.bar.Wait(ctx); err != nil {
		return nil, fmt.Errorf("exchange: rank %d: %w", rank, err)
	}
	total := 0
	for _, m := range e.box[rank] {
		total += len(m)
	}
	recv := make([]Message, 0, total)
	for _, m := range e.box[rank] {
		recv = append(recv, m...)
	}
	if err := e.bar.Wait(ctx); err != nil {
		return nil, fmt.Errorf("exchange: rank %d: %w", rank, err)
	}
	return recv, nil
}

// AllReduceSum implements Exchanger.
func (e *MemExchanger) AllReduceSum(ctx context.Context, rank int, x uint64) (uint64, error) {
	if rank < 0 || rank >= e.n {
		return 0, fmt.Errorf("all-reduce: rank %d of %d", rank, e.n)
	}
	e.sums[rank] = x
	if err := e.bar.Wait(ctx); err != nil {
		return 0, fmt.Errorf("all-reduce: rank %d: %w", rank, err)
	}
	var sum uint64
	for _, s := range e.sums {
		sum += s
	}
	if err := e.bar.Wait(ctx); err != nil {
		return 0, fmt.Errorf("all-reduce: rank %d: %w", rank, err)
	}
	return sum, nil
}

// Barrier is a reusable barrier of n goroutines whose waits end with the
// context: the last arrival of a generation closes that generation's
// channel. After a wait ends by its context the barrier is broken (the
// exchangers built on it are not reused after a failed call).
type Barrier struct {
	mu    sync.Mutex
	n     int
	count int
	ch    chan struct{}
}

// NewBarrier returns a barrier of n goroutines.
func NewBarrier(n int) *Barrier { return &Barrier{n: n, ch: make(chan struct{})} }

// Wait returns when all n goroutines have called it (this generation), or
// with ctx's error when ctx ends first.
func (b *Barrier) Wait(ctx context.Context) error {
	b.mu.Lock()
	ch := b.ch
	b.count++
	if b.count == b.n {
		b.count = 0
		b.ch = make(chan struct{})
		b.mu.Unlock()
		close(ch)
		return nil
	}
	b.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// hostSums sums numbers over the parts of a host run whose parts share the
// process's memory (RunHITS, RunMIS, RunColor): each part posts its own,
// and after a barrier reads everyone's.
type hostSums struct {
	bar    *Barrier
	posted [][3]float64 // by part
}

// newHostSums returns the sums of parts parts meeting at bar.
func newHostSums(bar *Barrier, parts int) *hostSums {
	return &hostSums{bar: bar, posted: make([][3]float64, parts)}
}

// sum posts part rank's x and returns the sums over the parts (collective:
// two barriers, the second keeping the posts until all have read them).
func (h *hostSums) sum(ctx context.Context, rank int, x [3]float64) ([3]float64, error) {
	h.posted[rank] = x
	var s [3]float64
	if err := h.bar.Wait(ctx); err != nil {
		return s, err
	}
	for _, p := range h.posted {
		for k := range s {
			s[k] += p[k]
		}
	}
	return s, h.bar.Wait(ctx)
}
