package apps

import (
	"fmt"

	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/graph"
)

// ValidateTriangles checks a triangle count (and per-vertex counts, when
// given) against ref.Triangles.
func ValidateTriangles(g *graph.CSR, total uint64, perVertex []uint64) error {
	want, wantPer := ref.Triangles(g)
	if total != want {
		return fmt.Errorf("tc: %d triangles, want %d", total, want)
	}
	if perVertex == nil {
		return nil
	}
	if len(perVertex) != len(wantPer) {
		return fmt.Errorf("tc: %d per-vertex counts, want %d", len(perVertex), len(wantPer))
	}
	for v := range wantPer {
		if perVertex[v] != wantPer[v] {
			return fmt.Errorf("tc: vertex %d is in %d triangles, want %d", v, perVertex[v], wantPer[v])
		}
	}
	return nil
}

// ValidateKCore checks core numbers against ref.CoreNumbers.
func ValidateKCore(g *graph.CSR, core []uint32) error { return ref.CheckCoreNumbers(g, core) }

// ValidateColor checks that colors is a proper colouring with at most
// Δ+1 colours.
func ValidateColor(g *graph.CSR, colors []uint32) error { return ref.CheckColoring(g, colors) }

// ValidateMIS checks that inSet is a maximal independent set.
func ValidateMIS(g *graph.CSR, inSet []bool) error { return ref.CheckMIS(g, inSet) }

// ValidatePPR checks personalised ranks against ref.PersonalizedPageRank
// (same iterations, so the tolerances of ValidatePageRank).
func ValidatePPR(g *graph.CSR, sources []uint32, opts PageRankOptions, ranks []float64) error {
	want, _ := ref.PersonalizedPageRank(g, sources, ref.PageRankOptions{Damping: opts.Damping, Tolerance: opts.Tolerance, MaxIterations: opts.MaxIterations})
	return ref.CompareFloats(want, ranks, PageRankRelTol, PageRankAbsTol)
}

// ValidateHubsAuthorities checks HITS (salsa false) or SALSA scores
// against the reference run with the same cap and tolerance.
func ValidateHubsAuthorities(g *graph.CSR, salsa bool, maxIter int, tol float64, hubs, authorities []float64) error {
	run, name := ref.HITS, "hits"
	if salsa {
		run, name = ref.SALSA, "salsa"
	}
	wh, wa, _ := run(g, maxIter, tol)
	if err := ref.CompareFloats(wh, hubs, PageRankRelTol, PageRankAbsTol); err != nil {
		return fmt.Errorf("%s hubs: %w", name, err)
	}
	if err := ref.CompareFloats(wa, authorities, PageRankRelTol, PageRankAbsTol); err != nil {
		return fmt.Errorf("%s authorities: %w", name, err)
	}
	return nil
}

// ValidateWTF checks recommendations against ref.WhoToFollow. SALSA's
// scores that are equal in exact arithmetic may differ in their last bits
// between the two, so the lists must have the same length and may differ
// only where the reference's scores of the two vertices are within
// PageRankRelTol.
func ValidateWTF(g *graph.CSR, user uint32, opts WTFOptions, rec []uint32) error {
	want := ref.WhoToFollow(g, user, opts)
	if len(rec) != len(want) {
		return fmt.Errorf("wtf: %d recommendations %v, want %d %v", len(rec), rec, len(want), want)
	}
	score := wtfScores(g, user, opts)
	for i := range want {
		if rec[i] != want[i] && !closeTo(score[rec[i]], score[want[i]]) {
			return fmt.Errorf("wtf: recommendation %d is %d (score %g), want %d (score %g)", i, rec[i], score[rec[i]], want[i], score[want[i]])
		}
	}
	return nil
}

func closeTo(a, b float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	return d <= PageRankRelTol*max(a, b, -a, -b)+PageRankAbsTol
}

// wtfScores returns the reference's SALSA authority scores of
// who-to-follow's circle graph (ref.WhoToFollow's steps a to d).
func wtfScores(g *graph.CSR, user uint32, opts WTFOptions) []float64 {
	ppr, _ := ref.PersonalizedPageRank(g, []uint32{user}, opts.PageRank)
	circle := ref.TopK(ppr, opts.CircleSize, func(v uint32) bool { return v == user || ppr[v] == 0 })
	in := make([]bool, g.NumVertices)
	for _, v := range circle {
		in[v] = true
	}
	bip := &graph.CSR{Adjacency: graph.Adjacency{NumVertices: g.NumVertices, Offsets: make([]uint64, g.NumVertices+1), Neighbors: []uint32{}, Directed: true}}
	for u := uint32(0); uint64(u) < g.NumVertices; u++ {
		if in[u] {
			row, _ := g.Row(u)
			bip.Neighbors = append(bip.Neighbors, row...)
		}
		bip.Offsets[u+1] = uint64(len(bip.Neighbors))
	}
	_, auth, _ := ref.SALSA(bip, opts.SALSAIterations, opts.SALSATolerance)
	return auth
}

// ValidateMSF checks a spanning forest (edges in original ids, U < V) and
// its weight against Kruskal's (ref.CheckMSF) on g's edges.
func ValidateMSF(g *graph.CSR, weight uint64, edges []ref.Edge) error {
	el := &graph.EdgeList{NumVertices: g.NumVertices}
	for u := uint32(0); uint64(u) < g.NumVertices; u++ {
		nbrs, ws := g.Row(u)
		el.Src = append(el.Src, make([]uint32, len(nbrs))...)
		for i := range nbrs {
			el.Src[len(el.Src)-len(nbrs)+i] = u
		}
		el.Dst = append(el.Dst, nbrs...)
		if ws != nil {
			el.Weights = append(el.Weights, ws...)
		}
	}
	return ref.CheckMSF(el, weight, edges)
}
