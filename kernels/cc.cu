// cc.cu — connected components by hooking and compressing, the Afforest
// scheme (Sutton, Ben-Nun and Barak, IPDPS 2018) over the layout's sparse
// part: a lock-free union-find whose roots are always the smallest id of
// their tree (a root is only ever hooked under a smaller one; finds halve
// their paths, as ECL-CC's do), a few
// rounds that link each vertex with one neighbour at a time, compression,
// and then only the vertices outside the component of layout vertex 0 look
// at the rest of their arcs. Vertex 0 is the first of the largest in-degree
// group, and 0 is the root of its own tree whatever happens, so "outside
// the big component" is parent[v] != 0 after compression. A part of a
// partitioned graph (mg_cc_hook_all) skips nothing: its ghosts have no
// out-rows of their own to link them with.
#include "internal.cuh"

namespace {

constexpr int kBlock = MG_CC_BLOCK;
constexpr int kWarpsPerBlock = kBlock / 32;
constexpr int kBlocksPerSM = 8;

unsigned grid_for(int dev, uint64_t items) { return mg::grid_for(dev, items, kBlock, kBlocksPerSM); }

// Parent pointers are read around the L1 cache (__ldcg): other SMs change
// them, and a stale cached pointer would make link retry forever.
__device__ __forceinline__ uint32_t parent_of(const uint32_t *parent, uint32_t v) { return __ldcg(&parent[v]); }

// in_big says whether v was in the component of vertex 0 after sampling
// (bit v of big; false without big). Two such vertices are in one tree
// already, so their arc need not be linked: a part's hooking, which
// cannot skip whole rows (its ghosts have none), skips those arcs.
__device__ __forceinline__ bool in_big(const uint32_t *__restrict__ big, uint32_t v) {
    return big != NULL && ((big[v >> 5] >> (v & 31)) & 1u);
}

// find returns the root of v's tree, halving the path on the way (each
// vertex passed is pointed at its grandparent: a plain store of an
// ancestor, harmless whoever else writes it). Trees hooked by thousands of
// threads at once form long chains (on a grid, every vertex hooked under
// its left neighbour in one wave); halving keeps later walks short.
__device__ __forceinline__ uint32_t find(uint32_t *parent, uint32_t v) {
    uint32_t p = parent_of(parent, v);
    while (true) {
        const uint32_t pp = parent_of(parent, p);
        if (pp == p) return p;
        parent[v] = pp;
        v = pp;
        p = parent_of(parent, v);
    }
}

// link merges the trees of u and v: the higher of their roots is hooked
// under the lower with one atomicCAS, retried from the new roots when
// another thread hooked first.
__device__ void link(uint32_t u, uint32_t v, uint32_t *parent) {
    uint32_t p1 = find(parent, u), p2 = find(parent, v);
    while (p1 != p2) {
        const uint32_t high = max(p1, p2), low = min(p1, p2);
        if (atomicCAS(&parent[high], high, low) == high) return;
        p1 = find(parent, high);
        p2 = find(parent, low);
    }
}

__global__ void __launch_bounds__(kBlock) init_kernel(uint32_t *parent, uint64_t n) {
    for (uint64_t v = (uint64_t)blockIdx.x * kBlock + threadIdx.x; v < n; v += (uint64_t)gridDim.x * kBlock)
        parent[v] = (uint32_t)v;
}

// sample_kernel links every vertex with its r-th neighbour, if it has one.
__global__ void __launch_bounds__(kBlock)
    sample_kernel(const uint64_t *__restrict__ offsets, const uint32_t *__restrict__ dst, uint64_t n, uint32_t r,
                  uint32_t *parent) {
    for (uint64_t v = (uint64_t)blockIdx.x * kBlock + threadIdx.x; v < n; v += (uint64_t)gridDim.x * kBlock) {
        const uint64_t e = offsets[v] + r;
        if (e < offsets[v + 1]) link((uint32_t)v, dst[e], parent);
    }
}

// compress_kernel points every vertex straight at its root.
__global__ void __launch_bounds__(kBlock) compress_kernel(uint32_t *parent, uint64_t n) {
    for (uint64_t v = (uint64_t)blockIdx.x * kBlock + threadIdx.x; v < n; v += (uint64_t)gridDim.x * kBlock)
        parent[v] = find(parent, (uint32_t)v);
}

// finish_kernel: each warp takes 32 consecutive vertices; those outside the
// component of vertex 0 (parent != 0 after the compression; every vertex
// without skip_big) and whose rows are shorter than chunked_degree (the
// longer ones are chunks_kernel's) link with all
// their neighbours past the sampled ones, the whole warp striding over one
// such vertex's arcs at a time (so a hub is not left to one thread).
__global__ void __launch_bounds__(kBlock)
    finish_kernel(const uint64_t *__restrict__ offsets, const uint32_t *__restrict__ dst, uint64_t n, bool skip_big,
                  uint64_t chunked_degree, const uint32_t *__restrict__ big, uint32_t *parent) {
    const int lane = threadIdx.x & 31;
    const uint64_t warps = (uint64_t)gridDim.x * kWarpsPerBlock;
    for (uint64_t base = ((uint64_t)blockIdx.x * kWarpsPerBlock + (threadIdx.x >> 5)) * 32; base < n;
         base += warps * 32) {
        const uint64_t v = base + lane;
        uint64_t lo = 0, hi = 0;
        const bool v_big = v < n && in_big(big, (uint32_t)v);
        if (v < n && (!skip_big || parent_of(parent, (uint32_t)v) != 0)) {
            lo = offsets[v] + MG_CC_NEIGHBOR_ROUNDS;
            hi = offsets[v + 1];
            if (hi - offsets[v] >= chunked_degree) hi = lo;  // the chunks' (chunks_kernel)
        }
        uint32_t todo = __ballot_sync(0xffffffffu, lo < hi);
        while (todo != 0) {
            const int k = __ffs(todo) - 1;
            todo &= todo - 1;
            const uint64_t klo = __shfl_sync(0xffffffffu, lo, k), khi = __shfl_sync(0xffffffffu, hi, k);
            const bool k_big = __shfl_sync(0xffffffffu, v_big, k);
            for (uint64_t e = klo + lane; e < khi; e += 32) {
                const uint32_t w = dst[e];
                if (!(k_big && in_big(big, w))) link((uint32_t)(base + k), w, parent);
            }
        }
    }
}

// chunks_kernel: block b takes chunk b (grid-stride), its threads linking
// the chunk's arcs with its row's vertex.
__global__ void __launch_bounds__(kBlock)
    chunks_kernel(const uint64_t *__restrict__ offsets, const uint32_t *__restrict__ dst,
                  const mg_cc_chunk *__restrict__ chunks, uint64_t num_chunks, const uint32_t *__restrict__ big,
                  uint32_t *parent) {
    for (uint64_t c = blockIdx.x; c < num_chunks; c += gridDim.x) {
        const mg_cc_chunk k = chunks[c];
        const uint64_t lo = offsets[k.row] + k.first, hi = min(offsets[k.row + 1], lo + MG_CC_CHUNK_ARCS);
        const bool row_big = in_big(big, k.row);
        for (uint64_t e = lo + threadIdx.x; e < hi; e += kBlock) {
            const uint32_t w = dst[e];
            if (!(row_big && in_big(big, w))) link(k.row, w, parent);
        }
    }
}

// big_kernel sets bit v of big (a word per 32 vertices) when v is in the
// component of vertex 0 (after the sampling's compression), a warp per
// word.
__global__ void __launch_bounds__(kBlock) big_kernel(const uint32_t *parent, uint64_t n, uint32_t *big) {
    const uint64_t words = (n + 31) / 32;
    for (uint64_t base = (uint64_t)blockIdx.x * kBlock; base < words * 32; base += (uint64_t)gridDim.x * kBlock) {
        const uint64_t v = base + threadIdx.x;
        const uint32_t bits = __ballot_sync(0xffffffffu, v < n && parent_of(parent, (uint32_t)v) == 0);
        if ((threadIdx.x & 31) == 0 && v / 32 < words) big[v / 32] = bits;
    }
}

// hook is mg_cc_hook (skip_big: the arcs of the vertices in layout vertex
// 0's component after sampling are not looked at) and mg_cc_hook_all.
int hook(int dev, const mg_dlayout *l, uint32_t *parent, cudaStream_t st, mg_event *ev, bool skip_big,
         const mg_cc_chunk *chunks, uint64_t num_chunks, uint32_t *big, char *err, size_t errlen) {
    if (l == NULL || (l->n > 0 && (parent == NULL || l->sparse_offsets == NULL)))
        return mg::invalid("mg_cc_hook: NULL pointer", err, errlen);
    if (l->n > 0 && l->m > 0 && l->sparse_dst == NULL) return mg::invalid("mg_cc_hook: NULL sparse_dst", err, errlen);
    if (num_chunks > 0 && chunks == NULL) return mg::invalid("mg_cc_hook_all: NULL chunks", err, errlen);
    MG_SET_DEVICE(dev);
    const uint64_t n = l->n;
    MG_RECORD(0);
    if (n > 0) {
        const unsigned grid = grid_for(dev, n);
        init_kernel<<<grid, kBlock, 0, st>>>(parent, n);
        MG_CHECK_LAUNCH("cc init_kernel<<<grid, MG_CC_BLOCK, 0, s>>>");
        for (uint32_t r = 0; r < MG_CC_NEIGHBOR_ROUNDS; r++) {
            sample_kernel<<<grid, kBlock, 0, st>>>(l->sparse_offsets, l->sparse_dst, n, r, parent);
            MG_CHECK_LAUNCH("cc sample_kernel<<<grid, MG_CC_BLOCK, 0, s>>>");
        }
        compress_kernel<<<grid, kBlock, 0, st>>>(parent, n);
        MG_CHECK_LAUNCH("cc compress_kernel<<<grid, MG_CC_BLOCK, 0, s>>> (after sampling)");
        if (big != NULL) {
            big_kernel<<<grid, kBlock, 0, st>>>(parent, n, big);
            MG_CHECK_LAUNCH("cc big_kernel<<<grid, MG_CC_BLOCK, 0, s>>>");
        }
    }
    MG_RECORD(1);
    if (n > 0) {
        finish_kernel<<<grid_for(dev, (n + 31) / 32 * 32), kBlock, 0, st>>>(l->sparse_offsets, l->sparse_dst, n,
                                                                           skip_big, num_chunks > 0 ? MG_CC_HEAVY_DEGREE : UINT64_MAX, big, parent);
        MG_CHECK_LAUNCH("cc finish_kernel<<<grid, MG_CC_BLOCK, 0, s>>>");
    }
    if (num_chunks > 0) {
        chunks_kernel<<<grid_for(dev, num_chunks * kBlock), kBlock, 0, st>>>(l->sparse_offsets, l->sparse_dst, chunks,
                                                                            num_chunks, big, parent);
        MG_CHECK_LAUNCH("cc chunks_kernel<<<grid, MG_CC_BLOCK, 0, s>>>");
    }
    MG_RECORD(2);
    if (n > 0) {
        compress_kernel<<<grid_for(dev, n), kBlock, 0, st>>>(parent, n);
        MG_CHECK_LAUNCH("cc compress_kernel<<<grid, MG_CC_BLOCK, 0, s>>> (final)");
    }
    MG_RECORD(3);
    return MG_OK;
}

}  // namespace

extern "C" {

int mg_cc_hook(int dev, const mg_dlayout *l, uint32_t *parent, mg_stream s, mg_event *ev, char *err, size_t errlen) {
    return hook(dev, l, parent, (cudaStream_t)s, ev, true, NULL, 0, NULL, err, errlen);
}

int mg_cc_hook_all(int dev, const mg_dlayout *l, uint32_t *parent, const mg_cc_chunk *chunks, uint64_t num_chunks,
                   uint32_t *big, char *err, size_t errlen) {
    if (int rc = hook(dev, l, parent, 0, NULL, false, chunks, num_chunks, big, err, errlen)) return rc;
    MG_SYNC("mg_cc_hook_all");
    return MG_OK;
}

}  // extern "C"
