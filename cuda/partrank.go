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
	// PartRanges are the collection's tables: the part assembles the
	// result's range [Lo, Hi) of original ids.
	PartRanges
}

// PartRank is one part's state of a partitioned PageRank on its device,
// over the part's PRRun (pull scheme): the ranks, shares and sums of the
// part's layout are the PRRun's; PartRank adds the tables, the send buffer
// (a sum per ghost, in owner segments), the receive buffer (a sum per
// received ghost copy), the part's and the run's sums of |Δr| and of the
// dangling rank, the owned ranks gathered, and the collection's state
// (PartRanges). Every buffer is sized once from the tables.
type PartRank struct {
	owned
	partSeat
	pr                           *PRRun
	numOwned, numGhosts, numRecv uint64
	ownerStart, recvStart        []uint64
	ownedLid, ghostLid, recvLid  *Buffer[uint32]
	// applyLid is ownedLid in increasing layout id: the init and the apply
	// go through it, so their reads and writes of the layout's arrays run
	// forward through memory (ownedLid's order, the original ids', is
	// random in the layout's numbering; it stays for the collection).
	applyLid   *Buffer[uint32]
	send, recv *Buffer[float64]
	sums       *Buffer[float64] // the part's (delta, dangling), then the run's
	dangling   *Buffer[uint64]
	out        *Buffer[float64] // the owned ranks, in the part's numbering
	col        rangeCollect[float64]
	// panels holds a byte per row panel of the layout: PanelGhosts where
	// the panel has a ghost row, PanelOwned where all its rows are owned
	// (GatherPanels); stream runs the owned panels' gather while the
	// ghosts' sums travel (made on first use).
	panels *Buffer[uint8]
	stream *Stream
	// teleport holds a personalised run's teleport set (Personalize), a
	// bit per vertex of the layout, each of weight teleportP; personal
	// says whether Init and Apply use it (else every vertex teleports
	// alike).
	teleport  *Buffer[uint32]
	teleportP float64
	personal  bool
	// hits is a HITS or SALSA run's state (parthits.go), made on first use.
	hits *hitsState
	// residual is a pr-delta run's residuals (partdelta.go), made on first
	// use.
	residual *Buffer[float64]
}

// The classes of a part's row panels (PartRank.GatherPanels).
const (
	// PanelOwned: every row of the panel is an owned vertex's.
	PanelOwned uint8 = 0
	// PanelGhosts: the panel holds a ghost's row (and maybe owned ones):
	// its sums are the ones that travel, so it is gathered first.
	PanelGhosts uint8 = 1
)

// GhostPanels returns the class of each of numPanels row panels of
// panelSize vertices, given the ghosts' layout ids: PanelGhosts for a
// panel that holds one, PanelOwned otherwise.
func GhostPanels(ghostLid []uint32, panelSize uint32, numPanels int) ([]uint8, error) {
	if panelSize == 0 {
		return nil, invalidf("GhostPanels", "panel size 0")
	}
	c := make([]uint8, numPanels)
	for _, lid := range ghostLid {
		r := int(lid / panelSize)
		if r >= numPanels {
			return nil, invalidf("GhostPanels", "ghost layout id %d beyond %d panels of %d", lid, numPanels, panelSize)
		}
		c[r] = PanelGhosts
	}
	return c, nil
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
	}
	for q := 0; q < t.Parts; q++ {
		if t.OwnerStart[q+1] < t.OwnerStart[q] || t.RecvStart[q+1] < t.RecvStart[q] {
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
	p := &PartRank{partSeat: partSeat{dev: pr.dl.dev, index: t.Index, parts: t.Parts}, pr: pr, numOwned: no, numGhosts: ng,
		numRecv: uint64(len(t.RecvLid)), ownerStart: append([]uint64(nil), t.OwnerStart...),
		recvStart: append([]uint64(nil), t.RecvStart...)}
	fail := func(err error) (*PartRank, error) { p.Close(); return nil, err }
	var err error
	if err = p.owned.uploadIds(p.dev,
		idsUpload{"owned vertices' layout ids", &p.ownedLid, t.OwnedLid},
		idsUpload{"ghosts' layout ids", &p.ghostLid, t.GhostLid},
		idsUpload{"received sums' layout ids", &p.recvLid, t.RecvLid},
		idsUpload{"owned vertices' layout ids, ascending", &p.applyLid, ascending(t.OwnedLid, n)},
	); err != nil {
		return fail(err)
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
	if err := p.col.init(&p.owned, p.dev, "NewPartRank", "ranks", t.PartRanges, t.Parts, no); err != nil {
		return fail(err)
	}
	classes, err := GhostPanels(t.GhostLid, pr.dl.desc.panelSize, int(pr.dl.desc.numPanels))
	if err != nil {
		return fail(err)
	}
	if p.panels, err = allocRank[uint8](p, "row panels' classes", len(classes)); err != nil {
		return fail(err)
	}
	if len(classes) > 0 {
		if err := p.panels.CopyFromHost(classes); err != nil {
			return fail(err)
		}
	}
	return p, nil
}

// ascending returns ids, distinct ids below n, in increasing order (a
// pass over n marks, not a sort).
func ascending(ids []uint32, n uint64) []uint32 {
	mark := make([]bool, n)
	for _, id := range ids {
		mark[id] = true
	}
	out := make([]uint32, 0, len(ids))
	for v, m := range mark {
		if m {
			out = append(out, uint32(v))
		}
	}
	return out
}

// allocRank allocates a buffer of p's, naming it in the error.
func allocRank[T any](p *PartRank, name string, n int) (*Buffer[T], error) {
	return allocNamed[T](&p.owned, p.dev, name, n)
}

// Close frees the state (not the PRRun), the pinned result (MakeResult)
// included.
func (p *PartRank) Close() error {
	var serr error
	if p.stream != nil {
		serr = p.stream.Destroy()
		p.stream = nil
	}
	return errors.Join(serr, p.col.free(), p.release())
}

// Bytes returns the device memory the state takes (beyond the PRRun's).
func (p *PartRank) Bytes() uint64 {
	return bufBytes(p.ownedLid) + bufBytes(p.applyLid) + bufBytes(p.ghostLid) + bufBytes(p.recvLid) + bufBytes(p.send) + bufBytes(p.recv) +
		bufBytes(p.sums) + bufBytes(p.dangling) + bufBytes(p.out) + bufBytes(p.panels) + bufBytes(p.teleport) + p.hits.bytes() + p.col.bytes() +
		bufBytes(p.residual)
}

// Personalize makes the part's runs personalised until Uniform: the
// ranks teleport only to the vertices of layout ids lids, weight w each
// (Apply's rank = base·w + damping·acc there, damping·acc elsewhere), and
// Init starts those at rank r0·w and every other vertex at 0.
func (p *PartRank) Personalize(lids []uint32, w float64) error {
	words, err := teleportBits("PartRank.Personalize", lids, p.pr.dl.desc.n)
	if err != nil {
		return err
	}
	if p.teleport == nil {
		b, err := allocRank[uint32](p, "teleport set", len(words))
		if err != nil {
			return err
		}
		p.teleport = b
	}
	if err := p.teleport.CopyFromHost(words); err != nil {
		return fmt.Errorf("part %d's teleport set: %w", p.index, err)
	}
	p.teleportP, p.personal = w, true
	return nil
}

// teleportBits is the teleport set lids (layout ids) as a bit per vertex
// of a layout of n vertices; what names the caller in the error.
func teleportBits(what string, lids []uint32, n uint64) ([]uint32, error) {
	words := make([]uint32, (n+31)/32)
	for _, v := range lids {
		if uint64(v) >= n {
			return nil, invalidf(what, "vertex %d of a layout of %d", v, n)
		}
		words[v>>5] |= 1 << (v & 31)
	}
	return words, nil
}

// Uniform makes the part's runs teleport to every vertex alike again.
func (p *PartRank) Uniform() { p.personal = false }

// teleportArgs are the kernels' teleport set and weight (NULL: uniform).
func (p *PartRank) teleportArgs() (unsafe.Pointer, float64) {
	if !p.personal || p.teleport == nil || p.teleport.n == 0 {
		return nil, 0
	}
	return p.teleport.h.p, p.teleportP
}

// Init sets every owned vertex's rank to r0 (times its teleport weight
// when personalised) and its share, clears the sums, and returns the
// number of owned vertices without out-arcs whose rank is not 0.
func (p *PartRank) Init(r0 float64) (uint64, error) {
	r := p.pr
	if err := r.Start(0); err != nil { // the gather runs while the sums say not done
		return 0, err
	}
	tp, w := p.teleportArgs()
	err := backendPartPRInit(p.dev.ordinal, evp(r.dl.desc.sparseOffsets), p.applyLid.h.p, p.numOwned, r.dl.desc.n, r0,
		tp, w, r.rank.h.p, r.share.h.p, r.acc.h.p, p.dangling.h.p)
	if err != nil {
		return 0, err
	}
	c := make([]uint64, 1)
	err = p.dangling.CopyToHost(c)
	return c[0], err
}

// Gather sums every vertex's in-neighbours' shares into its accumulator.
func (p *PartRank) Gather() error {
	return p.gather(nil, 0, nil)
}

// GatherPanels is Gather for the rows of the row panels of class class
// only (PanelGhosts, PanelOwned), waiting; GatherPanelsAsync queues the
// gather on the part's own stream and returns, and WaitPanels waits for
// it. The two classes' gathers together are Gather.
func (p *PartRank) GatherPanels(class uint8) error {
	return p.gather(p.panels, class, nil)
}

// GatherPanelsAsync queues GatherPanels(class) on the part's stream (see
// GatherPanels): it runs beside work on other streams, NCCL's included.
func (p *PartRank) GatherPanelsAsync(class uint8) error {
	if p.stream == nil {
		s, err := p.dev.NewStream()
		if err != nil {
			return fmt.Errorf("part %d's gather stream: %w", p.index, err)
		}
		p.stream = s
	}
	return p.gather(p.panels, class, p.stream)
}

// WaitPanels waits for the gather GatherPanelsAsync queued (nothing when
// none was).
func (p *PartRank) WaitPanels() error {
	if p.stream == nil {
		return nil
	}
	return p.stream.Synchronize()
}

// gather launches the pull gather over the panels of class class (all
// when panels is nil) on stream s (the default stream, waiting, when nil).
func (p *PartRank) gather(panels *Buffer[uint8], class uint8, s *Stream) error {
	r := p.pr
	desc, pull := new(dlayout), new(prPull)
	*desc, *pull = r.dl.desc, r.pull
	var pp unsafe.Pointer
	if panels != nil && panels.n > 0 {
		pp = panels.h.p
	}
	sp, err := s.get("PartRank.gather", p.dev.ordinal)
	if err != nil {
		return err
	}
	defer s.put()
	return backendPRPullGather(p.dev.ordinal, unsafe.Pointer(desc), unsafe.Pointer(pull), r.share.h.p, r.acc.h.p, r.sums.h.p,
		pp, class, sp)
}

// Pack moves every ghost's sum into the send buffer (zeroing it).
func (p *PartRank) Pack() error {
	return backendPartPRPack(p.dev.ordinal, p.ghostLid.h.p, p.numGhosts, p.pr.acc.h.p, p.send.h.p)
}

// Unpack adds the received sums into the owned vertices' accumulators.
func (p *PartRank) Unpack() error {
	return backendPartPRUnpack(p.dev.ordinal, p.recv.h.p, p.recvLid.h.p, p.numRecv, p.pr.acc.h.p)
}

// Apply makes the owned vertices' new ranks, rank = base + damping·acc
// (base·w when personalised: Personalize), and the part's sums of |Δr|
// and of the dangling rank.
func (p *PartRank) Apply(base, damping float64) error {
	r := p.pr
	tp, w := p.teleportArgs()
	return backendPartPRApply(p.dev.ordinal, evp(r.dl.desc.sparseOffsets), p.applyLid.h.p, p.numOwned, base, damping,
		tp, w, r.rank.h.p, r.share.h.p, r.acc.h.p, p.sums.h.p)
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
	base := p.sums.h.p
	if err := rank.allReduceSum("PartRank.ReduceNCCL", base, unsafe.Add(base, 16), 2, true); err != nil {
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
	return p.ExchangeNCCLWhile(rank, nil)
}

// ExchangeNCCLWhile is ExchangeNCCL that calls while (when not nil) once
// the sums are queued to travel and before waiting for them: the owned
// panels' gather (GatherPanelsAsync) then runs as they move.
func (p *PartRank) ExchangeNCCLWhile(rank *NCCLRank, while func() error) error {
	return p.segmentsNCCL("PartRank.ExchangeNCCL", rank, sumBytes, p.send.h.p, p.ownerStart, p.recv.h.p, p.recvStart, while)
}

// sumBytes is the size of a sum in the send and receive buffers.
const sumBytes = uint64(unsafe.Sizeof(float64(0)))

// CopyFromPeer copies src's segment for this part into this part's
// receive buffer, where src's sums belong (src is part q; it may be on
// another device: a peer copy).
func (p *PartRank) CopyFromPeer(src *PartRank, q int) error {
	return p.segmentFromPeer("PartRank.CopyFromPeer", q, sumBytes, src.ownerStart, src.dev, src.send.h.p, p.recvStart, p.recv.h.p)
}

// MakeResult allocates (once, again when n changes) pinned host memory for
// the whole result, n ranks, which Assemble of every part fills, and
// returns it. It stays with this part's state, reused by its next run:
// the slice is valid until then (or Close).
func (p *PartRank) MakeResult(n uint64) ([]float64, error) {
	return p.col.makeResult(p.dev, n, "ranks")
}

// GatherOwned gathers the owned vertices' ranks in the part's numbering
// (increasing original id), so that each part's range is one slice.
func (p *PartRank) GatherOwned() error { return p.gatherOwned(p.pr.rank) }

// gatherOwned gathers the owned vertices' values of src (by layout id)
// in the part's numbering into the collection's buffer.
func (p *PartRank) gatherOwned(src *Buffer[float64]) error {
	return backendPartPRGather(p.dev.ordinal, p.ownedLid.h.p, p.numOwned, src.h.p, p.out.h.p)
}

// CollectOwn copies the part's gathered ranks that fall in its own range
// to their place among the collected ones.
func (p *PartRank) CollectOwn() error { return p.CollectFromPeer(p, p.index) }

// CollectFromPeer copies src's (part q's) gathered ranks in this part's
// range to their place among the collected ones (src may be this part, or
// on another device: a peer copy).
func (p *PartRank) CollectFromPeer(src *PartRank, q int) error {
	return p.col.fromPeer(p.partSeat, "PartRank.CollectFromPeer", q, src.col.sendSplit, src.dev, src.out.h.p)
}

// CollectNCCL sends every other part the gathered ranks in its range and
// receives those in this part's (collective; rank is this part's).
func (p *PartRank) CollectNCCL(rank *NCCLRank) error {
	return p.col.nccl(p.partSeat, "PartRank.CollectNCCL", rank, p.out.h.p)
}

// Assemble puts the collected ranks of the part's range in id order and
// copies them to result[Lo:Hi] (result: the whole result, in pinned
// memory: MakeResult of one part).
func (p *PartRank) Assemble(result []float64) error {
	return p.col.assemble(p.partSeat, "PartRank.Assemble", result, backendPartPRScatter)
}
