package apps

import (
	"sync/atomic"

	"github.com/mgraph-dev/mgraph/ops"
)

// The Go twins of kernels/fn_msf.cuh: Borůvka's minimum spanning forest.

const noEdge = ^uint64(0)

// msfArrays are the arrays of a Borůvka run (fn_msf.cuh's a[0..7]).
type msfArrays struct {
	comp, bestW, next, forestW *ops.Array[uint32]
	bestE, forestE             *ops.Array[uint64]
}

// msfFn is every Borůvka functor's Go twin; step picks the method.
type msfFn struct {
	step                       int
	comp, bestW, next, forestW []uint32
	bestE, forestE             []uint64
	off                        []uint64
	adj, weights               []uint32
}

func (m *msfFn) weight(e uint64) uint32 {
	if m.weights == nil {
		return 1
	}
	return m.weights[e]
}

func edgeKey(u, v uint32) uint64 {
	if u < v {
		return uint64(u)<<32 | uint64(v)
	}
	return uint64(v)<<32 | uint64(u)
}

func atomicMinU32(p *uint32, x uint32) {
	for old := atomic.LoadUint32(p); x < old && !atomic.CompareAndSwapUint32(p, old, x); old = atomic.LoadUint32(p) {
	}
}

func atomicMinU64(p *uint64, x uint64) {
	for old := atomic.LoadUint64(p); x < old && !atomic.CompareAndSwapUint64(p, old, x); old = atomic.LoadUint64(p) {
	}
}

func (m *msfFn) Vertex(v uint32) bool {
	switch m.step {
	case ops.FnMSFReset:
		m.bestW[v], m.bestE[v], m.next[v] = unset, noEdge, v
	case ops.FnMSFMinW:
		c, best := atomic.LoadUint32(&m.comp[v]), unset
		for e := m.off[v]; e < m.off[v+1]; e++ {
			if atomic.LoadUint32(&m.comp[m.adj[e]]) != c {
				best = min(best, m.weight(e))
			}
		}
		if best != unset {
			atomicMinU32(&m.bestW[c], best)
		}
	case ops.FnMSFMinEdge:
		c := m.comp[v]
		w := atomic.LoadUint32(&m.bestW[c])
		if w == unset {
			return false
		}
		best := noEdge
		for e := m.off[v]; e < m.off[v+1]; e++ {
			if u := m.adj[e]; m.comp[u] != c && m.weight(e) == w {
				best = min(best, edgeKey(v, u))
			}
		}
		if best != noEdge {
			atomicMinU64(&m.bestE[c], best)
		}
	case ops.FnMSFHook:
		key := m.bestE[v]
		if m.comp[v] != v || key == noEdge {
			return false
		}
		x, y := uint32(key>>32), uint32(key)
		other := m.comp[x]
		if other == v {
			other = m.comp[y]
		}
		if m.bestE[other] == key && v < other {
			return false
		}
		m.next[v], m.forestW[v], m.forestE[v] = other, m.bestW[v], key
		return true
	case ops.FnMSFApply:
		if m.comp[v] == v {
			m.comp[v] = m.next[v]
		}
	case ops.FnMSFJump:
		c := atomic.LoadUint32(&m.comp[v])
		cc := atomic.LoadUint32(&m.comp[c])
		if c == cc {
			return false
		}
		atomic.StoreUint32(&m.comp[v], cc)
		return true
	}
	return false
}

// msfFunctor is Borůvka step (ops.FnMSF*) over g.
func msfFunctor(step int, g *ops.Graph, a msfArrays) *ops.Functor {
	name := map[int]string{ops.FnMSFReset: "msf-reset", ops.FnMSFMinW: "msf-min-weight", ops.FnMSFMinEdge: "msf-min-edge",
		ops.FnMSFHook: "msf-hook", ops.FnMSFApply: "msf-apply", ops.FnMSFJump: "msf-jump"}[step]
	f := &ops.Functor{Name: name, ID: step,
		Arrays: []ops.Mem{a.comp.Mem(), a.bestW.Mem(), a.bestE.Mem(), a.next.Mem(), a.forestW.Mem(), a.forestE.Mem(), g.Offsets, g.Dst},
		Ints:   []uint64{0, 0},
		CPU: &msfFn{step: step, comp: a.comp.Host(), bestW: a.bestW.Host(), next: a.next.Host(), forestW: a.forestW.Host(),
			bestE: a.bestE.Host(), forestE: a.forestE.Host(), off: g.HostOffsets, adj: g.HostDst, weights: g.HostWeights}}
	if g.Weights != nil {
		f.Ints[1] = uint64(uintptr(g.Weights.Ptr())) // the arc weights' device address (fn_msf.cuh)
	}
	return f
}
