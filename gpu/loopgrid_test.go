package gpu

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLoopGrid: small frontiers get the smallest grid, which a frontier of
// more than twice what it is sized for ends; large ones the largest, which
// nothing ends; WithLoopBlocksPerSM fixes the grid.
func TestLoopGrid(t *testing.T) {
	b := &Backend{sms: 132}
	level := uint64(132 * loopGroupVertices * loopGroupsPerBlock)
	for _, c := range []struct {
		count    uint64
		per      uint32
		maxCount uint64
	}{
		{1, LoopMinBlocksPerSM, 2 * LoopMinBlocksPerSM * level},
		{2 * level, LoopMinBlocksPerSM, 2 * LoopMinBlocksPerSM * level},
		{3*level + 1, 4, 8 * level},
		{100 * level, LoopMaxBlocksPerSM, 0},
	} {
		per, maxCount := b.loopGrid(c.count)
		require.Equal(t, c.per, per, "count %d", c.count)
		require.Equal(t, c.maxCount, maxCount, "count %d", c.count)
		require.True(t, maxCount == 0 || maxCount >= c.count, "count %d: the grid ends its own first frontier", c.count)
	}
	b.loopBlocks = 3
	per, maxCount := b.loopGrid(100 * level)
	require.Equal(t, uint32(3), per)
	require.Zero(t, maxCount)
}
