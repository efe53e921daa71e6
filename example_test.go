package mgraph_test

import (
	"context"
	"fmt"
	"log"

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
	g, err := mgraph.Load(ctx, "grid:16", mgraph.Options{Backend: mgraph.CPU, Undirected: true})
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
