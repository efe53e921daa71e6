package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/format"
	"github.com/mgraph-dev/mgraph/graph/gen"
	"github.com/mgraph-dev/mgraph/internal/progress"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/layout/cache"
	"github.com/mgraph-dev/mgraph/preprocess"
)

// variant is one form of a graph input that a run needs: the layout of the
// input after the plan's clean-up and these transforms.
type variant struct {
	renumber   bool // random renumbering (the renumbering study)
	weights    bool // random weights for sssp, when the input has none
	symmetrize bool // weak components of a directed input (cc)
	transpose  bool // bc's backward pass on a directed input
}

// name describes the variant for records ("original", "renumbered", plus
// the transforms).
func (v variant) name() string {
	s := "original"
	if v.renumber {
		s = "renumbered"
	}
	if v.symmetrize {
		s += "+symmetrized"
	}
	if v.weights {
		s += "+weights"
	}
	if v.transpose {
		s += "+transposed"
	}
	return s
}

// Prep records how one layout of a graph was obtained.
type Prep struct {
	Graph    string `json:"graph"`
	Variant  string `json:"variant"`
	Vertices uint64 `json:"vertices"`
	Arcs     uint64 `json:"arcs"`
	Weighted bool   `json:"weighted"`
	Directed bool   `json:"directed"`
	// ReadSeconds is the time to read the file or generate the graph (the
	// input is read once per graph; the first layout built records it).
	ReadSeconds       float64 `json:"read_seconds,omitempty"`
	TransformSeconds  float64 `json:"transform_seconds,omitempty"` // clean-up, weights, renumbering
	PreprocessSeconds float64 `json:"preprocess_seconds,omitempty"`
	PreprocessedOn    string  `json:"preprocessed_on,omitempty"`
	Cached            bool    `json:"cached"` // loaded from the layout cache
	CacheLoadSeconds  float64 `json:"cache_load_seconds,omitempty"`
	FootprintBytes    uint64  `json:"footprint_bytes"`
	CSRBytes          uint64  `json:"csr_bytes"`
	// Dense is what the compulsory traffic of a dense step is computed
	// from (DenseStepBytes).
	Dense DenseBytes `json:"dense_bytes"`
}

// source is one graph input of a plan, with its edge list once read.
type source struct {
	name     string
	spec     *gen.Spec // nil for files
	el       *graph.EdgeList
	readSecs float64
	recorded bool // readSecs was put in a Prep
}

// preparer gets the layouts of the plan's graphs, through the cache.
type preparer struct {
	plan  *Plan
	cache *cache.Cache
	log   io.Writer // progress meters (terminals only)
}

func newPreparer(p *Plan, log io.Writer) (*preparer, error) {
	pr := &preparer{plan: p, log: log}
	if !p.NoCache {
		dir, err := cache.Dir(p.CacheDir)
		if err != nil {
			return nil, err
		}
		if pr.cache, err = cache.Open(dir); err != nil {
			return nil, err
		}
	}
	return pr, nil
}

// newSource checks that name is a file or a generator spec.
func newSource(name string) (*source, error) {
	if _, err := os.Stat(name); errors.Is(err, fs.ErrNotExist) {
		spec, specErr := gen.ParseSpec(name)
		if specErr != nil {
			return nil, fmt.Errorf("graph %s: no such file, and not a generator spec (%v)", name, specErr)
		}
		return &source{name: spec.String(), spec: &spec}, nil
	} else if err != nil {
		return nil, fmt.Errorf("graph %s: %w", name, err)
	}
	return &source{name: name}, nil
}

// read reads or generates the input once, applying the plan's clean-up.
func (pr *preparer) read(ctx context.Context, s *source) (*graph.EdgeList, error) {
	if s.el != nil {
		return s.el, nil
	}
	p := pr.plan
	start := time.Now()
	var el *graph.EdgeList
	var err error
	if s.spec != nil {
		m := progress.New(pr.log, "generating "+s.name, 0, "arcs")
		el, err = s.spec.Generate(ctx, p.GenSeed, p.Threads, m)
		m.Done()
		if err != nil {
			return nil, fmt.Errorf("generate %s: %w", s.name, err)
		}
	} else {
		fm, ferr := format.ParseFormat(p.Format)
		if ferr != nil {
			return nil, ferr
		}
		var size int64
		if st, err := os.Stat(s.name); err == nil {
			size = st.Size()
		}
		m := progress.New(pr.log, "reading "+s.name, size, "B")
		el, _, err = format.ReadFile(ctx, s.name, format.ReadOptions{
			Format: fm, Workers: p.Threads, Undirected: p.UndirectedInput, IgnoreWeights: p.IgnoreWeights, Progress: m})
		m.Done()
		if err != nil {
			return nil, err
		}
	}
	s.readSecs = time.Since(start).Seconds()
	if p.Symmetrize {
		if el.Directed {
			el.Symmetrize(p.Threads)
		}
		el.DropSelfLoops()
		el.Dedupe(p.Threads)
	}
	s.el = el
	return el, nil
}

// derive returns the variant's edge list made from the input (a copy when
// any transform applies).
func (pr *preparer) derive(el *graph.EdgeList, v variant) *graph.EdgeList {
	p := pr.plan
	if !v.renumber && !v.transpose && !(v.weights && !el.Weighted()) && !(v.symmetrize && el.Directed) {
		return el
	}
	out := el.Clone()
	if v.symmetrize && out.Directed {
		out.Symmetrize(p.Threads)
	}
	if v.weights && !out.Weighted() {
		out.SetRandomWeights(p.WeightSeed, 1, 64, p.Threads)
	}
	if v.renumber {
		out.Renumber(p.RenumberSeed, p.Threads)
	}
	if v.transpose {
		out.Transpose()
	}
	return out
}

// cacheKey identifies the layout of s's variant under the plan.
func (pr *preparer) cacheKey(s *source, v variant) (string, error) {
	p := pr.plan
	var d cache.Digest
	if s.spec != nil {
		d = cache.HashString(fmt.Sprintf("gen %s seed=%d", s.name, p.GenSeed))
	} else {
		var err error
		if d, err = cache.HashFile(s.name); err != nil {
			return "", err
		}
	}
	vs := fmt.Sprintf("bench format=%s undirected=%v ignore-weights=%v clean=%v", p.Format, p.UndirectedInput, p.IgnoreWeights, p.Symmetrize)
	if v.symmetrize {
		vs += " symmetrize"
	}
	if v.weights {
		vs += fmt.Sprintf(" weights=%d", p.WeightSeed)
	}
	if v.renumber {
		vs += fmt.Sprintf(" renumber=%d", p.RenumberSeed)
	}
	if v.transpose {
		vs += " transpose"
	}
	return cache.Key(d, vs, p.Params), nil
}

// layout returns the layout of s's variant: from the cache, or built (and
// stored) on a miss.
func (pr *preparer) layout(ctx context.Context, s *source, v variant) (*layout.Layout, Prep, error) {
	p := pr.plan
	rec := Prep{Graph: s.name, Variant: v.name()}
	var key string
	if pr.cache != nil {
		var err error
		if key, err = pr.cacheKey(s, v); err != nil {
			return nil, rec, err
		}
		start := time.Now()
		l, err := pr.cache.Lookup(key, p.Params)
		if err != nil {
			fmt.Fprintf(pr.log, "warning: %v; rebuilding\n", err)
		} else if l != nil {
			rec.Cached, rec.CacheLoadSeconds = true, time.Since(start).Seconds()
			return l, fill(rec, l), nil
		}
	}
	el, err := pr.read(ctx, s)
	if err != nil {
		return nil, rec, err
	}
	if !s.recorded {
		rec.ReadSeconds, s.recorded = s.readSecs, true
	}
	start := time.Now()
	vel := pr.derive(el, v)
	rec.TransformSeconds = time.Since(start).Seconds()
	l, rep, err := preprocess.BuildOn(ctx, p.PreprocessOn, vel, p.Params, preprocess.Options{Workers: p.Threads, Progress: pr.log})
	if err != nil {
		return nil, rec, fmt.Errorf("preprocess %s (%s): %w", s.name, v.name(), err)
	}
	if rep.Fallback != "" {
		fmt.Fprintf(pr.log, "note: %s\n", rep.Fallback)
	}
	rec.PreprocessSeconds, rec.PreprocessedOn = rep.Total.Seconds(), rep.On
	if pr.cache != nil {
		if _, err := pr.cache.Store(key, l, layout.SaveOptions{Level: p.CacheLevel, Workers: p.Threads}); err != nil {
			fmt.Fprintf(pr.log, "warning: could not cache the layout: %v\n", err)
		}
	}
	return l, fill(rec, l), nil
}

func fill(rec Prep, l *layout.Layout) Prep {
	rec.Vertices, rec.Arcs, rec.Weighted, rec.Directed = l.NumVertices, l.NumArcs, l.Weighted, l.Directed
	rec.FootprintBytes, rec.CSRBytes = l.Footprint(), l.CSRBytes()
	rec.Dense = DenseBytesOf(l)
	return rec
}
