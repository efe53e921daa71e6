// pull.cu — the pull steps on the GPU: BFS's bottom-up step (below), and
// the pull step of the min programs that read every arc (pull_all_kernel,
// --mode pull). The pull (bottom-up) step of BFS on the GPU over the layout's
// in-adjacency (mg_dlayout's in_offsets/in_src: the sparse part of an
// undirected layout, the transpose of a directed one's): a warp takes a run
// of vertices, a lane each, which test whether they are still unsettled
// (BFS: its level is the identity) with a non-empty row; the warp then
// serves its searching vertices kPullGroup lanes each (four at a time: most
// rows of a skewed graph are short, and a whole warp per vertex left most
// lanes idle), each group scanning its vertex's in-row kPullGroup arcs at a
// time up to the first neighbour whose active flag is set, whose
// contribution it applies (engine.EarlyExit: every contribution of an
// iteration is equal, so the first one found is final). On a large graph a
// warp takes 32 vertices: most vertices of a late step are settled or
// isolated, and a lane each, not a group each, keeps the step from being
// bound by the number of warps it launches. On a small one (fewer than
// kPullWideWaves full GPUs of such warps) it takes four, one round, so that
// enough warps share the long rows. Every vertex's lane writes next[v]
// (settled or not), so next needs no clearing, and the activated vertices
// and their out-arcs are added to the counters (one atomic per block).
#include "minprog.cuh"

namespace {

using mg::kMinIdentity;

constexpr int kPullBlock = 256;
constexpr int kPullGroup = 8;  // lanes per vertex; divides 32
constexpr int kWarpLanes = 32;
constexpr int kPullGroupsPerWarp = kWarpLanes / kPullGroup;
constexpr int kPullWarps = kPullBlock / kWarpLanes;
constexpr int kPullResidentBlocksPerSM = 2048 / kPullBlock;  // a full SM's blocks
constexpr int kPullWideWaves = 4;  // a warp takes kWarpLanes vertices when that fills the GPU this many times
constexpr int kPullVertsPerBlock = kPullBlock / kPullGroup;  // pull_all_kernel's
constexpr unsigned kFullWarp = 0xffffffffu;
constexpr int kParentsBlocksPerSM = 8;    // the parents kernel's grid-stride cap
constexpr int kPullHeavyBlocksPerSM = 8;  // the heavy rows' grid-stride cap

// BlockCounters are a pull block's activated vertices and their out-arcs,
// gathered in shared memory and added to the step's counters with one
// atomic each per block (flush).
struct BlockCounters {
    uint32_t count;
    unsigned long long edges;
};

// count_activated adds activated vertex v and its out-arcs to count and
// edges (a block's shared counters or the step's own).
__device__ __forceinline__ void count_activated(const mg_dlayout &L, uint64_t v, uint32_t *count,
                                                unsigned long long *edges) {
    atomicAdd(count, 1u);
    atomicAdd(edges, (unsigned long long)(L.sparse_offsets[v + 1] - L.sparse_offsets[v]));
}

// reset zeroes the block's counters; the caller syncs the block after it.
__device__ __forceinline__ void reset(BlockCounters &b) {
    if (threadIdx.x == 0) b = BlockCounters{0, 0};
}

// flush adds the block's counters to the step's once every thread of the
// block has counted (it syncs the block first).
__device__ __forceinline__ void flush(const BlockCounters &b, mg_step_counters *ctr) {
    __syncthreads();
    if (threadIdx.x == 0 && b.count > 0) {
        atomicAdd(&ctr->next_count, b.count);
        atomicAdd((unsigned long long *)&ctr->next_edges, b.edges);
    }
}

// first_lanes returns the lowest k set bits of mask (all of them when it has
// fewer).
__device__ __forceinline__ unsigned first_lanes(unsigned mask, int k) {
    unsigned rest = mask;
    for (int i = 0; i < k && rest != 0; i++) rest &= rest - 1;
    return mask & ~rest;
}

// nth_lane returns the lane of mask's (k+1)-th set bit (k from 0), or -1.
__device__ __forceinline__ int nth_lane(unsigned mask, int k) {
    for (int i = 0; i < k && mask != 0; i++) mask &= mask - 1;
    return mask != 0 ? __ffs(mask) - 1 : -1;
}

template <typename Op>
__global__ void __launch_bounds__(kPullBlock)
    pull_kernel(mg_dlayout L, uint32_t *values, const uint8_t *__restrict__ active, uint8_t *__restrict__ next,
                mg_step_counters *ctr, int warp_vertices) {
    __shared__ BlockCounters s_ctr;
    reset(s_ctr);
    __syncthreads();
    const int lane = threadIdx.x % kWarpLanes, group = lane / kPullGroup, sub = lane % kPullGroup;
    const unsigned group_mask = ((1u << kPullGroup) - 1u) << (group * kPullGroup);
    // The warp's vertices are v - lane + [0, warp_vertices).
    const uint64_t v = ((uint64_t)blockIdx.x * kPullWarps + threadIdx.x / kWarpLanes) * warp_vertices + lane;
    const bool has = lane < warp_vertices && v < L.n;
    bool search = has && values[v] == kMinIdentity;
    bool mine = has;  // not a heavy row (pull_heavy_kernel's)
    uint64_t lo = 0, hi = 0;
    if (has && (search || L.num_in_heavy > 0)) {
        lo = L.in_offsets[v];
        hi = L.in_offsets[v + 1];
        mine = hi - lo < MG_PULL_HEAVY_DEGREE;
        search = search && mine && hi > lo;
    }
    uint8_t act = 0;
    // Each round, group g scans the row of the warp's g-th searching vertex
    // (its owner lane); every lane takes part in the ballots and shuffles.
    for (unsigned pending = __ballot_sync(kFullWarp, search); pending != 0;) {
        const unsigned taken = first_lanes(pending, kPullGroupsPerWarp);
        pending &= ~taken;
        const int owner = nth_lane(taken, group);
        const int src = owner < 0 ? lane : owner;
        const uint64_t row_lo = __shfl_sync(kFullWarp, lo, src), row_hi = __shfl_sync(kFullWarp, hi, src);
        bool scan = owner >= 0, found = false;
        uint32_t parent = 0;
        for (uint64_t b = row_lo; __any_sync(kFullWarp, scan); b += kPullGroup) {
            const uint64_t e = b + sub;
            uint32_t u = 0;
            const bool hit = scan && e < row_hi && active[u = L.in_src[e]] != 0;
            const unsigned m = __ballot_sync(kFullWarp, hit) & group_mask;
            u = __shfl_sync(kFullWarp, u, m != 0 ? __ffs(m) - 1 : lane);
            if (scan && m != 0) {
                found = true;
                parent = u;
                scan = false;
            } else if (b + kPullGroup >= row_hi) {
                scan = false;  // the row is exhausted
            }
        }
        bool applied = false;
        if (found && sub == 0) {
            const uint32_t w = (uint32_t)(v - lane + owner);  // the owner lane's vertex
            applied = Op::apply(w, Op::edge(values[parent], 0u), values);
            if (applied) count_activated(L, w, &s_ctr.count, &s_ctr.edges);
        }
        // An owner lane learns its vertex's outcome from its group's first lane.
        const unsigned acts = __ballot_sync(kFullWarp, applied);
        if ((taken >> lane) & 1u) act = (acts >> (__popc(taken & ((1u << lane) - 1u)) * kPullGroup)) & 1u;
    }
    if (mine) next[v] = act;
    flush(s_ctr, ctr);
}

// pull_heavy_kernel is the pull step of the vertices with long in-rows
// (L.in_heavy, skipped by pull_kernel): a block per vertex, grid-stride
// over the list, 256 arcs a round until a round finds an active
// in-neighbour (the round's first, by an atomic min on its position).
template <typename Op>
__global__ void __launch_bounds__(kPullBlock)
    pull_heavy_kernel(mg_dlayout L, uint32_t *values, const uint8_t *__restrict__ active, uint8_t *__restrict__ next,
                      mg_step_counters *ctr) {
    __shared__ uint32_t s_pos;
    for (uint64_t i = blockIdx.x; i < L.num_in_heavy; i += gridDim.x) {
        const uint32_t v = L.in_heavy[i];
        uint8_t act = 0;
        if (threadIdx.x == 0) s_pos = 0xffffffffu;
        __syncthreads();
        if (values[v] == kMinIdentity) {  // the same in every thread
            const uint64_t lo = L.in_offsets[v], hi = L.in_offsets[v + 1];
            for (uint64_t b = lo; b < hi; b += kPullBlock) {
                const uint64_t e = b + threadIdx.x;
                const bool hit = e < hi && active[L.in_src[e]] != 0;
                if (hit) atomicMin(&s_pos, (uint32_t)(e - lo));  // in-rows have < 2^32 arcs
                if (__syncthreads_or(hit)) {
                    if (threadIdx.x == 0) {
                        const uint32_t u = L.in_src[lo + s_pos];
                        act = Op::apply(v, Op::edge(values[u], 0u), values) ? 1 : 0;
                    }
                    break;
                }
            }
        }
        if (threadIdx.x == 0) {
            next[v] = act;
            if (act) count_activated(L, v, &ctr->next_count, (unsigned long long *)&ctr->next_edges);
        }
        __syncthreads();  // s_pos is reset for the next vertex
    }
}

// pull_all_kernel is the pull step of a min program that reads every arc
// (SSSP, label propagation; SEP-Graph's Sync + Pull): a group of kPullGroup
// lanes per vertex combines the contributions of all its active
// in-neighbours (a weighted program's weights from in_weights, which the
// caller has checked) and applies the minimum once. Values change in place
// (a neighbour may already see a lowered value, which only speeds the min
// programs' convergence); next[v] is written for every vertex the kernel
// owns (heavy rows are pull_all_heavy_kernel's).
template <typename Op>
__global__ void __launch_bounds__(kPullBlock)
    pull_all_kernel(mg_dlayout L, Op op, uint32_t *values, const uint8_t *__restrict__ active,
                    uint8_t *__restrict__ next, mg_step_counters *ctr) {
    __shared__ BlockCounters s_ctr;
    reset(s_ctr);
    __syncthreads();
    const uint32_t lane = threadIdx.x & 31, sub = lane % kPullGroup;
    const uint64_t v = ((uint64_t)blockIdx.x * kPullBlock + threadIdx.x) / kPullGroup;
    uint64_t lo = 0, hi = 0;
    bool mine = v < L.n;
    if (mine) {
        lo = L.in_offsets[v];
        hi = L.in_offsets[v + 1];
        mine = hi - lo < MG_PULL_HEAVY_DEGREE;
    }
    uint32_t best = Op::identity;
    if (mine)
        for (uint64_t e = lo + sub; e < hi; e += kPullGroup) {
            const uint32_t u = L.in_src[e];
            if (active[u] != 0) best = Op::combine(best, op.edge(values[u], Op::weighted ? L.in_weights[e] : 0u));
        }
#pragma unroll
    for (int d = kPullGroup / 2; d > 0; d >>= 1) best = Op::combine(best, __shfl_xor_sync(0xffffffffu, best, d));
    if (sub == 0 && mine) {
        const uint8_t act = best != Op::identity && Op::apply((uint32_t)v, best, values) ? 1 : 0;
        next[v] = act;
        if (act) count_activated(L, v, &s_ctr.count, &s_ctr.edges);
    }
    flush(s_ctr, ctr);
}

// pull_all_heavy_kernel is pull_all_kernel for the vertices with long
// in-rows (L.in_heavy): a block per vertex, grid-stride over the list, the
// block's minimum by a shared atomic.
template <typename Op>
__global__ void __launch_bounds__(kPullBlock)
    pull_all_heavy_kernel(mg_dlayout L, Op op, uint32_t *values, const uint8_t *__restrict__ active,
                          uint8_t *__restrict__ next, mg_step_counters *ctr) {
    __shared__ uint32_t s_best;
    for (uint64_t i = blockIdx.x; i < L.num_in_heavy; i += gridDim.x) {
        const uint32_t v = L.in_heavy[i];
        if (threadIdx.x == 0) s_best = Op::identity;
        __syncthreads();
        const uint64_t lo = L.in_offsets[v], hi = L.in_offsets[v + 1];
        uint32_t best = Op::identity;
        for (uint64_t e = lo + threadIdx.x; e < hi; e += kPullBlock) {
            const uint32_t u = L.in_src[e];
            if (active[u] != 0) best = Op::combine(best, op.edge(values[u], Op::weighted ? L.in_weights[e] : 0u));
        }
        if (best != Op::identity) atomicMin(&s_best, best);
        __syncthreads();
        if (threadIdx.x == 0) {
            const uint8_t act = s_best != Op::identity && Op::apply(v, s_best, values) ? 1 : 0;
            next[v] = act;
            if (act) count_activated(L, v, &ctr->next_count, (unsigned long long *)&ctr->next_edges);
        }
        __syncthreads();  // s_best is reset for the next vertex
    }
}

// heavy_kernel appends the vertices with at least MG_PULL_HEAVY_DEGREE
// in-arcs to list (when not NULL) and counts them in *count.
__global__ void __launch_bounds__(kPullBlock)
    heavy_kernel(const uint64_t *__restrict__ off, uint64_t n, uint32_t *list, unsigned long long *count) {
    const uint64_t stride = (uint64_t)gridDim.x * kPullBlock;
    for (uint64_t v = (uint64_t)blockIdx.x * kPullBlock + threadIdx.x; v < n; v += stride)
        if (off[v + 1] - off[v] >= MG_PULL_HEAVY_DEGREE) {
            const unsigned long long k = atomicAdd(count, 1ull);
            if (list != NULL) list[k] = (uint32_t)v;
        }
}

template <typename Op>
int pull_step(int dev, const mg_dlayout *l, uint32_t *values, const uint8_t *active, uint8_t *next,
              mg_step_counters *ctr, mg_stream s, mg_event *ev, char *err, size_t errlen) {
    if (l == NULL || values == NULL || active == NULL || next == NULL || ctr == NULL)
        return mg::invalid("mg_min_pull_step: NULL pointer", err, errlen);
    if ((l->n > 0 && l->in_offsets == NULL) || (l->m > 0 && l->in_src == NULL))
        return mg::invalid("mg_min_pull_step: the layout's in-adjacency is not on the device", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    MG_CHECK(cudaMemsetAsync(ctr, 0, sizeof(mg_step_counters), st));
    if (ev != NULL) MG_CHECK(cudaEventRecord((cudaEvent_t)ev[0], st));
    if (l->n > 0) {
        const uint64_t wide = (uint64_t)mg::multiprocessors(dev) * kPullResidentBlocksPerSM * kPullBlock * kPullWideWaves;
        const int warp_vertices = l->n >= wide ? kWarpLanes : kPullGroupsPerWarp;
        const uint64_t per_block = (uint64_t)kPullWarps * warp_vertices;
        const uint64_t grid = (l->n + per_block - 1) / per_block;
        if (grid > 0x7fffffffu) return mg::invalid("mg_min_pull_step: too many vertices", err, errlen);
        pull_kernel<Op><<<(unsigned)grid, kPullBlock, 0, st>>>(*l, values, active, next, ctr, warp_vertices);
        MG_CHECK_LAUNCH("pull_kernel<<<n/(warps*warp_vertices), 256, 0, s>>>");
        if (l->num_in_heavy > 0) {
            pull_heavy_kernel<Op><<<mg::grid_for(dev, l->num_in_heavy * kPullBlock, kPullBlock, kPullHeavyBlocksPerSM),
                                    kPullBlock, 0, st>>>(*l, values, active, next, ctr);
            MG_CHECK_LAUNCH("pull_heavy_kernel<<<heavy, 256, 0, s>>>");
        }
    }
    if (ev != NULL) MG_CHECK(cudaEventRecord((cudaEvent_t)ev[1], st));
    return MG_OK;
}

template <typename Op>
int pull_all_step(Op op, int dev, const mg_dlayout *l, uint32_t *values, const uint8_t *active, uint8_t *next,
                  mg_step_counters *ctr, mg_stream s, mg_event *ev, char *err, size_t errlen) {
    if (l == NULL || values == NULL || active == NULL || next == NULL || ctr == NULL)
        return mg::invalid("mg_min_pull_all_step: NULL pointer", err, errlen);
    if ((l->n > 0 && l->in_offsets == NULL) || (l->m > 0 && l->in_src == NULL))
        return mg::invalid("mg_min_pull_all_step: the layout's in-adjacency is not on the device", err, errlen);
    if (Op::weighted && l->m > 0 && l->in_weights == NULL)
        return mg::invalid("mg_min_pull_all_step: a weighted pull needs the in-arcs' weights (in_weights)", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    MG_CHECK(cudaMemsetAsync(ctr, 0, sizeof(mg_step_counters), st));
    if (ev != NULL) MG_CHECK(cudaEventRecord((cudaEvent_t)ev[0], st));
    if (l->n > 0) {
        const uint64_t grid = (l->n + kPullVertsPerBlock - 1) / kPullVertsPerBlock;
        if (grid > 0x7fffffffu) return mg::invalid("mg_min_pull_all_step: too many vertices", err, errlen);
        pull_all_kernel<Op><<<(unsigned)grid, kPullBlock, 0, st>>>(*l, op, values, active, next, ctr);
        MG_CHECK_LAUNCH("pull_all_kernel<<<n/32, 256, 0, s>>>");
        if (l->num_in_heavy > 0) {
            pull_all_heavy_kernel<Op>
                <<<mg::grid_for(dev, l->num_in_heavy * kPullBlock, kPullBlock, kPullHeavyBlocksPerSM), kPullBlock, 0,
                   st>>>(*l, op, values, active, next, ctr);
            MG_CHECK_LAUNCH("pull_all_heavy_kernel<<<heavy, 256, 0, s>>>");
        }
    }
    if (ev != NULL) MG_CHECK(cudaEventRecord((cudaEvent_t)ev[1], st));
    return MG_OK;
}

// parents_kernel gives every vertex its BFS parent from the levels (layout
// numbering, grid-stride, a thread per vertex): a vertex at level 0 (a
// source) is its own parent, an unreached one has none (the identity), and
// any other takes the first in-neighbour one level up — the smallest such
// layout id, since in-rows are sorted, so the tree does not depend on the
// schedule (the CPU's twin, cpu.Backend.BFSParents, picks the same).
__global__ void __launch_bounds__(kPullBlock)
    parents_kernel(mg_dlayout L, const uint32_t *__restrict__ level, uint32_t *__restrict__ parent) {
    const uint64_t stride = (uint64_t)gridDim.x * kPullBlock;
    for (uint64_t v = (uint64_t)blockIdx.x * kPullBlock + threadIdx.x; v < L.n; v += stride) {
        const uint32_t lv = level[v];
        uint32_t p = kMinIdentity;
        if (lv == 0) {
            p = (uint32_t)v;
        } else if (lv != kMinIdentity) {
            for (uint64_t e = L.in_offsets[v], end = L.in_offsets[v + 1]; e < end; e++) {
                const uint32_t u = L.in_src[e];
                if (level[u] == lv - 1) {
                    p = u;
                    break;
                }
            }
        }
        parent[v] = p;
    }
}

}  // namespace

extern "C" {

int mg_in_heavy(int dev, const mg_dlayout *l, uint32_t *list, uint64_t *count, char *err, size_t errlen) {
    if (l == NULL || count == NULL) return mg::invalid("mg_in_heavy: NULL pointer", err, errlen);
    if (l->n > 0 && l->in_offsets == NULL)
        return mg::invalid("mg_in_heavy: the layout's in-adjacency is not on the device", err, errlen);
    *count = 0;
    if (l->n == 0) return MG_OK;
    MG_SET_DEVICE(dev);
    unsigned long long *d = NULL;
    MG_CHECK(cudaMalloc(&d, sizeof *d));
    cudaError_t e = cudaMemset(d, 0, sizeof *d);
    if (e == cudaSuccess) {
        heavy_kernel<<<mg::grid_for(dev, l->n, kPullBlock, kParentsBlocksPerSM), kPullBlock>>>(l->in_offsets, l->n,
                                                                                               list, d);
        e = cudaGetLastError();
    }
    unsigned long long h = 0;
    if (e == cudaSuccess) e = cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaFree(d);
    if (e != cudaSuccess) return mg::fail(e, "mg_in_heavy", err, errlen);
    *count = (uint64_t)h;
    return MG_OK;
}

int mg_bfs_parents(int dev, const mg_dlayout *l, const uint32_t *level, uint32_t *parent, mg_stream s, char *err,
                   size_t errlen) {
    if (l == NULL || (l->n > 0 && (level == NULL || parent == NULL)))
        return mg::invalid("mg_bfs_parents: NULL pointer", err, errlen);
    if ((l->n > 0 && l->in_offsets == NULL) || (l->m > 0 && l->in_src == NULL))
        return mg::invalid("mg_bfs_parents: the layout's in-adjacency is not on the device", err, errlen);
    MG_SET_DEVICE(dev);
    if (l->n == 0) return MG_OK;
    parents_kernel<<<mg::grid_for(dev, l->n, kPullBlock, kParentsBlocksPerSM), kPullBlock, 0, (cudaStream_t)s>>>(
        *l, level, parent);
    MG_CHECK_LAUNCH("parents_kernel<<<grid, kPullBlock, 0, s>>>");
    return MG_OK;
}

int mg_min_pull_step(int dev, int prog, const mg_dlayout *l, uint32_t *values, const uint8_t *active, uint8_t *next,
                     mg_step_counters *ctr, mg_stream s, mg_event *ev, char *err, size_t errlen) {
    if (prog != MG_PROG_BFS) return mg::invalid("mg_min_pull_step: only BFS has a pull step", err, errlen);
    return pull_step<mg::BFSOp>(dev, l, values, active, next, ctr, s, ev, err, errlen);
}

int mg_min_pull_all_step(int dev, int prog, const mg_dlayout *l, uint32_t *values, const uint8_t *active,
                         uint8_t *next, mg_step_counters *ctr, mg_stream s, mg_event *ev, char *err, size_t errlen) {
    MG_DISPATCH_PROG(prog, pull_all_step, dev, l, values, active, next, ctr, s, ev, err, errlen);
}

}  // extern "C"
