// worklist.cuh — the device worklist of async runs (SEP-Graph's Async +
// data-driven execution): one persistent cooperative kernel, templated over a
// policy that says what an item's value is and what relaxing an arc does.
// async.cu's min programs (BFS, SSSP, CC) and bcasync.cu's Brandes passes use
// it. Not part of the C API (that is mgraph.h alone).
//
// The threads of a block manage the worklist together and work
// asynchronously between two such updates (SEP-Graph §3, "Async and DD"): a
// block holds up to kAsyncBatch items (vertices) in shared memory, expands
// their arcs in one round (an edge-balanced split over the items' degrees:
// each thread takes every kAsyncBlock-th arc of the round, found by a
// binary search in the items' degree prefix), lets the policy relax each
// arc, and appends the destinations the policy queues to the round's local
// next list. It keeps up to the policy's keep() (at most kAsyncKeep) of
// them for its own next round (no global traffic at all for a frontier
// that stays small) and shares the rest through a global ring of tickets,
// from which idle blocks claim. A small round reads each queued vertex's
// arc range together with its relaxation, so a round's latency is two
// dependent memory accesses (arc, relaxation).
//
// The ring: 64-bit slots holding (ticket << 32 | vertex), MG_ASYNC_EMPTY when
// free. A producer takes tickets from tail and writes each slot when it is
// free; a consumer takes tickets from head (never past tail), waits for its
// slots to show its tickets, and frees them. A vertex is in the ring at most
// once (queued[v], cleared when a block takes it), so it never holds more
// than n items; tail − head never exceeds the ring's size regardless: a
// producer that would pass it sets the overflow flag and every block stops
// (the caller reports it).
//
// Termination: work counts the items queued or held. Items a block shares
// are counted before they become visible; a block holds the count of the
// items it claimed for as long as it has local items, and gives it back
// when it runs out. So work is zero only when every block is idle and the
// ring is empty, and then it stays zero. A policy with buckets (near-far)
// then changes the bucket at grid barriers and the run goes on.
//
// The policy (taken by value; every thread has its own copy):
//
//   struct Policy {
//       using V = ...;    // what a round reads once per item
//       using Arc = ...;  // what relaxing an arc reads that does not wait for its destination
//       __device__ bool has_buckets() const;
//       // items a block keeps for its own next round, at most kAsyncKeep
//       __device__ uint32_t keep() const;
//       // v's value, from ival (what it was queued with, 0: unknown) and
//       // its out-degree deg; false: skip the item (stale)
//       __device__ bool load(uint32_t v, uint32_t ival, uint64_t deg, V &out) const;
//       // arc's loads that do not need its destination (a weight, a flag,
//       // the item's current value), issued before the destination's
//       __device__ Arc arc(const V &x, const mg_dlayout &L, uint64_t arc) const;
//       // relax the arc (from the item of value x, a: its arc()) to u;
//       // true: queue u locally with queued value ival
//       __device__ bool relax(const V &x, const mg_dlayout &L, const Arc &a, uint32_t u, uint32_t &ival) const;
//       // with buckets: every thread of every block, when work is zero;
//       // false: the run is over
//       __device__ bool next_bucket(cg::grid_group &grid, Ring ring, uint32_t *queued, mg_async_state *st);
//       // kRows: the policy may run over fixed-width rows (below) when its
//       // rows pointer is set; relax_row then relaxes an arc of weight w
//       // from an item of value x to u, its atomic issued without waiting
//       // for anything but w and u
//       static constexpr bool kRows, kWeightRows;  // kWeightRows: relax_row needs the weights' rows
//       const uint32_t *rows, *wrows;  // when kRows
//       uint32_t row_log2;  // log2 of the slots of a row a round reads (at least the largest degree)
//       __device__ bool relax_row(const V &x, uint32_t w, uint32_t u, uint32_t &ival) const;
//   };
//
// Over rows (a layout whose vertices have at most MG_BLOCK_ROW_WIDTH arcs:
// road networks, meshes; mg_block_rows's rows and, for weighted programs,
// mg_block_weight_rows's) a round takes every item's whole row, no scan and
// no search (only the first 2^row_log2 slots of a row, which hold every
// arc: a grid's rows take 4 threads, not MG_BLOCK_ROW_WIDTH, so a round's
// threads take twice the items and its items wait for half the passes),
// and the items a block keeps carry their rows (and weights) in
// shared memory: a relaxation loads its destination's row with its atomic,
// so a round waits for one global access (the atomic) instead of two (the
// destination, then the atomic). Items claimed from the ring read their rows
// in their first round.
#ifndef MGRAPH_KERNELS_WORKLIST_CUH
#define MGRAPH_KERNELS_WORKLIST_CUH

#include <cooperative_groups.h>

#include "internal.cuh"

namespace mg {
namespace worklist {

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
constexpr uint32_t kRowWidth = MG_BLOCK_ROW_WIDTH;  // a row's slots (rows mode)
constexpr uint32_t kRowNone = 0xffffffffu;          // a row's padding

// load_row4 loads 16 bytes of a row with a volatile asm, so that the
// compiler issues it where it stands (with the relaxation's atomic), not
// after the branch that uses it.
__device__ __forceinline__ uint4 load_row4(const uint32_t *p) {
    uint4 r;
    asm volatile("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
                 : "l"(p));
    return r;
}

enum : int { kClaimed = 0, kDone = 1, kBucket = 2 };

// NoArc is the Arc of a policy whose relaxation reads nothing of an arc
// but its destination.
struct NoArc {};

struct Ring {
    unsigned long long *slot;
    uint32_t mask;  // size − 1 (a power of two)
};

// add64 adds d (may be negative) to the 64-bit counter *p.
__device__ __forceinline__ void add64(uint64_t *p, long long d) {
    atomicAdd(reinterpret_cast<unsigned long long *>(p), (unsigned long long)d);
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
// hold more than its size. The head read after the tail may be past
// base + k already (consumers claimed tickets that later producers took):
// the difference is signed, and then negative, not an overflow.
__device__ __forceinline__ bool take_tickets(Ring r, mg_async_state *st, uint32_t k, uint32_t *base) {
    *base = atomicAdd(&st->tail, k);
    const uint32_t head = *(volatile uint32_t *)&st->head;
    if ((int64_t)(int32_t)(*base + k - head) > (int64_t)r.mask + 1) {
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

// uses_rows says whether pol runs over fixed-width rows.
template <typename Policy>
__device__ __forceinline__ bool uses_rows(const Policy &pol) {
    if constexpr (Policy::kRows) {
        return pol.rows != nullptr;
    } else {
        return false;
    }
}

// kept_at_most returns how many of a round's queued items a block keeps:
// the policy's keep(), within the shared memory's kAsyncKeep.
template <typename Policy>
__device__ __forceinline__ uint32_t kept_at_most(const Policy &pol) {
    return min(pol.keep(), kAsyncKeep);
}

// share_one offers u to the ring at once (a round's local list is full),
// unless it is there already.
__device__ __forceinline__ void share_one(Ring ring, uint32_t *queued, mg_async_state *st, uint32_t u) {
    if (atomicExch(&queued[u], 1u) != 0) return;
    atomicAdd(reinterpret_cast<unsigned long long *>(&st->work), 1ull);
    uint32_t t;
    if (take_tickets(ring, st, 1, &t)) ring_write(ring, t, u, st);
}

// row_round is one round over rows (worklist_kernel's rows mode): the k
// items (their queued values ival; their rows and weights in row and wt
// when carry) relax every slot of their rows, one thread a slot, and the
// destinations they queue go to next (values next_val, count *count), the
// first keep with their rows and weights in next_row and next_wt,
// loaded with the relaxation (*carry_next is set: they carry them). A
// destination the full list does not take goes to the ring at once.
// s_val and s_live are the round's scratch (an item's value, whether it is
// live). Every thread of the block calls it; it ends with a barrier.
template <typename Policy>
__device__ void row_round(const Policy &pol, mg_async_state *st, Ring ring, uint32_t *queued, const uint32_t *items,
                          const uint32_t *ival, uint32_t k, bool carry, const uint4 (*row)[kRowWidth / 4],
                          const uint4 (*wt)[kRowWidth / 4], uint32_t *next, uint32_t *next_val, uint32_t *count,
                          uint4 (*next_row)[kRowWidth / 4], uint4 (*next_wt)[kRowWidth / 4], uint32_t *carry_next,
                          typename Policy::V *s_val, uint64_t *s_live) {
    const uint32_t tid = threadIdx.x, keep = kept_at_most(pol);
    if (tid < k) s_live[tid] = pol.load(items[tid], ival[tid], kRowWidth, s_val[tid]) ? 1 : 0;
    if (tid == 0) {
        *count = 0;
        *carry_next = 1;
    }
    __syncthreads();
    const uint32_t width = 1u << pol.row_log2, half = width > kRowWidth / 2;  // half: the row's second 16 bytes
    for (uint32_t e = tid; e < k << pol.row_log2; e += kAsyncBlock) {
        const uint32_t i = e >> pol.row_log2, j = e & (width - 1);
        if (!s_live[i]) continue;
        uint32_t u, w = 0;
        if (carry) {
            u = reinterpret_cast<const uint32_t *>(row[i])[j];
            if (Policy::kWeightRows) w = reinterpret_cast<const uint32_t *>(wt[i])[j];
        } else {
            const size_t at = (size_t)items[i] * kRowWidth + j;
            u = __ldg(&pol.rows[at]);
            if (Policy::kWeightRows) w = __ldg(&pol.wrows[at]);
        }
        if (u == kRowNone) continue;
        // u's row (and weights) with the relaxation: what the next round needs
        const uint32_t *ur = pol.rows + (size_t)u * kRowWidth;
        const uint4 r0 = load_row4(ur), r1 = half ? load_row4(ur + 4) : uint4{};
        uint4 q0{}, q1{};
        if (Policy::kWeightRows) {
            const uint32_t *uw = pol.wrows + (size_t)u * kRowWidth;
            q0 = load_row4(uw);
            if (half) q1 = load_row4(uw + 4);
        }
        uint32_t c;
        if (!pol.relax_row(s_val[i], w, u, c)) continue;
        const uint32_t slot = atomicAdd(count, 1u);
        if (slot < kAsyncNext) {
            next[slot] = u;
            next_val[slot] = c;
            if (slot < keep) {
                next_row[slot][0] = r0;
                next_row[slot][1] = r1;
                if (Policy::kWeightRows) {
                    next_wt[slot][0] = q0;
                    next_wt[slot][1] = q1;
                }
            }
        } else {
            share_one(ring, queued, st, u);
        }
    }
    __syncthreads();
}

template <typename Policy>
__global__ void __launch_bounds__(kAsyncBlock) worklist_kernel(Policy pol, mg_dlayout L, Ring ring, uint32_t *queued,
                                                               mg_async_state *st) {
    cg::grid_group grid = cg::this_grid();
    using V = typename Policy::V;
    // A round expands s_items[p][0..k) and appends to s_items[1 - p]: the
    // next round's items are the first ones it keeps (no copy). s_ival is
    // the value each item was queued with (0 for items from the ring: read
    // it), s_ibeg and s_ideg its arc range when the round that queued it
    // read it (small rounds do, with the relaxation: one dependent access
    // less per round), else s_ideg is kNoRange.
    __shared__ uint32_t s_items[2][kAsyncNext], s_ival[2][kAsyncNext], s_ideg[2][kAsyncNext];
    __shared__ uint64_t s_ibeg[2][kAsyncNext];
    __shared__ uint32_t s_spill[kAsyncNext];
    __shared__ V s_val[kAsyncBatch];
    __shared__ uint64_t s_beg[kAsyncBatch], s_pre[kAsyncBatch + 1];
    __shared__ uint32_t s_count[2], s_claimed, s_nspill, s_base;
    __shared__ int s_state;
    // Rows mode: the kept items' rows and weights by list parity, and
    // whether a list's items carry them (not when claimed from the ring).
    constexpr uint32_t kRowItems = Policy::kRows ? kAsyncKeep : 1;
    __shared__ uint4 s_irow[2][kRowItems][kRowWidth / 4];
    __shared__ uint4 s_iwt[2][Policy::kRows && Policy::kWeightRows ? kRowItems : 1][kRowWidth / 4];
    __shared__ uint32_t s_carry[2];
    const bool rows = uses_rows(pol);  // the same in every thread
    const uint32_t tid = threadIdx.x;
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
                        state = pol.has_buckets() ? kBucket : kDone;
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
                if (!pol.next_bucket(grid, ring, queued, st)) break;
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
            if (tid == 0) s_carry[p] = 0;  // claimed items read their rows
            __syncthreads();
            if (tid == 0) s_state = *(volatile uint32_t *)&st->overflow ? kDone : kClaimed;
            __syncthreads();
            if (s_state == kDone) break;
        }
        // One round over the block's k items: the policy loads each one's
        // value (from the value it was queued with, or the current one) and
        // may skip it.
        const uint32_t *items = s_items[p];
        uint32_t *next = s_items[1 - p], *next_val = s_ival[1 - p], *next_deg = s_ideg[1 - p];
        uint64_t *next_beg = s_ibeg[1 - p];
        bool rows_round = false;  // the same in every thread
        if constexpr (Policy::kRows) {
            if (rows) {
                row_round(pol, st, ring, queued, items, s_ival[p], k, s_carry[p] != 0, s_irow[p], s_iwt[p], next,
                          next_val, &s_count[1 - p], s_irow[1 - p], s_iwt[1 - p], &s_carry[1 - p], s_val, s_beg);
                if (tid == 0) processed += k;
                rows_round = true;
            }
        }
        if (!rows_round) {  // over the CSR
            uint64_t deg = 0;
            if (tid < k) {
                const uint32_t v = items[tid];
                uint64_t b = s_ibeg[p][tid];
                deg = s_ideg[p][tid];
                if (deg == kNoRange) {
                    b = L.sparse_offsets[v];
                    deg = L.sparse_offsets[v + 1] - b;
                }
                if (!pol.load(v, s_ival[p][tid], deg, s_val[tid])) deg = 0;
                s_beg[tid] = b;
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
                const typename Policy::Arc a = pol.arc(s_val[i], L, arc);  // loads issued before the destination's
                const uint32_t u = L.sparse_dst[arc];
                uint64_t ub = 0, ue = 0;
                if (prefetch) {  // issued with the relaxation, not after it
                    ub = L.sparse_offsets[u];
                    ue = L.sparse_offsets[u + 1];
                }
                uint32_t c;
                if (!pol.relax(s_val[i], L, a, u, c)) continue;
                const uint32_t j = atomicAdd(&s_count[1 - p], 1u);
                if (j < kAsyncNext) {
                    next[j] = u;
                    next_val[j] = c;
                    next_beg[j] = ub;
                    next_deg[j] = prefetch && ue - ub < kNoRange ? (uint32_t)(ue - ub) : kNoRange;
                } else {  // the local list is full: share it at once
                    share_one(ring, queued, st, u);
                }
            }
            __syncthreads();
        }
        // Keep the first pol.keep(); offer the rest to the ring, each vertex
        // at most once there (queued).
        const uint32_t made = min(s_count[1 - p], kAsyncNext);
        const uint32_t keep = min(made, kept_at_most(pol));
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

// seed_kernel writes the first count items (frontier[i], or i when frontier
// is NULL) under tickets 0..count, flags them queued and resets the state.
static __global__ void seed_kernel(Ring ring, uint32_t *queued, const uint32_t *frontier, uint32_t count,
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

// run launches pol's worklist kernel on stream s (cooperatively: every
// block resident, for the bucket barriers), after seeding the ring with
// frontier[0..count) (0..count when frontier is NULL) unless seeded, when
// the caller has already filled the ring, the queued flags and the state.
// blocks_per_sm 0 takes MG_ASYNC_BLOCKS_PER_SM; fewer if fewer fit.
template <typename Policy>
int run(Policy pol, int dev, const mg_dlayout *l, const uint32_t *frontier, uint32_t count, bool seeded,
        unsigned long long *ring, uint32_t ring_log2, uint32_t *queued, mg_async_state *state,
        uint32_t blocks_per_sm, mg_stream s, mg_event *ev, char *err, size_t errlen) {
    if (l == NULL || ring == NULL || queued == NULL || state == NULL)
        return mg::invalid("async run: NULL pointer", err, errlen);
    if (ring_log2 > 31 || ((uint64_t)1 << ring_log2) < count || ((uint64_t)1 << ring_log2) < l->n)
        return mg::invalid("async run: the ring is smaller than the first items or the vertices", err, errlen);
    MG_SET_DEVICE(dev);
    unsigned grid = 0;
    const int rc = mg::coop_grid(worklist_kernel<Policy>, kAsyncBlock,
                                 blocks_per_sm > 0 ? blocks_per_sm : MG_ASYNC_BLOCKS_PER_SM, dev, "async run", &grid,
                                 err, errlen);
    if (rc != MG_OK) return rc;
    cudaStream_t st = (cudaStream_t)s;
    Ring r{ring, (uint32_t)(((uint64_t)1 << ring_log2) - 1)};
    MG_RECORD(0);
    if (!seeded) {
        const unsigned seed_blocks = count > 0 ? (count + kAsyncBlock - 1) / kAsyncBlock : 1;
        seed_kernel<<<seed_blocks, kAsyncBlock, 0, st>>>(r, queued, frontier, count, state);
        MG_CHECK_LAUNCH("async seed");
    }
    mg_dlayout L = *l;
    void *args[] = {&pol, &L, &r, &queued, &state};
    MG_CHECK(cudaLaunchCooperativeKernel((const void *)worklist_kernel<Policy>, dim3(grid), dim3(kAsyncBlock), args, 0,
                                         st));
    MG_RECORD(1);
    return MG_OK;
}

}  // namespace worklist
}  // namespace mg

#endif  // MGRAPH_KERNELS_WORKLIST_CUH
