package cuda

import (
	"errors"
	"fmt"
	"unsafe"
)

// PartMaxPeers is MG_PART_MAX_PEERS: the most parts a device-resident
// partitioned run has.
const PartMaxPeers = 64

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
	Bad       uint64 // messages received for vertices the part does not own
	// Sent[q] is the number of messages packed for part q.
	Sent [PartMaxPeers]uint64
}

// PartTables are a part's conversion tables (partition.Part) in the
// layout's numbering, as NewPartRun uploads them.
type PartTables struct {
	// Parts is the number of parts of the run, at most PartMaxPeers.
	Parts int
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
}

// partTables mirrors mg_part_tables.
type partTables struct {
	numLocal, numGhosts                         uint64
	parts, reserved                             uint32
	localLid, ghostLid, ghostOwner, ghostRemote uintptr
	ownerStart                                  uintptr
}

// PartRun is one part's packaging state on its device, over the part's
// MinRun: the conversion tables, the values after the last exchange
// (prev), the next frontier's flags, the send buffer (a segment per owner,
// a slot per ghost) and the receive buffer (RecvCap messages), and the
// counters. Every buffer is sized from the part's tables once (nothing
// grows during a run). The values and frontier stay on the device between
// supersteps; only the counters come to the host.
type PartRun struct {
	owned
	run        *MinRun
	dev        Device
	desc       partTables
	ownerStart []uint64
	recvCap    uint64
	global     *Buffer[uint32]
	prev       *Buffer[uint32]
	next       *Buffer[uint8] // n flags, padded to a multiple of 4
	send, recv *Buffer[PartMessage]
	ctr        *Buffer[PartCounters]
	gathered   *Buffer[uint32]
	tableBytes uint64
	col        *partCollector // the collecting part's (MakeCollector)
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
	p := &PartRun{run: run, dev: d, ownerStart: append([]uint64(nil), t.OwnerStart...), recvCap: t.RecvCap}
	fail := func(err error) (*PartRun, error) { p.Close(); return nil, err }
	var localLid, ghostLid, ghostOwner, ghostRemote *Buffer[uint32]
	var err error
	for _, u := range []struct {
		name string
		dst  **Buffer[uint32]
		src  []uint32
	}{
		{"owned vertices' layout ids", &localLid, t.LocalLid},
		{"ghosts' layout ids", &ghostLid, t.GhostLid},
		{"ghosts' owners", &ghostOwner, t.GhostOwner},
		{"ghosts' ids in their owners", &ghostRemote, t.GhostRemote},
	} {
		if *u.dst, err = uploadNamed(&p.owned, d, u.name, u.src); err != nil {
			return fail(err)
		}
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
	p.desc = partTables{numLocal: nl, numGhosts: ng, parts: uint32(t.Parts),
		localLid: ptrOf(localLid), ghostLid: ptrOf(ghostLid), ghostOwner: ptrOf(ghostOwner),
		ghostRemote: ptrOf(ghostRemote), ownerStart: ptrOf(starts)}
	p.tableBytes = bufBytes(localLid) + bufBytes(ghostLid) + bufBytes(ghostOwner) + bufBytes(ghostRemote) + bufBytes(starts)
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
	sum := bufBytes(p.global) + bufBytes(p.prev) + bufBytes(p.next) + bufBytes(p.send) + bufBytes(p.recv) +
		bufBytes(p.ctr) + bufBytes(p.gathered) + p.tableBytes
	if c := p.col; c != nil {
		sum += bufBytes(c.vals) + bufBytes(c.ids) + bufBytes(c.full)
	}
	return sum
}

// bufBytes is b's size, 0 for nil.
func bufBytes[T any](b *Buffer[T]) uint64 {
	if b == nil {
		return 0
	}
	return b.Bytes()
}

// Close frees the state (not the MinRun).
func (p *PartRun) Close() error {
	var errs []error
	if p.col != nil && p.col.host != nil {
		errs = append(errs, p.col.host.Free())
	}
	p.col = nil
	errs = append(errs, p.release())
	return errors.Join(errs...)
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
	if err := rank.exchange(p.send.h.p, sendOff, sendBytes, p.recv.h.p, recvOff, recvBytes); err != nil {
		return 0, err
	}
	return total / m, nil
}

// ReduceNCCL sums NextCount over the parts into Total, on the devices
// (rank is this part's; collective), and returns the counters.
func (p *PartRun) ReduceNCCL(rank *NCCLRank) (PartCounters, error) {
	sp, err := rank.stream.get("PartRun.ReduceNCCL", rank.dev.ordinal)
	if err != nil {
		return PartCounters{}, err
	}
	base := p.ctr.h.p // NextCount is the first word, Total the third
	err = backendNCCLAllReduceSum(rank.dev.ordinal, rank.comm, base, unsafe.Add(base, 16), 1, sp)
	rank.stream.put()
	if err != nil {
		return PartCounters{}, err
	}
	return p.Counters()
}

// gatherInto writes the owned vertices' values, in the part's numbering,
// to dst (numLocal entries on the part's device), waiting.
func (p *PartRun) gatherInto(dst unsafe.Pointer) error {
	if p.desc.numLocal == 0 {
		return nil
	}
	return backendPartGather(p.dev.ordinal, unsafe.Pointer(p.tables()), p.run.values.h.p, dst)
}

// partCollector is the collecting part's state (Collect): every part's
// owned values in part order (vals, part q's from starts[q]), their
// original ids in the same order (ids, uploaded once), the result on the
// device (full) and in pinned host memory (host).
type partCollector struct {
	starts          []uint64
	vals, ids, full *Buffer[uint32]
	host            *Pinned[uint32]
}

// HasCollector reports whether the part collects the result (Collect's
// state exists).
func (p *PartRun) HasCollector() bool { return p.col != nil }

// MakeCollector allocates this part's state for collecting the result of
// the run, in which part q owns the vertices ids[q] (their original ids in
// the part's numbering): 3n words on the device and n in pinned host
// memory, n the graph's vertices. The part's own values are first.
func (p *PartRun) MakeCollector(ids [][]uint32) error {
	if p.col != nil {
		return nil
	}
	c := &partCollector{starts: make([]uint64, len(ids)+1)}
	for q, x := range ids {
		c.starts[q+1] = c.starts[q] + uint64(len(x))
	}
	n := int(c.starts[len(ids)])
	var err error
	if c.vals, err = allocPart[uint32](p, "collected values", n); err != nil {
		return err
	}
	if c.ids, err = allocPart[uint32](p, "collected original ids", n); err != nil {
		return err
	}
	if c.full, err = allocPart[uint32](p, "result", n); err != nil {
		return err
	}
	for q, x := range ids {
		if len(x) > 0 {
			if err := c.ids.CopyFromHostAt(int(c.starts[q]), x); err != nil {
				return err
			}
		}
	}
	if c.host, err = AllocPinned[uint32](p.dev, n); err != nil {
		return fmt.Errorf("pinned host memory for the result (%s): %w", FormatBytes(uint64(n)*4), err)
	}
	p.col = c
	return nil
}

// GatherOwned gathers the owned vertices' values: into the collected
// values (from starts[rank]) on the collecting part, else into the part's
// buffer, from which the collector copies them (CollectFromPeer, or
// CollectNCCL).
func (p *PartRun) GatherOwned(rank int) error {
	if p.col != nil {
		return p.gatherInto(unsafe.Add(p.col.vals.h.p, p.col.starts[rank]*4))
	}
	return p.gatherInto(p.gathered.h.p)
}

// CollectFromPeer copies part q's gathered values (src, GatherOwned) into
// the collected values on this, the collecting part.
func (p *PartRun) CollectFromPeer(src *PartRun, q int) error {
	if p.col == nil || q+1 >= len(p.col.starts) {
		return invalidf("PartRun.CollectFromPeer", "not the collecting part, or no part %d", q)
	}
	count := p.col.starts[q+1] - p.col.starts[q]
	if count != src.desc.numLocal {
		return invalidf("PartRun.CollectFromPeer", "part %d owns %d vertices; %d expected", q, src.desc.numLocal, count)
	}
	return backendCopyPeer(p.dev.ordinal, unsafe.Add(p.col.vals.h.p, p.col.starts[q]*4), src.dev.ordinal, src.gathered.h.p, count*4)
}

// CollectNCCL moves the gathered values to the collecting part, rank 0
// (collective): the other ranks send theirs, rank 0 receives every part's
// at its place.
func (p *PartRun) CollectNCCL(rank *NCCLRank) error {
	n := rank.ranks
	sendOff, sendBytes := make([]uint64, n), make([]uint64, n)
	recvOff, recvBytes := make([]uint64, n), make([]uint64, n)
	var send, recv unsafe.Pointer
	if rank.rank == 0 {
		if p.col == nil || len(p.col.starts) != n+1 {
			return invalidf("PartRun.CollectNCCL", "rank 0 has no collector for %d parts", n)
		}
		recv = p.col.vals.h.p
		for q := 1; q < n; q++ {
			recvOff[q], recvBytes[q] = p.col.starts[q]*4, (p.col.starts[q+1]-p.col.starts[q])*4
		}
	} else {
		send, sendBytes[0] = p.gathered.h.p, p.desc.numLocal*4
	}
	return rank.exchange(send, sendOff, sendBytes, recv, recvOff, recvBytes)
}

// Assemble puts the collected values at their original ids and copies the
// result to pinned host memory, which the collector reuses: the slice is
// valid until the next Assemble.
func (p *PartRun) Assemble() ([]uint32, error) {
	c := p.col
	if c == nil {
		return nil, invalidf("PartRun.Assemble", "not the collecting part")
	}
	n := c.starts[len(c.starts)-1]
	if n == 0 {
		return []uint32{}, nil
	}
	if err := backendPartScatter(p.dev.ordinal, c.vals.h.p, c.ids.h.p, n, c.full.h.p); err != nil {
		return nil, err
	}
	out := c.host.Slice()
	if err := backendCopyDtoH(p.dev.ordinal, unsafe.Pointer(&out[0]), c.full.h.p, n*4); err != nil {
		return nil, err
	}
	return out, nil
}

func sumOf(x []uint64) uint64 {
	var s uint64
	for _, v := range x {
		s += v
	}
	return s
}
