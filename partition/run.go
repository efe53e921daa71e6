package partition

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// Apps lists the programs Run executes.
var Apps = []string{"bfs", "bfs-tree", "sssp", "cc", "cc-lp"}

// RunOptions configure Run.
type RunOptions struct {
	// Engine are the options of every part's runner: Mode (hybrid, dense
	// or sparse; auto runs as hybrid, async is refused: it has no
	// iterations to exchange between), SampleRate, Seed, NoPull.
	// MaxIterations and Trace are ignored: a superstep is one iteration.
	Engine engine.RunOptions
	// MaxSupersteps stops the run after that many supersteps (0: run to
	// convergence). For bfs it is a depth limit, as
	// engine.RunOptions.MaxIterations on one backend.
	MaxSupersteps int
	// Exchanger moves the updates between the parts; nil uses a new
	// MemExchanger. It must have one rank per part and not have been used
	// by a failed run. A DeviceExchanger keeps the run on the parts'
	// devices when it can (DeviceExchanger.DeviceParts).
	Exchanger Exchanger
	// HostExchange packages and unpackages on the host even when the
	// Exchanger could keep the run on the devices (to compare the two).
	HostExchange bool
}

// StepStats is what one superstep did, over all parts.
type StepStats struct {
	// Active is the number of frontier vertices, summed over the parts, at
	// the superstep's start.
	Active uint64
	// Messages and Bytes are the updates sent to other parts.
	Messages uint64
	Bytes    uint64
	// Compute is the slowest part's iteration (the parts run in parallel).
	Compute time.Duration
	// Exchange is the rest of the superstep: packaging, the all-to-all,
	// unpackaging, the convergence all-reduce, and waiting for the slowest
	// part (the superstep's longest wall time on any part minus Compute).
	Exchange time.Duration
	// Phases is where the superstep's slowest part (the longest wall
	// time) spent the superstep after its compute: with that compute, it
	// adds up to the superstep's time.
	Phases Phases
	// Pull is true when every part pulled (a BFS over the parts of an
	// undirected graph, Beamer's rule over all parts; loopPull).
	Pull bool
}

// Phases is where a part's superstep went after its compute, each phase
// timed on the host around calls that return when their work is done:
// packaging, the exchange (waiting for the other parts included),
// unpackaging and the all-reduce (its waiting included). A path that has
// no such step (the host PageRank reads the other parts' sums in place:
// no packaging) leaves it 0, and BC's runs leave them all 0.
type Phases struct {
	Pack, Exchange, Unpack, Reduce time.Duration
}

// plus returns the phases' sums of p and q.
func (p Phases) plus(q Phases) Phases {
	return Phases{p.Pack + q.Pack, p.Exchange + q.Exchange, p.Unpack + q.Unpack, p.Reduce + q.Reduce}
}

// IsZero reports whether no phase was timed.
func (p Phases) IsZero() bool { return p == Phases{} }

// PhaseClock times a part's phases: each Lap charges the time since the
// last one (or since the clock was made) to the phase it names.
type PhaseClock struct{ last time.Time }

// NewPhaseClock returns a clock started now.
func NewPhaseClock() PhaseClock { return PhaseClock{last: time.Now()} }

// Lap adds the time since the last lap to *phase.
func (c *PhaseClock) Lap(phase *time.Duration) {
	now := time.Now()
	*phase += now.Sub(c.last)
	c.last = now
}

// Stats summarise a Run.
type Stats struct {
	// Supersteps is the number of supersteps run (the last one found every
	// frontier empty and no update in flight, unless MaxSupersteps stopped
	// the run), and Pulled how many of them pulled.
	Supersteps, Pulled int
	// Converged is false when MaxSupersteps stopped the run first.
	Converged bool
	// Steps has one entry per superstep.
	Steps []StepStats
	// Messages, Bytes, Compute, Exchange and Phases are the sums over
	// Steps.
	Messages uint64
	Bytes    uint64
	Compute  time.Duration
	Exchange time.Duration
	Phases   Phases
	// PartCompute is each part's total iteration time (its load).
	PartCompute []time.Duration
	// Setup is the slowest part's preparation before the first superstep
	// (its initial values and frontier; on the devices, also taking its
	// buffers), and Collect the slowest part's share of bringing the
	// result to the host in original ids after the last one.
	Setup, Collect time.Duration
	// Parents is bfs-tree's pass after the BFS that turns levels into
	// parents (the slowest part's: two exchanges and a pass over its arcs).
	Parents time.Duration
}

// Run executes app ("bfs", "bfs-tree" and "sssp" from source, in original
// ids; "cc" and "cc-lp", source ignored) over parts, part i on
// backends[i] (whose layout must be built from parts[i].EL), and returns
// every vertex's value in the original numbering: BFS levels and SSSP
// distances (apps.Unreached for vertices not reached) and CC labels (the
// smallest original id of the component), exactly as apps.BFS, apps.SSSP
// and apps.CC give them on one backend. For bfs-tree it returns every
// vertex's BFS parent (see parents), a valid tree as apps.BFSParents
// gives one (the source its own parent, an unreached vertex
// apps.Unreached); of the valid parents it is the smallest original id,
// where apps.BFSParents takes the first in its layout's order. On device
// parts of an undirected graph the parents are found on the devices
// (DevicePart.Parents: the first neighbour one level up in the part's
// layout order, a valid tree too); a directed graph's tree runs on the
// host path. With a DeviceExchanger that keeps the run on
// the devices, the result may be host memory the parts reuse (see
// DevicePart.Collect): valid until their next run.
//
// The run is bulk-synchronous (Gunrock's iteration loop, §4.2). One
// goroutine per part (one worker per GPU) repeats supersteps:
//
//  1. compute: the part runs one iteration of the program from its
//     frontier on its backend (engine.Runner with MaxIterations 1); values
//     stay in place between supersteps;
//  2. packaging: every ghost whose value went down since the last exchange
//     becomes a Message (the vertex's id in its owner, the value) for its
//     owner; the owned vertices whose value went down form the next
//     frontier;
//  3. exchange: Exchanger.AllToAll delivers the messages;
//  4. unpackaging: the owner min-combines each received value into its
//     vertex and adds the vertices it lowered to the next frontier;
//  5. convergence: Exchanger.AllReduceSum of the next frontiers' sizes;
//     the run ends when it is zero (no frontier holds a vertex and, every
//     message having been unpackaged, none is in flight).
//
// The engine's Runner does not hand back the frontier an iteration makes
// (Run iterates on a copy of the pointer), so step 2 finds it by comparing
// values with those after the last exchange: for these min programs a
// vertex is active next exactly when its value went down. That costs one
// pass over the part's vertices per superstep.
//
// cc-lp runs as label propagation over original ids (labels cross parts),
// not apps' program, whose pointer jumping indexes labels as layout ids
// of one graph. The programs of BFS and SSSP are apps' (apps.Traversal).
// cc replaces the iterations by hooking (FromHooks), whatever the mode,
// as on one GPU, on device parts and on CPU parts (the host path, when
// every backend is a hooker; GPU parts on the host path propagate
// labels): the first superstep links each part's components, the later
// ones spread the labels the exchange lowered through them, so that a
// superstep after the first passes over the vertices, not the arcs, and
// the labels cross the cut in a few supersteps instead of one a hop.
//
// Run fails on inconsistent parts and backends, an unknown app, a source
// outside the graph, sssp without weights, cc on a directed graph, mode
// async, an error of any part or of the exchanger (the other parts are then
// stopped), and when ctx is cancelled.
func Run(ctx context.Context, app string, parts []*Part, backends []engine.Backend, source uint32, opts RunOptions) ([]uint32, Stats, error) {
	var st Stats
	method := app // cc-lp runs as cc but for the device parts' start
	fail := func(err error) ([]uint32, Stats, error) {
		return nil, st, fmt.Errorf("partition: run %s: %w", method, err)
	}
	if err := checkParts(parts, backends); err != nil {
		return fail(err)
	}
	n := parts[0].NumVertices
	eopts := opts.Engine
	switch eopts.Mode {
	case engine.Async:
		return fail(fmt.Errorf("mode async has no iterations to exchange between; use hybrid, dense or sparse"))
	case engine.Auto:
		eopts.Mode = engine.Hybrid
	}
	eopts.MaxIterations, eopts.Trace = 1, false
	if opts.MaxSupersteps < 0 {
		return fail(fmt.Errorf("negative superstep cap %d", opts.MaxSupersteps))
	}
	tree := app == "bfs-tree"
	if app == "cc-lp" {
		app = "cc" // the same labels and program; method says how to compute them (startOf)
	}
	progApp := app
	if tree {
		progApp = "bfs"
	}
	prog, err := programFor(progApp, parts, backends)
	if err != nil {
		return fail(err)
	}
	srcPart := -1
	var srcLocal uint32
	if app != "cc" {
		if uint64(source) >= n {
			return fail(fmt.Errorf("source %d is not a vertex: the graph has %d vertices", source, n))
		}
		for i, pt := range parts {
			if l, ok := pt.Local(source); ok {
				srcPart, srcLocal = i, l
				break
			}
		}
		if srcPart < 0 {
			return fail(fmt.Errorf("no part owns source %d", source))
		}
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	st.Converged = true
	if n == 0 {
		return []uint32{}, st, nil
	}
	ex := opts.Exchanger
	if ex == nil {
		ex = NewMemExchanger(len(parts))
	}
	if err := checkExchanger(ex, len(parts)); err != nil {
		return fail(err)
	}

	// A BFS tree on the devices takes each vertex's parent from its
	// out-row, which lists every neighbour only when the graph is
	// undirected; a directed one's tree runs on the host path.
	if dx, ok := ex.(DeviceExchanger); ok && !opts.HostExchange && (!tree || !parts[0].Directed) {
		start := time.Now()
		dps, err := dx.DeviceParts(parts, backends, prog, eopts)
		taking := time.Since(start)
		if dps, err = madeParts("device", dps, err, len(parts)); err != nil {
			return fail(err)
		}
		if dps != nil {
			res, st, err := runDevice(ctx, dps, ex, app, startOf(method), srcPart, srcLocal, opts.MaxSupersteps)
			if err != nil {
				return fail(err)
			}
			st.Setup += taking
			return res, st, nil
		}
	}

	out := make([]uint32, n)
	pulls := partsPull(progApp, parts, eopts)
	hooks := startOf(method) == FromHooks
	for _, b := range backends {
		if _, ok := b.(hooker); !ok {
			hooks = false // GPU parts on the host path propagate labels
		}
	}
	workers := make([]*worker, len(parts))
	for i, pt := range parts {
		r, err := backends[i].Uint32Runner(eopts)
		if err != nil {
			return fail(fmt.Errorf("part %d: %w", i, err))
		}
		workers[i] = &worker{rank: i, pt: pt, b: backends[i], l: backends[i].Layout(), run: r, prog: prog,
			send: make([][]Message, len(parts))}
		if hooks {
			workers[i].hooker = backends[i].(hooker)
		}
	}
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	ranksDone := abortOnStop(runCtx, ex)
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			front, active := w.init(app, srcPart, srcLocal)
			w.setup = time.Since(start)
			loop := w.loop
			if pulls {
				loop = func(ctx context.Context, ex Exchanger, maxSteps int, front *engine.Frontier, active uint64) error {
					return w.loopPull(ctx, ex, parts, maxSteps, front, active)
				}
			}
			if err := loop(runCtx, ex, opts.MaxSupersteps, front, active); err != nil {
				w.err = err
				cancel(err)
				return
			}
			if tree {
				start = time.Now()
				if err := w.parents(runCtx, ex, parts); err != nil {
					w.err = fmt.Errorf("part %d: parents: %w", w.rank, err)
					cancel(w.err)
					return
				}
				w.tree = time.Since(start)
			}
			start = time.Now()
			w.gather(out)
			w.collect = time.Since(start)
		}()
	}
	wg.Wait()
	ranksDone()
	if err := runError(ctx, runCtx, workers); err != nil {
		return fail(err)
	}
	st = mergeStats(workers)
	return out, st, nil
}

// runError is why a run over workers failed, once their goroutines are
// done: the caller's cancellation; else the first part's error, which
// cancelled runCtx and so stopped the others; else any part's error; nil
// when none failed.
func runError(ctx, runCtx context.Context, workers []*worker) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if cause := context.Cause(runCtx); cause != nil && !errors.Is(cause, context.Canceled) {
		return cause
	}
	for _, w := range workers {
		if w.err != nil {
			return w.err
		}
	}
	return nil
}

// checkExchanger checks that ex, when there is one, has a rank for each
// of parts parts.
func checkExchanger(ex Exchanger, parts int) error {
	if ex != nil && ex.Parts() != parts {
		return fmt.Errorf("the exchanger has %d ranks for %d parts", ex.Parts(), parts)
	}
	return nil
}

// checkParts reports why parts and backends cannot run together, or nil.
func checkParts(parts []*Part, backends []engine.Backend) error {
	if len(parts) == 0 {
		return fmt.Errorf("no parts")
	}
	if len(backends) != len(parts) {
		return fmt.Errorf("%d backends for %d parts", len(backends), len(parts))
	}
	for i, pt := range parts {
		if pt == nil || backends[i] == nil {
			return fmt.Errorf("part %d or its backend is nil", i)
		}
		if pt.Index != i || pt.NumParts != len(parts) || pt.NumVertices != parts[0].NumVertices {
			return fmt.Errorf("part %d is part %d of %d of a graph of %d vertices; want part %d of %d of one of %d",
				i, pt.Index, pt.NumParts, pt.NumVertices, i, len(parts), parts[0].NumVertices)
		}
		l := backends[i].Layout()
		if l.NumVertices != pt.NumPartVertices() || (pt.EL != nil && l.NumArcs != pt.EL.NumArcs()) {
			return fmt.Errorf("part %d has %d vertices and %d arcs but its backend's layout %d and %d",
				i, pt.NumPartVertices(), arcsOf(pt), l.NumVertices, l.NumArcs)
		}
		if uint64(len(pt.Global)) != pt.NumPartVertices() || uint64(len(pt.GhostOwner)) != pt.NumGhosts ||
			uint64(len(pt.GhostRemote)) != pt.NumGhosts {
			return fmt.Errorf("part %d's conversion tables do not match its %d local and %d ghost vertices",
				i, pt.NumLocal, pt.NumGhosts)
		}
	}
	return nil
}

func arcsOf(pt *Part) uint64 {
	if pt.EL == nil {
		return 0
	}
	return pt.EL.NumArcs()
}

// programFor returns app's program for the parts: apps' BFS and SSSP
// programs, and global-label propagation for CC.
func programFor(app string, parts []*Part, backends []engine.Backend) (engine.Program[uint32], error) {
	switch app {
	case "bfs", "sssp":
		if app == "sssp" {
			for i, b := range backends {
				if !b.Layout().Weighted {
					return nil, fmt.Errorf("sssp needs edge weights, and part %d's graph has none", i)
				}
			}
		}
		for i, b := range backends {
			l := b.Layout()
			if l.NumVertices == 0 {
				continue
			}
			p, err := apps.TraversalProgram(app, l)
			if err != nil {
				return nil, fmt.Errorf("part %d: %w", i, err)
			}
			return p, nil
		}
		return nil, nil // an empty graph: nothing runs
	case "cc":
		if parts[0].Directed {
			return nil, fmt.Errorf("cc needs an undirected graph; symmetrize the directed input (weak components)")
		}
		return labelProgram{}, nil
	}
	return nil, fmt.Errorf("unknown app %q (want bfs, bfs-tree, sssp, cc or cc-lp)", app)
}

// labelProgram is CC by label propagation over labels that are original
// vertex ids: an arc offers its source's label and a vertex takes a smaller
// one and is then active. Unlike apps' CC program it does not jump through
// labels (they are not ids of the part's layout), so its fixed point, the
// smallest original id in each component, is reached in about diameter
// supersteps.
type labelProgram struct{}

var _ engine.Monotone = labelProgram{}

func (labelProgram) Edge() engine.EdgeOp       { return engine.EdgeSource }
func (labelProgram) Combine() engine.CombineOp { return engine.CombineMin }
func (labelProgram) ApplyAll() bool            { return false }
func (labelProgram) Monotone()                 {}

// DeviceKernel names the GPU's plain label propagation (MG_PROG_LABEL).
func (labelProgram) DeviceKernel() string { return "label" }
func (labelProgram) Apply(v uint32, acc uint32, label []uint32) bool {
	if acc < label[v] {
		label[v] = acc
		return true
	}
	return false
}

// worker is one part's side of a run (one GPU's controlling thread).
type worker struct {
	rank    int
	pt      *Part
	b       engine.Backend
	l       *layout.Layout
	run     engine.Runner[uint32]
	prog    engine.Program[uint32]
	values  []uint32 // layout numbering
	prev    []uint32 // values after the last exchange
	flags   [2][]uint8
	send    [][]Message
	steps   []rankStep
	setup   time.Duration // before the first superstep
	collect time.Duration // after the last one
	tree    time.Duration // bfs-tree's parent pass
	done    bool          // the all-reduce found no work left
	err     error
	// hooker, when not nil, runs CC by hooking on the host path (the
	// part's backend links its components: FromHooks); roots is then
	// every layout id's root, nil until the first superstep.
	hooker hooker
	roots  []uint32
}

// hooker is a backend that links the components of its layout's rows
// into a union-find tree, each vertex pointing at the smallest layout id
// of its component (cpu.Backend.HookAll): on the host path, cc hooks when
// every part's backend is one.
type hooker interface {
	HookAll(tree []uint32)
}

// rankStep is one superstep on one part.
type rankStep struct {
	active, sent  uint64
	compute, wall time.Duration
	phases        Phases
	pull          bool
}

// init sets the part's initial values and frontier (in layout numbering)
// and returns the frontier and its size.
func (w *worker) init(app string, srcPart int, srcLocal uint32) (*engine.Frontier, uint64) {
	n := w.l.NumVertices
	w.values = make([]uint32, n)
	w.flags = [2][]uint8{make([]uint8, n), make([]uint8, n)}
	workers := w.b.Workers()
	perm := w.l.Perm
	var front *engine.Frontier
	var active uint64
	if app == "cc" {
		// Every vertex, ghosts included, starts with its original id; the
		// owned ones are active.
		flags := w.flags[0]
		par.For(int(n), workers, 1<<14, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				lid := perm[i]
				w.values[lid] = w.pt.Global[i]
				if uint64(i) < w.pt.NumLocal {
					flags[lid] = 1
				}
			}
		})
		front, active = engine.NewFrontierFlags(flags), w.pt.NumLocal
	} else {
		par.For(int(n), workers, 1<<15, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				w.values[i] = apps.Unreached
			}
		})
		if w.rank == srcPart {
			s := perm[srcLocal]
			w.values[s] = 0
			front, active = engine.NewFrontierList(n, []uint32{s}), 1
		} else {
			front = engine.NewFrontierList(n, nil)
		}
	}
	w.prev = append([]uint32(nil), w.values...)
	return front, active
}

// loop runs supersteps until the all-reduce finds no work left, the cap,
// or an error. front is the first superstep's frontier, of active vertices.
func (w *worker) loop(ctx context.Context, ex Exchanger, maxSteps int, front *engine.Frontier, active uint64) error {
	buf := 1 // the flags buffer the next frontier goes to (0 may hold front)
	for s := 0; maxSteps == 0 || s < maxSteps; s++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		switch {
		case w.hooker != nil:
			if s == 0 || active > 0 {
				w.hookStep(w.flags[1-buf], s == 0)
			}
		case active > 0:
			if _, err := w.run.Run(ctx, w.prog, w.values, front); err != nil {
				return fmt.Errorf("part %d: superstep %d: %w", w.rank, s, err)
			}
		}
		compute := time.Since(start)
		var ph Phases
		clock := NewPhaseClock()
		next := w.flags[buf]
		count, sent, err := w.exchangeUpdates(ctx, ex, next, &clock, &ph)
		if err != nil {
			return fmt.Errorf("part %d: superstep %d: %w", w.rank, s, err)
		}
		total, err := ex.AllReduceSum(ctx, w.rank, count)
		if err != nil {
			return fmt.Errorf("part %d: superstep %d: %w", w.rank, s, err)
		}
		clock.Lap(&ph.Reduce)
		w.steps = append(w.steps, rankStep{active: active, sent: sent, compute: compute, wall: time.Since(start), phases: ph})
		if total == 0 {
			w.done = true
			return nil
		}
		front, active, buf = engine.NewFrontierFlags(next), count, 1-buf
	}
	return nil
}

// exchangeUpdates is a superstep's packaging, exchange and unpackaging,
// each lapped on clock into ph: next (cleared first) gets the owned
// vertices the iteration or the updates lowered, count their number, sent
// the updates this part sent.
func (w *worker) exchangeUpdates(ctx context.Context, ex Exchanger, next []uint8, clock *PhaseClock, ph *Phases) (count, sent uint64, err error) {
	clear(next)
	count, sent = w.pack(next)
	clock.Lap(&ph.Pack)
	recv, err := ex.AllToAll(ctx, w.rank, w.send)
	if err != nil {
		return 0, 0, err
	}
	clock.Lap(&ph.Exchange)
	got, err := w.unpack(recv, next)
	if err != nil {
		return 0, 0, err
	}
	clock.Lap(&ph.Unpack)
	return count + got, sent, nil
}

// pack finds the vertices the iteration lowered: owned ones are flagged in
// next (their number is returned), ghosts become messages to their owners
// in w.send (their number is returned as sent).
func (w *worker) pack(next []uint8) (count, sent uint64) {
	var k atomic.Uint64
	nl := uint32(w.pt.NumLocal)
	inv, values, prev := w.l.InvPerm, w.values, w.prev
	par.For(len(values), w.b.Workers(), 1<<14, func(lo, hi int) {
		var c uint64
		for lid := lo; lid < hi; lid++ {
			if values[lid] < prev[lid] && inv[lid] < nl {
				prev[lid] = values[lid]
				next[lid] = 1
				c++
			}
		}
		k.Add(c)
	})
	for q := range w.send {
		w.send[q] = w.send[q][:0]
	}
	perm := w.l.Perm
	for g, o := range w.pt.GhostOwner {
		lid := perm[uint64(g)+w.pt.NumLocal]
		if v := values[lid]; v < prev[lid] {
			prev[lid] = v
			w.send[o] = append(w.send[o], Message{Vertex: w.pt.GhostRemote[g], Value: v})
			sent++
		}
	}
	return k.Load(), sent
}

// unpack min-combines received updates into the owned vertices and flags
// the ones it lowers that are not flagged yet; it returns their number.
func (w *worker) unpack(recv []Message, next []uint8) (uint64, error) {
	var count uint64
	perm := w.l.Perm
	for _, m := range recv {
		if uint64(m.Vertex) >= w.pt.NumLocal {
			return 0, fmt.Errorf("received an update for vertex %d; the part owns %d", m.Vertex, w.pt.NumLocal)
		}
		lid := perm[m.Vertex]
		if m.Value < w.values[lid] {
			w.values[lid], w.prev[lid] = m.Value, m.Value
			if next[lid] == 0 {
				next[lid] = 1
				count++
			}
		}
	}
	return count, nil
}

// parents turns the part's BFS levels into parents (bfs-tree), after the
// BFS has converged, in three collective steps over ex:
//
//  1. every part sends its boundary vertices' levels to the parts that
//     hold them as ghosts (broadcastLevels, all of them: a ghost's value
//     is only the level the part offered it, which may be too high);
//  2. every arc u→x whose source the part owns, reached, and one level
//     above x offers u (its original id) as x's parent, the smallest offer
//     winning;
//  3. the ghosts' offers go to their owners, which keep the smallest.
//
// An owned vertex's parent is then its smallest offer, the source's itself
// (level 0) and an unreached vertex's apps.Unreached. Every reached vertex
// but the source has an in-neighbour one level up, whose part offers it:
// a vertex left without one is an error.
func (w *worker) parents(ctx context.Context, ex Exchanger, parts []*Part) error {
	pt, l := w.pt, w.l
	perm, inv, values := l.Perm, l.InvPerm, w.values
	nl, n := pt.NumLocal, pt.NumPartVertices()
	if _, err := w.broadcastLevels(ctx, ex, parts, nil); err != nil {
		return err
	}
	offer := make([]uint32, n)
	par.For(int(n), w.b.Workers(), 1<<15, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			offer[i] = apps.Unreached
		}
	})
	offsets, dst := l.SparseOffsets, l.SparseDst
	par.For(int(n), w.b.Workers(), 1<<12, func(lo, hi int) {
		for u := lo; u < hi; u++ {
			local := inv[u]
			lu := values[u]
			if uint64(local) >= nl || lu == apps.Unreached {
				continue
			}
			id := pt.Global[local]
			for _, x := range dst[offsets[u]:offsets[u+1]] {
				if values[x] == lu+1 {
					atomicMin(&offer[x], id)
				}
			}
		}
	})
	for q := range w.send {
		w.send[q] = w.send[q][:0]
	}
	for g := uint64(0); g < pt.NumGhosts; g++ {
		if o := offer[perm[nl+g]]; o != apps.Unreached {
			owner := pt.GhostOwner[g]
			w.send[owner] = append(w.send[owner], Message{Vertex: pt.GhostRemote[g], Value: o})
		}
	}
	recv, err := ex.AllToAll(ctx, w.rank, w.send)
	if err != nil {
		return fmt.Errorf("parent offers: %w", err)
	}
	for _, m := range recv {
		if uint64(m.Vertex) >= nl {
			return fmt.Errorf("received a parent offer for vertex %d; the part owns %d", m.Vertex, nl)
		}
		lid := perm[m.Vertex]
		offer[lid] = min(offer[lid], m.Value)
	}
	for i := uint64(0); i < nl; i++ {
		lid := perm[i]
		switch values[lid] {
		case apps.Unreached:
		case 0:
			values[lid] = pt.Global[i]
		default:
			if offer[lid] == apps.Unreached {
				return fmt.Errorf("vertex %d at level %d has no in-neighbour one level up", pt.Global[i], values[lid])
			}
			values[lid] = offer[lid]
		}
	}
	return nil
}

// atomicMin lowers *p to v if v is smaller.
func atomicMin(p *uint32, v uint32) {
	for {
		old := atomic.LoadUint32(p)
		if v >= old || atomic.CompareAndSwapUint32(p, old, v) {
			return
		}
	}
}

// gather writes the owned vertices' values into out (original numbering).
func (w *worker) gather(out []uint32) {
	perm := w.l.Perm
	for i, orig := range w.pt.Global[:w.pt.NumLocal] {
		out[orig] = w.values[perm[i]]
	}
}

// mergeStats combines the workers' per-superstep records.
func mergeStats(workers []*worker) Stats {
	st := Stats{Converged: workers[0].done, PartCompute: make([]time.Duration, len(workers))}
	steps := len(workers[0].steps)
	for _, w := range workers {
		steps = min(steps, len(w.steps))
	}
	st.Steps = make([]StepStats, steps)
	for s := range st.Steps {
		var wall time.Duration
		ss := &st.Steps[s]
		for r, w := range workers {
			rs := w.steps[s]
			ss.Active += rs.active
			ss.Messages += rs.sent
			ss.Compute = max(ss.Compute, rs.compute)
			if rs.wall > wall {
				wall, ss.Phases = rs.wall, rs.phases
			}
			st.PartCompute[r] += rs.compute
		}
		ss.Pull = workers[0].steps[s].pull
		ss.Bytes = ss.Messages * MessageBytes
		ss.Exchange = max(0, wall-ss.Compute)
		st.Messages += ss.Messages
		st.Bytes += ss.Bytes
		st.Compute += ss.Compute
		st.Exchange += ss.Exchange
		st.Phases = st.Phases.plus(ss.Phases)
		if ss.Pull {
			st.Pulled++
		}
	}
	st.Supersteps = steps
	for _, w := range workers {
		st.Setup = max(st.Setup, w.setup)
		st.Collect = max(st.Collect, w.collect)
		st.Parents = max(st.Parents, w.tree)
	}
	return st
}
