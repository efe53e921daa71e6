// pagerank.cu — topology-driven PageRank on the GPU (MultiGraphD, float64
// sums): every iteration is a dense step over all vertices with
// densework.cuh's kernels, the shares r/outdeg as the sources' values and
// PRApply as phase 2's policy: r = base + d·acc, the new share, and per-panel
// partial sums of |Δr| and of the dangling rank, which one block then folds
// into mg_pr_sums in panel order. (The sums of a step are not bit-for-bit
// repeatable: phase 1 and phase 2 add in floating point with atomics.)
#include "densework.cuh"
#include "sumprog.cuh"

namespace {

constexpr int kFoldBlock = 1024;

// PRApply is phase 2's Apply policy for PageRank: r = base + d·acc for every
// vertex of row panel r, the share r/outdeg (0 when dangling), and the
// panel's partial sums of |Δr| (partials[r]) and of the dangling vertices'
// new rank (partials[num_panels + r]).
struct PRApply {
    double base, damping;
    double *rank, *share, *partials;

    __device__ void operator()(const mg_dlayout &L, uint32_t r, uint64_t lo, uint32_t len,
                               const double *acc) const {
        double delta = 0.0, dangling = 0.0;
        for (uint32_t j = threadIdx.x; j < len; j += kPhase2Block) {
            const uint64_t v = lo + j;
            const double nr = base + damping * acc[j];
            delta += fabs(nr - rank[v]);
            rank[v] = nr;
            const uint64_t deg = L.sparse_offsets[v + 1] - L.sparse_offsets[v];
            if (deg > 0) {
                share[v] = nr / (double)deg;
            } else {
                share[v] = 0.0;
                dangling += nr;
            }
        }
        delta = mg::block_reduce<mg::SumOp<double, double>, kPhase2Block>(delta);
        __syncthreads();
        dangling = mg::block_reduce<mg::SumOp<double, double>, kPhase2Block>(dangling);
        if (threadIdx.x == 0) {
            partials[r] = delta;
            partials[L.num_panels + r] = dangling;
        }
    }
};

// pr_fold_kernel: one block adds the k per-panel partials of both sums.
__global__ void __launch_bounds__(kFoldBlock) pr_fold_kernel(const double *__restrict__ partials, uint32_t k,
                                                            mg_pr_sums *sums) {
    double a = 0.0, b = 0.0;
    for (uint32_t i = threadIdx.x; i < k; i += kFoldBlock) {
        a += partials[i];
        b += partials[k + i];
    }
    a = mg::block_reduce<mg::SumOp<double, double>, kFoldBlock>(a);
    __syncthreads();
    b = mg::block_reduce<mg::SumOp<double, double>, kFoldBlock>(b);
    if (threadIdx.x == 0) {
        sums->delta = a;
        sums->dangling = b;
    }
}

}  // namespace

extern "C" int mg_pr_step(int dev, const mg_dlayout *l, double base, double damping, double *rank, double *share,
                          double *stream_buf, double *partials, mg_pr_sums *sums, mg_stream s, mg_event *ev,
                          char *err, size_t errlen) {
    if (l == NULL || rank == NULL || share == NULL || partials == NULL || sums == NULL ||
        (l->num_slots > 0 && stream_buf == NULL))
        return mg::invalid("mg_pr_step: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    const mg_dlayout L = *l;
    MG_RECORD(0);
    int rc = launch_phase1(mg::SumBase{}, L, share, nullptr, stream_buf, st, ev, err, errlen);
    if (rc != MG_OK) return rc;
    rc = launch_phase2<mg::SumBase>(L, PRApply{base, damping, rank, share, partials}, stream_buf, st, err, errlen);
    if (rc != MG_OK) return rc;
    MG_RECORD(3);
    pr_fold_kernel<<<1, kFoldBlock, 0, st>>>(partials, L.num_panels, sums);
    MG_CHECK_LAUNCH("pr_fold_kernel<<<1, 1024, 0, s>>>");
    MG_RECORD(4);
    return MG_OK;
}
