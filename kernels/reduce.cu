// reduce.cu — a two-pass reduction templated over a functor struct (see
// internal.cuh): pass 1 has each block fold a grid-stride slice of the input
// into one partial, pass 2 has one block fold the partials. No atomics, so
// the order of operations depends only on n and the grid: results are
// reproducible, floating-point ones included.
#include "internal.cuh"

namespace {

// reduce_kernel folds in[0, n) into out[blockIdx.x]. With n == 0 it writes
// the identity.
template <typename Op, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    reduce_kernel(const typename Op::In *__restrict__ in, uint64_t n, typename Op::Acc *__restrict__ out) {
    using Acc = typename Op::Acc;
    const uint64_t stride = (uint64_t)gridDim.x * BLOCK;
    Acc acc = Op::identity();
    for (uint64_t i = (uint64_t)blockIdx.x * BLOCK + threadIdx.x; i < n; i += stride)
        acc = Op::combine(acc, Op::load(in[i]));
    acc = mg::block_reduce<Op, BLOCK>(acc);
    if (threadIdx.x == 0) out[blockIdx.x] = acc;
}

// reduce runs both passes of Op over in[0, n) on stream s.
template <typename Op>
int reduce(int dev, const typename Op::In *in, uint64_t n, typename Op::Acc *out, void *scratch,
           uint64_t scratch_bytes, mg_stream s, char *err, size_t errlen) {
    using Acc = typename Op::Acc;
    static_assert(sizeof(Acc) <= 8, "MG_REDUCE_SCRATCH_BYTES assumes 8-byte partials");
    if (out == NULL || scratch == NULL || (n > 0 && in == NULL))
        return mg::invalid("mg_reduce: NULL pointer", err, errlen);
    if (scratch_bytes < MG_REDUCE_SCRATCH_BYTES)
        return mg::invalid("mg_reduce: scratch smaller than MG_REDUCE_SCRATCH_BYTES", err, errlen);
    MG_SET_DEVICE(dev);
    // Grid: a few blocks per SM (enough to saturate memory), capped by the
    // work and by the scratch size. Depends only on n and the device.
    uint64_t grid = (uint64_t)mg::multiprocessors(dev) * 4;
    uint64_t need = (n + MG_REDUCE_BLOCK - 1) / MG_REDUCE_BLOCK;
    if (grid > need) grid = need;
    if (grid > MG_REDUCE_MAX_BLOCKS) grid = MG_REDUCE_MAX_BLOCKS;
    if (grid < 1) grid = 1;
    Acc *partial = (Acc *)scratch;
    cudaStream_t st = (cudaStream_t)s;
    reduce_kernel<Op, MG_REDUCE_BLOCK><<<(unsigned)grid, MG_REDUCE_BLOCK, 0, st>>>(in, n, partial);
    MG_CHECK_LAUNCH("reduce_kernel<<<grid, MG_REDUCE_BLOCK, 0, s>>> (pass 1)");
    // Pass 2 folds the partials with Op::Fold (Acc -> Acc, same combine).
    reduce_kernel<typename Op::Fold, MG_REDUCE_BLOCK><<<1, MG_REDUCE_BLOCK, 0, st>>>(partial, grid, out);
    MG_CHECK_LAUNCH("reduce_kernel<<<1, MG_REDUCE_BLOCK, 0, s>>> (pass 2)");
    return MG_OK;
}

// Sum is SumOp plus Fold, the operator that combines partials (Acc -> Acc).
template <typename T, typename A>
struct Sum : mg::SumOp<T, A> {
    using Fold = mg::SumOp<A, A>;
};

}  // namespace

extern "C" {

int mg_reduce_sum_u32(int dev, const uint32_t *in, uint64_t n, uint64_t *out_dev, void *scratch_dev,
                      uint64_t scratch_bytes, mg_stream s, char *err, size_t errlen) {
    return reduce<Sum<uint32_t, uint64_t>>(dev, in, n, (uint64_t *)out_dev, scratch_dev, scratch_bytes, s, err, errlen);
}

int mg_reduce_sum_f64(int dev, const double *in, uint64_t n, double *out_dev, void *scratch_dev,
                      uint64_t scratch_bytes, mg_stream s, char *err, size_t errlen) {
    return reduce<Sum<double, double>>(dev, in, n, out_dev, scratch_dev, scratch_bytes, s, err, errlen);
}

}  // extern "C"
