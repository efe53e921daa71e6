// fn_msf.cuh — the functors of Borůvka's minimum spanning forest
// (apps/msf.go; Go twins in apps/fn_msf.go). Every vertex v has comp[v],
// its component's root (comp[r] == r for a root). A round finds, for each
// root r, the lightest arc leaving its component, ties broken by the
// least (min, max) pair of end ids: a total order on edges, so the chosen
// edges form no cycle but mutual pairs, which the larger root breaks by
// hooking under the smaller one alone.
//
// Arrays: a[0] comp (uint32), a[1] best weight per root (uint32), a[2] best
// edge per root (uint64 key min<<32 | max), a[3] next root per root
// (uint32), a[4] the forest's weight per hooking root (uint32), a[5] its
// edge key (uint64, ~0 unset), a[6] offsets, a[7] destinations; the arc
// weights are the graph's, passed in u[1] as a device address (0:
// unweighted, every arc weighs 1).
#ifndef MGRAPH_KERNELS_FN_MSF_CUH
#define MGRAPH_KERNELS_FN_MSF_CUH

#include "fn_traverse.cuh"

namespace mg {
namespace fn {

constexpr unsigned long long kNoEdge = ~0ull;

struct MsfArrays {
    uint32_t *comp, *best_w, *next, *forest_w;
    unsigned long long *best_e, *forest_e;
    const uint64_t *off;
    const uint32_t *adj, *weights;
    __device__ __forceinline__ explicit MsfArrays(const mg_op_args &a)
        : comp((uint32_t *)a.a[0]), best_w((uint32_t *)a.a[1]), next((uint32_t *)a.a[3]),
          forest_w((uint32_t *)a.a[4]), best_e((unsigned long long *)a.a[2]),
          forest_e((unsigned long long *)a.a[5]), off((const uint64_t *)a.a[6]), adj((const uint32_t *)a.a[7]),
          weights((const uint32_t *)a.u[1]) {}
    __device__ __forceinline__ uint32_t weight(uint64_t e) const { return weights != nullptr ? weights[e] : 1u; }
};

__device__ __forceinline__ unsigned long long edge_key(uint32_t u, uint32_t v) {
    return u < v ? ((unsigned long long)u << 32) | v : ((unsigned long long)v << 32) | u;
}

// MsfReset clears a root's minima and points its hook at itself.
struct MsfReset : ops::Functor {
    static __device__ __forceinline__ bool vertex(const mg_op_args &a, uint32_t v) {
        MsfArrays m(a);
        m.best_w[v] = kUnset;
        m.best_e[v] = kNoEdge;
        m.next[v] = v;
        return false;
    }
};

// MsfMinWeight lowers the root's best weight by v's arcs leaving the
// component.
struct MsfMinWeight : ops::Functor {
    static __device__ __forceinline__ bool vertex(const mg_op_args &a, uint32_t v) {
        MsfArrays m(a);
        const uint32_t c = m.comp[v];
        uint32_t best = kUnset;
        for (uint64_t e = m.off[v]; e < m.off[v + 1]; e++)
            if (m.comp[m.adj[e]] != c) best = min(best, m.weight(e));
        if (best != kUnset) atomicMin(&m.best_w[c], best);
        return false;
    }
};

// MsfMinEdge lowers the root's best edge key by v's leaving arcs of the
// best weight.
struct MsfMinEdge : ops::Functor {
    static __device__ __forceinline__ bool vertex(const mg_op_args &a, uint32_t v) {
        MsfArrays m(a);
        const uint32_t c = m.comp[v], w = m.best_w[c];
        if (w == kUnset) return false;
        unsigned long long best = kNoEdge;
        for (uint64_t e = m.off[v]; e < m.off[v + 1]; e++) {
            const uint32_t u = m.adj[e];
            if (m.comp[u] != c && m.weight(e) == w) best = min(best, edge_key(v, u));
        }
        if (best != kNoEdge) atomicMin(&m.best_e[c], best);
        return false;
    }
};

// MsfHook: a root with an edge hooks its component under the other end's
// (the smaller root of a mutual pair stays) and records the edge; it
// returns whether it hooked.
struct MsfHook : ops::Functor {
    static __device__ __forceinline__ bool vertex(const mg_op_args &a, uint32_t r) {
        MsfArrays m(a);
        const unsigned long long key = m.best_e[r];
        if (m.comp[r] != r || key == kNoEdge) return false;
        const uint32_t x = (uint32_t)(key >> 32), y = (uint32_t)key;
        const uint32_t other = m.comp[x] == r ? m.comp[y] : m.comp[x];
        if (m.best_e[other] == key && r < other) return false;  // mutual: the smaller root stays
        m.next[r] = other;
        m.forest_w[r] = m.best_w[r];
        m.forest_e[r] = key;
        return true;
    }
};

// MsfApply makes a root take its hook.
struct MsfApply : ops::Functor {
    static __device__ __forceinline__ bool vertex(const mg_op_args &a, uint32_t v) {
        MsfArrays m(a);
        if (m.comp[v] == v) m.comp[v] = m.next[v];
        return false;
    }
};

// MsfJump points v at its root's root; it returns whether that changed
// anything.
struct MsfJump : ops::Functor {
    static __device__ __forceinline__ bool vertex(const mg_op_args &a, uint32_t v) {
        MsfArrays m(a);
        const uint32_t c = m.comp[v], cc = m.comp[c];
        if (c == cc) return false;
        m.comp[v] = cc;
        return true;
    }
};

}  // namespace fn
}  // namespace mg

#endif  // MGRAPH_KERNELS_FN_MSF_CUH
