package cuda

import "unsafe"

// PREvents is MG_PR_EVENTS: the events a PageRank step records.
const PREvents = 5

// PRPhases names the kernel times of a PageRank step, in order.
var PRPhases = []string{"phase1-heavy", "phase1-light", "phase2", "fold"}

// PRSums mirrors mg_pr_sums: the scalars a PageRank step leaves for the
// host.
type PRSums struct {
	Delta    float64 // Σ |r_new − r_old|
	Dangling float64 // Σ r_new over the vertices without out-arcs
}

// PRRun is the device state of topology-driven PageRank runs over one
// DeviceLayout: ranks and shares (n doubles each), a float64 stream buffer
// (one per slot), the per-panel partial sums and the sums; 16 B per vertex
// plus 8 B per slot. Allocated once, reused by every run; one run at a time.
// Each step ends with one 16-byte device-to-host copy (the sums).
type PRRun struct {
	dl          *DeviceLayout
	rank, share *Buffer[float64]
	stream      *Buffer[float64]
	partials    *Buffer[float64]
	sums        *Buffer[PRSums]
	ev          [PREvents]uintptr
	owned
}

func allocPR[T any](r *PRRun, n int) (*Buffer[T], error) {
	return allocOwned[T](&r.owned, r.dl.dev, n)
}

// NewPRRun allocates the PageRank state over dl.
func NewPRRun(dl *DeviceLayout) (*PRRun, error) {
	r := &PRRun{dl: dl}
	n := int(dl.desc.n)
	var err error
	fail := func(e error) (*PRRun, error) { r.Close(); return nil, e }
	if r.rank, err = allocPR[float64](r, n); err != nil {
		return fail(err)
	}
	if r.share, err = allocPR[float64](r, n); err != nil {
		return fail(err)
	}
	if r.stream, err = allocPR[float64](r, dl.StreamLen()); err != nil {
		return fail(err)
	}
	if err := r.stream.Memset(0); err != nil { // the identity of the sums
		return fail(err)
	}
	if r.partials, err = allocPR[float64](r, 2*int(dl.desc.numPanels)); err != nil {
		return fail(err)
	}
	if r.sums, err = allocPR[PRSums](r, 1); err != nil {
		return fail(err)
	}
	if err := r.newEvents(dl.dev, r.ev[:]); err != nil {
		return fail(err)
	}
	return r, nil
}

// Close frees the state.
func (r *PRRun) Close() error { return r.release() }

// Load copies the initial ranks and shares (layout numbering) to the device.
func (r *PRRun) Load(rank, share []float64) error {
	if err := r.rank.CopyFromHost(rank); err != nil {
		return err
	}
	return r.share.CopyFromHost(share)
}

// Store copies the ranks and shares back to the host.
func (r *PRRun) Store(rank, share []float64) error {
	if err := r.rank.CopyToHost(rank); err != nil {
		return err
	}
	return r.share.CopyToHost(share)
}

// Step runs one PageRank iteration (r = base + damping·acc for every vertex)
// and returns its sums and the kernels' times in milliseconds (PRPhases).
func (r *PRRun) Step(base, damping float64) (PRSums, []float32, error) {
	dev := r.dl.dev.ordinal
	desc, ev := new(dlayout), new([PREvents]uintptr)
	*desc, *ev = r.dl.desc, r.ev
	if err := backendPRStep(dev, unsafe.Pointer(desc), base, damping, r.rank.h.p, r.share.h.p, r.stream.h.p,
		r.partials.h.p, r.sums.h.p, unsafe.Pointer(&ev[0])); err != nil {
		return PRSums{}, nil, err
	}
	s := make([]PRSums, 1)
	if err := r.sums.CopyToHost(s); err != nil { // synchronous: waits for the step
		return PRSums{}, nil, err
	}
	t := make([]float32, PREvents-1)
	for i := range t {
		ms, err := backendEventElapsed(dev, evp(r.ev[i]), evp(r.ev[i+1]))
		if err != nil {
			return s[0], nil, err
		}
		t[i] = ms
	}
	return s[0], t, nil
}
