// block.cu — a whole traversal in one thread block (the small-frontier
// choice of mode auto): level-synchronous BFS, and Brandes' passes over its
// levels, where a level's barrier is the block's own (__syncthreads, tens
// of nanoseconds) instead of a kernel launch or a grid-wide barrier. On a
// road network (luxembourg_osm: 1,135 levels of about 100 vertices) a
// level then costs about 1.6 µs on an H200 over the CSR: its dependent
// loads and the block's own instructions, no barrier or worklist hand-off.
//
// The block keeps the visited vertices in a bitmap in shared memory (so a
// discovery is a shared atomic, not a global one), and the queue in BFS
// order in global memory (order: every discovered vertex once, level by
// level). What a discovered vertex's arcs need is read when it is
// discovered and kept in shared memory for the next level (a level's
// cache: its first vertices; later ones read it again), from one of two
// row sources (one kernel template over them):
//
//   - rows (EllRows), when every vertex has at most MG_BLOCK_ROW_WIDTH
//     out-arcs (road networks): a fixed-width copy of the adjacency
//     (mg_block_rows, n rows of 8 destinations padded with kNone: one
//     32-byte sector, two 16-byte loads). A discovered vertex's whole row
//     is loaded as soon as it is claimed, so the next level claims its
//     arcs straight from shared memory: ONE dependent global access per
//     level (the claimed vertices' rows).
//   - the CSR (CsrRows) otherwise: a discovered vertex's arc range
//     (sparse_offsets) is cached, so a level costs two dependent global
//     accesses: the arcs' destinations (sparse_dst), then the discovered
//     vertices' offsets. A vertex with more than kBlockHeavyDegree arcs is
//     expanded by the whole block after the level's other vertices.
//
// Both caches take the same shared memory (kCacheBytes a level), so the
// bitmap, and the most vertices a block run takes, is the same for both.
//
// mg_block_bfs continues a BFS (the hand-over of mode auto) and stops early
// when a level outgrows the block (more than its bailout vertices:
// gpu.BlockMaxLevel), leaving that level as the frontier for the
// grid-wide engines; mg_bc_block runs one Brandes source whole: the BFS,
// then σ level by level down (pulled from the level above) and δ level by
// level up (pulled from the level below), on an undirected layout, and
// stops after the BFS at a level over its bailout. Over the rows the BFS
// makes σ itself (EllRowsSigma: a level's σ is pulled while its arcs are
// claimed), and δ's pass runs over queue places in launches of its own
// (launch_back: a level reads the level below from shared memory).
#include "internal.cuh"

namespace {

constexpr int kBlock = MG_BLOCK_THREADS;
constexpr uint32_t kBlockGroup = 4;  // lanes per vertex: most rows of a road network are this short
constexpr uint32_t kGroups = kBlock / kBlockGroup;
constexpr int kBlockPasses = 4;      // a round's vertices per group, their loads issued together
constexpr uint32_t kRound = kGroups * kBlockPasses;
constexpr uint32_t kBlockHeavyDegree = 64;  // arcs above which the block expands a vertex together
constexpr uint32_t kBlockHeavyList = 256;   // heavy vertices deferred per level (more: expanded alone)
constexpr uint32_t kNone = 0xffffffffu;     // an unreached level, an empty slot, a row's padding
constexpr int kFillBlock = 256;             // the reset, degree and rows kernels' block
constexpr int kFillBlocksPerSM = 8;
constexpr size_t kStaticSmemRoom = 4096;  // room left for the kernels' static shared memory (about 1 KiB)
// A level's cache: MG_BLOCK_CACHE arc ranges (a uint64 start and a uint32
// count each), or as many rows as fit in the same bytes.
constexpr size_t kCacheBytes = (size_t)MG_BLOCK_CACHE * (sizeof(uint64_t) + sizeof(uint32_t));
constexpr uint32_t kRowWidth = MG_BLOCK_ROW_WIDTH;  // a row's slots
constexpr uint32_t kRowVecs = kRowWidth * sizeof(uint32_t) / sizeof(uint4);
constexpr uint32_t kRowCache = (uint32_t)(kCacheBytes / (kRowWidth * sizeof(uint32_t)));  // 384 rows a level
constexpr uint32_t kVecSlots = sizeof(uint4) / sizeof(uint32_t);  // a row's slots a lane reads (one vector)
constexpr uint32_t kRowGroups = kBlock / kRowVecs;  // a level's vertices a round: 512, gpu.BlockMaxLevel

static_assert(32 % kBlockGroup == 0, "a vertex's lanes are in one warp");
static_assert(32 % kRowWidth == 0 && kRowWidth % kBlockGroup == 0, "a row's lanes are in one warp");
static_assert(kRowWidth * sizeof(uint32_t) % sizeof(uint4) == 0, "a row is whole 16-byte vectors");
static_assert(kVecSlots == 4, "a vector's slots are read as x, y, z, w");
static_assert(32 % kRowVecs == 0, "a row's vectors are in one warp");
static_assert(kCacheBytes % sizeof(uint4) == 0, "the second level's cache and the bitmap stay 16-byte aligned");

// Shared is the block's dynamic shared memory: the caches of the current
// and the next level (kCacheBytes each, by level parity; the row source
// says what they hold) and the visited bitmap after them.
// A level's cache is found by arithmetic on its parity, not by indexing
// an array of pointers: a run-time index would put the array in local
// memory and make the cache's accesses generic instead of shared.
struct Shared {
    uint8_t *caches;  // the two levels' caches, kCacheBytes each
    uint32_t *visited;

    __device__ __forceinline__ uint8_t *cache(uint32_t parity) const { return caches + parity * kCacheBytes; }
};

__device__ __forceinline__ Shared carve(uint8_t *smem) {
    Shared s;
    s.caches = smem;
    s.visited = reinterpret_cast<uint32_t *>(smem + 2 * kCacheBytes);
    return s;
}

// Levels is the BFS the block runs: levels[v] (kNone: unreached) and the
// queue order, whose entries [qb, qe) are the current level. When set,
// level_end gets each level's end in order (level_end[d] for depth d), and
// (over the CSR) arc_begin and arc_count each queued vertex's arc range
// (by its place in order), for Brandes' passes.
struct Levels {
    uint32_t *levels;
    uint32_t *order;
    uint32_t *level_end;
    uint64_t *arc_begin;
    uint32_t *arc_count;
};

// Level is where the level of depth d is: order[qb, qe), its entries in
// the cache of parity d & 1, its discoveries counted in *count; pad is 32
// shared words a lane's padding slots claim in (ORing nothing).
struct Level {
    uint32_t qb, qe, d;
    uint32_t *count;
    uint32_t *pad;
};

// claim marks u visited and says whether this thread was the first.
__device__ __forceinline__ bool claim(const Shared &s, uint32_t u) {
    const uint32_t bit = 1u << (u & 31);
    if (s.visited[u >> 5] & bit) return false;  // most arcs: no atomic
    return (atomicOr(&s.visited[u >> 5], bit) & bit) == 0;
}

// place queues claimed vertex u, whose cache entry is e, at level d + 1 in
// the level's slot j.
template <typename R>
__device__ __forceinline__ void place(const Shared &s, const Levels &q, const Level &lv, uint32_t u,
                                      const typename R::Entry &e, uint32_t j) {
    q.levels[u] = lv.d + 1;
    q.order[lv.qe + j] = u;
    R::record(q, lv.qe + j, e);
    if (j < R::kCache) R::put(s, 1 - (lv.d & 1), j, e);
}

// append queues claimed vertex u (one thread: its own slot).
template <typename R>
__device__ __forceinline__ void append(const Shared &s, const Levels &q, const Level &lv, uint32_t u,
                                       const typename R::Entry &e) {
    place<R>(s, q, lv, u, e, atomicAdd(lv.count, 1u));
}

// append_warp queues the claimed vertices of a warp (those with won set;
// every lane calls it): one shared atomic per warp, not per vertex (a
// level's appends all hit one counter).
template <typename R>
__device__ __forceinline__ void append_warp(const Shared &s, const Levels &q, const Level &lv, bool won, uint32_t u,
                                            const typename R::Entry &e) {
    const unsigned m = __ballot_sync(0xffffffffu, won);
    if (m == 0) return;
    const uint32_t lane = threadIdx.x & 31, leader = __ffs(m) - 1;
    uint32_t first = 0;
    if (lane == leader) first = atomicAdd(lv.count, (uint32_t)__popc(m));
    first = __shfl_sync(0xffffffffu, first, leader);
    if (won) place<R>(s, q, lv, u, e, first + __popc(m & ((1u << lane) - 1u)));
}

// CsrRows is the row source over the layout's CSR: a vertex's cache entry
// is its arc range, its arcs are read from sparse_dst.
struct CsrRows {
    static constexpr bool kHeavy = true;  // expands its heavy vertices after a level
    static constexpr bool kSigmaInBfs = false;  // Brandes' forward pass runs after the BFS
    static constexpr uint32_t kCache = MG_BLOCK_CACHE;
    struct Entry {
        uint64_t b;
        uint32_t deg;
    };
    const uint64_t *offsets;
    const uint32_t *dst;

    __device__ __forceinline__ Entry fetch(uint32_t v) const {
        const uint64_t b = __ldg(&offsets[v]);
        return Entry{b, (uint32_t)(__ldg(&offsets[v + 1]) - b)};
    }
    static __device__ __forceinline__ uint64_t *beg(const Shared &s, uint32_t parity) {
        return reinterpret_cast<uint64_t *>(s.cache(parity));
    }
    static __device__ __forceinline__ uint32_t *degs(const Shared &s, uint32_t parity) {
        return reinterpret_cast<uint32_t *>(s.cache(parity) + kCache * sizeof(uint64_t));
    }
    static __device__ __forceinline__ void put(const Shared &s, uint32_t parity, uint32_t j, const Entry &e) {
        beg(s, parity)[j] = e.b;
        degs(s, parity)[j] = e.deg;
    }
    static __device__ __forceinline__ void record(const Levels &q, uint32_t slot, const Entry &e) {
        if (q.arc_begin != NULL) {
            q.arc_begin[slot] = e.b;
            q.arc_count[slot] = e.deg;
        }
    }

    // discover claims and queues u (the arcs outside a round's first ones).
    __device__ __forceinline__ void discover(const Shared &s, const Levels &q, const Level &lv, uint32_t u) const {
        if (claim(s, u)) append<CsrRows>(s, q, lv, u, fetch(u));
    }

    // level expands the level lv: a group of kBlockGroup lanes per vertex,
    // kBlockPasses vertices per group at a time, each lane one arc of each:
    // the destinations are loaded together, claimed, then the claimed
    // vertices' offsets are loaded together (two dependent global accesses
    // per round), and each warp takes its claimed vertices' slots with one
    // shared atomic. A vertex's arcs past its group's first are expanded by
    // its lanes one by one; a vertex with more than kBlockHeavyDegree arcs
    // is left in heavy (*nheavy of them; beyond kBlockHeavyList its first
    // lane expands it alone) for the block to expand together (heavy_level).
    __device__ __forceinline__ void level(const Shared &s, const Levels &q, const Level &lv, uint32_t *heavy,
                                          uint32_t *nheavy) const {
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
                Entry r;
                if (k < kCache) {
                    r = Entry{beg(s, parity)[k], degs(s, parity)[k]};
                } else {
                    r = fetch(q.order[i]);
                }
                if (r.deg > kBlockHeavyDegree) {
                    if (lane == 0) {
                        const uint32_t h = atomicAdd(nheavy, 1u);
                        if (h < kBlockHeavyList) {
                            heavy[h] = i;
                        } else {
                            for (uint64_t a = r.b; a < r.b + r.deg; a++) discover(s, q, lv, __ldg(&dst[a]));
                        }
                    }
                    continue;
                }
                b[p] = r.b;
                deg[p] = r.deg;
                if (lane < r.deg) u[p] = __ldg(&dst[r.b + lane]);
            }
            bool won[kBlockPasses];
#pragma unroll
            for (int p = 0; p < kBlockPasses; p++) won[p] = u[p] != kNone && claim(s, u[p]);
            Entry e[kBlockPasses];
#pragma unroll
            for (int p = 0; p < kBlockPasses; p++) e[p] = won[p] ? fetch(u[p]) : Entry{0, 0};
#pragma unroll
            for (int p = 0; p < kBlockPasses; p++)
                if (p < passes) append_warp<CsrRows>(s, q, lv, won[p], u[p], e[p]);
#pragma unroll
            for (int p = 0; p < kBlockPasses; p++)
                for (uint64_t a = b[p] + kBlockGroup + lane; a < b[p] + deg[p]; a += kBlockGroup)
                    discover(s, q, lv, __ldg(&dst[a]));
        }
    }

    // heavy_level expands the level's heavy vertices (order[heavy[h]] for
    // h < count), the whole block each, after the level's barrier.
    __device__ __forceinline__ void heavy_level(const Shared &s, const Levels &q, const Level &lv,
                                                const uint32_t *heavy, uint32_t count) const {
        for (uint32_t h = 0; h < count; h++) {  // the same in every thread
            const Entry r = fetch(q.order[heavy[h]]);
            for (uint64_t a = r.b + threadIdx.x; a < r.b + r.deg; a += kBlock) discover(s, q, lv, __ldg(&dst[a]));
        }
    }

    // for_arcs calls f(w) for every arc v → w of the vertex queued at i,
    // lane (of kBlockGroup) taking every kBlockGroup-th from its own.
    template <typename F>
    __device__ __forceinline__ void for_arcs(const Levels &q, uint32_t i, uint32_t, uint32_t lane, F f) const {
        const uint64_t b = q.arc_begin[i];
        const uint32_t deg = q.arc_count[i];
        for (uint64_t a = b + lane; a < b + deg; a += kBlockGroup) f(__ldg(&dst[a]));
    }
};

// EllRows is the row source over fixed-width rows (mg_block_rows): a
// vertex's cache entry is its whole row, its arcs the row's slots up to
// the first kNone.
struct EllRows {
    static constexpr bool kHeavy = false;  // no row is wider than kRowWidth
    static constexpr uint32_t kCache = kRowCache;
    struct Entry {
        uint4 v[kRowVecs];
    };
    const uint32_t *rows;  // n rows of kRowWidth, 32-byte aligned (cudaMalloc)

    __device__ __forceinline__ Entry fetch(uint32_t v) const {
        const uint4 *r = reinterpret_cast<const uint4 *>(rows) + (size_t)v * kRowVecs;
        Entry e;
#pragma unroll
        for (uint32_t k = 0; k < kRowVecs; k++) e.v[k] = __ldg(&r[k]);
        return e;
    }
    static __device__ __forceinline__ void put(const Shared &s, uint32_t parity, uint32_t j, const Entry &e) {
        uint4 *r = reinterpret_cast<uint4 *>(s.cache(parity)) + (size_t)j * kRowVecs;
#pragma unroll
        for (uint32_t k = 0; k < kRowVecs; k++) r[k] = e.v[k];
    }
    static __device__ __forceinline__ void record(const Levels &, uint32_t, const Entry &) {}

    // vec returns 16-byte vector c (kVecSlots slots) of the row of the
    // level's vertex at i: from the cache for its first kRowCache
    // vertices, else from global memory.
    __device__ __forceinline__ uint4 vec(const Shared &s, const Levels &q, const Level &lv, uint32_t i,
                                         uint32_t c) const {
        const uint32_t k = i - lv.qb;
        if (k < kCache) return reinterpret_cast<const uint4 *>(s.cache(lv.d & 1))[k * kRowVecs + c];
        return __ldg(reinterpret_cast<const uint4 *>(rows) + (size_t)q.order[i] * kRowVecs + c);
    }

    // level expands the level lv: kRowVecs lanes per vertex, each lane one
    // 16-byte vector of its row (kVecSlots slots), kRowGroups vertices a
    // round (one round for a level up to gpu.BlockMaxLevel): the vectors
    // are read from shared memory and their slots claimed (their atomics
    // issued together),
    // the claimed vertices' rows loaded together (one dependent global
    // access per round), and each warp takes its claimed vertices' queue
    // slots with one shared atomic. A road network's rows hold about two
    // arcs of their eight slots, so few lanes per row keep the level's
    // warps, and the instructions the block issues a level, few.
    __device__ __forceinline__ void level(const Shared &s, const Levels &q, const Level &lv, uint32_t *,
                                          uint32_t *) const {
        level_sigma<false>(s, q, lv, nullptr);
    }

    // level_sigma is level; with kSigma it also makes the level's σ on
    // the way (Brandes' forward pass fused into the BFS): σ[v] of each of
    // the level's vertices v (but the source level's) is the sum of σ over
    // v's row slots one level up, whose σ the level before made. The slots'
    // levels and σ are loaded with the claims, not after them.
    template <bool kSigma>
    __device__ __forceinline__ void level_sigma(const Shared &s, const Levels &q, const Level &lv,
                                                double *sigma) const {
        const uint32_t tid = threadIdx.x, c = tid % kRowVecs, lane = tid & 31;
        const bool pull = kSigma && lv.d > 0;  // the same in every thread
        for (uint32_t base = lv.qb; base < lv.qe; base += kRowGroups) {
            // A warp past the level leaves (every later round is past it too).
            if (base + (tid & ~31u) / kRowVecs >= lv.qe) break;
            const uint32_t i = base + tid / kRowVecs;
            uint32_t u[kVecSlots];
            {
                const uint4 x = i < lv.qe ? vec(s, q, lv, i, c) : make_uint4(kNone, kNone, kNone, kNone);
                u[0] = x.x;
                u[1] = x.y;
                u[2] = x.z;
                u[3] = x.w;
            }
            if constexpr (kSigma) {
                if (pull) {
                    uint32_t lw[kVecSlots];
                    double sw[kVecSlots];
#pragma unroll
                    for (uint32_t k = 0; k < kVecSlots; k++) {
                        lw[k] = u[k] != kNone ? q.levels[u[k]] : kNone;
                        sw[k] = u[k] != kNone ? sigma[u[k]] : 0.0;
                    }
                    const uint32_t v = c == 0 && i < lv.qe ? q.order[i] : kNone;
                    double x = 0;
#pragma unroll
                    for (uint32_t k = 0; k < kVecSlots; k++) x += lw[k] == lv.d - 1 ? sw[k] : 0.0;
                    x = mg::group_sum<kRowVecs>(x);  // over the row's lanes
                    if (v != kNone) sigma[v] = x;
                }
            }
            // Claims: an atomic per slot, the four issued before any result
            // is read (no branch per slot and no load of the word first). On
            // a road network a lane's slots are mostly padding, which ORs
            // nothing into the lane's own word of lv.pad, so no two lanes
            // of a warp meet on one address for nothing.
            uint32_t old[kVecSlots];
#pragma unroll
            for (uint32_t k = 0; k < kVecSlots; k++) {
                const bool real = u[k] != kNone;
                old[k] = atomicOr(real ? &s.visited[u[k] >> 5] : &lv.pad[lane], real ? 1u << (u[k] & 31) : 0u);
            }
            bool won[kVecSlots];
#pragma unroll
            for (uint32_t k = 0; k < kVecSlots; k++) won[k] = u[k] != kNone && !(old[k] & (1u << (u[k] & 31)));
            Entry e[kVecSlots];
#pragma unroll
            for (uint32_t k = 0; k < kVecSlots; k++)
                if (won[k]) e[k] = fetch(u[k]);
            // The warp's queue slots: one shared atomic for all its claims.
            unsigned m[kVecSlots];
            uint32_t total = 0;
#pragma unroll
            for (uint32_t k = 0; k < kVecSlots; k++) {
                m[k] = __ballot_sync(0xffffffffu, won[k]);
                total += __popc(m[k]);
            }
            if (total == 0) continue;
            uint32_t first = 0;
            if (lane == 0) first = atomicAdd(lv.count, total);
            first = __shfl_sync(0xffffffffu, first, 0);
            const unsigned below = (1u << lane) - 1u;
#pragma unroll
            for (uint32_t k = 0; k < kVecSlots; k++) {
                if (won[k]) place<EllRows>(s, q, lv, u[k], e[k], first + __popc(m[k] & below));
                first += __popc(m[k]);
            }
        }
    }
};

// EllRowsSigma is EllRows for Brandes: its BFS also makes σ (the forward
// pass fused into the levels: EllRows::level_sigma), so bc_kernel stops
// after it and the backward pass runs over queue places (launch_back).
struct EllRowsSigma : EllRows {
    static constexpr bool kSigmaInBfs = true;
    double *sigma;

    __device__ __forceinline__ void level(const Shared &s, const Levels &q, const Level &lv, uint32_t *,
                                          uint32_t *) const {
        level_sigma<true>(s, q, lv, sigma);
    }
};

// bfs runs the levels from [qb, qe) of q.order at depth d until a level is
// empty or, with bailout > 0, holds more than bailout vertices (then left
// as [*out_qb, *out_qe) at *out_depth). The current level's cache entries
// are in s's cache (parity d & 1) for its first R::kCache vertices. Every
// thread of the block calls it and gets the same results.
template <typename R>
__device__ void bfs(const R &src, const Shared &s, const Levels &q, uint32_t qb, uint32_t qe, uint32_t d,
                    uint32_t bailout, uint32_t *out_qb, uint32_t *out_qe, uint32_t *out_depth) {
    __shared__ uint32_t s_count[3], s_nheavy[3];  // by level mod 3: reset two levels ahead
    __shared__ uint32_t s_heavy[R::kHeavy ? kBlockHeavyList : 1];
    __shared__ uint32_t s_pad[32];  // the padding slots' claims (Level::pad)
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
        const Level lv{qb, qe, d, &s_count[c], s_pad};
        src.level(s, q, lv, s_heavy, &s_nheavy[c]);
        __syncthreads();
        if constexpr (R::kHeavy) {
            const uint32_t heavy = min(s_nheavy[c], kBlockHeavyList);
            src.heavy_level(s, q, lv, s_heavy, heavy);
            if (heavy > 0) __syncthreads();
        }
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

// start_level loads the first level's cache entries (parity of depth d)
// and, over the CSR, q's arc ranges when set, and marks the visited
// vertices: those with a level when marked, else the first level alone.
template <typename R>
__device__ void start_level(const R &src, const mg_dlayout &L, const Shared &s, const Levels &q, uint32_t count,
                            uint32_t d, bool marked) {
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
        const typename R::Entry e = src.fetch(q.order[k]);
        if (k < R::kCache) R::put(s, d & 1, k, e);
        R::record(q, k, e);
    }
    __syncthreads();
    if (!marked)
        for (uint32_t k = tid; k < count; k += kBlock) atomicOr(&s.visited[q.order[k] >> 5], 1u << (q.order[k] & 31));
    __syncthreads();
}

// source returns the row source R over layout L (rows: mg_block_rows's,
// for EllRows).
template <typename R>
__device__ __forceinline__ R source(const mg_dlayout &L, const uint32_t *rows);
template <>
__device__ __forceinline__ CsrRows source<CsrRows>(const mg_dlayout &L, const uint32_t *) {
    return CsrRows{L.sparse_offsets, L.sparse_dst};
}
template <>
__device__ __forceinline__ EllRows source<EllRows>(const mg_dlayout &, const uint32_t *rows) {
    return EllRows{rows};
}
template <>
__device__ __forceinline__ EllRowsSigma source<EllRowsSigma>(const mg_dlayout &, const uint32_t *rows) {
    return EllRowsSigma{EllRows{rows}, nullptr};  // bc_kernel sets sigma
}

// bfs_kernel (one block) continues a BFS from frontier[0..count) (count >
// 0, every one at the same level), which it copies to the front of order
// (the queue); a level it stops at (bailout) goes back to frontier.
template <typename R>
__global__ void __launch_bounds__(kBlock)
    bfs_kernel(mg_dlayout L, const uint32_t *rows, uint32_t *levels, uint32_t *frontier, uint32_t count,
               uint32_t *order, uint32_t bailout, mg_block_stats *stats) {
    extern __shared__ __align__(16) uint8_t smem[];
    const Shared s = carve(smem);
    const R src = source<R>(L, rows);
    const Levels q{levels, order, NULL, NULL, NULL};
    for (uint32_t k = threadIdx.x; k < count; k += kBlock) order[k] = frontier[k];
    const uint32_t d = levels[frontier[0]];
    __syncthreads();
    start_level(src, L, s, q, count, d, true);
    uint32_t qb, qe, depth;
    bfs(src, s, q, 0, count, d, bailout, &qb, &qe, &depth);
    for (uint32_t k = threadIdx.x; k < qe - qb; k += kBlock) frontier[k] = order[qb + k];
    if (threadIdx.x == 0) *stats = mg_block_stats{depth - d, qe - count, qb, qe - qb};
}

// brandes_level is one level d of Brandes' passes, order[lo, hi), a group
// of kBlockGroup lanes per vertex: forward, σ[v] is the sum of σ over its
// arcs from level d − 1; backward, δ[v] is σ[v] times the sum of
// (1 + δ[w]) / σ[w] over its arcs to level d + 1, 0 without such arcs
// even where σ[v] overflowed to +Inf (over the CSR; over the rows σ is
// made by the BFS and δ by launch_back).
template <bool kForward, typename R>
__device__ __forceinline__ void brandes_level(const R &src, const Levels &q, uint32_t lo, uint32_t hi, uint32_t d,
                                              double *sigma, double *delta) {
    const uint32_t tid = threadIdx.x, lane = tid % kBlockGroup;
    const uint32_t want = kForward ? d - 1 : d + 1;
    for (uint32_t base = lo; base < hi; base += kGroups) {
        if (base + (tid & ~31u) / kBlockGroup >= hi) break;  // the warp's vertices are past the level
        const uint32_t i = base + tid / kBlockGroup;
        double sum = 0;
        bool succ = false;
        uint32_t v = kNone;
        if (i < hi) {
            v = q.order[i];
            src.for_arcs(q, i, v, lane, [&](uint32_t w) {
                if (q.levels[w] == want) {
                    sum += kForward ? sigma[w] : (1.0 + delta[w]) / sigma[w];
                    succ = true;
                }
            });
        }
        sum = mg::group_sum<kBlockGroup>(sum);
        const bool any = kForward || mg::group_any<kBlockGroup>(succ);
        if (i < hi && lane == 0) {
            if (kForward) sigma[v] = sum;
            else if (any) delta[v] = sigma[v] * sum;  // none: δ stays 0 (σ[v] may be +Inf)
        }
    }
}

// bc_kernel (one block): Brandes from source over an undirected layout:
// the BFS (its levels in levels, kNone where unreached, set before), then
// σ down the levels (σ[v]: the sum of σ over v's arcs from the level
// above) and δ up (δ[v]: σ[v] · Σ (1 + δ[w]) / σ[w] over v's arcs to the
// level below); σ and δ are 0 before, except σ[source] = 1. Over the rows
// (EllRowsSigma) σ is made by the BFS and the kernel stops after it (δ:
// launch_back). It stops after the BFS, leaving σ and δ, when a level has
// more than bailout vertices (0: never).
template <typename R>
__global__ void __launch_bounds__(kBlock)
    bc_kernel(mg_dlayout L, const uint32_t *rows, uint32_t source_v, uint32_t *levels, uint32_t *order,
              uint32_t *level_end, uint64_t *arc_begin, uint32_t *arc_count, uint32_t bailout, double *sigma,
              double *delta, mg_block_stats *stats) {
    extern __shared__ __align__(16) uint8_t smem[];
    const Shared s = carve(smem);
    R src = source<R>(L, rows);
    if constexpr (R::kSigmaInBfs) src.sigma = sigma;
    const Levels q{levels, order, level_end, arc_begin, arc_count};
    const uint32_t tid = threadIdx.x;
    if (tid == 0) {
        order[0] = source_v;
        level_end[0] = 1;
    }
    __syncthreads();
    start_level(src, L, s, q, 1, 0, false);
    uint32_t qb, qe, depth;
    bfs(src, s, q, 0, 1, 0, bailout, &qb, &qe, &depth);
    if (qe > qb) {  // stopped at a level too wide for the block: the caller runs the source otherwise
        if (tid == 0) *stats = mg_block_stats{depth, qe, qb, qe - qb};
        return;
    }
    if constexpr (R::kSigmaInBfs) {  // σ is made; δ's pass follows over queue places (back_kernel)
        if (tid == 0) *stats = mg_block_stats{depth, qe, 0, 0};
        return;
    } else {
        // depth levels, 0 .. depth − 1 (the last, empty level excluded);
        // level d is order[level_end[d − 1] .. level_end[d]).
        __syncthreads();
        for (uint32_t d = 1; d < depth; d++) {
            brandes_level<true>(src, q, level_end[d - 1], level_end[d], d, sigma, delta);
            __syncthreads();
        }
        for (uint32_t d = depth >= 2 ? depth - 2 : 0; d + 1 < depth; d--) {  // the deepest level's δ stays 0
            brandes_level<false>(src, q, d > 0 ? level_end[d - 1] : 0, level_end[d], d, sigma, delta);
            __syncthreads();
            if (d == 0) break;
        }
        if (tid == 0) *stats = mg_block_stats{depth, qe, 0, 0};
    }
}

// Brandes' backward pass over the rows, by queue places. With
//   x_w = (1 + δ_w) / σ_w = 1/σ_w + S_w,  S_v = Σ x_w over v's children w,
// δ_v = σ_v · S_v, so a level needs only its children's x and its own
// 1/σ: no division and no vertex id on the way. After the BFS (which
// stopped unless stats say it bailed out):
//   place_kernel  places[order[i]] = i;
//   links_kernel  links[i][a] = the place of row slot a of order[i] when
//                 that slot is a child (one level down), else kNone;
//                 qvals[i] = 1/σ(order[i]);
//   back_kernel   (one block, a thread a vertex of a level: the BFS's
//                 bailout keeps levels within MG_BLOCK_BACK_LEVEL) level by
//                 level up: x and S of each queued vertex. A level's x goes
//                 to shared memory (a window by level parity) where its
//                 parents read it, so a level waits for no global access:
//                 its links and 1/σ were loaded kBackAhead levels before;
//   finish_kernel δ[order[i]] = σ · S_i.
constexpr double kNaN = __builtin_nan("");  // a dependency lost to σ's overflow
constexpr int kBackThreads = MG_BLOCK_BACK_LEVEL;  // back_kernel's block: a thread a vertex of a level
constexpr int kBackAhead = 4;       // levels whose links and 1/σ are in flight
constexpr int kEndChunk = 2048;     // level ends staged in shared memory at a time
static_assert(kEndChunk > kBackAhead + 1, "a stage's level ends are staged with the level's");

// bailed says whether the block's BFS stopped at a level over its bailout
// (then nothing follows it).
__device__ __forceinline__ bool bailed(const mg_block_stats *st) { return st->frontier_count != 0; }

__global__ void place_kernel(const uint32_t *order, const mg_block_stats *st, uint32_t *places) {
    if (bailed(st)) return;
    const uint64_t qe = st->reached, step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < qe; i += step) places[order[i]] = (uint32_t)i;
}

// links_kernel: one thread a row slot of a queued vertex.
__global__ void links_kernel(const uint32_t *rows, const uint32_t *order, const uint32_t *levels,
                             const uint32_t *places, const double *sigma, const mg_block_stats *st, uint32_t *links,
                             double *inv_sigma) {
    if (bailed(st)) return;
    const uint64_t slots = (uint64_t)st->reached * kRowWidth, step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; t < slots; t += step) {
        const uint64_t i = t / kRowWidth, a = t % kRowWidth;
        const uint32_t v = order[i], w = __ldg(&rows[(size_t)v * kRowWidth + a]);
        links[t] = w != kNone && levels[w] == levels[v] + 1 ? places[w] : kNone;
        if (a == 0) inv_sigma[i] = 1.0 / sigma[v];
    }
}

// finish_kernel: δ = σ · S of each queued vertex, left 0 for one without
// links (no arc to the level below: σ may have overflowed to +Inf, and
// +Inf · 0 is NaN where the reference's per-arc sum leaves 0).
__global__ void finish_kernel(const uint32_t *order, const uint32_t *links, const double *sigma, const double *sums,
                              const mg_block_stats *st, double *delta) {
    if (bailed(st)) return;
    const uint64_t qe = st->reached, step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < qe; i += step) {
        bool succ = false;
#pragma unroll
        for (uint32_t a = 0; a < kRowWidth; a++) succ |= links[i * kRowWidth + a] != kNone;
        if (succ) delta[order[i]] = sigma[order[i]] * sums[i];
    }
}

// BackStage is a level of the backward pass loaded ahead: its places
// [lo, hi) and, for this thread's vertex (place lo + threadIdx.x), its
// links and 1/σ.
struct BackStage {
    uint32_t lo, hi;
    uint4 link[kRowVecs];
    double inv;
};

// back_kernel (one block of kBackThreads): x and S of every queued vertex,
// level by level up from the deepest (depth − 1, whose S is 0), every
// level at most kBackThreads wide; both NaN for a vertex with successors
// whose σ overflowed (as the reference's per-arc terms). inv_sigma holds 1/σ by place
// (links_kernel's); sums gets S by place.
__global__ void __launch_bounds__(kBackThreads)
    back_kernel(const uint32_t *level_end, const uint32_t *links, const mg_block_stats *st, const double *inv_sigma,
                double *sums) {
    __shared__ double s_x[2][kBackThreads];  // x of a level by place in it, by level parity
    __shared__ uint32_t s_end[kEndChunk];     // level_end[staged .. staged + kEndChunk)
    if (bailed(st) || st->levels == 0) return;
    const uint32_t tid = threadIdx.x;
    const uint4 *link4 = reinterpret_cast<const uint4 *>(links);
    int staged = 0;
    auto stage = [&](int top) {  // level ends top − kEndChunk + 1 .. top into s_end (callers then sync)
        staged = top - kEndChunk + 1;
        for (int j = tid; j < kEndChunk; j += kBackThreads) s_end[j] = staged + j >= 0 ? level_end[staged + j] : 0;
    };
    auto end = [&](int e) -> uint32_t { return e >= 0 ? s_end[e - staged] : 0; };
    auto load = [&](BackStage &b, int d) {  // level d's stage (d < 0: an empty level)
        b.lo = d >= 0 ? end(d - 1) : 0;
        b.hi = d >= 0 ? end(d) : 0;
        const uint32_t i = b.lo + tid;
        if (i < b.hi) {
#pragma unroll
            for (uint32_t k = 0; k < kRowVecs; k++) b.link[k] = __ldg(&link4[(size_t)i * kRowVecs + k]);
            b.inv = __ldg(&inv_sigma[i]);
        }
    };
    int d = (int)st->levels - 1;
    stage(d);
    __syncthreads();
    BackStage ring[kBackAhead];
#pragma unroll
    for (int k = 0; k < kBackAhead; k++) load(ring[k], d - k);
    uint32_t clo = 0;  // where the level below starts (none under the deepest: no links)
    for (;;) {
#pragma unroll
        for (int k = 0; k < kBackAhead; k++) {
            BackStage &b = ring[k];
            const int next = d - kBackAhead;  // the level this stage loads once level d has taken it
            if (next >= 0 && next - 1 < staged) {  // every thread's reads of the old ends were before the last barrier
                stage(next);
                __syncthreads();
            }
            const uint32_t lo = b.lo, width = b.hi - b.lo;
            const double inv = b.inv;
            uint32_t c[kRowWidth];
#pragma unroll
            for (uint32_t k2 = 0; k2 < kRowVecs; k2++) {
                c[4 * k2] = b.link[k2].x;
                c[4 * k2 + 1] = b.link[k2].y;
                c[4 * k2 + 2] = b.link[k2].z;
                c[4 * k2 + 3] = b.link[k2].w;
            }
            double y[kRowWidth];
            const double *cx = s_x[(d + 1) & 1];
#pragma unroll
            for (uint32_t a = 0; a < kRowWidth; a++) y[a] = tid < width && c[a] != kNone ? cx[c[a] - clo] : 0.0;
            load(b, next);  // its loads issue while this level waits for its sums
            if (tid < width) {  // a fixed tree over the row's slots: 3 dependent adds, not 8
                bool succ = false;
#pragma unroll
                for (uint32_t a = 0; a < kRowWidth; a++) succ |= c[a] != kNone;
#pragma unroll
                for (uint32_t h = 1; h < kRowWidth; h *= 2)
#pragma unroll
                    for (uint32_t a = 0; a < kRowWidth; a += 2 * h) y[a] += y[a + h];
                // σ overflowed to +Inf (1/σ is 0) under a vertex with successors: the
                // reference's σ[v]/σ[w] terms are +Inf/+Inf, NaN, and so are x and S here.
                const bool lost = succ && inv == 0.0;
                s_x[d & 1][tid] = lost ? kNaN : inv + y[0];
                sums[lo + tid] = lost ? kNaN : y[0];
            }
            clo = lo;
            if (d == 0) return;
            __syncthreads();  // level d's x is complete
            d--;
        }
    }
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

// max_degree_kernel raises *out (0 before) to the largest out-degree of
// the n vertices (at most kNone).
__global__ void max_degree_kernel(const uint64_t *offsets, uint64_t n, uint32_t *out) {
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    uint32_t m = 0;
    for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += step)
        m = max(m, (uint32_t)min(__ldg(&offsets[v + 1]) - __ldg(&offsets[v]), (uint64_t)kNone));
    m = __reduce_max_sync(0xffffffffu, m);  // the block is whole warps
    if ((threadIdx.x & 31) == 0 && m > 0) atomicMax(out, m);
}

// rows_kernel writes slot a of row v, rows[v * kRowWidth + a]: what arcs
// holds for v's a-th arc (its destination, its weight), pad past its arcs
// (every row has at most kRowWidth; one thread a slot, the writes
// coalesced).
__global__ void rows_kernel(const uint64_t *offsets, const uint32_t *arcs, uint64_t n, uint32_t pad, uint32_t *rows) {
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; t < n * kRowWidth; t += step) {
        const uint64_t v = t / kRowWidth, a = t % kRowWidth;
        const uint64_t b = __ldg(&offsets[v]), e = __ldg(&offsets[v + 1]);
        rows[t] = b + a < e ? __ldg(&arcs[b + a]) : pad;
    }
}

// launch_rows fills rows from arcs (the layout's destinations or weights),
// after the checks of mg_block_rows and mg_block_weight_rows (what: the
// caller's name).
int launch_rows(int dev, const mg_dlayout *l, uint32_t max_degree, const uint32_t *arcs, uint32_t pad,
                uint32_t *rows, mg_stream s, const char *what, char *err, size_t errlen) {
    char msg[128];
    if (l == NULL || rows == NULL) {
        snprintf(msg, sizeof msg, "%s: NULL pointer", what);
        return mg::invalid(msg, err, errlen);
    }
    if (max_degree > kRowWidth) {
        snprintf(msg, sizeof msg, "%s: a row is wider than MG_BLOCK_ROW_WIDTH", what);
        return mg::invalid(msg, err, errlen);
    }
    if (l->n == 0) return MG_OK;
    if (l->sparse_offsets == NULL || (arcs == NULL && max_degree > 0)) {
        snprintf(msg, sizeof msg, "%s: the layout has no sparse adjacency or weights", what);
        return mg::invalid(msg, err, errlen);
    }
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    rows_kernel<<<mg::grid_for(dev, l->n * kRowWidth, kFillBlock, kFillBlocksPerSM), kFillBlock, 0, st>>>(
        l->sparse_offsets, arcs, l->n, pad, rows);
    MG_CHECK_LAUNCH("rows_kernel<<<grid, 256, 0, s>>>");
    return MG_OK;
}

// smem_bytes is the dynamic shared memory of the block kernels over n
// vertices: two levels' caches (the same for both row sources) and the
// bitmap.
size_t smem_bytes(uint64_t n) { return 2 * kCacheBytes + (size_t)((n + 31) / 32) * sizeof(uint32_t); }

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

// launch_bfs launches bfs_kernel over row source R.
template <typename R>
int launch_bfs(int dev, const mg_dlayout *l, const uint32_t *rows, uint32_t *levels, uint32_t *frontier,
               uint32_t count, uint32_t *order, uint32_t bailout, mg_block_stats *stats, mg_stream s, mg_event *ev,
               char *err, size_t errlen) {
    size_t smem = 0;
    const int rc = prepare_launch(bfs_kernel<R>, dev, l->n, "mg_block_bfs", &smem, err, errlen);
    if (rc != MG_OK) return rc;
    cudaStream_t st = (cudaStream_t)s;
    MG_RECORD(0);
    bfs_kernel<R><<<1, kBlock, smem, st>>>(*l, rows, levels, frontier, count, order, bailout, stats);
    MG_CHECK_LAUNCH("bfs_kernel<<<1, MG_BLOCK_THREADS, bitmap + cache, s>>>");
    MG_RECORD(1);
    return MG_OK;
}

// launch_back launches Brandes' backward pass over queue places after
// bc_kernel<EllRowsSigma> (a no-op when its BFS bailed out): places in
// arc_count, links, 1/σ in qvals[0, n), S in qvals[n, 2n).
int launch_back(int dev, uint64_t n, const uint32_t *rows, const uint32_t *levels, const uint32_t *order,
                const uint32_t *level_end, uint32_t *places, uint32_t *links, double *qvals, const double *sigma,
                double *delta, const mg_block_stats *stats, cudaStream_t st, char *err, size_t errlen) {
    const unsigned gv = mg::grid_for(dev, n, kFillBlock, kFillBlocksPerSM);
    place_kernel<<<gv, kFillBlock, 0, st>>>(order, stats, places);
    MG_CHECK_LAUNCH("place_kernel<<<grid, 256, 0, s>>>");
    links_kernel<<<mg::grid_for(dev, n * kRowWidth, kFillBlock, kFillBlocksPerSM), kFillBlock, 0, st>>>(
        rows, order, levels, places, sigma, stats, links, qvals);
    MG_CHECK_LAUNCH("links_kernel<<<grid, 256, 0, s>>>");
    back_kernel<<<1, kBackThreads, 0, st>>>(level_end, links, stats, qvals, qvals + n);
    MG_CHECK_LAUNCH("back_kernel<<<1, MG_BLOCK_BACK_LEVEL, 0, s>>>");
    finish_kernel<<<gv, kFillBlock, 0, st>>>(order, links, sigma, qvals + n, stats, delta);
    MG_CHECK_LAUNCH("finish_kernel<<<grid, 256, 0, s>>>");
    return MG_OK;
}

// launch_bc launches the reset and bc_kernel over row source R, and over
// the rows the backward pass after it.
template <typename R>
int launch_bc(int dev, const mg_dlayout *l, const uint32_t *rows, uint32_t source, uint32_t *levels,
              uint32_t *order, uint32_t *level_end, uint64_t *arc_begin, uint32_t *arc_count, uint32_t *links,
              double *qvals, uint32_t bailout, double *sigma, double *delta, mg_block_stats *stats, mg_stream s,
              mg_event *ev, char *err, size_t errlen) {
    size_t smem = 0;
    const int rc = prepare_launch(bc_kernel<R>, dev, l->n, "mg_bc_block", &smem, err, errlen);
    if (rc != MG_OK) return rc;
    cudaStream_t st = (cudaStream_t)s;
    int rc2 = MG_OK;
    MG_RECORD(0);
    if ((rc2 = mg::bc_block_reset(dev, l->n, source, levels, sigma, delta, st, err, errlen)) != MG_OK) return rc2;
    bc_kernel<R><<<1, kBlock, smem, st>>>(*l, rows, source, levels, order, level_end, arc_begin, arc_count, bailout,
                                          sigma, delta, stats);
    MG_CHECK_LAUNCH("bc_kernel<<<1, MG_BLOCK_THREADS, bitmap + cache, s>>>");
    if constexpr (R::kSigmaInBfs) {
        if ((rc2 = launch_back(dev, l->n, rows, levels, order, level_end, arc_count, links, qvals, sigma, delta, stats,
                               st, err, errlen)) != MG_OK)
            return rc2;
    }
    MG_RECORD(1);
    return MG_OK;
}

}  // namespace

namespace mg {

int bc_block_reset(int dev, uint64_t n, uint32_t source, uint32_t *levels, double *sigma, double *delta,
                   cudaStream_t st, char *err, size_t errlen) {
    reset_kernel<<<mg::grid_for(dev, n, kFillBlock, kFillBlocksPerSM), kFillBlock, 0, st>>>(n, source, levels, sigma,
                                                                                         delta);
    MG_CHECK_LAUNCH("block reset_kernel<<<grid, 256, 0, s>>>");
    return MG_OK;
}

}  // namespace mg

extern "C" {

int mg_block_max_vertices(int dev, uint64_t *out, char *err, size_t errlen) {
    if (out == NULL) return mg::invalid("mg_block_max_vertices: NULL pointer", err, errlen);
    int optin = 0;
    MG_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    const int64_t room = (int64_t)optin - (int64_t)kStaticSmemRoom - (int64_t)smem_bytes(0);
    *out = room > 0 ? (uint64_t)room / sizeof(uint32_t) * 32 : 0;
    return MG_OK;
}

int mg_block_max_degree(int dev, const mg_dlayout *l, uint32_t *out, mg_stream s, char *err, size_t errlen) {
    if (l == NULL || out == NULL) return mg::invalid("mg_block_max_degree: NULL pointer", err, errlen);
    if (l->n > 0 && l->sparse_offsets == NULL)
        return mg::invalid("mg_block_max_degree: the layout has no sparse offsets", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    MG_CHECK(cudaMemsetAsync(out, 0, sizeof(uint32_t), st));
    if (l->n == 0) return MG_OK;
    max_degree_kernel<<<mg::grid_for(dev, l->n, kFillBlock, kFillBlocksPerSM), kFillBlock, 0, st>>>(
        l->sparse_offsets, l->n, out);
    MG_CHECK_LAUNCH("max_degree_kernel<<<grid, 256, 0, s>>>");
    return MG_OK;
}

int mg_block_rows(int dev, const mg_dlayout *l, uint32_t max_degree, uint32_t *rows, mg_stream s, char *err,
                  size_t errlen) {
    return launch_rows(dev, l, max_degree, l != NULL ? l->sparse_dst : NULL, kNone, rows, s, "mg_block_rows", err,
                       errlen);
}

int mg_block_weight_rows(int dev, const mg_dlayout *l, uint32_t max_degree, uint32_t *wrows, mg_stream s, char *err,
                         size_t errlen) {
    return launch_rows(dev, l, max_degree, l != NULL ? l->sparse_weights : NULL, 0, wrows, s, "mg_block_weight_rows",
                       err, errlen);
}

int mg_block_bfs(int dev, const mg_dlayout *l, const uint32_t *rows, uint32_t *levels, uint32_t *frontier,
                 uint32_t count, uint32_t *order, uint32_t bailout, mg_block_stats *stats, mg_stream s, mg_event *ev,
                 char *err, size_t errlen) {
    if (l == NULL || levels == NULL || (frontier == NULL && count > 0) || order == NULL || stats == NULL)
        return mg::invalid("mg_block_bfs: NULL pointer", err, errlen);
    if (count == 0 || count > l->n)
        return mg::invalid("mg_block_bfs: the frontier is empty or has more vertices than the graph", err, errlen);
    MG_SET_DEVICE(dev);
    if (rows != NULL)
        return launch_bfs<EllRows>(dev, l, rows, levels, frontier, count, order, bailout, stats, s, ev, err, errlen);
    return launch_bfs<CsrRows>(dev, l, rows, levels, frontier, count, order, bailout, stats, s, ev, err, errlen);
}

int mg_bc_block(int dev, const mg_dlayout *l, const uint32_t *rows, uint32_t source, uint32_t *levels,
                uint32_t *order, uint32_t *level_end, uint64_t *arc_begin, uint32_t *arc_count, uint32_t *links,
                double *qvals, uint32_t bailout, double *sigma, double *delta, mg_block_stats *stats, mg_stream s,
                mg_event *ev, char *err, size_t errlen) {
    if (l == NULL || levels == NULL || order == NULL || level_end == NULL || arc_count == NULL || sigma == NULL ||
        delta == NULL || stats == NULL)
        return mg::invalid("mg_bc_block: NULL pointer", err, errlen);
    if (rows == NULL && arc_begin == NULL) return mg::invalid("mg_bc_block: NULL arc_begin over the CSR", err, errlen);
    if (rows != NULL && (links == NULL || qvals == NULL))
        return mg::invalid("mg_bc_block: NULL links or qvals over rows", err, errlen);
    if (rows != NULL && (bailout == 0 || bailout > MG_BLOCK_BACK_LEVEL))
        return mg::invalid("mg_bc_block: over rows the bailout must be 1 .. MG_BLOCK_BACK_LEVEL", err, errlen);
    if (source >= l->n) return mg::invalid("mg_bc_block: source out of range", err, errlen);
    MG_SET_DEVICE(dev);
    if (rows != NULL)
        return launch_bc<EllRowsSigma>(dev, l, rows, source, levels, order, level_end, arc_begin, arc_count, links,
                                       qvals, bailout, sigma, delta, stats, s, ev, err, errlen);
    return launch_bc<CsrRows>(dev, l, rows, source, levels, order, level_end, arc_begin, arc_count, links, qvals,
                              bailout, sigma, delta, stats, s, ev, err, errlen);
}

}  // extern "C"
