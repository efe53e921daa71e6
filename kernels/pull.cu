// pull.cu — the pull (bottom-up) step of BFS on the GPU, for undirected
// layouts (a vertex's out-row is its in-row): a warp per vertex; a vertex
// still unsettled (BFS: its level is the identity) scans its row 32 arcs at a
// time and stops at the first neighbour whose active flag is set, whose
// contribution it applies (engine.EarlyExit: every contribution of an
// iteration is equal, so the first one found is final). The warp writes
// next[v] for its vertex (settled or not), so next needs no clearing, and
// adds the activated vertices and their out-arcs to the counters (one atomic
// per block).
#include "minprog.cuh"

namespace {

using mg::kMinIdentity;

constexpr int kPullBlock = 256;

template <typename Op>
__global__ void __launch_bounds__(kPullBlock)
    pull_kernel(mg_dlayout L, uint32_t *values, const uint8_t *__restrict__ active, uint8_t *__restrict__ next,
                mg_step_counters *ctr) {
    __shared__ uint32_t s_count;
    __shared__ unsigned long long s_edges;
    if (threadIdx.x == 0) {
        s_count = 0;
        s_edges = 0;
    }
    __syncthreads();
    const uint32_t lane = threadIdx.x & 31;
    const uint64_t v = ((uint64_t)blockIdx.x * kPullBlock + threadIdx.x) / 32;
    if (v < L.n) {
        uint8_t act = 0;
        if (values[v] == kMinIdentity) {
            const uint64_t lo = L.sparse_offsets[v], hi = L.sparse_offsets[v + 1];
            for (uint64_t b = lo; b < hi; b += 32) {
                const uint64_t e = b + lane;
                uint32_t u = 0;
                const bool hit = e < hi && active[u = L.sparse_dst[e]] != 0;
                const unsigned m = __ballot_sync(0xffffffffu, hit);
                if (m != 0) {
                    const int first = __ffs(m) - 1;
                    u = __shfl_sync(0xffffffffu, u, first);
                    if (lane == 0) {
                        act = Op::apply((uint32_t)v, Op::edge(values[u], 0u), values) ? 1 : 0;
                        if (act) {
                            atomicAdd(&s_count, 1u);
                            atomicAdd(&s_edges, (unsigned long long)(hi - lo));
                        }
                    }
                    break;
                }
            }
        }
        if (lane == 0) next[v] = act;
    }
    __syncthreads();
    if (threadIdx.x == 0 && s_count > 0) {
        atomicAdd(&ctr->next_count, s_count);
        atomicAdd((unsigned long long *)&ctr->next_edges, s_edges);
    }
}

template <typename Op>
int pull_step(int dev, const mg_dlayout *l, uint32_t *values, const uint8_t *active, uint8_t *next,
              mg_step_counters *ctr, mg_stream s, mg_event *ev, char *err, size_t errlen) {
    if (l == NULL || values == NULL || active == NULL || next == NULL || ctr == NULL)
        return mg::invalid("mg_min_pull_step: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    MG_CHECK(cudaMemsetAsync(ctr, 0, sizeof(mg_step_counters), st));
    if (ev != NULL) MG_CHECK(cudaEventRecord((cudaEvent_t)ev[0], st));
    if (l->n > 0) {
        const uint64_t grid = (l->n * 32 + kPullBlock - 1) / kPullBlock;
        if (grid > 0x7fffffffu) return mg::invalid("mg_min_pull_step: too many vertices", err, errlen);
        pull_kernel<Op><<<(unsigned)grid, kPullBlock, 0, st>>>(*l, values, active, next, ctr);
        MG_CHECK_LAUNCH("pull_kernel<<<n/8, 256, 0, s>>>");
    }
    if (ev != NULL) MG_CHECK(cudaEventRecord((cudaEvent_t)ev[1], st));
    return MG_OK;
}

}  // namespace

extern "C" {

int mg_min_pull_step(int dev, int prog, const mg_dlayout *l, uint32_t *values, const uint8_t *active, uint8_t *next,
                     mg_step_counters *ctr, mg_stream s, mg_event *ev, char *err, size_t errlen) {
    if (prog != MG_PROG_BFS) return mg::invalid("mg_min_pull_step: only BFS has a pull step", err, errlen);
    return pull_step<mg::BFSOp>(dev, l, values, active, next, ctr, s, ev, err, errlen);
}

}  // extern "C"
