package apps

import (
	"sync/atomic"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/ops"
)

// The Go twins of kernels/fn_traverse.cuh: BFS and SSSP as operator apps.

// bfsFn claims unvisited destinations for depth+1 (MG_FN_BFS); pulled,
// the unvisited vertices are the candidates.
type bfsFn struct {
	level []uint32
	depth uint32
}

func (f *bfsFn) Edge(_, dst uint32, _ uint64, _ uint32) bool {
	p := &f.level[dst]
	return atomic.LoadUint32(p) == Unreached && atomic.CompareAndSwapUint32(p, Unreached, f.depth+1)
}

// Vertex says whether v is still unvisited (a pull's candidates).
func (f *bfsFn) Vertex(v uint32) bool { return atomic.LoadUint32(&f.level[v]) == Unreached }

func bfsFunctor(level *ops.Array[uint32], depth uint32) *ops.Functor {
	return &ops.Functor{Name: "bfs", ID: ops.FnBFS, Arrays: []ops.Mem{level.Mem()}, Ints: []uint64{uint64(depth)},
		CPU: &bfsFn{level: level.Host(), depth: depth}}
}

// ssspFn relaxes an arc with an atomic min (MG_FN_SSSP); unweighted graphs
// have weight 1, and over float32 weights the distances are float32 bits
// added as floats (engine.AddFloat32Bits; Unreached stays unreached).
type ssspFn struct {
	dist []uint32
	mode uint64 // ssspUint32, ssspUnweighted or ssspFloat32 (fn_traverse.cuh's u[0])
}

// The weights an operator SSSP adds (the functor's u[0]).
const (
	ssspUint32     = 0
	ssspUnweighted = 1
	ssspFloat32    = 2
)

func (f *ssspFn) Edge(src, dst uint32, _ uint64, w uint32) bool {
	d := atomic.LoadUint32(&f.dist[src])
	var nd uint64
	switch f.mode {
	case ssspFloat32:
		if d == Unreached {
			return false
		}
		nd = uint64(engine.AddFloat32Bits(d, w))
	case ssspUnweighted:
		nd = uint64(d) + 1
	default:
		nd = uint64(d) + uint64(w)
	}
	for {
		old := atomic.LoadUint32(&f.dist[dst])
		if nd >= Unreached || nd >= uint64(old) {
			return false
		}
		if atomic.CompareAndSwapUint32(&f.dist[dst], old, uint32(nd)) {
			return true
		}
	}
}

func ssspFunctor(dist *ops.Array[uint32], mode uint64) *ops.Functor {
	return &ops.Functor{Name: "sssp", ID: ops.FnSSSP, Arrays: []ops.Mem{dist.Mem()}, Ints: []uint64{mode},
		CPU: &ssspFn{dist: dist.Host(), mode: mode}}
}
