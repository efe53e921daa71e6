package cache_test

import (
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/layout/cache"
	"github.com/mgraph-dev/mgraph/preprocess"
)

func TestDir(t *testing.T) {
	d, err := cache.Dir("/x/y")
	require.NoError(t, err)
	assert.Equal(t, "/x/y", d)
	t.Setenv(cache.EnvDir, "/from/env")
	d, err = cache.Dir("")
	require.NoError(t, err)
	assert.Equal(t, "/from/env", d)
	t.Setenv(cache.EnvDir, "")
	t.Setenv("XDG_CACHE_HOME", "/xdg")
	d, err = cache.Dir("")
	require.NoError(t, err)
	assert.Equal(t, "/xdg/mgraph", d)
}

func TestKeyDependsOnEverything(t *testing.T) {
	p := layout.DefaultParams()
	a := cache.HashString("a")
	k := cache.Key(a, "mtx", p)
	assert.Len(t, k, 64)
	assert.Equal(t, k, cache.Key(a, "mtx", layout.DefaultParams()))
	assert.NotEqual(t, k, cache.Key(cache.HashString("b"), "mtx", p))
	assert.NotEqual(t, k, cache.Key(a, "mtx undirected", p))
	q := p
	q.PanelSize--
	assert.NotEqual(t, k, cache.Key(a, "mtx", q))
	q = p
	q.GroupThresholds = []uint64{2048, 1024, 512, 256, 127}
	assert.NotEqual(t, k, cache.Key(a, "mtx", q))
	// Every field of layout.Params, changed alone, changes the key: a new
	// parameter that Key forgot fails here.
	pv := reflect.ValueOf(p)
	for i := 0; i < pv.NumField(); i++ {
		q := p
		f := reflect.ValueOf(&q).Elem().Field(i)
		switch f.Kind() {
		case reflect.Uint32, reflect.Uint64:
			f.SetUint(f.Uint() + 1)
		case reflect.Slice: // GroupThresholds: one more group
			f.Set(reflect.ValueOf(append(slices.Clone(p.GroupThresholds), 1)))
		default:
			t.Fatalf("layout.Params.%s has kind %s: teach cache.Key and this test about it", pv.Type().Field(i).Name, f.Kind())
		}
		assert.NotEqual(t, k, cache.Key(a, "mtx", q), "changing Params.%s must change the key", pv.Type().Field(i).Name)
	}
}

func TestHashFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(path, []byte("a"), 0o644))
	d, err := cache.HashFile(path)
	require.NoError(t, err)
	// The tree hash: sha256 of the size line and each piece's sha256.
	piece := sha256.Sum256([]byte("a"))
	assert.Equal(t, cache.Digest(sha256.Sum256(append([]byte("mgraph tree sha256 1 67108864\n"), piece[:]...))), d)
	require.NoError(t, os.WriteFile(path, []byte("b"), 0o644))
	other, err := cache.HashFile(path)
	require.NoError(t, err)
	assert.NotEqual(t, d, other)
	_, err = cache.HashFile(path + ".missing")
	assert.Error(t, err)
}

func TestLookupStoreAndBadFiles(t *testing.T) {
	el, err := gen.Grid(context.Background(), 20, 20, 0, 1, 0, nil)
	require.NoError(t, err)
	p := layout.DefaultParams()
	l, err := preprocess.Build(context.Background(), el, p, preprocess.Options{})
	require.NoError(t, err)

	c, err := cache.Open(filepath.Join(t.TempDir(), "sub", "cache"))
	require.NoError(t, err)
	key := cache.Key(cache.HashString("grid:20x20"), "", p)

	got, err := c.Lookup(key, p)
	require.NoError(t, err)
	assert.Nil(t, got, "miss")

	path, err := c.Store(key, l, layout.SaveOptions{})
	require.NoError(t, err)
	assert.Equal(t, c.Path(key), path)
	got, err = c.Lookup(key, p)
	require.NoError(t, err)
	assert.Equal(t, l, got)

	good, err := os.ReadFile(path)
	require.NoError(t, err)
	bad := map[string][]byte{
		"corrupt":   func() []byte { b := append([]byte(nil), good...); b[len(b)/2] ^= 0x55; return b }(),
		"truncated": good[:len(good)-7],
		"empty":     {},
		"old":       func() []byte { b := append([]byte(nil), good...); b[8] = 0; return b }(),
	}
	for name, b := range bad {
		require.NoError(t, os.WriteFile(path, b, 0o644))
		got, err = c.Lookup(key, p)
		require.Error(t, err, name)
		assert.ErrorIs(t, err, cache.ErrBad)
		assert.Contains(t, err.Error(), "removed")
		assert.Nil(t, got)
		assert.NoFileExists(t, path, name)
		t.Logf("%s: %v", name, err)
	}
	// Parameters that differ from the key's (a collision or a tampered
	// file) are treated as bad too.
	_, err = c.Store(key, l, layout.SaveOptions{})
	require.NoError(t, err)
	q := p
	q.SegmentSize = 1
	_, err = c.Lookup(key, q)
	assert.ErrorIs(t, err, cache.ErrBad)
}
