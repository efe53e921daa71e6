package partition_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/stretchr/testify/require"
)

// hostScanner is a backend whose MSF scans run on the host in the
// device's format (partition.MSFDevice): each owned vertex's lightest edge
// to another component as (weight, lesser original id, greater).
type hostScanner struct {
	engine.Backend
}

type hostScan struct {
	pt   *partition.Part
	b    engine.Backend
	orig []uint32
}

func (h hostScanner) MSFPart(pt *partition.Part, orig []uint32) (partition.MSFRounds, error) {
	if uint64(len(orig)) != h.Layout().NumVertices {
		return nil, fmt.Errorf("%d original ids for %d vertices", len(orig), h.Layout().NumVertices)
	}
	return &hostScan{pt: pt, b: h.Backend, orig: orig}, nil
}

func (s *hostScan) Lightest(comp, out []uint32) error {
	l := s.b.Layout()
	if len(comp) != len(s.orig) || len(out) != 3*int(s.pt.NumLocal) {
		return fmt.Errorf("%d components and %d outputs", len(comp), len(out))
	}
	for i := range s.pt.NumLocal {
		lid := l.Perm[i]
		best := [3]uint32{^uint32(0), ^uint32(0), ^uint32(0)}
		for e := l.SparseOffsets[lid]; e < l.SparseOffsets[lid+1]; e++ {
			d := l.SparseDst[e]
			if comp[d] == comp[lid] {
				continue
			}
			w := uint32(1)
			if l.SparseWeights != nil {
				w = l.SparseWeights[e]
			}
			x := [3]uint32{w, min(s.orig[lid], s.orig[d]), max(s.orig[lid], s.orig[d])}
			if x[0] < best[0] || (x[0] == best[0] && (x[1] < best[1] || (x[1] == best[1] && x[2] < best[2]))) {
				best = x
			}
		}
		copy(out[3*i:], best[:])
	}
	return nil
}

func (s *hostScan) Close() error { return nil }

// TestRunMSFScans: with the scans in the device's format (hostScanner),
// the forest is the host path's: the same weight and edges, on every
// shape, weighted and not, every partitioner and part count.
func TestRunMSFScans(t *testing.T) {
	ctx := context.Background()
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		sym := s.EL.Clone()
		sym.Symmetrize(2)
		weighted := sym.Clone()
		weighted.SetRandomWeights(5, 1, 4, 2)
		weighted.Symmetrize(2)
		for _, el := range []*graph.EdgeList{sym, weighted} {
			g := graph.ToCSR(el, 2)
			eachSplit(t, s.Name, el, func(tag string, _ int, ps []*partition.Part, bs []engine.Backend) {
				scanners := make([]engine.Backend, len(bs))
				for i, b := range bs {
					scanners[i] = hostScanner{b}
				}
				weight, edges, _, err := partition.RunMSF(ctx, ps, scanners, false, 2)
				require.NoError(t, err, tag)
				require.NoError(t, apps.ValidateMSF(g, weight, edges), tag)
				hostWeight, hostEdges, _, err := partition.RunMSF(ctx, ps, bs, false, 2)
				require.NoError(t, err, tag)
				require.Equal(t, hostWeight, weight, tag)
				require.Equal(t, hostEdges, edges, tag)
			})
		}
	}
}

// replayScanner is a hostScanner that keeps each round's scan of its part
// and gives it back in the same round of later runs (their components
// evolve alike), so that RunMSF over it times the host's share of MSF on
// device parts.
type replayScanner struct {
	hostScanner
	rounds *[][]uint32
}

type replayScan struct {
	scan   partition.MSFRounds
	rounds *[][]uint32
	round  int
}

func (r replayScanner) MSFPart(pt *partition.Part, orig []uint32) (partition.MSFRounds, error) {
	s, err := r.hostScanner.MSFPart(pt, orig)
	return &replayScan{scan: s, rounds: r.rounds}, err
}

func (s *replayScan) Lightest(comp, out []uint32) error {
	defer func() { s.round++ }()
	if s.round < len(*s.rounds) {
		copy(out, (*s.rounds)[s.round])
		return nil
	}
	if err := s.scan.Lightest(comp, out); err != nil {
		return err
	}
	*s.rounds = append(*s.rounds, append([]uint32(nil), out...))
	return nil
}

func (s *replayScan) Close() error { return s.scan.Close() }

// BenchmarkMSFHostShare: the host's share of msf over two device parts of
// a weighted undirected R-MAT 16 graph (the parts' scans replayed).
func BenchmarkMSFHostShare(b *testing.B) {
	ctx := context.Background()
	el := testgraphs.Generated(b, "rmat:16:16", 7)
	el.SetRandomWeights(5, 1, 100, 2)
	el.Symmetrize(2)
	ps, bs := split(b, el, partition.Options{Method: partition.Random, Parts: 2, Seed: 1})
	scanners := make([]engine.Backend, len(bs))
	for i, be := range bs {
		scanners[i] = replayScanner{hostScanner{be}, new([][]uint32)}
	}
	if _, _, _, err := partition.RunMSF(ctx, ps, scanners, false, 2); err != nil { // records the scans
		b.Fatal(err)
	}
	for b.Loop() {
		if _, _, _, err := partition.RunMSF(ctx, ps, scanners, false, 2); err != nil {
			b.Fatal(err)
		}
	}
}
