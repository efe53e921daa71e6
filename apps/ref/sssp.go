package ref

import (
	"cmp"
	"container/heap"
	"errors"
	"fmt"
	"math"

	"github.com/mgraph-dev/mgraph/graph"
)

// SSSP computes single-source shortest-path distances from source along the
// weighted arcs of g by Dijkstra's algorithm with a binary heap and lazy
// deletion (a vertex may sit in the heap several times; stale entries are
// skipped when popped). Weights are uint32 and may be zero; distances are
// uint64 sums, which cannot overflow (at most 2^32-1 arcs of at most 2^32-1
// each on a shortest path). Unreachable vertices get Infinity.
//
// It returns an error if g has no weights or source is not a vertex of g.
func SSSP(g *graph.CSR, source uint32) ([]uint64, error) {
	n := g.NumVertices
	if !g.Weighted() {
		return nil, errors.New("SSSP needs a weighted graph")
	}
	if uint64(source) >= n {
		return nil, fmt.Errorf("source %d is not a vertex of a graph with %d vertices", source, n)
	}
	dist := make([]uint64, n)
	for v := range dist {
		dist[v] = Infinity
	}
	dist[source] = 0
	pq := &distHeap[uint64]{{dist: 0, v: source}}
	for pq.Len() > 0 {
		e := heap.Pop(pq).(heapEntry[uint64])
		if e.dist != dist[e.v] {
			continue // stale: v was settled with a smaller distance
		}
		nbrs, ws := g.Row(e.v)
		for i, v := range nbrs {
			if d := e.dist + uint64(ws[i]); d < dist[v] {
				dist[v] = d
				heap.Push(pq, heapEntry[uint64]{dist: d, v: v})
			}
		}
	}
	return dist, nil
}

// SSSPFloat32 is SSSP over float32 weights (g.WeightKind must be
// graph.Float32Weights): Dijkstra with every distance a float32 and every
// relaxation the float32 sum dist[u] + w, rounded to nearest, as the
// engines add. Unreachable vertices get +Inf (as does a vertex whose
// every path sums beyond float32's range).
//
// The result is exactly what any label-correcting engine reaches, whatever
// its order of relaxations: for non-negative weights, fl(a + w) is
// non-decreasing in a and never below a, so the fixed point of the
// relaxations is, at every vertex, the least over all paths of the path's
// float32 sum taken in path order, and Dijkstra's argument holds for that
// path value too (a popped vertex is final). Different paths may round
// differently, but the least of their values is one number. So engines
// are validated for exact equality (CompareFloat32Distances).
func SSSPFloat32(g *graph.CSR, source uint32) ([]float32, error) {
	n := g.NumVertices
	switch {
	case !g.Weighted():
		return nil, errors.New("SSSP needs a weighted graph")
	case g.WeightKind != graph.Float32Weights:
		return nil, fmt.Errorf("SSSPFloat32 needs float32 weights, the graph's are %v", g.WeightKind)
	}
	if uint64(source) >= n {
		return nil, fmt.Errorf("source %d is not a vertex of a graph with %d vertices", source, n)
	}
	inf := float32(math.Inf(1))
	dist := make([]float32, n)
	done := make([]bool, n)
	for v := range dist {
		dist[v] = inf
	}
	dist[source] = 0
	pq := &distHeap[float32]{{dist: 0, v: source}}
	for pq.Len() > 0 {
		e := heap.Pop(pq).(heapEntry[float32])
		if done[e.v] || e.dist != dist[e.v] {
			continue // stale, or settled (a +Inf entry may repeat)
		}
		done[e.v] = true
		nbrs, ws := g.Row(e.v)
		for i, v := range nbrs {
			if d := e.dist + math.Float32frombits(ws[i]); d < dist[v] {
				dist[v] = d
				heap.Push(pq, heapEntry[float32]{dist: d, v: v})
			}
		}
	}
	return dist, nil
}

// heapEntry is a tentative distance of a vertex (D: uint64 sums, or
// float32 ones).
type heapEntry[D cmp.Ordered] struct {
	dist D
	v    uint32
}

// distHeap is a min-heap of tentative distances for container/heap.
type distHeap[D cmp.Ordered] []heapEntry[D]

func (h distHeap[D]) Len() int           { return len(h) }
func (h distHeap[D]) Less(i, j int) bool { return h[i].dist < h[j].dist }
func (h distHeap[D]) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *distHeap[D]) Push(x any)        { *h = append(*h, x.(heapEntry[D])) }
func (h *distHeap[D]) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

// CheckSSSP verifies SSSP distances from source independently of SSSP (it
// runs no shortest-path algorithm), in O(V+E):
//
//   - dist has one entry per vertex and dist[source] = 0;
//   - every arc u→v with dist[u] finite satisfies dist[v] ≤ dist[u]+w (so no
//     distance is too large, and no vertex reachable from a reached vertex
//     is left at Infinity);
//   - every vertex with a finite distance is reachable from source through
//     tight arcs (dist[u]+w = dist[v]), so every finite distance is the
//     length of a real path, hence no distance is too small and no
//     unreachable vertex has a finite distance. With positive weights this is
//     the usual "every reached v ≠ source has a tight in-arc"; the
//     reachability form also holds when zero-weight cycles exist.
//
// It returns nil if dist is correct, otherwise an error naming a vertex.
func CheckSSSP(g *graph.CSR, source uint32, dist []uint64) error {
	n := g.NumVertices
	if !g.Weighted() {
		return errors.New("SSSP needs a weighted graph")
	}
	if uint64(source) >= n {
		return fmt.Errorf("source %d is not a vertex of a graph with %d vertices", source, n)
	}
	if uint64(len(dist)) != n {
		return fmt.Errorf("got %d distances for %d vertices", len(dist), n)
	}
	if dist[source] != 0 {
		return fmt.Errorf("source %d has distance %s, want 0", source, fmtDist(dist[source]))
	}
	// Relaxation: no arc can still improve a distance.
	for u := uint32(0); uint64(u) < n; u++ {
		if dist[u] == Infinity {
			continue
		}
		nbrs, ws := g.Row(u)
		for i, v := range nbrs {
			if d, ok := addDist(dist[u], ws[i]); ok && d < dist[v] {
				return fmt.Errorf("arc %d→%d (weight %d) relaxes vertex %d: distance %s > %d + %d",
					u, v, ws[i], v, fmtDist(dist[v]), dist[u], ws[i])
			}
		}
	}
	// Tight-arc reachability from the source.
	seen := make([]bool, n)
	seen[source] = true
	stack := []uint32{source}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nbrs, ws := g.Row(u)
		for i, v := range nbrs {
			if d, ok := addDist(dist[u], ws[i]); ok && d == dist[v] && !seen[v] {
				seen[v] = true
				stack = append(stack, v)
			}
		}
	}
	for v, d := range dist {
		if d != Infinity && !seen[v] {
			return fmt.Errorf("vertex %d has distance %d but no path of that length from source %d (no chain of tight arcs)", v, d, source)
		}
	}
	return nil
}

// addDist returns d+w and true, or false if d is Infinity or the sum
// overflows (possible only with a corrupt d), in which case d+w is larger
// than any representable distance.
func addDist(d uint64, w uint32) (uint64, bool) {
	s := d + uint64(w)
	if d == Infinity || s < d {
		return 0, false
	}
	return s, true
}

// fmtDist prints a distance, spelling out Infinity.
func fmtDist(d uint64) string {
	if d == Infinity {
		return "infinity"
	}
	return fmt.Sprint(d)
}
