// resident.cu — what keeps a trial's host work to a few launches and one
// copy: initial values and frontiers made on the device, results mapped back
// to the original vertex numbering on the device (layout.Perm), and pinned
// host memory that the result is copied into asynchronously.
#include "internal.cuh"

namespace {

constexpr int kBlock = MG_RESIDENT_BLOCK;

unsigned grid_for(int dev, uint64_t n) { return mg::grid_for(dev, n, kBlock, MG_RESIDENT_BLOCKS_PER_SM); }

#define GRID_STRIDE(i, n) \
    for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < (n); i += (uint64_t)gridDim.x * kBlock)

__global__ void __launch_bounds__(kBlock)
    min_init_kernel(uint32_t *values, uint64_t n, uint32_t fill, int identity, int has_source, uint32_t source,
                    uint32_t source_value, uint32_t *list, uint8_t *flags) {
    GRID_STRIDE(v, n) {
        uint32_t x = identity ? (uint32_t)v : fill;
        if (has_source && v == source) x = source_value;
        values[v] = x;
        if (flags != NULL) flags[v] = 1;
    }
    if (has_source && list != NULL && blockIdx.x == 0 && threadIdx.x == 0) list[0] = source;
}

template <typename T>
__global__ void __launch_bounds__(kBlock)
    gather_kernel(T *__restrict__ out, const T *__restrict__ values, const uint32_t *__restrict__ perm,
                  const double *__restrict__ divisor, uint64_t n) {
    const double d = divisor != NULL ? *divisor : 1.0;
    GRID_STRIDE(old, n) {
        const T x = values[perm[old]];
        out[old] = divisor != NULL ? (T)(x / d) : x;
    }
}

// gather_ids_kernel maps vertex ids (layout numbering, or the identity for
// none) to the original numbering, both where they are and what they say:
// out[old] = inv[ids[perm[old]]].
__global__ void __launch_bounds__(kBlock)
    gather_ids_kernel(uint32_t *__restrict__ out, const uint32_t *__restrict__ ids, const uint32_t *__restrict__ perm,
                      const uint32_t *__restrict__ inv, uint64_t n) {
    GRID_STRIDE(old, n) {
        const uint32_t x = ids[perm[old]];
        out[old] = x == 0xffffffffu ? x : inv[x];
    }
}

// component_min_kernel lowers smallest[label of old] to old for every
// original id old. Threads read the running minimum first, and the lanes of
// a warp that share a label (the giant component's, mostly) send one atomic
// between them, so a component of millions of vertices costs few atomics.
__global__ void __launch_bounds__(kBlock)
    component_min_kernel(uint32_t *smallest, const uint32_t *__restrict__ label, const uint32_t *__restrict__ perm,
                         uint64_t n) {
    const uint64_t stride = (uint64_t)gridDim.x * kBlock;
    // Every lane of a warp runs the same number of rounds (n rounded up),
    // so the warp-wide intrinsics see full warps.
    const uint64_t rounded = (n + 31) / 32 * 32;
    for (uint64_t old = (uint64_t)blockIdx.x * kBlock + threadIdx.x; old < rounded; old += stride) {
        const bool live = old < n;
        const uint32_t c = live ? label[perm[old]] : 0xffffffffu;
        const uint32_t peers = __match_any_sync(0xffffffffu, c);
        // The lowest lane of each group of equal labels holds the group's
        // smallest id (lanes hold ascending ids).
        const int lane = threadIdx.x & 31;
        if (live && lane == __ffs(peers) - 1) {
            const uint32_t id = (uint32_t)old;
            if (id < __ldcg(&smallest[c])) atomicMin(&smallest[c], id);
        }
    }
}

__global__ void __launch_bounds__(kBlock)
    component_out_kernel(uint32_t *__restrict__ out, const uint32_t *__restrict__ smallest,
                         const uint32_t *__restrict__ label, const uint32_t *__restrict__ perm, uint64_t n) {
    GRID_STRIDE(old, n) out[old] = smallest[label[perm[old]]];
}

__global__ void __launch_bounds__(kBlock)
    pr_init_kernel(const uint64_t *__restrict__ offsets, uint64_t n, double *rank, double *share) {
    const double r = 1.0 / (double)n;
    GRID_STRIDE(v, n) {
        const uint64_t d = offsets[v + 1] - offsets[v];
        rank[v] = r;
        share[v] = d > 0 ? r / (double)d : 0.0;
    }
}

// personal_init_kernel: rank = tp's weight (p on the teleport set, 0
// elsewhere), share = rank/outdeg (0 without out-arcs); *count counts the
// vertices without out-arcs whose rank is not 0 (one atomic per block).
__global__ void __launch_bounds__(kBlock)
    personal_init_kernel(const uint64_t *__restrict__ offsets, uint64_t n, mg::Teleport tp, double *rank,
                         double *share, unsigned long long *count) {
    uint64_t c = 0;
    GRID_STRIDE(v, n) {
        const uint64_t d = offsets[v + 1] - offsets[v];
        const double r = tp.weight(v);
        rank[v] = r;
        share[v] = d > 0 ? r / (double)d : 0.0;
        c += d == 0 && r != 0.0;
    }
    c = mg::block_reduce<mg::SumOp<uint64_t, uint64_t>, kBlock>(c);
    if (threadIdx.x == 0 && c > 0) atomicAdd(count, (unsigned long long)c);
}

__global__ void __launch_bounds__(kBlock)
    prdelta_init_kernel(const uint64_t *__restrict__ offsets, uint64_t n, double damping, double *x,
                        double *residual, double *push, uint8_t *flags) {
    GRID_STRIDE(v, n) {
        const uint64_t d = offsets[v + 1] - offsets[v];
        x[v] = 1.0;  // the initial residual 1, absorbed
        residual[v] = 0.0;
        push[v] = d > 0 ? damping * (1.0 / (double)d) : 0.0;
        flags[v] = 1;
    }
}

// dangling_kernel counts the vertices without out-arcs into *count (one
// atomic per block).
__global__ void __launch_bounds__(kBlock)
    dangling_kernel(const uint64_t *__restrict__ offsets, uint64_t n, unsigned long long *count) {
    uint64_t c = 0;
    GRID_STRIDE(v, n) c += offsets[v + 1] == offsets[v];
    c = mg::block_reduce<mg::SumOp<uint64_t, uint64_t>, kBlock>(c);
    if (threadIdx.x == 0 && c > 0) atomicAdd(count, (unsigned long long)c);
}

}  // namespace

extern "C" {

int mg_min_init(int dev, uint32_t *values, uint64_t n, uint32_t fill, int identity, int has_source, uint32_t source,
                uint32_t source_value, uint32_t *list, uint8_t *flags, mg_stream s, char *err, size_t errlen) {
    if (n > 0 && values == NULL) return mg::invalid("mg_min_init: NULL values", err, errlen);
    if (has_source && (source >= n || list == NULL))
        return mg::invalid("mg_min_init: source out of range or NULL list", err, errlen);
    MG_SET_DEVICE(dev);
    if (n == 0) return MG_OK;
    min_init_kernel<<<grid_for(dev, n), kBlock, 0, (cudaStream_t)s>>>(values, n, fill, identity, has_source, source,
                                                                        source_value, list, flags);
    MG_CHECK_LAUNCH("min_init_kernel<<<grid, MG_RESIDENT_BLOCK, 0, s>>>");
    return MG_OK;
}

int mg_gather_u32(int dev, uint32_t *out, const uint32_t *values, const uint32_t *perm, uint64_t n, mg_stream s,
                  char *err, size_t errlen) {
    if (n > 0 && (out == NULL || values == NULL || perm == NULL))
        return mg::invalid("mg_gather_u32: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    if (n == 0) return MG_OK;
    gather_kernel<uint32_t><<<grid_for(dev, n), kBlock, 0, (cudaStream_t)s>>>(out, values, perm, NULL, n);
    MG_CHECK_LAUNCH("gather_kernel<uint32_t><<<grid, MG_RESIDENT_BLOCK, 0, s>>>");
    return MG_OK;
}

int mg_gather_ids(int dev, uint32_t *out, const uint32_t *ids, const uint32_t *perm, const uint32_t *inv, uint64_t n,
                  mg_stream s, char *err, size_t errlen) {
    if (n > 0 && (out == NULL || ids == NULL || perm == NULL || inv == NULL))
        return mg::invalid("mg_gather_ids: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    if (n == 0) return MG_OK;
    gather_ids_kernel<<<grid_for(dev, n), kBlock, 0, (cudaStream_t)s>>>(out, ids, perm, inv, n);
    MG_CHECK_LAUNCH("gather_ids_kernel<<<grid, MG_RESIDENT_BLOCK, 0, s>>>");
    return MG_OK;
}

int mg_gather_f64(int dev, double *out, const double *values, const uint32_t *perm, const double *divisor, uint64_t n,
                  mg_stream s, char *err, size_t errlen) {
    if (n > 0 && (out == NULL || values == NULL || perm == NULL))
        return mg::invalid("mg_gather_f64: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    if (n == 0) return MG_OK;
    gather_kernel<double><<<grid_for(dev, n), kBlock, 0, (cudaStream_t)s>>>(out, values, perm, divisor, n);
    MG_CHECK_LAUNCH("gather_kernel<double><<<grid, MG_RESIDENT_BLOCK, 0, s>>>");
    return MG_OK;
}

int mg_gather_components(int dev, uint32_t *out, const uint32_t *label, const uint32_t *perm, uint32_t *smallest,
                         uint64_t n, mg_stream s, char *err, size_t errlen) {
    if (n > 0 && (out == NULL || label == NULL || perm == NULL || smallest == NULL))
        return mg::invalid("mg_gather_components: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    if (n == 0) return MG_OK;
    cudaStream_t st = (cudaStream_t)s;
    const unsigned grid = grid_for(dev, n);
    const int rc = mg_fill_u32(dev, smallest, n, 0xffffffffu, s, err, errlen);
    if (rc != MG_OK) return rc;
    component_min_kernel<<<grid, kBlock, 0, st>>>(smallest, label, perm, n);
    MG_CHECK_LAUNCH("component_min_kernel<<<grid, MG_RESIDENT_BLOCK, 0, s>>>");
    component_out_kernel<<<grid, kBlock, 0, st>>>(out, smallest, label, perm, n);
    MG_CHECK_LAUNCH("component_out_kernel<<<grid, MG_RESIDENT_BLOCK, 0, s>>>");
    return MG_OK;
}

int mg_pr_init(int dev, const mg_dlayout *l, double *rank, double *share, mg_stream s, char *err, size_t errlen) {
    if (l == NULL || (l->n > 0 && (rank == NULL || share == NULL || l->sparse_offsets == NULL)))
        return mg::invalid("mg_pr_init: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    if (l->n == 0) return MG_OK;
    pr_init_kernel<<<grid_for(dev, l->n), kBlock, 0, (cudaStream_t)s>>>(l->sparse_offsets, l->n, rank, share);
    MG_CHECK_LAUNCH("pr_init_kernel<<<grid, MG_RESIDENT_BLOCK, 0, s>>>");
    return MG_OK;
}

int mg_pr_personal_init(int dev, const mg_dlayout *l, const uint32_t *teleport, double weight, double *rank,
                        double *share, uint64_t *count_dev, mg_stream s, char *err, size_t errlen) {
    if (l == NULL || count_dev == NULL ||
        (l->n > 0 && (teleport == NULL || rank == NULL || share == NULL || l->sparse_offsets == NULL)))
        return mg::invalid("mg_pr_personal_init: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    MG_CHECK(cudaMemsetAsync(count_dev, 0, sizeof(uint64_t), st));
    if (l->n == 0) return MG_OK;
    personal_init_kernel<<<grid_for(dev, l->n), kBlock, 0, st>>>(
        l->sparse_offsets, l->n, mg::Teleport{teleport, weight}, rank, share, (unsigned long long *)count_dev);
    MG_CHECK_LAUNCH("personal_init_kernel<<<grid, MG_RESIDENT_BLOCK, 0, s>>>");
    return MG_OK;
}

int mg_prdelta_init(int dev, const mg_dlayout *l, double damping, double *x, double *residual, double *push,
                    uint8_t *flags, mg_stream s, char *err, size_t errlen) {
    if (l == NULL ||
        (l->n > 0 && (x == NULL || residual == NULL || push == NULL || flags == NULL || l->sparse_offsets == NULL)))
        return mg::invalid("mg_prdelta_init: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    if (l->n == 0) return MG_OK;
    prdelta_init_kernel<<<grid_for(dev, l->n), kBlock, 0, (cudaStream_t)s>>>(l->sparse_offsets, l->n, damping, x,
                                                                              residual, push, flags);
    MG_CHECK_LAUNCH("prdelta_init_kernel<<<grid, MG_RESIDENT_BLOCK, 0, s>>>");
    return MG_OK;
}

int mg_count_dangling(int dev, const mg_dlayout *l, uint64_t *count_dev, mg_stream s, char *err, size_t errlen) {
    if (l == NULL || count_dev == NULL || (l->n > 0 && l->sparse_offsets == NULL))
        return mg::invalid("mg_count_dangling: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    MG_CHECK(cudaMemsetAsync(count_dev, 0, sizeof(uint64_t), st));
    if (l->n == 0) return MG_OK;
    dangling_kernel<<<grid_for(dev, l->n), kBlock, 0, st>>>(l->sparse_offsets, l->n, (unsigned long long *)count_dev);
    MG_CHECK_LAUNCH("dangling_kernel<<<grid, MG_RESIDENT_BLOCK, 0, s>>>");
    return MG_OK;
}

int mg_host_alloc(int dev, void **p, uint64_t bytes, char *err, size_t errlen) {
    if (p == NULL) return mg::invalid("mg_host_alloc: NULL out pointer", err, errlen);
    *p = NULL;
    MG_SET_DEVICE(dev);
    if (bytes == 0) return MG_OK;
    MG_CHECK(cudaHostAlloc(p, (size_t)bytes, cudaHostAllocDefault));
    return MG_OK;
}

int mg_host_free(int dev, void *p, char *err, size_t errlen) {
    if (p == NULL) return MG_OK;
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaFreeHost(p));
    return MG_OK;
}

int mg_memcpy_dtoh_async(int dev, void *dst, const void *src, uint64_t bytes, mg_stream s, char *err, size_t errlen) {
    if (bytes == 0) return MG_OK;
    if (dst == NULL || src == NULL) return mg::invalid("mg_memcpy_dtoh_async: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaMemcpyAsync(dst, src, (size_t)bytes, cudaMemcpyDeviceToHost, (cudaStream_t)s));
    return MG_OK;
}

}  // extern "C"
