package profile

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Launch is one kernel launch of ncu's raw page: its row's identity and the
// values of its metrics in base units (bytes, nanoseconds, counts). A metric
// ncu printed as "n/a" or left empty is absent from Values.
type Launch struct {
	ID      string // ncu's "ID" column (launch number in the report)
	Process string // "Process ID"
	Kernel  string // "Kernel Name", as ncu printed it
	Line    int    // line of the row in the CSV text
	Values  map[string]float64
}

// Report is the parsed CSV: the metric columns in their order, each one's
// base unit (from the units row, after scaling; "" when none was given), and
// one Launch per row.
type Report struct {
	Metrics  []string
	Units    map[string]string
	Launches []Launch
}

// infoColumns are the raw page's non-metric columns (ncu 2023–2025); any
// other column is a metric.
var infoColumns = map[string]bool{
	"ID": true, "Process ID": true, "Process Name": true, "Host Name": true, "Kernel Name": true,
	"Kernel Time": true, "Context": true, "Stream": true, "Block Size": true, "Grid Size": true,
	"Device": true, "CC": true, "Function Name": true, "Demangled Name": true, "Mangled Name": true,
}

// ParseCSV reads the output of `ncu --csv --page raw` (preferably with
// --print-units base; other units with an SI prefix are scaled to base
// units): a header row naming "Kernel Name" and the metric columns, an
// optional units row, then one row per launch. Lines ncu prints around the
// table (==PROF==, ==WARNING==, the profiled program's own output before the
// header) are skipped. Thousands separators are removed and "n/a" values
// left out. Malformed input gives an error naming the line and column.
//
// With metrics given, only those columns are read (the raw page also holds
// device attributes and launch parameters, some of them text); a metric
// missing from the header is left out of Report.Metrics. With none, every
// column that is not one of the raw page's identity columns must hold
// numbers.
func ParseCSV(r io.Reader, metrics ...string) (*Report, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("ncu csv: %w", err)
	}
	// Keep the CSV lines, remembering each one's line number in the input.
	var kept bytes.Buffer
	var lineOf []int
	for i, line := range bytes.Split(data, []byte("\n")) {
		t := bytes.TrimRight(line, "\r")
		if len(bytes.TrimSpace(t)) == 0 || bytes.HasPrefix(t, []byte("==")) {
			continue
		}
		kept.Write(t)
		kept.WriteByte('\n')
		lineOf = append(lineOf, i+1)
	}
	origLine := func(l int) int {
		if l >= 1 && l <= len(lineOf) {
			return lineOf[l-1]
		}
		return l
	}
	cr := csv.NewReader(&kept)
	cr.FieldsPerRecord = -1
	var (
		rep        *Report
		header     []string
		kernelCol  = -1
		idCol      = -1
		processCol = -1
		metricCols []int
		scale      = map[int]float64{}
		sawRows    bool
	)
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("ncu csv: line %d: %v", origLine(pe.Line), pe.Err)
			}
			return nil, fmt.Errorf("ncu csv: %w", err)
		}
		line, _ := cr.FieldPos(0)
		line = origLine(line)
		if header == nil {
			// Before the header: the profiled program's output, or a
			// header without "Kernel Name" (not the raw page).
			k := indexOf(rec, "Kernel Name")
			if k < 0 {
				continue
			}
			header, kernelCol = rec, k
			idCol, processCol = indexOf(rec, "ID"), indexOf(rec, "Process ID")
			rep = &Report{Units: map[string]string{}}
			seen := map[string]bool{}
			for i, name := range rec {
				if infoColumns[name] || (len(metrics) > 0 && !slices.Contains(metrics, name)) {
					continue
				}
				if name == "" {
					return nil, fmt.Errorf("ncu csv: line %d: column %d of the header has no name", line, i+1)
				}
				if seen[name] {
					return nil, fmt.Errorf("ncu csv: line %d: metric %q appears twice in the header", line, name)
				}
				seen[name] = true
				metricCols = append(metricCols, i)
				rep.Metrics = append(rep.Metrics, name)
				scale[i] = 1
			}
			continue
		}
		if len(rec) != len(header) {
			return nil, fmt.Errorf("ncu csv: line %d: %d fields, the header has %d", line, len(rec), len(header))
		}
		if !sawRows && rec[kernelCol] == "" && (idCol < 0 || rec[idCol] == "") {
			// The units row.
			for _, i := range metricCols {
				unit, f, err := baseUnit(rec[i])
				if err != nil {
					return nil, fmt.Errorf("ncu csv: line %d: column %q: %w", line, header[i], err)
				}
				rep.Units[header[i]], scale[i] = unit, f
			}
			sawRows = true
			continue
		}
		sawRows = true
		if rec[kernelCol] == "" {
			return nil, fmt.Errorf("ncu csv: line %d: empty \"Kernel Name\"", line)
		}
		l := Launch{Kernel: rec[kernelCol], Line: line, Values: make(map[string]float64, len(metricCols))}
		if idCol >= 0 {
			l.ID = rec[idCol]
		}
		if processCol >= 0 {
			l.Process = rec[processCol]
		}
		for _, i := range metricCols {
			v, ok, err := parseValue(rec[i])
			if err != nil {
				return nil, fmt.Errorf("ncu csv: line %d: column %q: %w", line, header[i], err)
			}
			if ok {
				if v *= scale[i]; math.IsInf(v, 0) {
					return nil, fmt.Errorf("ncu csv: line %d: column %q: value %q overflows in base units", line, header[i], rec[i])
				}
				l.Values[header[i]] = v
			}
		}
		rep.Launches = append(rep.Launches, l)
	}
	if rep == nil {
		return nil, fmt.Errorf("ncu csv: no header row with a \"Kernel Name\" column (is this the output of ncu --csv --page raw?)")
	}
	return rep, nil
}

func indexOf(rec []string, name string) int {
	for i, s := range rec {
		if s == name {
			return i
		}
	}
	return -1
}

// parseValue parses one metric cell: "" and "n/a" are missing (ok false);
// thousands separators ("1,234,567") are removed.
func parseValue(s string) (v float64, ok bool, err error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "n/a") {
		return 0, false, nil
	}
	t := s
	if strings.Contains(t, ",") {
		if !validGrouping(t) {
			return 0, false, fmt.Errorf("value %q has misplaced thousands separators", s)
		}
		t = strings.ReplaceAll(t, ",", "")
	}
	v, err = strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false, fmt.Errorf("value %q is not a number", s)
	}
	return v, true, nil
}

// validGrouping reports whether the integer part of s groups its digits by
// three with commas ("12,345.6"), and nothing else has one.
func validGrouping(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	intPart, _, _ := strings.Cut(s, ".")
	if strings.ContainsAny(s[len(intPart):], ",") {
		return false
	}
	groups := strings.Split(intPart, ",")
	if len(groups[0]) < 1 || len(groups[0]) > 3 {
		return false
	}
	for _, g := range groups[1:] {
		if len(g) != 3 {
			return false
		}
	}
	return true
}

// baseUnit returns the base unit of an ncu unit and the factor to it:
// Kbyte → byte ×1e3, usecond → ns ×1e3, Msector → sector ×1e6. ncu's
// byte prefixes are decimal. Units without a known prefix pass unchanged.
func baseUnit(u string) (string, float64, error) {
	u = strings.TrimSpace(u)
	switch u {
	case "nsecond", "ns":
		return "ns", 1, nil
	case "usecond", "us":
		return "ns", 1e3, nil
	case "msecond", "ms":
		return "ns", 1e6, nil
	case "second", "s":
		return "ns", 1e9, nil
	case "KB", "MB", "GB", "TB":
		return "byte", map[byte]float64{'K': 1e3, 'M': 1e6, 'G': 1e9, 'T': 1e12}[u[0]], nil
	}
	if len(u) > 1 && strings.ContainsRune("KMGT", rune(u[0])) && u[1] >= 'a' && u[1] <= 'z' {
		f := map[byte]float64{'K': 1e3, 'M': 1e6, 'G': 1e9, 'T': 1e12}[u[0]]
		if strings.Contains(u, "/") {
			// A rate such as Kbyte/second: keep as printed.
			return u, 1, nil
		}
		return u[1:], f, nil
	}
	if strings.ContainsAny(u, "\"\n") {
		return "", 0, fmt.Errorf("unit %q is not a unit", u)
	}
	return u, 1, nil
}
