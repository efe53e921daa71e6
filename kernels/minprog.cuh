// minprog.cuh — the device side of the min programs (BFS, SSSP over uint32
// and over float32 weights, CC, label propagation): one
// functor struct per program, which the dense and sparse kernels are
// templates over, and the dispatch from the C API's program id.
//
// The program contract every engine kernel uses (min programs here, the
// float64 sum programs in sumprog.cuh). The kernels take the functor by
// value, so a program may carry device pointers and scalars (sum programs
// do; the min programs are empty):
//
//   struct Op {
//       using T = ...;                                 // value type
//       static constexpr T identity;                   // combine's identity
//       static constexpr bool weighted;                // reads arc weights
//       static __device__ T combine(T a, T b);         // associative, commutative
//       static __device__ T atomic(T *p, T x);         // *p = combine(*p, x), returns the old *p
//       __device__ T edge(T src, uint32_t w) const;    // contribution; edge(identity) == identity
//       __device__ bool useful(uint32_t dst, T c, const T *values) const;  // sparse filter
//       __device__ bool apply(uint32_t v, T acc, T *values) const;         // true: v is active next
//   };
//
// The min programs also say whether their values are labels an async run
// may follow (static constexpr bool jumps; async.cu), and how a near-far
// split moves by a bucket width (static uint32_t bucket(x, delta);
// sparseloop.cu, async.cu).
//
// A contribution c that useful() rejects, or that equals the identity, is
// dropped by the sparse advance: apply(v, combine(acc, c)) must then do the
// same as apply(v, acc).
//
// Combine is min for all of them and the identity is 0xffffffff ("infinite");
// contributions saturate there. SSSPF32Op's values are float32 bit
// patterns, whose unsigned order is the float order for the non-negative
// floats (+Inf included) it makes, so the same min works on them. Apply(v, identity) changes nothing, and a
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

// MinBase: what the three min programs share: uint32 values, min, and the
// filter "only a contribution below the current value can change it".
struct MinBase {
    using T = uint32_t;
    static constexpr T identity = kMinIdentity;
    static __device__ __forceinline__ T combine(T a, T b) { return min(a, b); }
    static __device__ __forceinline__ T atomic(T *p, T x) { return atomicMin(p, x); }
    static __device__ __forceinline__ bool useful(uint32_t d, T c, const T *values) { return c < values[d]; }
    // jumps: the values are labels (vertex ids whose own values are never
    // larger), which an async run follows before sending (CCOp).
    static constexpr bool jumps = false;
    // at_loop_iteration makes a copy of the launched functor the one of a
    // device loop's iteration it (sparseloop.cu); the min programs have no
    // per-iteration state.
    __device__ __forceinline__ void at_loop_iteration(uint32_t) {}
    // apply takes a smaller value and activates the vertex (BFS, SSSP; CCOp
    // hides it with its own).
    static __device__ __forceinline__ bool apply(uint32_t v, T acc, T *values) {
        if (acc < values[v]) {
            values[v] = acc;
            return true;
        }
        return false;
    }
    // bucket moves a near-far split x by the bucket width delta in the
    // values' space: an integer sum saturating at the identity (SSSPF32Op
    // adds floats).
    static __device__ __forceinline__ uint32_t bucket(uint32_t x, uint32_t delta) { return sat_add(x, delta); }
};

// BFSOp: level+1; take a smaller level (MinBase::apply).
struct BFSOp : MinBase {
    static constexpr bool weighted = false;
    static __device__ __forceinline__ uint32_t edge(uint32_t s, uint32_t) { return sat_add(s, 1); }
};

// SSSPOp: distance+weight (saturating); take a smaller distance
// (MinBase::apply).
struct SSSPOp : MinBase {
    static constexpr bool weighted = true;
    static __device__ __forceinline__ uint32_t edge(uint32_t s, uint32_t w) { return sat_add(s, w); }
};

// SSSPF32Op: SSSP over float32 weights (MG_PROG_SSSP_F32; the graph's
// weights are float32 bit patterns, each finite and non-negative, never
// -0): a value is the bit pattern of a float32 distance, an arc offers the
// float32 sum distance+weight rounded to nearest (__fadd_rn, bit for bit
// engine.AddFloat32Bits on the host; never fused, never flushed to zero),
// and the identity stays the identity (it is a NaN's bits, above every
// sum, +Inf's 0x7f800000 included). MinBase's min, atomicMin, filter and
// apply work on the bits unchanged; the near-far width delta is a float32
// too, and the split moves by a float add.
struct SSSPF32Op : MinBase {
    static constexpr bool weighted = true;
    static __device__ __forceinline__ uint32_t edge(uint32_t s, uint32_t w) {
        if (s == kMinIdentity) return kMinIdentity;
        return __float_as_uint(__fadd_rn(__uint_as_float(s), __uint_as_float(w)));
    }
    // The split always moves past x (engine.NearFarAdd): a sum that rounds
    // back to x (delta below half of x's ulp) takes the next float above
    // x, and a split that reaches +Inf becomes the identity, so that
    // distances at +Inf (sums past float32's range, reached vertices) are
    // near too. Without either, a split stuck at the smallest piled value
    // would pile its vertices for ever (an async run would never end).
    static __device__ __forceinline__ uint32_t bucket(uint32_t x, uint32_t delta) {
        if (x >= 0x7f800000u) return kMinIdentity;
        const uint32_t s = max(edge(x, delta), x + 1u);
        return s >= 0x7f800000u ? kMinIdentity : s;
    }
};

// CCOp: the source's label; a smaller label is followed through the label
// array (pointer jumping) while labels decrease. Other threads' applies may
// be lowering the labels it reads in the same kernel: the loads and the store
// are volatile (each a single 32-bit access, never torn), and whichever value
// a load sees is the id of a vertex of the same component no larger than
// before, so the race only changes how far a jump gets, never the fixed point
// (the same benign race as the CPU's atomic loads; apps/cc.go).
struct CCOp : MinBase {
    static constexpr bool weighted = false;
    static constexpr bool jumps = true;
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

// LabelOp: the source's label; take a smaller one (MinBase::apply): label
// propagation without CCOp's jumps, for labels that are not layout ids.
struct LabelOp : MinBase {
    static constexpr bool weighted = false;
    static __device__ __forceinline__ uint32_t edge(uint32_t s, uint32_t) { return s; }
};

}  // namespace mg

// MG_DISPATCH_PROG calls FN<Op>(Op{}, args...) for the program id prog, or
// returns MG_ERR_INVALID.
#define MG_DISPATCH_PROG(prog, FN, ...)                                         \
    do {                                                                        \
        switch (prog) {                                                         \
        case MG_PROG_BFS: return FN<mg::BFSOp>(mg::BFSOp{}, __VA_ARGS__);       \
        case MG_PROG_SSSP: return FN<mg::SSSPOp>(mg::SSSPOp{}, __VA_ARGS__);    \
        case MG_PROG_SSSP_F32:                                                  \
            return FN<mg::SSSPF32Op>(mg::SSSPF32Op{}, __VA_ARGS__);             \
        case MG_PROG_CC: return FN<mg::CCOp>(mg::CCOp{}, __VA_ARGS__);          \
        case MG_PROG_LABEL: return FN<mg::LabelOp>(mg::LabelOp{}, __VA_ARGS__); \
        }                                                                       \
        return mg::invalid("unknown program id", err, errlen);                  \
    } while (0)

#endif  // MGRAPH_KERNELS_MINPROG_CUH
