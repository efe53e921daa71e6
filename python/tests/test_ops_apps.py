"""The apps written with the operators (triangles, core numbers, colouring,
MIS, personalised PageRank, HITS, SALSA, who-to-follow) against NetworkX,
or NumPy references where NetworkX has none, on generated graphs."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import mgraph


def undirected_graphs():
    """Random graphs with isolated vertices, a clustered one (many
    triangles, deep cores) and one with self-loops."""
    for seed in (1, 2):
        g = nx.gnm_random_graph(300, 1200, seed=seed)
        g.add_nodes_from(range(300, 310))
        yield g
    yield nx.powerlaw_cluster_graph(400, 5, 0.6, seed=3)
    g = nx.gnm_random_graph(100, 600, seed=4)
    g.add_edges_from((v, v) for v in range(0, 100, 7))
    yield g


def directed_graphs():
    for seed in (1, 2):
        g = nx.gnm_random_graph(300, 1500, seed=seed, directed=True)
        g.add_nodes_from(range(300, 310))
        yield g


def array(d: dict, n: int) -> np.ndarray:
    return np.array([d[v] for v in range(n)], dtype=np.float64)


def test_triangles() -> None:
    for g in undirected_graphs():
        with mgraph.Graph.from_networkx(g, backend="cpu") as mg:
            per = mgraph.triangles(mg)
            total = mgraph.triangle_count(mg)
            assert mg.last_stats is not None
        assert per.dtype == np.uint64
        want = nx.triangles(g)  # ignores self-loops, as mgraph does
        np.testing.assert_array_equal(per, [want[v] for v in range(g.number_of_nodes())])
        assert total == sum(want.values()) // 3 and total > 0


def test_core_number() -> None:
    for g in undirected_graphs():
        with mgraph.Graph.from_networkx(g, backend="cpu") as mg:
            core = mgraph.core_number(mg)
        simple = nx.Graph(g)
        simple.remove_edges_from(nx.selfloop_edges(simple))  # nx.core_number refuses self-loops
        want = nx.core_number(simple)
        assert core.dtype == np.uint32
        np.testing.assert_array_equal(core, [want[v] for v in range(g.number_of_nodes())])


def test_minimum_spanning_edges() -> None:
    rng = np.random.default_rng(5)
    for g in undirected_graphs():
        g = nx.Graph(g)
        g.remove_edges_from(nx.selfloop_edges(g))
        for a, b in g.edges:
            g.edges[a, b]["weight"] = int(rng.integers(1, 50))
        with mgraph.Graph.from_networkx(g, weight="weight", backend="cpu") as mg:
            edges, total = mgraph.minimum_spanning_edges(mg)
        want = nx.minimum_spanning_tree(g, weight="weight")
        assert total == want.size(weight="weight")
        assert edges.shape == (want.number_of_edges(), 3)
        assert int(edges[:, 2].sum()) == total
        assert all(u < v and g.has_edge(u, v) and g.edges[u, v]["weight"] == w for u, v, w in edges)
        forest = nx.Graph(list(map(tuple, edges[:, :2])))
        assert nx.is_forest(forest)


def test_color() -> None:
    for g in undirected_graphs():
        with mgraph.Graph.from_networkx(g, backend="cpu") as mg:
            colors = mgraph.color(mg, seed=5)
            np.testing.assert_array_equal(colors, mgraph.color(mg, seed=5))
            other = mgraph.color(mg)  # a random seed
        for c in (colors, other):
            assert c.dtype == np.uint32
            for u, v in g.edges():
                assert u == v or c[u] != c[v]
            simple_degree = {v: len(set(g[v]) - {v}) for v in g}
            assert all(c[v] <= simple_degree[v] for v in g)


def test_maximal_independent_set() -> None:
    for g in undirected_graphs():
        with mgraph.Graph.from_networkx(g, backend="cpu") as mg:
            mis = mgraph.maximal_independent_set(mg, seed=3)
        assert mis.dtype == np.uint32 and np.all(np.diff(mis.astype(np.int64)) > 0)
        members = set(mis.tolist())
        for u, v in g.edges():
            assert u == v or not (u in members and v in members), f"{u} and {v} adjacent"
        for v in g:
            assert v in members or any(u in members for u in g[v] if u != v), f"{v} could join"


def test_undirected_apps_refuse_directed_graphs() -> None:
    g = next(directed_graphs())
    with mgraph.Graph.from_networkx(g, backend="cpu") as mg:
        for f in (mgraph.triangles, mgraph.triangle_count, mgraph.core_number,
                  lambda m: mgraph.color(m, seed=1), lambda m: mgraph.maximal_independent_set(m, seed=1)):
            with pytest.raises(mgraph.MgraphError, match="needs an undirected graph"):
                f(mg)
        with pytest.raises(ValueError, match="seed"):
            mgraph.color(mg, seed=-1)


@pytest.mark.parametrize("directed", [False, True])
def test_hits(directed: bool) -> None:
    for g in (directed_graphs() if directed else undirected_graphs()):
        n = g.number_of_nodes()
        with mgraph.Graph.from_networkx(g, backend="cpu") as mg:
            hubs, auth = mgraph.hits(mg, max_iter=10000, tol=1e-13)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # NetworkX 2.8 warns of its adjacency_matrix
            want_h, want_a = nx.hits(g)  # the principal singular vectors, by ARPACK
        assert abs(hubs.sum() - 1) < 1e-9 and abs(auth.sum() - 1) < 1e-9
        np.testing.assert_allclose(hubs, array(want_h, n), rtol=1e-6, atol=1e-12)
        np.testing.assert_allclose(auth, array(want_a, n), rtol=1e-6, atol=1e-12)


def salsa_reference(g: nx.DiGraph, max_iter: int, tol: float):
    """SALSA as mgraph defines it, in NumPy."""
    n = g.number_of_nodes()
    a = nx.to_scipy_sparse_array(g, nodelist=range(n), weight=None, format="csr").astype(np.float64)
    a.data[:] = 1
    outdeg, indeg = np.asarray(a.sum(axis=1)).ravel(), np.asarray(a.sum(axis=0)).ravel()
    h = np.where(outdeg > 0, 1 / max(1, np.count_nonzero(outdeg)), 0.0)
    au = np.where(indeg > 0, 1 / max(1, np.count_nonzero(indeg)), 0.0)
    inv_out = np.divide(1, outdeg, out=np.zeros(n), where=outdeg > 0)
    inv_in = np.divide(1, indeg, out=np.zeros(n), where=indeg > 0)
    for _ in range(max_iter):
        na = a.T @ (h * inv_out)
        nh = a @ (na * inv_in)
        dh, da = np.abs(nh - h).sum(), np.abs(na - au).sum()
        h, au = nh, na
        if dh < tol and da < tol:
            break
    return h, au


@pytest.mark.parametrize("directed", [False, True])
def test_salsa(directed: bool) -> None:
    for g in (directed_graphs() if directed else undirected_graphs()):
        with mgraph.Graph.from_networkx(g, backend="cpu") as mg:
            hubs, auth = mgraph.salsa(mg, max_iter=200, tol=1e-12)
        want_h, want_a = salsa_reference(nx.DiGraph(g), 200, 1e-12)
        np.testing.assert_allclose(hubs, want_h, rtol=1e-9, atol=1e-13)
        np.testing.assert_allclose(auth, want_a, rtol=1e-9, atol=1e-13)
    # A connected hub-authority graph: the degrees over the arcs.
    g = nx.DiGraph([(0, 2), (0, 3), (1, 2), (1, 3), (2, 3)])
    with mgraph.Graph.from_networkx(g, backend="cpu") as mg:
        hubs, auth = mgraph.salsa(mg, max_iter=100, tol=1e-14)
    np.testing.assert_allclose(hubs, [0.4, 0.4, 0.2, 0], atol=1e-12)
    np.testing.assert_allclose(auth, [0, 0, 0.4, 0.6], atol=1e-12)


@pytest.mark.parametrize("directed", [False, True])
def test_personalized_pagerank(directed: bool) -> None:
    for g in (directed_graphs() if directed else undirected_graphs()):
        n = g.number_of_nodes()
        with mgraph.Graph.from_networkx(g, backend="cpu") as mg:
            for sources in ([0], [3, 50, n - 1]):
                pers = {v: 1 for v in sources}
                ranks = mgraph.pagerank(mg, alpha=0.85, tol=1e-13, max_iter=500, personalization=pers)
                want = nx.pagerank(g, alpha=0.85, personalization=pers, tol=1e-13, max_iter=500, weight=None)
                assert abs(ranks.sum() - 1) < 1e-9
                np.testing.assert_allclose(ranks, array(want, n), rtol=1e-6, atol=1e-12)
                as_ids = mgraph.pagerank(mg, tol=1e-13, max_iter=500, personalization=sources + sources)
                np.testing.assert_allclose(as_ids, ranks, rtol=1e-12)
            pers = {0: 2.0, 7: 2.0, 9: 0.0}  # equal non-zero weights, a zero ignored
            out = np.empty(n)
            assert mgraph.pagerank(mg, personalization=pers, out=out) is out
            np.testing.assert_allclose(out, mgraph.pagerank(mg, personalization=[7, 0]), rtol=1e-12)
            with pytest.raises(ValueError, match="equal weights"):
                mgraph.pagerank(mg, personalization={0: 1, 1: 2})
            with pytest.raises(ValueError, match="at least one"):
                mgraph.pagerank(mg, personalization=[])
            with pytest.raises(mgraph.MgraphError, match=f"source {n + 5}"):
                mgraph.pagerank(mg, personalization=[n + 5])


def wtf_scores(g: nx.DiGraph, user: int, circle_size: int):
    """Who-to-follow's authority scores and the accounts it may recommend
    (the reference's steps, in NetworkX and NumPy)."""
    n = g.number_of_nodes()
    ppr = nx.pagerank(g, alpha=0.85, personalization={user: 1}, tol=1e-4 / n, max_iter=100, weight=None)
    ranked = sorted((v for v in range(n) if v != user and ppr[v] > 0), key=lambda v: (-ppr[v], v))
    circle = set(ranked[:circle_size])
    bip = nx.DiGraph()
    bip.add_nodes_from(range(n))
    bip.add_edges_from((u, v) for u, v in g.edges() if u in circle)
    _, auth = salsa_reference(bip, 100, 1e-4)
    eligible = {v for _, v in bip.edges()} - {user} - set(g[user])
    return auth, eligible


def test_who_to_follow() -> None:
    # 0 follows 1 and 2, who both follow 3 and 4; 2 also follows 5.
    g = nx.DiGraph([(0, 1), (0, 2), (1, 3), (1, 4), (2, 3), (2, 4), (2, 5)])
    with mgraph.Graph.from_networkx(g, backend="cpu") as mg:
        np.testing.assert_array_equal(mgraph.who_to_follow(mg, 0), [3, 4, 5])
        np.testing.assert_array_equal(mgraph.who_to_follow(mg, 0, top_k=2), [3, 4])
        assert mgraph.who_to_follow(mg, 5).size == 0  # follows no one
        with pytest.raises(mgraph.MgraphError, match="source 9"):
            mgraph.who_to_follow(mg, 9)
        with pytest.raises(ValueError):
            mgraph.who_to_follow(mg, 0, top_k=0)
    for g in directed_graphs():
        with mgraph.Graph.from_networkx(g, backend="cpu") as mg:
            for user in (0, 17, 123):
                rec = mgraph.who_to_follow(mg, user, top_k=8)
                auth, eligible = wtf_scores(g, user, 20)
                assert rec.dtype == np.uint32 and 0 < rec.size <= 8 and len(set(rec.tolist())) == rec.size
                assert set(rec.tolist()) <= eligible
                # best first, and the best there are (up to ties in the last bits)
                best = sorted((auth[v] for v in eligible), reverse=True)[:rec.size]
                np.testing.assert_allclose(auth[rec], best, rtol=1e-9)


def _gpu_graph(g):
    try:
        return mgraph.Graph.from_networkx(g, backend="cuda")
    except mgraph.MgraphError as e:
        pytest.skip(f"no cuda backend here: {e}")


def test_gpu_agrees_with_cpu() -> None:
    g = next(undirected_graphs())
    with mgraph.Graph.from_networkx(g, backend="cpu") as cg:
        want = (mgraph.triangles(cg), mgraph.core_number(cg), mgraph.hits(cg, tol=1e-12),
                mgraph.salsa(cg, tol=1e-12), mgraph.pagerank(cg, personalization=[1, 2]))
    with _gpu_graph(g) as mg:
        np.testing.assert_array_equal(mgraph.triangles(mg), want[0])
        np.testing.assert_array_equal(mgraph.core_number(mg), want[1])
        for got, w in zip(mgraph.hits(mg, tol=1e-12) + mgraph.salsa(mg, tol=1e-12), want[2] + want[3]):
            np.testing.assert_allclose(got, w, rtol=1e-9, atol=1e-15)
        np.testing.assert_allclose(mgraph.pagerank(mg, personalization=[1, 2]), want[4], rtol=1e-9)
        c = mgraph.color(mg, seed=2)
        assert all(u == v or c[u] != c[v] for u, v in g.edges())
        assert len(mgraph.maximal_independent_set(mg, seed=2)) > 0
