package cpu

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
)

// componentsOf builds el's layout with params, runs Components twice on a
// backend of workers goroutines, checks both results against the
// reference and each other, and returns the backend's scratch.
func componentsOf(t *testing.T, el *graph.EdgeList, params layout.Params, workers int) *componentsScratch {
	t.Helper()
	ctx := context.Background()
	l, err := preprocess.Build(ctx, el, params, preprocess.Options{Workers: 2})
	require.NoError(t, err)
	b, err := New(l, workers)
	require.NoError(t, err)
	g := apps.OriginalCSR(l, 2)
	first, res, err := b.Components(ctx, engine.RunOptions{Trace: true})
	require.NoError(t, err)
	require.NoError(t, apps.ValidateCC(g, first))
	require.Len(t, res.Trace, 1)
	firstCopy := slices.Clone(first)
	second, _, err := b.Components(ctx, engine.RunOptions{})
	require.NoError(t, err)
	require.Equal(t, firstCopy, second, "a second run on the reused buffers")
	bufs, _ := b.scratch.Take(componentsScratchName).(*componentsScratch)
	require.NotNil(t, bufs)
	b.scratch.Put(componentsScratchName, bufs)
	return bufs
}

// TestComponentsMatchReference: the test shapes (the raw directed R-MAT
// symmetrized, with its duplicates and self-loops), with the small
// parameters (many hubs, in several groups) and the default ones (none),
// on one to five workers, give the reference's components twice in a row.
func TestComponentsMatchReference(t *testing.T) {
	params := map[string]layout.Params{"small": testgraphs.SmallParams(), "default": layout.DefaultParams()}
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		el := s.EL
		if el.Directed && s.Name == "rmat-directed-raw" {
			el.Symmetrize(2)
		}
		for pname, p := range params {
			for _, workers := range []int{1, 2, 5} {
				t.Run(fmt.Sprintf("%s/%s/%d", s.Name, pname, workers), func(t *testing.T) {
					componentsOf(t, el, p, workers)
				})
			}
		}
	}
}

// TestComponentsHubOutsideLargest: a component other than the largest one
// whose root (smallest layout id) is a hub, and whose smallest original id
// is a leaf numbered after the hubs, takes the general mapping, and gets
// that leaf's id; so does one whose smallest original id is its hub.
func TestComponentsHubOutsideLargest(t *testing.T) {
	const leaves = 6 // more than the small parameters' last threshold (4): the centres are hubs
	var pairs [][2]uint32
	// The largest component: a chain 0-1-...-39.
	for v := uint32(0); v+1 < 40; v++ {
		pairs = append(pairs, [2]uint32{v, v + 1})
	}
	// A star centred on 50 whose smallest id is its leaf 41; a star
	// centred on 60 with leaves above it.
	pairs = append(pairs, [2]uint32{50, 41})
	for i := uint32(1); i < leaves; i++ {
		pairs = append(pairs, [2]uint32{50, 41 + i})
	}
	for i := uint32(1); i <= leaves; i++ {
		pairs = append(pairs, [2]uint32{60, 60 + i})
	}
	el := testgraphs.Undirected(70, pairs...)
	for _, workers := range []int{1, 3} {
		bufs := componentsOf(t, el, testgraphs.SmallParams(), workers)
		require.Len(t, bufs.smallest, 70, "the general mapping ran")
	}
	bufs := componentsOf(t, el, layout.DefaultParams(), 2)
	require.Nil(t, bufs.smallest, "no hub with the default thresholds: one pass")
}

// TestComponentsLargestStartsLate: the largest component's smallest
// original id lies past the serial scan, with isolated vertices before it
// (the scan's parallel part finds it).
func TestComponentsLargestStartsLate(t *testing.T) {
	const n = 3 * componentsScanSerial
	var pairs [][2]uint32
	for v := uint32(2 * componentsScanSerial); v+1 < n; v++ {
		pairs = append(pairs, [2]uint32{v + 1, v})
	}
	el := testgraphs.Undirected(n, pairs...)
	for _, workers := range []int{1, 3} {
		componentsOf(t, el, layout.DefaultParams(), workers)
	}
}

// TestComponentBlocksEachOnce: componentBlocks.run calls its function
// once for every block, with a worker index below its worker count that
// no two calls running at once share, for hubs before, inside and after
// the last block, and more workers than blocks.
func TestComponentBlocksEachOnce(t *testing.T) {
	for _, tc := range []struct{ n, hubs, workers int }{
		{0, 0, 4}, {1, 0, 4}, {10 * componentsGrain, 0, 3}, {10*componentsGrain + 5, 3 * componentsGrain, 4},
		{10 * componentsGrain, 10 * componentsGrain, 2}, {3 * componentsGrain, 1, 8}, {5 * componentsGrain, 0, 1},
	} {
		s := newComponentBlocks(tc.n, tc.hubs, tc.workers)
		seen := make([]atomic.Int32, s.count)
		busy := make([]atomic.Bool, s.workers)
		var covered atomic.Int64
		for range 2 { // a second run starts afresh
			s.run(func(w, blk int) {
				require.Less(t, w, s.workers)
				require.True(t, busy[w].CompareAndSwap(false, true), "worker %d runs two blocks at once", w)
				lo, hi := s.bounds(blk)
				covered.Add(int64(hi - lo))
				seen[blk].Add(1)
				busy[w].Store(false)
			})
		}
		require.Equal(t, int64(2*tc.n), covered.Load(), "%+v", tc)
		for blk := range seen {
			require.Equal(t, int32(2), seen[blk].Load(), "%+v: block %d", tc, blk)
		}
	}
}
