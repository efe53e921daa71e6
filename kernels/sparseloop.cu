// sparseloop.cu — MultiGraphS iterations kept on the device. A long
// traversal of small frontiers (a road network, a grid) runs thousands of
// iterations of a few thousand arcs each; as separate launches with a
// counters copy per iteration each costs tens of microseconds of launches and
// host round trips, far more than its work. Here one cooperative kernel runs
// iteration after iteration: the advance, hubs and apply of sparsework.cuh
// with a grid-wide barrier after each, then every thread reads the counters
// and decides by the host's own rule (mg_loop_rule) whether the next
// iteration is another such one; the leader thread records them. The host
// waits once per loop, not once per iteration. The iterations may be
// near-far ones (SSSP; see sparse_loop_kernel).
#include <cooperative_groups.h>

#include "sparsework.cuh"

namespace {

namespace cg = cooperative_groups;

// The register budget of the loop kernel: at least kLoopMinBlocksPerSM blocks
// of it must fit on an SM.
constexpr int kLoopMinBlocksPerSM = 4;

__device__ __forceinline__ uint64_t global_ns() {
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// pull_pays is sampler.PullPays: Beamer's rule, then the expected arcs of
// a pull step, min(unsettled arcs, unsettled vertices · m / edges), weighed
// by pull_arc_ratio against the frontier's out-arcs.
__device__ __forceinline__ bool pull_pays(const mg_loop_rule &r, uint64_t edges, uint64_t unsettled,
                                          uint64_t unsettled_v) {
    if (edges * r.alpha <= unsettled || edges * r.beta <= r.n) return false;
    const double scan = fmin((double)unsettled, (double)unsettled_v * (double)r.m / (double)edges);
    return scan * r.pull_arc_ratio < (double)edges;
}

// LoopNext is what the iteration after a device-loop iteration is.
enum LoopNext { kLoopStop, kLoopPush, kLoopPull };

// loop_push_goes_on: whether a pushed (sparse) iteration of the next
// frontier (count vertices, edges out-arcs) runs on the device, by the
// rules other than the pull rule (see mg_loop_rule).
__device__ __forceinline__ bool loop_push_goes_on(const mg_loop_rule &r, uint32_t count, uint64_t edges) {
    if (count == 0 || (r.max_count > 0 && count > r.max_count)) return false;
    if (!r.hybrid) return true;
    if (count == r.n && !r.calibrated) return false;
    if (edges * r.fast_ratio < r.m) return true;
    return r.calibrated && r.fixed_s + r.arc_cost_s * (double)edges < r.edp_s;
}

// loop_next: what the iteration of the next frontier (count vertices,
// edges out-arcs) after a pushed one is (see mg_loop_rule; a pull step
// may follow whatever frontier the grid is for). unsettled
// and unsettled_v are the calling thread's running copies: every thread
// decides, the same way. Where the pull rule holds the loop stops for
// the host's pull step, or with pull_in_loop (BFS) pulls itself.
__device__ __forceinline__ LoopNext loop_next(const mg_loop_rule &r, uint32_t count, uint64_t edges,
                                             uint64_t &unsettled, uint64_t &unsettled_v) {
    if (count == 0) return kLoopStop;
    if (!r.hybrid) return r.max_count > 0 && count > r.max_count ? kLoopStop : kLoopPush;
    if (r.can_pull) {
        unsettled -= min(unsettled, edges);
        unsettled_v -= min(unsettled_v, (uint64_t)count);
        if (edges >= r.pull_min_arcs && pull_pays(r, edges, unsettled, unsettled_v))
            return r.pull_in_loop ? kLoopPull : kLoopStop;
    }
    return loop_push_goes_on(r, count, edges) ? kLoopPush : kLoopStop;
}

// loop_after_pull: what the iteration after a pull step is, whose next
// frontier has count vertices and edges out-arcs, the frontier it pulled
// from prev: another pull step while the frontiers do not shrink or the
// next holds more than n / beta vertices (the host's rule, GAPBS's),
// else a pushed one by loop_push_goes_on (the pull rule is not weighed
// right after a pull, as on the host).
__device__ __forceinline__ LoopNext loop_after_pull(const mg_loop_rule &r, uint32_t count, uint64_t edges,
                                                   uint32_t prev, uint64_t &unsettled, uint64_t &unsettled_v) {
    unsettled -= min(unsettled, edges);
    unsettled_v -= min(unsettled_v, (uint64_t)count);
    if (count == 0) return kLoopStop;
    if (count >= prev || (uint64_t)count * r.beta > r.n) return kLoopPull;  // a pull scans every vertex: any grid
    return loop_push_goes_on(r, count, edges) ? kLoopPush : kLoopStop;
}

// An in-loop pull step's shapes: a lane scans an in-row of at most
// kLoopShortRow arcs itself; the warp scans its lanes' longer rows
// together, 32 arcs a round, one after another; rows of
// MG_PULL_HEAVY_DEGREE arcs or more (L.in_heavy) a block each,
// kLoopHeavyRound arcs a round.
constexpr uint64_t kLoopShortRow = 32;
constexpr uint32_t kLoopHeavyRound = 4 * kSparseBlock;

// pull_walk is BFS's bottom-up step inside the loop (rule.pull_in_loop),
// over the vertices whose in-rows are not heavy: every unsettled vertex
// (values: the identity) with an in-neighbour at level, the frontier's,
// takes level + 1 and joins next_list through the block's queue q, its
// out-arcs summed into ctr->next_edges (one atomic per block). A lane
// takes a vertex and scans an in-row of at most kLoopShortRow arcs
// itself, up to the first in-neighbour at level; the warp scans its
// lanes' longer rows together. No frontier conversion: a vertex is in the
// frontier when its level is level.
__device__ __forceinline__ void pull_walk(const mg_dlayout &L, uint32_t *values, uint32_t level, uint32_t *next_list,
                                          mg_step_counters *ctr, const BlockQueue &q) {
    if (!list_begin(L.n, q)) return;
    const uint64_t step = (uint64_t)gridDim.x * kSparseBlock;
    const uint32_t lane = threadIdx.x & 31;
    unsigned long long edges = 0;
    for (uint64_t base = (uint64_t)blockIdx.x * kSparseBlock; base < L.n; base += step) {  // uniform
        const uint64_t v = base + threadIdx.x;
        uint64_t b = 0, e = 0;
        if (v < L.n && values[v] == mg::kMinIdentity) {
            b = L.in_offsets[v];
            e = L.in_offsets[v + 1];
            if (e - b >= MG_PULL_HEAVY_DEGREE) e = b;  // pull_heavy_walk's
        }
        bool found = false;
        if (e - b <= kLoopShortRow)
            for (uint64_t a = b; a < e; a++)
                if (values[L.in_src[a]] == level) {
                    found = true;
                    break;
                }
        for (unsigned longs = __ballot_sync(0xffffffffu, e - b > kLoopShortRow); longs != 0; longs &= longs - 1) {
            const int k = __ffs(longs) - 1;
            const uint64_t kb = __shfl_sync(0xffffffffu, b, k), ke = __shfl_sync(0xffffffffu, e, k);
            bool hit = false;
            for (uint64_t a = kb; a < ke && !hit; a += 32)  // uniform
                hit = __any_sync(0xffffffffu, a + lane < ke && values[L.in_src[a + lane]] == level);
            if ((int)lane == k) found = hit;
        }
        if (found) {
            values[v] = level + 1;
            edges += out_arcs(L, v);
        }
        queue_append(found, (uint32_t)v, q, &ctr->next_count, next_list);
    }
    list_end(q, next_list, ctr, edges);
}

// pull_heavy_walk is pull_walk for the vertices with heavy in-rows
// (L.in_heavy, MG_PULL_HEAVY_DEGREE arcs or more): a block per vertex,
// grid-stride over the list, kLoopHeavyRound arcs a round (each thread's
// loads issued together) until a round finds an in-neighbour at level.
// The block appends the vertex to next_list itself (one atomic).
__device__ __forceinline__ void pull_heavy_walk(const mg_dlayout &L, uint32_t *values, uint32_t level,
                                                uint32_t *next_list, mg_step_counters *ctr) {
    for (uint64_t i = blockIdx.x; i < L.num_in_heavy; i += gridDim.x) {  // uniform in the block
        const uint32_t v = L.in_heavy[i];
        if (values[v] != mg::kMinIdentity) continue;  // uniform: only this block writes values[v] here
        const uint64_t lo = L.in_offsets[v], hi = L.in_offsets[v + 1];
        bool found = false;
        for (uint64_t b = lo; b < hi && !found; b += kLoopHeavyRound) {  // uniform
            bool hit = false;
#pragma unroll
            for (uint32_t k = 0; k < kLoopHeavyRound / kSparseBlock; k++) {
                const uint64_t a = b + k * kSparseBlock + threadIdx.x;
                hit |= a < hi && values[L.in_src[a]] == level;
            }
            found = __syncthreads_or(hit) != 0;
        }
        if (found && threadIdx.x == 0) {
            values[v] = level + 1;
            next_list[atomicAdd(&ctr->next_count, 1u)] = v;
            atomicAdd((unsigned long long *)&ctr->next_edges, (unsigned long long)out_arcs(L, v));
        }
    }
}

// sparse_loop_kernel: the iterations. Iteration it uses the counters and hub
// count of parity it&1 (zeroed before it starts) and zeroes the other pair
// for the next one once every thread is past the previous iteration's
// decision (the first barrier). Two barriers per iteration (three with
// hubs): after the advance, after the hubs, after the apply; then every
// thread reads the counters and takes the same decision.
//
// Near-far (rule.delta > 0; see mg_min_sparse_loop): far[cur] is the pile
// the applies append to (its count far_state[cur]); when an iteration leaves
// the next frontier empty, far_state[2] gets the smallest live far value
// (one barrier), the split moves past it by delta, and far_walk moves the
// live entries below the split to the next frontier and keeps the others in
// the other pile (a second barrier). A loop that stops merges the pile into
// its last next frontier (one more barrier).
template <typename Op>
__global__ void __launch_bounds__(kSparseBlock, kLoopMinBlocksPerSM)
    sparse_loop_kernel(Op op, mg_dlayout L, typename Op::T *values, uint32_t *list0, uint32_t *list1,
                       uint32_t count, uint32_t max_iters, mg_loop_rule rule, uint32_t *far0, uint32_t *far1,
                       uint32_t *in_far, uint32_t *far_state, typename Op::T *acc, uint32_t *touched,
                       mg_step_counters *ctr, mg_loop_state *state, mg_loop_record *records) {
    cg::grid_group grid = cg::this_grid();
    const BlockQueue q = block_queue();
    const bool leader = blockIdx.x == 0 && threadIdx.x == 0;
    uint64_t unsettled = rule.unsettled, unsettled_v = rule.unsettled_vertices;
    uint32_t split = 0, cur = 0;  // near-far: every vertex the first iteration activates goes far
    auto pile = [&](uint32_t k) { return k ? far1 : far0; };  // a select: an array indexed at run time would live in local memory
    if (leader) state->start_ns = global_ns();
    // The leader zeroes the counters of iteration it + 1 once every thread
    // is past iteration it − 1's decision (after iteration it's first
    // barrier).
    auto reset_next = [&](uint32_t it) {
        if (!leader) return;
        volatile mg_step_counters *o = &ctr[(it + 1) & 1];
        o->next_count = 0;
        o->touched = 0;
        o->next_edges = 0;
        *(volatile uint32_t *)&g_hub_count[(it + 1) & 1] = 0;
        if (rule.delta > 0) {
            *(volatile uint32_t *)&far_state[1 - cur] = 0;
            *(volatile uint32_t *)&far_state[2] = 0xffffffffu;
        }
    };
    constexpr bool kCanLoopPull = std::is_same<Op, mg::BFSOp>::value;  // pull_walk's levels
    bool pulling = kCanLoopPull && rule.pull_first;  // this iteration is a pull step (rule.pull_in_loop)
    for (uint32_t it = 0; it < max_iters && count > 0; it++) {
        const uint32_t *frontier = (it & 1) ? list1 : list0;
        uint32_t *next = (it & 1) ? list0 : list1;
        mg_step_counters *c = &ctr[it & 1];
        uint32_t *hubs = &g_hub_count[it & 1];
        const bool pulled = kCanLoopPull && pulling;
        if (pulled) {
            if constexpr (kCanLoopPull) {
                const uint32_t level = values[frontier[0]];  // every frontier vertex's
                grid.sync();
                reset_next(it);
                pull_walk(L, values, level, next, c, q);
                pull_heavy_walk(L, values, level, next, c);
                grid.sync();
            }
        } else {
            Op o = op;  // the functor of this iteration
            o.at_loop_iteration(it);
            const uint32_t groups = (count + kVertsPerBlock - 1) / kVertsPerBlock;
            for (uint32_t g = blockIdx.x; g < groups; g += gridDim.x)
                advance_group<Op, false>(o, L, values, frontier, count, 1, g, acc, touched, c, hubs, q);
            grid.sync();
            reset_next(it);
            if (*(volatile uint32_t *)hubs > 0) {  // the same for every thread
                hub_walk<Op, false>(o, L, values, acc, touched, c, hubs, q);
                grid.sync();
            }
            const NearFar nf{rule.delta, split, in_far, pile(cur), &far_state[cur]};
            apply_walk<Op>(o, L, values, acc, touched, next, c, q, nf);
            grid.sync();
        }
        volatile mg_step_counters *vc = c;
        uint32_t next_count = vc->next_count;
        uint64_t next_edges = vc->next_edges;
        if constexpr (std::is_same<typename Op::T, uint32_t>::value) {
            const uint32_t piled = rule.delta > 0 ? *(volatile uint32_t *)&far_state[cur] : 0;
            if (next_count == 0 && piled > 0) {  // refill the next frontier from the pile
                const uint64_t step = (uint64_t)gridDim.x * kSparseBlock;
                for (uint64_t i = (uint64_t)blockIdx.x * kSparseBlock + threadIdx.x; i < piled; i += step) {
                    const uint32_t v = pile(cur)[i];
                    if (in_far[v] != 0) atomicMin(&far_state[2], values[v]);
                }
                grid.sync();
                const uint32_t low = *(volatile uint32_t *)&far_state[2];
                split = Op::bucket(max(split, low), rule.delta);  // by the program's add (floats for SSSPF32Op)
                far_walk(L, values, pile(cur), piled, split, in_far, next, c, pile(1 - cur), &far_state[1 - cur], q);
                grid.sync();
                cur = 1 - cur;
                next_count = vc->next_count;
                next_edges = vc->next_edges;
            }
        }
        const LoopNext nx = pulled ? loop_after_pull(rule, next_count, next_edges, count, unsettled, unsettled_v)
                                   : loop_next(rule, next_count, next_edges, unsettled, unsettled_v);
        bool go = nx != kLoopStop;
        pulling = nx == kLoopPull;
        if constexpr (std::is_same<typename Op::T, uint32_t>::value) {
            const uint32_t piled = rule.delta > 0 ? *(volatile uint32_t *)&far_state[cur] : 0;
            if (!(go && it + 1 < max_iters) && piled > 0) {  // stopping: the pile joins the next frontier
                far_walk(L, values, pile(cur), piled, 0xffffffffu, in_far, next, c, nullptr, nullptr, q);
                grid.sync();
                next_count = vc->next_count;
                next_edges = vc->next_edges;
                go = false;
            }
        }
        if (leader) {
            mg_loop_record rec;
            rec.c.next_count = next_count;
            rec.c.touched = vc->touched;
            rec.c.next_edges = next_edges;
            rec.end_ns = global_ns();
            rec.pulled = pulled ? 1 : 0;
            rec.reserved = 0;
            records[it] = rec;
            state->done = it + 1;
        }
        count = go ? next_count : 0;
    }
}

template <typename Op>
int sparse_loop(Op op, int dev, const mg_dlayout *l, typename Op::T *values, uint32_t *list0, uint32_t *list1,
                uint32_t count, uint32_t max_iters, uint32_t blocks_per_sm, const mg_loop_rule *rule,
                uint32_t *far0, uint32_t *far1, uint32_t *in_far, uint32_t *far_state, typename Op::T *acc,
                uint32_t *touched,
                mg_step_counters *ctr, mg_loop_state *state, mg_loop_record *records, mg_stream s, mg_event *ev,
                char *err, size_t errlen) {
    if (l == NULL || values == NULL || list0 == NULL || list1 == NULL || rule == NULL || acc == NULL ||
        touched == NULL || ctr == NULL || state == NULL || records == NULL)
        return mg::invalid("sparse loop: NULL pointer", err, errlen);
    if (Op::weighted && l->m > 0 && l->sparse_weights == NULL)
        return mg::invalid("sparse loop: the program needs weights and the layout has none", err, errlen);
    if (rule->delta > 0 && !std::is_same<typename Op::T, uint32_t>::value)
        return mg::invalid("sparse loop: near-far is for the min programs", err, errlen);
    if (rule->delta > 0 && (far0 == NULL || far1 == NULL || in_far == NULL || far_state == NULL))
        return mg::invalid("sparse loop: near-far needs the far piles, flags and state", err, errlen);
    if (max_iters < 1 || max_iters > MG_LOOP_RECORDS)
        return mg::invalid("sparse loop: max_iters must be 1..MG_LOOP_RECORDS", err, errlen);
    MG_SET_DEVICE(dev);
    unsigned grid = 0;
    const int rc = mg::coop_grid(sparse_loop_kernel<Op>, kSparseBlock, blocks_per_sm, dev, "sparse loop", &grid, err,
                                 errlen);
    if (rc != MG_OK) return rc;
    cudaStream_t st = (cudaStream_t)s;
    void *hc = NULL;
    MG_CHECK(cudaGetSymbolAddress(&hc, g_hub_count));
    MG_CHECK(cudaMemsetAsync(hc, 0, 2 * sizeof(uint32_t), st));
    MG_CHECK(cudaMemsetAsync(ctr, 0, 2 * sizeof(mg_step_counters), st));
    MG_CHECK(cudaMemsetAsync(state, 0, sizeof(mg_loop_state), st));
    if (rule->delta > 0) MG_CHECK(cudaMemsetAsync(far_state, 0, 4 * sizeof(uint32_t), st));
    mg_dlayout L = *l;
    mg_loop_rule r = *rule;
    void *args[] = {&op,  &L,      &values,    &list0, &list1, &count, &max_iters, &r,       &far0,
                    &far1, &in_far, &far_state, &acc,   &touched, &ctr, &state,     &records};
    MG_RECORD(0);
    MG_CHECK(cudaLaunchCooperativeKernel((const void *)sparse_loop_kernel<Op>, dim3(grid), dim3(kSparseBlock), args,
                                         0, st));
    MG_RECORD(1);
    return MG_OK;
}

}  // namespace

extern "C" {

int mg_min_sparse_loop(int dev, int prog, const mg_dlayout *l, uint32_t *values, uint32_t *list0, uint32_t *list1,
                       uint32_t count, uint32_t max_iters, uint32_t blocks_per_sm, const mg_loop_rule *rule,
                       uint32_t *far0, uint32_t *far1, uint32_t *in_far, uint32_t *far_state, uint32_t *acc,
                       uint32_t *touched, mg_step_counters *ctr, mg_loop_state *state, mg_loop_record *records,
                       mg_stream s, mg_event *ev, char *err, size_t errlen) {
    MG_DISPATCH_PROG(prog, sparse_loop, dev, l, values, list0, list1, count, max_iters, blocks_per_sm, rule, far0, far1,
                     in_far, far_state, acc, touched, ctr, state, records, s, ev, err, errlen);
}

int mg_sum_sparse_loop(int dev, int prog, const mg_dlayout *l, const mg_sum_params *p, double *values,
                       uint32_t *list0, uint32_t *list1, uint32_t count, uint32_t max_iters, uint32_t blocks_per_sm,
                       const mg_loop_rule *rule, double *acc, uint32_t *touched, mg_step_counters *ctr,
                       mg_loop_state *state, mg_loop_record *records, mg_stream s, mg_event *ev, char *err,
                       size_t errlen) {
    uint32_t *none = NULL;  // no near-far piles
    MG_DISPATCH_SUM(prog, p, l, sparse_loop, dev, l, values, list0, list1, count, max_iters, blocks_per_sm, rule, none,
                    none, none, none, acc, touched, ctr, state, records, s, ev, err, errlen);
}

}  // extern "C"
