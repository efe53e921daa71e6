"""mgraph: GPU graph analytics (BFS, SSSP, connected components, PageRank,
betweenness) from Python, on NumPy arrays, SciPy matrices and NetworkX
graphs. It wraps the mgraph engine (Go and CUDA) through its C API."""

from ._lib import MgraphError
from .algorithms import (
    UNREACHED,
    betweenness_centrality,
    bfs,
    bfs_predecessors,
    connected_components,
    pagerank,
    single_source_dijkstra_path_length,
    single_source_shortest_path_length,
    sssp,
)
from .graph import Graph, Stats

__all__ = [
    "Graph",
    "MgraphError",
    "Stats",
    "UNREACHED",
    "betweenness_centrality",
    "bfs",
    "bfs_predecessors",
    "connected_components",
    "pagerank",
    "single_source_dijkstra_path_length",
    "single_source_shortest_path_length",
    "sssp",
]
