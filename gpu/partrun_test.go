package gpu

import (
	"context"
	"fmt"
	"testing"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/stretchr/testify/require"
)

// TestPartTables: the tables a device run uploads size each part's send
// segments by the ghosts of each owner and its receive buffer by the ghost
// copies of its vertices elsewhere (no GPU needed).
func TestPartTables(t *testing.T) {
	ctx := context.Background()
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		for _, parts := range []int{1, 2, 3} {
			owner, err := partition.Assign(ctx, s.EL, partition.Options{Method: partition.Random, Parts: parts, Seed: 3})
			require.NoError(t, err)
			ps, err := partition.Split(ctx, s.EL, owner, parts)
			require.NoError(t, err)
			for _, labels := range []bool{false, true} {
				ts, err := partTables(ps, labels)
				require.NoError(t, err, s.Name)
				copies := make([]uint64, parts) // ghost copies of each part's vertices elsewhere
				for i, pt := range ps {
					tb := ts[i]
					require.Len(t, tb.OwnerStart, parts+1)
					require.Equal(t, pt.NumGhosts, tb.OwnerStart[parts])
					for g, o := range pt.GhostOwner {
						require.True(t, uint64(g) >= tb.OwnerStart[o] && uint64(g) < tb.OwnerStart[o+1], "%s: ghost %d of part %d", s.Name, g, i)
						copies[o]++
					}
					require.Equal(t, labels, tb.Global != nil)
				}
				for i := range ps {
					require.Equal(t, copies[i], ts[i].RecvCap, "%s: part %d of %d", s.Name, i, parts)
				}
			}
		}
	}
	// Ghosts out of owner order are refused.
	owner, err := partition.Assign(ctx, testgraphs.Shapes(t, testgraphs.Small)[0].EL, partition.Options{Method: partition.Random, Parts: 3, Seed: 1})
	require.NoError(t, err)
	ps, err := partition.Split(ctx, testgraphs.Shapes(t, testgraphs.Small)[0].EL, owner, 3)
	require.NoError(t, err)
	for _, pt := range ps {
		if k := len(pt.GhostOwner); k > 1 && pt.GhostOwner[0] != pt.GhostOwner[k-1] {
			pt.GhostOwner[0], pt.GhostOwner[k-1] = pt.GhostOwner[k-1], pt.GhostOwner[0]
			_, err := partTables(ps, false)
			require.ErrorContains(t, err, "not ordered by owner")
			return
		}
	}
	t.Fatal("no part has ghosts of two owners")
}

// TestPartRanges: the collection's tables (partRanges, which the min
// programs' tables and PageRank's share) tile the original ids with one
// range per part, send every owned vertex to the part whose range holds
// it, and put every value at its original id when the collection is
// played on the host (no GPU needed): every partitioner, part counts that
// leave parts without a vertex or range, more parts than vertices, n not
// divisible by the part count, the empty graph.
func TestPartRanges(t *testing.T) {
	ctx := context.Background()
	shapes := testgraphs.Shapes(t, testgraphs.Small)
	shapes = append(shapes, testgraphs.Shape{Name: "path3", EL: testgraphs.Undirected(3, [2]uint32{0, 1}, [2]uint32{1, 2})})
	for _, s := range shapes {
		for _, m := range []partition.Method{partition.Random, partition.BRP, partition.Balanced} {
			for _, parts := range []int{1, 2, 3, 5, 8} {
				tag := fmt.Sprintf("%s/%s/%d parts", s.Name, m, parts)
				owner, err := partition.Assign(ctx, s.EL, partition.Options{Method: m, Parts: parts, Seed: 7, Bias: 0.8})
				require.NoError(t, err, tag)
				ps, err := partition.Split(ctx, s.EL, owner, parts)
				require.NoError(t, err, tag)
				checkRanges(t, tag, ps)
			}
		}
	}
}

// checkRanges checks the collection's tables of parts ps (see
// TestPartRanges), and that the min programs' and PageRank's tables carry
// them.
func checkRanges(t *testing.T, tag string, ps []*partition.Part) {
	t.Helper()
	np := len(ps)
	n := ps[0].NumVertices
	rs := make([]cuda.PartRanges, np)
	for i := range ps {
		rs[i] = partRanges(ps, i)
	}
	ts, err := partTables(ps, false)
	require.NoError(t, err, tag)
	var lo uint64
	for i, r := range rs {
		require.Equal(t, lo, r.Lo, "%s: part %d's range starts where part %d's ends", tag, i, i-1)
		require.LessOrEqual(t, r.Lo, r.Hi, tag)
		lo = r.Hi
		require.Equal(t, i, ts[i].Index, tag)
		require.Equal(t, r, ts[i].PartRanges, "%s: part %d's min-program tables", tag, i)
		perm := make([]uint32, ps[i].NumPartVertices())
		require.Equal(t, r, rankTables(ps, i, perm).PartRanges, "%s: part %d's PageRank tables", tag, i)
		// Every owned vertex is in the range of the part it goes to.
		require.Len(t, r.SendSplit, np+1, tag)
		require.Equal(t, ps[i].NumLocal, r.SendSplit[np], tag)
		for q := range np {
			for _, id := range ps[i].Global[r.SendSplit[q]:r.SendSplit[q+1]] {
				require.True(t, uint64(id) >= rs[q].Lo && uint64(id) < rs[q].Hi, "%s: part %d sends %d to part %d", tag, i, id, q)
			}
		}
	}
	require.Equal(t, n, lo, "%s: the ranges cover the ids", tag)
	// Play the collection: part q's values are f(original id), in its
	// numbering; part i receives every part's slice of its range at
	// CollectStart, scatters it by CollectIds and copies its range.
	f := func(id uint32) uint32 { return id*2654435761 + 1 }
	result := make([]uint32, n)
	written := make([]bool, n)
	for i, r := range rs {
		vals := make([]uint32, r.Hi-r.Lo)
		for q, o := range ps {
			src := rs[q].SendSplit
			count := src[i+1] - src[i]
			require.Equal(t, count, r.CollectStart[q+1]-r.CollectStart[q], "%s: part %d's slice for part %d", tag, q, i)
			for k, id := range o.Global[src[i]:src[i+1]] {
				vals[r.CollectStart[q]+uint64(k)] = f(id)
			}
		}
		full := make([]uint32, r.Hi-r.Lo)
		seen := make([]bool, r.Hi-r.Lo)
		for k, id := range r.CollectIds {
			require.False(t, seen[id], "%s: part %d collects id %d twice", tag, i, uint64(id)+r.Lo)
			seen[id] = true
			full[id] = vals[k]
		}
		for k := range full {
			require.False(t, written[r.Lo+uint64(k)], tag)
			written[r.Lo+uint64(k)] = true
			result[r.Lo+uint64(k)] = full[k]
		}
	}
	for v := range n {
		require.True(t, written[v], "%s: vertex %d not collected", tag, v)
		require.Equal(t, f(uint32(v)), result[v], "%s: vertex %d", tag, v)
	}
}
