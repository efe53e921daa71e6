// Package partition is the hardware-independent core of mgraph's multi-GPU
// execution (Gunrock's multi-GPU design, ../shared/papers/gunrock-multigpu.txt
// §3–4): partitioners that assign every vertex to one part (one GPU), the
// split of a graph into parts with local numbering and ghost copies of
// remote vertices, and a bulk-synchronous executor that runs a min program
// (BFS, SSSP, CC) over one engine.Backend per part, exchanging the updated
// ghost values after every iteration through an Exchanger.
//
// The pieces, in the order a run uses them:
//
//   - Assign picks an owner part for every vertex (Random, Static, BRP,
//     Balanced; see Method).
//   - Split cuts the graph into Parts: each holds the arcs whose source it
//     owns, relabelled locally (owned vertices first, then ghosts), with the
//     conversion tables between local, remote and original ids.
//   - BuildLayouts (or preprocess.Build on each Part.EL) makes one dual
//     layout per part; a backend is created over each.
//   - Run executes the supersteps: every part runs one iteration of the
//     program on its backend, in parallel; the ghosts whose value went down
//     are packaged to their owners, exchanged, and min-combined there; the
//     run stops when an all-reduce of the next frontiers' sizes is zero.
//   - RunPageRank runs PageRank over the same parts: every iteration each
//     part sums its vertices' local in-neighbours' shares, sends every
//     ghost's sum to its owner, applies its owned ranks, and an all-reduce
//     adds Σ|Δr| and the dangling rank (RankPart, RankExchanger).
//   - RunBC runs Brandes' betweenness centrality over the same parts, a
//     collective step per forward and per backward level of every source
//     (BCPart, BCExchanger).
//
// Everything here runs on CPU backends, in memory; package gpu implements
// DeviceExchanger, RankExchanger and BCExchanger, which keep a run on the
// GPUs (NCCL or peer copies between them).
package partition
