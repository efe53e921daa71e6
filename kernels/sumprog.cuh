// sumprog.cuh — the device side of the float64 sum programs (data-driven
// PageRank, the forward pass of Brandes' BC): functor structs with the
// contract of minprog.cuh, carrying their state as device pointers, and the
// dispatch from the C API's program id and mg_sum_params.
//
// Combine is + and the identity 0. Every contribution is non-negative, so
// the sparse advance's first touch of a destination is the atomicAdd that
// finds 0 there, and a vertex received something exactly when its
// accumulator is not 0.
#ifndef MGRAPH_KERNELS_SUMPROG_CUH
#define MGRAPH_KERNELS_SUMPROG_CUH

#include "internal.cuh"

namespace mg {

// SumBase: float64 values combined by +; every contribution is useful.
struct SumBase {
    using T = double;
    static constexpr T identity = 0.0;
    static constexpr bool weighted = false;
    static __device__ __forceinline__ T combine(T a, T b) { return a + b; }
    static __device__ __forceinline__ T atomic(T *p, T x) { return atomicAdd(p, x); }
    static __device__ __forceinline__ T edge(T s, uint32_t) { return s; }
    // at_loop_iteration: see MinBase; no per-iteration state by default.
    __device__ __forceinline__ void at_loop_iteration(uint32_t) {}
};

// PRDeltaOp (apps' prDeltaProgram): a vertex adds what it received to its
// residual; above eps it absorbs the residual into x and pushes
// damping·r/outdeg along its arcs next iteration.
struct PRDeltaOp : SumBase {
    const uint64_t *offsets;
    double *x, *residual;
    double damping, eps;
    __device__ __forceinline__ bool useful(uint32_t, T, const T *) const { return true; }
    __device__ __forceinline__ bool apply(uint32_t v, T acc, T *push) const {
        const double r = residual[v] + acc;
        if (r <= eps) {
            residual[v] = r;
            return false;
        }
        x[v] += r;
        residual[v] = 0.0;
        const uint64_t deg = offsets[v + 1] - offsets[v];
        push[v] = deg > 0 ? damping * (r / (double)deg) : 0.0;
        return true;
    }
};

// BCForwardOp (apps' bcForward): the frontier is depth d and offers its
// path counts; an unvisited vertex takes depth d+1 and the sum. Offers to
// visited vertices are dropped by the sparse advance.
struct BCForwardOp : SumBase {
    int32_t *depth;
    int32_t d;
    // A device loop launched at depth d runs depth d+it in its iteration it.
    __device__ __forceinline__ void at_loop_iteration(uint32_t it) { d += (int32_t)it; }
    __device__ __forceinline__ bool useful(uint32_t dst, T, const T *) const { return depth[dst] < 0; }
    __device__ __forceinline__ bool apply(uint32_t v, T acc, T *sigma) const {
        if (depth[v] >= 0 || acc == 0.0) return false;
        depth[v] = d + 1;
        sigma[v] = acc;
        return true;
    }
};

}  // namespace mg

// MG_DISPATCH_SUM calls FN<Op>(op, args...) with the op of program id prog
// built from params (const mg_sum_params *) and the layout l, or returns
// MG_ERR_INVALID.
#define MG_DISPATCH_SUM(prog, params, l, FN, ...)                                                  \
    do {                                                                                           \
        if ((params) == NULL || (l) == NULL) return mg::invalid("sum program: NULL parameters", err, errlen); \
        switch (prog) {                                                                            \
        case MG_SPROG_PRDELTA: {                                                                   \
            if ((params)->x == NULL || (params)->residual == NULL)                                 \
                return mg::invalid("pr-delta: NULL x or residual", err, errlen);                   \
            mg::PRDeltaOp op;                                                                      \
            op.offsets = (l)->sparse_offsets;                                                      \
            op.x = (params)->x;                                                                    \
            op.residual = (params)->residual;                                                      \
            op.damping = (params)->damping;                                                        \
            op.eps = (params)->eps;                                                                \
            return FN<mg::PRDeltaOp>(op, __VA_ARGS__);                                             \
        }                                                                                          \
        case MG_SPROG_BC_FORWARD: {                                                                \
            if ((params)->depth == NULL) return mg::invalid("bc forward: NULL depth", err, errlen); \
            mg::BCForwardOp op;                                                                    \
            op.depth = (params)->depth;                                                            \
            op.d = (params)->d;                                                                    \
            return FN<mg::BCForwardOp>(op, __VA_ARGS__);                                           \
        }                                                                                          \
        }                                                                                          \
        return mg::invalid("unknown sum program id", err, errlen);                                 \
    } while (0)

#endif  // MGRAPH_KERNELS_SUMPROG_CUH
