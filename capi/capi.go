// Command capi is mgraph's C API, built as a shared library
// (`go build -buildmode=c-shared -o libmgraph.so ./capi`, `make python`)
// for the Python package (python/mgraph), which calls it through ctypes.
// Graphs are integer handles; every function returns 0 (or a handle > 0)
// on success and -1 (or 0) on failure, with the message for
// mgraph_last_error. Results are copied into arrays the caller allocated
// (NumPy arrays); the inputs of mgraph_from_edges are copied.
package main

/*
#include <stdint.h>
*/
import "C"

import (
	"context"
	"fmt"
	"sync"
	"unsafe"

	"github.com/mgraph-dev/mgraph"
)

// The open graphs by handle, and the last error.
var (
	mu      sync.Mutex
	graphs  = map[int64]*mgraph.Graph{}
	next    int64
	lastErr string
)

func fail(err error) {
	mu.Lock()
	lastErr = err.Error()
	mu.Unlock()
}

func add(g *mgraph.Graph) C.int64_t {
	mu.Lock()
	defer mu.Unlock()
	next++
	graphs[next] = g
	return C.int64_t(next)
}

func get(h C.int64_t) (*mgraph.Graph, error) {
	mu.Lock()
	defer mu.Unlock()
	g, ok := graphs[int64(h)]
	if !ok {
		return nil, fmt.Errorf("mgraph: no graph with handle %d (closed?)", int64(h))
	}
	return g, nil
}

func options(backend *C.char, undirected, weights C.int, weightSeed C.uint64_t, threads C.int) mgraph.Options {
	return mgraph.Options{Backend: mgraph.Backend(C.GoString(backend)), Undirected: undirected != 0,
		Weights: weights != 0, WeightSeed: uint64(weightSeed), Threads: int(threads)}
}

//export mgraph_last_error
func mgraph_last_error(buf *C.char, n C.int64_t) C.int64_t {
	mu.Lock()
	msg := lastErr
	mu.Unlock()
	if n <= 0 {
		return C.int64_t(len(msg))
	}
	out := unsafe.Slice((*byte)(unsafe.Pointer(buf)), int(n))
	k := copy(out[:n-1], msg)
	out[k] = 0
	return C.int64_t(len(msg))
}

//export mgraph_load
func mgraph_load(path, backend *C.char, undirected, weights C.int, weightSeed C.uint64_t, threads C.int) C.int64_t {
	g, err := mgraph.Load(context.Background(), C.GoString(path), options(backend, undirected, weights, weightSeed, threads))
	if err != nil {
		fail(err)
		return 0
	}
	return add(g)
}

//export mgraph_from_edges
func mgraph_from_edges(n C.int64_t, src, dst, w *C.uint32_t, m C.int64_t, directed C.int, backend *C.char, threads C.int) C.int64_t {
	if n < 0 || m < 0 || (m > 0 && (src == nil || dst == nil)) {
		fail(fmt.Errorf("mgraph: from_edges: %d vertices, %d arcs", int64(n), int64(m)))
		return 0
	}
	var s, d, ws []uint32
	if m > 0 {
		s = unsafe.Slice((*uint32)(unsafe.Pointer(src)), int(m))
		d = unsafe.Slice((*uint32)(unsafe.Pointer(dst)), int(m))
		if w != nil {
			ws = unsafe.Slice((*uint32)(unsafe.Pointer(w)), int(m))
		}
	}
	g, err := mgraph.FromEdges(context.Background(), int(n), s, d, ws, directed != 0,
		mgraph.Options{Backend: mgraph.Backend(C.GoString(backend)), Threads: int(threads)})
	if err != nil {
		fail(err)
		return 0
	}
	return add(g)
}

//export mgraph_close
func mgraph_close(h C.int64_t) C.int {
	mu.Lock()
	g, ok := graphs[int64(h)]
	delete(graphs, int64(h))
	mu.Unlock()
	if !ok {
		return 0
	}
	if err := g.Close(); err != nil {
		fail(err)
		return -1
	}
	return 0
}

// mgraph_info fills info with vertices, arcs, directed (0/1), weighted
// (0/1) and the backend (0 cpu, 1 cuda).
//
//export mgraph_info
func mgraph_info(h C.int64_t, info *C.int64_t) C.int {
	g, err := get(h)
	if err != nil {
		fail(err)
		return -1
	}
	out := unsafe.Slice((*int64)(unsafe.Pointer(info)), 5)
	out[0], out[1] = int64(g.NumVertices()), int64(g.NumArcs())
	out[2], out[3], out[4] = b2i(g.Directed()), b2i(g.Weighted()), b2i(g.Backend() == mgraph.CUDA)
	return 0
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// into runs app through Graph.Into, writing the result straight into the
// caller's array out (one element per vertex, of V) and the stats into
// stats (trial, engine and copy seconds).
func into[V uint32 | float64](h C.int64_t, app string, sources []uint32, pr mgraph.PageRankOptions, out unsafe.Pointer, stats *C.double) C.int {
	g, err := get(h)
	if err != nil {
		fail(err)
		return -1
	}
	if out == nil {
		fail(fmt.Errorf("mgraph: %s: NULL result array", app))
		return -1
	}
	st, err := g.Into(context.Background(), app, sources, pr, unsafe.Slice((*V)(out), g.NumVertices()))
	if err != nil {
		fail(err)
		return -1
	}
	if stats != nil {
		s := unsafe.Slice((*float64)(unsafe.Pointer(stats)), 3)
		s[0], s[1], s[2] = st.Trial.Seconds(), st.Engine.Seconds(), st.Copy.Seconds()
	}
	return 0
}

//export mgraph_bfs
func mgraph_bfs(h C.int64_t, source C.uint32_t, out *C.uint32_t, stats *C.double) C.int {
	return into[uint32](h, "bfs", []uint32{uint32(source)}, mgraph.PageRankOptions{}, unsafe.Pointer(out), stats)
}

//export mgraph_sssp
func mgraph_sssp(h C.int64_t, source C.uint32_t, out *C.uint32_t, stats *C.double) C.int {
	return into[uint32](h, "sssp", []uint32{uint32(source)}, mgraph.PageRankOptions{}, unsafe.Pointer(out), stats)
}

//export mgraph_cc
func mgraph_cc(h C.int64_t, out *C.uint32_t, stats *C.double) C.int {
	return into[uint32](h, "cc", nil, mgraph.PageRankOptions{}, unsafe.Pointer(out), stats)
}

//export mgraph_pagerank
func mgraph_pagerank(h C.int64_t, damping, tolerance C.double, maxIter C.int, out *C.double, stats *C.double) C.int {
	pr := mgraph.PageRankOptions{Damping: float64(damping), Tolerance: float64(tolerance), MaxIterations: int(maxIter)}
	return into[float64](h, "pr", nil, pr, unsafe.Pointer(out), stats)
}

//export mgraph_bc
func mgraph_bc(h C.int64_t, sources *C.uint32_t, k C.int64_t, out *C.double, stats *C.double) C.int {
	if k <= 0 || sources == nil {
		fail(fmt.Errorf("mgraph: bc needs at least one source"))
		return -1
	}
	srcs := append([]uint32(nil), unsafe.Slice((*uint32)(unsafe.Pointer(sources)), int(k))...)
	return into[float64](h, "bc", srcs, mgraph.PageRankOptions{}, unsafe.Pointer(out), stats)
}

func main() {}
