// partition.cu — the device side of a partitioned run's superstep
// (partition.Run with a device exchanger; docs/multigpu.md): packaging the
// updates of an iteration into per-owner message segments, unpackaging the
// messages a part received, the labels CC starts from, and the owned
// values gathered in the part's numbering. Values, frontier flags and
// messages never leave the device; the host reads the counters only.
#include "internal.cuh"

namespace {

constexpr int kBlock = 256;
constexpr int kBlocksPerSM = 8;
constexpr uint32_t kFullMask = 0xffffffffu;

using Sum = mg::SumOp<uint64_t, uint64_t>;

// add_block_totals adds the block's sums of count and edges to the
// counters, one atomic each per block. Every thread must call it.
__device__ __forceinline__ void add_block_totals(uint64_t count, uint64_t edges, mg_part_counters *ctr) {
    count = mg::block_reduce<Sum, kBlock>(count);
    if (threadIdx.x == 0 && count > 0) atomicAdd((unsigned long long *)&ctr->next_count, (unsigned long long)count);
    __syncthreads();  // block_reduce's shared partials are reused
    edges = mg::block_reduce<Sum, kBlock>(edges);
    if (threadIdx.x == 0 && edges > 0) atomicAdd((unsigned long long *)&ctr->next_edges, (unsigned long long)edges);
}

// pack_kernel: thread v looks at the vertex of layout id v, owned or a
// ghost (lid_ghost), so the values, prev and offsets are read in order. A
// vertex whose value went below prev (the value after the last exchange)
// gets prev = value; an owned one is flagged in next and counted with its
// out-arcs, a ghost becomes a message (its id in its owner, the value) in
// its owner's segment of send, [owner_start[o], owner_start[o+1]) — a
// ghost is in it once, so the segment cannot overflow (mg::part_emit).
// Rounds are block-uniform (base < total), so every lane reaches the warp
// votes.
__global__ void __launch_bounds__(kBlock)
    pack_kernel(mg_part_tables t, const uint64_t *__restrict__ offsets, const uint32_t *__restrict__ values,
                uint32_t *__restrict__ prev, uint8_t *__restrict__ next, mg_part_msg *__restrict__ send,
                mg_part_counters *ctr) {
    const uint64_t total = t.num_local + t.num_ghosts;
    uint64_t count = 0, edges = 0;
    for (uint64_t base = (uint64_t)blockIdx.x * kBlock; base < total; base += (uint64_t)gridDim.x * kBlock) {
        const uint64_t lid = base + threadIdx.x;
        bool emit = false;
        uint32_t owner = 0, remote = 0, v = 0;
        if (lid < total) {
            v = values[lid];
            if (v < prev[lid]) {
                prev[lid] = v;
                const uint32_t g = t.lid_ghost[lid];
                if (g == MG_PART_OWNED) {
                    next[lid] = 1;
                    count++;
                    edges += offsets[lid + 1] - offsets[lid];
                } else {
                    emit = true;
                    owner = t.ghost_owner[g];
                    remote = t.ghost_remote[g];
                }
            }
        }
        mg::part_emit(emit, owner, mg_part_msg{remote, v}, t.owner_start, ctr->sent, send);
    }
    add_block_totals(count, edges, ctr);
}

// unpack_kernel min-combines the received messages into the owned
// vertices: a message that lowers its vertex lowers prev too (an owned
// vertex is never sent, prev only tells the next pack what the iteration
// changed) and flags the vertex in next, counted with its out-arcs when it
// was not flagged yet (the flag's byte tested and set by an atomic OR on
// its word: next is padded to a multiple of 4 bytes). A message for a
// vertex the part does not own is counted in bad.
__global__ void __launch_bounds__(kBlock)
    unpack_kernel(mg_part_tables t, const uint64_t *__restrict__ offsets, const mg_part_msg *__restrict__ recv,
                  uint64_t received, uint32_t *values, uint32_t *prev, uint8_t *next, mg_part_counters *ctr) {
    uint64_t count = 0, edges = 0, bad = 0;
    for (uint64_t base = (uint64_t)blockIdx.x * kBlock; base < received; base += (uint64_t)gridDim.x * kBlock) {
        const uint64_t i = base + threadIdx.x;
        if (i >= received) continue;
        const mg_part_msg m = recv[i];
        if (m.vertex >= t.num_local) {
            bad++;
            continue;
        }
        const uint32_t lid = t.local_lid[m.vertex];
        if (m.value >= atomicMin(&values[lid], m.value)) continue;
        atomicMin(&prev[lid], m.value);
        uint32_t *word = reinterpret_cast<uint32_t *>(next + (lid & ~3u));
        const uint32_t shift = 8 * (lid & 3u);
        if (((atomicOr(word, 1u << shift) >> shift) & 0xffu) == 0) {
            count++;
            edges += offsets[lid + 1] - offsets[lid];
        }
    }
    add_block_totals(count, edges, ctr);
    __syncthreads();
    bad = mg::block_reduce<Sum, kBlock>(bad);
    if (threadIdx.x == 0 && bad > 0) atomicAdd((unsigned long long *)&ctr->bad, (unsigned long long)bad);
}

// labels_kernel: every vertex's label is its original id (global, in the
// part's numbering: owned vertices, then ghosts), and the owned vertices
// are flagged active.
__global__ void labels_kernel(mg_part_tables t, const uint32_t *__restrict__ global, uint32_t *__restrict__ values,
                              uint8_t *__restrict__ flags) {
    const uint64_t total = t.num_local + t.num_ghosts;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (uint64_t)gridDim.x * blockDim.x) {
        if (i < t.num_local) {
            const uint32_t lid = t.local_lid[i];
            values[lid] = global[i];
            flags[lid] = 1;
        } else {
            values[t.ghost_lid[i - t.num_local]] = global[i];
        }
    }
}

// roots_min_kernel lowers each root's label to those of its component's
// vertices (flagged ones only, unless flags is NULL). A warp's vertices
// mostly share a root (a skewed graph's giant component): the lanes of
// one root take their minimum by shuffles and its smallest lane makes
// one atomicMin, only when the label is below the root's (read around
// L1: other SMs lower it), so that a root is not hammered by a thread
// per vertex. Rounds are block-uniform, so every lane reaches the votes.
__global__ void __launch_bounds__(kBlock)
    roots_min_kernel(const uint32_t *__restrict__ parent, const uint8_t *__restrict__ flags, uint32_t *values, uint64_t n) {
    const uint32_t lane = threadIdx.x & 31;
    for (uint64_t base = (uint64_t)blockIdx.x * kBlock; base < n; base += (uint64_t)gridDim.x * kBlock) {
        const uint64_t v = base + threadIdx.x;
        uint32_t root = 0, label = 0;
        bool want = false;
        if (v < n && (flags == NULL || flags[v] != 0)) {
            root = parent[v];
            if (root != (uint32_t)v) {
                label = __ldcg(&values[v]);
                want = label < __ldcg(&values[root]);
            }
        }
        const uint32_t active = __ballot_sync(kFullMask, want);
        if (!want) continue;
        const uint32_t same = __match_any_sync(active, root);
        uint32_t low = label;
        for (uint32_t rest = same; rest != 0; rest &= rest - 1) low = min(low, __shfl_sync(same, label, __ffs(rest) - 1));
        if ((int)lane == __ffs(same) - 1) atomicMin(&values[root], low);
    }
}

// roots_take_kernel: every vertex takes its root's label when lower.
__global__ void __launch_bounds__(kBlock)
    roots_take_kernel(const uint32_t *__restrict__ parent, uint32_t *__restrict__ values, uint64_t n) {
    for (uint64_t v = (uint64_t)blockIdx.x * kBlock + threadIdx.x; v < n; v += (uint64_t)gridDim.x * kBlock) {
        const uint32_t label = values[parent[v]];
        if (label < values[v]) values[v] = label;
    }
}

// gather_kernel: out[i] = the value of owned vertex i (part numbering).
__global__ void gather_kernel(mg_part_tables t, const uint32_t *__restrict__ values, uint32_t *__restrict__ out) {
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < t.num_local; i += (uint64_t)gridDim.x * blockDim.x)
        out[i] = values[t.local_lid[i]];
}

// scatter_kernel: full[ids[i]] = vals[i] (ids distinct).
__global__ void scatter_kernel(const uint32_t *__restrict__ vals, const uint32_t *__restrict__ ids, uint64_t count,
                               uint32_t *__restrict__ full) {
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (uint64_t)gridDim.x * blockDim.x)
        full[ids[i]] = vals[i];
}

// bcast_pack_kernel: send[i] = values[recv_lid[i]] (a boundary vertex's
// level for a part that holds it as a ghost).
__global__ void bcast_pack_kernel(const uint32_t *__restrict__ values, const uint32_t *__restrict__ recv_lid,
                                  uint64_t count, uint32_t *__restrict__ send) {
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (uint64_t)gridDim.x * blockDim.x)
        send[i] = values[recv_lid[i]];
}

// bcast_unpack_kernel: values[ghost_lid[g]] = recv[g] (a ghost takes its
// owner's level), prev too when given, and with flags the ghost is flagged
// when the level is level (a pull step's frontier).
__global__ void bcast_unpack_kernel(mg_part_tables t, const uint32_t *__restrict__ recv, uint32_t *__restrict__ values,
                                    uint32_t *__restrict__ prev, uint8_t *__restrict__ flags, uint32_t level) {
    for (uint64_t g = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; g < t.num_ghosts; g += (uint64_t)gridDim.x * blockDim.x) {
        const uint32_t lid = t.ghost_lid[g], x = recv[g];
        values[lid] = x;
        if (prev != nullptr) prev[lid] = x;
        if (flags != nullptr) flags[lid] = x == level;
    }
}

// parents_kernel: thread v takes layout id v when the part owns it: level
// 0 is its own parent, the identity has none, any other level takes the
// first neighbour of its out-row one level up (its original id); a
// reached vertex without one is counted in bad.
__global__ void __launch_bounds__(kBlock)
    parents_kernel(mg_part_tables t, const uint64_t *__restrict__ offsets, const uint32_t *__restrict__ dst,
                   const uint32_t *__restrict__ values, const uint32_t *__restrict__ orig_by_lid,
                   uint32_t *__restrict__ parents, mg_part_counters *ctr) {
    const uint64_t total = t.num_local + t.num_ghosts;
    uint64_t bad = 0;
    for (uint64_t v = (uint64_t)blockIdx.x * kBlock + threadIdx.x; v < total; v += (uint64_t)gridDim.x * kBlock) {
        if (t.lid_ghost[v] != MG_PART_OWNED) continue;
        const uint32_t level = values[v];
        uint32_t parent = MG_PART_OWNED;  // the identity: no parent
        if (level == 0) {
            parent = orig_by_lid[v];
        } else if (level != MG_PART_OWNED) {
            for (uint64_t e = offsets[v]; e < offsets[v + 1]; e++) {
                const uint32_t u = dst[e];
                if (values[u] == level - 1) {
                    parent = orig_by_lid[u];
                    break;
                }
            }
            bad += parent == MG_PART_OWNED;
        }
        parents[v] = parent;
    }
    bad = mg::block_reduce<Sum, kBlock>(bad);
    if (threadIdx.x == 0 && bad > 0) atomicAdd((unsigned long long *)&ctr->bad, (unsigned long long)bad);
}

unsigned grid_for(int dev, uint64_t n) { return mg::grid_for(dev, n, kBlock, kBlocksPerSM); }

int check_tables(const mg_part_tables *t, const char *what, char *err, size_t errlen) {
    if (t == NULL) return mg::invalid(what, err, errlen);
    if (t->parts == 0 || t->parts > MG_PART_MAX_PEERS) return mg::invalid("partition: parts out of 1..MG_PART_MAX_PEERS", err, errlen);
    if (t->num_local > 0 && t->local_lid == NULL) return mg::invalid(what, err, errlen);
    if (t->num_ghosts > 0 && (t->ghost_lid == NULL || t->ghost_owner == NULL || t->ghost_remote == NULL || t->owner_start == NULL))
        return mg::invalid(what, err, errlen);
    if (t->num_local + t->num_ghosts > 0 && t->lid_ghost == NULL) return mg::invalid(what, err, errlen);
    return MG_OK;
}

}  // namespace

extern "C" {

int mg_part_pack(int dev, const mg_part_tables *t, const uint64_t *offsets, const uint32_t *values, uint32_t *prev,
                 uint8_t *next, uint64_t n, mg_part_msg *send, mg_part_counters *ctr, char *err, size_t errlen) {
    if (int rc = check_tables(t, "mg_part_pack: NULL table", err, errlen)) return rc;
    if (ctr == NULL || (n > 0 && (offsets == NULL || values == NULL || prev == NULL || next == NULL)) ||
        (t->num_ghosts > 0 && send == NULL))
        return mg::invalid("mg_part_pack: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaMemsetAsync(ctr, 0, sizeof(mg_part_counters), 0));
    if (n > 0) MG_CHECK(cudaMemsetAsync(next, 0, n, 0));
    const uint64_t total = t->num_local + t->num_ghosts;
    if (total > 0) {
        pack_kernel<<<grid_for(dev, total), kBlock>>>(*t, offsets, values, prev, next, send, ctr);
        MG_CHECK_LAUNCH("pack_kernel<<<grid, 256>>>");
    }
    MG_SYNC("mg_part_pack (pack_kernel)");
    return MG_OK;
}

int mg_part_unpack(int dev, const mg_part_tables *t, const uint64_t *offsets, const mg_part_msg *recv,
                   uint64_t received, uint32_t *values, uint32_t *prev, uint8_t *next, mg_part_counters *ctr,
                   char *err, size_t errlen) {
    if (int rc = check_tables(t, "mg_part_unpack: NULL table", err, errlen)) return rc;
    if (ctr == NULL) return mg::invalid("mg_part_unpack: NULL counters", err, errlen);
    if (received == 0) return MG_OK;
    if (recv == NULL || offsets == NULL || values == NULL || prev == NULL || next == NULL)
        return mg::invalid("mg_part_unpack: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    unpack_kernel<<<grid_for(dev, received), kBlock>>>(*t, offsets, recv, received, values, prev, next, ctr);
    MG_CHECK_LAUNCH("unpack_kernel<<<grid, 256>>>");
    MG_SYNC("mg_part_unpack (unpack_kernel)");
    return MG_OK;
}

int mg_part_labels(int dev, const mg_part_tables *t, const uint32_t *global, uint32_t *values, uint8_t *flags,
                   uint64_t n, char *err, size_t errlen) {
    if (int rc = check_tables(t, "mg_part_labels: NULL table", err, errlen)) return rc;
    if (n > 0 && (global == NULL || values == NULL || flags == NULL))
        return mg::invalid("mg_part_labels: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    if (n == 0) return MG_OK;
    MG_CHECK(cudaMemsetAsync(flags, 0, n, 0));
    labels_kernel<<<grid_for(dev, t->num_local + t->num_ghosts), kBlock>>>(*t, global, values, flags);
    MG_CHECK_LAUNCH("labels_kernel<<<grid, 256>>>");
    MG_SYNC("mg_part_labels (labels_kernel)");
    return MG_OK;
}

int mg_part_cc_roots(int dev, const uint32_t *parent, const uint8_t *flags, uint32_t *values, uint64_t n, char *err,
                     size_t errlen) {
    if (n > 0 && (parent == NULL || values == NULL)) return mg::invalid("mg_part_cc_roots: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    if (n == 0) return MG_OK;
    roots_min_kernel<<<grid_for(dev, n), kBlock>>>(parent, flags, values, n);
    MG_CHECK_LAUNCH("roots_min_kernel<<<grid, 256>>>");
    roots_take_kernel<<<grid_for(dev, n), kBlock>>>(parent, values, n);
    MG_CHECK_LAUNCH("roots_take_kernel<<<grid, 256>>>");
    MG_SYNC("mg_part_cc_roots (roots_min_kernel, roots_take_kernel)");
    return MG_OK;
}

int mg_part_gather(int dev, const mg_part_tables *t, const uint32_t *values, uint32_t *out, char *err, size_t errlen) {
    if (int rc = check_tables(t, "mg_part_gather: NULL table", err, errlen)) return rc;
    if (t->num_local == 0) return MG_OK;
    if (values == NULL || out == NULL) return mg::invalid("mg_part_gather: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    gather_kernel<<<grid_for(dev, t->num_local), kBlock>>>(*t, values, out);
    MG_CHECK_LAUNCH("gather_kernel<<<grid, 256>>>");
    MG_SYNC("mg_part_gather (gather_kernel)");
    return MG_OK;
}

int mg_part_scatter(int dev, const uint32_t *vals, const uint32_t *ids, uint64_t count, uint32_t *full, char *err,
                    size_t errlen) {
    if (count == 0) return MG_OK;
    if (vals == NULL || ids == NULL || full == NULL) return mg::invalid("mg_part_scatter: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    scatter_kernel<<<grid_for(dev, count), kBlock>>>(vals, ids, count, full);
    MG_CHECK_LAUNCH("scatter_kernel<<<grid, 256>>>");
    MG_SYNC("mg_part_scatter (scatter_kernel)");
    return MG_OK;
}

int mg_part_bcast_pack(int dev, const uint32_t *values, const uint32_t *recv_lid, uint64_t count, uint32_t *send,
                       char *err, size_t errlen) {
    if (count == 0) return MG_OK;
    if (values == NULL || recv_lid == NULL || send == NULL)
        return mg::invalid("mg_part_bcast_pack: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    bcast_pack_kernel<<<grid_for(dev, count), kBlock>>>(values, recv_lid, count, send);
    MG_CHECK_LAUNCH("bcast_pack_kernel<<<grid, 256>>>");
    MG_SYNC("mg_part_bcast_pack (bcast_pack_kernel)");
    return MG_OK;
}

int mg_part_bcast_unpack(int dev, const mg_part_tables *t, const uint32_t *recv, uint32_t *values, uint32_t *prev,
                         uint8_t *flags, uint32_t level, char *err, size_t errlen) {
    if (int rc = check_tables(t, "mg_part_bcast_unpack: NULL table", err, errlen)) return rc;
    if (t->num_ghosts == 0) return MG_OK;
    if (recv == NULL || values == NULL) return mg::invalid("mg_part_bcast_unpack: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    bcast_unpack_kernel<<<grid_for(dev, t->num_ghosts), kBlock>>>(*t, recv, values, prev, flags, level);
    MG_CHECK_LAUNCH("bcast_unpack_kernel<<<grid, 256>>>");
    MG_SYNC("mg_part_bcast_unpack (bcast_unpack_kernel)");
    return MG_OK;
}

int mg_part_parents(int dev, const mg_part_tables *t, const uint64_t *offsets, const uint32_t *dst,
                    const uint32_t *values, const uint32_t *orig_by_lid, uint32_t *parents, mg_part_counters *ctr,
                    char *err, size_t errlen) {
    if (int rc = check_tables(t, "mg_part_parents: NULL table", err, errlen)) return rc;
    const uint64_t total = t->num_local + t->num_ghosts;
    if (ctr == NULL || (total > 0 && (offsets == NULL || values == NULL || orig_by_lid == NULL || parents == NULL)))
        return mg::invalid("mg_part_parents: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaMemsetAsync(ctr, 0, sizeof(mg_part_counters), 0));
    if (total > 0) {
        parents_kernel<<<grid_for(dev, total), kBlock>>>(*t, offsets, dst, values, orig_by_lid, parents, ctr);
        MG_CHECK_LAUNCH("parents_kernel<<<grid, 256>>>");
    }
    MG_SYNC("mg_part_parents (parents_kernel)");
    return MG_OK;
}

int mg_enable_peer_access(int dev, int peer, int *enabled, char *err, size_t errlen) {
    if (enabled == NULL) return mg::invalid("mg_enable_peer_access: NULL pointer", err, errlen);
    *enabled = 0;
    if (dev == peer) return MG_OK;
    int can = 0;
    MG_CHECK(cudaDeviceCanAccessPeer(&can, dev, peer));
    if (can == 0) return MG_OK;
    MG_SET_DEVICE(dev);
    cudaError_t r = cudaDeviceEnablePeerAccess(peer, 0);
    if (r == cudaErrorPeerAccessAlreadyEnabled) {
        (void)cudaGetLastError();  // not an error here: clear it
        r = cudaSuccess;
    }
    MG_CHECK(r);
    *enabled = 1;
    return MG_OK;
}

int mg_copy_peer(int dst_dev, void *dst, int src_dev, const void *src, uint64_t bytes, char *err, size_t errlen) {
    if (bytes == 0) return MG_OK;
    if (dst == NULL || src == NULL) return mg::invalid("mg_copy_peer: NULL pointer", err, errlen);
    MG_SET_DEVICE(dst_dev);
    if (dst_dev == src_dev) {
        MG_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
    } else {
        MG_CHECK(cudaMemcpyPeer(dst, dst_dev, src, src_dev, bytes));
    }
    return MG_OK;
}

}  // extern "C"
