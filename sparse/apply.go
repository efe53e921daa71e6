package sparse

import (
	"sync/atomic"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
)

// applyWorkers returns how many goroutines apply count vertices.
func (e *Engine[V]) applyWorkers(count int) int {
	w := e.workers
	if e.minApplyWorker > 0 && count/e.minApplyWorker < w {
		w = max(1, count/e.minApplyWorker)
	}
	return w
}

// apply runs the sparse-apply phase: Apply for every touched vertex (every
// vertex if p.ApplyAll), resetting its accumulator entry and touched bit,
// and returns the vertices Apply made active in a new slice. Every touched
// vertex is in exactly one worker list, so each is applied once and the
// result has no duplicates.
func (e *Engine[V]) apply(p engine.Program[V], values []V, t *target[V]) []uint32 {
	n := e.n
	acc, bits, ident := t.acc, t.bits, t.ident
	total := 0
	for i := range e.ws {
		total += len(e.ws[i].touched)
	}
	var parts int
	switch {
	case p.ApplyAll():
		// Every vertex, in id order; the bitset is cleared word by word.
		chunks := par.Split(len(bits), e.applyWorkers(int(n)))
		e.forChunks(chunks, func(c par.Chunk) {
			out := e.ws[c.Index].out[:0]
			for wi := c.Lo; wi < c.Hi; wi++ {
				bits[wi] = 0
				for v := uint64(wi) * 32; v < min(uint64(wi)*32+32, n); v++ {
					a := acc[v]
					acc[v] = ident
					if p.Apply(uint32(v), a, values) {
						out = append(out, uint32(v))
					}
				}
			}
			e.ws[c.Index].out = out
		})
		parts = len(chunks)
	case total == 0:
	case e.scan(t, total):
		// Many touched vertices: scan (ascending order) the bitset for sums,
		// the accumulator itself for min (touched ⇔ not the identity).
		chunks := par.Split(len(bits), e.applyWorkers(total))
		isMin := t.op == engine.CombineMin
		e.forChunks(chunks, func(c par.Chunk) {
			out := e.ws[c.Index].out[:0]
			for wi := c.Lo; wi < c.Hi; wi++ {
				if isMin {
					for v := uint64(wi) * 32; v < min(uint64(wi)*32+32, n); v++ {
						if a := acc[v]; a != ident {
							acc[v] = ident
							if p.Apply(uint32(v), a, values) {
								out = append(out, uint32(v))
							}
						}
					}
					continue
				}
				b := bits[wi]
				if b == 0 {
					continue
				}
				bits[wi] = 0
				for b != 0 {
					v := uint32(wi)*32 + uint32(trailingZeros(b))
					b &= b - 1
					a := acc[v]
					acc[v] = ident
					if p.Apply(v, a, values) {
						out = append(out, v)
					}
				}
			}
			e.ws[c.Index].out = out
		})
		parts = len(chunks)
	default:
		// Few: walk the workers' lists, concatenated in worker order, cut
		// into contiguous chunks.
		nw := e.applyWorkers(total)
		if nw == 1 {
			out := e.ws[0].out[:0]
			for i := range e.ws {
				for _, v := range e.ws[i].touched {
					a := acc[v]
					acc[v] = ident
					bits[v>>5] = 0 // sums: every set bit of the word belongs to a listed vertex
					if p.Apply(v, a, values) {
						out = append(out, v)
					}
				}
			}
			e.ws[0].out = out
			parts = 1
			break
		}
		chunks := par.Split(total, nw)
		isSum := t.op == engine.CombineSum
		e.forChunks(chunks, func(c par.Chunk) {
			out := e.ws[c.Index].out[:0]
			pos := 0 // position of list i's first vertex in the concatenation
			for i := range e.ws {
				l := e.ws[i].touched
				lo, hi := max(c.Lo-pos, 0), min(c.Hi-pos, len(l))
				pos += len(l)
				if lo >= hi {
					continue
				}
				for _, v := range l[lo:hi] {
					a := acc[v]
					acc[v] = ident
					if isSum {
						atomic.AndUint32(&bits[v>>5], ^(uint32(1) << (v & 31)))
					}
					if p.Apply(v, a, values) {
						out = append(out, v)
					}
				}
			}
			e.ws[c.Index].out = out
		})
		parts = len(chunks)
	}
	for i := range e.ws {
		e.ws[i].touched = e.ws[i].touched[:0]
	}
	return e.gather(parts)
}

// scan reports whether the touched vertices of t (total of them) are many
// enough to find them by scanning rather than through the workers' lists:
// a sum scans the bitset (n/32 words), a min the accumulator (n values).
func (e *Engine[V]) scan(t *target[V], total int) bool {
	k := uint64(total) * e.scanDiv
	if t.op == engine.CombineMin {
		k /= 8
	}
	return k >= e.n
}

// gather concatenates the out lists of workers 0..parts-1 into a new slice.
func (e *Engine[V]) gather(parts int) []uint32 {
	k := 0
	for i := range parts {
		k += len(e.ws[i].out)
	}
	next := make([]uint32, 0, k)
	for i := range parts {
		next = append(next, e.ws[i].out...)
		e.ws[i].out = e.ws[i].out[:0]
	}
	return next
}
