package partition

import (
	"context"
	"fmt"
	mbits "math/bits"
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
// part. The arcs are cut into chunks that all the cores share (par.Each):
// a first pass counts every part's arcs per chunk and marks its ghosts in
// a bitset per part, indexed by the owners' order (so that a part's ghosts
// in bit order are already ordered by owner and then id); a prefix sum
// over the chunks and a rank table per bitset then let a second pass write
// every arc to its place, in input order. Parts are handled in batches of
// at most splitBatch (two passes over the arcs each). It fails on an
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
	s := &splitter{ctx: ctx, el: el, owner: owner, parts: parts, workers: par.Workers(0), n: n}
	if err := s.number(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("partition: split: %w", err)
	}
	s.out = make([]*Part, parts)
	s.anyGhost = make([]uint32, words(n))
	s.chunks = par.Split(int(el.NumArcs()), s.workers*splitChunksPerWorker)
	for p0 := 0; p0 < parts; p0 += splitBatch {
		if err := s.batch(p0, min(parts, p0+splitBatch)); err != nil {
			return nil, fmt.Errorf("partition: split: %w", err)
		}
	}
	s.boundaries()
	return s.out, nil
}

const (
	// splitBatch is how many parts one batch of Split's two passes over
	// the arcs makes (each part of a batch keeps a bitset and a rank table
	// of one bit per vertex and a rank table of one word per 32 vertices).
	splitBatch = 16
	// splitChunksPerWorker is how many chunks of arcs Split cuts per
	// worker, so that uneven chunks balance.
	splitChunksPerWorker = 4
	// splitMinVertices is the fewest vertices per worker of Split's
	// per-vertex loops.
	splitMinVertices = 1 << 14
	// ctxArcs is how many arcs Split's passes handle between checks of
	// their context.
	ctxArcs = 1 << 16
	// wordBits is the number of bits of a bitset word.
	wordBits = 32
)

// words is the number of bitset words that hold n bits.
func words(n uint64) uint64 { return (n + wordBits - 1) / wordBits }

// splitter holds Split's state.
type splitter struct {
	ctx     context.Context
	el      *graph.EdgeList
	owner   []uint32
	parts   int
	workers int
	n       uint64
	// start[p] is the position of part p's first owned vertex in the
	// owners' order (by owner, then id); start[parts] = n.
	start []uint64
	// owned lists the vertices in the owners' order.
	owned []uint32
	// pos[v] is v's position in the owners' order (its local id in its
	// owner's part is pos[v] - start[owner[v]]): one array of 32-bit
	// entries, so that the passes' random reads stay in cache longer.
	pos []uint32
	// anyGhost marks, by position in the owners' order, the vertices that
	// are a ghost in some part.
	anyGhost []uint32
	chunks   []par.Chunk
	out      []*Part
}

// number checks the owners, counts the vertices of each part and gives
// every vertex its position in the owners' order and its local id.
func (s *splitter) number() error {
	n, parts := s.n, s.parts
	vc := par.Split(int(n), max(1, min(s.workers, int(n)/splitMinVertices)))
	counts := make([]uint64, len(vc)*parts)
	bad := make([]int64, len(vc))
	par.ForChunks(vc, func(c par.Chunk) {
		cnt := counts[c.Index*parts : (c.Index+1)*parts]
		bad[c.Index] = -1
		for v := c.Lo; v < c.Hi; v++ {
			p := s.owner[v]
			if p >= uint32(parts) {
				bad[c.Index] = int64(v)
				return
			}
			cnt[p]++
		}
	})
	for _, v := range bad {
		if v >= 0 {
			return fmt.Errorf("partition: split: vertex %d has owner %d, not one of the %d parts", v, s.owner[v], parts)
		}
	}
	// Chunk-major counts to part-major offsets: part p's vertices of chunk c
	// start at start[p] + the part's vertices in the chunks before c.
	s.start = make([]uint64, parts+1)
	var sum uint64
	for p := 0; p < parts; p++ {
		s.start[p] = sum
		for c := range vc {
			k := counts[c*parts+p]
			counts[c*parts+p] = sum
			sum += k
		}
	}
	s.start[parts] = sum
	s.owned = make([]uint32, n)
	s.pos = make([]uint32, n)
	par.ForChunks(vc, func(c par.Chunk) {
		fill := counts[c.Index*parts : (c.Index+1)*parts]
		for v := c.Lo; v < c.Hi; v++ {
			p := s.owner[v]
			x := fill[p]
			fill[p]++
			s.owned[x] = uint32(v)
			s.pos[v] = uint32(x)
		}
	})
	return nil
}

// batch makes parts [p0, p1).
func (s *splitter) batch(p0, p1 int) error {
	el, k := s.el, p1-p0
	nw := words(s.n)
	bits := make([][]uint32, k)
	for i := range bits {
		bits[i] = make([]uint32, nw)
	}
	nc := len(s.chunks)
	arcs := make([]uint64, nc*k) // arcs[c*k+i]: part p0+i's arcs in chunk c
	errs := make([]error, nc)
	// Pass 1: count the arcs and mark the ghosts.
	owner, pos := s.owner, s.pos
	lo, hi := uint32(p0), uint32(p1)
	// first[j], last[j]: part p0+j's range in the owners' order.
	first, last := make([]uint32, k), make([]uint32, k)
	for j := range k {
		first[j], last[j] = uint32(s.start[p0+j]), uint32(s.start[p0+j+1])
	}
	par.Each(nc, s.workers, func(_, ci int) {
		c := s.chunks[ci]
		var cnt [splitBatch]uint64 // local: chunks' counters would share cache lines
		defer copy(arcs[ci*k:(ci+1)*k], cnt[:k])
		for at := c.Lo; at < c.Hi; at += ctxArcs {
			if err := s.ctx.Err(); err != nil {
				errs[ci] = err
				return
			}
			end := min(c.Hi, at+ctxArcs)
			dst := el.Dst[at:end]
			for i, u := range el.Src[at:end] {
				pu := owner[u]
				if pu < lo || pu >= hi {
					continue
				}
				j := pu - lo
				cnt[j]++
				if x := pos[dst[i]]; x < first[j] || x >= last[j] {
					par.Claim(bits[j], x)
				}
			}
		}
	})
	// Every part's arcs of chunk c start after those of the chunks before.
	total := make([]uint64, k)
	for i := 0; i < k; i++ {
		for c := 0; c < nc; c++ {
			a := arcs[c*k+i]
			arcs[c*k+i] = total[i]
			total[i] += a
		}
	}
	// Rank tables: rank[i][w] is the number of part p0+i's ghosts at
	// positions before word w.
	rank := make([][]uint32, k)
	par.Each(k, s.workers, func(_, i int) {
		r := make([]uint32, nw)
		var sum uint32
		for w, b := range bits[i] {
			r[w] = sum
			sum += uint32(mbits.OnesCount32(b))
		}
		rank[i] = r
		s.out[p0+i] = s.newPart(p0+i, bits[i], r, uint64(sum), total[i])
	})
	// Pass 2: the arcs in local numbering, in input order.
	srcs, dsts, ws := make([][]uint32, k), make([][]uint32, k), make([][]uint32, k)
	numLocal := make([]uint32, k)
	for j := range k {
		sub := s.out[p0+j].EL
		srcs[j], dsts[j], ws[j] = sub.Src, sub.Dst, sub.Weights
		numLocal[j] = uint32(s.out[p0+j].NumLocal)
	}
	weights := el.Weights
	par.Each(nc, s.workers, func(_, ci int) {
		c := s.chunks[ci]
		var next [splitBatch]uint64 // local, as pass 1's counters
		copy(next[:k], arcs[ci*k:(ci+1)*k])
		for at := c.Lo; at < c.Hi; at += ctxArcs {
			if err := s.ctx.Err(); err != nil {
				errs[ci] = err
				return
			}
			end := min(c.Hi, at+ctxArcs)
			dst := el.Dst[at:end]
			for i, u := range el.Src[at:end] {
				pu := owner[u]
				if pu < lo || pu >= hi {
					continue
				}
				j := pu - lo
				x := pos[dst[i]]
				ld := x - first[j]
				if ld >= numLocal[j] { // x outside the part's range: a ghost
					w := x / wordBits
					below := bits[j][w] & (1<<(x%wordBits) - 1)
					ld = numLocal[j] + rank[j][w] + uint32(mbits.OnesCount32(below))
				}
				a := next[j]
				next[j]++
				srcs[j][a] = pos[u] - first[j]
				dsts[j][a] = ld
				if weights != nil {
					ws[j][a] = weights[at+i]
				}
			}
		}
	})
	// Every ghost of the batch is someone's boundary vertex.
	par.For(int(nw), s.workers, splitMinVertices/wordBits, func(lo, hi int) {
		for _, b := range bits {
			for w := lo; w < hi; w++ {
				s.anyGhost[w] |= b[w]
			}
		}
	})
	return nil
}

// newPart makes part p's tables and arc arrays from its ghost bitset, its
// rank table, its ghost count and its arc count.
func (s *splitter) newPart(p int, bits, rank []uint32, ghosts, arcs uint64) *Part {
	numLocal := s.start[p+1] - s.start[p]
	pt := &Part{
		Index: p, NumParts: s.parts, NumVertices: s.n,
		NumLocal: numLocal, NumGhosts: ghosts,
		Global:      make([]uint32, numLocal+ghosts),
		GhostOwner:  make([]uint32, ghosts),
		GhostRemote: make([]uint32, ghosts),
		Directed:    s.el.Directed,
	}
	copy(pt.Global, s.owned[s.start[p]:s.start[p+1]])
	for w, b := range bits {
		for b != 0 {
			x := uint64(w)*wordBits + uint64(mbits.TrailingZeros32(b))
			b &= b - 1
			g := rank[w]
			rank[w]++
			v := s.owned[x]
			q := s.owner[v]
			pt.Global[numLocal+uint64(g)] = v
			pt.GhostOwner[g] = q
			pt.GhostRemote[g] = uint32(x - s.start[q])
		}
	}
	// rank[w] now counts the ghosts up to the end of word w: shift it back.
	var sum uint32
	for w, b := range bits {
		rank[w] = sum
		sum += uint32(mbits.OnesCount32(b))
	}
	sub := &graph.EdgeList{
		NumVertices: pt.NumPartVertices(),
		Src:         make([]uint32, arcs),
		Dst:         make([]uint32, arcs),
		Directed:    true,
	}
	if s.el.Weights != nil {
		sub.Weights, sub.WeightKind = make([]uint32, arcs), s.el.WeightKind
	}
	pt.EL = sub
	return pt
}

// boundaries lists every part's owned vertices that are a ghost elsewhere.
func (s *splitter) boundaries() {
	par.Each(s.parts, s.workers, func(_, p int) {
		lo, hi := s.start[p], s.start[p+1]
		var b []uint32
		for x := lo; x < hi; {
			w := x / wordBits
			word := s.anyGhost[w] >> (x % wordBits)
			end := min(hi, (w+1)*wordBits)
			if word == 0 {
				x = end
				continue
			}
			if r := end - x; r < wordBits {
				word &= 1<<r - 1
			}
			for word != 0 {
				b = append(b, uint32(x-lo)+uint32(mbits.TrailingZeros32(word)))
				word &= word - 1
			}
			x = end
		}
		s.out[p].Boundary = b
	})
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
