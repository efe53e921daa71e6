// pagerank.cu — topology-driven PageRank on the GPU (float64 sums): every
// iteration is a step over all vertices, in one of two schemes.
//
//   stream (mg_pr_step, the paper's MultiGraphD): densework.cuh's kernels
//     with the shares r/outdeg as the sources' values and PRApply as phase
//     2's policy: r = base + d·acc, the new share, and per-panel partial sums
//     of |Δr| and of the dangling rank, which one block then folds into
//     mg_pr_sums in panel order.
//   pull (mg_pr_pull_step): the heavy kernel with VertexSink (its partials
//     go to per-vertex accumulators with global atomics), the light edges of
//     each row panel read in source order from a copy sorted once
//     (mg_pr_pull_build) and summed in shared memory, then into the same
//     accumulators, then one thread per vertex applies the update. No stream
//     slot is written or read: per light edge it moves 6 bytes (source and
//     panel-local destination) instead of 24, and because a warp's 32 edges
//     have nearby sources their share loads fall in few cache lines.
//
// (The sums of a step are not bit-for-bit repeatable: both schemes add in
// floating point with atomics.)
#include <cub/cub.cuh>

#include "densework.cuh"
#include "sumprog.cuh"

namespace {

constexpr int kFoldBlock = 1024;

// pr_share returns the share of a vertex with new rank nr, old rank old and
// deg out-arcs (nr/deg, 0 when dangling), adding |nr − old| to delta and a
// dangling vertex's rank to dangling.
__device__ __forceinline__ double pr_share(double nr, double old, uint64_t deg, double &delta, double &dangling) {
    delta += fabs(nr - old);
    if (deg > 0) return nr / (double)deg;
    dangling += nr;
    return 0.0;
}

// pr_partials sums delta and dangling over the block (BLOCK threads) into
// *pd and *pg.
template <int BLOCK>
__device__ __forceinline__ void pr_partials(double delta, double dangling, double *pd, double *pg) {
    delta = mg::block_reduce<mg::SumOp<double, double>, BLOCK>(delta);
    __syncthreads();
    dangling = mg::block_reduce<mg::SumOp<double, double>, BLOCK>(dangling);
    if (threadIdx.x == 0) {
        *pd = delta;
        *pg = dangling;
    }
}

// PRApply is phase 2's Apply policy for PageRank: r = base + d·acc for every
// vertex of row panel r, the share r/outdeg (0 when dangling), and the
// panel's partial sums of |Δr| (partials[r]) and of the dangling vertices'
// new rank (partials[num_panels + r]).
struct PRApply {
    double base, damping;
    double *rank, *share, *partials;

    __device__ void operator()(const mg_dlayout &L, uint32_t r, uint64_t lo, uint32_t len,
                               const double *acc) const {
        double delta = 0.0, dangling = 0.0;
        for (uint32_t j = threadIdx.x; j < len; j += kPhase2Block) {
            const uint64_t v = lo + j;
            const double nr = base + damping * acc[j], old = rank[v];
            const uint64_t deg = L.sparse_offsets[v + 1] - L.sparse_offsets[v];
            __stcs(rank + v, nr);
            share[v] = pr_share(nr, old, deg, delta, dangling);
        }
        pr_partials<kPhase2Block>(delta, dangling, partials + r, partials + L.num_panels + r);
    }
};

// pr_fold: the block (BLOCK threads) adds the k partials of both sums
// (partials[0, k) and partials[k, 2k)) and writes *sums.
template <int BLOCK>
__device__ __forceinline__ void pr_fold(const double *partials, uint32_t k, mg_pr_sums *sums) {
    double a = 0.0, b = 0.0;
    for (uint32_t i = threadIdx.x; i < k; i += BLOCK) {
        a += __ldcg(partials + i);  // from L2, where the other blocks wrote them
        b += __ldcg(partials + k + i);
    }
    a = mg::block_reduce<mg::SumOp<double, double>, BLOCK>(a);
    __syncthreads();
    b = mg::block_reduce<mg::SumOp<double, double>, BLOCK>(b);
    if (threadIdx.x == 0) {
        sums->delta = a;
        sums->dangling = b;
    }
}

// pr_fold_kernel: one block adds the k per-panel partials of both sums.
__global__ void __launch_bounds__(kFoldBlock) pr_fold_kernel(const double *__restrict__ partials, uint32_t k,
                                                            mg_pr_sums *sums) {
    pr_fold<kFoldBlock>(partials, k, sums);
}

// --- The pull scheme (mg_pr_pull_step) ------------------------------------

constexpr int kBuildBlock = 256;    // threads per block of the build's kernels
constexpr int kGatherBlock = 1024;  // threads of the pull scheme's heavy and light blocks
constexpr int kPullUnroll = 2;      // light edges a thread loads before it adds them
constexpr int kApplyBlock = 512;                  // threads of the apply kernel
constexpr int kApplyVertices = MG_PR_APPLY_VERTICES;  // vertices per block of the apply kernel
constexpr int kApplyUnroll = kApplyVertices / kApplyBlock;
static_assert(kApplyVertices % kApplyBlock == 0, "MG_PR_APPLY_VERTICES must be a multiple of kApplyBlock");

// VertexSink is the heavy kernel's Sink for the pull scheme: the partials of
// heavy block h go straight to its destinations' accumulators.
struct VertexSink {
    double *acc;
    __device__ void operator()(const mg_dlayout &L, uint32_t h, const double *part, uint32_t d) const {
        double *a = acc + (uint64_t)L.heavy_row[h] * L.panel_size;
        const uint16_t *__restrict__ dst = L.slot_dst + L.heavy_slot[h];
        for (uint32_t i = threadIdx.x; i < d; i += blockDim.x)
            if (part[i] != 0.0) atomicAdd(&a[dst[i]], part[i]);
    }
};

// light_pull_chunk: the block's work on chunk k of one row panel's light
// edges, in source order (any block size; P·8 bytes of dynamic shared
// memory). The block sums the chunk's contributions into the panel's P
// accumulators in shared memory: each thread loads kPullUnroll edges
// (sources and destinations first, then the sources' shares; a warp's
// consecutive edges have nearby sources, so their loads share cache lines)
// and adds each share to its destination's accumulator with a shared atomic.
// Then the block adds its non-zero accumulators to the row's global ones.
__device__ __forceinline__ void light_pull_chunk(const mg_dlayout &L, const mg_pr_pull &P,
                                                 const double *__restrict__ share, double *acc, uint32_t k) {
    const uint32_t r = P.chunk_row[k];
    const uint64_t lo = (uint64_t)r * L.panel_size;
    const uint32_t len = panel_len(L, lo);
    double *sum = mg::shared_as<double>();
    for (uint32_t i = threadIdx.x; i < len; i += blockDim.x) sum[i] = 0.0;
    __syncthreads();
    const uint64_t e0 = P.chunk_start[k], e1 = min(e0 + P.chunk_edges, P.row_start[r + 1]);
    for (uint64_t b = e0; b < e1; b += (uint64_t)blockDim.x * kPullUnroll) {
        uint32_t src[kPullUnroll];
        int dst[kPullUnroll];
#pragma unroll
        for (int u = 0; u < kPullUnroll; u++) {
            const uint64_t e = b + (uint64_t)u * blockDim.x + threadIdx.x;
            const bool ok = e < e1;
            src[u] = ok ? __ldcs(P.src + e) : 0u;  // streamed: evict first from L2,
            dst[u] = ok ? (int)__ldcs(P.dst + e) : -1;  // which keeps the shares
        }
        double x[kPullUnroll];
#pragma unroll
        for (int u = 0; u < kPullUnroll; u++) x[u] = dst[u] >= 0 ? __ldg(share + src[u]) : 0.0;
#pragma unroll
        for (int u = 0; u < kPullUnroll; u++)
            if (x[u] != 0.0) atomicAdd(&sum[dst[u]], x[u]);
    }
    __syncthreads();
    double *a = acc + lo;
    for (uint32_t i = threadIdx.x; i < len; i += blockDim.x)
        if (sum[i] != 0.0) atomicAdd(&a[i], sum[i]);
}

// pull_gather_kernel: the heavy row chunks (heavy_chunk with VertexSink) and
// the light pull chunks in one grid of kGatherBlock threads, interleaved in
// proportion (block b is heavy when ⌊(b+1)·H/N⌋ > ⌊b·H/N⌋), so that blocks
// bound by shared memory (heavy) and by L2 (light gathers) share the SMs.
// With panels (one class byte per row panel), a block whose chunk lies in
// a row panel of another class than want does nothing: a partitioned
// PageRank gathers its ghosts' panels first, and the rest while the
// ghosts' sums travel.
__global__ void __launch_bounds__(kGatherBlock)
    pull_gather_kernel(mg_dlayout L, mg_pr_pull P, const double *__restrict__ share, double *acc,
                       const mg_pr_sums *sums, const uint8_t *__restrict__ panels, uint8_t want) {
    if (sums->done) return;  // the run has converged
    const uint64_t b = blockIdx.x, heavy = L.num_heavy_chunks, all = heavy + P.num_chunks;
    const uint64_t h0 = b * heavy / all, h1 = (b + 1) * heavy / all;
    const bool is_heavy = h1 > h0;
    if (panels != nullptr) {
        const uint32_t r = is_heavy ? L.heavy_row[L.heavy_chunk_block[h0]] : P.chunk_row[b - h0];
        if (panels[r] != want) return;  // uniform across the block
    }
    if (is_heavy)
        heavy_chunk(mg::SumBase{}, L, share, nullptr, VertexSink{acc}, (uint32_t)h0);
    else
        light_pull_chunk(L, P, share, acc, (uint32_t)(b - h0));
}

// pr_apply_kernel (nothing once sums->done): each thread takes kApplyUnroll
// vertices' accumulators (leaving 0; loads first) and applies PageRank's
// update to them (personalised when tp has bits: see mg_pr_pull_step); partials[b] and partials[gridDim.x + b] get block b's sums
// of |Δr| and of the dangling rank, and the last block to finish (*ticket,
// left at 0) folds them into *sums and applies the stopping rule. Every block
// reads sums->dangling before it takes its ticket, so the fold may replace it.
__global__ void __launch_bounds__(kApplyBlock)
    pr_apply_kernel(uint64_t n, const uint64_t *__restrict__ offsets, double damping, double tolerance,
                    mg::Teleport tp, double *__restrict__ rank, double *__restrict__ share, double *__restrict__ acc,
                    double *partials, uint32_t *ticket, mg_pr_sums *sums) {
    if (sums->done) return;  // the run has converged
    // Uniform: base = (1−d)/n + d·D/n for every vertex; personalised:
    // ((1−d) + d·D)·w, w the vertex's teleport weight.
    const double nf = tp.bits == nullptr ? (double)n : 1.0, base = (1.0 - damping) / nf + damping * sums->dangling / nf;
    const uint64_t v0 = (uint64_t)blockIdx.x * kApplyVertices + threadIdx.x;
    double a[kApplyUnroll], old[kApplyUnroll];
    uint64_t deg[kApplyUnroll];
#pragma unroll
    for (int u = 0; u < kApplyUnroll; u++) {
        const uint64_t v = v0 + (uint64_t)u * kApplyBlock;
        if (v < n) {
            a[u] = acc[v];
            old[u] = __ldcs(rank + v);  // streamed, as the offsets and the new ranks:
            deg[u] = __ldcs(offsets + v + 1) - __ldcs(offsets + v);  // L2 keeps acc and share
        }
    }
    double delta = 0.0, dangling = 0.0;
#pragma unroll
    for (int u = 0; u < kApplyUnroll; u++) {
        const uint64_t v = v0 + (uint64_t)u * kApplyBlock;
        if (v < n) {
            const double nr = base * tp.weight(v) + damping * a[u];
            acc[v] = 0.0;
            __stcs(rank + v, nr);
            share[v] = pr_share(nr, old[u], deg[u], delta, dangling);
        }
    }
    pr_partials<kApplyBlock>(delta, dangling, partials + blockIdx.x, partials + gridDim.x + blockIdx.x);
    if (!mg::last_arrival(ticket, gridDim.x)) return;  // uniform across the block
    pr_fold<kApplyBlock>(partials, gridDim.x, sums);
    if (threadIdx.x == 0) {
        sums->iterations++;
        sums->done = sums->delta < tolerance;
        *ticket = 0;
    }
}

// pull_keys_kernel (build): for light edge e of column panel c, key[e] =
// r·2^sbits + its source c·P + LightSrc[e], r being its destination's row
// panel (the row panel whose slot range holds its slot) and every source
// below 2^sbits, and val[e] = the destination's index in the row panel
// (SlotDst). One block per light chunk, as the light kernel.
__global__ void __launch_bounds__(kBuildBlock)
    pull_keys_kernel(mg_dlayout L, int sbits, uint64_t *key, uint16_t *val) {
    const uint32_t k = blockIdx.x, c = L.light_chunk_col[k];
    const uint64_t e0 = L.light_chunk_start[k], e1 = min(e0 + L.light_chunk_edges, L.light_start[c + 1]);
    for (uint64_t e = e0 + threadIdx.x; e < e1; e += kBuildBlock) {
        const uint64_t s = L.light_slot[e];
        // The row panel: the last r < num_panels with row_slot_start[r] <= s
        // (row_slot_start[0] = 0).
        const uint64_t r = mg::lower_bound(L.row_slot_start, L.num_panels, s + 1) - 1;
        key[e] = r << sbits | ((uint64_t)c * L.panel_size + L.light_src[e]);
        val[e] = L.slot_dst[s];
    }
}

// pull_split_kernel (build): the sorted keys' low sbits bits become src (the
// panel-local destinations are already in place); row_start[r]
// (r <= num_panels) is the first edge whose destination is in row panel r or
// later.
__global__ void pull_split_kernel(uint64_t m, uint32_t num_panels, int sbits, const uint64_t *key, uint32_t *src,
                                  uint64_t *row_start) {
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x, mask = (1ull << sbits) - 1;
    for (uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; e < m; e += stride)
        src[e] = (uint32_t)(key[e] & mask);
    for (uint64_t r = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; r <= num_panels; r += stride)
        row_start[r] = mg::lower_bound(key, m, r << sbits);
}

// Scratch is a device allocation freed when it goes out of scope.
struct Scratch {
    void *p = nullptr;
    ~Scratch() {
        if (p != nullptr) cudaFree(p);
    }
};

}  // namespace

extern "C" int mg_pr_step(int dev, const mg_dlayout *l, double base, double damping, double *rank, double *share,
                          double *stream_buf, double *partials, mg_pr_sums *sums, mg_stream s, mg_event *ev,
                          char *err, size_t errlen) {
    if (l == NULL || rank == NULL || share == NULL || partials == NULL || sums == NULL ||
        (l->num_slots > 0 && stream_buf == NULL))
        return mg::invalid("mg_pr_step: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    const mg_dlayout L = *l;
    MG_RECORD(0);
    int rc = launch_phase1(mg::SumBase{}, L, share, nullptr, stream_buf, st, ev, err, errlen);
    if (rc != MG_OK) return rc;
    rc = launch_phase2<mg::SumBase>(L, PRApply{base, damping, rank, share, partials}, stream_buf, st, err, errlen);
    if (rc != MG_OK) return rc;
    MG_RECORD(3);
    pr_fold_kernel<<<1, kFoldBlock, 0, st>>>(partials, L.num_panels, sums);
    MG_CHECK_LAUNCH("pr_fold_kernel<<<1, 1024, 0, s>>>");
    MG_RECORD(4);
    return MG_OK;
}

extern "C" int mg_pr_pull_build(int dev, const mg_dlayout *l, uint64_t num_light, uint32_t *src, uint16_t *dst,
                                uint64_t *row_start, char *err, size_t errlen) {
    if (l == NULL || row_start == NULL || (num_light > 0 && (src == NULL || dst == NULL)))
        return mg::invalid("mg_pr_pull_build: NULL pointer", err, errlen);
    if (num_light > 0x7fffffffu)
        return mg::invalid("mg_pr_pull_build: more than 2^31-1 light edges (the sort counts in int)", err, errlen);
    MG_SET_DEVICE(dev);
    const mg_dlayout L = *l;
    // Keys: row panel above source; the destinations ride along in dst and
    // one scratch array.
    const int sbits = mg::key_bits(L.n > 0 ? L.n - 1 : 0);
    const int rbits = mg::key_bits(L.num_panels > 0 ? L.num_panels - 1 : 0);
    Scratch keys[2], vals, tmp;
    for (int i = 0; i < 2; i++) MG_CHECK(cudaMalloc(&keys[i].p, num_light * sizeof(uint64_t) + 8));
    MG_CHECK(cudaMalloc(&vals.p, num_light * sizeof(uint16_t) + 2));
    uint64_t *k0 = (uint64_t *)keys[0].p;
    if (num_light > 0) {
        pull_keys_kernel<<<L.num_light_chunks, kBuildBlock>>>(L, sbits, k0, dst);
        MG_CHECK_LAUNCH("pull_keys_kernel<<<light chunks, 256>>>");
        cub::DoubleBuffer<uint64_t> kb(k0, (uint64_t *)keys[1].p);
        cub::DoubleBuffer<uint16_t> vb(dst, (uint16_t *)vals.p);
        size_t tb = 0;
        MG_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, tb, kb, vb, (int)num_light, 0, sbits + rbits));
        MG_CHECK(cudaMalloc(&tmp.p, tb));
        MG_CHECK(cub::DeviceRadixSort::SortPairs(tmp.p, tb, kb, vb, (int)num_light, 0, sbits + rbits));
        k0 = kb.Current();
        if (vb.Current() != dst)
            MG_CHECK(cudaMemcpy(dst, vb.Current(), num_light * sizeof(uint16_t), cudaMemcpyDeviceToDevice));
    }
    const int blocks = 4 * mg::multiprocessors(dev);
    pull_split_kernel<<<blocks, kBuildBlock>>>(num_light, L.num_panels, sbits, k0, src, row_start);
    MG_CHECK_LAUNCH("pull_split_kernel<<<4·SMs, 256>>>");
    MG_CHECK(cudaDeviceSynchronize());
    return MG_OK;
}

// launch_gather launches the pull scheme's gather (pull_gather_kernel) over
// the heavy and light chunks on st: mg_pr_pull_step's first kernel, and
// mg_pr_pull_gather's only one.
static int launch_gather(const mg_dlayout &L, const mg_pr_pull &p, const double *share, double *acc,
                         const mg_pr_sums *sums, const uint8_t *panels, uint8_t want, cudaStream_t st, char *err,
                         size_t errlen) {
    const uint32_t gather = L.num_heavy_chunks + p.num_chunks;
    if (gather == 0) return MG_OK;
    // Heavy chunks stage P shares and P partials, light chunks P sums.
    const size_t smem = (L.num_heavy_chunks > 0 ? 2 : 1) * (size_t)L.panel_size * sizeof(double);
    const int rc = mg::set_smem(pull_gather_kernel, smem, err, errlen);
    if (rc != MG_OK) return rc;
    pull_gather_kernel<<<gather, kGatherBlock, smem, st>>>(L, p, share, acc, sums, panels, want);
    MG_CHECK_LAUNCH("pull_gather_kernel<<<heavy + light chunks, 1024, (1 or 2)·P·8, s>>>");
    return MG_OK;
}

extern "C" int mg_pr_pull_step(int dev, const mg_dlayout *l, const mg_pr_pull *p, double damping, double tolerance,
                               const uint32_t *teleport, double weight, double *rank, double *share, double *acc,
                               double *partials, uint32_t *ticket, mg_pr_sums *sums, mg_stream s, mg_event *ev,
                               char *err, size_t errlen) {
    if (l == NULL || p == NULL || rank == NULL || share == NULL || acc == NULL || partials == NULL ||
        ticket == NULL || sums == NULL)
        return mg::invalid("mg_pr_pull_step: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    const mg_dlayout L = *l;
    MG_RECORD(0);
    const int rc = launch_gather(L, *p, share, acc, sums, nullptr, 0, st, err, errlen);
    if (rc != MG_OK) return rc;
    MG_RECORD(1);
    // At least one block, which on an empty graph folds zeros and counts the step.
    const uint32_t blocks = (uint32_t)max((L.n + kApplyVertices - 1) / kApplyVertices, (uint64_t)1);
    pr_apply_kernel<<<blocks, kApplyBlock, 0, st>>>(L.n, L.sparse_offsets, damping, tolerance,
                                                    mg::Teleport{teleport, weight}, rank, share, acc, partials, ticket,
                                                    sums);
    MG_CHECK_LAUNCH("pr_apply_kernel<<<n/2048, 512, 0, s>>>");
    MG_RECORD(2);
    return MG_OK;
}

extern "C" int mg_pr_pull_gather(int dev, const mg_dlayout *l, const mg_pr_pull *p, const double *share, double *acc,
                                 const mg_pr_sums *sums, const uint8_t *panels, uint32_t want, mg_stream s, char *err,
                                 size_t errlen) {
    // A part may hold no vertex (more parts than a small graph fills): its
    // buffers are then empty, and there is nothing to gather.
    if (l == NULL || p == NULL || (l->n > 0 && (share == NULL || acc == NULL || sums == NULL)))
        return mg::invalid("mg_pr_pull_gather: NULL pointer", err, errlen);
    if (want > 0xff) return mg::invalid("mg_pr_pull_gather: want is a byte", err, errlen);
    if (l->n == 0) return MG_OK;
    MG_SET_DEVICE(dev);
    const mg_dlayout L = *l;
    const int rc = launch_gather(L, *p, share, acc, sums, panels, (uint8_t)want, (cudaStream_t)s, err, errlen);
    if (rc != MG_OK) return rc;
    if (s == NULL) MG_SYNC("mg_pr_pull_gather (pull_gather_kernel)");
    return MG_OK;
}
