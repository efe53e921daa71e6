// densework.cuh — the kernels of a MultiGraphD step, over the work split
// that denseplan.New computes when the layout is uploaded (mg_dlayout's
// chunk arrays; docs/gpu-engines.md, "Work split of the dense step").
// Shared by dense.cu (every frontier program) and pagerank.cu.
//
//   phase 1, heavy: one thread block per row chunk of a heavy block. Thread
//     j walks matrix column j from the chunk's first row (the run it enters
//     belongs to heavy_chunk_entry's destination), combining each run in a
//     register and merging it into the block's D shared accumulators at the
//     next marker; the block hands its D partials to a Sink: SlotSink here
//     (a block with one chunk stores them in its slots, the chunks of a split
//     block combine them there with global atomics) or, in PageRank's pull
//     scheme (pagerank.cu), global atomics into per-vertex accumulators.
//   phase 1, light: one thread block per chunk of a column panel's light
//     edges; each edge writes its contribution to its own slot.
//   phase 2: one thread block per chunk of a row panel's slots, folding them
//     in shared memory; a row panel of one chunk is applied by that block, a
//     split one is combined into global accumulators and applied by the
//     last of its chunks to finish. Phase 2 resets the split heavy blocks'
//     slots (and the split accumulators) to the identity after reading them,
//     so the atomics of the next step start from it.
//
// The program is a functor struct (minprog.cuh's contract: T, identity,
// weighted, combine, atomic, edge); what phase 2 does with a folded panel is
// a second functor, the Apply policy:
//
//   struct Apply {  // called by the whole block; acc: the panel's shared values
//       __device__ void operator()(const mg_dlayout &L, uint32_t r, uint64_t lo, uint32_t len,
//                                  const T *acc) const;  // row panel r: vertices [lo, lo+len)
//   };
#ifndef MGRAPH_KERNELS_DENSEWORK_CUH
#define MGRAPH_KERNELS_DENSEWORK_CUH

#include "internal.cuh"

namespace {

constexpr int16_t kPadding = -32768;  // layout.Invalid: the rest of the column is padding
constexpr int kHeavyUnroll = 8;       // matrix rows a thread loads before it combines them
constexpr int kHeavyShared = 4;       // staged values a thread loads from shared memory at once
static_assert(kHeavyUnroll % kHeavyShared == 0, "kHeavyShared must divide kHeavyUnroll");
constexpr int kLightBlock = 256;
constexpr int kPhase2Block = 512;
constexpr int kPhase2Unroll = 4;
constexpr uint32_t kNoSplit = 0xffffffffu;  // denseplan.NoSplit

// panel_len is the number of vertices of the panel that starts at vertex lo
// (P, less for the last panel).
__device__ __forceinline__ uint32_t panel_len(const mg_dlayout &L, uint64_t lo) {
    return (uint32_t)min((uint64_t)L.panel_size, L.n - lo);
}

// source_value is the value column-panel-local source x of panel lo
// contributes: values[lo+x] when active (active == NULL: all are), else the
// identity (whose contributions are the identity: edge(identity) ==
// identity).
template <typename Op>
__device__ __forceinline__ typename Op::T source_value(const typename Op::T *__restrict__ values,
                                                       const uint8_t *__restrict__ active, uint64_t v) {
    return (active == nullptr || __ldg(active + v)) ? __ldg(values + v) : Op::identity;
}

// heavy_chunk: the block's work on row chunk c of a heavy block (see the
// top); 2P·sizeof(T) bytes of dynamic shared memory, any block size.
template <typename Op, typename Sink>
__device__ __forceinline__ void heavy_chunk(Op op, const mg_dlayout &L, const typename Op::T *__restrict__ values,
                                            const uint8_t *__restrict__ active, Sink sink, uint32_t c) {
    using T = typename Op::T;
    T *st = mg::shared_as<T>(), *acc = st + L.panel_size;
    const uint32_t h = L.heavy_chunk_block[c];
    const uint64_t lo = (uint64_t)L.heavy_col[h] * L.panel_size;
    const uint32_t len = panel_len(L, lo);
    for (uint32_t i = threadIdx.x; i < len; i += blockDim.x) st[i] = source_value<Op>(values, active, lo + i);
    const uint32_t d = L.heavy_num_dst[h];
    for (uint32_t i = threadIdx.x; i < d; i += blockDim.x) acc[i] = Op::identity;
    __syncthreads();

    const uint32_t t = L.heavy_columns, rows = L.heavy_rows[h], i0 = L.heavy_chunk_row0[c];
    const uint32_t i1 = (uint32_t)min((uint64_t)i0 + L.heavy_chunk_rows, (uint64_t)rows);
    const uint64_t start = L.heavy_matrix_start[h];
    const int16_t *__restrict__ mat = L.heavy_matrix + start;
    const uint32_t *__restrict__ wts = Op::weighted ? L.heavy_weights + start : nullptr;
    const int16_t *__restrict__ entry = L.heavy_chunk_entry + (uint64_t)c * t;
    for (uint32_t j = threadIdx.x; j < t; j += blockDim.x) {
        T reg = Op::identity;
        int dst = entry[j];
        bool padded = false;
        for (uint32_t i = i0; i < i1 && !padded; i += kHeavyUnroll) {
            int x[kHeavyUnroll];
            uint32_t w[kHeavyUnroll];
#pragma unroll
            for (int u = 0; u < kHeavyUnroll; u++) {  // loads first: several rows in flight
                const uint64_t e = (uint64_t)(i + u) * t + j;
                const bool ok = i + u < i1;
                x[u] = ok ? __ldcs(mat + e) : kPadding;  // streamed: evict first from L2
                w[u] = Op::weighted && ok ? __ldcs(wts + e) : 0u;
            }
            // Then the staged sources' values kHeavyShared at a time, all
            // of a group before any is combined, so that their shared
            // loads are in flight together. After padding every entry is
            // padding (rows past i1 read as padding), and handling padding
            // again changes nothing.
#pragma unroll
            for (int g = 0; g < kHeavyUnroll; g += kHeavyShared) {
                T s[kHeavyShared];
#pragma unroll
                for (int u = 0; u < kHeavyShared; u++) s[u] = x[g + u] >= 0 ? st[x[g + u]] : Op::identity;
#pragma unroll
                for (int q = 0; q < kHeavyShared; q++) {
                    const int u = g + q;
                    if (x[u] >= 0) {
                        reg = Op::combine(reg, op.edge(s[q], w[u]));
                        continue;
                    }
                    if (dst >= 0 && reg != Op::identity) Op::atomic(&acc[dst], reg);
                    reg = Op::identity;
                    padded = x[u] == kPadding;
                    dst = padded ? -1 : -(x[u] + 1);
                }
            }
        }
        if (dst >= 0 && reg != Op::identity) Op::atomic(&acc[dst], reg);
    }
    __syncthreads();
    sink(L, h, acc, d);
}

// SlotSink is the heavy chunks' Sink for MultiGraphD: a chunk's D partials
// go to its block's stream slots (stored by a block of one chunk, combined
// there with global atomics by the chunks of a split block). A Sink is called
// by the whole block once its partials acc[0, d) are final.
template <typename Op>
struct SlotSink {
    typename Op::T *out;
    __device__ void operator()(const mg_dlayout &L, uint32_t h, const typename Op::T *acc, uint32_t d) const {
        typename Op::T *o = out + L.heavy_slot[h];
        if (L.heavy_rows[h] > L.heavy_chunk_rows) {  // split: the chunks combine in the slots
            for (uint32_t i = threadIdx.x; i < d; i += blockDim.x)
                if (acc[i] != Op::identity) Op::atomic(&o[i], acc[i]);
        } else {
            for (uint32_t i = threadIdx.x; i < d; i += blockDim.x) o[i] = acc[i];
        }
    }
};

// heavy_kernel: one block per row chunk of a heavy block, its partials to
// the stream slots.
template <typename Op>
__global__ void __launch_bounds__(1024)
    heavy_kernel(Op op, mg_dlayout L, const typename Op::T *__restrict__ values, const uint8_t *__restrict__ active,
                 typename Op::T *__restrict__ out) {
    heavy_chunk(op, L, values, active, SlotSink<Op>{out}, blockIdx.x);
}

// light_kernel: one block per chunk of a column panel's light edges; each
// edge writes its contribution (the identity for an inactive source) to its
// own slot. The panel's values are read through the read-only cache.
template <typename Op>
__global__ void __launch_bounds__(kLightBlock)
    light_kernel(Op op, mg_dlayout L, const typename Op::T *__restrict__ values, const uint8_t *__restrict__ active,
                 typename Op::T *__restrict__ out) {
    const uint32_t k = blockIdx.x, c = L.light_chunk_col[k];
    const uint64_t e0 = L.light_chunk_start[k], e1 = min(e0 + L.light_chunk_edges, L.light_start[c + 1]);
    const uint64_t lo = (uint64_t)c * L.panel_size;
    for (uint64_t e = e0 + threadIdx.x; e < e1; e += kLightBlock) {
        const typename Op::T s = source_value<Op>(values, active, lo + L.light_src[e]);
        out[L.light_slot[e]] = op.edge(s, Op::weighted ? L.light_weights[e] : 0u);
    }
}

// phase2_kernel: one block per slot chunk c of row panel r: fold the slots
// into P shared accumulators (each warp reads kPhase2Unroll groups of 32
// consecutive slots, loads first; runs of equal SlotDst are combined in
// registers and the run's last lane does the one shared atomic), resetting
// the row's split heavy slots; then apply the panel, or combine it into the
// row's split accumulators (see the top).
template <typename Op, typename Apply>
__global__ void __launch_bounds__(kPhase2Block)
    phase2_kernel(mg_dlayout L, Apply apply, typename Op::T *__restrict__ buf) {
    using T = typename Op::T;
    T *acc = mg::shared_as<T>();
    const uint32_t c = blockIdx.x, r = L.slot_chunk_row[c], split = L.slot_chunk_split[c];
    const uint64_t lo = (uint64_t)r * L.panel_size;
    const uint32_t len = panel_len(L, lo);
    for (uint32_t i = threadIdx.x; i < len; i += kPhase2Block) acc[i] = Op::identity;
    __syncthreads();
    const uint64_t s0 = L.slot_chunk_start[c], s1 = min(s0 + L.slot_chunk, L.row_slot_start[r + 1]);
    const uint64_t reset_lo = L.row_reset_lo[r], reset_hi = L.row_reset_hi[r];
    for (uint64_t b = s0; b < s1; b += (uint64_t)kPhase2Block * kPhase2Unroll) {  // uniform bound
        T x[kPhase2Unroll];
        int k[kPhase2Unroll];
#pragma unroll
        for (int u = 0; u < kPhase2Unroll; u++) {
            const uint64_t s = b + (uint64_t)u * kPhase2Block + threadIdx.x;
            const bool ok = s < s1;
            x[u] = ok ? buf[s] : Op::identity;
            k[u] = ok ? (int)L.slot_dst[s] : -1;
            if (ok && s >= reset_lo && s < reset_hi) buf[s] = Op::identity;
        }
#pragma unroll
        for (int u = 0; u < kPhase2Unroll; u++)
            if (mg::warp_run_combine<Op>(k[u], x[u]) && k[u] >= 0 && x[u] != Op::identity) Op::atomic(&acc[k[u]], x[u]);
    }
    __syncthreads();
    if (split == kNoSplit) {
        apply(L, r, lo, len, acc);
        return;
    }
    // A split row: combine into its accumulators; the row's last chunk to
    // finish (a ticket per split row, left at 0 again) takes them, leaving
    // the identity, and applies the panel.
    T *g = buf + L.num_slots + (uint64_t)split * L.panel_size;
    for (uint32_t i = threadIdx.x; i < len; i += kPhase2Block)
        if (acc[i] != Op::identity) Op::atomic(&g[i], acc[i]);
    const uint64_t r0 = L.row_slot_start[r], r1 = L.row_slot_start[r + 1];
    const uint32_t chunks = (uint32_t)((r1 - r0 + L.slot_chunk - 1) / L.slot_chunk);
    if (!mg::last_arrival(&L.split_tickets[split], chunks)) return;  // uniform across the block
    for (uint32_t i = threadIdx.x; i < len; i += kPhase2Block) {
        acc[i] = __ldcg(&g[i]);  // from L2, where the other chunks' atomics went
        g[i] = Op::identity;
    }
    if (threadIdx.x == 0) L.split_tickets[split] = 0;
    __syncthreads();
    apply(L, r, lo, len, acc);
}

// launch_phase1 runs both phase 1 kernels of program op on stream st,
// recording ev[1] after the heavy kernel and ev[2] after the light one (ev
// may be NULL; the caller records ev[0] before).
template <typename Op>
int launch_phase1(Op op, const mg_dlayout &L, const typename Op::T *values, const uint8_t *active,
                  typename Op::T *buf, cudaStream_t st, mg_event *ev, char *err, size_t errlen) {
    const size_t panel = (size_t)L.panel_size * sizeof(typename Op::T);
    if (L.num_heavy_chunks > 0) {
        const int threads = (int)min(L.heavy_columns, 1024u);
        int rc = mg::set_smem(heavy_kernel<Op>, 2 * panel, err, errlen);
        if (rc != MG_OK) return rc;
        heavy_kernel<Op><<<L.num_heavy_chunks, threads, 2 * panel, st>>>(op, L, values, active, buf);
        MG_CHECK_LAUNCH("heavy_kernel<<<heavy row chunks, T, 2P·sizeof(T), s>>>");
    }
    if (ev != NULL) MG_CHECK(cudaEventRecord((cudaEvent_t)ev[1], st));
    if (L.num_light_chunks > 0) {
        light_kernel<Op><<<L.num_light_chunks, kLightBlock, 0, st>>>(op, L, values, active, buf);
        MG_CHECK_LAUNCH("light_kernel<<<light chunks, 256, 0, s>>>");
    }
    if (ev != NULL) MG_CHECK(cudaEventRecord((cudaEvent_t)ev[2], st));
    return MG_OK;
}

// launch_phase2 runs phase 2 on stream st.
template <typename Op, typename Apply>
int launch_phase2(const mg_dlayout &L, Apply apply, typename Op::T *buf, cudaStream_t st, char *err, size_t errlen) {
    const size_t panel = (size_t)L.panel_size * sizeof(typename Op::T);
    if (L.num_slot_chunks > 0) {
        int rc = mg::set_smem(phase2_kernel<Op, Apply>, panel, err, errlen);
        if (rc != MG_OK) return rc;
        phase2_kernel<Op, Apply><<<L.num_slot_chunks, kPhase2Block, panel, st>>>(L, apply, buf);
        MG_CHECK_LAUNCH("phase2_kernel<<<slot chunks, 512, P·sizeof(T), s>>>");
    }
    return MG_OK;
}

}  // namespace

#endif  // MGRAPH_KERNELS_DENSEWORK_CUH
