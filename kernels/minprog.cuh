// minprog.cuh — the device side of the min programs (BFS, SSSP, CC): one
// functor struct per program, which the dense and sparse kernels are
// templates over, and the dispatch from the C API's program id.
//
//   struct Op {
//       static constexpr bool weighted;               // reads arc weights
//       static __device__ uint32_t edge(uint32_t src, uint32_t w);  // contribution
//       static __device__ bool apply(uint32_t v, uint32_t acc, uint32_t *values);
//   };
//
// Combine is min for all of them and the identity is 0xffffffff ("infinite");
// contributions saturate there. Apply(v, identity) changes nothing, and a
// contribution c is useless to v unless c < values[v] (for all three, Apply
// does nothing otherwise), which the sparse advance uses as a filter.
#ifndef MGRAPH_KERNELS_MINPROG_CUH
#define MGRAPH_KERNELS_MINPROG_CUH

#include "internal.cuh"

namespace mg {

constexpr uint32_t kMinIdentity = 0xffffffffu;

__device__ __forceinline__ uint32_t sat_add(uint32_t x, uint32_t w) {
    uint32_t s = x + w;
    return s < x ? kMinIdentity : s;
}

// BFSOp: level+1; take a smaller level.
struct BFSOp {
    static constexpr bool weighted = false;
    static __device__ __forceinline__ uint32_t edge(uint32_t s, uint32_t) { return sat_add(s, 1); }
    static __device__ __forceinline__ bool apply(uint32_t v, uint32_t acc, uint32_t *values) {
        if (acc < values[v]) {
            values[v] = acc;
            return true;
        }
        return false;
    }
};

// SSSPOp: distance+weight (saturating); take a smaller distance.
struct SSSPOp {
    static constexpr bool weighted = true;
    static __device__ __forceinline__ uint32_t edge(uint32_t s, uint32_t w) { return sat_add(s, w); }
    static __device__ __forceinline__ bool apply(uint32_t v, uint32_t acc, uint32_t *values) {
        if (acc < values[v]) {
            values[v] = acc;
            return true;
        }
        return false;
    }
};

// CCOp: the source's label; a smaller label is followed through the label
// array (pointer jumping) while labels decrease. Other threads' applies may
// be lowering the labels it reads in the same kernel: the loads and the store
// are volatile (each a single 32-bit access, never torn), and whichever value
// a load sees is the id of a vertex of the same component no larger than
// before, so the race only changes how far a jump gets, never the fixed point
// (the same benign race as the CPU's atomic loads; apps/cc.go).
struct CCOp {
    static constexpr bool weighted = false;
    static __device__ __forceinline__ uint32_t edge(uint32_t s, uint32_t) { return s; }
    static __device__ __forceinline__ bool apply(uint32_t v, uint32_t acc, uint32_t *values) {
        volatile uint32_t *lab = values;
        uint32_t old = lab[v];
        if (acc >= old) return false;
        uint32_t l = acc;
        for (;;) {
            uint32_t nx = lab[l];
            if (nx >= l) break;
            l = nx;
        }
        lab[v] = l;
        return true;
    }
};

}  // namespace mg

// MG_DISPATCH_PROG calls FN<Op>(args...) for the program id prog, or
// returns MG_ERR_INVALID.
#define MG_DISPATCH_PROG(prog, FN, ...)                                  \
    do {                                                                 \
        switch (prog) {                                                  \
        case MG_PROG_BFS: return FN<mg::BFSOp>(__VA_ARGS__);             \
        case MG_PROG_SSSP: return FN<mg::SSSPOp>(__VA_ARGS__);           \
        case MG_PROG_CC: return FN<mg::CCOp>(__VA_ARGS__);               \
        }                                                                \
        return mg::invalid("unknown program id", err, errlen);           \
    } while (0)

#endif  // MGRAPH_KERNELS_MINPROG_CUH
