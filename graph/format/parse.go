package format

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unsafe"
)

// weightMode says what the third field of a data line is.
type weightMode uint8

const (
	wNone  weightMode = iota // two fields only
	wInt                     // required non-negative integer weight
	wReal                    // required real weight that must be a non-negative integer
	wSkip                    // required field, content ignored (IgnoreWeights)
	wFloat                   // required real weight, stored as float32 bits
)

// lineConfig describes the data lines of one text format for parseLines.
type lineConfig struct {
	oneBased    bool   // ids are 1-based (0 is an error)
	maxSrc      uint64 // for 1-based ids: largest valid source id (rows / N)
	maxDst      uint64 // largest valid destination id (cols / N)
	dimacs      bool   // data lines start with "a"; "c" lines are comments
	weights     weightMode
	ignoreExtra bool // extra fields after the expected ones are ignored
	sym         bool // emit the reverse arc of every non-loop entry
	keepWeights bool // store weights (false for wNone and wSkip)
	// autoFloat (WeightsAuto): a wInt or wReal weight that is not a uint32
	// integer but a valid float32 weight switches the chunk to wFloat, its
	// weights so far converted (chunkResult.float).
	autoFloat bool
	limit     int64
}

// errCode says what went wrong on a line.
type errCode uint8

const (
	codeNone errCode = iota
	codeNotNumber
	codeOverflow
	codeFewFields
	codeExtraField
	codeZeroID
	codeIDRange
	codeNegWeight
	codeBadReal
	codeUnexpected
	codeProblemAgain
	codeTooMany
	codeNaNWeight
	codeInfWeight
	codeFloatRange
)

// chunkResult is what parseLines produces for one chunk of lines.
type chunkResult struct {
	src, dst, w []uint32
	entries     int64  // data lines parsed
	lines       int64  // newline characters in the chunk
	maxID       uint32 // largest 0-based id seen (when entries > 0)
	// float: w holds float32 bits (wFloat, or a switch under autoFloat);
	// otherwise uint32 integers.
	float bool

	// The first error, if any: code, 0-based line index in the chunk,
	// byte offset of that line's start, and the 1-based field number.
	code    errCode
	errLine int64
	errOff  int
	field   int
	value   uint64 // the offending id for codeIDRange

	lo, hi int // the chunk's bytes in its block, for re-scans
}

const maxU32 = math.MaxUint32

// isSpace reports whether c separates fields.
func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// isEnd reports whether c ends a field: a separator or the end of the line.
func isEnd(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// scanUint parses the decimal digits at b[i:] and returns the value and the
// index after them. Values above maxU32 come back as maxU32+1.
func scanUint(b []byte, i int) (uint64, int) {
	var v uint64
	for ; i < len(b); i++ {
		d := b[i] - '0'
		if d > 9 {
			break
		}
		v = v*10 + uint64(d)
		if v > maxU32 {
			v = maxU32 + 1
		}
	}
	return v, i
}

// skipToken returns the index of the end of the field starting at b[i].
func skipToken(b []byte, i int) int {
	for i < len(b) && !isEnd(b[i]) {
		i++
	}
	return i
}

// parseLines parses the data lines of b (complete lines, the last one
// possibly without its newline) into r. It stops at the first error, which
// it records in r; r.entries then counts the entries before that line.
func parseLines(b []byte, cfg *lineConfig, r *chunkResult) {
	r.lines = int64(bytes.Count(b, []byte{'\n'}))
	// Entries are bounded by the lines and by the bytes: the shortest data
	// line ("0 0\n", or "a 1 1 0\n" in DIMACS) has minLine bytes.
	minLine := int64(4)
	if cfg.dimacs {
		minLine = 8
	}
	capArcs := min(r.lines+1, int64(len(b))/minLine+1)
	if cfg.sym {
		capArcs *= 2
	}
	src := make([]uint32, capArcs)
	dst := make([]uint32, capArcs)
	var wts []uint32
	if cfg.keepWeights {
		wts = make([]uint32, capArcs)
	}
	k := 0
	var maxID uint32
	var line int64
	n := len(b)
	i := 0
	lineStart := 0
	var code errCode
	field := 0
	var bad uint64
	mode := cfg.weights
	float := mode == wFloat
	for i < n {
		lineStart = i
		// Leading blanks.
		for i < n && isSpace(b[i]) {
			i++
		}
		if i == n {
			break
		}
		c := b[i]
		if c == '\n' {
			i++
			line++
			continue
		}
		if c == '\r' && (i+1 == n || b[i+1] == '\n') {
			i += 2
			line++
			continue
		}
		if c == '#' || c == '%' || (cfg.dimacs && c == 'c') {
			j := bytes.IndexByte(b[i:], '\n')
			if j < 0 {
				i = n
				break
			}
			i += j + 1
			line++
			continue
		}
		if cfg.dimacs {
			if c == 'p' {
				code = codeProblemAgain
				break
			}
			if c != 'a' || i+1 >= n || !isSpace(b[i+1]) {
				code = codeUnexpected
				break
			}
			i += 2
			for i < n && isSpace(b[i]) {
				i++
			}
		}
		if r.entries == cfg.limit {
			code = codeTooMany
			break
		}
		// First id.
		field = 1
		u, j := scanUint(b, i)
		if j == i || (j < n && !isEnd(b[j])) {
			code = codeNotNumber
			break
		}
		if u > maxU32 {
			code = codeOverflow
			break
		}
		i = j
		for i < n && isSpace(b[i]) {
			i++
		}
		// Second id.
		field = 2
		if i == n || b[i] == '\n' || b[i] == '\r' {
			code = codeFewFields
			break
		}
		v, j := scanUint(b, i)
		if j == i || (j < n && !isEnd(b[j])) {
			code = codeNotNumber
			break
		}
		if v > maxU32 {
			code = codeOverflow
			break
		}
		i = j
		for i < n && isSpace(b[i]) {
			i++
		}
		// Weight.
		var w uint64
		if cfg.weights != wNone {
			field = 3
			if i == n || b[i] == '\n' || b[i] == '\r' {
				code = codeFewFields
				break
			}
			tok := i
			switch mode {
			case wInt:
				neg := false
				if b[i] == '-' || b[i] == '+' {
					neg = b[i] == '-'
					i++
				}
				w, j = scanUint(b, i)
				if j == i || (j < n && !isEnd(b[j])) {
					code = codeNotNumber
				} else if neg && w != 0 {
					code = codeNegWeight
				} else if w > maxU32 {
					code = codeOverflow
				}
			case wReal:
				j = skipToken(b, i)
				w, code = parseIntegralReal(b[i:j])
			case wFloat:
				j = skipToken(b, i)
				var fb uint32
				fb, code = parseFloat32(b[i:j])
				w = uint64(fb)
			case wSkip:
				j = skipToken(b, i)
			}
			if code != codeNone && cfg.autoFloat && mode != wFloat {
				// Not a uint32 integer: a float32 weight makes the chunk's
				// weights float32 (those so far converted exactly as the
				// parser would round their decimals); another error keeps
				// the more telling of the two codes.
				jf := skipToken(b, tok)
				fb, fc := parseFloat32(b[tok:jf])
				switch {
				case fc == codeNone:
					if wts != nil {
						for x, v := range wts[:k] {
							wts[x] = math.Float32bits(float32(v))
						}
					}
					mode, float, code, w, j = wFloat, true, codeNone, uint64(fb), jf
				case fc != codeNotNumber:
					code = fc
				}
			}
			if code != codeNone {
				break
			}
			i = j
			for i < n && isSpace(b[i]) {
				i++
			}
		}
		// End of line.
		if i < n && b[i] == '\r' && (i+1 == n || b[i+1] == '\n') {
			i++
		}
		if i < n && b[i] != '\n' {
			if !cfg.ignoreExtra {
				field++
				code = codeExtraField
				break
			}
			j := bytes.IndexByte(b[i:], '\n')
			if j < 0 {
				i = n
			} else {
				i += j
			}
		}
		if i < n {
			i++ // the newline
		}
		if cfg.oneBased {
			if u == 0 || v == 0 {
				code = codeZeroID
				field = 1
				if u != 0 {
					field = 2
				}
				break
			}
			if u > cfg.maxSrc {
				code, field, bad = codeIDRange, 1, u
				break
			}
			if v > cfg.maxDst {
				code, field, bad = codeIDRange, 2, v
				break
			}
			u--
			v--
		}
		uu, vv := uint32(u), uint32(v)
		maxID = max(maxID, uu, vv)
		src[k], dst[k] = uu, vv
		if wts != nil {
			wts[k] = uint32(w)
		}
		k++
		if cfg.sym && uu != vv {
			src[k], dst[k] = vv, uu
			if wts != nil {
				wts[k] = uint32(w)
			}
			k++
		}
		r.entries++
		line++
	}
	if int64(k) < capArcs/2 {
		// Mostly comments or blank lines: do not keep the spare room alive
		// until the chunks are joined.
		src, dst = slices.Clone(src[:k]), slices.Clone(dst[:k])
		if wts != nil {
			wts = slices.Clone(wts[:k])
		}
	}
	r.src, r.dst = src[:k], dst[:k]
	if wts != nil {
		r.w = wts[:k]
	}
	r.maxID = maxID
	r.float = float
	if code != codeNone {
		r.code, r.errLine, r.errOff, r.field, r.value = code, line, lineStart, field, bad
	}
}

// parseIntegralReal parses a real number that must be a non-negative
// integer fitting in uint32: "3", "3.0", "3e0", "30e-1", "+3.", "0.3e1".
func parseIntegralReal(tok []byte) (uint64, errCode) {
	i := 0
	neg := false
	if i < len(tok) && (tok[i] == '+' || tok[i] == '-') {
		neg = tok[i] == '-'
		i++
	}
	intLo := i
	for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
		i++
	}
	intHi := i
	fracLo, fracHi := i, i
	if i < len(tok) && tok[i] == '.' {
		i++
		fracLo = i
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i++
		}
		fracHi = i
	}
	if intHi == intLo && fracHi == fracLo {
		return 0, codeNotNumber
	}
	exp := 0
	if i < len(tok) && (tok[i] == 'e' || tok[i] == 'E') {
		i++
		eneg := false
		if i < len(tok) && (tok[i] == '+' || tok[i] == '-') {
			eneg = tok[i] == '-'
			i++
		}
		lo := i
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			if exp < 100000 {
				exp = exp*10 + int(tok[i]-'0')
			}
			i++
		}
		if i == lo {
			return 0, codeNotNumber
		}
		if eneg {
			exp = -exp
		}
	}
	if i != len(tok) {
		return 0, codeNotNumber
	}
	// The digits are int ++ frac; the decimal point sits after
	// (intHi-intLo)+exp of them.
	nInt, nFrac := intHi-intLo, fracHi-fracLo
	digit := func(k int) byte {
		if k < nInt {
			return tok[intLo+k] - '0'
		}
		return tok[fracLo+k-nInt] - '0'
	}
	total := nInt + nFrac
	point := nInt + exp
	var v uint64
	overflow := false
	for k := 0; k < total; k++ {
		d := digit(k)
		if k >= point {
			if d != 0 {
				return 0, codeBadReal
			}
			continue
		}
		v = v*10 + uint64(d)
		if v > maxU32 {
			overflow = true
			v = maxU32 + 1
		}
	}
	// Trailing zeros implied by a large exponent.
	for k := total; k < point && v != 0; k++ {
		v *= 10
		if v > maxU32 {
			overflow = true
			break
		}
	}
	if neg && (v != 0 || overflow) {
		return 0, codeNegWeight
	}
	if overflow {
		return 0, codeOverflow
	}
	return v, codeNone
}

// parseFloat32 parses a real number, [+-]digits[.digits][(e|E)[+-]digits]
// with at least one digit before the exponent, rounded to the nearest
// float32 (strconv.ParseFloat), and returns its bits as a Float32Weights
// weight: -0 as +0; negative, NaN and infinite values, and values beyond
// float32's range, are errors. Values below float32's smallest subnormal
// round to 0.
func parseFloat32(tok []byte) (uint32, errCode) {
	if len(tok) == 0 {
		return 0, codeNotNumber
	}
	i := 0
	neg := tok[0] == '-'
	if tok[0] == '+' || neg {
		i++
	}
	if i < len(tok) && (tok[i]|0x20 == 'n' || tok[i]|0x20 == 'i') {
		switch string(bytes.ToLower(tok[i:])) {
		case "nan":
			return 0, codeNaNWeight
		case "inf", "infinity":
			if neg {
				return 0, codeNegWeight
			}
			return 0, codeInfWeight
		}
		return 0, codeNotNumber
	}
	digits := 0
	for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
		i++
		digits++
	}
	if i < len(tok) && tok[i] == '.' {
		i++
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, codeNotNumber
	}
	if i < len(tok) && (tok[i] == 'e' || tok[i] == 'E') {
		i++
		if i < len(tok) && (tok[i] == '+' || tok[i] == '-') {
			i++
		}
		lo := i
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i++
		}
		if i == lo {
			return 0, codeNotNumber
		}
	}
	if i != len(tok) {
		return 0, codeNotNumber
	}
	f, err := strconv.ParseFloat(unsafe.String(&tok[0], len(tok)), 32)
	switch {
	case err != nil && !math.IsInf(f, 0):
		return 0, codeNotNumber
	case f == 0:
		return 0, codeNone // -0 too
	case neg:
		return 0, codeNegWeight
	case math.IsInf(f, 0):
		return 0, codeFloatRange
	}
	return math.Float32bits(float32(f)), codeNone
}

// lineText returns the line starting at off in b, without its line ending,
// shortened for messages.
func lineText(b []byte, off int) string {
	if off < 0 || off > len(b) {
		return ""
	}
	rest := b[off:]
	if j := bytes.IndexByte(rest, '\n'); j >= 0 {
		rest = rest[:j]
	}
	rest = bytes.TrimRight(rest, "\r")
	const maxShown = 80
	if len(rest) > maxShown {
		return fmt.Sprintf("%q...", rest[:maxShown])
	}
	return fmt.Sprintf("%q", rest)
}
