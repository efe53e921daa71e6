package gpu

import (
	"context"
	"fmt"
	"time"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/partition"
)

// k-core, MIS and colouring over parts on the devices
// (partition.StateExchanger), over a device part's packaging state
// (devicePart, cuda.PartRun's State steps): the states are the part's
// MinRun values; MIS and colouring broadcast them from owners to ghosts
// after every change (the BFS tree's broadcast), k-core sends its
// ghosts' decrements to their owners as a superstep's messages (the
// exchange of a min program's updates), and the all-reduce of the
// counters says when the run ends.

// statePart is partition.StatePart on a Backend: a device part (which
// holds the backend's lock) running k-core, MIS or colouring.
type statePart struct {
	*devicePart
	kcore, colour bool
}

var _ partition.StatePart = (*statePart)(nil)

// broadcast gives every ghost its owner's state (or, with degrees, its
// degree), timing it into ds's exchange.
func (d *statePart) broadcast(ctx context.Context, degrees bool, ds *partition.DeviceStep) error {
	clock := partition.NewPhaseClock()
	if err := d.pr.StateBroadcastPack(degrees); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	if err := d.link.broadcast(ctx, d.devicePart); err != nil {
		return fmt.Errorf("broadcast: %w", err)
	}
	if err := d.pr.StateBroadcastUnpack(degrees); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	ds.Sent += d.pt.NumGhosts // what the part received: the other parts' sends, added over the parts
	clock.Lap(&ds.Phases.Exchange)
	return nil
}

// Start implements partition.StatePart.
func (d *statePart) Start(ctx context.Context) error {
	if err := d.holdTree(); err != nil {
		return err
	}
	if err := d.pr.StateStart(d.kcore); err != nil {
		return fmt.Errorf("cuda backend: %w", err)
	}
	if d.colour {
		var ds partition.DeviceStep
		return d.broadcast(ctx, true, &ds)
	}
	return nil
}

// Round implements partition.StatePart: the winners are marked against
// the states as last broadcast; MIS's join, are broadcast, and their
// undecided neighbours leave (broadcast too); colouring's take their
// colours (broadcast). The undecided vertices are then listed again and
// counted over the parts.
func (d *statePart) Round(ctx context.Context, seed uint64) (uint64, partition.DeviceStep, error) {
	var ds partition.DeviceStep
	start := time.Now()
	if err := d.pr.StateMark(seed, d.colour); err != nil {
		return 0, ds, fmt.Errorf("cuda backend: %w", err)
	}
	if d.colour {
		if err := d.pr.StateColour(); err != nil {
			return 0, ds, fmt.Errorf("cuda backend: %w", err)
		}
	} else if err := d.pr.StateJoin(); err != nil {
		return 0, ds, fmt.Errorf("cuda backend: %w", err)
	}
	ds.Compute += time.Since(start)
	if err := d.broadcast(ctx, false, &ds); err != nil {
		return 0, ds, err
	}
	if !d.colour {
		start = time.Now()
		if err := d.pr.StateExclude(); err != nil {
			return 0, ds, fmt.Errorf("cuda backend: %w", err)
		}
		ds.Compute += time.Since(start)
		if err := d.broadcast(ctx, false, &ds); err != nil {
			return 0, ds, err
		}
	}
	start = time.Now()
	if _, err := d.pr.StateCompact(); err != nil {
		return 0, ds, fmt.Errorf("cuda backend: %w", err)
	}
	ds.Compute += time.Since(start)
	clock := partition.NewPhaseClock()
	c, err := d.link.reduce(ctx, d.devicePart)
	if err != nil {
		return 0, ds, fmt.Errorf("all-reduce: %w", err)
	}
	clock.Lap(&ds.Phases.Reduce)
	ds.Next, ds.Total = c.NextCount, c.Total
	return c.Total, ds, nil
}

// Peel implements partition.StatePart: the live vertices of degree below
// k are removed, their live owned neighbours lose a degree at once and
// their ghost neighbours one a message to the owner (packed with the peel,
// exchanged and unpacked); then the removed and live vertices are counted
// over the parts. The packaging's time is in the compute's.
func (d *statePart) Peel(ctx context.Context, k uint32) (uint64, uint64, partition.DeviceStep, error) {
	var ds partition.DeviceStep
	fail := func(err error) (uint64, uint64, partition.DeviceStep, error) { return 0, 0, ds, err }
	start := time.Now()
	c, err := d.pr.StatePeel(k)
	if err != nil {
		return fail(fmt.Errorf("cuda backend: %w", err))
	}
	ds.Compute = time.Since(start)
	if c, err = d.deliver(ctx, c, d.pr.StateUnpack, &ds); err != nil {
		return fail(err)
	}
	ds.Next, ds.Total = c.NextCount, c.Total
	return c.TotalEdges, c.Total, ds, nil
}

// stateParts makes the state parts of app over the device parts dps.
func stateParts(dps []*devicePart, err error, app string) ([]partition.StatePart, error) {
	return wrapParts(dps, err, func(d *devicePart) partition.StatePart {
		return &statePart{devicePart: d, kcore: app == "kcore", colour: app == "color"}
	})
}

// stateProgram is the min program whose device state the state parts
// take (BFS's: its values are the states; no iteration of it runs).
func stateProgram(app string, backends []engine.Backend) (engine.Program[uint32], engine.RunOptions, error) {
	switch app {
	case "kcore", "mis", "color":
	default:
		return nil, engine.RunOptions{}, fmt.Errorf("no device parts for %s", app)
	}
	for _, b := range backends {
		if l := b.Layout(); l.NumVertices > 0 {
			prog, err := apps.TraversalProgram("bfs", l)
			return prog, engine.RunOptions{Mode: engine.Hybrid, NoPull: true}, err
		}
	}
	return nil, engine.RunOptions{}, fmt.Errorf("%s: no part has a vertex", app)
}

// StateParts implements partition.StateExchanger: part i must be on rank
// i's GPU.
func (x *NCCLExchanger) StateParts(parts []*partition.Part, backends []engine.Backend, app string) ([]partition.StatePart, error) {
	prog, opts, err := stateProgram(app, backends)
	if err != nil {
		return nil, err
	}
	dps, err := x.makeDeviceParts(parts, backends, prog, opts)
	return stateParts(dps, err, app)
}

// StateParts implements partition.StateExchanger.
func (x *PeerExchanger) StateParts(parts []*partition.Part, backends []engine.Backend, app string) ([]partition.StatePart, error) {
	prog, opts, err := stateProgram(app, backends)
	if err != nil {
		return nil, err
	}
	dps, err := x.makeDeviceParts(parts, backends, prog, opts)
	return stateParts(dps, err, app)
}

var (
	_ partition.StateExchanger = (*NCCLExchanger)(nil)
	_ partition.StateExchanger = (*PeerExchanger)(nil)
)
