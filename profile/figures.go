package profile

import (
	"strings"
)

// Kernel is the sum over the launches of one kernel (by its full name, as
// ncu printed it).
type Kernel struct {
	Name     string             `json:"name"`
	Display  string             `json:"display"` // Name without template arguments and parameters
	Launches int                `json:"launches"`
	Values   map[string]float64 `json:"values"` // metric → sum over the launches that had it
	// Missing counts, per metric, the launches where ncu gave no value
	// ("n/a"): Values undercounts those.
	Missing map[string]int `json:"missing,omitempty"`
}

// Aggregate sums each kernel's launches, in the order of each kernel's first
// launch.
func Aggregate(r *Report) []Kernel {
	var out []Kernel
	at := map[string]int{}
	for _, l := range r.Launches {
		i, ok := at[l.Kernel]
		if !ok {
			i = len(out)
			at[l.Kernel] = i
			out = append(out, Kernel{Name: l.Kernel, Display: DisplayName(l.Kernel), Values: map[string]float64{}})
		}
		k := &out[i]
		k.Launches++
		for _, m := range r.Metrics {
			if v, ok := l.Values[m]; ok {
				k.Values[m] += v
			} else {
				if k.Missing == nil {
					k.Missing = map[string]int{}
				}
				k.Missing[m]++
			}
		}
	}
	return out
}

// DisplayName shortens a kernel name for tables: no return type, template
// arguments, parameter list or "(anonymous namespace)::", e.g.
// "void (anonymous namespace)::phase1<mg::MinProg, 256>(const unsigned int *)"
// becomes "phase1". A name that would shorten to nothing is kept.
func DisplayName(name string) string {
	s := strings.TrimSpace(name)
	s = strings.TrimPrefix(s, "void ")
	var b strings.Builder
	depth := 0
	for _, c := range s {
		switch c {
		case '<', '(':
			depth++
			continue
		case '>', ')':
			if depth > 0 {
				depth--
				continue
			}
		}
		if depth == 0 {
			b.WriteRune(c)
		}
	}
	out := strings.TrimSpace(b.String())
	for strings.HasPrefix(out, "::") {
		out = out[2:]
	}
	out = strings.TrimSpace(out)
	if out == "" || depth != 0 {
		return s
	}
	return out
}

// Footprint is the memory the graph takes: the dual layout's arrays as the
// GPU engines upload them, the whole layout (host copy, with permutation and
// segments) and the same graph as plain CSR ((n+1)·8 + m·4 bytes, + m·4 when
// weighted).
type Footprint struct {
	DeviceBytes uint64 `json:"device_bytes"`
	LayoutBytes uint64 `json:"layout_bytes"`
	CSRBytes    uint64 `json:"csr_bytes"`
}

// Figures are the Fig. 14 quantities of a run. A figure whose metric ncu did
// not give, or whose denominator is zero, is nil.
type Figures struct {
	Edges    uint64 `json:"traversed_edges"`
	Launches int    `json:"launches"`

	// Totals over every profiled launch, in base units.
	KernelSeconds  *float64 `json:"kernel_seconds"`
	DRAMReadBytes  *float64 `json:"dram_read_bytes"`
	DRAMWriteBytes *float64 `json:"dram_write_bytes"`
	GlobalAtomics  *float64 `json:"global_atomics"` // ATOM + RED requests (warp-level)
	SharedAtomics  *float64 `json:"shared_atomics"` // ATOMS instructions (warp-level)
	LoadSectors    *float64 `json:"load_sectors"`
	LoadRequests   *float64 `json:"load_requests"`
	StoreSectors   *float64 `json:"store_sectors"`
	StoreRequests  *float64 `json:"store_requests"`
	LoadBytes      *float64 `json:"load_bytes_requested"`

	// Per traversed edge.
	DRAMReadPerEdge      *float64 `json:"dram_read_bytes_per_edge"`
	DRAMWritePerEdge     *float64 `json:"dram_write_bytes_per_edge"`
	DRAMBytesPerEdge     *float64 `json:"dram_bytes_per_edge"`
	GlobalAtomicsPerEdge *float64 `json:"global_atomics_per_edge"`
	SharedAtomicsPerEdge *float64 `json:"shared_atomics_per_edge"`

	// Access quality.
	LoadSectorsPerRequest  *float64 `json:"load_sectors_per_request"`
	StoreSectorsPerRequest *float64 `json:"store_sectors_per_request"`
	// LoadEfficiency is the bytes the threads' global loads asked for over
	// the bytes of the 32-byte sectors fetched for them (1 = every fetched
	// byte used; ncu's "global load efficiency").
	LoadEfficiency *float64 `json:"load_efficiency"`

	Footprint      Footprint `json:"footprint"`
	FootprintRatio *float64  `json:"footprint_ratio"` // DeviceBytes / CSRBytes
	LayoutRatio    *float64  `json:"layout_ratio"`    // LayoutBytes / CSRBytes
}

// KernelFigures are one kernel's share of Figures.
type KernelFigures struct {
	Kernel
	Seconds                *float64 `json:"seconds"`
	DRAMBytesPerEdge       *float64 `json:"dram_bytes_per_edge"`
	GlobalAtomicsPerEdge   *float64 `json:"global_atomics_per_edge"`
	SharedAtomicsPerEdge   *float64 `json:"shared_atomics_per_edge"`
	LoadSectorsPerRequest  *float64 `json:"load_sectors_per_request"`
	StoreSectorsPerRequest *float64 `json:"store_sectors_per_request"`
	LoadEfficiency         *float64 `json:"load_efficiency"`
}

// sums holds metric totals; a metric no launch had is absent.
type sums map[string]float64

func (s sums) get(m string) *float64 {
	if v, ok := s[m]; ok {
		return &v
	}
	return nil
}

// add returns a+b, nil when both are absent.
func add(a, b *float64) *float64 {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	v := *a + *b
	return &v
}

// div returns a/b, nil when either is absent or b is 0.
func div(a, b *float64) *float64 {
	if a == nil || b == nil || *b == 0 {
		return nil
	}
	v := *a / *b
	return &v
}

func num(x float64) *float64 { return &x }

// scaled returns a·f, nil when a is absent.
func scaled(a *float64, f float64) *float64 {
	if a == nil {
		return nil
	}
	v := *a * f
	return &v
}

// Compute sums the kernels and divides by the traversed edges.
func Compute(kernels []Kernel, edges uint64, fp Footprint) (Figures, []KernelFigures) {
	total := sums{}
	per := make([]KernelFigures, len(kernels))
	e := num(float64(edges))
	launches := 0
	for i, k := range kernels {
		launches += k.Launches
		for m, v := range k.Values {
			total[m] += v
		}
		s := sums(k.Values)
		per[i] = KernelFigures{Kernel: k,
			Seconds:                scaled(s.get(MetricTime), 1e-9),
			DRAMBytesPerEdge:       div(add(s.get(MetricDRAMRead), s.get(MetricDRAMWrite)), e),
			GlobalAtomicsPerEdge:   div(add(s.get(MetricGlobalAtom), s.get(MetricGlobalRed)), e),
			SharedAtomicsPerEdge:   div(s.get(MetricSharedAtom), e),
			LoadSectorsPerRequest:  div(s.get(MetricLoadSectors), s.get(MetricLoadRequests)),
			StoreSectorsPerRequest: div(s.get(MetricStoreSectors), s.get(MetricStoreRequests)),
			LoadEfficiency:         div(s.get(MetricLoadBytes), scaled(s.get(MetricLoadSectors), 32)),
		}
	}
	f := Figures{Edges: edges, Launches: launches,
		KernelSeconds:  scaled(total.get(MetricTime), 1e-9),
		DRAMReadBytes:  total.get(MetricDRAMRead),
		DRAMWriteBytes: total.get(MetricDRAMWrite),
		GlobalAtomics:  add(total.get(MetricGlobalAtom), total.get(MetricGlobalRed)),
		SharedAtomics:  total.get(MetricSharedAtom),
		LoadSectors:    total.get(MetricLoadSectors),
		LoadRequests:   total.get(MetricLoadRequests),
		StoreSectors:   total.get(MetricStoreSectors),
		StoreRequests:  total.get(MetricStoreRequests),
		LoadBytes:      total.get(MetricLoadBytes),
		Footprint:      fp,
	}
	f.DRAMReadPerEdge = div(f.DRAMReadBytes, e)
	f.DRAMWritePerEdge = div(f.DRAMWriteBytes, e)
	f.DRAMBytesPerEdge = div(add(f.DRAMReadBytes, f.DRAMWriteBytes), e)
	f.GlobalAtomicsPerEdge = div(f.GlobalAtomics, e)
	f.SharedAtomicsPerEdge = div(f.SharedAtomics, e)
	f.LoadSectorsPerRequest = div(f.LoadSectors, f.LoadRequests)
	f.StoreSectorsPerRequest = div(f.StoreSectors, f.StoreRequests)
	f.LoadEfficiency = div(f.LoadBytes, scaled(f.LoadSectors, 32))
	f.FootprintRatio = div(num(float64(fp.DeviceBytes)), num(float64(fp.CSRBytes)))
	f.LayoutRatio = div(num(float64(fp.LayoutBytes)), num(float64(fp.CSRBytes)))
	return f, per
}
