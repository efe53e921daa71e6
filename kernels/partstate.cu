// partstate.cu — the device side of k-core, maximal independent set and
// colouring over parts (partition.RunKCore, RunMIS and RunColor with a
// device exchanger; docs/multigpu.md), over a part's packaging state
// (partition.cu): the state of every vertex is the part's values (core
// number, MIS state or colour; MG_STATE_UNSET while live or undecided),
// which the rounds broadcast from owners to ghosts with mg_part_bcast_pack
// and mg_part_bcast_unpack; k-core's decrements for ghosts travel to their
// owners as messages in the superstep's send buffer (mg_part_msg, a
// segment per owner). Every step runs over a list of owned vertices (the
// live or undecided ones), which the compacting steps shorten.
#include "fn_structure.cuh"
#include "internal.cuh"

namespace {

constexpr int kBlock = 256;
constexpr int kBlocksPerSM = 8;
constexpr int kWarp = 32;
constexpr int kWarpsPerBlock = kBlock / kWarp;
constexpr uint32_t kFull = 0xffffffffu;
constexpr uint32_t kUnset = MG_STATE_UNSET;
constexpr uint32_t kMisOut = 0;
constexpr uint32_t kMisIn = 1;
constexpr int kColourWindow = 64;  // colours a decision tests at a time (one 64-bit mask)

using Sum = mg::SumOp<uint64_t, uint64_t>;

unsigned grid_for(int dev, uint64_t n) { return mg::grid_for(dev, n, kBlock, kBlocksPerSM); }

// warp_grid is the grid of a launch with a warp per item.
unsigned warp_grid(int dev, uint64_t n) { return grid_for(dev, (n + kWarpsPerBlock - 1) / kWarpsPerBlock); }

__device__ __forceinline__ uint64_t warp_id() { return ((uint64_t)blockIdx.x * kBlock + threadIdx.x) / kWarp; }
__device__ __forceinline__ uint64_t warps() { return (uint64_t)gridDim.x * kWarpsPerBlock; }
__device__ __forceinline__ uint32_t lane_id() { return threadIdx.x % kWarp; }

// append writes x at the next free slot of out (cursor *at) when keep,
// one atomic per warp. Every lane of the warp must call it.
__device__ __forceinline__ void append(bool keep, uint32_t x, uint32_t *out, unsigned long long *at) {
    const uint32_t want = __ballot_sync(kFull, keep);
    if (want == 0) return;
    const uint32_t lane = lane_id();
    const int leader = __ffs(want) - 1;
    unsigned long long slot = 0;
    if ((int)lane == leader) slot = atomicAdd(at, (unsigned long long)__popc(want));
    slot = __shfl_sync(kFull, slot, leader);
    if (keep) out[slot + __popc(want & ((1u << lane) - 1u))] = x;
}

// simple reports whether arc e of v's row (offsets off, destinations dst,
// rows sorted) is neither a self-loop nor a repeat of the arc before it.
__device__ __forceinline__ bool simple(const uint64_t *off, const uint32_t *dst, uint32_t v, uint64_t e) {
    const uint32_t u = dst[e];
    return u != v && (e == off[v] || dst[e - 1] != u);
}

// beats says whether neighbour u outranks v in the round of seed: by
// degree first when colouring, then by priority, then by original id.
__device__ __forceinline__ bool beats(const mg_part_state &s, uint32_t u, uint32_t v, uint64_t seed, bool colour) {
    if (colour) {
        const uint32_t du = s.deg[u], dv = s.deg[v];
        if (du != dv) return du > dv;
    }
    const uint32_t ou = s.orig[u], ov = s.orig[v];
    const uint64_t pu = mg::fn::priority(ou, seed), pv = mg::fn::priority(ov, seed);
    return pu > pv || (pu == pv && ou > ov);
}

// start_kernel (after every state was set to kUnset and every deg to 0):
// every owned vertex is listed, its deg its row's length or for k-core its
// number of distinct neighbours other than itself (a warp a vertex).
__global__ void __launch_bounds__(kBlock) start_kernel(mg_part_tables t, mg_part_state s, int kcore) {
    for (uint64_t i = warp_id(); i < t.num_local; i += warps()) {
        const uint32_t v = t.local_lid[i];
        const uint64_t lo = s.offsets[v], hi = s.offsets[v + 1];
        uint32_t d = (uint32_t)(hi - lo);
        if (kcore) {
            d = 0;
            for (uint64_t base = lo; base < hi; base += kWarp) {
                const uint64_t e = base + lane_id();
                d += __popc(__ballot_sync(kFull, e < hi && simple(s.offsets, s.dst, v, e)));
            }
        }
        if (lane_id() == 0) {
            s.deg[v] = d;
            s.list[i] = v;
        }
    }
}

// mark_kernel: an undecided listed vertex wins (win) when no undecided
// neighbour beats it (a warp a vertex, which stops at the first that does).
__global__ void __launch_bounds__(kBlock) mark_kernel(mg_part_state s, uint64_t num, uint64_t seed, int colour) {
    for (uint64_t i = warp_id(); i < num; i += warps()) {
        const uint32_t v = s.list[i];
        bool won = s.state[v] == kUnset;
        const uint64_t lo = s.offsets[v], hi = s.offsets[v + 1];
        for (uint64_t base = lo; won && base < hi; base += kWarp) {
            const uint64_t e = base + lane_id();
            bool b = false;
            if (e < hi) {
                const uint32_t u = s.dst[e];
                b = u != v && s.state[u] == kUnset && beats(s, u, v, seed, colour != 0);
            }
            won = !__any_sync(kFull, b);
        }
        if (lane_id() == 0) s.win[v] = won;
    }
}

// join_kernel: a winner joins the set.
__global__ void __launch_bounds__(kBlock) join_kernel(mg_part_state s, uint64_t num) {
    for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < num; i += (uint64_t)gridDim.x * kBlock) {
        const uint32_t v = s.list[i];
        if (s.win[v]) s.state[v] = kMisIn;
    }
}

// exclude_kernel: an undecided vertex with a neighbour in the set leaves
// (a warp a vertex).
__global__ void __launch_bounds__(kBlock) exclude_kernel(mg_part_state s, uint64_t num) {
    for (uint64_t i = warp_id(); i < num; i += warps()) {
        const uint32_t v = s.list[i];
        if (s.state[v] != kUnset) continue;  // warp-uniform
        const uint64_t lo = s.offsets[v], hi = s.offsets[v + 1];
        bool out = false;
        for (uint64_t base = lo; !out && base < hi; base += kWarp) {
            const uint64_t e = base + lane_id();
            out = __any_sync(kFull, e < hi && s.state[s.dst[e]] == kMisIn);
        }
        if (out && lane_id() == 0) s.state[v] = kMisOut;
    }
}

// colour_kernel: a winner takes the smallest colour none of its
// neighbours has (a warp a vertex: each lane ORs its arcs' colours of the
// window into a mask, the warp ORs the masks). Winners are never
// neighbours, so the colours read do not change meanwhile.
__global__ void __launch_bounds__(kBlock) colour_kernel(mg_part_state s, uint64_t num) {
    for (uint64_t i = warp_id(); i < num; i += warps()) {
        const uint32_t v = s.list[i];
        if (!s.win[v]) continue;  // warp-uniform
        const uint64_t lo = s.offsets[v], hi = s.offsets[v + 1];
        for (uint32_t window = 0;; window += kColourWindow) {
            uint64_t used = 0;
            for (uint64_t e = lo + lane_id(); e < hi; e += kWarp) {
                const uint32_t u = s.dst[e], c = s.state[u];
                if (u != v && c != kUnset && c >= window && c - window < kColourWindow) used |= 1ull << (c - window);
            }
            const uint32_t low = __reduce_or_sync(kFull, (uint32_t)used);
            const uint32_t high = __reduce_or_sync(kFull, (uint32_t)(used >> 32));
            used = (uint64_t)high << 32 | low;
            if (used != ~0ull) {
                if (lane_id() == 0) s.state[v] = window + (uint32_t)(__ffsll((long long)~used) - 1);
                break;
            }
        }
    }
}

// compact_kernel: the listed vertices still undecided go to next (cursor
// and count: ctr->next_count). Rounds are block-uniform for append.
__global__ void __launch_bounds__(kBlock) compact_kernel(mg_part_state s, uint64_t num, mg_part_counters *ctr) {
    for (uint64_t base = (uint64_t)blockIdx.x * kBlock; base < num; base += (uint64_t)gridDim.x * kBlock) {
        const uint64_t i = base + threadIdx.x;
        uint32_t v = 0;
        bool keep = false;
        if (i < num) {
            v = s.list[i];
            keep = s.state[v] == kUnset;
        }
        append(keep, v, s.next_list, (unsigned long long *)&ctr->next_count);
    }
}

// peel_kernel: a live listed vertex of degree below k is removed (core
// number k−1) and listed in removed (cursor: ctr->next_edges), the others
// stay live in next (ctr->next_count).
__global__ void __launch_bounds__(kBlock) peel_kernel(mg_part_state s, uint64_t num, uint32_t k, mg_part_counters *ctr) {
    for (uint64_t base = (uint64_t)blockIdx.x * kBlock; base < num; base += (uint64_t)gridDim.x * kBlock) {
        const uint64_t i = base + threadIdx.x;
        uint32_t v = 0;
        bool gone = false, live = false;
        if (i < num) {
            v = s.list[i];
            gone = s.deg[v] < k;
            live = !gone;
            if (gone) s.state[v] = k - 1;
        }
        append(gone, v, s.removed, (unsigned long long *)&ctr->next_edges);
        append(live, v, s.next_list, (unsigned long long *)&ctr->next_count);
    }
}

// drop_kernel: every distinct neighbour of a vertex the peel removed loses a
// degree: a live owned one at once, a ghost in its deg slot, the count its
// owner gets; the ghost is listed in touched when its count leaves 0 (a
// warp a removed vertex).
__global__ void __launch_bounds__(kBlock) drop_kernel(mg_part_tables t, mg_part_state s, const mg_part_counters *ctr) {
    const uint64_t num = ctr->next_edges;  // the peel's removed vertices
    for (uint64_t i = warp_id(); i < num; i += warps()) {
        const uint32_t v = s.removed[i];
        const uint64_t lo = s.offsets[v], hi = s.offsets[v + 1];
        for (uint64_t e = lo + lane_id(); e < hi; e += kWarp) {
            if (!simple(s.offsets, s.dst, v, e)) continue;
            const uint32_t u = s.dst[e];
            const uint32_t g = t.lid_ghost[u];
            if (g != MG_PART_OWNED) {
                if (atomicAdd(&s.deg[u], 1u) == 0) s.touched[atomicAdd(s.num_touched, 1ull)] = g;
            } else if (s.state[u] == kUnset) {
                atomicSub(&s.deg[u], 1u);
            }
        }
    }
}

// pack_kernel: a touched ghost becomes a message (its id in its owner, its
// count) in its owner's segment of send (a slot per ghost, so it cannot
// overflow; one atomic per owner and warp), its count zeroed. Rounds are
// block-uniform, so every lane reaches the warp votes.
__global__ void __launch_bounds__(kBlock) pack_kernel(mg_part_tables t, mg_part_state s, mg_part_counters *ctr) {
    const uint64_t num = *s.num_touched;
    for (uint64_t base = (uint64_t)blockIdx.x * kBlock; base < num; base += (uint64_t)gridDim.x * kBlock) {
        const uint64_t i = base + threadIdx.x;
        bool emit = false;
        uint32_t owner = 0, count = 0, g = 0;
        if (i < num) {
            g = s.touched[i];
            const uint32_t lid = t.ghost_lid[g];
            count = s.deg[lid];
            s.deg[lid] = 0;
            emit = true;
            owner = t.ghost_owner[g];
        }
        mg::part_emit(emit, owner, mg_part_msg{emit ? t.ghost_remote[g] : 0u, count}, t.owner_start, ctr->sent, s.send);
    }
}

// unpack_kernel: a live owned vertex loses the decrements its ghosts
// sent (never below 0); a message for a vertex the part does not own is
// counted in bad.
__global__ void __launch_bounds__(kBlock)
    unpack_kernel(mg_part_tables t, mg_part_state s, uint64_t received, mg_part_counters *ctr) {
    uint64_t bad = 0;
    for (uint64_t i = (uint64_t)blockIdx.x * kBlock + threadIdx.x; i < received; i += (uint64_t)gridDim.x * kBlock) {
        const mg_part_msg m = s.recv[i];
        if (m.vertex >= t.num_local) {
            bad++;
            continue;
        }
        const uint32_t v = t.local_lid[m.vertex];
        if (s.state[v] != kUnset) continue;
        uint32_t d = s.deg[v], seen;
        do {
            seen = d;
            d = atomicCAS(&s.deg[v], seen, seen - min(seen, m.value));
        } while (d != seen);
    }
    bad = mg::block_reduce<Sum, kBlock>(bad);
    if (threadIdx.x == 0 && bad > 0) atomicAdd((unsigned long long *)&ctr->bad, (unsigned long long)bad);
}

}  // namespace

extern "C" {

int mg_part_state_step(int dev, const mg_part_tables *t, const mg_part_state *s, int op, uint64_t num, uint64_t a,
                       mg_part_counters *ctr, char *err, size_t errlen) {
    if (t == NULL || s == NULL || ctr == NULL) return mg::invalid("mg_part_state_step: NULL pointer", err, errlen);
    const bool rows = op == MG_STATE_START_MIS || op == MG_STATE_START_KCORE || op == MG_STATE_MARK ||
                      op == MG_STATE_MARK_COLOUR || op == MG_STATE_EXCLUDE || op == MG_STATE_COLOUR ||
                      op == MG_STATE_PEEL;
    if (rows && (t->num_local > 0 && (s->offsets == NULL || s->state == NULL || s->deg == NULL || s->list == NULL)))
        return mg::invalid("mg_part_state_step: NULL rows, state, degrees or list", err, errlen);
    MG_SET_DEVICE(dev);
    switch (op) {
    case MG_STATE_START_MIS:
    case MG_STATE_START_KCORE: {
        const uint64_t n = t->num_local + t->num_ghosts;
        if (n > 0) {
            MG_CHECK(cudaMemset(s->state, 0xff, n * sizeof(uint32_t)));  // MG_STATE_UNSET, the ghosts' too
            MG_CHECK(cudaMemset(s->deg, 0, n * sizeof(uint32_t)));
        }
        if (t->num_local > 0)
            start_kernel<<<warp_grid(dev, t->num_local), kBlock>>>(*t, *s, op == MG_STATE_START_KCORE);
        break;
    }
    case MG_STATE_MARK:
    case MG_STATE_MARK_COLOUR:
        if (num > 0 && (s->orig == NULL || s->win == NULL))
            return mg::invalid("mg_part_state_step: NULL original ids or flags", err, errlen);
        if (num > 0) mark_kernel<<<warp_grid(dev, num), kBlock>>>(*s, num, a, op == MG_STATE_MARK_COLOUR);
        break;
    case MG_STATE_JOIN:
        if (num > 0) join_kernel<<<grid_for(dev, num), kBlock>>>(*s, num);
        break;
    case MG_STATE_EXCLUDE:
        if (num > 0) exclude_kernel<<<warp_grid(dev, num), kBlock>>>(*s, num);
        break;
    case MG_STATE_COLOUR:
        if (num > 0) colour_kernel<<<warp_grid(dev, num), kBlock>>>(*s, num);
        break;
    case MG_STATE_COMPACT:
        MG_CHECK(cudaMemset(ctr, 0, sizeof(mg_part_counters)));
        if (num > 0) compact_kernel<<<grid_for(dev, num), kBlock>>>(*s, num, ctr);
        break;
    case MG_STATE_PEEL:
        // The peel, the drop and the packaging in one call: the drop and
        // the packaging read their sizes on the device.
        if (s->num_touched == NULL ||
            (num > 0 && (s->removed == NULL || (t->num_ghosts > 0 && (s->touched == NULL || s->send == NULL)))))
            return mg::invalid("mg_part_state_step: NULL removed or touched list or send buffer", err, errlen);
        MG_CHECK(cudaMemset(ctr, 0, sizeof(mg_part_counters)));
        MG_CHECK(cudaMemset(s->num_touched, 0, sizeof(unsigned long long)));
        if (num > 0) {
            peel_kernel<<<grid_for(dev, num), kBlock>>>(*s, num, (uint32_t)a, ctr);
            MG_CHECK_LAUNCH("peel_kernel<<<grid, 256>>>");
            drop_kernel<<<warp_grid(dev, num), kBlock>>>(*t, *s, ctr);
            MG_CHECK_LAUNCH("drop_kernel<<<grid, 256>>>");
            if (t->num_ghosts > 0) pack_kernel<<<grid_for(dev, t->num_ghosts), kBlock>>>(*t, *s, ctr);
        }
        break;
    case MG_STATE_UNPACK:
        MG_CHECK(cudaMemset(&ctr->bad, 0, sizeof(ctr->bad)));
        if (num > 0) {
            if (s->recv == NULL) return mg::invalid("mg_part_state_step: NULL receive buffer", err, errlen);
            unpack_kernel<<<grid_for(dev, num), kBlock>>>(*t, *s, num, ctr);
        }
        break;
    default:
        return mg::invalid("mg_part_state_step: unknown step", err, errlen);
    }
    MG_CHECK_LAUNCH("partstate kernel<<<grid, 256>>>");
    MG_SYNC("mg_part_state_step");
    return MG_OK;
}

}  // extern "C"
