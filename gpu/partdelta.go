package gpu

import (
	"context"
	"fmt"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/partition"
)

// Partitioned pr-delta on the devices (partition.DeltaExchanger), over the
// parts' PageRank state (rankPart: its gather, packaging, exchange,
// all-reduce and collection) and cuda.PartRank's Delta steps: a
// superstep gathers the active vertices' shares (the others' are 0),
// sends the ghosts' sums to their owners and applies them; the absorbed
// masses are the PageRank state's ranks, divided by their total before
// the collection.

// deltaPart is partition.DeltaPart on a Backend: a rank part (which holds
// the backend's lock) running pr-delta.
type deltaPart struct {
	*rankPart
	damping, eps float64
}

var _ partition.DeltaPart = (*deltaPart)(nil)

// Start implements partition.DeltaPart.
func (d *deltaPart) Start() error {
	if err := d.pr.DeltaStart(d.damping); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	return nil
}

// Superstep implements partition.DeltaPart.
func (d *deltaPart) Superstep(ctx context.Context) (uint64, uint64, partition.RankStep, error) {
	rs := partition.RankStep{Sent: d.pt.NumGhosts} // a sum per ghost to its owner
	clock := partition.NewPhaseClock()
	fail := func(err error) (uint64, uint64, partition.RankStep, error) { return 0, 0, rs, err }
	if err := d.pr.Gather(); err != nil {
		return fail(fmt.Errorf("cuda backend: %w", err))
	}
	clock.Lap(&rs.Compute)
	if err := d.exchange(ctx, &rs, &clock); err != nil {
		return fail(err)
	}
	if err := d.pr.DeltaApply(d.damping, d.eps); err != nil {
		return fail(fmt.Errorf("cuda backend: %w", err))
	}
	own, _, err := d.pr.Sums() // the part's active vertices, for its stats
	if err != nil {
		return fail(fmt.Errorf("cuda backend: %w", err))
	}
	clock.Lap(&rs.Compute)
	total, _, err := d.reduce(ctx, &rs, &clock)
	if err != nil {
		return fail(err)
	}
	return uint64(own), uint64(total), rs, nil
}

// Collect implements partition.DeltaPart: the masses absorbed are added
// over the parts, every owned one divided by their total, and the ranks
// collected as PageRank's.
func (d *deltaPart) Collect(ctx context.Context) ([]float64, error) {
	if err := d.pr.DeltaMass(); err != nil {
		return nil, fmt.Errorf("cuda backend: %w", err)
	}
	mass, _, err := d.link.reduce(ctx, d.rankPart)
	if err != nil {
		return nil, fmt.Errorf("all-reduce: %w", err)
	}
	if mass > 0 {
		if err := d.pr.DeltaScale(1 / mass); err != nil {
			return nil, fmt.Errorf("cuda backend: %w", err)
		}
	}
	return d.rankPart.Collect(ctx)
}

// deltaParts makes the pr-delta parts of a run, with opts' damping and
// tolerance, over the rank parts ds.
func deltaParts(ds []*rankPart, err error, opts partition.RankOptions) ([]partition.DeltaPart, error) {
	eps := opts.Tolerance * (1 - opts.Damping)
	return wrapParts(ds, err, func(d *rankPart) partition.DeltaPart {
		return &deltaPart{rankPart: d, damping: opts.Damping, eps: eps}
	})
}

// DeltaParts implements partition.DeltaExchanger: part i must be on rank
// i's GPU.
func (x *NCCLExchanger) DeltaParts(parts []*partition.Part, backends []engine.Backend, opts partition.RankOptions) ([]partition.DeltaPart, error) {
	ds, err := x.makeRankParts(parts, backends)
	return deltaParts(ds, err, opts)
}

// DeltaParts implements partition.DeltaExchanger.
func (x *PeerExchanger) DeltaParts(parts []*partition.Part, backends []engine.Backend, opts partition.RankOptions) ([]partition.DeltaPart, error) {
	ds, err := x.makeRankParts(parts, backends)
	return deltaParts(ds, err, opts)
}

var (
	_ partition.DeltaExchanger = (*NCCLExchanger)(nil)
	_ partition.DeltaExchanger = (*PeerExchanger)(nil)
)
