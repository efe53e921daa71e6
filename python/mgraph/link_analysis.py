"""Link analysis written with the operators: HITS, SALSA and
who-to-follow (personalised PageRank is mgraph.pagerank's personalization).

Against NetworkX: scores are NumPy arrays indexed by vertex id rather than
dicts; hits iterates from uniform hubs and stops once an iteration changes
the hubs by less than tol in L1 (nx.hits computes the same principal
singular vectors with ARPACK, and its tol is ARPACK's). NetworkX has no
SALSA or who-to-follow."""

from __future__ import annotations

import ctypes
from typing import Callable, Tuple

import numpy as np
import numpy.typing as npt

from ._lib import LIB, check
from .algorithms import _DBL, _stats
from .graph import Graph, _u32

Scores = Tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]


def _hubs_authorities(g: Graph, call: Callable[..., int], max_iter: int, tol: float) -> Scores:
    hubs = np.empty(g.num_vertices, dtype=np.float64)
    auth = np.empty(g.num_vertices, dtype=np.float64)
    s = _stats()
    check(call(g._handle(), max_iter, tol, hubs.ctypes.data_as(_DBL), auth.ctypes.data_as(_DBL), s))
    g._stats(s)
    return hubs, auth


def hits(g: Graph, max_iter: int = 100, tol: float = 1e-8) -> Scores:
    """Kleinberg's (hubs, authorities), each summing to 1: authorities are
    the in-neighbours' hub scores summed, hubs the out-neighbours'
    authority scores, iterated from uniform hubs for at most max_iter
    iterations (> 0), stopping once the hubs change by less than tol in L1.
    Vertices outside the principal component score 0."""
    return _hubs_authorities(g, LIB.mgraph_hits, max_iter, tol)


def salsa(g: Graph, max_iter: int = 100, tol: float = 1e-8) -> Scores:
    """Lempel and Moran's (hubs, authorities): from hubs uniform over the
    vertices with out-arcs (authorities over those with in-arcs), each
    iteration sets a[v] = sum of h[u] / outdeg(u) over the arcs u -> v and
    h[u] = sum of a[v] / indeg(v) over them; at most max_iter iterations
    (> 0), stopping once both change by less than tol in L1. On a connected
    hub-authority graph they converge to outdeg / arcs and indeg / arcs."""
    return _hubs_authorities(g, LIB.mgraph_salsa, max_iter, tol)


def who_to_follow(g: Graph, user: int, *, top_k: int = 10, circle_size: int = 20, alpha: float = 0.85,
                  tol: float = 1e-4, max_iter: int = 100, salsa_max_iter: int = 100, salsa_tol: float = 1e-4
                  ) -> npt.NDArray[np.uint32]:
    """Accounts recommended to user on a follow graph (an arc u -> v: u
    follows v), best first, as Twitter's who-to-follow (and Gunrock's): the
    circle of trust is the circle_size vertices of highest PageRank
    personalised to user (alpha, tol, max_iter); SALSA (salsa_max_iter,
    salsa_tol) on the arcs leaving the circle scores the accounts they
    follow, and the top_k of them user does not follow yet are returned
    (ties to the smaller id)."""
    if top_k <= 0 or circle_size <= 0:
        raise ValueError(f"top_k and circle_size must be positive, got {top_k} and {circle_size}")
    out = np.empty(top_k, dtype=np.uint32)
    s = _stats()
    n = LIB.mgraph_who_to_follow(g._handle(), user, circle_size, top_k, alpha, tol, max_iter, salsa_max_iter,
                                 salsa_tol, _u32(out), out.size, s)
    check(n)
    g._stats(s)
    return out[:n]
