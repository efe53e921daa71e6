package gpu

import (
	"context"
	"fmt"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/partition"
)

// Partitioned HITS and SALSA on the devices (partition.HITSExchanger),
// over the parts' PageRank state (rankPart: its gather, packaging,
// exchange, all-reduce and collection) and cuda.PartRank's HITS steps:
// the authority step is PageRank's gather with the hubs as shares, the
// hub step sums over the owned vertices' out-arcs the authorities each
// owner broadcasts to its ghosts' parts (NCCL, or peer copies).

// hitsPart is partition.HITSPart on a Backend: a rank part (which holds
// the backend's lock) running HITS or SALSA.
type hitsPart struct {
	*rankPart
	salsa  bool
	all    []*hitsPart
	lo, hi uint64 // the part's range of original ids in the results
}

var _ partition.HITSPart = (*hitsPart)(nil)

// exchange moves the ghosts' sums to their owners (the rank part's
// packaging, exchange and unpackaging, without Iterate's overlap), timing
// the phases into rs: HITS's and pr-delta's.
func (d *rankPart) exchange(ctx context.Context, rs *partition.RankStep, clock *partition.PhaseClock) error {
	if err := d.pr.Pack(); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	clock.Lap(&rs.Phases.Pack)
	if err := d.link.exchange(ctx, d, nil); err != nil {
		return fmt.Errorf("exchange: %w", err)
	}
	clock.Lap(&rs.Phases.Exchange)
	if err := d.pr.Unpack(); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	clock.Lap(&rs.Phases.Unpack)
	return nil
}

// reduce adds the part's two partial sums over the parts.
func (d *rankPart) reduce(ctx context.Context, rs *partition.RankStep, clock *partition.PhaseClock) (float64, float64, error) {
	a, b, err := d.link.reduce(ctx, d)
	if err != nil {
		return 0, 0, fmt.Errorf("all-reduce: %w", err)
	}
	clock.Lap(&rs.Phases.Reduce)
	return a, b, nil
}

// broadcast gives every ghost the value its owner packed.
func (d *hitsPart) broadcast(ctx context.Context) error {
	if err := d.pr.HITSBroadcastPack(); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	var err error
	switch l := d.link.(type) {
	case ncclRankLink:
		if err = ctx.Err(); err == nil {
			err = d.pr.HITSBroadcastNCCL(l.ranks[d.rank])
		}
	case *peerRankLink:
		err = fromPeers(ctx, l.bar, d.rank, len(d.all), func(q int) error { return d.pr.HITSBroadcastFromPeer(d.all[q].pr, q) })
	default:
		err = fmt.Errorf("no broadcast over %T", d.link)
	}
	if err != nil {
		return fmt.Errorf("broadcast: %w", err)
	}
	if err := d.pr.HITSBroadcastUnpack(); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	return nil
}

// Start implements partition.HITSPart: a gather of ones counts the
// in-degrees, the counts of the vertices with out- and in-arcs are added
// over the parts, and the start scores are set.
func (d *hitsPart) Start(ctx context.Context, n float64) error {
	var rs partition.RankStep
	clock := partition.NewPhaseClock()
	if err := d.pr.HITSStart(d.salsa); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	if err := d.pr.Gather(); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	if err := d.exchange(ctx, &rs, &clock); err != nil {
		return err
	}
	if err := d.pr.HITSCounts(); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	withOut, withIn, err := d.reduce(ctx, &rs, &clock)
	if err != nil {
		return err
	}
	h0, a0 := 1/n, 1/n
	if d.salsa {
		h0, a0 = inverse(withOut), inverse(withIn)
	}
	if err := d.pr.HITSInit(h0, a0); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	return nil
}

// inverse is 1/x, or 0 for x = 0 (SALSA's start over no vertex).
func inverse(x float64) float64 {
	if x == 0 {
		return 0
	}
	return 1 / x
}

// Iterate implements partition.HITSPart: the authority step (the gather
// of the hubs' shares, their exchange, their sum over the parts and the
// new authorities), the broadcast of what the hub step reads of them, and
// the hub step (the sums over the out-arcs, their total over the parts
// and the new hubs). HITS divides each score by its sum; SALSA does not.
func (d *hitsPart) Iterate(ctx context.Context) (float64, float64, partition.RankStep, error) {
	rs := partition.RankStep{Sent: 2 * d.pt.NumGhosts} // a sum per ghost to its owner, a value per ghost from it
	clock := partition.NewPhaseClock()
	fail := func(err error) (float64, float64, partition.RankStep, error) { return 0, 0, rs, err }
	if err := d.pr.HITSShare(); err != nil {
		return fail(fmt.Errorf("cuda backend: %w", err))
	}
	if err := d.pr.Gather(); err != nil {
		return fail(fmt.Errorf("cuda backend: %w", err))
	}
	clock.Lap(&rs.Compute)
	if err := d.exchange(ctx, &rs, &clock); err != nil {
		return fail(err)
	}
	if err := d.pr.HITSAccSum(); err != nil {
		return fail(fmt.Errorf("cuda backend: %w", err))
	}
	clock.Lap(&rs.Compute)
	aSum, _, err := d.reduce(ctx, &rs, &clock)
	if err != nil {
		return fail(err)
	}
	if err := d.pr.HITSAuthorities(d.scale(aSum)); err != nil {
		return fail(fmt.Errorf("cuda backend: %w", err))
	}
	clock.Lap(&rs.Compute)
	if err := d.broadcast(ctx); err != nil {
		return fail(err)
	}
	clock.Lap(&rs.Phases.Exchange)
	if err := d.pr.HITSHubs(); err != nil {
		return fail(fmt.Errorf("cuda backend: %w", err))
	}
	clock.Lap(&rs.Compute)
	hSum, authChange, err := d.reduce(ctx, &rs, &clock)
	if err != nil {
		return fail(err)
	}
	if err := d.pr.HITSApplyHubs(d.scale(hSum)); err != nil {
		return fail(fmt.Errorf("cuda backend: %w", err))
	}
	clock.Lap(&rs.Compute)
	hubChange, _, err := d.reduce(ctx, &rs, &clock)
	if err != nil {
		return fail(err)
	}
	return hubChange, authChange, rs, nil
}

// scale is what a score is multiplied by: 1/sum for HITS (1 when the sum
// is 0), 1 for SALSA.
func (d *hitsPart) scale(sum float64) float64 {
	if d.salsa || sum == 0 {
		return 1
	}
	return 1 / sum
}

// hitsScores is a rank part's collection of its hubs or authorities
// (collectRanges' rangeCollector).
type hitsScores struct {
	pr   *cuda.PartRank
	hubs bool
}

func (c hitsScores) GatherOwned() error              { return c.pr.HITSGatherOwned(c.hubs) }
func (c hitsScores) CollectOwn() error               { return c.pr.CollectOwn() }
func (c hitsScores) Assemble(result []float64) error { return c.pr.Assemble(result) }

// Collect implements partition.HITSPart: the hubs, then the authorities,
// are collected by ranges into the parts' pinned result (part 0's), and
// each part copies its own range out; an all-reduce between the two keeps
// a part from gathering the authorities while another still copies its
// hubs (peer copies).
func (d *hitsPart) Collect(ctx context.Context, hubs, authorities []float64) error {
	for k, out := range [][]float64{hubs, authorities} {
		if _, err := collectRanges[float64](hitsScores{d.pr, k == 0}, d.rank, d.result, func() error { return d.link.collect(ctx, d.rankPart) }); err != nil {
			return err
		}
		copy(out[d.lo:d.hi], d.result[d.lo:d.hi])
		if k == 0 {
			if _, _, err := d.link.reduce(ctx, d.rankPart); err != nil {
				return fmt.Errorf("all-reduce: %w", err)
			}
		}
	}
	return nil
}

// hitsParts makes the HITS parts of a run over the rank parts ds.
func hitsParts(ds []*rankPart, err error, salsa bool) ([]partition.HITSPart, error) {
	if ds == nil || err != nil {
		return nil, err
	}
	hs := make([]*hitsPart, len(ds))
	np := uint64(len(ds))
	for i, d := range ds {
		n := d.pt.NumVertices
		hs[i] = &hitsPart{rankPart: d, salsa: salsa, all: hs, lo: uint64(i) * n / np, hi: uint64(i+1) * n / np}
	}
	return wrapParts(hs, nil, func(h *hitsPart) partition.HITSPart { return h })
}

// HITSParts implements partition.HITSExchanger: part i must be on rank
// i's GPU.
func (x *NCCLExchanger) HITSParts(parts []*partition.Part, backends []engine.Backend, salsa bool) ([]partition.HITSPart, error) {
	ds, err := x.makeRankParts(parts, backends)
	return hitsParts(ds, err, salsa)
}

// HITSParts implements partition.HITSExchanger.
func (x *PeerExchanger) HITSParts(parts []*partition.Part, backends []engine.Backend, salsa bool) ([]partition.HITSPart, error) {
	ds, err := x.makeRankParts(parts, backends)
	return hitsParts(ds, err, salsa)
}

var (
	_ partition.HITSExchanger = (*NCCLExchanger)(nil)
	_ partition.HITSExchanger = (*PeerExchanger)(nil)
)
