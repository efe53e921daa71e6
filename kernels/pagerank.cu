// pagerank.cu — topology-driven PageRank on the GPU (MultiGraphD, float64
// sums): every iteration is a dense step over all vertices. Phase 1 writes
// every stream slot with a sum of shares (heavy blocks: register runs and
// shared-memory atomicAdd on double; light edges: the share itself), phase 2
// folds each row panel's slots into shared memory and applies
// r = base + d·acc, writing the rank, the share r/outdeg (0 when dangling)
// and per-block partial sums of |Δr| and of the dangling rank, which one
// block then folds into mg_pr_sums in a fixed order (deterministic).
#include "internal.cuh"

namespace {

constexpr int kLightBlock = 256;
constexpr int kPhase2Block = 512;
constexpr int kPhase2Unroll = 4;
constexpr int kFoldBlock = 1024;

__device__ __forceinline__ void stage_shares(const mg_dlayout &L, uint32_t c, const double *__restrict__ share,
                                             double *st) {
    const uint64_t lo = (uint64_t)c * L.panel_size;
    const uint32_t len = (uint32_t)min((uint64_t)L.panel_size, L.n - lo);
    for (uint32_t i = threadIdx.x; i < len; i += blockDim.x) st[i] = share[lo + i];
}

// pr_heavy_kernel: one block per heavy block h, as dense.cu's heavy_kernel
// with sum for min: a thread adds its column's run in a register and merges
// it into the D shared accumulators at each marker.
__global__ void __launch_bounds__(1024) pr_heavy_kernel(mg_dlayout L, const double *__restrict__ share,
                                                        double *__restrict__ out) {
    double *st = mg::shared_as<double>(), *acc = st + L.panel_size;
    const uint32_t h = blockIdx.x;
    stage_shares(L, L.heavy_col[h], share, st);
    const uint32_t d = L.heavy_num_dst[h];
    for (uint32_t i = threadIdx.x; i < d; i += blockDim.x) acc[i] = 0.0;
    __syncthreads();
    const uint32_t t = L.heavy_columns, rows = L.heavy_rows[h];
    const int16_t *__restrict__ mat = L.heavy_matrix + L.heavy_matrix_start[h];
    for (uint32_t j = threadIdx.x; j < t; j += blockDim.x) {
        double reg = 0.0;
        int dst = -1;
        for (uint32_t i = 0; i < rows; i++) {
            const int x = mat[(uint64_t)i * t + j];
            if (x >= 0) {
                reg += st[x];
                continue;
            }
            if (dst >= 0 && reg != 0.0) atomicAdd(&acc[dst], reg);
            reg = 0.0;
            if (x == -32768) {  // padding: the rest of the column is padding
                dst = -1;
                break;
            }
            dst = -(x + 1);
        }
        if (dst >= 0 && reg != 0.0) atomicAdd(&acc[dst], reg);
    }
    __syncthreads();
    double *o = out + L.heavy_slot[h];
    for (uint32_t i = threadIdx.x; i < d; i += blockDim.x) o[i] = acc[i];
}

// pr_light_kernel: one block per column panel; each light edge writes its
// source's share to its own slot.
__global__ void __launch_bounds__(kLightBlock)
    pr_light_kernel(mg_dlayout L, const double *__restrict__ share, double *__restrict__ out) {
    double *st = mg::shared_as<double>();
    const uint32_t c = blockIdx.x;
    const uint64_t e0 = L.light_start[c], e1 = L.light_start[c + 1];
    if (e0 == e1) return;  // uniform across the block
    stage_shares(L, c, share, st);
    __syncthreads();
    for (uint64_t e = e0 + threadIdx.x; e < e1; e += kLightBlock) out[L.light_slot[e]] = st[L.light_src[e]];
}

// pr_phase2_kernel: one block per row panel r: fold the slots into P shared
// accumulators (runs of equal SlotDst pre-summed per warp), apply every vertex, and write the block's partial sums of
// |Δr| (partials[r]) and of the dangling vertices' new rank
// (partials[num_panels + r]).
__global__ void __launch_bounds__(kPhase2Block)
    pr_phase2_kernel(mg_dlayout L, double base, double damping, double *__restrict__ rank,
                     double *__restrict__ share, const double *__restrict__ in, double *__restrict__ partials) {
    double *acc = mg::shared_as<double>();
    const uint32_t r = blockIdx.x;
    const uint64_t lo = (uint64_t)r * L.panel_size;
    const uint32_t len = (uint32_t)min((uint64_t)L.panel_size, L.n - lo);
    for (uint32_t i = threadIdx.x; i < len; i += kPhase2Block) acc[i] = 0.0;
    __syncthreads();
    const uint64_t s0 = L.row_slot_start[r], s1 = L.row_slot_start[r + 1];
    // Each warp reads kPhase2Unroll chunks of 32 consecutive slots (loads
    // first, for more bytes in flight), sums each chunk's runs of equal
    // SlotDst in registers, and the last lane of a run does the one shared
    // atomicAdd. The loop bound is uniform across the block.
    for (uint64_t b = s0; b < s1; b += (uint64_t)kPhase2Block * kPhase2Unroll) {
        double x[kPhase2Unroll];
        int k[kPhase2Unroll];
#pragma unroll
        for (int u = 0; u < kPhase2Unroll; u++) {
            const uint64_t s = b + (uint64_t)u * kPhase2Block + threadIdx.x;
            const bool ok = s < s1;
            x[u] = ok ? in[s] : 0.0;
            k[u] = ok ? (int)L.slot_dst[s] : -1;
        }
#pragma unroll
        for (int u = 0; u < kPhase2Unroll; u++)
            if (mg::warp_run_combine<mg::SumOp<double, double>>(k[u], x[u]) && k[u] >= 0 && x[u] != 0.0)
                atomicAdd(&acc[k[u]], x[u]);
    }
    __syncthreads();
    double delta = 0.0, dangling = 0.0;
    for (uint32_t j = threadIdx.x; j < len; j += kPhase2Block) {
        const uint64_t v = lo + j;
        const double nr = base + damping * acc[j];
        delta += fabs(nr - rank[v]);
        rank[v] = nr;
        const uint64_t deg = L.sparse_offsets[v + 1] - L.sparse_offsets[v];
        if (deg > 0) {
            share[v] = nr / (double)deg;
        } else {
            share[v] = 0.0;
            dangling += nr;
        }
    }
    delta = mg::block_reduce<mg::SumOp<double, double>, kPhase2Block>(delta);
    __syncthreads();
    dangling = mg::block_reduce<mg::SumOp<double, double>, kPhase2Block>(dangling);
    if (threadIdx.x == 0) {
        partials[r] = delta;
        partials[L.num_panels + r] = dangling;
    }
}

// pr_fold_kernel: one block adds the k per-panel partials of both sums.
__global__ void __launch_bounds__(kFoldBlock) pr_fold_kernel(const double *__restrict__ partials, uint32_t k,
                                                            mg_pr_sums *sums) {
    double a = 0.0, b = 0.0;
    for (uint32_t i = threadIdx.x; i < k; i += kFoldBlock) {
        a += partials[i];
        b += partials[k + i];
    }
    a = mg::block_reduce<mg::SumOp<double, double>, kFoldBlock>(a);
    __syncthreads();
    b = mg::block_reduce<mg::SumOp<double, double>, kFoldBlock>(b);
    if (threadIdx.x == 0) {
        sums->delta = a;
        sums->dangling = b;
    }
}

}  // namespace

#define MG_RECORD(i) \
    if (ev != NULL) MG_CHECK(cudaEventRecord((cudaEvent_t)ev[i], st))

extern "C" int mg_pr_step(int dev, const mg_dlayout *l, double base, double damping, double *rank, double *share,
                          double *stream_buf, double *partials, mg_pr_sums *sums, mg_stream s, mg_event *ev,
                          char *err, size_t errlen) {
    if (l == NULL || rank == NULL || share == NULL || partials == NULL || sums == NULL ||
        (l->num_slots > 0 && stream_buf == NULL))
        return mg::invalid("mg_pr_step: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    const mg_dlayout L = *l;
    const size_t panel = (size_t)L.panel_size * sizeof(double);
    MG_RECORD(0);
    if (L.num_heavy > 0) {
        const int threads = (int)min(L.heavy_columns, 1024u);
        int rc = mg::set_smem(pr_heavy_kernel, 2 * panel, err, errlen);
        if (rc != MG_OK) return rc;
        pr_heavy_kernel<<<L.num_heavy, threads, 2 * panel, st>>>(L, share, stream_buf);
        MG_CHECK_LAUNCH("pr_heavy_kernel<<<heavy blocks, T, 2P·8, s>>>");
    }
    MG_RECORD(1);
    if (L.num_panels > 0) {
        int rc = mg::set_smem(pr_light_kernel, panel, err, errlen);
        if (rc != MG_OK) return rc;
        pr_light_kernel<<<L.num_panels, kLightBlock, panel, st>>>(L, share, stream_buf);
        MG_CHECK_LAUNCH("pr_light_kernel<<<column panels, 256, P·8, s>>>");
    }
    MG_RECORD(2);
    if (L.num_panels > 0) {
        int rc = mg::set_smem(pr_phase2_kernel, panel, err, errlen);
        if (rc != MG_OK) return rc;
        pr_phase2_kernel<<<L.num_panels, kPhase2Block, panel, st>>>(L, base, damping, rank, share, stream_buf,
                                                                   partials);
        MG_CHECK_LAUNCH("pr_phase2_kernel<<<row panels, 512, P·8, s>>>");
    }
    MG_RECORD(3);
    pr_fold_kernel<<<1, kFoldBlock, 0, st>>>(partials, L.num_panels, sums);
    MG_CHECK_LAUNCH("pr_fold_kernel<<<1, 1024, 0, s>>>");
    MG_RECORD(4);
    return MG_OK;
}
