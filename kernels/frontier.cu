// frontier.cu — frontier conversions on the device: flags -> list by
// warp-aggregated appends (one atomic per warp with an active vertex),
// list -> flags by a scatter; and a fill for the identity-initialised
// accumulator array.
#include "internal.cuh"

namespace {

constexpr int kBlock = 256;

__global__ void __launch_bounds__(kBlock)
    flags_to_list_kernel(const uint8_t *__restrict__ flags, uint64_t n, uint32_t *__restrict__ list, uint32_t *pos) {
    const uint64_t step = (uint64_t)gridDim.x * kBlock;
    const uint32_t lane = threadIdx.x & 31;
    for (uint64_t base = (uint64_t)blockIdx.x * kBlock + (threadIdx.x & ~31u); base < n; base += step) {
        const uint64_t i = base + lane;
        const bool act = i < n && flags[i] != 0;
        const unsigned mask = __ballot_sync(0xffffffffu, act);
        if (mask == 0) continue;
        uint32_t b = 0;
        if (lane == 0) b = atomicAdd(pos, (uint32_t)__popc(mask));
        b = __shfl_sync(0xffffffffu, b, 0);
        if (act) list[b + __popc(mask & ((1u << lane) - 1))] = (uint32_t)i;
    }
}

__global__ void list_to_flags_kernel(const uint32_t *__restrict__ list, uint32_t count, uint8_t *__restrict__ flags) {
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (uint64_t)gridDim.x * blockDim.x)
        flags[list[i]] = 1;
}

__global__ void fill_kernel(uint32_t *p, uint64_t n, uint32_t value) {
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        p[i] = value;
}

unsigned grid_for(int dev, uint64_t n) {
    uint64_t g = (n + kBlock - 1) / kBlock;
    const uint64_t cap = (uint64_t)mg::multiprocessors(dev) * 8;
    if (g > cap) g = cap;
    return (unsigned)(g < 1 ? 1 : g);
}

}  // namespace

extern "C" {

int mg_flags_to_list(int dev, const uint8_t *flags, uint64_t n, uint32_t *list, uint32_t *pos, mg_stream s, char *err,
                     size_t errlen) {
    if (pos == NULL || (n > 0 && (flags == NULL || list == NULL)))
        return mg::invalid("mg_flags_to_list: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    MG_CHECK(cudaMemsetAsync(pos, 0, sizeof(uint32_t), st));
    if (n == 0) return MG_OK;
    flags_to_list_kernel<<<grid_for(dev, n), kBlock, 0, st>>>(flags, n, list, pos);
    MG_CHECK_LAUNCH("flags_to_list_kernel<<<grid, 256, 0, s>>>");
    return MG_OK;
}

int mg_list_to_flags(int dev, const uint32_t *list, uint32_t count, uint8_t *flags, uint64_t n, mg_stream s, char *err,
                     size_t errlen) {
    if (n > 0 && flags == NULL) return mg::invalid("mg_list_to_flags: NULL pointer", err, errlen);
    if (count > 0 && list == NULL) return mg::invalid("mg_list_to_flags: NULL list", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    if (n == 0) return MG_OK;
    MG_CHECK(cudaMemsetAsync(flags, 0, n, st));
    if (count == 0) return MG_OK;
    list_to_flags_kernel<<<grid_for(dev, count), kBlock, 0, st>>>(list, count, flags);
    MG_CHECK_LAUNCH("list_to_flags_kernel<<<grid, 256, 0, s>>>");
    return MG_OK;
}

int mg_fill_u32(int dev, uint32_t *p, uint64_t n, uint32_t value, mg_stream s, char *err, size_t errlen) {
    if (n > 0 && p == NULL) return mg::invalid("mg_fill_u32: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    if (n == 0) return MG_OK;
    fill_kernel<<<grid_for(dev, n), kBlock, 0, (cudaStream_t)s>>>(p, n, value);
    MG_CHECK_LAUNCH("fill_kernel<<<grid, 256, 0, s>>>");
    return MG_OK;
}

}  // extern "C"
