package format

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/internal/progress"
)

// zstdMaxWindow is the largest zstd window the reader accepts. The shared
// datasets use 128 MiB windows (zstd --long=27); 2 GiB leaves room for
// --long=31 files.
const zstdMaxWindow = 1 << 31

var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// countingReader counts the bytes read through it and reports them to a
// progress meter.
type countingReader struct {
	r     io.Reader
	n     int64
	meter *progress.Meter
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if n > 0 {
		c.meter.Add(int64(n))
	}
	return n, err
}

// source is an opened input: decompressed content with sniffing, and what
// is known about it.
type source struct {
	name        string
	raw         *countingReader
	r           *bufio.Reader // decompressed content
	compression string
	size        int64 // bytes of content when known (uncompressed regular file), else -1
	close       func()
}

// openSource sniffs the compression of r and wraps it in a decompressor.
// extCompression is the compression the file name implies; a file named .gz
// or .zst whose content is not compressed that way is an error.
func openSource(r io.Reader, name string, size int64, opts *ReadOptions) (*source, error) {
	cr := &countingReader{r: r, meter: opts.Progress}
	br := bufio.NewReaderSize(cr, 1<<16)
	head, _ := br.Peek(4)
	s := &source{name: name, raw: cr, compression: "none", size: size, close: func() {}}
	_, extComp := splitCompression(name)
	switch {
	case bytes.HasPrefix(head, zstdMagic):
		s.compression = "zstd"
		d, err := zstd.NewReader(br,
			zstd.WithDecoderMaxWindow(zstdMaxWindow),
			zstd.WithDecoderConcurrency(min(par.Workers(opts.Workers), 4)),
			zstd.WithDecoderLowmem(false))
		if err != nil {
			return nil, kindErr(ErrFormat, name, 0, err, "opening zstd stream")
		}
		s.r = bufio.NewReaderSize(d, 1<<16)
		s.close = d.Close
		s.size = -1
	case bytes.HasPrefix(head, gzipMagic):
		s.compression = "gzip"
		z, err := gzip.NewReader(br)
		if err != nil {
			return nil, compressionErr(name, "gzip", 0, err)
		}
		s.r = bufio.NewReaderSize(z, 1<<16)
		s.close = func() { z.Close() }
		s.size = -1
	default:
		if extComp != "none" {
			return nil, formatErr(name, 0, "the name says %s but the content is not %s-compressed", extComp, extComp)
		}
		s.r = br
	}
	return s, nil
}

// compressionErr wraps a read error of a compressed stream.
func compressionErr(name, comp string, afterLine int64, err error) error {
	kind := ErrFormat
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		kind = ErrTruncated
	}
	where := ""
	if afterLine > 0 {
		where = fmt.Sprintf(" after line %d", afterLine)
	}
	if comp == "none" {
		return fmt.Errorf("%s: read error%s: %w", name, where, err)
	}
	return kindErr(kind, name, 0, err, "truncated or corrupt %s stream%s", comp, where)
}

// ReadFile reads the graph file at path. The format comes from opts.Format
// or, when that is Auto, from the extension and then the content; the
// compression always comes from the content (and must agree with a .gz or
// .zst extension).
func ReadFile(ctx context.Context, path string, opts ReadOptions) (*graph.EdgeList, *Info, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	size := int64(-1)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	return read(ctx, f, path, size, opts)
}

// Read reads a graph from r. name is used in errors and, when opts.Format
// is Auto, for its extension; compression is detected from the content.
func Read(ctx context.Context, r io.Reader, name string, opts ReadOptions) (*graph.EdgeList, *Info, error) {
	return read(ctx, r, name, -1, opts)
}

func read(ctx context.Context, r io.Reader, name string, size int64, opts ReadOptions) (*graph.EdgeList, *Info, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	src, err := openSource(r, name, size, &opts)
	if err != nil {
		return nil, nil, err
	}
	defer src.close()
	fm := opts.Format
	if fm == Auto {
		if f, err := FormatFromPath(name); err == nil {
			fm = f
		} else {
			fm = sniffFormat(src.r)
		}
	}
	info := &Info{Format: fm, Compression: src.compression}
	var el *graph.EdgeList
	switch fm {
	case MatrixMarket, EdgeList, WeightedEdgeList, DIMACS:
		el, err = readText(ctx, src, fm, &opts, info)
	case Binary:
		var g *graph.CSR
		if f, ok := r.(*os.File); ok && src.compression == "none" && src.size >= 0 {
			// Positioned reads straight into the slices; the sniffing
			// buffer is not needed (and its bytes were counted already).
			opts.Progress.Add(-src.raw.n)
			g, err = readBinary(ctx, nil, f, name, src.size, opts.Workers, &opts)
			src.raw.n = src.size
		} else {
			g, err = readBinary(ctx, src.r, nil, name, -1, opts.Workers, nil)
		}
		if err == nil {
			el = csrList(g, info, &opts)
			err = convertWeights(el, opts.WeightType, name, opts.Workers)
			info.WeightKind = el.WeightKind
		}
	case GAPBS, GAPBSWeighted:
		size := int64(-1)
		if src.compression == "none" {
			size = src.size
		}
		var g *graph.CSR
		if g, err = readGAPBS(src.r, name, size, fm == GAPBSWeighted, opts.Workers); err == nil {
			el = csrList(g, info, &opts)
			err = convertWeights(el, opts.WeightType, name, opts.Workers)
			info.WeightKind = el.WeightKind
		}
	default:
		err = fmt.Errorf("%s: cannot read format %v", name, fm)
	}
	info.Bytes = src.raw.n
	if err != nil {
		return nil, nil, err
	}
	if opts.Undirected && el.Directed {
		el.Symmetrize(opts.Workers)
	}
	return el, info, nil
}

// csrList fills info from a binary format's CSR and turns it into the
// edge list (g's arrays move into it: g is not used again).
func csrList(g *graph.CSR, info *Info, opts *ReadOptions) *graph.EdgeList {
	info.DeclaredVertices = g.NumVertices
	info.Entries = g.NumArcs()
	info.Symmetric = !g.Directed
	info.Weighted = g.Weighted()
	if opts.IgnoreWeights {
		g.Weights, g.WeightKind = nil, graph.Uint32Weights
	}
	return g.IntoEdgeList(opts.Workers)
}

// sniffFormat guesses the format of the (decompressed) content from its
// first bytes: the binary magic, a Matrix Market banner, DIMACS "c"/"p"/"a"
// lines, or the column count of the first data line (2: edge list, 3:
// weighted edge list). It defaults to EdgeList.
func sniffFormat(r *bufio.Reader) Format {
	head, _ := r.Peek(1 << 16)
	switch {
	case bytes.HasPrefix(head, binaryMagic[:]):
		return Binary
	case bytes.HasPrefix(head, []byte("%%MatrixMarket")), bytes.HasPrefix(head, []byte("%%matrixmarket")):
		return MatrixMarket
	}
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' || line[0] == '%' {
			continue
		}
		switch line[0] {
		case 'c', 'p', 'a':
			return DIMACS
		}
		if len(bytes.Fields(line)) == 3 {
			return WeightedEdgeList
		}
		return EdgeList
	}
	return EdgeList
}
