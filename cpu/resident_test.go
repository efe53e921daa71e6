package cpu_test

import (
	"context"
	"slices"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/stretchr/testify/require"
)

// TestRunMinReusesResult: a synchronous RunMin maps its values into a
// buffer kept with its engines, so the next run's result (from another
// source) lands in the same slice, and each result is right when made;
// an async run's result is a new slice.
func TestRunMinReusesResult(t *testing.T) {
	ctx := context.Background()
	l, b := backendOf(t, symmetric(t, "grid:30", 1, nil), 2)
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

// TestComponentsReusesResult: Components (cc) and RunMin's components
// (cc-lp) map into buffers the backend keeps, so a second run's result is
// the first one's slice, and every result is right when made.
func TestComponentsReusesResult(t *testing.T) {
	ctx := context.Background()
	l, b := backendOf(t, symmetric(t, "rmat:12:4", 3, nil), 3)
	g := apps.OriginalCSR(l, 2)
	first, _, err := apps.CC(ctx, b, engine.RunOptions{})
	require.NoError(t, err)
	require.NoError(t, apps.ValidateCC(g, first))
	firstCopy := slices.Clone(first)
	second, _, err := apps.CC(ctx, b, engine.RunOptions{})
	require.NoError(t, err)
	require.Same(t, &first[0], &second[0], "the result buffer is reused")
	require.Equal(t, firstCopy, second)
	for range 2 {
		lp, _, err := apps.CCLabels(ctx, b, engine.RunOptions{})
		require.NoError(t, err)
		require.Equal(t, firstCopy, lp, "label propagation's components")
		require.NotSame(t, &second[0], &lp[0], "cc-lp keeps its own buffer")
	}
	require.Equal(t, firstCopy, second, "cc-lp left cc's result alone")
}

// TestBCReusesBuffers: BC on the CPU backend keeps its arrays and result
// between calls: a second call (other sources) returns the same slice, and
// each result matches the serial reference, one source or several.
func TestBCReusesBuffers(t *testing.T) {
	ctx := context.Background()
	l, b := backendOf(t, symmetric(t, "rmat:11:6", 5, nil), 3)
	g := apps.OriginalCSR(l, 2)
	var prev []float64
	for _, sources := range [][]uint32{{0}, {5, 9, 5}, {17}} {
		got, _, err := apps.BC(ctx, b, b, sources, engine.RunOptions{})
		require.NoError(t, err)
		require.NoError(t, apps.ValidateBC(g, sources, got), "sources %v", sources)
		if prev != nil {
			require.Same(t, &prev[0], &got[0], "the result buffer is reused")
		}
		prev = got
	}
}
