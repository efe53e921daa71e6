package cuda

import (
	"errors"
	"fmt"
	"unsafe"
)

// PartBCHubArcs is MG_PART_BC_HUB_ARCS: a row (out- or in-) of more arcs
// is a hub's, summed by a block of its own. A layout of m arcs has fewer
// than m/PartBCHubArcs+1 such out-rows, and as few such in-rows, so a hub
// list of that length never overflows (a kernel lists rows of one kind):
// every row is summed by the same threads in every run.
const PartBCHubArcs = 1024

// PartBCCounters mirrors mg_part_bc_counters: what a forward level leaves
// for the host.
type PartBCCounters struct {
	// Count is the owned vertices the level reached on the part (claimed
	// there or received), Ghosts the ghosts it claimed, Total the sum of
	// Count over the parts (the all-reduce's).
	Count, Ghosts, Total uint64
	// Hubs is the calls' scratch (the rows listed for a block each).
	Hubs uint64
}

// partBC mirrors mg_part_bc (device addresses as uintptr, as dlayout's).
type partBC struct {
	n, numLocal, numGhosts, numRecv uint64
	offsets, dst, inOffsets, inSrc  uintptr
	ghostBits, ghostLid, recvLid    uintptr
	level, sigma, offer, score      uintptr
	order, claimed                  uintptr
	ghostBuf, copyBuf               uintptr
	hubList                         uintptr
	hubCap                          uint64
	ctr                             uintptr
}

// PartBC is one part's state of a partitioned betweenness centrality
// (partition.RunBC) on its device, over the part's DeviceLayout (its
// out-adjacency, the sparse part, and its in-adjacency, which must be on
// the device: DeviceLayout.BuildIn): the levels, path counts σ, offers
// (1+δ)/σ and scores of the part's vertices (layout numbering), the owned
// vertices reached in level order, the ghosts claimed by the current
// forward level, a value per ghost (ghost buffer: forward, the σ sums the
// part sends the owners; backward, the offers it receives) and per ghost
// copy of its vertices in the other parts (copy buffer: forward, the sums
// it receives; backward, the offers it publishes), the counters (and a
// page-locked copy of them), the tables, and the collection's state
// (PartRanges). The tables are PartRank's. Every buffer is sized once from
// them; nothing grows during a run, and the state serves any number of
// runs (Init clears the scores, Start the levels: nothing else is read
// before a source writes it).
type PartBC struct {
	owned
	partSeat
	dl                           *DeviceLayout
	numOwned, numGhosts, numRecv uint64
	ownerStart, recvStart        []uint64
	// The tables: owned vertices', ghosts' and copies' layout ids, and a
	// bit per vertex that says whether it is a ghost.
	ownedLid, ghostLid, recvLid, ghostBits *Buffer[uint32]
	// The levels, the owned vertices by level, the claimed ghosts, the hub
	// list.
	level, order, claimed, hubs *Buffer[uint32]
	sigma, offer, score         *Buffer[float64]
	ghostBuf, copyBuf           *Buffer[float64]
	ctr                         *Buffer[PartBCCounters]
	hostCtr                     *Pinned[PartBCCounters] // where ForwardNCCL copies the counters
	out                         *Buffer[float64]        // the owned scores, in the part's numbering
	col                         rangeCollect[float64]
	desc                        partBC
}

// NewPartBC allocates a part's BC state over dl (the part's layout, its
// in-adjacency on the device) from its tables, the same as a partitioned
// PageRank's. An allocation that does not fit names the buffer and its
// size.
func NewPartBC(dl *DeviceLayout, t PartRankTables) (*PartBC, error) {
	if dl == nil || dl.desc.n != dl.l.NumVertices {
		return nil, invalidf("NewPartBC", "no device layout")
	}
	if !dl.HasIn() {
		return nil, invalidf("NewPartBC", "the layout's in-adjacency is not on the device (DeviceLayout.BuildIn)")
	}
	n := dl.desc.n
	no, ng, nr := uint64(len(t.OwnedLid)), uint64(len(t.GhostLid)), uint64(len(t.RecvLid))
	switch {
	case t.Parts < 1 || t.Parts > PartMaxPeers || t.Index < 0 || t.Index >= t.Parts:
		return nil, invalidf("NewPartBC", "part %d of %d (1 to %d parts)", t.Index, t.Parts, PartMaxPeers)
	case no+ng != n:
		return nil, invalidf("NewPartBC", "%d owned and %d ghost vertices for a layout of %d", no, ng, n)
	case n >= uint64(partBCUnvisited):
		return nil, invalidf("NewPartBC", "%d vertices: levels and ids are 32-bit", n)
	case len(t.OwnerStart) != t.Parts+1 || t.OwnerStart[0] != 0 || t.OwnerStart[t.Parts] != ng:
		return nil, invalidf("NewPartBC", "owner starts %v for %d ghosts of %d parts", t.OwnerStart, ng, t.Parts)
	case len(t.RecvStart) != t.Parts+1 || t.RecvStart[0] != 0 || t.RecvStart[t.Parts] != nr:
		return nil, invalidf("NewPartBC", "receive starts %v for %d copies of %d parts", t.RecvStart, nr, t.Parts)
	case t.OwnerStart[t.Index+1] != t.OwnerStart[t.Index] || t.RecvStart[t.Index+1] != t.RecvStart[t.Index]:
		return nil, invalidf("NewPartBC", "part %d has ghosts or copies of its own", t.Index)
	}
	for q := 0; q < t.Parts; q++ {
		if t.OwnerStart[q+1] < t.OwnerStart[q] || t.RecvStart[q+1] < t.RecvStart[q] {
			return nil, invalidf("NewPartBC", "owner or receive starts decrease at part %d", q)
		}
	}
	ghost := make([]uint32, (n+31)/32) // bit v: layout id v is a ghost
	for _, ids := range [][]uint32{t.OwnedLid, t.GhostLid, t.RecvLid} {
		for i, lid := range ids {
			if uint64(lid) >= n {
				return nil, invalidf("NewPartBC", "entry %d names layout id %d of %d", i, lid, n)
			}
		}
	}
	for _, lid := range t.GhostLid {
		ghost[lid/32] |= 1 << (lid % 32)
	}
	for _, lid := range t.OwnedLid {
		if ghost[lid/32]>>(lid%32)&1 != 0 {
			return nil, invalidf("NewPartBC", "layout id %d is owned and a ghost", lid)
		}
	}
	d := dl.dev
	p := &PartBC{partSeat: partSeat{dev: d, index: t.Index, parts: t.Parts}, dl: dl, numOwned: no, numGhosts: ng, numRecv: nr,
		ownerStart: append([]uint64(nil), t.OwnerStart...), recvStart: append([]uint64(nil), t.RecvStart...)}
	fail := func(err error) (*PartBC, error) { p.Close(); return nil, err }
	var err error
	if err = p.owned.uploadIds(d,
		idsUpload{"owned vertices' layout ids", &p.ownedLid, t.OwnedLid},
		idsUpload{"ghosts' layout ids", &p.ghostLid, t.GhostLid},
		idsUpload{"copies' layout ids", &p.recvLid, t.RecvLid},
		idsUpload{"ghost flags", &p.ghostBits, ghost},
	); err != nil {
		return fail(err)
	}
	hubCap := min(n, dl.desc.m/PartBCHubArcs+1)
	for _, a := range []struct {
		name string
		dst  **Buffer[uint32]
		n    uint64
	}{
		{"levels", &p.level, n},
		{"owned vertices by level", &p.order, no},
		{"claimed ghosts", &p.claimed, ng},
		{"hub list", &p.hubs, hubCap},
	} {
		if *a.dst, err = allocNamed[uint32](&p.owned, d, a.name, int(a.n)); err != nil {
			return fail(err)
		}
	}
	for _, a := range []struct {
		name string
		dst  **Buffer[float64]
		n    uint64
	}{
		{"path counts", &p.sigma, n},
		{"offers", &p.offer, n},
		{"scores", &p.score, n},
		{"ghost buffer", &p.ghostBuf, ng},
		{"copy buffer", &p.copyBuf, nr},
		{"owned scores", &p.out, no},
	} {
		if *a.dst, err = allocNamed[float64](&p.owned, d, a.name, int(a.n)); err != nil {
			return fail(err)
		}
	}
	if p.ctr, err = allocNamed[PartBCCounters](&p.owned, d, "counters", 1); err != nil {
		return fail(err)
	}
	if p.hostCtr, err = AllocPinned[PartBCCounters](d, 1); err != nil {
		return fail(fmt.Errorf("page-locked counters: %w", err))
	}
	p.frees = append(p.frees, p.hostCtr.Free)
	if err := p.col.init(&p.owned, d, "NewPartBC", "scores", t.PartRanges, t.Parts, no); err != nil {
		return fail(err)
	}
	s := &dl.desc
	p.desc = partBC{n: n, numLocal: no, numGhosts: ng, numRecv: nr,
		offsets: s.sparseOffsets, dst: s.sparseDst, inOffsets: s.inOffsets, inSrc: s.inSrc,
		ghostBits: ptrOf(p.ghostBits), ghostLid: ptrOf(p.ghostLid), recvLid: ptrOf(p.recvLid),
		level: ptrOf(p.level), sigma: ptrOf(p.sigma), offer: ptrOf(p.offer), score: ptrOf(p.score),
		order: ptrOf(p.order), claimed: ptrOf(p.claimed), ghostBuf: ptrOf(p.ghostBuf), copyBuf: ptrOf(p.copyBuf),
		hubList: ptrOf(p.hubs), hubCap: hubCap, ctr: ptrOf(p.ctr)}
	return p, nil
}

// partBCUnvisited is MG_PART_BC_UNVISITED, the level of a vertex not
// reached (and a source the part does not own).
const partBCUnvisited = ^uint32(0)

// Close frees the state (not the layout), the pinned result (MakeResult)
// included.
func (p *PartBC) Close() error {
	p.desc = partBC{}
	return errors.Join(p.col.free(), p.release())
}

// Bytes returns the device memory the state takes (beyond the layout's).
func (p *PartBC) Bytes() uint64 {
	var b uint64
	for _, u := range []*Buffer[uint32]{p.ownedLid, p.ghostLid, p.recvLid, p.ghostBits, p.level, p.order, p.claimed, p.hubs} {
		b += bufBytes(u)
	}
	for _, f := range []*Buffer[float64]{p.sigma, p.offer, p.score, p.ghostBuf, p.copyBuf, p.out} {
		b += bufBytes(f)
	}
	return b + bufBytes(p.ctr) + p.col.bytes()
}

// state returns a copy of the descriptor for a C call.
func (p *PartBC) state() unsafe.Pointer {
	s := new(partBC)
	*s = p.desc
	return unsafe.Pointer(s)
}

// Init clears the scores for a run.
func (p *PartBC) Init() error { return p.score.Memset(0) }

// Start begins a source: every vertex unreached; with hasSource, layout
// id source (an owned vertex) at level 0 with σ = 1, the first of order.
// It is queued on the default stream, before the Forward that waits.
func (p *PartBC) Start(source uint32, hasSource bool) error {
	if !hasSource {
		source = partBCUnvisited
	}
	return backendPartBCStart(p.dev.ordinal, p.state(), source)
}

// Forward runs forward level d on the part: the owned vertices
// order[frontStart, frontStart+frontCount) (level d−1) claim their
// unreached out-neighbours (the owned ones go to order from
// frontStart+frontCount), the claimed vertices sum their in-neighbours' σ,
// and every ghost's sum goes to the ghost buffer (0: not claimed at d).
// The counters (Counters) say what it claimed. It waits for the device.
func (p *PartBC) Forward(d uint32, frontStart, frontCount uint64) error {
	return backendPartBCForward(p.dev.ordinal, p.state(), d, frontStart, frontCount)
}

// Receive takes the σ sums in the copy buffer (the other parts' claims of
// this part's vertices at level d, part after part), appending the
// vertices they reach first to order from base (the level's start) and
// adding to the counters' Count. It is queued on the default stream (no
// wait: Counters, a copy on that stream, waits for it).
func (p *PartBC) Receive(d uint32, base uint64) error {
	return backendPartBCReceive(p.dev.ordinal, p.state(), d, base, p.parts, p.index, p.recvStart, nil)
}

// Sync waits for the work queued on the part's device (Publish's before
// the other parts copy its offers).
func (p *PartBC) Sync() error { return backendDeviceSync(p.dev.ordinal) }

// Counters copies the counters to the host (after the default stream's
// work: Receive's).
func (p *PartBC) Counters() (PartBCCounters, error) {
	c := make([]PartBCCounters, 1)
	err := p.ctr.CopyToHost(c)
	return c[0], err
}

// Publish writes, for every ghost copy of the part's vertices, its
// vertex's offer when it is at level d+1 (else none) into the copy buffer.
// It is queued on the default stream (no wait: Sync).
func (p *PartBC) Publish(d uint32) error {
	return backendPartBCPublish(p.dev.ordinal, p.state(), d, nil)
}

// Backward runs backward level d on the part: its ghosts at level d+1 take
// their offers from the ghost buffer (or are unmarked), then the owned
// vertices order[start, start+count) (level d) get their dependencies,
// offers and scores.
func (p *PartBC) Backward(d uint32, start, count uint64) error {
	return backendPartBCBackward(p.dev.ordinal, p.state(), d, start, count)
}

// PartBCValueBytes is the size of a σ sum or an offer in the buffers (a
// float64): what a value sent between parts takes on the wire.
const PartBCValueBytes = uint64(unsafe.Sizeof(float64(0)))

// valueBytes is PartBCValueBytes, for the copies.
const valueBytes = PartBCValueBytes

// Sent returns the values the part sends to the other parts in a forward
// level (one per ghost: its σ sum, 0 when not claimed) and in a backward
// level (one per ghost copy of its vertices elsewhere: an offer, or none).
func (p *PartBC) Sent() (forward, backward uint64) { return p.numGhosts, p.numRecv }

// ForwardNCCL is the exchange of forward level d after Forward
// (collective; rank is this part's), queued on the rank's stream with one
// wait at the end: it sends every other part its segment of the ghost
// buffer (the σ sums of its vertices) and receives theirs into the copy
// buffer, takes them (Receive, from base), sums Count over the parts into
// Total on the devices, and returns the counters.
func (p *PartBC) ForwardNCCL(rank *NCCLRank, d uint32, base uint64) (PartBCCounters, error) {
	const what = "PartBC.ForwardNCCL"
	seg, err := p.ncclSegments(what, rank, p.ownerStart, p.recvStart)
	if err != nil {
		return PartBCCounters{}, err
	}
	state, ctr := p.state(), p.ctr.h.p // Count is the first word, Total the third
	err = rank.collective(what, func(comm, s unsafe.Pointer) error {
		if seg.any {
			if err := seg.queue(rank, comm, p.ghostBuf.h.p, p.copyBuf.h.p, s); err != nil {
				return err
			}
		}
		if err := backendPartBCReceive(p.dev.ordinal, state, d, base, p.parts, p.index, p.recvStart, s); err != nil {
			return err
		}
		if err := backendNCCLAllReduceSum(p.dev.ordinal, comm, ctr, unsafe.Add(ctr, 16), 1, s); err != nil {
			return err
		}
		return backendPartBCReadCounters(p.dev.ordinal, state, p.hostCtr.p, s)
	})
	if err != nil {
		return PartBCCounters{}, err
	}
	return p.hostCtr.Slice()[0], nil
}

// BackwardNCCL is the exchange of backward level d before Backward
// (collective; rank is this part's), queued on the rank's stream with one
// wait at the end: it publishes the offers of the part's vertices at level
// d+1 (Publish), sends every other part those for its ghosts (its segment
// of the copy buffer) and receives this part's ghosts' into the ghost
// buffer.
func (p *PartBC) BackwardNCCL(rank *NCCLRank, d uint32) error {
	const what = "PartBC.BackwardNCCL"
	seg, err := p.ncclSegments(what, rank, p.recvStart, p.ownerStart)
	if err != nil {
		return err
	}
	state := p.state()
	return rank.collective(what, func(comm, s unsafe.Pointer) error {
		if err := backendPartBCPublish(p.dev.ordinal, state, d, s); err != nil {
			return err
		}
		if !seg.any {
			return nil
		}
		return seg.queue(rank, comm, p.copyBuf.h.p, p.ghostBuf.h.p, s)
	})
}

// bcSegments are the byte offsets and sizes of an exchange of values
// between the parts' buffers, segment q of the send buffer to part q and
// part q's into the receive buffer's segment q (partSeat.segmentsNCCL's,
// queued with other work on the rank's stream); any says whether there is
// anything to move (a part with nothing to send or receive makes no NCCL
// call, and its peers post none for it either).
type bcSegments struct {
	sendOff, sendBytes, recvOff, recvBytes []uint64
	any                                    bool
}

// ncclSegments returns the segments of an exchange from the send buffer
// split by sendStart to the receive buffer split by recvStart (values:
// valueBytes each), checking that rank is this part's.
func (p *PartBC) ncclSegments(what string, rank *NCCLRank, sendStart, recvStart []uint64) (bcSegments, error) {
	n := rank.ranks
	if n != p.parts || rank.rank != p.index || len(sendStart) != n+1 || len(recvStart) != n+1 {
		return bcSegments{}, invalidf(what, "rank %d of %d for part %d of %d", rank.rank, n, p.index, p.parts)
	}
	g := bcSegments{sendOff: make([]uint64, n), sendBytes: make([]uint64, n), recvOff: make([]uint64, n),
		recvBytes: make([]uint64, n)}
	for q := range n {
		if q == p.index {
			continue
		}
		g.sendOff[q], g.sendBytes[q] = sendStart[q]*valueBytes, (sendStart[q+1]-sendStart[q])*valueBytes
		g.recvOff[q], g.recvBytes[q] = recvStart[q]*valueBytes, (recvStart[q+1]-recvStart[q])*valueBytes
	}
	g.any = sumOf(g.sendBytes) > 0 || sumOf(g.recvBytes) > 0
	return g, nil
}

// queue queues the grouped sends and receives on stream s of rank's
// communicator comm.
func (g bcSegments) queue(rank *NCCLRank, comm, send, recv, s unsafe.Pointer) error {
	return backendNCCLExchange(rank.dev.ordinal, comm, rank.ranks, rank.rank, send, g.sendOff, g.sendBytes, recv, g.recvOff,
		g.recvBytes, s)
}

// ForwardFromPeer copies src's (part q's) σ sums of this part's vertices
// from its ghost buffer into this part's copy buffer (src may be on
// another device: a peer copy).
func (p *PartBC) ForwardFromPeer(src *PartBC, q int) error {
	return p.segmentFromPeer("PartBC.ForwardFromPeer", q, valueBytes, src.ownerStart, src.dev, src.ghostBuf.h.p,
		p.recvStart, p.copyBuf.h.p)
}

// BackwardFromPeer copies the offers src (part q) published for this
// part's ghosts from its copy buffer into this part's ghost buffer (src
// may be on another device: a peer copy).
func (p *PartBC) BackwardFromPeer(src *PartBC, q int) error {
	return p.segmentFromPeer("PartBC.BackwardFromPeer", q, valueBytes, src.recvStart, src.dev, src.copyBuf.h.p,
		p.ownerStart, p.ghostBuf.h.p)
}

// GatherOwned gathers the owned vertices' scores in the part's numbering
// (increasing original id, so that each part's range is one slice).
func (p *PartBC) GatherOwned() error {
	return backendPartPRGather(p.dev.ordinal, p.ownedLid.h.p, p.numOwned, p.score.h.p, p.out.h.p)
}

// CollectOwn copies the part's gathered scores that fall in its own range
// to their place among the collected ones.
func (p *PartBC) CollectOwn() error { return p.CollectFromPeer(p, p.index) }

// CollectFromPeer copies src's (part q's) gathered scores in this part's
// range to their place among the collected ones (src may be this part, or
// on another device: a peer copy).
func (p *PartBC) CollectFromPeer(src *PartBC, q int) error {
	return p.col.fromPeer(p.partSeat, "PartBC.CollectFromPeer", q, src.col.sendSplit, src.dev, src.out.h.p)
}

// CollectNCCL sends every other part the gathered scores in its range and
// receives those in this part's (collective; rank is this part's).
func (p *PartBC) CollectNCCL(rank *NCCLRank) error {
	return p.col.nccl(p.partSeat, "PartBC.CollectNCCL", rank, p.out.h.p)
}

// MakeResult allocates (once, again when n changes) pinned host memory for
// the whole result, n scores, which Assemble of every part fills, and
// returns it. It stays with this part's state, reused by its next run:
// the slice is valid until then (or Close).
func (p *PartBC) MakeResult(n uint64) ([]float64, error) {
	return p.col.makeResult(p.dev, n, "scores")
}

// Assemble puts the collected scores of the part's range in id order and
// copies them to result[Lo:Hi] (result: the whole result, in host memory,
// pinned or not: MakeResult of one part), waiting.
func (p *PartBC) Assemble(result []float64) error {
	return p.col.assemble(p.partSeat, "PartBC.Assemble", result, backendPartPRScatter)
}
