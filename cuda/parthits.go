package cuda

import (
	"fmt"
	"unsafe"
)

// The steps of a partitioned HITS or SALSA over a part's PageRank state
// (MG_HITS_*; PartRank's HITS methods).
const (
	hitsShare       = 1
	hitsShareOnes   = 2
	hitsCounts      = 3
	hitsStart       = 4
	hitsAccSum      = 5
	hitsAuth        = 6
	hitsHub         = 7
	hitsHubApply    = 8
	hitsBcastPack   = 9
	hitsBcastUnpack = 10
)

// partHits mirrors mg_part_hits: device addresses as uintptr (see dlayout).
type partHits struct {
	offsets, dst, owned uintptr
	numOwned            uint64
	salsa               int32
	_                   int32
	share, acc          uintptr
	hub, auth, cnt      uintptr
	next, y             uintptr
	sums                uintptr
	sendLid             uintptr
	numSend             uint64
	send                uintptr
	ghostLid            uintptr
	numGhosts           uint64
	recv                uintptr
}

// hitsState is a part's HITS/SALSA state beside its PageRank state:
// hubs, authorities, in-degrees, the hub step's sums and what it reads
// (y, by layout id, ghosts included), and the broadcast's buffers (y of
// the owned vertices that are ghosts elsewhere, in the holders' ghost
// order; y of the part's ghosts, in ghost order). Made on first use.
type hitsState struct {
	hub, auth, cnt, next, y *Buffer[float64]
	send, recv              *Buffer[float64]
	salsa                   bool
}

// bytes is the device memory the state takes (0 before it is made).
func (h *hitsState) bytes() uint64 {
	if h == nil {
		return 0
	}
	return bufBytes(h.hub) + bufBytes(h.auth) + bufBytes(h.cnt) + bufBytes(h.next) + bufBytes(h.y) + bufBytes(h.send) +
		bufBytes(h.recv)
}

// hitsPrepare allocates the HITS state (once) and sets the run's kind.
func (p *PartRank) hitsPrepare(salsa bool) error {
	if p.hits == nil {
		h := &hitsState{}
		n := int(p.pr.dl.desc.n)
		for _, b := range []struct {
			buf  **Buffer[float64]
			name string
			n    int
		}{{&h.hub, "hubs", n}, {&h.auth, "authorities", n}, {&h.cnt, "in-degrees", n}, {&h.next, "hub sums", n},
			{&h.y, "hub step's values", n}, {&h.send, "broadcast send buffer", int(p.numRecv)},
			{&h.recv, "broadcast receive buffer", int(p.numGhosts)}} {
			x, err := allocRank[float64](p, b.name, b.n)
			if err != nil {
				return err
			}
			*b.buf = x
		}
		p.hits = h
	}
	p.hits.salsa = salsa
	return nil
}

// hitsStep runs step op of a HITS or SALSA run (mg_part_hits_step).
func (p *PartRank) hitsStep(op int, a, b float64) error {
	h, r := p.hits, p.pr
	if h == nil {
		return invalidf("PartRank.HITS", "HITSStart was not called")
	}
	ptr := func(x interface{ hdl() *handle }) uintptr { return uintptr(x.hdl().p) }
	args := &partHits{offsets: r.dl.desc.sparseOffsets, dst: r.dl.desc.sparseDst, owned: uintptr(p.applyLid.h.p),
		numOwned: p.numOwned, share: ptr(r.share), acc: ptr(r.acc), hub: ptr(h.hub), auth: ptr(h.auth), cnt: ptr(h.cnt),
		next: ptr(h.next), y: ptr(h.y), sums: ptr(p.sums), sendLid: uintptr(p.recvLid.h.p), numSend: p.numRecv,
		send: ptr(h.send), ghostLid: uintptr(p.ghostLid.h.p), numGhosts: p.numGhosts, recv: ptr(h.recv)}
	if h.salsa {
		args.salsa = 1
	}
	if err := backendPartHITSStep(p.dev.ordinal, unsafe.Pointer(args), op, a, b); err != nil {
		return fmt.Errorf("part %d: %w", p.index, err)
	}
	return nil
}

// HITSStart begins a HITS (or, with salsa, SALSA) run on the part: every
// owned vertex's share is 1 for the gather that counts the in-degrees
// (Gather, Pack, the exchange and Unpack follow, then HITSCounts).
func (p *PartRank) HITSStart(salsa bool) error {
	if err := p.hitsPrepare(salsa); err != nil {
		return err
	}
	if err := p.pr.Start(0); err != nil { // the gathers run while the sums say not done
		return err
	}
	return p.hitsStep(hitsShareOnes, 0, 0)
}

// HITSCounts keeps the in-degrees the gather summed and leaves the part's
// counts of the vertices with out-arcs and with in-arcs in its sums
// (Sums, ReduceNCCL).
func (p *PartRank) HITSCounts() error { return p.hitsStep(hitsCounts, 0, 0) }

// HITSInit sets the start: hubs h0 and authorities a0 (SALSA: where there
// are out- and in-arcs, 0 elsewhere).
func (p *PartRank) HITSInit(h0, a0 float64) error { return p.hitsStep(hitsStart, h0, a0) }

// HITSShare makes every owned vertex's share its hub (SALSA: hub/outdeg)
// for the authority step's gather.
func (p *PartRank) HITSShare() error { return p.hitsStep(hitsShare, 0, 0) }

// HITSAccSum leaves the sum of the owned vertices' gathered sums in the
// part's sums (after Unpack).
func (p *PartRank) HITSAccSum() error { return p.hitsStep(hitsAccSum, 0, 0) }

// HITSAuthorities makes the authorities, the gathered sums times scale,
// and what the hub step reads of them; the part's sums get (0, Σ|Δauth|),
// and the hub steps keep the second.
func (p *PartRank) HITSAuthorities(scale float64) error { return p.hitsStep(hitsAuth, scale, 0) }

// HITSBroadcastPack packs the values the hub step reads of the owned
// vertices that other parts hold as ghosts.
func (p *PartRank) HITSBroadcastPack() error { return p.hitsStep(hitsBcastPack, 0, 0) }

// HITSBroadcastNCCL sends each other part the values of its ghosts and
// receives those of this part's (collective; rank is this part's).
func (p *PartRank) HITSBroadcastNCCL(rank *NCCLRank) error {
	return p.segmentsNCCL("PartRank.HITSBroadcastNCCL", rank, sumBytes, p.hits.send.h.p, p.recvStart, p.hits.recv.h.p,
		p.ownerStart, nil)
}

// HITSBroadcastFromPeer copies part q's (src's) values of this part's
// ghosts into the broadcast receive buffer (src may be on another device).
func (p *PartRank) HITSBroadcastFromPeer(src *PartRank, q int) error {
	return p.segmentFromPeer("PartRank.HITSBroadcastFromPeer", q, sumBytes, src.recvStart, src.dev, src.hits.send.h.p,
		p.ownerStart, p.hits.recv.h.p)
}

// HITSBroadcastUnpack gives every ghost the value its owner sent.
func (p *PartRank) HITSBroadcastUnpack() error { return p.hitsStep(hitsBcastUnpack, 0, 0) }

// HITSHubs sums, for every owned vertex, the values over its out-arcs;
// the part's sums get their total.
func (p *PartRank) HITSHubs() error { return p.hitsStep(hitsHub, 0, 0) }

// HITSApplyHubs makes the hubs, those sums times scale; the part's sums
// get Σ|Δhub|.
func (p *PartRank) HITSApplyHubs(scale float64) error { return p.hitsStep(hitsHubApply, scale, 0) }

// HITSGatherOwned gathers the owned vertices' hubs (or authorities) for
// the collection, as GatherOwned does the ranks.
func (p *PartRank) HITSGatherOwned(hubs bool) error {
	if p.hits == nil {
		return invalidf("PartRank.HITSGatherOwned", "HITSStart was not called")
	}
	src := p.hits.auth
	if hubs {
		src = p.hits.hub
	}
	return p.gatherOwned(src)
}
