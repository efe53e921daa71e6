package preprocess

import (
	"context"
	"encoding/binary"
	"testing"

	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/layout"
)

// fuzzInput turns fuzz bytes into parameters and a graph: a 12-byte header
// of parameters, then 2 or 3 bytes per arc.
func fuzzInput(data []byte) (*graph.EdgeList, layout.Params) {
	var h [12]byte
	copy(h[:], data)
	rest := data[min(len(data), 12):]
	p := layout.Params{
		PanelSize:      1 + uint32(h[0]%40),
		HeavyThreshold: uint64(h[1] % 32),
		HeavyColumns:   1 + uint32(h[2]%9),
		SegmentSize:    1 + uint32(h[3]%12),
	}
	// Up to 5 strictly descending positive thresholds.
	t := uint64(1 + h[4]%40)
	for i := 0; i < int(h[5]%6); i++ {
		p.GroupThresholds = append([]uint64{t}, p.GroupThresholds...)
		t += 1 + uint64(h[6+i%4]%8)
	}
	p.HighGroups = uint32(h[10]) % uint32(p.NumGroups()+1)
	n := uint64(binary.LittleEndian.Uint16(h[8:])) % 300
	weighted := h[11]&1 == 1
	el := &graph.EdgeList{NumVertices: n, Directed: h[11]&2 == 0}
	if n == 0 {
		return el, p
	}
	step := 2
	if weighted {
		step = 3
		el.Weights = []uint32{}
	}
	for i := 0; i+step <= len(rest); i += step {
		el.Src = append(el.Src, uint32(uint64(rest[i])*7%n))
		el.Dst = append(el.Dst, uint32(uint64(rest[i+1])%n))
		if weighted {
			el.Weights = append(el.Weights, uint32(rest[i+2]))
		}
	}
	return el, p
}

func FuzzBuild(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{5, 3, 2, 4, 2, 3, 1, 2, 40, 0, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 1, 1, 1, 1, 1, 2, 1, 3, 1})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{63, 10, 3, 5, 9, 5, 2, 3, 200, 0, 3, 1, 9, 1, 2, 9, 2, 3, 9, 3, 4, 9, 4, 5, 9, 5, 6, 9, 6, 7, 9, 7, 8, 9, 8, 9, 9, 9, 10, 9, 10, 11, 9, 11, 12, 9, 12, 13})
	star := []byte{8, 4, 3, 2, 3, 4, 1, 1, 50, 0, 2, 0}
	for i := 1; i < 60; i++ {
		star = append(star, byte(i), 0, byte(i), 0)
	}
	f.Add(star)
	f.Fuzz(func(t *testing.T, data []byte) {
		el, p := fuzzInput(data)
		if err := p.Validate(); err != nil {
			t.Fatalf("fuzzInput made invalid params %v: %v", p, err)
		}
		l, err := Build(context.Background(), el, p, Options{Workers: 1 + int(len(data)%3)})
		if err != nil {
			t.Fatalf("build: %v", err)
		}
		if err := layout.Validate(l, el); err != nil {
			t.Fatalf("validate (params %v, n %d, m %d): %v", p, el.NumVertices, el.NumArcs(), err)
		}
	})
}
