"""The Python package against NetworkX on generated graphs."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import mgraph


def graphs(directed: bool):
    for seed in (1, 2):
        g = nx.gnm_random_graph(300, 1200, seed=seed, directed=directed)
        g.add_nodes_from(range(300, 310))  # isolated vertices
        rng = np.random.default_rng(seed)
        for u, v in g.edges():
            g[u][v]["weight"] = int(rng.integers(1, 65))
        yield g


@pytest.mark.parametrize("directed", [False, True])
def test_bfs_and_sssp(directed: bool) -> None:
    for g in graphs(directed):
        with mgraph.Graph.from_networkx(g, weight="weight", backend="cpu") as mg:
            assert mg.num_vertices == g.number_of_nodes()
            assert mg.directed == directed
            levels = mgraph.bfs(mg, 0)
            want = nx.single_source_shortest_path_length(g, 0)
            for v in range(g.number_of_nodes()):
                assert levels[v] == want.get(v, mgraph.UNREACHED)
            assert mg.last_stats is not None and mg.last_stats.trial > 0
            dist = mgraph.sssp(mg, 0)
            want = nx.single_source_dijkstra_path_length(g, 0, weight="weight")
            for v in range(g.number_of_nodes()):
                assert dist[v] == want.get(v, mgraph.UNREACHED)


@pytest.mark.parametrize("directed", [False, True])
def test_bfs_predecessors(directed: bool) -> None:
    for g in graphs(directed):
        with mgraph.Graph.from_networkx(g, backend="cpu") as mg:
            for source in (0, 5):
                parents = mgraph.bfs_predecessors(mg, source)
                levels = mgraph.bfs(mg, source)
                want = dict(nx.bfs_predecessors(g, source))
                assert parents[source] == source
                for v in range(g.number_of_nodes()):
                    if v == source:
                        continue
                    if v not in want:
                        assert parents[v] == mgraph.UNREACHED
                        continue
                    p = int(parents[v])
                    assert g.has_edge(p, v) and levels[p] + 1 == levels[v]


@pytest.mark.parametrize("directed", [False, True])
def test_depth_limit(directed: bool) -> None:
    for g in graphs(directed):
        with mgraph.Graph.from_networkx(g, backend="cpu") as mg:
            for depth in (1, 2, 3):
                levels = mgraph.bfs(mg, 0, depth_limit=depth)
                want = nx.single_source_shortest_path_length(g, 0, cutoff=depth)
                for v in range(g.number_of_nodes()):
                    assert levels[v] == want.get(v, mgraph.UNREACHED)
                parents = mgraph.bfs_predecessors(mg, 0, depth_limit=depth)
                want_p = dict(nx.bfs_predecessors(g, 0, depth_limit=depth))
                for v in range(1, g.number_of_nodes()):
                    assert (v in want_p) == (parents[v] != mgraph.UNREACHED)
            with pytest.raises(ValueError):
                mgraph.bfs(mg, 0, depth_limit=0)


def test_load_with_cache(tmp_path) -> None:
    cache = str(tmp_path / "cache")
    with mgraph.Graph.load("rmat:10:4", undirected=True, backend="cpu", cache_dir=cache) as a:
        first = mgraph.bfs(a, 0)
    assert len(list((tmp_path / "cache").glob("*.mgl"))) == 1
    with mgraph.Graph.load("rmat:10:4", undirected=True, backend="cpu", cache_dir=cache) as b:
        np.testing.assert_array_equal(mgraph.bfs(b, 0), first)


def test_connected_components() -> None:
    for g in graphs(False):
        with mgraph.Graph.from_networkx(g, backend="cpu") as mg:
            labels = mgraph.connected_components(mg)
        for comp in nx.connected_components(g):
            assert {int(labels[v]) for v in comp} == {min(comp)}


@pytest.mark.parametrize("directed", [False, True])
def test_pagerank(directed: bool) -> None:
    for g in graphs(directed):
        with mgraph.Graph.from_networkx(g, backend="cpu") as mg:
            ranks = mgraph.pagerank(mg, alpha=0.85, tol=1e-13, max_iter=500)
        want = nx.pagerank(g, alpha=0.85, tol=1e-13, max_iter=500, weight=None)  # mgraph ranks unweighted
        ref = np.array([want[v] for v in range(g.number_of_nodes())])
        assert abs(ranks.sum() - 1) < 1e-9
        np.testing.assert_allclose(ranks, ref, rtol=1e-6)


@pytest.mark.parametrize("directed", [False, True])
def test_betweenness(directed: bool) -> None:
    g = next(graphs(directed))
    with mgraph.Graph.from_networkx(g, backend="cpu") as mg:
        bc = mgraph.betweenness_centrality(mg)
    want = nx.betweenness_centrality(g, normalized=False)
    scale = 1 if directed else 2  # NetworkX counts an undirected pair once
    ref = np.array([want[v] * scale for v in range(g.number_of_nodes())])
    np.testing.assert_allclose(bc, ref, rtol=1e-9, atol=1e-9)


def test_from_scipy_and_from_edges_agree() -> None:
    g = next(graphs(True))
    a = nx.to_scipy_sparse_array(g, nodelist=range(g.number_of_nodes()), weight="weight", format="csr")
    with mgraph.Graph.from_scipy(sp.csr_matrix(a), weighted=True, backend="cpu") as m1, \
            mgraph.Graph.from_networkx(g, weight="weight", backend="cpu") as m2:
        assert m1.num_arcs == m2.num_arcs == g.number_of_edges()
        np.testing.assert_array_equal(mgraph.sssp(m1, 3), mgraph.sssp(m2, 3))
    u = nx.Graph(g)  # undirected: the symmetric matrix, each edge taken once
    s = nx.to_scipy_sparse_array(u, nodelist=range(u.number_of_nodes()), format="csr")
    with mgraph.Graph.from_scipy(s, directed=False, backend="cpu") as m3:
        assert m3.num_arcs == 2 * u.number_of_edges() - nx.number_of_selfloops(u)
        assert not m3.directed


def test_load_generator_spec_and_errors(tmp_path) -> None:
    with mgraph.Graph.load("grid:8", undirected=True, backend="cpu") as mg:
        assert mg.num_vertices == 64
        assert mgraph.bfs(mg, 0)[63] == 14
        with pytest.raises(mgraph.MgraphError, match="weights"):
            mgraph.sssp(mg, 0)
        with pytest.raises(mgraph.MgraphError, match="source 99"):
            mgraph.bfs(mg, 99)
    with pytest.raises(mgraph.MgraphError, match="nope.mtx"):
        mgraph.Graph.load(str(tmp_path / "nope.mtx"))
    with pytest.raises(ValueError):
        mgraph.Graph.from_edges([0, 1], [1])
    with pytest.raises(ValueError, match="non-negative"):
        mgraph.Graph.from_edges([0], [1], [-2])
    mg = mgraph.Graph.from_edges([0], [1])
    mg.close()
    with pytest.raises(mgraph.MgraphError, match="closed"):
        mgraph.bfs(mg, 0)


def test_out_arrays_are_reused_and_checked() -> None:
    with mgraph.Graph.load("grid:8", undirected=True, backend="cpu") as mg:
        buf = np.zeros(mg.num_vertices, dtype=np.uint32)
        got = mgraph.bfs(mg, 0, out=buf)
        assert got is buf
        np.testing.assert_array_equal(buf, mgraph.bfs(mg, 0))
        ranks = np.empty(mg.num_vertices)
        assert mgraph.pagerank(mg, out=ranks) is ranks
        with pytest.raises(ValueError, match="uint32"):
            mgraph.bfs(mg, 0, out=np.zeros(mg.num_vertices, dtype=np.int64))
        with pytest.raises(ValueError, match="shape"):
            mgraph.bfs(mg, 0, out=np.zeros(3, dtype=np.uint32))


def _gpu_graph(g):
    try:
        return mgraph.Graph.from_networkx(g, weight="weight", backend="cuda")
    except mgraph.MgraphError as e:
        pytest.skip(f"no cuda backend here: {e}")


def test_gpu_results_in_pinned_memory() -> None:
    """On the cuda backend results come in the engine's page-locked arrays,
    equal to the CPU's; they outlive the graph, recycle through its pool and
    serve as out= arrays."""
    g = next(graphs(False))
    with mgraph.Graph.from_networkx(g, weight="weight", backend="cpu") as cg:
        want_bfs = [mgraph.bfs(cg, s) for s in range(5)]
        want_pr = mgraph.pagerank(cg)
        want_tree = mgraph.bfs_predecessors(cg, 3)
    mg = _gpu_graph(g)
    kept = []
    for rounds in range(3):
        for s in range(5):
            got = mgraph.bfs(mg, s)
            assert got.dtype == np.uint32 and not isinstance(got.base, np.ndarray)
            np.testing.assert_array_equal(got, want_bfs[s])
            if rounds == 0:
                kept.append(got)
    pr = mgraph.pagerank(mg)
    np.testing.assert_allclose(pr, want_pr, rtol=1e-9)
    np.testing.assert_array_equal(mgraph.bfs_predecessors(mg, 3), want_tree)
    again = mgraph.bfs(mg, 1, out=kept[0])
    assert again is kept[0]
    np.testing.assert_array_equal(again, want_bfs[1])
    mg.close()
    np.testing.assert_array_equal(kept[2], want_bfs[2])  # valid after close
    del kept, again
