package gpu_test

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/mgraph-dev/mgraph/cpu"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/opscheck"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/mgraph-dev/mgraph/layout"
	"github.com/mgraph-dev/mgraph/ops"
	"github.com/stretchr/testify/require"
)

// TestOperatorAppsAllShapes runs every operator app with every
// load-balancing strategy on the GPU over the test shapes, validated
// against the serial references.
func TestOperatorAppsAllShapes(t *testing.T) {
	needGPU(t)
	for _, s := range testgraphs.Shapes(t, testgraphs.Small) {
		t.Run(s.Name, func(t *testing.T) {
			params := []layout.Params{testgraphs.SmallParams()}
			if s.EL.NumArcs() > 1000 {
				params = append(params, layout.DefaultParams())
			}
			for _, p := range params {
				weighted := s.EL.Clone()
				if !weighted.Weighted() {
					weighted.SetRandomWeights(9, 1, 64, 4)
				}
				sym := s.EL.Clone()
				sym.Symmetrize(4)
				wsym := weighted.Clone()
				wsym.Symmetrize(4)
				fweighted := s.EL.Clone()
				fweighted.SetRandomFloat32Weights(9, 4)
				b := opscheck.Backends{Fwd: gpuBackend(t, s.EL, p), Sym: gpuBackend(t, sym, p), Weighted: gpuBackend(t, weighted, p),
					SymWeighted: gpuBackend(t, wsym, p), Float32: gpuBackend(t, fweighted, p)}
				require.NoError(t, opscheck.Check(context.Background(), b))
			}
		})
	}
}

func gpuBackend(t *testing.T, el *graph.EdgeList, p layout.Params) *gpu.Backend {
	b, err := gpu.New(build(t, el, p), 4)
	require.NoError(t, err)
	t.Cleanup(func() { b.Close() })
	return b
}

// inSetTwin is the Go twin of MG_FN_IN_SET: arcs whose source is flagged.
type inSetTwin struct{ flags []uint8 }

func (f inSetTwin) Edge(src, _ uint32, _ uint64, _ uint32) bool { return f.flags[src] != 0 }

// equalsTwin is the Go twin of MG_FN_EQUALS.
type equalsTwin struct {
	x    []uint32
	want uint32
}

func (f equalsTwin) Vertex(v uint32) bool { return f.x[v] == f.want }

// opsPair is one layout's operator devices on the CPU and the GPU.
type opsPair struct {
	l        *layout.Layout
	cpu, gpu ops.Device
}

func newOpsPair(t *testing.T, el *graph.EdgeList) opsPair {
	l := build(t, el, testgraphs.SmallParams())
	cb, err := cpu.New(l, 4)
	require.NoError(t, err)
	gb, err := gpu.New(l, 4)
	require.NoError(t, err)
	t.Cleanup(func() { gb.Close() })
	cd, err := cb.OpsDevice()
	require.NoError(t, err)
	gd, err := gb.OpsDevice()
	require.NoError(t, err)
	t.Cleanup(func() { cd.Close(); gd.Close() })
	return opsPair{l: l, cpu: cd, gpu: gd}
}

// inSet returns MG_FN_IN_SET over flags on device d (its twin on the CPU).
func inSet(t *testing.T, d ops.Device, flags []uint8) *ops.Functor {
	a, err := ops.NewArray[uint8](d, len(flags))
	require.NoError(t, err)
	require.NoError(t, a.CopyIn(flags))
	t.Cleanup(func() { a.Close() })
	return &ops.Functor{Name: "in-set", ID: ops.FnInSet, Arrays: []ops.Mem{a.Mem()}, CPU: inSetTwin{a.Host()}}
}

func sortedElements(t *testing.T, f *ops.Frontier) []uint32 {
	e, err := f.Elements()
	require.NoError(t, err)
	slices.Sort(e)
	return e
}

// TestAdvanceMatchesCPU: every input form, output, culling and strategy
// of the GPU's advance gives the CPU device's elements (as multisets).
func TestAdvanceMatchesCPU(t *testing.T) {
	needGPU(t)
	el := testgraphs.Generated(t, "rmat:12:8", 3)
	el.Symmetrize(4)
	p := newOpsPair(t, el)
	n := int(p.l.NumVertices)
	flags := make([]uint8, n)
	for v := range flags {
		flags[v] = uint8(v % 3 % 2) // a third of the sources
	}
	var src []uint32
	for v := 0; v < n; v += 7 {
		src = append(src, uint32(v), uint32(v)) // with repeats
	}
	ctx := context.Background()
	for _, kind := range []string{"sparse", "dense", "all", "arcs"} {
		for _, out := range []ops.Output{ops.OutNone, ops.OutVertices, ops.OutArcs} {
			for _, unique := range []bool{false, true} {
				for _, denseOut := range []bool{false, true} {
					for _, st := range opscheck.Strategies {
						tag := fmt.Sprintf("%s/out %d/unique %v/dense %v/%s", kind, out, unique, denseOut, st)
						var got [2][]uint32
						for i, d := range []ops.Device{p.cpu, p.gpu} {
							var in *ops.Frontier
							var err error
							switch kind {
							case "sparse", "dense":
								in, err = ops.NewFrontier(d, ops.Vertices, n, kind == "dense")
								require.NoError(t, err)
								require.NoError(t, in.Set(src))
							case "arcs":
								in, err = ops.NewFrontier(d, ops.Arcs, int(p.l.NumArcs), false)
								require.NoError(t, err)
								var arcs []uint32
								for e := uint32(0); uint64(e) < p.l.NumArcs; e += 5 {
									arcs = append(arcs, e)
								}
								require.NoError(t, in.Set(arcs))
							}
							var o *ops.Frontier
							if out != ops.OutNone {
								k, u := ops.Vertices, n
								if out == ops.OutArcs {
									k, u = ops.Arcs, int(p.l.NumArcs)
								}
								o, err = ops.NewFrontier(d, k, u, denseOut)
								require.NoError(t, err)
							}
							st2, err := d.Advance(ctx, d.Out(), inSet(t, d, flags), in, o, ops.AdvanceOptions{Output: out, Strategy: st, Unique: unique})
							require.NoError(t, err, tag)
							if o != nil {
								got[i] = sortedElements(t, o)
								require.Equal(t, len(got[i]), st2.Output, tag)
							}
							in.Close()
							o.Close()
						}
						require.Equal(t, got[0], got[1], tag)
					}
				}
			}
		}
	}
}

// TestFilterAndConvertMatchCPU: the GPU's filter keeps the input's order
// (and first occurrences with culling), and conversions keep the
// elements.
func TestFilterAndConvertMatchCPU(t *testing.T) {
	needGPU(t)
	el := testgraphs.Generated(t, "rmat:10:8", 5)
	p := newOpsPair(t, el)
	n := int(p.l.NumVertices)
	vals := make([]uint32, n)
	for v := range vals {
		vals[v] = uint32(v % 4)
	}
	var list []uint32
	for v := n - 1; v >= 0; v -= 3 {
		list = append(list, uint32(v), uint32((v*7)%n))
	}
	ctx := context.Background()
	for _, unique := range []bool{false, true} {
		for _, dense := range []bool{false, true} {
			var got, ordered [2][]uint32
			for i, d := range []ops.Device{p.cpu, p.gpu} {
				x, err := ops.NewArray[uint32](d, n)
				require.NoError(t, err)
				require.NoError(t, x.CopyIn(vals))
				f := &ops.Functor{Name: "equals", ID: ops.FnEquals, Arrays: []ops.Mem{x.Mem()}, Ints: []uint64{1}, CPU: equalsTwin{x.Host(), 1}}
				in, err := ops.NewFrontier(d, ops.Vertices, n, false)
				require.NoError(t, err)
				require.NoError(t, in.Set(list))
				out, err := ops.NewFrontier(d, ops.Vertices, n, dense)
				require.NoError(t, err)
				require.NoError(t, d.Filter(ctx, f, in, out, ops.FilterOptions{Unique: unique}))
				if !dense && !unique {
					ordered[i], err = out.Elements()
					require.NoError(t, err)
				}
				require.NoError(t, d.Convert(out, !dense))
				require.NoError(t, d.Convert(out, dense))
				got[i] = sortedElements(t, out)
				x.Close()
				in.Close()
				out.Close()
			}
			require.Equal(t, got[0], got[1], "unique %v dense %v", unique, dense)
			require.Equal(t, ordered[0], ordered[1], "order of a plain filter")
		}
	}
}

// TestOperatorAppsOnDatasets runs every operator app on the shared
// datasets (Gunrock's rule picking the load balancing).
func TestOperatorAppsOnDatasets(t *testing.T) {
	onDatasets(t, func(t *testing.T, el *graph.EdgeList, p layout.Params, _ ...gpu.Option) {
		weighted := el.Clone()
		if !weighted.Weighted() {
			weighted.SetRandomWeights(9, 1, 64, 4)
		}
		sym, wsym := el.Clone(), weighted.Clone()
		sym.Symmetrize(4)
		wsym.Symmetrize(4)
		b := opscheck.Backends{Fwd: gpuBackend(t, el, p), Sym: gpuBackend(t, sym, p), Weighted: gpuBackend(t, weighted, p),
			SymWeighted: gpuBackend(t, wsym, p)}
		require.NoError(t, opscheck.Check(context.Background(), b, ops.Auto))
	})
}

// bfsTwin is the Go twin of MG_FN_BFS (apps' own is unexported).
type bfsTwin struct {
	level []uint32
	depth uint32
}

func (f bfsTwin) Edge(_, dst uint32, _ uint64, _ uint32) bool {
	return atomic.CompareAndSwapUint32(&f.level[dst], ^uint32(0), f.depth+1)
}

func (f bfsTwin) Vertex(v uint32) bool { return atomic.LoadUint32(&f.level[v]) == ^uint32(0) }

// TestPullMatchesCPU: the GPU's pull advance (every input form, first or
// every arc, sparse or dense output, directed and undirected graphs)
// claims the CPU's vertices, and a GPU result comes back through the
// backend's pinned buffer (Result) equal to Original's copy.
func TestPullMatchesCPU(t *testing.T) {
	needGPU(t)
	el := testgraphs.Generated(t, "rmat:12:8", 3)
	sym := el.Clone()
	sym.Symmetrize(4)
	ctx := context.Background()
	for name, g := range map[string]*graph.EdgeList{"directed": el, "undirected": sym} {
		p := newOpsPair(t, g)
		n := int(p.l.NumVertices)
		level := make([]uint32, n)
		var src []uint32
		for v := range level {
			level[v] = ^uint32(0)
			if v%5 == 0 {
				level[v] = 2
				src = append(src, uint32(v))
			}
		}
		for _, form := range []string{"sparse", "dense", "all"} {
			for _, first := range []bool{false, true} {
				for _, denseOut := range []bool{false, true} {
					tag := fmt.Sprintf("%s/%s/first %v/dense out %v", name, form, first, denseOut)
					var got, levels [2][]uint32
					for i, d := range []ops.Device{p.cpu, p.gpu} {
						a, err := ops.NewArray[uint32](d, n)
						require.NoError(t, err)
						require.NoError(t, a.CopyIn(level))
						f := &ops.Functor{Name: "bfs", ID: ops.FnBFS, Arrays: []ops.Mem{a.Mem()}, Ints: []uint64{2},
							CPU: bfsTwin{level: a.Host(), depth: 2}}
						var in *ops.Frontier
						if form != "all" {
							in, err = ops.NewFrontier(d, ops.Vertices, n, form == "dense")
							require.NoError(t, err)
							require.NoError(t, in.Set(src))
						}
						out, err := ops.NewFrontier(d, ops.Vertices, n, denseOut)
						require.NoError(t, err)
						st, err := d.Advance(ctx, d.Out(), f, in, out,
							ops.AdvanceOptions{Output: ops.OutVertices, Direction: ops.Pull, First: first})
						require.NoError(t, err, tag)
						require.Equal(t, ops.Pull, st.Direction, tag)
						got[i] = sortedElements(t, out)
						require.Equal(t, len(got[i]), st.Output, tag)
						levels[i], err = a.Original()
						require.NoError(t, err, tag)
						res, err := a.Result()
						require.NoError(t, err, tag)
						require.Equal(t, levels[i], res, tag)
						in.Close()
						out.Close()
						a.Close()
					}
					require.Equal(t, got[0], got[1], tag)
					require.Equal(t, levels[0], levels[1], tag)
					require.NotEmpty(t, got[0], tag)
				}
			}
		}
	}
}
