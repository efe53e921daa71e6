package cuda

import (
	"errors"
	"fmt"
	"unsafe"
)

// BlockRowWidth is the width of the one-block runs' fixed-width rows
// (MG_BLOCK_ROW_WIDTH): a layout whose vertices have at most this many
// out-arcs runs BlockBFS and BCBlock over a row-major copy of its
// adjacency, n rows of this many destinations (one 32-byte sector each),
// so that a level costs one dependent global access instead of two.
const BlockRowWidth = 8

// RowWidth returns the slots of a fixed-width row an async round reads
// for a layout whose largest out-degree is maxDeg (at most BlockRowWidth):
// the power of two at least maxDeg, and at least 1. A grid's rows (4 arcs)
// take 4 threads each, so a round's threads take twice the items.
func RowWidth(maxDeg uint32) uint32 {
	w := uint32(1)
	for w < maxDeg && w < BlockRowWidth {
		w <<= 1
	}
	return w
}

// BlockBCMaxLevel is the widest level BCBlock takes over the rows
// (MG_BLOCK_BACK_LEVEL: its backward pass keeps a level in shared memory,
// a thread a vertex); its bailout must then be 1 .. BlockBCMaxLevel.
const BlockBCMaxLevel = 512

// blockRows is a run state's fixed-width rows for BlockBFS and BCBlock,
// built on the first run that asks for them (blockRowsFor).
type blockRows struct {
	checked bool            // the layout's largest out-degree was read (and the rows built if they fit)
	maxDeg  uint32          // the layout's largest out-degree, once checked
	rows    *Buffer[uint32] // n × BlockRowWidth destinations, 0xffffffff-padded; nil: some vertex has more arcs
	wrows   *Buffer[uint32] // the rows' weights (32-bit patterns, 0-padded), built on first use
}

// blockRowsFor returns the rows a one-block run reads (nil: the layout's
// CSR): none when use is false, else the run state's, which the first
// call builds on the device (the layout's largest out-degree, read back;
// then the rows when it is at most BlockRowWidth; without room for them,
// the CSR). They are freed with the run state.
func (s *stepState) blockRowsFor(use bool) (unsafe.Pointer, error) {
	if !use {
		return nil, nil
	}
	if !s.rows.checked {
		desc, _ := s.cargs()
		deg, err := Alloc[uint32](s.dl.dev, 1)
		if err != nil {
			return nil, fmt.Errorf("block rows: %w", err)
		}
		maxDeg := make([]uint32, 1)
		err = backendBlockMaxDegree(s.dl.dev.ordinal, unsafe.Pointer(desc), deg.h.p)
		if err == nil {
			err = deg.CopyToHost(maxDeg) // waits for it
		}
		if ferr := deg.Free(); err == nil {
			err = ferr
		}
		if err != nil {
			return nil, fmt.Errorf("block rows: %w", err)
		}
		s.rows.maxDeg = maxDeg[0]
		if maxDeg[0] <= BlockRowWidth && s.n > 0 {
			rows, err := allocOwned[uint32](&s.owned, s.dl.dev, int(s.n)*BlockRowWidth)
			if oom := (*OutOfMemoryError)(nil); errors.As(err, &oom) {
				s.rows.checked = true // no room for them: the CSR serves
				return nil, nil
			}
			if err != nil {
				return nil, fmt.Errorf("block rows: %w", err)
			}
			if err := backendBlockRows(s.dl.dev.ordinal, unsafe.Pointer(desc), maxDeg[0], rows.h.p); err != nil {
				return nil, fmt.Errorf("block rows: %w", err)
			}
			s.rows.rows = rows
		}
		s.rows.checked = true
	}
	if s.rows.rows == nil {
		return nil, nil
	}
	return s.rows.rows.h.p, nil
}

// weightRowsFor returns the weights of the rows blockRowsFor built (nil
// when it built none, or the layout has no weights), building them on
// first use (mg_block_weight_rows); without room for them, nil.
func (s *stepState) weightRowsFor() (unsafe.Pointer, error) {
	if s.rows.rows == nil || !s.dl.l.Weighted {
		return nil, nil
	}
	if s.rows.wrows == nil {
		desc, _ := s.cargs()
		w, err := allocOwned[uint32](&s.owned, s.dl.dev, int(s.n)*BlockRowWidth)
		if oom := (*OutOfMemoryError)(nil); errors.As(err, &oom) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("block weight rows: %w", err)
		}
		if err := backendBlockWeightRows(s.dl.dev.ordinal, unsafe.Pointer(desc), s.rows.maxDeg, w.h.p); err != nil {
			return nil, fmt.Errorf("block weight rows: %w", err)
		}
		s.rows.wrows = w
	}
	return s.rows.wrows.h.p, nil
}

// BlockRows reports whether the run state's one-block runs read
// fixed-width rows: use is set and every vertex of the layout has at most
// BlockRowWidth out-arcs (the first call finds out on the device, and
// builds the rows). Mode auto starts a BFS or a Brandes source of such a
// layout (a road network's, a mesh's: high diameter) in one block.
func (s *stepState) BlockRows(use bool) (bool, error) {
	p, err := s.blockRowsFor(use)
	return p != nil, err
}

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
	Rows    bool    // it read the fixed-width rows (BlockRowWidth), not the CSR
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
// (BlockStats.Left vertices) for the grid-wide engines to go on from.
// With rows set it reads the fixed-width rows when every vertex has at
// most BlockRowWidth out-arcs (built on the first such run), else the
// CSR. The layout must have at most BlockMaxVertices vertices.
func (r *MinRun) BlockBFS(count, bailout uint32, rows bool) (BlockStats, error) {
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
	rp, err := r.blockRowsFor(rows)
	if err != nil {
		return BlockStats{}, err
	}
	desc, ev := r.cargs()
	order := r.list[1-r.curList]
	if err := backendBlockBFS(r.dl.dev.ordinal, unsafe.Pointer(desc), rp, r.values.h.p, r.list[r.curList].h.p, count,
		order.h.p, bailout, r.blockStats.h.p, unsafe.Pointer(&ev[0])); err != nil {
		return BlockStats{}, err
	}
	return r.readBlockStats(r.blockStats, rp != nil)
}

// BCBlock runs Brandes from source s (layout numbering) in one thread block
// on an undirected layout (mg_bc_block: the BFS, then σ and δ level by
// level), leaving the dependencies for BCAccumulate, and waits for it. A
// BFS level of more than bailout vertices (0: never) stops it there, with
// BlockStats.Left > 0 and the dependencies void: the caller then runs the
// source otherwise. rows: as BlockBFS's; over the rows the BFS makes σ and
// δ's pass runs over queue places, each level reading the sums of the
// level below from shared memory (and bailout must be 1 ..
// BlockBCMaxLevel). BCReset must have been called; the
// layout must have at most BlockMaxVertices vertices.
func (r *SumRun) BCBlock(s, bailout uint32, rows bool) (BlockStats, error) {
	if r.depth == nil {
		return BlockStats{}, invalidf("BCBlock", "BCReset was not called")
	}
	rp, err := r.blockRowsFor(rows)
	if err != nil {
		return BlockStats{}, err
	}
	if rp != nil && (bailout == 0 || bailout > BlockBCMaxLevel) {
		return BlockStats{}, invalidf("BCBlock", "over the rows the bailout must be 1 .. %d, not %d", BlockBCMaxLevel, bailout)
	}
	n := int(r.n)
	for _, b := range []struct {
		buf **Buffer[uint32]
		n   int
	}{{&r.blockLevels, n}, {&r.blockOrder, n}, {&r.levelEnd, n + 1}, {&r.arcCount, n}} {
		if err := ensure(r, b.buf, b.n); err != nil {
			return BlockStats{}, err
		}
	}
	if err := ensure(r, &r.blockStats, 1); err != nil {
		return BlockStats{}, err
	}
	var arcBegin, links, qvals unsafe.Pointer
	if rp == nil { // the CSR: the queued vertices' arc ranges
		if err := ensure(r, &r.arcBegin, n); err != nil {
			return BlockStats{}, err
		}
		arcBegin = r.arcBegin.h.p
	} else { // the rows: the backward pass's links (as BCCluster's rows in queue order) and sums
		if err := ensure(r, &r.queueRows, n*BlockRowWidth); err != nil {
			return BlockStats{}, err
		}
		if err := ensure(r, &r.queueSums, 2*n); err != nil {
			return BlockStats{}, err
		}
		links, qvals = r.queueRows.h.p, r.queueSums.h.p
	}
	desc, ev := r.cargs()
	if err := backendBCBlock(r.dl.dev.ordinal, unsafe.Pointer(desc), rp, s, r.blockLevels.h.p, r.blockOrder.h.p,
		r.levelEnd.h.p, arcBegin, r.arcCount.h.p, links, qvals, bailout, r.values.h.p, r.delta.h.p,
		r.blockStats.h.p, unsafe.Pointer(&ev[0])); err != nil {
		return BlockStats{}, err
	}
	return r.readBlockStats(r.blockStats, rp != nil)
}

// readBlockStats waits for the one-block run just launched and returns
// what it did, with the kernel time between the state's first two events;
// rows: it read the fixed-width rows.
func (s *stepState) readBlockStats(b *Buffer[blockStats], rows bool) (BlockStats, error) {
	c := make([]blockStats, 1)
	if err := b.CopyToHost(c); err != nil { // waits for the run
		return BlockStats{}, err
	}
	t, err := s.times(1)
	if err != nil {
		return BlockStats{}, err
	}
	return BlockStats{Levels: int(c[0].levels), Reached: uint64(c[0].reached), Left: c[0].frontierCount, Millis: t[0],
		Rows: rows}, nil
}
