// Package gen generates synthetic graphs for tests and benchmarks: R-MAT and
// Graph500-style Kronecker graphs (skewed, power-law-like degrees), uniform
// random graphs, random geometric graphs (RGG) and 2D grids with random
// edge removal (a stand-in for road networks).
//
// Every generator is deterministic: the same parameters and seed give the
// same arcs, in the same order, whatever the number of goroutines. Work is
// cut into fixed-size blocks whose random streams are derived from the seed
// and the block index only (SplitMix64), never from the worker that runs
// them. Generators check ctx between blocks and report arcs generated to an
// optional *progress.Meter (nil is silent).
//
// Sizes are limited: at most MaxArcs arcs and graph.MaxVertices vertices.
// Requests beyond that are rejected before anything large is allocated.
package gen

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/mgraph-dev/mgraph/internal/par"
)

// MaxArcs is the largest number of arcs a generator will produce (2^36, about
// 512 GiB of arcs); larger requests return an error before allocating.
const MaxArcs = 1 << 36

// blockSize is the number of arcs (or points, or vertices) in one block of
// work: the unit of seeding, scheduling, cancellation and progress.
const blockSize = 1 << 16

// checkArcs returns an error when a generator would produce more than
// MaxArcs arcs.
func checkArcs(what string, arcs uint64) error {
	if arcs > MaxArcs {
		return fmt.Errorf("gen: %s: %d arcs requested; at most %d (2^36) are supported", what, arcs, uint64(MaxArcs))
	}
	return nil
}

// numBlocks returns how many blocks of blockSize cover n items.
func numBlocks(n uint64) int { return int((n + blockSize - 1) / blockSize) }

// blockRange returns the items [lo, hi) of block b out of n.
func blockRange(b int, n uint64) (lo, hi uint64) {
	lo = uint64(b) * blockSize
	return lo, min(lo+blockSize, n)
}

// runBlocks calls fn(b) for every block b in [0, n) on workers goroutines
// (0 = GOMAXPROCS) that take blocks from a shared counter. fn must depend on
// b only. Cancellation of ctx is checked before each block; once it is seen
// the remaining blocks are skipped and ctx's error is returned.
func runBlocks(ctx context.Context, n, workers int, fn func(b int)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if n <= 0 {
		return nil
	}
	w := min(par.Workers(workers), n)
	var next atomic.Int64
	var stopped atomic.Bool
	work := func() {
		for !stopped.Load() {
			b := int(next.Add(1) - 1)
			if b >= n {
				return
			}
			if ctx.Err() != nil {
				stopped.Store(true)
				return
			}
			fn(b)
		}
	}
	if w == 1 {
		work()
	} else {
		var wg sync.WaitGroup
		for range w {
			wg.Go(work)
		}
		wg.Wait()
	}
	if stopped.Load() {
		return ctx.Err()
	}
	return nil
}
