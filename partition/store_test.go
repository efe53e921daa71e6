package partition_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/partition"
	"github.com/stretchr/testify/require"
)

// splitOnly partitions el into parts (random) without layouts.
func splitOnly(t testing.TB, s testgraphs.Shape, parts int) []*partition.Part {
	t.Helper()
	ctx := context.Background()
	owner, err := partition.Assign(ctx, s.EL, partition.Options{Method: partition.Random, Parts: parts, Seed: 2})
	require.NoError(t, err)
	ps, err := partition.Split(ctx, s.EL, owner, parts)
	require.NoError(t, err)
	return ps
}

// TestTablesRoundTrip: every part of every shape reads back equal, and
// the parts read back are Consistent.
func TestTablesRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		if s.EL.NumVertices == 0 {
			continue
		}
		for _, parts := range []int{1, 3} {
			ps := splitOnly(t, s, parts)
			got := make([]*partition.Part, parts)
			for i, pt := range ps {
				path := filepath.Join(dir, "p"+partition.TablesExt)
				require.NoError(t, partition.SaveTables(path, pt))
				rt, err := partition.LoadTables(path)
				require.NoError(t, err, s.Name)
				require.Nil(t, rt.EL)
				want := *pt
				want.EL = nil
				require.Equal(t, normal(&want), normal(rt), "%s part %d", s.Name, i)
				got[i] = rt
			}
			require.NoError(t, partition.Consistent(got), s.Name)
		}
	}
}

// normal returns pt with its empty tables non-nil (a file does not tell
// nil from empty).
func normal(pt *partition.Part) *partition.Part {
	c := *pt
	for _, a := range []*[]uint32{&c.Global, &c.GhostOwner, &c.GhostRemote, &c.Boundary} {
		if *a == nil {
			*a = []uint32{}
		}
	}
	return &c
}

// TestTablesRejectBadFiles: truncated, corrupt, foreign and inconsistent
// tables are errors naming the file and what is wrong.
func TestTablesRejectBadFiles(t *testing.T) {
	dir := t.TempDir()
	ps := splitOnly(t, testgraphs.Shapes(t, testgraphs.Small)[0], 3)
	path := filepath.Join(dir, "t"+partition.TablesExt)
	require.NoError(t, partition.SaveTables(path, ps[1]))
	good, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, c := range []struct {
		name string
		edit func([]byte) []byte
		msg  string
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)-5] }, "bytes, the header says"},
		{"short", func(b []byte) []byte { return b[:10] }, "shorter than the header"},
		{"magic", func(b []byte) []byte { b[0] = 'X'; return b }, "magic"},
		{"version", func(b []byte) []byte { b[4] = 9; return b }, "version 9"},
		{"flipped", func(b []byte) []byte { b[len(b)/2] ^= 1; return b }, "checksum"},
	} {
		bad := filepath.Join(dir, c.name+partition.TablesExt)
		require.NoError(t, os.WriteFile(bad, c.edit(append([]byte(nil), good...)), 0o644))
		_, err := partition.LoadTables(bad)
		require.ErrorIs(t, err, partition.ErrBadTables, c.name)
		require.ErrorContains(t, err, bad, c.name)
		require.ErrorContains(t, err, c.msg, c.name)
	}
	_, err = partition.LoadTables(filepath.Join(dir, "missing"))
	require.ErrorIs(t, err, os.ErrNotExist)
	// Parts of different partitions do not go together.
	other := splitOnly(t, testgraphs.Shapes(t, testgraphs.Small)[0], 2)
	require.Error(t, partition.Consistent([]*partition.Part{ps[0], ps[1]}))
	require.Error(t, partition.Consistent([]*partition.Part{other[0], ps[1]}))
	swapped := []*partition.Part{ps[0], ps[2], ps[1]}
	require.ErrorContains(t, partition.Consistent(swapped), "says it is part")
}

// FuzzDecodeTables: any bytes are an error or tables that encode back to
// the same bytes; never a panic.
func FuzzDecodeTables(f *testing.F) {
	for _, pt := range splitOnly(f, testgraphs.Shapes(f, testgraphs.Small)[0], 2) {
		f.Add(partition.EncodeTables(pt))
	}
	f.Add([]byte("MGPT"))
	f.Fuzz(func(t *testing.T, data []byte) {
		pt, err := partition.DecodeTables(data, "fuzz")
		if err != nil {
			return
		}
		require.Equal(t, data, partition.EncodeTables(pt))
	})
}
