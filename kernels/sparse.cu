// sparse.cu — MultiGraphS on the GPU for the min programs, first version:
// a warp per frontier vertex walks its out-row (SparseOffsets/SparseDst),
// 32 arcs at a time, and merges each useful contribution into acc[dst] with a
// global atomicMin; the thread whose atomicMin lowers acc[dst] from the
// identity appends dst to the touched list (warp-aggregated: one atomic per
// warp). The apply kernel then folds acc into the values of the touched
// vertices only (resetting acc), so every contribution of the iteration read
// the values from before it (synchronous semantics), and appends the
// activated vertices to the next frontier. The paper's three-stage split and
// the shared-memory heavy segments are not here yet (docs/gpu-engines.md).
#include "minprog.cuh"

namespace {

using mg::kMinIdentity;

constexpr int kSparseBlock = 256;

__device__ __forceinline__ uint32_t lane_id() { return threadIdx.x & 31; }

// warp_append appends x for the lanes with app set at *pos-relative places
// of out, one atomicAdd per warp. Every lane of the warp must call it.
__device__ __forceinline__ void warp_append(bool app, uint32_t x, uint32_t *pos, uint32_t *out) {
    const unsigned mask = __ballot_sync(0xffffffffu, app);
    if (mask == 0) return;
    uint32_t base = 0;
    if (lane_id() == 0) base = atomicAdd(pos, (uint32_t)__popc(mask));
    base = __shfl_sync(0xffffffffu, base, 0);
    if (app) out[base + __popc(mask & ((1u << lane_id()) - 1))] = x;
}

// advance_kernel: frontier[i·stride] for i < count, a warp each. DRY: the
// hybrid's sample, whose atomics go to a scratch array and append nothing.
template <typename Op, bool DRY>
__global__ void __launch_bounds__(kSparseBlock)
    advance_kernel(mg_dlayout L, const uint32_t *__restrict__ values, const uint32_t *__restrict__ frontier,
                   uint32_t count, uint32_t stride, uint32_t *acc, uint32_t *touched, mg_step_counters *ctr) {
    const uint64_t warps = (uint64_t)gridDim.x * (kSparseBlock / 32);
    const uint32_t lane = lane_id();
    for (uint64_t i = (uint64_t)blockIdx.x * (kSparseBlock / 32) + threadIdx.x / 32; i < count; i += warps) {
        const uint32_t u = frontier[i * stride];
        const uint32_t val = values[u];
        if (val == kMinIdentity) continue;  // the same u in every lane
        const uint64_t lo = L.sparse_offsets[u], hi = L.sparse_offsets[u + 1];
        for (uint64_t b = lo; b < hi; b += 32) {
            const uint64_t e = b + lane;
            bool app = false;
            uint32_t d = 0;
            if (e < hi) {
                d = L.sparse_dst[e];
                const uint32_t c = Op::edge(val, Op::weighted ? L.sparse_weights[e] : 0u);
                if (c < values[d]) {
                    if (DRY) {
                        atomicMin(&acc[d & (MG_SAMPLE_SCRATCH - 1)], c);
                    } else {
                        app = atomicMin(&acc[d], c) == kMinIdentity;
                    }
                }
            }
            if (!DRY) warp_append(app, d, &ctr->touched, touched);
        }
    }
}

// apply_kernel: the touched vertices (ctr->touched of them), grid-stride by
// warps so every lane of a warp takes part in the appends.
template <typename Op>
__global__ void __launch_bounds__(kSparseBlock)
    apply_kernel(mg_dlayout L, uint32_t *values, uint32_t *__restrict__ acc, const uint32_t *__restrict__ touched,
                 uint32_t *__restrict__ next_list, mg_step_counters *ctr) {
    const uint32_t total = *(volatile uint32_t *)&ctr->touched;
    const uint64_t step = (uint64_t)gridDim.x * kSparseBlock;
    unsigned long long edges = 0;
    for (uint64_t base = (uint64_t)blockIdx.x * kSparseBlock + (threadIdx.x & ~31u); base < total; base += step) {
        const uint64_t i = base + lane_id();
        bool act = false;
        uint32_t v = 0;
        if (i < total) {
            v = touched[i];
            const uint32_t a = acc[v];
            acc[v] = kMinIdentity;
            act = Op::apply(v, a, values);
            if (act) edges += L.sparse_offsets[v + 1] - L.sparse_offsets[v];
        }
        warp_append(act, v, &ctr->next_count, next_list);
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) edges += __shfl_down_sync(0xffffffffu, edges, off);
    if (lane_id() == 0 && edges > 0) atomicAdd((unsigned long long *)&ctr->next_edges, edges);
}

#define MG_RECORD(i) \
    if (ev != NULL) MG_CHECK(cudaEventRecord((cudaEvent_t)ev[i], st))

// advance_grid: enough warps for count vertices, at most 32 blocks per SM.
unsigned advance_grid(int dev, uint64_t count) {
    uint64_t g = (count + kSparseBlock / 32 - 1) / (kSparseBlock / 32);
    const uint64_t cap = (uint64_t)mg::multiprocessors(dev) * 32;
    if (g > cap) g = cap;
    return (unsigned)(g < 1 ? 1 : g);
}

template <typename Op>
int sparse_step(int dev, const mg_dlayout *l, uint32_t *values, const uint32_t *frontier, uint32_t count,
                uint32_t *acc, uint32_t *touched, uint32_t *next_list, mg_step_counters *ctr, mg_stream s,
                mg_event *ev, char *err, size_t errlen) {
    if (l == NULL || values == NULL || acc == NULL || touched == NULL || next_list == NULL || ctr == NULL ||
        (count > 0 && frontier == NULL))
        return mg::invalid("mg_min_sparse_step: NULL pointer", err, errlen);
    if (Op::weighted && l->m > 0 && l->sparse_weights == NULL)
        return mg::invalid("mg_min_sparse_step: the program needs weights and the layout has none", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    MG_CHECK(cudaMemsetAsync(ctr, 0, sizeof(mg_step_counters), st));
    MG_RECORD(0);
    if (count > 0) {
        advance_kernel<Op, false><<<advance_grid(dev, count), kSparseBlock, 0, st>>>(*l, values, frontier, count, 1,
                                                                                        acc, touched, ctr);
        MG_CHECK_LAUNCH("advance_kernel<<<grid, 256, 0, s>>>");
    }
    MG_RECORD(1);
    if (count > 0) {
        const unsigned grid = (unsigned)mg::multiprocessors(dev) * 8;
        apply_kernel<Op><<<grid, kSparseBlock, 0, st>>>(*l, values, acc, touched, next_list, ctr);
        MG_CHECK_LAUNCH("apply_kernel<<<SMs·8, 256, 0, s>>>");
    }
    MG_RECORD(2);
    return MG_OK;
}

template <typename Op>
int sparse_sample(int dev, const mg_dlayout *l, const uint32_t *values, const uint32_t *frontier, uint32_t count,
                  uint32_t stride, uint32_t *scratch, mg_stream s, mg_event *ev, char *err, size_t errlen) {
    if (l == NULL || values == NULL || scratch == NULL || (count > 0 && frontier == NULL))
        return mg::invalid("mg_min_sparse_sample: NULL pointer", err, errlen);
    if (Op::weighted && l->m > 0 && l->sparse_weights == NULL)
        return mg::invalid("mg_min_sparse_sample: the program needs weights and the layout has none", err, errlen);
    if (stride < 1) return mg::invalid("mg_min_sparse_sample: stride must be at least 1", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    MG_RECORD(0);
    if (count > 0) {
        advance_kernel<Op, true><<<advance_grid(dev, count), kSparseBlock, 0, st>>>(*l, values, frontier, count,
                                                                                       stride, scratch, NULL, NULL);
        MG_CHECK_LAUNCH("advance_kernel<DRY><<<grid, 256, 0, s>>>");
    }
    MG_RECORD(1);
    return MG_OK;
}

}  // namespace

extern "C" {

int mg_min_sparse_step(int dev, int prog, const mg_dlayout *l, uint32_t *values, const uint32_t *frontier,
                       uint32_t count, uint32_t *acc, uint32_t *touched, uint32_t *next_list, mg_step_counters *ctr,
                       mg_stream s, mg_event *ev, char *err, size_t errlen) {
    MG_DISPATCH_PROG(prog, sparse_step, dev, l, values, frontier, count, acc, touched, next_list, ctr, s, ev, err,
                     errlen);
}

int mg_min_sparse_sample(int dev, int prog, const mg_dlayout *l, const uint32_t *values, const uint32_t *frontier,
                         uint32_t count, uint32_t stride, uint32_t *scratch, mg_stream s, mg_event *ev, char *err,
                         size_t errlen) {
    MG_DISPATCH_PROG(prog, sparse_sample, dev, l, values, frontier, count, stride, scratch, s, ev, err, errlen);
}

}  // extern "C"
