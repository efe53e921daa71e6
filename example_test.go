package mgraph_test

import (
	"cmp"
	"context"
	"fmt"
	"log"
	"slices"

	"github.com/mgraph-dev/mgraph"
)

// A path 0 - 1 - 2 - 3 and a separate edge 4 - 5, undirected, weighted.
func smallGraph() *mgraph.Graph {
	src := []uint32{0, 1, 2, 4}
	dst := []uint32{1, 2, 3, 5}
	weights := []uint32{3, 1, 7, 2}
	g, err := mgraph.FromEdges(context.Background(), 6, src, dst, weights, false, mgraph.Options{Backend: mgraph.CPU})
	if err != nil {
		log.Fatal(err)
	}
	return g
}

func ExampleGraph_BFS() {
	g := smallGraph()
	defer g.Close()
	levels, _, err := g.BFS(context.Background(), 0)
	if err != nil {
		log.Fatal(err)
	}
	for v, l := range levels {
		if l == mgraph.Unreached {
			fmt.Printf("%d: unreached\n", v)
		} else {
			fmt.Printf("%d: %d\n", v, l)
		}
	}
	// Output:
	// 0: 0
	// 1: 1
	// 2: 2
	// 3: 3
	// 4: unreached
	// 5: unreached
}

func ExampleGraph_BFSParents() {
	g := smallGraph()
	defer g.Close()
	parents, _, err := g.BFSParents(context.Background(), 1)
	if err != nil {
		log.Fatal(err)
	}
	for v, p := range parents {
		if p == mgraph.Unreached {
			fmt.Printf("%d: none\n", v)
		} else {
			fmt.Printf("%d: %d\n", v, p)
		}
	}
	// Output:
	// 0: 1
	// 1: 1
	// 2: 1
	// 3: 2
	// 4: none
	// 5: none
}

func ExampleGraph_SSSP() {
	g := smallGraph()
	defer g.Close()
	dist, _, err := g.SSSP(context.Background(), 0)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(dist[:4])
	// Output: [0 3 4 11]
}

func ExampleGraph_ConnectedComponents() {
	g := smallGraph()
	defer g.Close()
	labels, _, err := g.ConnectedComponents(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(labels)
	// Output: [0 0 0 0 4 4]
}

func ExampleGraph_PageRank() {
	g := smallGraph()
	defer g.Close()
	ranks, _, err := g.PageRank(context.Background(), mgraph.PageRankOptions{Tolerance: 1e-9, MaxIterations: 100})
	if err != nil {
		log.Fatal(err)
	}
	var sum float64
	for _, r := range ranks {
		sum += r
	}
	fmt.Printf("ranks sum to %.6f; the path's inner vertices rank highest: %v\n", sum, ranks[1] > ranks[0] && ranks[2] > ranks[3])
	// Output: ranks sum to 1.000000; the path's inner vertices rank highest: true
}

func ExampleGraph_BetweennessCentrality() {
	g := smallGraph()
	defer g.Close()
	bc, _, err := g.BetweennessCentrality(context.Background(), []uint32{0, 1, 2, 3})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(bc[:4])
	// Output: [0 4 4 0]
}

func ExampleLoad() {
	ctx := context.Background()
	// Mode hybrid: one synchronous iteration per BFS level (the default,
	// auto, hands a long run like this one over to async).
	g, err := mgraph.Load(ctx, "grid:16", mgraph.Options{Backend: mgraph.CPU, Undirected: true, Mode: "hybrid"})
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	levels, stats, err := g.BFS(ctx, 0)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.NumVertices(), "vertices; the far corner is", levels[g.NumVertices()-1], "hops away;", stats.Iterations, "iterations")
	// Output: 256 vertices; the far corner is 30 hops away; 31 iterations
}

// Two triangles sharing the edge 1 - 2, and a pendant vertex 4 on 3.
func triangleGraph() *mgraph.Graph {
	src := []uint32{0, 0, 1, 1, 2, 3}
	dst := []uint32{1, 2, 2, 3, 3, 4}
	g, err := mgraph.FromEdges(context.Background(), 5, src, dst, nil, false, mgraph.Options{Backend: mgraph.CPU})
	if err != nil {
		log.Fatal(err)
	}
	return g
}

func ExampleGraph_Triangles() {
	g := triangleGraph()
	defer g.Close()
	total, perVertex, _, err := g.Triangles(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(total, perVertex)
	// Output: 2 [1 2 2 1 0]
}

func ExampleGraph_TriangleCount() {
	g := triangleGraph()
	defer g.Close()
	total, _, err := g.TriangleCount(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(total)
	// Output: 2
}

func ExampleGraph_CoreNumbers() {
	g := triangleGraph()
	defer g.Close()
	core, _, err := g.CoreNumbers(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(core)
	// Output: [2 2 2 2 1]
}

func ExampleGraph_MultiSourceBFS() {
	g := triangleGraph() // 0-1, 0-2, 1-2, 1-3, 2-3, 3-4
	defer g.Close()
	levels, _, err := g.MultiSourceBFS(context.Background(), []uint32{0, 4})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(levels)
	// Output: [0 1 1 1 0]
}

func ExampleGraph_MinimumSpanningForest() {
	src := []uint32{0, 0, 1, 1, 2, 3}
	dst := []uint32{1, 2, 2, 3, 3, 4}
	w := []uint32{4, 1, 2, 5, 8, 3}
	g, err := mgraph.FromEdges(context.Background(), 5, src, dst, w, false, mgraph.Options{Backend: mgraph.CPU})
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	weight, edges, _, err := g.MinimumSpanningForest(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	slices.SortFunc(edges, func(a, b mgraph.Edge) int { return cmp.Compare(a.W, b.W) })
	fmt.Println(weight, edges)
	// Output: 11 [{0 2 1} {1 2 2} {3 4 3} {1 3 5}]
}

func ExampleGraph_Color() {
	g := triangleGraph()
	defer g.Close()
	colors, _, err := g.Color(context.Background(), 3)
	if err != nil {
		log.Fatal(err)
	}
	proper := true
	for _, e := range [][2]int{{0, 1}, {0, 2}, {1, 2}, {1, 3}, {2, 3}, {3, 4}} {
		proper = proper && colors[e[0]] != colors[e[1]]
	}
	fmt.Println(colors, "proper:", proper)
	// Output: [2 0 1 2 0] proper: true
}

func ExampleGraph_MaximalIndependentSet() {
	g := smallGraph()
	defer g.Close()
	in, _, err := g.MaximalIndependentSet(context.Background(), 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(in)
	// Output: [true false true false true false]
}

func ExampleGraph_PersonalizedPageRank() {
	g := smallGraph()
	defer g.Close()
	ranks, _, err := g.PersonalizedPageRank(context.Background(), []uint32{0}, mgraph.PageRankOptions{Tolerance: 1e-12, MaxIterations: 200})
	if err != nil {
		log.Fatal(err)
	}
	for v, r := range ranks {
		fmt.Printf("%d: %.4f\n", v, r)
	}
	// Output:
	// 0: 0.3022
	// 1: 0.3582
	// 2: 0.2383
	// 3: 0.1013
	// 4: 0.0000
	// 5: 0.0000
}

func ExampleGraph_HITS() {
	ctx := context.Background()
	// 0 and 1 both point at 2 and 3; 2 points at 3.
	g, err := mgraph.FromEdges(ctx, 4, []uint32{0, 0, 1, 1, 2}, []uint32{2, 3, 2, 3, 3}, nil, true, mgraph.Options{Backend: mgraph.CPU})
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	hubs, authorities, _, err := g.HITS(ctx, 100, 1e-12)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("hubs %.4f\nauthorities %.4f\n", hubs, authorities)
	// Output:
	// hubs [0.3904 0.3904 0.2192 0.0000]
	// authorities [0.0000 0.0000 0.4384 0.5616]
}

func ExampleGraph_SALSA() {
	ctx := context.Background()
	// The graph of ExampleGraph_HITS.
	g, err := mgraph.FromEdges(ctx, 4, []uint32{0, 0, 1, 1, 2}, []uint32{2, 3, 2, 3, 3}, nil, true, mgraph.Options{Backend: mgraph.CPU})
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	hubs, authorities, _, err := g.SALSA(ctx, 100, 1e-12)
	if err != nil {
		log.Fatal(err)
	}
	// On a connected hub-authority graph SALSA's scores are the degrees
	// over the arcs.
	fmt.Printf("hubs %.4f\nauthorities %.4f\n", hubs, authorities)
	// Output:
	// hubs [0.4000 0.4000 0.2000 0.0000]
	// authorities [0.0000 0.0000 0.4000 0.6000]
}

func ExampleGraph_WhoToFollow() {
	ctx := context.Background()
	// A follow graph: 0 follows 1 and 2, who both follow 3 and 4; 2 also
	// follows 5.
	src := []uint32{0, 0, 1, 1, 2, 2, 2}
	dst := []uint32{1, 2, 3, 4, 3, 4, 5}
	g, err := mgraph.FromEdges(ctx, 6, src, dst, nil, true, mgraph.Options{Backend: mgraph.CPU})
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	rec, _, err := g.WhoToFollow(ctx, 0, mgraph.WTFOptions{TopK: 3})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rec)
	// Output: [3 4 5]
}
