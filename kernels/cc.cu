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
// partitioned graph (mg_cc_hook_all) has ghosts without rows: each gets
// the list of the part's vertices whose rows name it (mg_cc_rowless_in),
// read in place of its row, so that every edge is seen from both ends and
// the skipping stays right.
#include <cub/cub.cuh>

#include "internal.cuh"

namespace {

constexpr int kBlock = MG_CC_BLOCK;
constexpr int kWarpsPerBlock = kBlock / 32;
constexpr int kBlocksPerSM = 8;

unsigned grid_for(int dev, uint64_t items) { return mg::grid_for(dev, items, kBlock, kBlocksPerSM); }

// Parent pointers are read around the L1 cache (__ldcg): other SMs change
// them, and a stale cached pointer would make link retry forever.
__device__ __forceinline__ uint32_t parent_of(const uint32_t *parent, uint32_t v) { return __ldcg(&parent[v]); }

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

// list_of returns v's neighbours' range: its row in dst, or, when the row
// is empty and in_offsets is given, its list in in_src (*from_in set).
__device__ __forceinline__ void list_of(const uint64_t *__restrict__ offsets, const uint64_t *__restrict__ in_offsets,
                                        uint64_t v, uint64_t *lo, uint64_t *hi, bool *from_in) {
    *lo = offsets[v];
    *hi = offsets[v + 1];
    *from_in = false;
    if (*lo == *hi && in_offsets != NULL) {
        *lo = in_offsets[v];
        *hi = in_offsets[v + 1];
        *from_in = true;
    }
}

__global__ void __launch_bounds__(kBlock) init_kernel(uint32_t *parent, uint64_t n) {
    for (uint64_t v = (uint64_t)blockIdx.x * kBlock + threadIdx.x; v < n; v += (uint64_t)gridDim.x * kBlock)
        parent[v] = (uint32_t)v;
}

// sample_kernel links every vertex with its r-th neighbour, if it has one
// (in its row, or its in-list: list_of).
__global__ void __launch_bounds__(kBlock)
    sample_kernel(const uint64_t *__restrict__ offsets, const uint32_t *__restrict__ dst,
                  const uint64_t *__restrict__ in_offsets, const uint32_t *__restrict__ in_src, uint64_t n, uint32_t r,
                  uint32_t *parent) {
    for (uint64_t v = (uint64_t)blockIdx.x * kBlock + threadIdx.x; v < n; v += (uint64_t)gridDim.x * kBlock) {
        uint64_t lo, hi;
        bool from_in;
        list_of(offsets, in_offsets, v, &lo, &hi, &from_in);
        if (lo + r < hi) link((uint32_t)v, (from_in ? in_src : dst)[lo + r], parent);
    }
}

// compress_kernel points every vertex straight at its root.
__global__ void __launch_bounds__(kBlock) compress_kernel(uint32_t *parent, uint64_t n) {
    for (uint64_t v = (uint64_t)blockIdx.x * kBlock + threadIdx.x; v < n; v += (uint64_t)gridDim.x * kBlock)
        parent[v] = find(parent, (uint32_t)v);
}

// finish_kernel: each warp takes 32 consecutive vertices; those outside the
// component of vertex 0 (parent != 0 after the compression) link with all
// their neighbours past the sampled ones (their rows, or their in-lists:
// list_of), but the rows of chunked_degree
// arcs or more, which are chunks_kernel's; the whole warp strides over one
// such vertex's list at a time (so a hub is not left to one thread).
__global__ void __launch_bounds__(kBlock)
    finish_kernel(const uint64_t *__restrict__ offsets, const uint32_t *__restrict__ dst,
                  const uint64_t *__restrict__ in_offsets, const uint32_t *__restrict__ in_src, uint64_t n,
                  uint64_t chunked_degree, uint32_t *parent) {
    const int lane = threadIdx.x & 31;
    const uint64_t warps = (uint64_t)gridDim.x * kWarpsPerBlock;
    for (uint64_t base = ((uint64_t)blockIdx.x * kWarpsPerBlock + (threadIdx.x >> 5)) * 32; base < n;
         base += warps * 32) {
        const uint64_t v = base + lane;
        uint64_t lo = 0, hi = 0;
        bool from_in = false;
        if (v < n && parent_of(parent, (uint32_t)v) != 0) {
            list_of(offsets, in_offsets, v, &lo, &hi, &from_in);
            if (!from_in && hi - lo >= chunked_degree) hi = lo;  // the chunks' (chunks_kernel)
            lo = min(lo + MG_CC_NEIGHBOR_ROUNDS, hi);
        }
        uint32_t todo = __ballot_sync(0xffffffffu, lo < hi);
        const uint32_t in_lanes = __ballot_sync(0xffffffffu, from_in);
        while (todo != 0) {
            const int k = __ffs(todo) - 1;
            todo &= todo - 1;
            const uint64_t klo = __shfl_sync(0xffffffffu, lo, k), khi = __shfl_sync(0xffffffffu, hi, k);
            const uint32_t *list = (in_lanes >> k) & 1u ? in_src : dst;
            for (uint64_t e = klo + lane; e < khi; e += 32) link((uint32_t)(base + k), list[e], parent);
        }
    }
}

// chunks_kernel: block b takes chunk b (grid-stride), its threads linking
// the chunk's arcs with its row's vertex, unless the vertex is in vertex
// 0's component (then each of those arcs is inside it, or linked from its
// other end).
__global__ void __launch_bounds__(kBlock)
    chunks_kernel(const uint64_t *__restrict__ offsets, const uint32_t *__restrict__ dst,
                  const mg_cc_chunk *__restrict__ chunks, uint64_t num_chunks, uint32_t *parent) {
    for (uint64_t c = blockIdx.x; c < num_chunks; c += gridDim.x) {
        const mg_cc_chunk k = chunks[c];
        if (parent_of(parent, k.row) == 0) continue;  // block-uniform: one read of one entry
        const uint64_t lo = offsets[k.row] + k.first, hi = min(offsets[k.row + 1], lo + MG_CC_CHUNK_ARCS);
        for (uint64_t e = lo + threadIdx.x; e < hi; e += kBlock) link(k.row, dst[e], parent);
    }
}

// rowless_kernel: warp per vertex (grid-stride), its lanes over the row;
// every arc to a vertex without a row counts one in deg (in_src NULL:
// 64-bit counts, whose sum may pass 2^32), or takes a slot of that
// vertex's in-list (deg: the slots taken, fewer than n).
template <typename Count>
__global__ void __launch_bounds__(kBlock)
    rowless_kernel(const uint64_t *__restrict__ offsets, const uint32_t *__restrict__ dst, uint64_t n, Count *deg,
                   const uint64_t *__restrict__ in_offsets, uint32_t *in_src) {
    const uint64_t warps = (uint64_t)gridDim.x * kWarpsPerBlock;
    const uint32_t lane = threadIdx.x & 31;
    for (uint64_t v = ((uint64_t)blockIdx.x * kBlock + threadIdx.x) / 32; v < n; v += warps)
        for (uint64_t e = offsets[v] + lane; e < offsets[v + 1]; e += 32) {
            const uint32_t w = dst[e];
            if (offsets[w] != offsets[w + 1]) continue;
            const Count slot = atomicAdd(&deg[w], (Count)1);
            if (in_src != NULL) in_src[in_offsets[w] + slot] = (uint32_t)v;
        }
}

// hook is mg_cc_hook (no in-lists) and mg_cc_hook_all: the vertices in
// layout vertex 0's component after sampling skip the rest of their lists.
int hook(int dev, const mg_dlayout *l, uint32_t *parent, cudaStream_t st, mg_event *ev, const mg_cc_chunk *chunks,
         uint64_t num_chunks, const uint64_t *in_offsets, const uint32_t *in_src, char *err, size_t errlen) {
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
            sample_kernel<<<grid, kBlock, 0, st>>>(l->sparse_offsets, l->sparse_dst, in_offsets, in_src, n, r, parent);
            MG_CHECK_LAUNCH("cc sample_kernel<<<grid, MG_CC_BLOCK, 0, s>>>");
        }
        compress_kernel<<<grid, kBlock, 0, st>>>(parent, n);
        MG_CHECK_LAUNCH("cc compress_kernel<<<grid, MG_CC_BLOCK, 0, s>>> (after sampling)");
    }
    MG_RECORD(1);
    if (n > 0) {
        finish_kernel<<<grid_for(dev, (n + 31) / 32 * 32), kBlock, 0, st>>>(
            l->sparse_offsets, l->sparse_dst, in_offsets, in_src, n, num_chunks > 0 ? MG_CC_HEAVY_DEGREE : UINT64_MAX, parent);
        MG_CHECK_LAUNCH("cc finish_kernel<<<grid, MG_CC_BLOCK, 0, s>>>");
    }
    if (num_chunks > 0) {
        chunks_kernel<<<grid_for(dev, num_chunks * kBlock), kBlock, 0, st>>>(l->sparse_offsets, l->sparse_dst, chunks,
                                                                            num_chunks, parent);
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
    return hook(dev, l, parent, (cudaStream_t)s, ev, NULL, 0, NULL, NULL, err, errlen);
}

int mg_cc_hook_all(int dev, const mg_dlayout *l, uint32_t *parent, const mg_cc_chunk *chunks, uint64_t num_chunks,
                   const uint64_t *in_offsets, const uint32_t *in_src, char *err, size_t errlen) {
    if (l != NULL && l->n > 0 && in_offsets == NULL) return mg::invalid("mg_cc_hook_all: NULL in_offsets", err, errlen);
    if (int rc = hook(dev, l, parent, 0, NULL, chunks, num_chunks, in_offsets, in_src, err, errlen)) return rc;
    MG_SYNC("mg_cc_hook_all");
    return MG_OK;
}

int mg_cc_rowless_in(int dev, const mg_dlayout *l, uint64_t *in_offsets, uint32_t *in_src, uint32_t *cursor,
                     uint64_t *total, char *err, size_t errlen) {
    if (l == NULL || in_offsets == NULL || total == NULL || (l->n > 0 && cursor == NULL))
        return mg::invalid("mg_cc_rowless_in: NULL pointer", err, errlen);
    if (l->n > 0 && (l->sparse_offsets == NULL || (l->m > 0 && l->sparse_dst == NULL)))
        return mg::invalid("mg_cc_rowless_in: the layout's sparse part is not on the device", err, errlen);
    if (l->n >= 0x7fffffffu) return mg::invalid("mg_cc_rowless_in: 2^31-1 vertices or more (one scan)", err, errlen);
    MG_SET_DEVICE(dev);
    const uint64_t n = l->n;
    *total = 0;
    if (n == 0) return MG_OK;
    const unsigned grid = grid_for(dev, n * 32);
    MG_CHECK(cudaMemsetAsync(cursor, 0, n * sizeof(uint32_t), 0));
    if (in_src == NULL) {
        // The lists' lengths, then their exclusive sum over n+1 entries
        // (the last is counted as 0) into in_offsets.
        unsigned long long *deg = NULL;
        MG_CHECK(cudaMalloc(&deg, (n + 1) * sizeof(unsigned long long)));
        int rc = MG_OK;
        size_t tb = 0;
        void *tmp = NULL;
        cudaError_t e = cudaMemsetAsync(deg, 0, (n + 1) * sizeof(unsigned long long), 0);
        if (e == cudaSuccess) {
            rowless_kernel<<<grid, kBlock>>>(l->sparse_offsets, l->sparse_dst, n, deg, NULL, NULL);
            e = cudaGetLastError();
        }
        if (e == cudaSuccess) e = cub::DeviceScan::ExclusiveSum(nullptr, tb, deg, in_offsets, (int)(n + 1));
        if (e == cudaSuccess) e = cudaMalloc(&tmp, tb > 0 ? tb : 1);
        if (e == cudaSuccess) e = cub::DeviceScan::ExclusiveSum(tmp, tb, deg, in_offsets, (int)(n + 1));
        if (e == cudaSuccess) e = cudaMemcpy(total, in_offsets + n, sizeof(uint64_t), cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) rc = mg::fail(e, "mg_cc_rowless_in (count and scan)", err, errlen);
        cudaFree(tmp);
        cudaFree(deg);
        return rc;
    }
    rowless_kernel<<<grid, kBlock>>>(l->sparse_offsets, l->sparse_dst, n, cursor, in_offsets, in_src);
    MG_CHECK_LAUNCH("cc rowless_kernel<<<grid, MG_CC_BLOCK>>> (fill)");
    MG_SYNC("mg_cc_rowless_in (fill)");
    return MG_OK;
}

}  // extern "C"
