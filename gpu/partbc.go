package gpu

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/partition"
)

// Partitioned BC on the devices (partition.BCExchanger): each part's
// levels, path counts σ, offers (1+δ)/σ and scores live in a cuda.PartBC
// over its backend's layout, which the backend keeps for the next run
// over the same parts (heldBC: tables uploaded and buffers allocated
// once; a run clears the scores, a source the levels). A forward level is
// one call on the part (claims, σ sums over the in-rows, every ghost's sum
// into the ghost buffer; it waits), then the exchange of the ghost
// buffers' segments to the owners (NCCL, or peer copies), the sums
// received taken (part after part, in index order) and an all-reduce of
// the new vertices' count, the counters coming back with it (NCCL: all of
// it queued on the rank's stream, one wait); a backward level is the
// owners publishing their vertices' offers per ghost copy and the exchange
// back to the parts that hold the copies (NCCL: one wait), then one call
// on the part (the ghosts take their offers or are unmarked, the owned
// vertices of the level get their dependencies; it waits). The host sees
// a counters struct per forward level, and the scores at the end,
// collected by ranges of original ids into pinned memory kept with part
// 0's state, as a partitioned PageRank's.

// bcLink moves a BC level's values between the parts and sums the forward
// levels' counts. Every call is collective.
type bcLink interface {
	// forward, after forward level `level` on every part, delivers every
	// part's ghost sums to the owners' copy buffers, has d take them
	// (cuda.PartBC.Receive, the level's owned vertices from base) and
	// returns d's counters with Total, the sum of Count over the parts.
	forward(ctx context.Context, d *bcPart, level uint32, base uint64) (cuda.PartBCCounters, error)
	// backward has every part publish its offers for backward level
	// `level` (cuda.PartBC.Publish) and delivers them to the ghost buffers
	// of the parts that hold its vertices as ghosts.
	backward(ctx context.Context, d *bcPart, level uint32) error
	// collect moves every part's gathered scores to the parts whose ranges
	// of original ids they fall in.
	collect(ctx context.Context, d *bcPart) error
}

// heldBC is a backend's partitioned BC state for part index of a set of
// parts, kept between runs (its tables depend on every part).
type heldBC struct {
	parts []*partition.Part
	index int
	st    *cuda.PartBC
	runs  int // the runs that used it
}

// holds reports whether h is the state of parts[i] among parts.
func (h *heldBC) holds(parts []*partition.Part, i int) bool {
	return h != nil && h.index == i && slices.Equal(h.parts, parts)
}

// bcPart is partition.BCPart on a Backend. It holds the backend's lock
// from its making to Close.
type bcPart struct {
	b    *Backend
	rank int
	pt   *partition.Part
	st   *cuda.PartBC
	link bcLink
	// starts are the current source's levels in the part's order of owned
	// vertices: level d is [starts[d], starts[d+1]).
	starts            []uint64
	fwdSent, backSent uint64    // the values a forward and a backward level send (cuda.PartBC.Sent)
	result            []float64 // the whole result, pinned (part 0's PartBC's), which every part fills its range of
}

var _ partition.BCPart = (*bcPart)(nil)

// Init implements partition.BCPart.
func (d *bcPart) Init() error {
	if err := d.st.Init(); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	return nil
}

// Start implements partition.BCPart.
func (d *bcPart) Start(source uint32, hasSource bool) error {
	var lid uint32
	if hasSource {
		if uint64(source) >= d.pt.NumLocal {
			return fmt.Errorf("source %d is not an owned vertex (%d)", source, d.pt.NumLocal)
		}
		lid = d.b.l.Perm[source]
	}
	if err := d.st.Start(lid, hasSource); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	d.starts = append(d.starts[:0], 0, 0)
	if hasSource {
		d.starts[1] = 1
	}
	return nil
}

// Forward implements partition.BCPart.
func (d *bcPart) Forward(ctx context.Context, level uint32) (partition.BCStep, error) {
	if int(level)+1 != len(d.starts) {
		return partition.BCStep{}, fmt.Errorf("forward level %d after %d levels", level, len(d.starts)-1)
	}
	front, end := d.starts[level-1], d.starts[level]
	step := partition.BCStep{Active: end - front, Sent: d.fwdSent, Bytes: d.fwdSent * cuda.PartBCValueBytes}
	start := time.Now()
	if err := d.st.Forward(level, front, end-front); err != nil {
		return step, fmt.Errorf("cuda backend: %w", err)
	}
	step.Compute = time.Since(start)
	c, err := d.link.forward(ctx, d, level, end)
	if err != nil {
		return step, fmt.Errorf("exchange: %w", err)
	}
	if end+c.Count > d.pt.NumLocal {
		return step, fmt.Errorf("cuda backend: level %d reached %d owned vertices after %d of %d", level, c.Count, end, d.pt.NumLocal)
	}
	step.Total = c.Total
	if c.Total > 0 {
		d.starts = append(d.starts, end+c.Count)
	}
	return step, nil
}

// Backward implements partition.BCPart.
func (d *bcPart) Backward(ctx context.Context, level uint32) (partition.BCStep, error) {
	if int(level)+1 >= len(d.starts) {
		return partition.BCStep{}, fmt.Errorf("backward level %d of %d", level, len(d.starts)-2)
	}
	lo, hi := d.starts[level], d.starts[level+1]
	step := partition.BCStep{Active: hi - lo, Sent: d.backSent, Bytes: d.backSent * cuda.PartBCValueBytes}
	if err := d.link.backward(ctx, d, level); err != nil {
		return step, fmt.Errorf("exchange: %w", err)
	}
	start := time.Now()
	if err := d.st.Backward(level, lo, hi-lo); err != nil {
		return step, fmt.Errorf("cuda backend: %w", err)
	}
	step.Compute = time.Since(start)
	return step, nil
}

// Collect implements partition.BCPart: every part gathers its owned
// scores, sends each other part those in its range of original ids (NCCL,
// or peer copies), puts the ones it receives in id order and copies its
// range to the pinned result, which part 0 returns (collectRanges; the
// parts reuse it: valid until their next run).
func (d *bcPart) Collect(ctx context.Context) ([]float64, error) {
	return collectRanges(d.st, d.rank, d.result, func() error { return d.link.collect(ctx, d) })
}

// Close implements partition.BCPart: it releases the backend; the state
// stays with it for the next run over the same parts.
func (d *bcPart) Close() error {
	if d.st == nil {
		return nil
	}
	d.st = nil
	d.b.mu.Unlock()
	return nil
}

// bcParts makes the BC parts of a run over backends, or returns nil when
// one of them is not a Backend (or there are more parts than a device run
// counts). device, when not nil, checks part i's backend. A part's state
// is the one its backend holds when that was made for the same parts, and
// is made from its tables (PageRank's: rankTables) otherwise (holdBC).
func bcParts(parts []*partition.Part, backends []engine.Backend, link bcLink, device func(i int, b *Backend) error) ([]*bcPart, error) {
	bs, err := partBackends(parts, backends, device)
	if bs == nil || err != nil {
		return nil, err
	}
	return lockedParts(bs, func(i int, b *Backend) (*bcPart, error) {
		if !b.bcHeld.holds(parts, i) {
			if err := b.holdBC(parts, i); err != nil {
				return nil, err
			}
		}
		b.bcHeld.runs++
		st := b.bcHeld.st
		d := &bcPart{b: b, rank: i, pt: parts[i], st: st, link: link}
		d.fwdSent, d.backSent = st.Sent()
		return d, nil
	}, func(ds []*bcPart) error {
		result, err := ds[0].st.MakeResult(parts[0].NumVertices)
		for _, d := range ds {
			d.result = result
		}
		return err
	})
}

// holdBC replaces the backend's partitioned BC state by one for parts[i]
// over its layout (the part's), building the layout's in-adjacency on the
// device when New could not (the σ sums run over it). The caller holds
// b.mu.
func (b *Backend) holdBC(parts []*partition.Part, i int) error {
	if b.bcHeld != nil {
		err := b.bcHeld.st.Close()
		b.bcHeld = nil
		if err != nil {
			return err
		}
	}
	if pt := parts[i]; b.l.NumVertices != pt.NumPartVertices() {
		return fmt.Errorf("a layout of %d vertices for %d owned and %d ghosts", b.l.NumVertices, pt.NumLocal, pt.NumGhosts)
	}
	if !b.dl.HasIn() {
		if err := b.dl.BuildIn(); err != nil {
			return fmt.Errorf("the layout's in-adjacency, which BC sums path counts over: %w", err)
		}
	}
	st, err := cuda.NewPartBC(b.dl, rankTables(parts, i, b.l.Perm))
	if err != nil {
		return err
	}
	b.bcHeld = &heldBC{parts: slices.Clone(parts), index: i, st: st}
	return nil
}

func asBCParts(ds []*bcPart, err error) ([]partition.BCPart, error) {
	if ds == nil || err != nil {
		return nil, err
	}
	out := make([]partition.BCPart, len(ds))
	for i, d := range ds {
		out[i] = d
	}
	return out, nil
}

// ncclBCLink is bcLink over NCCL, one rank per part. NCCL's calls cannot
// be cancelled: ctx is checked before them.
type ncclBCLink struct{ ranks []*cuda.NCCLRank }

func (l ncclBCLink) forward(ctx context.Context, d *bcPart, level uint32, base uint64) (cuda.PartBCCounters, error) {
	if err := ctx.Err(); err != nil {
		return cuda.PartBCCounters{}, err
	}
	return d.st.ForwardNCCL(l.ranks[d.rank], level, base)
}

func (l ncclBCLink) backward(ctx context.Context, d *bcPart, level uint32) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.st.BackwardNCCL(l.ranks[d.rank], level)
}

func (l ncclBCLink) collect(ctx context.Context, d *bcPart) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.st.CollectNCCL(l.ranks[d.rank])
}

// BCParts implements partition.BCExchanger: part i must be on rank i's
// GPU.
func (x *NCCLExchanger) BCParts(parts []*partition.Part, backends []engine.Backend) ([]partition.BCPart, error) {
	if err := x.fits(parts); err != nil {
		return nil, err
	}
	return asBCParts(bcParts(parts, backends, ncclBCLink{x.ranks}, x.onRank))
}

var _ partition.BCExchanger = (*NCCLExchanger)(nil)

// peerBCLink is bcLink by copies between the parts' buffers, with host
// barriers: after a barrier (every part has filled its buffers: Forward
// waits, and Publish is waited for) each part copies its segments out of
// the others'. A forward level's sums are taken behind the copies on the
// default stream, and its counts, read behind them (a copy that waits),
// are posted and added on the host after a second barrier, which also
// keeps the ghost buffers until every copy is done (the next level fills
// them after it); a backward level has a second barrier of its own, which
// keeps the copy buffers until every copy is done.
type peerBCLink struct {
	bar    *partition.Barrier
	parts  []*bcPart
	counts []uint64
}

func (l *peerBCLink) forward(ctx context.Context, d *bcPart, level uint32, base uint64) (cuda.PartBCCounters, error) {
	if err := fromPeers(ctx, l.bar, d.rank, len(l.parts), func(q int) error { return d.st.ForwardFromPeer(l.parts[q].st, q) }); err != nil {
		return cuda.PartBCCounters{}, err
	}
	if err := d.st.Receive(level, base); err != nil {
		return cuda.PartBCCounters{}, fmt.Errorf("cuda backend: %w", err)
	}
	c, err := d.st.Counters()
	if err != nil {
		return c, fmt.Errorf("cuda backend: %w", err)
	}
	l.counts[d.rank] = c.Count
	if err := l.bar.Wait(ctx); err != nil {
		return c, err
	}
	c.Total = 0
	for _, x := range l.counts {
		c.Total += x
	}
	return c, nil
}

func (l *peerBCLink) backward(ctx context.Context, d *bcPart, level uint32) error {
	if err := d.st.Publish(level); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	if err := d.st.Sync(); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	if err := fromPeers(ctx, l.bar, d.rank, len(l.parts), func(q int) error { return d.st.BackwardFromPeer(l.parts[q].st, q) }); err != nil {
		return err
	}
	return l.bar.Wait(ctx)
}

// collect: after a barrier (every part has gathered), each part copies the
// scores in its range from the others' gathered ones, which stay
// unchanged until the run has ended.
func (l *peerBCLink) collect(ctx context.Context, d *bcPart) error {
	return fromPeers(ctx, l.bar, d.rank, len(l.parts), func(q int) error { return d.st.CollectFromPeer(l.parts[q].st, q) })
}

// BCParts implements partition.BCExchanger.
func (x *PeerExchanger) BCParts(parts []*partition.Part, backends []engine.Backend) ([]partition.BCPart, error) {
	if err := x.prepare(parts, backends); err != nil {
		return nil, err
	}
	link := &peerBCLink{bar: partition.NewBarrier(len(parts)), counts: make([]uint64, len(parts))}
	ds, err := bcParts(parts, backends, link, nil)
	link.parts = ds
	return asBCParts(ds, err)
}

var _ partition.BCExchanger = (*PeerExchanger)(nil)
