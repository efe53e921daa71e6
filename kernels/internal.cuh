// internal.cuh — helpers shared by the kernels library's .cu files: error
// reporting into the caller's buffer, device selection, and the block-level
// building blocks that kernels templated over a functor struct use.
// Not part of the C API (that is mgraph.h alone).
#ifndef MGRAPH_KERNELS_INTERNAL_CUH
#define MGRAPH_KERNELS_INTERNAL_CUH

#include <cooperative_groups.h>
#include <mutex>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>

#include "mgraph.h"

namespace mg {

// fail writes "call: cudaErrorName (code): string" into err, clears the
// runtime's (non-sticky) last error so later launch checks do not see it, and
// maps the CUDA error to an MG_* code.
int fail(cudaError_t e, const char *call, char *err, size_t errlen);

// invalid writes msg into err and returns MG_ERR_INVALID.
int invalid(const char *msg, char *err, size_t errlen);

// multiprocessors returns the SM count of dev (cached per ordinal).
int multiprocessors(int dev);

// append_slot adds one to *count for every calling thread and returns
// the count before the thread's own, with one atomic per group of threads
// that call it together (warp-aggregated: a list's length is one word
// that every thread of a kernel may hit).
template <typename T>
__device__ __forceinline__ T append_slot(T *count) {
    const cooperative_groups::coalesced_group g = cooperative_groups::coalesced_threads();
    T first = 0;
    if (g.thread_rank() == 0) first = atomicAdd(count, (T)g.size());
    return g.shfl(first, 0) + (T)g.thread_rank();
}

// Teleport is where a PageRank run's ranks teleport: every vertex alike
// (bits NULL: weight 1), or, in a personalised run, only the vertices
// whose bit is set (by layout id; weight p each, 0 elsewhere).
struct Teleport {
    const uint32_t *bits;
    double p;

    __device__ __forceinline__ double weight(uint64_t v) const {
        if (bits == nullptr) return 1.0;
        return (__ldg(&bits[v >> 5]) >> (v & 31)) & 1u ? p : 0.0;
    }
};

// group_sum adds x over the W lanes of this lane's group (groups of W
// lanes aligned in one warp: a fixed-width row's, a vertex's; every lane
// of the warp calls it).
template <uint32_t W>
__device__ __forceinline__ double group_sum(double x) {
    static_assert(W <= 32 && 32 % W == 0, "a group is part of one warp");
#pragma unroll
    for (uint32_t o = W / 2; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
    return x;
}

// row_sum adds x over the MG_BLOCK_ROW_WIDTH lanes of a fixed-width row
// (block.cu, cluster.cu).
__device__ __forceinline__ double row_sum(double x) { return group_sum<MG_BLOCK_ROW_WIDTH>(x); }

// group_any reports whether p holds on any of the W lanes of this lane's
// group (groups of W lanes aligned in one warp: a fixed-width row's, a
// vertex's; every lane of the warp calls it).
template <uint32_t W>
__device__ __forceinline__ bool group_any(bool p) {
    static_assert(W < 32 && 32 % W == 0, "a group is part of one warp");
    const uint32_t votes = __ballot_sync(0xffffffffu, p);
    const uint32_t first = (threadIdx.x % 32) & ~(W - 1u);  // the group's first lane
    return (votes >> first) & ((1u << W) - 1u);
}

// bc_block_reset launches the reset of a one-block or cluster Brandes
// source (block.cu) on stream st: levels unreached (0xffffffff) but the
// source's (0), σ 0 but the source's (1), δ 0, over n vertices.
int bc_block_reset(int dev, uint64_t n, uint32_t source, uint32_t *levels, double *sigma, double *delta,
                   cudaStream_t st, char *err, size_t errlen);

}  // namespace mg

// MG_CHECK evaluates a CUDA runtime call and returns its error, with the
// call's text, from the enclosing function (which has err and errlen).
#define MG_CHECK(call)                                       \
    do {                                                     \
        cudaError_t mg_e_ = (call);                          \
        if (mg_e_ != cudaSuccess)                            \
            return mg::fail(mg_e_, #call, err, errlen);      \
    } while (0)

// MG_CHECK_LAUNCH reports a failed kernel launch (bad configuration, no
// kernel image for the device, ...) named by what.
#define MG_CHECK_LAUNCH(what)                                \
    do {                                                     \
        cudaError_t mg_e_ = cudaGetLastError();              \
        if (mg_e_ != cudaSuccess)                            \
            return mg::fail(mg_e_, what, err, errlen);       \
    } while (0)

// MG_SYNC waits for the device and reports an error of the kernels that ran
// since the last check (an illegal address, a trap), named by what.
#define MG_SYNC(what)                                        \
    do {                                                     \
        cudaError_t mg_e_ = cudaDeviceSynchronize();         \
        if (mg_e_ != cudaSuccess)                            \
            return mg::fail(mg_e_, what, err, errlen);       \
    } while (0)

// MG_SET_DEVICE makes dev current on this host thread.
#define MG_SET_DEVICE(dev) MG_CHECK(cudaSetDevice(dev))

// MG_RECORD records event ev[i] on stream st when the caller passed events
// (ev != NULL), in a function that has ev, st, err and errlen.
#define MG_RECORD(i) \
    if (ev != NULL) MG_CHECK(cudaEventRecord((cudaEvent_t)ev[i], st))

namespace mg {

// Functor structs: a reduction (and later every graph program) is a struct
// with static __device__ members; kernels are templates over it, so the
// compiler inlines the program's logic into the kernel.
//
//   struct Op {
//       using In = ...;  using Acc = ...;
//       static __device__ Acc identity();
//       static __device__ Acc load(In x);          // element -> accumulator
//       static __device__ Acc combine(Acc a, Acc b);  // associative
//   };
//
// A reduction's Op also names Fold, the operator with In = Acc that combines
// per-block partials in the second pass (see reduce.cu).
template <typename T, typename A>
struct SumOp {
    using In = T;
    using Acc = A;
    static __device__ __forceinline__ Acc identity() { return Acc(0); }
    static __device__ __forceinline__ Acc load(In x) { return Acc(x); }
    static __device__ __forceinline__ Acc combine(Acc a, Acc b) { return a + b; }
};

// warp_reduce combines v over the 32 lanes of a full warp; lane 0 holds
// the result.
template <typename Op>
__device__ __forceinline__ typename Op::Acc warp_reduce(typename Op::Acc v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v = Op::combine(v, __shfl_down_sync(0xffffffffu, v, off));
    return v;
}

// warp_run_combine: the lanes of a full warp hold (key, v) for 32
// consecutive stream slots, and equal keys in consecutive lanes form a run
// (one destination). A segmented inclusive scan with C::combine (head flags
// from __ballot_sync, log2(32) __shfl_up_sync steps; skipped when every run
// has length 1) leaves each run's combination in its last lane, for which it
// returns true; the other lanes' v are partials. Every lane must call it.
template <typename C, typename T>
__device__ __forceinline__ bool warp_run_combine(int key, T &v) {
    const int lane = threadIdx.x & 31;
    const int prev = __shfl_up_sync(0xffffffffu, key, 1);
    const uint32_t heads = __ballot_sync(0xffffffffu, lane == 0 || prev != key);
    if (heads != 0xffffffffu) {  // uniform across the warp
        const uint32_t upto = lane == 31 ? 0xffffffffu : ((2u << lane) - 1u);
        const int start = 31 - __clz(heads & upto);  // the lane of this run's head
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
            const T y = __shfl_up_sync(0xffffffffu, v, d);
            if (lane - d >= start) v = C::combine(v, y);
        }
    }
    return lane == 31 || ((heads >> (lane + 1)) & 1u);
}

// block_reduce combines v over a block of BLOCK threads (a multiple of 32,
// at most 1024); thread 0 holds the result. Every thread must call it.
template <typename Op, int BLOCK>
__device__ __forceinline__ typename Op::Acc block_reduce(typename Op::Acc v) {
    static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "BLOCK must be a multiple of 32, at most 1024");
    constexpr int WARPS = BLOCK / 32;
    __shared__ typename Op::Acc warp_partial[WARPS];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_reduce<Op>(v);
    if (WARPS == 1) return v;
    if (lane == 0) warp_partial[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < WARPS ? warp_partial[lane] : Op::identity();
        v = warp_reduce<Op>(v);
    }
    return v;
}

// smem_mutex serialises set_smem's read and raise of a kernel's limit.
inline std::mutex &smem_mutex() {
    static std::mutex m;
    return m;
}

// set_smem raises kernel's dynamic shared-memory limit on the current
// device to at least bytes (always asked: a panel may be exactly 48 KiB,
// and block_reduce's static shared memory comes on top of it). It never
// lowers it: several host threads launch the same kernel on one device
// (the parts of a partitioned run), and a limit set to one launch's exact
// need made another's larger launch fail with an invalid argument. Used
// inside functions that have err and errlen.
template <typename K>
int set_smem(K kernel, size_t bytes, char *err, size_t errlen) {
    std::lock_guard<std::mutex> hold(smem_mutex());
    cudaFuncAttributes a;
    MG_CHECK(cudaFuncGetAttributes(&a, kernel));
    if (a.maxDynamicSharedSizeBytes >= 0 && (size_t)a.maxDynamicSharedSizeBytes >= bytes) return MG_OK;
    MG_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
    return MG_OK;
}

// lower_bound returns the first index i of the sorted a[0..n) with
// a[i] >= x (n when there is none).
template <typename T, typename X = T>
__device__ __forceinline__ uint64_t lower_bound(const T *a, uint64_t n, X x) {
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
        const uint64_t mid = (lo + hi) / 2;
        if (a[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// upper_bound_u64 returns the first index i of the sorted a[0..n) with
// a[i] > x (n when there is none).
__device__ __forceinline__ uint64_t upper_bound_u64(const uint64_t *a, uint64_t n, uint64_t x) {
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
        const uint64_t mid = (lo + hi) / 2;
        if (a[mid] <= x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// key_bits returns the number of bits (1..64) that hold every key up to
// max_key: the end bit of a radix sort over such keys.
inline int key_bits(uint64_t max_key) {
    int b = 1;
    while (b < 64 && (max_key >> b) != 0) b++;
    return b;
}

// last_arrival is called by every thread of a block once the block's writes
// that other blocks read are done; it takes the block's ticket (one atomic
// on *ticket) and returns, the same in every thread, whether the block is
// the count-th and last to arrive. The last block then sees the others'
// writes (each fenced before its ticket) and must set *ticket back to 0
// itself if the ticket is used again.
__device__ __forceinline__ bool last_arrival(uint32_t *ticket, uint32_t count) {
    __shared__ bool s_last;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) s_last = atomicAdd(ticket, 1u) == count - 1;
    __syncthreads();
    if (s_last) __threadfence();
    return s_last;
}

// grid_for returns the blocks of a grid-stride launch over items with
// block threads a block: one block per block items, at most
// blocks_per_sm per SM of dev, at least one.
inline unsigned grid_for(int dev, uint64_t items, int block, int blocks_per_sm) {
    uint64_t g = (items + block - 1) / block;
    const uint64_t cap = (uint64_t)multiprocessors(dev) * blocks_per_sm;
    if (g > cap) g = cap;
    return (unsigned)(g < 1 ? 1 : g);
}

// coop_grid sets *grid to the blocks of a cooperative launch of kernel
// with block threads a block on dev: blocks_per_sm per SM, or as many as
// fit when that is 0 or more (every block must be resident at once). what
// names the caller in the errors. Used inside functions that have err and
// errlen.
template <typename K>
int coop_grid(K kernel, int block, uint32_t blocks_per_sm, int dev, const char *what, unsigned *grid, char *err,
              size_t errlen) {
    char msg[128];
    int coop = 0;
    MG_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    if (!coop) {
        snprintf(msg, sizeof msg, "%s: the device has no cooperative launch", what);
        return invalid(msg, err, errlen);
    }
    int per_sm = 0;
    MG_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0));
    if (per_sm < 1) {
        snprintf(msg, sizeof msg, "%s: the kernel does not fit on an SM", what);
        return invalid(msg, err, errlen);
    }
    if (blocks_per_sm > 0 && blocks_per_sm < (uint32_t)per_sm) per_sm = (int)blocks_per_sm;
    *grid = (unsigned)multiprocessors(dev) * (unsigned)per_sm;
    return MG_OK;
}

// shared_as returns the block's dynamic shared memory as an array of T
// (kernels over different value types share one extern declaration).
template <typename T>
__device__ __forceinline__ T *shared_as() {
    extern __shared__ __align__(16) unsigned char mg_dyn_smem[];
    return reinterpret_cast<T *>(mg_dyn_smem);
}

// part_emit puts a lane's message m (when emit) for part owner into that
// owner's segment of send, [owner_start[owner], ...), at a slot taken from
// sent[owner]: one atomic per owner and warp (a warp's messages have at
// most parts owners). Every lane of the warp must call it.
__device__ __forceinline__ void part_emit(bool emit, uint32_t owner, mg_part_msg m, const uint64_t *owner_start,
                                          uint64_t *sent, mg_part_msg *send) {
    const uint32_t want = __ballot_sync(0xffffffffu, emit);
    if (!emit) return;
    const uint32_t lane = threadIdx.x & 31;
    const uint32_t same = __match_any_sync(want, owner);
    const int leader = __ffs(same) - 1;
    unsigned long long slot = 0;
    if ((int)lane == leader) slot = atomicAdd((unsigned long long *)&sent[owner], (unsigned long long)__popc(same));
    slot = __shfl_sync(same, slot, leader);
    slot += __popc(same & ((1u << lane) - 1u));
    send[owner_start[owner] + slot] = m;
}

}  // namespace mg

#endif  // MGRAPH_KERNELS_INTERNAL_CUH
