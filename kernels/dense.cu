// dense.cu — MultiGraphD on the GPU (MultiGraph §4, docs/layout.md): phase 1
// writes every stream slot (heavy blocks and light edges), phase 2 folds each
// row panel's contiguous slots in shared memory and applies the program. The
// kernels and their work split are densework.cuh's, instantiated here for the
// uint32 min programs (minprog.cuh) and the float64 sum programs
// (sumprog.cuh) with FrontierApply.
#include "densework.cuh"
#include "minprog.cuh"
#include "sumprog.cuh"

namespace {

// FrontierApply is phase 2's Apply policy for the frontier programs: apply
// every vertex of row panel r that received a contribution (accumulator not
// the identity) and write its next-frontier flag, counting the activated
// vertices and their out-arcs. DRY counts the vertices that received
// something and writes nothing but that counter.
template <typename Op, bool DRY>
struct FrontierApply {
    Op op;
    typename Op::T *values;
    uint8_t *next;
    mg_step_counters *ctr;

    __device__ void operator()(const mg_dlayout &L, uint32_t r, uint64_t lo, uint32_t len,
                               const typename Op::T *acc) const {
        uint64_t cnt = 0, edges = 0;
        for (uint32_t j = threadIdx.x; j < len; j += kPhase2Block) {
            const typename Op::T a = acc[j];
            if (DRY) {
                cnt += a != Op::identity;
                continue;
            }
            const uint64_t v = lo + j;
            const bool act = a != Op::identity && op.apply((uint32_t)v, a, values);
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
};

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
    MG_CHECK(cudaMemsetAsync(ctr, 0, sizeof(mg_step_counters), st));
    MG_RECORD(0);
    int rc = launch_phase1(op, L, values, active, stream_buf, st, ev, err, errlen);
    if (rc != MG_OK) return rc;
    if (dry)
        rc = launch_phase2<Op>(L, FrontierApply<Op, true>{op, values, next, ctr}, stream_buf, st, err, errlen);
    else
        rc = launch_phase2<Op>(L, FrontierApply<Op, false>{op, values, next, ctr}, stream_buf, st, err, errlen);
    if (rc != MG_OK) return rc;
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
