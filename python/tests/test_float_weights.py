"""Graphs of float32 weights: float32 SSSP distances against NetworkX
(float64 sums: within a relative 1e-5, the float32 rounding of paths of a
few tens of arcs) and, exactly, against a float32 Dijkstra."""

from __future__ import annotations

import heapq

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import mgraph


def float_graphs(directed: bool):
    for seed in (1, 2):
        g = nx.gnm_random_graph(300, 1200, seed=seed, directed=directed)
        g.add_nodes_from(range(300, 310))  # isolated vertices
        rng = np.random.default_rng(seed)
        for u, v in g.edges():
            g[u][v]["weight"] = float(rng.random())  # float64 in [0, 1)
        yield g


def dijkstra32(g: nx.Graph, sources) -> np.ndarray:
    """Dijkstra with float32 weights and float32 sums (what mgraph computes,
    exactly); np.inf where unreached."""
    n = g.number_of_nodes()
    dist = np.full(n, np.inf, dtype=np.float32)
    heap = []
    for s in sources:
        dist[s] = np.float32(0)
        heap.append((np.float32(0), s))
    heapq.heapify(heap)
    done = np.zeros(n, dtype=bool)
    while heap:
        d, u = heapq.heappop(heap)
        if done[u] or d != dist[u]:
            continue
        done[u] = True
        for v, data in g[u].items():
            nd = np.float32(d + np.float32(data["weight"]))
            if nd < dist[v]:
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    return dist


def check_against_networkx(dist: np.ndarray, want: dict, n: int) -> None:
    for v in range(n):
        if v not in want:
            assert np.isinf(dist[v]) and dist[v] > 0
        else:
            assert dist[v] == pytest.approx(want[v], rel=1e-5, abs=1e-30)


@pytest.mark.parametrize("directed", [False, True])
def test_float_sssp(directed: bool) -> None:
    for g in float_graphs(directed):
        n = g.number_of_nodes()
        with mgraph.Graph.from_networkx(g, weight="weight", backend="cpu") as mg:
            assert mg.weight_type == "float32"
            assert "float32 weights" in repr(mg)
            for source in (0, 7):
                dist = mgraph.sssp(mg, source)
                assert dist.dtype == np.float32 and dist.shape == (n,)
                np.testing.assert_array_equal(dist, dijkstra32(g, [source]))
                check_against_networkx(dist, nx.single_source_dijkstra_path_length(g, source, weight="weight"), n)
                np.testing.assert_array_equal(mgraph.single_source_dijkstra_path_length(mg, source), dist)
            sources = [3, 17, 42, 3]
            many = mgraph.sssp(mg, sources)
            np.testing.assert_array_equal(many, dijkstra32(g, set(sources)))
            check_against_networkx(many, nx.multi_source_dijkstra_path_length(g, set(sources), weight="weight"), n)
            np.testing.assert_array_equal(mgraph.multi_source_dijkstra_path_length(mg, sources), many)
            # out= takes a float32 array only.
            buf = np.empty(n, dtype=np.float32)
            assert mgraph.sssp(mg, 0, out=buf) is buf
            np.testing.assert_array_equal(buf, dijkstra32(g, [0]))
            with pytest.raises(ValueError, match="float32"):
                mgraph.sssp(mg, 0, out=np.empty(n, dtype=np.uint32))


def test_float_graphs_from_arrays_and_matrices() -> None:
    g = next(float_graphs(True))
    n = g.number_of_nodes()
    want = dijkstra32(g, [5])
    a = nx.to_scipy_sparse_array(g, nodelist=range(n), weight="weight", format="csr")
    assert a.dtype == np.float64
    for m in (sp.csr_matrix(a), sp.csr_matrix(a.astype(np.float32))):
        with mgraph.Graph.from_scipy(m, weighted=True, backend="cpu") as mg:
            assert mg.weight_type == "float32"
            np.testing.assert_array_equal(mgraph.sssp(mg, 5), want)
    # Integer matrices stay uint32; weight_type="float32" makes them float.
    ints = sp.csr_matrix(np.array([[0, 2, 0], [0, 0, 3], [1, 0, 0]], dtype=np.int64))
    with mgraph.Graph.from_scipy(ints, weighted=True, backend="cpu") as mg:
        assert mg.weight_type == "uint32"
        d = mgraph.sssp(mg, 0)
        assert d.dtype == np.uint32 and list(d) == [0, 2, 5]
    with mgraph.Graph.from_scipy(ints, weighted=True, backend="cpu", weight_type="float32") as mg:
        d = mgraph.sssp(mg, 0)
        assert d.dtype == np.float32 and list(d) == [0.0, 2.0, 5.0]
    with mgraph.Graph.from_edges([0, 1], [1, 2], backend="cpu") as mg:
        assert mg.weight_type is None


def test_float_weight_errors(tmp_path) -> None:
    for bad in ([1.0, np.nan], [1.0, np.inf], [1.0, -0.5], [1.0, 1e39]):
        with pytest.raises(ValueError):
            mgraph.Graph.from_edges([0, 1], [1, 2], np.array(bad), backend="cpu")
    with pytest.raises(ValueError, match="non-negative integers"):
        mgraph.Graph.from_edges([0, 1], [1, 2], [1.0, 2.5], backend="cpu", weight_type="uint32")
    with pytest.raises(ValueError, match="weight_type"):
        mgraph.Graph.from_edges([0, 1], [1, 2], [1.0, 2.5], backend="cpu", weight_type="float64")
    # -0.0 is a weight of 0; integral floats may be read as uint32.
    with mgraph.Graph.from_edges([0, 1], [1, 2], [-0.0, 2.0], backend="cpu") as mg:
        d = mgraph.sssp(mg, 0)
        assert list(d) == [0.0, 0.0, 2.0] and not np.signbit(d[1])
    with mgraph.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0], backend="cpu", weight_type="uint32") as mg:
        assert mg.weight_type == "uint32" and list(mgraph.sssp(mg, 0)) == [0, 1, 3]
    # A Matrix Market file of real weights reads as float32 (auto); as
    # uint32 it is refused with the file and line.
    path = tmp_path / "w.mtx"
    path.write_text("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 0.5\n2 3 0.25\n")
    with mgraph.Graph.load(str(path), backend="cpu") as mg:
        assert mg.weight_type == "float32"
        assert list(mgraph.sssp(mg, 0)) == [0.0, 0.5, 0.75]
        assert np.isinf(mgraph.sssp(mg, 2)[0])
    with pytest.raises(mgraph.MgraphError, match="w.mtx: line 3: value is not an integer"):
        mgraph.Graph.load(str(path), backend="cpu", weight_type="uint32")
    with mgraph.Graph.load("grid:6", undirected=True, weights_seed=3, weight_type="float32", backend="cpu") as mg:
        assert mg.weight_type == "float32"
        d = mgraph.sssp(mg, 0)
        assert np.all(np.isfinite(d)) and np.all((d >= 0) & (d <= 10))


def test_float_sssp_on_gpu() -> None:
    """On the cuda backend float32 distances come in page-locked arrays,
    equal to the CPU's bit for bit."""
    g = next(float_graphs(False))
    with mgraph.Graph.from_networkx(g, weight="weight", backend="cpu") as cg:
        want = [mgraph.sssp(cg, s) for s in range(3)]
        want_many = mgraph.sssp(cg, [1, 2, 3])
    try:
        mg = mgraph.Graph.from_networkx(g, weight="weight", backend="cuda")
    except mgraph.MgraphError as e:
        pytest.skip(f"no cuda backend here: {e}")
    with mg:
        for rounds in range(2):
            for s in range(3):
                got = mgraph.sssp(mg, s)
                assert got.dtype == np.float32 and not isinstance(got.base, np.ndarray)
                np.testing.assert_array_equal(got, want[s])
        np.testing.assert_array_equal(mgraph.sssp(mg, [1, 2, 3]), want_many)
