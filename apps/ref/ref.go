// Package ref holds mgraph's serial reference implementations of the graph
// programs (BFS, SSSP, CC, PageRank, BC) and the checkers and comparison
// helpers used to validate every parallel CPU and GPU engine against them.
//
// The code here is meant to be obviously correct rather than fast: every
// algorithm is the textbook one, runs on one goroutine, and uses only
// iterative loops (no recursion), so a chain of millions of vertices is
// fine. Costs are O(V+E) for BFS, CC and one PageRank iteration,
// O((V+E) log V) for SSSP and O(V+E) per source for BC.
//
// All algorithms read the out-adjacency (graph.CSR) of the graph as given:
// for an undirected graph that CSR is symmetric (see graph.EdgeList), so
// "out-neighbour" and "neighbour" coincide. Duplicate arcs and self-loops are
// taken literally; call (*graph.EdgeList).Dedupe and DropSelfLoops first for
// simple-graph semantics (the CLI does so by default). Results are indexed by
// vertex ID.
//
// Every function panics if asked about a source vertex outside the graph,
// except the checkers and SSSP, which return an error.
package ref

import "math"

// Unreached is the BFS level (and BFS parent) of a vertex that the source
// cannot reach.
const Unreached uint32 = math.MaxUint32

// Infinity is the SSSP distance of a vertex that the source cannot reach.
const Infinity uint64 = math.MaxUint64
