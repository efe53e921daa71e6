// partrank.cu — the device side of a partitioned PageRank
// (partition.RunPageRank with a device exchanger; docs/multigpu.md). A part
// holds the arcs out of the vertices it owns, so every owned vertex's share
// (rank / out-degree) is known locally, and the pull gather of pagerank.cu
// (mg_pr_pull_gather) sums, for every vertex of the part's layout, the
// shares of its local in-neighbours: an owned vertex's partial sum, or a
// ghost's contribution to its owner. Each iteration then packs every
// ghost's sum into its owner's segment of the send buffer (the segments
// follow the ghosts' order, so no ids travel), the exchange moves the
// segments, unpacking adds them into the owned vertices' sums, and the
// apply step makes the new ranks and shares of the owned vertices with the
// part's partial sums of |Δr| and of the dangling rank, which an
// all-reduce adds over the parts.
#include "internal.cuh"

namespace {

constexpr int kBlock = 256;
constexpr int kBlocksPerSM = 8;
constexpr int kApplyUnroll = 4;  // owned vertices a thread of the apply takes a round (their loads in flight together)

using SumD = mg::SumOp<double, double>;
using SumU = mg::SumOp<uint64_t, uint64_t>;

unsigned grid_for(int dev, uint64_t n) { return mg::grid_for(dev, n, kBlock, kBlocksPerSM); }

using mg::Teleport;

// init_kernel: every owned vertex (owned[i], a layout id) gets rank r0·w
// (w its teleport weight) and share rank/outdeg (0 when dangling);
// *dangling counts the dangling ones whose rank is not 0.
__global__ void __launch_bounds__(kBlock)
    init_kernel(const uint64_t *__restrict__ offsets, const uint32_t *__restrict__ owned, uint64_t num_owned,
                double r0, Teleport tp, double *__restrict__ rank, double *__restrict__ share,
                unsigned long long *dangling) {
    uint64_t count = 0;
    const uint64_t stride = (uint64_t)gridDim.x * kBlock;
    for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < num_owned; i += stride) {
        const uint32_t v = owned[i];
        const uint64_t deg = offsets[v + 1] - offsets[v];
        const double r = r0 * tp.weight(v);
        rank[v] = r;
        share[v] = deg > 0 ? r / (double)deg : 0.0;
        count += deg == 0 && r != 0.0;
    }
    count = mg::block_reduce<SumU, kBlock>(count);
    if (threadIdx.x == 0 && count > 0) atomicAdd(dangling, (unsigned long long)count);
}

// pack_kernel: send[g] = the sum of ghost g (layout id ghost_lid[g]),
// which is reset to 0 for the next gather.
__global__ void __launch_bounds__(kBlock)
    pack_kernel(const uint32_t *__restrict__ ghost_lid, uint64_t num_ghosts, double *__restrict__ acc,
                double *__restrict__ send) {
    const uint64_t stride = (uint64_t)gridDim.x * kBlock;
    for (uint64_t g = (uint64_t)blockIdx.x * kBlock + threadIdx.x; g < num_ghosts; g += stride) {
        const uint32_t v = ghost_lid[g];
        send[g] = acc[v];
        acc[v] = 0.0;
    }
}

// unpack_kernel: acc[recv_lid[i]] += recv[i] (several parts may send sums
// for one vertex: atomics).
__global__ void __launch_bounds__(kBlock)
    unpack_kernel(const double *__restrict__ recv, const uint32_t *__restrict__ recv_lid, uint64_t count,
                  double *acc) {
    const uint64_t stride = (uint64_t)gridDim.x * kBlock;
    for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < count; i += stride) {
        const double x = recv[i];
        if (x != 0.0) atomicAdd(&acc[recv_lid[i]], x);
    }
}

// apply_kernel: every owned vertex v gets rank base·w + damping·acc[v] (w
// its teleport weight; acc reset to 0) and its share; sums[0] and sums[1] get the sums of |Δr| and
// of the dangling vertices' new rank (one atomic each per block). A
// thread takes kApplyUnroll owned vertices a round and issues all their
// loads before it computes (the ids, then the values they name), so that
// many loads are in flight: a grid-stride loop of one vertex at a time
// waits for each dependent load in turn (1.2 ms for R-MAT 25's half on an
// H100, where the whole graph's apply takes 0.57 ms).
__global__ void __launch_bounds__(kBlock)
    apply_kernel(const uint64_t *__restrict__ offsets, const uint32_t *__restrict__ owned, uint64_t num_owned,
                 double base, double damping, Teleport tp, double *__restrict__ rank, double *__restrict__ share,
                 double *__restrict__ acc, double *sums) {
    double delta = 0.0, dangling = 0.0;
    const uint64_t round = (uint64_t)kBlock * kApplyUnroll, stride = (uint64_t)gridDim.x * round;
    for (uint64_t i0 = (uint64_t)blockIdx.x * round + threadIdx.x; i0 < num_owned; i0 += stride) {
        uint32_t v[kApplyUnroll];
        double a[kApplyUnroll], old[kApplyUnroll];
        uint64_t deg[kApplyUnroll];
#pragma unroll
        for (int u = 0; u < kApplyUnroll; u++) {
            const uint64_t i = i0 + (uint64_t)u * kBlock;
            v[u] = i < num_owned ? owned[i] : 0u;
        }
#pragma unroll
        for (int u = 0; u < kApplyUnroll; u++) {
            if (i0 + (uint64_t)u * kBlock < num_owned) {
                a[u] = acc[v[u]];
                old[u] = rank[v[u]];
                deg[u] = offsets[v[u] + 1] - offsets[v[u]];
            }
        }
#pragma unroll
        for (int u = 0; u < kApplyUnroll; u++) {
            if (i0 + (uint64_t)u * kBlock < num_owned) {
                const double nr = base * tp.weight(v[u]) + damping * a[u];
                acc[v[u]] = 0.0;
                delta += fabs(nr - old[u]);
                rank[v[u]] = nr;
                if (deg[u] > 0) {
                    share[v[u]] = nr / (double)deg[u];
                } else {
                    share[v[u]] = 0.0;
                    dangling += nr;
                }
            }
        }
    }
    delta = mg::block_reduce<SumD, kBlock>(delta);
    __syncthreads();  // block_reduce's shared partials are reused
    dangling = mg::block_reduce<SumD, kBlock>(dangling);
    if (threadIdx.x == 0) {
        if (delta != 0.0) atomicAdd(&sums[0], delta);
        if (dangling != 0.0) atomicAdd(&sums[1], dangling);
    }
}

// gather_kernel: out[i] = rank[owned[i]].
__global__ void __launch_bounds__(kBlock)
    gather_kernel(const uint32_t *__restrict__ owned, uint64_t num_owned, const double *__restrict__ rank,
                  double *__restrict__ out) {
    const uint64_t stride = (uint64_t)gridDim.x * kBlock;
    for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < num_owned; i += stride)
        out[i] = rank[owned[i]];
}

// scatter_kernel: full[ids[i]] = vals[i].
__global__ void __launch_bounds__(kBlock)
    scatter_kernel(const double *__restrict__ vals, const uint32_t *__restrict__ ids, uint64_t count,
                   double *__restrict__ full) {
    const uint64_t stride = (uint64_t)gridDim.x * kBlock;
    for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < count; i += stride) full[ids[i]] = vals[i];
}

}  // namespace

extern "C" {

int mg_part_pr_init(int dev, const uint64_t *offsets, const uint32_t *owned, uint64_t num_owned, uint64_t n,
                    double r0, const uint32_t *teleport, double p, double *rank, double *share, double *acc,
                    uint64_t *dangling, char *err, size_t errlen) {
    if (offsets == NULL || dangling == NULL || (n > 0 && (rank == NULL || share == NULL || acc == NULL)) ||
        (num_owned > 0 && owned == NULL))
        return mg::invalid("mg_part_pr_init: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaMemset(dangling, 0, sizeof(uint64_t)));
    if (n > 0) {
        MG_CHECK(cudaMemset(share, 0, n * sizeof(double)));
        MG_CHECK(cudaMemset(acc, 0, n * sizeof(double)));
    }
    if (num_owned > 0) {
        init_kernel<<<grid_for(dev, num_owned), kBlock>>>(offsets, owned, num_owned, r0, Teleport{teleport, p}, rank,
                                                          share, (unsigned long long *)dangling);
        MG_CHECK_LAUNCH("init_kernel<<<grid, 256>>>");
    }
    MG_SYNC("mg_part_pr_init (init_kernel)");
    return MG_OK;
}

int mg_part_pr_pack(int dev, const uint32_t *ghost_lid, uint64_t num_ghosts, double *acc, double *send, char *err,
                    size_t errlen) {
    if (num_ghosts == 0) return MG_OK;
    if (ghost_lid == NULL || acc == NULL || send == NULL) return mg::invalid("mg_part_pr_pack: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    pack_kernel<<<grid_for(dev, num_ghosts), kBlock>>>(ghost_lid, num_ghosts, acc, send);
    MG_CHECK_LAUNCH("pack_kernel<<<grid, 256>>>");
    MG_SYNC("mg_part_pr_pack (pack_kernel)");
    return MG_OK;
}

int mg_part_pr_unpack(int dev, const double *recv, const uint32_t *recv_lid, uint64_t count, double *acc, char *err,
                      size_t errlen) {
    if (count == 0) return MG_OK;
    if (recv == NULL || recv_lid == NULL || acc == NULL)
        return mg::invalid("mg_part_pr_unpack: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    unpack_kernel<<<grid_for(dev, count), kBlock>>>(recv, recv_lid, count, acc);
    MG_CHECK_LAUNCH("unpack_kernel<<<grid, 256>>>");
    MG_SYNC("mg_part_pr_unpack (unpack_kernel)");
    return MG_OK;
}

int mg_part_pr_apply(int dev, const uint64_t *offsets, const uint32_t *owned, uint64_t num_owned, double base,
                     double damping, const uint32_t *teleport, double p, double *rank, double *share, double *acc,
                     double *sums, char *err, size_t errlen) {
    if (offsets == NULL || sums == NULL || (num_owned > 0 && (owned == NULL || rank == NULL || share == NULL || acc == NULL)))
        return mg::invalid("mg_part_pr_apply: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaMemset(sums, 0, 2 * sizeof(double)));
    if (num_owned > 0) {
        apply_kernel<<<grid_for(dev, (num_owned + kApplyUnroll - 1) / kApplyUnroll), kBlock>>>(
            offsets, owned, num_owned, base, damping, Teleport{teleport, p}, rank, share, acc, sums);
        MG_CHECK_LAUNCH("apply_kernel<<<grid, 256>>>");
    }
    MG_SYNC("mg_part_pr_apply (apply_kernel)");
    return MG_OK;
}

int mg_part_pr_gather(int dev, const uint32_t *owned, uint64_t num_owned, const double *rank, double *out, char *err,
                      size_t errlen) {
    if (num_owned == 0) return MG_OK;
    if (owned == NULL || rank == NULL || out == NULL) return mg::invalid("mg_part_pr_gather: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    gather_kernel<<<grid_for(dev, num_owned), kBlock>>>(owned, num_owned, rank, out);
    MG_CHECK_LAUNCH("gather_kernel<<<grid, 256>>>");
    MG_SYNC("mg_part_pr_gather (gather_kernel)");
    return MG_OK;
}

int mg_part_pr_scatter(int dev, const double *vals, const uint32_t *ids, uint64_t count, double *full, char *err,
                       size_t errlen) {
    if (count == 0) return MG_OK;
    if (vals == NULL || ids == NULL || full == NULL) return mg::invalid("mg_part_pr_scatter: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    scatter_kernel<<<grid_for(dev, count), kBlock>>>(vals, ids, count, full);
    MG_CHECK_LAUNCH("scatter_kernel<<<grid, 256>>>");
    MG_SYNC("mg_part_pr_scatter (scatter_kernel)");
    return MG_OK;
}

}  // extern "C"
