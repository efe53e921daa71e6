package cuda

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPullChunks(t *testing.T) {
	// Row panels of 0, 5, 16, 0 and 17 edges in chunks of 8.
	rows, firsts := PullChunks([]uint64{0, 0, 5, 21, 21, 38}, 8)
	require.Equal(t, []uint32{1, 2, 2, 4, 4, 4}, rows)
	require.Equal(t, []uint64{0, 5, 13, 21, 29, 37}, firsts)
	rows, firsts = PullChunks([]uint64{0, 0}, 8)
	require.Empty(t, rows)
	require.Empty(t, firsts)
	rows, _ = PullChunks(nil, 8)
	require.Empty(t, rows)
}

func TestPRScheme(t *testing.T) {
	require.Equal(t, "pull", PRPull.String())
	require.Equal(t, "stream", PRStream.String())
	require.Equal(t, "PRScheme(7)", PRScheme(7).String())
	require.Equal(t, []string{"gather", "apply"}, PRPull.Phases())
	require.Len(t, PRStream.Phases(), PREvents-1)
}
