package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/internal/progress"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/layout/cache"
	"github.com/mgraph-dev/mgraph/preprocess"
	"github.com/spf13/pflag"
)

// layoutFlags are the flags of every command that needs a layout: where
// the cache is, how to compress, and the layout parameters.
type layoutFlags struct {
	cacheDir       string
	cacheMax       string
	noCache        bool
	level          int
	panelSize      uint32
	heavyThreshold uint64
	heavyColumns   uint32
	segmentSize    uint32
	groups         string
	highGroups     uint32
	preprocessOn   string // cpu, gpu or auto ("" is auto)
}

func (f *layoutFlags) register(fs *pflag.FlagSet) {
	d := layout.DefaultParams()
	fs.StringVar(&f.cacheDir, "cache-dir", "", "layout cache directory (default $"+cache.EnvDir+" or the user cache dir + /mgraph)")
	fs.BoolVar(&f.noCache, "no-cache", false, "neither read nor write the layout cache")
	fs.StringVar(&f.cacheMax, "cache-max", "", "the cache's size limit, least recently used layouts removed beyond it (e.g. 20GiB; off: none; default $"+cache.EnvMax+" or a tenth of the disk, 1-64 GiB)")
	fs.IntVar(&f.level, "level", layout.DefaultLevel, "zstd level of layout files, 1 (fast) to 22 (small)")
	fs.Uint32Var(&f.panelSize, "panel-size", d.PanelSize, "layout: vertices per row/column panel (P, at most 32767)")
	fs.Uint64Var(&f.heavyThreshold, "heavy-threshold", d.HeavyThreshold, "layout: a dense block with more edges than this is heavy")
	fs.Uint32Var(&f.heavyColumns, "heavy-columns", d.HeavyColumns, "layout: columns (threads) of a heavy block's frontier matrix (T)")
	fs.Uint32Var(&f.segmentSize, "segment-size", d.SegmentSize, "layout: destinations per sparse segment of the high in-degree groups")
	fs.StringVar(&f.groups, "group-thresholds", joinUints(d.GroupThresholds), "layout: in-degree lower bounds of groups 1..k, descending")
	fs.Uint32Var(&f.highGroups, "high-groups", d.HighGroups, "layout: groups 1..N are cut into shared-memory segments")
	fs.StringVar(&f.preprocessOn, "preprocess-on", preprocess.OnAuto, "where to build layouts: cpu, gpu, or auto (the GPU when one is visible and the graph fits)")
}

// where returns the --preprocess-on choice, checked.
func (f *layoutFlags) where() (string, error) {
	switch f.preprocessOn {
	case "":
		return preprocess.OnAuto, nil
	case preprocess.OnCPU, preprocess.OnGPU, preprocess.OnAuto:
		return f.preprocessOn, nil
	}
	return "", usageError("--preprocess-on %q: want cpu, gpu or auto", f.preprocessOn)
}

func joinUints(v []uint64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatUint(x, 10)
	}
	return strings.Join(s, ",")
}

// params returns the layout parameters the flags describe.
func (f *layoutFlags) params() (layout.Params, error) {
	p := layout.Params{PanelSize: f.panelSize, HeavyThreshold: f.heavyThreshold, HeavyColumns: f.heavyColumns,
		SegmentSize: f.segmentSize, HighGroups: f.highGroups}
	if s := strings.TrimSpace(f.groups); s != "" {
		for _, part := range strings.Split(s, ",") {
			t, err := strconv.ParseUint(strings.TrimSpace(part), 10, 64)
			if err != nil {
				return p, usageError("--group-thresholds: %q is not a number", part)
			}
			p.GroupThresholds = append(p.GroupThresholds, t)
		}
	}
	if err := p.Validate(); err != nil {
		return p, usageError("%v", err)
	}
	if f.level < 1 || f.level > 22 {
		return p, usageError("--level %d outside 1..22", f.level)
	}
	if _, err := f.where(); err != nil {
		return p, err
	}
	return p, nil
}

// inputDigest identifies a graph input for the cache: the SHA-256 of the
// file, or of the generator spec and seed, plus a variant string of the
// reading options that change the graph.
func inputDigest(path string, in *inputFlags) (cache.Digest, string, error) {
	variant := in.variant()
	d, generated, err := cache.InputDigest(path, in.seed)
	if generated {
		variant = "generated " + variant
	}
	return d, variant, err
}

// cacheFor opens the layout cache the flags name and returns it with the
// key of path's layout under parameters p.
func cacheFor(path string, in *inputFlags, lf *layoutFlags, p layout.Params) (*cache.Cache, string, error) {
	dir, err := cache.Dir(lf.cacheDir)
	if err != nil {
		return nil, "", err
	}
	c, err := cache.Open(dir)
	if err != nil {
		return nil, "", err
	}
	digest, variant, err := inputDigest(path, in)
	if err != nil {
		return nil, "", err
	}
	return c, cache.Key(digest, variant, p), nil
}

// lookupCached returns the cached layout of key, or nil on a miss; a bad
// cached file is reported on stderr (Lookup has removed it).
func lookupCached(e *env, c *cache.Cache, key string, p layout.Params) *layout.Layout {
	start := time.Now()
	l, err := c.Lookup(key, p)
	switch {
	case err != nil:
		fmt.Fprintf(e.stderr, "warning: %v; rebuilding\n", err)
	case l != nil:
		fmt.Fprintf(e.stderr, "loaded cached layout %s in %.2fs\n", c.Path(key), time.Since(start).Seconds())
	}
	return l
}

// buildLayout reads or generates path's graph and preprocesses it where
// --preprocess-on says (preprocess.BuildOn). The times it reports exclude
// reading the graph (the paper's Table 7); a GPU build's host-to-device copy
// is reported apart from its device time.
func buildLayout(ctx context.Context, e *env, path string, in *inputFlags, lf *layoutFlags, p layout.Params, keep bool) (*layout.Layout, *cuda.BuiltLayout, *loaded, time.Duration, error) {
	where, err := lf.where()
	if err != nil {
		return nil, nil, nil, 0, err
	}
	g, err := loadGraph(ctx, e, path, in)
	if err != nil {
		return nil, nil, nil, 0, err
	}
	fmt.Fprintf(e.stderr, "read %s (%d vertices, %d arcs) in %.3fs\n", path, g.el.NumVertices, g.el.NumArcs(), g.elapsed.Seconds())
	l, rep, err := preprocess.BuildOn(ctx, where, g.el, p, preprocess.Options{Workers: in.threads, Progress: e.stderr, KeepOnDevice: keep})
	if rep.Fallback != "" {
		fmt.Fprintf(e.stderr, "note: %s\n", rep.Fallback)
	}
	if err != nil {
		return nil, nil, nil, 0, err
	}
	d := rep.Total
	if t := rep.GPU; t != nil {
		fmt.Fprintf(e.stderr, "preprocessed %s (%d vertices, %d arcs) on %s in %.3fs: build %.3fs (device time), upload %.3fs, download %.3fs, check %.3fs; peak device memory %s\n",
			path, l.NumVertices, l.NumArcs, t.Device, d.Seconds(), t.Build.Seconds(), t.Upload.Seconds(), t.Download.Seconds(), t.Check.Seconds(),
			progress.Quantity(float64(t.PeakDeviceBytes), "B"))
		var parts []string
		for i, ph := range t.Phases {
			parts = append(parts, fmt.Sprintf("%s %.1fms", preprocess.PhaseNames[i], ph.Seconds()*1e3))
		}
		fmt.Fprintf(e.stderr, "  device phases: %s\n", strings.Join(parts, ", "))
	} else {
		fmt.Fprintf(e.stderr, "preprocessed %s (%d vertices, %d arcs) on the CPU in %.2fs\n", path, l.NumVertices, l.NumArcs, d.Seconds())
	}
	if rep.Built != nil {
		fmt.Fprintf(e.stderr, "  the run starts from the device copy; the largest sections come to the host after it\n")
	}
	return l, rep.Built, g, d, nil
}

// loadLayout returns the layout of path: a layout file is loaded directly
// (recognised by its magic); a graph file or generator spec is looked up in
// the cache by content hash, reading flags and parameters, and built and
// stored on a miss. A bad cached file is reported, removed and rebuilt.
// With --no-cache the layout is built every time.
func loadLayout(ctx context.Context, e *env, path string, in *inputFlags, lf *layoutFlags) (*layout.Layout, error) {
	dl, err := loadLayoutDeferred(ctx, e, path, in, lf, false)
	if err != nil {
		return nil, err
	}
	dl.finish(true)
	return dl.l, nil
}

// deferredLayout is a layout whose cache write, and, when it was built on
// the GPU and kept there, the download of its largest sections, are left
// for after a run.
type deferredLayout struct {
	l     *layout.Layout
	built *cuda.BuiltLayout // nil unless kept on the device
	store func()            // the cache write; nil when there is none
	done  bool
	cache *cache.Cache // the layout's cache and key (nil and "" without one)
	key   string
}

// finish downloads what the host layout lacks (when host says the caller
// needs it, or for the cache), writes the cache, and releases the device
// copy. Later calls do nothing. A failed download leaves the layout
// incomplete and is reported; it is then not cached.
func (d *deferredLayout) finish(host bool) error {
	if d.done {
		return nil
	}
	d.done = true
	if d.built != nil {
		defer d.built.Release()
		if host || d.store != nil {
			if err := d.built.Download(); err != nil {
				return fmt.Errorf("download the layout: %w", err)
			}
		}
	}
	if d.store != nil {
		d.store()
	}
	return nil
}

// loadLayoutDeferred is loadLayout with a built layout's cache write left
// to the caller: store writes it (reporting on stderr, a failure only
// warned about) and does nothing when there is nothing to write. A run
// calls it after its results, so that the download's compression and
// checksums never delay the first iteration.
// With keep, a layout built on the GPU stays there (preprocess's
// KeepOnDevice): the result's built is set, and its host layout lacks the
// largest sections until finish.
func loadLayoutDeferred(ctx context.Context, e *env, path string, in *inputFlags, lf *layoutFlags, keep bool) (*deferredLayout, error) {
	l, built, c, key, fresh, err := loadLayoutOrBuild(ctx, e, path, in, lf, keep)
	if err != nil {
		return nil, err
	}
	d := &deferredLayout{l: l, built: built, cache: c, key: key}
	if !fresh {
		return d, nil
	}
	d.store = func() {
		start := time.Now()
		stored, err := c.Store(key, l, layout.SaveOptions{Level: lf.level, Workers: in.threads})
		if err != nil {
			fmt.Fprintf(e.stderr, "warning: could not cache the layout: %v\n", err)
			return
		}
		fmt.Fprintf(e.stderr, "cached layout %s in %.2fs\n", stored, time.Since(start).Seconds())
		evictCache(e, c, lf.cacheMax, key)
	}
	return d, nil
}

// evictCache keeps the cache under its size limit (--cache-max, else
// $MGRAPH_CACHE_MAX, else cache.DefaultLimit) by removing the least
// recently used layouts other than keep, and says what it removed.
func evictCache(e *env, c *cache.Cache, flag, keep string) {
	limit, err := cache.Limit(flag, c.Dir())
	if err != nil {
		fmt.Fprintf(e.stderr, "warning: cache limit: %v\n", err)
		return
	}
	if limit <= 0 {
		return
	}
	removed, err := c.Prune(limit, keep)
	if err != nil {
		fmt.Fprintf(e.stderr, "warning: %v\n", err)
	}
	if len(removed) > 0 {
		var b int64
		for _, r := range removed {
			b += r.Bytes
		}
		fmt.Fprintf(e.stderr, "cache: removed %d least recently used layout(s), %s, to stay under %s\n",
			len(removed), progress.Quantity(float64(b), "B"), progress.Quantity(float64(limit), "B"))
	}
}

// loadLayoutOrBuild returns path's layout as loadLayout does and, when the
// cache is on, the cache and the layout's key; fresh says the layout was
// built here (and is to be stored under the key).
func loadLayoutOrBuild(ctx context.Context, e *env, path string, in *inputFlags, lf *layoutFlags, keep bool) (*layout.Layout, *cuda.BuiltLayout, *cache.Cache, string, bool, error) {
	if in.threads < 0 {
		return nil, nil, nil, "", false, usageError("--threads must be ≥ 0, got %d", in.threads)
	}
	if ok, err := layout.IsLayoutFile(path); err == nil && ok {
		start := time.Now()
		l, err := layout.LoadFile(path)
		if err != nil {
			return nil, nil, nil, "", false, err
		}
		fmt.Fprintf(e.stderr, "loaded layout %s in %.2fs\n", path, time.Since(start).Seconds())
		return l, nil, nil, "", false, nil
	}
	p, err := lf.params()
	if err != nil {
		return nil, nil, nil, "", false, err
	}
	var c *cache.Cache
	var key string
	if !lf.noCache {
		if c, key, err = cacheFor(path, in, lf, p); err != nil {
			return nil, nil, nil, "", false, err
		}
		if l := lookupCached(e, c, key, p); l != nil {
			return l, nil, c, key, false, nil
		}
	}
	l, built, _, _, err := buildLayout(ctx, e, path, in, lf, p, keep)
	if err != nil {
		return nil, nil, nil, "", false, err
	}
	return l, built, c, key, c != nil, nil
}

// printLayoutInfo describes a layout: parameters, heavy and light blocks
// and their edges, segments, the bytes of every section and the footprint
// relative to plain CSR.
func printLayoutInfo(w io.Writer, l *layout.Layout) {
	st := l.Stats()
	pct := func(a, b uint64) float64 {
		if b == 0 {
			return 0
		}
		return 100 * float64(a) / float64(b)
	}
	weights := "none"
	if l.Weighted {
		weights = l.WeightKind.String()
	}
	fmt.Fprintf(w, "layout: %d vertices, %d arcs, weights=%s, directed=%v\n", l.NumVertices, l.NumArcs, weights, l.Directed)
	fmt.Fprintf(w, "params: %v\n", l.Params)
	fmt.Fprintf(w, "panels: %d×%d\n", l.NumPanels(), l.NumPanels())
	fmt.Fprintf(w, "groups (vertices): %v\n", st.GroupVertices)
	fmt.Fprintf(w, "blocks: %d non-empty: %d heavy, %d light\n", st.Blocks, st.HeavyBlocks, st.LightBlocks)
	fmt.Fprintf(w, "edges: %d in heavy blocks (%.1f%%), %d in light blocks (%.1f%%)\n",
		st.HeavyEdges, pct(st.HeavyEdges, l.NumArcs), st.LightEdges, pct(st.LightEdges, l.NumArcs))
	fmt.Fprintf(w, "heavy matrices: %d entries, %d padding (%.1f%%)\n", st.HeavyMatrixEntries, st.HeavyPadding, pct(st.HeavyPadding, st.HeavyMatrixEntries))
	fmt.Fprintf(w, "stream slots: %d (%.2f per arc)\n", st.Slots, float64(st.Slots)/float64(max(1, l.NumArcs)))
	fmt.Fprintf(w, "sparse segments: %d (%d high + 1 low)\n", st.Segments, st.HighSegments)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "section\telements\tbytes\t")
	for _, s := range l.Sections() {
		fmt.Fprintf(tw, "%s\t%d\t%s\t\n", s.Name, s.Len, progress.Quantity(float64(s.Bytes), "B"))
	}
	tw.Flush()
	fmt.Fprintf(w, "footprint: %s (dense %s, sparse %s); plain CSR %s; ratio %.2f× CSR\n",
		progress.Quantity(float64(l.Footprint()), "B"), progress.Quantity(float64(l.DenseBytes()), "B"),
		progress.Quantity(float64(l.SparseBytes()), "B"), progress.Quantity(float64(l.CSRBytes()), "B"), l.FootprintRatio())
}
