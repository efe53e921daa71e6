package apps

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// bcAsyncScratchName names BC's async buffers in a backend's scratch.
const bcAsyncScratchName = "apps.bc-async"

// bcAsyncCountGrain is how many vertices a worker of the counting pass
// takes at a time (par.Dynamic): rows are uneven (a hub's is long).
const bcAsyncCountGrain = 2048

// bcAsyncScratch is what BC in mode async keeps between calls on a backend
// that keeps scratch (engine.ScratchBackend), as bcScratch: its per-vertex
// arrays (36 bytes a vertex) and its result, all in the forward numbering
// but the result (original ids).
type bcAsyncScratch struct {
	level  []uint32  // BFS levels (Unreached where unreached)
	sigma  []float64 // path counts σ
	coef   []float64 // (1+δ)/σ of the vertices the backward pass settled
	pred   []int32   // DAG predecessors whose σ is still to come
	succ   []int32   // DAG successors whose δ is still to come
	result []float64
	ws     []bcAsyncWorker
}

// bcAsyncWorker is one worker's state in a pass: the out-arcs it read and
// the DAG's leaves it found (forward pass), padded so that workers do not
// share cache lines.
type bcAsyncWorker struct {
	arcs   uint64
	leaves []uint32
	_      [32]byte
}

// inArcsBackend is a backend that keeps its layout's in-adjacency (the
// CPU's: cpu.Backend.In).
type inArcsBackend interface {
	In() *layout.InArcs
}

// bcAsync is BC (see BC) in engine.Async mode on a backend without a
// device, in the spirit of the GPU's (kernels/bcasync.cu): no level
// barriers. For each source:
//
//   - an asynchronous BFS (fwd's async runner, bfsProgram) gives the
//     depths, which fix the shortest-path DAG: the arcs from depth d to
//     d+1;
//   - a parallel pass counts each reached vertex's DAG predecessors (its
//     in-arcs from depth d−1);
//   - the forward pass is a worklist that starts from the source: a vertex
//     taken from it pulls its path count σ from its predecessors (all
//     final), then decrements the count of each DAG successor (an atomic
//     add), and the decrement that brings a count to zero queues that
//     successor; the vertices with no successor are the DAG's leaves;
//   - the backward pass is a worklist that starts from the leaves: a
//     vertex taken from it pulls its dependency δ from its successors,
//     δ(v) = σ(v) Σ (1+δ(w))/σ(w), adds it to the result (the source
//     excepted), then decrements its predecessors' counts of successors
//     still to come, queueing those it brings to zero.
//
// Each reached vertex is processed once per pass, and the atomic count that
// releases a vertex orders every value it pulls before the pull. The pulls
// add in row order, as BC by levels (bclevels.go) does: the scores are
// those of the levels' passes, whatever the scheduling. Where the GPU
// pushes σ and δ with atomic float additions, the CPU pulls them, which
// needs a vertex's in-arcs: on an undirected graph its out-row, on a
// directed one the backend's in-adjacency (inArcsBackend, kept by the
// backend; on another backend the layout's, built per call), so directed
// graphs run too, in fwd's numbering (bwd is not used).
func bcAsync(ctx context.Context, fwd engine.Backend, sources []uint32, opts engine.RunOptions) ([]float64, engine.Result, error) {
	var total engine.Result
	if err := refuseAsyncCap("bc", opts, opts.MaxIterations); err != nil {
		return nil, total, err
	}
	l := fwd.Layout()
	workers := par.Workers(fwd.Workers())
	bfsOpts := opts
	bfsOpts.Mode = engine.Async
	bfs, err := engine.NewRunner[uint32](fwd, bfsOpts)
	if err != nil {
		return nil, total, fmt.Errorf("bc: %w", err)
	}
	var in *layout.InArcs
	if ib, ok := fwd.(inArcsBackend); ok {
		in = ib.In()
	} else {
		in = l.In(workers)
	}
	scratch := engine.ScratchOf(fwd)
	bufs, _ := scratch.Take(bcAsyncScratchName).(*bcAsyncScratch)
	if bufs == nil {
		bufs = new(bcAsyncScratch)
	}
	defer scratch.Put(bcAsyncScratchName, bufs)
	nv := int(l.NumVertices)
	bufs.level, bufs.sigma, bufs.coef = engine.Sized(bufs.level, nv), engine.Sized(bufs.sigma, nv), engine.Sized(bufs.coef, nv)
	bufs.pred, bufs.succ = engine.Sized(bufs.pred, nv), engine.Sized(bufs.succ, nv)
	bufs.result = engine.Sized(bufs.result, nv)
	if len(bufs.ws) != workers {
		bufs.ws = make([]bcAsyncWorker, workers)
	}
	r := &bcAsyncRun{
		off: l.SparseOffsets, dst: l.SparseDst, inOff: in.Offsets, inSrc: in.Src, orig: l.InvPerm,
		level: bufs.level, sigma: bufs.sigma, coef: bufs.coef, pred: bufs.pred, succ: bufs.succ,
		result: bufs.result, ws: bufs.ws, workers: workers,
	}
	fill(r.result, 0, workers)
	for _, source := range sources {
		if err := ctx.Err(); err != nil {
			return nil, total, err
		}
		s, err := checkSource(l, source)
		if err != nil {
			return nil, total, err
		}
		res, err := r.source(ctx, bfs, s, opts.Trace)
		if err != nil {
			return nil, total, err
		}
		total.Add(res)
	}
	return r.result, total, nil
}

// bcAsyncRun is the state of BC in mode async over one layout for one BC
// call (see bcAsync), in the forward numbering.
type bcAsyncRun struct {
	off         []uint64 // out-rows
	dst         []uint32
	inOff       []uint64 // in-rows (the out-rows of an undirected graph)
	inSrc       []uint32
	orig        []uint32 // InvPerm
	level       []uint32
	sigma, coef []float64
	pred, succ  []int32
	result      []float64
	ws          []bcAsyncWorker
	workers     int
	s           uint32 // the source in progress
}

// source adds source s's dependencies into r.result: the BFS on bfs, the
// counts, the forward pass and the backward pass (see bcAsync). It is one
// iteration; with trace, one record of mode async.
func (r *bcAsyncRun) source(ctx context.Context, bfs engine.Runner[uint32], s uint32, trace bool) (engine.Result, error) {
	start := time.Now()
	var res engine.Result
	level := r.level
	fill(level, Unreached, r.workers)
	level[s] = 0
	bres, err := bfs.Run(ctx, bfsProgram{}, level, engine.NewFrontierList(uint64(len(level)), []uint32{s}))
	if err != nil {
		return res, fmt.Errorf("bc: %w", err)
	}
	bfsDone := time.Now()
	if err := ctx.Err(); err != nil {
		return res, err
	}
	r.s = s
	r.count()
	countDone := time.Now()
	if err := ctx.Err(); err != nil {
		return res, err
	}
	r.sigma[s] = 1
	for w := range r.ws {
		r.ws[w].arcs, r.ws[w].leaves = 0, r.ws[w].leaves[:0]
	}
	fwdItems, arcs, err := r.pass(ctx, []uint32{s}, r.forward)
	if err != nil {
		return res, err
	}
	fwdDone := time.Now()
	var first []uint32
	for w := range r.ws {
		first = append(first, r.ws[w].leaves...)
	}
	backItems, _, err := r.pass(ctx, first, r.backward)
	if err != nil {
		return res, err
	}
	res.Iterations = 1
	res.Edges = 2 * arcs
	res.Seconds = time.Since(start).Seconds()
	if trace {
		tr := engine.AsyncTrace{Items: fwdItems + backItems}
		if bres.Trace != nil && bres.Trace[0].Async != nil {
			tr.Items += bres.Trace[0].Async.Items
			tr.Shared = bres.Trace[0].Async.Shared
		}
		res.Trace = append(res.Trace, tr.Record(res.Seconds,
			engine.Phase{Name: "bfs", Seconds: bfsDone.Sub(start).Seconds()},
			engine.Phase{Name: "bc-count", Seconds: countDone.Sub(bfsDone).Seconds()},
			engine.Phase{Name: "bc-forward", Seconds: fwdDone.Sub(countDone).Seconds()},
			engine.Phase{Name: "bc-backward", Seconds: time.Since(fwdDone).Seconds()}))
	}
	return res, nil
}

// count sets each reached vertex's count of DAG predecessors (in-arcs
// from one level up; none for the source), in parallel.
func (r *bcAsyncRun) count() {
	inOff, inSrc, level, pred := r.inOff, r.inSrc, r.level, r.pred
	par.Dynamic(len(level), r.workers, bcAsyncCountGrain, func(i int) {
		d := level[i]
		if d == Unreached || d == 0 {
			return
		}
		k := int32(0)
		for _, u := range inSrc[inOff[i]:inOff[i+1]] {
			if level[u] == d-1 {
				k++
			}
		}
		pred[i] = k
	})
}

// forward processes vertex v of the forward pass for worker w: v pulls its
// σ from its predecessors (the source keeps 1), counts its successors and
// releases those it was the last predecessor of into q; a vertex without
// successors is a leaf.
func (r *bcAsyncRun) forward(w int, v uint32, q []uint32) []uint32 {
	level, sigma := r.level, r.sigma
	d := level[v]
	if d > 0 {
		var paths float64
		for _, u := range r.inSrc[r.inOff[v]:r.inOff[v+1]] {
			if level[u] == d-1 {
				paths += sigma[u]
			}
		}
		sigma[v] = paths
	}
	row := r.dst[r.off[v]:r.off[v+1]]
	ws := &r.ws[w]
	ws.arcs += uint64(len(row))
	k := int32(0)
	for _, u := range row {
		if level[u] == d+1 {
			k++
			if atomic.AddInt32(&r.pred[u], -1) == 0 {
				q = append(q, u)
			}
		}
	}
	r.succ[v] = k
	if k == 0 {
		ws.leaves = append(ws.leaves, v)
	}
	return q
}

// backward processes vertex v of the backward pass: v pulls its
// dependency from its successors, adds it to the result (unless v is the
// source), keeps (1+δ)/σ for its predecessors and releases those it was
// the last successor of into q.
func (r *bcAsyncRun) backward(_ int, v uint32, q []uint32) []uint32 {
	level, coef := r.level, r.coef
	d := level[v]
	delta := dependency(r.sigma[v], r.dst[r.off[v]:r.off[v+1]], level, d+1, coef)
	coef[v] = (1 + delta) / r.sigma[v]
	if v == r.s {
		return q
	}
	r.result[r.orig[v]] += delta
	for _, u := range r.inSrc[r.inOff[v]:r.inOff[v+1]] {
		if level[u] == d-1 && atomic.AddInt32(&r.succ[u], -1) == 0 {
			q = append(q, u)
		}
	}
	return q
}

// pass runs visit over a worklist that starts with first, on r.workers
// goroutines (par.Worklist), until every worker is idle with nothing
// shared (every vertex a pass can reach released and processed), and
// returns the vertices processed and the out-arcs the visits counted in
// r.ws (from zero: the caller resets them).
func (r *bcAsyncRun) pass(ctx context.Context, first []uint32, visit par.Visit) (uint64, uint64, error) {
	p := par.NewWorklist(r.workers, first)
	if err := p.Run(ctx, visit); err != nil {
		return 0, 0, err
	}
	var arcs uint64
	for w := range r.workers {
		arcs += r.ws[w].arcs
	}
	return p.Items(), arcs, nil
}
