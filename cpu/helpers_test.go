package cpu_test

import (
	"context"
	"testing"

	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/stretchr/testify/require"
)

// symmetric generates spec with seed, symmetrized (its weights drawn by
// weigh when not nil).
func symmetric(t *testing.T, spec string, seed uint64, weigh func(*graph.EdgeList)) *graph.EdgeList {
	t.Helper()
	el := testgraphs.Generated(t, spec, seed)
	el.Symmetrize(2)
	if weigh != nil {
		weigh(el)
	}
	return el
}

// backendOf builds el's layout (testgraphs.SmallParams) and a CPU backend
// of workers over it.
func backendOf(t *testing.T, el *graph.EdgeList, workers int) (*layout.Layout, *cpu.Backend) {
	t.Helper()
	l, err := preprocess.Build(context.Background(), el, testgraphs.SmallParams(), preprocess.Options{Workers: 2})
	require.NoError(t, err)
	b, err := cpu.New(l, workers)
	require.NoError(t, err)
	return l, b
}
