package gpu

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/partition"
)

// Partitioned runs on the devices (partition.DeviceExchanger): each part's
// values and frontier stay in its backend's MinRun between supersteps; a
// superstep is one iteration (the backend's hybrid, dense, sparse or pull
// step), packaging on the device (cuda.PartRun.Pack: a pass over the
// part's vertices against the values after the last exchange), the
// exchange of the packed segments between the devices (NCCL, or peer
// copies), unpackaging on the device, and the sum of the next frontiers'
// sizes. The host sees counters only, until the result is collected by
// ranges of original ids (partRanges), as a partitioned PageRank's.

// partLink moves a superstep's messages between device parts and sums
// their next frontiers. Both calls are collective.
type partLink interface {
	// exchange delivers the messages d packed (counters c) and returns the
	// number d received, at the start of its receive buffer.
	exchange(ctx context.Context, d *devicePart, c cuda.PartCounters) (uint64, error)
	// reduce returns d's counters with Total, the sum of NextCount over
	// the parts.
	reduce(ctx context.Context, d *devicePart) (cuda.PartCounters, error)
	// collect moves every part's gathered values to the parts whose
	// ranges of original ids they fall in.
	collect(ctx context.Context, d *devicePart) error
	// broadcast moves the levels every part packed for the parts that
	// hold its vertices as ghosts (cuda.PartRun.BroadcastPack) to them.
	broadcast(ctx context.Context, d *devicePart) error
}

// devicePart is partition.DevicePart on a Backend. It holds the backend's
// lock from its making to Close.
type devicePart struct {
	b      *Backend
	rank   int
	pt     *partition.Part
	parts  []*partition.Part // the run's, for a BFS tree's tables
	prog   engine.Program[uint32]
	progID int
	opts   engine.RunOptions
	run    *cuda.MinRun
	pr     *cuda.PartRun
	link   partLink
	edges  uint64 // out-arcs of the current frontier
	isList bool   // the current frontier is the MinRun's list (else its flags)
	// With pulls (a BFS over the parts of an undirected graph in hybrid
	// mode, unless NoPull), pullNow says that this superstep pulls, step
	// counts the supersteps (the next frontier's level is step+1),
	// totalArcs is every part's arcs and reached those of the vertices
	// reached so far, over all parts.
	pulls, pullNow     bool
	step               uint32
	totalArcs, reached uint64
	// hooks: CC by hooking (partition.FromHooks), hooked once the first
	// superstep has linked the part's components.
	hooks, hooked bool
	result        []uint32 // the whole result, pinned (part 0's PartRun's), which every part fills its range of
}

var _ partition.DevicePart = (*devicePart)(nil)

// Init implements partition.DevicePart.
func (d *devicePart) Init(start partition.Start, source uint32, hasSource bool) (uint64, error) {
	l := d.b.l
	var active uint64
	d.hooks, d.hooked = start == partition.FromHooks, false
	if start != partition.FromSource {
		if err := d.pr.Labels(); err != nil {
			return 0, fmt.Errorf("cuda backend: %w", err)
		}
		active, d.edges, d.isList = d.pt.NumLocal, l.NumArcs, false
	} else {
		var lid uint32
		if hasSource {
			if uint64(source) >= d.pt.NumLocal {
				return 0, fmt.Errorf("source %d is not an owned vertex (%d)", source, d.pt.NumLocal)
			}
			lid = l.Perm[source]
			active, d.edges = 1, l.OutDegree(lid)
		}
		// Without a source nothing is active: the flags Init sets are
		// replaced after the first superstep, which runs no iteration.
		if err := d.run.Init(apps.Unreached, false, hasSource, lid, 0); err != nil {
			return 0, fmt.Errorf("cuda backend: %w", err)
		}
		d.isList = hasSource
	}
	if err := d.pr.Start(); err != nil {
		return 0, fmt.Errorf("cuda backend: %w", err)
	}
	d.pullNow, d.step, d.reached = false, 0, 0
	return active, nil
}

// Superstep implements partition.DevicePart. With pulls, a superstep
// pulls when every part decided so at the end of the last one (the same
// totals: partPullAlpha), whether or not this part's own frontier is
// empty: its ghosts may be in the frontier.
func (d *devicePart) Superstep(ctx context.Context, active uint64) (partition.DeviceStep, error) {
	ds := partition.DeviceStep{Pull: d.pullNow}
	switch {
	case d.hooks && (!d.hooked || active > 0):
		// The first superstep links the components; a later one spreads
		// the labels the exchange lowered (none: nothing to do).
		start := time.Now()
		if err := d.pr.HookStep(!d.hooked, d.b.l.SparseOffsets); err != nil {
			return ds, fmt.Errorf("cuda backend: cc hooking: %w", err)
		}
		d.hooked = true
		ds.Compute = time.Since(start)
	case d.hooks:
	case d.pullNow:
		return d.pullSuperstep(ctx, ds)
	case active > 0:
		start := time.Now()
		if _, err := d.b.iterateMin(ctx, d.run, d.prog, d.progID, d.opts, active, d.edges, d.isList); err != nil {
			return ds, err
		}
		ds.Compute = time.Since(start)
	}
	clock := partition.NewPhaseClock()
	c, err := d.pr.Pack()
	if err != nil {
		return ds, fmt.Errorf("cuda backend: %w", err)
	}
	clock.Lap(&ds.Phases.Pack)
	if c, err = d.deliver(ctx, c, d.pr.Unpack, &ds); err != nil {
		return ds, err
	}
	if err := d.pr.Advance(); err != nil {
		return ds, fmt.Errorf("cuda backend: %w", err)
	}
	return d.endSuperstep(ctx, c, ds)
}

// deliver moves the messages the part packed (counters c) to their
// owners, unpacks the ones it received with unpack, and all-reduces the
// counters, which it checks and returns; it times the three phases into
// ds and adds the messages sent to other parts to its Sent. The counters
// come back once, with the all-reduce (every part makes it, even one
// that received bad updates: none is left waiting).
func (d *devicePart) deliver(ctx context.Context, c cuda.PartCounters, unpack func(received uint64) error, ds *partition.DeviceStep) (cuda.PartCounters, error) {
	clock := partition.NewPhaseClock()
	for q := range d.pt.NumParts {
		if q != d.rank {
			ds.Sent += c.Sent[q]
		}
	}
	received, err := d.link.exchange(ctx, d, c)
	if err != nil {
		return c, fmt.Errorf("exchange: %w", err)
	}
	clock.Lap(&ds.Phases.Exchange)
	if err := unpack(received); err != nil {
		return c, fmt.Errorf("cuda backend: %w", err)
	}
	clock.Lap(&ds.Phases.Unpack)
	if c, err = d.link.reduce(ctx, d); err != nil {
		return c, fmt.Errorf("all-reduce: %w", err)
	}
	clock.Lap(&ds.Phases.Reduce)
	if err := d.pr.CheckCounters(c); err != nil {
		return c, fmt.Errorf("cuda backend: %w", err)
	}
	return c, nil
}

// pullSuperstep is a superstep that pulls. Its step lowers owned vertices
// only (a ghost has no row in its holder's part), so there is nothing to
// package or exchange: the part's values become those after the exchange
// and the step's counters go to the all-reduce (cuda.PartRun.SettlePull,
// timed as the packaging), and the step's flags are the next frontier.
func (d *devicePart) pullSuperstep(ctx context.Context, ds partition.DeviceStep) (partition.DeviceStep, error) {
	start := time.Now()
	sc, err := d.pr.PullStep(d.progID)
	if err != nil {
		return ds, fmt.Errorf("cuda backend: pull step: %w", err)
	}
	ds.Compute = time.Since(start)
	clock := partition.NewPhaseClock()
	if err := d.pr.SettlePull(sc); err != nil {
		return ds, fmt.Errorf("cuda backend: %w", err)
	}
	clock.Lap(&ds.Phases.Pack)
	c, err := d.link.reduce(ctx, d)
	if err != nil {
		return ds, fmt.Errorf("all-reduce: %w", err)
	}
	clock.Lap(&ds.Phases.Reduce)
	return d.endSuperstep(ctx, c, ds)
}

// endSuperstep ends a superstep from the reduced counters c: the next
// frontier is the part's flags, and with pulls every part decides whether
// the next superstep pulls.
func (d *devicePart) endSuperstep(ctx context.Context, c cuda.PartCounters, ds partition.DeviceStep) (partition.DeviceStep, error) {
	d.edges, d.isList = c.NextEdges, false
	if d.pulls && c.Total > 0 {
		if err := d.decidePull(ctx, c, &ds); err != nil {
			return ds, err
		}
	}
	d.step++
	ds.Next, ds.Total = c.NextCount, c.Total
	return ds, nil
}

// partPullAlpha is Beamer's α for the device parts' BFS (as the host
// path's): a superstep pulls when the frontier's out-arcs, over all parts,
// exceed 1/partPullAlpha of the arcs of the vertices not yet reached.
const partPullAlpha = 15

// decidePull decides, from the superstep's totals (the same on every
// part), whether the next superstep pulls; if so, every part's boundary
// levels go to the parts that hold them as ghosts, which take them and
// flag those of the next frontier's level (collective, its time in the
// superstep's exchange).
func (d *devicePart) decidePull(ctx context.Context, c cuda.PartCounters, ds *partition.DeviceStep) error {
	d.reached += c.TotalEdges
	unreached := d.totalArcs - min(d.reached, d.totalArcs)
	d.pullNow = c.TotalEdges*partPullAlpha > unreached
	if !d.pullNow {
		return nil
	}
	clock := partition.NewPhaseClock()
	if err := d.sendLevels(ctx); err != nil {
		return err
	}
	if err := d.pr.BroadcastFrontier(d.step + 1); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	clock.Lap(&ds.Phases.Exchange)
	return nil
}

// sendLevels is the levels' broadcast up to their arrival (collective):
// the part takes its tables the first time (cuda.PartRun.HoldTree, which
// a BFS tree's parents need too), packs its boundary vertices' levels for
// the parts that hold them as ghosts, and the link moves them; the
// caller unpacks them (BroadcastFrontier, BroadcastUnpack).
func (d *devicePart) sendLevels(ctx context.Context) error {
	if err := d.holdTree(); err != nil {
		return err
	}
	if err := d.pr.BroadcastPack(); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	if err := d.link.broadcast(ctx, d); err != nil {
		return fmt.Errorf("levels' broadcast: %w", err)
	}
	return nil
}

// holdTree makes the part take the broadcast's tables (once: a part that
// holds them keeps them).
func (d *devicePart) holdTree() error {
	if !d.pr.HoldsTree() {
		if err := d.pr.HoldTree(treeTables(d.parts, d.rank, d.b.l.Perm)); err != nil {
			return fmt.Errorf("cuda backend: %w", err)
		}
	}
	return nil
}

// Parents implements partition.DevicePart: the first time, the part
// takes a BFS tree's tables (cuda.PartRun.HoldTree); then it packs its
// boundary vertices' levels for the parts that hold them as ghosts, the
// link moves them, its ghosts take their owners' levels, and every owned
// vertex's level becomes its parent (cuda.PartRun.Parents: the graph must
// be undirected).
func (d *devicePart) Parents(ctx context.Context) error {
	if err := d.sendLevels(ctx); err != nil {
		return err
	}
	if err := d.pr.BroadcastUnpack(); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	if err := d.pr.Parents(); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	return nil
}

// treeTables returns part i's BFS tree tables in its layout's numbering
// (perm: the part's numbering to the layout's).
func treeTables(parts []*partition.Part, i int, perm []uint32) cuda.PartTreeTables {
	t := cuda.PartTreeTables{OrigByLid: parts[i].OriginalIDs(perm)}
	t.RecvLid, t.RecvStart = holderTables(parts, i, perm)
	return t
}

// Collect implements partition.DevicePart: every part gathers its owned
// values on its device, sends each other part those in its range of
// original ids (NCCL, or peer copies), puts the ones it receives in id
// order and copies its range to the pinned result over its own link;
// part 0 returns the result (collectRanges). The result is part 0's
// PartRun's, reused: valid until the next run over the same part 0's
// backend.
func (d *devicePart) Collect(ctx context.Context) ([]uint32, error) {
	return collectRanges(d.pr, d.rank, d.result, func() error { return d.link.collect(ctx, d) })
}

// Close implements partition.DevicePart: it releases the backend; the
// packaging state stays with it for the next run over the same part.
func (d *devicePart) Close() error {
	if d.pr == nil {
		return nil
	}
	d.pr = nil
	d.b.mu.Unlock()
	return nil
}

// heldPart is a backend's packaging state for one part, kept between
// runs: its tables (the collection's included) are uploaded once.
type heldPart struct {
	pt     *partition.Part
	labels bool // its tables include the original ids
	pr     *cuda.PartRun
}

// wrapParts returns the parts ds of a run as what the partition package
// drives (each through wrap), or nil with err when there are none (the
// backends cannot run on their devices) or making them failed.
func wrapParts[D, P any](ds []D, err error, wrap func(D) P) ([]P, error) {
	if ds == nil || err != nil {
		return nil, err
	}
	out := make([]P, len(ds))
	for i, d := range ds {
		out[i] = wrap(d)
	}
	return out, nil
}

// asDevicePart is a device part as partition.DevicePart (wrapParts).
func asDevicePart(d *devicePart) partition.DevicePart { return d }

// newDeviceParts makes the device parts of a run over backends, or
// returns nil when one of them is not a Backend. link is the parts'
// partLink; device, when not nil, checks that part i's backend is on the
// device the link expects. Each backend keeps the part's packaging state
// (tables and buffers) for the next run over the same part, so that a
// run's time is the supersteps'; part 0's holds the pinned result every
// part fills.
func newDeviceParts(parts []*partition.Part, backends []engine.Backend, prog engine.Program[uint32], opts engine.RunOptions,
	link partLink, device func(i int, b *Backend) error) ([]*devicePart, error) {
	bs, err := partBackends(parts, backends, device)
	if bs == nil || err != nil {
		return nil, err
	}
	labels := false
	if dp, ok := prog.(engine.DeviceProgram); ok && dp.DeviceKernel() == "label" {
		labels = true
	}
	opts.MaxIterations, opts.Trace = 1, false
	dps := make([]*devicePart, len(parts))
	fail := func(err error) ([]*devicePart, error) {
		for _, d := range dps {
			if d != nil {
				d.Close()
			}
		}
		return nil, err
	}
	var tables []cuda.PartTables // made when a backend holds no state for its part
	// The parts of an undirected graph's BFS in hybrid mode pull together
	// (Beamer's rule over all parts: decidePull), unless NoPull.
	var totalArcs uint64
	pulls := !parts[0].Directed && opts.Mode == engine.Hybrid && !opts.NoPull // and the program is BFS (below)
	for _, b := range bs {
		totalArcs += b.l.NumArcs
	}
	for i, b := range bs {
		progID, err := b.minProgram(prog)
		if err != nil {
			return fail(err)
		}
		b.mu.Lock()
		d := &devicePart{b: b, rank: i, pt: parts[i], parts: parts, prog: prog, progID: progID, opts: opts, link: link,
			totalArcs: totalArcs, pulls: pulls && progID == cuda.ProgBFS}
		if d.run, err = b.minRun(); err == nil {
			if h := b.part; h == nil || h.pt != parts[i] || (labels && !h.labels) {
				if tables == nil {
					tables, err = partTables(parts, labels)
				}
				if err == nil {
					err = b.holdPart(parts[i], tables[i], labels)
				}
			}
		}
		if err != nil {
			b.mu.Unlock()
			return fail(fmt.Errorf("part %d on GPU %d: %w", i, b.dl.Device().Ordinal(), err))
		}
		d.pr = b.part.pr
		dps[i] = d
	}
	result, err := dps[0].pr.MakeResult(parts[0].NumVertices)
	if err != nil {
		return fail(fmt.Errorf("part 0 on GPU %d: %w", bs[0].dl.Device().Ordinal(), err))
	}
	for _, d := range dps {
		d.result = result
	}
	if pl, ok := link.(*peerLink); ok {
		pl.parts = dps
	}
	return dps, nil
}

// partBackends returns the parts' backends as Backends, or nil when one
// is not (or there are more parts than a device run counts: the run then
// stays on the host); device, when not nil, checks part i's backend.
func partBackends(parts []*partition.Part, backends []engine.Backend, device func(i int, b *Backend) error) ([]*Backend, error) {
	if len(parts) > cuda.PartMaxPeers {
		return nil, nil
	}
	bs := make([]*Backend, len(backends))
	for i, eb := range backends {
		b, ok := eb.(*Backend)
		if !ok {
			return nil, nil
		}
		bs[i] = b
	}
	if device != nil {
		for i, b := range bs {
			if err := device(i, b); err != nil {
				return nil, err
			}
		}
	}
	return bs, nil
}

// holdPart replaces the backend's packaging state by one for part pt with
// tables t (which lack the layout ids, from the backend's layout). The
// caller holds b.mu and has made b.run.
func (b *Backend) holdPart(pt *partition.Part, t cuda.PartTables, labels bool) error {
	if b.part != nil {
		err := b.part.pr.Close()
		b.part = nil
		if err != nil {
			return err
		}
	}
	t.LocalLid, t.GhostLid = b.l.Perm[:pt.NumLocal], b.l.Perm[pt.NumLocal:]
	pr, err := cuda.NewPartRun(b.run, t)
	if err != nil {
		return err
	}
	b.part = &heldPart{pt: pt, labels: labels, pr: pr}
	return nil
}

// partTables returns every part's tables but the layout ids (which the
// part's backend's layout gives): owners' ghost ranges, how many messages
// each part can receive in a superstep (the ghost copies of its vertices
// elsewhere), and the collection's ranges (partRanges). With labels the
// original ids are included (CC).
func partTables(parts []*partition.Part, labels bool) ([]cuda.PartTables, error) {
	n := len(parts)
	ts := make([]cuda.PartTables, n)
	for i, pt := range parts {
		starts := make([]uint64, n+1)
		for g, o := range pt.GhostOwner {
			if int(o) >= n || int(o) == i {
				return nil, fmt.Errorf("part %d: ghost %d is owned by part %d", i, g, o)
			}
			if g > 0 && o < pt.GhostOwner[g-1] {
				return nil, fmt.Errorf("part %d: ghosts are not ordered by owner (ghost %d)", i, g)
			}
			starts[o+1]++
		}
		for q := range n {
			starts[q+1] += starts[q]
		}
		ts[i] = cuda.PartTables{Index: i, Parts: n, GhostOwner: pt.GhostOwner, GhostRemote: pt.GhostRemote, OwnerStart: starts,
			PartRanges: partRanges(parts, i)}
		if labels {
			ts[i].Global = pt.Global
		}
	}
	for i := range parts {
		for q := range parts {
			if q != i {
				ts[i].RecvCap += ts[q].OwnerStart[i+1] - ts[q].OwnerStart[i]
			}
		}
	}
	return ts, nil
}

// ncclLink is partLink over NCCL, one rank per part.
type ncclLink struct{ ranks []*cuda.NCCLRank }

func (l ncclLink) exchange(ctx context.Context, d *devicePart, c cuda.PartCounters) (uint64, error) {
	if err := ctx.Err(); err != nil { // NCCL's calls cannot be cancelled
		return 0, err
	}
	return d.pr.ExchangeNCCL(l.ranks[d.rank], c)
}

func (l ncclLink) collect(ctx context.Context, d *devicePart) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.pr.CollectNCCL(l.ranks[d.rank])
}

func (l ncclLink) broadcast(ctx context.Context, d *devicePart) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.pr.BroadcastNCCL(l.ranks[d.rank])
}

func (l ncclLink) reduce(ctx context.Context, d *devicePart) (cuda.PartCounters, error) {
	if err := ctx.Err(); err != nil {
		return cuda.PartCounters{}, err
	}
	return d.pr.ReduceNCCL(l.ranks[d.rank])
}

// DeviceParts implements partition.DeviceExchanger: part i must be on
// rank i's GPU.
func (x *NCCLExchanger) DeviceParts(parts []*partition.Part, backends []engine.Backend, prog engine.Program[uint32], opts engine.RunOptions) ([]partition.DevicePart, error) {
	dps, err := x.makeDeviceParts(parts, backends, prog, opts)
	return wrapParts(dps, err, asDevicePart)
}

// makeDeviceParts makes the device parts of a run over NCCL (part i on
// rank i's GPU): the min programs' and the state apps'.
func (x *NCCLExchanger) makeDeviceParts(parts []*partition.Part, backends []engine.Backend, prog engine.Program[uint32], opts engine.RunOptions) ([]*devicePart, error) {
	if err := x.fits(parts); err != nil {
		return nil, err
	}
	return newDeviceParts(parts, backends, prog, opts, ncclLink{x.ranks}, x.onRank)
}

// fits checks that the exchanger has one rank per part.
func (x *NCCLExchanger) fits(parts []*partition.Part) error {
	if len(parts) != len(x.ranks) {
		return fmt.Errorf("nccl exchanger: %d ranks for %d parts", len(x.ranks), len(parts))
	}
	return nil
}

// onRank checks that part i's backend b is on rank i's GPU.
func (x *NCCLExchanger) onRank(i int, b *Backend) error {
	if got, want := b.dl.Device().Ordinal(), x.ranks[i].Device().Ordinal(); got != want {
		return fmt.Errorf("nccl exchanger: part %d is on GPU %d but its rank on GPU %d", i, got, want)
	}
	return nil
}

var _ partition.DeviceExchanger = (*NCCLExchanger)(nil)

// PeerExchanger is partition.DeviceExchanger for parts on any GPUs of this
// process, several on one GPU included: each part copies the messages
// addressed to it out of the other parts' send buffers (cudaMemcpy on one
// GPU, cudaMemcpyPeer between two, with direct peer access enabled where
// the GPUs allow it), and the frontier sizes are summed on
// the host. Between GPUs with one part each, NCCLExchanger is the faster
// choice. Parts whose backends are not this package's run on the host,
// through the embedded MemExchanger: make a new PeerExchanger per run.
type PeerExchanger struct {
	*partition.MemExchanger
}

var _ partition.DeviceExchanger = (*PeerExchanger)(nil)

// NewPeerExchanger returns a peer exchanger between parts ranks.
func NewPeerExchanger(parts int) *PeerExchanger {
	return &PeerExchanger{MemExchanger: partition.NewMemExchanger(parts)}
}

// prepare checks that the exchanger has a rank per part and lets the GPUs
// of the CUDA backends among backends access each other's memory directly
// (cuda.EnablePeerAccess), so that the copies between parts on different
// GPUs go over NVLink or PCIe instead of through host memory: what every
// run over peer copies (DeviceParts, RankParts, BCParts) does first.
func (x *PeerExchanger) prepare(parts []*partition.Part, backends []engine.Backend) error {
	if len(parts) != x.Parts() {
		return fmt.Errorf("peer exchanger: %d ranks for %d parts", x.Parts(), len(parts))
	}
	var devs []int
	for _, b := range backends {
		if g, ok := b.(*Backend); ok {
			if d := g.dl.Device().Ordinal(); !slices.Contains(devs, d) {
				devs = append(devs, d)
			}
		}
	}
	if len(devs) < 2 {
		return nil
	}
	if _, err := cuda.EnablePeerAccess(devs); err != nil {
		return fmt.Errorf("peer exchanger: %w", err)
	}
	return nil
}

// DeviceParts implements partition.DeviceExchanger.
func (x *PeerExchanger) DeviceParts(parts []*partition.Part, backends []engine.Backend, prog engine.Program[uint32], opts engine.RunOptions) ([]partition.DevicePart, error) {
	dps, err := x.makeDeviceParts(parts, backends, prog, opts)
	return wrapParts(dps, err, asDevicePart)
}

// makeDeviceParts makes the device parts of a run over peer copies.
func (x *PeerExchanger) makeDeviceParts(parts []*partition.Part, backends []engine.Backend, prog engine.Program[uint32], opts engine.RunOptions) ([]*devicePart, error) {
	if err := x.prepare(parts, backends); err != nil {
		return nil, err
	}
	return newDeviceParts(parts, backends, prog, opts, newPeerLink(len(parts)), nil)
}

// newPeerLink returns a peer link between parts parts (its parts set
// by newDeviceParts).
func newPeerLink(parts int) *peerLink {
	return &peerLink{bar: partition.NewBarrier(parts), counters: make([]cuda.PartCounters, parts),
		next: make([]uint64, parts), edges: make([]uint64, parts)}
}

// peerLink is partLink by copies between the parts' buffers: each part
// posts its counters, and after a barrier copies its messages from every
// other part's send segment for it. The reduce's barrier keeps every send
// buffer unchanged until all copies are done (the next Pack comes after
// it), and the next exchange's keeps the posted sizes until all have read
// them.
type peerLink struct {
	bar      *partition.Barrier
	parts    []*devicePart
	counters []cuda.PartCounters
	next     []uint64
	edges    []uint64
}

func (l *peerLink) exchange(ctx context.Context, d *devicePart, c cuda.PartCounters) (uint64, error) {
	l.counters[d.rank] = c
	if err := l.bar.Wait(ctx); err != nil {
		return 0, err
	}
	var at uint64
	for q, src := range l.parts {
		if q == d.rank {
			continue
		}
		first, count := src.pr.SendSegment(l.counters[q], d.rank)
		if err := d.pr.CopyFromPeer(src.pr, first, count, at); err != nil {
			return 0, fmt.Errorf("from part %d: %w", q, err)
		}
		at += count
	}
	return at, nil
}

// collect: after a barrier (every part has gathered), each part copies the
// values in its range from the others' gathered ones, which stay
// unchanged until the run has ended (as peerRankLink's).
func (l *peerLink) collect(ctx context.Context, d *devicePart) error {
	return fromPeers(ctx, l.bar, d.rank, len(l.parts), func(q int) error { return d.pr.CollectFromPeer(l.parts[q].pr, q) })
}

// broadcast: after a barrier (every part has packed), each part copies
// its ghosts' levels out of their owners' packed ones; a second barrier
// keeps every part from packing again (the next broadcast: the state
// apps broadcast every round) while another still copies.
func (l *peerLink) broadcast(ctx context.Context, d *devicePart) error {
	if err := fromPeers(ctx, l.bar, d.rank, len(l.parts), func(q int) error { return d.pr.BroadcastFromPeer(l.parts[q].pr, q) }); err != nil {
		return err
	}
	return l.bar.Wait(ctx)
}

func (l *peerLink) reduce(ctx context.Context, d *devicePart) (cuda.PartCounters, error) {
	c, err := d.pr.Counters()
	if err != nil {
		return c, err
	}
	l.next[d.rank], l.edges[d.rank] = c.NextCount, c.NextEdges
	if err := l.bar.Wait(ctx); err != nil {
		return c, err
	}
	for q, x := range l.next {
		c.Total += x
		c.TotalEdges += l.edges[q]
	}
	return c, nil
}
