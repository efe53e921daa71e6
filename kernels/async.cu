// async.cu — SEP-Graph's Async + Push + data-driven execution of the min
// programs (BFS, SSSP, CC) over the device worklist of worklist.cuh: no
// iteration barrier. A relaxation is the program's atomic min on the
// destination's value; a vertex it lowers is queued and processed as soon
// as a block takes it, with whatever values are current then.
//
// An item remembers the value it was queued with. A weighted program
// (SSSP) skips an item whose value has fallen since (the lowering queued
// the vertex again): each arc reads the item's current value with its
// weight, before the arc's destination, so a round does not wait for that
// read (an item of many arcs reads it first); the others save that read
// and relax with the queued value (in vain, when it is stale). CC's labels are followed to the end of
// their chain of smaller labels before they are sent (pointer jumping), so
// a small label spreads far faster than one hop per relaxation.
//
// Near-far priority (delta > 0, SSSP): a lowered value at or above the split
// goes to a far pile (once per vertex: in_far) instead of the worklist. When
// work reaches zero every block meets at a grid barrier, the split moves to
// the smallest piled value plus delta, the piled vertices below it become
// work and the others move to the other pile; the run ends when the pile is
// empty (or at once, without near-far, when work is zero).
#include <type_traits>

#include "minprog.cuh"
#include "worklist.cuh"

namespace {

using namespace mg::worklist;

// MinPolicy: the worklist policy of min program Op over values, with
// near-far when delta > 0.
// Item is what a min program's round reads once per item: the value it
// relaxes with and, for a weighted program's item with a queued value,
// the vertex, whose current value each arc reads (in parallel with the
// arc) to skip the item when it is stale.
struct Item {
    uint32_t c;
    uint32_t v;  // kNoRange: no staleness check
};

// kStaleArcs is the most arcs of a weighted item whose staleness its arcs
// check (a road network's or a mesh's rows); a wider item checks before
// its round. On the 2048 grid the arcs' check took async SSSP from 12.3
// to 11.8 ms and BFS from 6.3 to 5.5 ms (H200); on R-MAT 20, whose hubs
// are often stale, it cost async SSSP up to 20 %.
constexpr uint64_t kStaleArcs = 16;

// MinArc is what a min program's relaxation reads before the arc's
// destination: the weight, and the item's current value (or kNoRange).
struct MinArc {
    uint32_t w;
    uint32_t now;
};

template <typename Op>
struct MinPolicy {
    using V = Item;
    using Arc = MinArc;
    static constexpr bool kRows = true, kWeightRows = Op::weighted;
    Op op;
    uint32_t *values;
    const uint32_t *rows, *wrows;  // fixed-width rows and their weights, or NULL: the CSR
    uint32_t row_log2;             // log2 of the slots of a row a round reads
    uint32_t delta;
    uint32_t *pile0, *pile1;  // near-far's far piles, flags and state
    uint32_t *in_far;
    mg_async_state *st;
    uint32_t split;  // values below it are near (every thread keeps its own, the same)
    uint32_t cur;    // the pile being filled

    __device__ bool has_buckets() const { return delta > 0; }
    // keep: a BFS over rows shares more of its items with idle blocks;
    // SSSP, CC and a BFS over the CSR keep more in the block that made
    // them (MG_ASYNC_KEEP_BFS_ROWS says what each measured).
    __device__ uint32_t keep() const {
        return std::is_same<Op, mg::BFSOp>::value && rows != nullptr ? MG_ASYNC_KEEP_BFS_ROWS : MG_ASYNC_KEEP;
    }

    // pile returns far pile k (a select, not an array indexed at run time,
    // which would keep the whole policy in local memory: every relaxation
    // would load its pointers from there).
    __device__ __forceinline__ uint32_t *pile(uint32_t k) const { return k ? pile1 : pile0; }

    // load takes the queued value (reading the current one when there is
    // none, or to follow a label). A weighted item's staleness is checked
    // by its arcs (arc), so the round does not wait for that read, unless
    // it has more than kStaleArcs arcs: then the read before the round
    // saves their loads when it is stale.
    __device__ __forceinline__ bool load(uint32_t v, uint32_t ival, uint64_t deg, Item &out) const {
        uint32_t c = ival;
        bool check = Op::weighted && !Op::jumps && c != 0;
        if (check && deg > kStaleArcs) {
            if (*(volatile uint32_t *)&values[v] < c) return false;  // stale
            check = false;
        }
        if (c == 0 || Op::jumps) c = *(volatile uint32_t *)&values[v];
        if (Op::jumps) {  // follow the label to the end of its chain
            for (;;) {
                const uint32_t nx = *(volatile uint32_t *)&values[c];
                if (nx >= c) break;
                c = nx;
            }
        }
        out = Item{c, check ? v : kNoRange};
        return true;
    }

    // arc loads the weight and, for a checked item, its current value
    // (through L2, where the atomics are), with the arc's destination.
    __device__ __forceinline__ MinArc arc(const Item &x, const mg_dlayout &L, uint64_t a) const {
        return MinArc{Op::weighted ? L.sparse_weights[a] : 0u, x.v != kNoRange ? __ldcg(&values[x.v]) : kNoRange};
    }

    // push_far appends u to far pile k (one atomic per group of threads
    // that push together).
    __device__ __forceinline__ void push_far(uint32_t k, uint32_t u) const {
        pile(k)[mg::append_slot(&st->far_count[k])] = u;
    }

    // queue_near takes a lowering of u to c: below the split it is queued
    // (ival = c, true); at or above it u waits in the far pile (once:
    // in_far).
    __device__ __forceinline__ bool queue_near(uint32_t c, uint32_t u, uint32_t &ival) const {
        if (c >= split) {
            if (atomicExch(&in_far[u], 1u) == 0) push_far(cur, u);
            return false;
        }
        ival = c;
        return true;
    }

    __device__ __forceinline__ bool relax(const Item &x, const mg_dlayout &, const MinArc &a, uint32_t u,
                                          uint32_t &ival) const {
        if (a.now < x.c) return false;  // stale: the lowering queued the item again
        const uint32_t c = op.edge(x.c, a.w);
        if (c == mg::kMinIdentity || c >= Op::atomic(&values[u], c)) return false;
        return queue_near(c, u, ival);
    }

    // relax_row relaxes an arc of weight w to u over rows: the atomic goes
    // out at once, with the load of the item's current value, and the
    // staleness check follows it. A stale item's lowering is kept but not
    // queued: the item that made it stale is queued (or piled) and relaxes u
    // lower still, which queues it. Over float32 weights "lower still" does
    // not hold (now < x.c, yet now + w may round to x.c + w), so there a
    // lowering is always queued.
    __device__ __forceinline__ bool relax_row(const Item &x, uint32_t w, uint32_t u, uint32_t &ival) const {
        constexpr bool kStrictAdd = !std::is_same<Op, mg::SSSPF32Op>::value;  // a < b ⇒ a + w < b + w
        const uint32_t now = x.v != kNoRange ? __ldcg(&values[x.v]) : kNoRange;
        const uint32_t c = op.edge(x.c, w);
        if (c == mg::kMinIdentity) return false;
        const uint32_t old = Op::atomic(&values[u], c);
        if (c >= old || (kStrictAdd && now < x.c)) return false;
        return queue_near(c, u, ival);
    }

    // next_bucket is near-far's bucket change, run by every thread of every
    // block once work is zero: it returns false when the far pile is empty
    // (the run is over), else moves the split past the smallest piled value
    // and the piled vertices below it into the ring.
    __device__ bool next_bucket(cg::grid_group &grid, Ring ring, uint32_t *queued, mg_async_state *) {
        const bool leader = blockIdx.x == 0 && threadIdx.x == 0;
        const uint64_t tid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x, step = (uint64_t)gridDim.x * blockDim.x;
        if (leader) {
            st->far_min = mg::kMinIdentity;
            st->far_count[1 - cur] = 0;
        }
        grid.sync();
        const uint32_t piled = *(volatile uint32_t *)&st->far_count[cur];
        // The smallest piled value: a warp's minimum, then one atomic a warp
        // (every lane of a warp loops the same number of times).
        for (uint64_t i0 = tid - (threadIdx.x & 31); i0 < piled; i0 += step) {
            const uint64_t i = i0 + (threadIdx.x & 31);
            const uint32_t m = __reduce_min_sync(0xffffffffu, i < piled ? values[pile(cur)[i]] : mg::kMinIdentity);
            if ((threadIdx.x & 31) == 0) atomicMin(&st->far_min, m);
        }
        grid.sync();
        const uint32_t low = *(volatile uint32_t *)&st->far_min;
        if (low == mg::kMinIdentity) return false;
        split = Op::bucket(max(split, low), delta);  // by the program's add (floats for SSSPF32Op)
        // Every thread of a warp loops the same number of times (the bound is
        // rounded up to whole warps) so the warp-wide ballot is safe.
        const uint64_t bound = (piled + 31) / 32 * 32;
        for (uint64_t i = tid; i < bound; i += step) {
            const uint32_t v = i < piled ? pile(cur)[i] : 0;
            const bool real = i < piled;
            const bool near = real && values[v] < split;
            const uint32_t m = __ballot_sync(0xffffffffu, near);
            const int lane = threadIdx.x & 31;
            uint32_t base = 0;
            if (lane == 0 && m != 0) {
                add64(&st->work, __popc(m));
                take_tickets(ring, st, __popc(m), &base);  // the ring is empty here: it cannot overflow
            }
            base = __shfl_sync(0xffffffffu, base, 0);
            if (near) {
                in_far[v] = 0;
                queued[v] = 1;  // every flag is 0 here: nothing is queued
                ring_write(ring, base + __popc(m & ((1u << lane) - 1u)), v, st);
            } else if (real) {
                push_far(1 - cur, v);
            }
        }
        cur = 1 - cur;
        if (leader) st->buckets++;
        __threadfence();
        grid.sync();
        return true;
    }
};

template <typename Op>
int run_async(Op op, int dev, const mg_dlayout *l, const uint32_t *rows, const uint32_t *wrows, uint32_t row_width,
              uint32_t *values, const uint32_t *frontier, uint32_t count,
              unsigned long long *ring, uint32_t ring_log2, uint32_t *queued, uint32_t delta, uint32_t *far0,
              uint32_t *far1, uint32_t *in_far, mg_async_state *state, uint32_t blocks_per_sm, mg_stream s,
              mg_event *ev, char *err, size_t errlen) {
    if (values == NULL) return mg::invalid("async run: NULL values", err, errlen);
    if (l != NULL && Op::weighted && l->m > 0 && l->sparse_weights == NULL)
        return mg::invalid("async run: the program needs weights and the layout has none", err, errlen);
    if (delta > 0 && (far0 == NULL || far1 == NULL || in_far == NULL))
        return mg::invalid("async run: near-far needs the far piles and flags", err, errlen);
    if (rows != NULL && Op::weighted && wrows == NULL)
        return mg::invalid("async run: rows of a weighted program need their weights' rows", err, errlen);
    if (rows != NULL && (row_width == 0 || row_width > MG_BLOCK_ROW_WIDTH || (row_width & (row_width - 1)) != 0))
        return mg::invalid("async run: the row width must be a power of two from 1 to MG_BLOCK_ROW_WIDTH", err, errlen);
    const uint32_t row_log2 = rows != NULL ? (uint32_t)__builtin_ctz(row_width) : 0;
    MinPolicy<Op> pol{op,     values, rows,  wrows, row_log2, delta, far0, far1, in_far,
                      state,  delta > 0 ? delta : mg::kMinIdentity, 0};
    return run(pol, dev, l, frontier, count, false, ring, ring_log2, queued, state, blocks_per_sm, s, ev, err, errlen);
}

}  // namespace

extern "C" {

int mg_min_async(int dev, int prog, const mg_dlayout *l, const uint32_t *rows, const uint32_t *wrows,
                 uint32_t row_width, uint32_t *values, const uint32_t *frontier, uint32_t count, uint64_t *ring,
                 uint32_t ring_log2, uint32_t *queued, uint32_t delta, uint32_t *far0, uint32_t *far1, uint32_t *in_far,
                 mg_async_state *state, uint32_t blocks_per_sm, mg_stream s, mg_event *ev, char *err,
                 size_t errlen) {
    unsigned long long *r = reinterpret_cast<unsigned long long *>(ring);
    MG_DISPATCH_PROG(prog, run_async, dev, l, rows, wrows, row_width, values, frontier, count, r, ring_log2, queued, delta, far0, far1, in_far,
                     state, blocks_per_sm, s, ev, err, errlen);
}

}  // extern "C"
