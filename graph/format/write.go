package format

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/atomicfile"
	"github.com/mgraph-dev/mgraph/internal/par"
)

// arcsPerPiece is the number of arcs one goroutine formats at a time.
const arcsPerPiece = 1 << 18

// WriteFile writes el to path in opts.Format (by extension when Auto),
// compressed with gzip or zstd when the path ends in .gz or .zst. The output
// goes to a temporary file in the same directory that is renamed to path
// once complete, so path never holds a partial file.
func WriteFile(ctx context.Context, path string, el *graph.EdgeList, opts WriteOptions) error {
	if opts.Format == Auto {
		f, err := FormatFromPath(path)
		if err != nil {
			return err
		}
		opts.Format = f
	}
	return writeFileAtomic(ctx, path, opts, func(w io.Writer) error {
		return writeTo(ctx, w, el, opts)
	})
}

// Write writes el to w in opts.Format, which must not be Auto. Nothing is
// compressed; wrap w for that.
func Write(ctx context.Context, w io.Writer, el *graph.EdgeList, opts WriteOptions) error {
	if opts.Format == Auto {
		return fmt.Errorf("write graph: a format is needed (Auto only works with a file name)")
	}
	return writeTo(ctx, w, el, opts)
}

// writeFileAtomic runs write on a (compressing) writer of a temporary file
// next to path and renames it to path on success.
func writeFileAtomic(ctx context.Context, path string, opts WriteOptions, write func(io.Writer) error) (err error) {
	_, comp := splitCompression(path)
	f, err := atomicfile.Create(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer f.Abort()
	bw := bufio.NewWriterSize(f, 1<<20)
	var w io.Writer = bw
	var closeComp func() error
	switch comp {
	case "gzip":
		level := opts.CompressionLevel
		if level == 0 {
			level = gzip.DefaultCompression
		}
		z, err := gzip.NewWriterLevel(bw, level)
		if err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		w, closeComp = z, z.Close
	case "zstd":
		level := zstd.SpeedDefault
		if opts.CompressionLevel != 0 {
			level = zstd.EncoderLevelFromZstd(opts.CompressionLevel)
		}
		z, err := zstd.NewWriter(bw, zstd.WithEncoderLevel(level), zstd.WithEncoderConcurrency(par.Workers(opts.Workers)))
		if err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		w, closeComp = z, z.Close
	}
	if err = write(w); err != nil {
		if closeComp != nil {
			closeComp()
		}
		return fmt.Errorf("write %s: %w", path, err)
	}
	if closeComp != nil {
		if err = closeComp(); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	if err = bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Commit(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// writeTo writes el in opts.Format to w.
func writeTo(ctx context.Context, w io.Writer, el *graph.EdgeList, opts WriteOptions) error {
	if err := el.Validate(); err != nil {
		return fmt.Errorf("write graph: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if opts.Format == GAPBS || opts.Format == GAPBSWeighted {
		if err := writeGAPBS(w, el, opts.Format == GAPBSWeighted, opts.Workers); err != nil {
			return err
		}
		opts.Progress.Add(int64(el.NumArcs()))
		return nil
	}
	if opts.Format == Binary {
		g := graph.ToCSR(el, opts.Workers)
		if err := writeBinary(w, g, opts.Workers); err != nil {
			return err
		}
		opts.Progress.Add(int64(el.NumArcs()))
		return nil
	}
	tw := &textWriter{el: el, fm: opts.Format, workers: par.Workers(opts.Workers),
		float: el.Weights != nil && el.WeightKind == graph.Float32Weights}
	return tw.write(ctx, w, opts)
}

// textWriter formats an edge list as text.
type textWriter struct {
	el      *graph.EdgeList
	fm      Format
	workers int
	// keepLower selects, for undirected lists, the arcs written: u ≥ v
	// (Matrix Market's lower triangle) or u ≤ v.
	keepLower bool
	// float: the weights are float32 bits, written as the shortest
	// decimals that read back as the same float32.
	float bool
}

// marker returns the comment line of float32Marker after the prefix, or
// "" for integer weights.
func (t *textWriter) marker(prefix string) string {
	if !t.float {
		return ""
	}
	return prefix + float32Marker + " (each value the shortest decimal of a float32)\n"
}

// count returns the number of arcs written: all of them for a directed
// list, one per edge for an undirected one (which must be symmetric, as
// far as a count can tell).
func (t *textWriter) count() (uint64, error) {
	el := t.el
	if el.Directed {
		return el.NumArcs(), nil
	}
	chunks := par.Split(len(el.Src), t.workers)
	lt := make([]uint64, len(chunks))
	sums := make([]uint64, len(chunks))
	par.ForChunks(chunks, func(c par.Chunk) {
		var a, h uint64
		for i := c.Lo; i < c.Hi; i++ {
			u, v := el.Src[i], el.Dst[i]
			if u < v {
				a++
			}
			var w uint32
			if el.Weights != nil {
				w = el.Weights[i]
			}
			h += arcHash(u, v, w)
		}
		lt[c.Index], sums[c.Index] = a, h
	})
	var a, h uint64
	for i := range lt {
		a += lt[i]
		h += sums[i]
	}
	if h != 0 {
		return 0, fmt.Errorf("write graph: the edge list is marked undirected but its arcs (with their weights) are not symmetric")
	}
	return el.NumArcs() - a, nil
}

func (t *textWriter) write(ctx context.Context, w io.Writer, opts WriteOptions) error {
	el := t.el
	t.keepLower = t.fm == MatrixMarket
	k, err := t.count()
	if err != nil {
		return err
	}
	kind := "directed graph"
	if !el.Directed {
		kind = undirectedKind + " (mgraph reads it back as undirected; other tools need their symmetrize option)"
	}
	var head string
	switch t.fm {
	case MatrixMarket:
		field, sym := "pattern", "general"
		if el.Weighted() {
			field = "integer"
			if t.float {
				field = "real"
			}
		}
		if !el.Directed {
			sym = "symmetric"
			kind = "undirected graph (lower triangle)"
		}
		head = fmt.Sprintf("%%%%MatrixMarket matrix coordinate %s %s\n%% written by mgraph: %s, entry \"i j\" is the arc i→j\n%s%d %d %d\n",
			field, sym, kind, t.marker("% "), el.NumVertices, el.NumVertices, k)
	case EdgeList, WeightedEdgeList:
		m := ""
		if t.fm == WeightedEdgeList {
			m = t.marker("# ")
		}
		head = fmt.Sprintf("# written by mgraph: %s\n%s# Nodes: %d Edges: %d\n", kind, m, el.NumVertices, k)
	case DIMACS:
		head = fmt.Sprintf("c written by mgraph: %s\n%sp sp %d %d\n", kind, t.marker("c "), el.NumVertices, k)
	default:
		return fmt.Errorf("write graph: cannot write format %v", t.fm)
	}
	if _, err := io.WriteString(w, head); err != nil {
		return fmt.Errorf("write graph: %w", err)
	}
	m := len(el.Src)
	per := arcsPerPiece
	bufs := make([][]byte, t.workers)
	for lo := 0; lo < m; lo += per * t.workers {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(m, lo+per*t.workers)
		chunks := par.Split(hi-lo, t.workers)
		par.ForChunks(chunks, func(c par.Chunk) {
			bufs[c.Index] = t.format(bufs[c.Index][:0], lo+c.Lo, lo+c.Hi)
		})
		for i := range chunks {
			if _, err := w.Write(bufs[i]); err != nil {
				return fmt.Errorf("write graph: %w", err)
			}
		}
		opts.Progress.Add(int64(hi - lo))
	}
	return nil
}

// format appends the lines of arcs [lo, hi) to buf.
func (t *textWriter) format(buf []byte, lo, hi int) []byte {
	el := t.el
	undirected := !el.Directed
	oneBased := t.fm == MatrixMarket || t.fm == DIMACS
	weighted := el.Weights != nil
	for i := lo; i < hi; i++ {
		u, v := uint64(el.Src[i]), uint64(el.Dst[i])
		if undirected && ((t.keepLower && u < v) || (!t.keepLower && u > v)) {
			continue
		}
		if oneBased {
			u, v = u+1, v+1
		}
		sep := byte('\t')
		if t.fm == DIMACS {
			buf = append(buf, 'a', ' ')
			sep = ' '
		} else if t.fm == MatrixMarket {
			sep = ' '
		}
		buf = strconv.AppendUint(buf, u, 10)
		buf = append(buf, sep)
		buf = strconv.AppendUint(buf, v, 10)
		switch {
		case t.fm == EdgeList:
		case t.fm == MatrixMarket && !weighted:
		case weighted && t.float:
			buf = append(buf, sep)
			buf = strconv.AppendFloat(buf, float64(math.Float32frombits(el.Weights[i])), 'g', -1, 32)
		case weighted:
			buf = append(buf, sep)
			buf = strconv.AppendUint(buf, uint64(el.Weights[i]), 10)
		default: // wel and gr of an unweighted list: weight 1
			buf = append(buf, sep, '1')
		}
		buf = append(buf, '\n')
	}
	return buf
}
