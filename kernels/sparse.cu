// sparse.cu — one MultiGraphS iteration on the GPU (min and sum programs) as
// three kernels, each a piece of sparsework.cuh over the whole grid: the
// advance (64 frontier vertices per block), the hubs it listed, and the apply.
// The hybrid's ESP sample is the advance as a dry run. Long runs of small
// iterations are kept on the device instead (sparseloop.cu).
#include "sparsework.cuh"

namespace {

template <typename Op, bool DRY>
__global__ void __launch_bounds__(kSparseBlock)
    advance_kernel(Op op, mg_dlayout L, const typename Op::T *__restrict__ values,
                   const uint32_t *__restrict__ frontier, uint32_t count, uint32_t stride, typename Op::T *acc,
                   uint32_t *touched, mg_step_counters *ctr) {
    advance_group<Op, DRY>(op, L, values, frontier, count, stride, blockIdx.x, acc, touched, ctr, &g_hub_count[0],
                           block_queue());
}

template <typename Op, bool DRY>
__global__ void __launch_bounds__(kSparseBlock)
    hub_kernel(Op op, mg_dlayout L, const typename Op::T *__restrict__ values, typename Op::T *acc,
               uint32_t *touched, mg_step_counters *ctr) {
    hub_walk<Op, DRY>(op, L, values, acc, touched, ctr, &g_hub_count[0], block_queue());
}

template <typename Op>
__global__ void __launch_bounds__(kSparseBlock)
    apply_kernel(Op op, mg_dlayout L, typename Op::T *values, typename Op::T *__restrict__ acc,
                 const uint32_t *__restrict__ touched, uint32_t *__restrict__ next_list, mg_step_counters *ctr) {
    apply_walk<Op>(op, L, values, acc, touched, next_list, ctr, block_queue(), NearFar{});
}

// advance: advance_kernel over count vertices (64 per block), then
// hub_kernel over the hubs it listed (SMs·8 blocks; it returns at once when
// there are none). The hub count is zeroed first, on the stream.
template <typename Op, bool DRY>
int advance(const Op &op, int dev, const mg_dlayout *l, const typename Op::T *values, const uint32_t *frontier,
            uint32_t count, uint32_t stride, typename Op::T *acc, uint32_t *touched, mg_step_counters *ctr,
            cudaStream_t st, char *err, size_t errlen) {
    void *hc = NULL;
    MG_CHECK(cudaGetSymbolAddress(&hc, g_hub_count));
    MG_CHECK(cudaMemsetAsync(hc, 0, sizeof(uint32_t), st));
    const unsigned grid = (unsigned)(((uint64_t)count + kVertsPerBlock - 1) / kVertsPerBlock);
    advance_kernel<Op, DRY><<<grid, kSparseBlock, 0, st>>>(op, *l, values, frontier, count, stride, acc, touched, ctr);
    MG_CHECK_LAUNCH("advance_kernel<<<count/64, 256, 0, s>>>");
    hub_kernel<Op, DRY><<<(unsigned)mg::multiprocessors(dev) * 8, kSparseBlock, 0, st>>>(op, *l, values, acc,
                                                                                          touched, ctr);
    MG_CHECK_LAUNCH("hub_kernel<<<SMs·8, 256, 0, s>>>");
    return MG_OK;
}

template <typename Op>
int sparse_step(Op op, int dev, const mg_dlayout *l, typename Op::T *values, const uint32_t *frontier,
                uint32_t count, typename Op::T *acc, uint32_t *touched, uint32_t *next_list, mg_step_counters *ctr,
                mg_stream s, mg_event *ev, char *err, size_t errlen) {
    if (l == NULL || values == NULL || acc == NULL || touched == NULL || next_list == NULL || ctr == NULL ||
        (count > 0 && frontier == NULL))
        return mg::invalid("sparse step: NULL pointer", err, errlen);
    if (Op::weighted && l->m > 0 && l->sparse_weights == NULL)
        return mg::invalid("sparse step: the program needs weights and the layout has none", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    MG_CHECK(cudaMemsetAsync(ctr, 0, sizeof(mg_step_counters), st));
    MG_RECORD(0);
    if (count > 0) {
        const int rc = advance<Op, false>(op, dev, l, values, frontier, count, 1, acc, touched, ctr, st, err, errlen);
        if (rc != MG_OK) return rc;
    }
    MG_RECORD(1);
    if (count > 0) {
        const unsigned grid = (unsigned)mg::multiprocessors(dev) * 8;
        apply_kernel<Op><<<grid, kSparseBlock, 0, st>>>(op, *l, values, acc, touched, next_list, ctr);
        MG_CHECK_LAUNCH("apply_kernel<<<SMs·8, 256, 0, s>>>");
    }
    MG_RECORD(2);
    return MG_OK;
}

template <typename Op>
int sparse_sample(Op op, int dev, const mg_dlayout *l, const typename Op::T *values, const uint32_t *frontier,
                  uint32_t count, uint32_t stride, typename Op::T *scratch, mg_stream s, mg_event *ev, char *err,
                  size_t errlen) {
    if (l == NULL || values == NULL || scratch == NULL || (count > 0 && frontier == NULL))
        return mg::invalid("sparse sample: NULL pointer", err, errlen);
    if (Op::weighted && l->m > 0 && l->sparse_weights == NULL)
        return mg::invalid("sparse sample: the program needs weights and the layout has none", err, errlen);
    if (stride < 1) return mg::invalid("sparse sample: stride must be at least 1", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    MG_RECORD(0);
    if (count > 0) {
        const int rc =
            advance<Op, true>(op, dev, l, values, frontier, count, stride, scratch, NULL, NULL, st, err, errlen);
        if (rc != MG_OK) return rc;
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

int mg_sum_sparse_step(int dev, int prog, const mg_dlayout *l, const mg_sum_params *p, double *values,
                       const uint32_t *frontier, uint32_t count, double *acc, uint32_t *touched, uint32_t *next_list,
                       mg_step_counters *ctr, mg_stream s, mg_event *ev, char *err, size_t errlen) {
    MG_DISPATCH_SUM(prog, p, l, sparse_step, dev, l, values, frontier, count, acc, touched, next_list, ctr, s, ev, err,
                    errlen);
}

int mg_sum_sparse_sample(int dev, int prog, const mg_dlayout *l, const mg_sum_params *p, const double *values,
                         const uint32_t *frontier, uint32_t count, uint32_t stride, double *scratch, mg_stream s,
                         mg_event *ev, char *err, size_t errlen) {
    MG_DISPATCH_SUM(prog, p, l, sparse_sample, dev, l, values, frontier, count, stride, scratch, s, ev, err, errlen);
}

}  // extern "C"
