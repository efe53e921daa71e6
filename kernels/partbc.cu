// partbc.cu — the device side of a partitioned betweenness centrality
// (partition.RunBC with a device exchanger; docs/multigpu.md). A part
// holds every arc out of the vertices it owns; its levels, path counts σ,
// offers (1+δ)/σ and scores stay on its device, over its layout.
//
// Forward level d: the owned vertices at level d−1 (a slice of order)
// claim their unreached out-neighbours for level d with a compare-and-swap
// (owned ones are appended to order, ghosts to claimed); every vertex
// claimed sums σ over its in-row (the layout's in-adjacency; its
// in-neighbours are owned, their σ final), a warp per vertex; every ghost's
// sum goes to its slot of ghost_buf (0: not claimed at this level), which
// the exchange delivers to the owners, segment by segment, into their
// copy_buf; the owners then take the sums part after part (a vertex still
// unreached takes level d, one at level d adds the sum), so σ is added in
// the same order as on the host (the owner's own sum, then the parts by
// index) and does not depend on scheduling.
//
// Backward level d: the owners publish the offers of their vertices at
// level d+1 into copy_buf (MG_PART_BC_NO_OFFER for the others), the
// exchange brings them to the parts that hold them as ghosts (ghost_buf),
// which take them for their ghosts at level d+1 and unmark those whose
// owner published none (claimed later than their level); then every owned
// vertex v at level d pulls the offers over its out-row, a warp per
// vertex: δ(v) = σ(v)·Σ offer(w), offer(v) = (1+δ)/σ(v), score(v) += δ.
//
// Forward and backward wait for the device (their time is the part's
// compute); start, receive, publish and the counters' copy are queued and
// do not wait: start on the legacy default stream, before the forward
// level that waits; receive, publish and the copy on the stream given,
// which the NCCL link makes its rank's (the exchanges, the sums taken, the
// all-reduce and the counters' copy of a level queued in order there, one
// wait), and the peer link the default one (the copies and the host's
// counters read behind them).
//
// Every sum over a row is a warp's (a block's for a row of more than
// MG_PART_BC_HUB_ARCS arcs, listed by its warp for a second kernel): each
// thread adds its arcs in row order, then the warp or block reduces in a
// fixed tree, so a run's scores do not depend on scheduling (they may
// differ in the last bits from the host's sequential sums).
#include <cooperative_groups.h>

#include "internal.cuh"

namespace cg = cooperative_groups;

namespace {

constexpr int kBlock = 256;
constexpr int kBlocksPerSM = 8;
constexpr int kWarp = 32;
constexpr int kWarpsPerBlock = kBlock / kWarp;
// kWarpBlocksPerSM caps the blocks of a warp-per-vertex launch per SM.
constexpr int kWarpBlocksPerSM = 16;
constexpr uint32_t kUnvisited = MG_PART_BC_UNVISITED;
constexpr double kNoOffer = MG_PART_BC_NO_OFFER;
constexpr uint64_t kHubArcs = MG_PART_BC_HUB_ARCS;
constexpr uint32_t kFullMask = 0xffffffffu;

using SumD = mg::SumOp<double, double>;

unsigned grid_for(int dev, uint64_t n) { return mg::grid_for(dev, n, kBlock, kBlocksPerSM); }

// warp_grid returns the blocks of a warp-per-item launch over items.
unsigned warp_grid(int dev, uint64_t items) {
    return mg::grid_for(dev, items, kWarpsPerBlock, kWarpBlocksPerSM);
}

__device__ __forceinline__ bool is_ghost(const uint32_t *__restrict__ bits, uint32_t v) {
    return (bits[v >> 5] >> (v & 31u)) & 1u;
}

// append_slot returns the next free slot of a list whose length is
// *count (mg::append_slot: one atomic per group of threads that call it
// together).
__device__ __forceinline__ uint64_t append_slot(uint64_t *count) {
    return mg::append_slot(reinterpret_cast<unsigned long long *>(count));
}

// list_hub lists vertex v, whose row has len arcs, for a block of its own
// when the row is longer than kHubArcs and the list has room (lane 0
// takes the slot), and returns, the same in every lane of the warp,
// whether it did. Every lane must call it.
__device__ __forceinline__ bool list_hub(const mg_part_bc &p, uint32_t v, uint64_t len, uint32_t lane) {
    if (len <= kHubArcs) return false;  // uniform across the warp
    int listed = 0;
    if (lane == 0) {
        const unsigned long long k = atomicAdd((unsigned long long *)&p.ctr->hubs, 1ull);
        if (k < p.hub_cap) {
            p.hub_list[k] = v;
            listed = 1;
        }
    }
    return __shfl_sync(kFullMask, listed, 0) != 0;
}

// listed_hubs is the number of rows listed (the counter goes on past the
// list's capacity; those rows were done by their warps).
__device__ __forceinline__ uint64_t listed_hubs(const mg_part_bc &p) {
    const uint64_t k = *(volatile uint64_t *)&p.ctr->hubs;
    return k < p.hub_cap ? k : p.hub_cap;
}

__global__ void start_kernel(mg_part_bc p, uint32_t source) {
    p.level[source] = 0;
    p.sigma[source] = 1.0;
    p.order[0] = source;
}

// claim_row: the threads first, first+stride, … of u's out-row claim its
// unreached destinations for level d; an owned one is appended to order
// from base, a ghost to claimed.
__device__ __forceinline__ void claim_row(const mg_part_bc &p, uint32_t d, uint32_t u, uint64_t base, uint32_t first,
                                          uint32_t stride) {
    const uint64_t hi = p.offsets[u + 1];
    for (uint64_t e = p.offsets[u] + first; e < hi; e += stride) {
        const uint32_t v = p.dst[e];
        if (p.level[v] != kUnvisited || atomicCAS(&p.level[v], kUnvisited, d) != kUnvisited) continue;
        if (is_ghost(p.ghost_bits, v)) {
            p.claimed[append_slot(&p.ctr->ghosts)] = v;
        } else {
            p.order[base + append_slot(&p.ctr->count)] = v;
        }
    }
}

// claim_kernel: a warp per frontier vertex u = front[i] claims u's
// unreached out-neighbours for level d (a hub's row is listed for
// claim_hub_kernel).
__global__ void __launch_bounds__(kBlock)
    claim_kernel(mg_part_bc p, uint32_t d, const uint32_t *__restrict__ front, uint64_t count, uint64_t base) {
    const uint32_t lane = threadIdx.x & (kWarp - 1);
    const uint64_t step = (uint64_t)gridDim.x * kWarpsPerBlock;
    for (uint64_t i = (uint64_t)blockIdx.x * kWarpsPerBlock + threadIdx.x / kWarp; i < count; i += step) {
        const uint32_t u = front[i];
        if (list_hub(p, u, p.offsets[u + 1] - p.offsets[u], lane)) continue;
        claim_row(p, d, u, base, lane, kWarp);
    }
}

// claim_hub_kernel: a block per listed row.
__global__ void __launch_bounds__(kBlock) claim_hub_kernel(mg_part_bc p, uint32_t d, uint64_t base) {
    const uint64_t hubs = listed_hubs(p);
    for (uint64_t k = blockIdx.x; k < hubs; k += gridDim.x) claim_row(p, d, p.hub_list[k], base, threadIdx.x, kBlock);
}

// sigma_row returns the threads' part (first, first+stride, …) of the sum
// of σ over v's in-neighbours at level d−1.
__device__ __forceinline__ double sigma_row(const mg_part_bc &p, uint32_t d, uint32_t v, uint32_t first,
                                            uint32_t stride) {
    const uint64_t hi = p.in_offsets[v + 1];
    double s = 0.0;
    for (uint64_t e = p.in_offsets[v] + first; e < hi; e += stride) {
        const uint32_t u = p.in_src[e];
        if (p.level[u] == d - 1) s += p.sigma[u];
    }
    return s;
}

// claimed_vertex is item i of the vertices claimed at level d: the owned
// ones, order[base ..) (owned of them), then the ghosts.
__device__ __forceinline__ uint32_t claimed_vertex(const mg_part_bc &p, uint64_t i, uint64_t base, uint64_t owned) {
    return i < owned ? p.order[base + i] : p.claimed[i - owned];
}

// sigma_kernel: a warp per vertex claimed at level d (order[base ..
// base+ctr->count), then claimed[0 .. ctr->ghosts)) sets its σ to the sum
// of σ over its in-neighbours at level d−1 (a hub's row is listed for
// sigma_hub_kernel).
__global__ void __launch_bounds__(kBlock) sigma_kernel(mg_part_bc p, uint32_t d, uint64_t base) {
    const uint64_t owned = *(volatile uint64_t *)&p.ctr->count;
    const uint64_t total = owned + *(volatile uint64_t *)&p.ctr->ghosts;
    const uint32_t lane = threadIdx.x & (kWarp - 1);
    const uint64_t step = (uint64_t)gridDim.x * kWarpsPerBlock;
    for (uint64_t i = (uint64_t)blockIdx.x * kWarpsPerBlock + threadIdx.x / kWarp; i < total; i += step) {
        const uint32_t v = claimed_vertex(p, i, base, owned);
        if (list_hub(p, v, p.in_offsets[v + 1] - p.in_offsets[v], lane)) continue;
        const double s = mg::warp_reduce<SumD>(sigma_row(p, d, v, lane, kWarp));
        if (lane == 0) p.sigma[v] = s;
    }
}

// sigma_hub_kernel: a block per listed row.
__global__ void __launch_bounds__(kBlock) sigma_hub_kernel(mg_part_bc p, uint32_t d) {
    const uint64_t hubs = listed_hubs(p);
    for (uint64_t k = blockIdx.x; k < hubs; k += gridDim.x) {  // uniform across the block
        const uint32_t v = p.hub_list[k];
        const double s = mg::block_reduce<SumD, kBlock>(sigma_row(p, d, v, threadIdx.x, kBlock));
        if (threadIdx.x == 0) p.sigma[v] = s;
        __syncthreads();  // block_reduce's shared partials are reused
    }
}

// pack_kernel: ghost_buf[g] = σ of ghost g if the level claimed it, else 0.
__global__ void __launch_bounds__(kBlock) pack_kernel(mg_part_bc p, uint32_t d) {
    const uint64_t stride = (uint64_t)gridDim.x * kBlock;
    for (uint64_t g = (uint64_t)blockIdx.x * kBlock + threadIdx.x; g < p.num_ghosts; g += stride) {
        const uint32_t v = p.ghost_lid[g];
        p.ghost_buf[g] = p.level[v] == d ? p.sigma[v] : 0.0;
    }
}

// receive_kernel takes the σ sums copy_buf[lo .. hi) of one part (distinct
// vertices: no two threads meet).
__global__ void __launch_bounds__(kBlock)
    receive_kernel(mg_part_bc p, uint32_t d, uint64_t base, uint64_t lo, uint64_t hi) {
    const uint64_t stride = (uint64_t)gridDim.x * kBlock;
    for (uint64_t i = lo + (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < hi; i += stride) {
        const double s = p.copy_buf[i];
        if (s == 0.0) continue;
        const uint32_t v = p.recv_lid[i];
        const uint32_t lv = p.level[v];
        if (lv == kUnvisited) {
            p.level[v] = d;
            p.sigma[v] = s;
            p.order[base + append_slot(&p.ctr->count)] = v;
        } else if (lv == d) {
            p.sigma[v] += s;
        }
    }
}

// publish_kernel: copy_buf[i] = the offer of copy i's vertex at level d+1,
// or kNoOffer.
__global__ void __launch_bounds__(kBlock) publish_kernel(mg_part_bc p, uint32_t d) {
    const uint64_t stride = (uint64_t)gridDim.x * kBlock;
    for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < p.num_recv; i += stride) {
        const uint32_t v = p.recv_lid[i];
        p.copy_buf[i] = p.level[v] == d + 1 ? p.offer[v] : kNoOffer;
    }
}

// take_kernel: every ghost at level d+1 takes its owner's offer, or is
// unmarked when the owner has it at another level.
__global__ void __launch_bounds__(kBlock) take_kernel(mg_part_bc p, uint32_t d) {
    const uint64_t stride = (uint64_t)gridDim.x * kBlock;
    for (uint64_t g = (uint64_t)blockIdx.x * kBlock + threadIdx.x; g < p.num_ghosts; g += stride) {
        const uint32_t v = p.ghost_lid[g];
        if (p.level[v] != d + 1) continue;
        const double x = p.ghost_buf[g];
        if (x == kNoOffer) {
            p.level[v] = kUnvisited;
        } else {
            p.offer[v] = x;
        }
    }
}

// offer_row returns the threads' part (first, first+stride, …) of the sum
// of the offers over v's out-neighbours at level d+1.
__device__ __forceinline__ double offer_row(const mg_part_bc &p, uint32_t d, uint32_t v, uint32_t first,
                                            uint32_t stride) {
    const uint64_t hi = p.offsets[v + 1];
    double acc = 0.0;
    for (uint64_t e = p.offsets[v] + first; e < hi; e += stride) {
        const uint32_t w = p.dst[e];
        if (p.level[w] == d + 1) acc += p.offer[w];
    }
    return acc;
}

// depend sets v's dependency from acc, the sum of its successors' offers.
__device__ __forceinline__ void depend(const mg_part_bc &p, uint32_t v, double acc) {
    const double sv = p.sigma[v];
    const double delta = sv * acc;
    p.offer[v] = (1.0 + delta) / sv;
    p.score[v] += delta;
}

// backward_kernel: a warp per owned vertex v = verts[i] at level d (a
// hub's row is listed for backward_hub_kernel).
__global__ void __launch_bounds__(kBlock)
    backward_kernel(mg_part_bc p, uint32_t d, const uint32_t *__restrict__ verts, uint64_t count) {
    const uint32_t lane = threadIdx.x & (kWarp - 1);
    const uint64_t step = (uint64_t)gridDim.x * kWarpsPerBlock;
    for (uint64_t i = (uint64_t)blockIdx.x * kWarpsPerBlock + threadIdx.x / kWarp; i < count; i += step) {
        const uint32_t v = verts[i];
        if (list_hub(p, v, p.offsets[v + 1] - p.offsets[v], lane)) continue;
        const double acc = mg::warp_reduce<SumD>(offer_row(p, d, v, lane, kWarp));
        if (lane == 0) depend(p, v, acc);
    }
}

// backward_hub_kernel: a block per listed row.
__global__ void __launch_bounds__(kBlock) backward_hub_kernel(mg_part_bc p, uint32_t d) {
    const uint64_t hubs = listed_hubs(p);
    for (uint64_t k = blockIdx.x; k < hubs; k += gridDim.x) {  // uniform across the block
        const uint32_t v = p.hub_list[k];
        const double acc = mg::block_reduce<SumD, kBlock>(offer_row(p, d, v, threadIdx.x, kBlock));
        if (threadIdx.x == 0) depend(p, v, acc);
        __syncthreads();  // block_reduce's shared partials are reused
    }
}

// check_state returns MG_OK when p's arrays are there for its sizes.
int check_state(const mg_part_bc *p, const char *what, char *err, size_t errlen) {
    if (p == NULL || p->ctr == NULL) return mg::invalid(what, err, errlen);
    if (p->n > 0 && (p->offsets == NULL || p->in_offsets == NULL || p->ghost_bits == NULL || p->level == NULL ||
                     p->sigma == NULL || p->offer == NULL || p->score == NULL))
        return mg::invalid(what, err, errlen);
    if (p->num_local > 0 && p->order == NULL) return mg::invalid(what, err, errlen);
    if (p->num_ghosts > 0 && (p->ghost_lid == NULL || p->claimed == NULL || p->ghost_buf == NULL))
        return mg::invalid(what, err, errlen);
    if (p->num_recv > 0 && (p->recv_lid == NULL || p->copy_buf == NULL)) return mg::invalid(what, err, errlen);
    if (p->hub_cap > 0 && p->hub_list == NULL) return mg::invalid(what, err, errlen);
    return MG_OK;
}

// hub_grid is the grid of the hub kernels and of sigma_kernel: the most
// blocks resident.
unsigned hub_grid(int dev) { return (unsigned)mg::multiprocessors(dev) * kBlocksPerSM; }

// clear_hubs empties the hub list (queued).
int clear_hubs(const mg_part_bc *p, char *err, size_t errlen) {
    MG_CHECK(cudaMemset(&p->ctr->hubs, 0, sizeof(uint64_t)));
    return MG_OK;
}

}  // namespace

extern "C" {

int mg_part_bc_start(int dev, const mg_part_bc *p, uint32_t source, char *err, size_t errlen) {
    if (int rc = check_state(p, "mg_part_bc_start: NULL pointer", err, errlen)) return rc;
    if (source != kUnvisited && (uint64_t)source >= p->n)
        return mg::invalid("mg_part_bc_start: source out of range", err, errlen);
    if (source != kUnvisited && p->num_local == 0)
        return mg::invalid("mg_part_bc_start: a source on a part without vertices", err, errlen);
    MG_SET_DEVICE(dev);
    if (p->n > 0) MG_CHECK(cudaMemset(p->level, 0xff, p->n * sizeof(uint32_t)));
    if (source != kUnvisited) {
        start_kernel<<<1, 1>>>(*p, source);
        MG_CHECK_LAUNCH("start_kernel<<<1, 1>>>");
    }
    // No wait: the forward level that follows is queued after it on the
    // same stream, and waits.
    return MG_OK;
}

int mg_part_bc_forward(int dev, const mg_part_bc *p, uint32_t d, uint64_t front_start, uint64_t front_count,
                       char *err, size_t errlen) {
    if (int rc = check_state(p, "mg_part_bc_forward: NULL pointer", err, errlen)) return rc;
    if (d == 0 || d == kUnvisited) return mg::invalid("mg_part_bc_forward: level out of range", err, errlen);
    if (front_start > p->num_local || front_count > p->num_local - front_start)
        return mg::invalid("mg_part_bc_forward: frontier outside order", err, errlen);
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaMemset(p->ctr, 0, sizeof(mg_part_bc_counters)));
    if (front_count > 0) {
        const uint64_t base = front_start + front_count;
        claim_kernel<<<warp_grid(dev, front_count), kBlock>>>(*p, d, p->order + front_start, front_count, base);
        MG_CHECK_LAUNCH("claim_kernel<<<grid, 256>>>");
        claim_hub_kernel<<<hub_grid(dev), kBlock>>>(*p, d, base);
        MG_CHECK_LAUNCH("claim_hub_kernel<<<SMs·8, 256>>>");
        if (int rc = clear_hubs(p, err, errlen)) return rc;
        // The claimed count stays on the device: the grid is the most
        // blocks resident, warps without a vertex leaving at once.
        sigma_kernel<<<hub_grid(dev), kBlock>>>(*p, d, base);
        MG_CHECK_LAUNCH("sigma_kernel<<<SMs·8, 256>>>");
        sigma_hub_kernel<<<hub_grid(dev), kBlock>>>(*p, d);
        MG_CHECK_LAUNCH("sigma_hub_kernel<<<SMs·8, 256>>>");
    }
    if (p->num_ghosts > 0) {
        pack_kernel<<<grid_for(dev, p->num_ghosts), kBlock>>>(*p, d);
        MG_CHECK_LAUNCH("pack_kernel<<<grid, 256>>>");
    }
    MG_SYNC("mg_part_bc_forward (claim, sigma and pack kernels)");
    return MG_OK;
}

int mg_part_bc_receive(int dev, const mg_part_bc *p, uint32_t d, uint64_t base, int parts, int self,
                       const uint64_t *recv_start, mg_stream s, char *err, size_t errlen) {
    if (int rc = check_state(p, "mg_part_bc_receive: NULL pointer", err, errlen)) return rc;
    if (parts < 1 || self < 0 || self >= parts || recv_start == NULL)
        return mg::invalid("mg_part_bc_receive: bad part tables", err, errlen);
    if (recv_start[0] != 0 || recv_start[parts] != p->num_recv)
        return mg::invalid("mg_part_bc_receive: receive starts do not span the copies", err, errlen);
    MG_SET_DEVICE(dev);
    for (int q = 0; q < parts; q++) {
        const uint64_t lo = recv_start[q], hi = recv_start[q + 1];
        if (hi < lo) return mg::invalid("mg_part_bc_receive: receive starts decrease", err, errlen);
        if (q == self || hi == lo) continue;
        // One launch per part, in part order on one stream: the sums of
        // one vertex are added in part order.
        receive_kernel<<<grid_for(dev, hi - lo), kBlock, 0, (cudaStream_t)s>>>(*p, d, base, lo, hi);
        MG_CHECK_LAUNCH("receive_kernel<<<grid, 256>>>");
    }
    return MG_OK;
}

int mg_part_bc_publish(int dev, const mg_part_bc *p, uint32_t d, mg_stream s, char *err, size_t errlen) {
    if (int rc = check_state(p, "mg_part_bc_publish: NULL pointer", err, errlen)) return rc;
    if (p->num_recv == 0) return MG_OK;
    MG_SET_DEVICE(dev);
    publish_kernel<<<grid_for(dev, p->num_recv), kBlock, 0, (cudaStream_t)s>>>(*p, d);
    MG_CHECK_LAUNCH("publish_kernel<<<grid, 256>>>");
    return MG_OK;
}

int mg_part_bc_read_counters(int dev, const mg_part_bc *p, mg_part_bc_counters *host, mg_stream s, char *err,
                             size_t errlen) {
    if (p == NULL || p->ctr == NULL || host == NULL)
        return mg::invalid("mg_part_bc_read_counters: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaMemcpyAsync(host, p->ctr, sizeof(mg_part_bc_counters), cudaMemcpyDeviceToHost, (cudaStream_t)s));
    return MG_OK;
}

int mg_part_bc_backward(int dev, const mg_part_bc *p, uint32_t d, uint64_t start, uint64_t count, char *err,
                        size_t errlen) {
    if (int rc = check_state(p, "mg_part_bc_backward: NULL pointer", err, errlen)) return rc;
    if (start > p->num_local || count > p->num_local - start)
        return mg::invalid("mg_part_bc_backward: level outside order", err, errlen);
    MG_SET_DEVICE(dev);
    if (p->num_ghosts > 0) {
        take_kernel<<<grid_for(dev, p->num_ghosts), kBlock>>>(*p, d);
        MG_CHECK_LAUNCH("take_kernel<<<grid, 256>>>");
    }
    if (count > 0) {
        if (int rc = clear_hubs(p, err, errlen)) return rc;
        backward_kernel<<<warp_grid(dev, count), kBlock>>>(*p, d, p->order + start, count);
        MG_CHECK_LAUNCH("backward_kernel<<<grid, 256>>>");
        backward_hub_kernel<<<hub_grid(dev), kBlock>>>(*p, d);
        MG_CHECK_LAUNCH("backward_hub_kernel<<<SMs·8, 256>>>");
    }
    MG_SYNC("mg_part_bc_backward (take and backward kernels)");
    return MG_OK;
}

}  // extern "C"
