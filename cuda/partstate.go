package cuda

import (
	"fmt"
	"unsafe"
)

// MIS, colouring and k-core over parts on the devices (partstate.cu):
// the state of every vertex is the part's values (the MinRun's), which
// the rounds broadcast from owners to ghosts as a BFS tree's levels are
// (HoldTree's tables, BroadcastPack, the link, BroadcastUnpack); k-core's
// decrements for ghosts go to their owners as the superstep's messages
// (StatePeel, the exchange, StateUnpack). The host sees counters only.

// StateUnset is MG_STATE_UNSET: the state of a vertex still live
// (k-core) or undecided (MIS, colouring).
const StateUnset = ^uint32(0)

// The steps of mg_part_state_step (MG_STATE_*).
const (
	stateStartMIS   = 1
	stateStartKCore = 2
	stateMark       = 3
	stateMarkColour = 4
	stateJoin       = 5
	stateExclude    = 6
	stateColour     = 7
	stateCompact    = 8
	statePeel       = 9
	stateUnpack     = 10
)

// partState mirrors mg_part_state: device addresses as uintptr (see
// dlayout).
type partState struct {
	offsets, dst, orig      uintptr
	state, deg              uintptr
	win                     uintptr
	list, nextList, removed uintptr
	touched, numTouched     uintptr
	send, recv              uintptr
}

// stateRun is a part's MIS, colouring or k-core state beside its
// packaging state: the degrees, the winners' flags, the lists of live
// (undecided) owned vertices, current and next, and k-core's removed
// ones and the ghosts they touched. Made on first use (StateStart) and
// kept with the part.
type stateRun struct {
	deg        *Buffer[uint32]
	win        *Buffer[uint8]
	lists      [2]*Buffer[uint32] // the current list and the next
	removed    *Buffer[uint32]
	touched    *Buffer[uint32]
	numTouched *Buffer[uint64]
	cur        int    // lists[cur] is the current list
	num        uint64 // its entries
}

// bytes is the device memory the state takes (0 before it is made).
func (s *stateRun) bytes() uint64 {
	if s == nil {
		return 0
	}
	return bufBytes(s.deg) + bufBytes(s.win) + bufBytes(s.lists[0]) + bufBytes(s.lists[1]) + bufBytes(s.removed) +
		bufBytes(s.touched) + bufBytes(s.numTouched)
}

// statePrepare allocates the state (once).
func (p *PartRun) statePrepare() error {
	if p.state != nil {
		return nil
	}
	n, nl := int(p.run.n), int(p.desc.numLocal)
	s := &stateRun{}
	var err error
	if s.deg, err = allocPart[uint32](p, "degrees", n); err != nil {
		return err
	}
	if s.win, err = allocPart[uint8](p, "winners' flags", n); err != nil {
		return err
	}
	for i := range s.lists {
		if s.lists[i], err = allocPart[uint32](p, "live vertices' list", nl); err != nil {
			return err
		}
	}
	if s.removed, err = allocPart[uint32](p, "removed vertices' list", nl); err != nil {
		return err
	}
	if s.touched, err = allocPart[uint32](p, "touched ghosts' list", int(p.desc.numGhosts)); err != nil {
		return err
	}
	if s.numTouched, err = allocPart[uint64](p, "touched ghosts' count", 1); err != nil {
		return err
	}
	p.state = s
	return nil
}

// stateStep runs step op over num items with argument a
// (mg_part_state_step).
func (p *PartRun) stateStep(op int, num, a uint64) error {
	s, r := p.state, p.run
	if s == nil {
		return invalidf("PartRun.State", "StateStart was not called")
	}
	if !p.holdsTree {
		return invalidf("PartRun.State", "no broadcast tables (HoldTree)")
	}
	args := &partState{offsets: r.dl.desc.sparseOffsets, dst: r.dl.desc.sparseDst, orig: ptrOf(p.origByLid),
		state: ptrOf(r.values), deg: ptrOf(s.deg), win: ptrOf(s.win), list: ptrOf(s.lists[s.cur]),
		nextList: ptrOf(s.lists[1-s.cur]), removed: ptrOf(s.removed), touched: ptrOf(s.touched),
		numTouched: ptrOf(s.numTouched), send: ptrOf(p.send), recv: ptrOf(p.recv)}
	if err := backendPartStateStep(p.dev.ordinal, unsafe.Pointer(p.tables()), unsafe.Pointer(args), op, num, a, p.ctr.h.p); err != nil {
		return fmt.Errorf("part %d: %w", p.index, err)
	}
	return nil
}

// StateStart begins an MIS or colouring run (or, with kcore, a k-core
// run) on the part: every owned vertex undecided (live) and listed, its
// degree its row's length (k-core: its distinct neighbours other than
// itself). HoldTree must have run. Colouring then broadcasts the degrees
// (StateBroadcastPack, the link, StateBroadcastUnpack).
func (p *PartRun) StateStart(kcore bool) error {
	if err := p.statePrepare(); err != nil {
		return err
	}
	p.state.cur, p.state.num = 0, p.desc.numLocal
	op := stateStartMIS
	if kcore {
		op = stateStartKCore
	}
	return p.stateStep(op, 0, 0)
}

// StateLive is the number of owned vertices still live or undecided after
// the last compacting step.
func (p *PartRun) StateLive() uint64 {
	if p.state == nil {
		return 0
	}
	return p.state.num
}

// StateMark flags the undecided owned vertices that no undecided
// neighbour beats in the round of seed: in (priority, original id), or
// with colour in (degree, priority, original id).
func (p *PartRun) StateMark(seed uint64, colour bool) error {
	op := stateMark
	if colour {
		op = stateMarkColour
	}
	return p.stateStep(op, p.StateLive(), seed)
}

// StateJoin puts the flagged vertices in the independent set.
func (p *PartRun) StateJoin() error { return p.stateStep(stateJoin, p.StateLive(), 0) }

// StateExclude takes the undecided vertices with a neighbour in the set
// out of it (after the joins' broadcast).
func (p *PartRun) StateExclude() error { return p.stateStep(stateExclude, p.StateLive(), 0) }

// StateColour gives every flagged vertex the smallest colour none of its
// neighbours has.
func (p *PartRun) StateColour() error { return p.stateStep(stateColour, p.StateLive(), 0) }

// stateNext makes the next list current from the step's counters.
func (p *PartRun) stateNext() (PartCounters, error) {
	c, err := p.Counters()
	if err != nil {
		return c, err
	}
	if c.NextCount > p.state.num {
		return c, fmt.Errorf("part %d: %d vertices listed from %d", p.index, c.NextCount, p.state.num)
	}
	p.state.cur, p.state.num = 1-p.state.cur, c.NextCount
	return c, nil
}

// StateCompact keeps the undecided vertices listed; the counters'
// NextCount is their number (for the all-reduce).
func (p *PartRun) StateCompact() (PartCounters, error) {
	if err := p.stateStep(stateCompact, p.StateLive(), 0); err != nil {
		return PartCounters{}, err
	}
	return p.stateNext()
}

// StatePeel is k-core's superstep up to the exchange: the live owned
// vertices of degree below k are removed (core number k−1), their live
// owned neighbours lose a degree and their ghost neighbours' decrements
// become messages to the owners. The counters' NextCount is the vertices
// still live, NextEdges those removed (for the all-reduce), Sent the
// messages for each part (in the send buffer at SendSegment).
func (p *PartRun) StatePeel(k uint32) (PartCounters, error) {
	if err := p.stateStep(statePeel, p.StateLive(), uint64(k)); err != nil {
		return PartCounters{}, err
	}
	c, err := p.stateNext()
	if err == nil && c.NextEdges+c.NextCount > p.desc.numLocal {
		err = fmt.Errorf("part %d: %d vertices removed and %d live of %d", p.index, c.NextEdges, c.NextCount, p.desc.numLocal)
	}
	return c, err
}

// StateUnpack lowers the degrees of the live owned vertices by the counts
// received (the first received messages of the receive buffer); the
// counters' Bad (CheckCounters, after the all-reduce) counts messages for
// vertices the part does not own.
func (p *PartRun) StateUnpack(received uint64) error { return p.stateStep(stateUnpack, received, 0) }

// StateBroadcastPack packs, for the parts that hold them as ghosts, the
// states of the part's boundary vertices (or with degrees their degrees),
// as BroadcastPack does the levels.
func (p *PartRun) StateBroadcastPack(degrees bool) error {
	if p.state == nil {
		return invalidf("PartRun.StateBroadcastPack", "StateStart was not called")
	}
	return p.broadcastPack(p.stateValues(degrees))
}

// StateBroadcastUnpack gives every ghost the state (degree) its owner
// sent.
func (p *PartRun) StateBroadcastUnpack(degrees bool) error {
	if p.state == nil {
		return invalidf("PartRun.StateBroadcastUnpack", "StateStart was not called")
	}
	return backendPartBcastUnpack(p.dev.ordinal, unsafe.Pointer(p.tables()), p.send.h.p, p.stateValues(degrees), nil, nil, 0)
}

// stateValues is the array a state broadcast moves: the states, or the
// degrees.
func (p *PartRun) stateValues(degrees bool) unsafe.Pointer {
	if degrees {
		return p.state.deg.h.p
	}
	return p.run.values.h.p
}
