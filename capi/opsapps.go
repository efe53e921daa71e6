package main

/*
#include <stdint.h>
*/
import "C"

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/mgraph-dev/mgraph"
)

// The apps written with the operators. Each returns 0 on success (but
// mgraph_who_to_follow: the number of recommendations) and -1 on failure;
// per-vertex results are copied into the caller's arrays of num_vertices
// elements, and stats (NULL: none) gets trial, engine and copy seconds.

// graphAnd returns graph h, or fails (the message for mgraph_last_error)
// when there is none or one of the result arrays is NULL.
func graphAnd(h C.int64_t, app string, outs ...unsafe.Pointer) (*mgraph.Graph, bool) {
	g, err := get(h)
	for _, p := range outs {
		if err == nil && p == nil {
			err = fmt.Errorf("mgraph: %s: NULL result array", app)
		}
	}
	if err != nil {
		fail(err)
		return nil, false
	}
	return g, true
}

// copyOut copies a result into the caller's array out (len(v) elements).
func copyOut[V any](out unsafe.Pointer, v []V) {
	if len(v) > 0 {
		copy(unsafe.Slice((*V)(out), len(v)), v)
	}
}

// done reports a run's error (returning -1) or stats (0).
func done(st mgraph.Stats, stats *C.double, err error) C.int {
	if err != nil {
		fail(err)
		return -1
	}
	putStats(stats, st)
	return 0
}

// mgraph_triangles: the number of triangles of an undirected graph into
// *total (unless NULL) and, unless per_vertex is NULL, every vertex's (the
// triangles it is a corner of); with per_vertex NULL only the total is
// counted, which is cheaper.
//
//export mgraph_triangles
func mgraph_triangles(h C.int64_t, total *C.uint64_t, perVertex *C.uint64_t, stats *C.double) C.int {
	g, ok := graphAnd(h, "tc")
	if !ok {
		return -1
	}
	var t uint64
	var per []uint64
	var st mgraph.Stats
	var err error
	if perVertex == nil {
		t, st, err = g.TriangleCount(context.Background())
	} else {
		t, per, st, err = g.Triangles(context.Background())
	}
	if err == nil {
		copyOut(unsafe.Pointer(perVertex), per)
		if total != nil {
			*total = C.uint64_t(t)
		}
	}
	return done(st, stats, err)
}

// mgraph_core_number: every vertex's core number (undirected graphs).
//
//export mgraph_core_number
func mgraph_core_number(h C.int64_t, out *C.uint32_t, stats *C.double) C.int {
	g, ok := graphAnd(h, "kcore", unsafe.Pointer(out))
	if !ok {
		return -1
	}
	core, st, err := g.CoreNumbers(context.Background())
	if err == nil {
		copyOut(unsafe.Pointer(out), core)
	}
	return done(st, stats, err)
}

// mgraph_color: every vertex's colour, Jones–Plassmann with random
// priorities from seed (undirected graphs).
//
//export mgraph_color
func mgraph_color(h C.int64_t, seed C.uint64_t, out *C.uint32_t, stats *C.double) C.int {
	g, ok := graphAnd(h, "color", unsafe.Pointer(out))
	if !ok {
		return -1
	}
	colors, st, err := g.Color(context.Background(), uint64(seed))
	if err == nil {
		copyOut(unsafe.Pointer(out), colors)
	}
	return done(st, stats, err)
}

// mgraph_mis: a maximal independent set (Luby, priorities from seed) as
// one byte per vertex, 1 in the set and 0 not (undirected graphs).
//
//export mgraph_mis
func mgraph_mis(h C.int64_t, seed C.uint64_t, out *C.uint8_t, stats *C.double) C.int {
	g, ok := graphAnd(h, "mis", unsafe.Pointer(out))
	if !ok {
		return -1
	}
	in, st, err := g.MaximalIndependentSet(context.Background(), uint64(seed))
	if err == nil {
		flags := unsafe.Slice((*uint8)(unsafe.Pointer(out)), len(in))
		for v, x := range in {
			flags[v] = uint8(b2i(x))
		}
	}
	return done(st, stats, err)
}

// mgraph_ppr: PageRank personalised to the k sources (teleports and
// dangling rank spread uniformly over the distinct ones); damping,
// tolerance and max_iter as for mgraph_pagerank (0: the default).
//
//export mgraph_ppr
func mgraph_ppr(h C.int64_t, sources *C.uint32_t, k C.int64_t, damping, tolerance C.double, maxIter C.int, out *C.double, stats *C.double) C.int {
	g, ok := graphAnd(h, "ppr", unsafe.Pointer(out))
	if !ok {
		return -1
	}
	if k <= 0 || sources == nil {
		fail(fmt.Errorf("mgraph: ppr needs at least one source"))
		return -1
	}
	srcs := unsafe.Slice((*uint32)(unsafe.Pointer(sources)), int(k)) // the API copies them
	pr := mgraph.PageRankOptions{Damping: float64(damping), Tolerance: float64(tolerance), MaxIterations: int(maxIter)}
	ranks, st, err := g.PersonalizedPageRank(context.Background(), srcs, pr)
	if err == nil {
		copyOut(unsafe.Pointer(out), ranks)
	}
	return done(st, stats, err)
}

// sourcesAnd is graphAnd for the multi-source calls: it also checks the k
// sources and returns them (C memory, read during the call, not kept).
func sourcesAnd(h C.int64_t, fn string, sources *C.uint32_t, k C.int64_t, out unsafe.Pointer) (*mgraph.Graph, []uint32, bool) {
	g, ok := graphAnd(h, fn, out)
	if !ok {
		return nil, nil, false
	}
	if k <= 0 || sources == nil {
		fail(fmt.Errorf("mgraph: %s needs at least one source", fn))
		return nil, nil, false
	}
	return g, unsafe.Slice((*uint32)(unsafe.Pointer(sources)), int(k)), true
}

// multiSource runs the multi-source traversal named app (bfs or sssp)
// from the k sources into out; fn names the C function in its errors.
func multiSource(h C.int64_t, fn, app string, sources *C.uint32_t, k C.int64_t, out *C.uint32_t, stats *C.double) C.int {
	g, srcs, ok := sourcesAnd(h, fn, sources, k, unsafe.Pointer(out))
	if !ok {
		return -1
	}
	if app == "sssp" && !g.Weighted() { // as the single-source sssp (unit weights would pass unnoticed)
		fail(fmt.Errorf("mgraph: %s needs edge weights, and the graph has none (multi_source_bfs gives hop distances)", fn))
		return -1
	}
	run := g.MultiSourceBFS
	if app == "sssp" {
		run = g.MultiSourceSSSP
	}
	values, st, err := run(context.Background(), srcs)
	if err == nil {
		copyOut(unsafe.Pointer(out), values)
	}
	return done(st, stats, err)
}

// mgraph_multi_source_sssp_f32 is mgraph_multi_source_sssp on a graph of
// float32 weights: float32 distances, +Inf where no source reaches.
//
//export mgraph_multi_source_sssp_f32
func mgraph_multi_source_sssp_f32(h C.int64_t, sources *C.uint32_t, k C.int64_t, out *C.float, stats *C.double) C.int {
	g, srcs, ok := sourcesAnd(h, "multi_source_sssp_f32", sources, k, unsafe.Pointer(out))
	if !ok {
		return -1
	}
	values, st, err := g.MultiSourceSSSPFloat32(context.Background(), srcs)
	if err == nil {
		copyOut(unsafe.Pointer(out), values)
	}
	return done(st, stats, err)
}

// mgraph_multi_source_bfs: every vertex's distance in arcs to the nearest
// of the k sources (original ids; repeats allowed), 0xFFFFFFFF where none
// reaches it (cuGraph's multi-source BFS, run with the operators).
//
//export mgraph_multi_source_bfs
func mgraph_multi_source_bfs(h C.int64_t, sources *C.uint32_t, k C.int64_t, out *C.uint32_t, stats *C.double) C.int {
	return multiSource(h, "multi_source_bfs", "bfs", sources, k, out, stats)
}

// mgraph_multi_source_sssp: every vertex's shortest-path distance to the
// nearest of the k sources over the arc weights, as
// mgraph_multi_source_bfs; an unweighted graph is an error, as for
// mgraph_sssp.
//
//export mgraph_multi_source_sssp
func mgraph_multi_source_sssp(h C.int64_t, sources *C.uint32_t, k C.int64_t, out *C.uint32_t, stats *C.double) C.int {
	return multiSource(h, "multi_source_sssp", "sssp", sources, k, out, stats)
}

// hubsAuthorities runs HITS or SALSA into the caller's hubs and
// authorities arrays.
func hubsAuthorities(h C.int64_t, app string, maxIter C.int, tol C.double, hubs, auth *C.double, stats *C.double) C.int {
	g, ok := graphAnd(h, app, unsafe.Pointer(hubs), unsafe.Pointer(auth))
	if !ok {
		return -1
	}
	run := g.HITS
	if app == "salsa" {
		run = g.SALSA
	}
	hs, as, st, err := run(context.Background(), int(maxIter), float64(tol))
	if err == nil {
		copyOut(unsafe.Pointer(hubs), hs)
		copyOut(unsafe.Pointer(auth), as)
	}
	return done(st, stats, err)
}

// mgraph_hits: HITS hub and authority scores (each summing to 1), at most
// max_iter (> 0) iterations, stopping once the hubs' L1 change is below
// tol.
//
//export mgraph_hits
func mgraph_hits(h C.int64_t, maxIter C.int, tol C.double, hubs, authorities *C.double, stats *C.double) C.int {
	return hubsAuthorities(h, "hits", maxIter, tol, hubs, authorities, stats)
}

// mgraph_salsa: SALSA hub and authority scores, as mgraph_hits (stopping
// once both L1 changes are below tol).
//
//export mgraph_salsa
func mgraph_salsa(h C.int64_t, maxIter C.int, tol C.double, hubs, authorities *C.double, stats *C.double) C.int {
	return hubsAuthorities(h, "salsa", maxIter, tol, hubs, authorities, stats)
}

// mgraph_who_to_follow: the accounts recommended to user, best first,
// into out (room for n); circle_size, top_k, damping, tolerance, max_iter
// (the personalised PageRank's), salsa_max_iter and salsa_tol are
// mgraph.WTFOptions' (0: the default). Returns the number of
// recommendations (the first n of them are written), or -1.
//
//export mgraph_who_to_follow
func mgraph_who_to_follow(h C.int64_t, user C.uint32_t, circleSize, topK C.int, damping, tolerance C.double, maxIter, salsaMaxIter C.int,
	salsaTol C.double, out *C.uint32_t, n C.int64_t, stats *C.double) C.int64_t {
	g, ok := graphAnd(h, "wtf")
	if !ok {
		return -1
	}
	if n < 0 || (n > 0 && out == nil) {
		fail(fmt.Errorf("mgraph: wtf: a result array of %d elements at %p", int64(n), out))
		return -1
	}
	w := mgraph.WTFOptions{CircleSize: int(circleSize), TopK: int(topK),
		PageRank:        mgraph.PageRankOptions{Damping: float64(damping), Tolerance: float64(tolerance), MaxIterations: int(maxIter)},
		SALSAIterations: int(salsaMaxIter), SALSATolerance: float64(salsaTol)}
	rec, st, err := g.WhoToFollow(context.Background(), uint32(user), w)
	if done(st, stats, err) < 0 {
		return -1
	}
	copyOut(unsafe.Pointer(out), rec[:min(len(rec), int(n))])
	return C.int64_t(len(rec))
}

// mgraph_msf: a minimum spanning forest (Borůvka; undirected graphs,
// unweighted edges weigh 1): its edges' ends (original ids, u < v) and
// weights into u, v and w (room for n each; a forest has fewer edges than
// the graph has vertices) and its total weight into *weight. Returns the
// number of edges (the first n of them are written), or -1.
//
//export mgraph_msf
func mgraph_msf(h C.int64_t, u, v, w *C.uint32_t, n C.int64_t, weight *C.uint64_t, stats *C.double) C.int64_t {
	g, ok := graphAnd(h, "msf", unsafe.Pointer(weight))
	if !ok {
		return -1
	}
	if n < 0 || (n > 0 && (u == nil || v == nil || w == nil)) {
		fail(fmt.Errorf("mgraph: msf: result arrays of %d elements at %p, %p, %p", int64(n), u, v, w))
		return -1
	}
	total, edges, st, err := g.MinimumSpanningForest(context.Background())
	if done(st, stats, err) < 0 {
		return -1
	}
	k := min(len(edges), int(n))
	us, vs, ws := make([]uint32, k), make([]uint32, k), make([]uint32, k)
	for i, e := range edges[:k] {
		us[i], vs[i], ws[i] = e.U, e.V, e.W
	}
	copyOut(unsafe.Pointer(u), us)
	copyOut(unsafe.Pointer(v), vs)
	copyOut(unsafe.Pointer(w), ws)
	*weight = C.uint64_t(total)
	return C.int64_t(len(edges))
}
