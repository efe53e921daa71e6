package preprocess

import (
	"context"
	"fmt"
	mbits "math/bits"

	"github.com/mgraph-dev/mgraph/internal/par"
)

// countingSort is the stable parallel counting sort behind every stage of
// the builder. Items are visited in parts (contiguous pieces of a fixed item
// order); count(part, cnt) must add 1 to cnt[key] for each item of the part,
// and scatter(part, pos) must visit the part's items in the same order and
// place each one at pos[key], then increment pos[key]. countingSort returns
// the K+1 offsets of the keys. The result does not depend on how items are
// cut into parts (a stable sort has one answer), so the caller may choose
// parts by worker count freely.
func countingSort(ctx context.Context, k uint64, parts, workers int, count func(part int, cnt []uint64), scatter func(part int, pos []uint64)) ([]uint64, error) {
	cnts, err := countParts(ctx, k, parts, workers, count)
	if err != nil {
		return nil, err
	}
	offsets := make([]uint64, k+1)
	// Per key: total, then per-part start positions relative to the key.
	par.For(int(k), workers, 1<<15, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			var sum uint64
			for _, c := range cnts {
				x := c[v]
				c[v] = sum
				sum += x
			}
			offsets[v] = sum
		}
	})
	par.ExclusiveScan(offsets)
	par.For(int(k), workers, 1<<15, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			base := offsets[v]
			for _, c := range cnts {
				c[v] += base
			}
		}
	})
	parallel(parts, workers, func(p int) { scatter(p, cnts[p]) })
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return offsets, nil
}

// countParts is the counting pass of both sorts: part p's key counts
// (k words) by count(p, ...), the parts in parallel.
func countParts(ctx context.Context, k uint64, parts, workers int, count func(part int, cnt []uint64)) ([][]uint64, error) {
	cnts := make([][]uint64, parts)
	parallel(parts, workers, func(p int) {
		cnts[p] = make([]uint64, k)
		count(p, cnts[p])
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return cnts, nil
}

// parallel runs fn(i) for i in [0, n) on up to workers goroutines.
func parallel(n, workers int, fn func(i int)) {
	par.Dynamic(n, workers, 1, fn)
}

// sortParts returns how many parts a counting sort over m items with k
// keys should use: one per worker, but no more than m/k so that the
// per-part count arrays (k words each) stay below the size of the data.
func sortParts(m, k uint64, workers int) int {
	p := uint64(workers)
	if k > 0 {
		p = min(p, max(1, m/k))
	}
	return int(max(1, p))
}

// Two-level counting sort. A counting sort scatters every item to a random
// one of K output positions; with millions of keys each write misses the
// cache and the TLB. The two-level sort first scatters the items stably by
// the high bits of their key into at most 1<<radixBucketBits buckets (few
// enough write streams for the cache), each bucket being exactly the output
// range of its keys, then sorts every bucket in place by the low bits, a
// scatter that stays within the bucket's (cache-sized) range. Both passes
// are stable, so the result is the one of countingSort.
const (
	// radixBucketBits bounds the number of first-pass buckets to
	// 1<<radixBucketBits.
	radixBucketBits = 11
	// radixMinKeys is the key count below which the single-level
	// countingSort is used: its count arrays already fit the cache.
	radixMinKeys = 1 << 16
)

// radixShift returns the first-pass bucket of a key as key>>radixShift(k):
// at most 1<<radixBucketBits buckets over keys [0, k).
func radixShift(k uint64) uint {
	if k < 2 {
		return 0
	}
	bits := uint(mbits.Len64(k - 1))
	if bits <= radixBucketBits {
		return 0
	}
	return bits - radixBucketBits
}

// radixSort is the two-level stable counting sort of items carrying a
// value (out) and an optional second value (outW, nil if none) by a key
// below k. count is as for countingSort. scatter(part, bpos, shift) must
// visit the part's items in order and, for each, take q := bpos[key>>shift],
// increment bpos[key>>shift] and write keys[q] = key, out[q] and outW[q].
// radixSort then orders every bucket by key, stably, and returns the K+1
// offsets of the keys. keys is scratch space of the items' length; with
// shift 0 (a bucket per key: one level, countingSort's scatter) it is not
// read and may be nil.
func radixSort(ctx context.Context, k uint64, shift uint, parts, workers int, keys, out, outW []uint32,
	count func(part int, cnt []uint64), scatter func(part int, bpos []uint64, shift uint)) ([]uint64, error) {
	cnts, err := countParts(ctx, k, parts, workers, count)
	if err != nil {
		return nil, err
	}
	nb := int((k-1)>>shift) + 1
	width := uint64(1) << shift
	// Per part: item counts per bucket.
	bpos := make([][]uint64, parts)
	parallel(parts, workers, func(p int) {
		bc := make([]uint64, nb)
		c := cnts[p]
		for b := range bc {
			var s uint64
			for _, x := range c[uint64(b)*width : min(uint64(b+1)*width, k)] {
				s += x
			}
			bc[b] = s
		}
		bpos[p] = bc
	})
	// Key totals and offsets.
	offsets := make([]uint64, k+1)
	par.For(int(k), workers, 1<<15, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			var sum uint64
			for _, c := range cnts {
				sum += c[v]
			}
			offsets[v] = sum
		}
	})
	cnts = nil
	par.ExclusiveScan(offsets)
	if err := radixPlace(ctx, offsets, shift, bpos, workers, keys, out, outW, scatter); err != nil {
		return nil, err
	}
	return offsets, nil
}

// radixSortKnown is radixSort when the K+1 key offsets of the result are
// already known (from degrees counted before): the counting pass then only
// counts the items of every part per first-pass bucket, in a small array,
// instead of per key. countBuckets(part, bc, shift) must add 1 to
// bc[key>>shift] for each item of the part. offsets is only read. It fails
// if the bucket counts disagree with offsets.
func radixSortKnown(ctx context.Context, offsets []uint64, shift uint, parts, workers int, keys, out, outW []uint32,
	countBuckets func(part int, bc []uint64, shift uint), scatter func(part int, bpos []uint64, shift uint)) error {
	k := uint64(len(offsets) - 1)
	nb := int((k-1)>>shift) + 1
	width := uint64(1) << shift
	bpos := make([][]uint64, parts)
	parallel(parts, workers, func(p int) {
		bc := make([]uint64, nb)
		countBuckets(p, bc, shift)
		bpos[p] = bc
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	for b := range nb {
		var sum uint64
		for _, bc := range bpos {
			sum += bc[b]
		}
		klo, khi := uint64(b)*width, min(uint64(b+1)*width, k)
		if want := offsets[khi] - offsets[klo]; sum != want {
			return fmt.Errorf("internal error: %d items in keys %d..%d, %d expected", sum, klo, khi-1, want)
		}
	}
	return radixPlace(ctx, offsets, shift, bpos, workers, keys, out, outW, scatter)
}

// radixPlace runs both passes of radixSort once the key offsets and every
// part's item counts per bucket (bpos, turned into positions here) are
// known.
func radixPlace(ctx context.Context, offsets []uint64, shift uint, bpos [][]uint64, workers int, keys, out, outW []uint32,
	scatter func(part int, bpos []uint64, shift uint)) error {
	k := uint64(len(offsets) - 1)
	nb := int((k-1)>>shift) + 1
	width := uint64(1) << shift
	// Per part: first position of its items in every bucket.
	for b := range nb {
		pos := offsets[uint64(b)*width]
		for _, bc := range bpos {
			x := bc[b]
			bc[b] = pos
			pos += x
		}
	}
	parallel(len(bpos), workers, func(p int) { scatter(p, bpos[p], shift) })
	if err := ctx.Err(); err != nil {
		return err
	}
	if shift == 0 { // a bucket per key: the first pass was the whole sort
		return nil
	}
	// Second pass: each bucket by key, through a per-worker copy.
	type scratch struct {
		cur       []uint64
		val, valW []uint32
	}
	scr := make([]*scratch, workers)
	dynamicWorkers(nb, workers, func(wk, b int) {
		s := scr[wk]
		if s == nil {
			s = &scratch{cur: make([]uint64, width)}
			scr[wk] = s
		}
		klo := uint64(b) * width
		khi := min(klo+width, k)
		lo, hi := offsets[klo], offsets[khi]
		if hi-lo < 2 {
			return
		}
		cur := s.cur[:khi-klo]
		copy(cur, offsets[klo:khi])
		s.val = append(s.val[:0], out[lo:hi]...)
		if outW == nil {
			for i, x := range s.val {
				key := keys[lo+uint64(i)] - uint32(klo)
				q := cur[key]
				cur[key] = q + 1
				out[q] = x
			}
			return
		}
		s.valW = append(s.valW[:0], outW[lo:hi]...)
		for i, x := range s.val {
			key := keys[lo+uint64(i)] - uint32(klo)
			q := cur[key]
			cur[key] = q + 1
			out[q] = x
			outW[q] = s.valW[i]
		}
	})
	return ctx.Err()
}

// radixPlan returns the bucket shift of a sort of m items by a key below k
// and its key scratch: two levels (radixShift) from radixMinKeys keys up,
// below that one level (shift 0, no scratch), where a scatter's keys stay
// in cache.
func radixPlan(k, m uint64) (uint, []uint32) {
	if k < radixMinKeys {
		return 0, nil
	}
	return radixShift(k), make([]uint32, m)
}
