package format

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// datasetsDir is the shared datasets directory, relative to this package
// (the repository root's ../shared/datasets).
const datasetsDir = "../../../shared/datasets"

// TestSharedDatasets reads every shared dataset (zstd with a 128 MiB
// window) and checks it against the table of its README.
func TestSharedDatasets(t *testing.T) {
	if _, err := os.Stat(datasetsDir); err != nil {
		t.Skip("shared datasets not present:", err)
	}
	want := map[string]struct {
		vertices, entries, selfLoops uint64
		directed                     bool
	}{
		"uk-2007-05_100000.mtx.zst":      {100000, 3050615, 15670, true},
		"ego-twitter-undirected.mtx.zst": {81306, 1342310, 14, false},
		"coAuthorsDBLP.mtx.zst":          {299067, 977676, 0, false},
		"caidaRouterLevel.mtx.zst":       {192244, 609066, 0, false},
		"cit-HepPh.mtx.zst":              {34546, 421578, 44, true},
		"luxembourg_osm.mtx.zst":         {114599, 119666, 0, false},
	}
	files, err := filepath.Glob(filepath.Join(datasetsDir, "*.mtx.zst"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		name := filepath.Base(path)
		w, ok := want[name]
		if !ok {
			t.Logf("%s: not in the table, only checking it reads", name)
		}
		el, info, err := ReadFile(context.Background(), path, ReadOptions{})
		require.NoError(t, err, name)
		require.NoError(t, el.Validate(), name)
		st, err := os.Stat(path)
		require.NoError(t, err)
		assert.Equal(t, "zstd", info.Compression, name)
		assert.Equal(t, MatrixMarket, info.Format, name)
		assert.Equal(t, st.Size(), info.Bytes, name)
		if !ok {
			continue
		}
		assert.Equal(t, w.vertices, el.NumVertices, name)
		assert.Equal(t, w.vertices, info.DeclaredVertices, name)
		assert.Equal(t, w.entries, info.Entries, name)
		assert.Equal(t, w.directed, el.Directed, name)
		assert.Equal(t, !w.directed, info.Symmetric, name)
		assert.Equal(t, w.selfLoops, el.CountSelfLoops(), name)
		arcs := w.entries
		if !w.directed {
			arcs = 2*w.entries - w.selfLoops
		}
		assert.Equal(t, arcs, el.NumArcs(), name)
	}
}
