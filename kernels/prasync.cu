// prasync.cu — data-driven PageRank (pr-delta) in async mode over the
// device worklist of worklist.cuh: Gunrock's residual pushing with no
// iteration barrier. Every vertex starts with residual 1; a vertex taken
// from the worklist absorbs its whole residual (x += r, residual = 0) and
// pushes damping·r/outdeg to each out-neighbour; the push that lifts a
// residual above eps queues that neighbour. The run ends when no residual
// above eps is left, with the fixed point of the synchronous pr-delta
// (apps.prDeltaProgram) up to the unabsorbed residuals, each at most eps.
#include "worklist.cuh"

namespace {

using namespace mg::worklist;

// kInitBlock: threads per block of the initialisation; kInitBlocksPerSM:
// its blocks per SM.
constexpr int kInitBlock = 256;
constexpr int kInitBlocksPerSM = 8;

struct PRDeltaPolicy {
    static constexpr bool kRows = false, kWeightRows = false;  // over the CSR
    using V = double;  // the share the item pushes along each out-arc
    using Arc = mg::worklist::NoArc;
    double damping, eps;
    double *x, *residual;

    __device__ bool has_buckets() const { return false; }
    __device__ uint32_t keep() const { return kAsyncKeep; }
    __device__ bool next_bucket(cg::grid_group &, Ring, uint32_t *, mg_async_state *) { return false; }

    __device__ __forceinline__ bool load(uint32_t v, uint32_t, uint64_t deg, double &share) const {
        // Absorb the whole residual (a later push starts a new one).
        const double r = __longlong_as_double(
            (long long)atomicExch(reinterpret_cast<unsigned long long *>(&residual[v]), 0ull));
        if (r <= 0.0) return false;
        atomicAdd(&x[v], r);  // atomic: a push may queue v again while this runs
        if (deg == 0) return false;  // dangling: the mass stays (as in the synchronous pr-delta)
        share = damping * r / (double)deg;
        return true;
    }
    __device__ __forceinline__ Arc arc(const double &, const mg_dlayout &, uint64_t) const { return Arc{}; }
    __device__ __forceinline__ bool relax(const double &share, const mg_dlayout &, const Arc &, uint32_t u,
                                          uint32_t &ival) const {
        const double old = atomicAdd(&residual[u], share);
        ival = 0;
        return old <= eps && old + share > eps;  // this push lifted it above eps: queue it (once)
    }
};

__global__ void prdelta_init_kernel(double *x, double *residual, uint64_t n) {
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += step) {
        x[v] = 0.0;
        residual[v] = 1.0;
    }
}

}  // namespace

extern "C" {

int mg_prdelta_async(int dev, const mg_dlayout *l, double damping, double eps, double *x, double *residual,
                     uint64_t *ring, uint32_t ring_log2, uint32_t *queued, mg_async_state *state,
                     uint32_t blocks_per_sm, mg_stream s, mg_event *ev, char *err, size_t errlen) {
    if (l == NULL || x == NULL || residual == NULL) return mg::invalid("mg_prdelta_async: NULL pointer", err, errlen);
    if (!(damping >= 0 && damping < 1) || !(eps > 0))
        return mg::invalid("mg_prdelta_async: damping must be in [0, 1) and eps positive", err, errlen);
    if (l->n > 0xffffffffull) return mg::invalid("mg_prdelta_async: more than 2^32 - 1 vertices", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    if (ev != NULL) MG_CHECK(cudaEventRecord((cudaEvent_t)ev[0], st));
    prdelta_init_kernel<<<mg::grid_for(dev, l->n, kInitBlock, kInitBlocksPerSM), kInitBlock, 0, st>>>(x, residual, l->n);
    MG_CHECK_LAUNCH("pr-delta async init");
    PRDeltaPolicy pol{damping, eps, x, residual};
    const int rc = run(pol, dev, l, NULL, (uint32_t)l->n, false, reinterpret_cast<unsigned long long *>(ring),
                       ring_log2, queued, state, blocks_per_sm, s, NULL, err, errlen);
    if (rc != MG_OK) return rc;
    if (ev != NULL) MG_CHECK(cudaEventRecord((cudaEvent_t)ev[1], st));
    return MG_OK;
}

}  // extern "C"
