package cache

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// EnvMax names the environment variable that sets the cache's size limit
// (a size such as "20GiB", "500MB" or a byte count; "0" or "off": none).
const EnvMax = "MGRAPH_CACHE_MAX"

// Limits of the default size limit: a tenth of the cache's file system,
// but at least MinDefaultLimit and at most MaxDefaultLimit.
const (
	MinDefaultLimit = 1 << 30
	MaxDefaultLimit = 64 << 30
)

// Entry is one cached layout.
type Entry struct {
	Key   string
	Path  string
	Bytes int64 // the layout's and its sidecars'
	// Sidecars are the files kept beside the layout, named Key plus an
	// extension other than Ext (a partitioned layout's part tables): they
	// count with the entry and go with it.
	Sidecars []string
	LastUsed time.Time // the file's modification time: set by Store and by every Lookup hit
}

// Entries lists the cached layouts, most recently used first. Files that
// are not layouts (temporary files of writes in progress, anything else)
// are not listed.
func (c *Cache) Entries() ([]Entry, error) {
	des, err := os.ReadDir(c.dir)
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	var out []Entry
	type sidecar struct {
		path string
		size int64
	}
	sides := map[string][]sidecar{} // by key
	for _, de := range des {
		name := de.Name()
		key, ext, found := strings.Cut(name, ".")
		if !found || ext == Ext[1:] || !de.Type().IsRegular() || !isKey(key) {
			continue
		}
		if info, err := de.Info(); err == nil {
			sides[key] = append(sides[key], sidecar{filepath.Join(c.dir, name), info.Size()})
		}
	}
	for _, de := range des {
		name := de.Name()
		key, ok := strings.CutSuffix(name, Ext)
		if !ok || !de.Type().IsRegular() || !isKey(key) {
			continue
		}
		info, err := de.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed meanwhile
		} else if err != nil {
			return nil, fmt.Errorf("cache: %w", err)
		}
		e := Entry{Key: key, Path: filepath.Join(c.dir, name), Bytes: info.Size(), LastUsed: info.ModTime()}
		for _, sc := range sides[key] {
			e.Sidecars, e.Bytes = append(e.Sidecars, sc.path), e.Bytes+sc.size
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Entry) int { return b.LastUsed.Compare(a.LastUsed) })
	return out, nil
}

// isKey reports whether s looks like a key (Key's hex SHA-256).
func isKey(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, r := range s {
		if !unicode.Is(unicode.ASCII_Hex_Digit, r) {
			return false
		}
	}
	return true
}

// Size returns the bytes the cached layouts take.
func (c *Cache) Size() (int64, error) {
	es, err := c.Entries()
	var total int64
	for _, e := range es {
		total += e.Bytes
	}
	return total, err
}

// Prune removes the least recently used layouts until the rest take at most
// maxBytes, never the one under keep (""), and returns what it removed. A
// layout another process removed meanwhile is skipped.
func (c *Cache) Prune(maxBytes int64, keep string) ([]Entry, error) {
	es, err := c.Entries()
	if err != nil {
		return nil, err
	}
	var total int64
	for _, e := range es {
		total += e.Bytes
	}
	var removed []Entry
	for i := len(es) - 1; i >= 0 && total > maxBytes; i-- {
		e := es[i]
		if e.Key == keep {
			continue
		}
		if err := os.Remove(e.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, fmt.Errorf("cache: prune: %w", err)
		}
		for _, sc := range e.Sidecars {
			if err := os.Remove(sc); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return removed, fmt.Errorf("cache: prune: %w", err)
			}
		}
		total -= e.Bytes
		removed = append(removed, e)
	}
	return removed, nil
}

// touch marks path used now (the LRU order).
func touch(path string) {
	now := time.Now()
	_ = os.Chtimes(path, now, now) // best effort: a read-only cache still serves
}

// ParseSize parses a size: a byte count, or a number with a unit (B, KB,
// MB, GB, TB: powers of 1000; KiB, MiB, GiB, TiB: powers of 1024), or
// "off"/"0" for no limit (0).
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if strings.EqualFold(t, "off") || strings.EqualFold(t, "none") {
		return 0, nil
	}
	i := strings.IndexFunc(t, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' })
	num, unit := t, ""
	if i >= 0 {
		num, unit = strings.TrimSpace(t[:i]), strings.TrimSpace(t[i:])
	}
	mult := map[string]float64{"": 1, "b": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}[strings.ToLower(unit)]
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || mult == 0 || v < 0 || v*mult > 1<<62 {
		return 0, fmt.Errorf("size %q: want a number of bytes with an optional unit (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB), or off", s)
	}
	return int64(v * mult), nil
}

// Limit returns the size limit for the cache in dir: flag when set (a
// size, see ParseSize), else $MGRAPH_CACHE_MAX, else DefaultLimit(dir).
// 0 means no limit.
func Limit(flag, dir string) (int64, error) {
	for _, s := range []string{flag, os.Getenv(EnvMax)} {
		if strings.TrimSpace(s) != "" {
			return ParseSize(s)
		}
	}
	return DefaultLimit(dir), nil
}

// DefaultLimit is a tenth of the file system that holds dir, within
// [MinDefaultLimit, MaxDefaultLimit] (MaxDefaultLimit when the file system
// cannot be asked).
func DefaultLimit(dir string) int64 {
	total, ok := fsBytes(dir)
	if !ok {
		return MaxDefaultLimit
	}
	return min(max(total/10, MinDefaultLimit), MaxDefaultLimit)
}
