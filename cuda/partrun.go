package cuda

import (
	"errors"
	"fmt"
	"unsafe"
)

// PartMaxPeers is MG_PART_MAX_PEERS: the most parts a device-resident
// partitioned run has.
const PartMaxPeers = 64

// CCHeavyDegree and CCChunkArcs are MG_CC_HEAVY_DEGREE and
// MG_CC_CHUNK_ARCS: CC's hooking over a part links the rows of
// CCHeavyDegree arcs or more in chunks of CCChunkArcs arcs, a block each.
const (
	CCHeavyDegree = 256
	CCChunkArcs   = 1024
)

// PartMessage mirrors mg_part_msg: an update for another part, the
// vertex's id in its owner and its value (partition.Message's bytes).
type PartMessage struct {
	Vertex, Value uint32
}

// PartCounters mirrors mg_part_counters: what a superstep's packaging and
// unpackaging leave for the host.
type PartCounters struct {
	NextCount uint64 // owned vertices flagged for the next superstep
	NextEdges uint64 // their out-arcs
	Total     uint64 // the all-reduce's sum of NextCount over the parts
	// TotalEdges is the all-reduce's sum of NextEdges (reduced with Total).
	TotalEdges uint64
	Bad        uint64 // messages received for vertices the part does not own (after Parents: reached vertices without a parent)
	// Sent[q] is the number of messages packed for part q.
	Sent [PartMaxPeers]uint64
}

// PartTables are a part's conversion tables (partition.Part) in the
// layout's numbering, as NewPartRun uploads them.
type PartTables struct {
	// Index is this part's number and Parts the number of parts of the
	// run, at most PartMaxPeers.
	Index, Parts int
	// LocalLid[i] is the layout id of owned vertex i (the part's numbering).
	LocalLid []uint32
	// GhostLid, GhostOwner and GhostRemote give ghost g's layout id, owner
	// part and id in its owner.
	GhostLid, GhostOwner, GhostRemote []uint32
	// OwnerStart[q] is the first ghost owned by part q (Parts+1 entries;
	// ghosts are ordered by owner).
	OwnerStart []uint64
	// Global is every vertex's original id in the part's numbering (owned
	// vertices, then ghosts), for Labels; nil when not needed.
	Global []uint32
	// RecvCap is the most messages the part receives in one superstep: the
	// ghost copies of its vertices in the other parts.
	RecvCap uint64
	// PartRanges are the collection's tables: the part assembles the
	// result's range [Lo, Hi) of original ids.
	PartRanges
}

// partTables mirrors mg_part_tables.
type partTables struct {
	numLocal, numGhosts                         uint64
	parts, reserved                             uint32
	localLid, ghostLid, ghostOwner, ghostRemote uintptr
	ownerStart                                  uintptr
	lidGhost                                    uintptr
}

// partOwned marks an owned vertex in the lid-to-ghost table (MG_PART_OWNED).
const partOwned = ^uint32(0)

// lidGhosts returns the lid-to-ghost table of n layout ids: g at ghost g's
// layout id, partOwned elsewhere.
func lidGhosts(ghostLid []uint32, n uint64) []uint32 {
	t := make([]uint32, n)
	for i := range t {
		t[i] = partOwned
	}
	for g, lid := range ghostLid {
		t[lid] = uint32(g)
	}
	return t
}

// PartRun is one part's packaging state on its device, over the part's
// MinRun: the conversion tables, the values after the last exchange
// (prev), the next frontier's flags, the send buffer (a segment per owner,
// a slot per ghost) and the receive buffer (RecvCap messages), the
// counters, and the collection's state (the owned values gathered, those
// of the part's range of the result: PartRanges). Every buffer is sized
// from the part's tables once (nothing grows during a run). The values
// and frontier stay on the device between supersteps; only the counters
// come to the host.
type PartRun struct {
	owned
	partSeat
	run        *MinRun
	desc       partTables
	ownerStart []uint64
	recvCap    uint64
	global     *Buffer[uint32]
	prev       *Buffer[uint32]
	next       *Buffer[uint8] // n flags, padded to a multiple of 4
	send, recv *Buffer[PartMessage]
	ctr        *Buffer[PartCounters]
	gathered   *Buffer[uint32] // the owned values, in the part's numbering
	tableBytes uint64
	col        rangeCollect[uint32]
	// A BFS tree's tables (HoldTree; nil until then): treeRecvLid and
	// treeRecvStart as PartTreeTables' RecvLid and RecvStart, origByLid
	// its OrigByLid.
	treeRecvLid, origByLid *Buffer[uint32]
	treeRecvStart          []uint64
	holdsTree              bool
	// outHeavy lists the out-rows a pull step scans a block each
	// (PullStep; nil when none, or not listed yet: outHeavyDone).
	outHeavy     *Buffer[uint32]
	outHeavyDone bool
	// roots is CC by hooking's root of every vertex's component in the
	// part, chunks its long rows' pieces as (row, first) pairs, and
	// inOffsets and inSrc the lists of the vertices without rows (the
	// ghosts), the vertices whose rows name them (HookStep; nil until its
	// first call, chunks and inSrc when there are none).
	roots, chunks, inSrc *Buffer[uint32]
	inOffsets            *Buffer[uint64]
	// state is MIS's, colouring's or k-core's (StateStart; nil until
	// then).
	state *stateRun
}

// PartTreeTables are what a part of a BFS tree over parts needs beyond
// PartTables, in its layout's numbering (PartRun.HoldTree).
type PartTreeTables struct {
	// RecvLid is, for each other part p in increasing order, the layout
	// ids of this part's vertices that are p's ghosts, in p's ghost order;
	// RecvStart[p] (Parts+1 entries) is where part p's run begins.
	RecvLid   []uint32
	RecvStart []uint64
	// OrigByLid is every layout id's original id.
	OrigByLid []uint32
}

// NewPartRun allocates the packaging state of a part whose layout is
// run's, from its tables. An allocation that does not fit names the buffer
// and its size.
func NewPartRun(run *MinRun, t PartTables) (*PartRun, error) {
	n := run.n
	nl, ng := uint64(len(t.LocalLid)), uint64(len(t.GhostLid))
	switch {
	case t.Parts < 1 || t.Parts > PartMaxPeers:
		return nil, invalidf("NewPartRun", "%d parts; a device-resident run has 1 to %d", t.Parts, PartMaxPeers)
	case t.Index < 0 || t.Index >= t.Parts:
		return nil, invalidf("NewPartRun", "part %d of %d", t.Index, t.Parts)
	case nl+ng != n:
		return nil, invalidf("NewPartRun", "%d owned and %d ghost vertices for a layout of %d", nl, ng, n)
	case uint64(len(t.GhostOwner)) != ng || uint64(len(t.GhostRemote)) != ng:
		return nil, invalidf("NewPartRun", "ghost tables of %d, %d and %d entries", ng, len(t.GhostOwner), len(t.GhostRemote))
	case len(t.OwnerStart) != t.Parts+1 || t.OwnerStart[0] != 0 || t.OwnerStart[t.Parts] != ng:
		return nil, invalidf("NewPartRun", "owner starts %v for %d ghosts of %d parts", t.OwnerStart, ng, t.Parts)
	case t.Global != nil && uint64(len(t.Global)) != n:
		return nil, invalidf("NewPartRun", "%d original ids for %d vertices", len(t.Global), n)
	}
	for q := 0; q < t.Parts; q++ {
		if t.OwnerStart[q+1] < t.OwnerStart[q] {
			return nil, invalidf("NewPartRun", "owner starts decrease at part %d", q)
		}
	}
	for i, lid := range t.LocalLid {
		if uint64(lid) >= n {
			return nil, invalidf("NewPartRun", "owned vertex %d has layout id %d of %d", i, lid, n)
		}
	}
	for g, lid := range t.GhostLid {
		if uint64(lid) >= n || int(t.GhostOwner[g]) >= t.Parts {
			return nil, invalidf("NewPartRun", "ghost %d has layout id %d of %d and owner %d of %d", g, lid, n, t.GhostOwner[g], t.Parts)
		}
	}
	d := run.dl.dev
	p := &PartRun{partSeat: partSeat{dev: d, index: t.Index, parts: t.Parts}, run: run,
		ownerStart: append([]uint64(nil), t.OwnerStart...), recvCap: t.RecvCap}
	fail := func(err error) (*PartRun, error) { p.Close(); return nil, err }
	var localLid, ghostLid, ghostOwner, ghostRemote, lidGhost *Buffer[uint32]
	var err error
	if err = p.owned.uploadIds(d,
		idsUpload{"owned vertices' layout ids", &localLid, t.LocalLid},
		idsUpload{"ghosts' layout ids", &ghostLid, t.GhostLid},
		idsUpload{"ghosts' owners", &ghostOwner, t.GhostOwner},
		idsUpload{"ghosts' ids in their owners", &ghostRemote, t.GhostRemote},
		idsUpload{"layout ids' ghosts", &lidGhost, lidGhosts(t.GhostLid, n)},
	); err != nil {
		return fail(err)
	}
	if t.Global != nil {
		if p.global, err = uploadNamed(&p.owned, d, "original ids", t.Global); err != nil {
			return fail(err)
		}
	}
	starts, err := uploadNamed(&p.owned, d, "owner starts", t.OwnerStart)
	if err != nil {
		return fail(err)
	}
	if p.prev, err = allocPart[uint32](p, "values after the last exchange", int(n)); err != nil {
		return fail(err)
	}
	if p.next, err = allocPart[uint8](p, "next frontier flags", int((n+3)&^3)); err != nil {
		return fail(err)
	}
	if p.send, err = allocPart[PartMessage](p, "send buffer", int(ng)); err != nil {
		return fail(err)
	}
	if p.recv, err = allocPart[PartMessage](p, "receive buffer", int(t.RecvCap)); err != nil {
		return fail(err)
	}
	if p.ctr, err = allocPart[PartCounters](p, "counters", 1); err != nil {
		return fail(err)
	}
	if p.gathered, err = allocPart[uint32](p, "gathered values", len(t.LocalLid)); err != nil {
		return fail(err)
	}
	if err := p.col.init(&p.owned, d, "NewPartRun", "values", t.PartRanges, t.Parts, nl); err != nil {
		return fail(err)
	}
	p.desc = partTables{numLocal: nl, numGhosts: ng, parts: uint32(t.Parts),
		localLid: ptrOf(localLid), ghostLid: ptrOf(ghostLid), ghostOwner: ptrOf(ghostOwner),
		ghostRemote: ptrOf(ghostRemote), ownerStart: ptrOf(starts), lidGhost: ptrOf(lidGhost)}
	p.tableBytes = bufBytes(localLid) + bufBytes(ghostLid) + bufBytes(ghostOwner) + bufBytes(ghostRemote) + bufBytes(starts) +
		bufBytes(lidGhost)
	return p, nil
}

// allocPart allocates a buffer of p's, naming it in the error.
func allocPart[T any](p *PartRun, name string, n int) (*Buffer[T], error) {
	return allocNamed[T](&p.owned, p.dev, name, n)
}

// ptrOf returns b's device address as the descriptor holds it (0 for an
// empty buffer).
func ptrOf[T any](b *Buffer[T]) uintptr {
	if b == nil {
		return 0
	}
	return uintptr(b.h.p)
}

// Bytes returns the device memory the part's packaging state takes.
func (p *PartRun) Bytes() uint64 {
	return bufBytes(p.global) + bufBytes(p.prev) + bufBytes(p.next) + bufBytes(p.send) + bufBytes(p.recv) +
		bufBytes(p.ctr) + bufBytes(p.gathered) + p.tableBytes + p.col.bytes() + bufBytes(p.treeRecvLid) + bufBytes(p.origByLid) +
		bufBytes(p.outHeavy) + bufBytes(p.roots) + bufBytes(p.chunks) + bufBytes(p.inSrc) + bufBytes(p.inOffsets) +
		p.state.bytes()
}

// HoldTree uploads a BFS tree's tables (once: a part that holds them
// keeps them). The levels travel in the receive buffer (RecvLid has as
// many entries as the part receives messages at most, RecvCap) and
// arrive in the send buffer (a level per ghost), both of 8-byte messages
// and so large enough.
func (p *PartRun) HoldTree(t PartTreeTables) error {
	if p.holdsTree {
		return nil
	}
	n, nr := p.run.n, uint64(len(t.RecvLid))
	switch {
	case uint64(len(t.OrigByLid)) != n:
		return invalidf("PartRun.HoldTree", "%d original ids for %d vertices", len(t.OrigByLid), n)
	case len(t.RecvStart) != p.parts+1 || t.RecvStart[0] != 0 || t.RecvStart[p.parts] != nr:
		return invalidf("PartRun.HoldTree", "receive starts %v for %d levels of %d parts", t.RecvStart, nr, p.parts)
	case nr > p.recvCap:
		return invalidf("PartRun.HoldTree", "%d levels to send; the receive buffer holds %d messages", nr, p.recvCap)
	}
	for q := 0; q < p.parts; q++ {
		if t.RecvStart[q+1] < t.RecvStart[q] {
			return invalidf("PartRun.HoldTree", "receive starts decrease at part %d", q)
		}
	}
	for i, lid := range t.RecvLid {
		if uint64(lid) >= n {
			return invalidf("PartRun.HoldTree", "entry %d names layout id %d of %d", i, lid, n)
		}
	}
	var recvLid, orig *Buffer[uint32]
	if err := p.owned.uploadIds(p.dev,
		idsUpload{"boundary vertices' layout ids, by holder", &recvLid, t.RecvLid},
		idsUpload{"original ids by layout id", &orig, t.OrigByLid},
	); err != nil {
		return err
	}
	p.treeRecvLid, p.origByLid, p.treeRecvStart, p.holdsTree = recvLid, orig, append([]uint64(nil), t.RecvStart...), true
	return nil
}

// HoldsTree reports whether HoldTree has run.
func (p *PartRun) HoldsTree() bool { return p.holdsTree }

// levelBytes is the size of a level in a BFS tree's broadcast.
const levelBytes = uint64(unsafe.Sizeof(uint32(0)))

// BroadcastPack puts the levels of the part's vertices that other parts
// hold as ghosts into the receive buffer, a segment per holder in its
// ghosts' order (HoldTree first; waits).
func (p *PartRun) BroadcastPack() error {
	return p.broadcastPack(p.run.values.h.p)
}

// broadcastPack is BroadcastPack of values (n uint32 by layout id).
func (p *PartRun) broadcastPack(values unsafe.Pointer) error {
	if !p.holdsTree {
		return invalidf("PartRun.BroadcastPack", "no tree tables (HoldTree)")
	}
	count := p.treeRecvStart[p.parts]
	if count == 0 {
		return nil
	}
	return backendPartBcastPack(p.dev.ordinal, values, p.treeRecvLid.h.p, count, p.recv.h.p)
}

// BroadcastNCCL sends every other part the levels it holds as ghosts and
// receives its ghosts' levels from their owners into the send buffer
// (collective; rank is this part's).
func (p *PartRun) BroadcastNCCL(rank *NCCLRank) error {
	return p.segmentsNCCL("PartRun.BroadcastNCCL", rank, levelBytes, p.recv.h.p, p.treeRecvStart, p.send.h.p, p.ownerStart, nil)
}

// BroadcastFromPeer copies part q's levels of this part's ghosts out of
// src's receive buffer (BroadcastPack's) into this part's send buffer
// (src may be on another device: a peer copy).
func (p *PartRun) BroadcastFromPeer(src *PartRun, q int) error {
	return p.segmentFromPeer("PartRun.BroadcastFromPeer", q, levelBytes, src.treeRecvStart, src.dev, src.recv.h.p, p.ownerStart, p.send.h.p)
}

// BroadcastUnpack gives every ghost the level its owner sent (waits).
func (p *PartRun) BroadcastUnpack() error {
	return backendPartBcastUnpack(p.dev.ordinal, unsafe.Pointer(p.tables()), p.send.h.p, p.run.values.h.p, nil, nil, 0)
}

// BroadcastFrontier gives every ghost the level its owner sent, as its
// value after the last exchange too, and flags in the current frontier
// the ghosts at level (those a pull step finds active; PullStep). Waits.
func (p *PartRun) BroadcastFrontier(level uint32) error {
	r := p.run
	return backendPartBcastUnpack(p.dev.ordinal, unsafe.Pointer(p.tables()), p.send.h.p, r.values.h.p, p.prev.h.p,
		r.flags[r.curFlags].h.p, level)
}

// PullStep runs one pull (bottom-up) step of BFS (prog ProgBFS) over the
// part's out-rows, which in a part of an undirected graph list every
// neighbour of its vertices: every unreached vertex scans its row for a
// vertex flagged in the current frontier (owned, or a ghost flagged by
// BroadcastFrontier) and stops at the first. The flags it makes become
// the current ones; it returns the step's counters. The out-rows' long
// rows are listed once, on the first call (a block scans each). A part
// without vertices has nothing to pull.
func (p *PartRun) PullStep(prog int) (StepCounters, error) {
	r := p.run
	if r.n == 0 {
		return StepCounters{}, nil
	}
	if !p.outHeavyDone {
		if err := p.listOutHeavy(); err != nil {
			return StepCounters{}, err
		}
	}
	desc, ev := r.cargs()
	p.outRows(desc)
	if err := backendMinPull(r.dl.dev.ordinal, prog, unsafe.Pointer(desc), r.values.h.p, r.flags[r.curFlags].h.p,
		r.flags[1-r.curFlags].h.p, r.ctr.h.p, unsafe.Pointer(&ev[0])); err != nil {
		return StepCounters{}, err
	}
	c, _, err := r.finishStep(1, true, false)
	return c, err
}

// SettlePull ends a superstep that pulled (PullStep, whose counters c
// are) without packaging: the step lowered owned vertices only (a ghost
// has no row in its holder's part), so nothing is sent, the values become
// those after the exchange (prev), and the counters the all-reduce reads
// are the step's (NextCount, NextEdges; the rest zero). The step's flags
// stay the current frontier (no Advance). Waits.
func (p *PartRun) SettlePull(c StepCounters) error {
	if err := p.Start(); err != nil { // prev ← values, as at a run's start
		return err
	}
	return p.ctr.CopyFromHost([]PartCounters{{NextCount: uint64(c.NextCount), NextEdges: c.NextEdges}})
}

// outRows makes desc, a copy of the layout's descriptor, scan the
// out-rows as its in-adjacency (with their long rows' list).
func (p *PartRun) outRows(desc *dlayout) {
	desc.inOffsets, desc.inSrc, desc.inWeights = desc.sparseOffsets, desc.sparseDst, desc.sparseWeights
	desc.numInHeavy, desc.inHeavy = 0, 0
	if p.outHeavy != nil {
		desc.numInHeavy, desc.inHeavy = uint64(p.outHeavy.Len()), uintptr(p.outHeavy.h.p)
	}
}

// listOutHeavy lists the part's out-rows of PullHeavyDegree arcs or more.
func (p *PartRun) listOutHeavy() error {
	desc := new(dlayout)
	*desc = p.run.dl.desc
	p.outRows(desc)
	dev := p.dev.ordinal
	k, err := backendInHeavy(dev, unsafe.Pointer(desc), nil)
	if err != nil {
		return err
	}
	if k > 0 {
		list, err := allocPart[uint32](p, "long out-rows' list", int(k))
		if err != nil {
			return err
		}
		if k2, err := backendInHeavy(dev, unsafe.Pointer(desc), list.h.p); err != nil {
			return err
		} else if k2 != k {
			return invalidf("PartRun.PullStep", "%d long out-rows, then %d", k, k2)
		}
		p.outHeavy = list
	}
	p.outHeavyDone = true
	return nil
}

// Parents replaces the owned vertices' BFS levels by their parents'
// original ids (the source's its own, an unreached vertex's the
// identity): of the neighbours in the vertex's out-row one level up, the
// first. The ghosts must hold their owners' levels (BroadcastUnpack), and
// the graph must be undirected, so that an out-row lists every
// neighbour. A reached vertex without such a neighbour is an error.
// Waits.
func (p *PartRun) Parents() error {
	r := p.run
	if !p.holdsTree {
		return invalidf("PartRun.Parents", "no tree tables (HoldTree)")
	}
	if r.n == 0 {
		return nil
	}
	err := backendPartParents(p.dev.ordinal, unsafe.Pointer(p.tables()), evp(r.dl.desc.sparseOffsets), evp(r.dl.desc.sparseDst),
		r.values.h.p, p.origByLid.h.p, p.prev.h.p, p.ctr.h.p)
	if err != nil {
		return err
	}
	c, err := p.Counters()
	if err != nil {
		return err
	}
	if c.Bad > 0 {
		return fmt.Errorf("cuda: part %d: %d reached vertices have no neighbour one level up", p.index, c.Bad)
	}
	return r.values.CopyFrom(p.prev)
}

// HookStep is a superstep's compute of CC by hooking over parts, from
// Labels' start. The first (first true) links the part's components by
// Afforest's hooking (mg_cc_hook_all: a ghost, which has no row, reads
// the list of the part's vertices whose rows name it instead, built on
// the first call, so that the vertices sampling put in layout vertex 0's
// component skip the rest of their lists as on one GPU) and gives every vertex its
// component's smallest label; a later one spreads the labels the
// exchange lowered (the vertices flagged in the current frontier) through
// their components. Pack then finds what changed, as after an iteration.
// Waits.
//
// offsets are the layout's sparse offsets on the host (n+1 of them, else
// none is used), from which the first call lists the long rows' chunks
// (ccChunks), kept for the next runs.
func (p *PartRun) HookStep(first bool, offsets []uint64) error {
	r := p.run
	if r.n == 0 {
		return nil
	}
	dev := p.dev.ordinal
	var flags unsafe.Pointer
	if first {
		if p.roots == nil {
			roots, err := allocPart[uint32](p, "components' roots", int(r.n))
			if err != nil {
				return err
			}
			if err := p.holdRowlessIn(roots); err != nil {
				return err
			}
			if uint64(len(offsets)) == r.n+1 {
				if pairs := ccChunks(offsets); len(pairs) > 0 {
					if err := p.owned.uploadIds(p.dev, idsUpload{"long rows' chunks", &p.chunks, pairs}); err != nil {
						return err
					}
				}
			}
			p.roots = roots
		}
		desc, _ := r.cargs()
		var chunks unsafe.Pointer
		var numChunks uint64
		if p.chunks != nil {
			chunks, numChunks = p.chunks.h.p, uint64(p.chunks.Len()/2)
		}
		var inSrc unsafe.Pointer
		if p.inSrc != nil {
			inSrc = p.inSrc.h.p
		}
		if err := backendCCHookAll(dev, unsafe.Pointer(desc), p.roots.h.p, chunks, numChunks, p.inOffsets.h.p, inSrc); err != nil {
			return err
		}
	} else {
		if p.roots == nil {
			return invalidf("PartRun.HookStep", "no components yet (the first step links them)")
		}
		flags = r.flags[r.curFlags].h.p
	}
	return backendPartCCRoots(dev, p.roots.h.p, flags, r.values.h.p, r.n)
}

// holdRowlessIn builds the in-lists of the part's vertices without rows
// on the device (mg_cc_rowless_in: their lengths and offsets, then, in a
// buffer of their total, the lists), with scratch (n words) as the
// cursors.
func (p *PartRun) holdRowlessIn(scratch *Buffer[uint32]) error {
	r := p.run
	offsets, err := allocPart[uint64](p, "ghosts' in-lists' offsets", int(r.n+1))
	if err != nil {
		return err
	}
	desc, _ := r.cargs()
	total, err := backendCCRowlessIn(p.dev.ordinal, unsafe.Pointer(desc), offsets.h.p, nil, scratch.h.p)
	if err != nil {
		return err
	}
	if total > 0 {
		src, err := allocPart[uint32](p, "ghosts' in-lists", int(total))
		if err != nil {
			return err
		}
		if _, err := backendCCRowlessIn(p.dev.ordinal, unsafe.Pointer(desc), offsets.h.p, src.h.p, scratch.h.p); err != nil {
			return err
		}
		p.inSrc = src
	}
	p.inOffsets = offsets
	return nil
}

// ccChunks lists the chunks of the rows of CCHeavyDegree arcs or more
// (offsets: a layout's sparse offsets) for mg_cc_hook_all, as (row,
// first) pairs: the arcs [first, first+CCChunkArcs) of the row each.
func ccChunks(offsets []uint64) []uint32 {
	var pairs []uint32
	for v := range len(offsets) - 1 {
		deg := offsets[v+1] - offsets[v]
		if deg < CCHeavyDegree {
			continue
		}
		for first := uint64(0); first < deg; first += CCChunkArcs {
			pairs = append(pairs, uint32(v), uint32(first))
		}
	}
	return pairs
}

// bufBytes is b's size, 0 for nil.
func bufBytes[T any](b *Buffer[T]) uint64 {
	if b == nil {
		return 0
	}
	return b.Bytes()
}

// Close frees the state (not the MinRun), the pinned result (MakeResult)
// included.
func (p *PartRun) Close() error {
	return errors.Join(p.col.free(), p.release())
}

// tables returns a copy of the descriptor for a C call.
func (p *PartRun) tables() *partTables {
	t := new(partTables)
	*t = p.desc
	return t
}

// Labels sets CC's start: every vertex's value its original id, the owned
// vertices the current frontier (flags). NewPartRun must have had Global.
func (p *PartRun) Labels() error {
	if p.global == nil {
		return invalidf("PartRun.Labels", "the part's tables had no original ids")
	}
	r := p.run
	return backendPartLabels(p.dev.ordinal, unsafe.Pointer(p.tables()), p.global.h.p, r.values.h.p, r.flags[r.curFlags].h.p, r.n)
}

// Start begins a run from the MinRun's current values (Labels or
// MinRun.Init): they are the values after the last exchange.
func (p *PartRun) Start() error {
	if p.run.n == 0 {
		return nil
	}
	return p.prev.CopyFrom(p.run.values)
}

// Pack packages the updates of the iteration that just ran (waiting for
// it) and returns the counters: NextCount and NextEdges for the owned
// vertices it lowered, Sent for the messages, which lie in the send
// buffer at SendSegment.
func (p *PartRun) Pack() (PartCounters, error) {
	r := p.run
	err := backendPartPack(p.dev.ordinal, unsafe.Pointer(p.tables()), evp(r.dl.desc.sparseOffsets),
		r.values.h.p, p.prev.h.p, p.next.h.p, r.n, p.send.h.p, p.ctr.h.p)
	if err != nil {
		return PartCounters{}, err
	}
	return p.Counters()
}

// Counters copies the counters to the host.
func (p *PartRun) Counters() (PartCounters, error) {
	c := make([]PartCounters, 1)
	err := p.ctr.CopyToHost(c)
	return c[0], err
}

// SendSegment returns where the messages packed for part q lie in the send
// buffer: their first slot and number, given Pack's counters.
func (p *PartRun) SendSegment(c PartCounters, q int) (first, count uint64) {
	return p.ownerStart[q], c.Sent[q]
}

// RecvCap returns the receive buffer's size in messages.
func (p *PartRun) RecvCap() uint64 { return p.recvCap }

// Unpack min-combines the first received messages of the receive buffer
// into the owned vertices and flags the ones they lower (waiting), adding
// to the counters, which the caller reads next (Counters, or the
// all-reduce's copy): their Bad counts the messages for vertices the part
// does not own (CheckCounters).
func (p *PartRun) Unpack(received uint64) error {
	if received > p.recvCap {
		return invalidf("PartRun.Unpack", "%d messages received; the buffer holds %d", received, p.recvCap)
	}
	r := p.run
	return backendPartUnpack(p.dev.ordinal, unsafe.Pointer(p.tables()), evp(r.dl.desc.sparseOffsets),
		p.recv.h.p, received, r.values.h.p, p.prev.h.p, p.next.h.p, p.ctr.h.p)
}

// CheckCounters returns the error of counters that say Unpack received
// updates for vertices the part does not own, or nil.
func (p *PartRun) CheckCounters(c PartCounters) error {
	if c.Bad > 0 {
		return fmt.Errorf("cuda: %d received updates name vertices the part does not own (%d)", c.Bad, p.desc.numLocal)
	}
	return nil
}

// Advance makes the flags Pack and Unpack wrote the MinRun's current
// frontier.
func (p *PartRun) Advance() error {
	r := p.run
	if r.n == 0 {
		return nil
	}
	return backendCopyDtoD(p.dev.ordinal, r.flags[r.curFlags].h.p, p.next.h.p, r.n)
}

// EnablePeerAccess lets every device of devices read and write every
// other's memory directly (NVLink or PCIe) where the hardware allows, so
// that the peer copies between their parts (CopyFromPeer, the collection's)
// no longer go through host memory. It returns how many ordered pairs of
// distinct devices have direct access; a pair without it still copies,
// staged by the driver. Enabling is once per process: pairs enabled
// before count too.
func EnablePeerAccess(devices []int) (int, error) {
	enabled := 0
	for _, d := range devices {
		for _, p := range devices {
			if d == p {
				continue
			}
			ok, err := backendEnablePeerAccess(d, p)
			if err != nil {
				return enabled, fmt.Errorf("cuda: peer access from GPU %d to GPU %d: %w", d, p, err)
			}
			if ok {
				enabled++
			}
		}
	}
	return enabled, nil
}

// CopyFromPeer copies count messages of src's send buffer, from slot
// first, into this part's receive buffer at slot at (src may be on
// another device: a peer copy).
func (p *PartRun) CopyFromPeer(src *PartRun, first, count, at uint64) error {
	if count == 0 {
		return nil
	}
	if at+count > p.recvCap || first+count > uint64(src.send.Len()) {
		return invalidf("PartRun.CopyFromPeer", "%d messages from slot %d of %d into slot %d of %d",
			count, first, src.send.Len(), at, p.recvCap)
	}
	const m = uint64(unsafe.Sizeof(PartMessage{}))
	return backendCopyPeer(p.dev.ordinal, unsafe.Add(p.recv.h.p, at*m), src.dev.ordinal, unsafe.Add(src.send.h.p, first*m), count*m)
}

// ExchangeNCCL moves the packed messages to their parts through rank (the
// rank of this part): the counts first, then the messages, device to
// device; every part makes the matching call. It returns the number of
// messages received, which lie at the start of the receive buffer.
func (p *PartRun) ExchangeNCCL(rank *NCCLRank, c PartCounters) (uint64, error) {
	n := rank.ranks
	if n > PartMaxPeers {
		return 0, invalidf("PartRun.ExchangeNCCL", "%d ranks", n)
	}
	const m = uint64(unsafe.Sizeof(PartMessage{}))
	sendOff, sendBytes := make([]uint64, n), make([]uint64, n)
	for q := 0; q < n; q++ {
		if q != rank.rank {
			sendOff[q], sendBytes[q] = p.ownerStart[q]*m, c.Sent[q]*m
		}
	}
	recvBytes, err := rank.agreeSizes(sendBytes)
	if err != nil {
		return 0, err
	}
	recvOff := make([]uint64, n)
	var total uint64
	for q := range recvBytes {
		recvOff[q], total = total, total+recvBytes[q]
	}
	if total > p.recvCap*m || total%m != 0 {
		return 0, fmt.Errorf("cuda: nccl rank %d would receive %d bytes; its buffer holds %d messages", rank.rank, total, p.recvCap)
	}
	if total == 0 && sumOf(sendBytes) == 0 {
		return 0, nil
	}
	if err := rank.exchange(p.send.h.p, sendOff, sendBytes, p.recv.h.p, recvOff, recvBytes, nil); err != nil {
		return 0, err
	}
	return total / m, nil
}

// ReduceNCCL sums NextCount and NextEdges over the parts into Total and
// TotalEdges, on the devices (rank is this part's; collective), and
// returns the counters.
func (p *PartRun) ReduceNCCL(rank *NCCLRank) (PartCounters, error) {
	base := p.ctr.h.p // NextCount and NextEdges are the first two words, Total and TotalEdges the next two
	if err := rank.allReduceSum("PartRun.ReduceNCCL", base, unsafe.Add(base, 16), 2, false); err != nil {
		return PartCounters{}, err
	}
	return p.Counters()
}

// GatherOwned gathers the owned vertices' values in the part's numbering
// (increasing original id, so that each part's range of the result is
// one slice of them: SendSplit), waiting.
func (p *PartRun) GatherOwned() error {
	if p.desc.numLocal == 0 {
		return nil
	}
	return backendPartGather(p.dev.ordinal, unsafe.Pointer(p.tables()), p.run.values.h.p, p.gathered.h.p)
}

// CollectOwn copies the part's gathered values that fall in its own range
// to their place among the collected ones.
func (p *PartRun) CollectOwn() error { return p.CollectFromPeer(p, p.index) }

// CollectFromPeer copies src's (part q's) gathered values in this part's
// range to their place among the collected ones (src may be this part, or
// on another device: a peer copy). src's gathered values must stay
// unchanged until the copy has returned.
func (p *PartRun) CollectFromPeer(src *PartRun, q int) error {
	return p.col.fromPeer(p.partSeat, "PartRun.CollectFromPeer", q, src.col.sendSplit, src.dev, src.gathered.h.p)
}

// CollectNCCL sends every other part the gathered values in its range and
// receives those in this part's (collective; rank is this part's). The
// sizes are known from the tables on both sides.
func (p *PartRun) CollectNCCL(rank *NCCLRank) error {
	return p.col.nccl(p.partSeat, "PartRun.CollectNCCL", rank, p.gathered.h.p)
}

// MakeResult allocates (once, again when n changes) pinned host memory for
// the whole result, n values, which Assemble of every part fills, and
// returns it. It stays with this part's state, reused by its next run:
// the slice is valid until then (or Close).
func (p *PartRun) MakeResult(n uint64) ([]uint32, error) { return p.col.makeResult(p.dev, n, "result") }

// Assemble puts the collected values of the part's range in id order and
// copies them to result[Lo:Hi] (result: the whole result, in pinned
// memory: MakeResult of one part), waiting.
func (p *PartRun) Assemble(result []uint32) error {
	return p.col.assemble(p.partSeat, "PartRun.Assemble", result, backendPartScatter)
}

// PartRanges are a part's tables for collecting a partitioned run's
// result on the devices by ranges of original ids, part q assembling
// [Lo, Hi) = [q·n/P, (q+1)·n/P): every part's owned vertices are in
// increasing original id, so those in part q's range are one slice, which
// goes to part q; part q puts the slices it receives in id order and
// copies its range into the one pinned result, over its own link. PartRun
// (uint32 values) and PartRank (float64 ranks) collect this way.
type PartRanges struct {
	// Lo and Hi bound the part's range of original ids.
	Lo, Hi uint64
	// SendSplit[q] (Parts+1 entries) is the first owned vertex (the part's
	// numbering) in part q's range.
	SendSplit []uint64
	// CollectStart[p] (Parts+1 entries) is where part p's values for this
	// part's range begin among the collected ones, and CollectIds (Hi−Lo
	// entries) their original ids minus Lo.
	CollectStart []uint64
	CollectIds   []uint32
}

// check returns the error of ranges that do not fit a part of parts
// owning numOwned vertices, or nil.
func (r PartRanges) check(what string, parts int, numOwned uint64) error {
	switch {
	case r.Hi < r.Lo || len(r.SendSplit) != parts+1 || r.SendSplit[0] != 0 || r.SendSplit[parts] != numOwned:
		return invalidf(what, "range [%d, %d), send splits %v for %d owned vertices", r.Lo, r.Hi, r.SendSplit, numOwned)
	case len(r.CollectStart) != parts+1 || r.CollectStart[0] != 0 || r.CollectStart[parts] != uint64(len(r.CollectIds)) ||
		uint64(len(r.CollectIds)) != r.Hi-r.Lo:
		return invalidf(what, "collect starts %v and %d ids for the range [%d, %d)", r.CollectStart, len(r.CollectIds), r.Lo, r.Hi)
	}
	for q := 0; q < parts; q++ {
		if r.SendSplit[q+1] < r.SendSplit[q] || r.CollectStart[q+1] < r.CollectStart[q] {
			return invalidf(what, "send splits or collect starts decrease at part %d", q)
		}
	}
	for _, id := range r.CollectIds {
		if uint64(id) >= r.Hi-r.Lo {
			return invalidf(what, "collected id %d outside the range [%d, %d)", uint64(id)+r.Lo, r.Lo, r.Hi)
		}
	}
	return nil
}

// partSeat is a part's place in a partitioned run: its device, its number
// and the run's part count.
type partSeat struct {
	dev          Device
	index, parts int
}

// segmentsNCCL sends segment q of send (elements of elem bytes
// [sendStart[q], sendStart[q+1])) to every other rank q and receives rank
// q's into recv from recvStart[q] (collective; rank is this part's). A
// part with nothing to send or receive makes no NCCL call (its peers post
// none for it either), so empty buffers are never touched.
func (s partSeat) segmentsNCCL(what string, rank *NCCLRank, elem uint64, send unsafe.Pointer, sendStart []uint64,
	recv unsafe.Pointer, recvStart []uint64, while func() error) error {
	n := rank.ranks
	if n != s.parts || rank.rank != s.index || len(sendStart) != n+1 || len(recvStart) != n+1 {
		return invalidf(what, "rank %d of %d for part %d of %d", rank.rank, n, s.index, s.parts)
	}
	sendOff, sendBytes := make([]uint64, n), make([]uint64, n)
	recvOff, recvBytes := make([]uint64, n), make([]uint64, n)
	for q := 0; q < n; q++ {
		if q == s.index {
			continue
		}
		sendOff[q], sendBytes[q] = sendStart[q]*elem, (sendStart[q+1]-sendStart[q])*elem
		recvOff[q], recvBytes[q] = recvStart[q]*elem, (recvStart[q+1]-recvStart[q])*elem
	}
	if sumOf(sendBytes) == 0 && sumOf(recvBytes) == 0 {
		if while != nil {
			return while()
		}
		return nil
	}
	return rank.exchange(send, sendOff, sendBytes, recv, recvOff, recvBytes, while)
}

// segmentFromPeer copies part q's segment for this part, elements of elem
// bytes [srcStarts[s.index], srcStarts[s.index+1]) of srcBuf on srcDev, to
// dstBuf from dstStarts[q] (a peer copy when the devices differ, a copy
// on the device when they are the same). An empty segment is no copy.
func (s partSeat) segmentFromPeer(what string, q int, elem uint64, srcStarts []uint64, srcDev Device, srcBuf unsafe.Pointer,
	dstStarts []uint64, dstBuf unsafe.Pointer) error {
	if q < 0 || q >= s.parts || len(srcStarts) != s.parts+1 || len(dstStarts) != s.parts+1 {
		return invalidf(what, "part %d of %d", q, s.parts)
	}
	first, count := srcStarts[s.index], srcStarts[s.index+1]-srcStarts[s.index]
	if count != dstStarts[q+1]-dstStarts[q] {
		return invalidf(what, "part %d has %d values for this part; %d expected", q, count, dstStarts[q+1]-dstStarts[q])
	}
	if count == 0 {
		return nil
	}
	return backendCopyPeer(s.dev.ordinal, unsafe.Add(dstBuf, dstStarts[q]*elem), srcDev.ordinal, unsafe.Add(srcBuf, first*elem), count*elem)
}

// rangeCollect is a part's side of collecting the result by ranges of
// original ids (PartRanges), shared by PartRun and PartRank: the tables,
// the collected values of the part's range as they arrive (vals, part p's
// from collectStart[p]) and in id order (full), and, on the part that
// made it (makeResult), the whole result in pinned host memory.
type rangeCollect[T uint32 | float64] struct {
	lo, hi                  uint64
	sendSplit, collectStart []uint64
	ids                     *Buffer[uint32] // CollectIds
	vals, full              *Buffer[T]
	host                    *Pinned[T]
}

// init checks t for a part of parts owning numOwned vertices and
// allocates the state on dev with o (name says what the values are, in
// the errors).
func (c *rangeCollect[T]) init(o *owned, dev Device, what, name string, t PartRanges, parts int, numOwned uint64) error {
	if err := t.check(what, parts, numOwned); err != nil {
		return err
	}
	c.lo, c.hi = t.Lo, t.Hi
	c.sendSplit, c.collectStart = append([]uint64(nil), t.SendSplit...), append([]uint64(nil), t.CollectStart...)
	var err error
	if c.ids, err = uploadNamed(o, dev, "collected "+name+"' original ids", t.CollectIds); err != nil {
		return err
	}
	if c.vals, err = allocNamed[T](o, dev, "collected "+name, int(t.Hi-t.Lo)); err != nil {
		return err
	}
	c.full, err = allocNamed[T](o, dev, "the range's "+name, int(t.Hi-t.Lo))
	return err
}

// elemBytes is the size of a value.
func (c *rangeCollect[T]) elemBytes() uint64 {
	var v T
	return uint64(unsafe.Sizeof(v))
}

// bytes returns the device memory the state takes.
func (c *rangeCollect[T]) bytes() uint64 {
	return bufBytes(c.ids) + bufBytes(c.vals) + bufBytes(c.full)
}

// free frees the pinned result (the device buffers are the owner's).
func (c *rangeCollect[T]) free() error {
	err := c.host.Free()
	c.host = nil
	return err
}

// fromPeer copies part q's gathered values in s's range (srcOut on
// srcDev, split by srcSplit) to their place among the collected ones.
func (c *rangeCollect[T]) fromPeer(s partSeat, what string, q int, srcSplit []uint64, srcDev Device, srcOut unsafe.Pointer) error {
	return s.segmentFromPeer(what, q, c.elemBytes(), srcSplit, srcDev, srcOut, c.collectStart, c.vals.h.p)
}

// nccl sends every other part the gathered values (out) in its range and
// receives those in s's range (collective).
func (c *rangeCollect[T]) nccl(s partSeat, what string, rank *NCCLRank, out unsafe.Pointer) error {
	return s.segmentsNCCL(what, rank, c.elemBytes(), out, c.sendSplit, c.vals.h.p, c.collectStart, nil)
}

// makeResult allocates the whole result, n values, in pinned host memory
// usable with dev, unless the one made before has n values, and returns
// it.
func (c *rangeCollect[T]) makeResult(dev Device, n uint64, name string) ([]T, error) {
	if c.host != nil && uint64(len(c.host.Slice())) == n {
		return c.host.Slice(), nil
	}
	if err := c.free(); err != nil {
		return nil, err
	}
	h, err := AllocPinned[T](dev, int(n))
	if err != nil {
		return nil, fmt.Errorf("pinned host memory for the %s (%s): %w", name, FormatBytes(n*c.elemBytes()), err)
	}
	c.host = h
	return h.Slice(), nil
}

// assemble puts the collected values in id order (scatter: the kernel for
// T) and copies them to result[lo:hi], waiting. An empty range does
// nothing.
func (c *rangeCollect[T]) assemble(s partSeat, what string, result []T,
	scatter func(dev int, vals, ids unsafe.Pointer, count uint64, full unsafe.Pointer) error) error {
	if c.hi > uint64(len(result)) {
		return invalidf(what, "range [%d, %d) of a result of %d", c.lo, c.hi, len(result))
	}
	count := c.hi - c.lo
	if count == 0 {
		return nil
	}
	if err := scatter(s.dev.ordinal, c.vals.h.p, c.ids.h.p, count, c.full.h.p); err != nil {
		return err
	}
	return backendCopyDtoH(s.dev.ordinal, unsafe.Pointer(&result[c.lo]), c.full.h.p, count*c.elemBytes())
}

func sumOf(x []uint64) uint64 {
	var s uint64
	for _, v := range x {
		s += v
	}
	return s
}
