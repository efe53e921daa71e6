// Package par holds the small parallel building blocks the rest of mgraph
// uses: a worker count, range splitting, parallel loops and prefix sums,
// and a Team of helper goroutines that spin between the phases of a run
// of small parallel steps (team.go).
//
// Every helper here is deterministic: the way a range is cut depends only on
// its length and the worker count the caller passes, never on scheduling, so
// code built on these helpers produces identical output whatever the timing.
package par

import (
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
)

// Workers returns n when it is positive and GOMAXPROCS otherwise: the usual
// way to turn a "--threads" style setting (0 = all cores) into a count.
func Workers(n int) int {
	if n > 0 {
		return n
	}
	return runtime.GOMAXPROCS(0)
}

// Chunk is one piece [Lo, Hi) of a split range, with its index among the pieces.
type Chunk struct {
	Index  int
	Lo, Hi int
}

// Split cuts [0, n) into at most parts contiguous chunks of nearly equal
// length (the first n%parts chunks are one longer). Empty chunks are not
// returned, so Split(0, k) is empty.
func Split(n, parts int) []Chunk {
	if parts < 1 {
		parts = 1
	}
	if parts > n {
		parts = n
	}
	chunks := make([]Chunk, 0, parts)
	lo := 0
	for i := 0; i < parts; i++ {
		size := n / parts
		if i < n%parts {
			size++
		}
		chunks = append(chunks, Chunk{Index: i, Lo: lo, Hi: lo + size})
		lo += size
	}
	return chunks
}

// ForChunks runs fn on each chunk concurrently, one goroutine per chunk, and
// waits for all of them.
func ForChunks(chunks []Chunk, fn func(c Chunk)) {
	if len(chunks) == 1 {
		fn(chunks[0])
		return
	}
	var wg sync.WaitGroup
	for _, c := range chunks {
		wg.Add(1)
		go func(c Chunk) {
			defer wg.Done()
			fn(c)
		}(c)
	}
	wg.Wait()
}

// For splits [0, n) into workers chunks and runs fn(lo, hi) on each
// concurrently. Small ranges (below minPerWorker per worker) use fewer workers.
func For(n, workers, minPerWorker int, fn func(lo, hi int)) {
	if n <= 0 {
		return
	}
	workers = Workers(workers)
	if minPerWorker > 0 && n/minPerWorker < workers {
		workers = max(1, n/minPerWorker)
	}
	ForChunks(Split(n, workers), func(c Chunk) { fn(c.Lo, c.Hi) })
}

// Copy copies src into dst (len(dst) elements) on workers goroutines, as
// For cuts it (minPerWorker elements at least per worker): the copy of a
// large result out of a buffer that will be reused.
func Copy[T any](dst, src []T, workers, minPerWorker int) {
	For(len(dst), workers, minPerWorker, func(lo, hi int) { copy(dst[lo:hi], src[lo:hi]) })
}

// Dynamic runs fn(i) for every i in [0, n) on workers goroutines that take
// indices from a shared counter in batches of grain. Use it for work units of
// uneven size; fn must not depend on which goroutine runs it.
func Dynamic(n, workers, grain int, fn func(i int)) {
	if n <= 0 {
		return
	}
	workers = Workers(workers)
	if grain < 1 {
		grain = 1
	}
	if workers == 1 || n <= grain {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	var mu sync.Mutex
	next := 0
	take := func() (int, int) {
		mu.Lock()
		defer mu.Unlock()
		lo := next
		next = min(n, next+grain)
		return lo, next
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				lo, hi := take()
				if lo >= hi {
					return
				}
				for i := lo; i < hi; i++ {
					fn(i)
				}
			}
		}()
	}
	wg.Wait()
}

// ExclusiveScan replaces counts[i] by the sum of counts[:i] and returns the
// total. It runs serially: callers use it on per-vertex or per-chunk counts,
// where one pass over memory is cheaper than coordinating goroutines.
func ExclusiveScan(counts []uint64) uint64 {
	var sum uint64
	for i, c := range counts {
		counts[i] = sum
		sum += c
	}
	return sum
}

// Each runs fn(worker, i) for every i in [0, n) on min(workers, n)
// goroutines that take indices one at a time from a shared atomic counter
// (worker 0 is the calling goroutine). The worker index, in [0, workers),
// lets fn use per-worker scratch. Use it for few, uneven work units (blocks,
// panels, ranges); fn must not depend on which worker runs which unit.
func Each(n, workers int, fn func(worker, i int)) {
	workers = min(Workers(workers), n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			fn(0, i)
		}
		return
	}
	var next atomic.Int64
	work := func(w int) {
		for {
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			fn(w, i)
		}
	}
	Fork(workers, work)
}

// SplitRows cuts rows [0, n) with offsets off (n+1 of them, a prefix sum
// of row lengths) into at most parts contiguous ranges of about equal arc
// counts: range p starts at the first row whose start reaches p·m/parts
// (a range may be empty, or uneven when single rows are huge). It returns
// the range boundaries, parts+1 values from 0 to n.
func SplitRows(off []uint64, parts int) []int {
	n := len(off) - 1
	m := off[n]
	b := make([]int, 0, parts+1)
	b = append(b, 0)
	for p := 1; p < parts; p++ {
		target := m * uint64(p) / uint64(parts)
		r := sort.Search(n, func(i int) bool { return off[i] >= target })
		b = append(b, max(r, b[len(b)-1]))
	}
	return append(b, n)
}

// FindStart returns the last index i with pre[i] ≤ a, for pre a
// nondecreasing prefix sum (of row lengths) and a < pre[len(pre)-1]: the
// row whose range [pre[i], pre[i+1]) holds a, the first non-empty one. A
// worker given the items from a on starts there.
func FindStart(pre []uint64, a uint64) int {
	lo, hi := 0, len(pre)-1 // pre[lo] ≤ a < pre[hi]
	for hi-lo > 1 {
		mid := int(uint(lo+hi) >> 1)
		if pre[mid] <= a {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// Claim sets bit x of the bitset bits atomically and reports whether this
// call set it (it was clear): workers sharing a bitset use it to keep an
// element once.
func Claim(bits []uint32, x uint32) bool {
	p := &bits[x>>5]
	m := uint32(1) << (x & 31)
	if atomic.LoadUint32(p)&m != 0 {
		return false
	}
	return atomic.OrUint32(p, m)&m == 0
}
