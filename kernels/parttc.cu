// parttc.cu — the device side of triangle counting over parts
// (partition.RunTriangles on GPU backends; docs/multigpu.md): a part's
// rows are its owned vertices' neighbours above them in (degree, original
// id) order, then those of the ghosts the owned rows name, in original
// ids, sorted; every arc of an owned row (its source row and its
// destination's row given) is one intersection of two rows, each common
// vertex a triangle whose lowest vertex the part owns.
#include "internal.cuh"

namespace {

constexpr int kBlock = 256;
constexpr int kBlocksPerSM = 8;

using Sum = mg::SumOp<uint64_t, uint64_t>;

unsigned grid_for(int dev, uint64_t n) { return mg::grid_for(dev, n, kBlock, kBlocksPerSM); }

// count_kernel: thread e merges the rows of arc e's source and destination
// (both sorted) and counts their common vertices into *total; with
// per_row, each triangle adds 1 to its three vertices' rows (the common
// vertex's row is the source row's arc's: arc_row).
__global__ void __launch_bounds__(kBlock)
    count_kernel(const uint64_t *__restrict__ offsets, const uint32_t *__restrict__ adj,
                 const uint32_t *__restrict__ arc_src, const uint32_t *__restrict__ arc_row, uint64_t num_arcs,
                 unsigned long long *total, unsigned long long *per_row) {
    uint64_t found = 0;
    for (uint64_t e = (uint64_t)blockIdx.x * kBlock + threadIdx.x; e < num_arcs; e += (uint64_t)gridDim.x * kBlock) {
        const uint32_t u = arc_src[e], v = arc_row[e];
        uint64_t a = offsets[u], b = offsets[v];
        const uint64_t ae = offsets[u + 1], be = offsets[v + 1];
        uint64_t c = 0;
        while (a < ae && b < be) {
            const uint32_t x = adj[a], y = adj[b];
            if (x < y) {
                a++;
            } else if (x > y) {
                b++;
            } else {
                c++;
                if (per_row != nullptr) atomicAdd(&per_row[arc_row[a]], 1ull);
                a++;
                b++;
            }
        }
        if (c > 0 && per_row != nullptr) {
            atomicAdd(&per_row[u], (unsigned long long)c);
            atomicAdd(&per_row[v], (unsigned long long)c);
        }
        found += c;
    }
    found = mg::block_reduce<Sum, kBlock>(found);
    if (threadIdx.x == 0 && found > 0) atomicAdd(total, (unsigned long long)found);
}

}  // namespace

extern "C" {

int mg_part_triangles(int dev, const uint64_t *offsets, const uint32_t *adj, const uint32_t *arc_src,
                      const uint32_t *arc_row, uint64_t num_arcs, unsigned long long *total,
                      unsigned long long *per_row, uint64_t num_rows, char *err, size_t errlen) {
    if (total == NULL || (num_arcs > 0 && (offsets == NULL || adj == NULL || arc_src == NULL || arc_row == NULL)))
        return mg::invalid("mg_part_triangles: NULL pointer", err, errlen);
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaMemset(total, 0, sizeof(unsigned long long)));
    if (per_row != NULL && num_rows > 0) MG_CHECK(cudaMemset(per_row, 0, num_rows * sizeof(unsigned long long)));
    if (num_arcs > 0) {
        count_kernel<<<grid_for(dev, num_arcs), kBlock>>>(offsets, adj, arc_src, arc_row, num_arcs, total, per_row);
        MG_CHECK_LAUNCH("count_kernel<<<grid, 256>>>");
    }
    MG_SYNC("mg_part_triangles");
    return MG_OK;
}

}  // extern "C"
