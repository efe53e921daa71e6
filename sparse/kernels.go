package sparse

import (
	"math"
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// The inner loops. Each is specialised on the combine operation (min or
// sum) and on whether the contribution is the same for all of a source's
// arcs (EdgeSource, EdgeSourcePlusOne: computed once per source) or adds
// the arc's weight (EdgeSourcePlusWeight; EdgeSourcePlusFloat32Weight, for
// min over uint32 values only, adds float32 bits). The choice is made once
// per piece of a row (a source's arcs in one segment), never per arc.
//
// Plain kernels write an accumulator that only their goroutine touches
// (the whole accumulator when a step runs inline, a worker's private one for
// the high destinations); atomic kernels combine into the shared
// accumulator (the low destinations, in parallel). Every kernel appends a
// destination to the caller's list the first time it receives a
// contribution, so every touched vertex is in exactly one list:
//
//   - min: the first contribution is the one that moves the accumulator off
//     the identity, which happens exactly once per step (contributions equal
//     to the identity are skipped), so no flags are needed; a shared
//     bitset written with atomics by every worker would make its cache
//     lines bounce between cores on every first touch.
//   - sum: the first contribution claims the destination's bit in the
//     touched bitset (an atomic load, and an atomic OR only when clear).

// kind is the specialisation of the inner loop.
type kind uint8

const (
	minConst kind = iota
	minWeight
	sumConst
	sumWeight
	minFloat // min of float32 bits plus a float32 weight (uint32 values)
)

// kernel is one program's traversal setup for one step.
type kernel[V engine.Value] struct {
	kind   kind
	edge   engine.EdgeOp
	values []V
	// seen is values for an engine.Monotone program (nil otherwise): a
	// contribution no smaller than the destination's value cannot change
	// it, so the min kernels drop it before touching the accumulator (a
	// plain read instead of an atomic, and no Apply for it: GAPBS's
	// "parent[v] < 0" test).
	seen []V
	// same: every contribution of the step is equal (an engine.EarlyExit
	// program), so the flat path computes it once.
	same bool
	off  []uint64
	dst  []uint32
	wts  []uint32
}

func newKernel[V engine.Value](p engine.Program[V], values []V, l *layout.Layout) *kernel[V] {
	k := &kernel[V]{edge: p.Edge(), values: values, off: l.SparseOffsets, dst: l.SparseDst, wts: l.SparseWeights}
	if _, ok := p.(engine.Monotone); ok && p.Combine() == engine.CombineMin {
		k.seen = values
	}
	if _, ok := p.(engine.EarlyExit[V]); ok && p.Combine() == engine.CombineMin {
		k.same = true
	}
	weighted := k.edge.Weighted()
	switch {
	case k.edge == engine.EdgeSourcePlusFloat32Weight: // min over uint32 (check)
		k.kind = minFloat
	case p.Combine() == engine.CombineMin && !weighted:
		k.kind = minConst
	case p.Combine() == engine.CombineMin:
		k.kind = minWeight
	case !weighted:
		k.kind = sumConst
	default:
		k.kind = sumWeight
	}
	return k
}

// plain folds the contributions of u's arcs [lo, hi) into acc (owned by the
// caller's goroutine).
func (k *kernel[V]) plain(u uint32, lo, hi uint64, acc []V, bits []uint32, ident V, list []uint32) []uint32 {
	x := k.values[u]
	switch k.kind {
	case minConst:
		return plainMinConst(k.dst[lo:hi], acc, k.seen, engine.Contribute(k.edge, x, 0), ident, list)
	case minWeight:
		return plainMinWeight(k.dst[lo:hi], k.wts[lo:hi], acc, k.seen, x, ident, list)
	case sumConst:
		c := engine.Contribute(k.edge, x, 0)
		if c == 0 {
			return list
		}
		return plainSumConst(k.dst[lo:hi], acc, bits, c, list)
	case minFloat:
		seen, _ := any(k.seen).([]uint32)
		return plainMinFloat(k.dst[lo:hi], k.wts[lo:hi], any(acc).([]uint32), seen, any(x).(uint32), list)
	default:
		return plainSumWeight(k.dst[lo:hi], k.wts[lo:hi], acc, bits, x, list)
	}
}

func plainMinConst[V engine.Value](dst []uint32, acc, seen []V, c, ident V, list []uint32) []uint32 {
	for _, v := range dst {
		if seen != nil && c >= seen[v] {
			continue
		}
		if cur := acc[v]; c < cur {
			if cur == ident {
				list = append(list, v)
			}
			acc[v] = c
		}
	}
	return list
}

func plainMinWeight[V engine.Value](dst, wts []uint32, acc, seen []V, x, ident V, list []uint32) []uint32 {
	wts = wts[:len(dst)]
	for i, v := range dst {
		c := x + V(wts[i])
		if c < x { // uint32 overflow: saturate
			c = V(math.MaxUint32)
		}
		if seen != nil && c >= seen[v] {
			continue
		}
		if cur := acc[v]; c < cur {
			if cur == ident {
				list = append(list, v)
			}
			acc[v] = c
		}
	}
	return list
}

// plainMinFloat is plainMinWeight for float32 distances and weights held
// as bits (the identity is math.MaxUint32).
func plainMinFloat(dst, wts []uint32, acc, seen []uint32, x uint32, list []uint32) []uint32 {
	if x == math.MaxUint32 {
		return list
	}
	xf := math.Float32frombits(x)
	wts = wts[:len(dst)]
	for i, v := range dst {
		c := math.Float32bits(xf + math.Float32frombits(wts[i]))
		if seen != nil && c >= seen[v] {
			continue
		}
		if cur := acc[v]; c < cur {
			if cur == math.MaxUint32 {
				list = append(list, v)
			}
			acc[v] = c
		}
	}
	return list
}

func plainSumConst[V engine.Value](dst []uint32, acc []V, bits []uint32, c V, list []uint32) []uint32 {
	for _, v := range dst {
		if m := uint32(1) << (v & 31); bits[v>>5]&m == 0 {
			bits[v>>5] |= m
			list = append(list, v)
		}
		acc[v] += c
	}
	return list
}

func plainSumWeight[V engine.Value](dst, wts []uint32, acc []V, bits []uint32, x V, list []uint32) []uint32 {
	wts = wts[:len(dst)]
	for i, v := range dst {
		c := x + V(wts[i])
		if c < x {
			c = V(math.MaxUint32)
		}
		if c == 0 {
			continue
		}
		if m := uint32(1) << (v & 31); bits[v>>5]&m == 0 {
			bits[v>>5] |= m
			list = append(list, v)
		}
		acc[v] += c
	}
	return list
}

// atomicPiece returns the function that folds the contributions of u's arcs
// [lo, hi) into t's shared accumulator with atomic operations, specialised
// on the value type.
func (k *kernel[V]) atomicPiece(t *target[V]) func(u uint32, lo, hi uint64, list []uint32) []uint32 {
	switch acc := any(t.acc).(type) {
	case []uint32:
		vals := any(k.values).([]uint32)
		seen, _ := any(k.seen).([]uint32)
		return func(u uint32, lo, hi uint64, list []uint32) []uint32 {
			x := vals[u]
			switch k.kind {
			case minConst:
				return atomicMinConstU32(k.dst[lo:hi], acc, seen, engine.Contribute(k.edge, x, 0), list)
			case minWeight:
				return atomicMinWeightU32(k.dst[lo:hi], k.wts[lo:hi], acc, seen, x, list)
			case minFloat:
				return atomicMinFloatU32(k.dst[lo:hi], k.wts[lo:hi], acc, seen, x, list)
			case sumConst:
				return atomicSumConstU32(k.dst[lo:hi], acc, t.bits, engine.Contribute(k.edge, x, 0), list)
			default:
				return atomicSumWeightU32(k.dst[lo:hi], k.wts[lo:hi], acc, t.bits, x, list)
			}
		}
	case []float64:
		vals := any(k.values).([]float64)
		return func(u uint32, lo, hi uint64, list []uint32) []uint32 {
			x := vals[u]
			switch k.kind {
			case minConst:
				return atomicMinConstF64(k.dst[lo:hi], acc, engine.Contribute(k.edge, x, 0), list)
			case minWeight:
				return atomicMinWeightF64(k.dst[lo:hi], k.wts[lo:hi], acc, x, list)
			case sumConst:
				return atomicSumConstF64(k.dst[lo:hi], acc, t.bits, engine.Contribute(k.edge, x, 0), list)
			default:
				return atomicSumWeightF64(k.dst[lo:hi], k.wts[lo:hi], acc, t.bits, x, list)
			}
		}
	}
	panic("sparse: unsupported value type")
}

func atomicMinConstU32(dst []uint32, acc, seen []uint32, c uint32, list []uint32) []uint32 {
	for _, v := range dst {
		if seen != nil && c >= seen[v] {
			continue
		}
		p := &acc[v]
		cur := atomic.LoadUint32(p)
		for c < cur {
			if atomic.CompareAndSwapUint32(p, cur, c) {
				if cur == math.MaxUint32 {
					list = append(list, v)
				}
				break
			}
			cur = atomic.LoadUint32(p)
		}
	}
	return list
}

func atomicMinWeightU32(dst, wts []uint32, acc, seen []uint32, x uint32, list []uint32) []uint32 {
	wts = wts[:len(dst)]
	for i, v := range dst {
		c := x + wts[i]
		if c < x || (seen != nil && c >= seen[v]) {
			continue // saturates to the identity, or cannot lower v: no contribution
		}
		p := &acc[v]
		cur := atomic.LoadUint32(p)
		for c < cur {
			if atomic.CompareAndSwapUint32(p, cur, c) {
				if cur == math.MaxUint32 {
					list = append(list, v)
				}
				break
			}
			cur = atomic.LoadUint32(p)
		}
	}
	return list
}

// atomicMinFloatU32 is atomicMinWeightU32 for float32 distances and
// weights held as bits.
func atomicMinFloatU32(dst, wts []uint32, acc, seen []uint32, x uint32, list []uint32) []uint32 {
	if x == math.MaxUint32 {
		return list
	}
	xf := math.Float32frombits(x)
	wts = wts[:len(dst)]
	for i, v := range dst {
		c := math.Float32bits(xf + math.Float32frombits(wts[i]))
		if seen != nil && c >= seen[v] {
			continue // cannot lower v
		}
		p := &acc[v]
		cur := atomic.LoadUint32(p)
		for c < cur {
			if atomic.CompareAndSwapUint32(p, cur, c) {
				if cur == math.MaxUint32 {
					list = append(list, v)
				}
				break
			}
			cur = atomic.LoadUint32(p)
		}
	}
	return list
}

func atomicSumConstU32(dst []uint32, acc, bits []uint32, c uint32, list []uint32) []uint32 {
	if c == 0 {
		return list
	}
	for _, v := range dst {
		if par.Claim(bits, v) {
			list = append(list, v)
		}
		atomic.AddUint32(&acc[v], c)
	}
	return list
}

func atomicSumWeightU32(dst, wts []uint32, acc, bits []uint32, x uint32, list []uint32) []uint32 {
	wts = wts[:len(dst)]
	for i, v := range dst {
		c := x + wts[i]
		if c < x {
			c = math.MaxUint32
		}
		if c == 0 {
			continue
		}
		if par.Claim(bits, v) {
			list = append(list, v)
		}
		atomic.AddUint32(&acc[v], c)
	}
	return list
}

var infBits = math.Float64bits(math.Inf(1))

func f64ptr(p *float64) *uint64 { return (*uint64)(unsafe.Pointer(p)) }

// minF64 lowers *p to c atomically unless it is already ≤ c; it reports
// whether it moved *p off +Inf (the identity).
func minF64(p *uint64, c float64) bool {
	ob := atomic.LoadUint64(p)
	cb := math.Float64bits(c)
	for c < math.Float64frombits(ob) {
		if atomic.CompareAndSwapUint64(p, ob, cb) {
			return ob == infBits
		}
		ob = atomic.LoadUint64(p)
	}
	return false
}

// addF64 adds c to *p atomically.
func addF64(p *uint64, c float64) {
	for {
		ob := atomic.LoadUint64(p)
		if atomic.CompareAndSwapUint64(p, ob, math.Float64bits(math.Float64frombits(ob)+c)) {
			return
		}
	}
}

func atomicMinConstF64(dst []uint32, acc []float64, c float64, list []uint32) []uint32 {
	for _, v := range dst {
		if minF64(f64ptr(&acc[v]), c) {
			list = append(list, v)
		}
	}
	return list
}

func atomicMinWeightF64(dst, wts []uint32, acc []float64, x float64, list []uint32) []uint32 {
	wts = wts[:len(dst)]
	for i, v := range dst {
		if minF64(f64ptr(&acc[v]), x+float64(wts[i])) {
			list = append(list, v)
		}
	}
	return list
}

func atomicSumConstF64(dst []uint32, acc []float64, bits []uint32, c float64, list []uint32) []uint32 {
	if c == 0 {
		return list
	}
	for _, v := range dst {
		if par.Claim(bits, v) {
			list = append(list, v)
		}
		addF64(f64ptr(&acc[v]), c)
	}
	return list
}

func atomicSumWeightF64(dst, wts []uint32, acc []float64, bits []uint32, x float64, list []uint32) []uint32 {
	wts = wts[:len(dst)]
	for i, v := range dst {
		c := x + float64(wts[i])
		if c == 0 {
			continue
		}
		if par.Claim(bits, v) {
			list = append(list, v)
		}
		addF64(f64ptr(&acc[v]), c)
	}
	return list
}

// mergeMin folds a worker's private partials of the destinations seg into
// acc (whose entries for seg only the calling goroutine writes) and resets
// them.
func mergeMin[V engine.Value](seg []uint32, pacc []V, acc []V, ident V, list []uint32) []uint32 {
	for _, d := range seg {
		x := pacc[d]
		pacc[d] = ident
		if cur := acc[d]; x < cur {
			if cur == ident {
				list = append(list, d)
			}
			acc[d] = x
		}
	}
	return list
}

// mergeSum is mergeMin for sums.
func mergeSum[V engine.Value](seg []uint32, pacc []V, pbits []uint32, acc []V, bits []uint32, list []uint32) []uint32 {
	for _, d := range seg {
		x := pacc[d]
		pacc[d] = 0
		atomic.AndUint32(&pbits[d>>5], ^(uint32(1) << (d & 31)))
		if par.Claim(bits, d) {
			list = append(list, d)
		}
		acc[d] += x
	}
	return list
}

func trailingZeros(b uint32) int { return bits.TrailingZeros32(b) }
