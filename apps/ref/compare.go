package ref

import (
	"fmt"
	"math"
	"strconv"
)

// CompareLevels checks that got equals want vertex by vertex (BFS levels,
// or any other exact per-vertex uint32 result). The error names the first
// differing vertex and the number of differing vertices.
func CompareLevels(want, got []uint32) error {
	return compareExact(want, got, "level", fmtLevel)
}

// CompareDistances checks that got equals want vertex by vertex (SSSP
// distances). The error names the first differing vertex and the number of
// differing vertices.
func CompareDistances(want, got []uint64) error {
	return compareExact(want, got, "distance", fmtDist)
}

// CompareFloat32Distances checks that got equals want vertex by vertex
// exactly (float32 SSSP distances, +Inf where unreached; see SSSPFloat32
// for why exact). The error names the first differing vertex, both
// values in full precision, and the number of differing vertices.
func CompareFloat32Distances(want, got []float32) error {
	wb, gb := make([]uint32, len(want)), make([]uint32, len(got))
	for i, x := range want {
		wb[i] = math.Float32bits(x)
	}
	for i, x := range got {
		gb[i] = math.Float32bits(x)
	}
	return compareExact(wb, gb, "distance", func(b uint32) string {
		return strconv.FormatFloat(float64(math.Float32frombits(b)), 'g', -1, 32)
	})
}

// compareExact is CompareLevels and CompareDistances: what names the
// values in the message and format prints one.
func compareExact[T comparable](want, got []T, what string, format func(T) string) error {
	if len(want) != len(got) {
		return fmt.Errorf("got %d %ss, want %d", len(got), what, len(want))
	}
	first, bad := -1, 0
	for v := range want {
		if want[v] != got[v] {
			if first < 0 {
				first = v
			}
			bad++
		}
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d vertices differ; first: vertex %d has %s %s, want %s",
			bad, len(want), first, what, format(got[first]), format(want[first]))
	}
	return nil
}

// SamePartition checks that two component labelings describe the same
// partition of the vertices: u and v share a label in a exactly when they
// share one in b. The label values themselves may differ (a min-ID labeling
// against a root-ID one, say). The error names a vertex whose component
// differs.
func SamePartition(a, b []uint32) error {
	if len(a) != len(b) {
		return fmt.Errorf("labelings have %d and %d vertices", len(a), len(b))
	}
	// Relabel both by the smallest vertex carrying each label; the
	// partitions are equal exactly when these canonical labelings are.
	ca, cb := canonicalLabels(a), canonicalLabels(b)
	for v := range ca {
		if ca[v] != cb[v] {
			// v's components differ. The smaller of the two representatives
			// is in one of v's components but not in the other (it is below
			// the other component's smallest vertex).
			if ca[v] < cb[v] {
				w := ca[v]
				return fmt.Errorf("vertices %d and %d are together in the first labeling (labels %d, %d) but apart in the second (labels %d, %d)",
					v, w, a[v], a[w], b[v], b[w])
			}
			w := cb[v]
			return fmt.Errorf("vertices %d and %d are apart in the first labeling (labels %d, %d) but together in the second (labels %d, %d)",
				v, w, a[v], a[w], b[v], b[w])
		}
	}
	return nil
}

// canonicalLabels maps each vertex to the smallest vertex with its label.
func canonicalLabels(labels []uint32) []uint32 {
	out := make([]uint32, len(labels))
	if _, ok := countByVertexLabel(labels); ok {
		first := make([]uint32, len(labels))
		for i := range first {
			first[i] = Unreached
		}
		for v, l := range labels {
			if first[l] == Unreached {
				first[l] = uint32(v)
			}
			out[v] = first[l]
		}
		return out
	}
	first := make(map[uint32]uint32)
	for v, l := range labels {
		f, ok := first[l]
		if !ok {
			f = uint32(v)
			first[l] = f
		}
		out[v] = f
	}
	return out
}

// CompareFloats checks got against want vertex by vertex (PageRank, BC):
// vertex v passes when |got[v] - want[v]| ≤ absTol + relTol*|want[v]|.
// NaN and infinities pass only when got is the same as want. The error
// reports the number of failing vertices and the worst one (largest error
// relative to its allowance), with its absolute and relative error.
func CompareFloats(want, got []float64, relTol, absTol float64) error {
	if len(want) != len(got) {
		return fmt.Errorf("got %d values, want %d", len(got), len(want))
	}
	worst, worstScore, bad := -1, 0.0, 0
	for v := range want {
		w, g := want[v], got[v]
		if w == g || (math.IsNaN(w) && math.IsNaN(g)) {
			continue
		}
		diff := math.Abs(g - w)
		allowed := absTol + relTol*math.Abs(w)
		special := math.IsNaN(w) || math.IsNaN(g) || math.IsInf(w, 0) || math.IsInf(g, 0)
		if !special && diff <= allowed {
			continue
		}
		score := diff / allowed // +Inf when nothing is allowed
		if special || math.IsNaN(score) {
			score = math.Inf(1)
		}
		bad++
		if worst < 0 || score > worstScore {
			worst, worstScore = v, score
		}
	}
	if bad > 0 {
		w, g := want[worst], got[worst]
		return fmt.Errorf("%d of %d vertices outside tolerance (rel %g, abs %g); worst: vertex %d has %g, want %g (abs error %g, rel error %g)",
			bad, len(want), relTol, absTol, worst, g, w, math.Abs(g-w), math.Abs(g-w)/math.Abs(w))
	}
	return nil
}
