package apps

import (
	"fmt"
	"math"
	"testing"

	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/stretchr/testify/require"
)

// levelsBC runs BC by levels over l from sources on workers workers, a
// level of fewer than serial vertices on the caller, pieces of piece
// vertices and a level of copyMin vertices or more copied by the team, and
// returns its scores (a copy) and its levels and arcs.
func levelsBC(t *testing.T, l *layout.Layout, sources []uint32, workers, serial, piece, copyMin int) ([]float64, engine.Result) {
	t.Helper()
	nv := int(l.NumVertices)
	bufs := &bcScratch{
		depth: make([]int32, nv), sigma: make([]float64, nv), offer: make([]float64, nv),
		order: make([]uint32, nv), result: make([]float64, nv),
	}
	r := newBCLevelRun(l, bufs, workers)
	r.serial, r.piece, r.copyMin = serial, piece, copyMin
	var total engine.Result
	require.NoError(t, r.run(l, sources, &total))
	return append([]float64(nil), bufs.result...), total
}

// TestBCLevelsParallel: the levels shared by a team's workers (every level
// of two vertices or more parallel, in pieces of one to many vertices,
// whether the workers are fewer or more than the pieces, the lists found
// copied by the caller or by the team) give exactly the
// serial pass's scores, levels and arcs, which are the reference's, on a
// grid (about a hundred levels from a corner) and on a sparse random graph
// with many components, from one source and from several (a team reused
// for the next sources), an isolated vertex among them.
func TestBCLevelsParallel(t *testing.T) {
	grid := testgraphs.Generated(t, "grid:48:0.1", 3)
	grid.Symmetrize(2)
	sparse := testgraphs.Generated(t, "uniform:3000:3600", 5)
	sparse.Symmetrize(2)
	for _, g := range []struct {
		name string
		el   *graph.EdgeList
	}{{"grid", grid}, {"sparse", sparse}} {
		l, _ := cpuBackend(t, g.el)
		csr := OriginalCSR(l, 2)
		isolated := -1
		for v := range int(csr.NumVertices) {
			if csr.Offsets[v] == csr.Offsets[v+1] {
				isolated = v
				break
			}
		}
		several := []uint32{5, 1000, 2303, 17}
		if isolated >= 0 {
			several = append(several, uint32(isolated))
		}
		for _, sources := range [][]uint32{{0}, several} {
			want, wantTotal := levelsBC(t, l, sources, 1, math.MaxInt, bcLevelPiece, bcLevelCopyParallel)
			require.NoError(t, ValidateBC(csr, sources, want), "%s %v", g.name, sources)
			require.Positive(t, wantTotal.Iterations)
			for _, workers := range []int{2, 3, 8} {
				for _, cut := range []struct{ piece, copyMin int }{{1, 1}, {3, 40}, {64, math.MaxInt}} {
					got, total := levelsBC(t, l, sources, workers, 2, cut.piece, cut.copyMin)
					msg := fmt.Sprintf("%s %v workers %d piece %d copy %d", g.name, sources, workers, cut.piece, cut.copyMin)
					require.Equal(t, wantTotal.Iterations, total.Iterations, msg)
					require.Equal(t, wantTotal.Edges, total.Edges, msg)
					for v := range want {
						require.Equal(t, math.Float64bits(want[v]), math.Float64bits(got[v]),
							"%s vertex %d: %v, want %v", msg, v, got[v], want[v])
					}
				}
			}
		}
	}
}
