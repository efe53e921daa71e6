package graph

import (
	"math"
	"math/bits"
	"slices"

	"github.com/mgraph-dev/mgraph/internal/par"
)

// DegreeStats summarises one degree distribution (out- or in-degrees).
type DegreeStats struct {
	Min, Max   uint64
	Mean       float64
	StdDev     float64
	Median     uint64
	P99        uint64 // 99th percentile
	Zero       uint64 // vertices of degree 0
	MaxVertex  uint32 // a vertex with the largest degree (the smallest such id)
	Log2Bucket []uint64
	// Log2Bucket[0] counts degree 0, Log2Bucket[k] degrees in [2^(k-1), 2^k).
}

// Degrees returns the degree of every vertex of a (its row lengths).
func (a *Adjacency) Degrees() []uint64 {
	d := make([]uint64, a.NumVertices)
	for v := range d {
		d[v] = a.Offsets[v+1] - a.Offsets[v]
	}
	return d
}

// OutDegrees counts the arcs leaving each vertex.
func (el *EdgeList) OutDegrees(workers int) []uint64 {
	return countKeys(el.NumVertices, el.Src, workers)
}

// InDegrees counts the arcs entering each vertex.
func (el *EdgeList) InDegrees(workers int) []uint64 {
	return countKeys(el.NumVertices, el.Dst, workers)
}

// countKeys counts occurrences of each key in [0, n), in parallel with
// per-chunk counters merged at the end.
func countKeys(n uint64, keys []uint32, workers int) []uint64 {
	chunks := par.Split(len(keys), par.Workers(workers))
	if len(chunks) <= 1 {
		cnt := make([]uint64, n)
		for _, k := range keys {
			cnt[k]++
		}
		return cnt
	}
	parts := make([][]uint64, len(chunks))
	par.ForChunks(chunks, func(c par.Chunk) {
		cnt := make([]uint64, n)
		for _, k := range keys[c.Lo:c.Hi] {
			cnt[k]++
		}
		parts[c.Index] = cnt
	})
	total := parts[0]
	par.For(int(n), workers, 1<<16, func(lo, hi int) {
		for _, p := range parts[1:] {
			for v := lo; v < hi; v++ {
				total[v] += p[v]
			}
		}
	})
	return total
}

// Summarize computes the statistics of a degree sequence.
func Summarize(deg []uint64) DegreeStats {
	s := DegreeStats{Log2Bucket: make([]uint64, 1)}
	if len(deg) == 0 {
		return s
	}
	s.Min = math.MaxUint64
	var sum, sumSq float64
	for v, d := range deg {
		if d < s.Min {
			s.Min = d
		}
		if d > s.Max {
			s.Max, s.MaxVertex = d, uint32(v)
		}
		if d == 0 {
			s.Zero++
		}
		b := 0
		if d > 0 {
			b = 64 - bits.LeadingZeros64(d)
		}
		for len(s.Log2Bucket) <= b {
			s.Log2Bucket = append(s.Log2Bucket, 0)
		}
		s.Log2Bucket[b]++
		sum += float64(d)
		sumSq += float64(d) * float64(d)
	}
	n := float64(len(deg))
	s.Mean = sum / n
	s.StdDev = math.Sqrt(math.Max(0, sumSq/n-s.Mean*s.Mean))
	sorted := slices.Clone(deg)
	slices.Sort(sorted)
	s.Median = sorted[len(sorted)/2]
	s.P99 = sorted[min(len(sorted)-1, int(0.99*n))]
	return s
}

// DefaultGroupThresholds returns MultiGraph's in-degree group boundaries
// (paper §3): group 1 has in-degree ≥ 2048, group 2 [1024, 2048), group 3
// [512, 1024), group 4 [256, 512), group 5 [128, 256), group 6 < 128.
func DefaultGroupThresholds() []uint64 { return []uint64{2048, 1024, 512, 256, 128} }

// DegreeGroups is the histogram of a degree sequence over MultiGraph's
// degree groups: Vertices[g] and Arcs[g] count the vertices of group g+1 and
// the sum of their degrees.
type DegreeGroups struct {
	Thresholds []uint64 // descending lower bounds of groups 1..len
	Vertices   []uint64 // len(Thresholds)+1 entries
	Arcs       []uint64
}

// GroupHistogram places every vertex in the first group whose threshold its
// degree reaches (thresholds descending); the last group takes the rest.
func GroupHistogram(deg []uint64, thresholds []uint64) DegreeGroups {
	g := DegreeGroups{
		Thresholds: slices.Clone(thresholds),
		Vertices:   make([]uint64, len(thresholds)+1),
		Arcs:       make([]uint64, len(thresholds)+1),
	}
	for _, d := range deg {
		i := GroupOf(d, thresholds)
		g.Vertices[i]++
		g.Arcs[i] += d
	}
	return g
}

// GroupOf returns the 0-based group index of degree d for descending thresholds.
func GroupOf(d uint64, thresholds []uint64) int {
	for i, t := range thresholds {
		if d >= t {
			return i
		}
	}
	return len(thresholds)
}
