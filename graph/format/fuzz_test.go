package format

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/mgraph-dev/mgraph/graph"
)

// fuzzRead is the property every text parser must have on any input: no
// panic; the same outcome (list or error message) with big blocks on one
// worker and with tiny blocks on several; a valid list on success; and, for
// a valid list, writing it and reading it back gives the same arcs.
func fuzzRead(t *testing.T, fm Format, name string, data []byte, flags uint8) {
	opts := ReadOptions{Format: fm, Workers: 1, IgnoreWeights: flags&1 != 0, Undirected: flags&2 != 0,
		WeightType: WeightType(flags >> 2 % 3)} // auto, uint32 or float32
	el, _, err := Read(context.Background(), bytes.NewReader(data), name, opts)

	restore := setTuning(16, 4)
	opts2 := opts
	opts2.Workers = 3
	el2, _, err2 := Read(context.Background(), bytes.NewReader(data), name, opts2)
	restore()
	if (err == nil) != (err2 == nil) {
		t.Fatalf("block size changes the outcome: %v vs %v", err, err2)
	}
	if err != nil {
		if !strings.Contains(err.Error(), "stream") && err.Error() != err2.Error() {
			t.Fatalf("block size changes the error:\n%v\n%v", err, err2)
		}
		if !strings.HasPrefix(err.Error(), name+": ") {
			t.Fatalf("error does not name the file: %v", err)
		}
		return
	}
	if err := el.Validate(); err != nil {
		t.Fatalf("invalid list: %v", err)
	}
	if !equalLists(el, el2) {
		t.Fatalf("block size changes the list")
	}
	checkRewrite(t, fm, el, opts)
}

// checkRewrite writes el in fm, reads it back and compares.
func checkRewrite(t *testing.T, fm Format, el *graph.EdgeList, opts ReadOptions) {
	var buf bytes.Buffer
	if err := Write(context.Background(), &buf, el, WriteOptions{Format: fm, Workers: 2}); err != nil {
		t.Fatalf("write: %v", err)
	}
	opts.IgnoreWeights = false
	opts.Undirected = !el.Directed
	back, _, err := Read(context.Background(), &buf, "rewritten", opts)
	if err != nil {
		t.Fatalf("re-read: %v\n%s", err, buf.String())
	}
	withWeights := el.Weights != nil
	if fm == EdgeList {
		withWeights = false
	}
	if back.NumVertices != el.NumVertices || back.Directed != el.Directed ||
		!equalArcs(arcs(el, withWeights), arcs(back, withWeights)) {
		t.Fatalf("rewrite differs: %d/%v vs %d/%v", el.NumVertices, el.Directed, back.NumVertices, back.Directed)
	}
	if withWeights && back.WeightKind != el.WeightKind {
		t.Fatalf("rewrite changes the weight type: %v vs %v", el.WeightKind, back.WeightKind)
	}
}

func equalArcs(a, b []arc) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equalLists(a, b *graph.EdgeList) bool {
	return a.NumVertices == b.NumVertices && a.Directed == b.Directed && (a.Weights == nil) == (b.Weights == nil) &&
		a.WeightKind == b.WeightKind && equalArcs(inOrder(a), inOrder(b))
}

func FuzzMatrixMarket(f *testing.F) {
	seeds := []string{
		"%%MatrixMarket matrix coordinate pattern symmetric\n% c\n3 3 3\n1 1\n2 1\n3 2\n",
		"%%MatrixMarket matrix coordinate integer general\r\n4 3 2\r\n1\t2\t7\r\n4 3 0",
		"%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 3.0\n2 1 2e1\n3 3 0.5\n",
		"%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n2 1 -1\n",
		"%%MatrixMarket matrix coordinate real general\n% mgraph weights: float32\n3 3 3\n1 2 3\n2 1 1e-45\n3 3 3.4028235e38\n",
		"%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 7\n2 1 -0.0\n3 3 nan\n",
		"%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n2 3\n",
		"%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n",
		"%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n",
		"%%MatrixMarket matrix coordinate pattern general\n0 0 0\n",
		"%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 4294967296 1\n",
		"%%matrixmarket MATRIX Coordinate Pattern General\n1 1 1\n1 1\n",
	}
	for i, s := range seeds {
		f.Add([]byte(s), uint8(i))
	}
	f.Fuzz(func(t *testing.T, data []byte, flags uint8) {
		fuzzRead(t, MatrixMarket, "fuzz.mtx", data, flags)
	})
}

func FuzzEdgeList(f *testing.F) {
	seeds := []string{
		"# c\n% c\n\n0 1\n1\t2\r\n  3 0  \n5 5",
		"# Nodes: 10 Edges: 2\n0 1\n2 2\n",
		"0 1 2\n",
		"4294967295 0\n",
		"4294967296 0\n",
		"1 2x\n",
		"",
		"\r\n\r\n",
	}
	for i, s := range seeds {
		f.Add([]byte(s), uint8(i))
	}
	f.Fuzz(func(t *testing.T, data []byte, flags uint8) {
		fuzzRead(t, EdgeList, "fuzz.el", data, flags)
	})
}

func FuzzWEL(f *testing.F) {
	seeds := []string{
		"0 1 5\n1\t0\t4294967295\r\n2 2 0",
		"# Nodes: 4\n0 1 1\n",
		"0 1\n",
		"0 1 -1\n",
		"0 1 +3\n",
		"0 1 1.5\n",
		"0 1 4294967296\n1 2 0.1\n2 0 -0\n",
		"# mgraph weights: float32\n0 1 2\n",
		"0 1 inf\n",
	}
	for i, s := range seeds {
		f.Add([]byte(s), uint8(i))
	}
	f.Fuzz(func(t *testing.T, data []byte, flags uint8) {
		fuzzRead(t, WeightedEdgeList, "fuzz.wel", data, flags)
	})
}

func FuzzDIMACS(f *testing.F) {
	seeds := []string{
		"c 9th DIMACS\np sp 4 3\nc x\na 1 2 10\n\na 3 1 0\r\na\t4\t4\t7",
		"p sp 3 1\na 0 1 1\n",
		"p sp 3 2\na 1 2 1\np sp 3 1\n",
		"a 1 2 3\n",
		"p sp 0 0\n",
		"p sp 2 1\na 2 2 -0\n",
		"c mgraph weights: float32\np sp 2 2\na 1 2 0.5\na 2 1 1e39\n",
	}
	for i, s := range seeds {
		f.Add([]byte(s), uint8(i))
	}
	f.Fuzz(func(t *testing.T, data []byte, flags uint8) {
		fuzzRead(t, DIMACS, "fuzz.gr", data, flags)
	})
}

func FuzzBinary(f *testing.F) {
	good := validBinary(f, true)
	f.Add(good)
	f.Add(validBinary(f, false))
	f.Add(validFloatBinary(f))
	f.Add(good[:70])
	f.Add(good[:64])
	bad := bytes.Clone(good)
	bad[100] ^= 1
	f.Add(bad)
	hugeN := bytes.Clone(good)
	hugeN[20] = 1
	f.Add(resign(hugeN))
	f.Add([]byte{})
	for _, s := range f2Seeds(good) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// Inputs starting with 'R' are re-signed after the 'R' is dropped,
		// so that mutations get past the checksums to the structural checks.
		if len(data) > 0 && data[0] == 'R' {
			data = resign(bytes.Clone(data[1:]))
		}
		g, err := ReadBinary(bytes.NewReader(data), "fuzz.mgb")
		el, _, err2 := Read(context.Background(), bytes.NewReader(data), "fuzz.mgb", ReadOptions{Format: Binary})
		if (err == nil) != (err2 == nil) {
			t.Fatalf("ReadBinary and Read disagree: %v vs %v", err, err2)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.mgb: ") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if err := g.Validate(); err != nil {
			t.Fatalf("invalid CSR: %v", err)
		}
		if err := el.Validate(); err != nil {
			t.Fatalf("invalid list: %v", err)
		}
		var buf bytes.Buffer
		if err := WriteBinary(&buf, g); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), data) {
			t.Fatalf("rewritten binary differs from a valid input")
		}
		checkRewrite(t, MatrixMarket, el, ReadOptions{Format: MatrixMarket})
	})
}

// f2Seeds returns re-signed ("R"-prefixed) seeds for FuzzBinary.
func f2Seeds(good []byte) [][]byte {
	var out [][]byte
	for _, mut := range []func(b []byte){
		func(b []byte) {},
		func(b []byte) { b[64+8*3] ^= 0xff },    // offsets
		func(b []byte) { b[len(b)-1] = 0xff },   // a weight
		func(b []byte) { b[12] = flagWeighted }, // directed but symmetric: fine
		func(b []byte) { b[12] = 0 },            // undirected, weights become trailing bytes
	} {
		b := bytes.Clone(good)
		mut(b)
		out = append(out, append([]byte{'R'}, b...))
	}
	return out
}
