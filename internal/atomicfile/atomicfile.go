// Package atomicfile writes files that appear whole or not at all: the data
// goes to a temporary file beside the destination, which is synced, given
// the usual permissions (0644) and renamed over the destination only when
// the writer commits. Aborting, or failing anywhere, removes the temporary
// file, so no partial file is ever left under the destination's name.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Mode is the permission a committed file gets (os.CreateTemp makes 0600).
const Mode = 0o644

// File is an open temporary file that becomes Path on Commit.
type File struct {
	*os.File
	Path  string // the destination
	ended bool   // committed or aborted
}

// Create opens a temporary file in the directory of path, named after it
// (".NAME.tmp-*"), so that the final rename stays within one file system.
func Create(path string) (*File, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &File{File: f, Path: path}, nil
}

// Commit syncs and closes the temporary file, gives it Mode and renames it
// to Path; the directory is synced too, on a best-effort basis, so the
// rename survives a crash. On any error the temporary file is removed.
// Commit and Abort after Commit do nothing more.
func (f *File) Commit() error {
	if f.ended {
		return fmt.Errorf("commit %s: already ended", f.Path)
	}
	f.ended = true
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), Mode)
	}
	if err == nil {
		err = os.Rename(f.Name(), f.Path)
	}
	if err != nil {
		os.Remove(f.Name())
		return err
	}
	if d, derr := os.Open(filepath.Dir(f.Path)); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Abort closes and removes the temporary file, leaving Path as it was. It
// does nothing once the file was committed or aborted, so it may be
// deferred.
func (f *File) Abort() {
	if f.ended {
		return
	}
	f.ended = true
	f.Close()
	os.Remove(f.Name())
}
