// partmsf.cu — the device side of the minimum spanning forest over parts
// (partition.RunMSF on GPU backends; docs/multigpu.md): each Borůvka
// round, every owned vertex's lightest edge to a vertex of another
// component, over its row of the part's layout, in MSF's total order
// (weight, then the lesser end's original id, then the greater's). The
// host combines them per component and hooks.
#include "internal.cuh"

namespace {

constexpr int kBlock = 256;
constexpr int kBlocksPerSM = 8;
constexpr int kWarp = 32;
constexpr int kWarpsPerBlock = kBlock / kWarp;
constexpr uint32_t kFull = 0xffffffffu;
constexpr uint32_t kNone = 0xffffffffu;

unsigned grid_for(int dev, uint64_t n) { return mg::grid_for(dev, n, kBlock, kBlocksPerSM); }

// less is MSF's order over (w, u, v) triples.
__device__ __forceinline__ bool less(uint32_t w, uint32_t u, uint32_t v, uint32_t w2, uint32_t u2, uint32_t v2) {
    if (w != w2) return w < w2;
    if (u != u2) return u < u2;
    return v < v2;
}

// lightest_kernel: a warp an owned vertex (owned[i], its layout id): each
// lane keeps the least edge of its arcs whose other end's component
// differs, the warp reduces them; out[i] = (w, u, v), u < v original ids,
// or (kNone, kNone, kNone) without one.
__global__ void __launch_bounds__(kBlock)
    lightest_kernel(const uint64_t *__restrict__ offsets, const uint32_t *__restrict__ dst,
                    const uint32_t *__restrict__ weights, const uint32_t *__restrict__ owned, uint64_t num_owned,
                    const uint32_t *__restrict__ orig, const uint32_t *__restrict__ comp, uint32_t *__restrict__ out) {
    const uint32_t lane = threadIdx.x % kWarp;
    for (uint64_t i = ((uint64_t)blockIdx.x * kBlock + threadIdx.x) / kWarp; i < num_owned;
         i += (uint64_t)gridDim.x * kWarpsPerBlock) {
        const uint32_t x = owned[i], cx = comp[x], ox = orig[x];
        uint32_t bw = kNone, bu = kNone, bv = kNone;
        for (uint64_t e = offsets[x] + lane; e < offsets[x + 1]; e += kWarp) {
            const uint32_t d = dst[e];
            if (comp[d] == cx) continue;  // a self-loop too
            const uint32_t od = orig[d], w = weights != nullptr ? weights[e] : 1u;
            const uint32_t u = min(ox, od), v = max(ox, od);
            if (less(w, u, v, bw, bu, bv)) bw = w, bu = u, bv = v;
        }
#pragma unroll
        for (int o = kWarp / 2; o > 0; o >>= 1) {
            const uint32_t w = __shfl_xor_sync(kFull, bw, o), u = __shfl_xor_sync(kFull, bu, o),
                           v = __shfl_xor_sync(kFull, bv, o);
            if (less(w, u, v, bw, bu, bv)) bw = w, bu = u, bv = v;
        }
        if (lane == 0) {
            out[3 * i] = bw;
            out[3 * i + 1] = bu;
            out[3 * i + 2] = bv;
        }
    }
}

}  // namespace

extern "C" {

int mg_part_msf_lightest(int dev, const uint64_t *offsets, const uint32_t *dst, const uint32_t *weights,
                         const uint32_t *owned, uint64_t num_owned, const uint32_t *orig, const uint32_t *comp,
                         uint32_t *out, char *err, size_t errlen) {
    if (num_owned > 0 && (offsets == NULL || owned == NULL || orig == NULL || comp == NULL || out == NULL))
        return mg::invalid("mg_part_msf_lightest: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    if (num_owned > 0) {
        lightest_kernel<<<grid_for(dev, (num_owned + kWarpsPerBlock - 1) / kWarpsPerBlock), kBlock>>>(
            offsets, dst, weights, owned, num_owned, orig, comp, out);
        MG_CHECK_LAUNCH("lightest_kernel<<<grid, 256>>>");
    }
    MG_SYNC("mg_part_msf_lightest");
    return MG_OK;
}

}  // extern "C"
