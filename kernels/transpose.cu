// transpose.cu — a directed layout's in-adjacency built on the device from
// its sparse part (the out-adjacency, which is on the device whether the
// host built the layout or the device did): in-degrees by atomics and a
// scan give the offsets; the arcs' row vertices, sorted by destination
// with a stable radix sort of the arcs in row order, give each in-row its
// sources in ascending order (the hubs first, as in the out-rows); with
// weights the sort carries each arc's index instead, and the rows and
// weights are gathered by it. Pull steps scan the result (pull.cu).
#include <cub/cub.cuh>

#include "internal.cuh"

namespace {

constexpr int kTransposeBlock = 256;
constexpr int kTransposeBlocksPerSM = 8;
constexpr int kWarp = 32;

// DevMem is a temporary device allocation freed when it goes out of scope.
struct DevMem {
    void *p = nullptr;
    ~DevMem() {
        if (p != nullptr) cudaFree(p);
    }
    template <typename T>
    T *as() const {
        return static_cast<T *>(p);
    }
};

// rows_kernel writes, for every arc, its row vertex: one warp per vertex
// (grid-stride over vertices), its lanes over the row's arcs.
__global__ void __launch_bounds__(kTransposeBlock)
    rows_kernel(const uint64_t *__restrict__ off, uint64_t n, uint32_t *__restrict__ rows) {
    const uint64_t warps = (uint64_t)gridDim.x * kTransposeBlock / kWarp;
    const uint32_t lane = threadIdx.x % kWarp;
    for (uint64_t v = ((uint64_t)blockIdx.x * kTransposeBlock + threadIdx.x) / kWarp; v < n; v += warps)
        for (uint64_t e = off[v] + lane; e < off[v + 1]; e += kWarp) rows[e] = (uint32_t)v;
}

// iota_kernel writes idx[e] = e for every arc.
__global__ void __launch_bounds__(kTransposeBlock) iota_kernel(uint32_t *__restrict__ idx, uint64_t m) {
    const uint64_t stride = (uint64_t)gridDim.x * kTransposeBlock;
    for (uint64_t e = (uint64_t)blockIdx.x * kTransposeBlock + threadIdx.x; e < m; e += stride) idx[e] = (uint32_t)e;
}

// gather_kernel writes in-arc i's source and weight from its arc idx[i]
// (idx may be w itself: each i is read before it is written).
__global__ void __launch_bounds__(kTransposeBlock)
    gather_kernel(const uint32_t *idx, const uint32_t *__restrict__ rows, const uint32_t *__restrict__ weights,
                  uint64_t m, uint32_t *__restrict__ src, uint32_t *w) {
    const uint64_t stride = (uint64_t)gridDim.x * kTransposeBlock;
    for (uint64_t i = (uint64_t)blockIdx.x * kTransposeBlock + threadIdx.x; i < m; i += stride) {
        const uint32_t e = idx[i];
        src[i] = rows[e];
        w[i] = weights[e];
    }
}

// count_kernel adds one to deg[d] for every arc's destination d.
__global__ void __launch_bounds__(kTransposeBlock)
    count_kernel(const uint32_t *__restrict__ dst, uint64_t m, uint32_t *__restrict__ deg) {
    const uint64_t stride = (uint64_t)gridDim.x * kTransposeBlock;
    for (uint64_t e = (uint64_t)blockIdx.x * kTransposeBlock + threadIdx.x; e < m; e += stride) atomicAdd(&deg[dst[e]], 1u);
}

}  // namespace

extern "C" {

int mg_transpose(int dev, const mg_dlayout *l, uint64_t *in_offsets, uint32_t *in_src, uint32_t *in_weights,
                 char *err, size_t errlen) {
    if (l == NULL || in_offsets == NULL || (l->m > 0 && in_src == NULL))
        return mg::invalid("mg_transpose: NULL pointer", err, errlen);
    if (in_weights != NULL && l->m > 0 && l->sparse_weights == NULL)
        return mg::invalid("mg_transpose: in_weights asked for a layout without weights", err, errlen);
    if (l->m > 0 && (l->sparse_offsets == NULL || l->sparse_dst == NULL))
        return mg::invalid("mg_transpose: the layout's sparse part is not on the device", err, errlen);
    if (l->m > 0x7fffffffu || l->n >= 0x7fffffffu)
        return mg::invalid("mg_transpose: more than 2^31-1 arcs or vertices (one radix sort)", err, errlen);
    MG_SET_DEVICE(dev);
    const uint64_t n = l->n, m = l->m;
    cudaStream_t st = 0;
    // In-degrees, then their exclusive sum over n+1 entries (the last is 0,
    // its sum m) into in_offsets.
    DevMem deg;
    MG_CHECK(cudaMalloc(&deg.p, (n + 1) * sizeof(uint32_t)));
    MG_CHECK(cudaMemsetAsync(deg.p, 0, (n + 1) * sizeof(uint32_t), st));
    if (m > 0) {
        count_kernel<<<mg::grid_for(dev, m, kTransposeBlock, kTransposeBlocksPerSM), kTransposeBlock, 0, st>>>(
            l->sparse_dst, m, deg.as<uint32_t>());
        MG_CHECK_LAUNCH("count_kernel");
    }
    {
        size_t tb = 0;
        MG_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, tb, deg.as<uint32_t>(), in_offsets, (int)(n + 1), st));
        DevMem tmp;
        MG_CHECK(cudaMalloc(&tmp.p, tb > 0 ? tb : 1));
        MG_CHECK(cub::DeviceScan::ExclusiveSum(tmp.p, tb, deg.as<uint32_t>(), in_offsets, (int)(n + 1), st));
        MG_CHECK(cudaStreamSynchronize(st));
    }
    if (m == 0) return MG_OK;
    // The arcs in row order as (destination, row) pairs, sorted stably by
    // destination: the rows land in in_src (or are copied there). With
    // weights, (destination, arc) pairs, the arcs sorted into in_weights
    // or idx, then the rows and weights gathered by them.
    const bool weighted = in_weights != NULL;
    DevMem keys0, keys1, rows, idx;
    MG_CHECK(cudaMalloc(&keys0.p, m * sizeof(uint32_t)));
    MG_CHECK(cudaMalloc(&keys1.p, m * sizeof(uint32_t)));
    MG_CHECK(cudaMalloc(&rows.p, m * sizeof(uint32_t)));
    MG_CHECK(cudaMemcpyAsync(keys0.p, l->sparse_dst, m * sizeof(uint32_t), cudaMemcpyDeviceToDevice, st));
    rows_kernel<<<mg::grid_for(dev, n * kWarp, kTransposeBlock, kTransposeBlocksPerSM), kTransposeBlock, 0, st>>>(
        l->sparse_offsets, n, rows.as<uint32_t>());
    MG_CHECK_LAUNCH("rows_kernel");
    if (weighted) {
        MG_CHECK(cudaMalloc(&idx.p, m * sizeof(uint32_t)));
        iota_kernel<<<mg::grid_for(dev, m, kTransposeBlock, kTransposeBlocksPerSM), kTransposeBlock, 0, st>>>(
            idx.as<uint32_t>(), m);
        MG_CHECK_LAUNCH("iota_kernel");
    }
    cub::DoubleBuffer<uint32_t> keys(keys0.as<uint32_t>(), keys1.as<uint32_t>());
    cub::DoubleBuffer<uint32_t> vals(weighted ? idx.as<uint32_t>() : rows.as<uint32_t>(), weighted ? in_weights : in_src);
    const int end_bit = mg::key_bits(n > 0 ? n - 1 : 0);
    size_t tb = 0;
    MG_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, tb, keys, vals, (int)m, 0, end_bit, st));
    DevMem tmp;
    MG_CHECK(cudaMalloc(&tmp.p, tb > 0 ? tb : 1));
    MG_CHECK(cub::DeviceRadixSort::SortPairs(tmp.p, tb, keys, vals, (int)m, 0, end_bit, st));
    if (weighted) {
        gather_kernel<<<mg::grid_for(dev, m, kTransposeBlock, kTransposeBlocksPerSM), kTransposeBlock, 0, st>>>(
            vals.Current(), rows.as<uint32_t>(), l->sparse_weights, m, in_src, in_weights);
        MG_CHECK_LAUNCH("gather_kernel");
    } else if (vals.Current() != in_src)
        MG_CHECK(cudaMemcpyAsync(in_src, vals.Current(), m * sizeof(uint32_t), cudaMemcpyDeviceToDevice, st));
    MG_CHECK(cudaStreamSynchronize(st));
    return MG_OK;
}

}  // extern "C"
