package sparse

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// ctxEvery is how many arcs (or vertices) Advance and Filter process
// between checks of their context.
const ctxEvery = 1 << 16

// Advance visits every arc u→v of the frontier's vertices, with its weight
// w (0 if the layout is unweighted), and calls visit(u, v, w); v is added
// to the output, once even if several of its arcs return true, when visit
// returns true. Vertices are in layout numbering. The arcs are cut among
// workers goroutines (0 means GOMAXPROCS) by arc count, so a vertex of
// large out-degree is shared by several: visit is called concurrently and
// must be safe for that.
//
// The output set is the set of v for which some call returned true; its
// order is the order in which the workers reached them, concatenated in
// worker order (deterministic for one worker, not otherwise). Advance
// allocates a bitset of n bits per call to deduplicate.
//
// Advance is the general primitive, with a function call per arc, for
// writing new traversals (see the example). Programs that fit
// engine.Program (an edge operation and a min or sum combine) run several
// times faster on an Engine, whose inner loops are specialised and
// allocation-free.
func Advance(ctx context.Context, l *layout.Layout, frontier []uint32, workers int, visit func(u, v, w uint32) bool) ([]uint32, error) {
	if l == nil {
		return nil, errors.New("sparse: advance: nil layout")
	}
	if visit == nil {
		return nil, errors.New("sparse: advance: nil visit function")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n := l.NumVertices
	off, dst, wts := l.SparseOffsets, l.SparseDst, l.SparseWeights
	if uint64(len(off)) != n+1 {
		return nil, errors.New("sparse: advance: layout has no sparse offsets")
	}
	f := len(frontier)
	pre := make([]uint64, f+1)
	for i, u := range frontier {
		if uint64(u) >= n {
			return nil, fmt.Errorf("sparse: advance: frontier vertex %d is not below %d", u, n)
		}
		pre[i+1] = pre[i] + off[u+1] - off[u]
	}
	total := pre[f]
	if total == 0 {
		return []uint32{}, nil
	}
	nw := uint64(par.Workers(workers))
	if total/minArcsPerWorker < nw {
		nw = max(1, total/minArcsPerWorker)
	}
	seen := make([]uint32, (n+31)/32)
	outs := make([][]uint32, nw)
	var stop atomic.Bool
	par.Fork(int(nw), func(w int) {
		a, b := total*uint64(w)/nw, total*uint64(w+1)/nw
		var out []uint32
		budget := ctxEvery
		for i := par.FindStart(pre, a); i < f && pre[i] < b; i++ {
			u := frontier[i]
			lo := off[u] + max(a, pre[i]) - pre[i]
			hi := off[u] + min(b, pre[i+1]) - pre[i]
			if wts != nil {
				for j := lo; j < hi; j++ {
					if v := dst[j]; visit(u, v, wts[j]) && par.Claim(seen, v) {
						out = append(out, v)
					}
				}
			} else {
				for _, v := range dst[lo:hi] {
					if visit(u, v, 0) && par.Claim(seen, v) {
						out = append(out, v)
					}
				}
			}
			if budget -= int(hi - lo); budget <= 0 {
				budget = ctxEvery
				if stop.Load() || ctx.Err() != nil {
					stop.Store(true)
					return
				}
			}
		}
		outs[w] = out
	})
	if stop.Load() {
		return nil, ctx.Err()
	}
	return concat(outs), nil
}

// Filter returns, in order, the frontier's vertices for which keep returns
// true. The frontier is cut into contiguous pieces among workers
// goroutines (0 means GOMAXPROCS): keep is called concurrently, once per
// vertex, and must be safe for that.
func Filter(ctx context.Context, frontier []uint32, workers int, keep func(v uint32) bool) ([]uint32, error) {
	if keep == nil {
		return nil, errors.New("sparse: filter: nil keep function")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	nw := par.Workers(workers)
	if len(frontier)/minApplyPerWorker < nw {
		nw = max(1, len(frontier)/minApplyPerWorker)
	}
	chunks := par.Split(len(frontier), nw)
	outs := make([][]uint32, len(chunks))
	var stop atomic.Bool
	par.ForChunks(chunks, func(c par.Chunk) {
		var out []uint32
		for i := c.Lo; i < c.Hi; i++ {
			if (i-c.Lo)%ctxEvery == ctxEvery-1 && (stop.Load() || ctx.Err() != nil) {
				stop.Store(true)
				return
			}
			if v := frontier[i]; keep(v) {
				out = append(out, v)
			}
		}
		outs[c.Index] = out
	})
	if stop.Load() {
		return nil, ctx.Err()
	}
	return concat(outs), nil
}

func concat(parts [][]uint32) []uint32 {
	k := 0
	for _, p := range parts {
		k += len(p)
	}
	out := make([]uint32, 0, k)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
