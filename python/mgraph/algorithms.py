"""The apps, NetworkX-style: a function of a Graph returning NumPy arrays
indexed by vertex id.

Where NetworkX has the function the name and conventions follow it, with
these differences: results are arrays, not dicts; unreached vertices get
UNREACHED (np.inf in sssp's float32 distances) rather than being left out;
a graph of float32 weights (float weights given to from_edges, from_scipy
or from_networkx, float64 ones rounded to float32) gets float32 sssp
distances, summed in float32 along each path (NetworkX sums float64s:
they agree to about 6e-8 relative per arc of a path); bfs and sssp also take several
sources (cuGraph's bfs(start=[...])), giving each vertex its distance to
the nearest; PageRank ignores weights (nx.pagerank
weighs arcs by their "weight" attribute by default: pass weight=None to
compare), spreads the rank of vertices without out-arcs over all vertices
(as nx.pagerank does by default; with a personalization, over its
vertices, as nx.pagerank does too) and stops at an L1 change below tol
(NetworkX scales its tolerance by n); a personalization is uniform over
its vertices (NetworkX weighs them);
betweenness is unnormalised and summed over the given sources (NetworkX's
betweenness_centrality(normalized=False) halves it on undirected graphs)."""

from __future__ import annotations

import ctypes
from typing import Iterable, Mapping, Optional, Union

import numpy as np
import numpy.typing as npt

from ._host import host_array
from ._lib import LIB, check
from .graph import Graph, _f32, _u32

#: The level or distance of a vertex the source does not reach.
UNREACHED = np.uint32(0xFFFFFFFF)

_DBL = ctypes.POINTER(ctypes.c_double)

#: PageRank's personalization: vertex ids, or a dict of vertex to weight.
Personalization = Union[Mapping[int, float], Iterable[int]]

#: A traversal's start: a vertex id, or several (any iterable of ids).
Sources = Union[int, Iterable[int]]


def _stats() -> "ctypes.Array[ctypes.c_double]":
    return (ctypes.c_double * 3)()


def _result(g: Graph, out: Optional[np.ndarray], dtype: type) -> np.ndarray:
    """The array a result goes into: out when given (checked: one element
    per vertex, of dtype, C-contiguous and writable; reusing it across calls
    saves allocating and first-touching a new array), else a new one: on the
    cuda backend in the engine's page-locked memory, which the device fills
    directly (passing such an array as out later does too)."""
    if out is None:
        if g.backend == "cuda" and g.num_vertices > 0:
            return host_array(g._handle(), g.num_vertices, dtype)
        return np.empty(g.num_vertices, dtype=dtype)
    if out.dtype != dtype or out.shape != (g.num_vertices,) or not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError(f"out must be a writable, contiguous {np.dtype(dtype).name} array of shape ({g.num_vertices},), "
                         f"got {out.dtype} {out.shape}")
    return out


def _labels(g: Graph, call, *args, out: Optional[np.ndarray] = None) -> npt.NDArray[np.uint32]:
    """Run a C API call that fills one uint32 per vertex."""
    out = _result(g, out, np.uint32)
    s = _stats()
    check(call(g._handle(), *args, _u32(out), s))
    g._stats(s)
    return out


def _depth(depth_limit: Optional[int]) -> int:
    """The C API's depth limit (0: none), checked."""
    if depth_limit is None:
        return 0
    if depth_limit <= 0:
        raise ValueError(f"depth_limit must be a positive number of levels, got {depth_limit}")
    return int(depth_limit)


def _source_ids(sources: Iterable[int]) -> npt.NDArray[np.uint32]:
    """Several sources' vertex ids, checked (at least one; ids, not
    negative); repeats are allowed."""
    ids = np.asarray(sources if isinstance(sources, np.ndarray) else list(sources))
    if ids.ndim != 1 or ids.size == 0:
        raise ValueError(f"sources must be a non-empty sequence of vertex ids, got shape {ids.shape}")
    if ids.dtype.kind not in "iu":
        raise TypeError(f"sources must be vertex ids (integers), got {ids.dtype}")
    if ids.min() < 0 or ids.max() > 0xFFFFFFFF:
        bad = ids.min() if ids.min() < 0 else ids.max()
        raise ValueError(f"source {bad} is not a vertex id")
    return np.ascontiguousarray(ids, dtype=np.uint32)


def _one_or_many(source: Sources) -> Union[int, npt.NDArray[np.uint32]]:
    """source as one vertex id (an integer, or a sequence of one), or as
    several sources' ids."""
    if isinstance(source, (int, np.integer)):
        return int(source)
    ids = _source_ids(source)
    return int(ids[0]) if ids.size == 1 else ids


def bfs(g: Graph, source: Sources, out: Optional[np.ndarray] = None, depth_limit: Optional[int] = None
        ) -> npt.NDArray[np.uint32]:
    """Hop distance of every vertex from source (UNREACHED where none, and
    beyond depth_limit levels when given, as NetworkX's depth_limit), into
    out when given. source may be several vertices (a sequence of ids, as
    cuGraph's bfs(start=[...])): every vertex then gets its distance to
    the nearest of them, from the multi-source BFS written with the
    operators, which takes no depth_limit."""
    src = _one_or_many(source)
    if isinstance(src, int):
        return _labels(g, LIB.mgraph_bfs, src, _depth(depth_limit), out=out)
    if depth_limit is not None:
        raise ValueError(f"depth_limit is for one source: the multi-source BFS ({src.size} sources) has none")
    return _labels(g, LIB.mgraph_multi_source_bfs, _u32(src), src.size, out=out)


def bfs_predecessors(g: Graph, source: int, out: Optional[np.ndarray] = None, depth_limit: Optional[int] = None
                     ) -> npt.NDArray[np.uint32]:
    """The BFS tree from source as every vertex's parent (GAPBS's BFS
    result, cuGraph's predecessors): source's parent is source, an unreached
    vertex's UNREACHED, a reached vertex's a vertex one level up with an arc
    to it (the same one on either backend). NetworkX's bfs_predecessors
    yields (vertex, parent) pairs instead, without the source. depth_limit
    as for bfs. Into out when given."""
    return _labels(g, LIB.mgraph_bfs_parents, source, _depth(depth_limit), out=out)


def single_source_shortest_path_length(g: Graph, source: int, cutoff: Optional[int] = None
                                       ) -> npt.NDArray[np.uint32]:
    """BFS levels, under NetworkX's name (an array, not a dict); cutoff is
    the depth limit."""
    return bfs(g, source, depth_limit=cutoff)


def _float_distances(g: Graph, call, *args, out: Optional[np.ndarray] = None) -> npt.NDArray[np.float32]:
    """Run a C API call that fills one float32 per vertex."""
    out = _result(g, out, np.float32)
    s = _stats()
    check(call(g._handle(), *args, _f32(out), s))
    g._stats(s)
    return out


def sssp(g: Graph, source: Sources, out: Optional[np.ndarray] = None) -> npt.NDArray:
    """Shortest-path distance of every vertex from source, into out when
    given; the graph must be weighted. Over uint32 weights the distances
    are uint32 (UNREACHED where none); over float32 weights
    (g.weight_type == "float32") they are float32, np.inf where none (and
    where every path's float32 sum passes 3.4e38), each the least over the
    paths of the path's float32 sum in path order, on every backend. source
    may be several vertices (a sequence of ids): every vertex then gets its
    distance to the nearest of them, from the multi-source SSSP written
    with the operators."""
    src = _one_or_many(source)
    if g.weight_type == "float32":
        if isinstance(src, int):
            return _float_distances(g, LIB.mgraph_sssp_f32, src, out=out)
        return _float_distances(g, LIB.mgraph_multi_source_sssp_f32, _u32(src), src.size, out=out)
    if isinstance(src, int):
        return _labels(g, LIB.mgraph_sssp, src, out=out)
    return _labels(g, LIB.mgraph_multi_source_sssp, _u32(src), src.size, out=out)


def single_source_dijkstra_path_length(g: Graph, source: int) -> npt.NDArray:
    """SSSP distances, under NetworkX's name (an array, not a dict)."""
    return sssp(g, source)


def multi_source_dijkstra_path_length(g: Graph, sources: Iterable[int]) -> npt.NDArray:
    """Every vertex's distance to the nearest of sources (a non-empty
    sequence of ids, repeats allowed), under NetworkX's name (an array, not
    a dict; UNREACHED, or np.inf for float32 weights, where no source
    reaches; no cutoff); the graph must be weighted. Always the
    multi-source SSSP written with the operators, even from one source."""
    src = _source_ids(sources)
    if g.weight_type == "float32":
        return _float_distances(g, LIB.mgraph_multi_source_sssp_f32, _u32(src), src.size)
    return _labels(g, LIB.mgraph_multi_source_sssp, _u32(src), src.size)


def connected_components(g: Graph, out: Optional[np.ndarray] = None) -> npt.NDArray[np.uint32]:
    """Every vertex's component, named by the smallest vertex id in it
    (NetworkX yields sets of nodes instead), into out when given; the graph
    must be undirected."""
    return _labels(g, LIB.mgraph_cc, out=out)


def pagerank(g: Graph, alpha: float = 0.85, tol: float = 1e-4, max_iter: int = 20, out: Optional[np.ndarray] = None,
             *, personalization: Optional[Personalization] = None) -> npt.NDArray[np.float64]:
    """PageRank with damping alpha; ranks sum to 1. Stops once an
    iteration changes the ranks by less than tol in L1, or after max_iter.
    personalization, when given, is the vertices the random surfer jumps
    to (and the rank of vertices without out-arcs goes to), uniformly:
    their ids, or NetworkX's dict of vertex to weight, whose non-zero
    weights must all be equal. Into out when given."""
    out = _result(g, out, np.float64)
    s = _stats()
    if personalization is None:
        check(LIB.mgraph_pagerank(g._handle(), alpha, tol, max_iter, out.ctypes.data_as(_DBL), s))
    else:
        src = _sources(personalization)
        check(LIB.mgraph_ppr(g._handle(), _u32(src), src.size, alpha, tol, max_iter, out.ctypes.data_as(_DBL), s))
    g._stats(s)
    return out


def _sources(personalization: Personalization) -> npt.NDArray[np.uint32]:
    """The personalised PageRank's sources, checked."""
    if isinstance(personalization, Mapping):
        weights = {int(v): float(w) for v, w in personalization.items()}
        if any(w < 0 for w in weights.values()):
            raise ValueError("personalization weights must be non-negative")
        nonzero = {w for w in weights.values() if w != 0}
        if len(nonzero) > 1:
            raise ValueError("mgraph's personalization is uniform over its vertices: "
                             f"give them equal weights (got {sorted(nonzero)})")
        ids = [v for v, w in weights.items() if w != 0]
    else:
        ids = [int(v) for v in personalization]
    if not ids:
        raise ValueError("personalization needs at least one vertex (of non-zero weight)")
    if min(ids) < 0:
        raise ValueError(f"vertex {min(ids)} in personalization")
    return np.ascontiguousarray(ids, dtype=np.uint32)


def betweenness_centrality(g: Graph, sources: Optional[Iterable[int]] = None,
                           out: Optional[np.ndarray] = None) -> npt.NDArray[np.float64]:
    """Brandes' betweenness summed over the paths from sources (all
    vertices when None), unnormalised; on an undirected graph each pair
    counts once per direction (twice NetworkX's normalized=False value).
    Into out when given."""
    src = np.arange(g.num_vertices, dtype=np.uint32) if sources is None else np.ascontiguousarray(
        list(sources), dtype=np.uint32)
    out = _result(g, out, np.float64)
    s = _stats()
    check(LIB.mgraph_bc(g._handle(), _u32(src), src.size, out.ctypes.data_as(_DBL), s))
    g._stats(s)
    return out
