package mgraph

import (
	"context"
	"fmt"

	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/layout/cache"
)

// loadCached is Load through the layout cache in opts.CacheDir.
func loadCached(ctx context.Context, path string, opts Options) (*Graph, error) {
	_, p, _, err := opts.settings()
	if err != nil {
		return nil, err
	}
	c, err := cache.Open(opts.CacheDir)
	if err != nil {
		return nil, fmt.Errorf("mgraph: %w", err)
	}
	key, err := cacheKey(path, opts, p)
	if err != nil {
		return nil, err
	}
	l, err := c.Lookup(key, p)
	if err != nil {
		l = nil // a bad entry: Lookup removed it, and it is rebuilt
	}
	if l == nil {
		el, err := readInput(ctx, path, opts)
		if err != nil {
			return nil, err
		}
		if l, err = buildLayout(ctx, el, opts); err != nil {
			return nil, err
		}
		if _, err := c.Store(key, l, layout.SaveOptions{Workers: opts.Threads}); err != nil {
			return nil, fmt.Errorf("mgraph: %w", err)
		}
		if limit, err := cache.Limit("", c.Dir()); err == nil && limit > 0 {
			if _, err := c.Prune(limit, key); err != nil {
				return nil, fmt.Errorf("mgraph: %w", err)
			}
		}
	}
	return newGraph(l, opts)
}

// cacheKey is the cache key of path's layout under opts and parameters p:
// the file's digest, or the generator spec's and seed's, and the options
// that change the graph.
func cacheKey(path string, opts Options, p layout.Params) (string, error) {
	variant := fmt.Sprintf("api undirected=%v", opts.Undirected)
	if opts.Weights {
		variant += fmt.Sprintf(" weights=%d", opts.WeightSeed)
	}
	if opts.WeightType != AutoWeights {
		variant += " weight-type=" + string(opts.WeightType)
	}
	digest, generated, err := cache.InputDigest(path, opts.seed())
	if err != nil {
		return "", fmt.Errorf("mgraph: %w", err)
	}
	if generated {
		variant = "generated " + variant
	}
	return cache.Key(digest, variant, p), nil
}
