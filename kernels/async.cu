// async.cu — SEP-Graph's Async + Push + data-driven execution of the min
// programs (BFS, SSSP, CC): one persistent kernel over a device worklist, no
// iteration barrier. A relaxation that lowers a value is seen by every thread
// that reads it next, and the vertex it activates is processed as soon as a
// block takes it, not at the next iteration.
//
// The threads of a block manage the worklist together and work
// asynchronously between two such updates (SEP-Graph §3, "Async and DD"): a
// block holds up to kAsyncBatch items (vertices) in shared memory, expands
// their arcs in one round (an edge-balanced split over the items' degrees:
// each thread takes every kAsyncBlock-th arc of the round, found by a
// binary search in the items' degree prefix), relaxes each destination with
// the program's atomic min, and appends the destinations it lowered to the
// round's local next list. It keeps up to kAsyncKeep of them for its own
// next round (no global traffic at all for a frontier that stays small) and
// shares the rest through a global ring of tickets, from which idle blocks
// claim. A round's latency is three dependent memory accesses (offsets, arc,
// atomic), where a synchronous iteration adds a grid barrier and the
// frontier's global list.
//
// The ring: 64-bit slots holding (ticket << 32 | vertex), MG_ASYNC_EMPTY when
// free. A producer takes tickets from tail and writes each slot when it is
// free; a consumer takes tickets from head (never past tail), waits for its
// slots to show its tickets, and frees them. tail − head never exceeds the
// ring's size: a producer that would pass it sets the overflow flag and
// every block stops (the caller reports it).
//
// Termination: work counts the items queued, held or being processed. A
// round adds its new items before they become visible to other blocks and
// subtracts its own only after, so work is zero only when every block is
// idle and the ring is empty, and it stays zero.
//
// CC's labels are followed to the end of their chain of smaller labels
// before they are sent (pointer jumping), so a small label spreads far
// faster than one hop per relaxation.
//
// Near-far priority (delta > 0, SSSP): a lowered value at or above the split
// goes to a far pile (once per vertex: in_far) instead of the worklist. When
// work reaches zero every block meets at a grid barrier, the split moves to
// the smallest piled value plus delta, the piled vertices below it become
// work and the others move to the other pile; the run ends when the pile is
// empty (or at once, without near-far, when work is zero).
#include <cooperative_groups.h>

#include "minprog.cuh"

namespace {

namespace cg = cooperative_groups;

constexpr int kAsyncBlock = MG_ASYNC_BLOCK;      // threads per block
constexpr uint32_t kAsyncBatch = kAsyncBlock;    // items one round expands (one per thread)
constexpr uint32_t kAsyncNext = 2 * kAsyncBatch; // the round's local next list, in shared memory
constexpr uint32_t kAsyncPrefetchArcs = 8 * kAsyncBlock;  // rounds this small read each push's arc range
constexpr uint32_t kNoRange = 0xffffffffu;      // an item whose arc range is not known yet
constexpr uint32_t kAsyncKeep = MG_ASYNC_KEEP;   // items a block keeps for its own next round
constexpr uint32_t kAsyncClaimMin = 32;          // fewest items one claim takes when more wait
constexpr uint32_t kAsyncIdleNs = 256;           // back-off of a block that found no work
constexpr unsigned long long kEmpty = MG_ASYNC_EMPTY;

enum : int { kClaimed = 0, kDone = 1, kBucket = 2 };

struct Ring {
    unsigned long long *slot;
    uint32_t mask;  // size − 1 (a power of two)
};

// add64 adds d (may be negative) to the 64-bit counter *p.
__device__ __forceinline__ void add64(uint64_t *p, long long d) {
    atomicAdd(reinterpret_cast<unsigned long long *>(p), (unsigned long long)d);
}

__device__ __forceinline__ uint32_t sat_add32(uint32_t x, uint32_t y) {
    const uint32_t s = x + y;
    return s < x ? mg::kMinIdentity : s;
}

// ring_write publishes vertex v under ticket t, waiting while the slot still
// holds an item a consumer has claimed but not yet read (giving up when the
// overflow flag is set).
__device__ __forceinline__ void ring_write(Ring r, uint32_t t, uint32_t v, const mg_async_state *st) {
    const unsigned long long x = ((unsigned long long)t << 32) | v;
    while (atomicCAS(&r.slot[t & r.mask], kEmpty, x) != kEmpty) {
        if (*(volatile const uint32_t *)&st->overflow) return;  // its reader may have stopped
        __nanosleep(32);
    }
}

// ring_read waits for ticket t's item, frees its slot and returns the
// vertex; it gives up (returning 0) when the overflow flag is set, since the
// ticket's producer may then never write it.
__device__ __forceinline__ uint32_t ring_read(Ring r, uint32_t t, const mg_async_state *st) {
    volatile unsigned long long *p = &r.slot[t & r.mask];
    unsigned long long x;
    while ((x = *p) == kEmpty || (uint32_t)(x >> 32) != t)
        if (*(volatile const uint32_t *)&st->overflow) return 0;
    *p = kEmpty;
    return (uint32_t)x;
}

// take_tickets reserves k tickets at the tail for items already counted in
// work, or sets the overflow flag (and returns false) when the ring would
// hold more than its size.
__device__ __forceinline__ bool take_tickets(Ring r, mg_async_state *st, uint32_t k, uint32_t *base) {
    *base = atomicAdd(&st->tail, k);
    const uint32_t head = *(volatile uint32_t *)&st->head;
    if (*base + k - head > r.mask + 1) {
        atomicExch(&st->overflow, 1u);
        return false;
    }
    return true;
}

// block_exclusive_scan returns the sum of x over the block's threads before
// this one; *total gets the block's sum. Every thread must call it, with
// parity alternating between calls (the warp sums are double-buffered, so
// one barrier suffices: a call's sums are not overwritten before every
// thread has passed the next call's barrier).
__device__ __forceinline__ uint64_t block_exclusive_scan(uint64_t x, uint32_t parity, uint64_t *total) {
    constexpr int kWarps = kAsyncBlock / 32;
    __shared__ uint64_t warp_sum[2][kWarps];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    uint64_t incl = x;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const uint64_t y = __shfl_up_sync(0xffffffffu, incl, d);
        if (lane >= d) incl += y;
    }
    if (lane == 31) warp_sum[parity][warp] = incl;
    __syncthreads();
    uint64_t before = 0, all = 0;
#pragma unroll
    for (int w = 0; w < kWarps; w++) {
        const uint64_t s = warp_sum[parity][w];
        before += w < warp ? s : 0;
        all += s;
    }
    *total = all;
    return before + incl - x;
}

// next_bucket is near-far's bucket change, run by every thread of every
// block once work is zero: it returns false when the far pile is empty (the
// run is over), else moves the split past the smallest piled value and the
// piled vertices below it into the ring.
template <typename Op>
__device__ bool next_bucket(cg::grid_group &grid, Ring ring, const uint32_t *values, uint32_t *queued, uint32_t delta,
                            uint32_t *pile[2], uint32_t *in_far, mg_async_state *st, uint32_t &split,
                            uint32_t &cur) {
    const bool leader = blockIdx.x == 0 && threadIdx.x == 0;
    const uint64_t tid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x, step = (uint64_t)gridDim.x * blockDim.x;
    if (leader) {
        st->far_min = mg::kMinIdentity;
        st->far_count[1 - cur] = 0;
    }
    grid.sync();
    const uint32_t piled = *(volatile uint32_t *)&st->far_count[cur];
    for (uint64_t i = tid; i < piled; i += step) atomicMin(&st->far_min, values[pile[cur][i]]);
    grid.sync();
    const uint32_t low = *(volatile uint32_t *)&st->far_min;
    if (low == mg::kMinIdentity) return false;
    split = sat_add32(max(split, low), delta);
    // Every thread of a warp loops the same number of times (the bound is
    // rounded up to whole warps) so the warp-wide ballot is safe.
    const uint64_t bound = (piled + 31) / 32 * 32;
    for (uint64_t i = tid; i < bound; i += step) {
        const uint32_t v = i < piled ? pile[cur][i] : 0;
        const bool real = i < piled;
        const bool near = real && values[v] < split;
        const uint32_t m = __ballot_sync(0xffffffffu, near);
        const int lane = threadIdx.x & 31;
        uint32_t base = 0;
        if (lane == 0 && m != 0) {
            add64(&st->work, __popc(m));
            take_tickets(ring, st, __popc(m), &base);  // the ring is empty here: it cannot overflow
        }
        base = __shfl_sync(0xffffffffu, base, 0);
        if (near) {
            in_far[v] = 0;
            queued[v] = 1;  // every flag is 0 here: nothing is queued
            ring_write(ring, base + __popc(m & ((1u << lane) - 1u)), v, st);
        } else if (real) {
            pile[1 - cur][atomicAdd(&st->far_count[1 - cur], 1u)] = v;
        }
    }
    cur = 1 - cur;
    if (leader) st->buckets++;
    __threadfence();
    grid.sync();
    return true;
}

template <typename Op>
__global__ void __launch_bounds__(kAsyncBlock) async_kernel(Op op, mg_dlayout L, uint32_t *values, Ring ring,
                                                            uint32_t *queued, uint32_t delta, uint32_t *far0,
                                                            uint32_t *far1, uint32_t *in_far, mg_async_state *st) {
    cg::grid_group grid = cg::this_grid();
    // A round expands s_items[p][0..k) and appends to s_items[1 - p]: the
    // next round's items are the first ones it keeps (no copy). s_ival is
    // the value each item was queued with (0 for items from the ring: read
    // it), s_ibeg and s_ideg its arc range when the round that queued it
    // read it (small rounds do, with the relaxation: one dependent access
    // less per round), else s_ideg is kNoRange.
    __shared__ uint32_t s_items[2][kAsyncNext], s_ival[2][kAsyncNext], s_ideg[2][kAsyncNext];
    __shared__ uint64_t s_ibeg[2][kAsyncNext];
    __shared__ uint32_t s_spill[kAsyncNext], s_val[kAsyncBatch];
    __shared__ uint64_t s_beg[kAsyncBatch], s_pre[kAsyncBatch + 1];
    __shared__ uint32_t s_count[2], s_claimed, s_nspill, s_base;
    __shared__ int s_state;
    const uint32_t tid = threadIdx.x;
    uint32_t split = delta > 0 ? delta : mg::kMinIdentity;  // values below the split are near
    uint32_t cur = 0;
    uint32_t *pile[2] = {far0, far1};
    uint64_t processed = 0, shared = 0, held = 0;  // thread 0's
    uint32_t p = 0, k = 0;  // the same in every thread
    for (;;) {
        if (k == 0) {  // nothing of its own: claim from the ring
            if (tid == 0) {
                volatile mg_async_state *vs = st;
                uint32_t got = 0, h = 0;
                int state = kClaimed;
                for (;;) {
                    if (vs->overflow) {
                        state = kDone;
                        break;
                    }
                    h = vs->head;
                    const uint32_t avail = vs->tail - h;
                    if ((int32_t)avail > 0) {
                        const uint32_t want = min(min(avail, kAsyncBatch), max(avail / gridDim.x, kAsyncClaimMin));
                        if (atomicCAS(&st->head, h, h + want) == h) {
                            got = want;
                            break;
                        }
                        continue;
                    }
                    if (vs->work == 0) {
                        state = delta > 0 ? kBucket : kDone;
                        break;
                    }
                    __nanosleep(kAsyncIdleNs);
                }
                s_claimed = got;  // not s_count[p]: others may still read last round's
                s_base = h;
                s_state = state;
                held = got;  // the producers counted them
                shared += got;
            }
            __syncthreads();
            if (s_state == kDone) break;
            if (s_state == kBucket) {
                if (!next_bucket<Op>(grid, ring, values, queued, delta, pile, in_far, st, split, cur)) break;
                __syncthreads();  // s_state is written again by the next claim
                continue;
            }
            k = s_claimed;
            if (tid < k) {
                const uint32_t v = ring_read(ring, s_base + tid, st);
                atomicExch(&queued[v], 0u);  // a later lowering queues it again ...
                __threadfence();              // ... once this run has read its value
                s_items[p][tid] = v;
                s_ival[p][tid] = 0;
                s_ideg[p][tid] = kNoRange;
            }
            __syncthreads();
            if (tid == 0) s_state = *(volatile uint32_t *)&st->overflow ? kDone : kClaimed;
            __syncthreads();
            if (s_state == kDone) break;
        }
        // One round over the block's k items, with the value each was
        // queued with, or the current one. An item whose value has fallen
        // since was queued again by the lowering: processing it with the
        // older value only relaxes in vain, so weighted programs (where
        // that is common) check and skip it, and the others save the read.
        const uint32_t *items = s_items[p];
        uint32_t *next = s_items[1 - p], *next_val = s_ival[1 - p], *next_deg = s_ideg[1 - p];
        uint64_t *next_beg = s_ibeg[1 - p];
        uint64_t deg = 0;
        if (tid < k) {
            const uint32_t v = items[tid];
            uint64_t b = s_ibeg[p][tid];
            deg = s_ideg[p][tid];
            if (deg == kNoRange) {
                b = L.sparse_offsets[v];
                deg = L.sparse_offsets[v + 1] - b;
            }
            uint32_t c = s_ival[p][tid];
            if (c == 0 || Op::jumps) {
                c = *(volatile uint32_t *)&values[v];
            } else if (Op::weighted && *(volatile uint32_t *)&values[v] < c) {
                deg = 0;  // stale: the lowering queued it again (weighted runs lower a vertex often)
            }
            if (Op::jumps) {  // follow the label to the end of its chain
                for (;;) {
                    const uint32_t nx = *(volatile uint32_t *)&values[c];
                    if (nx >= c) break;
                    c = nx;
                }
            }
            s_beg[tid] = b;
            s_val[tid] = c;
        }
        if (tid == 0) {
            s_count[1 - p] = 0;
            processed += k;
        }
        uint64_t total;
        const uint64_t before = block_exclusive_scan(deg, p, &total);
        if (tid < k) s_pre[tid] = before;
        if (tid == 0) s_pre[k] = total;
        __syncthreads();
        const bool prefetch = total <= kAsyncPrefetchArcs;  // the same in every thread
        for (uint64_t e = tid; e < total; e += kAsyncBlock) {
            const uint32_t i = (uint32_t)mg::lower_bound(s_pre + 1, k, e + 1);
            const uint64_t arc = s_beg[i] + (e - s_pre[i]);
            const uint32_t u = L.sparse_dst[arc];
            const uint32_t c = op.edge(s_val[i], Op::weighted ? L.sparse_weights[arc] : 0u);
            if (c == mg::kMinIdentity) continue;
            uint64_t ub = 0, ue = 0;
            if (prefetch) {  // issued with the atomic, not after it
                ub = L.sparse_offsets[u];
                ue = L.sparse_offsets[u + 1];
            }
            if (c >= Op::atomic(&values[u], c)) continue;
            if (c >= split) {  // near-far: wait in the pile
                if (atomicExch(&in_far[u], 1u) == 0) pile[cur][atomicAdd(&st->far_count[cur], 1u)] = u;
                continue;
            }
            const uint32_t j = atomicAdd(&s_count[1 - p], 1u);
            if (j < kAsyncNext) {
                next[j] = u;
                next_val[j] = c;
                next_beg[j] = ub;
                next_deg[j] = prefetch && ue - ub < kNoRange ? (uint32_t)(ue - ub) : kNoRange;
            } else if (atomicExch(&queued[u], 1u) == 0) {  // the local list is full: share it at once
                atomicAdd(reinterpret_cast<unsigned long long *>(&st->work), 1ull);
                uint32_t t;
                if (take_tickets(ring, st, 1, &t)) ring_write(ring, t, u, st);
            }
        }
        __syncthreads();
        // Keep the first kAsyncKeep; offer the rest to the ring, each vertex
        // at most once there (queued).
        const uint32_t made = min(s_count[1 - p], kAsyncNext);
        const uint32_t keep = min(made, kAsyncKeep);
        if (made > keep) {  // the same in every thread
            if (tid == 0) s_nspill = 0;
            __syncthreads();
            for (uint32_t i = keep + tid; i < made; i += kAsyncBlock) {
                const uint32_t u = next[i];
                if (atomicExch(&queued[u], 1u) == 0) s_spill[atomicAdd(&s_nspill, 1u)] = u;
            }
            __syncthreads();
            const uint32_t spill = s_nspill;
            if (tid == 0 && spill > 0) {  // counted (and the count performed) before any is visible
                atomicAdd(reinterpret_cast<unsigned long long *>(&st->work), (unsigned long long)spill);
                uint32_t base;
                s_state = take_tickets(ring, st, spill, &base) ? kClaimed : kDone;
                s_base = base;
            }
            __syncthreads();
            if (spill > 0 && s_state == kDone) break;
            for (uint32_t i = tid; i < spill; i += kAsyncBlock) ring_write(ring, s_base + i, s_spill[i], st);
        }
        if (tid == 0 && keep == 0 && held > 0) {  // idle: give back what the block held
            add64(&st->work, -(long long)held);
            held = 0;
        }
        p = 1 - p;
        k = keep;
    }
    if (tid == 0) {
        add64(&st->items, (long long)processed);
        add64(&st->shared, (long long)shared);
    }
}

// async_seed writes the first count items (frontier[i], or i when frontier
// is NULL) under tickets 0..count, flags them queued and resets the state.
__global__ void async_seed(Ring ring, uint32_t *queued, const uint32_t *frontier, uint32_t count,
                           mg_async_state *st) {
    const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        const uint32_t v = frontier != NULL ? frontier[i] : (uint32_t)i;
        ring.slot[i] = (i << 32) | v;
        queued[v] = 1;
    }
    if (i == 0) {
        mg_async_state s = {};
        s.work = count;
        s.tail = count;
        *st = s;
    }
}

template <typename Op>
int run_async(Op op, int dev, const mg_dlayout *l, uint32_t *values, const uint32_t *frontier, uint32_t count,
              unsigned long long *ring, uint32_t ring_log2, uint32_t *queued, uint32_t delta, uint32_t *far0, uint32_t *far1,
              uint32_t *in_far, mg_async_state *state, uint32_t blocks_per_sm, mg_stream s, mg_event *ev,
              char *err, size_t errlen) {
    if (l == NULL || values == NULL || ring == NULL || queued == NULL || state == NULL)
        return mg::invalid("async run: NULL pointer", err, errlen);
    if (Op::weighted && l->m > 0 && l->sparse_weights == NULL)
        return mg::invalid("async run: the program needs weights and the layout has none", err, errlen);
    if (ring_log2 > 31 || ((uint64_t)1 << ring_log2) < count)
        return mg::invalid("async run: the ring is smaller than the first items", err, errlen);
    if (delta > 0 && (far0 == NULL || far1 == NULL || in_far == NULL))
        return mg::invalid("async run: near-far needs the far piles and flags", err, errlen);
    MG_SET_DEVICE(dev);
    int coop = 0;
    MG_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    if (!coop) return mg::invalid("async run: the device has no cooperative launch", err, errlen);
    int per_sm = 0;
    MG_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, async_kernel<Op>, kAsyncBlock, 0));
    if (per_sm < 1) return mg::invalid("async run: the kernel does not fit on an SM", err, errlen);
    const uint32_t want = blocks_per_sm > 0 ? blocks_per_sm : MG_ASYNC_BLOCKS_PER_SM;
    if (want < (uint32_t)per_sm) per_sm = (int)want;
    const unsigned grid = (unsigned)mg::multiprocessors(dev) * (unsigned)per_sm;
    cudaStream_t st = (cudaStream_t)s;
    Ring r{ring, (uint32_t)(((uint64_t)1 << ring_log2) - 1)};
    MG_RECORD(0);
    const unsigned seed_blocks = count > 0 ? (count + kAsyncBlock - 1) / kAsyncBlock : 1;
    async_seed<<<seed_blocks, kAsyncBlock, 0, st>>>(r, queued, frontier, count, state);
    MG_CHECK_LAUNCH("async seed");
    mg_dlayout L = *l;
    void *args[] = {&op, &L, &values, &r, &queued, &delta, &far0, &far1, &in_far, &state};
    MG_CHECK(cudaLaunchCooperativeKernel((const void *)async_kernel<Op>, dim3(grid), dim3(kAsyncBlock), args, 0, st));
    MG_RECORD(1);
    return MG_OK;
}

}  // namespace

extern "C" {

int mg_min_async(int dev, int prog, const mg_dlayout *l, uint32_t *values, const uint32_t *frontier,
                 uint32_t count, uint64_t *ring, uint32_t ring_log2, uint32_t *queued, uint32_t delta,
                 uint32_t *far0, uint32_t *far1, uint32_t *in_far, mg_async_state *state, uint32_t blocks_per_sm,
                 mg_stream s, mg_event *ev, char *err, size_t errlen) {
    unsigned long long *r = reinterpret_cast<unsigned long long *>(ring);
    MG_DISPATCH_PROG(prog, run_async, dev, l, values, frontier, count, r, ring_log2, queued, delta, far0, far1, in_far, state,
                     blocks_per_sm, s, ev, err, errlen);
}

}  // extern "C"
