package cuda

import "unsafe"

// blockStats mirrors mg_block_stats (the cuda build checks its size).
type blockStats struct {
	levels, reached              uint32
	frontierBegin, frontierCount uint32
}

// BlockStats is what a one-block run did.
type BlockStats struct {
	Levels  int     // levels run
	Reached uint64  // vertices it discovered
	Left    uint32  // BlockBFS stopped early: the last level's vertices, now the frontier list (0: it ran to the end)
	Millis  float32 // the kernel time, from CUDA events
}

// BlockMaxVertices returns the most vertices a one-block run takes on
// device dev (mg_block_max_vertices: its visited bitmap must fit one
// block's shared memory).
func BlockMaxVertices(dev Device) (uint64, error) {
	return backendBlockMaxVertices(dev.ordinal)
}

// BlockBFS continues the BFS (min program ProgBFS) whose last level is the
// current frontier list's first count vertices in one thread block
// (mg_block_bfs: level by level, the block's own barrier between levels),
// and waits for it. It stops early when a level has more than bailout
// vertices (0: never): that level is then the current frontier list
// (BlockStats.Left vertices) for the grid-wide engines to go on from. The
// layout must have at most BlockMaxVertices vertices.
func (r *MinRun) BlockBFS(count, bailout uint32) (BlockStats, error) {
	if count == 0 {
		return BlockStats{}, invalidf("BlockBFS", "the frontier is empty")
	}
	if r.blockStats == nil {
		st, err := allocOwned[blockStats](&r.owned, r.dl.dev, 1)
		if err != nil {
			return BlockStats{}, err
		}
		r.blockStats = st
	}
	desc, ev := r.cargs()
	order := r.list[1-r.curList]
	if err := backendBlockBFS(r.dl.dev.ordinal, unsafe.Pointer(desc), r.values.h.p, r.list[r.curList].h.p, count,
		order.h.p, bailout, r.blockStats.h.p, unsafe.Pointer(&ev[0])); err != nil {
		return BlockStats{}, err
	}
	return r.readBlockStats(r.blockStats)
}

// BCBlock runs Brandes from source s (layout numbering) in one thread block
// on an undirected layout (mg_bc_block: the BFS, then σ and δ level by
// level, each pulled over the vertex's arcs), leaving the dependencies for
// BCAccumulate, and waits for it. A BFS level of more than bailout
// vertices (0: never) stops it there, with BlockStats.Left > 0 and the
// dependencies void: the caller then runs the source otherwise. BCReset
// must have been called; the layout must have at most BlockMaxVertices
// vertices.
func (r *SumRun) BCBlock(s, bailout uint32) (BlockStats, error) {
	if r.depth == nil {
		return BlockStats{}, invalidf("BCBlock", "BCReset was not called")
	}
	n := int(r.n)
	if err := ensure(r, &r.blockLevels, n); err != nil {
		return BlockStats{}, err
	}
	if err := ensure(r, &r.blockOrder, n); err != nil {
		return BlockStats{}, err
	}
	if err := ensure(r, &r.levelEnd, n+1); err != nil {
		return BlockStats{}, err
	}
	if err := ensure(r, &r.arcBegin, n); err != nil {
		return BlockStats{}, err
	}
	if err := ensure(r, &r.arcCount, n); err != nil {
		return BlockStats{}, err
	}
	if err := ensure(r, &r.blockStats, 1); err != nil {
		return BlockStats{}, err
	}
	desc, ev := r.cargs()
	if err := backendBCBlock(r.dl.dev.ordinal, unsafe.Pointer(desc), s, r.blockLevels.h.p, r.blockOrder.h.p,
		r.levelEnd.h.p, r.arcBegin.h.p, r.arcCount.h.p, bailout, r.values.h.p, r.delta.h.p, r.blockStats.h.p, unsafe.Pointer(&ev[0])); err != nil {
		return BlockStats{}, err
	}
	return r.readBlockStats(r.blockStats)
}

// readBlockStats waits for the one-block run just launched and returns
// what it did, with the kernel time between the state's first two events.
func (s *stepState) readBlockStats(b *Buffer[blockStats]) (BlockStats, error) {
	c := make([]blockStats, 1)
	if err := b.CopyToHost(c); err != nil { // waits for the run
		return BlockStats{}, err
	}
	t, err := s.times(1)
	if err != nil {
		return BlockStats{}, err
	}
	return BlockStats{Levels: int(c[0].levels), Reached: uint64(c[0].reached), Left: c[0].frontierCount, Millis: t[0]}, nil
}
