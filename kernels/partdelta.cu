// partdelta.cu — the device side of a partitioned pr-delta
// (partition.RunPageRankDelta with a device exchanger; docs/multigpu.md),
// over a part's PageRank state (partrank.cu): a superstep is PageRank's
// gather of the active vertices' shares (every other share 0), the
// ghosts' sums sent to their owners as PageRank's are, and the apply here:
// an owned vertex whose residual plus its sum exceeds eps absorbs it into
// its mass x and is active next, its share d·r/outdeg. Every kernel runs
// over the owned vertices (owned[i], layout ids); the partial sums go to
// sums[0..1] (the rank part's, zeroed first), which the run's all-reduce
// adds.
#include "internal.cuh"

namespace {

constexpr int kBlock = 256;
constexpr int kBlocksPerSM = 8;

using SumD = mg::SumOp<double, double>;

unsigned grid_for(int dev, uint64_t n) { return mg::grid_for(dev, n, kBlock, kBlocksPerSM); }

// add_sum adds the block's sum of a to sums[0] (one atomic per block).
// Every thread must call it.
__device__ __forceinline__ void add_sum(double a, double *sums) {
    a = mg::block_reduce<SumD, kBlock>(a);
    if (threadIdx.x == 0 && a != 0.0) atomicAdd(&sums[0], a);
}

// share_of is d·r/outdeg, 0 without out-arcs (that mass leaves the run; the
// normalisation puts it back).
__device__ __forceinline__ double share_of(const uint64_t *offsets, uint32_t v, double d, double r) {
    const uint64_t deg = offsets[v + 1] - offsets[v];
    return deg > 0 ? d * r / (double)deg : 0.0;
}

// start_kernel: every owned vertex absorbed its residual 1 and is active.
__global__ void __launch_bounds__(kBlock) start_kernel(mg_part_delta p, double d) {
    for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < p.num_owned; i += (uint64_t)gridDim.x * kBlock) {
        const uint32_t v = p.owned[i];
        p.x[v] = 1.0;
        p.residual[v] = 0.0;
        p.share[v] = share_of(p.offsets, v, d, 1.0);
    }
}

// apply_kernel: r = residual + acc (acc reset); above eps the vertex
// absorbs r and shares it next, else keeps it as residual and shares
// nothing; sums[0] counts the active ones.
__global__ void __launch_bounds__(kBlock) apply_kernel(mg_part_delta p, double d, double eps) {
    double active = 0.0;
    for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < p.num_owned; i += (uint64_t)gridDim.x * kBlock) {
        const uint32_t v = p.owned[i];
        const double r = p.residual[v] + p.acc[v];
        p.acc[v] = 0.0;
        if (r <= eps) {
            p.residual[v] = r;
            p.share[v] = 0.0;
            continue;
        }
        p.x[v] += r;
        p.residual[v] = 0.0;
        p.share[v] = share_of(p.offsets, v, d, r);
        active += 1.0;
    }
    add_sum(active, p.sums);
}

// mass_kernel: sums[0] = Σ x over the owned vertices.
__global__ void __launch_bounds__(kBlock) mass_kernel(mg_part_delta p) {
    double s = 0.0;
    for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < p.num_owned; i += (uint64_t)gridDim.x * kBlock)
        s += p.x[p.owned[i]];
    add_sum(s, p.sums);
}

// scale_kernel: x = x·scale (the ranks, once scale is 1/mass).
__global__ void __launch_bounds__(kBlock) scale_kernel(mg_part_delta p, double scale) {
    for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < p.num_owned; i += (uint64_t)gridDim.x * kBlock)
        p.x[p.owned[i]] *= scale;
}

}  // namespace

extern "C" {

int mg_part_delta_step(int dev, const mg_part_delta *p, int op, uint64_t n, double a, double b, char *err, size_t errlen) {
    if (p == NULL || p->sums == NULL ||
        (p->num_owned > 0 && (p->owned == NULL || p->offsets == NULL || p->x == NULL || p->residual == NULL ||
                              p->share == NULL || p->acc == NULL)))
        return mg::invalid("mg_part_delta_step: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    const uint64_t num = p->num_owned;
    MG_CHECK(cudaMemset(p->sums, 0, 2 * sizeof(double)));
    switch (op) {
    case MG_DELTA_START:
        if (n > 0) {
            MG_CHECK(cudaMemset(p->share, 0, n * sizeof(double)));
            MG_CHECK(cudaMemset(p->acc, 0, n * sizeof(double)));
        }
        if (num > 0) start_kernel<<<grid_for(dev, num), kBlock>>>(*p, a);
        break;
    case MG_DELTA_APPLY:
        if (num > 0) apply_kernel<<<grid_for(dev, num), kBlock>>>(*p, a, b);
        break;
    case MG_DELTA_MASS:
        if (num > 0) mass_kernel<<<grid_for(dev, num), kBlock>>>(*p);
        break;
    case MG_DELTA_SCALE:
        if (num > 0) scale_kernel<<<grid_for(dev, num), kBlock>>>(*p, a);
        break;
    default:
        return mg::invalid("mg_part_delta_step: unknown step", err, errlen);
    }
    MG_CHECK_LAUNCH("partdelta kernel<<<grid, 256>>>");
    MG_SYNC("mg_part_delta_step");
    return MG_OK;
}

}  // extern "C"
