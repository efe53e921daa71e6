// cluster.cu — block.cu's level-synchronous Brandes over fixed-width
// rows, spread over the blocks of one thread-block cluster (compute
// capability 9.0). A graph whose levels are wider than one block's (a
// grid: thousands of vertices a level) or whose visited bitmap does not
// fit one block's shared memory still runs level by level with a hardware
// barrier between levels (the cluster's) instead of a grid-wide
// worklist's chains of hand-offs (a plain BFS, which needs no levels, runs
// faster on that worklist, async.cu):
//
//   - the bitmap is split over the blocks' shared memory, word w (of 32
//     vertices) in block w mod C at w / C, and a claim is an atomic on
//     that block's word through distributed shared memory (DSMEM);
//   - the block that holds a vertex's word expands it at the next level
//     (the words interleave, so a level spreads over the blocks): the
//     thread that claims it loads its whole row at once and appends id
//     and row to that block's list of the level (shared memory, up to
//     kList ids, the rows of the first kRowCache), so a level costs one
//     dependent global access (the claimed rows) beside the DSMEM round
//     trips (the claim, the owner's count);
//   - after the cluster's barrier each block expands the level it holds
//     while it reads the others' counts (DSMEM), then places its list in
//     the global queue behind the blocks of lower rank. A list past kList
//     ids spills into global memory, so no level is too wide.
//
// A level wider than the bailout stops the run at the next (found when
// the next is made): mg_bc_cluster stops after the BFS for the caller to
// run the source otherwise. Brandes makes σ in the BFS (block.cu's
// EllRowsSigma) and writes each queued vertex's row to qrows in queue
// order; δ's pass then runs level by level up over the whole cluster,
// loading the queue two levels ahead and the levels and σ one level
// ahead, so a level waits only for δ one level down.
#include <cooperative_groups.h>

#include "internal.cuh"

namespace cg = cooperative_groups;

namespace {

constexpr int kThreads = MG_BLOCK_THREADS;
constexpr uint32_t kWidth = MG_BLOCK_ROW_WIDTH;  // a row's slots: lanes per vertex
constexpr uint32_t kVecs = kWidth * sizeof(uint32_t) / sizeof(uint4);
constexpr uint32_t kList = MG_CLUSTER_LIST;
constexpr uint32_t kRowCache = MG_CLUSTER_ROW_CACHE;
constexpr uint32_t kMaxBlocks = MG_CLUSTER_MAX_BLOCKS;
constexpr size_t kStaticSmemRoom = 4096;
constexpr size_t kRowBytes = kWidth * sizeof(uint32_t);
constexpr uint32_t kSlots = 3;  // a block's levels in shared memory: one expanded, one made, one placed
// A block's level (slot: level mod kSlots): kRowCache rows, then kList ids.
constexpr size_t kLevelBytes = (size_t)kRowCache * kRowBytes + (size_t)kList * sizeof(uint32_t);

static_assert(32 % kWidth == 0, "a row's lanes are in one warp");
static_assert(kRowBytes % sizeof(uint4) == 0, "a row is whole 16-byte vectors");
static_assert(kLevelBytes % sizeof(uint4) == 0, "the bitmap stays 16-byte aligned");
static_assert(kMaxBlocks <= 32, "one warp reads every block's count");

struct Row {
    uint4 v[kVecs];
};

// The cluster code compiles for compute capability 9.0 and up (and in
// the host pass); older targets get kernels that trap, which the host
// never launches (mg_cluster_max_vertices reports no clusters there).
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define MG_CLUSTER_DEVICE 1

constexpr uint32_t kGroups = kThreads / kWidth;  // vertices a block reads at once
constexpr int kPasses = 4;                       // a round's vertices per group, their loads issued together
constexpr uint32_t kRound = kGroups * kPasses;
constexpr int kAheadRounds = 2;  // rounds of a level Brandes' backward pass loads a level ahead
constexpr uint32_t kNone = 0xffffffffu;  // an unreached level, a row's padding

// Shared is a block's dynamic shared memory: the rows and the ids of the
// vertices it holds of three levels (by level mod kSlots: the one it
// expands, the next that the blocks' appends make, and the one before,
// which it places in the queue meanwhile), then its words of the visited
// bitmap.
// A slot's rows and ids are found by arithmetic on the slot, not by
// indexing arrays of pointers: a run-time index would keep the arrays in
// local memory and make the accesses generic instead of shared.
struct Shared {
    uint8_t *levels;  // kSlots levels of kLevelBytes: rows, then ids
    uint32_t *visited;

    __device__ __forceinline__ Row *rows(uint32_t p) const { return reinterpret_cast<Row *>(levels + p * kLevelBytes); }
    __device__ __forceinline__ uint32_t *ids(uint32_t p) const {
        return reinterpret_cast<uint32_t *>(levels + p * kLevelBytes + (size_t)kRowCache * kRowBytes);
    }
};

__device__ __forceinline__ Shared carve(uint8_t *smem) {
    Shared s;
    s.levels = smem;
    s.visited = reinterpret_cast<uint32_t *>(smem + kSlots * kLevelBytes);
    return s;
}

// Run is what a cluster run reads and writes in global memory, and the
// cluster's shape (C = 1 << log2 blocks; this block's rank).
struct Run {
    const uint32_t *rows;  // n rows of kWidth, 32-byte aligned (cudaMalloc)
    uint32_t *levels;
    uint32_t *order;       // the queue in BFS order
    uint32_t *level_end;   // each level's end in order
    Row *qrows;            // the queued vertices' rows in queue order
    double *sigma;         // σ made by the BFS
    uint32_t *spill;       // the ids past a block's kList: C blocks × kSlots × spill_block
    uint64_t spill_block;  // the most vertices a block holds the words of
    uint32_t log2;
    uint32_t rank;
};

__device__ __forceinline__ Row fetch(const uint32_t *rows, uint32_t v) {
    const uint4 *p = reinterpret_cast<const uint4 *>(rows) + (size_t)v * kVecs;
    Row e;
#pragma unroll
    for (uint32_t k = 0; k < kVecs; k++) e.v[k] = __ldg(&p[k]);
    return e;
}

// spilled is where block b keeps the j-th id (j >= kList) of its level in
// slot par.
__device__ __forceinline__ uint32_t *spilled(const Run &r, uint32_t b, uint32_t par, uint32_t j) {
    return r.spill + ((uint64_t)b * kSlots + par) * r.spill_block + (j - kList);
}

// id returns this block's j-th vertex of its level in slot par.
__device__ __forceinline__ uint32_t id(const Shared &s, const Run &r, uint32_t par, uint32_t j) {
    return j < kList ? s.ids(par)[j] : *spilled(r, r.rank, par, j);
}

// claim marks u visited in its block's word and says whether this thread
// was the first.
__device__ __forceinline__ bool claim(cg::cluster_group &cl, const Shared &s, uint32_t log2, uint32_t u) {
    const uint32_t w = u >> 5, bit = 1u << (u & 31);
    uint32_t *word = cl.map_shared_rank(&s.visited[w >> log2], w & ((1u << log2) - 1));
    return (atomicOr(word, bit) & bit) == 0;
}

// slot returns slot a of the row of this block's i-th vertex of its level
// in slot par: from shared memory for its first kRowCache, else global.
__device__ __forceinline__ uint32_t slot(const Shared &s, const Run &r, uint32_t par, uint32_t i, uint32_t a) {
    if (i < kRowCache) return reinterpret_cast<const uint32_t *>(s.rows(par))[i * kWidth + a];
    return __ldg(&r.rows[(size_t)id(s, r, par, i) * kWidth + a]);
}

// append_warp appends the vertices a warp claimed (won set; every lane
// calls it) to their owners' next level (the block that holds a vertex's
// bitmap word expands it: block (u / 32) mod C), level d + 1: one DSMEM
// atomic on the owner's *count per owner a warp, then the id (its spill
// past kList) and the row (its first kRowCache) stored in the owner's
// shared memory. The owner writes the vertices' levels (mark): a global
// store just before the cluster's barrier would hold the barrier up
// until it lands (about a microsecond).
__device__ __forceinline__ void append_warp(cg::cluster_group &cl, const Shared &s, const Run &r, uint32_t d,
                                            bool won, uint32_t u, const Row &e, uint32_t *count) {
    if (__ballot_sync(0xffffffffu, won) == 0) return;
    const uint32_t owner = won ? (u >> 5) & ((1u << r.log2) - 1) : kNone;
    const unsigned m = __match_any_sync(0xffffffffu, owner);  // the lanes appending to the same owner
    const uint32_t lane = threadIdx.x & 31, leader = __ffs(m) - 1;
    uint32_t first = 0;
    if (won && lane == leader) first = atomicAdd(cl.map_shared_rank(count, owner), (uint32_t)__popc(m));
    first = __shfl_sync(0xffffffffu, first, leader);
    if (!won) return;
    const uint32_t j = first + __popc(m & ((1u << lane) - 1u)), par = (d + 1) % kSlots;
    if (j < kList) *cl.map_shared_rank(&s.ids(par)[j], owner) = u;
    else *spilled(r, owner, par, j) = u;
    if (j < kRowCache) *cl.map_shared_rank(&s.rows(par)[j], owner) = e;
}

// expand expands this block's mine vertices of level d (slot d mod 3): a
// group of kWidth lanes per vertex, kPasses vertices per group at a time,
// each lane one slot of each row: the slots are claimed, the claimed
// vertices' rows loaded together, and each warp appends what it claimed
// (*count: this block's count of the next level, which the other blocks'
// appends raise too). It also makes σ of the level's vertices (but the
// source level's): the sum of σ over their row slots one level up, loaded
// with the claims.
__device__ __forceinline__ void expand(cg::cluster_group &cl, const Shared &s, const Run &r, uint32_t mine,
                                       uint32_t d, uint32_t *count) {
    const uint32_t tid = threadIdx.x, a = tid % kWidth, par = d % kSlots;
    const bool pull = d > 0;  // the same in every thread
    for (uint32_t base = 0; base < mine; base += kRound) {
        // A warp with no vertex in this round has none in later ones; the
        // passes the round needs are the same in every thread.
        if (base + (tid & ~31u) / kWidth >= mine) break;
        const uint32_t passes = min((uint32_t)kPasses, (mine - base + kGroups - 1) / kGroups);
        uint32_t u[kPasses];
#pragma unroll
        for (int p = 0; p < kPasses; p++) {
            const uint32_t i = base + p * kGroups + tid / kWidth;
            u[p] = p < passes && i < mine ? slot(s, r, par, i, a) : kNone;
        }
        if (pull) {
#pragma unroll
            for (int p = 0; p < kPasses; p++) {
                if (p >= passes) break;  // the same in every thread
                const uint32_t i = base + p * kGroups + tid / kWidth;
                const uint32_t lw = u[p] != kNone ? r.levels[u[p]] : kNone;
                const double sw = u[p] != kNone ? r.sigma[u[p]] : 0.0;
                const uint32_t v = a == 0 && i < mine ? id(s, r, par, i) : kNone;
                const double x = mg::row_sum(lw == d - 1 ? sw : 0.0);
                if (v != kNone) r.sigma[v] = x;
            }
        }
        bool won[kPasses];
#pragma unroll
        for (int p = 0; p < kPasses; p++) won[p] = u[p] != kNone && claim(cl, s, r.log2, u[p]);
        Row e[kPasses];
#pragma unroll
        for (int p = 0; p < kPasses; p++)
            if (won[p]) e[p] = fetch(r.rows, u[p]);
#pragma unroll
        for (int p = 0; p < kPasses; p++)
            if (p < passes) append_warp(cl, s, r, d, won[p], u[p], e[p], count);
    }
}

// Counts is a level's shape over the cluster, the same in every thread.
struct Counts {
    uint32_t total;   // the level's vertices over all blocks
    uint32_t offset;  // this block's first place among them
};

// read_count is, in lane k < C of warp 0, block k's *count (DSMEM); 0
// elsewhere. Issued before a level's expansion, it is used after it.
__device__ __forceinline__ uint32_t read_count(cg::cluster_group &cl, const Run &r, uint32_t *count) {
    return threadIdx.x < (1u << r.log2) ? *cl.map_shared_rank(count, threadIdx.x) : 0;
}

// gather makes the level's shape from warp 0's read_count values (a scan
// over the ranks); s_out is 2 shared words for the warp's answer.
__device__ __forceinline__ Counts gather(const Run &r, uint32_t c, uint32_t *s_out) {
    const uint32_t tid = threadIdx.x;
    if (tid < 32) {
        uint32_t incl = c;  // inclusive prefix over the ranks
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            const uint32_t x = __shfl_up_sync(0xffffffffu, incl, o);
            if ((int)tid >= o) incl += x;
        }
        const uint32_t total = __shfl_sync(0xffffffffu, incl, 31);
        if (tid == r.rank) s_out[1] = incl - c;
        if (tid == 0) s_out[0] = total;
    }
    __syncthreads();
    const Counts k{s_out[0], s_out[1]};
    __syncthreads();  // read before the next level's gather writes
    return k;
}

// publish writes this block's mine vertices of its level in slot par to
// the queue at at, and their rows to qrows.
__device__ __forceinline__ void publish(const Shared &s, const Run &r, uint32_t par, uint32_t mine, uint32_t at) {
    for (uint32_t j = threadIdx.x; j < mine; j += kThreads) r.order[at + j] = id(s, r, par, j);
    for (uint32_t t = threadIdx.x; t < mine * kVecs; t += kThreads) {
        const uint32_t j = t / kVecs, k = t % kVecs;
        const uint4 x = j < kRowCache
                            ? s.rows(par)[j].v[k]
                            : __ldg(reinterpret_cast<const uint4 *>(r.rows) + (size_t)id(s, r, par, j) * kVecs + k);
        r.qrows[at + j].v[k] = x;
    }
}

// Levels is where a run of levels ended: the last level is order[qb, qe)
// at depth d, empty (qb == qe) when the traversal ended.
struct Levels {
    uint32_t qb, qe, d;
};

// mark writes level d into levels for this block's mine vertices of its
// level in slot par.
__device__ __forceinline__ void mark(const Shared &s, const Run &r, uint32_t par, uint32_t mine, uint32_t d) {
    for (uint32_t j = threadIdx.x; j < mine; j += kThreads) r.levels[id(s, r, par, j)] = d;
}

// Placed is a level's place in the queue, kept for its publication during
// the next level: this block's vertices (slot par, mine of them) go at at,
// the level ends at end.
struct Placed {
    uint32_t par, mine, at, end;
    bool set;
};

// place publishes p (when set) and records the level's end.
__device__ __forceinline__ void place(const Shared &s, const Run &r, const Placed &p, uint32_t d) {
    if (!p.set) return;
    publish(s, r, p.par, p.mine, p.at);
    if (r.rank == 0 && threadIdx.x == 0) r.level_end[d] = p.end;
}

// run_levels runs the levels from depth d, whose first vertices this
// block holds (mine of them, and their rows, in its level in slot d mod
// 3), placing each level in the queue from order[0]. A level of more than
// bailout vertices (bailout > 0) is known once the next is made: the run
// stops at that next level, placed and marked but not expanded. Every
// thread of the cluster calls it and gets the same result. A level's
// count is s_count[(d + 2) % 3], raised by the blocks that append to it
// during the level before; it is reset two levels ahead, after every
// block read it. Between two barriers a block marks the level it expands
// and places the level before (global stores that then land while it
// expands) and reads the others' counts.
__device__ Levels run_levels(cg::cluster_group &cl, const Shared &s, const Run &r, uint32_t d, uint32_t mine,
                             uint32_t bailout) {
    __shared__ uint32_t s_count[3];
    __shared__ uint32_t s_out[2];
    if (threadIdx.x == 0) {
        s_count[(d + 2) % 3] = mine;
        s_count[d % 3] = 0;
    }
    cl.sync();
    uint32_t qb = 0;     // where level d begins in the queue
    Placed before{};     // level d − 1, placed during level d
    for (;;) {
        uint32_t *count = &s_count[(d + 2) % 3];
        if (threadIdx.x == 0) s_count[(d + 1) % 3] = 0;  // level d + 2's, last read before the barrier of d − 1
        mine = *count;
        const uint32_t c = read_count(cl, r, count);  // the loads overlap the expansion
        mark(s, r, d % kSlots, mine, d);
        place(s, r, before, d - 1);
        expand(cl, s, r, mine, d, &s_count[d % 3]);
        // Level d + 1's lists and counts are complete once every block has
        // arrived; the level's shape (from counts read before) is made
        // while the arrival's release waits for this level's stores.
        cl.barrier_arrive();
        const Counts k = gather(r, c, s_out);
        cl.barrier_wait();
        if (k.total == 0) return Levels{qb, qb, d};  // every block found level d empty
        before = Placed{d % kSlots, mine, qb + k.offset, qb + k.total, true};
        qb += k.total;
        d++;
        if (bailout > 0 && k.total > bailout) {  // stop at level d, placed and marked
            count = &s_count[(d + 2) % 3];
            mine = *count;
            const uint32_t cn = read_count(cl, r, count);
            mark(s, r, d % kSlots, mine, d);
            place(s, r, before, d - 1);
            const Counts n = gather(r, cn, s_out);
            place(s, r, Placed{d % kSlots, mine, qb + n.offset, qb + n.total, true}, d);
            cl.sync();  // the level is in the queue
            return Levels{qb, qb + n.total, d};
        }
    }
}

// init_visited clears this block's words of the bitmap.
__device__ void init_visited(const Shared &s, const Run &r, uint64_t n) {
    const uint64_t words = (n + 31) / 32;
    const uint64_t mine = words > r.rank ? (words - r.rank + (1u << r.log2) - 1) >> r.log2 : 0;
    for (uint64_t k = threadIdx.x; k < mine; k += kThreads) s.visited[k] = 0;
}

// Ahead is a round of a level of Brandes' backward pass loaded ahead, in
// two stages: a lane's row slot w and its vertex v (stage A, from the
// queue), then w's level and σ and v's σ (stage B).
struct Ahead {
    uint32_t w[kAheadRounds], v[kAheadRounds], lw[kAheadRounds];
    double sw[kAheadRounds], sv[kAheadRounds];
};

// Back is the backward pass's place in the cluster: the rows of a round,
// this thread's group and lane.
struct Back {
    uint32_t groups, g, a;
};

// stage_a loads the first kAheadRounds rounds of the level order[lo, hi):
// each lane's slot and vertex.
__device__ __forceinline__ void stage_a(const Run &r, const Back &b, uint32_t lo, uint32_t hi, Ahead &x) {
#pragma unroll
    for (int k = 0; k < kAheadRounds; k++) {
        const uint32_t i = lo + k * b.groups + b.g;
        x.w[k] = i < hi ? reinterpret_cast<const uint32_t *>(r.qrows)[(size_t)i * kWidth + b.a] : kNone;
        x.v[k] = i < hi ? r.order[i] : kNone;
    }
}

// stage_b loads the levels and σ stage_a's slots and vertices need.
__device__ __forceinline__ void stage_b(const Run &r, Ahead &x) {
#pragma unroll
    for (int k = 0; k < kAheadRounds; k++) {
        x.lw[k] = x.w[k] != kNone ? r.levels[x.w[k]] : kNone;
        x.sw[k] = x.w[k] != kNone ? r.sigma[x.w[k]] : 1.0;
        x.sv[k] = x.v[k] != kNone ? r.sigma[x.v[k]] : 0.0;
    }
}

// back_level makes δ of level d, order[lo, hi): δ[v] = σ[v] · Σ (1 + δ[w])
// / σ[w] over v's row slots w at level d + 1, a group of kWidth lanes per
// vertex over the whole cluster; its first rounds from x (loaded ahead),
// the others read here. A vertex without such w keeps δ 0, even where σ[v]
// overflowed to +Inf (as the reference's per-arc sum: +Inf · 0 is NaN).
__device__ __forceinline__ void back_level(const Run &r, const Back &b, uint32_t lo, uint32_t hi, uint32_t d,
                                           double *delta, const Ahead &x) {
    double dw[kAheadRounds];
#pragma unroll
    for (int k = 0; k < kAheadRounds; k++) dw[k] = x.lw[k] == d + 1 ? delta[x.w[k]] : 0.0;
#pragma unroll
    for (int k = 0; k < kAheadRounds; k++) {
        if (lo + k * b.groups >= hi) break;  // the same in every thread
        const bool succ = x.lw[k] == d + 1;
        const double sum = mg::row_sum(succ ? (1.0 + dw[k]) / x.sw[k] : 0.0);
        const bool any = mg::group_any<kWidth>(succ);
        if (b.a == 0 && x.v[k] != kNone && any) delta[x.v[k]] = x.sv[k] * sum;
    }
    for (uint32_t base = lo + kAheadRounds * b.groups; base < hi; base += b.groups) {  // the same in every thread
        const uint32_t i = base + b.g;
        uint32_t w = kNone, v = kNone;
        if (i < hi) {
            w = reinterpret_cast<const uint32_t *>(r.qrows)[(size_t)i * kWidth + b.a];
            v = r.order[i];
        }
        double y = 0.0;
        bool succ = false;
        if (w != kNone) {
            const uint32_t lw = r.levels[w];
            const double sw = r.sigma[w], dv = delta[w];
            succ = lw == d + 1;
            if (succ) y = (1.0 + dv) / sw;
        }
        const double sum = mg::row_sum(y);
        const bool any = mg::group_any<kWidth>(succ);
        if (b.a == 0 && v != kNone && any) delta[v] = r.sigma[v] * sum;
    }
}

#endif  // MG_CLUSTER_DEVICE

// bc_kernel (one cluster): Brandes from source over an undirected layout's
// rows: the BFS making σ (levels, σ and δ reset before: kNone, 0 and 0
// but the source's 0, 1 and 0), then δ level by level up, the whole
// cluster on each level, three levels in flight: the queue's slots and
// vertices of level d − 2 and the levels and σ of level d − 1 load while
// level d reads δ one level down. It stops after the BFS, leaving δ void
// and the level's size in stats->frontier_count, at a level over the
// bailout.
__global__ void __launch_bounds__(kThreads, 1)
    bc_kernel(uint64_t n, const uint32_t *rows, uint32_t log2, uint32_t source, uint32_t *levels, uint32_t *order,
              uint32_t *level_end, Row *qrows, uint32_t *spill, uint64_t spill_block, uint32_t bailout, double *sigma,
              double *delta, mg_block_stats *stats) {
#ifdef MG_CLUSTER_DEVICE
    extern __shared__ __align__(16) uint8_t smem[];
    cg::cluster_group cl = cg::this_cluster();
    const Shared s = carve(smem);
    const Run r{rows, levels, order, level_end, qrows, sigma, spill, spill_block, log2, cl.block_rank()};
    const uint32_t tid = threadIdx.x;
    init_visited(s, r, n);
    uint32_t mine = 0;
    if (r.rank == 0) {
        if (tid == 0) {
            s.ids(0)[0] = source;
            s.rows(0)[0] = fetch(rows, source);
        }
        mine = 1;
    }
    cl.sync();  // every block's words are clear
    if (r.rank == 0 && tid == 0) claim(cl, s, log2, source);
    const Levels lv = run_levels(cl, s, r, 0, mine, bailout);
    if (lv.qe > lv.qb) {  // stopped at a level too wide: the caller runs the source otherwise
        if (r.rank == 0 && tid == 0) *stats = mg_block_stats{lv.d, lv.qe, lv.qb, lv.qe - lv.qb};
        cl.sync();
        return;
    }
    cl.sync();  // the queue, its rows and the levels' ends are complete
    // Levels 0 .. depth − 1; level d is order[end(d − 1) .. end(d)), end(−1) = 0.
    const int depth = (int)lv.d;
    const Back b{kGroups << log2, r.rank * kGroups + tid / kWidth, tid % kWidth};
    auto end = [&](int d) -> uint32_t { return d >= 0 ? level_end[d] : 0; };
    if (depth >= 2) {
        Ahead cur, next, far;  // levels d, d − 1, d − 2
        int d = depth - 2;      // the deepest level's δ stays 0
        uint32_t e0 = end(d), e1 = end(d - 1), e2 = end(d - 2), e3 = end(d - 3);
        stage_a(r, b, e1, e0, cur);
        stage_a(r, b, e2, e1, next);
        stage_b(r, cur);
        for (;; d--) {
            const uint32_t e4 = end(d - 4);  // a level ahead of stage A's
            back_level(r, b, e1, e0, (uint32_t)d, delta, cur);
            // Level d's δ is done once every block has arrived; the levels
            // ahead load while the arrival's release waits for δ's stores
            // (2048 grid BC 14.2 -> 13.6 ms, H200).
            cl.barrier_arrive();
            stage_a(r, b, e3, e2, far);
            stage_b(r, next);
            cl.barrier_wait();
            if (d == 0) break;
            cur = next;
            next = far;
            e0 = e1;
            e1 = e2;
            e2 = e3;
            e3 = e4;
        }
    }
    if (r.rank == 0 && tid == 0) *stats = mg_block_stats{lv.d, lv.qe, 0, 0};
    cl.sync();
#else
    __trap();
#endif
}

// smem_bytes is a cluster kernel's dynamic shared memory over n vertices
// and 1 << log2 blocks: two levels and the block's words of the bitmap.
size_t smem_bytes(uint64_t n, uint32_t log2) {
    const uint64_t words = (n + 31) / 32;
    return kSlots * kLevelBytes + (size_t)((words + (1u << log2) - 1) >> log2) * sizeof(uint32_t);
}

// configure sets kernel's attributes for a cluster launch of smem bytes
// (clusters of more than 8 blocks are non-portable) and fills cfg and
// attr for 1 << log2 blocks on stream st.
template <typename K>
int configure(K kernel, uint32_t log2, size_t smem, cudaStream_t st, cudaLaunchConfig_t *cfg,
              cudaLaunchAttribute *attr, char *err, size_t errlen) {
    MG_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    const int rc = mg::set_smem(kernel, smem, err, errlen);
    if (rc != MG_OK) return rc;
    *cfg = cudaLaunchConfig_t{};
    cfg->gridDim = dim3(1u << log2);
    cfg->blockDim = dim3(kThreads);
    cfg->dynamicSmemBytes = smem;
    cfg->stream = st;
    attr->id = cudaLaunchAttributeClusterDimension;
    attr->val.clusterDim.x = 1u << log2;
    attr->val.clusterDim.y = 1;
    attr->val.clusterDim.z = 1;
    cfg->attrs = attr;
    cfg->numAttrs = 1;
    return MG_OK;
}

// fits says (in *ok) whether one cluster of kernel, 1 << log2 blocks of
// smem bytes, can be resident on the current device.
template <typename K>
int fits(K kernel, uint32_t log2, size_t smem, bool *ok, char *err, size_t errlen) {
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute attr;
    const int rc = configure(kernel, log2, smem, 0, &cfg, &attr, err, errlen);
    if (rc != MG_OK) return rc;
    int clusters = 0;
    MG_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg));
    *ok = clusters > 0;
    return MG_OK;
}

// spill_block is the most vertices a block of 1 << log2 holds the bitmap
// words of (a level's ids past kList spill into that many words a slot).
uint64_t spill_block(uint64_t n, uint32_t log2) {
    const uint64_t words = (n + 31) / 32;
    return ((words + (1u << log2) - 1) >> log2) * 32;
}

static_assert(MG_CLUSTER_SPILL_WORDS(1, 1) >= kSlots * 2 * 32, "a spill holds a block's every slot");

// check_shape refuses a cluster size that is not a power of two from 2 to
// kMaxBlocks, and a layout whose bitmap share does not fit a block's
// shared memory; it returns the shift and the shared bytes.
int check_shape(int dev, uint64_t n, uint32_t blocks, const char *what, uint32_t *log2, size_t *smem, char *err,
                size_t errlen) {
    if (blocks < 2 || blocks > kMaxBlocks || (blocks & (blocks - 1)) != 0) {
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "%s: a cluster of %u blocks (a power of two from 2 to %u)", what, blocks, kMaxBlocks);
        return MG_ERR_INVALID;
    }
    *log2 = (uint32_t)__builtin_ctz(blocks);
    int optin = 0;
    MG_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    *smem = smem_bytes(n, *log2);
    if (*smem + kStaticSmemRoom > (size_t)optin) {
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "%s: %llu vertices need %zu bytes of shared memory a block over %u blocks, the device has %d",
                     what, (unsigned long long)n, *smem, blocks, optin);
        return MG_ERR_INVALID;
    }
    return MG_OK;
}

// prepare checks the cluster's shape over n vertices (check_shape) and
// sets kernel up for its launch on stream st (configure).
template <typename K>
int prepare(K kernel, int dev, uint64_t n, uint32_t blocks, const char *what, cudaStream_t st, uint32_t *log2,
            cudaLaunchConfig_t *cfg, cudaLaunchAttribute *attr, char *err, size_t errlen) {
    size_t smem = 0;
    const int rc = check_shape(dev, n, blocks, what, log2, &smem, err, errlen);
    if (rc != MG_OK) return rc;
    return configure(kernel, *log2, smem, st, cfg, attr, err, errlen);
}

}  // namespace

extern "C" {

int mg_cluster_max_vertices(int dev, uint64_t *vertices, uint32_t *blocks, char *err, size_t errlen) {
    if (vertices == NULL || blocks == NULL) return mg::invalid("mg_cluster_max_vertices: NULL pointer", err, errlen);
    *vertices = 0;
    *blocks = 0;
    int major = 0, optin = 0;
    MG_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    if (major < 9) return MG_OK;  // no clusters
    MG_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    const int64_t room = (int64_t)optin - (int64_t)kStaticSmemRoom - (int64_t)(kSlots * kLevelBytes);
    if (room <= 0) return MG_OK;
    MG_SET_DEVICE(dev);
    const size_t smem = kSlots * kLevelBytes + (size_t)room;
    for (uint32_t log2 = 31 - __builtin_clz(kMaxBlocks); log2 >= 1; log2--) {
        bool ok = false;
        const int rc = fits(bc_kernel, log2, smem, &ok, err, errlen);
        if (rc != MG_OK) return rc;
        if (ok) {
            *blocks = 1u << log2;
            *vertices = ((uint64_t)room / sizeof(uint32_t) * 32) << log2;
            return MG_OK;
        }
    }
    return MG_OK;
}

int mg_bc_cluster(int dev, const mg_dlayout *l, const uint32_t *rows, uint32_t blocks, uint32_t source,
                  uint32_t *levels, uint32_t *order, uint32_t *level_end, uint32_t *qrows, uint32_t *spill,
                  uint32_t bailout, double *sigma, double *delta, mg_block_stats *stats, mg_stream s, mg_event *ev,
                  char *err, size_t errlen) {
    if (l == NULL || rows == NULL || levels == NULL || order == NULL || level_end == NULL || qrows == NULL ||
        spill == NULL || sigma == NULL || delta == NULL || stats == NULL)
        return mg::invalid("mg_bc_cluster: NULL pointer", err, errlen);
    if (source >= l->n) return mg::invalid("mg_bc_cluster: source out of range", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    uint32_t log2 = 0;
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute attr;
    int rc = prepare(bc_kernel, dev, l->n, blocks, "mg_bc_cluster", st, &log2, &cfg, &attr, err, errlen);
    if (rc != MG_OK) return rc;
    MG_RECORD(0);
    if ((rc = mg::bc_block_reset(dev, l->n, source, levels, sigma, delta, st, err, errlen)) != MG_OK) return rc;
    MG_CHECK(cudaLaunchKernelEx(&cfg, bc_kernel, (uint64_t)l->n, rows, log2, source, levels, order, level_end,
                                reinterpret_cast<Row *>(qrows), spill, spill_block(l->n, log2), bailout, sigma, delta,
                                stats));
    MG_CHECK_LAUNCH("cluster bc_kernel<<<cluster, MG_BLOCK_THREADS, bitmap share + levels, s>>>");
    MG_RECORD(1);
    return MG_OK;
}

}  // extern "C"
