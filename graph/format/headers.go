package format

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mgraph-dev/mgraph/graph"
)

// describeLine turns a parse error code into a message. idWord names the
// ids ("id", "index"); hint is appended to weight errors.
func describeLine(r *chunkResult, text string, f Format, fields int, extraHint string) string {
	what := func() string {
		switch r.field {
		case 1:
			if f == MatrixMarket {
				return "row index"
			}
			return "source id"
		case 2:
			if f == MatrixMarket {
				return "column index"
			}
			return "destination id"
		case 3:
			if f == MatrixMarket {
				return "value"
			}
			return "weight"
		}
		return fmt.Sprintf("field %d", r.field)
	}
	const ignoreHint = "; read with IgnoreWeights (--ignore-weights) to drop the weights"
	const floatHint = "; read with weight type float32 or auto (--weight-type) for real weights, or with IgnoreWeights (--ignore-weights) to drop them"
	switch r.code {
	case codeNotNumber:
		if r.field == 3 {
			return fmt.Sprintf("%s is not a number: %s%s", what(), text, ignoreHint)
		}
		return fmt.Sprintf("%s is not a non-negative integer: %s", what(), text)
	case codeOverflow:
		if r.field == 3 {
			return fmt.Sprintf("%s does not fit in 32 bits: %s%s", what(), text, ignoreHint)
		}
		return fmt.Sprintf("%s does not fit in 32 bits: %s", what(), text)
	case codeFewFields:
		return fmt.Sprintf("too few fields (want %d): %s", fields, text)
	case codeExtraField:
		return fmt.Sprintf("too many fields (want %d): %s%s", fields, text, extraHint)
	case codeZeroID:
		return fmt.Sprintf("%s 0, but ids in this format start at 1: %s", what(), text)
	case codeIDRange:
		return fmt.Sprintf("%s %d is out of range: %s", what(), r.value, text)
	case codeNegWeight:
		return fmt.Sprintf("negative %s: %s (weights must be non-negative)%s", what(), text, ignoreHint)
	case codeBadReal:
		return fmt.Sprintf("%s is not an integer: %s (weight type uint32 reads non-negative integers)%s", what(), text, floatHint)
	case codeNaNWeight:
		return fmt.Sprintf("%s is NaN: %s (weights must be finite and non-negative)%s", what(), text, ignoreHint)
	case codeInfWeight:
		return fmt.Sprintf("%s is infinite: %s (weights must be finite and non-negative)%s", what(), text, ignoreHint)
	case codeFloatRange:
		return fmt.Sprintf("%s does not fit in a float32 (at most 3.4028235e38): %s%s", what(), text, ignoreHint)
	case codeUnexpected:
		return fmt.Sprintf("unexpected line %s (DIMACS lines start with c, p or a)", text)
	case codeProblemAgain:
		return fmt.Sprintf("second problem line %s", text)
	}
	return fmt.Sprintf("malformed line %s", text)
}

// weightConfig sets c's weights for a format whose weights read as mode
// under weight type uint32 (wInt or wReal): t asks for float32, or for auto
// (float32 when the file is marked, else mode switching to float32 at a
// real weight when allowed), and IgnoreWeights skips them.
func weightConfig(c *lineConfig, mode weightMode, opts *ReadOptions, marked, allowAuto bool) {
	switch {
	case opts.IgnoreWeights:
		c.weights = wSkip
	case opts.WeightType == WeightsFloat32 || (opts.WeightType == WeightsAuto && marked):
		c.weights, c.keepWeights = wFloat, true
	default:
		c.weights, c.keepWeights = mode, true
		c.autoFloat = opts.WeightType == WeightsAuto && allowAuto
	}
}

// headerFields splits a header line into fields (header lines are few, so
// allocating here is fine).
func headerFields(l []byte) []string { return strings.Fields(string(l)) }

// parseCount parses a non-negative decimal count from a header.
func parseCount(s string) (uint64, bool) {
	if s == "" || s[0] == '+' || s[0] == '-' {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 10, 64)
	return v, err == nil
}

// quote shortens a header line for messages.
func quote(l []byte) string { return lineText(l, 0) }

// ---- Matrix Market ----

type mmHeader struct {
	name             string
	opts             *ReadOptions
	size             int64
	banner           bool
	field            string
	symmetric        bool
	rows, cols, nnz  uint64
	sawSize, noEntry bool
	float32          bool // a comment carries float32Marker
}

func (h *mmHeader) line(l []byte, lineNo int64) (bool, bool, error) {
	if !h.banner {
		f := headerFields(l)
		if len(f) == 0 || !strings.EqualFold(f[0], "%%MatrixMarket") {
			return false, false, formatErr(h.name, lineNo, "missing %%%%MatrixMarket header line (found %s)", quote(l))
		}
		if len(f) != 5 {
			return false, false, formatErr(h.name, lineNo, "header should read \"%%%%MatrixMarket matrix coordinate FIELD SYMMETRY\", found %s", quote(l))
		}
		object, layout, field, sym := strings.ToLower(f[1]), strings.ToLower(f[2]), strings.ToLower(f[3]), strings.ToLower(f[4])
		if object != "matrix" {
			return false, false, kindErr(ErrUnsupported, h.name, lineNo, nil, "unsupported Matrix Market object %q (only \"matrix\")", f[1])
		}
		switch layout {
		case "coordinate":
		case "array":
			return false, false, kindErr(ErrUnsupported, h.name, lineNo, nil, "unsupported Matrix Market format \"array\" (dense matrices are not graphs; only \"coordinate\")")
		default:
			return false, false, formatErr(h.name, lineNo, "unknown Matrix Market format %q (want coordinate)", f[2])
		}
		switch field {
		case "pattern", "integer", "real":
		case "complex":
			return false, false, kindErr(ErrUnsupported, h.name, lineNo, nil, "unsupported Matrix Market field \"complex\" (pattern, integer or real)")
		default:
			return false, false, formatErr(h.name, lineNo, "unknown Matrix Market field %q (want pattern, integer or real)", f[3])
		}
		switch sym {
		case "general", "symmetric":
		case "skew-symmetric", "hermitian":
			return false, false, kindErr(ErrUnsupported, h.name, lineNo, nil, "unsupported Matrix Market symmetry %q (general or symmetric)", f[4])
		default:
			return false, false, formatErr(h.name, lineNo, "unknown Matrix Market symmetry %q (want general or symmetric)", f[4])
		}
		h.banner, h.field, h.symmetric = true, field, sym == "symmetric"
		return true, false, nil
	}
	t := bytes.TrimLeft(l, " \t")
	if len(t) == 0 || t[0] == '%' {
		if len(t) > 0 && markedFloat32(t) {
			h.float32 = true
		}
		return true, false, nil
	}
	f := headerFields(t)
	if len(f) != 3 {
		return false, false, formatErr(h.name, lineNo, "size line should read \"ROWS COLUMNS ENTRIES\", found %s", quote(l))
	}
	var vals [3]uint64
	for i, s := range f {
		v, ok := parseCount(s)
		if !ok {
			return false, false, formatErr(h.name, lineNo, "size line: %q is not a non-negative integer", s)
		}
		vals[i] = v
	}
	h.rows, h.cols, h.nnz = vals[0], vals[1], vals[2]
	if n := max(h.rows, h.cols); n > graph.MaxVertices {
		return false, false, formatErr(h.name, lineNo, "size line declares %d vertices; at most %d are supported", n, uint64(graph.MaxVertices))
	}
	if h.symmetric && h.rows != h.cols {
		return false, false, formatErr(h.name, lineNo, "symmetric matrix must be square, but it is %d×%d", h.rows, h.cols)
	}
	if h.nnz > math.MaxInt64/2 || (h.size >= 0 && h.nnz > uint64(h.size)/4) {
		return false, false, formatErr(h.name, lineNo, "size line declares %d entries, more than the %d-byte file can hold", h.nnz, h.size)
	}
	if h.nnz > 0 && (h.rows == 0 || h.cols == 0) {
		return false, false, formatErr(h.name, lineNo, "size line declares %d entries in an empty %d×%d matrix", h.nnz, h.rows, h.cols)
	}
	h.sawSize = true
	return true, true, nil
}

func (h *mmHeader) eof(lineNo int64) error {
	if !h.banner {
		return formatErr(h.name, lineNo+1, "empty file: missing %%%%MatrixMarket header line")
	}
	return kindErr(ErrTruncated, h.name, lineNo+1, nil, "missing size line \"ROWS COLUMNS ENTRIES\"")
}

func (h *mmHeader) config() *lineConfig {
	c := &lineConfig{oneBased: true, maxSrc: h.rows, maxDst: h.cols, sym: h.symmetric || h.opts.Undirected}
	switch h.field {
	case "pattern":
		c.weights = wNone
	case "integer": // integers: a real value is malformed, whatever the weight type
		weightConfig(c, wInt, h.opts, h.float32, false)
	default:
		weightConfig(c, wReal, h.opts, h.float32, true)
	}
	return c
}

func (h *mmHeader) declared() int64 { return int64(h.nnz) }

func (h *mmHeader) describe(r *chunkResult, text string) string {
	if r.code == codeIDRange {
		limit, what := h.rows, "rows"
		if r.field == 2 {
			limit, what = h.cols, "columns"
		}
		return fmt.Sprintf("index %d is beyond the %d %s the size line declares: %s", r.value, limit, what, text)
	}
	fields := 2
	if h.field != "pattern" {
		fields = 3
	}
	return describeLine(r, text, MatrixMarket, fields, "")
}

func (h *mmHeader) finish(el *graph.EdgeList, info *Info, _ uint32, entries int64) {
	el.NumVertices = max(h.rows, h.cols)
	el.Directed = !(h.symmetric || h.opts.Undirected)
	info.DeclaredVertices = el.NumVertices
	info.Entries = uint64(entries)
	info.Symmetric = h.symmetric
	info.Weighted = h.field != "pattern"
	info.Field = h.field
	info.WeightKind = el.WeightKind
}

// ---- edge lists ----

type elHeader struct {
	name       string
	opts       *ReadOptions
	weighted   bool
	nodes      uint64
	undirected bool // the file carries undirectedMarker
	float32    bool // the file carries float32Marker
}

// nodesKey is the SNAP comment that declares the vertex count.
var nodesKey = []byte("Nodes:")

// undirectedMarker is the comment mgraph writes at the top of an edge list
// or DIMACS file of an undirected graph, which lists each edge once; the
// readers take a file with it as undirected (the reverse arcs restored), so
// that such a file reads back as the graph that was written.
const undirectedMarker = "written by mgraph: " + undirectedKind

// undirectedKind is how the writers' header describes an undirected graph.
const undirectedKind = "undirected graph, each edge listed once"

// markedUndirected reports whether comment line t carries undirectedMarker.
func markedUndirected(t []byte) bool { return bytes.Contains(t, []byte(undirectedMarker)) }

func (h *elHeader) line(l []byte, lineNo int64) (bool, bool, error) {
	t := bytes.TrimLeft(l, " \t")
	if len(t) == 0 {
		return true, false, nil
	}
	if t[0] != '#' && t[0] != '%' {
		return false, true, nil
	}
	if markedUndirected(t) {
		h.undirected = true
	}
	if markedFloat32(t) {
		h.float32 = true
	}
	if i := bytes.Index(t, nodesKey); i >= 0 {
		rest := bytes.TrimLeft(t[i+len(nodesKey):], " \t")
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if j > 0 {
			v, err := strconv.ParseUint(string(rest[:j]), 10, 64)
			if err != nil || v > graph.MaxVertices {
				return false, false, formatErr(h.name, lineNo, "comment declares %s vertices; at most %d are supported", rest[:j], uint64(graph.MaxVertices))
			}
			h.nodes = v
		}
	}
	return true, false, nil
}

func (h *elHeader) eof(int64) error { return nil }

func (h *elHeader) config() *lineConfig {
	c := &lineConfig{sym: h.opts.Undirected || h.undirected}
	if !h.weighted {
		c.weights, c.ignoreExtra = wNone, h.opts.IgnoreWeights
	} else {
		weightConfig(c, wInt, h.opts, h.float32, true)
	}
	return c
}

func (h *elHeader) declared() int64 { return -1 }

func (h *elHeader) describe(r *chunkResult, text string) string {
	if h.weighted {
		return describeLine(r, text, WeightedEdgeList, 3, "")
	}
	return describeLine(r, text, EdgeList, 2, "; for weighted lists use the wel format, or read with IgnoreWeights to ignore extra columns")
}

func (h *elHeader) finish(el *graph.EdgeList, info *Info, maxID uint32, entries int64) {
	n := h.nodes
	if len(el.Src) > 0 {
		n = max(n, uint64(maxID)+1)
	}
	el.NumVertices = n
	el.Directed = !(h.opts.Undirected || h.undirected)
	info.DeclaredVertices = h.nodes
	info.Entries = uint64(entries)
	info.Weighted = h.weighted
	info.WeightKind = el.WeightKind
}

// ---- DIMACS ----

type grHeader struct {
	name       string
	opts       *ReadOptions
	size       int64
	n, m       uint64
	undirected bool // the file carries undirectedMarker
	float32    bool // the file carries float32Marker
}

func (h *grHeader) line(l []byte, lineNo int64) (bool, bool, error) {
	t := bytes.TrimLeft(l, " \t")
	if len(t) == 0 || t[0] == 'c' || t[0] == '#' || t[0] == '%' {
		if len(t) > 0 && markedUndirected(t) {
			h.undirected = true
		}
		if len(t) > 0 && markedFloat32(t) {
			h.float32 = true
		}
		return true, false, nil
	}
	switch t[0] {
	case 'p':
		f := headerFields(t)
		if len(f) != 4 || f[0] != "p" {
			return false, false, formatErr(h.name, lineNo, "problem line should read \"p sp VERTICES ARCS\", found %s", quote(l))
		}
		if f[1] != "sp" {
			return false, false, kindErr(ErrUnsupported, h.name, lineNo, nil, "unsupported DIMACS problem %q (only shortest-path \"sp\" files)", f[1])
		}
		n, ok1 := parseCount(f[2])
		m, ok2 := parseCount(f[3])
		if !ok1 || !ok2 {
			return false, false, formatErr(h.name, lineNo, "problem line: counts must be non-negative integers, found %s", quote(l))
		}
		if n > graph.MaxVertices {
			return false, false, formatErr(h.name, lineNo, "problem line declares %d vertices; at most %d are supported", n, uint64(graph.MaxVertices))
		}
		if m > math.MaxInt64/2 || (h.size >= 0 && m > uint64(h.size)/8) {
			return false, false, formatErr(h.name, lineNo, "problem line declares %d arcs, more than the %d-byte file can hold", m, h.size)
		}
		if m > 0 && n == 0 {
			return false, false, formatErr(h.name, lineNo, "problem line declares %d arcs but no vertices", m)
		}
		h.n, h.m = n, m
		return true, true, nil
	case 'a':
		return false, false, formatErr(h.name, lineNo, "arc line before the problem line \"p sp VERTICES ARCS\"")
	}
	return false, false, formatErr(h.name, lineNo, "unexpected line %s (DIMACS lines start with c, p or a)", quote(l))
}

func (h *grHeader) eof(lineNo int64) error {
	return kindErr(ErrTruncated, h.name, lineNo+1, nil, "missing problem line \"p sp VERTICES ARCS\"")
}

func (h *grHeader) config() *lineConfig {
	c := &lineConfig{oneBased: true, maxSrc: h.n, maxDst: h.n, dimacs: true, sym: h.opts.Undirected || h.undirected}
	weightConfig(c, wInt, h.opts, h.float32, true)
	return c
}

func (h *grHeader) declared() int64 { return int64(h.m) }

func (h *grHeader) describe(r *chunkResult, text string) string {
	if r.code == codeIDRange {
		return fmt.Sprintf("vertex %d is beyond the %d the problem line declares: %s", r.value, h.n, text)
	}
	return describeLine(r, text, DIMACS, 4, "")
}

func (h *grHeader) finish(el *graph.EdgeList, info *Info, _ uint32, entries int64) {
	el.NumVertices = h.n
	el.Directed = !(h.opts.Undirected || h.undirected)
	info.DeclaredVertices = h.n
	info.Entries = uint64(entries)
	info.Weighted = true
	info.WeightKind = el.WeightKind
}
