// Package preprocess builds MultiGraph's dual layout (package layout,
// docs/layout.md) from a graph on the CPU: in-degrees, group renumbering,
// three stable parallel counting sorts (by source, by destination, by
// source again) that give the dense order (destination, then source) and
// the sparse order (source, then destination), dense blocking with the
// heavy/light split and stream-slot assignment per row panel, and sparse
// segment splits.
//
// The builder uses every core, allocates per stage and per panel but never
// per edge, and is deterministic: the same graph and parameters give a
// byte-identical layout whatever the number of workers.
package preprocess

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/internal/progress"
	"github.com/mgraph-dev/mgraph/layout"
)

// ErrTooLarge is layout.ErrTooLarge: the graph's layout would need more
// than 2^32-1 stream slots, more than layout.MaxVertices vertices, or a
// vertex has 2^32 or more out-arcs.
var ErrTooLarge = layout.ErrTooLarge

// Options tune Build.
type Options struct {
	// Workers is the number of goroutines; 0 means GOMAXPROCS. The layout
	// does not depend on it.
	Workers int
	// Progress, when it is a terminal, shows one progress line per stage
	// (see package progress); nil or a non-terminal writer is silent.
	Progress io.Writer
	// OnStage, when set, is called after each stage with its name and
	// duration (for logs and benchmarks).
	OnStage func(stage string, elapsed time.Duration)
	// Device is the GPU (its ordinal) a device build runs on (BuildGPU,
	// BuildOn); 0 by default.
	Device int
	// CPULock, when set, is held by BuildOn around a build on the CPU
	// (asked for, or a fallback): callers building several layouts at once,
	// one per GPU, build those the GPUs cannot take one at a time, each on
	// every core.
	CPULock sync.Locker
	// KeepOnDevice asks BuildOn, when it builds on the GPU, to leave the
	// layout on the device and download only what the host needs before a
	// run there (Report.Built).
	KeepOnDevice bool
}

// Stage names reported to Options.OnStage, in order.
const (
	StageCheck      = "check"
	StageDegrees    = "degrees"
	StageRenumber   = "renumber"
	StageSortSrc    = "sort by source"
	StageSortDst    = "sort by destination"
	StageSparse     = "sparse part"
	StageDenseCount = "dense blocks"
	StageDenseFill  = "dense fill"
)

// gcArcs is the graph size above which Build collects garbage between
// stages, so that freed stage buffers are reused and the peak stays close
// to the live data.
const gcArcs = 1 << 22

type builder struct {
	ctx     context.Context
	el      *graph.EdgeList
	p       layout.Params
	opts    Options
	workers int
	n, m    uint64
	l       *layout.Layout
	stageT  time.Time
	// sortShift and sortKeys are the bucket shift and the key scratch of
	// the three sorts (radixPlan), all of m items by a vertex id: the
	// scratch is allocated once and reused.
	sortShift uint
	sortKeys  []uint32
}

func (b *builder) meter(stage string, total uint64) *progress.Meter {
	return progress.New(b.opts.Progress, "preprocess: "+stage, int64(total), "arcs")
}

// done ends a stage: closes its meter, reports it, collects garbage for big
// graphs and checks for cancellation.
func (b *builder) done(stage string, m *progress.Meter) error {
	m.Done()
	if b.m >= gcArcs {
		runtime.GC()
	}
	if b.opts.OnStage != nil {
		b.opts.OnStage(stage, time.Since(b.stageT))
	}
	b.stageT = time.Now()
	if err := b.ctx.Err(); err != nil {
		return fmt.Errorf("preprocess: %w", err)
	}
	return nil
}

// Build computes the layout of el with parameters p. It fails on invalid
// parameters or graph, on cancellation of ctx, and with ErrTooLarge when
// the graph does not fit the layout's index types.
func Build(ctx context.Context, el *graph.EdgeList, p layout.Params, opts Options) (*layout.Layout, error) {
	if el == nil {
		return nil, fmt.Errorf("preprocess: nil graph")
	}
	b := &builder{ctx: ctx, el: el, p: p, opts: opts, workers: par.Workers(opts.Workers),
		n: el.NumVertices, m: el.NumArcs(), stageT: time.Now()}
	b.l = &layout.Layout{
		Params:      layout.Params{PanelSize: p.PanelSize, HeavyThreshold: p.HeavyThreshold, HeavyColumns: p.HeavyColumns, SegmentSize: p.SegmentSize, GroupThresholds: slices.Clone(p.GroupThresholds), HighGroups: p.HighGroups},
		NumVertices: b.n, NumArcs: b.m, Weighted: el.Weighted(), Directed: el.Directed,
	}
	if el.Weighted() {
		b.l.WeightKind = el.WeightKind
	}
	if err := b.check(); err != nil {
		return nil, err
	}
	if err := b.done(StageCheck, nil); err != nil {
		return nil, err
	}
	indeg := b.degrees()
	if err := b.done(StageDegrees, nil); err != nil {
		return nil, err
	}
	b.renumber(indeg)
	// The in-adjacency's offsets, for sort 2: the in-degrees renumbered.
	off2 := b.renumberedOffsets(indeg)
	indeg = nil
	if err := b.done(StageRenumber, nil); err != nil {
		return nil, err
	}
	// Sort 1: group the arcs by new source, rows in input order.
	b.sortShift, b.sortKeys = radixPlan(b.n, b.m)
	mt := b.meter(StageSortSrc, b.m)
	off1, dst1, w1, err := b.sortBySource(mt)
	if err != nil {
		return nil, err
	}
	if err := b.done(StageSortSrc, mt); err != nil {
		return nil, err
	}
	for v := uint64(0); v < b.n; v++ {
		if off1[v+1]-off1[v] >= 1<<32 {
			return nil, fmt.Errorf("preprocess: vertex %d has %d out-arcs: %w", b.l.InvPerm[v], off1[v+1]-off1[v], ErrTooLarge)
		}
	}
	// Sort 2: in-adjacency with each row sorted by source (the dense order).
	mt = b.meter(StageSortDst, b.m)
	src2, w2, err := b.transpose(off1, dst1, w1, off2, newSortOut(b.m, w1 != nil), mt)
	if err != nil {
		return nil, err
	}
	if err := b.done(StageSortDst, mt); err != nil {
		return nil, err
	}
	// Sort 3: out-adjacency with each row sorted by destination (sparse);
	// its offsets are sort 1's. Sort 1's arrays, no longer needed, take
	// its output (every entry is overwritten).
	mt = b.meter(StageSparse, b.m)
	b.l.SparseDst, b.l.SparseWeights, err = b.transpose(off2, src2, w2, off1, sortOut{dst1, w1}, mt)
	dst1, w1 = nil, nil
	b.sortKeys = nil
	if err != nil {
		return nil, err
	}
	b.l.SparseOffsets = off1
	b.segments()
	if err := b.done(StageSparse, mt); err != nil {
		return nil, err
	}
	mt = b.meter(StageDenseCount, b.m)
	rowBlocks, err := b.countBlocks(off2, src2, mt)
	if err != nil {
		return nil, err
	}
	plan, err := b.planDense(rowBlocks)
	if err != nil {
		return nil, err
	}
	if err := b.done(StageDenseCount, mt); err != nil {
		return nil, err
	}
	mt = b.meter(StageDenseFill, b.m)
	if err := b.fillDense(plan, off2, src2, w2, mt); err != nil {
		return nil, err
	}
	if err := b.done(StageDenseFill, mt); err != nil {
		return nil, err
	}
	b.l.Normalize()
	return b.l, nil
}

// check validates the parameters and the graph (in parallel).
func (b *builder) check() error {
	if err := b.p.Validate(); err != nil {
		return fmt.Errorf("preprocess: %w", err)
	}
	el := b.el
	if b.n > layout.MaxVertices {
		return fmt.Errorf("preprocess: %d vertices, at most %d: %w", b.n, uint64(layout.MaxVertices), ErrTooLarge)
	}
	if len(el.Dst) != len(el.Src) || (el.Weights != nil && len(el.Weights) != len(el.Src)) {
		return fmt.Errorf("preprocess: edge list has %d sources, %d destinations and %d weights", len(el.Src), len(el.Dst), len(el.Weights))
	}
	var bad atomic.Int64
	bad.Store(-1)
	par.For(len(el.Src), b.workers, 1<<16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if uint64(el.Src[i]) >= b.n || uint64(el.Dst[i]) >= b.n {
				bad.CompareAndSwap(-1, int64(i))
				return
			}
		}
	})
	if i := bad.Load(); i >= 0 {
		return fmt.Errorf("preprocess: arc %d (%d→%d) has an endpoint outside 0..%d", i, el.Src[i], el.Dst[i], int64(b.n)-1)
	}
	if el.Weighted() && el.WeightKind != graph.Uint32Weights {
		if el.WeightKind != graph.Float32Weights {
			return fmt.Errorf("preprocess: unknown weight type %d", uint8(el.WeightKind))
		}
		bad.Store(-1)
		par.For(len(el.Weights), b.workers, 1<<16, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if el.Weights[i] > graph.MaxFloat32Bits {
					bad.CompareAndSwap(-1, int64(i))
					return
				}
			}
		})
		if i := bad.Load(); i >= 0 {
			return fmt.Errorf("preprocess: arc %d (%d→%d): %v", i, el.Src[i], el.Dst[i], graph.CheckFloat32Weight(el.Weights[i]))
		}
	}
	return nil
}

// degrees counts the in-degree of every (original) vertex.
func (b *builder) degrees() []uint64 {
	dst := b.el.Dst
	parts := sortParts(b.m, b.n, b.workers)
	chunks := par.Split(len(dst), parts)
	cnts := make([][]uint64, len(chunks))
	parallel(len(chunks), b.workers, func(i int) {
		c := make([]uint64, b.n)
		for _, d := range dst[chunks[i].Lo:chunks[i].Hi] {
			c[d]++
		}
		cnts[i] = c
	})
	if len(cnts) == 0 {
		return make([]uint64, b.n)
	}
	total := cnts[0]
	par.For(int(b.n), b.workers, 1<<16, func(lo, hi int) {
		for _, c := range cnts[1:] {
			for v := lo; v < hi; v++ {
				total[v] += c[v]
			}
		}
	})
	return total
}

// renumber orders vertices by in-degree group, stably: a counting sort of
// the vertices by group.
func (b *builder) renumber(indeg []uint64) {
	l, n := b.l, b.n
	groups := b.p.NumGroups()
	l.Perm = make([]uint32, n)
	l.InvPerm = make([]uint32, n)
	// One byte per vertex for its group keeps the two passes cheap.
	grp := make([]uint8, n)
	par.For(int(n), b.workers, 1<<16, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			grp[v] = uint8(b.p.Group(indeg[v]))
		}
	})
	chunks := par.Split(int(n), max(1, min(b.workers, int(n>>16))))
	off, _ := countingSort(context.Background(), uint64(groups), len(chunks), b.workers,
		func(p int, cnt []uint64) {
			for _, g := range grp[chunks[p].Lo:chunks[p].Hi] {
				cnt[g]++
			}
		},
		func(p int, pos []uint64) {
			for v := chunks[p].Lo; v < chunks[p].Hi; v++ {
				nw := pos[grp[v]]
				pos[grp[v]] = nw + 1
				l.Perm[v] = uint32(nw)
				l.InvPerm[nw] = uint32(v)
			}
		})
	l.GroupStart = off
}

// renumberedOffsets returns the n+1 offsets of rows of indeg[v] items
// each, the rows in new vertex order (after renumber).
func (b *builder) renumberedOffsets(indeg []uint64) []uint64 {
	perm := b.l.Perm
	off := make([]uint64, b.n+1)
	par.For(int(b.n), b.workers, 1<<16, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			off[perm[v]] = indeg[v]
		}
	})
	par.ExclusiveScan(off)
	return off
}

// sortBySource groups the arcs by new source id (stable): it returns the
// offsets and, per arc in that order, the new destination and weight.
func (b *builder) sortBySource(mt *progress.Meter) ([]uint64, []uint32, []uint32, error) {
	el, perm := b.el, b.l.Perm
	chunks := par.Split(len(el.Src), sortParts(b.m, b.n, b.workers))
	dst := make([]uint32, b.m)
	var w []uint32
	if el.Weights != nil {
		w = make([]uint32, b.m)
	}
	// Count by original source, then move the counts to the new ids: no
	// random look-up of perm per arc.
	count := func(p int, cnt []uint64) {
		orig := make([]uint64, len(cnt))
		for _, s := range el.Src[chunks[p].Lo:chunks[p].Hi] {
			orig[s]++
		}
		for s, c := range orig {
			cnt[perm[s]] = c
		}
	}
	shift, keys := b.sortShift, b.sortKeys
	off, err := radixSort(b.ctx, b.n, shift, len(chunks), b.workers, keys, dst, w, count,
		func(p int, bpos []uint64, shift uint) {
			c := chunks[p]
			for lo := c.Lo; lo < c.Hi; lo += 1 << 16 {
				hi := min(lo+1<<16, c.Hi)
				for i := lo; i < hi; i++ {
					k := perm[el.Src[i]]
					bk := k >> shift
					q := bpos[bk]
					bpos[bk] = q + 1
					if keys != nil {
						keys[q] = k
					}
					dst[q] = perm[el.Dst[i]]
					if w != nil {
						w[q] = el.Weights[i]
					}
				}
				mt.Add(int64(hi - lo))
			}
		})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("preprocess: %w", err)
	}
	return off, dst, w, nil
}

// sortOut is the output of a sort: values and, for weighted graphs,
// weights, each of m entries.
type sortOut struct {
	val, w []uint32
}

// newSortOut allocates a sort output of m entries, with weights or not.
func newSortOut(m uint64, weighted bool) sortOut {
	o := sortOut{val: make([]uint32, m)}
	if weighted {
		o.w = make([]uint32, m)
	}
	return o
}

// transpose is a stable counting sort of an adjacency (rows off, neighbours
// nbr, weights w) by neighbour: row x of the result lists, in order, the
// rows whose lists contain x. offT holds the result's n+1 offsets, known
// from the degrees, so the counting pass only counts the first-pass
// buckets (radixSortKnown); offT is only read. The result is written to
// dstBuf (its weights when w is not nil), whose old contents do not matter.
func (b *builder) transpose(off []uint64, nbr, w []uint32, offT []uint64, dstBuf sortOut, mt *progress.Meter) ([]uint32, []uint32, error) {
	n, m := b.n, b.m
	bounds := par.SplitRows(off, sortParts(m, n, b.workers))
	parts := len(bounds) - 1
	out := dstBuf.val[:m]
	var outW []uint32
	if w != nil {
		outW = dstBuf.w[:m]
	}
	countBuckets := func(p int, bc []uint64, shift uint) {
		for _, x := range nbr[off[bounds[p]]:off[bounds[p+1]]] {
			bc[x>>shift]++
		}
	}
	shift, keys := b.sortShift, b.sortKeys
	err := radixSortKnown(b.ctx, offT, shift, parts, b.workers, keys, out, outW, countBuckets,
		func(p int, bpos []uint64, shift uint) {
			var pending int64
			for u := bounds[p]; u < bounds[p+1]; u++ {
				for i := off[u]; i < off[u+1]; i++ {
					x := nbr[i]
					bk := x >> shift
					q := bpos[bk]
					bpos[bk] = q + 1
					if keys != nil {
						keys[q] = x
					}
					out[q] = uint32(u)
					if w != nil {
						outW[q] = w[i]
					}
				}
				pending += int64(off[u+1] - off[u])
				if pending >= 1<<16 {
					mt.Add(pending)
					pending = 0
				}
			}
			mt.Add(pending)
		})
	if err != nil {
		return nil, nil, fmt.Errorf("preprocess: %w", err)
	}
	return out, outW, nil
}

// segments computes SegmentBounds and SegmentSplit from the sparse rows.
func (b *builder) segments() {
	l, n := b.l, b.n
	high := l.GroupStart[b.p.HighGroups]
	seg := uint64(b.p.SegmentSize)
	nhs := (high + seg - 1) / seg
	l.SegmentBounds = make([]uint32, nhs+2)
	for s := uint64(1); s <= nhs; s++ {
		l.SegmentBounds[s] = uint32(min(s*seg, high))
	}
	l.SegmentBounds[nhs+1] = uint32(n)
	l.SegmentSplit = make([]uint32, nhs*n)
	if nhs == 0 {
		return
	}
	off, dst := l.SparseOffsets, l.SparseDst
	par.For(int(n), b.workers, 1<<12, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			row := dst[off[v]:off[v+1]]
			i := 0
			for s := uint64(1); s <= nhs; s++ {
				bound := l.SegmentBounds[s]
				for i < len(row) && row[i] < bound {
					i++
				}
				l.SegmentSplit[(s-1)*n+uint64(v)] = uint32(i)
			}
		}
	})
}

// dynamicWorkers runs fn(worker, i) for every i in [0, n) on up to workers
// goroutines taking indices from a shared counter; worker identifies the
// goroutine (for scratch space), never the result.
func dynamicWorkers(n, workers int, fn func(worker, i int)) {
	workers = max(1, min(workers, n))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(w, i)
			}
		})
	}
	wg.Wait()
}
