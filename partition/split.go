package partition

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
)

// Part is one part of a split graph: the vertices one GPU owns, the arcs
// whose source it owns, and ghost copies of the remote vertices those arcs
// reach (Gunrock's sub-graph with its conversion tables, §4.1).
//
// A part numbers its vertices locally: the owned (local) vertices are
// 0..NumLocal-1 in increasing original id, then the ghosts are
// NumLocal..NumLocal+NumGhosts-1, ordered by owner part and then by
// original id (so that the messages for one owner are contiguous). EL is
// the part's graph in that numbering, ready for preprocess.Build; a ghost
// has in-arcs but no out-arcs there (its out-arcs live in its owner's part).
type Part struct {
	// Index is the part's number in [0, NumParts).
	Index int
	// NumParts is the number of parts the graph was split into.
	NumParts int
	// NumVertices is the whole graph's vertex count.
	NumVertices uint64
	// NumLocal is the number of vertices the part owns.
	NumLocal uint64
	// NumGhosts is the number of remote vertices the part's arcs reach.
	NumGhosts uint64
	// Global maps a local id (owned or ghost) to its original id.
	Global []uint32
	// GhostOwner[g] is the part that owns ghost g (local id NumLocal+g).
	GhostOwner []uint32
	// GhostRemote[g] is ghost g's local id in its owner's part.
	GhostRemote []uint32
	// Boundary lists, in increasing order, the local ids of the owned
	// vertices that are ghosts in at least one other part: the vertices
	// whose values other parts may send updates for.
	Boundary []uint32
	// Directed is the input graph's Directed flag. EL.Directed is always
	// true: a part holds only the arcs of its own sources, so its arc list
	// is not symmetric even when the graph is (a layout built as
	// undirected would take out-rows for in-rows).
	Directed bool
	// EL is the part's arcs in local numbering, weights kept, in the input
	// order of the arcs.
	EL *graph.EdgeList
}

// Local returns the local id of an original vertex the part owns, and
// whether it owns it.
func (p *Part) Local(orig uint32) (uint32, bool) {
	i, ok := slices.BinarySearch(p.Global[:p.NumLocal], orig)
	return uint32(i), ok
}

// NumPartVertices is the number of vertices of the part's graph (owned and
// ghosts): the vertex count of its layout.
func (p *Part) NumPartVertices() uint64 { return p.NumLocal + p.NumGhosts }

// GhostRange returns the part's ghosts that part q owns, [lo, hi) of the
// ghost tables (ghosts are ordered by owner).
func (p *Part) GhostRange(q int) (lo, hi uint64) {
	first := func(owner uint64) uint64 {
		return uint64(sort.Search(len(p.GhostOwner), func(g int) bool { return uint64(p.GhostOwner[g]) >= owner }))
	}
	return first(uint64(q)), first(uint64(q) + 1)
}

// Split cuts el into parts parts by owner (one entry per vertex, each in
// [0, parts), as Assign returns): part p holds the arcs whose source p
// owns, relabelled locally (see Part). Every arc of el is in exactly one
// part. Parts are made in parallel, each by two passes over all the arcs
// that keep its own, with one scratch array of NumVertices entries per
// goroutine. It fails on an
// invalid graph or owner table, and when ctx is cancelled.
func Split(ctx context.Context, el *graph.EdgeList, owner []uint32, parts int) ([]*Part, error) {
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
		out[p], errs[p] = splitPart(ctx, el, owner, local, owned[start[p]:start[p+1]], p, parts, scratch[w])
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

// splitPart makes part p from the arcs whose source it owns; slot is a
// zeroed scratch array of one entry per vertex, zeroed again on return.
func splitPart(ctx context.Context, el *graph.EdgeList, owner, local, owned []uint32, p, parts int, slot []uint32) (*Part, error) {
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

// BuildLayouts builds the dual layout of every part's graph with
// preprocess.Build (one part after the other, each build using opts'
// workers), in the parts' order.
func BuildLayouts(ctx context.Context, parts []*Part, p layout.Params, opts preprocess.Options) ([]*layout.Layout, error) {
	ls := make([]*layout.Layout, len(parts))
	for i, pt := range parts {
		l, err := preprocess.Build(ctx, pt.EL, p, opts)
		if err != nil {
			return nil, fmt.Errorf("partition: layout of part %d: %w", i, err)
		}
		ls[i] = l
	}
	return ls, nil
}
