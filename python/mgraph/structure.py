"""The structure apps written with the operators: triangles, core numbers,
colouring and maximal independent sets. They need an undirected graph (a
directed one raises MgraphError) and ignore self-loops and parallel edges.

Against NetworkX: results are NumPy arrays indexed by vertex id rather
than dicts (triangles, core_number, color); maximal_independent_set returns
the set's vertex ids in an array (NetworkX: a list of nodes), in ascending
order; core_number accepts self-loops (nx.core_number refuses them)."""

from __future__ import annotations

import ctypes
import random
from typing import Optional

import numpy as np
import numpy.typing as npt

from ._lib import LIB, check
from .algorithms import _stats
from .graph import Graph, _u32

_U64 = ctypes.POINTER(ctypes.c_uint64)
_U8 = ctypes.POINTER(ctypes.c_uint8)


def _seed(seed: Optional[int]) -> int:
    """The engine's uint64 seed: seed when given, else a random one (as
    NetworkX's seed=None)."""
    if seed is None:
        return random.getrandbits(64)
    if not 0 <= seed < 1 << 64:
        raise ValueError(f"seed must be in [0, 2**64), got {seed}")
    return int(seed)


def triangles(g: Graph) -> npt.NDArray[np.uint64]:
    """Every vertex's number of triangles (nx.triangles, as an array); each
    triangle counts at its three corners, so the sum is three times
    triangle_count(g)."""
    out = np.empty(g.num_vertices, dtype=np.uint64)
    total = ctypes.c_uint64()
    s = _stats()
    check(LIB.mgraph_triangles(g._handle(), ctypes.byref(total), out.ctypes.data_as(_U64), s))
    g._stats(s)
    return out


def triangle_count(g: Graph) -> int:
    """The number of triangles, each counted once (sum(nx.triangles(G).values())
    // 3), cheaper than triangles(g)."""
    total = ctypes.c_uint64()
    s = _stats()
    check(LIB.mgraph_triangles(g._handle(), ctypes.byref(total), None, s))
    g._stats(s)
    return int(total.value)


def core_number(g: Graph) -> npt.NDArray[np.uint32]:
    """Every vertex's core number: the largest k such that the vertex is in
    the k-core (nx.core_number, as an array)."""
    out = np.empty(g.num_vertices, dtype=np.uint32)
    s = _stats()
    check(LIB.mgraph_core_number(g._handle(), _u32(out), s))
    g._stats(s)
    return out


def color(g: Graph, seed: Optional[int] = None) -> npt.NDArray[np.uint32]:
    """A proper vertex colouring, every vertex's colour (0, 1, ...) in an
    array, by Jones and Plassmann's parallel greedy rule with random
    priorities from seed (random when None): each round the uncoloured
    vertices whose priority beats their uncoloured neighbours' take the
    smallest colour no neighbour has. A vertex's colour is at most its
    degree (at most max degree + 1 colours). Not named greedy_color: that
    takes NetworkX's ordering strategies (largest_first by default), which
    a parallel colouring does not follow."""
    out = np.empty(g.num_vertices, dtype=np.uint32)
    s = _stats()
    check(LIB.mgraph_color(g._handle(), _seed(seed), _u32(out), s))
    g._stats(s)
    return out


def maximal_independent_set(g: Graph, seed: Optional[int] = None) -> npt.NDArray[np.uint32]:
    """A maximal independent set (no two members adjacent, every other
    vertex adjacent to one) by Luby's algorithm with random priorities from
    seed (random when None), as the members' ids in ascending order.
    NetworkX's nodes= (vertices the set must contain) is not offered."""
    flags = np.empty(g.num_vertices, dtype=np.uint8)
    s = _stats()
    check(LIB.mgraph_mis(g._handle(), _seed(seed), flags.ctypes.data_as(_U8), s))
    g._stats(s)
    return np.flatnonzero(flags).astype(np.uint32)


def minimum_spanning_edges(g: Graph) -> tuple[npt.NDArray[np.uint32], int]:
    """A minimum spanning forest of an undirected graph (Borůvka;
    self-loops ignored, an unweighted graph's edges weigh 1): its edges as
    an array of rows (u, v, weight), u < v, in no particular order, and its
    total weight. NetworkX's minimum_spanning_edges yields (u, v, data)
    tuples instead; with tied weights the two may pick different forests
    of the same weight."""
    n = g.num_vertices
    u = np.empty(n, dtype=np.uint32)
    v = np.empty(n, dtype=np.uint32)
    w = np.empty(n, dtype=np.uint32)
    total = ctypes.c_uint64()
    s = _stats()
    k = LIB.mgraph_msf(g._handle(), _u32(u), _u32(v), _u32(w), n, ctypes.byref(total), s)
    check(k)
    g._stats(s)
    return np.stack([u[:k], v[:k], w[:k]], axis=1), int(total.value)
