// ops.cuh — the operator kernels of ops.cu, templates over an app's functor
// struct (fn_*.cuh). A functor derives from mg::ops::Functor and hides the
// methods it implements:
//
//   static __device__ bool   edge(const mg_op_args &a, uint32_t src, uint32_t dst, uint64_t arc, uint32_t w);
//   static __device__ bool   vertex(const mg_op_args &a, uint32_t v);
//   static __device__ double measure(const mg_op_args &a, uint32_t v);
//   static __device__ double value(const mg_op_args &a, uint32_t v, uint32_t u, uint64_t arc, uint32_t w);
//   static __device__ void   reduced(const mg_op_args &a, uint32_t v, double acc);
//   static __device__ void   common(const mg_op_args &a, uint32_t u, uint32_t v, uint64_t arc, uint32_t count);
//
// The operators own the parallel loops and the load balancing; the
// functors are the app. Not part of the C API.
#ifndef MGRAPH_KERNELS_OPS_CUH
#define MGRAPH_KERNELS_OPS_CUH

#include <cooperative_groups.h>
#include <math.h>

#include "internal.cuh"

namespace mg {
namespace ops {

// Functor is the base of every functor: methods an app does not implement
// do nothing (the operators that call them are then of no use to it).
struct Functor {
    static __device__ __forceinline__ bool edge(const mg_op_args &, uint32_t, uint32_t, uint64_t, uint32_t) {
        return false;
    }
    static __device__ __forceinline__ bool vertex(const mg_op_args &, uint32_t) { return false; }
    static __device__ __forceinline__ double measure(const mg_op_args &, uint32_t) { return 0; }
    static __device__ __forceinline__ double value(const mg_op_args &, uint32_t, uint32_t, uint64_t, uint32_t) {
        return 0;
    }
    static __device__ __forceinline__ void reduced(const mg_op_args &, uint32_t, double) {}
    static __device__ __forceinline__ void common(const mg_op_args &, uint32_t, uint32_t, uint64_t, uint32_t) {}
};

// Invalid marks a skipped input element.
constexpr uint32_t kSkip = 0xffffffffu;

// element returns input element k, or kSkip when a dense input leaves it out.
__device__ __forceinline__ uint32_t element(const mg_op_in &in, uint64_t k) {
    if (in.flags != nullptr && in.flags[k] == 0) return kSkip;
    return in.list != nullptr ? in.list[k] : (uint32_t)k;
}

// arc_source returns the row of g holding arc e.
__device__ __forceinline__ uint32_t arc_source(const mg_op_graph &g, uint64_t e) {
    return (uint32_t)(upper_bound_u64(g.offsets, g.n + 1, e) - 1);
}

// claim sets bit x of bitmap and reports whether this call set it.
__device__ __forceinline__ bool claim(uint32_t *bitmap, uint32_t x) {
    const uint32_t bit = 1u << (x & 31);
    return (atomicOr(&bitmap[x >> 5], bit) & bit) == 0;
}

// count_one adds 1 to *count for the calling thread and returns the
// count before it, one atomic per warp (mg::append_slot). An output's
// counter is one word that every thread of an advance may hit.
__device__ __forceinline__ unsigned long long count_one(unsigned long long *count) { return mg::append_slot(count); }

// emit writes x to out (once, with a bitmap) and counts it.
__device__ __forceinline__ void emit(const mg_op_out &out, uint32_t x) {
    if (out.bitmap != nullptr && !claim(out.bitmap, x)) return;
    if (out.flags != nullptr) {
        out.flags[x] = 1;
        count_one(out.count);
        return;
    }
    const unsigned long long slot = count_one(out.count);
    if (slot < out.capacity) out.list[slot] = x;
}

// visit calls F::edge on arc e of row src and emits what out asks for.
template <typename F>
__device__ __forceinline__ void visit(const mg_op_args &a, const mg_op_graph &g, const mg_op_out &out, uint32_t src,
                                      uint64_t e) {
    const uint32_t dst = g.dst[e];
    const uint32_t w = g.weights != nullptr ? g.weights[e] : 0u;
    if (F::edge(a, src, dst, e, w) && out.what != MG_OUT_NONE) emit(out, out.what == MG_OUT_VERTICES ? dst : (uint32_t)e);
}

// row_of returns the arcs [lo, hi) element x of the input stands for.
__device__ __forceinline__ void row_of(const mg_op_graph &g, const mg_op_in &in, uint32_t x, uint32_t *src,
                                       uint64_t *lo, uint64_t *hi) {
    if (in.arcs) {
        *src = arc_source(g, x);
        *lo = x;
        *hi = (uint64_t)x + 1;
    } else {
        *src = x;
        *lo = g.offsets[x];
        *hi = g.offsets[x + 1];
    }
}

// degrees_kernel writes each element's degree (arcs it stands for) to deg.
__global__ void degrees_kernel(mg_op_graph g, mg_op_in in, uint64_t *deg);

// advance_thread: a thread per element walks its arcs.
template <typename F>
__global__ void advance_thread(mg_op_args a, mg_op_graph g, mg_op_in in, mg_op_out out) {
    for (uint64_t k = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; k < in.count;
         k += (uint64_t)gridDim.x * blockDim.x) {
        const uint32_t x = element(in, k);
        if (x == kSkip) continue;
        uint32_t src;
        uint64_t lo, hi;
        row_of(g, in, x, &src, &lo, &hi);
        for (uint64_t e = lo; e < hi; e++) visit<F>(a, g, out, src, e);
    }
}

// advance_twc: Merrill's dynamic grouping. Each thread takes one element;
// rows of MG_OP_BLOCK_DEGREE arcs or more are expanded by the whole block
// one after the other, then rows of MG_OP_WARP_DEGREE or more by their
// warp, then the rest by their own thread.
template <typename F>
__global__ void __launch_bounds__(MG_OP_BLOCK) advance_twc(mg_op_args a, mg_op_graph g, mg_op_in in, mg_op_out out) {
    __shared__ uint32_t s_src;
    __shared__ uint64_t s_lo, s_hi;
    __shared__ int s_owner;
    const int lane = threadIdx.x & 31;
    for (uint64_t base = blockIdx.x * (uint64_t)MG_OP_BLOCK; base < in.count;
         base += (uint64_t)gridDim.x * MG_OP_BLOCK) {
        const uint64_t k = base + threadIdx.x;
        uint32_t src = 0;
        uint64_t lo = 0, hi = 0;
        if (k < in.count) {
            const uint32_t x = element(in, k);
            if (x != kSkip) row_of(g, in, x, &src, &lo, &hi);
        }
        // Block stage: one large row at a time.
        while (true) {
            if (threadIdx.x == 0) s_owner = -1;
            __syncthreads();
            if (hi - lo >= MG_OP_BLOCK_DEGREE) atomicMax(&s_owner, (int)threadIdx.x);
            __syncthreads();
            const int owner = s_owner;
            if (owner < 0) break;
            if ((int)threadIdx.x == owner) {
                s_src = src;
                s_lo = lo;
                s_hi = hi;
                lo = hi;  // taken
            }
            __syncthreads();
            for (uint64_t e = s_lo + threadIdx.x; e < s_hi; e += MG_OP_BLOCK) visit<F>(a, g, out, s_src, e);
            __syncthreads();
        }
        // Warp stage: the warp's medium rows, one at a time.
        uint32_t want = __ballot_sync(0xffffffffu, hi - lo >= MG_OP_WARP_DEGREE);
        while (want != 0) {
            const int leader = __ffs(want) - 1;
            const uint32_t wsrc = __shfl_sync(0xffffffffu, src, leader);
            const uint64_t wlo = __shfl_sync(0xffffffffu, lo, leader);
            const uint64_t whi = __shfl_sync(0xffffffffu, hi, leader);
            if (lane == leader) lo = hi;
            for (uint64_t e = wlo + lane; e < whi; e += 32) visit<F>(a, g, out, wsrc, e);
            want &= want - 1;
        }
        // Thread stage: what is left is short.
        for (uint64_t e = lo; e < hi; e++) visit<F>(a, g, out, src, e);
    }
}

// advance_merged: arc i of the input's arcs (in scan order) goes to thread
// i; its element is found by a binary search in scan (count+1 entries).
template <typename F>
__global__ void advance_merged(mg_op_args a, mg_op_graph g, mg_op_in in, const uint64_t *scan, uint64_t arcs,
                               mg_op_out out) {
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < arcs; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t k = upper_bound_u64(scan, in.count + 1, i) - 1;
        const uint32_t x = element(in, k);
        uint32_t src;
        uint64_t lo, hi;
        row_of(g, in, x, &src, &lo, &hi);
        visit<F>(a, g, out, src, lo + (i - scan[k]));
    }
}

// member_kernel flags the vertices of a list in member (zeroed before).
__global__ void member_kernel(const uint32_t *list, uint64_t count, uint8_t *member);

// advance_pull: the pull (bottom-up) advance. A group of G lanes (G
// divides 32) per vertex v of g, g's rows being in-arcs: lane 0 asks
// F::vertex whether v is a candidate; the group then scans row v G arcs
// at a time for sources in member (NULL: every vertex) and calls F::edge
// on them. With first, the hits of a round go to F::edge one at a time in
// row order and the row stops at the first true (BFS: the first parent
// found is final); without, every hit calls it. v is emitted once when a
// call returned true. Every lane of a warp runs the same rounds (ballots
// and shuffles over the whole warp).
template <typename F, int G>
__global__ void __launch_bounds__(MG_OP_BLOCK)
    advance_pull(mg_op_args a, mg_op_graph g, const uint8_t *__restrict__ member, bool first, mg_op_out out) {
    constexpr unsigned kAll = 0xffffffffu;
    const uint32_t lane = threadIdx.x & 31, sub = lane % G, lead = lane - sub;
    const uint32_t group_mask = G == 32 ? kAll : ((1u << G) - 1u) << lead;
    const uint64_t groups = (uint64_t)gridDim.x * blockDim.x / G;
    const uint64_t rounds = (g.n + groups - 1) / groups;
    for (uint64_t r = 0; r < rounds; r++) {
        const uint64_t v = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) / G + r * groups;
        bool search = false;
        if (sub == 0 && v < g.n) search = F::vertex(a, (uint32_t)v);
        search = __shfl_sync(kAll, search, lead);
        uint64_t lo = 0, hi = 0;
        if (search) {
            lo = g.offsets[v];
            hi = g.offsets[v + 1];
            search = hi > lo;
        }
        bool got = false;
        for (uint64_t b = lo; __any_sync(kAll, search); b += G) {
            const uint64_t e = b + sub;
            uint32_t u = 0;
            const bool hit = search && e < hi && (member == nullptr || member[u = g.dst[e]] != 0);
            if (hit && member == nullptr) u = g.dst[e];
            unsigned m = __ballot_sync(kAll, hit) & group_mask;
            if (first) {
                while (__any_sync(kAll, m != 0)) {
                    const uint32_t at = m != 0 ? __ffs(m) - 1 : lane;
                    const uint32_t src = __shfl_sync(kAll, u, at);
                    bool ok = false;
                    if (m != 0 && sub == 0) {
                        const uint64_t ea = b + (at - lead);
                        ok = F::edge(a, src, (uint32_t)v, ea, g.weights != nullptr ? g.weights[ea] : 0u);
                    }
                    ok = __shfl_sync(kAll, ok, lead);
                    if (ok) {
                        got = true;
                        search = false;
                        m = 0;
                    } else if (m != 0) {
                        m &= m - 1;
                    }
                }
            } else {
                const bool ok = hit && F::edge(a, u, (uint32_t)v, e, g.weights != nullptr ? g.weights[e] : 0u);
                if (__ballot_sync(kAll, ok) & group_mask) got = true;
            }
            if (b + G >= hi) search = false;
        }
        if (got && sub == 0) emit(out, (uint32_t)v);
    }
}

// filter_flags writes keep[k] = F::vertex(element k) (0 for skipped and,
// with a bitmap, repeated elements).
template <typename F>
__global__ void filter_flags(mg_op_args a, mg_op_in in, uint32_t *bitmap, uint8_t *keep) {
    for (uint64_t k = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; k < in.count; k += (uint64_t)gridDim.x * blockDim.x) {
        const uint32_t x = element(in, k);
        // With a bitmap, only the first claim of a repeated element is
        // given to the functor.
        const bool y = x != kSkip && (bitmap == nullptr || claim(bitmap, x)) && F::vertex(a, x);
        if (keep != nullptr) keep[k] = y;
    }
}

// filter_dense calls F::vertex on every distinct element and sets out's
// flags (out has a bitmap).
template <typename F>
__global__ void filter_dense(mg_op_args a, mg_op_in in, mg_op_out out) {
    for (uint64_t k = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; k < in.count; k += (uint64_t)gridDim.x * blockDim.x) {
        const uint32_t x = element(in, k);
        if (x != kSkip && claim(out.bitmap, x) && F::vertex(a, x)) {  // the first claim only
            out.flags[x] = 1;
            count_one(out.count);
        }
    }
}

// sum_kernel adds F::measure over the input into *sum, a block sum at a
// time.
template <typename F>
__global__ void __launch_bounds__(MG_OP_BLOCK) sum_kernel(mg_op_args a, mg_op_in in, double *sum) {
    double s = 0;
    for (uint64_t k = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; k < in.count; k += (uint64_t)gridDim.x * blockDim.x) {
        const uint32_t x = element(in, k);
        if (x != kSkip) s += F::measure(a, x);
    }
    s = block_reduce<SumOp<double, double>, MG_OP_BLOCK>(s);
    if (threadIdx.x == 0) atomicAdd(sum, s);
}

// Reductions of reduce_kernel.
struct RSum {
    using Acc = double;
    static __device__ __forceinline__ double identity() { return 0; }
    static __device__ __forceinline__ double combine(double x, double y) { return x + y; }
};
struct RMin {
    using Acc = double;
    static __device__ __forceinline__ double identity() { return INFINITY; }
    static __device__ __forceinline__ double combine(double x, double y) { return fmin(x, y); }
};
struct RMax {
    using Acc = double;
    static __device__ __forceinline__ double identity() { return -INFINITY; }
    static __device__ __forceinline__ double combine(double x, double y) { return fmax(x, y); }
};

// reduce_kernel gives each element's row a group of G lanes (1, 8 or 32),
// which fold F::value with R and pass the result to F::reduced.
template <typename F, typename R, int G>
__global__ void reduce_kernel(mg_op_args a, mg_op_graph g, mg_op_in in) {
    const uint64_t groups = ((uint64_t)gridDim.x * blockDim.x) / G;
    const uint64_t first = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) / G;
    const int lane = threadIdx.x % G;
    const uint64_t rounds = (in.count + groups - 1) / groups;
    for (uint64_t r = 0; r < rounds; r++) {  // every lane of a warp runs the same rounds (shuffles below)
        const uint64_t k = first + r * groups;
        uint32_t x = k < in.count ? element(in, k) : kSkip;
        double acc = R::identity();
        if (x != kSkip) {
            const uint64_t lo = g.offsets[x], hi = g.offsets[x + 1];
            for (uint64_t e = lo + lane; e < hi; e += G)
                acc = R::combine(acc, F::value(a, x, g.dst[e], e, g.weights != nullptr ? g.weights[e] : 0u));
        }
#pragma unroll
        for (int off = G / 2; off > 0; off >>= 1) acc = R::combine(acc, __shfl_down_sync(0xffffffffu, acc, off, G));
        if (lane == 0 && x != kSkip) F::reduced(a, x, acc);
    }
}

// intersect_count returns |row u ∩ row v| of g: each entry of the shorter
// row is looked up in the longer one by binary search.
__device__ __forceinline__ uint32_t intersect_count(const mg_op_graph &g, uint32_t u, uint32_t v) {
    uint64_t alo = g.offsets[u], ahi = g.offsets[u + 1], blo = g.offsets[v], bhi = g.offsets[v + 1];
    if (ahi - alo > bhi - blo) {
        uint64_t t = alo;
        alo = blo;
        blo = t;
        t = ahi;
        ahi = bhi;
        bhi = t;
    }
    uint32_t c = 0;
    uint64_t from = blo;  // the shorter row is sorted: searches only move right
    for (uint64_t i = alo; i < ahi && from < bhi; i++) {
        const uint32_t x = g.dst[i];
        const uint64_t j = from + lower_bound(g.dst + from, bhi - from, x);
        if (j < bhi && g.dst[j] == x) c++;
        from = j;
    }
    return c;
}

// intersect_kernel: a thread per arc of the input.
template <typename F>
__global__ void __launch_bounds__(MG_OP_BLOCK) intersect_kernel(mg_op_args a, mg_op_graph g, mg_op_in in,
                                                                unsigned long long *total) {
    unsigned long long t = 0;
    for (uint64_t k = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; k < in.count; k += (uint64_t)gridDim.x * blockDim.x) {
        const uint32_t e = element(in, k);
        if (e == kSkip) continue;
        const uint32_t u = arc_source(g, e), v = g.dst[e];
        const uint32_t c = intersect_count(g, u, v);
        F::common(a, u, v, e, c);
        t += c;
    }
    t = block_reduce<SumOp<unsigned long long, unsigned long long>, MG_OP_BLOCK>(t);
    if (threadIdx.x == 0) atomicAdd(total, t);
}

// filter_arcs_count: a warp per row counts the arcs F::edge keeps into
// counts[row].
template <typename F>
__global__ void filter_arcs_count(mg_op_args a, mg_op_graph g, uint64_t *counts) {
    const int lane = threadIdx.x & 31;
    const uint64_t warps = ((uint64_t)gridDim.x * blockDim.x) / 32;
    for (uint64_t u = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) / 32; u < g.n; u += warps) {
        const uint64_t lo = g.offsets[u], hi = g.offsets[u + 1];
        uint64_t c = 0;
        for (uint64_t base = lo; base < hi; base += 32) {
            const uint64_t e = base + lane;
            const bool keep = e < hi && F::edge(a, (uint32_t)u, g.dst[e], e, g.weights != nullptr ? g.weights[e] : 0u);
            c += __popc(__ballot_sync(0xffffffffu, keep));
        }
        if (lane == 0) counts[u] = c;
    }
}

// filter_arcs_write: a warp per row writes the kept arcs in order.
template <typename F>
__global__ void filter_arcs_write(mg_op_args a, mg_op_graph g, const uint64_t *offsets, uint32_t *dst,
                                  uint32_t *weights) {
    const int lane = threadIdx.x & 31;
    const uint64_t warps = ((uint64_t)gridDim.x * blockDim.x) / 32;
    for (uint64_t u = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) / 32; u < g.n; u += warps) {
        const uint64_t lo = g.offsets[u], hi = g.offsets[u + 1];
        uint64_t at = offsets[u];
        for (uint64_t base = lo; base < hi; base += 32) {
            const uint64_t e = base + lane;
            const uint32_t w = e < hi && g.weights != nullptr ? g.weights[e] : 0u;
            const bool keep = e < hi && F::edge(a, (uint32_t)u, g.dst[e], e, w);
            const uint32_t mask = __ballot_sync(0xffffffffu, keep);
            if (keep) {
                const uint64_t j = at + __popc(mask & ((1u << lane) - 1u));
                dst[j] = g.dst[e];
                if (weights != nullptr) weights[j] = w;
            }
            at += __popc(mask);
        }
    }
}

}  // namespace ops
}  // namespace mg

#endif  // MGRAPH_KERNELS_OPS_CUH
