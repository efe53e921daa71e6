// bc.cu — the parts of Brandes' betweenness centrality that are not an
// engine step: starting a source, sorting the vertices by depth after the
// forward pass (which runs as the sum program BCForwardOp, sumprog.cuh), the
// backward pass and the accumulation over sources.
//
// The backward pass pulls over out-arcs, level by level from the deepest: a
// warp per vertex v of depth d sets δ(v) to the sum of σ(v)/σ(w)·(1 + δ(w))
// over its successors w (out-arcs v→w with depth[w] = d + 1); rows of
// more than kBackHubArcs arcs are summed by a whole block instead, and rows
// of more than kBackSplitArcs in chunks over the whole grid, whose partial
// sums meet in δ(v) by atomic adds. It reads only the level below, which is
// final, so it needs no other atomics (but the hub lists') and no
// transposed graph (directed graphs included), as in GAPBS and Gunrock. Like sparse.cu's hub list, the hub list is a device global:
// one backward pass at a time per device.
#include "internal.cuh"

namespace {

constexpr int kBlock = 256;
constexpr int kWarpsPerBlock = kBlock / 32;

unsigned grid_for(int dev, uint64_t n) { return mg::grid_for(dev, n, kBlock, 8); }

__global__ void __launch_bounds__(kBlock)
    init_kernel(int32_t *depth, double *sigma, double *delta, uint64_t n, uint32_t source, uint32_t *list) {
    for (uint64_t v = (uint64_t)blockIdx.x * kBlock + threadIdx.x; v < n; v += (uint64_t)gridDim.x * kBlock) {
        const bool s = v == source;
        depth[v] = s ? 0 : -1;
        sigma[v] = s ? 1.0 : 0.0;
        delta[v] = 0.0;
        if (s) list[0] = source;
    }
}

// order_kernel: every visited vertex takes the next place of its depth.
__global__ void __launch_bounds__(kBlock)
    order_kernel(const int32_t *__restrict__ depth, uint64_t n, uint32_t levels, uint32_t *cursor,
                 uint32_t *__restrict__ order) {
    for (uint64_t v = (uint64_t)blockIdx.x * kBlock + threadIdx.x; v < n; v += (uint64_t)gridDim.x * kBlock) {
        const int32_t d = depth[v];
        if (d >= 0 && (uint32_t)d < levels) order[atomicAdd(&cursor[d], 1u)] = (uint32_t)v;
    }
}

// A vertex with more than kBackHubArcs out-arcs is not summed by one warp
// (its row would serialize the level): its warp lists it (up to kBackHubCap
// per level; beyond that the warp sums it itself), and backward_hub_kernel
// then sums each listed row with a whole block. A row of more than
// kBackSplitArcs would serialize the level on that block: it goes to a second
// list (up to kBackSplitCap, else to the first), whose rows are cut into
// kBackSplitArcs chunks dealt round robin over the grid.
constexpr uint64_t kBackHubArcs = 1024;
constexpr uint32_t kBackHubCap = 65536;
constexpr uint64_t kBackSplitArcs = 16384;
constexpr uint32_t kBackSplitCap = 4096;

__device__ uint32_t g_bc_hub_count;
__device__ uint32_t g_bc_hubs[kBackHubCap];
__device__ uint32_t g_bc_split_count;
__device__ uint32_t g_bc_split[kBackSplitCap];

// successor_term is what arc v→w adds to δ(v): σ(v)/σ(w)·(1 + δ(w)) when w
// is one level deeper (d + 1), else 0 (sv = σ(v)). This is the reference's
// own arithmetic, not σ(v)·Σ(1 + δ(w))/σ(w): when σ overflows to +Inf (more
// than ~1e308 shortest paths, as on large grids) the results are NaN where
// the reference's are, instead of silently finite (Inf/Inf dropped to 0) or
// NaN where the reference's are 0 (Inf·0 for a vertex without successors).
__device__ __forceinline__ double successor_term(const mg_dlayout &L, const int32_t *__restrict__ depth,
                                                 const double *__restrict__ sigma, const double *__restrict__ delta,
                                                 uint64_t e, int32_t d, double sv) {
    const uint32_t w = L.sparse_dst[e];
    return depth[w] == d + 1 ? sv / sigma[w] * (1.0 + delta[w]) : 0.0;
}

__global__ void __launch_bounds__(kBlock)
    backward_kernel(mg_dlayout L, const int32_t *__restrict__ depth, const double *__restrict__ sigma,
                    double *__restrict__ delta, const uint32_t *__restrict__ level, uint32_t count, int32_t d) {
    const uint32_t lane = threadIdx.x & 31;
    const uint64_t step = (uint64_t)gridDim.x * kWarpsPerBlock;
    for (uint64_t i = (uint64_t)blockIdx.x * kWarpsPerBlock + threadIdx.x / 32; i < count; i += step) {
        const uint32_t v = level[i];
        const uint64_t lo = L.sparse_offsets[v], hi = L.sparse_offsets[v + 1];
        if (hi - lo > kBackHubArcs) {
            int listed = 0;  // lane 0 lists v: as a split row if it is one and there is room, else as a hub
            if (lane == 0) {
                if (hi - lo > kBackSplitArcs) {
                    const uint32_t j = atomicAdd(&g_bc_split_count, 1u);
                    if (j < kBackSplitCap) {
                        g_bc_split[j] = v;
                        listed = 1;
                    }
                }
                if (!listed) {
                    const uint32_t k = atomicAdd(&g_bc_hub_count, 1u);
                    if (k < kBackHubCap) {
                        g_bc_hubs[k] = v;
                        listed = 1;
                    }
                }
            }
            if (__shfl_sync(0xffffffffu, listed, 0)) continue;  // backward_hub_kernel sums it
        }
        double sum = 0.0;
        const double sv = sigma[v];
        for (uint64_t e = lo + lane; e < hi; e += 32) sum += successor_term(L, depth, sigma, delta, e, d, sv);
        sum = mg::warp_reduce<mg::SumOp<double, double>>(sum);
        if (lane == 0) delta[v] = sum;
    }
}

// backward_hub_kernel: block k takes the listed hubs k, k + gridDim.x, …
// and sums each row with all its threads; then the chunks of the split rows.
__global__ void __launch_bounds__(kBlock)
    backward_hub_kernel(mg_dlayout L, const int32_t *__restrict__ depth, const double *__restrict__ sigma,
                        double *__restrict__ delta, int32_t d) {
    const uint32_t hubs = min(*(volatile uint32_t *)&g_bc_hub_count, kBackHubCap);
    for (uint32_t k = blockIdx.x; k < hubs; k += gridDim.x) {  // uniform across the block
        const uint32_t v = g_bc_hubs[k];
        const uint64_t lo = L.sparse_offsets[v], hi = L.sparse_offsets[v + 1];
        double sum = 0.0;
        const double sv = sigma[v];
        for (uint64_t e = lo + threadIdx.x; e < hi; e += kBlock)
            sum += successor_term(L, depth, sigma, delta, e, d, sv);
        sum = mg::block_reduce<mg::SumOp<double, double>, kBlock>(sum);
        if (threadIdx.x == 0) delta[v] = sum;
        __syncthreads();  // block_reduce's shared memory is reused by the next hub
    }
    // The split rows: chunk g (counting over the rows in list order) goes to
    // block g mod gridDim.x; δ(v), 0 until now, gathers the chunks' parts.
    const uint32_t splits = min(*(volatile uint32_t *)&g_bc_split_count, kBackSplitCap);
    const uint64_t G = gridDim.x;
    uint64_t base = 0;  // chunks of the rows before this one
    for (uint32_t k = 0; k < splits; k++) {  // uniform across the block
        const uint32_t v = g_bc_split[k];
        const uint64_t lo = L.sparse_offsets[v], hi = L.sparse_offsets[v + 1];
        const uint64_t chunks = (hi - lo + kBackSplitArcs - 1) / kBackSplitArcs;
        for (uint64_t c = (blockIdx.x + G - base % G) % G; c < chunks; c += G) {
            const uint64_t cb = lo + c * kBackSplitArcs, ce = min(cb + kBackSplitArcs, hi);
            double sum = 0.0;
            const double sv = sigma[v];
            for (uint64_t e = cb + threadIdx.x; e < ce; e += kBlock)
                sum += successor_term(L, depth, sigma, delta, e, d, sv);
            sum = mg::block_reduce<mg::SumOp<double, double>, kBlock>(sum);
            if (threadIdx.x == 0) atomicAdd(&delta[v], sum);
            __syncthreads();
        }
        base += chunks;
    }
}

__global__ void __launch_bounds__(kBlock)
    accumulate_kernel(const double *__restrict__ delta, double *__restrict__ bc, uint64_t n, uint32_t source) {
    for (uint64_t v = (uint64_t)blockIdx.x * kBlock + threadIdx.x; v < n; v += (uint64_t)gridDim.x * kBlock)
        if (v != source) bc[v] += delta[v];
}

}  // namespace

extern "C" {

int mg_bc_init(int dev, int32_t *depth, double *sigma, double *delta, uint64_t n, uint32_t source, uint32_t *list,
               mg_stream s, char *err, size_t errlen) {
    if (depth == NULL || sigma == NULL || delta == NULL || list == NULL)
        return mg::invalid("mg_bc_init: NULL pointer", err, errlen);
    if (source >= n) return mg::invalid("mg_bc_init: source out of range", err, errlen);
    MG_SET_DEVICE(dev);
    init_kernel<<<grid_for(dev, n), kBlock, 0, (cudaStream_t)s>>>(depth, sigma, delta, n, source, list);
    MG_CHECK_LAUNCH("bc init_kernel<<<grid, 256, 0, s>>>");
    return MG_OK;
}

int mg_bc_order(int dev, const int32_t *depth, uint64_t n, uint32_t levels, uint32_t *cursor, uint32_t *order,
                mg_stream s, char *err, size_t errlen) {
    if (n > 0 && (depth == NULL || cursor == NULL || order == NULL))
        return mg::invalid("mg_bc_order: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    if (n == 0) return MG_OK;
    order_kernel<<<grid_for(dev, n), kBlock, 0, (cudaStream_t)s>>>(depth, n, levels, cursor, order);
    MG_CHECK_LAUNCH("bc order_kernel<<<grid, 256, 0, s>>>");
    return MG_OK;
}

int mg_bc_backward(int dev, const mg_dlayout *l, const int32_t *depth, const double *sigma, double *delta,
                   const uint32_t *level, uint32_t count, int32_t d, mg_stream s, mg_event *ev, char *err,
                   size_t errlen) {
    if (l == NULL || depth == NULL || sigma == NULL || delta == NULL || (count > 0 && level == NULL))
        return mg::invalid("mg_bc_backward: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    if (ev != NULL) MG_CHECK(cudaEventRecord((cudaEvent_t)ev[0], st));
    if (count > 0) {
        void *hc = NULL, *sc = NULL;
        MG_CHECK(cudaGetSymbolAddress(&hc, g_bc_hub_count));
        MG_CHECK(cudaMemsetAsync(hc, 0, sizeof(uint32_t), st));
        MG_CHECK(cudaGetSymbolAddress(&sc, g_bc_split_count));
        MG_CHECK(cudaMemsetAsync(sc, 0, sizeof(uint32_t), st));
        const uint64_t sms = (uint64_t)mg::multiprocessors(dev);
        uint64_t g = ((uint64_t)count + kWarpsPerBlock - 1) / kWarpsPerBlock;
        if (g > sms * 16) g = sms * 16;
        backward_kernel<<<(unsigned)g, kBlock, 0, st>>>(*l, depth, sigma, delta, level, count, d);
        MG_CHECK_LAUNCH("bc backward_kernel<<<count/8, 256, 0, s>>>");
        backward_hub_kernel<<<(unsigned)(sms * 8), kBlock, 0, st>>>(*l, depth, sigma, delta, d);
        MG_CHECK_LAUNCH("bc backward_hub_kernel<<<SMs·8, 256, 0, s>>>");
    }
    if (ev != NULL) MG_CHECK(cudaEventRecord((cudaEvent_t)ev[1], st));
    return MG_OK;
}

int mg_bc_accumulate(int dev, const double *delta, double *bc, uint64_t n, uint32_t source, mg_stream s, char *err,
                     size_t errlen) {
    if (n > 0 && (delta == NULL || bc == NULL)) return mg::invalid("mg_bc_accumulate: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    if (n == 0) return MG_OK;
    accumulate_kernel<<<grid_for(dev, n), kBlock, 0, (cudaStream_t)s>>>(delta, bc, n, source);
    MG_CHECK_LAUNCH("bc accumulate_kernel<<<grid, 256, 0, s>>>");
    return MG_OK;
}

}  // extern "C"
