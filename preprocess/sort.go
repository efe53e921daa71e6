package preprocess

import (
	"context"
	"sort"

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
	cnts := make([][]uint64, parts)
	parallel(parts, workers, func(p int) {
		cnts[p] = make([]uint64, k)
		count(p, cnts[p])
	})
	if err := ctx.Err(); err != nil {
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

// splitRows cuts rows [0, n) with offsets off into at most parts contiguous
// ranges of about equal arc counts (a range may be empty-free but uneven
// when single rows are huge). It returns the range boundaries, parts+1
// values from 0 to n.
func splitRows(off []uint64, parts int) []int {
	n := len(off) - 1
	m := off[n]
	b := make([]int, 0, parts+1)
	b = append(b, 0)
	for p := 1; p < parts; p++ {
		target := m * uint64(p) / uint64(parts)
		// first row whose start reaches the target
		r := sort.Search(n, func(i int) bool { return off[i] >= target })
		r = max(r, b[len(b)-1])
		b = append(b, r)
	}
	return append(b, n)
}
