package cache_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mgraph-dev/mgraph/layout/cache"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fake writes a file of size bytes under key, last used age ago.
func fake(t *testing.T, c *cache.Cache, key string, size int, age time.Duration) {
	t.Helper()
	require.NoError(t, os.WriteFile(c.Path(key), make([]byte, size), 0o644))
	when := time.Now().Add(-age)
	require.NoError(t, os.Chtimes(c.Path(key), when, when))
}

func key(c byte) string { return strings.Repeat(string(c), 64) }

func TestEntriesAndPruneLRU(t *testing.T) {
	c, err := cache.Open(t.TempDir())
	require.NoError(t, err)
	fake(t, c, key('a'), 100, 3*time.Hour)
	fake(t, c, key('b'), 200, 2*time.Hour)
	fake(t, c, key('c'), 300, time.Hour)
	// Not layouts: a temporary file of a write in progress, a stray file.
	require.NoError(t, os.WriteFile(filepath.Join(c.Dir(), ".tmp-123"), []byte("x"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(c.Dir(), "notes.txt"), []byte("x"), 0o644))

	es, err := c.Entries()
	require.NoError(t, err)
	require.Len(t, es, 3)
	assert.Equal(t, []string{key('c'), key('b'), key('a')}, []string{es[0].Key, es[1].Key, es[2].Key})
	size, err := c.Size()
	require.NoError(t, err)
	assert.Equal(t, int64(600), size)

	// Keep under 450: the least recently used (a, then b) go, but never
	// the one kept.
	removed, err := c.Prune(450, key('a'))
	require.NoError(t, err)
	require.Len(t, removed, 1)
	assert.Equal(t, key('b'), removed[0].Key)
	es, _ = c.Entries()
	assert.Len(t, es, 2)
	removed, err = c.Prune(0, "")
	require.NoError(t, err)
	assert.Len(t, removed, 2)
	size, _ = c.Size()
	assert.Zero(t, size)
	_, err = os.Stat(filepath.Join(c.Dir(), "notes.txt"))
	assert.NoError(t, err, "files that are not layouts stay")
}

// TestSidecarsGoWithTheirLayout: files named after a layout's key with
// another extension (a partitioned layout's part tables) count with it and
// are removed with it.
func TestSidecarsGoWithTheirLayout(t *testing.T) {
	c, err := cache.Open(t.TempDir())
	require.NoError(t, err)
	fake(t, c, key('a'), 100, 2*time.Hour)
	fake(t, c, key('b'), 100, time.Hour)
	side := filepath.Join(c.Dir(), key('a')+".mgpt")
	require.NoError(t, os.WriteFile(side, make([]byte, 50), 0o644))
	es, err := c.Entries()
	require.NoError(t, err)
	require.Len(t, es, 2)
	assert.Equal(t, int64(150), es[1].Bytes)
	removed, err := c.Prune(100, "")
	require.NoError(t, err)
	require.Len(t, removed, 1)
	assert.Equal(t, key('a'), removed[0].Key)
	_, err = os.Stat(side)
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestParseSizeAndLimit(t *testing.T) {
	for s, want := range map[string]int64{"0": 0, "off": 0, "1234": 1234, "2KB": 2000, "1.5GiB": 3 << 29, "20gib": 20 << 30, "3 MiB": 3 << 20} {
		got, err := cache.ParseSize(s)
		require.NoError(t, err, s)
		assert.Equal(t, want, got, s)
	}
	for _, bad := range []string{"-1", "12 parsecs", "GB", ""} {
		_, err := cache.ParseSize(bad)
		assert.Error(t, err, bad)
	}
	dir := t.TempDir()
	t.Setenv(cache.EnvMax, "")
	def := cache.DefaultLimit(dir)
	assert.GreaterOrEqual(t, def, int64(cache.MinDefaultLimit))
	assert.LessOrEqual(t, def, int64(cache.MaxDefaultLimit))
	l, err := cache.Limit("", dir)
	require.NoError(t, err)
	assert.Equal(t, def, l)
	t.Setenv(cache.EnvMax, "5GB")
	l, err = cache.Limit("", dir)
	require.NoError(t, err)
	assert.Equal(t, int64(5e9), l)
	l, err = cache.Limit("7MB", dir)
	require.NoError(t, err)
	assert.Equal(t, int64(7e6), l, "the flag wins over the environment")
}
