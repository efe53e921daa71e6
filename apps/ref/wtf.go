package ref

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/mgraph-dev/mgraph/graph"
)

// WTFOptions controls WhoToFollow.
type WTFOptions struct {
	// CircleSize is the largest number of vertices in the circle of trust.
	// Twitter's and Gunrock's WTF use 1000 on real follow graphs; the
	// default, 20, suits the small graphs of tests and examples.
	CircleSize int
	// PageRank controls the personalised PageRank from the user.
	PageRank PageRankOptions
	// SALSAIterations caps the SALSA iterations (maxIter of SALSA).
	SALSAIterations int
	// SALSATolerance is SALSA's tol: it stops once the L1 change of both
	// score vectors is below it.
	SALSATolerance float64
	// TopK is the largest number of recommendations returned.
	TopK int
}

// DefaultWTFOptions returns CircleSize 20, DefaultPageRankOptions,
// SALSAIterations 100, SALSATolerance 1e-4 and TopK 10.
func DefaultWTFOptions() WTFOptions {
	return WTFOptions{
		CircleSize:      20,
		PageRank:        DefaultPageRankOptions(),
		SALSAIterations: 100,
		SALSATolerance:  1e-4,
		TopK:            10,
	}
}

// WhoToFollow recommends accounts for user to follow in the directed
// follow graph g (an arc u→v: u follows v), following Twitter's WTF
// (Gupta et al., WWW 2013) as implemented in Gunrock's who-to-follow app.
// It returns at most opts.TopK vertices, best first.
//
// Steps (engines must follow them to agree with this oracle):
//
//  1. Personalised PageRank: ppr = PersonalizedPageRank(g, {user},
//     opts.PageRank), so every vertex the user cannot reach has rank 0.
//  2. Circle of trust: TopK(ppr, opts.CircleSize, ...) excluding the user
//     and every vertex of rank 0 (those the user does not reach): the
//     at most CircleSize reachable vertices of highest rank, ties broken
//     by smaller ID.
//  3. Bipartite graph: the hubs are the circle of trust, the authorities
//     their out-neighbours, and its arcs are all arcs h→v of g leaving a
//     hub h, kept as they are (duplicates and self-loops included). It is
//     built as a CSR on g's vertex IDs in which only hubs have arcs, so a
//     vertex may be both a hub and an authority, in separate roles.
//  4. SALSA on that graph with opts.SALSAIterations and
//     opts.SALSATolerance.
//  5. Recommendations: TopK(authority scores, opts.TopK, ...) among the
//     authorities of step 3, excluding the user and every vertex the user
//     already follows (has an arc to), ties broken by smaller ID.
//
// WhoToFollow panics if user is not a vertex of g.
func WhoToFollow(g *graph.CSR, user uint32, opts WTFOptions) []uint32 {
	n := g.NumVertices
	if uint64(user) >= n {
		panic(fmt.Sprintf("ref.WhoToFollow: user %d is not a vertex of a graph with %d vertices", user, n))
	}
	// 1. Personalised PageRank from the user.
	ppr, _ := PersonalizedPageRank(g, []uint32{user}, opts.PageRank)
	// 2. Circle of trust.
	circle := TopK(ppr, opts.CircleSize, func(v uint32) bool { return v == user || ppr[v] == 0 })
	// 3. Hub→authority graph: the circle's rows of g, every other row empty.
	inCircle := make([]bool, n)
	for _, h := range circle {
		inCircle[h] = true
	}
	isAuthority := make([]bool, n)
	bip := &graph.CSR{Adjacency: graph.Adjacency{NumVertices: n, Offsets: make([]uint64, n+1), Neighbors: []uint32{}, Directed: true}}
	for u := uint32(0); uint64(u) < n; u++ {
		if inCircle[u] {
			row, _ := g.Row(u)
			bip.Neighbors = append(bip.Neighbors, row...)
			for _, v := range row {
				isAuthority[v] = true
			}
		}
		bip.Offsets[u+1] = uint64(len(bip.Neighbors))
	}
	// 4. SALSA.
	_, auth, _ := SALSA(bip, opts.SALSAIterations, opts.SALSATolerance)
	// 5. Best authorities the user does not follow yet.
	follows := make([]bool, n)
	row, _ := g.Row(user)
	for _, v := range row {
		follows[v] = true
	}
	return TopK(auth, opts.TopK, func(v uint32) bool { return v == user || follows[v] || !isAuthority[v] })
}

// TopK returns the indices of the k highest scores, highest first, ties
// broken by the smaller index, skipping every v for which exclude(v) is
// true (exclude may be nil). It returns fewer than k indices when fewer are
// left, and none when k ≤ 0. NaN ranks below every number.
//
// Scores are compared rounded to TopKDigits significant digits: scores
// equal in exact arithmetic but summed in different orders (by a parallel
// engine and this reference) then tie, and both pick by index.
func TopK(scores []float64, k int, exclude func(v uint32) bool) []uint32 {
	if k <= 0 {
		return []uint32{}
	}
	rounded := make([]float64, len(scores))
	for v, x := range scores {
		rounded[v] = roundDigits(x, TopKDigits)
	}
	scores = rounded
	candidates := make([]uint32, 0, len(scores))
	for v := range scores {
		if exclude == nil || !exclude(uint32(v)) {
			candidates = append(candidates, uint32(v))
		}
	}
	slices.SortFunc(candidates, func(a, b uint32) int {
		return cmp.Or(cmp.Compare(scores[b], scores[a]), cmp.Compare(a, b))
	})
	return candidates[:min(k, len(candidates))]
}

// TopKDigits is the significant digits TopK compares scores to.
const TopKDigits = 10

// roundDigits rounds x to digits significant digits (NaN, infinities and
// zero are kept).
func roundDigits(x float64, digits int) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	scale := math.Pow(10, float64(digits-1)-math.Floor(math.Log10(math.Abs(x))))
	return math.Round(x*scale) / scale
}
