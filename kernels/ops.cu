// ops.cu — the C API of the operators (mgraph.h, "Gunrock-style
// operators"): each entry point checks its arguments, picks the functor
// by id and launches the templates of ops.cuh. Every call is synchronous:
// the host learns the output's size before the app's next operator.
#include <cub/cub.cuh>

#include "fn_msf.cuh"
#include "fn_rank.cuh"
#include "fn_structure.cuh"
#include "fn_traverse.cuh"

namespace {

using namespace mg;

// Blocks per SM of the grid-stride operator launches.
constexpr int kBlocksPerSM = 8;

// The functor registry: id and struct of every functor in the library.
#define MG_FUNCTORS(X)                \
    X(MG_FN_BFS, fn::Bfs)             \
    X(MG_FN_SSSP, fn::Sssp)           \
    X(MG_FN_SIMPLE, fn::Simple)       \
    X(MG_FN_ORIENT, fn::Orient)       \
    X(MG_FN_TRI_COUNT, fn::TriCount)  \
    X(MG_FN_EQUALS, fn::Equals)       \
    X(MG_FN_KCORE_PEEL, fn::KcorePeel) \
    X(MG_FN_KCORE_DROP, fn::KcoreDrop) \
    X(MG_FN_LOCAL_MAX, fn::LocalMax)  \
    X(MG_FN_JP_COLOR, fn::JpColor)    \
    X(MG_FN_MIS_JOIN, fn::MisJoin)    \
    X(MG_FN_MIS_EXCLUDE, fn::MisExclude) \
    X(MG_FN_PR_DANGLING, fn::PrDangling) \
    X(MG_FN_PR_PULL, fn::PrPull)      \
    X(MG_FN_L1_DIFF, fn::L1Diff)      \
    X(MG_FN_SCALE, fn::Scale)         \
    X(MG_FN_GATHER, fn::Gather)       \
    X(MG_FN_PUSH_ADD, fn::PushAdd)    \
    X(MG_FN_IN_SET, fn::InSet)        \
    X(MG_FN_VALUE, fn::Value)         \
    X(MG_FN_FLAGGED, fn::Flagged)     \
    X(MG_FN_MSF_RESET, fn::MsfReset)  \
    X(MG_FN_MSF_MIN_WEIGHT, fn::MsfMinWeight) \
    X(MG_FN_MSF_MIN_EDGE, fn::MsfMinEdge) \
    X(MG_FN_MSF_HOOK, fn::MsfHook)    \
    X(MG_FN_MSF_APPLY, fn::MsfApply)  \
    X(MG_FN_MSF_JUMP, fn::MsfJump)

// dispatch calls body.template operator()<F>() for the functor of id fn,
// or reports an unknown id.
template <typename Body>
int dispatch(int fn, Body body, char *err, size_t errlen) {
    switch (fn) {
#define MG_CASE(id, type) \
    case id:              \
        return body.template run<type>();
        MG_FUNCTORS(MG_CASE)
#undef MG_CASE
    }
    char msg[64];
    snprintf(msg, sizeof msg, "unknown functor id %d", fn);
    return invalid(msg, err, errlen);
}

// Temp cuts the caller's scratch (mg_op_temp_bytes) into an accumulator
// (the first kAlign bytes), keep flags (n bytes) and CUB's temporary storage, each
// kAlign-aligned.
constexpr uint64_t kAlign = 256;
uint64_t align_up(uint64_t x) { return (x + kAlign - 1) / kAlign * kAlign; }
struct Temp {
    unsigned char *base;
    uint64_t bytes, n;
    void *acc() const { return base; }
    uint8_t *keep() const { return base + kAlign; }
    void *cub() const { return base + kAlign + align_up(n); }
    uint64_t cub_bytes() const { return bytes - kAlign - align_up(n); }
};

// take checks the caller's scratch for an input of n elements.
int take(void *temp, uint64_t temp_bytes, uint64_t n, Temp *t, char *err, size_t errlen) {
    uint64_t need = 0;
    if (int rc = mg_op_temp_bytes(n, &need, err, errlen)) return rc;
    if (temp == nullptr || temp_bytes < need) {
        char msg[128];
        snprintf(msg, sizeof msg, "operator scratch of %llu bytes, %llu needed for %llu elements",
                 (unsigned long long)temp_bytes, (unsigned long long)need, (unsigned long long)n);
        return invalid(msg, err, errlen);
    }
    *t = Temp{(unsigned char *)temp, temp_bytes, n};
    return MG_OK;
}

unsigned grid(int dev, uint64_t items) { return grid_for(dev, items, MG_OP_BLOCK, kBlocksPerSM); }

// check_in validates an input against the graph (or only its count).
int check_graph(const mg_op_graph *g, char *err, size_t errlen) {
    if (g == nullptr || g->offsets == nullptr || (g->m > 0 && g->dst == nullptr))
        return invalid("operator: graph without offsets or destinations", err, errlen);
    return MG_OK;
}

}  // namespace

namespace mg {
namespace ops {

__global__ void degrees_kernel(mg_op_graph g, mg_op_in in, uint64_t *deg) {
    for (uint64_t k = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; k < in.count; k += (uint64_t)gridDim.x * blockDim.x) {
        const uint32_t x = element(in, k);
        deg[k] = x == kSkip ? 0 : in.arcs ? 1 : g.offsets[x + 1] - g.offsets[x];
    }
}

__global__ void member_kernel(const uint32_t *list, uint64_t count, uint8_t *member) {
    for (uint64_t k = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; k < count; k += (uint64_t)gridDim.x * blockDim.x)
        member[list[k]] = 1;
}

__global__ void fill_kernel(void *p, int elem_bytes, uint64_t value, uint64_t n) {
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        if (elem_bytes == 1) ((uint8_t *)p)[i] = (uint8_t)value;
        else if (elem_bytes == 4) ((uint32_t *)p)[i] = (uint32_t)value;
        else ((uint64_t *)p)[i] = value;
    }
}

}  // namespace ops
}  // namespace mg

extern "C" int mg_op_temp_bytes(uint64_t n, uint64_t *bytes, char *err, size_t errlen) {
    size_t scan = 0, select = 0;
    uint64_t *u64 = nullptr;
    uint32_t *u32 = nullptr;
    uint8_t *flags = nullptr;
    unsigned long long *count = nullptr;
    const int items = (int)(n + 1 < (uint64_t)INT32_MAX ? n + 1 : INT32_MAX);
    MG_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan, u64, u64, items));
    MG_CHECK(cub::DeviceSelect::Flagged(nullptr, select, u32, flags, u32, count, items));
    *bytes = kAlign + align_up(n) + align_up(scan > select ? scan : select) + kAlign;
    return MG_OK;
}

extern "C" int mg_op_fill(int dev, void *p, int elem_bytes, uint64_t value, uint64_t n, char *err, size_t errlen) {
    if (elem_bytes != 1 && elem_bytes != 4 && elem_bytes != 8) return invalid("fill: element size not 1, 4 or 8", err, errlen);
    if (n == 0) return MG_OK;
    MG_SET_DEVICE(dev);
    ops::fill_kernel<<<grid(dev, n), MG_OP_BLOCK>>>(p, elem_bytes, value, n);
    MG_CHECK_LAUNCH("fill kernel");
    MG_SYNC("fill kernel");
    return MG_OK;
}

extern "C" int mg_op_advance_plan(int dev, const mg_op_graph *g, const mg_op_in *in, uint64_t *scan, uint64_t *arcs,
                                  void *temp, uint64_t temp_bytes, char *err, size_t errlen) {
    if (int rc = check_graph(g, err, errlen)) return rc;
    Temp t;
    if (int rc = take(temp, temp_bytes, in->count, &t, err, errlen)) return rc;
    MG_SET_DEVICE(dev);
    *arcs = 0;
    if (in->count == 0) return MG_OK;
    ops::degrees_kernel<<<grid(dev, in->count), MG_OP_BLOCK>>>(*g, *in, scan);
    MG_CHECK_LAUNCH("advance degrees kernel");
    // Exclusive scan of count+1 entries (the last, never written by the
    // kernel, is set to 0 first so the scan's last entry is the total).
    MG_CHECK(cudaMemset(scan + in->count, 0, sizeof(uint64_t)));
    size_t tb = t.cub_bytes();
    MG_CHECK(cub::DeviceScan::ExclusiveSum(t.cub(), tb, scan, scan, (int)(in->count + 1)));
    MG_SYNC("advance plan kernels (degrees, scan)");
    MG_CHECK(cudaMemcpy(arcs, scan + in->count, sizeof(uint64_t), cudaMemcpyDeviceToHost));
    return MG_OK;
}

namespace {

// reset zeroes what an output's kernels count into and cull with (its
// universe's bits and flags).
int reset_out(const mg_op_out *out, char *err, size_t errlen) {
    MG_CHECK(cudaMemset(out->count, 0, sizeof(unsigned long long)));
    if (out->bitmap != nullptr) MG_CHECK(cudaMemset(out->bitmap, 0, ((out->universe + 31) / 32) * sizeof(uint32_t)));
    if (out->flags != nullptr) MG_CHECK(cudaMemset(out->flags, 0, out->universe));
    return MG_OK;
}

// written reads an output's count back, failing when a list overflowed.
int read_written(const mg_op_out *out, uint64_t *written, char *err, size_t errlen) {
    unsigned long long c = 0;
    MG_CHECK(cudaMemcpy(&c, out->count, sizeof c, cudaMemcpyDeviceToHost));
    *written = c;
    if (out->list != nullptr && c > out->capacity) {
        char msg[128];
        snprintf(msg, sizeof msg, "operator output of %llu elements overflowed its list of %llu", c,
                 (unsigned long long)out->capacity);
        return invalid(msg, err, errlen);
    }
    return MG_OK;
}

}  // namespace

namespace {

struct AdvanceBody {
    int dev;
    const mg_op_args *a;
    const mg_op_graph *g;
    const mg_op_in *in;
    const uint64_t *scan;
    uint64_t arcs;
    int strategy;
    const mg_op_out *out;
    char *err;
    size_t errlen;
    template <typename F>
    int run() {
        switch (strategy) {
        case MG_LB_THREAD:
            ops::advance_thread<F><<<grid(dev, in->count), MG_OP_BLOCK>>>(*a, *g, *in, *out);
            break;
        case MG_LB_TWC:
            ops::advance_twc<F><<<grid(dev, in->count), MG_OP_BLOCK>>>(*a, *g, *in, *out);
            break;
        case MG_LB_MERGED:
            if (scan == nullptr) return invalid("advance: the merged strategy needs the plan's scan", err, errlen);
            ops::advance_merged<F><<<grid(dev, arcs), MG_OP_BLOCK>>>(*a, *g, *in, scan, arcs, *out);
            break;
        default:
            return invalid("advance: unknown load-balancing strategy", err, errlen);
        }
        MG_CHECK_LAUNCH("advance kernel");
        return MG_OK;
    }
};

// Lanes per vertex of the pull advance: most in-rows of a skewed graph are
// short, and a whole warp per vertex leaves most lanes idle.
constexpr int kPullGroup = 8;

struct PullBody {
    int dev;
    const mg_op_args *a;
    const mg_op_graph *g;
    const uint8_t *member;
    bool first;
    const mg_op_out *out;
    char *err;
    size_t errlen;
    template <typename F>
    int run() {
        ops::advance_pull<F, kPullGroup><<<grid(dev, g->n * kPullGroup), MG_OP_BLOCK>>>(*a, *g, member, first, *out);
        MG_CHECK_LAUNCH("pull advance kernel");
        return MG_OK;
    }
};

struct FilterBody {
    int dev;
    const mg_op_args *a;
    const mg_op_in *in;
    const mg_op_out *out;
    uint8_t *keep;
    char *err;
    size_t errlen;
    template <typename F>
    int run() {
        if (out != nullptr && out->flags != nullptr)
            ops::filter_dense<F><<<grid(dev, in->count), MG_OP_BLOCK>>>(*a, *in, *out);
        else
            ops::filter_flags<F><<<grid(dev, in->count), MG_OP_BLOCK>>>(*a, *in, out ? out->bitmap : nullptr, keep);
        MG_CHECK_LAUNCH("filter kernel");
        return MG_OK;
    }
};

struct SumBody {
    int dev;
    const mg_op_args *a;
    const mg_op_in *in;
    double *acc;
    char *err;
    size_t errlen;
    template <typename F>
    int run() {
        ops::sum_kernel<F><<<grid(dev, in->count), MG_OP_BLOCK>>>(*a, *in, acc);
        MG_CHECK_LAUNCH("sum kernel");
        return MG_OK;
    }
};

struct ReduceBody {
    int dev, op, width;
    const mg_op_args *a;
    const mg_op_graph *g;
    const mg_op_in *in;
    char *err;
    size_t errlen;
    template <typename F, typename R>
    void launch() {
        const unsigned blocks = grid(dev, in->count * (uint64_t)width);
        if (width == 32) ops::reduce_kernel<F, R, 32><<<blocks, MG_OP_BLOCK>>>(*a, *g, *in);
        else if (width == 8) ops::reduce_kernel<F, R, 8><<<blocks, MG_OP_BLOCK>>>(*a, *g, *in);
        else ops::reduce_kernel<F, R, 1><<<blocks, MG_OP_BLOCK>>>(*a, *g, *in);
    }
    template <typename F>
    int run() {
        if (op == MG_REDUCE_SUM) launch<F, ops::RSum>();
        else if (op == MG_REDUCE_MIN) launch<F, ops::RMin>();
        else launch<F, ops::RMax>();
        MG_CHECK_LAUNCH("reduce kernel");
        return MG_OK;
    }
};

struct IntersectBody {
    int dev;
    const mg_op_args *a;
    const mg_op_graph *g;
    const mg_op_in *in;
    unsigned long long *acc;
    char *err;
    size_t errlen;
    template <typename F>
    int run() {
        ops::intersect_kernel<F><<<grid(dev, in->count), MG_OP_BLOCK>>>(*a, *g, *in, acc);
        MG_CHECK_LAUNCH("intersect kernel");
        return MG_OK;
    }
};

struct CountBody {
    int dev;
    const mg_op_args *a;
    const mg_op_graph *g;
    uint64_t *counts;
    char *err;
    size_t errlen;
    template <typename F>
    int run() {
        if (g->n == 0) return MG_OK;
        ops::filter_arcs_count<F><<<grid(dev, g->n * 32), MG_OP_BLOCK>>>(*a, *g, counts);
        MG_CHECK_LAUNCH("filter-arcs count kernel");
        return MG_OK;
    }
};

struct WriteBody {
    int dev;
    const mg_op_args *a;
    const mg_op_graph *g;
    const uint64_t *offsets;
    uint32_t *dst, *weights;
    char *err;
    size_t errlen;
    template <typename F>
    int run() {
        ops::filter_arcs_write<F><<<grid(dev, g->n * 32), MG_OP_BLOCK>>>(*a, *g, offsets, dst, weights);
        MG_CHECK_LAUNCH("filter-arcs write kernel");
        return MG_OK;
    }
};

}  // namespace

extern "C" int mg_op_advance(int dev, int fn, const mg_op_args *a, const mg_op_graph *g, const mg_op_in *in,
                             const uint64_t *scan, uint64_t arcs, int strategy, const mg_op_out *out,
                             uint64_t *written, char *err, size_t errlen) {
    if (int rc = check_graph(g, err, errlen)) return rc;
    MG_SET_DEVICE(dev);
    if (out->what != MG_OUT_NONE)
        if (int rc = reset_out(out, err, errlen)) return rc;
    *written = 0;
    if (in->count == 0 || arcs == 0) return MG_OK;
    AdvanceBody body{dev, a, g, in, scan, arcs, strategy, out, err, errlen};
    if (int rc = dispatch(fn, body, err, errlen)) return rc;
    MG_SYNC("advance kernel");
    if (out->what == MG_OUT_NONE) return MG_OK;
    return read_written(out, written, err, errlen);
}

extern "C" int mg_op_advance_pull(int dev, int fn, const mg_op_args *a, const mg_op_graph *g, const mg_op_in *in,
                                  uint8_t *member, int first, const mg_op_out *out, uint64_t *written, char *err,
                                  size_t errlen) {
    if (int rc = check_graph(g, err, errlen)) return rc;
    if (out == nullptr || out->what != MG_OUT_VERTICES) return invalid("pull advance: the output must be vertices", err, errlen);
    if (in->arcs) return invalid("pull advance: the input must be vertices", err, errlen);
    MG_SET_DEVICE(dev);
    if (int rc = reset_out(out, err, errlen)) return rc;
    *written = 0;
    const uint8_t *set = nullptr;  // every vertex
    if (in->flags != nullptr) {
        if (in->count != g->n) return invalid("pull advance: input flags not over the graph's vertices", err, errlen);
        set = in->flags;
    } else if (in->list != nullptr) {
        if (member == nullptr) return invalid("pull advance: a list input needs member scratch", err, errlen);
        if (in->count == 0) return MG_OK;
        MG_CHECK(cudaMemset(member, 0, g->n));
        ops::member_kernel<<<grid(dev, in->count), MG_OP_BLOCK>>>(in->list, in->count, member);
        MG_CHECK_LAUNCH("pull advance member kernel");
        set = member;
    } else if (in->count == 0) {
        return MG_OK;
    }
    if (g->n == 0) return MG_OK;
    PullBody body{dev, a, g, set, first != 0, out, err, errlen};
    if (int rc = dispatch(fn, body, err, errlen)) return rc;
    MG_SYNC("pull advance kernels");
    return read_written(out, written, err, errlen);
}

extern "C" int mg_op_filter(int dev, int fn, const mg_op_args *a, const mg_op_in *in, const mg_op_out *out,
                            uint64_t *written, void *temp, uint64_t temp_bytes, char *err, size_t errlen) {
    MG_SET_DEVICE(dev);
    Temp t;
    if (int rc = take(temp, temp_bytes, in->count, &t, err, errlen)) return rc;
    *written = 0;
    const bool ordered = out != nullptr && out->list != nullptr;
    if (out != nullptr)
        if (int rc = reset_out(out, err, errlen)) return rc;
    if (in->count == 0) return MG_OK;
    FilterBody body{dev, a, in, out, ordered ? t.keep() : nullptr, err, errlen};
    if (int rc = dispatch(fn, body, err, errlen)) return rc;
    if (out == nullptr) {
        MG_SYNC("filter kernel");
        return MG_OK;
    }
    if (!ordered) {
        MG_SYNC("filter kernel");
        return read_written(out, written, err, errlen);
    }
    // Keep the input's order: select the flagged elements.
    size_t tb = t.cub_bytes();
    if (in->list != nullptr) {
        MG_CHECK(cub::DeviceSelect::Flagged(t.cub(), tb, in->list, t.keep(), out->list, out->count, (int)in->count));
    } else {
        cub::CountingInputIterator<uint32_t> ids(0);
        MG_CHECK(cub::DeviceSelect::Flagged(t.cub(), tb, ids, t.keep(), out->list, out->count, (int)in->count));
    }
    MG_SYNC("filter kernel");
    return read_written(out, written, err, errlen);
}

extern "C" int mg_op_sum(int dev, int fn, const mg_op_args *a, const mg_op_in *in, double *sum, void *temp,
                         uint64_t temp_bytes, char *err, size_t errlen) {
    MG_SET_DEVICE(dev);
    *sum = 0;
    if (in->count == 0) return MG_OK;
    Temp t;
    if (int rc = take(temp, temp_bytes, 0, &t, err, errlen)) return rc;
    void *const acc = t.acc();
    MG_CHECK(cudaMemset(acc, 0, sizeof(double)));
    SumBody body{dev, a, in, (double *)acc, err, errlen};
    if (int rc = dispatch(fn, body, err, errlen)) return rc;
    MG_SYNC("sum kernel");
    MG_CHECK(cudaMemcpy(sum, acc, sizeof(double), cudaMemcpyDeviceToHost));
    return MG_OK;
}

extern "C" int mg_op_reduce(int dev, int fn, const mg_op_args *a, const mg_op_graph *g, const mg_op_in *in, int op,
                            char *err, size_t errlen) {
    if (int rc = check_graph(g, err, errlen)) return rc;
    if (op != MG_REDUCE_SUM && op != MG_REDUCE_MIN && op != MG_REDUCE_MAX)
        return invalid("reduce: unknown reduction", err, errlen);
    MG_SET_DEVICE(dev);
    if (in->count == 0) return MG_OK;
    // The group width follows the rows' average length.
    const uint64_t avg = g->n ? g->m / g->n : 0;
    const int width = avg >= 16 ? 32 : avg >= 4 ? 8 : 1;
    ReduceBody body{dev, op, width, a, g, in, err, errlen};
    if (int rc = dispatch(fn, body, err, errlen)) return rc;
    MG_SYNC("reduce kernel");
    return MG_OK;
}

extern "C" int mg_op_intersect(int dev, int fn, const mg_op_args *a, const mg_op_graph *g, const mg_op_in *in,
                               uint64_t *total, void *temp, uint64_t temp_bytes, char *err, size_t errlen) {
    if (int rc = check_graph(g, err, errlen)) return rc;
    MG_SET_DEVICE(dev);
    *total = 0;
    if (in->count == 0) return MG_OK;
    Temp t;
    if (int rc = take(temp, temp_bytes, 0, &t, err, errlen)) return rc;
    void *const acc = t.acc();
    MG_CHECK(cudaMemset(acc, 0, sizeof(unsigned long long)));
    IntersectBody body{dev, a, g, in, (unsigned long long *)acc, err, errlen};
    if (int rc = dispatch(fn, body, err, errlen)) return rc;
    MG_SYNC("intersect kernel");
    MG_CHECK(cudaMemcpy(total, acc, sizeof(uint64_t), cudaMemcpyDeviceToHost));
    return MG_OK;
}

extern "C" int mg_op_filter_arcs_count(int dev, int fn, const mg_op_args *a, const mg_op_graph *g, uint64_t *offsets,
                                       uint64_t *kept, void *temp, uint64_t temp_bytes, char *err, size_t errlen) {
    if (int rc = check_graph(g, err, errlen)) return rc;
    MG_SET_DEVICE(dev);
    Temp t;
    if (int rc = take(temp, temp_bytes, g->n, &t, err, errlen)) return rc;
    *kept = 0;
    MG_CHECK(cudaMemset(offsets + g->n, 0, sizeof(uint64_t)));
    CountBody body{dev, a, g, offsets, err, errlen};
    if (int rc = dispatch(fn, body, err, errlen)) return rc;
    size_t tb = t.cub_bytes();
    MG_CHECK(cub::DeviceScan::ExclusiveSum(t.cub(), tb, offsets, offsets, (int)(g->n + 1)));
    MG_SYNC("filter-arcs count kernels (count, scan)");
    MG_CHECK(cudaMemcpy(kept, offsets + g->n, sizeof(uint64_t), cudaMemcpyDeviceToHost));
    return MG_OK;
}

extern "C" int mg_op_filter_arcs_write(int dev, int fn, const mg_op_args *a, const mg_op_graph *g,
                                       const uint64_t *offsets, uint32_t *dst, uint32_t *weights, char *err,
                                       size_t errlen) {
    if (int rc = check_graph(g, err, errlen)) return rc;
    MG_SET_DEVICE(dev);
    if (g->n == 0) return MG_OK;
    WriteBody body{dev, a, g, offsets, dst, weights, err, errlen};
    if (int rc = dispatch(fn, body, err, errlen)) return rc;
    MG_SYNC("filter-arcs write kernel");
    return MG_OK;
}
