// fn_rank.cuh — the functors of personalised PageRank, HITS, SALSA and
// who-to-follow (apps/ppr.go, hits.go, salsa.go, wtf.go; Go twins in
// apps/rankfn.go). Values are doubles; a divisor array (degrees as
// doubles) may be NULL for 1, and a zero divisor contributes nothing.
#ifndef MGRAPH_KERNELS_FN_RANK_CUH
#define MGRAPH_KERNELS_FN_RANK_CUH

#include "ops.cuh"

namespace mg {
namespace fn {

// share is x[u] / div[u] (div NULL: x[u]; div[u] == 0: 0).
__device__ __forceinline__ double share(const void *x, const void *div, uint32_t u) {
    const double d = div != nullptr ? ((const double *)div)[u] : 1.0;
    return d == 0 ? 0 : ((const double *)x)[u] / d;
}

// PrDangling measures the rank (a[0]) of a vertex of out-degree (a[1]) 0.
struct PrDangling : ops::Functor {
    static __device__ __forceinline__ double measure(const mg_op_args &a, uint32_t v) {
        return ((const double *)a.a[1])[v] == 0 ? ((const double *)a.a[0])[v] : 0;
    }
};

// PrPull: over in-rows, next[v] (a[1]) = f[0]·Σ rank[u] (a[0]) / outdeg[u]
// (a[2]) + (1 − f[0] + f[0]·f[1])·teleport[v] (a[3]); f[1] is the
// dangling rank.
struct PrPull : ops::Functor {
    static __device__ __forceinline__ double value(const mg_op_args &a, uint32_t, uint32_t u, uint64_t, uint32_t) {
        return share(a.a[0], a.a[2], u);
    }
    static __device__ __forceinline__ void reduced(const mg_op_args &a, uint32_t v, double acc) {
        const double d = a.f[0];
        ((double *)a.a[1])[v] = d * acc + (1 - d + d * a.f[1]) * ((const double *)a.a[3])[v];
    }
};

// L1Diff measures |a[0][v] − a[1][v]|.
struct L1Diff : ops::Functor {
    static __device__ __forceinline__ double measure(const mg_op_args &a, uint32_t v) {
        return fabs(((const double *)a.a[0])[v] - ((const double *)a.a[1])[v]);
    }
};

// Scale multiplies a[0][v] by f[0].
struct Scale : ops::Functor {
    static __device__ __forceinline__ bool vertex(const mg_op_args &a, uint32_t v) {
        ((double *)a.a[0])[v] *= a.f[0];
        return false;
    }
};

// Gather sets a[1][v] to the sum over v's row of a[0][u] / a[2][u].
struct Gather : ops::Functor {
    static __device__ __forceinline__ double value(const mg_op_args &a, uint32_t, uint32_t u, uint64_t, uint32_t) {
        return share(a.a[0], a.a[2], u);
    }
    static __device__ __forceinline__ void reduced(const mg_op_args &a, uint32_t v, double acc) {
        ((double *)a.a[1])[v] = acc;
    }
};

// PushAdd adds a[0][src] / a[2][src] into a[1][dst].
struct PushAdd : ops::Functor {
    static __device__ __forceinline__ bool edge(const mg_op_args &a, uint32_t src, uint32_t dst, uint64_t, uint32_t) {
        const double x = share(a.a[0], a.a[2], src);
        if (x != 0) atomicAdd((double *)a.a[1] + dst, x);
        return false;
    }
};

// InSet keeps arcs whose source is flagged in a[0] (bytes).
struct InSet : ops::Functor {
    static __device__ __forceinline__ bool edge(const mg_op_args &a, uint32_t src, uint32_t, uint64_t, uint32_t) {
        return ((const uint8_t *)a.a[0])[src] != 0;
    }
};

// Value measures a[0][v].
struct Value : ops::Functor {
    static __device__ __forceinline__ double measure(const mg_op_args &a, uint32_t v) {
        return ((const double *)a.a[0])[v];
    }
};

// Flagged measures 1 for a vertex whose byte in a[0] is set (a dense
// frontier's size).
struct Flagged : ops::Functor {
    static __device__ __forceinline__ double measure(const mg_op_args &a, uint32_t v) {
        return ((const uint8_t *)a.a[0])[v] != 0;
    }
};

}  // namespace fn
}  // namespace mg

#endif  // MGRAPH_KERNELS_FN_RANK_CUH
