// Command capi is mgraph's C API, built as a shared library
// (`go build -buildmode=c-shared -o libmgraph.so ./capi`, `make python`)
// for the Python package (python/mgraph), which calls it through ctypes.
// Graphs are integer handles; every function returns 0 (or a handle > 0)
// on success and -1 (or 0) on failure, with the message for
// mgraph_last_error. Results are copied into arrays the caller allocated
// (NumPy arrays); the inputs of mgraph_from_edges are copied. The apps
// written with the operators (triangles, core numbers, colouring, MIS,
// personalised PageRank, HITS, SALSA, who-to-follow: opsapps.go) copy
// their results into the caller's arrays too. On the cuda
// backend mgraph_host_alloc gives page-locked result arrays that runs fill
// with no copy after the device's (mgraph.HostBuffer), recycled through a
// small pool per graph by mgraph_host_free.
package main

/*
#include <stdint.h>
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/mgraph-dev/mgraph"
)

// The open graphs by handle, the last error, the host buffers handed out
// (by address) and each graph's spare ones (by handle and kind).
var (
	mu      sync.Mutex
	graphs  = map[int64]*mgraph.Graph{}
	next    int64
	lastErr string
	lent    = map[uintptr]hostBuf{}
	spare   = map[int64]*[hostKinds][]hostBuf{}
)

// hostKinds is the number of host buffer kinds: 0 uint32, 1 float64, 2
// float32.
const hostKinds = 3

// maxSpare is the most idle host buffers of one kind a graph keeps for the
// next mgraph_host_alloc.
const maxSpare = 4

// hostBuf is one mgraph.HostBuffer of a graph: its memory, kind (0: uint32,
// 1: float64, 2: float32) and Free.
type hostBuf struct {
	h    int64
	kind int
	p    unsafe.Pointer
	free func() error
}

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

// weightType reads a weight type argument: NULL, "" or "auto", "uint32"
// or "float32".
func weightType(t *C.char) (mgraph.WeightType, error) {
	if t == nil {
		return mgraph.AutoWeights, nil
	}
	switch s := C.GoString(t); s {
	case "", "auto":
		return mgraph.AutoWeights, nil
	case "uint32", "float32":
		return mgraph.WeightType(s), nil
	default:
		return mgraph.AutoWeights, fmt.Errorf("mgraph: unknown weight type %q (want auto, uint32 or float32)", s)
	}
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

// mgraph_load: cache_dir, when not NULL or empty, is a layout cache
// directory (mgraph.Options.CacheDir); weight_type is the weights' type
// (mgraph.Options.WeightType: NULL, "" or "auto", "uint32", "float32";
// with weights != 0, float32 gives random floats in (0, 1]).
//
//export mgraph_load
func mgraph_load(path, backend *C.char, undirected, weights C.int, weightSeed C.uint64_t, threads C.int, cacheDir, wtype *C.char) C.int64_t {
	opts := options(backend, undirected, weights, weightSeed, threads)
	if cacheDir != nil {
		opts.CacheDir = C.GoString(cacheDir)
	}
	wt, err := weightType(wtype)
	if err != nil {
		fail(err)
		return 0
	}
	opts.WeightType = wt
	g, err := mgraph.Load(context.Background(), C.GoString(path), opts)
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

// mgraph_from_edges_f32 is mgraph_from_edges with float32 weights (w NULL,
// or m finite, non-negative floats; -0 is taken as 0): the graph's sssp is
// mgraph_sssp_f32.
//
//export mgraph_from_edges_f32
func mgraph_from_edges_f32(n C.int64_t, src, dst *C.uint32_t, w *C.float, m C.int64_t, directed C.int, backend *C.char, threads C.int) C.int64_t {
	if n < 0 || m < 0 || (m > 0 && (src == nil || dst == nil)) {
		fail(fmt.Errorf("mgraph: from_edges_f32: %d vertices, %d arcs", int64(n), int64(m)))
		return 0
	}
	var s, d []uint32
	var ws []float32
	if m > 0 {
		s = unsafe.Slice((*uint32)(unsafe.Pointer(src)), int(m))
		d = unsafe.Slice((*uint32)(unsafe.Pointer(dst)), int(m))
		if w != nil {
			ws = unsafe.Slice((*float32)(unsafe.Pointer(w)), int(m))
		}
	}
	g, err := mgraph.FromEdgesFloat32(context.Background(), int(n), s, d, ws, directed != 0,
		mgraph.Options{Backend: mgraph.Backend(C.GoString(backend)), Threads: int(threads)})
	if err != nil {
		fail(err)
		return 0
	}
	return add(g)
}

// mgraph_weight_type returns the type of graph h's weights: 0 none, 1
// uint32, 2 float32; -1 on failure.
//
//export mgraph_weight_type
func mgraph_weight_type(h C.int64_t) C.int {
	g, err := get(h)
	switch {
	case err != nil:
		fail(err)
		return -1
	case !g.Weighted():
		return 0
	case g.WeightType() == mgraph.Float32Weights:
		return 2
	}
	return 1
}

//export mgraph_close
func mgraph_close(h C.int64_t) C.int {
	mu.Lock()
	g, ok := graphs[int64(h)]
	delete(graphs, int64(h))
	idle := spare[int64(h)]
	delete(spare, int64(h))
	mu.Unlock()
	if !ok {
		return 0
	}
	var first error
	if idle != nil {
		for _, bufs := range idle {
			for _, b := range bufs {
				if err := b.free(); err != nil && first == nil {
					first = err
				}
			}
		}
	}
	if err := g.Close(); err != nil && first == nil {
		first = err
	}
	if first != nil {
		fail(first)
		return -1
	}
	return 0
}

// mgraph_host_alloc returns a result array for graph h on the cuda
// backend: num_vertices elements of uint32 (kind 0), float64 (kind 1) or
// float32 (kind 2) in page-locked memory, a spare one of the graph's when it has one; NULL
// on failure (a CPU graph has none). Give it back with mgraph_host_free.
//
//export mgraph_host_alloc
func mgraph_host_alloc(h C.int64_t, kind C.int) unsafe.Pointer {
	g, err := get(h)
	if err == nil && g.Backend() != mgraph.CUDA {
		err = fmt.Errorf("mgraph: host buffers are for graphs on the cuda backend")
	}
	if err == nil && (kind < 0 || kind >= hostKinds) {
		err = fmt.Errorf("mgraph: host buffer kind %d (want 0: uint32, 1: float64 or 2: float32)", int(kind))
	}
	if err != nil {
		fail(err)
		return nil
	}
	mu.Lock()
	if s := spare[int64(h)]; s != nil && len(s[kind]) > 0 {
		k := len(s[kind]) - 1
		b := s[kind][k]
		s[kind] = s[kind][:k]
		lent[uintptr(b.p)] = b
		mu.Unlock()
		return b.p
	}
	mu.Unlock()
	b := hostBuf{h: int64(h), kind: int(kind)}
	switch kind {
	case 0:
		b.p, b.free, err = hostBuffer[uint32](g)
	case 1:
		b.p, b.free, err = hostBuffer[float64](g)
	default:
		b.p, b.free, err = hostBuffer[float32](g)
	}
	if err == nil && b.p == nil {
		err = errors.Join(fmt.Errorf("mgraph: a host buffer of a graph without vertices"), b.free())
	}
	if err != nil {
		fail(err)
		return nil
	}
	mu.Lock()
	lent[uintptr(b.p)] = b
	mu.Unlock()
	return b.p
}

// hostBuffer makes a host buffer of V for g: its memory and its Free.
func hostBuffer[V uint32 | float32 | float64](g *mgraph.Graph) (unsafe.Pointer, func() error, error) {
	hb, err := mgraph.NewHostBuffer[V](g)
	if err != nil {
		return nil, nil, err
	}
	return unsafe.Pointer(unsafe.SliceData(hb.Slice())), hb.Free, nil
}

// mgraph_host_free gives back an array of mgraph_host_alloc: it becomes a
// spare of its graph (while the graph is open and has fewer than maxSpare)
// or is freed.
//
//export mgraph_host_free
func mgraph_host_free(p unsafe.Pointer) C.int {
	mu.Lock()
	b, ok := lent[uintptr(p)]
	delete(lent, uintptr(p))
	if ok {
		if _, open := graphs[b.h]; open {
			s := spare[b.h]
			if s == nil {
				s = new([hostKinds][]hostBuf)
				spare[b.h] = s
			}
			if len(s[b.kind]) < maxSpare {
				s[b.kind] = append(s[b.kind], b)
				mu.Unlock()
				return 0
			}
		}
	}
	mu.Unlock()
	if !ok {
		fail(fmt.Errorf("mgraph: %p is not a host buffer", p))
		return -1
	}
	if err := b.free(); err != nil {
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

// into runs app through Graph.IntoWith (depth: bfs's depth limit, 0 for none), writing the result straight into the
// caller's array out (one element per vertex, of V) and the stats into
// stats (trial, engine and copy seconds).
func into[V uint32 | float32 | float64](h C.int64_t, app string, sources []uint32, pr mgraph.PageRankOptions, depth int, out unsafe.Pointer, stats *C.double) C.int {
	g, err := get(h)
	if err != nil {
		fail(err)
		return -1
	}
	if out == nil {
		fail(fmt.Errorf("mgraph: %s: NULL result array", app))
		return -1
	}
	st, err := g.IntoWith(context.Background(), app, sources, pr, mgraph.RunOptions{DepthLimit: depth}, unsafe.Slice((*V)(out), g.NumVertices()))
	if err != nil {
		fail(err)
		return -1
	}
	putStats(stats, st)
	return 0
}

// putStats writes st into stats (trial, engine and copy seconds) unless
// it is NULL.
func putStats(stats *C.double, st mgraph.Stats) {
	if stats != nil {
		s := unsafe.Slice((*float64)(unsafe.Pointer(stats)), 3)
		s[0], s[1], s[2] = st.Trial.Seconds(), st.Engine.Seconds(), st.Copy.Seconds()
	}
}

// mgraph_bfs: depth > 0 is a depth limit (vertices further away are unreached), 0 none.
//
//export mgraph_bfs
func mgraph_bfs(h C.int64_t, source C.uint32_t, depth C.int, out *C.uint32_t, stats *C.double) C.int {
	return into[uint32](h, "bfs", []uint32{uint32(source)}, mgraph.PageRankOptions{}, int(depth), unsafe.Pointer(out), stats)
}

// mgraph_bfs_parents: the BFS tree as parents; depth as for mgraph_bfs.
//
//export mgraph_bfs_parents
func mgraph_bfs_parents(h C.int64_t, source C.uint32_t, depth C.int, out *C.uint32_t, stats *C.double) C.int {
	return into[uint32](h, "bfs-tree", []uint32{uint32(source)}, mgraph.PageRankOptions{}, int(depth), unsafe.Pointer(out), stats)
}

// mgraph_sssp: uint32 distances (0xFFFFFFFF where unreached) over uint32
// weights; a graph of float32 weights is an error (mgraph_sssp_f32).
//
//export mgraph_sssp
func mgraph_sssp(h C.int64_t, source C.uint32_t, out *C.uint32_t, stats *C.double) C.int {
	if g, err := get(h); err == nil && g.WeightType() == mgraph.Float32Weights {
		fail(fmt.Errorf("mgraph: sssp: the graph's weights are float32, and so are its distances: use mgraph_sssp_f32"))
		return -1
	}
	return into[uint32](h, "sssp", []uint32{uint32(source)}, mgraph.PageRankOptions{}, 0, unsafe.Pointer(out), stats)
}

// mgraph_sssp_f32: float32 distances (+Inf where unreached) over a graph
// of float32 weights (mgraph.Graph.SSSPFloat32).
//
//export mgraph_sssp_f32
func mgraph_sssp_f32(h C.int64_t, source C.uint32_t, out *C.float, stats *C.double) C.int {
	if g, err := get(h); err == nil && g.WeightType() != mgraph.Float32Weights {
		fail(fmt.Errorf("mgraph: sssp_f32: the graph's weights are not float32 (use mgraph_sssp)"))
		return -1
	}
	return into[float32](h, "sssp", []uint32{uint32(source)}, mgraph.PageRankOptions{}, 0, unsafe.Pointer(out), stats)
}

//export mgraph_cc
func mgraph_cc(h C.int64_t, out *C.uint32_t, stats *C.double) C.int {
	return into[uint32](h, "cc", nil, mgraph.PageRankOptions{}, 0, unsafe.Pointer(out), stats)
}

//export mgraph_pagerank
func mgraph_pagerank(h C.int64_t, damping, tolerance C.double, maxIter C.int, out *C.double, stats *C.double) C.int {
	pr := mgraph.PageRankOptions{Damping: float64(damping), Tolerance: float64(tolerance), MaxIterations: int(maxIter)}
	return into[float64](h, "pr", nil, pr, 0, unsafe.Pointer(out), stats)
}

//export mgraph_bc
func mgraph_bc(h C.int64_t, sources *C.uint32_t, k C.int64_t, out *C.double, stats *C.double) C.int {
	if k <= 0 || sources == nil {
		fail(fmt.Errorf("mgraph: bc needs at least one source"))
		return -1
	}
	srcs := append([]uint32(nil), unsafe.Slice((*uint32)(unsafe.Pointer(sources)), int(k))...)
	return into[float64](h, "bc", srcs, mgraph.PageRankOptions{}, 0, unsafe.Pointer(out), stats)
}

func main() {}
