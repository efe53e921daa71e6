package cuda

import (
	"errors"
	"fmt"
	"unsafe"
)

// PartRankTables are what a part of a partitioned PageRank needs on its
// device, in its layout's numbering (partition.Part, gpu's rank parts).
type PartRankTables struct {
	// Index is this part's number and Parts the run's part count.
	Index, Parts int
	// OwnedLid[i] is the layout id of owned vertex i.
	OwnedLid []uint32
	// GhostLid[g] is ghost g's layout id; ghosts are ordered by owner, and
	// OwnerStart[q] (Parts+1 entries) is the first ghost part q owns.
	GhostLid   []uint32
	OwnerStart []uint64
	// RecvLid is, for each other part p in increasing order, the layout ids
	// of this part's vertices that are p's ghosts, in p's ghost order;
	// RecvStart[p] (Parts+1 entries) is where part p's run begins (empty
	// for this part).
	RecvLid   []uint32
	RecvStart []uint64
	// The result is assembled in ranges of original ids, part q's being
	// [Lo, Hi) here: SendSplit[q] (Parts+1 entries) is the first owned
	// vertex (the part's numbering, in increasing original id) in part q's
	// range; CollectStart[p] (Parts+1 entries) is where part p's values
	// for this part's range begin among the collected ones, and
	// CollectIds their original ids minus Lo.
	Lo, Hi       uint64
	SendSplit    []uint64
	CollectStart []uint64
	CollectIds   []uint32
}

// PartRank is one part's state of a partitioned PageRank on its device,
// over the part's PRRun (pull scheme): the ranks, shares and sums of the
// part's layout are the PRRun's; PartRank adds the tables, the send buffer
// (a sum per ghost, in owner segments), the receive buffer (a sum per
// received ghost copy), the part's and the run's sums of |Δr| and of the
// dangling rank, and the owned ranks gathered for the host. Every buffer
// is sized once from the tables.
type PartRank struct {
	owned
	pr                           *PRRun
	dev                          Device
	index, parts                 int
	numOwned, numGhosts, numRecv uint64
	ownerStart, recvStart        []uint64
	ownedLid, ghostLid, recvLid  *Buffer[uint32]
	send, recv                   *Buffer[float64]
	sums                         *Buffer[float64] // the part's (delta, dangling), then the run's
	dangling                     *Buffer[uint64]
	out                          *Buffer[float64] // the owned ranks, in the part's numbering
	lo, hi                       uint64
	sendSplit, collectStart      []uint64
	collectIds                   *Buffer[uint32]
	vals, full                   *Buffer[float64] // the range's collected ranks, and in id order
	host                         *Pinned[float64] // the whole result (MakeResult)
}

// NewPartRank allocates a part's PageRank state over pr (whose layout is
// the part's) from its tables.
func NewPartRank(pr *PRRun, t PartRankTables) (*PartRank, error) {
	if pr == nil || pr.scheme != PRPull {
		return nil, invalidf("NewPartRank", "a partitioned PageRank needs a PRRun of the pull scheme")
	}
	n := pr.dl.desc.n
	no, ng := uint64(len(t.OwnedLid)), uint64(len(t.GhostLid))
	switch {
	case t.Parts < 1 || t.Index < 0 || t.Index >= t.Parts:
		return nil, invalidf("NewPartRank", "part %d of %d", t.Index, t.Parts)
	case no+ng != n:
		return nil, invalidf("NewPartRank", "%d owned and %d ghost vertices for a layout of %d", no, ng, n)
	case len(t.OwnerStart) != t.Parts+1 || t.OwnerStart[0] != 0 || t.OwnerStart[t.Parts] != ng:
		return nil, invalidf("NewPartRank", "owner starts %v for %d ghosts of %d parts", t.OwnerStart, ng, t.Parts)
	case len(t.RecvStart) != t.Parts+1 || t.RecvStart[0] != 0 || t.RecvStart[t.Parts] != uint64(len(t.RecvLid)):
		return nil, invalidf("NewPartRank", "receive starts %v for %d received sums of %d parts", t.RecvStart, len(t.RecvLid), t.Parts)
	case t.Hi < t.Lo || len(t.SendSplit) != t.Parts+1 || t.SendSplit[0] != 0 || t.SendSplit[t.Parts] != no:
		return nil, invalidf("NewPartRank", "range [%d, %d), send splits %v for %d owned vertices", t.Lo, t.Hi, t.SendSplit, no)
	case len(t.CollectStart) != t.Parts+1 || t.CollectStart[0] != 0 || t.CollectStart[t.Parts] != uint64(len(t.CollectIds)) ||
		uint64(len(t.CollectIds)) != t.Hi-t.Lo:
		return nil, invalidf("NewPartRank", "collect starts %v and %d ids for the range [%d, %d)", t.CollectStart, len(t.CollectIds), t.Lo, t.Hi)
	}
	for _, id := range t.CollectIds {
		if uint64(id) >= t.Hi-t.Lo {
			return nil, invalidf("NewPartRank", "collected id %d outside the range [%d, %d)", uint64(id)+t.Lo, t.Lo, t.Hi)
		}
	}
	for q := 0; q < t.Parts; q++ {
		if t.OwnerStart[q+1] < t.OwnerStart[q] || t.RecvStart[q+1] < t.RecvStart[q] || t.SendSplit[q+1] < t.SendSplit[q] ||
			t.CollectStart[q+1] < t.CollectStart[q] {
			return nil, invalidf("NewPartRank", "owner or receive starts decrease at part %d", q)
		}
	}
	for _, ids := range [][]uint32{t.OwnedLid, t.GhostLid, t.RecvLid} {
		for i, lid := range ids {
			if uint64(lid) >= n {
				return nil, invalidf("NewPartRank", "entry %d names layout id %d of %d", i, lid, n)
			}
		}
	}
	p := &PartRank{pr: pr, dev: pr.dl.dev, index: t.Index, parts: t.Parts, numOwned: no, numGhosts: ng,
		numRecv: uint64(len(t.RecvLid)), ownerStart: append([]uint64(nil), t.OwnerStart...),
		recvStart: append([]uint64(nil), t.RecvStart...), lo: t.Lo, hi: t.Hi,
		sendSplit: append([]uint64(nil), t.SendSplit...), collectStart: append([]uint64(nil), t.CollectStart...)}
	fail := func(err error) (*PartRank, error) { p.Close(); return nil, err }
	var err error
	for _, u := range []struct {
		name string
		dst  **Buffer[uint32]
		src  []uint32
	}{
		{"owned vertices' layout ids", &p.ownedLid, t.OwnedLid},
		{"ghosts' layout ids", &p.ghostLid, t.GhostLid},
		{"received sums' layout ids", &p.recvLid, t.RecvLid},
		{"collected ranks' original ids", &p.collectIds, t.CollectIds},
	} {
		if *u.dst, err = uploadNamed(&p.owned, p.dev, u.name, u.src); err != nil {
			return fail(err)
		}
	}
	if p.send, err = allocRank[float64](p, "send buffer", int(ng)); err != nil {
		return fail(err)
	}
	if p.recv, err = allocRank[float64](p, "receive buffer", len(t.RecvLid)); err != nil {
		return fail(err)
	}
	if p.sums, err = allocRank[float64](p, "sums", 4); err != nil {
		return fail(err)
	}
	if p.dangling, err = allocRank[uint64](p, "dangling count", 1); err != nil {
		return fail(err)
	}
	if p.out, err = allocRank[float64](p, "owned ranks", int(no)); err != nil {
		return fail(err)
	}
	if p.vals, err = allocRank[float64](p, "collected ranks", int(t.Hi-t.Lo)); err != nil {
		return fail(err)
	}
	if p.full, err = allocRank[float64](p, "the range's ranks", int(t.Hi-t.Lo)); err != nil {
		return fail(err)
	}
	return p, nil
}

// allocRank allocates a buffer of p's, naming it in the error.
func allocRank[T any](p *PartRank, name string, n int) (*Buffer[T], error) {
	return allocNamed[T](&p.owned, p.dev, name, n)
}

// Close frees the state (not the PRRun).
func (p *PartRank) Close() error {
	var errs []error
	if p.host != nil {
		errs = append(errs, p.host.Free())
	}
	return errors.Join(append(errs, p.release())...)
}

// Bytes returns the device memory the state takes (beyond the PRRun's).
func (p *PartRank) Bytes() uint64 {
	return bufBytes(p.ownedLid) + bufBytes(p.ghostLid) + bufBytes(p.recvLid) + bufBytes(p.send) + bufBytes(p.recv) +
		bufBytes(p.sums) + bufBytes(p.dangling) + bufBytes(p.out) + bufBytes(p.collectIds) + bufBytes(p.vals) + bufBytes(p.full)
}

// Init sets every owned vertex's rank to r0 and its share, clears the
// sums, and returns the number of owned vertices without out-arcs.
func (p *PartRank) Init(r0 float64) (uint64, error) {
	r := p.pr
	if err := r.Start(0); err != nil { // the gather runs while the sums say not done
		return 0, err
	}
	err := backendPartPRInit(p.dev.ordinal, evp(r.dl.desc.sparseOffsets), p.ownedLid.h.p, p.numOwned, r.dl.desc.n, r0,
		r.rank.h.p, r.share.h.p, r.acc.h.p, p.dangling.h.p)
	if err != nil {
		return 0, err
	}
	c := make([]uint64, 1)
	err = p.dangling.CopyToHost(c)
	return c[0], err
}

// Gather sums every vertex's in-neighbours' shares into its accumulator.
func (p *PartRank) Gather() error {
	r := p.pr
	desc, pull := new(dlayout), new(prPull)
	*desc, *pull = r.dl.desc, r.pull
	return backendPRPullGather(p.dev.ordinal, unsafe.Pointer(desc), unsafe.Pointer(pull), r.share.h.p, r.acc.h.p, r.sums.h.p)
}

// Pack moves every ghost's sum into the send buffer (zeroing it).
func (p *PartRank) Pack() error {
	return backendPartPRPack(p.dev.ordinal, p.ghostLid.h.p, p.numGhosts, p.pr.acc.h.p, p.send.h.p)
}

// Unpack adds the received sums into the owned vertices' accumulators.
func (p *PartRank) Unpack() error {
	return backendPartPRUnpack(p.dev.ordinal, p.recv.h.p, p.recvLid.h.p, p.numRecv, p.pr.acc.h.p)
}

// Apply makes the owned vertices' new ranks, rank = base + damping·acc,
// and the part's sums of |Δr| and of the dangling rank.
func (p *PartRank) Apply(base, damping float64) error {
	r := p.pr
	return backendPartPRApply(p.dev.ordinal, evp(r.dl.desc.sparseOffsets), p.ownedLid.h.p, p.numOwned, base, damping,
		r.rank.h.p, r.share.h.p, r.acc.h.p, p.sums.h.p)
}

// Sums returns the part's sums of |Δr| and of the dangling rank (Apply's).
func (p *PartRank) Sums() (delta, dangling float64, err error) {
	s := make([]float64, 2)
	err = p.sums.CopyToHost(s)
	return s[0], s[1], err
}

// ReduceNCCL returns the run's sums, the part's added over the parts
// (collective; rank is this part's).
func (p *PartRank) ReduceNCCL(rank *NCCLRank) (delta, dangling float64, err error) {
	sp, err := rank.stream.get("PartRank.ReduceNCCL", rank.dev.ordinal)
	if err != nil {
		return 0, 0, err
	}
	base := p.sums.h.p
	err = backendNCCLAllReduceSumF64(rank.dev.ordinal, rank.comm, base, unsafe.Add(base, 16), 2, sp)
	rank.stream.put()
	if err != nil {
		return 0, 0, err
	}
	s := make([]float64, 4)
	err = p.sums.CopyToHost(s)
	return s[2], s[3], err
}

// ExchangeNCCL sends each other part its segment of the send buffer and
// receives theirs (collective; rank is this part's). The sizes are known
// from the tables on both sides.
func (p *PartRank) ExchangeNCCL(rank *NCCLRank) error {
	return p.segmentsNCCL("PartRank.ExchangeNCCL", rank, p.send.h.p, p.ownerStart, p.recv.h.p, p.recvStart)
}

// segmentsNCCL sends segment q of send (doubles [sendStart[q],
// sendStart[q+1])) to every other rank q and receives rank q's into recv
// from recvStart[q] (collective; rank is this part's).
func (p *PartRank) segmentsNCCL(what string, rank *NCCLRank, send unsafe.Pointer, sendStart []uint64, recv unsafe.Pointer, recvStart []uint64) error {
	n := rank.ranks
	if n != p.parts || rank.rank != p.index {
		return invalidf(what, "rank %d of %d for part %d of %d", rank.rank, n, p.index, p.parts)
	}
	sendOff, sendBytes := make([]uint64, n), make([]uint64, n)
	recvOff, recvBytes := make([]uint64, n), make([]uint64, n)
	for q := 0; q < n; q++ {
		if q == p.index {
			continue
		}
		sendOff[q], sendBytes[q] = sendStart[q]*8, (sendStart[q+1]-sendStart[q])*8
		recvOff[q], recvBytes[q] = recvStart[q]*8, (recvStart[q+1]-recvStart[q])*8
	}
	if sumOf(sendBytes) == 0 && sumOf(recvBytes) == 0 {
		return nil
	}
	return rank.exchange(send, sendOff, sendBytes, recv, recvOff, recvBytes)
}

// CopyFromPeer copies src's segment for this part into this part's
// receive buffer, where src's sums belong (src is part q; it may be on
// another device: a peer copy).
func (p *PartRank) CopyFromPeer(src *PartRank, q int) error {
	return p.segmentFromPeer("PartRank.CopyFromPeer", q, src.ownerStart, src.dev, src.send.h.p, p.recvStart, p.recv.h.p)
}

// segmentFromPeer copies part q's segment for this part, doubles
// [srcStarts[p], srcStarts[p+1]) of srcBuf on srcDev, to dstBuf from
// dstStarts[q] (a peer copy when the devices differ).
func (p *PartRank) segmentFromPeer(what string, q int, srcStarts []uint64, srcDev Device, srcBuf unsafe.Pointer, dstStarts []uint64, dstBuf unsafe.Pointer) error {
	if q < 0 || q >= p.parts || len(srcStarts) != p.parts+1 {
		return invalidf(what, "part %d of %d", q, p.parts)
	}
	first, count := srcStarts[p.index], srcStarts[p.index+1]-srcStarts[p.index]
	if count != dstStarts[q+1]-dstStarts[q] {
		return invalidf(what, "part %d has %d values for this part; %d expected", q, count, dstStarts[q+1]-dstStarts[q])
	}
	if count == 0 {
		return nil
	}
	return backendCopyPeer(p.dev.ordinal, unsafe.Add(dstBuf, dstStarts[q]*8), srcDev.ordinal, unsafe.Add(srcBuf, first*8), count*8)
}

// MakeResult allocates (once) pinned host memory for the whole result, n
// ranks, which Assemble of every part fills, and returns it.
func (p *PartRank) MakeResult(n uint64) ([]float64, error) {
	if p.host == nil || uint64(len(p.host.Slice())) != n {
		if p.host != nil {
			if err := p.host.Free(); err != nil {
				return nil, err
			}
			p.host = nil
		}
		h, err := AllocPinned[float64](p.dev, int(n))
		if err != nil {
			return nil, fmt.Errorf("pinned host memory for the ranks (%s): %w", FormatBytes(n*8), err)
		}
		p.host = h
	}
	return p.host.Slice(), nil
}

// GatherOwned gathers the owned vertices' ranks in the part's numbering
// (increasing original id), so that each part's range is one slice.
func (p *PartRank) GatherOwned() error {
	return backendPartPRGather(p.dev.ordinal, p.ownedLid.h.p, p.numOwned, p.pr.rank.h.p, p.out.h.p)
}

// CollectOwn copies the part's gathered ranks that fall in its own range
// to their place among the collected ones.
func (p *PartRank) CollectOwn() error {
	return p.CollectFromPeer(p, p.index)
}

// CollectFromPeer copies src's (part q's) gathered ranks in this part's
// range to their place among the collected ones (src may be this part, or
// on another device: a peer copy).
func (p *PartRank) CollectFromPeer(src *PartRank, q int) error {
	return p.segmentFromPeer("PartRank.CollectFromPeer", q, src.sendSplit, src.dev, src.out.h.p, p.collectStart, p.vals.h.p)
}

// CollectNCCL sends every other part the gathered ranks in its range and
// receives those in this part's (collective; rank is this part's).
func (p *PartRank) CollectNCCL(rank *NCCLRank) error {
	return p.segmentsNCCL("PartRank.CollectNCCL", rank, p.out.h.p, p.sendSplit, p.vals.h.p, p.collectStart)
}

// Assemble puts the collected ranks of the part's range in id order and
// copies them to result[Lo:Hi] (result: the whole result, in pinned
// memory: MakeResult of one part).
func (p *PartRank) Assemble(result []float64) error {
	if p.hi > uint64(len(result)) {
		return invalidf("PartRank.Assemble", "range [%d, %d) of a result of %d", p.lo, p.hi, len(result))
	}
	count := p.hi - p.lo
	if count == 0 {
		return nil
	}
	if err := backendPartPRScatter(p.dev.ordinal, p.vals.h.p, p.collectIds.h.p, count, p.full.h.p); err != nil {
		return err
	}
	return backendCopyDtoH(p.dev.ordinal, unsafe.Pointer(&result[p.lo]), p.full.h.p, count*8)
}
