package atomicfile_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mgraph-dev/mgraph/internal/atomicfile"
	"github.com/stretchr/testify/require"
)

// entries lists dir's file names.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestCommitReplacesTheDestinationWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o600))

	f, err := atomicfile.Create(path)
	require.NoError(t, err)
	_, err = f.WriteString("new contents")
	require.NoError(t, err)
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "old", string(got), "the destination changed before Commit")

	require.NoError(t, f.Commit())
	got, err = os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "new contents", string(got))
	st, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(atomicfile.Mode), st.Mode().Perm())
	require.Equal(t, []string{"out.txt"}, entries(t, dir), "a temporary file was left behind")

	f.Abort() // after Commit: nothing happens
	require.FileExists(t, path)
	require.Error(t, f.Commit())
}

func TestAbortLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	f, err := atomicfile.Create(path)
	require.NoError(t, err)
	_, err = f.WriteString("partial")
	require.NoError(t, err)
	f.Abort()
	f.Abort()
	require.Empty(t, entries(t, dir))
	require.Error(t, f.Commit())
	require.Empty(t, entries(t, dir))
}

func TestCreateInAMissingDirectoryFails(t *testing.T) {
	_, err := atomicfile.Create(filepath.Join(t.TempDir(), "no", "such", "dir", "x"))
	require.Error(t, err)
}

func TestCommitFailureRemovesTheTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "taken")
	require.NoError(t, os.Mkdir(path, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(path, "x"), nil, 0o644)) // a non-empty directory: the rename fails
	f, err := atomicfile.Create(path)
	require.NoError(t, err)
	require.Error(t, f.Commit())
	require.Equal(t, []string{"taken"}, entries(t, dir))
}

func TestCreateWithoutDirectoryUsesTheWorkingDirectory(t *testing.T) {
	t.Chdir(t.TempDir())
	f, err := atomicfile.Create("plain")
	require.NoError(t, err)
	require.NoError(t, f.Commit())
	require.FileExists(t, "plain")
}
