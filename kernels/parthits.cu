// parthits.cu — the device side of partitioned HITS and SALSA
// (partition.RunHITS with a device exchanger; docs/multigpu.md), over a
// part's PageRank state (partrank.cu): the authority step is PageRank's
// gather with every owned vertex's share its hub (SALSA: hub/outdeg), the
// ghosts' sums going to their owners as PageRank's do; the hub step sums,
// for every owned vertex, y over its out-arcs, y being the authority
// (SALSA: authority/in-degree) that each owner broadcasts to the parts that
// hold its vertex as a ghost. Every kernel here runs over the owned
// vertices (owned[i], layout ids); the partial sums go to sums[0..1] (the
// rank part's, zeroed first), which the run's all-reduce adds.
#include "internal.cuh"

namespace {

constexpr int kBlock = 256;
constexpr int kBlocksPerSM = 8;
constexpr int kRowLanes = 8;  // lanes that sum one owned vertex's out-row in the hub step

using SumD = mg::SumOp<double, double>;

unsigned grid_for(int dev, uint64_t n) { return mg::grid_for(dev, n, kBlock, kBlocksPerSM); }

// add_sums adds the block's sums of a and b to sums[0] and sums[1] (one
// atomic each per block). Every thread must call it.
__device__ __forceinline__ void add_sums(double a, double b, double *sums) {
    a = mg::block_reduce<SumD, kBlock>(a);
    __syncthreads();  // block_reduce's shared partials are reused
    b = mg::block_reduce<SumD, kBlock>(b);
    if (threadIdx.x == 0) {
        if (a != 0.0) atomicAdd(&sums[0], a);
        if (b != 0.0) atomicAdd(&sums[1], b);
    }
}

__device__ __forceinline__ uint64_t outdeg(const uint64_t *offsets, uint32_t v) { return offsets[v + 1] - offsets[v]; }

// share_kernel: share[v] = 1 (hub NULL: the in-degree count), hub[v], or
// for SALSA hub[v]/outdeg (0 without out-arcs).
__global__ void __launch_bounds__(kBlock)
    share_kernel(const uint64_t *__restrict__ offsets, const uint32_t *__restrict__ owned, uint64_t num,
                 const double *__restrict__ hub, int salsa, double *__restrict__ share) {
    for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < num; i += (uint64_t)gridDim.x * kBlock) {
        const uint32_t v = owned[i];
        double x = 1.0;
        if (hub != nullptr) {
            x = hub[v];
            if (salsa) {
                const uint64_t d = outdeg(offsets, v);
                x = d > 0 ? x / (double)d : 0.0;
            }
        }
        share[v] = x;
    }
}

// counts_kernel: cnt[v] = acc[v] (the in-degree over all parts, after the
// unpackaging), acc reset to 0; sums: the vertices with out-arcs and those
// with in-arcs.
__global__ void __launch_bounds__(kBlock)
    counts_kernel(const uint64_t *__restrict__ offsets, const uint32_t *__restrict__ owned, uint64_t num,
                  double *__restrict__ acc, double *__restrict__ cnt, double *sums) {
    double with_out = 0.0, with_in = 0.0;
    for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < num; i += (uint64_t)gridDim.x * kBlock) {
        const uint32_t v = owned[i];
        const double c = acc[v];
        acc[v] = 0.0;
        cnt[v] = c;
        with_out += outdeg(offsets, v) > 0;
        with_in += c > 0.0;
    }
    add_sums(with_out, with_in, sums);
}

// start_kernel: HITS: hub = auth = h0 (1/n); SALSA: hub = h0 (1 / the
// vertices with out-arcs) where there are out-arcs, auth = a0 where there
// are in-arcs, 0 elsewhere.
__global__ void __launch_bounds__(kBlock)
    start_kernel(const uint64_t *__restrict__ offsets, const uint32_t *__restrict__ owned, uint64_t num, int salsa,
                 double h0, double a0, const double *__restrict__ cnt, double *__restrict__ hub,
                 double *__restrict__ auth) {
    for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < num; i += (uint64_t)gridDim.x * kBlock) {
        const uint32_t v = owned[i];
        hub[v] = !salsa || outdeg(offsets, v) > 0 ? h0 : 0.0;
        auth[v] = !salsa || cnt[v] > 0.0 ? a0 : 0.0;
    }
}

// owned_sum_kernel: sums[0] = Σ x[v] over the owned vertices.
__global__ void __launch_bounds__(kBlock)
    owned_sum_kernel(const uint32_t *__restrict__ owned, uint64_t num, const double *__restrict__ x, double *sums) {
    double s = 0.0;
    for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < num; i += (uint64_t)gridDim.x * kBlock)
        s += x[owned[i]];
    add_sums(s, 0.0, sums);
}

// auth_kernel: auth[v] = acc[v]·scale (acc reset to 0), sums[1] = Σ|Δauth|;
// y[v], what the hub step reads, is the new authority, or for SALSA
// authority/in-degree (0 without in-arcs).
__global__ void __launch_bounds__(kBlock)
    auth_kernel(const uint32_t *__restrict__ owned, uint64_t num, double scale, int salsa,
                const double *__restrict__ cnt, double *__restrict__ acc, double *__restrict__ auth,
                double *__restrict__ y, double *sums) {
    double change = 0.0;
    for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < num; i += (uint64_t)gridDim.x * kBlock) {
        const uint32_t v = owned[i];
        const double a = acc[v] * scale;
        acc[v] = 0.0;
        change += fabs(a - auth[v]);
        auth[v] = a;
        y[v] = !salsa ? a : (cnt[v] > 0.0 ? a / cnt[v] : 0.0);
    }
    add_sums(0.0, change, sums);
}

// hub_kernel: next[v] = Σ y[w] over owned v's out-arcs (kRowLanes lanes a
// vertex), sums[0] = Σ next.
__global__ void __launch_bounds__(kBlock)
    hub_kernel(const uint64_t *__restrict__ offsets, const uint32_t *__restrict__ dst,
               const uint32_t *__restrict__ owned, uint64_t num, const double *__restrict__ y,
               double *__restrict__ next, double *sums) {
    static_assert(32 % kRowLanes == 0, "a vertex's lanes are in one warp");
    const uint32_t lane = threadIdx.x % kRowLanes;
    const uint64_t groups = (uint64_t)gridDim.x * (kBlock / kRowLanes);
    double total = 0.0;
    // Rounds are block-uniform, so every lane reaches the shuffles.
    for (uint64_t base = (uint64_t)blockIdx.x * (kBlock / kRowLanes); base < num; base += groups) {
        const uint64_t i = base + threadIdx.x / kRowLanes;
        double x = 0.0;
        uint32_t v = 0;
        if (i < num) {
            v = owned[i];
            for (uint64_t e = offsets[v] + lane; e < offsets[v + 1]; e += kRowLanes) x += y[dst[e]];
        }
#pragma unroll
        for (int o = kRowLanes / 2; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
        if (i < num && lane == 0) {
            next[v] = x;
            total += x;
        }
    }
    add_sums(total, 0.0, sums);
}

// hub_apply_kernel: hub[v] = next[v]·scale, sums[0] = Σ|Δhub|.
__global__ void __launch_bounds__(kBlock)
    hub_apply_kernel(const uint32_t *__restrict__ owned, uint64_t num, double scale, const double *__restrict__ next,
                     double *__restrict__ hub, double *sums) {
    double change = 0.0;
    for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < num; i += (uint64_t)gridDim.x * kBlock) {
        const uint32_t v = owned[i];
        const double h = next[v] * scale;
        change += fabs(h - hub[v]);
        hub[v] = h;
    }
    add_sums(change, 0.0, sums);
}

// bcast_pack_kernel: send[i] = y[lid[i]] (an owned vertex's value for a
// part that holds it as a ghost).
__global__ void __launch_bounds__(kBlock)
    bcast_pack_kernel(const double *__restrict__ y, const uint32_t *__restrict__ lid, uint64_t count,
                      double *__restrict__ send) {
    for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < count; i += (uint64_t)gridDim.x * kBlock)
        send[i] = y[lid[i]];
}

// bcast_unpack_kernel: y[ghost_lid[g]] = recv[g] (a ghost takes its
// owner's value).
__global__ void __launch_bounds__(kBlock)
    bcast_unpack_kernel(const double *__restrict__ recv, const uint32_t *__restrict__ ghost_lid, uint64_t num_ghosts,
                        double *__restrict__ y) {
    for (uint64_t g = (uint64_t)blockIdx.x * kBlock + threadIdx.x; g < num_ghosts; g += (uint64_t)gridDim.x * kBlock)
        y[ghost_lid[g]] = recv[g];
}

}  // namespace

extern "C" {

int mg_part_hits_step(int dev, const mg_part_hits *h, int op, double a, double b, char *err, size_t errlen) {
    if (h == NULL || h->sums == NULL || (h->num_owned > 0 && (h->owned == NULL || h->offsets == NULL)))
        return mg::invalid("mg_part_hits_step: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    const uint64_t n = h->num_owned;
    // The steps that make sums zero them first; the hub steps keep sums[1],
    // the authorities' change, so that it travels with their sums.
    if (op == MG_HITS_COUNTS || op == MG_HITS_ACC_SUM || op == MG_HITS_AUTH)
        MG_CHECK(cudaMemset(h->sums, 0, 2 * sizeof(double)));
    if (op == MG_HITS_HUB || op == MG_HITS_HUB_APPLY) MG_CHECK(cudaMemset(h->sums, 0, sizeof(double)));
    switch (op) {
    case MG_HITS_SHARE:
    case MG_HITS_SHARE_ONES:
        if (n > 0 && (h->share == NULL || (op == MG_HITS_SHARE && h->hub == NULL)))
            return mg::invalid("mg_part_hits_step: NULL share or hub", err, errlen);
        if (n > 0) share_kernel<<<grid_for(dev, n), kBlock>>>(h->offsets, h->owned, n, op == MG_HITS_SHARE ? h->hub : nullptr, h->salsa, h->share);
        break;
    case MG_HITS_COUNTS:
        if (n > 0) counts_kernel<<<grid_for(dev, n), kBlock>>>(h->offsets, h->owned, n, h->acc, h->cnt, h->sums);
        break;
    case MG_HITS_START:
        if (n > 0) start_kernel<<<grid_for(dev, n), kBlock>>>(h->offsets, h->owned, n, h->salsa, a, b, h->cnt, h->hub, h->auth);
        break;
    case MG_HITS_ACC_SUM:
        if (n > 0) owned_sum_kernel<<<grid_for(dev, n), kBlock>>>(h->owned, n, h->acc, h->sums);
        break;
    case MG_HITS_AUTH:
        if (n > 0) auth_kernel<<<grid_for(dev, n), kBlock>>>(h->owned, n, a, h->salsa, h->cnt, h->acc, h->auth, h->y, h->sums);
        break;
    case MG_HITS_HUB:
        // dst may be NULL: a part without arcs (every row empty, never read).
        if (n > 0)
            hub_kernel<<<grid_for(dev, (n + kBlock / kRowLanes - 1) / (kBlock / kRowLanes)), kBlock>>>(h->offsets, h->dst, h->owned, n, h->y, h->next, h->sums);
        break;
    case MG_HITS_HUB_APPLY:
        if (n > 0) hub_apply_kernel<<<grid_for(dev, n), kBlock>>>(h->owned, n, a, h->next, h->hub, h->sums);
        break;
    case MG_HITS_BCAST_PACK:
        if (h->num_send > 0) {
            if (h->send_lid == NULL || h->send == NULL) return mg::invalid("mg_part_hits_step: NULL broadcast send", err, errlen);
            bcast_pack_kernel<<<grid_for(dev, h->num_send), kBlock>>>(h->y, h->send_lid, h->num_send, h->send);
        }
        break;
    case MG_HITS_BCAST_UNPACK:
        if (h->num_ghosts > 0) {
            if (h->ghost_lid == NULL || h->recv == NULL) return mg::invalid("mg_part_hits_step: NULL broadcast receive", err, errlen);
            bcast_unpack_kernel<<<grid_for(dev, h->num_ghosts), kBlock>>>(h->recv, h->ghost_lid, h->num_ghosts, h->y);
        }
        break;
    default:
        return mg::invalid("mg_part_hits_step: unknown step", err, errlen);
    }
    MG_CHECK_LAUNCH("parthits kernel<<<grid, 256>>>");
    MG_SYNC("mg_part_hits_step");
    return MG_OK;
}

}  // extern "C"
