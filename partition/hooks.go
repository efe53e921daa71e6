package partition

import (
	"sync/atomic"

	"github.com/mgraph-dev/mgraph/internal/par"
)

// hookGrain is the fewest vertices per core of hookStep's passes.
const hookGrain = 1 << 14

// hookStep is a superstep's compute of CC by hooking on the host path
// (FromHooks, as the device parts' cuda.PartRun.HookStep): the first
// (first true) links the part's components (hooker.HookAll: Afforest over
// its rows, and its ghosts' lists of the vertices whose rows name them) and
// gives every vertex its component's smallest label; a later one spreads
// the labels the exchange lowered, those of the vertices flagged in cur,
// through their components' roots. Either is two passes over the
// vertices after the hooking: each vertex lowers its root's label to its
// own (an atomic minimum, only when lower), then every vertex takes its
// root's. The packaging then finds what changed, as after an iteration.
func (w *worker) hookStep(cur []uint8, first bool) {
	n := len(w.values)
	workers := w.b.Workers()
	if first {
		if len(w.roots) != n {
			w.roots = make([]uint32, n)
		}
		w.hooker.HookAll(w.roots)
	}
	roots, values := w.roots, w.values
	par.For(n, workers, hookGrain, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			r := roots[v]
			if r == uint32(v) || (!first && cur[v] == 0) {
				continue
			}
			label := values[v] // not a root's: no one writes it in this pass
			for {
				old := atomic.LoadUint32(&values[r])
				if label >= old || atomic.CompareAndSwapUint32(&values[r], old, label) {
					break
				}
			}
		}
	})
	par.For(n, workers, hookGrain, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			if label := values[roots[v]]; label < values[v] {
				values[v] = label
			}
		}
	})
}
