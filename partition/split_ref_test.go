package partition

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/require"
)

// splitReference is the serial Split this package had before the
// chunked two-pass one, kept to check that the output did not change.
// It cuts el into parts parts by owner (one entry per vertex, each in
// [0, parts), as Assign returns): part p holds the arcs whose source p
// owns, relabelled locally (see Part). Every arc of el is in exactly one
// part. Parts are made in parallel, each by two passes over all the arcs
// that keep its own, with one scratch array of NumVertices entries per
// goroutine. It fails on an
// invalid graph or owner table, and when ctx is cancelled.
func splitReference(ctx context.Context, el *graph.EdgeList, owner []uint32, parts int) ([]*Part, error) {
	if el == nil {
		return nil, fmt.Errorf("partition: split: nil graph")
	}
	if parts < 1 || parts > MaxParts {
		return nil, fmt.Errorf("partition: split into %d parts; want 1..%d", parts, MaxParts)
	}
	if err := el.Validate(); err != nil {
		return nil, fmt.Errorf("partition: split: %w", err)
	}
	n := el.NumVertices
	if uint64(len(owner)) != n {
		return nil, fmt.Errorf("partition: split: %d owners for %d vertices", len(owner), n)
	}
	// Owned vertices per part, in increasing id, and every vertex's local id.
	start := make([]uint64, parts+1)
	for v, p := range owner {
		if p >= uint32(parts) {
			return nil, fmt.Errorf("partition: split: vertex %d has owner %d, not one of the %d parts", v, p, parts)
		}
		start[p+1]++
	}
	for p := 1; p <= parts; p++ {
		start[p] += start[p-1]
	}
	owned := make([]uint32, n)
	local := make([]uint32, n)
	fill := slices.Clone(start[:parts])
	for v, p := range owner {
		local[v] = uint32(fill[p] - start[p])
		owned[fill[p]] = uint32(v)
		fill[p]++
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("partition: split: %w", err)
	}

	out := make([]*Part, parts)
	errs := make([]error, parts)
	workers := min(par.Workers(0), parts)
	scratch := make([][]uint32, workers)
	par.Each(parts, workers, func(w, p int) {
		if scratch[w] == nil {
			scratch[w] = make([]uint32, n)
		}
		out[p], errs[p] = splitPartReference(ctx, el, owner, local, owned[start[p]:start[p+1]], p, parts, scratch[w])
	})
	for p, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("partition: split: part %d: %w", p, err)
		}
	}

	// Boundary vertices: the owners' side of every ghost.
	for _, q := range out {
		for g, o := range q.GhostOwner {
			out[o].Boundary = append(out[o].Boundary, q.GhostRemote[g])
		}
	}
	for _, p := range out {
		slices.Sort(p.Boundary)
		p.Boundary = slices.Compact(p.Boundary)
	}
	return out, nil
}

// splitPartReference makes part p from the arcs whose source it owns; slot is a
// zeroed scratch array of one entry per vertex, zeroed again on return.
func splitPartReference(ctx context.Context, el *graph.EdgeList, owner, local, owned []uint32, p, parts int, slot []uint32) (*Part, error) {
	me := uint32(p)
	numLocal := uint64(len(owned))
	// Pass 1: count the arcs and collect the ghosts (slot marks them).
	var arcs uint64
	var ghosts []uint32
	for i, u := range el.Src {
		if i%(1<<16) == 0 {
			if err := ctx.Err(); err != nil {
				for _, g := range ghosts {
					slot[g] = 0
				}
				return nil, err
			}
		}
		if owner[u] != me {
			continue
		}
		arcs++
		if d := el.Dst[i]; owner[d] != me && slot[d] == 0 {
			slot[d] = 1
			ghosts = append(ghosts, d)
		}
	}
	defer func() {
		for _, g := range ghosts {
			slot[g] = 0
		}
	}()
	slices.SortFunc(ghosts, func(a, b uint32) int {
		if c := cmp.Compare(owner[a], owner[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	pt := &Part{
		Index: p, NumParts: parts, NumVertices: el.NumVertices,
		NumLocal: numLocal, NumGhosts: uint64(len(ghosts)),
		Global:      make([]uint32, 0, numLocal+uint64(len(ghosts))),
		GhostOwner:  make([]uint32, len(ghosts)),
		GhostRemote: make([]uint32, len(ghosts)),
		Directed:    el.Directed,
		tri:         new(triangleMemo), // as Split's: RunTriangles' lists, none yet
	}
	pt.Global = append(append(pt.Global, owned...), ghosts...)
	for g, v := range ghosts {
		slot[v] = uint32(g) + 1
		pt.GhostOwner[g] = owner[v]
		pt.GhostRemote[g] = local[v]
	}
	// Pass 2: the arcs in local numbering.
	sub := &graph.EdgeList{
		NumVertices: pt.NumPartVertices(),
		Src:         make([]uint32, 0, arcs),
		Dst:         make([]uint32, 0, arcs),
		Directed:    true,
	}
	if el.Weights != nil {
		sub.Weights, sub.WeightKind = make([]uint32, 0, arcs), el.WeightKind
	}
	for i, u := range el.Src {
		if owner[u] != me {
			continue
		}
		d := el.Dst[i]
		ld := local[d]
		if owner[d] != me {
			ld = uint32(numLocal) + slot[d] - 1
			pt.GhostArcs++
		}
		sub.Src = append(sub.Src, local[u])
		sub.Dst = append(sub.Dst, ld)
		if el.Weights != nil {
			sub.Weights = append(sub.Weights, el.Weights[i])
		}
	}
	pt.EL = sub
	return pt, nil
}

// randomGraph returns a graph of n vertices and m random arcs (self loops
// and duplicates included), weighted when weighted is set.
func randomGraph(rng *rand.Rand, n, m int, directed, weighted bool) *graph.EdgeList {
	el := &graph.EdgeList{NumVertices: uint64(n), Directed: directed,
		Src: make([]uint32, m), Dst: make([]uint32, m)}
	if weighted {
		el.Weights, el.WeightKind = make([]uint32, m), graph.Uint32Weights
	}
	for i := range m {
		el.Src[i], el.Dst[i] = uint32(rng.IntN(n)), uint32(rng.IntN(n))
		if weighted {
			el.Weights[i] = rng.Uint32()
		}
	}
	return el
}

// TestSplitMatchesReference checks that Split gives exactly the parts of
// the serial reference (tables, boundaries, arcs in order), for every
// method, for part counts up to and beyond one batch, and for owners that
// leave parts empty.
func TestSplitMatchesReference(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 11))
	for _, tc := range []struct{ n, m int }{{1, 3}, {40, 200}, {1000, 9000}, {70000, 300000}} {
		for _, parts := range []int{1, 2, 3, 5, splitBatch, splitBatch + 3, 2*splitBatch + 1} {
			el := randomGraph(rng, tc.n, tc.m, parts%2 == 0, parts%3 != 0)
			owners := map[string][]uint32{}
			for _, m := range Methods {
				o, err := Assign(ctx, el, Options{Method: m, Parts: parts, Seed: uint64(parts)})
				require.NoError(t, err)
				owners[m.String()] = o
			}
			skew := make([]uint32, tc.n) // parts 0 and last only
			for v := range skew {
				if rng.IntN(4) == 0 {
					skew[v] = uint32(parts - 1)
				}
			}
			owners["skewed"] = skew
			for name, owner := range owners {
				tag := fmt.Sprintf("n=%d m=%d parts=%d %s", tc.n, tc.m, parts, name)
				want, err := splitReference(ctx, el, owner, parts)
				require.NoError(t, err, tag)
				got, err := Split(ctx, el, owner, parts)
				require.NoError(t, err, tag)
				require.Equal(t, want, got, tag)
			}
		}
	}
}

// assignBRPReference is assignBRP as it was before bias 0 skipped the
// neighbours, kept to check that the assignment did not change.
func assignBRPReference(ctx context.Context, el *graph.EdgeList, o Options) ([]uint32, error) {
	n, parts := el.NumVertices, o.Parts
	out := graph.ToCSR(el, 0)
	var in *graph.CSC
	if el.Directed { // an undirected list's in-neighbours are its out-neighbours
		in = graph.ToCSC(el, 0)
	}
	capacity := Capacity(n, parts, o.Slack)
	order, rng := shuffled(n, o.Seed, 0x627270) // stream: "brp"
	owner := make([]uint32, n)
	for i := range owner {
		owner[i] = unassigned
	}
	size := make([]uint64, parts)
	near := make([]float64, parts) // assigned neighbours per part
	prob := make([]float64, parts)
	var touched []uint32 // parts whose near entry is set
	count := func(nbrs []uint32) float64 {
		var k float64
		for _, u := range nbrs {
			if p := owner[u]; p != unassigned {
				if near[p] == 0 {
					touched = append(touched, p)
				}
				near[p]++
				k++
			}
		}
		return k
	}
	for i, v := range order {
		if i%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		nb, _ := out.Row(v)
		total := count(nb)
		if in != nil {
			nb, _ = in.Row(v)
			total += count(nb)
		}
		var sum float64
		for p := range prob {
			prob[p] = 0
			if size[p] >= capacity {
				continue
			}
			prob[p] = (1 - o.Bias) / float64(parts)
			if total > 0 {
				prob[p] += o.Bias * near[p] / total
			} else {
				prob[p] += o.Bias / float64(parts)
			}
			sum += prob[p]
		}
		if sum == 0 { // fully biased towards full parts only: uniform among the others
			for p := range prob {
				if size[p] < capacity {
					prob[p] = 1
					sum++
				}
			}
		}
		x := rng.Float64() * sum
		pick := -1
		for p, w := range prob {
			if w == 0 {
				continue
			}
			pick = p
			if x < w {
				break
			}
			x -= w
		}
		if pick < 0 { // unreachable: the capacities hold every vertex
			return nil, fmt.Errorf("no part has room for vertex %d", v)
		}
		owner[v] = uint32(pick)
		size[pick]++
		for _, p := range touched {
			near[p] = 0
		}
		touched = touched[:0]
	}
	return owner, nil
}

// TestBRPMatchesReference checks that BRP assigns as it did when it always
// counted the neighbours, bias 0 included.
func TestBRPMatchesReference(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 5))
	for _, directed := range []bool{false, true} {
		el := randomGraph(rng, 5000, 40000, directed, false)
		for _, bias := range []float64{0, 0.3, 1} {
			for _, parts := range []int{1, 2, 7} {
				o := Options{Method: BRP, Parts: parts, Seed: 9, Bias: bias}
				want, err := assignBRPReference(ctx, el, o)
				require.NoError(t, err)
				got, err := Assign(ctx, el, o)
				require.NoError(t, err)
				require.Equal(t, want, got, "directed %v bias %v parts %d", directed, bias, parts)
			}
		}
	}
}

// TestSplitIgnoresArcOrder checks what a partitioned run relies on when it
// partitions the graph as read rather than the graph in original ids of
// its whole layout (apps.OriginalCSR, rows in the layout's order): the
// assignment, the parts and the parts' layouts are the same, for every
// method, with duplicate arcs (whose weights differ) and self loops in a
// shuffled order.
func TestSplitIgnoresArcOrder(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 17))
	p := layout.Params{PanelSize: 64, HeavyThreshold: 8, HeavyColumns: 4, SegmentSize: 128, HighGroups: 1, GroupThresholds: []uint64{64, 8}}
	for _, directed := range []bool{true, false} {
		el := randomGraph(rng, 3000, 40000, true, true)
		for i := range 4000 { // duplicates of earlier arcs, other weights
			j := rng.IntN(len(el.Src))
			el.Src, el.Dst = append(el.Src, el.Src[j]), append(el.Dst, el.Dst[j])
			el.Weights = append(el.Weights, uint32(i))
		}
		if !directed {
			el.Symmetrize(2)
		}
		perm := rng.Perm(len(el.Src))
		shuffled := el.Clone()
		for i, j := range perm {
			shuffled.Src[i], shuffled.Dst[i], shuffled.Weights[i] = el.Src[j], el.Dst[j], el.Weights[j]
		}
		whole, err := preprocess.Build(ctx, shuffled, p, preprocess.Options{Workers: 2})
		require.NoError(t, err)
		orig := apps.OriginalCSR(whole, 2).IntoEdgeList(2)
		for _, m := range Methods {
			for _, parts := range []int{1, 2, 3, 7} {
				tag := fmt.Sprintf("directed %v %s %d parts", directed, m, parts)
				build := func(g *graph.EdgeList) ([]*Part, []*layout.Layout) {
					owner, err := Assign(ctx, g, Options{Method: m, Parts: parts, Seed: 3, Bias: 0.5, GroupThresholds: p.GroupThresholds})
					require.NoError(t, err, tag)
					ps, err := Split(ctx, g, owner, parts)
					require.NoError(t, err, tag)
					ls, err := BuildLayouts(ctx, ps, p, preprocess.Options{Workers: 2})
					require.NoError(t, err, tag)
					for _, pt := range ps {
						pt.EL = nil
					}
					return ps, ls
				}
				wantParts, wantLayouts := build(orig)
				gotParts, gotLayouts := build(shuffled)
				require.Equal(t, wantParts, gotParts, tag)
				require.Equal(t, wantLayouts, gotLayouts, tag)
			}
		}
	}
}
