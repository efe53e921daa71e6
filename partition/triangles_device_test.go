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

// rowCounter is a backend that counts a part's triangles from its
// TriangleRows on the host, as a device does (partition.TriangleCounter),
// checking the rows first.
type rowCounter struct {
	engine.Backend
}

func (rowCounter) CountPartTriangles(r *partition.TriangleRows, perRow bool) (uint64, []uint64, error) {
	rows := len(r.Offsets) - 1
	if rows != len(r.Orig) || uint64(len(r.Adj)) != r.Offsets[rows] || len(r.ArcSrc) != len(r.ArcRow) {
		return 0, nil, fmt.Errorf("%d rows, %d original ids, %d entries, %d and %d arcs", rows, len(r.Orig), len(r.Adj), len(r.ArcSrc), len(r.ArcRow))
	}
	var per []uint64
	if perRow {
		per = make([]uint64, rows)
	}
	row := func(x uint32) []uint32 { return r.Adj[r.Offsets[x]:r.Offsets[x+1]] }
	var total uint64
	for e := range r.ArcSrc {
		u, v := r.ArcSrc[e], r.ArcRow[e]
		if r.Adj[e] != r.Orig[v] {
			return 0, nil, fmt.Errorf("arc %d names %d but its row is %d's", e, r.Adj[e], r.Orig[v])
		}
		a, b := row(u), row(v)
		for i, j := 0, 0; i < len(a) && j < len(b); {
			switch {
			case a[i] < b[j]:
				i++
			case a[i] > b[j]:
				j++
			default:
				total++
				if per != nil {
					per[u]++
					per[v]++
					per[r.ArcRow[r.Offsets[u]+uint64(i)]]++
				}
				i++
				j++
			}
		}
	}
	return total, per, nil
}

// TestRunTrianglesRows: the rows a device counts give every partition's
// triangles and per-vertex counts, the reference's (counted on the host
// from the rows by rowCounter, which checks them).
func TestRunTrianglesRows(t *testing.T) {
	ctx := context.Background()
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		sym := s.EL.Clone()
		sym.Symmetrize(2)
		g := graph.ToCSR(sym, 2)
		eachSplit(t, s.Name, sym, func(tag string, _ int, ps []*partition.Part, bs []engine.Backend) {
			counters := make([]engine.Backend, len(bs))
			for i, b := range bs {
				counters[i] = rowCounter{b}
			}
			total, per, st, err := partition.RunTriangles(ctx, ps, counters, true, false, 2)
			require.NoError(t, err, tag)
			require.NoError(t, apps.ValidateTriangles(g, total, per), tag)
			require.True(t, st.Converged, tag)
			none, _, _, err := partition.RunTriangles(ctx, ps, counters, false, false, 2)
			require.NoError(t, err, tag)
			require.Equal(t, total, none, tag)
		})
	}
}

// setupOnly is a TriangleCounter that counts nothing: RunTriangles over it
// times the host's share of a count on devices (the orientation and the
// rows).
type setupOnly struct {
	engine.Backend
}

func (setupOnly) CountPartTriangles(*partition.TriangleRows, bool) (uint64, []uint64, error) {
	return 0, nil, nil
}

// BenchmarkTriangleRowsSetup: the host's share of tc over two device
// parts of an undirected R-MAT 16 graph (the lists kept between runs).
func BenchmarkTriangleRowsSetup(b *testing.B) {
	ctx := context.Background()
	ps, bs := triangleBenchParts(b)
	counters := []engine.Backend{setupOnly{bs[0]}, setupOnly{bs[1]}}
	for b.Loop() {
		if _, _, _, err := partition.RunTriangles(ctx, ps, counters, false, false, 2); err != nil {
			b.Fatal(err)
		}
	}
}
