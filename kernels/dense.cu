// dense.cu — MultiGraphD on the GPU (MultiGraph §4, docs/layout.md): phase 1
// writes every stream slot (heavy blocks and light edges), phase 2 folds each
// row panel's contiguous slots in shared memory and applies the program.
// Kernels are templates over the program's functor: the uint32 min programs
// (minprog.cuh) and the float64 sum programs (sumprog.cuh).
#include "minprog.cuh"
#include "sumprog.cuh"

namespace {

constexpr int kLightBlock = 256;
constexpr int kPhase2Block = 512;
constexpr int kPhase2Unroll = 4;

// stage_panel writes column panel c's masked source values into st: the
// value of an active source, the identity for an inactive one (whose
// contributions are then the identity too: edge(identity) == identity).
template <typename Op>
__device__ __forceinline__ void stage_panel(const mg_dlayout &L, uint32_t c, const typename Op::T *__restrict__ values,
                                            const uint8_t *__restrict__ active, typename Op::T *st) {
    const uint64_t lo = (uint64_t)c * L.panel_size;
    const uint32_t len = (uint32_t)min((uint64_t)L.panel_size, L.n - lo);
    for (uint32_t i = threadIdx.x; i < len; i += blockDim.x)
        st[i] = active[lo + i] ? values[lo + i] : Op::identity;
}

// heavy_kernel: one block per heavy block h. Thread j walks matrix column j
// (rows are coalesced across the block), combines its run in a register and
// merges it into the block's D shared accumulators with a shared atomic when
// its column meets a marker; the D partials then go to slots HeavySlot[h]...
template <typename Op>
__global__ void __launch_bounds__(1024)
    heavy_kernel(Op op, mg_dlayout L, const typename Op::T *__restrict__ values, const uint8_t *__restrict__ active,
                 typename Op::T *__restrict__ out) {
    using T = typename Op::T;
    T *st = mg::shared_as<T>(), *acc = st + L.panel_size;
    const uint32_t h = blockIdx.x;
    stage_panel<Op>(L, L.heavy_col[h], values, active, st);
    const uint32_t d = L.heavy_num_dst[h];
    for (uint32_t i = threadIdx.x; i < d; i += blockDim.x) acc[i] = Op::identity;
    __syncthreads();
    const uint32_t t = L.heavy_columns, rows = L.heavy_rows[h];
    const uint64_t start = L.heavy_matrix_start[h];
    const int16_t *__restrict__ mat = L.heavy_matrix + start;
    const uint32_t *__restrict__ wts = Op::weighted ? L.heavy_weights + start : nullptr;
    for (uint32_t j = threadIdx.x; j < t; j += blockDim.x) {
        T reg = Op::identity;
        int dst = -1;
        for (uint32_t i = 0; i < rows; i++) {
            const uint64_t e = (uint64_t)i * t + j;
            const int x = mat[e];
            if (x >= 0) {
                reg = Op::combine(reg, op.edge(st[x], Op::weighted ? wts[e] : 0u));
                continue;
            }
            if (dst >= 0 && reg != Op::identity) Op::atomic(&acc[dst], reg);
            reg = Op::identity;
            if (x == -32768) {  // padding: the rest of the column is padding
                dst = -1;
                break;
            }
            dst = -(x + 1);
        }
        if (dst >= 0 && reg != Op::identity) Op::atomic(&acc[dst], reg);
    }
    __syncthreads();
    T *o = out + L.heavy_slot[h];
    for (uint32_t i = threadIdx.x; i < d; i += blockDim.x) o[i] = acc[i];
}

// light_kernel: one block per column panel c; each light edge writes its
// contribution (the identity for an inactive source) to its own slot.
template <typename Op>
__global__ void __launch_bounds__(kLightBlock)
    light_kernel(Op op, mg_dlayout L, const typename Op::T *__restrict__ values, const uint8_t *__restrict__ active,
                 typename Op::T *__restrict__ out) {
    using T = typename Op::T;
    T *st = mg::shared_as<T>();
    const uint32_t c = blockIdx.x;
    const uint64_t e0 = L.light_start[c], e1 = L.light_start[c + 1];
    if (e0 == e1) return;  // uniform across the block
    stage_panel<Op>(L, c, values, active, st);
    __syncthreads();
    for (uint64_t e = e0 + threadIdx.x; e < e1; e += kLightBlock)
        out[L.light_slot[e]] = op.edge(st[L.light_src[e]], Op::weighted ? L.light_weights[e] : 0u);
}

// phase2_kernel: one block per row panel r: fold the panel's slots into P
// shared accumulators (runs of equal SlotDst pre-combined per warp), then
// apply every vertex that received a contribution (accumulator not the
// identity) and write its next-frontier flag. DRY folds and counts, writing
// nothing but the counter.
template <typename Op, bool DRY>
__global__ void __launch_bounds__(kPhase2Block)
    phase2_kernel(Op op, mg_dlayout L, typename Op::T *__restrict__ values, uint8_t *__restrict__ next,
                  const typename Op::T *__restrict__ in, mg_step_counters *ctr) {
    using T = typename Op::T;
    T *acc = mg::shared_as<T>();
    const uint32_t r = blockIdx.x;
    const uint64_t lo = (uint64_t)r * L.panel_size;
    const uint32_t len = (uint32_t)min((uint64_t)L.panel_size, L.n - lo);
    for (uint32_t i = threadIdx.x; i < len; i += kPhase2Block) acc[i] = Op::identity;
    __syncthreads();
    const uint64_t s0 = L.row_slot_start[r], s1 = L.row_slot_start[r + 1];
    // As pr_phase2_kernel: kPhase2Unroll chunks of 32 consecutive slots per
    // warp, runs of equal SlotDst combined in registers, one shared atomic
    // per run.
    for (uint64_t b = s0; b < s1; b += (uint64_t)kPhase2Block * kPhase2Unroll) {
        T x[kPhase2Unroll];
        int k[kPhase2Unroll];
#pragma unroll
        for (int u = 0; u < kPhase2Unroll; u++) {
            const uint64_t s = b + (uint64_t)u * kPhase2Block + threadIdx.x;
            const bool ok = s < s1;
            x[u] = ok ? in[s] : Op::identity;
            k[u] = ok ? (int)L.slot_dst[s] : -1;
        }
#pragma unroll
        for (int u = 0; u < kPhase2Unroll; u++)
            if (mg::warp_run_combine<Op>(k[u], x[u]) && k[u] >= 0 && x[u] != Op::identity) Op::atomic(&acc[k[u]], x[u]);
    }
    __syncthreads();
    uint64_t cnt = 0, edges = 0;
    for (uint32_t j = threadIdx.x; j < len; j += kPhase2Block) {
        const T a = acc[j];
        if (DRY) {
            cnt += a != Op::identity;
            continue;
        }
        const uint64_t v = lo + j;
        bool act = a != Op::identity && op.apply((uint32_t)v, a, values);
        next[v] = act;
        if (act) {
            cnt++;
            edges += L.sparse_offsets[v + 1] - L.sparse_offsets[v];
        }
    }
    cnt = mg::block_reduce<mg::SumOp<uint64_t, uint64_t>, kPhase2Block>(cnt);
    __syncthreads();
    edges = mg::block_reduce<mg::SumOp<uint64_t, uint64_t>, kPhase2Block>(edges);
    if (threadIdx.x == 0) {
        if (DRY) {
            atomicAdd(&ctr->touched, (uint32_t)cnt);
        } else if (cnt > 0) {
            atomicAdd(&ctr->next_count, (uint32_t)cnt);
            atomicAdd((unsigned long long *)&ctr->next_edges, (unsigned long long)edges);
        }
    }
}

#define MG_RECORD(i) \
    if (ev != NULL) MG_CHECK(cudaEventRecord((cudaEvent_t)ev[i], st))

template <typename Op>
int dense_step(Op op, int dev, const mg_dlayout *l, typename Op::T *values, const uint8_t *active, uint8_t *next,
               typename Op::T *stream_buf, mg_step_counters *ctr, int dry, mg_stream s, mg_event *ev, char *err,
               size_t errlen) {
    if (l == NULL || values == NULL || active == NULL || ctr == NULL || (!dry && next == NULL) ||
        (l->num_slots > 0 && stream_buf == NULL))
        return mg::invalid("dense step: NULL pointer", err, errlen);
    if (Op::weighted && l->m > 0 && (l->heavy_weights == NULL && l->light_weights == NULL))
        return mg::invalid("dense step: the program needs weights and the layout has none", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    const mg_dlayout L = *l;
    const size_t panel = (size_t)L.panel_size * sizeof(typename Op::T);
    MG_CHECK(cudaMemsetAsync(ctr, 0, sizeof(mg_step_counters), st));
    MG_RECORD(0);
    if (L.num_heavy > 0) {
        const int threads = (int)min(L.heavy_columns, 1024u);
        int rc = mg::set_smem(heavy_kernel<Op>, 2 * panel, err, errlen);
        if (rc != MG_OK) return rc;
        heavy_kernel<Op><<<L.num_heavy, threads, 2 * panel, st>>>(op, L, values, active, stream_buf);
        MG_CHECK_LAUNCH("heavy_kernel<<<heavy blocks, T, 2P·sizeof(T), s>>>");
    }
    MG_RECORD(1);
    if (L.num_panels > 0) {
        int rc = mg::set_smem(light_kernel<Op>, panel, err, errlen);
        if (rc != MG_OK) return rc;
        light_kernel<Op><<<L.num_panels, kLightBlock, panel, st>>>(op, L, values, active, stream_buf);
        MG_CHECK_LAUNCH("light_kernel<<<column panels, 256, P·sizeof(T), s>>>");
    }
    MG_RECORD(2);
    if (L.num_panels > 0) {
        if (dry) {
            int rc = mg::set_smem(phase2_kernel<Op, true>, panel, err, errlen);
            if (rc != MG_OK) return rc;
            phase2_kernel<Op, true><<<L.num_panels, kPhase2Block, panel, st>>>(op, L, values, next, stream_buf, ctr);
        } else {
            int rc = mg::set_smem(phase2_kernel<Op, false>, panel, err, errlen);
            if (rc != MG_OK) return rc;
            phase2_kernel<Op, false><<<L.num_panels, kPhase2Block, panel, st>>>(op, L, values, next, stream_buf, ctr);
        }
        MG_CHECK_LAUNCH("phase2_kernel<<<row panels, 512, P·sizeof(T), s>>>");
    }
    MG_RECORD(3);
    return MG_OK;
}

}  // namespace

extern "C" int mg_min_dense_step(int dev, int prog, const mg_dlayout *l, uint32_t *values, const uint8_t *active,
                                 uint8_t *next, uint32_t *stream_buf, mg_step_counters *ctr, int dry, mg_stream s,
                                 mg_event *ev, char *err, size_t errlen) {
    MG_DISPATCH_PROG(prog, dense_step, dev, l, values, active, next, stream_buf, ctr, dry, s, ev, err, errlen);
}

extern "C" int mg_sum_dense_step(int dev, int prog, const mg_dlayout *l, const mg_sum_params *p, double *values,
                                 const uint8_t *active, uint8_t *next, double *stream_buf, mg_step_counters *ctr,
                                 int dry, mg_stream s, mg_event *ev, char *err, size_t errlen) {
    MG_DISPATCH_SUM(prog, p, l, dense_step, dev, l, values, active, next, stream_buf, ctr, dry, s, ev, err, errlen);
}
