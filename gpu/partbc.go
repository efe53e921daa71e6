package gpu

import (
	"context"
	"fmt"
	"time"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/partition"
)

// Partitioned BC on the devices (partition.BCExchanger): each part's
// levels, path counts σ, offers (1+δ)/σ and scores live in a cuda.PartBC
// over its backend's layout, made for the run. A forward level is one
// call on the part (claims, σ sums over the in-rows, every ghost's sum
// into the ghost buffer), the exchange of the ghost buffers' segments to
// the owners (NCCL, or peer copies), one call taking the sums received
// (part after part, in index order) and an all-reduce of the new
// vertices' count; a backward level is the owners publishing their
// vertices' offers per ghost copy, the exchange back to the parts that
// hold the copies, and one call on the part (the ghosts take their offers
// or are unmarked, the owned vertices of the level get their
// dependencies). The host sees a counters struct per forward level, and
// the scores at the end, collected by ranges of original ids as a
// partitioned PageRank's.

// bcLink moves a BC level's values between the parts and sums the forward
// levels' counts. Every call is collective.
type bcLink interface {
	// forward delivers every part's ghost sums to the owners' copy
	// buffers.
	forward(ctx context.Context, d *bcPart) error
	// reduce returns d's counters with Total, the sum of Count over the
	// parts.
	reduce(ctx context.Context, d *bcPart) (cuda.PartBCCounters, error)
	// backward delivers the offers every part published to the ghost
	// buffers of the parts that hold its vertices as ghosts.
	backward(ctx context.Context, d *bcPart) error
	// collect moves every part's gathered scores to the parts whose ranges
	// of original ids they fall in.
	collect(ctx context.Context, d *bcPart) error
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
	result            []float64 // the whole result, shared by the parts, each filling its range
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
	if err := d.link.forward(ctx, d); err != nil {
		return step, fmt.Errorf("exchange: %w", err)
	}
	if err := d.st.Receive(level, end); err != nil {
		return step, fmt.Errorf("cuda backend: %w", err)
	}
	c, err := d.link.reduce(ctx, d)
	if err != nil {
		return step, fmt.Errorf("all-reduce: %w", err)
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
	if err := d.st.Publish(level); err != nil {
		return step, fmt.Errorf("cuda backend: %w", err)
	}
	if err := d.link.backward(ctx, d); err != nil {
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
// range to the shared result, which part 0 returns (collectRanges).
func (d *bcPart) Collect(ctx context.Context) ([]float64, error) {
	return collectRanges(d.st, d.rank, d.result, func() error { return d.link.collect(ctx, d) })
}

// Close implements partition.BCPart: it frees the part's state and
// releases the backend.
func (d *bcPart) Close() error {
	if d.st == nil {
		return nil
	}
	err := d.st.Close()
	d.st = nil
	d.b.mu.Unlock()
	if err != nil {
		return fmt.Errorf("part %d: cuda backend: %w", d.rank, err)
	}
	return nil
}

// bcParts makes the BC parts of a run over backends, or returns nil when
// one of them is not a Backend (or there are more parts than a device run
// counts). device, when not nil, checks part i's backend. A part's state
// is made for the run from its tables (PageRank's: rankTables), and the
// layout's in-adjacency is built on the device when New could not (the σ
// sums run over it).
func bcParts(parts []*partition.Part, backends []engine.Backend, link bcLink, device func(i int, b *Backend) error) ([]*bcPart, error) {
	bs, err := partBackends(parts, backends, device)
	if bs == nil || err != nil {
		return nil, err
	}
	ds := make([]*bcPart, len(parts))
	fail := func(err error) ([]*bcPart, error) {
		for _, d := range ds {
			if d != nil {
				d.Close()
			}
		}
		return nil, err
	}
	result := make([]float64, parts[0].NumVertices)
	for i, b := range bs {
		b.mu.Lock()
		st, err := b.newPartBC(parts, i)
		if err != nil {
			b.mu.Unlock()
			return fail(fmt.Errorf("part %d on GPU %d: %w", i, b.dl.Device().Ordinal(), err))
		}
		d := &bcPart{b: b, rank: i, pt: parts[i], st: st, link: link, result: result}
		d.fwdSent, d.backSent = st.Sent()
		ds[i] = d
	}
	return ds, nil
}

// newPartBC makes the BC state of parts[i] over the backend's layout (the
// part's). The caller holds b.mu.
func (b *Backend) newPartBC(parts []*partition.Part, i int) (*cuda.PartBC, error) {
	if pt := parts[i]; b.l.NumVertices != pt.NumPartVertices() {
		return nil, fmt.Errorf("a layout of %d vertices for %d owned and %d ghosts", b.l.NumVertices, pt.NumLocal, pt.NumGhosts)
	}
	if !b.dl.HasIn() {
		if err := b.dl.BuildIn(); err != nil {
			return nil, fmt.Errorf("the layout's in-adjacency, which BC sums path counts over: %w", err)
		}
	}
	return cuda.NewPartBC(b.dl, rankTables(parts, i, b.l.Perm))
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

func (l ncclBCLink) forward(ctx context.Context, d *bcPart) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.st.ForwardNCCL(l.ranks[d.rank])
}

func (l ncclBCLink) reduce(ctx context.Context, d *bcPart) (cuda.PartBCCounters, error) {
	if err := ctx.Err(); err != nil {
		return cuda.PartBCCounters{}, err
	}
	return d.st.ReduceNCCL(l.ranks[d.rank])
}

func (l ncclBCLink) backward(ctx context.Context, d *bcPart) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.st.BackwardNCCL(l.ranks[d.rank])
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
	if len(parts) != len(x.ranks) {
		return nil, fmt.Errorf("nccl exchanger: %d ranks for %d parts", len(x.ranks), len(parts))
	}
	return asBCParts(bcParts(parts, backends, ncclBCLink{x.ranks}, func(i int, b *Backend) error {
		if got, want := b.dl.Device().Ordinal(), x.ranks[i].Device().Ordinal(); got != want {
			return fmt.Errorf("nccl exchanger: part %d is on GPU %d but its rank on GPU %d", i, got, want)
		}
		return nil
	}))
}

var _ partition.BCExchanger = (*NCCLExchanger)(nil)

// peerBCLink is bcLink by copies between the parts' buffers, with host
// barriers: after a barrier (every part has filled its buffers) each part
// copies its segments out of the others'. A forward level's counts are
// posted and added on the host after a second barrier, which also keeps
// the ghost buffers until every copy is done (the next level fills them
// after it); a backward level has a second barrier of its own, which keeps
// the copy buffers until every copy is done.
type peerBCLink struct {
	bar    *partition.Barrier
	parts  []*bcPart
	counts []uint64
}

func (l *peerBCLink) forward(ctx context.Context, d *bcPart) error {
	return fromPeers(ctx, l.bar, d.rank, len(l.parts), func(q int) error { return d.st.ForwardFromPeer(l.parts[q].st, q) })
}

func (l *peerBCLink) reduce(ctx context.Context, d *bcPart) (cuda.PartBCCounters, error) {
	c, err := d.st.Counters()
	if err != nil {
		return c, err
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

func (l *peerBCLink) backward(ctx context.Context, d *bcPart) error {
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
	if len(parts) != x.Parts() {
		return nil, fmt.Errorf("peer exchanger: %d ranks for %d parts", x.Parts(), len(parts))
	}
	link := &peerBCLink{bar: partition.NewBarrier(len(parts)), counts: make([]uint64, len(parts))}
	ds, err := bcParts(parts, backends, link, nil)
	link.parts = ds
	return asBCParts(ds, err)
}

var _ partition.BCExchanger = (*PeerExchanger)(nil)
