package partition

import (
	"context"
	"errors"
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
	// GhostArcs is the number of the part's arcs that reach a ghost: its
	// share of the arcs the partition cuts (EdgeCut is the parts' sum).
	// Split sets it; the tables files keep it.
	GhostArcs uint64
	// tri keeps RunTriangles' neighbour lists between its runs (nil in a
	// Part made otherwise than by Split or LoadTables: no keeping).
	tri *triangleMemo
}

// Local returns the local id of an original vertex the part owns, and
// whether it owns it.
func (p *Part) Local(orig uint32) (uint32, bool) {
	i, ok := slices.BinarySearch(p.Global[:p.NumLocal], orig)
	return uint32(i), ok
}

// OriginalIDs returns the original id of every layout id of the part's
// layout, whose Perm (the part's numbering to the layout's) is perm.
func (p *Part) OriginalIDs(perm []uint32) []uint32 {
	orig := make([]uint32, len(perm))
	for i, lid := range perm {
		orig[lid] = p.Global[i]
	}
	return orig
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
// part, and each part counts its arcs to ghosts (GhostArcs: together, the
// EdgeCut). The arcs are cut into chunks that all the cores share
// (par.Each): a first pass counts every part's arcs per chunk and marks
// its ghosts by id in a bitset per part (reading the owners from a table
// of bytes when there are at most smallParts parts, a quarter of the
// random reads' memory); the marks then move to a bitset per part indexed
// by the owners' order (so that a part's ghosts in bit order are already
// ordered by owner and then id); a prefix sum over the chunks and a rank
// table per bitset let a second pass write every arc to its place, in
// input order (it loads the places of a block of destinations before it
// uses them, so that the loads overlap). Parts are handled in batches of
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
	// gatherArcs is how many arcs' positions the second pass gathers
	// before it uses them (the loads independent of one another).
	gatherArcs = 1024
	// smallParts is the most parts whose owners Split keeps in bytes.
	smallParts = 1 << 8
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
	// small is owner in bytes when there are at most smallParts parts (nil
	// otherwise): the table the first pass reads at random, a quarter of
	// owner's size.
	small []uint8
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
	if parts <= smallParts {
		s.small = make([]uint8, n)
	}
	par.ForChunks(vc, func(c par.Chunk) {
		fill := counts[c.Index*parts : (c.Index+1)*parts]
		for v := c.Lo; v < c.Hi; v++ {
			p := s.owner[v]
			x := fill[p]
			fill[p]++
			s.owned[x] = uint32(v)
			s.pos[v] = uint32(x)
			if s.small != nil {
				s.small[v] = uint8(p)
			}
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
	cut := make([]uint64, nc*k)  // cut[c*k+i]: those of them that reach a ghost
	errs := make([]error, nc)
	// Pass 1: count the arcs and mark the ghosts by id (the owners' small
	// table, not the positions', is read at random), then the ghosts by
	// position in the owners' order.
	lo, hi := uint32(p0), uint32(p1)
	idBits := make([][]uint32, k)
	for i := range idBits {
		idBits[i] = make([]uint32, nw)
	}
	if s.small != nil {
		countArcs(s, s.small, lo, hi, idBits, arcs, cut, errs)
	} else {
		countArcs(s, s.owner, lo, hi, idBits, arcs, cut, errs)
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	pos := s.pos
	par.For(int(nw), s.workers, splitMinVertices/wordBits, func(wlo, whi int) {
		for j, ib := range idBits {
			for w := wlo; w < whi; w++ {
				for b := ib[w]; b != 0; b &= b - 1 {
					par.Claim(bits[j], pos[uint32(w)*wordBits+uint32(mbits.TrailingZeros32(b))])
				}
			}
		}
	})
	owner := s.owner
	// first[j]: part p0+j's first position in the owners' order.
	first := make([]uint32, k)
	for j := range k {
		first[j] = uint32(s.start[p0+j])
	}
	// Every part's arcs of chunk c start after those of the chunks before.
	total, ghostArcs := make([]uint64, k), make([]uint64, k)
	for i := 0; i < k; i++ {
		for c := 0; c < nc; c++ {
			a := arcs[c*k+i]
			arcs[c*k+i] = total[i]
			total[i] += a
			ghostArcs[i] += cut[c*k+i]
		}
	}
	// Rank tables: rank[i][w] is the number of part p0+i's ghosts at
	// positions before word w.
	rank := make([][]uint32, k)
	inner := max(1, s.workers/k) // each part's goroutines
	par.Each(k, s.workers, func(_, i int) {
		r := make([]uint32, nw)
		var sum uint32
		for w, b := range bits[i] {
			r[w] = sum
			sum += uint32(mbits.OnesCount32(b))
		}
		rank[i] = r
		s.out[p0+i] = s.newPart(p0+i, bits[i], r, uint64(sum), total[i], inner)
		s.out[p0+i].GhostArcs = ghostArcs[i]
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
	whole := k == s.parts // one batch: every arc is the batch's
	par.Each(nc, s.workers, func(_, ci int) {
		c := s.chunks[ci]
		var next [splitBatch]uint64 // local, as pass 1's counters
		copy(next[:k], arcs[ci*k:(ci+1)*k])
		var xs [gatherArcs]uint32
		for at := c.Lo; at < c.Hi; at += gatherArcs {
			if (at-c.Lo)%ctxArcs == 0 {
				if err := s.ctx.Err(); err != nil {
					errs[ci] = err
					return
				}
			}
			end := min(c.Hi, at+gatherArcs)
			xb, src := xs[:end-at], el.Src[at:end]
			for i, d := range el.Dst[at:end] {
				if pu := owner[src[i]]; whole || (pu >= lo && pu < hi) {
					xb[i] = pos[d]
				}
			}
			for i, u := range src {
				pu := owner[u]
				if pu < lo || pu >= hi {
					continue
				}
				j := pu - lo
				x := xb[i]
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
	if err := errors.Join(errs...); err != nil {
		return err
	}
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

// countArcs is Split's first pass over the arcs for parts [lo, hi), own
// being the owners' table (s.owner or its bytes, s.small): it counts every
// part's arcs per chunk (arcs[c*k+j], k = hi-lo) and those of them that
// reach a ghost (cut), and marks each part's ghosts by id (idBits[j]). A
// chunk cancelled stops with its error in errs.
func countArcs[T uint8 | uint32](s *splitter, own []T, lo, hi uint32, idBits [][]uint32, arcs, cut []uint64, errs []error) {
	el, k := s.el, int(hi-lo)
	par.Each(len(s.chunks), s.workers, func(_, ci int) {
		c := s.chunks[ci]
		var cnt, ghost [splitBatch]uint64 // local: chunks' counters would share cache lines
		defer func() {
			copy(arcs[ci*k:(ci+1)*k], cnt[:k])
			copy(cut[ci*k:(ci+1)*k], ghost[:k])
		}()
		for at := c.Lo; at < c.Hi; at += ctxArcs {
			if err := s.ctx.Err(); err != nil {
				errs[ci] = err
				return
			}
			end := min(c.Hi, at+ctxArcs)
			dst := el.Dst[at:end]
			for i, u := range el.Src[at:end] {
				pu := own[u]
				if uint32(pu) < lo || uint32(pu) >= hi {
					continue
				}
				j := uint32(pu) - lo
				cnt[j]++
				if d := dst[i]; own[d] != pu {
					ghost[j]++
					par.Claim(idBits[j], d)
				}
			}
		}
	})
}

// newPart makes part p's tables and arc arrays from its ghost bitset, its
// rank table, its ghost count and its arc count, on workers goroutines.
func (s *splitter) newPart(p int, bits, rank []uint32, ghosts, arcs uint64, workers int) *Part {
	numLocal := s.start[p+1] - s.start[p]
	pt := &Part{
		Index: p, NumParts: s.parts, NumVertices: s.n,
		NumLocal: numLocal, NumGhosts: ghosts,
		Global:      make([]uint32, numLocal+ghosts),
		GhostOwner:  make([]uint32, ghosts),
		GhostRemote: make([]uint32, ghosts),
		Directed:    s.el.Directed,
		tri:         new(triangleMemo),
	}
	par.Copy(pt.Global[:numLocal], s.owned[s.start[p]:s.start[p+1]], workers, splitMinVertices)
	par.For(len(bits), workers, splitMinVertices/wordBits, func(lo, hi int) {
		for w := lo; w < hi; w++ {
			g := uint64(rank[w])
			for b := bits[w]; b != 0; b &= b - 1 {
				x := uint64(w)*wordBits + uint64(mbits.TrailingZeros32(b))
				v := s.owned[x]
				q := s.owner[v]
				pt.Global[numLocal+g] = v
				pt.GhostOwner[g] = q
				pt.GhostRemote[g] = uint32(x - s.start[q])
				g++
			}
		}
	})
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

// boundaries lists every part's owned vertices that are a ghost elsewhere:
// each part's range of the owners' order is cut into chunks whose marks
// are counted, then listed at their chunks' offsets.
func (s *splitter) boundaries() {
	inner := max(1, s.workers/s.parts) // each part's goroutines
	par.Each(s.parts, s.workers, func(_, p int) {
		lo, hi := s.start[p], s.start[p+1]
		chunks := par.Split(int(hi-lo), max(1, min(inner, int(hi-lo)/splitMinVertices)))
		at := make([]uint64, len(chunks)+1)
		par.ForChunks(chunks, func(c par.Chunk) {
			s.eachGhost(lo+uint64(c.Lo), lo+uint64(c.Hi), func(uint64) { at[c.Index+1]++ })
		})
		for i := range chunks {
			at[i+1] += at[i]
		}
		if at[len(chunks)] == 0 {
			return // no boundary: nil, as appending to none gives
		}
		b := make([]uint32, at[len(chunks)])
		par.ForChunks(chunks, func(c par.Chunk) {
			next := at[c.Index]
			s.eachGhost(lo+uint64(c.Lo), lo+uint64(c.Hi), func(x uint64) {
				b[next] = uint32(x - lo)
				next++
			})
		})
		s.out[p].Boundary = b
	})
}

// eachGhost calls fn, in increasing order, with the positions in [lo, hi)
// of the owners' order that anyGhost marks.
func (s *splitter) eachGhost(lo, hi uint64, fn func(x uint64)) {
	for x := lo; x < hi; {
		w := x / wordBits
		word := s.anyGhost[w] >> (x % wordBits)
		end := min(hi, (w+1)*wordBits)
		if r := end - x; r < wordBits {
			word &= 1<<r - 1
		}
		for ; word != 0; word &= word - 1 {
			fn(x + uint64(mbits.TrailingZeros32(word)))
		}
		x = end
	}
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
