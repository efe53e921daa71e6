"""BFS and SSSP from several sources at once (issue #19) against NetworkX's
multi_source_dijkstra_path_length, and their errors, on generated graphs."""

from __future__ import annotations

import ctypes

import networkx as nx
import numpy as np
import pytest

import mgraph
from mgraph._lib import LIB

SOURCE_SETS = ([0, 150, 299], [7, 7, 3, 300], [305, 1], list(range(0, 300, 37)))


def graphs(directed: bool):
    """Random graphs with isolated vertices (300..309), integer weights."""
    for seed in (1, 2):
        g = nx.gnm_random_graph(300, 900, seed=seed, directed=directed)
        g.add_nodes_from(range(300, 310))
        rng = np.random.default_rng(seed)
        for u, v in g.edges():
            g[u][v]["weight"] = int(rng.integers(1, 65))
        yield g


def expected(g: nx.Graph, sources, weight) -> np.ndarray:
    """NetworkX's distances to the nearest source as mgraph's array."""
    d = nx.multi_source_dijkstra_path_length(g, set(sources), weight=weight)
    return np.array([d.get(v, mgraph.UNREACHED) for v in range(g.number_of_nodes())], dtype=np.uint32)


@pytest.mark.parametrize("directed", [False, True])
def test_multi_source_dijkstra_path_length(directed: bool) -> None:
    for g in graphs(directed):
        with mgraph.Graph.from_networkx(g, weight="weight", backend="cpu") as mg:
            for sources in SOURCE_SETS:
                want = expected(g, sources, "weight")
                got = mgraph.multi_source_dijkstra_path_length(mg, sources)
                assert got.dtype == np.uint32 and got.shape == (g.number_of_nodes(),)
                np.testing.assert_array_equal(got, want, err_msg=f"sources {sources}")
                assert mg.last_stats is not None and mg.last_stats.trial > 0
                out = np.zeros(mg.num_vertices, dtype=np.uint32)
                assert mgraph.sssp(mg, np.array(sources), out=out) is out
                np.testing.assert_array_equal(out, want)
            # One source: the multi-source run agrees with the single-source one.
            np.testing.assert_array_equal(mgraph.multi_source_dijkstra_path_length(mg, [5]), mgraph.sssp(mg, 5))


@pytest.mark.parametrize("directed", [False, True])
def test_bfs_several_sources(directed: bool) -> None:
    for g in graphs(directed):
        with mgraph.Graph.from_networkx(g, backend="cpu") as mg:
            for sources in SOURCE_SETS:
                want = expected(g, sources, lambda u, v, d: 1)  # hops
                np.testing.assert_array_equal(mgraph.bfs(mg, sources), want, err_msg=f"sources {sources}")
                np.testing.assert_array_equal(mgraph.bfs(mg, tuple(sources)), want)
                # the minimum of the single-source levels
                single = np.min([mgraph.bfs(mg, s) for s in sources], axis=0)
                np.testing.assert_array_equal(want, single)
            out = np.zeros(mg.num_vertices, dtype=np.uint32)
            assert mgraph.bfs(mg, np.arange(0, 300, 50, dtype=np.uint32), out=out) is out
            np.testing.assert_array_equal(out, expected(g, range(0, 300, 50), lambda u, v, d: 1))
            # A sequence of one is the single-source BFS, depth limit and all.
            np.testing.assert_array_equal(mgraph.bfs(mg, [4]), mgraph.bfs(mg, 4))
            np.testing.assert_array_equal(mgraph.bfs(mg, [4], depth_limit=2), mgraph.bfs(mg, 4, depth_limit=2))
            np.testing.assert_array_equal(mgraph.bfs(mg, np.int64(4)), mgraph.bfs(mg, 4))


def test_errors() -> None:
    with mgraph.Graph.load("grid:8", undirected=True, backend="cpu") as mg:
        with pytest.raises(ValueError, match="depth_limit"):
            mgraph.bfs(mg, [0, 63], depth_limit=3)
        for bad in ([], np.array([], dtype=np.uint32), [[0, 1]]):
            with pytest.raises(ValueError, match="non-empty"):
                mgraph.bfs(mg, bad)
        with pytest.raises(ValueError, match="non-empty"):
            mgraph.multi_source_dijkstra_path_length(mg, [])
        with pytest.raises(ValueError, match="source -1"):
            mgraph.bfs(mg, [0, -1])
        with pytest.raises(ValueError, match=f"source {2**32}"):
            mgraph.sssp(mg, [0, 2**32])
        with pytest.raises(TypeError, match="integers"):
            mgraph.bfs(mg, [0.0, 1.0])
        with pytest.raises(TypeError, match="integers"):
            mgraph.bfs(mg, "01")
        with pytest.raises(mgraph.MgraphError, match="source 64 is not a vertex"):
            mgraph.bfs(mg, [0, 64])
        with pytest.raises(mgraph.MgraphError, match="weights"):  # as sssp: the graph has none
            mgraph.multi_source_dijkstra_path_length(mg, [0, 9])
        with pytest.raises(mgraph.MgraphError, match="weights"):
            mgraph.sssp(mg, [0, 9])
        with pytest.raises(ValueError, match="shape"):
            mgraph.bfs(mg, [0, 9], out=np.zeros(3, dtype=np.uint32))
    mg = mgraph.Graph.from_edges([0], [1])
    mg.close()
    with pytest.raises(mgraph.MgraphError, match="closed"):
        mgraph.bfs(mg, [0, 1])


def _error(rc: int) -> str:
    assert rc == -1
    n = LIB.mgraph_last_error(None, 0)
    buf = ctypes.create_string_buffer(int(n) + 1)
    LIB.mgraph_last_error(buf, n + 1)
    return buf.value.decode()


def test_c_api() -> None:
    """The C functions' own checks: bad handles, NULL arrays, k <= 0 (each
    named after the function), and the stats."""
    u32 = ctypes.POINTER(ctypes.c_uint32)
    src = np.array([0, 3], dtype=np.uint32)
    with mgraph.Graph.from_edges([0, 1, 2], [1, 2, 3], [5, 1, 2], directed=True, backend="cpu") as mg:
        out = np.zeros(mg.num_vertices, dtype=np.uint32)
        stats = (ctypes.c_double * 3)()
        for name, want in (("multi_source_bfs", [0, 1, 2, 0]), ("multi_source_sssp", [0, 5, 6, 0])):
            fn = getattr(LIB, "mgraph_" + name)
            assert fn(mg._handle(), src.ctypes.data_as(u32), 2, out.ctypes.data_as(u32), stats) == 0
            np.testing.assert_array_equal(out, want)
            assert stats[0] > 0
            assert fn(mg._handle(), src.ctypes.data_as(u32), 2, out.ctypes.data_as(u32), None) == 0
            for k in (0, -1):
                assert f"{name} needs at least one source" in _error(
                    fn(mg._handle(), src.ctypes.data_as(u32), k, out.ctypes.data_as(u32), None))
            assert "needs at least one source" in _error(fn(mg._handle(), None, 2, out.ctypes.data_as(u32), None))
            assert f"{name}: NULL result array" in _error(fn(mg._handle(), src.ctypes.data_as(u32), 2, None, None))
            assert "no graph with handle 987654" in _error(
                fn(987654, src.ctypes.data_as(u32), 2, out.ctypes.data_as(u32), None))


def test_gpu_agrees_with_cpu() -> None:
    g = next(graphs(True))
    sources = [0, 150, 299, 0]
    with mgraph.Graph.from_networkx(g, weight="weight", backend="cpu") as cg:
        want = mgraph.bfs(cg, sources), mgraph.multi_source_dijkstra_path_length(cg, sources)
    try:
        mg = mgraph.Graph.from_networkx(g, weight="weight", backend="cuda")
    except mgraph.MgraphError as e:
        pytest.skip(f"no cuda backend here: {e}")
    with mg:
        np.testing.assert_array_equal(mgraph.bfs(mg, sources), want[0])
        np.testing.assert_array_equal(mgraph.multi_source_dijkstra_path_length(mg, sources), want[1])
