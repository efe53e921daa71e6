// Package cache keeps preprocessed layouts on disk so that a graph is
// preprocessed once: a layout is stored under a key derived from the
// SHA-256 of the input (the file's bytes, or a generator spec), the options
// that shaped the graph when it was read, the layout parameters and the
// layout file format version. A cached file that is corrupt, truncated or
// of an old version is detected on lookup, removed and reported, and the
// caller rebuilds it.
package cache

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// EnvDir is the environment variable that overrides the default cache
// directory (a --cache-dir flag overrides both).
const EnvDir = "MGRAPH_CACHE_DIR"

// Ext is the file name extension of cached layouts.
const Ext = ".mgl"

// Dir returns the cache directory: flag when it is not empty, else
// $MGRAPH_CACHE_DIR, else os.UserCacheDir()/mgraph.
func Dir(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	if d := os.Getenv(EnvDir); d != "" {
		return d, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("cache: no user cache directory (%v); pass --cache-dir", err)
	}
	return filepath.Join(base, "mgraph"), nil
}

// Digest identifies an input by content: a SHA-256.
type Digest [sha256.Size]byte

// HashFile returns the digest of the file's bytes: the SHA-256 of its size
// and of the SHA-256 of each of its hashPiece-byte pieces, which are hashed
// on all cores (a 2 GB graph file took 2 s to hash on one).
func HashFile(path string) (Digest, error) {
	var d Digest
	f, err := os.Open(path)
	if err != nil {
		return d, fmt.Errorf("cache: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return d, fmt.Errorf("cache: %w", err)
	}
	size := st.Size()
	pieces := int((size + hashPiece - 1) / hashPiece)
	sums := make([][sha256.Size]byte, pieces)
	errs := make([]error, pieces)
	par.Dynamic(pieces, 0, 1, func(i int) {
		h := sha256.New()
		off := int64(i) * hashPiece
		if _, err := io.Copy(h, io.NewSectionReader(f, off, min(hashPiece, size-off))); err != nil {
			errs[i] = err
			return
		}
		copy(sums[i][:], h.Sum(nil))
	})
	for _, err := range errs {
		if err != nil {
			return d, fmt.Errorf("cache: hash %s: %w", path, err)
		}
	}
	h := sha256.New()
	fmt.Fprintf(h, "mgraph tree sha256 %d %d\n", size, hashPiece)
	for _, s := range sums {
		h.Write(s[:])
	}
	copy(d[:], h.Sum(nil))
	return d, nil
}

// hashPiece is the bytes of a file HashFile hashes per piece.
const hashPiece = 64 << 20

// HashString returns the SHA-256 of s (for generated graphs: the spec and
// seed).
func HashString(s string) Digest { return sha256.Sum256([]byte(s)) }

// InputDigest identifies a graph input for the cache: the SHA-256 of the
// file path (HashFile), or, when no file is there, of the generator spec
// path names and its seed (generated is then true).
func InputDigest(path string, seed uint64) (d Digest, generated bool, err error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		spec, specErr := gen.ParseSpec(path)
		if specErr != nil {
			return Digest{}, false, fmt.Errorf("%s: no such file, and not a generator spec (%v)", path, specErr)
		}
		return HashString(fmt.Sprintf("gen %s seed=%d", spec, seed)), true, nil
	} else if err != nil {
		return Digest{}, false, err
	}
	d, err = HashFile(path)
	return d, false, err
}

// Key derives the cache key of a layout: the input digest, variant (every
// option that changes the graph read from the input, e.g. the format and
// symmetrization flags), the parameters and layout.FormatVersion. It is a
// hex string usable as a file name.
func Key(input Digest, variant string, p layout.Params) string {
	h := sha256.New()
	var b []byte
	b = append(b, "mgraph-layout-cache\x00"...)
	b = binary.LittleEndian.AppendUint32(b, layout.FormatVersion)
	b = append(b, input[:]...)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(variant)))
	b = append(b, variant...)
	b = binary.LittleEndian.AppendUint32(b, p.PanelSize)
	b = binary.LittleEndian.AppendUint64(b, p.HeavyThreshold)
	b = binary.LittleEndian.AppendUint32(b, p.HeavyColumns)
	b = binary.LittleEndian.AppendUint32(b, p.SegmentSize)
	b = binary.LittleEndian.AppendUint32(b, p.HighGroups)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(p.GroupThresholds)))
	for _, t := range p.GroupThresholds {
		b = binary.LittleEndian.AppendUint64(b, t)
	}
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// Cache is a directory of cached layouts.
type Cache struct {
	dir string
}

// Open returns the cache in dir, creating the directory if needed.
func Open(dir string) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	return &Cache{dir: dir}, nil
}

// Dir returns the cache's directory.
func (c *Cache) Dir() string { return c.dir }

// Path returns the file that holds (or would hold) key's layout.
func (c *Cache) Path(key string) string { return filepath.Join(c.dir, key+Ext) }

// ErrBad is wrapped by the error Lookup returns for a cached file that
// could not be used (and was removed).
var ErrBad = errors.New("bad cached layout")

// Lookup returns the layout cached under key. On a miss it returns
// (nil, nil). A cached file that cannot be loaded (corrupt, truncated, old
// format version) or whose parameters differ from want is removed, and
// Lookup returns (nil, err) with err wrapping ErrBad and saying why, so the
// caller can report it and rebuild.
func (c *Cache) Lookup(key string, want layout.Params) (*layout.Layout, error) {
	path := c.Path(key)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	l, err := layout.LoadFile(path)
	if err == nil && !l.Params.Equal(want) {
		err = fmt.Errorf("it was built with parameters %v, want %v", l.Params, want)
	}
	if err != nil {
		rmErr := os.Remove(path)
		if rmErr != nil && !errors.Is(rmErr, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w %s: %v (and removing it failed: %v)", ErrBad, path, err, rmErr)
		}
		return nil, fmt.Errorf("%w %s: %v (removed)", ErrBad, path, err)
	}
	touch(path) // most recently used (Prune evicts the least)
	return l, nil
}

// Store writes l under key atomically (layout.SaveFile) and returns the
// file's path.
func (c *Cache) Store(key string, l *layout.Layout, opts layout.SaveOptions) (string, error) {
	path := c.Path(key)
	if err := layout.SaveFile(path, l, opts); err != nil {
		return "", fmt.Errorf("cache: %w", err)
	}
	return path, nil
}
