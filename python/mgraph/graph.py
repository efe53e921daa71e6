"""Graphs: loaded from files or generator specs, or built from NumPy arrays,
SciPy sparse matrices and NetworkX graphs."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np
import numpy.typing as npt

from ._lib import LIB, MgraphError, check, last_error

_U32 = ctypes.POINTER(ctypes.c_uint32)
_F32 = ctypes.POINTER(ctypes.c_float)

#: The weight types a graph may have (Graph.weight_type).
WEIGHT_TYPES = ("uint32", "float32")


def _u32(a: npt.NDArray[np.uint32]) -> Any:
    return a.ctypes.data_as(_U32)


def _f32(a: npt.NDArray[np.float32]) -> Any:
    return a.ctypes.data_as(_F32)


def _weight_type(weight_type: Optional[str]) -> Optional[str]:
    """A weight_type argument, checked: None or "auto" (None), "uint32" or
    "float32"."""
    if weight_type in (None, "auto"):
        return None
    if weight_type not in WEIGHT_TYPES:
        raise ValueError(f"weight_type must be 'uint32', 'float32' or None, got {weight_type!r}")
    return weight_type


@dataclass(frozen=True)
class Stats:
    """One run's times in seconds: the call to the result in host memory
    (trial), the iterations (engine) and the result's mapping and copy."""

    trial: float
    engine: float
    copy: float


class Graph:
    """A graph prepared for analysis by the mgraph engine (on the GPU when
    there is one). Vertex ids are 0..num_vertices-1; results are NumPy
    arrays indexed by them. Close it (or use it as a context manager) to free
    device memory."""

    def __init__(self, handle: int) -> None:
        if handle <= 0:
            raise MgraphError(last_error())
        self._h = handle
        info = (ctypes.c_int64 * 5)()
        check(LIB.mgraph_info(handle, info))
        self.num_vertices = int(info[0])
        self.num_arcs = int(info[1])
        self.directed = bool(info[2])
        self.weighted = bool(info[3])
        self.backend = "cuda" if info[4] else "cpu"
        kind = LIB.mgraph_weight_type(handle)
        check(kind)
        #: "uint32" or "float32" for a weighted graph (sssp's distances are
        #: of that type), None for an unweighted one.
        self.weight_type: Optional[str] = {0: None, 1: "uint32", 2: "float32"}[kind]
        self.last_stats: Optional[Stats] = None

    # --- construction -------------------------------------------------

    @classmethod
    def load(cls, path: str, *, undirected: bool = False, weights_seed: Optional[int] = None,
             backend: str = "", threads: int = 0, cache_dir: Optional[str] = None,
             weight_type: Optional[str] = None) -> "Graph":
        """A graph file (.mtx, .el, .wel, .gr, .mgb, .sg, .wsg; .gz/.zst) or a
        generator spec ("rmat:20", "grid:1024"). weights_seed gives an
        unweighted graph random weights in [1, 64] (floats in (0, 1] with
        weight_type="float32"). weight_type: None (auto: float32 when a
        file's weight is not an integer, such as a Matrix Market "real"
        0.5, or mgraph wrote the file with float32 weights; uint32
        otherwise), "uint32" or "float32" (a file's weights converted).
        cache_dir: a layout cache directory; a graph loaded before with the
        same options is taken from it instead of read and preprocessed
        again."""
        w = weights_seed is not None
        wt = _weight_type(weight_type)
        h = LIB.mgraph_load(path.encode(), backend.encode(), int(undirected), int(w),
                            int(weights_seed or 0), threads, cache_dir.encode() if cache_dir else None,
                            wt.encode() if wt else None)
        return cls(h)

    @classmethod
    def from_edges(cls, src: npt.ArrayLike, dst: npt.ArrayLike, weights: Optional[npt.ArrayLike] = None, *,
                   num_vertices: Optional[int] = None, directed: bool = True, backend: str = "",
                   threads: int = 0, weight_type: Optional[str] = None) -> "Graph":
        """Arcs src[i] -> dst[i] (an undirected graph lists each edge once),
        with optional non-negative weights: integers (an integer or bool
        array) make a graph of uint32 weights, floats (a float array) one
        of float32 weights, whose sssp gives float32 distances; float64
        weights are rounded to the nearest float32. weight_type ("uint32"
        or "float32") overrides the dtype's choice (float weights must
        then be integers for uint32). NaN, infinite and negative weights
        are refused."""
        s = np.ascontiguousarray(src, dtype=np.uint32)
        d = np.ascontiguousarray(dst, dtype=np.uint32)
        if s.shape != d.shape or s.ndim != 1:
            raise ValueError(f"src and dst must be 1-D arrays of one length, got {s.shape} and {d.shape}")
        n = num_vertices
        if n is None:
            n = int(max(s.max(), d.max())) + 1 if s.size else 0
        wt = _weight_type(weight_type)
        if weights is None:
            h = LIB.mgraph_from_edges(n, _u32(s), _u32(d), None, s.size, int(directed), backend.encode(), threads)
            return cls(h)
        wa = np.asarray(weights)
        if wa.shape != s.shape:
            raise ValueError(f"weights has shape {wa.shape}, the arcs {s.shape}")
        if wa.dtype.kind not in "biuf":
            raise TypeError(f"weights must be numbers, got {wa.dtype}")
        if wt is None:
            wt = "float32" if wa.dtype.kind == "f" else "uint32"
        if wt == "float32":
            if wa.size and not np.all(np.isfinite(wa)):
                raise ValueError("weights must be finite (no NaN or inf)")
            if wa.size and wa.min() < 0:
                raise ValueError("weights must be non-negative")
            with np.errstate(over="ignore"):
                w = np.ascontiguousarray(wa, dtype=np.float32)
            if wa.size and not np.all(np.isfinite(w)):
                raise ValueError("a weight is beyond float32's range (3.4e38)")
            h = LIB.mgraph_from_edges_f32(n, _u32(s), _u32(d), _f32(w), s.size, int(directed), backend.encode(), threads)
            return cls(h)
        if wa.size and (wa.min() < 0 or np.any(wa != np.floor(wa)) or wa.max() > 0xFFFFFFFF):
            raise ValueError("weights must be non-negative integers (uint32); pass float weights, "
                             "or weight_type='float32', for float32 weights")
        w = np.ascontiguousarray(wa, dtype=np.uint32)
        h = LIB.mgraph_from_edges(n, _u32(s), _u32(d), _u32(w), s.size, int(directed), backend.encode(), threads)
        return cls(h)

    @classmethod
    def from_scipy(cls, matrix: Any, *, directed: bool = True, weighted: bool = False, **kw: Any) -> "Graph":
        """A SciPy sparse matrix: entry (i, j) is the arc i -> j; its values
        are the weights when weighted (a float matrix gives float32
        weights, an integer one uint32 weights, as from_edges; weight_type=
        overrides). For an undirected graph pass the symmetric matrix with
        directed=False: each edge is taken once (from the upper triangle)."""
        coo = matrix.tocoo()
        if coo.shape[0] != coo.shape[1]:
            raise ValueError(f"the matrix must be square, got {coo.shape}")
        row, col, val = coo.row, coo.col, coo.data
        if not directed:
            keep = row <= col
            row, col, val = row[keep], col[keep], val[keep]
        return cls.from_edges(row, col, val if weighted else None, num_vertices=coo.shape[0],
                              directed=directed, **kw)

    @classmethod
    def from_networkx(cls, g: Any, *, weight: Optional[str] = None, **kw: Any) -> "Graph":
        """A NetworkX graph whose nodes are the integers 0..n-1; weight names
        the edge attribute of the weights (None: unweighted; a missing one
        is 1): all Python or NumPy integers give uint32 weights, any float
        float32 weights (weight_type= overrides, as for from_edges)."""
        n = g.number_of_nodes()
        if set(g.nodes) != set(range(n)):
            raise ValueError("the NetworkX graph's nodes must be 0..n-1 (use nx.convert_node_labels_to_integers)")
        edges = list(g.edges(data=weight, default=1)) if weight else list(g.edges())
        src = np.fromiter((e[0] for e in edges), dtype=np.int64, count=len(edges))
        dst = np.fromiter((e[1] for e in edges), dtype=np.int64, count=len(edges))
        w = None
        if weight:
            ints = all(isinstance(e[2], (int, np.integer)) for e in edges)
            w = np.fromiter((e[2] for e in edges), dtype=np.int64 if ints else np.float64, count=len(edges))
        return cls.from_edges(src, dst, w, num_vertices=n, directed=g.is_directed(), **kw)

    # --- lifetime -----------------------------------------------------

    def close(self) -> None:
        """Free the graph (its device memory); it cannot run afterwards."""
        if self._h:
            check(LIB.mgraph_close(self._h))
            self._h = 0

    def __enter__(self) -> "Graph":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self) -> str:
        kind = "directed" if self.directed else "undirected"
        if self.weight_type:
            kind += f", {self.weight_type} weights"
        return f"<mgraph.Graph {self.num_vertices} vertices, {self.num_arcs} arcs, {kind}, on {self.backend}>"

    def _stats(self, s: Any) -> None:
        self.last_stats = Stats(float(s[0]), float(s[1]), float(s[2]))

    def _handle(self) -> int:
        if not self._h:
            raise MgraphError("mgraph: the graph is closed")
        return self._h
