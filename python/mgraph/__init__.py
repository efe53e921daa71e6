"""mgraph: GPU graph analytics (BFS and SSSP from one source or several,
connected components, PageRank and personalised PageRank, betweenness,
triangles, core numbers, colouring, maximal independent sets, HITS, SALSA,
who-to-follow) from Python, on NumPy arrays, SciPy matrices and NetworkX
graphs. It wraps the mgraph engine (Go and CUDA) through its C API."""

from ._lib import MgraphError
from .algorithms import (
    UNREACHED,
    betweenness_centrality,
    bfs,
    bfs_predecessors,
    connected_components,
    multi_source_dijkstra_path_length,
    pagerank,
    single_source_dijkstra_path_length,
    single_source_shortest_path_length,
    sssp,
)
from .graph import Graph, Stats
from .link_analysis import hits, salsa, who_to_follow
from .structure import color, core_number, maximal_independent_set, minimum_spanning_edges, triangle_count, triangles

__all__ = [
    "Graph",
    "MgraphError",
    "Stats",
    "UNREACHED",
    "betweenness_centrality",
    "bfs",
    "bfs_predecessors",
    "color",
    "connected_components",
    "core_number",
    "minimum_spanning_edges",
    "hits",
    "maximal_independent_set",
    "multi_source_dijkstra_path_length",
    "pagerank",
    "salsa",
    "single_source_dijkstra_path_length",
    "single_source_shortest_path_length",
    "sssp",
    "triangle_count",
    "triangles",
    "who_to_follow",
]
