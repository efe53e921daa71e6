// block.cu — a whole traversal in one thread block (the small-frontier
// choice of mode auto): level-synchronous BFS, and Brandes' passes over its
// levels, where a level's barrier is the block's own (__syncthreads, tens
// of nanoseconds) instead of a kernel launch or a grid-wide barrier. On a
// road network (luxembourg_osm: 1,135 levels of about 100 vertices) a
// level then costs about 1.6 µs on an H200: its dependent loads and the
// block's own instructions, no barrier or worklist hand-off.
//
// The block keeps the visited vertices in a bitmap in shared memory (so a
// discovery is a shared atomic, not a global one), and the queue in BFS
// order in global memory (order: every discovered vertex once, level by
// level). A discovered vertex's arc range is read when it is discovered
// and kept in shared memory for the next level (the first kBlockCache
// vertices of a level; later ones read it again), so a level costs two
// dependent global accesses: the arcs' destinations, then the discovered
// vertices' offsets. A vertex with more than kBlockHeavyDegree arcs is
// expanded by the whole block after the level's other vertices.
//
// mg_block_bfs continues a BFS (the hand-over of mode auto) and stops early
// when a level outgrows the block (more than its bailout vertices:
// gpu.BlockMaxLevel), leaving that level as the frontier for the
// grid-wide engines; mg_bc_block runs one Brandes source whole: the BFS,
// then σ level by level down (pulled from the level above) and δ level by
// level up (pulled from the level below), on an undirected layout, and
// stops after the BFS at a level over its bailout.
#include "internal.cuh"

namespace {

constexpr int kBlock = MG_BLOCK_THREADS;
constexpr uint32_t kBlockCache = MG_BLOCK_CACHE;  // arc ranges kept per level
constexpr uint32_t kBlockGroup = 4;               // lanes per vertex: most rows of a road network are this short
constexpr uint32_t kGroups = kBlock / kBlockGroup;
constexpr int kBlockPasses = 4;                   // a round's vertices per group, their loads issued together
constexpr uint32_t kRound = kGroups * kBlockPasses;
constexpr uint32_t kBlockHeavyDegree = 64;        // arcs above which the block expands a vertex together
constexpr uint32_t kBlockHeavyList = 256;         // heavy vertices deferred per level (more: expanded alone)
constexpr uint32_t kNone = 0xffffffffu;           // an unreached level, an empty slot
constexpr int kFillBlock = 256;                   // the reset kernel's block
constexpr int kFillBlocksPerSM = 8;
constexpr size_t kStaticSmemRoom = 4096;          // room left for the kernels' static shared memory (about 1 KiB)

static_assert(32 % kBlockGroup == 0, "a vertex's lanes are in one warp");

// Shared is the block's dynamic shared memory: the arc ranges of the
// current and the next level (double-buffered by level parity) and the
// visited bitmap after them.
struct Shared {
    uint64_t *beg[2];
    uint32_t *deg[2];
    uint32_t *visited;
};

__device__ __forceinline__ Shared carve(uint8_t *smem) {
    Shared s;
    s.beg[0] = reinterpret_cast<uint64_t *>(smem);
    s.beg[1] = s.beg[0] + kBlockCache;
    s.deg[0] = reinterpret_cast<uint32_t *>(s.beg[1] + kBlockCache);
    s.deg[1] = s.deg[0] + kBlockCache;
    s.visited = s.deg[1] + kBlockCache;
    return s;
}

// Levels is the BFS the block runs: levels[v] (kNone: unreached) and the
// queue order, whose entries [qb, qe) are the current level. When set,
// level_end gets each level's end in order (level_end[d] for depth d), and
// arc_begin and arc_count each queued vertex's arc range (by its place in
// order), for Brandes' passes.
struct Levels {
    uint32_t *levels;
    uint32_t *order;
    uint32_t *level_end;
    uint64_t *arc_begin;
    uint32_t *arc_count;
};

// Level is where the level of depth d is: order[qb, qe), its arc ranges in
// the cache of parity d & 1, its discoveries counted in *count.
struct Level {
    uint32_t qb, qe, d;
    uint32_t *count;
};

// claim marks u visited and says whether this thread was the first.
__device__ __forceinline__ bool claim(const Shared &s, uint32_t u) {
    const uint32_t bit = 1u << (u & 31);
    if (s.visited[u >> 5] & bit) return false;  // most arcs: no atomic
    return (atomicOr(&s.visited[u >> 5], bit) & bit) == 0;
}

// place queues claimed vertex u, of arc range [b, e), at level d + 1 in
// the level's slot j.
__device__ __forceinline__ void place(const Shared &s, const Levels &q, const Level &lv, uint32_t u, uint64_t b,
                                      uint64_t e, uint32_t j) {
    q.levels[u] = lv.d + 1;
    q.order[lv.qe + j] = u;
    if (q.arc_begin != NULL) {
        q.arc_begin[lv.qe + j] = b;
        q.arc_count[lv.qe + j] = (uint32_t)(e - b);
    }
    if (j < kBlockCache) {
        const uint32_t next = 1 - (lv.d & 1);
        s.beg[next][j] = b;
        s.deg[next][j] = (uint32_t)(e - b);
    }
}

// append queues claimed vertex u (one thread: its own slot).
__device__ __forceinline__ void append(const Shared &s, const Levels &q, const Level &lv, uint32_t u, uint64_t b,
                                       uint64_t e) {
    place(s, q, lv, u, b, e, atomicAdd(lv.count, 1u));
}

// append_warp queues the claimed vertices of a warp (those with won set;
// every lane calls it): one shared atomic per warp, not per vertex (a
// level's appends all hit one counter).
__device__ __forceinline__ void append_warp(const Shared &s, const Levels &q, const Level &lv, bool won, uint32_t u,
                                            uint64_t b, uint64_t e) {
    const unsigned m = __ballot_sync(0xffffffffu, won);
    if (m == 0) return;
    const uint32_t lane = threadIdx.x & 31, leader = __ffs(m) - 1;
    uint32_t first = 0;
    if (lane == leader) first = atomicAdd(lv.count, (uint32_t)__popc(m));
    first = __shfl_sync(0xffffffffu, first, leader);
    if (won) place(s, q, lv, u, b, e, first + __popc(m & ((1u << lane) - 1u)));
}

// discover claims and queues u (the arcs outside a round's first ones).
__device__ __forceinline__ void discover(const mg_dlayout &L, const Shared &s, const Levels &q, const Level &lv,
                                         uint32_t u) {
    if (claim(s, u)) append(s, q, lv, u, __ldg(&L.sparse_offsets[u]), __ldg(&L.sparse_offsets[u + 1]));
}

// level expands the level lv: a group of kBlockGroup lanes per vertex,
// kBlockPasses vertices per group at a time, each lane one arc of each:
// the destinations are loaded together, claimed, then the claimed
// vertices' offsets are loaded together (two dependent global accesses
// per round), and each warp takes its claimed vertices' slots with one
// shared atomic. A vertex's arcs past its group's first are expanded by its
// lanes one by one; a vertex with more than kBlockHeavyDegree arcs is left
// in heavy (*nheavy of them; beyond kBlockHeavyList its first lane expands
// it alone) for the block to expand together.
__device__ __forceinline__ void level(const mg_dlayout &L, const Shared &s, const Levels &q, const Level &lv,
                                      uint32_t *heavy, uint32_t *nheavy) {
    const uint32_t tid = threadIdx.x, lane = tid % kBlockGroup, parity = lv.d & 1;
    for (uint32_t base = lv.qb; base < lv.qe; base += kRound) {
        // A warp with no vertex in this round has none in later ones: it
        // goes to the barrier (most of the block, on a narrow level). The
        // passes the round needs are the same in every thread.
        if (base + (tid & ~31u) / kBlockGroup >= lv.qe) break;
        const uint32_t passes = min((uint32_t)kBlockPasses, (lv.qe - base + kGroups - 1) / kGroups);
        uint32_t u[kBlockPasses], deg[kBlockPasses];
        uint64_t b[kBlockPasses];
#pragma unroll
        for (int p = 0; p < kBlockPasses; p++) {
            const uint32_t i = base + p * kGroups + tid / kBlockGroup;
            u[p] = kNone;
            deg[p] = 0;
            b[p] = 0;
            if (p >= passes || i >= lv.qe) continue;
            const uint32_t k = i - lv.qb;
            uint64_t rb;
            uint32_t rd;
            if (k < kBlockCache) {
                rb = s.beg[parity][k];
                rd = s.deg[parity][k];
            } else {
                const uint32_t v = q.order[i];
                rb = __ldg(&L.sparse_offsets[v]);
                rd = (uint32_t)(__ldg(&L.sparse_offsets[v + 1]) - rb);
            }
            if (rd > kBlockHeavyDegree) {
                if (lane == 0) {
                    const uint32_t h = atomicAdd(nheavy, 1u);
                    if (h < kBlockHeavyList) {
                        heavy[h] = i;
                    } else {
                        for (uint64_t a = rb; a < rb + rd; a++) discover(L, s, q, lv, __ldg(&L.sparse_dst[a]));
                    }
                }
                continue;
            }
            b[p] = rb;
            deg[p] = rd;
            if (lane < rd) u[p] = __ldg(&L.sparse_dst[rb + lane]);
        }
        bool won[kBlockPasses];
#pragma unroll
        for (int p = 0; p < kBlockPasses; p++) won[p] = u[p] != kNone && claim(s, u[p]);
        uint64_t ob[kBlockPasses], oe[kBlockPasses];
#pragma unroll
        for (int p = 0; p < kBlockPasses; p++) {
            ob[p] = won[p] ? __ldg(&L.sparse_offsets[u[p]]) : 0;
            oe[p] = won[p] ? __ldg(&L.sparse_offsets[u[p] + 1]) : 0;
        }
#pragma unroll
        for (int p = 0; p < kBlockPasses; p++)
            if (p < passes) append_warp(s, q, lv, won[p], u[p], ob[p], oe[p]);
#pragma unroll
        for (int p = 0; p < kBlockPasses; p++)
            for (uint64_t a = b[p] + kBlockGroup + lane; a < b[p] + deg[p]; a += kBlockGroup)
                discover(L, s, q, lv, __ldg(&L.sparse_dst[a]));
    }
}

// bfs runs the levels from [qb, qe) of q.order at depth d until a level is
// empty or, with bailout > 0, holds more than bailout vertices (then left
// as [*out_qb, *out_qe) at *out_depth). The current level's arc ranges are
// in s's cache (parity d & 1) for its first kBlockCache vertices. Every
// thread of the block calls it and gets the same results.
__device__ void bfs(const mg_dlayout &L, const Shared &s, const Levels &q, uint32_t qb, uint32_t qe, uint32_t d,
                    uint32_t bailout, uint32_t *out_qb, uint32_t *out_qe, uint32_t *out_depth) {
    __shared__ uint32_t s_count[3], s_nheavy[3];  // by level mod 3: reset two levels ahead
    __shared__ uint32_t s_heavy[kBlockHeavyList];
    const uint32_t tid = threadIdx.x;
    if (tid < 3) {
        s_count[tid] = 0;
        s_nheavy[tid] = 0;
    }
    __syncthreads();
    for (;;) {
        const uint32_t c = d % 3;
        if (tid == 0) {  // the counters of level d + 1, last read two barriers ago
            s_count[(d + 1) % 3] = 0;
            s_nheavy[(d + 1) % 3] = 0;
        }
        const Level lv{qb, qe, d, &s_count[c]};
        level(L, s, q, lv, s_heavy, &s_nheavy[c]);
        __syncthreads();
        const uint32_t heavy = min(s_nheavy[c], kBlockHeavyList);
        for (uint32_t h = 0; h < heavy; h++) {  // the same in every thread
            const uint32_t v = q.order[s_heavy[h]];
            const uint64_t b = __ldg(&L.sparse_offsets[v]), e = __ldg(&L.sparse_offsets[v + 1]);
            for (uint64_t a = b + tid; a < e; a += kBlock) discover(L, s, q, lv, __ldg(&L.sparse_dst[a]));
        }
        if (heavy > 0) __syncthreads();
        const uint32_t next = s_count[c];
        qb = qe;
        qe += next;
        d++;
        if (q.level_end != NULL && tid == 0) q.level_end[d] = qe;
        if (next == 0 || (bailout > 0 && next > bailout)) break;
    }
    *out_qb = qb;
    *out_qe = qe;
    *out_depth = d;
}

// start_level loads the first level's arc ranges into the cache (parity
// of depth d) and into q's arc ranges when set, and marks the visited
// vertices: those with a level when marked, else the first level alone.
__device__ void start_level(const mg_dlayout &L, const Shared &s, const Levels &q, uint32_t count, uint32_t d,
                            bool marked) {
    const uint32_t tid = threadIdx.x, words = (uint32_t)((L.n + 31) / 32);
    if (!marked) {
        for (uint32_t w = tid; w < words; w += kBlock) s.visited[w] = 0;
    } else {  // a warp per word, a ballot of 32 coalesced levels; kMarkWords words' loads at once
        constexpr uint32_t kMarkWords = 4;
        const uint32_t lane = tid & 31, warps = kBlock / 32;
        for (uint32_t w0 = tid / 32; w0 < words; w0 += warps * kMarkWords) {
            bool reached[kMarkWords];
#pragma unroll
            for (uint32_t k = 0; k < kMarkWords; k++) {
                const uint64_t v = (uint64_t)(w0 + k * warps) * 32 + lane;
                reached[k] = v < L.n && q.levels[v] != kNone;
            }
#pragma unroll
            for (uint32_t k = 0; k < kMarkWords; k++) {
                const uint32_t m = __ballot_sync(0xffffffffu, reached[k]);
                if (lane == 0 && w0 + k * warps < words) s.visited[w0 + k * warps] = m;
            }
        }
    }
    for (uint32_t k = tid; k < count; k += kBlock) {
        const uint32_t v = q.order[k];
        const uint64_t b = __ldg(&L.sparse_offsets[v]);
        const uint32_t deg = (uint32_t)(__ldg(&L.sparse_offsets[v + 1]) - b);
        if (k < kBlockCache) {
            s.beg[d & 1][k] = b;
            s.deg[d & 1][k] = deg;
        }
        if (q.arc_begin != NULL) {
            q.arc_begin[k] = b;
            q.arc_count[k] = deg;
        }
    }
    __syncthreads();
    if (!marked)
        for (uint32_t k = tid; k < count; k += kBlock) atomicOr(&s.visited[q.order[k] >> 5], 1u << (q.order[k] & 31));
    __syncthreads();
}

// bfs_kernel (one block) continues a BFS from frontier[0..count) (count >
// 0, every one at the same level), which it copies to the front of order
// (the queue); a level it stops at (bailout) goes back to frontier.
__global__ void __launch_bounds__(kBlock)
    bfs_kernel(mg_dlayout L, uint32_t *levels, uint32_t *frontier, uint32_t count, uint32_t *order,
               uint32_t bailout, mg_block_stats *stats) {
    extern __shared__ __align__(16) uint8_t smem[];
    const Shared s = carve(smem);
    const Levels q{levels, order, NULL, NULL, NULL};
    for (uint32_t k = threadIdx.x; k < count; k += kBlock) order[k] = frontier[k];
    const uint32_t d = levels[frontier[0]];
    __syncthreads();
    start_level(L, s, q, count, d, true);
    uint32_t qb, qe, depth;
    bfs(L, s, q, 0, count, d, bailout, &qb, &qe, &depth);
    for (uint32_t k = threadIdx.x; k < qe - qb; k += kBlock) frontier[k] = order[qb + k];
    if (threadIdx.x == 0) *stats = mg_block_stats{depth - d, qe - count, qb, qe - qb};
}

// group_sum adds x over the kBlockGroup lanes of a vertex (every lane of
// the warp calls it).
__device__ __forceinline__ double group_sum(double x) {
#pragma unroll
    for (int o = kBlockGroup / 2; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
    return x;
}

// brandes_level is one level d of Brandes' passes, order[lo, hi), a group
// of kBlockGroup lanes per vertex: forward, σ[v] is the sum of σ over its
// arcs from level d − 1; backward, δ[v] is σ[v] times the sum of
// (1 + δ[w]) / σ[w] over its arcs to level d + 1.
template <bool kForward>
__device__ __forceinline__ void brandes_level(const mg_dlayout &L, const Levels &q, uint32_t lo, uint32_t hi,
                                              uint32_t d, double *sigma, double *delta) {
    const uint32_t tid = threadIdx.x, lane = tid % kBlockGroup;
    const uint32_t want = kForward ? d - 1 : d + 1;
    for (uint32_t base = lo; base < hi; base += kGroups) {
        if (base + (tid & ~31u) / kBlockGroup >= hi) break;  // the warp's vertices are past the level
        const uint32_t i = base + tid / kBlockGroup;
        double sum = 0;
        if (i < hi) {
            const uint64_t b = q.arc_begin[i];
            const uint32_t deg = q.arc_count[i];
            for (uint64_t a = b + lane; a < b + deg; a += kBlockGroup) {
                const uint32_t w = __ldg(&L.sparse_dst[a]);
                if (q.levels[w] == want) sum += kForward ? sigma[w] : (1.0 + delta[w]) / sigma[w];
            }
        }
        sum = group_sum(sum);
        if (i < hi && lane == 0) {
            const uint32_t v = q.order[i];
            if (kForward) sigma[v] = sum;
            else delta[v] = sigma[v] * sum;
        }
    }
}

// bc_kernel (one block): Brandes from source over an undirected layout:
// the BFS (its levels in levels, kNone where unreached, set before), then
// σ down the levels (σ[v]: the sum of σ over v's arcs from the level
// above) and δ up (δ[v]: σ[v] · Σ (1 + δ[w]) / σ[w] over v's arcs to the
// level below); σ and δ are 0 before, except σ[source] = 1. It stops
// after the BFS, leaving σ and δ, when a level has more than bailout
// vertices (0: never).
__global__ void __launch_bounds__(kBlock)
    bc_kernel(mg_dlayout L, uint32_t source, uint32_t *levels, uint32_t *order, uint32_t *level_end,
              uint64_t *arc_begin, uint32_t *arc_count, uint32_t bailout, double *sigma, double *delta,
              mg_block_stats *stats) {
    extern __shared__ __align__(16) uint8_t smem[];
    const Shared s = carve(smem);
    const Levels q{levels, order, level_end, arc_begin, arc_count};
    const uint32_t tid = threadIdx.x;
    if (tid == 0) {
        order[0] = source;
        level_end[0] = 1;
    }
    __syncthreads();
    start_level(L, s, q, 1, 0, false);
    uint32_t qb, qe, depth;
    bfs(L, s, q, 0, 1, 0, bailout, &qb, &qe, &depth);
    if (qe > qb) {  // stopped at a level too wide for the block: the caller runs the source otherwise
        if (tid == 0) *stats = mg_block_stats{depth, qe, qb, qe - qb};
        return;
    }
    // depth levels, 0 .. depth − 1 (the last, empty level excluded);
    // level d is order[level_end[d − 1] .. level_end[d]).
    __syncthreads();
    for (uint32_t d = 1; d < depth; d++) {
        brandes_level<true>(L, q, level_end[d - 1], level_end[d], d, sigma, delta);
        __syncthreads();
    }
    for (uint32_t d = depth >= 2 ? depth - 2 : 0; d + 1 < depth; d--) {  // the deepest level's δ stays 0
        brandes_level<false>(L, q, d > 0 ? level_end[d - 1] : 0, level_end[d], d, sigma, delta);
        __syncthreads();
        if (d == 0) break;
    }
    if (tid == 0) *stats = mg_block_stats{depth, qe, 0, 0};
}

// reset_kernel: levels unreached but the source's (0), σ 0 but the
// source's (1), δ 0.
__global__ void reset_kernel(uint64_t n, uint32_t source, uint32_t *levels, double *sigma, double *delta) {
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += step) {
        levels[v] = v == source ? 0 : kNone;
        sigma[v] = v == source ? 1.0 : 0.0;
        delta[v] = 0.0;
    }
}

// smem_bytes is the dynamic shared memory of the block kernels over n
// vertices: two levels' arc ranges and the bitmap.
size_t smem_bytes(uint64_t n) {
    return 2 * (size_t)kBlockCache * (sizeof(uint64_t) + sizeof(uint32_t)) + (size_t)((n + 31) / 32) * sizeof(uint32_t);
}

// prepare_launch refuses a layout whose bitmap does not fit the device's
// shared memory per block, and otherwise raises kernel's shared-memory
// limit to the *smem bytes it needs over n vertices.
template <typename K>
int prepare_launch(K kernel, int dev, uint64_t n, const char *what, size_t *smem, char *err, size_t errlen) {
    int optin = 0;
    MG_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    *smem = smem_bytes(n);
    if (*smem + kStaticSmemRoom > (size_t)optin) {
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "%s: %llu vertices need %zu bytes of shared memory, the device has %d a block", what,
                     (unsigned long long)n, *smem, optin);
        return MG_ERR_INVALID;
    }
    return mg::set_smem(kernel, *smem, err, errlen);
}

}  // namespace

extern "C" {

int mg_block_max_vertices(int dev, uint64_t *out, char *err, size_t errlen) {
    if (out == NULL) return mg::invalid("mg_block_max_vertices: NULL pointer", err, errlen);
    int optin = 0;
    MG_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    const int64_t room = (int64_t)optin - (int64_t)kStaticSmemRoom - (int64_t)smem_bytes(0);
    *out = room > 0 ? (uint64_t)room / sizeof(uint32_t) * 32 : 0;
    return MG_OK;
}

int mg_block_bfs(int dev, const mg_dlayout *l, uint32_t *levels, uint32_t *frontier, uint32_t count,
                 uint32_t *order, uint32_t bailout, mg_block_stats *stats, mg_stream s, mg_event *ev,
                 char *err, size_t errlen) {
    if (l == NULL || levels == NULL || (frontier == NULL && count > 0) || order == NULL || stats == NULL)
        return mg::invalid("mg_block_bfs: NULL pointer", err, errlen);
    if (count == 0 || count > l->n)
        return mg::invalid("mg_block_bfs: the frontier is empty or has more vertices than the graph", err, errlen);
    MG_SET_DEVICE(dev);
    size_t smem = 0;
    const int rc = prepare_launch(bfs_kernel, dev, l->n, "mg_block_bfs", &smem, err, errlen);
    if (rc != MG_OK) return rc;
    cudaStream_t st = (cudaStream_t)s;
    MG_RECORD(0);
    bfs_kernel<<<1, kBlock, smem, st>>>(*l, levels, frontier, count, order, bailout, stats);
    MG_CHECK_LAUNCH("bfs_kernel<<<1, MG_BLOCK_THREADS, bitmap + cache, s>>>");
    MG_RECORD(1);
    return MG_OK;
}

int mg_bc_block(int dev, const mg_dlayout *l, uint32_t source, uint32_t *levels, uint32_t *order,
                uint32_t *level_end, uint64_t *arc_begin, uint32_t *arc_count, uint32_t bailout, double *sigma,
                double *delta, mg_block_stats *stats, mg_stream s, mg_event *ev, char *err, size_t errlen) {
    if (l == NULL || levels == NULL || order == NULL || level_end == NULL || arc_begin == NULL || arc_count == NULL ||
        sigma == NULL || delta == NULL || stats == NULL)
        return mg::invalid("mg_bc_block: NULL pointer", err, errlen);
    if (source >= l->n) return mg::invalid("mg_bc_block: source out of range", err, errlen);
    MG_SET_DEVICE(dev);
    size_t smem = 0;
    const int rc = prepare_launch(bc_kernel, dev, l->n, "mg_bc_block", &smem, err, errlen);
    if (rc != MG_OK) return rc;
    cudaStream_t st = (cudaStream_t)s;
    MG_RECORD(0);
    reset_kernel<<<mg::grid_for(dev, l->n, kFillBlock, kFillBlocksPerSM), kFillBlock, 0, st>>>(l->n, source, levels,
                                                                                            sigma, delta);
    MG_CHECK_LAUNCH("block reset_kernel<<<grid, 256, 0, s>>>");
    bc_kernel<<<1, kBlock, smem, st>>>(*l, source, levels, order, level_end, arc_begin, arc_count, bailout, sigma,
                                       delta, stats);
    MG_CHECK_LAUNCH("bc_kernel<<<1, MG_BLOCK_THREADS, bitmap + cache, s>>>");
    MG_RECORD(1);
    return MG_OK;
}

}  // extern "C"
