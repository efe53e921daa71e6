package cpu

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

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
	pool := par.NewWorklist(r.workers, f.List(r.workers))
	if err := pool.Run(ctx, minVisit(l, op, jump, values)); err != nil {
		res.Seconds = time.Since(start).Seconds()
		return res, err
	}
	res.Seconds = time.Since(start).Seconds()
	res.Iterations = 1
	if opts := r.opts; opts.Trace {
		res.Trace = append(res.Trace, worklistTrace(pool).Record(res.Seconds, engine.Phase{Name: "async", Seconds: res.Seconds}))
	}
	return res, nil
}

// worklistTrace is what a worklist's run did, for its trace record.
func worklistTrace(p *par.Worklist) engine.AsyncTrace {
	return engine.AsyncTrace{Items: p.Items(), Shared: p.Shared()}
}

// minVisit relaxes v's out-arcs with an atomic min on each destination
// (the program's edge operation op) and queues the destinations it
// lowered.
func minVisit(l *layout.Layout, op engine.EdgeOp, jump bool, values []uint32) par.Visit {
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
