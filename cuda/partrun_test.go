package cuda

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCCChunks: every row of CCHeavyDegree arcs or more is cut into
// chunks of CCChunkArcs from its first arc, in row order; shorter rows
// have none.
func TestCCChunks(t *testing.T) {
	degrees := []uint64{0, CCHeavyDegree - 1, CCHeavyDegree, 3, CCChunkArcs, CCChunkArcs + 1, 2*CCChunkArcs + 5}
	offsets := make([]uint64, len(degrees)+1)
	for v, d := range degrees {
		offsets[v+1] = offsets[v] + d
	}
	want := []uint32{
		2, 0,
		4, 0,
		5, 0, 5, CCChunkArcs,
		6, 0, 6, CCChunkArcs, 6, 2 * CCChunkArcs,
	}
	require.Equal(t, want, ccChunks(offsets))
	require.Empty(t, ccChunks([]uint64{0}))
	require.Empty(t, ccChunks([]uint64{0, 5, 9}))
}
