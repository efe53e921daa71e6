// fn_structure.cuh — the functors of triangle counting, k-core, graph
// colouring and maximal independent set (apps/tc.go, kcore.go, color.go,
// mis.go and their Go twins in apps/structfn.go).
#ifndef MGRAPH_KERNELS_FN_STRUCTURE_CUH
#define MGRAPH_KERNELS_FN_STRUCTURE_CUH

#include "fn_traverse.cuh"

namespace mg {
namespace fn {

// simple_arc reports whether arc of row src (offsets a[0], destinations
// a[1] of the graph being filtered) is neither a self-loop nor a repeat of
// the arc before it.
__device__ __forceinline__ bool simple_arc(const mg_op_args &a, uint32_t src, uint32_t dst, uint64_t arc) {
    const uint64_t *off = (const uint64_t *)a.a[0];
    const uint32_t *adj = (const uint32_t *)a.a[1];
    return src != dst && (arc == off[src] || adj[arc - 1] != dst);
}

// Simple keeps the arcs simple_arc accepts.
struct Simple : ops::Functor {
    static __device__ __forceinline__ bool edge(const mg_op_args &a, uint32_t src, uint32_t dst, uint64_t arc, uint32_t) {
        return simple_arc(a, src, dst, arc);
    }
};

// Orient keeps a simple arc when its source comes before its destination
// in (degree, id) order: every triangle is then found once.
struct Orient : ops::Functor {
    static __device__ __forceinline__ bool edge(const mg_op_args &a, uint32_t src, uint32_t dst, uint64_t arc, uint32_t) {
        if (!simple_arc(a, src, dst, arc)) return false;
        const uint64_t *off = (const uint64_t *)a.a[0];
        const uint64_t ds = off[src + 1] - off[src], dd = off[dst + 1] - off[dst];
        return ds < dd || (ds == dd && src < dst);
    }
};

// TriCount adds an arc's common neighbours to its source's count in a[0]
// (uint64; NULL: totals only).
struct TriCount : ops::Functor {
    static __device__ __forceinline__ void common(const mg_op_args &a, uint32_t u, uint32_t, uint64_t, uint32_t count) {
        if (a.a[0] != nullptr && count != 0) atomicAdd((unsigned long long *)a.a[0] + u, (unsigned long long)count);
    }
};

// Equals keeps vertices whose entry of a[0] (uint32) is u[0].
struct Equals : ops::Functor {
    static __device__ __forceinline__ bool vertex(const mg_op_args &a, uint32_t v) {
        return ((const uint32_t *)a.a[0])[v] == (uint32_t)a.u[0];
    }
};

// KcorePeel removes a live vertex of degree (a[0]) below k = u[0]: its
// core number (a[1]) is k−1.
struct KcorePeel : ops::Functor {
    static __device__ __forceinline__ bool vertex(const mg_op_args &a, uint32_t v) {
        const uint32_t k = (uint32_t)a.u[0];
        if (((const uint32_t *)a.a[0])[v] >= k) return false;
        ((uint32_t *)a.a[1])[v] = k - 1;
        return true;
    }
};

// KcoreDrop: an arc from a removed vertex lowers its live destination's
// degree.
struct KcoreDrop : ops::Functor {
    static __device__ __forceinline__ bool edge(const mg_op_args &a, uint32_t, uint32_t dst, uint64_t, uint32_t) {
        if (((const uint32_t *)a.a[1])[dst] == kUnset) atomicSub((uint32_t *)a.a[0] + dst, 1u);
        return false;
    }
};

// priority is a vertex's random priority in round seed (splitmix64; the Go
// twin is apps.priority).
__device__ __forceinline__ uint64_t priority(uint32_t v, uint64_t seed) {
    uint64_t x = (uint64_t)v + seed * 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// LocalMax, a reduction (max) over an undecided vertex v's row: an arc
// counts 1 when its other end u is undecided (state a[0] == u[0]) and
// beats v in (priority, id) in round u[1], or with u[2] set in (degree,
// priority, id) — largest degree first (colouring), so the hubs are
// decided in the first rounds instead of having their rows scanned in
// every round; v is marked (a[1], bytes) when none does. The degrees are
// the rows' lengths (offsets a[2]).
struct LocalMax : ops::Functor {
    static __device__ __forceinline__ double value(const mg_op_args &a, uint32_t v, uint32_t u, uint64_t, uint32_t) {
        if (u == v || ((const uint32_t *)a.a[0])[u] != (uint32_t)a.u[0]) return 0;
        const uint64_t *off = (const uint64_t *)a.a[2];
        const uint64_t dv = off[v + 1] - off[v], du = off[u + 1] - off[u];
        if (a.u[2] != 0 && du != dv) return du > dv ? 1 : 0;
        const uint64_t p = priority(v, a.u[1]), q = priority(u, a.u[1]);
        return q > p || (q == p && u > v) ? 1 : 0;
    }
    static __device__ __forceinline__ void reduced(const mg_op_args &a, uint32_t v, double beaten) {
        ((uint8_t *)a.a[1])[v] = beaten <= 0;  // an empty row reduces to −Inf
    }
};

// JpColor gives a marked vertex (a[1]) the smallest colour (a[0]) that no
// neighbour has, and clears its mark; graph as LocalMax's.
struct JpColor : ops::Functor {
    static __device__ __forceinline__ bool vertex(const mg_op_args &a, uint32_t v) {
        uint32_t *color = (uint32_t *)a.a[0];
        uint8_t *win = (uint8_t *)a.a[1];
        if (!win[v]) return false;
        win[v] = 0;
        const uint64_t *off = (const uint64_t *)a.a[2];
        const uint32_t *adj = (const uint32_t *)a.a[3];
        for (uint32_t base = 0;; base += 64) {  // colours [base, base+64) at a time
            uint64_t used = 0;
            for (uint64_t e = off[v]; e < off[v + 1]; e++) {
                const uint32_t c = color[adj[e]];
                if (adj[e] != v && c != kUnset && c >= base && c - base < 64) used |= 1ull << (c - base);
            }
            if (used != ~0ull) {
                color[v] = base + (uint32_t)(__ffsll((long long)~used) - 1);
                return true;
            }
        }
    }
};

// MisJoin puts a marked vertex (a[1]) in the set (state a[0] = 1) and
// clears its mark.
struct MisJoin : ops::Functor {
    static __device__ __forceinline__ bool vertex(const mg_op_args &a, uint32_t v) {
        uint8_t *win = (uint8_t *)a.a[1];
        if (!win[v]) return false;
        win[v] = 0;
        ((uint32_t *)a.a[0])[v] = 1;
        return true;
    }
};

// MisExclude: an arc from a set member excludes (state 0) its undecided
// destination.
struct MisExclude : ops::Functor {
    static __device__ __forceinline__ bool edge(const mg_op_args &a, uint32_t, uint32_t dst, uint64_t, uint32_t) {
        uint32_t *state = (uint32_t *)a.a[0];
        if (state[dst] == kUnset) state[dst] = 0;
        return false;
    }
};

}  // namespace fn
}  // namespace mg

#endif  // MGRAPH_KERNELS_FN_STRUCTURE_CUH
