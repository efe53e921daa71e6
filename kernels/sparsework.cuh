// sparsework.cuh — the pieces of a MultiGraphS iteration on the GPU (min and
// sum programs), as device functions templated over a program's functor
// struct. The one-step kernels (sparse.cu) and the iterations kept on the
// device (sparseloop.cu) are both made of them:
//
//   advance_group  one group of 64 frontier vertices, by a 256-thread block,
//                  with the paper's three-stage split; hubs go to a hub list;
//   hub_walk       the listed hubs' rows, cut into chunks dealt over the grid;
//   apply_walk     the touched vertices: acc folded into the values, the
//                  activated ones appended to the next frontier.
//
// Every contribution merges into acc[dst] with a global atomic (atomicMin,
// atomicAdd); the one that finds the identity there appends dst to the
// touched list (warp-aggregated: one atomic per warp). The apply folds acc
// into the values of the touched vertices only (resetting acc), so every
// contribution of the iteration read the values from before it (synchronous
// semantics). The shared-memory heavy segments are not here yet
// (docs/gpu-engines.md).
//
// The values and the frontier lists are plain pointers here, never
// const __restrict__: the device loop writes them in the same kernel that
// reads them, where the non-coherent read-only path would be wrong.
#ifndef MGRAPH_KERNELS_SPARSEWORK_CUH
#define MGRAPH_KERNELS_SPARSEWORK_CUH

#include <type_traits>

#include "minprog.cuh"
#include "sumprog.cuh"

namespace {

constexpr int kSparseBlock = 256;

__device__ __forceinline__ uint32_t lane_id() { return threadIdx.x & 31; }

// warp_append appends x for the lanes with app set at *pos-relative places
// of out, one atomicAdd per warp. Every lane of the warp must call it.
__device__ __forceinline__ void warp_append(bool app, uint32_t x, uint32_t *pos, uint32_t *out) {
    const unsigned mask = __ballot_sync(0xffffffffu, app);
    if (mask == 0) return;
    uint32_t base = 0;
    if (lane_id() == 0) base = atomicAdd(pos, (uint32_t)__popc(mask));
    base = __shfl_sync(0xffffffffu, base, 0);
    if (app) out[base + __popc(mask & ((1u << lane_id()) - 1))] = x;
}

// BlockQueue collects a block's appends to a global list (touched, the next
// frontier) in shared memory, so that the list's counter, one address every
// block of the grid appends to, takes one atomicAdd per block and flush
// instead of one per warp and append. Appends past kQueueCap go to the list
// directly (warp_append).
constexpr uint32_t kQueueCap = 2048;

struct BlockQueue {
    uint32_t *items;  // kQueueCap entries
    uint32_t *count;  // reserved entries (may pass kQueueCap)
    uint32_t *base;   // where a flush writes in the global list
};

// block_queue returns the block's queue (one per kernel: its shared memory is
// static, whichever phase of the kernel calls it).
__device__ __forceinline__ BlockQueue block_queue() {
    __shared__ uint32_t items[kQueueCap];
    __shared__ uint32_t count, base;
    return BlockQueue{items, &count, &base};
}

// queue_append appends x for the lanes with app set (every lane of the warp
// must call it; the queue's count must have been zeroed before a barrier).
__device__ __forceinline__ void queue_append(bool app, uint32_t x, const BlockQueue &q, uint32_t *pos,
                                             uint32_t *out) {
    const unsigned mask = __ballot_sync(0xffffffffu, app);
    if (mask == 0) return;
    uint32_t b = 0;
    if (lane_id() == 0) b = atomicAdd(q.count, (uint32_t)__popc(mask));
    b = __shfl_sync(0xffffffffu, b, 0);
    const uint32_t k = b + __popc(mask & ((1u << lane_id()) - 1));
    const bool fits = k < kQueueCap;
    if (app && fits) q.items[k] = x;
    warp_append(app && !fits, x, pos, out);
}

// queue_flush writes the queued entries to the global list with one
// atomicAdd on its counter and empties the queue. The whole block calls it;
// it begins and ends with a barrier.
__device__ __forceinline__ void queue_flush(const BlockQueue &q, uint32_t *pos, uint32_t *out) {
    __syncthreads();
    const uint32_t n = min(*q.count, kQueueCap);
    if (threadIdx.x == 0 && n > 0) *q.base = atomicAdd(pos, n);
    __syncthreads();
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) out[*q.base + i] = q.items[i];
    __syncthreads();
    if (threadIdx.x == 0) *q.count = 0;
    __syncthreads();
}

// The advance (paper §5, the three-stage split): a 256-thread block takes 64
// frontier vertices. Each vertex's row [lo, hi) of E arcs is cut from the
// end: stage 1, the last E mod 32 arcs, by 4-thread virtual warps (one per
// vertex); stage 2, the next (E − E mod 32) mod 256 arcs, by full warps (warp
// w takes vertices w, w+8, …, 32 arcs at a time); stage 3, the remaining
// multiple of 256 from lo, by the whole block, vertex after vertex. A vertex
// of more than kHubArcs arcs is not walked by its block at all: it goes to a
// small hub list (g_hubs, a device global of this translation unit, and a
// count the caller zeroed, one of g_hub_count's), and hub_walk,
// after every group is done, splits every hub's row into kHubChunk-arc chunks
// dealt round robin over its grid, so one hub does not serialize on one
// block. When the hub list is full the block walks the hub itself (correct,
// only slower).
constexpr int kVertsPerBlock = 64;
constexpr uint64_t kHubArcs = 4096;
constexpr uint64_t kHubChunk = 1024;
constexpr uint32_t kHubCap = 8192;

// Hub list counts: the one-step kernels use the first, the device loop both
// (one per iteration parity, so the next one is zeroed while this one is read).
__device__ uint32_t g_hub_count[2];
__device__ uint32_t g_hubs[kHubCap];

// visit: one arc e of source value val (every lane of the warp calls it,
// ok = false for lanes without an arc).
template <typename Op, bool DRY>
__device__ __forceinline__ void visit(const Op &op, const mg_dlayout &L, const typename Op::T *values, bool ok,
                                      uint64_t e, typename Op::T val, typename Op::T *acc, uint32_t *touched,
                                      mg_step_counters *ctr, const BlockQueue &q) {
    bool app = false;
    uint32_t d = 0;
    if (ok) {
        d = L.sparse_dst[e];
        const typename Op::T c = op.edge(val, Op::weighted ? L.sparse_weights[e] : 0u);
        if (c != Op::identity && op.useful(d, c, values)) {
            if (DRY) {
                Op::atomic(&acc[d & (MG_SAMPLE_SCRATCH - 1)], c);
            } else {
                app = Op::atomic(&acc[d], c) == Op::identity;
            }
        }
    }
    if (!DRY) queue_append(app, d, q, &ctr->touched, touched);
}

// advance_group: frontier[i·stride] for the 64 i of group (i < count), by the
// whole block; the touched destinations go through q (flushed at the end).
// DRY: the hybrid's sample, whose atomics go to a scratch array and append
// nothing. Ends with a block barrier, so a block may take group after group.
template <typename Op, bool DRY>
__device__ __forceinline__ void advance_group(const Op &op, const mg_dlayout &L, const typename Op::T *values,
                                              const uint32_t *frontier, uint32_t count, uint32_t stride,
                                              uint32_t group, typename Op::T *acc, uint32_t *touched,
                                              mg_step_counters *ctr, uint32_t *hub_count, const BlockQueue &q) {
    using T = typename Op::T;
    __shared__ T s_val[kVertsPerBlock];
    __shared__ uint64_t s_lo[kVertsPerBlock], s_hi[kVertsPerBlock];
    const uint32_t t = threadIdx.x;
    int wide = 0, huge = 0;  // this thread's vertex has ≥ 32 (≥ 256) arcs to walk
    if (t == 0) *q.count = 0;
    if (t < kVertsPerBlock) {
        const uint64_t i = (uint64_t)group * kVertsPerBlock + t;
        T val = Op::identity;
        uint64_t lo = 0, hi = 0;
        if (i < count) {
            const uint32_t u = frontier[i * stride];
            val = values[u];
            if (val != Op::identity) {
                lo = L.sparse_offsets[u];
                hi = L.sparse_offsets[u + 1];
                if (hi - lo > kHubArcs) {
                    const uint32_t k = atomicAdd(hub_count, 1u);
                    if (k < kHubCap) {
                        g_hubs[k] = u;
                        hi = lo;  // hub_walk walks it
                    }
                }
            }
        }
        s_val[t] = val;
        s_lo[t] = lo;
        s_hi[t] = hi;
        wide = hi - lo >= 32;
        huge = hi - lo >= kSparseBlock;
    }
    // Stages 2 and 3 only run when some vertex of the group needs them (on
    // low-degree graphs none does, and their loops over the group's 64
    // vertices would be the block's main cost).
    wide = __syncthreads_or(wide);
    const uint32_t lane = lane_id(), warp = t / 32;
    // Stage 1: virtual warp t/4 takes vertex t/4's last E mod 32 arcs.
    {
        const uint32_t v = t / 4, sub = t & 3;
        const uint64_t hi = s_hi[v];
        const uint32_t r = (uint32_t)((hi - s_lo[v]) & 31);
        const T val = s_val[v];
        // Loop while any lane of the warp has arcs left (≤ 8 rounds).
        for (uint32_t k = sub; __any_sync(0xffffffffu, k < r); k += 4)
            visit<Op, DRY>(op, L, values, k < r, hi - r + k, val, acc, touched, ctr, q);
    }
    if (!wide) {  // uniform across the block
        if (DRY) __syncthreads(); else queue_flush(q, &ctr->touched, touched);
        return;
    }
    huge = __syncthreads_or(huge);
    // Stage 2: warp w takes vertices w, w+8, …: (E − E mod 32) mod 256 arcs
    // ending where stage 1 begins.
    for (uint32_t v = warp; v < kVertsPerBlock; v += kSparseBlock / 32) {
        const uint64_t lo = s_lo[v], deg = s_hi[v] - lo;
        const uint64_t end = s_hi[v] - (deg & 31);
        const uint64_t beg = end - ((deg - (deg & 31)) & 255);
        const T val = s_val[v];
        for (uint64_t b = beg; b < end; b += 32) visit<Op, DRY>(op, L, values, true, b + lane, val, acc, touched, ctr, q);
    }
    // Stage 3: the whole block, vertex after vertex, 256 arcs at a time.
    for (uint32_t v = 0; huge && v < kVertsPerBlock; v++) {
        const uint64_t lo = s_lo[v], deg = s_hi[v] - lo;
        const uint64_t end = lo + (deg & ~(uint64_t)255);
        const T val = s_val[v];
        for (uint64_t b = lo; b < end; b += kSparseBlock)
            visit<Op, DRY>(op, L, values, true, b + t, val, acc, touched, ctr, q);
    }
    if (DRY) __syncthreads(); else queue_flush(q, &ctr->touched, touched);
}

// hub_walk: the hubs advance_group listed (after every group is done), each
// row cut into kHubChunk-arc chunks; chunk g of the list (counting over the
// hubs in list order) goes to block g mod gridDim.x, which walks it 256 arcs
// at a time. The hubs are taken 256 at a time: each thread reads one hub's
// row, and a block-wide scan of the chunk counts gives every hub's first
// chunk, so a block finds the hub of each of its chunks by a binary search in
// shared memory.
template <typename Op, bool DRY>
__device__ __forceinline__ void hub_walk(const Op &op, const mg_dlayout &L, const typename Op::T *values,
                                         typename Op::T *acc, uint32_t *touched, mg_step_counters *ctr,
                                         const uint32_t *hub_count, const BlockQueue &q) {
    using T = typename Op::T;
    __shared__ uint64_t s_first[kSparseBlock + 1];  // first chunk of each hub of the batch, relative
    __shared__ uint64_t s_lo[kSparseBlock], s_hi[kSparseBlock];
    __shared__ T s_val[kSparseBlock];
    __shared__ uint64_t s_warp[kSparseBlock / 32];
    const uint32_t hubs = min(*(volatile const uint32_t *)hub_count, kHubCap);
    const uint64_t G = gridDim.x;
    const uint32_t t = threadIdx.x, lane = lane_id(), warp = t / 32;
    if (hubs == 0) return;  // uniform across the grid
    if (t == 0) *q.count = 0;
    uint64_t base = 0;  // chunks of the batches before this one
    for (uint32_t batch = 0; batch < hubs; batch += kSparseBlock) {
        uint64_t nch = 0, lo = 0, hi = 0;
        T val = Op::identity;
        if (batch + t < hubs) {
            const uint32_t u = g_hubs[batch + t];
            val = values[u];
            lo = L.sparse_offsets[u];
            hi = L.sparse_offsets[u + 1];
            nch = (hi - lo + kHubChunk - 1) / kHubChunk;
        }
        // Inclusive scan of nch over the block.
        uint64_t x = nch;
#pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            const uint64_t y = __shfl_up_sync(0xffffffffu, x, off);
            if (lane >= (uint32_t)off) x += y;
        }
        if (lane == 31) s_warp[warp] = x;
        __syncthreads();
        uint64_t before = 0, total = 0;
        for (uint32_t w = 0; w < kSparseBlock / 32; w++) {
            if (w < warp) before += s_warp[w];
            total += s_warp[w];
        }
        s_first[t + 1] = before + x;
        if (t == 0) s_first[0] = 0;
        s_lo[t] = lo;
        s_hi[t] = hi;
        s_val[t] = val;
        __syncthreads();
        // This block's chunks g of the batch: (base + g) mod G == blockIdx.x.
        for (uint64_t g = (blockIdx.x + G - base % G) % G; g < total; g += G) {
            uint32_t l = 0, r = kSparseBlock;  // the hub k with s_first[k] <= g < s_first[k+1]
            while (r - l > 1) {
                const uint32_t mid = (l + r) / 2;
                if (s_first[mid] <= g) l = mid; else r = mid;
            }
            const uint64_t cb = s_lo[l] + (g - s_first[l]) * kHubChunk, ce = min(cb + kHubChunk, s_hi[l]);
            const T v = s_val[l];
            for (uint64_t b = cb; b < ce; b += kSparseBlock) {
                const uint64_t e = b + t;
                visit<Op, DRY>(op, L, values, e < ce, e, v, acc, touched, ctr, q);
            }
        }
        base += total;
        __syncthreads();
    }
    if (!DRY) queue_flush(q, &ctr->touched, touched);
}

// NearFar is where apply_walk sends the activated vertices whose value is at
// least split, when delta > 0 (the device loop's near-far iterations, min
// programs only): to the far pile, once (in_far[v] set), instead of the next
// frontier. A vertex activated below the split clears its in_far flag, which
// makes its far entry stale.
struct NearFar {
    uint32_t delta;  // 0: off
    uint32_t split;
    uint32_t *in_far, *far, *far_count;
};

// Picked is where walk_to_list sends item i: vertex v to the next list, to
// the side list, or (neither) nowhere.
struct Picked {
    uint32_t v;
    bool next, side;
};

// out_arcs returns vertex v's out-arcs (its sparse row's length).
__device__ __forceinline__ uint64_t out_arcs(const mg_dlayout &L, uint64_t v) {
    return L.sparse_offsets[v + 1] - L.sparse_offsets[v];
}

// list_begin starts a block's share of a walk over items [0, total) that
// appends vertices to a list through the block's queue q: false (the
// same in the whole block) when the block has no item.
__device__ __forceinline__ bool list_begin(uint64_t total, const BlockQueue &q) {
    if ((uint64_t)blockIdx.x * kSparseBlock >= total) return false;
    if (threadIdx.x == 0) *q.count = 0;
    __syncthreads();
    return true;
}

// list_end ends a block's share of such a walk: the queue to next_list,
// and edges, the out-arcs of the vertices the block appended, added to
// ctr->next_edges with one atomic.
__device__ __forceinline__ void list_end(const BlockQueue &q, uint32_t *next_list, mg_step_counters *ctr,
                                         unsigned long long edges) {
    queue_flush(q, &ctr->next_count, next_list);
    edges = mg::block_reduce<mg::SumOp<unsigned long long, unsigned long long>, kSparseBlock>(edges);
    if (threadIdx.x == 0 && edges > 0) atomicAdd((unsigned long long *)&ctr->next_edges, edges);
}

// walk_to_list: the rounds apply_walk and far_walk make over items
// [0, total), 256 per block and round (uniform across the block, so that
// every lane of a warp takes part in the appends): pick(i) says where item
// i's vertex goes. The next list's appends go through the block's queue q,
// and their out-arcs are summed into ctr->next_edges, one atomic per block;
// the side list's (side != NULL) are warp-aggregated into side_count.
template <typename Pick>
__device__ __forceinline__ void walk_to_list(const mg_dlayout &L, uint64_t total, Pick pick, uint32_t *next_list,
                                             mg_step_counters *ctr, uint32_t *side, uint32_t *side_count,
                                             const BlockQueue &q) {
    if (!list_begin(total, q)) return;
    const uint64_t step = (uint64_t)gridDim.x * kSparseBlock;
    unsigned long long edges = 0;
    for (uint64_t base = (uint64_t)blockIdx.x * kSparseBlock; base < total; base += step) {  // uniform
        const uint64_t i = base + threadIdx.x;
        Picked p{0, false, false};
        if (i < total) {
            p = pick(i);
            if (p.next) edges += out_arcs(L, p.v);
        }
        queue_append(p.next, p.v, q, &ctr->next_count, next_list);
        if (side != nullptr) warp_append(p.side, p.v, side_count, side);  // uniform condition
    }
    list_end(q, next_list, ctr, edges);
}

// apply_walk: the touched vertices (ctr->touched of them, read once every
// contribution is in): acc folded into the values and reset; the activated
// vertices go to next_list (or to the far pile, see NearFar).
template <typename Op>
__device__ __forceinline__ void apply_walk(const Op &op, const mg_dlayout &L, typename Op::T *values,
                                           typename Op::T *acc, const uint32_t *touched, uint32_t *next_list,
                                           mg_step_counters *ctr, const BlockQueue &q, const NearFar &nf) {
    const uint32_t total = *(volatile uint32_t *)&ctr->touched;
    auto pick = [&](uint64_t i) {
        const uint32_t v = touched[i];
        const typename Op::T a = acc[v];
        acc[v] = Op::identity;
        Picked p{v, op.apply(v, a, values), false};
        if constexpr (std::is_same<typename Op::T, uint32_t>::value) {
            if (p.next && nf.delta > 0) {
                if (values[v] >= nf.split) {
                    p.side = atomicExch(&nf.in_far[v], 1u) == 0;  // else its entry is there already
                    p.next = false;
                } else if (nf.in_far[v] != 0) {
                    nf.in_far[v] = 0;  // its far entry is stale now
                }
            }
        }
        return p;
    };
    walk_to_list(L, total, pick, next_list, ctr, nf.delta > 0 ? nf.far : nullptr, nf.far_count, q);
}

// far_walk: the far pile's live entries (pile[0..count), in_far set): those
// whose value is below split leave it for next_list, the others go to keep
// (keep_count) when keep is not NULL.
__device__ __forceinline__ void far_walk(const mg_dlayout &L, const uint32_t *values, const uint32_t *pile,
                                         uint32_t count, uint32_t split, uint32_t *in_far, uint32_t *next_list,
                                         mg_step_counters *ctr, uint32_t *keep, uint32_t *keep_count,
                                         const BlockQueue &q) {
    auto pick = [&](uint64_t i) {
        const uint32_t v = pile[i];
        Picked p{v, false, false};
        if (in_far[v] != 0) {
            p.next = values[v] < split;
            p.side = !p.next;
            if (p.next) in_far[v] = 0;
        }
        return p;
    };
    walk_to_list(L, count, pick, next_list, ctr, keep, keep_count, q);
}

}  // namespace

#endif  // MGRAPH_KERNELS_SPARSEWORK_CUH
