// bcasync.cu — Brandes' betweenness centrality from one source without
// levels: the shortest-path DAG is known from an async BFS (its depths), and
// both passes are dataflow over the device worklist of worklist.cuh, with no
// barrier per level.
//
// Forward: a vertex's path count σ is final once every predecessor (an
// arc from depth d − 1) has added its own; each vertex counts its
// predecessors still to come (pred_left), and the one whose addition brings
// it to zero queues it. Backward: a vertex's dependency δ is final once
// every successor (an arc to depth d + 1) has added σ[v] / σ[w] · (1 +
// δ[w]), which w sends along its in-arcs from depth d − 1; the leaves of
// the DAG start. An undirected layout's in-arcs are its out-arcs; a
// directed one's backward pass runs over its in-adjacency (in_offsets,
// in_src), the arcs' DAG bytes then marking in-arcs. Each vertex is
// processed once per pass, so every addition is an atomic add, ordered
// before the count that releases the vertex by the count's release order.
// The sums are those of the level-synchronous passes (bc.cu), up to the
// order of the floating-point additions.
#include <cuda/atomic>

#include "minprog.cuh"
#include "worklist.cuh"

namespace {

using namespace mg::worklist;

// kPrepBlock: threads per block of the preparation kernels (a warp per
// vertex); kPrepBlocksPerSM: their blocks per SM.
constexpr int kPrepBlock = 256;
constexpr int kPrepBlocksPerSM = 8;

// An arc's place in the shortest-path DAG (prep_count_kernel writes one
// byte per arc, so a relaxation needs no load that waits for the arc's
// destination): down to depth d + 1, up to depth d − 1, or neither (0).
constexpr uint8_t kDagDown = 1;
constexpr uint8_t kDagUp = 2;

// release_one takes one from the count *left with release order (the
// thread's additions before it are performed first, without the full fence
// and L1 invalidation of __threadfence) and says whether it was the last.
// The released vertex's value is then read with volatile loads, from L2,
// where the additions were performed.
__device__ __forceinline__ bool release_one(uint32_t *left) {
    cuda::atomic_ref<uint32_t, cuda::thread_scope_device> r(*left);
    return r.fetch_sub(1u, cuda::memory_order_release) == 1u;
}

// Forward: x = σ[v]; σ[u] += σ[v] along the arcs down the DAG.
struct ForwardPolicy {
    static constexpr bool kRows = false, kWeightRows = false;  // over the CSR (its arcs' DAG bytes)
    using V = double;
    using Arc = uint8_t;  // the arc's place in the DAG
    const uint8_t *dag;  // per arc: kDagDown, kDagUp or 0
    double *sigma;
    uint32_t *pred_left;

    __device__ bool has_buckets() const { return false; }
    __device__ uint32_t keep() const { return kAsyncKeep; }
    __device__ bool next_bucket(cg::grid_group &, Ring, uint32_t *, mg_async_state *) { return false; }

    __device__ __forceinline__ bool load(uint32_t v, uint32_t, uint64_t, double &x) const {
        x = *(volatile double *)&sigma[v];
        return true;
    }
    __device__ __forceinline__ uint8_t arc(const double &, const mg_dlayout &, uint64_t a) const { return dag[a]; }
    __device__ __forceinline__ bool relax(const double &x, const mg_dlayout &, const uint8_t &a, uint32_t u,
                                          uint32_t &ival) const {
        if (a != kDagDown) return false;
        atomicAdd(&sigma[u], x);
        ival = 0;
        return release_one(&pred_left[u]);  // the addition before the count that releases u
    }
};

// Backward: x = (1 + δ[w]) / σ[w]; δ[v] += σ[v] · x along the arcs up the
// DAG (w's in-arcs from depth d − 1).
struct BackwardPolicy {
    static constexpr bool kRows = false, kWeightRows = false;  // over the CSR (its arcs' DAG bytes)
    using V = double;
    using Arc = uint8_t;
    const uint8_t *dag;
    const double *sigma;
    double *delta;
    uint32_t *succ_left;

    __device__ bool has_buckets() const { return false; }
    __device__ uint32_t keep() const { return kAsyncKeep; }
    __device__ bool next_bucket(cg::grid_group &, Ring, uint32_t *, mg_async_state *) { return false; }

    __device__ __forceinline__ bool load(uint32_t w, uint32_t, uint64_t, double &x) const {
        x = (1.0 + *(volatile double *)&delta[w]) / sigma[w];
        return true;
    }
    __device__ __forceinline__ uint8_t arc(const double &, const mg_dlayout &, uint64_t a) const { return dag[a]; }
    __device__ __forceinline__ bool relax(const double &x, const mg_dlayout &, const uint8_t &a, uint32_t v,
                                          uint32_t &ival) const {
        if (a != kDagUp) return false;
        atomicAdd(&delta[v], sigma[v] * x);
        ival = 0;
        return release_one(&succ_left[v]);  // the addition before the count that releases v
    }
};

// prep_depth_kernel: depth from the BFS levels (−1 where unreached), σ 1 at
// the source and 0 elsewhere, δ 0, and no predecessor counted yet.
__global__ void prep_depth_kernel(const uint32_t *levels, uint64_t n, uint32_t source, int32_t *depth, double *sigma,
                                  double *delta, uint32_t *pred_left) {
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += step) {
        const uint32_t lv = levels[v];
        depth[v] = lv == mg::kMinIdentity ? -1 : (int32_t)lv;
        sigma[v] = v == source ? 1.0 : 0.0;
        delta[v] = 0.0;
        pred_left[v] = 0;
    }
}

// seed_source_kernel (one thread) resets the state and queues the source
// alone under ticket 0.
__global__ void seed_source_kernel(Ring ring, uint32_t *queued, uint32_t source, mg_async_state *st) {
    mg_async_state s = {};
    s.work = 1;
    s.tail = 1;
    *st = s;
    queued[source] = 1;
    ring.slot[0] = source;  // ticket 0
}

// reset_state_kernel (one thread) resets the state to nothing queued,
// keeping an overflow flag (the next run then stops at once).
__global__ void reset_state_kernel(mg_async_state *st) {
    const uint32_t overflow = st->overflow;
    *st = mg_async_state{};
    st->overflow = overflow;
}

// prep_count_kernel: for every reached vertex (a warp each), its arcs to
// depth d + 1 (succ_left) and its predecessors (pred_left: on an
// undirected layout its arcs from depth d − 1, counted here; on a directed
// one every arc down adds one to its destination's), and every arc's
// place in the DAG (dag).
template <bool kDirected>
__global__ void prep_count_kernel(mg_dlayout L, const int32_t *depth, uint32_t *pred_left, uint32_t *succ_left,
                                  uint8_t *dag) {
    const uint32_t lane = threadIdx.x & 31;
    const uint64_t warps = (uint64_t)gridDim.x * blockDim.x / 32;
    for (uint64_t v = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32; v < L.n; v += warps) {
        const int32_t d = depth[v];
        uint32_t pred = 0, succ = 0;
        if (d < 0) {
            for (uint64_t a = L.sparse_offsets[v] + lane; a < L.sparse_offsets[v + 1]; a += 32) dag[a] = 0;
        } else {
            for (uint64_t a = L.sparse_offsets[v] + lane; a < L.sparse_offsets[v + 1]; a += 32) {
                const uint32_t u = L.sparse_dst[a];
                const int32_t du = depth[u];
                pred += du == d - 1;
                succ += du == d + 1;
                dag[a] = du == d + 1 ? kDagDown : du == d - 1 ? kDagUp : 0;
                if (kDirected && du == d + 1) atomicAdd(&pred_left[u], 1u);
            }
        }
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) {
            pred += __shfl_down_sync(0xffffffffu, pred, off);
            succ += __shfl_down_sync(0xffffffffu, succ, off);
        }
        if (lane == 0) {
            if (!kDirected) pred_left[v] = pred;
            succ_left[v] = d >= 0 ? succ : 1;  // unreached: never a leaf
        }
    }
}

// prep_in_kernel (directed layouts, between the passes): every in-arc's
// place in the DAG, into dag by in-arc: up (from depth d − 1 into a
// vertex at depth d), or 0. L is the layout with the in-adjacency as its
// sparse part.
__global__ void prep_in_kernel(mg_dlayout L, const int32_t *depth, uint8_t *dag) {
    const uint32_t lane = threadIdx.x & 31;
    const uint64_t warps = (uint64_t)gridDim.x * blockDim.x / 32;
    for (uint64_t w = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32; w < L.n; w += warps) {
        const int32_t d = depth[w];
        for (uint64_t a = L.sparse_offsets[w] + lane; a < L.sparse_offsets[w + 1]; a += 32)
            dag[a] = d > 0 && depth[L.sparse_dst[a]] == d - 1 ? kDagUp : 0;
    }
}

// seed_leaves_kernel queues every reached vertex without successors (the
// DAG's leaves) for the backward pass.
__global__ void seed_leaves_kernel(Ring ring, uint32_t *queued, const uint32_t *succ_left, uint64_t n,
                                   mg_async_state *st) {
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t bound = (n + 31) / 32 * 32;  // whole warps loop alike (the ballot)
    for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < bound; v += step) {
        const bool leaf = v < n && succ_left[v] == 0;
        const uint32_t m = __ballot_sync(0xffffffffu, leaf);
        const int lane = threadIdx.x & 31;
        uint32_t base = 0;
        if (lane == 0 && m != 0) {
            atomicAdd(reinterpret_cast<unsigned long long *>(&st->work), (unsigned long long)__popc(m));
            base = atomicAdd(&st->tail, (uint32_t)__popc(m));
        }
        base = __shfl_sync(0xffffffffu, base, 0);
        if (leaf) {
            const uint32_t t = base + __popc(m & ((1u << lane) - 1u));
            queued[v] = 1;
            ring.slot[t & ring.mask] = ((unsigned long long)t << 32) | (uint32_t)v;
        }
    }
}

}  // namespace

extern "C" {

int mg_bc_async(int dev, const mg_dlayout *l, const uint32_t *levels, uint32_t source, int32_t *depth, double *sigma,
                double *delta, uint32_t *pred_left, uint32_t *succ_left, uint8_t *dag, uint64_t *ring, uint32_t ring_log2,
                uint32_t *queued, mg_async_state *state, uint32_t blocks_per_sm, mg_stream s, mg_event *ev,
                char *err, size_t errlen) {
    if (l == NULL || levels == NULL || depth == NULL || sigma == NULL || delta == NULL || pred_left == NULL ||
        succ_left == NULL || (dag == NULL && l->m > 0) || ring == NULL || queued == NULL || state == NULL)
        return mg::invalid("mg_bc_async: NULL pointer", err, errlen);
    if (source >= l->n) return mg::invalid("mg_bc_async: source out of range", err, errlen);
    if ((l->in_offsets == NULL) || (l->m > 0 && l->in_src == NULL))
        return mg::invalid("mg_bc_async: the layout's in-adjacency is not on the device", err, errlen);
    const bool directed = l->in_offsets != l->sparse_offsets;
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    const unsigned grid = mg::grid_for(dev, l->n, kPrepBlock, kPrepBlocksPerSM);
    Ring r{reinterpret_cast<unsigned long long *>(ring), (uint32_t)(((uint64_t)1 << ring_log2) - 1)};
    if (ev != NULL) MG_CHECK(cudaEventRecord((cudaEvent_t)ev[0], st));
    prep_depth_kernel<<<grid, kPrepBlock, 0, st>>>(levels, l->n, source, depth, sigma, delta, pred_left);
    MG_CHECK_LAUNCH("bc async prep_depth_kernel");
    if (directed)
        prep_count_kernel<true><<<grid, kPrepBlock, 0, st>>>(*l, depth, pred_left, succ_left, dag);
    else
        prep_count_kernel<false><<<grid, kPrepBlock, 0, st>>>(*l, depth, pred_left, succ_left, dag);
    MG_CHECK_LAUNCH("bc async prep_count_kernel");
    seed_source_kernel<<<1, 1, 0, st>>>(r, queued, source, state);
    MG_CHECK_LAUNCH("bc async seed_source_kernel");
    int rc = run(ForwardPolicy{dag, sigma, pred_left}, dev, l, NULL, 0, true, r.slot, ring_log2, queued, state,
                 blocks_per_sm, s, NULL, err, errlen);
    if (rc != MG_OK) return rc;
    // The forward pass leaves nothing queued; the DAG's leaves are the
    // backward pass's first items. A directed layout's backward pass runs
    // over its in-adjacency, whose arcs' places then overwrite the out-arcs'.
    mg_dlayout back = *l;
    if (directed) {
        back.sparse_offsets = l->in_offsets;
        back.sparse_dst = l->in_src;
        back.sparse_weights = l->in_weights;
        prep_in_kernel<<<grid, kPrepBlock, 0, st>>>(back, depth, dag);
        MG_CHECK_LAUNCH("bc async prep_in_kernel");
    }
    reset_state_kernel<<<1, 1, 0, st>>>(state);
    MG_CHECK_LAUNCH("bc async reset_state_kernel");
    seed_leaves_kernel<<<grid, kPrepBlock, 0, st>>>(r, queued, succ_left, l->n, state);
    MG_CHECK_LAUNCH("bc async seed_leaves_kernel");
    rc = run(BackwardPolicy{dag, sigma, delta, succ_left}, dev, &back, NULL, 0, true, r.slot, ring_log2, queued,
             state, blocks_per_sm, s, NULL, err, errlen);
    if (rc != MG_OK) return rc;
    if (ev != NULL) MG_CHECK(cudaEventRecord((cudaEvent_t)ev[1], st));
    return MG_OK;
}

}  // extern "C"
