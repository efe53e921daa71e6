package gpu

import (
	"context"
	"fmt"
	"sort"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/partition"
)

// Partitioned PageRank on the devices (partition.RankExchanger): each
// part's ranks, shares and sums live in its backend's PRRun (pull scheme);
// an iteration is the pull gather over the part's layout, the ghosts' sums
// packed into owner segments, the exchange (NCCL, or peer copies),
// unpackaging, the apply over the owned vertices and an all-reduce of two
// doubles. The host sees those two sums per iteration, and the owned
// ranks at the end.

// rankLink moves an iteration's sums between rank parts and adds their
// partial sums. Both calls are collective.
type rankLink interface {
	// exchange moves the packed sums; while (when not nil) is called once
	// this part's sums are on their way, before waiting for them (NCCL),
	// or before the copies (peer copies, which then wait for what while
	// queued).
	exchange(ctx context.Context, d *rankPart, while func() error) error
	reduce(ctx context.Context, d *rankPart) (delta, dangling float64, err error)
	// collect moves every part's gathered ranks to the parts whose
	// ranges of original ids they fall in.
	collect(ctx context.Context, d *rankPart) error
}

// rankPart is partition.RankPart on a Backend. It holds the backend's lock
// from its making to Close.
type rankPart struct {
	b      *Backend
	rank   int
	pt     *partition.Part
	pr     *cuda.PartRank
	sent   uint64 // sums sent per iteration: one per ghost (every ghost is owned elsewhere)
	link   rankLink
	result []float64 // the whole result, pinned (part 0's PartRank's), which every part fills its range of
}

var _ partition.PersonalRankPart = (*rankPart)(nil)

// heldRank is a backend's partitioned PageRank state for one part, kept
// between runs (tables uploaded once).
type heldRank struct {
	pt *partition.Part
	pr *cuda.PartRank
}

// Init implements partition.RankPart: a run that teleports to every
// vertex alike.
func (d *rankPart) Init(r0 float64) (uint64, error) {
	d.pr.Uniform()
	c, err := d.pr.Init(r0)
	if err != nil {
		return 0, fmt.Errorf("cuda backend: %w", err)
	}
	return c, nil
}

// Personalize implements partition.PersonalRankPart: the part's owned
// sources (in its layout's numbering) are the device's teleport set.
func (d *rankPart) Personalize(sources []uint32, p float64) (float64, error) {
	var lids []uint32
	for _, s := range sources {
		if local, ok := d.pt.Local(s); ok {
			lids = append(lids, d.b.l.Perm[local])
		}
	}
	if err := d.pr.Personalize(lids, p); err != nil {
		return 0, fmt.Errorf("cuda backend: %w", err)
	}
	c, err := d.pr.Init(1)
	if err != nil {
		return 0, fmt.Errorf("cuda backend: %w", err)
	}
	return float64(c) * p, nil
}

// Iterate implements partition.RankPart. When the backend says
// WithPartOverlap, the part gathers the row panels that hold ghosts
// first, packs the ghosts' sums, and gathers the other panels on its own
// stream while the sums travel (Gunrock's overlap of communication and
// computation); Compute then counts the first gather, the apply, and the
// wait for the second gather after the exchange.
func (d *rankPart) Iterate(ctx context.Context, base, damping float64) (partition.RankStep, error) {
	rs := partition.RankStep{Sent: d.sent}
	clock := partition.NewPhaseClock()
	gather := d.pr.Gather
	var while func() error
	if d.b.partOverlap {
		gather = func() error { return d.pr.GatherPanels(cuda.PanelGhosts) }
		while = func() error { return d.pr.GatherPanelsAsync(cuda.PanelOwned) }
	}
	if err := gather(); err != nil {
		return rs, fmt.Errorf("cuda backend: %w", err)
	}
	clock.Lap(&rs.Compute)
	if err := d.pr.Pack(); err != nil {
		return rs, fmt.Errorf("cuda backend: %w", err)
	}
	clock.Lap(&rs.Phases.Pack)
	if err := d.link.exchange(ctx, d, while); err != nil {
		return rs, fmt.Errorf("exchange: %w", err)
	}
	clock.Lap(&rs.Phases.Exchange)
	if err := d.pr.WaitPanels(); err != nil {
		return rs, fmt.Errorf("cuda backend: %w", err)
	}
	clock.Lap(&rs.Compute)
	if err := d.pr.Unpack(); err != nil {
		return rs, fmt.Errorf("cuda backend: %w", err)
	}
	clock.Lap(&rs.Phases.Unpack)
	if err := d.pr.Apply(base, damping); err != nil {
		return rs, fmt.Errorf("cuda backend: %w", err)
	}
	clock.Lap(&rs.Compute)
	var err error
	if rs.Delta, rs.Dangling, err = d.link.reduce(ctx, d); err != nil {
		return rs, fmt.Errorf("all-reduce: %w", err)
	}
	clock.Lap(&rs.Phases.Reduce)
	return rs, nil
}

// Collect implements partition.RankPart: every part gathers its owned
// ranks, sends each other part those in its range of original ids (NCCL,
// or peer copies), puts the ones it receives in id order and copies its
// range to the pinned result, which part 0 returns (collectRanges; the
// parts reuse it: valid until their next run).
func (d *rankPart) Collect(ctx context.Context) ([]float64, error) {
	return collectRanges(d.pr, d.rank, d.result, func() error { return d.link.collect(ctx, d) })
}

// rangeCollector is a part's collection by ranges of original ids on its
// device (cuda.PartRanges): cuda.PartRun's uint32 values, or
// cuda.PartRank's ranks.
type rangeCollector[T any] interface {
	GatherOwned() error
	CollectOwn() error
	Assemble(result []T) error
}

// collectRanges is a part's Collect by ranges: it gathers the owned
// values, lets link move them (every part receives the others' values in
// its range), takes its own and assembles its range into result, the
// whole result in pinned memory, which part 0 (rank) returns, the others
// nil. result is complete once every part's collectRanges has returned.
func collectRanges[T any](c rangeCollector[T], rank int, result []T, link func() error) ([]T, error) {
	if err := c.GatherOwned(); err != nil {
		return nil, fmt.Errorf("cuda backend: %w", err)
	}
	if err := link(); err != nil {
		return nil, fmt.Errorf("collect: %w", err)
	}
	if err := c.CollectOwn(); err != nil {
		return nil, fmt.Errorf("cuda backend: %w", err)
	}
	if err := c.Assemble(result); err != nil {
		return nil, fmt.Errorf("cuda backend: %w", err)
	}
	if rank != 0 {
		return nil, nil
	}
	return result, nil
}

// Close implements partition.RankPart: it releases the backend; the state
// stays with it for the next run over the same part.
func (d *rankPart) Close() error {
	if d.pr == nil {
		return nil
	}
	d.pr = nil
	d.b.mu.Unlock()
	return nil
}

// rankParts makes the rank parts of a run over backends, or returns nil
// when one of them is not a Backend (or there are more parts than a
// device run counts). device, when not nil, checks part i's backend.
func rankParts(parts []*partition.Part, backends []engine.Backend, link rankLink, device func(i int, b *Backend) error) ([]*rankPart, error) {
	bs, err := partBackends(parts, backends, device)
	if bs == nil || err != nil {
		return nil, err
	}
	return lockedParts(bs, func(i int, b *Backend) (*rankPart, error) {
		if h := b.rankHeld; h == nil || h.pt != parts[i] {
			if err := b.holdRank(parts, i); err != nil {
				return nil, err
			}
		}
		return &rankPart{b: b, rank: i, pt: parts[i], sent: parts[i].NumGhosts, link: link, pr: b.rankHeld.pr}, nil
	}, func(ds []*rankPart) error {
		result, err := ds[0].pr.MakeResult(parts[0].NumVertices)
		for _, d := range ds {
			d.result = result
		}
		return err
	})
}

// lockedParts makes the parts of a device run over the backends bs: part
// i by newPart(i, b) with b.mu locked, which the part keeps until its
// Close; then shared(parts) gives them what they share (part 0's pinned
// result). On an error the parts made so far are closed (releasing their
// backends) and the error names the part and its GPU.
func lockedParts[P interface{ Close() error }](bs []*Backend, newPart func(i int, b *Backend) (P, error), shared func([]P) error) ([]P, error) {
	ds := make([]P, 0, len(bs))
	fail := func(err error) ([]P, error) {
		for _, d := range ds {
			d.Close()
		}
		return nil, err
	}
	for i, b := range bs {
		b.mu.Lock()
		d, err := newPart(i, b)
		if err != nil {
			b.mu.Unlock()
			return fail(fmt.Errorf("part %d on GPU %d: %w", i, b.dl.Device().Ordinal(), err))
		}
		ds = append(ds, d)
	}
	if err := shared(ds); err != nil {
		return fail(fmt.Errorf("part 0 on GPU %d: %w", bs[0].dl.Device().Ordinal(), err))
	}
	return ds, nil
}

// holdRank replaces the backend's partitioned PageRank state by one for
// parts[i] (the backend's layout is that part's). The caller holds b.mu.
func (b *Backend) holdRank(parts []*partition.Part, i int) error {
	if b.rankHeld != nil {
		err := b.rankHeld.pr.Close()
		b.rankHeld = nil
		if err != nil {
			return err
		}
	}
	if b.prScheme != cuda.PRPull {
		return fmt.Errorf("a partitioned PageRank runs the pull scheme, not %v", b.prScheme)
	}
	pr, err := b.prRun()
	if err != nil {
		return err
	}
	t := rankTables(parts, i, b.l.Perm)
	rp, err := cuda.NewPartRank(pr, t)
	if err != nil {
		return err
	}
	b.rankHeld = &heldRank{pt: parts[i], pr: rp}
	return nil
}

// rankTables returns part i's tables in its layout's numbering (perm:
// the part's numbering to the layout's): the exchange's, and the
// collection's (partRanges).
func rankTables(parts []*partition.Part, i int, perm []uint32) cuda.PartRankTables {
	pt := parts[i]
	np := len(parts)
	t := cuda.PartRankTables{Index: i, Parts: np, OwnedLid: perm[:pt.NumLocal], GhostLid: perm[pt.NumLocal:],
		OwnerStart: make([]uint64, np+1), PartRanges: partRanges(parts, i)}
	for q := range np {
		_, hi := pt.GhostRange(q)
		t.OwnerStart[q+1] = hi
	}
	t.RecvLid, t.RecvStart = holderTables(parts, i, perm)
	return t
}

// holderTables returns, for each other part q in increasing order, the
// layout ids (perm: part i's numbering to its layout's) of part i's
// vertices that are q's ghosts, in q's ghost order, and where each part's
// run begins (len(parts)+1 entries; part i's own is empty).
func holderTables(parts []*partition.Part, i int, perm []uint32) (lids []uint32, starts []uint64) {
	starts = make([]uint64, len(parts)+1)
	for q, o := range parts {
		if q != i {
			lo, hi := o.GhostRange(i)
			for _, v := range o.GhostRemote[lo:hi] {
				lids = append(lids, perm[v])
			}
		}
		starts[q+1] = uint64(len(lids))
	}
	return lids, starts
}

// partRanges returns part i's tables for collecting a result on the
// devices by ranges of original ids (cuda.PartRanges), the same for every
// program: part q assembles [q·n/P, (q+1)·n/P), n the graph's vertices
// and P the parts (a range may be empty: more parts than vertices).
// Every part's owned vertices are in increasing original id, so those in
// a range are one slice of them.
func partRanges(parts []*partition.Part, i int) cuda.PartRanges {
	np := len(parts)
	n := parts[i].NumVertices
	bound := func(q int) uint64 { return uint64(q) * n / uint64(np) }
	split := func(o *partition.Part) []uint64 { // o's owned vertices by range
		s := make([]uint64, np+1)
		own := o.Global[:o.NumLocal]
		for q := 1; q <= np; q++ {
			s[q] = uint64(sort.Search(len(own), func(j int) bool { return uint64(own[j]) >= bound(q) }))
		}
		return s
	}
	r := cuda.PartRanges{Lo: bound(i), Hi: bound(i + 1), SendSplit: split(parts[i]), CollectStart: make([]uint64, np+1)}
	r.CollectIds = make([]uint32, 0, r.Hi-r.Lo)
	for q, o := range parts {
		s := split(o)
		for _, id := range o.Global[s[i]:s[i+1]] {
			r.CollectIds = append(r.CollectIds, id-uint32(r.Lo))
		}
		r.CollectStart[q+1] = uint64(len(r.CollectIds))
	}
	return r
}

// asRankPart is a rank part as partition.RankPart (wrapParts).
func asRankPart(d *rankPart) partition.RankPart { return d }

// makeRankParts makes the rank parts of a run over NCCL (part i on rank
// i's GPU): pr's, ppr's, HITS's and pr-delta's.
func (x *NCCLExchanger) makeRankParts(parts []*partition.Part, backends []engine.Backend) ([]*rankPart, error) {
	if err := x.fits(parts); err != nil {
		return nil, err
	}
	return rankParts(parts, backends, ncclRankLink{x.ranks}, x.onRank)
}

// makeRankParts makes the rank parts of a run over peer copies.
func (x *PeerExchanger) makeRankParts(parts []*partition.Part, backends []engine.Backend) ([]*rankPart, error) {
	if err := x.prepare(parts, backends); err != nil {
		return nil, err
	}
	link := newPeerRankLink(len(parts))
	ds, err := rankParts(parts, backends, link, nil)
	link.parts = ds
	return ds, err
}

// ncclRankLink is rankLink over NCCL, one rank per part.
type ncclRankLink struct{ ranks []*cuda.NCCLRank }

func (l ncclRankLink) exchange(ctx context.Context, d *rankPart, while func() error) error {
	if err := ctx.Err(); err != nil { // NCCL's calls cannot be cancelled
		return err
	}
	return d.pr.ExchangeNCCLWhile(l.ranks[d.rank], while)
}

func (l ncclRankLink) collect(ctx context.Context, d *rankPart) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.pr.CollectNCCL(l.ranks[d.rank])
}

func (l ncclRankLink) reduce(ctx context.Context, d *rankPart) (float64, float64, error) {
	if err := ctx.Err(); err != nil {
		return 0, 0, err
	}
	return d.pr.ReduceNCCL(l.ranks[d.rank])
}

// RankParts implements partition.RankExchanger: part i must be on rank
// i's GPU.
func (x *NCCLExchanger) RankParts(parts []*partition.Part, backends []engine.Backend) ([]partition.RankPart, error) {
	ds, err := x.makeRankParts(parts, backends)
	return wrapParts(ds, err, asRankPart)
}

var _ partition.RankExchanger = (*NCCLExchanger)(nil)

// peerRankLink is rankLink by copies: after a barrier (every part has
// packed) each part copies its segments out of the others' send buffers;
// the partial sums are posted and added on the host after a second
// barrier, which also keeps the send buffers until every copy is done.
type peerRankLink struct {
	bar   *partition.Barrier
	parts []*rankPart
	// sums are the posted partial sums by the parity of each part's
	// reduces (rounds: its count of them): a part may post its next while
	// a slower one still reads this one's, but not the one after (it
	// waits at the barrier of the next for the slower one).
	sums   [2][][2]float64
	rounds []int
}

// newPeerRankLink makes the peer link of a run over parts parts (its
// parts are set once made).
func newPeerRankLink(parts int) *peerRankLink {
	return &peerRankLink{bar: partition.NewBarrier(parts), sums: [2][][2]float64{make([][2]float64, parts), make([][2]float64, parts)},
		rounds: make([]int, parts)}
}

func (l *peerRankLink) exchange(ctx context.Context, d *rankPart, while func() error) error {
	if while != nil {
		if err := while(); err != nil {
			return err
		}
	}
	return fromPeers(ctx, l.bar, d.rank, len(l.parts), func(q int) error { return d.pr.CopyFromPeer(l.parts[q].pr, q) })
}

// collect: after a barrier (every part has gathered), each part copies the
// ranks in its range from the others' gathered ones, which stay unchanged
// until the run has ended.
func (l *peerRankLink) collect(ctx context.Context, d *rankPart) error {
	return fromPeers(ctx, l.bar, d.rank, len(l.parts), func(q int) error { return d.pr.CollectFromPeer(l.parts[q].pr, q) })
}

// fromPeers waits at bar, then copies what part rank takes from every
// other of the parts (take(q): from part q), in part order.
func fromPeers(ctx context.Context, bar *partition.Barrier, rank, parts int, take func(q int) error) error {
	if err := bar.Wait(ctx); err != nil {
		return err
	}
	for q := range parts {
		if q == rank {
			continue
		}
		if err := take(q); err != nil {
			return fmt.Errorf("from part %d: %w", q, err)
		}
	}
	return nil
}

func (l *peerRankLink) reduce(ctx context.Context, d *rankPart) (float64, float64, error) {
	delta, dangling, err := d.pr.Sums()
	if err != nil {
		return 0, 0, err
	}
	k := l.rounds[d.rank] & 1
	l.rounds[d.rank]++
	l.sums[k][d.rank] = [2]float64{delta, dangling}
	if err := l.bar.Wait(ctx); err != nil {
		return 0, 0, err
	}
	var sd, sg float64
	for _, s := range l.sums[k] {
		sd += s[0]
		sg += s[1]
	}
	return sd, sg, nil
}

// RankParts implements partition.RankExchanger.
func (x *PeerExchanger) RankParts(parts []*partition.Part, backends []engine.Backend) ([]partition.RankPart, error) {
	ds, err := x.makeRankParts(parts, backends)
	return wrapParts(ds, err, asRankPart)
}

var _ partition.RankExchanger = (*PeerExchanger)(nil)
