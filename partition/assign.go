package partition

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"strings"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/mix"
	"github.com/mgraph-dev/mgraph/internal/par"
)

// Method selects a partitioner (Gunrock's multi-GPU paper §5.6, and one
// that follows MultiGraph's degree grouping).
type Method int

const (
	// Random assigns vertices uniformly at random with a seed, balanced:
	// the vertices are shuffled and the shuffled order is cut into Parts
	// ranges of equal size (part sizes differ by at most one).
	Random Method = iota
	// Static cuts the vertex ids 0..n-1 into Parts contiguous ranges of
	// equal size (sizes differ by at most one). (The paper's static
	// partitioner deals v mod Parts; contiguous ranges keep neighbours of
	// locally numbered inputs, such as grids and chains, together.)
	Static
	// BRP is Gunrock's biased random partitioner: vertices are visited in a
	// random order and each is assigned to a part drawn with probability
	// (1-Bias)/Parts + Bias·(its neighbours already in that part)/(its
	// neighbours already assigned), among the parts that are not full. A
	// part is full at Capacity(n, Parts, Slack) vertices, so every part
	// stays within the slack of n/Parts. Bias 0 is uniform random, 1 fully
	// biased (neighbours tend to land together).
	BRP
	// Balanced orders the vertices by MultiGraph's in-degree groups (the
	// highest group first, ids increasing within a group, as the layout
	// renumbers them) and cuts that order into Parts contiguous ranges of
	// nearly equal weight, a vertex weighing its out-degree plus one: parts
	// then hold nearly equal numbers of arcs (each part's weight is at most
	// total/Parts plus the largest single weight).
	Balanced
	// Auto takes, of Balanced and BRP, the assignment that cuts fewer arcs
	// (BRP on a tie): Balanced's contiguous ranges keep a locally numbered
	// graph (a road network, a mesh, most crawls) together, where BRP's
	// draws cut about (Parts−1)/Parts of the arcs unless biased; on a
	// skewed graph with random ids Balanced cuts as many or more. Choose
	// says which it took.
	Auto
)

// Methods lists every partitioner that assigns by its own rule, in the
// order of their Method values (Auto picks among them).
var Methods = []Method{Random, Static, BRP, Balanced}

// String names the method as ParseMethod reads it.
func (m Method) String() string {
	switch m {
	case Random:
		return "random"
	case Static:
		return "static"
	case BRP:
		return "brp"
	case Balanced:
		return "balanced"
	case Auto:
		return "auto"
	}
	return fmt.Sprintf("method(%d)", int(m))
}

// ParseMethod reads "random" (or "rand"), "static", "brp", "balanced" or
// "auto", in any case.
func ParseMethod(s string) (Method, error) {
	switch strings.ToLower(s) {
	case "random", "rand":
		return Random, nil
	case "static":
		return Static, nil
	case "brp":
		return BRP, nil
	case "balanced":
		return Balanced, nil
	case "auto":
		return Auto, nil
	}
	return 0, fmt.Errorf("partition: unknown method %q (want random, static, brp, balanced or auto)", s)
}

// MaxParts is the largest number of parts Assign and Split accept.
const MaxParts = 1 << 16

// DefaultSlack is BRP's slack when Options.Slack is zero: a part holds at
// most 5% more vertices than n/Parts.
const DefaultSlack = 0.05

// Options configure Assign.
type Options struct {
	// Method is the partitioner.
	Method Method
	// Parts is the number of parts (GPUs), 1..MaxParts.
	Parts int
	// Seed drives Random's and BRP's random choices: the same graph, options
	// and seed give the same assignment.
	Seed uint64
	// Bias is BRP's partitioning factor in [0, 1]: 0 assigns uniformly at
	// random, 1 only by where the neighbours already are.
	Bias float64
	// Slack bounds BRP's imbalance: no part holds more than
	// Capacity(n, Parts, Slack) vertices. 0 means DefaultSlack; it must not
	// be negative.
	Slack float64
	// GroupThresholds are Balanced's in-degree group boundaries (descending
	// lower bounds, as layout.Params.GroupThresholds); nil means
	// graph.DefaultGroupThresholds().
	GroupThresholds []uint64
}

// Validate reports why o cannot partition a graph, or nil.
func (o Options) Validate() error {
	if o.Method < Random || o.Method > Auto {
		return fmt.Errorf("partition: unknown method %d", int(o.Method))
	}
	if o.Parts < 1 || o.Parts > MaxParts {
		return fmt.Errorf("partition: %d parts; want 1..%d", o.Parts, MaxParts)
	}
	if math.IsNaN(o.Bias) || o.Bias < 0 || o.Bias > 1 {
		return fmt.Errorf("partition: bias %v outside [0, 1]", o.Bias)
	}
	if math.IsNaN(o.Slack) || math.IsInf(o.Slack, 0) || o.Slack < 0 {
		return fmt.Errorf("partition: slack %v; want a finite value ≥ 0", o.Slack)
	}
	return nil
}

// Capacity is the most vertices BRP puts in one part of a graph of n
// vertices cut into parts parts with the given slack (0 = DefaultSlack):
// ⌈(1+slack)·n/parts⌉, never below ⌈n/parts⌉ so that every vertex fits.
func Capacity(n uint64, parts int, slack float64) uint64 {
	if slack == 0 {
		slack = DefaultSlack
	}
	even := (n + uint64(parts) - 1) / uint64(parts)
	c := uint64(math.Ceil((1 + slack) * float64(n) / float64(parts)))
	return max(c, even)
}

// Assign returns the owner part of every vertex of el (owner[v] in
// [0, o.Parts)) as o's method decides. It fails on invalid options or
// graph, and when ctx is cancelled.
func Assign(ctx context.Context, el *graph.EdgeList, o Options) ([]uint32, error) {
	_, owner, err := Choose(ctx, el, o)
	return owner, err
}

// Choose is Assign that also returns the method that assigned: o.Method,
// or for Auto the one it took.
func Choose(ctx context.Context, el *graph.EdgeList, o Options) (Method, []uint32, error) {
	if o.Method != Auto {
		owner, err := assign(ctx, el, o)
		return o.Method, owner, err
	}
	o.Method = Balanced
	balanced, err := assign(ctx, el, o)
	if err != nil {
		return Auto, nil, err
	}
	o.Method = BRP
	brp, err := assign(ctx, el, o)
	if err != nil {
		return Auto, nil, err
	}
	if EdgeCut(el, balanced) < EdgeCut(el, brp) {
		return Balanced, balanced, nil
	}
	return BRP, brp, nil
}

// assign is Assign for a method other than Auto.
func assign(ctx context.Context, el *graph.EdgeList, o Options) ([]uint32, error) {
	if el == nil {
		return nil, fmt.Errorf("partition: nil graph")
	}
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if err := el.Validate(); err != nil {
		return nil, fmt.Errorf("partition: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("partition %s: %w", o.Method, err)
	}
	var (
		owner []uint32
		err   error
	)
	switch o.Method {
	case Random:
		owner = assignRandom(el.NumVertices, o)
	case Static:
		owner = assignStatic(el.NumVertices, o.Parts)
	case BRP:
		owner, err = assignBRP(ctx, el, o)
	case Balanced:
		owner = assignBalanced(el, o)
	}
	if err != nil {
		return nil, fmt.Errorf("partition %s: %w", o.Method, err)
	}
	return owner, nil
}

// cut returns which of parts equal ranges of [0, total) position x falls
// in: ⌊x·parts/total⌋ in 128-bit arithmetic (x < total).
func cut(x, total uint64, parts int) uint32 {
	hi, lo := bits.Mul64(x, uint64(parts))
	q, _ := bits.Div64(hi, lo, total)
	return uint32(q)
}

// shuffled returns a random permutation of 0..n-1 drawn from seed and a
// stream constant (Fisher–Yates over PCG).
func shuffled(n, seed, stream uint64) ([]uint32, *rand.Rand) {
	order := make([]uint32, n)
	for i := range order {
		order[i] = uint32(i)
	}
	rng := rand.New(rand.NewPCG(seed, stream))
	for i := n; i > 1; i-- {
		j := rng.Uint64N(i)
		order[i-1], order[j] = order[j], order[i-1]
	}
	return order, rng
}

// assignRandom cuts a seeded random permutation of the vertices into
// equal ranges: vertex v goes to the part whose range holds its place
// π(v), π a Feistel permutation (randomPermutation), computed for every
// vertex independently on every core (a Fisher–Yates shuffle, one
// random swap after another, took most of a 10G-arc graph's 23 s of
// assignment).
func assignRandom(n uint64, o Options) []uint32 {
	pi := newRandomPermutation(n, o.Seed, 0x72616e646f6d) // stream: "random"
	owner := make([]uint32, n)
	par.For(int(n), 0, assignMinVertices, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			owner[v] = cut(pi.at(uint64(v)), n, o.Parts)
		}
	})
	return owner
}

// assignMinVertices is the fewest vertices a worker of assignRandom takes.
const assignMinVertices = 1 << 16

// feistelRounds is the rounds of randomPermutation's network: four make
// Luby and Rackoff's pseudo-random permutation.
const feistelRounds = 4

// randomPermutation is a seeded pseudo-random permutation of [0, n): a
// balanced Feistel network over the 2h-bit numbers (the fewest with
// 2^2h ≥ n), its round function SplitMix64 of the right half and a round
// key, restricted to [0, n) by cycle walking (apply it again while the
// result is n or more: fewer than 4 times on average, as 2^2h < 4n).
type randomPermutation struct {
	n    uint64
	h    uint
	mask uint64
	keys [feistelRounds]uint64
}

// newRandomPermutation draws a permutation of [0, n) from seed and a
// stream constant.
func newRandomPermutation(n, seed, stream uint64) randomPermutation {
	p := randomPermutation{n: n}
	if n > 1 {
		p.h = uint(bits.Len64(n-1)+1) / 2
	}
	p.mask = 1<<p.h - 1
	k := seed ^ mix.Mix64(stream)
	for i := range p.keys {
		k += mix.Golden
		p.keys[i] = mix.Mix64(k)
	}
	return p
}

// at returns the place of x (< n) in the permutation.
func (p randomPermutation) at(x uint64) uint64 {
	for {
		l, r := x>>p.h, x&p.mask
		for _, k := range p.keys {
			l, r = r, l^(mix.Mix64(r^k)&p.mask)
		}
		if x = l<<p.h | r; x < p.n {
			return x
		}
	}
}

// assignStatic cuts the ids into equal contiguous ranges.
func assignStatic(n uint64, parts int) []uint32 {
	owner := make([]uint32, n)
	for v := range owner {
		owner[v] = cut(uint64(v), n, parts)
	}
	return owner
}

// unassigned marks a vertex BRP has not placed yet.
const unassigned = math.MaxUint32

// ctxEvery is how many vertices the serial partitioners handle between
// checks of their context.
const ctxEvery = 1 << 12

// assignBRP is the biased random partitioner (see BRP).
func assignBRP(ctx context.Context, el *graph.EdgeList, o Options) ([]uint32, error) {
	n, parts := el.NumVertices, o.Parts
	// With bias 0 the neighbours' term is exactly 0 (0·near/total): the
	// draws do not depend on them, so the adjacency is neither built nor read.
	biased := o.Bias != 0
	var (
		out *graph.CSR
		in  *graph.CSC
	)
	if biased {
		out = graph.ToCSR(el, 0)
		if el.Directed { // an undirected list's in-neighbours are its out-neighbours
			in = graph.ToCSC(el, 0)
		}
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
		var total float64
		if biased {
			nb, _ := out.Row(v)
			total = count(nb)
			if in != nil {
				nb, _ = in.Row(v)
				total += count(nb)
			}
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

// assignBalanced orders the vertices by in-degree group and cuts the order
// into ranges of nearly equal out-degree+1 weight (see Balanced).
func assignBalanced(el *graph.EdgeList, o Options) []uint32 {
	n := el.NumVertices
	thresholds := o.GroupThresholds
	if thresholds == nil {
		thresholds = graph.DefaultGroupThresholds()
	}
	order := GroupOrder(el, thresholds)
	outdeg := el.OutDegrees(0)
	total := n + el.NumArcs()
	owner := make([]uint32, n)
	var before uint64
	for _, v := range order {
		owner[v] = cut(before, total, o.Parts)
		before += outdeg[v] + 1
	}
	return owner
}

// GroupOrder returns the vertices of el ordered as MultiGraph's layout
// groups them: by in-degree group (thresholds descending, as
// layout.Params.GroupThresholds; the highest group first), ids increasing
// within a group.
func GroupOrder(el *graph.EdgeList, thresholds []uint64) []uint32 {
	indeg := el.InDegrees(0)
	groups := len(thresholds) + 1
	start := make([]uint64, groups+1)
	group := make([]uint32, len(indeg))
	for v, d := range indeg {
		group[v] = uint32(graph.GroupOf(d, thresholds))
		start[group[v]+1]++
	}
	for g := 1; g <= groups; g++ {
		start[g] += start[g-1]
	}
	order := make([]uint32, len(indeg))
	for v := range indeg {
		order[start[group[v]]] = uint32(v)
		start[group[v]]++
	}
	return order
}

// EdgeCut counts the arcs of el whose endpoints have different owners:
// what a partition leaves to communication (each such arc makes a ghost
// copy in its source's part). It counts on every core.
func EdgeCut(el *graph.EdgeList, owner []uint32) uint64 {
	chunks := par.Split(len(el.Src), max(1, min(par.Workers(0), len(el.Src)/edgeCutMinArcs)))
	cuts := make([]uint64, len(chunks))
	par.ForChunks(chunks, func(c par.Chunk) {
		var k uint64
		for i, u := range el.Src[c.Lo:c.Hi] {
			if owner[u] != owner[el.Dst[c.Lo+i]] {
				k++
			}
		}
		cuts[c.Index] = k
	})
	var k uint64
	for _, c := range cuts {
		k += c
	}
	return k
}

// edgeCutMinArcs is the fewest arcs per worker of EdgeCut.
const edgeCutMinArcs = 1 << 16
