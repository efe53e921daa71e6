// preprocess.cu — the dual layout (docs/layout.md) built on the device,
// byte-identical to the CPU builder (preprocess/build.go, dense.go).
//
// The CPU builder's three stable counting sorts become three stable CUB
// radix sorts of the arcs (ties keep input order, as there):
//
//   1. by new source s'                  -> (s', input order)
//   2. by (row panel, column panel, d')  -> block order: (r, c, d', s', input)
//   3. by s'                             -> sparse order: (s', d', input)
//
// Block order serves the whole dense part: a run of equal sort-2 keys is
// one (destination, block) pair, a run of runs is one non-empty block (row
// panel major, then column), so run-length encodings give the block list
// with edge and destination counts; scans give heavy indices, matrix
// offsets, stream slots; a sort of the light blocks by (column, row) and a
// scan give the light positions. Light edges are written one thread per
// arc; each heavy matrix by one thread block (thread 0 walks the columns to
// find where each starts and whether it begins with a repeated marker, then
// all threads fill the entries row by row). Sort 3 gives the sparse rows;
// offsets and segment splits are binary searches.
#include <cub/cub.cuh>

#include <algorithm>
#include <cstring>
#include <new>
#include <type_traits>
#include <vector>

#include "internal.cuh"

namespace {

constexpr int TPB = 256;            // threads per block of the elementwise kernels
constexpr int HEAVY_TPB = 256;      // threads per heavy block
constexpr int HEAVY_CHUNK = 1024;   // columns placed per step of a heavy block

// A device allocation owned by a Builder (which counts live and peak bytes).
struct Buf {
    void *p = nullptr;
    uint64_t bytes = 0;
    template <typename T>
    T *as() const { return (T *)p; }
};

// Per-block facts the light kernel needs, in one 32-byte load.
struct BlockInfo {
    uint64_t light_pos;  // first index in the light arrays (light blocks)
    uint64_t slot;       // first stream slot
    uint32_t edge_start; // first arc in block order
    uint32_t col;        // column panel
    uint32_t heavy;
    uint32_t pad;
};

// Group thresholds, passed by value.
struct Thresholds {
    unsigned long long t[MG_PP_MAX_THRESHOLDS];
    int k;
};

__host__ __device__ __forceinline__ uint32_t lo32(uint32_t v) { return v; }
__host__ __device__ __forceinline__ uint32_t lo32(uint64_t v) { return (uint32_t)v; }
__host__ __device__ __forceinline__ uint32_t hi32(uint32_t) { return 0; }
__host__ __device__ __forceinline__ uint32_t hi32(uint64_t v) { return (uint32_t)(v >> 32); }

template <typename V>
__device__ __forceinline__ V pack(uint32_t x, uint32_t w);
template <>
__device__ __forceinline__ uint32_t pack<uint32_t>(uint32_t x, uint32_t) { return x; }
template <>
__device__ __forceinline__ uint64_t pack<uint64_t>(uint32_t x, uint32_t w) {
    return (uint64_t)x | ((uint64_t)w << 32);
}

#define GRID_STRIDE(i, n) \
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (uint64_t)gridDim.x * blockDim.x)

// --- kernels -------------------------------------------------------------

__global__ void k_indeg(const uint32_t *dst, uint64_t m, uint32_t *deg) {
    GRID_STRIDE(i, m) atomicAdd(&deg[dst[i]], 1u);
}

__global__ void k_group(const uint32_t *deg, uint64_t n, Thresholds thr, uint8_t *grp, uint32_t *iota) {
    GRID_STRIDE(v, n) {
        unsigned long long d = deg[v];
        int g = thr.k;
        for (int i = 0; i < thr.k; i++)
            if (d >= thr.t[i]) {
                g = i;
                break;
            }
        grp[v] = (uint8_t)g;
        iota[v] = (uint32_t)v;
    }
}

__global__ void k_inv_to_perm(const uint32_t *inv, uint64_t n, uint32_t *perm) {
    GRID_STRIDE(i, n) perm[inv[i]] = (uint32_t)i;
}

// out[q] = lower_bound(a[0..n), q * mul) for q in [0, nq).
template <typename T>
__global__ void k_lower_bounds(const T *a, uint64_t n, uint64_t nq, uint64_t mul, uint64_t *out) {
    GRID_STRIDE(q, nq) out[q] = mg::lower_bound<T>(a, n, (T)(q * mul));
}

// src[i] <- perm[src[i]] (in place), val[i] <- (perm[dst[i]], weight).
template <typename V>
__global__ void k_map(uint32_t *src, const uint32_t *dst, const uint32_t *w, uint64_t m, const uint32_t *perm, V *val) {
    GRID_STRIDE(i, m) {
        src[i] = perm[src[i]];
        val[i] = pack<V>(perm[dst[i]], w != nullptr ? w[i] : 0u);
    }
}

// The sort-2 key of arc i (sources s sorted, values (d', w)): block
// (r·C + c) times P plus the row-panel-local destination. With weights the
// value becomes (s', w) in place; without, the value is s itself.
template <typename V>
__global__ void k_block_keys(const uint32_t *s, V *val, uint64_t m, uint32_t P, uint64_t C, uint64_t *key) {
    GRID_STRIDE(i, m) {
        uint32_t src = s[i];
        V x = val[i];
        uint32_t d = lo32(x);
        uint64_t r = d / P, c = src / P;
        key[i] = (r * C + c) * P + (d - r * P);
        if (sizeof(V) == 8) val[i] = pack<V>(src, hi32(x));
    }
}

struct DivBy {
    uint64_t p;
    __host__ __device__ __forceinline__ uint64_t operator()(const uint64_t &x) const { return x / p; }
};

// Per block b (NB of them, in order): its row, column, edges, heaviness, and
// the inputs of the scans (index NB holds zeros so the scans give totals).
__global__ void k_blocks(const uint64_t *blk, const uint32_t *first_run, const uint32_t *run_start, uint64_t nb,
                         uint64_t C, uint64_t threshold, uint32_t T, uint32_t *block_row, uint32_t *block_col,
                         uint64_t *block_edges, uint8_t *block_heavy, uint64_t *hs_in, uint64_t *ls_in,
                         uint64_t *hi_in, uint64_t *hm_in, uint32_t *heavy_rows_tmp) {
    GRID_STRIDE(b, nb + 1) {
        if (b == nb) {
            hs_in[b] = ls_in[b] = hi_in[b] = hm_in[b] = 0;
            continue;
        }
        uint64_t id = blk[b];
        uint32_t fr = first_run[b], lr = first_run[b + 1];
        uint64_t edges = run_start[lr] - run_start[fr];
        uint64_t D = lr - fr;
        bool heavy = edges > threshold;
        block_row[b] = (uint32_t)(id / C);
        block_col[b] = (uint32_t)(id % C);
        block_edges[b] = edges;
        block_heavy[b] = heavy ? 1 : 0;
        uint64_t rows = heavy ? ((uint64_t)T + edges + D + T - 1) / T : 0;
        heavy_rows_tmp[b] = (uint32_t)rows;
        hs_in[b] = heavy ? D : 0;
        ls_in[b] = heavy ? 0 : edges;
        hi_in[b] = heavy ? 1 : 0;
        hm_in[b] = rows * T;
    }
}

__global__ void k_row_slot_start(const uint64_t *row_first, uint64_t R, const uint64_t *HS, const uint64_t *LS,
                                 uint64_t *row_slot_start) {
    GRID_STRIDE(r, R + 1) row_slot_start[r] = HS[row_first[r]] + LS[row_first[r]];
}

// Stream slots, heavy lists, and the light-block sort's keys and values.
__global__ void k_plan(uint64_t nb, const uint32_t *block_row, const uint32_t *block_col, const uint8_t *block_heavy,
                       const uint64_t *block_edges, const uint32_t *first_run, const uint32_t *run_start,
                       const uint64_t *row_first, const uint64_t *HS, const uint64_t *LS, const uint64_t *HI,
                       const uint64_t *HM, const uint32_t *heavy_rows_tmp, uint64_t R, uint64_t C, BlockInfo *info,
                       uint32_t *heavy_row, uint32_t *heavy_col, uint32_t *heavy_rows, uint64_t *heavy_matrix_start,
                       uint32_t *heavy_num_dst, uint64_t *heavy_slot, uint32_t *heavy_block, uint64_t *lkey,
                       uint32_t *lval) {
    GRID_STRIDE(b, nb) {
        uint32_t r = block_row[b], c = block_col[b];
        bool heavy = block_heavy[b] != 0;
        uint64_t rf = row_first[r], rn = row_first[r + 1];
        uint64_t slot = heavy ? LS[rf] + HS[b] : HS[rn] + LS[b];
        BlockInfo bi;
        bi.light_pos = 0;
        bi.slot = slot;
        bi.edge_start = run_start[first_run[b]];
        bi.col = c;
        bi.heavy = heavy ? 1 : 0;
        bi.pad = 0;
        info[b] = bi;
        if (heavy) {
            uint64_t h = HI[b];
            heavy_row[h] = r;
            heavy_col[h] = c;
            heavy_rows[h] = heavy_rows_tmp[b];
            heavy_matrix_start[h] = HM[b];
            heavy_num_dst[h] = first_run[b + 1] - first_run[b];
            heavy_slot[h] = slot;
            heavy_block[h] = (uint32_t)b;
        }
        lkey[b] = heavy ? R * C : (uint64_t)c * R + r;
        lval[b] = (uint32_t)b;
        if (b == 0) heavy_matrix_start[HI[nb]] = HM[nb];
    }
}

__global__ void k_light_sizes(const uint32_t *lval, uint64_t nb, const uint8_t *block_heavy, const uint64_t *block_edges,
                              uint64_t *out) {
    GRID_STRIDE(j, nb + 1) {
        if (j == nb) out[j] = 0;
        else {
            uint32_t b = lval[j];
            out[j] = block_heavy[b] ? 0 : block_edges[b];
        }
    }
}

__global__ void k_light_pos(const uint32_t *lval, uint64_t nb, const uint64_t *pos, BlockInfo *info) {
    GRID_STRIDE(j, nb) info[lval[j]].light_pos = pos[j];
}

// LightStart[c] = light edges in columns < c, c in [0, C].
__global__ void k_light_start(const uint64_t *lkey, uint64_t nb, uint64_t R, uint64_t C, const uint64_t *pos,
                              uint64_t *light_start) {
    GRID_STRIDE(c, C + 1) light_start[c] = pos[mg::lower_bound<uint64_t>(lkey, nb, c * R)];
}

__global__ void k_mark_blocks(const BlockInfo *info, uint64_t nb, uint32_t *boe) {
    GRID_STRIDE(b, nb) if (b > 0) boe[info[b].edge_start] = (uint32_t)b;
}

template <typename V>
__global__ void k_light(const uint64_t *key, const V *val, uint64_t m, const uint32_t *boe, const BlockInfo *info,
                        uint32_t P, uint16_t *light_src, uint32_t *light_slot, uint32_t *light_w, uint16_t *slot_dst) {
    GRID_STRIDE(e, m) {
        BlockInfo bi = info[boe[e]];
        if (bi.heavy) continue;
        uint64_t o = e - bi.edge_start;
        uint64_t pos = bi.light_pos + o, slot = bi.slot + o;
        V x = val[e];
        light_src[pos] = (uint16_t)(lo32(x) - bi.col * P);
        light_slot[pos] = (uint32_t)slot;
        if (light_w != nullptr) light_w[pos] = hi32(x);
        slot_dst[slot] = (uint16_t)(key[e] % P);
    }
}

// One thread block per heavy block h: its slot map and its frontier matrix
// in the canonical fill (layout.HeavyFiller). The block's items in fill
// order, without repeated markers, are the "v-stream": run k (the block's
// k-th destination) is its marker at v-index vstart(k) = (first arc of the
// run - first arc of the block) + k, then its sources. Column j starts at
// v-index x_j; it begins with a repeated marker (rep_j) when j > 0 and
// x_j is a source; it holds rows - rep_j v-items.
template <typename V>
__global__ void __launch_bounds__(HEAVY_TPB)
    k_heavy(uint64_t H, const uint32_t *heavy_block, const BlockInfo *info, const uint32_t *first_run,
            const uint32_t *run_start, const uint64_t *ukey, const V *val, const uint64_t *heavy_matrix_start,
            const uint32_t *heavy_rows, const uint64_t *heavy_slot, uint32_t P, uint32_t T, int16_t *matrix,
            uint32_t *mweights, uint16_t *slot_dst) {
    __shared__ uint64_t sx[HEAVY_CHUNK];
    __shared__ uint32_t sk[HEAVY_CHUNK];
    __shared__ uint8_t srep[HEAVY_CHUNK];
    __shared__ uint64_t carry_x;
    __shared__ uint32_t carry_k, carry_rep;
    for (uint64_t h = blockIdx.x; h < H; h += gridDim.x) {
        const uint32_t b = heavy_block[h];
        const uint32_t fr = first_run[b];
        const uint32_t D = first_run[b + 1] - fr;
        const uint32_t es = run_start[fr];
        const uint64_t edges = run_start[fr + D] - es;
        const uint64_t Vn = edges + D;
        const uint32_t rows = heavy_rows[h];
        const uint64_t base = heavy_matrix_start[h];
        const uint32_t cbase = info[b].col * P;
        const uint64_t slot = heavy_slot[h];
        const uint32_t *rs = run_start + fr;
        auto vstart = [&](uint32_t k) -> uint64_t { return (uint64_t)(rs[k] - es) + k; };
        for (uint32_t k = threadIdx.x; k < D; k += blockDim.x) slot_dst[slot + k] = (uint16_t)(ukey[fr + k] % P);
        for (uint32_t j0 = 0; j0 < T; j0 += HEAVY_CHUNK) {
            const uint32_t cw = min((uint32_t)HEAVY_CHUNK, T - j0);
            if (threadIdx.x == 0) {
                uint64_t x = 0;
                uint32_t k = 0, rep = 0;
                if (j0 > 0) {
                    x = carry_x;
                    k = carry_k;
                    rep = carry_rep;
                }
                for (uint32_t jj = 0; jj < cw; jj++) {
                    const uint32_t j = j0 + jj;
                    if (j > 0) x = min(x + rows - rep, Vn);
                    rep = 0;
                    if (x < Vn) {
                        while (k + 1 < D && vstart(k + 1) <= x) k++;
                        rep = (j > 0 && vstart(k) != x) ? 1 : 0;
                    }
                    sx[jj] = x;
                    sk[jj] = k;
                    srep[jj] = (uint8_t)rep;
                }
                carry_x = x;
                carry_k = k;
                carry_rep = rep;
            }
            __syncthreads();
            const uint64_t total = (uint64_t)rows * cw;
            for (uint64_t idx = threadIdx.x; idx < total; idx += blockDim.x) {
                const uint32_t i = (uint32_t)(idx / cw), jj = (uint32_t)(idx % cw);
                const uint64_t x = sx[jj];
                const uint32_t rep = srep[jj], k0 = sk[jj];
                int16_t out;
                uint32_t wt = 0;
                if (rep && i == 0) {
                    out = (int16_t)(-(int32_t)(k0 + 1));
                } else {
                    const uint64_t v = x + i - rep;
                    if (v >= Vn) {
                        out = (int16_t)-32768;
                    } else {
                        // the run holding v: the last k in [k0, k0+rows] with vstart(k) <= v
                        uint32_t lo = k0, hi = (uint32_t)min((uint64_t)D - 1, (uint64_t)k0 + rows);
                        while (lo < hi) {
                            uint32_t mid = lo + (hi - lo + 1) / 2;
                            if (vstart(mid) <= v) lo = mid;
                            else hi = mid - 1;
                        }
                        if (vstart(lo) == v) {
                            out = (int16_t)(-(int32_t)(lo + 1));
                        } else {
                            const V xv = val[es + (v - lo - 1)];
                            out = (int16_t)(lo32(xv) - cbase);
                            wt = hi32(xv);
                        }
                    }
                }
                const uint64_t p = base + (uint64_t)i * T + j0 + jj;
                matrix[p] = out;
                if (mweights != nullptr) mweights[p] = wt;
            }
            __syncthreads();
        }
    }
}

// Sort-3 input from block order: key s', value (d', w).
template <typename V>
__global__ void k_sparse_prep(const uint64_t *key, const V *val, uint64_t m, uint32_t P, uint64_t C, uint32_t *skey,
                              V *sval) {
    GRID_STRIDE(i, m) {
        uint64_t k = key[i];
        uint64_t blk = k / P, ld = k % P;
        uint64_t r = blk / C;
        V x = val[i];
        skey[i] = lo32(x);
        sval[i] = pack<V>((uint32_t)(r * P + ld), hi32(x));
    }
}

__global__ void k_unpack(const uint64_t *val, uint64_t m, uint32_t *dst, uint32_t *w) {
    GRID_STRIDE(i, m) {
        dst[i] = (uint32_t)val[i];
        w[i] = (uint32_t)(val[i] >> 32);
    }
}

// SegmentSplit[(s-1)·n + v]: v's arcs with destination < bounds[s].
__global__ void k_split(const uint32_t *dst, const uint64_t *off, uint64_t n, uint64_t nhs, const uint32_t *bounds,
                        uint32_t *out) {
    GRID_STRIDE(idx, nhs * n) {
        uint64_t s = idx / n + 1, v = idx % n;
        uint64_t lo = off[v], hi = off[v + 1];
        out[idx] = (uint32_t)mg::lower_bound<uint32_t>(dst + lo, hi - lo, bounds[s]);
    }
}

}  // namespace

// The arrays of a built layout, on the device.
struct mg_pp_layout {
    Buf sec[MG_PP_SECTIONS];
    uint64_t len[MG_PP_SECTIONS];
};

namespace {

const uint64_t elem_size[MG_PP_SECTIONS] = {
    4, 4, 8,         // Perm, InvPerm, GroupStart
    4, 4, 8, 1,      // BlockRow, BlockCol, BlockEdges, BlockHeavy
    4, 4, 4, 8,      // HeavyRow, HeavyCol, HeavyRows, HeavyMatrixStart
    4, 8, 2, 4,      // HeavyNumDst, HeavySlot, HeavyMatrix, HeavyWeights
    8, 2, 4, 4,      // LightStart, LightSrc, LightWeights, LightSlot
    8, 2,            // RowSlotStart, SlotDst
    8, 4, 4, 4, 4,   // SparseOffsets, SparseDst, SparseWeights, SegmentBounds, SegmentSplit
};

#define TRY(x)                  \
    do {                        \
        int rc_ = (x);          \
        if (rc_ != MG_OK) return rc_; \
    } while (0)

class Builder {
   public:
    int dev;
    cudaStream_t st = nullptr;
    char *err;
    size_t errlen;
    uint64_t live = 0, peak = 0;
    unsigned max_grid = 1;
    // Every live allocation of the build (pointer, bytes); the destructor
    // frees what is left, so an early return (out of memory) leaks nothing.
    std::vector<std::pair<void *, uint64_t>> allocs;
    cudaEvent_t ev[MG_PP_PHASES + 2] = {};

    Builder(int d, char *e, size_t el) : dev(d), err(e), errlen(el) {}
    ~Builder() {
        for (auto &a : allocs) cudaFree(a.first);
        for (auto &e : ev)
            if (e) cudaEventDestroy(e);
        if (st) cudaStreamDestroy(st);
    }

    // alloc gives b a fresh allocation of bytes (b's old one is released).
    int alloc(Buf &b, uint64_t bytes) {
        release(b);
        if (bytes == 0) return MG_OK;
        MG_CHECK(cudaMalloc(&b.p, (size_t)bytes));
        b.bytes = bytes;
        allocs.push_back({b.p, bytes});
        live += bytes;
        peak = std::max(peak, live);
        return MG_OK;
    }
    // forget drops p from the registry without freeing it (handed over).
    void forget(void *p) {
        for (size_t i = 0; i < allocs.size(); i++)
            if (allocs[i].first == p) {
                allocs.erase(allocs.begin() + i);
                return;
            }
    }
    void release(Buf &b) {
        if (b.p) {
            forget(b.p);
            cudaFree(b.p);
            live -= b.bytes;
        }
        b.p = nullptr;
        b.bytes = 0;
    }
    // take moves src's allocation into dst (dst's old one released).
    void take(Buf &dst, Buf &src) {
        release(dst);
        dst = src;
        src = Buf{};
    }
    unsigned grid(uint64_t n, int tpb = TPB) const {
        uint64_t g = (n + tpb - 1) / tpb;
        if (g < 1) g = 1;
        return (unsigned)std::min<uint64_t>(g, max_grid);
    }

    template <typename K, typename V>
    int sort_pairs(Buf &k0, Buf &k1, Buf &v0, Buf &v1, uint64_t n, int end_bit) {
        if (n == 0) return MG_OK;
        cub::DoubleBuffer<K> keys(k0.as<K>(), k1.as<K>());
        cub::DoubleBuffer<V> vals(v0.as<V>(), v1.as<V>());
        size_t tb = 0;
        MG_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, tb, keys, vals, (int)n, 0, end_bit, st));
        Buf tmp;
        TRY(alloc(tmp, tb));
        MG_CHECK(cub::DeviceRadixSort::SortPairs(tmp.p, tb, keys, vals, (int)n, 0, end_bit, st));
        release(tmp);
        if (keys.Current() != k0.as<K>()) std::swap(k0, k1);
        if (vals.Current() != v0.as<V>()) std::swap(v0, v1);
        return MG_OK;
    }
    template <typename In, typename Out>
    int exclusive_sum(In in, Out *out, uint64_t n) {
        if (n == 0) return MG_OK;
        size_t tb = 0;
        MG_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, tb, in, out, (int)n, st));
        Buf tmp;
        TRY(alloc(tmp, tb));
        MG_CHECK(cub::DeviceScan::ExclusiveSum(tmp.p, tb, in, out, (int)n, st));
        release(tmp);
        return MG_OK;
    }
    // rle: unique keys, counts and the number of runs (copied to host).
    template <typename In, typename K>
    int rle(In in, K *unique, uint32_t *counts, uint64_t n, uint64_t *runs) {
        *runs = 0;
        if (n == 0) return MG_OK;
        Buf num;
        TRY(alloc(num, sizeof(int)));
        size_t tb = 0;
        MG_CHECK(cub::DeviceRunLengthEncode::Encode(nullptr, tb, in, unique, counts, num.as<int>(), (int)n, st));
        Buf tmp;
        TRY(alloc(tmp, tb));
        MG_CHECK(cub::DeviceRunLengthEncode::Encode(tmp.p, tb, in, unique, counts, num.as<int>(), (int)n, st));
        int h = 0;
        MG_CHECK(cudaMemcpyAsync(&h, num.p, sizeof(int), cudaMemcpyDeviceToHost, st));
        MG_CHECK(cudaStreamSynchronize(st));
        *runs = (uint64_t)h;
        release(tmp);
        release(num);
        return MG_OK;
    }
    template <typename T>
    int get(T *host, const Buf &b, uint64_t index) {
        MG_CHECK(cudaMemcpyAsync(host, b.as<T>() + index, sizeof(T), cudaMemcpyDeviceToHost, st));
        MG_CHECK(cudaStreamSynchronize(st));
        return MG_OK;
    }
    int mark(int phase) {
        MG_CHECK(cudaEventRecord(ev[phase], st));
        return MG_OK;
    }

    template <typename V>
    int build(const mg_pp_params &p, const uint64_t *thresholds, const uint32_t *src, const uint32_t *dst,
              const uint32_t *weights, mg_pp_layout *L, mg_pp_result *res);
};

template <typename V>
int Builder::build(const mg_pp_params &p, const uint64_t *thresholds, const uint32_t *hsrc, const uint32_t *hdst,
                   const uint32_t *hw, mg_pp_layout *L, mg_pp_result *res) {
    constexpr bool W = sizeof(V) == 8;
    const uint64_t n = p.n, m = p.m;
    const uint32_t P = p.panel_size, T = p.heavy_columns;
    const uint64_t R = (n + P - 1) / P, C = R;
    const int k = (int)p.num_thresholds;
    Buf *sec = L->sec;
    uint64_t *len = L->len;
    for (int s = 0; s < MG_PP_SECTIONS; s++) len[s] = 0;
    auto out = [&](int s, uint64_t count) -> int {
        len[s] = count;
        return alloc(sec[s], count * elem_size[s]);
    };

    MG_SET_DEVICE(dev);
    max_grid = (unsigned)mg::multiprocessors(dev) * 16;
    MG_CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    for (auto &e : ev) MG_CHECK(cudaEventCreate(&e));

    // --- upload --------------------------------------------------------
    Buf s0, d0, w0;
    TRY(alloc(s0, 4 * m));
    TRY(alloc(d0, 4 * m));
    if (W) TRY(alloc(w0, 4 * m));
    MG_CHECK(cudaEventRecord(ev[0], st));
    if (m > 0) {
        const cudaMemcpyKind kind = p.device_input ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice;
        MG_CHECK(cudaMemcpyAsync(s0.p, hsrc, 4 * m, kind, st));
        MG_CHECK(cudaMemcpyAsync(d0.p, hdst, 4 * m, kind, st));
        if (W) MG_CHECK(cudaMemcpyAsync(w0.p, hw, 4 * m, kind, st));
    }
    TRY(mark(1));

    // --- 1. in-degrees, groups, renumbering ------------------------------
    TRY(out(MG_PP_PERM, n));
    TRY(out(MG_PP_INV_PERM, n));
    TRY(out(MG_PP_GROUP_START, (uint64_t)k + 2));
    std::vector<uint64_t> group_start(k + 2, 0);
    {
        Buf deg, g0, g1, v1;
        TRY(alloc(deg, 4 * n));
        TRY(alloc(g0, n));
        TRY(alloc(g1, n));
        TRY(alloc(v1, 4 * n));
        if (n > 0) {
            MG_CHECK(cudaMemsetAsync(deg.p, 0, 4 * n, st));
            if (m > 0) {
                k_indeg<<<grid(m), TPB, 0, st>>>(d0.as<uint32_t>(), m, deg.as<uint32_t>());
                MG_CHECK_LAUNCH("k_indeg");
            }
            Thresholds thr;
            memset(&thr, 0, sizeof thr);
            thr.k = k;
            for (int i = 0; i < k; i++) thr.t[i] = thresholds[i];
            Buf &inv = sec[MG_PP_INV_PERM];
            k_group<<<grid(n), TPB, 0, st>>>(deg.as<uint32_t>(), n, thr, g0.as<uint8_t>(), inv.as<uint32_t>());
            MG_CHECK_LAUNCH("k_group");
            release(deg);
            if (k > 0) TRY((sort_pairs<uint8_t, uint32_t>(g0, g1, inv, v1, n, mg::key_bits((uint64_t)k))));
            release(g1);
            release(v1);
            k_inv_to_perm<<<grid(n), TPB, 0, st>>>(inv.as<uint32_t>(), n, sec[MG_PP_PERM].as<uint32_t>());
            MG_CHECK_LAUNCH("k_inv_to_perm");
            k_lower_bounds<uint8_t><<<1, 128, 0, st>>>(g0.as<uint8_t>(), n, (uint64_t)k + 2, 1,
                                                        sec[MG_PP_GROUP_START].as<uint64_t>());
            MG_CHECK_LAUNCH("k_lower_bounds (group starts)");
            MG_CHECK(cudaMemcpyAsync(group_start.data(), sec[MG_PP_GROUP_START].p, 8 * (k + 2),
                                     cudaMemcpyDeviceToHost, st));
            MG_CHECK(cudaStreamSynchronize(st));
        } else {
            MG_CHECK(cudaMemsetAsync(sec[MG_PP_GROUP_START].p, 0, 8 * (k + 2), st));
        }
    }
    TRY(mark(2));

    // --- 2. sort 1: by new source ---------------------------------------
    // s0 holds s', va the values (d', w).
    Buf va, vb, kb;
    TRY(alloc(va, sizeof(V) * m));
    if (m > 0) {
        k_map<V><<<grid(m), TPB, 0, st>>>(s0.as<uint32_t>(), d0.as<uint32_t>(), W ? w0.as<uint32_t>() : nullptr, m,
                                          sec[MG_PP_PERM].as<uint32_t>(), va.as<V>());
        MG_CHECK_LAUNCH("k_map");
    }
    release(d0);
    release(w0);
    const int nbits = mg::key_bits(n > 0 ? n - 1 : 0);
    TRY(alloc(kb, 4 * m));
    TRY(alloc(vb, sizeof(V) * m));
    TRY((sort_pairs<uint32_t, V>(s0, kb, va, vb, m, nbits)));
    release(kb);
    release(vb);
    TRY(mark(3));

    // --- 3. sort 2: block order ------------------------------------------
    Buf K0, K1, V2, V2b;
    TRY(alloc(K0, 8 * m));
    if (m > 0) {
        k_block_keys<V><<<grid(m), TPB, 0, st>>>(s0.as<uint32_t>(), va.as<V>(), m, P, C, K0.as<uint64_t>());
        MG_CHECK_LAUNCH("k_block_keys");
    }
    if (W) {
        take(V2, va);  // (s', w), rewritten in place
        release(s0);
    } else {
        take(V2, s0);  // s'
        release(va);
    }
    TRY(alloc(K1, 8 * m));
    TRY(alloc(V2b, sizeof(V) * m));
    TRY((sort_pairs<uint64_t, V>(K0, K1, V2, V2b, m, mg::key_bits(R * C * P > 0 ? R * C * P - 1 : 0))));
    release(K1);
    release(V2b);
    TRY(mark(4));

    // --- 4. runs, blocks, heavy/light, slots ------------------------------
    Buf Ku, Lu, run_start, blk, dcnt, first_run;
    uint64_t U = 0, NB = 0;
    TRY(alloc(Ku, 8 * m));
    TRY(alloc(Lu, 4 * (m + 1)));
    TRY(rle(K0.as<uint64_t>(), Ku.as<uint64_t>(), Lu.as<uint32_t>(), m, &U));
    TRY(alloc(run_start, 4 * (U + 1)));
    MG_CHECK(cudaMemsetAsync(Lu.as<uint32_t>() + U, 0, 4, st));
    TRY(exclusive_sum(Lu.as<uint32_t>(), run_start.as<uint32_t>(), U + 1));
    release(Lu);
    TRY(alloc(blk, 8 * U));
    TRY(alloc(dcnt, 4 * (U + 1)));
    {
        cub::TransformInputIterator<uint64_t, DivBy, const uint64_t *> it(Ku.as<uint64_t>(), DivBy{P});
        TRY(rle(it, blk.as<uint64_t>(), dcnt.as<uint32_t>(), U, &NB));
    }
    TRY(alloc(first_run, 4 * (NB + 1)));
    MG_CHECK(cudaMemsetAsync(dcnt.as<uint32_t>() + NB, 0, 4, st));
    TRY(exclusive_sum(dcnt.as<uint32_t>(), first_run.as<uint32_t>(), NB + 1));
    release(dcnt);

    TRY(out(MG_PP_BLOCK_ROW, NB));
    TRY(out(MG_PP_BLOCK_COL, NB));
    TRY(out(MG_PP_BLOCK_EDGES, NB));
    TRY(out(MG_PP_BLOCK_HEAVY, NB));
    Buf hs_in, ls_in, hi_in, hm_in, HS, LS, HI, HM, hrows, row_first;
    TRY(alloc(hs_in, 8 * (NB + 1)));
    TRY(alloc(ls_in, 8 * (NB + 1)));
    TRY(alloc(hi_in, 8 * (NB + 1)));
    TRY(alloc(hm_in, 8 * (NB + 1)));
    TRY(alloc(hrows, 4 * NB));
    k_blocks<<<grid(NB + 1), TPB, 0, st>>>(
        blk.as<uint64_t>(), first_run.as<uint32_t>(), run_start.as<uint32_t>(), NB, C, p.heavy_threshold, T,
        sec[MG_PP_BLOCK_ROW].as<uint32_t>(), sec[MG_PP_BLOCK_COL].as<uint32_t>(), sec[MG_PP_BLOCK_EDGES].as<uint64_t>(),
        sec[MG_PP_BLOCK_HEAVY].as<uint8_t>(), hs_in.as<uint64_t>(), ls_in.as<uint64_t>(), hi_in.as<uint64_t>(),
        hm_in.as<uint64_t>(), hrows.as<uint32_t>());
    MG_CHECK_LAUNCH("k_blocks");
    release(blk);
    TRY(alloc(HS, 8 * (NB + 1)));
    TRY(alloc(LS, 8 * (NB + 1)));
    TRY(alloc(HI, 8 * (NB + 1)));
    TRY(alloc(HM, 8 * (NB + 1)));
    TRY(exclusive_sum(hs_in.as<uint64_t>(), HS.as<uint64_t>(), NB + 1));
    TRY(exclusive_sum(ls_in.as<uint64_t>(), LS.as<uint64_t>(), NB + 1));
    TRY(exclusive_sum(hi_in.as<uint64_t>(), HI.as<uint64_t>(), NB + 1));
    TRY(exclusive_sum(hm_in.as<uint64_t>(), HM.as<uint64_t>(), NB + 1));
    release(hs_in);
    release(ls_in);
    release(hi_in);
    release(hm_in);
    TRY(alloc(row_first, 8 * (R + 1)));
    k_lower_bounds<uint32_t><<<grid(R + 1), TPB, 0, st>>>(sec[MG_PP_BLOCK_ROW].as<uint32_t>(), NB, R + 1, 1,
                                                           row_first.as<uint64_t>());
    MG_CHECK_LAUNCH("k_lower_bounds (row firsts)");
    uint64_t H = 0, E = 0, Lt = 0, Sh = 0;
    TRY(get(&H, HI, NB));
    TRY(get(&E, HM, NB));
    TRY(get(&Lt, LS, NB));
    TRY(get(&Sh, HS, NB));
    const uint64_t S = Sh + Lt;
    if (S > 0xffffffffull) {
        res->too_large = 1;
        return MG_OK;
    }
    TRY(out(MG_PP_ROW_SLOT_START, R + 1));
    k_row_slot_start<<<grid(R + 1), TPB, 0, st>>>(row_first.as<uint64_t>(), R, HS.as<uint64_t>(), LS.as<uint64_t>(),
                                                  sec[MG_PP_ROW_SLOT_START].as<uint64_t>());
    MG_CHECK_LAUNCH("k_row_slot_start");
    TRY(out(MG_PP_HEAVY_ROW, H));
    TRY(out(MG_PP_HEAVY_COL, H));
    TRY(out(MG_PP_HEAVY_ROWS, H));
    TRY(out(MG_PP_HEAVY_MATRIX_START, H + 1));
    TRY(out(MG_PP_HEAVY_NUM_DST, H));
    TRY(out(MG_PP_HEAVY_SLOT, H));
    Buf info, heavy_block, lkey, lval, lkey2, lval2;
    TRY(alloc(info, sizeof(BlockInfo) * NB));
    TRY(alloc(heavy_block, 4 * H));
    TRY(alloc(lkey, 8 * NB));
    TRY(alloc(lval, 4 * NB));
    if (NB > 0) {
        k_plan<<<grid(NB), TPB, 0, st>>>(
            NB, sec[MG_PP_BLOCK_ROW].as<uint32_t>(), sec[MG_PP_BLOCK_COL].as<uint32_t>(),
            sec[MG_PP_BLOCK_HEAVY].as<uint8_t>(), sec[MG_PP_BLOCK_EDGES].as<uint64_t>(), first_run.as<uint32_t>(),
            run_start.as<uint32_t>(), row_first.as<uint64_t>(), HS.as<uint64_t>(), LS.as<uint64_t>(),
            HI.as<uint64_t>(), HM.as<uint64_t>(), hrows.as<uint32_t>(), R, C, info.as<BlockInfo>(),
            sec[MG_PP_HEAVY_ROW].as<uint32_t>(), sec[MG_PP_HEAVY_COL].as<uint32_t>(),
            sec[MG_PP_HEAVY_ROWS].as<uint32_t>(), sec[MG_PP_HEAVY_MATRIX_START].as<uint64_t>(),
            sec[MG_PP_HEAVY_NUM_DST].as<uint32_t>(), sec[MG_PP_HEAVY_SLOT].as<uint64_t>(),
            heavy_block.as<uint32_t>(), lkey.as<uint64_t>(), lval.as<uint32_t>());
        MG_CHECK_LAUNCH("k_plan");
    } else {
        MG_CHECK(cudaMemsetAsync(sec[MG_PP_HEAVY_MATRIX_START].p, 0, 8, st));
    }
    release(HS);
    release(LS);
    release(HI);
    release(HM);
    release(hrows);
    release(row_first);
    // Light positions: light blocks by (column, row); heavy ones sort last.
    TRY(alloc(lkey2, 8 * NB));
    TRY(alloc(lval2, 4 * NB));
    TRY((sort_pairs<uint64_t, uint32_t>(lkey, lkey2, lval, lval2, NB, mg::key_bits(R * C))));
    release(lkey2);
    release(lval2);
    TRY(out(MG_PP_LIGHT_START, C + 1));
    {
        Buf lsz, lpos;
        TRY(alloc(lsz, 8 * (NB + 1)));
        TRY(alloc(lpos, 8 * (NB + 1)));
        k_light_sizes<<<grid(NB + 1), TPB, 0, st>>>(lval.as<uint32_t>(), NB, sec[MG_PP_BLOCK_HEAVY].as<uint8_t>(),
                                                    sec[MG_PP_BLOCK_EDGES].as<uint64_t>(), lsz.as<uint64_t>());
        MG_CHECK_LAUNCH("k_light_sizes");
        TRY(exclusive_sum(lsz.as<uint64_t>(), lpos.as<uint64_t>(), NB + 1));
        if (NB > 0) {
            k_light_pos<<<grid(NB), TPB, 0, st>>>(lval.as<uint32_t>(), NB, lpos.as<uint64_t>(), info.as<BlockInfo>());
            MG_CHECK_LAUNCH("k_light_pos");
        }
        k_light_start<<<grid(C + 1), TPB, 0, st>>>(lkey.as<uint64_t>(), NB, R, C, lpos.as<uint64_t>(),
                                                   sec[MG_PP_LIGHT_START].as<uint64_t>());
        MG_CHECK_LAUNCH("k_light_start");
    }
    release(lkey);
    release(lval);
    TRY(mark(5));

    // --- 5. dense fill ----------------------------------------------------
    TRY(out(MG_PP_LIGHT_SRC, Lt));
    TRY(out(MG_PP_LIGHT_SLOT, Lt));
    TRY(out(MG_PP_LIGHT_WEIGHTS, W ? Lt : 0));
    TRY(out(MG_PP_SLOT_DST, S));
    TRY(out(MG_PP_HEAVY_MATRIX, E));
    TRY(out(MG_PP_HEAVY_WEIGHTS, W ? E : 0));
    if (m > 0) {
        Buf boe, boe2;
        TRY(alloc(boe, 4 * m));
        TRY(alloc(boe2, 4 * m));
        MG_CHECK(cudaMemsetAsync(boe.p, 0, 4 * m, st));
        k_mark_blocks<<<grid(NB), TPB, 0, st>>>(info.as<BlockInfo>(), NB, boe.as<uint32_t>());
        MG_CHECK_LAUNCH("k_mark_blocks");
        size_t tb = 0;
        MG_CHECK(cub::DeviceScan::InclusiveScan(nullptr, tb, boe.as<uint32_t>(), boe2.as<uint32_t>(), cub::Max(),
                                                (int)m, st));
        Buf tmp;
        TRY(alloc(tmp, tb));
        MG_CHECK(cub::DeviceScan::InclusiveScan(tmp.p, tb, boe.as<uint32_t>(), boe2.as<uint32_t>(), cub::Max(),
                                                (int)m, st));
        release(tmp);
        release(boe);
        k_light<V><<<grid(m), TPB, 0, st>>>(K0.as<uint64_t>(), V2.as<V>(), m, boe2.as<uint32_t>(),
                                            info.as<BlockInfo>(), P, sec[MG_PP_LIGHT_SRC].as<uint16_t>(),
                                            sec[MG_PP_LIGHT_SLOT].as<uint32_t>(),
                                            W ? sec[MG_PP_LIGHT_WEIGHTS].as<uint32_t>() : nullptr,
                                            sec[MG_PP_SLOT_DST].as<uint16_t>());
        MG_CHECK_LAUNCH("k_light");
        release(boe2);
    }
    if (H > 0) {
        unsigned hg = (unsigned)std::min<uint64_t>(H, (uint64_t)mg::multiprocessors(dev) * 64);
        k_heavy<V><<<hg, HEAVY_TPB, 0, st>>>(
            H, heavy_block.as<uint32_t>(), info.as<BlockInfo>(), first_run.as<uint32_t>(), run_start.as<uint32_t>(),
            Ku.as<uint64_t>(), V2.as<V>(), sec[MG_PP_HEAVY_MATRIX_START].as<uint64_t>(),
            sec[MG_PP_HEAVY_ROWS].as<uint32_t>(), sec[MG_PP_HEAVY_SLOT].as<uint64_t>(), P, T,
            sec[MG_PP_HEAVY_MATRIX].as<int16_t>(), W ? sec[MG_PP_HEAVY_WEIGHTS].as<uint32_t>() : nullptr,
            sec[MG_PP_SLOT_DST].as<uint16_t>());
        MG_CHECK_LAUNCH("k_heavy");
    }
    release(info);
    release(heavy_block);
    release(first_run);
    release(run_start);
    release(Ku);
    TRY(mark(6));

    // --- 6. sparse part: sort 3 by source ---------------------------------
    TRY(out(MG_PP_SPARSE_OFFSETS, n + 1));
    len[MG_PP_SPARSE_DST] = m;
    if (W) TRY(out(MG_PP_SPARSE_DST, m));
    TRY(out(MG_PP_SPARSE_WEIGHTS, W ? m : 0));
    {
        Buf k3, v3, k3b, v3b;
        TRY(alloc(k3, 4 * m));
        TRY(alloc(v3, sizeof(V) * m));
        if (m > 0) {
            k_sparse_prep<V><<<grid(m), TPB, 0, st>>>(K0.as<uint64_t>(), V2.as<V>(), m, P, C, k3.as<uint32_t>(),
                                                      v3.as<V>());
            MG_CHECK_LAUNCH("k_sparse_prep");
        }
        release(K0);
        release(V2);
        TRY(alloc(k3b, 4 * m));
        TRY(alloc(v3b, sizeof(V) * m));
        TRY((sort_pairs<uint32_t, V>(k3, k3b, v3, v3b, m, nbits)));
        release(v3b);
        if (W) {
            if (m > 0) {
                k_unpack<<<grid(m), TPB, 0, st>>>((const uint64_t *)v3.p, m, sec[MG_PP_SPARSE_DST].as<uint32_t>(),
                                                  sec[MG_PP_SPARSE_WEIGHTS].as<uint32_t>());
                MG_CHECK_LAUNCH("k_unpack");
            }
            release(v3);
        } else {
            take(sec[MG_PP_SPARSE_DST], v3);  // the sorted values are SparseDst
        }
        release(k3b);
        k_lower_bounds<uint32_t><<<grid(n + 1), TPB, 0, st>>>(k3.as<uint32_t>(), m, n + 1, 1,
                                                              sec[MG_PP_SPARSE_OFFSETS].as<uint64_t>());
        MG_CHECK_LAUNCH("k_lower_bounds (sparse offsets)");
        release(k3);
    }
    // Segments.
    const uint64_t high = group_start[p.high_groups];
    const uint64_t seg = p.segment_size;
    const uint64_t nhs = (high + seg - 1) / seg;
    std::vector<uint32_t> bounds(nhs + 2, 0);
    for (uint64_t s = 1; s <= nhs; s++) bounds[s] = (uint32_t)std::min(s * seg, high);
    bounds[nhs + 1] = (uint32_t)n;
    TRY(out(MG_PP_SEGMENT_BOUNDS, nhs + 2));
    MG_CHECK(cudaMemcpyAsync(sec[MG_PP_SEGMENT_BOUNDS].p, bounds.data(), 4 * (nhs + 2), cudaMemcpyHostToDevice, st));
    TRY(out(MG_PP_SEGMENT_SPLIT, nhs * n));
    if (nhs * n > 0) {
        k_split<<<grid(nhs * n), TPB, 0, st>>>(sec[MG_PP_SPARSE_DST].as<uint32_t>(),
                                               sec[MG_PP_SPARSE_OFFSETS].as<uint64_t>(), n, nhs,
                                               sec[MG_PP_SEGMENT_BOUNDS].as<uint32_t>(),
                                               sec[MG_PP_SEGMENT_SPLIT].as<uint32_t>());
        MG_CHECK_LAUNCH("k_split");
    }
    TRY(mark(7));
    MG_CHECK(cudaStreamSynchronize(st));
    MG_CHECK(cudaEventElapsedTime(&res->upload_ms, ev[0], ev[1]));
    MG_CHECK(cudaEventElapsedTime(&res->build_ms, ev[1], ev[7]));
    for (int i = 0; i < MG_PP_PHASES; i++) MG_CHECK(cudaEventElapsedTime(&res->phase_ms[i], ev[i + 1], ev[i + 2]));
    return MG_OK;
}

}  // namespace

extern "C" {

int mg_pp_build(int dev, const mg_pp_params *p, const uint64_t *thresholds, const uint32_t *src, const uint32_t *dst,
                const uint32_t *weights, mg_pp_layout **out, mg_pp_result *res, char *err, size_t errlen) {
    if (p == NULL || out == NULL || res == NULL) return mg::invalid("mg_pp_build: NULL argument", err, errlen);
    *out = NULL;
    memset(res, 0, sizeof *res);
    if (p->n > MG_PP_MAX_ITEMS || p->m > MG_PP_MAX_ITEMS)
        return mg::invalid("mg_pp_build: more than 2^31-1 vertices or arcs", err, errlen);
    if (p->m > 0 && (src == NULL || dst == NULL || (p->weighted && weights == NULL)))
        return mg::invalid("mg_pp_build: NULL edge array", err, errlen);
    if (p->num_thresholds > MG_PP_MAX_THRESHOLDS || (p->num_thresholds > 0 && thresholds == NULL))
        return mg::invalid("mg_pp_build: bad group thresholds", err, errlen);
    if (p->panel_size < 1 || p->panel_size > 32767 || p->heavy_columns < 1 || p->heavy_columns > 65536 ||
        p->segment_size < 1 || p->high_groups > p->num_thresholds + 1)
        return mg::invalid("mg_pp_build: bad parameters", err, errlen);
    mg_pp_layout *L = new (std::nothrow) mg_pp_layout();
    if (L == NULL) return mg::invalid("mg_pp_build: out of host memory", err, errlen);
    int rc;
    {
        Builder b(dev, err, errlen);
        rc = p->weighted ? b.build<uint64_t>(*p, thresholds, src, dst, weights, L, res)
                         : b.build<uint32_t>(*p, thresholds, src, dst, weights, L, res);
        res->peak_bytes = b.peak;
        if (rc == MG_OK && !res->too_large) {
            // hand the sections over: the Builder must not free them
            for (int s = 0; s < MG_PP_SECTIONS; s++) {
                b.forget(L->sec[s].p);
                res->len[s] = L->len[s];
            }
        }
    }
    if (rc != MG_OK || res->too_large) {
        delete L;
        return rc;
    }
    *out = L;
    return MG_OK;
}

int mg_pp_section(int dev, const mg_pp_layout *l, int s, void *dst, uint64_t bytes, char *err, size_t errlen) {
    if (l == NULL || s < 0 || s >= MG_PP_SECTIONS) return mg::invalid("mg_pp_section: bad layout or section", err, errlen);
    if (bytes != l->len[s] * elem_size[s]) return mg::invalid("mg_pp_section: wrong size", err, errlen);
    if (bytes == 0) return MG_OK;
    if (dst == NULL) return mg::invalid("mg_pp_section: NULL destination", err, errlen);
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaMemcpy(dst, l->sec[s].p, bytes, cudaMemcpyDeviceToHost));
    return MG_OK;
}

int mg_pp_section_ptr(const mg_pp_layout *l, int s, const void **ptr, uint64_t *bytes, char *err, size_t errlen) {
    if (l == NULL || s < 0 || s >= MG_PP_SECTIONS || ptr == NULL || bytes == NULL)
        return mg::invalid("mg_pp_section_ptr: bad layout, section or out pointer", err, errlen);
    *ptr = l->sec[s].p;
    *bytes = l->len[s] * elem_size[s];
    return MG_OK;
}

int mg_pp_free(int dev, mg_pp_layout *l, char *err, size_t errlen) {
    if (l == NULL) return MG_OK;
    MG_SET_DEVICE(dev);
    cudaError_t first = cudaSuccess;
    for (int s = 0; s < MG_PP_SECTIONS; s++)
        if (l->sec[s].p) {
            cudaError_t e = cudaFree(l->sec[s].p);
            if (first == cudaSuccess) first = e;
        }
    delete l;
    if (first != cudaSuccess) return mg::fail(first, "cudaFree(section)", err, errlen);
    return MG_OK;
}

}  // extern "C"
