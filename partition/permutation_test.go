package partition

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRandomPermutation: for sizes around powers of two and odd ones, the
// Feistel permutation with cycle walking maps [0, n) onto itself, one to
// one, and another seed or stream gives another order.
func TestRandomPermutation(t *testing.T) {
	for _, n := range []uint64{1, 2, 3, 4, 5, 17, 255, 256, 257, 1000, 4097, 65536, 100003} {
		for _, seed := range []uint64{0, 7} {
			p := newRandomPermutation(n, seed, 1)
			seen := make([]bool, n)
			for x := range n {
				y := p.at(x)
				require.Less(t, y, n, "n %d seed %d: π(%d)", n, seed, x)
				require.False(t, seen[y], "n %d seed %d: π(%d) = %d twice", n, seed, x, y)
				seen[y] = true
			}
		}
		if n < 5 {
			continue
		}
		a, b, c := newRandomPermutation(n, 0, 1), newRandomPermutation(n, 7, 1), newRandomPermutation(n, 0, 2)
		diffSeed, diffStream := false, false
		for x := range n {
			diffSeed = diffSeed || a.at(x) != b.at(x)
			diffStream = diffStream || a.at(x) != c.at(x)
		}
		require.True(t, diffSeed, "n %d: seeds 0 and 7 give one order", n)
		require.True(t, diffStream, "n %d: streams 1 and 2 give one order", n)
	}
}

// TestAssignRandomSpreads: the random partitioner's parts differ in size
// by at most one, and a part's vertices are spread over the ids (not
// ranges, as static's).
func TestAssignRandomSpreads(t *testing.T) {
	const n, parts = 100_000, 4
	owner := assignRandom(n, Options{Method: Random, Parts: parts, Seed: 3})
	size := make([]int, parts)
	firstQuarter := make([]int, parts)
	for v, p := range owner {
		size[p]++
		if v < n/4 {
			firstQuarter[p]++
		}
	}
	for p := range parts {
		require.InDelta(t, n/parts, size[p], 1, "part %d", p)
		require.InDelta(t, n/parts/4, firstQuarter[p], n/parts/20, "part %d's share of the first quarter of the ids", p)
	}
}
