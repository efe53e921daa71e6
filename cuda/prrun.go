package cuda

import (
	"errors"
	"fmt"
	"unsafe"
)

// PREvents is MG_PR_EVENTS: the events a PageRank step records.
const PREvents = 5

// PRApplyVertices is MG_PR_APPLY_VERTICES: vertices per block of the pull
// scheme's apply kernel, each block leaving two partial sums.
const PRApplyVertices = 2048

// PRPullChunk is the most light edges one block of the pull scheme's gather
// kernel sums (a chunk never spans two row panels).
const PRPullChunk = 32768

// MaxPullLightEdges is the most light edges the pull scheme takes (the
// device sort counts them in an int).
const MaxPullLightEdges = 1<<31 - 1

// PRScheme is how a PageRank step handles the light edges.
type PRScheme int

const (
	// PRPull (the default): the heavy blocks' partials go to per-vertex
	// accumulators with global atomics, and the light edges are read row
	// panel by row panel in source order from a copy sorted once on the
	// device (6 bytes per light edge), summed in shared memory and added
	// into the same accumulators; no stream buffer.
	PRPull PRScheme = iota
	// PRStream is the paper's MultiGraphD: every light edge writes its stream
	// slot, every heavy block its partials' slots, and phase 2 folds each row
	// panel's slots.
	PRStream
)

// String returns the scheme's name ("pull" or "stream").
func (s PRScheme) String() string {
	switch s {
	case PRPull:
		return "pull"
	case PRStream:
		return "stream"
	}
	return fmt.Sprintf("PRScheme(%d)", int(s))
}

// Phases names the kernel times of a step of the scheme, in order: the
// stream scheme's heavy, light, phase 2 and fold kernels; the pull scheme's
// gather (heavy and light blocks in one grid) and apply (with the fold).
func (s PRScheme) Phases() []string {
	if s == PRStream {
		return []string{"phase1-heavy", "phase1-light", "phase2", "fold"}
	}
	return []string{"gather", "apply"}
}

// PRSums mirrors mg_pr_sums: the scalars a PageRank step leaves for the
// host, and where a run stands.
type PRSums struct {
	Delta      float64 // Σ |r_new − r_old| of the last iteration
	Dangling   float64 // Σ r_new over the vertices without out-arcs (the initial ranks' before the first)
	Iterations uint32  // iterations run
	Done       uint32  // 1 once an iteration's Delta fell below the tolerance
}

// PRBatch is the most iterations Iterate queues before it waits for them.
const PRBatch = 8

// prPull mirrors mg_pr_pull (the cuda build checks its size).
type prPull struct {
	src, dst, rowStart, chunkRow, chunkStart uintptr
	chunkEdges, numChunks                    uint32
}

// PRRun is the device state of topology-driven PageRank runs over one
// DeviceLayout: ranks and shares (n doubles each), the per-block partial sums
// and the sums, and by scheme either a float64 stream buffer (one entry per
// slot) or per-vertex accumulators (n doubles) and the sorted copy of the
// light edges (6 bytes per light edge). Allocated once, reused by every run;
// one run at a time. The host reads the sums (24 bytes) after each step of
// the stream scheme and after each batch of up to PRBatch steps of the pull
// scheme (Iterate).
type PRRun struct {
	dl          *DeviceLayout
	scheme      PRScheme
	rank, share *Buffer[float64]
	stream      *Buffer[float64] // PRStream
	acc         *Buffer[float64] // PRPull
	pull        prPull           // PRPull
	ticket      *Buffer[uint32]  // PRPull: the apply kernel's last-block ticket
	partials    *Buffer[float64]
	sums        *Buffer[PRSums]
	ev          []uintptr // PRStream: PREvents; PRPull: 2·PRBatch+1 (iteration j: ev[2j], ev[2j+1], ev[2j+2])
	last        PRSums    // the sums after the last iteration (Start, Iterate)
	dangling    int64     // vertices without out-arcs (Init counts them once; -1 before)
	// teleport is a personalised run's teleport set (PersonalInit), a bit
	// per vertex, each of weight weight; weight 0: the run is uniform.
	teleport *Buffer[uint32]
	weight   float64
	count    *Buffer[uint64] // PersonalInit's count of dangling teleport vertices
	owned
}

func allocPR[T any](r *PRRun, n int) (*Buffer[T], error) {
	return allocOwned[T](&r.owned, r.dl.dev, n)
}

// NewPRRun allocates the PageRank state of scheme over dl; for PRPull it
// also sorts the light edges by destination row panel and source on the
// device.
func NewPRRun(dl *DeviceLayout, scheme PRScheme) (*PRRun, error) {
	r := &PRRun{dl: dl, scheme: scheme, dangling: -1}
	n := int(dl.desc.n)
	var err error
	fail := func(e error) (*PRRun, error) { r.Close(); return nil, e }
	if r.rank, err = allocPR[float64](r, n); err != nil {
		return fail(err)
	}
	if r.share, err = allocPR[float64](r, n); err != nil {
		return fail(err)
	}
	partials := 2 * int(dl.desc.numPanels)
	switch scheme {
	case PRStream:
		if r.stream, err = allocPR[float64](r, dl.StreamLen()); err != nil {
			return fail(err)
		}
		if err := r.stream.Memset(0); err != nil { // the identity of the sums
			return fail(err)
		}
	case PRPull:
		if r.acc, err = allocPR[float64](r, n); err != nil {
			return fail(err)
		}
		if err := r.acc.Memset(0); err != nil {
			return fail(err)
		}
		if err := r.buildPull(); err != nil {
			return fail(err)
		}
		if r.ticket, err = allocPR[uint32](r, 1); err != nil {
			return fail(err)
		}
		if err := r.ticket.Memset(0); err != nil {
			return fail(err)
		}
		partials = 2 * ((n + PRApplyVertices - 1) / PRApplyVertices)
	default:
		return nil, invalidf("NewPRRun", "unknown scheme %v", scheme)
	}
	if r.partials, err = allocPR[float64](r, max(partials, 2)); err != nil {
		return fail(err)
	}
	if r.sums, err = allocPR[PRSums](r, 1); err != nil {
		return fail(err)
	}
	events := PREvents
	if scheme == PRPull {
		events = 2*PRBatch + 1
	}
	r.ev = make([]uintptr, events)
	if err := r.newEvents(dl.dev, r.ev); err != nil {
		return fail(err)
	}
	return r, nil
}

// buildPull sorts the layout's light edges by destination row panel and
// source into the pull arrays and cuts each row panel's edges into chunks
// (PullChunks).
func (r *PRRun) buildPull() error {
	dl := r.dl
	var light int // len(LightSrc), from the offsets (the array may still be on the device only, BuiltLayout)
	if ls := dl.l.LightStart; len(ls) > 0 {
		light = int(ls[len(ls)-1])
	}
	if light > MaxPullLightEdges {
		return invalidf("NewPRRun", "%d light edges: the pull scheme sorts at most %d (use the stream scheme, mgraph run --gpu-pr-stream)",
			light, MaxPullLightEdges)
	}
	src, err := allocPR[uint32](r, light)
	if err != nil {
		return err
	}
	dst, err := allocPR[uint16](r, light)
	if err != nil {
		return err
	}
	panels := int(dl.desc.numPanels)
	rowStart, err := allocPR[uint64](r, panels+1)
	if err != nil {
		return err
	}
	desc := new(dlayout)
	*desc = dl.desc
	if err := backendPRPullBuild(dl.dev.ordinal, unsafe.Pointer(desc), uint64(light), src.h.p, dst.h.p, rowStart.h.p); err != nil {
		return err
	}
	starts := make([]uint64, panels+1)
	if err := rowStart.CopyToHost(starts); err != nil {
		return err
	}
	rows, firsts := PullChunks(starts, PRPullChunk)
	p := &r.pull
	p.src, p.dst, p.rowStart = uintptr(src.h.p), uintptr(dst.h.p), uintptr(rowStart.h.p)
	p.chunkEdges, p.numChunks = PRPullChunk, uint32(len(rows))
	if len(rows) == 0 {
		return nil
	}
	chunkRow, err := allocPR[uint32](r, len(rows))
	if err != nil {
		return err
	}
	if err := chunkRow.CopyFromHost(rows); err != nil {
		return err
	}
	chunkStart, err := allocPR[uint64](r, len(firsts))
	if err != nil {
		return err
	}
	if err := chunkStart.CopyFromHost(firsts); err != nil {
		return err
	}
	p.chunkRow, p.chunkStart = uintptr(chunkRow.h.p), uintptr(chunkStart.h.p)
	return nil
}

// PullChunks cuts the edge ranges [rowStart[r], rowStart[r+1]) of every row
// panel r into chunks of at most size edges, returning each chunk's row panel
// and first edge. Empty row panels have no chunk.
func PullChunks(rowStart []uint64, size uint32) (rows []uint32, firsts []uint64) {
	for r := 0; r+1 < len(rowStart); r++ {
		for e := rowStart[r]; e < rowStart[r+1]; e += uint64(size) {
			rows = append(rows, uint32(r))
			firsts = append(firsts, e)
		}
	}
	return rows, firsts
}

// Scheme returns the run's scheme.
func (r *PRRun) Scheme() PRScheme { return r.scheme }

// Close frees the state.
func (r *PRRun) Close() error { return r.release() }

// Start begins a run from the ranks and shares Init made, whose dangling
// rank (Σ over the vertices without out-arcs) is dangling.
func (r *PRRun) Start(dangling float64) error {
	r.last = PRSums{Dangling: dangling}
	if r.scheme == PRStream {
		return nil
	}
	return r.sums.CopyFromHost([]PRSums{r.last})
}

// Iterate runs up to k more iterations of the run (at most PRBatch at a
// time): rank = base + damping·acc for every vertex, base = (1−damping)/n +
// damping·D/n with D the last dangling rank (personalised, PersonalInit:
// rank = ((1−damping) + damping·D)·w + damping·acc, w the vertex's
// teleport weight), stopping once an iteration's
// Σ|Δr| falls below tolerance. It returns the sums after them and, for each
// iteration that ran, its kernels' times in milliseconds (the scheme's
// Phases). The pull scheme queues the iterations and waits once; the stream
// scheme waits for each.
func (r *PRRun) Iterate(damping, tolerance float64, k int) (PRSums, [][]float32, error) {
	if r.scheme == PRStream {
		return r.iterateStream(damping, tolerance, k)
	}
	k = min(k, PRBatch)
	dev := r.dl.dev.ordinal
	var tp unsafe.Pointer
	if r.weight != 0 {
		tp = r.teleport.h.p
	}
	desc, pull := new(dlayout), new(prPull)
	*desc, *pull = r.dl.desc, r.pull
	ev := make([]uintptr, len(r.ev))
	copy(ev, r.ev)
	for j := 0; j < k && r.last.Done == 0; j++ {
		if err := backendPRPullStep(dev, unsafe.Pointer(desc), unsafe.Pointer(pull), damping, tolerance, tp, r.weight, r.rank.h.p,
			r.share.h.p, r.acc.h.p, r.partials.h.p, r.ticket.h.p, r.sums.h.p, unsafe.Pointer(&ev[2*j])); err != nil {
			return r.last, nil, err
		}
	}
	s := make([]PRSums, 1)
	if err := r.sums.CopyToHost(s); err != nil { // synchronous: waits for the steps
		return r.last, nil, err
	}
	ran := int(s[0].Iterations - r.last.Iterations)
	r.last = s[0]
	times := make([][]float32, ran)
	for j := range times {
		t, err := eventTimes(dev, r.ev[2*j:2*j+3])
		if err != nil {
			return r.last, nil, err
		}
		times[j] = t
	}
	return r.last, times, nil
}

// ErrPersonalStream is returned by PersonalInit in the stream scheme,
// whose step has no teleport set.
var ErrPersonalStream = errors.New("personalised PageRank runs the pull scheme only")

// PersonalInit starts a personalised run (the pull scheme's): the ranks
// teleport only to the vertices lids (layout ids), weight w each, and
// start at w there and 0 elsewhere, with the dangling rank of those
// without out-arcs. Init starts a uniform run again.
func (r *PRRun) PersonalInit(lids []uint32, w float64) error {
	if r.scheme == PRStream {
		return ErrPersonalStream
	}
	if !(w > 0) {
		return invalidf("PRRun.PersonalInit", "teleport weight %g is not positive", w)
	}
	words, err := teleportBits("PRRun.PersonalInit", lids, r.dl.desc.n)
	if err != nil {
		return err
	}
	if r.teleport == nil {
		b, err := allocPR[uint32](r, len(words))
		if err != nil {
			return err
		}
		r.teleport = b
	}
	if r.count == nil {
		b, err := allocPR[uint64](r, 1)
		if err != nil {
			return err
		}
		r.count = b
	}
	if err := r.teleport.CopyFromHost(words); err != nil {
		return err
	}
	desc := new(dlayout)
	*desc = r.dl.desc
	if err := backendPRPersonalInit(r.dl.dev.ordinal, unsafe.Pointer(desc), r.teleport.h.p, w, r.rank.h.p, r.share.h.p,
		r.count.h.p); err != nil {
		return err
	}
	k := make([]uint64, 1)
	if err := r.count.CopyToHost(k); err != nil {
		return err
	}
	r.weight = w
	return r.Start(float64(k[0]) * w)
}

// iterateStream is Iterate for the stream scheme: the host applies the
// stopping rule after each step.
func (r *PRRun) iterateStream(damping, tolerance float64, k int) (PRSums, [][]float32, error) {
	dev := r.dl.dev.ordinal
	nf := float64(r.dl.desc.n)
	desc, ev := new(dlayout), make([]uintptr, len(r.ev))
	*desc = r.dl.desc
	copy(ev, r.ev)
	s := make([]PRSums, 1)
	var times [][]float32
	for j := 0; j < k && r.last.Done == 0; j++ {
		base := (1-damping)/nf + damping*r.last.Dangling/nf
		if err := backendPRStep(dev, unsafe.Pointer(desc), base, damping, r.rank.h.p, r.share.h.p, r.stream.h.p,
			r.partials.h.p, r.sums.h.p, unsafe.Pointer(&ev[0])); err != nil {
			return r.last, times, err
		}
		if err := r.sums.CopyToHost(s); err != nil { // synchronous: waits for the step
			return r.last, times, err
		}
		r.last.Delta, r.last.Dangling = s[0].Delta, s[0].Dangling
		r.last.Iterations++
		if r.last.Delta < tolerance {
			r.last.Done = 1
		}
		t, err := eventTimes(dev, r.ev)
		if err != nil {
			return r.last, times, err
		}
		times = append(times, t)
	}
	return r.last, times, nil
}
