package gpu

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/require"
)

// bcPlay is one part of TestPartBCProtocol's host play of the device BC
// (kernels/partbc.cu, gpu's bcPart): the same steps, one part after the
// other, over the tables a device part uploads (rankTables), the
// exchanges copying the buffers' segments as NCCL or the peer copies do.
type bcPlay struct {
	l                   *layout.Layout
	in                  *layout.InArcs
	t                   *tablesOf
	ghost               []bool
	level               []uint32
	sigma, offer, score []float64
	order               []uint32
	starts              []uint64
	claimed             []uint32
	count               uint64
	ghostBuf, copyBuf   []float64
}

// tablesOf is a part's tables as the device gets them.
type tablesOf = struct {
	OwnedLid, GhostLid, RecvLid []uint32
	OwnerStart, RecvStart       []uint64
}

const (
	playUnvisited = ^uint32(0)
	playNoOffer   = -1.0
)

// bcPlayState is the parts' state of a play, kept from run to run as the
// backends keep the device parts' (heldBC).
type bcPlayState struct {
	parts []*partition.Part
	ps    []*bcPlay
}

// playBC runs BC from sources over the parts with the device's protocol,
// on the host, and returns the scores at original ids.
func playBC(parts []*partition.Part, ls []*layout.Layout, sources []uint32) []float64 {
	return newBCPlay(parts, ls).run(sources)
}

// newBCPlay makes the parts' state of a play over their layouts ls.
func newBCPlay(parts []*partition.Part, ls []*layout.Layout) *bcPlayState {
	np := len(parts)
	ps := make([]*bcPlay, np)
	for i, l := range ls {
		rt := rankTables(parts, i, l.Perm)
		t := &tablesOf{OwnedLid: rt.OwnedLid, GhostLid: rt.GhostLid, RecvLid: rt.RecvLid, OwnerStart: rt.OwnerStart, RecvStart: rt.RecvStart}
		n := l.NumVertices
		p := &bcPlay{l: l, in: l.In(2), t: t, ghost: make([]bool, n), level: make([]uint32, n), sigma: make([]float64, n),
			offer: make([]float64, n), score: make([]float64, n), ghostBuf: make([]float64, len(t.GhostLid)),
			copyBuf: make([]float64, len(t.RecvLid))}
		for _, v := range t.GhostLid {
			p.ghost[v] = true
		}
		ps[i] = p
	}
	return &bcPlayState{parts: parts, ps: ps}
}

// poison overwrites every value of the state that a run must set before
// it reads it (all but the tables) with NaN or an out-of-range id, as a
// device state left by another run, failed or not, may hold anything.
func (r *bcPlayState) poison() {
	nan := math.NaN()
	for _, p := range r.ps {
		for _, f := range [][]float64{p.sigma, p.offer, p.score, p.ghostBuf, p.copyBuf} {
			for i := range f {
				f[i] = nan
			}
		}
		for v := range p.level {
			p.level[v] = uint32(v) % 3
		}
		p.order = append(p.order[:0], playUnvisited, playUnvisited)
		p.claimed = append(p.claimed[:0], playUnvisited)
		p.starts, p.count = []uint64{7, 3}, 5
	}
}

// run is one run from sources over the state: the scores cleared (the
// device's Init), then, per source, the levels (Start), the forward and
// the backward levels; it returns the scores at original ids.
func (r *bcPlayState) run(sources []uint32) []float64 {
	parts, ps := r.parts, r.ps
	for _, p := range ps {
		clear(p.score)
	}
	for _, s := range sources {
		for i, p := range ps {
			for v := range p.level {
				p.level[v] = playUnvisited
			}
			p.order, p.starts = p.order[:0], []uint64{0, 0}
			if lid, ok := parts[i].Local(s); ok {
				v := p.l.Perm[lid]
				p.level[v], p.sigma[v] = 0, 1
				p.order = append(p.order, v)
				p.starts[1] = 1
			}
		}
		var d uint32
		for d = 1; ; d++ {
			for _, p := range ps {
				p.forward(d)
			}
			for i, p := range ps { // the owners' copy buffers from the senders' ghost buffers
				for q, o := range ps {
					if q != i {
						copy(p.copyBuf[p.t.RecvStart[q]:p.t.RecvStart[q+1]], o.ghostBuf[o.t.OwnerStart[i]:o.t.OwnerStart[i+1]])
					}
				}
			}
			var total uint64
			for i, p := range ps {
				p.receive(d, i)
				total += p.count
			}
			if total == 0 {
				break
			}
			for _, p := range ps {
				p.starts = append(p.starts, p.starts[d]+p.count)
			}
		}
		for b := d - 1; b >= 1; b-- {
			for _, p := range ps {
				p.publish(b)
			}
			for i, p := range ps { // the ghost holders' ghost buffers from the owners' copy buffers
				for q, o := range ps {
					if q != i {
						copy(p.ghostBuf[p.t.OwnerStart[q]:p.t.OwnerStart[q+1]], o.copyBuf[o.t.RecvStart[i]:o.t.RecvStart[i+1]])
					}
				}
			}
			for _, p := range ps {
				p.backward(b)
			}
		}
	}
	out := make([]float64, parts[0].NumVertices)
	for i, p := range ps {
		for j, v := range p.t.OwnedLid {
			out[parts[i].Global[j]] = p.score[v]
		}
	}
	return out
}

// forward is mg_part_bc_forward: claims, σ sums, the ghost buffer.
func (p *bcPlay) forward(d uint32) {
	base := p.starts[d]
	p.claimed, p.count = p.claimed[:0], 0
	l := p.l
	for _, u := range p.order[p.starts[d-1]:base] {
		for _, v := range l.SparseDst[l.SparseOffsets[u]:l.SparseOffsets[u+1]] {
			if p.level[v] != playUnvisited {
				continue
			}
			p.level[v] = d
			if p.ghost[v] {
				p.claimed = append(p.claimed, v)
			} else {
				p.order = append(p.order, v)
				p.count++
			}
		}
	}
	for _, v := range append(append([]uint32(nil), p.order[base:]...), p.claimed...) {
		var s float64
		for _, u := range p.in.Src[p.in.Offsets[v]:p.in.Offsets[v+1]] {
			if p.level[u] == d-1 {
				s += p.sigma[u]
			}
		}
		p.sigma[v] = s
	}
	for g, v := range p.t.GhostLid {
		p.ghostBuf[g] = 0
		if p.level[v] == d {
			p.ghostBuf[g] = p.sigma[v]
		}
	}
}

// receive is mg_part_bc_receive: the other parts' sums, part by part.
func (p *bcPlay) receive(d uint32, self int) {
	for q := 0; q+1 < len(p.t.RecvStart); q++ {
		if q == self {
			continue
		}
		for i := p.t.RecvStart[q]; i < p.t.RecvStart[q+1]; i++ {
			s := p.copyBuf[i]
			if s == 0 {
				continue
			}
			v := p.t.RecvLid[i]
			switch p.level[v] {
			case playUnvisited:
				p.level[v], p.sigma[v] = d, s
				p.order = append(p.order, v)
				p.count++
			case d:
				p.sigma[v] += s
			}
		}
	}
}

// publish is mg_part_bc_publish.
func (p *bcPlay) publish(d uint32) {
	for i, v := range p.t.RecvLid {
		p.copyBuf[i] = playNoOffer
		if p.level[v] == d+1 {
			p.copyBuf[i] = p.offer[v]
		}
	}
}

// backward is mg_part_bc_backward: the ghosts' offers (or unmarking),
// then the level's dependencies.
func (p *bcPlay) backward(d uint32) {
	for g, v := range p.t.GhostLid {
		if p.level[v] != d+1 {
			continue
		}
		if x := p.ghostBuf[g]; x == playNoOffer {
			p.level[v] = playUnvisited
		} else {
			p.offer[v] = x
		}
	}
	l := p.l
	for _, v := range p.order[p.starts[d]:p.starts[d+1]] {
		var acc float64
		for _, w := range l.SparseDst[l.SparseOffsets[v]:l.SparseOffsets[v+1]] {
			if p.level[w] == d+1 {
				acc += p.offer[w]
			}
		}
		delta := p.sigma[v] * acc
		p.offer[v] = (1 + delta) / p.sigma[v]
		p.score[v] += delta
	}
}

// TestPartBCProtocol plays the device BC's protocol on the host (no GPU
// needed): the dense ghost and copy buffers over the tables the device
// parts upload (a σ sum of 0 for a ghost not claimed, offers published
// per copy with none for a vertex at another level, ghosts claimed late
// unmarked when their offer is none), the sums received part after part.
// Every shape, directed and symmetrized, every partitioner, 1–4 and 7
// parts (some without a vertex), several source lists: the scores match
// ref.BC within apps.ValidateBC's tolerance and the host parts'
// (partition.RunBC) within 1e-9 relative. The state is kept from run to
// run as the backends keep the device parts' (each source list runs over
// the state the last left), and a run over a poisoned state (every value
// a run must set first overwritten with NaN) gives the same scores, bit
// for bit: clearing the scores per run and the levels per source is all
// the reset a run needs.
func TestPartBCProtocol(t *testing.T) {
	ctx := context.Background()
	counts := []int{1, 2, 3, 4, 7}
	if testing.Short() {
		counts = []int{2, 3}
	}
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		sym := s.EL.Clone()
		sym.Symmetrize(2)
		for _, el := range []*graph.EdgeList{s.EL, sym} {
			g := graph.ToCSR(el, 2)
			for _, m := range partition.Methods {
				for _, np := range counts {
					owner, err := partition.Assign(ctx, el, partition.Options{Method: m, Parts: np, Seed: 7, Bias: 0.8})
					require.NoError(t, err)
					ps, err := partition.Split(ctx, el, owner, np)
					require.NoError(t, err)
					ls, err := partition.BuildLayouts(ctx, ps, testgraphs.SmallParams(), preprocess.Options{Workers: 2})
					require.NoError(t, err)
					bs := hostBackends(t, ls)
					play := newBCPlay(ps, ls)
					for _, sources := range playSources(el.NumVertices) {
						tag := fmt.Sprintf("%s/directed=%v/%s/%d parts/sources %v", s.Name, el.Directed, m, np, sources)
						got := play.run(sources)
						require.NoError(t, apps.ValidateBC(g, sources, got), tag)
						want, _, err := partition.RunBC(ctx, ps, bs, sources, nil, true, 1)
						require.NoError(t, err, tag)
						requireClose(t, want, got, tag)
						play.poison()
						require.Equal(t, got, play.run(sources), "%s: a run over a poisoned state", tag)
					}
				}
			}
		}
	}
}

// playSources are the source lists of TestPartBCProtocol on a graph of n
// vertices: one, several with a repeat, a handful spread over the ids.
func playSources(n uint64) [][]uint32 {
	if n == 0 {
		return nil
	}
	last := uint32(n - 1)
	out := [][]uint32{{0}, {last, 0, last}}
	if n > 8 {
		out = append(out, []uint32{uint32(n / 2), 3, uint32(n / 3), last - 1})
	}
	return out
}

// requireClose checks got against want within 1e-9 relative (absolute
// near 0).
func requireClose(t *testing.T, want, got []float64, tag string) {
	t.Helper()
	require.Len(t, got, len(want), tag)
	for v := range want {
		if diff := math.Abs(want[v] - got[v]); diff > 1e-9*math.Max(1, math.Abs(want[v])) {
			require.Failf(t, "scores differ", "%s: vertex %d: %g, want %g", tag, v, got[v], want[v])
		}
	}
}

// hostBackends makes a CPU backend over every part's layout.
func hostBackends(t *testing.T, ls []*layout.Layout) []engine.Backend {
	t.Helper()
	bs := make([]engine.Backend, len(ls))
	for i, l := range ls {
		b, err := cpu.New(l, 1)
		require.NoError(t, err)
		bs[i] = b
	}
	return bs
}

// HeldBC returns the partitioned BC state b keeps for its next run (nil:
// none) and the number of runs made over it: for the external tests
// (gpu_test) that check a run reuses it.
func HeldBC(b *Backend) (*cuda.PartBC, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bcHeld == nil {
		return nil, 0
	}
	return b.bcHeld.st, b.bcHeld.runs
}
