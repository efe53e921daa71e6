// fn_traverse.cuh — the functors of BFS and SSSP expressed with the
// operators (apps/bfsops.go, apps/ssspops.go hold the Go twins and the
// enactors).
#ifndef MGRAPH_KERNELS_FN_TRAVERSE_CUH
#define MGRAPH_KERNELS_FN_TRAVERSE_CUH

#include "ops.cuh"

namespace mg {
namespace fn {

constexpr uint32_t kUnset = 0xffffffffu;

// Bfs: a[0] levels (uint32, kUnset unvisited), u[0] the frontier's depth.
// An arc claims its unvisited destination for the next depth; pulled, the
// unvisited vertices are the candidates.
struct Bfs : ops::Functor {
    static __device__ __forceinline__ bool edge(const mg_op_args &a, uint32_t, uint32_t dst, uint64_t, uint32_t) {
        uint32_t *level = (uint32_t *)a.a[0];
        return level[dst] == kUnset && atomicCAS(&level[dst], kUnset, (uint32_t)a.u[0] + 1) == kUnset;
    }
    static __device__ __forceinline__ bool vertex(const mg_op_args &a, uint32_t v) {
        return ((const uint32_t *)a.a[0])[v] == kUnset;
    }
};

// Sssp: a[0] distances (uint32, kUnset unreached), u[0] the weights: 0
// uint32, 1 none (every arc weighs 1), 2 float32 (distances and weights are
// float32 bit patterns added as floats, rounded to nearest, as
// apps.ssspFn and engine.AddFloat32Bits; their unsigned order is the
// float order, so atomicMin works on the bits). An arc lowers its
// destination's distance with atomicMin and outputs it when it did.
struct Sssp : ops::Functor {
    static __device__ __forceinline__ bool edge(const mg_op_args &a, uint32_t src, uint32_t dst, uint64_t, uint32_t w) {
        uint32_t *dist = (uint32_t *)a.a[0];
        const uint32_t d = dist[src];
        uint64_t nd;
        if (a.u[0] == 2) {
            if (d == kUnset) return false;
            nd = __float_as_uint(__fadd_rn(__uint_as_float(d), __uint_as_float(w)));
        } else {
            nd = (uint64_t)d + (a.u[0] == 1 ? 1u : w);
        }
        if (nd >= kUnset || nd >= dist[dst]) return false;
        return nd < atomicMin(&dist[dst], (uint32_t)nd);
    }
};

}  // namespace fn
}  // namespace mg

#endif  // MGRAPH_KERNELS_FN_TRAVERSE_CUH
