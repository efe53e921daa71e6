package cpu_test

import (
	"context"
	"slices"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/require"
)

// TestRunMinReusesResult: a synchronous RunMin maps its values into a
// buffer kept with its engines, so the next run's result (from another
// source) lands in the same slice, and each result is right when made;
// an async run's result is a new slice.
func TestRunMinReusesResult(t *testing.T) {
	ctx := context.Background()
	el := testgraphs.Generated(t, "grid:30", 1)
	el.Symmetrize(2)
	l, err := preprocess.Build(ctx, el, testgraphs.SmallParams(), preprocess.Options{Workers: 2})
	require.NoError(t, err)
	b, err := cpu.New(l, 2)
	require.NoError(t, err)
	g := apps.OriginalCSR(l, 2)
	first, _, err := apps.BFS(ctx, b, 0, engine.RunOptions{})
	require.NoError(t, err)
	require.NoError(t, apps.ValidateBFS(g, 0, first))
	firstCopy := slices.Clone(first)
	second, _, err := apps.BFS(ctx, b, 17, engine.RunOptions{})
	require.NoError(t, err)
	require.NoError(t, apps.ValidateBFS(g, 17, second))
	require.Same(t, &first[0], &second[0], "the result buffer is reused")
	async, _, err := apps.BFS(ctx, b, 0, engine.RunOptions{Mode: engine.Async})
	require.NoError(t, err)
	require.Equal(t, firstCopy, async)
	require.NotSame(t, &second[0], &async[0])
}
