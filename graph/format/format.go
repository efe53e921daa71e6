// Package format reads and writes graph files: Matrix Market coordinate
// files, SNAP-style edge lists (plain and weighted), DIMACS shortest-path
// files and mgraph's own binary CSR format, each optionally compressed with
// gzip or zstd.
//
// Text readers are built for speed: the input is read in large blocks, each
// block is cut at line boundaries into pieces parsed concurrently by a
// hand-written byte-level parser, and the pieces are joined in file order, so
// the result does not depend on the worker count. Malformed input never
// panics: every error names the file and, where it applies, the line, and
// wraps one of the sentinel errors below so callers can test it with
// errors.Is.
//
// Conventions shared by the formats:
//
//   - Matrix Market entry "i j" (1-based) is the arc i-1 → j-1: the row is
//     the source, the column the destination. A "symmetric" file stores each
//     undirected edge once (the lower triangle); the reader outputs both arcs
//     of every edge (a self-loop once) and marks the list undirected.
//   - Edge lists (.el, .txt, .snap, .edges) hold "u v" lines with 0-based
//     ids; weighted edge lists (.wel) hold "u v w". The vertex count is the
//     largest id plus one, or the count a "# Nodes: N" comment before the
//     first edge declares, whichever is larger.
//   - DIMACS (.gr, 9th DIMACS challenge) holds "p sp N M" and "a u v w"
//     lines with 1-based ids.
//   - For edge lists and DIMACS files, ReadOptions.Undirected says that each
//     line stands for one undirected edge; the reader then adds the reverse
//     arcs. Writers of undirected lists write each edge once (u ≤ v, or the
//     lower triangle for Matrix Market), so reading the file back with
//     Undirected set gives the same graph.
//   - Weights are uint32 or float32 (ReadOptions.WeightType; a list's
//     graph.WeightKind says which). With WeightsAuto (the default) a file's
//     weights are uint32 unless one of them is not a uint32 integer but a
//     non-negative real (a fractional Matrix Market "real" value, "0.5" in
//     a .wel or .gr file, 5e9), or the file carries the comment mgraph's
//     writers put in files of float32 weights: then all of them are read
//     as float32 (each decimal rounded to the nearest float32, so integers
//     beyond 2^24 may round). WeightsUint32 reads integers only (as before
//     float weights existed); WeightsFloat32 reads every weight as float32.
//     Negative, NaN, infinite and too large weights are errors naming the
//     file and line, unless ReadOptions.IgnoreWeights drops the weights;
//     -0 is read as 0.
//   - Writers start every text file with a comment saying mgraph wrote it.
//     A plain edge list drops weights; a weighted edge list or DIMACS file
//     of an unweighted graph gives every arc weight 1. Matrix Market writes
//     "integer" for uint32 weights, "real" for float32 ones and "pattern"
//     for unweighted graphs, "general" for directed and "symmetric" for
//     undirected ones. Float32 weights are written in the shortest decimal
//     that reads back as the same float32, under the comment
//     float32Marker, so every text format with weights (and .mgb) gives
//     back the same bits and weight type. GAPBS's .wsg holds integers
//     only: writing float32 weights there is an error.
//   - The binary format (.mgb) is a checksummed CSR; see WriteBinary.
//     Reading it ReadFile returns the arcs in CSR order (by source).
package format

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/progress"
)

// Format names a graph file format.
type Format int

const (
	// Auto picks the format from the file name's extension and, failing
	// that, from the file's content.
	Auto Format = iota
	// MatrixMarket is the Matrix Market coordinate format (.mtx, .mm).
	MatrixMarket
	// EdgeList is a SNAP-style list of "u v" lines with 0-based ids (.el,
	// .txt, .snap, .edges).
	EdgeList
	// WeightedEdgeList is a list of "u v w" lines with 0-based ids (.wel).
	WeightedEdgeList
	// DIMACS is the 9th DIMACS challenge shortest-path format (.gr).
	DIMACS
	// Binary is mgraph's binary CSR format (.mgb).
	Binary
	// GAPBS is the GAP Benchmark Suite's serialized graph (.sg).
	GAPBS
	// GAPBSWeighted is GAPBS's serialized weighted graph (.wsg).
	GAPBSWeighted
)

var formatNames = [...]string{"auto", "mtx", "el", "wel", "gr", "mgb", "sg", "wsg"}

// String returns the format's short name ("mtx", "el", "wel", "gr", "mgb" or
// "auto"), which ParseFormat accepts.
func (f Format) String() string {
	if f >= 0 && int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ParseFormat turns a format name into a Format: "auto" (or ""), "mtx"/"mm",
// "el"/"snap", "wel", "gr"/"dimacs", "mgb"/"binary". Case is ignored.
func ParseFormat(name string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "", "auto":
		return Auto, nil
	case "mtx", "mm", "matrixmarket":
		return MatrixMarket, nil
	case "el", "snap", "edgelist", "txt", "edges":
		return EdgeList, nil
	case "wel":
		return WeightedEdgeList, nil
	case "gr", "dimacs":
		return DIMACS, nil
	case "mgb", "binary":
		return Binary, nil
	case "sg":
		return GAPBS, nil
	case "wsg":
		return GAPBSWeighted, nil
	}
	return Auto, fmt.Errorf("unknown graph format %q (want auto, mtx, el, wel, gr, mgb, sg or wsg)", name)
}

// FormatFromPath returns the format named by path's extension, after
// stripping a compression extension (.gz, .zst).
func FormatFromPath(path string) (Format, error) {
	base, _ := splitCompression(path)
	switch strings.ToLower(filepath.Ext(base)) {
	case ".mtx", ".mm":
		return MatrixMarket, nil
	case ".el", ".txt", ".snap", ".edges":
		return EdgeList, nil
	case ".wel":
		return WeightedEdgeList, nil
	case ".gr":
		return DIMACS, nil
	case ".mgb":
		return Binary, nil
	case ".sg":
		return GAPBS, nil
	case ".wsg":
		return GAPBSWeighted, nil
	}
	return Auto, fmt.Errorf("%s: cannot tell the graph format from the file name (known: .mtx .mm .el .txt .snap .edges .wel .gr .mgb .sg .wsg, optionally with .gz or .zst)", path)
}

// splitCompression strips a .gz or .zst extension and names the compression
// it implies ("gzip", "zstd" or "none").
func splitCompression(path string) (string, string) {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".gz", ".gzip":
		return path[:len(path)-len(ext)], "gzip"
	case ".zst", ".zstd":
		return path[:len(path)-len(ext)], "zstd"
	}
	return path, "none"
}

// Sentinel errors. Errors returned by this package wrap one of them (and,
// where there is one, the underlying error).
var (
	// ErrFormat marks malformed input: bad headers, bad lines, wrong counts,
	// ids out of range, bad binary sections.
	ErrFormat = errors.New("malformed graph file")
	// ErrUnsupported marks well-formed input this package does not handle,
	// such as Matrix Market array or complex matrices.
	ErrUnsupported = errors.New("unsupported graph file")
	// ErrTruncated marks input that ends early: fewer entries than declared,
	// a cut compressed stream, a short binary file. It also matches ErrFormat.
	ErrTruncated = errors.New("truncated graph file")
	// ErrChecksum marks a binary file whose checksum does not match its
	// content. It also matches ErrFormat.
	ErrChecksum = errors.New("checksum mismatch")
)

// Error is the error type of malformed input: it names the file and, when
// Line is not 0, the 1-based line. It unwraps to Kind (one of the sentinel
// errors above, plus ErrFormat for ErrTruncated and ErrChecksum) and to Err.
type Error struct {
	File string // the name passed to Read, or the path
	Line int64  // 1-based line number, 0 when the error is not about a line
	Msg  string
	Kind error // ErrFormat, ErrUnsupported, ErrTruncated or ErrChecksum
	Err  error // underlying error, may be nil
}

// Error formats the error as "file: line N: message: underlying".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ": line %d", e.Line)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the error's kind and its underlying error.
func (e *Error) Unwrap() []error {
	errs := []error{e.Kind}
	if e.Kind == ErrTruncated || e.Kind == ErrChecksum {
		errs = append(errs, ErrFormat)
	}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}

// formatErr returns an *Error of kind ErrFormat.
func formatErr(file string, line int64, format string, args ...any) error {
	return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...), Kind: ErrFormat}
}

// kindErr returns an *Error of the given kind wrapping err (which may be nil).
func kindErr(kind error, file string, line int64, err error, format string, args ...any) error {
	return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...), Kind: kind, Err: err}
}

// ReadOptions controls reading.
type ReadOptions struct {
	// Format of the file; Auto picks it by extension, then by content.
	Format Format
	// Workers is the number of parsing goroutines; 0 means GOMAXPROCS.
	Workers int
	// Undirected says each line of an edge list, DIMACS file or general
	// Matrix Market file stands for an undirected edge: the reader adds the
	// reverse arcs (not for self-loops; duplicates are kept) and returns an
	// undirected list. Symmetric Matrix Market files and undirected binary
	// files are undirected whatever this says; a directed binary file is
	// symmetrized.
	Undirected bool
	// IgnoreWeights drops the weights a file carries without checking them.
	// On a plain edge list it also allows (and ignores) extra columns.
	IgnoreWeights bool
	// WeightType says how weights are read (see the package comment):
	// WeightsAuto (the zero value), WeightsUint32 or WeightsFloat32. A
	// binary file's weights are converted when their type differs (uint32
	// to float32 always; float32 to uint32 only when every weight is an
	// integer that fits, else an error).
	WeightType WeightType
	// Progress, when not nil, is advanced by the bytes of input consumed
	// (compressed bytes for compressed files).
	Progress *progress.Meter
}

// Info is what a file said about itself.
type Info struct {
	Format      Format
	Compression string // "none", "gzip" or "zstd"
	Bytes       int64  // bytes read from the file (compressed bytes when compressed)
	// DeclaredVertices is the vertex count the file declares: Matrix Market
	// max(rows, cols), DIMACS N, a "# Nodes:" comment of an edge list, the
	// binary header's count; 0 when the file declares none.
	DeclaredVertices uint64
	// Entries is the number of data lines or entries as stored: Matrix
	// Market nnz, DIMACS arcs, edge list lines, binary arcs.
	Entries   uint64
	Symmetric bool   // the file declares an undirected graph (MM symmetric, undirected binary)
	Weighted  bool   // the file carries weights (even when IgnoreWeights dropped them)
	Field     string // Matrix Market field: "pattern", "integer" or "real"; "" for other formats
	// WeightKind is the type of the weights read (Uint32Weights when none
	// were kept).
	WeightKind graph.WeightKind
}

// WeightType is how a reader stores a file's weights (ReadOptions).
type WeightType uint8

const (
	// WeightsAuto reads uint32 weights, or float32 ones when the file has
	// a weight that is not a uint32 integer or says mgraph wrote float32
	// weights.
	WeightsAuto WeightType = iota
	// WeightsUint32 reads integer weights only.
	WeightsUint32
	// WeightsFloat32 reads every weight as a float32.
	WeightsFloat32
)

// String names the type as ParseWeightType reads it.
func (t WeightType) String() string {
	switch t {
	case WeightsAuto:
		return "auto"
	case WeightsUint32:
		return "uint32"
	case WeightsFloat32:
		return "float32"
	}
	return fmt.Sprintf("WeightType(%d)", uint8(t))
}

// ParseWeightType reads "auto" (or ""), "uint32" or "float32".
func ParseWeightType(s string) (WeightType, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return WeightsAuto, nil
	case "uint32":
		return WeightsUint32, nil
	case "float32":
		return WeightsFloat32, nil
	}
	return WeightsAuto, fmt.Errorf("unknown weight type %q (want auto, uint32 or float32)", s)
}

// float32Marker is the comment mgraph's writers put at the top of a text
// file of float32 weights; WeightsAuto reads such a file's weights as
// float32 even when they all happen to be integers.
const float32Marker = "mgraph weights: float32"

// markedFloat32 reports whether comment line t carries float32Marker.
func markedFloat32(t []byte) bool { return bytes.Contains(t, []byte(float32Marker)) }

// convertWeights gives el the weight type t asks for (a binary file's
// weights, read as the file stores them).
func convertWeights(el *graph.EdgeList, t WeightType, name string, workers int) error {
	want := el.WeightKind
	switch t {
	case WeightsUint32:
		want = graph.Uint32Weights
	case WeightsFloat32:
		want = graph.Float32Weights
	}
	if err := el.ConvertWeights(want, workers); err != nil {
		return kindErr(ErrFormat, name, 0, nil, "weight type %s: %v (read with weight type float32 or auto)", t, err)
	}
	return nil
}

// WriteOptions controls writing.
type WriteOptions struct {
	// Format of the output; for WriteFile, Auto picks it by extension.
	Format Format
	// Workers is the number of formatting goroutines; 0 means GOMAXPROCS.
	Workers int
	// Progress, when not nil, is advanced by the arcs written.
	Progress *progress.Meter
	// CompressionLevel for .gz (1–9, gzip levels) and .zst (1–22, zstd
	// levels, mapped to the encoder's speed classes); 0 picks a fast default.
	CompressionLevel int
}
