/*
 * mgraph.h — the whole C API of mgraph's CUDA kernels library
 * (build/kernels/libmgraphkernels.a), called from Go through cgo/.
 *
 * Rules every function follows:
 *   - plain C types only; no CUDA header is needed to include this file;
 *   - the return value is an MG_* status code (MG_OK == 0 on success);
 *   - on failure a one-line, NUL-terminated message naming the failing call
 *     and the CUDA error (name and string) is written into err[0..errlen);
 *     err may be NULL when errlen is 0;
 *   - functions that touch a device take its ordinal `dev` and make it current
 *     on the calling host thread first (Go goroutines move between threads);
 *   - device pointers are plain `void*` from mg_malloc (cudaMalloc; no managed
 *     memory); streams and events are opaque handles.
 *
 * Kernel launches are asynchronous on the given stream (NULL = the legacy
 * default stream); launch errors are reported at once, execution errors at
 * the next synchronizing call.
 */
#ifndef MGRAPH_KERNELS_H
#define MGRAPH_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. */
enum {
    MG_OK = 0,
    MG_ERR_CUDA = 1,      /* any CUDA error not listed below */
    MG_ERR_OOM = 2,       /* cudaErrorMemoryAllocation */
    MG_ERR_NO_DEVICE = 3, /* no usable device: cudaErrorNoDevice, cudaErrorInsufficientDriver */
    MG_ERR_INVALID = 4    /* bad argument caught before calling CUDA */
};

/* Recommended size of the err buffer. */
#define MG_ERRLEN 512

/* Opaque handles (cudaStream_t and cudaEvent_t). */
typedef void *mg_stream;
typedef void *mg_event;

/* Properties of one device. Memory sizes in bytes, clocks in kHz. */
typedef struct {
    char name[256];
    char pci_bus_id[32];
    int ordinal;
    int major, minor;                 /* compute capability */
    int multiprocessors;              /* SM count */
    uint64_t total_mem;               /* global memory */
    uint64_t free_mem;                /* free global memory at query time */
    uint64_t shared_per_block;        /* default limit per block (48 KiB) */
    uint64_t shared_per_block_optin;  /* opt-in maximum per block */
    uint64_t shared_per_sm;           /* per multiprocessor */
    uint64_t l2_bytes;
    uint64_t persisting_l2_max_bytes;
    int regs_per_block;
    int warp_size;
    int max_threads_per_block;
    int max_threads_per_sm;
    int max_blocks_per_sm;
    int clock_khz;                    /* SM clock (peak) */
    int mem_clock_khz;                /* memory clock (peak) */
    int mem_bus_width_bits;
    int ecc_enabled;
    int async_engines;
    int driver_version;               /* e.g. 12080 for 12.8 */
    int runtime_version;              /* of the statically linked cudart */
} mg_device_props;

/* --- devices ------------------------------------------------------------ */

/* Number of visible devices. No device is MG_ERR_NO_DEVICE, not 0. */
int mg_device_count(int *count, char *err, size_t errlen);
int mg_device_props_get(int dev, mg_device_props *props, char *err, size_t errlen);
int mg_mem_info(int dev, uint64_t *free_bytes, uint64_t *total_bytes, char *err, size_t errlen);
int mg_device_synchronize(int dev, char *err, size_t errlen);
/* Makes dev usable again after a fault: waits for its work, and when that
 * reports an error (a kernel's illegal address, trap or assert leaves the
 * context unusable: every later call fails), resets the device, which
 * frees every allocation, stream and event of this process on it, and
 * checks it works. *reset is 1 when it reset, with err holding the fault
 * that made it; an error with *reset 1 is a device this process cannot use
 * again (some platforms give no new context after a reset). */
int mg_device_recover(int dev, int *reset, char *err, size_t errlen);
/* Fault injection for the tests of error handling: kind MG_FAULT_LAUNCH
 * launches mg_fault_kernel with a block too large (an error of the launch;
 * the context stays usable), MG_FAULT_ILLEGAL_ADDRESS runs it writing to
 * an address no allocation holds (an error of the kernel, reported by the
 * synchronisation that follows; the context is lost until
 * mg_device_recover). Both return the error, naming the kernel. */
#define MG_FAULT_LAUNCH 1
#define MG_FAULT_ILLEGAL_ADDRESS 2
int mg_inject_fault(int dev, int kind, char *err, size_t errlen);
/* Versions of the driver and of the linked runtime (no device needed). */
int mg_versions(int *driver, int *runtime, char *err, size_t errlen);

/* --- memory ------------------------------------------------------------- */

/* cudaMalloc; *ptr is NULL for bytes == 0. */
int mg_malloc(int dev, void **ptr, uint64_t bytes, char *err, size_t errlen);
int mg_free(int dev, void *ptr, char *err, size_t errlen);
/* Synchronous copies (cudaMemcpy). */
int mg_memcpy_htod(int dev, void *dst, const void *src, uint64_t bytes, char *err, size_t errlen);
int mg_memcpy_dtoh(int dev, void *dst, const void *src, uint64_t bytes, char *err, size_t errlen);
int mg_memcpy_dtod(int dev, void *dst, const void *src, uint64_t bytes, char *err, size_t errlen);
/* Asynchronous memset on stream s (each byte set to value). */
int mg_memset(int dev, void *ptr, int value, uint64_t bytes, mg_stream s, char *err, size_t errlen);

/* --- streams and events ------------------------------------------------- */

int mg_stream_create(int dev, mg_stream *s, char *err, size_t errlen);
int mg_stream_destroy(int dev, mg_stream s, char *err, size_t errlen);
int mg_stream_synchronize(int dev, mg_stream s, char *err, size_t errlen);
int mg_event_create(int dev, mg_event *e, char *err, size_t errlen);
int mg_event_destroy(int dev, mg_event e, char *err, size_t errlen);
int mg_event_record(int dev, mg_event e, mg_stream s, char *err, size_t errlen);
int mg_event_synchronize(int dev, mg_event e, char *err, size_t errlen);
/* Milliseconds from start to end (both recorded and completed). */
int mg_event_elapsed_ms(int dev, mg_event start, mg_event end, float *ms, char *err, size_t errlen);

/* --- memory-bandwidth probe -------------------------------------------- */

/* Probe kernel shape: MG_PROBE_BLOCK threads per block, MG_PROBE_BLOCKS_PER_SM
 * blocks per SM; each thread loads UNROLL 16-byte vectors before using any,
 * so a block works on one contiguous chunk of MG_PROBE_BLOCK * UNROLL vectors
 * at a time (64 KiB for copy, 32 KiB for read). The fastest of the shapes
 * measured on an H100 (bench/results/2026-11-22-probe-h100.md). */
#define MG_PROBE_BLOCK 512
#define MG_PROBE_BLOCKS_PER_SM 4
#define MG_PROBE_COPY_UNROLL 8
#define MG_PROBE_READ_UNROLL 4

/* dst[0..bytes) = src[0..bytes). bytes must be a multiple of 16 and both
 * pointers 16-byte aligned. */
int mg_probe_copy(int dev, void *dst, const void *src, uint64_t bytes, mg_stream s,
                  char *err, size_t errlen);
/* Streams src[0..bytes) once and adds the wrapping (mod 2^32) sum of its
 * uint32 words to *sum_dev (a device word; zero it first). Same size and
 * alignment rules as mg_probe_copy. */
int mg_probe_read(int dev, const void *src, uint64_t bytes, uint32_t *sum_dev, mg_stream s,
                  char *err, size_t errlen);

/* --- reduction ---------------------------------------------------------- */

/* Threads per block and most blocks of the first reduction pass. */
#define MG_REDUCE_BLOCK 256
#define MG_REDUCE_MAX_BLOCKS 1024
/* Scratch both reductions need: MG_REDUCE_MAX_BLOCKS 8-byte partials. */
#define MG_REDUCE_SCRATCH_BYTES ((uint64_t)MG_REDUCE_MAX_BLOCKS * 8u)

/* *out_dev = sum of in[0..n) (mod 2^64), in two deterministic passes.
 * scratch_dev: at least MG_REDUCE_SCRATCH_BYTES of device memory. */
int mg_reduce_sum_u32(int dev, const uint32_t *in, uint64_t n, uint64_t *out_dev,
                      void *scratch_dev, uint64_t scratch_bytes, mg_stream s,
                      char *err, size_t errlen);
/* *out_dev = sum of in[0..n); the order of additions depends only on n and
 * the device's SM count, so the result is reproducible on one device. */
int mg_reduce_sum_f64(int dev, const double *in, uint64_t n, double *out_dev,
                      void *scratch_dev, uint64_t scratch_bytes, mg_stream s,
                      char *err, size_t errlen);

/* --- GPU preprocessing: the dual layout (docs/layout.md) ---------------- */

/* Builds the same layout as the CPU builder (package preprocess), byte for
 * byte, on device dev: the edge list is copied from host memory, built on the
 * device (CUB radix sorts, scans and run-length encodings; one thread block
 * per heavy block for the heavy matrices), and every array is kept on the
 * device until mg_pp_section copies it out and mg_pp_free releases it.
 * Limits: n and m at most MG_PP_MAX_ITEMS (CUB counts items in int). */
#define MG_PP_MAX_ITEMS 2147483647ull
#define MG_PP_MAX_THRESHOLDS 64
#define MG_PP_PHASES 6

/* The layout's arrays, in the order of docs/layout.md (and layout.Layout). */
enum {
    MG_PP_PERM, MG_PP_INV_PERM, MG_PP_GROUP_START,
    MG_PP_BLOCK_ROW, MG_PP_BLOCK_COL, MG_PP_BLOCK_EDGES, MG_PP_BLOCK_HEAVY,
    MG_PP_HEAVY_ROW, MG_PP_HEAVY_COL, MG_PP_HEAVY_ROWS, MG_PP_HEAVY_MATRIX_START,
    MG_PP_HEAVY_NUM_DST, MG_PP_HEAVY_SLOT, MG_PP_HEAVY_MATRIX, MG_PP_HEAVY_WEIGHTS,
    MG_PP_LIGHT_START, MG_PP_LIGHT_SRC, MG_PP_LIGHT_WEIGHTS, MG_PP_LIGHT_SLOT,
    MG_PP_ROW_SLOT_START, MG_PP_SLOT_DST,
    MG_PP_SPARSE_OFFSETS, MG_PP_SPARSE_DST, MG_PP_SPARSE_WEIGHTS,
    MG_PP_SEGMENT_BOUNDS, MG_PP_SEGMENT_SPLIT,
    MG_PP_SECTIONS
};

/* Graph size and layout parameters (layout.Params); the group thresholds
 * are passed beside it. */
typedef struct {
    uint64_t n, m;
    uint64_t heavy_threshold;
    uint32_t panel_size, heavy_columns, segment_size, high_groups;
    uint32_t num_thresholds; /* at most MG_PP_MAX_THRESHOLDS */
    int weighted;            /* weights != NULL */
    int device_input;        /* src, dst and weights are device arrays (copied, not kept) */
} mg_pp_params;

/* What mg_pp_build reports. */
typedef struct {
    uint64_t len[MG_PP_SECTIONS]; /* element count of every section */
    int too_large;                /* more than 2^32-1 stream slots: nothing built */
    float upload_ms;              /* host-to-device copy of the edge list (events) */
    float build_ms;               /* from the end of the upload to the last kernel (events),
                                     host work between kernels included */
    float phase_ms[MG_PP_PHASES]; /* degrees+renumber, sort by source, sort by block,
                                     blocks+slots, dense fill, sparse part */
    uint64_t peak_bytes;          /* most device memory held at once by the build */
} mg_pp_result;

typedef struct mg_pp_layout mg_pp_layout; /* opaque: the arrays on the device */

/* Builds the layout of the arcs src[i] -> dst[i] (i < m; host arrays, or
 * device arrays with p->device_input, which the build copies and leaves to
 * the caller; weights NULL or m values) with vertices 0..n-1. thresholds: num_thresholds host
 * values. On success *out holds the arrays (free with mg_pp_free) unless
 * res->too_large, when *out is NULL. Out of device memory is MG_ERR_OOM, with
 * everything allocated so far released. */
int mg_pp_build(int dev, const mg_pp_params *p, const uint64_t *thresholds,
                const uint32_t *src, const uint32_t *dst, const uint32_t *weights,
                mg_pp_layout **out, mg_pp_result *res, char *err, size_t errlen);
/* Copies section s (bytes must equal its length times its element size) to
 * host memory dst. */
int mg_pp_section(int dev, const mg_pp_layout *l, int s, void *dst, uint64_t bytes,
                  char *err, size_t errlen);
/* The device address and size in bytes of section s, for callers that copy
 * it themselves (through pinned staging buffers, say). */
int mg_pp_section_ptr(const mg_pp_layout *l, int s, const void **ptr, uint64_t *bytes, char *err,
                      size_t errlen);
/* Releases the arrays (NULL is allowed). */
int mg_pp_free(int dev, mg_pp_layout *l, char *err, size_t errlen);

/* --- GPU engines for the min programs (BFS, SSSP, CC) ------------------- */

/* Program ids: which functor the kernels are instantiated with
 * (engine.DeviceProgram's kernel names "bfs", "sssp", "cc", "sssp-f32"). */
/* MG_PROG_LABEL: plain label propagation (the source's label, the smaller
 * taken), whose labels need not be vertex ids of the layout (a part of a
 * partitioned graph labels by original ids; package partition). */
/* MG_PROG_SSSP_F32: SSSP over float32 weights: values and weights are
 * float32 bit patterns (the weights finite and non-negative), an arc adds
 * them as floats (rounded to nearest), 0xffffffff stays "unreached"; a
 * near-far delta (mg_loop_rule.delta, mg_min_async's delta) is a float32's
 * bits too. Every entry point that takes a min program id runs it. */
enum { MG_PROG_BFS = 1, MG_PROG_SSSP = 2, MG_PROG_CC = 3, MG_PROG_LABEL = 4, MG_PROG_SSSP_F32 = 5 };

/* The layout's arrays on the device (docs/layout.md), as uploaded once by
 * cuda.UploadLayout. Weight pointers are NULL for unweighted layouts. */
typedef struct {
    uint64_t n, m, num_slots;
    uint32_t panel_size, heavy_columns, num_heavy, num_panels;
    const uint32_t *heavy_row, *heavy_col, *heavy_rows, *heavy_num_dst;
    const uint64_t *heavy_matrix_start, *heavy_slot;
    const int16_t *heavy_matrix;
    const uint32_t *heavy_weights;
    const uint64_t *light_start;
    const uint16_t *light_src;
    const uint32_t *light_weights, *light_slot;
    const uint64_t *row_slot_start;
    const uint16_t *slot_dst;
    const uint64_t *sparse_offsets;
    const uint32_t *sparse_dst, *sparse_weights;
    /* The dense step's work split (denseplan.New, docs/gpu-engines.md):
     * heavy blocks in row chunks of heavy_chunk_rows rows (a block with more
     * rows is "split": its chunks combine into its slots atomically, and
     * phase 2 resets those slots, [row_reset_lo[r], row_reset_hi[r]) of row
     * panel r, after reading them); light edges in chunks of at most
     * light_chunk_edges; phase 2 in chunks of at most slot_chunk slots, a row
     * panel of several chunks (slot_chunk_split[c] = its index k in
     * split_rows, else 0xffffffff) folding into the accumulators
     * acc_split[k·P ..) that follow the slots in the stream buffer; the
     * last chunk of split row k to finish (split_tickets[k], 0 between
     * steps: the one array the steps write) applies it. */
    uint32_t heavy_chunk_rows, num_heavy_chunks, light_chunk_edges, num_light_chunks;
    uint32_t slot_chunk, num_slot_chunks, num_split_rows, reserved;
    const uint32_t *heavy_chunk_block, *heavy_chunk_row0;
    const int16_t *heavy_chunk_entry;
    const uint32_t *light_chunk_col;
    const uint64_t *light_chunk_start;
    const uint32_t *slot_chunk_row;
    const uint64_t *slot_chunk_start;
    const uint32_t *slot_chunk_split, *split_rows;
    const uint64_t *row_reset_lo, *row_reset_hi;
    uint32_t *split_tickets;
    /* The in-adjacency pull steps scan (layout.InArcs): for an undirected
     * layout the sparse part itself; for a directed one its transpose, rows
     * sorted by source, built with the backend (mg_transpose,
     * cuda.DeviceLayout.BuildIn, called by gpu.New); NULL when not built.
     * in_weights: the in-arcs' weights, parallel to in_src (an undirected
     * layout's sparse_weights; a weighted directed layout's transposed
     * with it); NULL for an unweighted layout. */
    const uint64_t *in_offsets;
    const uint32_t *in_src;
    const uint32_t *in_weights;
    /* The vertices with at least MG_PULL_HEAVY_DEGREE in-arcs, which a pull
     * step scans a block per vertex (mg_in_heavy builds the list). */
    uint64_t num_in_heavy;
    const uint32_t *in_heavy;
} mg_dlayout;

/* What a step leaves on the device for the host to read in one copy. */
typedef struct {
    uint32_t next_count; /* vertices of the next frontier */
    uint32_t touched;    /* sparse: destinations that received a contribution */
    uint64_t next_edges; /* out-arcs of the next frontier */
} mg_step_counters;

/* Entries of the scratch array a sparse sample (dry run) writes into. */
#define MG_SAMPLE_SCRATCH 65536
/* Events a step records (may be NULL): dense 4 (heavy, light, phase 2),
 * sparse 3 (advance, apply). */
#define MG_DENSE_EVENTS 4
#define MG_SPARSE_EVENTS 3

/* A dense step's stream buffer (mg_min_dense_step, mg_sum_dense_step,
 * mg_pr_step) has num_slots + num_split_rows·panel_size entries of the
 * program's value type, every one the identity (0xffffffff for the min
 * programs, 0.0 for the sums) when it is first used; the steps leave it so. */

/* One MultiGraphD iteration of program prog: sources with active[u] != 0
 * contribute (phase 1 writes every stream slot of stream_buf), phase 2 folds
 * each row panel's slots and applies every vertex
 * that received a contribution, writing next[v] (0/1) and the counters (zeroed
 * here). dry != 0: phase 2 folds but applies nothing and writes neither values
 * nor next (the hybrid's EDP measurement). Asynchronous on stream s. */
int mg_min_dense_step(int dev, int prog, const mg_dlayout *l, uint32_t *values,
                      const uint8_t *active, uint8_t *next, uint32_t *stream_buf,
                      mg_step_counters *ctr, int dry, mg_stream s, mg_event *ev,
                      char *err, size_t errlen);
/* One MultiGraphS iteration from frontier[0..count): contributions go to acc
 * (n entries, all identity between steps; the apply kernel resets the
 * entries it reads) with atomicMin, first touches are appended to touched,
 * then the touched vertices are applied and the activated ones appended to
 * next_list. Counters are zeroed here. Asynchronous on stream s. */
int mg_min_sparse_step(int dev, int prog, const mg_dlayout *l, uint32_t *values,
                       const uint32_t *frontier, uint32_t count, uint32_t *acc,
                       uint32_t *touched, uint32_t *next_list, mg_step_counters *ctr,
                       mg_stream s, mg_event *ev, char *err, size_t errlen);
/* The hybrid's ESP sample: the sparse advance of frontier[i·stride]
 * (i < count) as a dry run whose atomics go to scratch
 * (MG_SAMPLE_SCRATCH entries, contents meaningless). ev: 2 events or NULL. */
int mg_min_sparse_sample(int dev, int prog, const mg_dlayout *l, const uint32_t *values,
                         const uint32_t *frontier, uint32_t count, uint32_t stride,
                         uint32_t *scratch, mg_stream s, mg_event *ev, char *err, size_t errlen);
/* Iterations kept on the device (mg_min_sparse_loop): records of at most
 * MG_LOOP_RECORDS iterations per call. */
#define MG_LOOP_RECORDS 1024
/* The rule by which a device loop goes on to the next iteration: it stops
 * when the next frontier is empty or has more than max_count vertices (when
 * max_count > 0: the grid was sized for fewer), or (hybrid != 0) when the
 * host's hybrid (gpu.Backend.decide) would not take the next iteration
 * sparse by a rule the device can apply: it stops when can_pull and the
 * pull rule holds (sampler.PullPays: unsettled and unsettled_vertices,
 * decreased by each next frontier's out-arcs and vertices first; alpha,
 * beta and pull_arc_ratio as in sampler.Alpha, Beta, PullArcRatio; and
 * only for a frontier of at least pull_min_arcs out-arcs; with pull_in_loop,
 * BFS only, it runs that pull step itself instead, over the layout's
 * in-adjacency, and the next ones while the frontiers do not shrink or hold
 * more than n / beta vertices), and when every vertex
 * is in the frontier while the ESP model is not calibrated; it goes on when
 * the frontier's out-arcs·fast_ratio are below m, or when calibrated and
 * the ESP model, fixed_s + arc_cost_s·out-arcs, is below edp_s (a frozen
 * copy of the host's model); otherwise it stops. */
typedef struct {
    uint64_t n, m;           /* vertices and arcs of the layout */
    uint64_t unsettled;      /* arcs of the unsettled vertices after the first iteration's frontier */
    uint64_t alpha, beta;    /* the pull rule's constants */
    uint64_t max_count;      /* 0, or the largest frontier the loop's grid is for */
    double fixed_s;          /* ESP model: seconds of a sparse step's fixed cost */
    double arc_cost_s;       /* ESP model: seconds per frontier out-arc */
    double edp_s;            /* the dense step's time, seconds */
    uint32_t fast_ratio;     /* gpu.SparseFastRatio */
    uint32_t hybrid;         /* 0: sparse was forced, go on while the frontier is not empty */
    uint32_t can_pull;       /* the host may switch to pull steps */
    uint32_t calibrated;     /* the ESP model (fixed_s, arc_cost_s) and edp_s hold */
    uint32_t delta;          /* near-far bucket width (min programs' values), 0: off */
    uint32_t pull_in_loop;   /* BFS: where the pull rule holds, pull in the loop instead of stopping */
    uint64_t unsettled_vertices; /* vertices not yet in a frontier, after the first iteration's */
    double pull_arc_ratio;   /* a scanned pull arc's cost over a pushed arc's */
    uint64_t pull_min_arcs;  /* the fewest frontier out-arcs a pull step may pay for (0: any) */
    uint32_t pull_first;     /* with pull_in_loop: the loop's first iteration is a pull step */
    uint32_t reserved;
} mg_loop_rule;
/* One device-loop iteration: its step counters (the next frontier), the
 * device's global timer when it ended (ns), and whether it was a pull
 * (bottom-up) step (pulled 1: mg_loop_rule.pull_in_loop). */
typedef struct {
    mg_step_counters c;
    uint64_t end_ns;
    uint32_t pulled;
    uint32_t reserved;
} mg_loop_record;
/* A device loop's state: the iterations done (records written) and the
 * global timer at its start (ns). */
typedef struct {
    uint32_t done;
    uint32_t reserved;
    uint64_t start_ns;
} mg_loop_state;
/* Async data-driven runs of the min programs (mg_min_async, async.cu):
 * threads per block, items a block keeps for its own next round, blocks
 * per SM by default, and the free ring slot. */
#define MG_ASYNC_BLOCK 256
#define MG_ASYNC_KEEP 128
/* Items a block keeps for its own next round in an async BFS over
 * fixed-width rows: fewer kept, more shared through the ring with idle
 * blocks (H100: 2048 grid BFS 3.8 → 3.1 ms, luxembourg_osm async BFS 1.75
 * → 1.41 ms). SSSP and CC keep MG_ASYNC_KEEP (2048 grid SSSP 8.3 ms
 * against 10.0 with 64; CC label propagation on luxembourg_osm 0.56
 * against 0.62), as does a BFS over the CSR (R-MAT 21 async BFS 8.1–9.7
 * against 9.9–10.2). At most MG_ASYNC_KEEP. */
#define MG_ASYNC_KEEP_BFS_ROWS 64
#define MG_ASYNC_BLOCKS_PER_SM 2
#define MG_ASYNC_EMPTY 0xffffffffffffffffull
/* What an async run leaves on the device (mg_min_async). */
typedef struct {
    uint64_t work;         /* items queued, held or being processed */
    uint32_t head, tail;   /* ring tickets taken by consumers, by producers */
    uint32_t far_count[2]; /* near-far: sizes of the two far piles */
    uint32_t far_min;      /* near-far: the smallest piled value (scratch) */
    uint32_t overflow;     /* nonzero: the ring filled up; the values are void */
    uint64_t items;        /* items processed */
    uint64_t shared;       /* items that went through the ring */
    uint32_t buckets;      /* near-far bucket changes */
    uint32_t reserved;
} mg_async_state;
/* One-block traversals (block.cu, the small-frontier choice of mode auto):
 * the block's threads, and the vertices of a level whose arc ranges it
 * keeps in shared memory (the rest are read again). A layout whose rows
 * have at most MG_BLOCK_ROW_WIDTH arcs runs instead over fixed-width
 * rows (mg_block_rows: a vertex's row is one 32-byte sector), of which
 * the same shared memory keeps fewer per level. */
#define MG_BLOCK_THREADS 1024
#define MG_BLOCK_CACHE 1024
#define MG_BLOCK_ROW_WIDTH 8
/* The widest level mg_bc_block takes over rows (its backward pass keeps a
 * level's sums in shared memory, a thread a vertex): bailout 1 .. this. */
#define MG_BLOCK_BACK_LEVEL 512
/* What a one-block run did (device memory, written at its end). */
typedef struct {
    uint32_t levels;         /* levels run */
    uint32_t reached;        /* vertices it discovered */
    uint32_t frontier_begin; /* mg_block_bfs stopped early: where its last level was in order, */
    uint32_t frontier_count; /* and its vertices, now in frontier (0: it ran to the end) */
} mg_block_stats;
/* MultiGraphS iterations from list0[0..count) without returning to the
 * host: one cooperative kernel runs the advance, hubs (when there are any)
 * and apply of an iteration with grid-wide barriers between them, and goes
 * on while the rule says so, for at most max_iters (1..MG_LOOP_RECORDS)
 * iterations. Iteration j reads list0 when j is even, list1 when odd, and
 * writes the other; records[j] gets its counters. state (device) gets the
 * iterations done; ctr is scratch of 2 counters, zeroed here.
 * With rule->delta > 0 the iterations are near-far (Davidson et al.; the
 * Gunrock SSSP): an activated vertex whose value is at least the split goes
 * to a far pile (far0/far1, n entries each; in_far, n flags, all 0 between
 * loops) instead of the next frontier; when the next frontier is empty the
 * split moves to the smallest far value plus delta and the far vertices
 * below it become the next frontier. A loop that stops returns the far
 * vertices in its last next frontier. far_state: 4 words of scratch.
 * The grid has blocks_per_sm blocks per SM, or as many as fit when that is
 * 0 or more. ev: 2 events or NULL. Asynchronous on stream s. */
int mg_min_sparse_loop(int dev, int prog, const mg_dlayout *l, uint32_t *values, uint32_t *list0,
                       uint32_t *list1, uint32_t count, uint32_t max_iters, uint32_t blocks_per_sm,
                       const mg_loop_rule *rule, uint32_t *far0, uint32_t *far1, uint32_t *in_far,
                       uint32_t *far_state, uint32_t *acc, uint32_t *touched, mg_step_counters *ctr,
                       mg_loop_state *state, mg_loop_record *records, mg_stream s, mg_event *ev,
                       char *err, size_t errlen);
/* An async (SEP-Graph Async + Push + DD) run of min program prog from
 * frontier[0..count) (every vertex 0..count when frontier is NULL): one
 * persistent cooperative kernel relaxes arcs with the program's atomic min
 * and processes each lowered vertex as soon as a block takes it, with no
 * iteration barrier, until no work is left (async.cu). ring: 2^ring_log2
 * slots (at least count and 2n), every one MG_ASYNC_EMPTY; queued: n flags
 * (a vertex is in the ring at most once), all 0. A run leaves both so
 * unless state->overflow is set, when the caller must reset them and in_far
 * and treat the values as void. delta > 0: near-far priority (far0,
 * far1: n entries each; in_far: n flags, all 0, left so). The grid has
 * blocks_per_sm blocks per SM (0: MG_ASYNC_BLOCKS_PER_SM), fewer if fewer
 * fit. rows (NULL: the layout's CSR): mg_block_rows's rows of the
 * layout, over which a round takes whole rows and the items a block keeps
 * carry theirs (one dependent global access a round instead of two); a
 * weighted program then also needs wrows (mg_block_weight_rows's).
 * row_width (with rows): the slots of a row a round reads, a power of two
 * from 1 to MG_BLOCK_ROW_WIDTH and at least the layout's largest
 * out-degree (a grid's 4: a round's threads then take twice the items).
 * ev: 2 events or NULL. Asynchronous on stream s. */
int mg_min_async(int dev, int prog, const mg_dlayout *l, const uint32_t *rows, const uint32_t *wrows,
                 uint32_t row_width, uint32_t *values, const uint32_t *frontier, uint32_t count, uint64_t *ring,
                 uint32_t ring_log2, uint32_t *queued, uint32_t delta, uint32_t *far0, uint32_t *far1,
                 uint32_t *in_far, mg_async_state *state, uint32_t blocks_per_sm, mg_stream s, mg_event *ev,
                 char *err, size_t errlen);
/* In-rows of at least this many arcs are scanned by a whole block in a
 * pull step, shorter ones by a group of eight lanes. */
#define MG_PULL_HEAVY_DEGREE 1024
/* The vertices whose in-rows have at least MG_PULL_HEAVY_DEGREE arcs (the
 * in-adjacency must be set): with list NULL, only their number into
 * *count; else also the vertices into list (*count entries, any order).
 * Synchronous. */
int mg_in_heavy(int dev, const mg_dlayout *l, uint32_t *list, uint64_t *count, char *err, size_t errlen);
/* Builds a directed layout's in-adjacency from its sparse part on the
 * device: in_offsets (n+1 entries) and in_src (m), each in-row's sources in
 * ascending order, and, unless in_weights is NULL, the in-arcs' weights
 * (m; the layout must have sparse_weights) — layout.Layout.In on the host
 * gives the same arrays. At most 2^31-1 arcs. Synchronous; temporary
 * memory about 12 bytes per arc (16 with weights). */
int mg_transpose(int dev, const mg_dlayout *l, uint64_t *in_offsets, uint32_t *in_src, uint32_t *in_weights,
                 char *err, size_t errlen);
/* BFS parents from BFS levels (layout numbering): a vertex at level 0 is
 * its own parent, an unreached one (0xffffffff) has none (0xffffffff),
 * any other gets its first in-neighbour (the smallest layout id) one level
 * up. Needs the in-adjacency (in_offsets/in_src). Asynchronous on s. */
int mg_bfs_parents(int dev, const mg_dlayout *l, const uint32_t *level, uint32_t *parent, mg_stream s, char *err,
                   size_t errlen);
/* One pull (bottom-up) iteration of BFS (prog must be MG_PROG_BFS) over the
 * layout's in-adjacency (in_offsets/in_src, which must be set): every
 * vertex whose value is the identity scans its in-row until the first u with
 * active[u] != 0 and applies u's contribution; next[v] (0/1) is written for
 * every vertex, and the counters (zeroed here) get the activated vertices
 * and their out-arcs. ev: 2 events or NULL. */
int mg_min_pull_step(int dev, int prog, const mg_dlayout *l, uint32_t *values,
                     const uint8_t *active, uint8_t *next, mg_step_counters *ctr,
                     mg_stream s, mg_event *ev, char *err, size_t errlen);
/* One pull iteration of any min program (--mode pull; BFS's reads every
 * arc too) over the in-adjacency: every vertex combines the contributions
 * of all its in-neighbours u with active[u] != 0 and applies the result
 * (values in place); next and the counters as mg_min_pull_step. A weighted
 * program needs an undirected layout (its in-rows are the sparse part,
 * whose weights it reads). ev: 2 events or NULL. */
int mg_min_pull_all_step(int dev, int prog, const mg_dlayout *l, uint32_t *values, const uint8_t *active,
                         uint8_t *next, mg_step_counters *ctr, mg_stream s, mg_event *ev, char *err, size_t errlen);
/* Frontier conversions. flags -> list by warp-aggregated appends (order
 * unspecified; pos: one device word, zeroed here); list -> flags by zeroing
 * flags and scattering. */
int mg_flags_to_list(int dev, const uint8_t *flags, uint64_t n, uint32_t *list, uint32_t *pos,
                     mg_stream s, char *err, size_t errlen);
int mg_list_to_flags(int dev, const uint32_t *list, uint32_t count, uint8_t *flags, uint64_t n,
                     mg_stream s, char *err, size_t errlen);
/* --- Topology-driven PageRank (float64 sums) --------------------------- */

/* The per-iteration scalars a PageRank step leaves for the host. The pull
 * scheme also keeps its stopping rule here: the host sets dangling to the
 * initial ranks' dangling sum and the rest to 0 before the first step. */
typedef struct {
    double delta;        /* Σ |r_new − r_old| */
    double dangling;     /* Σ r_new over vertices without out-arcs */
    uint32_t iterations; /* pull: steps that ran */
    uint32_t done;       /* pull: 1 once a step's delta fell below the tolerance */
} mg_pr_sums;
/* Events a PageRank step records (may be NULL): heavy, light, phase 2, fold. */
#define MG_PR_EVENTS 5

/* One PageRank iteration over every vertex: phase 1 writes every slot of
 * stream_buf (doubles, see above) from share[] (n), phase 2 folds each row
 * panel and sets rank[v] = base + damping·acc, share[v] = rank[v]/outdeg (0
 * when dangling); partials (2·num_panels doubles) hold the per-panel sums,
 * folded into *sums. Asynchronous on stream s. */
int mg_pr_step(int dev, const mg_dlayout *l, double base, double damping, double *rank,
               double *share, double *stream_buf, double *partials, mg_pr_sums *sums,
               mg_stream s, mg_event *ev, char *err, size_t errlen);

/* PageRank's pull scheme: the heavy blocks as in mg_pr_step, but their
 * partials go straight to per-vertex accumulators with global atomics, and
 * the light edges are read row panel by row panel in source order (a copy
 * made once by mg_pr_pull_build), summed in shared memory and added into the
 * same accumulators, so no stream buffer is written or read. */
typedef struct {
    const uint32_t *src;         /* light edges sorted by (destination's row panel, source): the source */
    const uint16_t *dst;         /* the destination's index in its row panel */
    const uint64_t *row_start;   /* num_panels+1: each row panel's first edge */
    const uint32_t *chunk_row;   /* per chunk of at most chunk_edges edges of one row panel */
    const uint64_t *chunk_start; /* its first edge */
    uint32_t chunk_edges, num_chunks;
} mg_pr_pull;
/* Vertices per block of the pull scheme's apply kernel: partials has
 * 2·ceil(n / MG_PR_APPLY_VERTICES) entries. */
#define MG_PR_APPLY_VERTICES 2048

/* Fills src and dst (num_light entries each, num_light being the layout's
 * light edges) and row_start (num_panels+1) from the layout's light edges,
 * sorted by their destination's row panel, then by source and, for one
 * source, in layout order. Allocates and frees its own scratch (18 B per
 * light edge, and the sort's). Synchronous. */
int mg_pr_pull_build(int dev, const mg_dlayout *l, uint64_t num_light, uint32_t *src, uint16_t *dst,
                     uint64_t *row_start, char *err, size_t errlen);
/* One PageRank iteration of the pull scheme, or nothing once sums->done is
 * set: heavy blocks and light edges add into acc (n doubles, all 0 before and
 * left so) in one kernel, then every vertex takes rank = base + damping·acc,
 * base = (1−damping)/n + damping·sums->dangling/n, and its share (with
 * teleport, n bits by layout id, personalised PageRank: rank = ((1−damping)
 * + damping·sums->dangling)·w + damping·acc, w = weight where the vertex's
 * bit is set, 0 elsewhere), with
 * per-block partial sums (partials, see MG_PR_APPLY_VERTICES) that the last
 * block to finish (*ticket: 0 before, left so) folds into sums->delta and
 * sums->dangling, counting the iteration and setting sums->done when delta <
 * tolerance. So the host may queue several steps and read *sums once.
 * Events (may be NULL): 3, before, between and after the two kernels.
 * Asynchronous on stream s. */
int mg_pr_pull_step(int dev, const mg_dlayout *l, const mg_pr_pull *p, double damping, double tolerance,
                    const uint32_t *teleport, double weight, double *rank, double *share, double *acc,
                    double *partials, uint32_t *ticket, mg_pr_sums *sums, mg_stream s, mg_event *ev, char *err,
                    size_t errlen);

/* --- GPU engines for the float64 sum programs (pr-delta, BC forward) ---- */

/* Sum program ids: data-driven PageRank (engine.DevicePRDelta) and the
 * forward (path-counting) pass of Brandes' betweenness centrality. */
enum { MG_SPROG_PRDELTA = 1, MG_SPROG_BC_FORWARD = 2 };

/* A sum program's parameters and device state (pointers to n entries; the
 * ones a program does not use may be NULL).
 * pr-delta: values are the pushes d·r/outdeg; a vertex absorbs its residual
 *   plus what it received into x once that exceeds eps, and pushes it on.
 * bc forward: values are the path counts σ; a vertex with depth −1 that
 *   receives paths takes depth d+1 and their sum. */
typedef struct {
    double damping, eps;   /* pr-delta */
    double *x, *residual;  /* pr-delta: absorbed and unabsorbed mass */
    int32_t *depth;        /* bc: depth of each vertex, −1 unvisited */
    int32_t d;             /* bc: depth of the current frontier */
    int32_t pad;
} mg_sum_params;

/* mg_min_dense_step, mg_min_sparse_step and mg_min_sparse_sample for a sum
 * program (prog: MG_SPROG_*; values, acc, stream_buf and scratch hold
 * doubles, acc is 0 between steps). Every contribution is non-negative; a
 * sparse step's first touch of a destination is the atomicAdd that finds 0
 * there. */
int mg_sum_dense_step(int dev, int prog, const mg_dlayout *l, const mg_sum_params *p,
                      double *values, const uint8_t *active, uint8_t *next, double *stream_buf,
                      mg_step_counters *ctr, int dry, mg_stream s, mg_event *ev,
                      char *err, size_t errlen);
int mg_sum_sparse_step(int dev, int prog, const mg_dlayout *l, const mg_sum_params *p,
                       double *values, const uint32_t *frontier, uint32_t count, double *acc,
                       uint32_t *touched, uint32_t *next_list, mg_step_counters *ctr,
                       mg_stream s, mg_event *ev, char *err, size_t errlen);
int mg_sum_sparse_sample(int dev, int prog, const mg_dlayout *l, const mg_sum_params *p,
                         const double *values, const uint32_t *frontier, uint32_t count,
                         uint32_t stride, double *scratch, mg_stream s, mg_event *ev,
                         char *err, size_t errlen);
/* mg_min_sparse_loop for a sum program: the same iterations, rule, records
 * and state, without near-far (rule->delta must be 0). The functor of the
 * loop's iteration j is the launched one advanced by j (BC's forward pass:
 * depth p->d + j). */
int mg_sum_sparse_loop(int dev, int prog, const mg_dlayout *l, const mg_sum_params *p,
                       double *values, uint32_t *list0, uint32_t *list1, uint32_t count,
                       uint32_t max_iters, uint32_t blocks_per_sm, const mg_loop_rule *rule,
                       double *acc, uint32_t *touched, mg_step_counters *ctr, mg_loop_state *state,
                       mg_loop_record *records, mg_stream s, mg_event *ev, char *err, size_t errlen);

/* --- Brandes' betweenness centrality on the device ----------------------- */

/* Starts one source: depth = −1, sigma = 0, delta = 0 everywhere, then
 * depth[source] = 0, sigma[source] = 1 and list[0] = source. */
int mg_bc_init(int dev, int32_t *depth, double *sigma, double *delta, uint64_t n, uint32_t source,
               uint32_t *list, mg_stream s, char *err, size_t errlen);
/* Sorts the vertices by depth after the forward pass: cursor holds, for
 * every depth 0..levels-1, where its vertices start in order (a device
 * array the host filled with the prefix sums of the level sizes); it is
 * advanced past them. */
int mg_bc_order(int dev, const int32_t *depth, uint64_t n, uint32_t levels, uint32_t *cursor,
                uint32_t *order, mg_stream s, char *err, size_t errlen);
/* The backward pass for the count vertices of depth d (level[0..count)):
 * delta[v] = Σ sigma[v] / sigma[w] · (1 + delta[w]) over the out-arcs v→w
 * with depth[w] = d + 1 (a warp per vertex; no atomics). */
int mg_bc_backward(int dev, const mg_dlayout *l, const int32_t *depth, const double *sigma,
                   double *delta, const uint32_t *level, uint32_t count, int32_t d,
                   mg_stream s, mg_event *ev, char *err, size_t errlen);
/* Both passes of Brandes from source without levels (bcasync.cu): depth
 * from levels (an async BFS's result; 0xffffffff: unreached → −1), then
 * sigma by a dataflow pass over the async worklist (a vertex is processed
 * once all its arcs from depth − 1 have added to it) and delta by one over
 * the leaves up (once all its arcs to depth + 1 have), along the in-arcs:
 * the layout's in-adjacency must be set (a directed layout's transpose,
 * mg_transpose). pred_left, succ_left: n counters each, dag: m bytes
 * (scratch). ring, queued, state: as mg_min_async's (left so unless
 * state->overflow is set). ev: 2 events or NULL. Asynchronous on stream
 * s. */
int mg_bc_async(int dev, const mg_dlayout *l, const uint32_t *levels, uint32_t source, int32_t *depth,
                double *sigma, double *delta, uint32_t *pred_left, uint32_t *succ_left, uint8_t *dag, uint64_t *ring,
                uint32_t ring_log2, uint32_t *queued, mg_async_state *state, uint32_t blocks_per_sm,
                mg_stream s, mg_event *ev, char *err, size_t errlen);
/* The most vertices a one-block run takes on dev: its visited bitmap
 * and two levels' arc ranges (or rows) must fit one block's shared
 * memory. */
int mg_block_max_vertices(int dev, uint64_t *out, char *err, size_t errlen);
/* The largest out-degree of the layout (at most 0xffffffff) into *out
 * (device memory, one word), for the choice of the rows (block.cu).
 * Asynchronous on stream s. */
int mg_block_max_degree(int dev, const mg_dlayout *l, uint32_t *out, mg_stream s, char *err, size_t errlen);
/* The one-block runs' fixed-width rows (block.cu): rows (device memory,
 * n * MG_BLOCK_ROW_WIDTH words, row-major) gets each vertex's out-arcs'
 * destinations in the layout's order, padded with 0xffffffff.
 * max_degree is the layout's largest out-degree (mg_block_max_degree's):
 * over MG_BLOCK_ROW_WIDTH, it fails. Asynchronous on stream s. */
int mg_block_rows(int dev, const mg_dlayout *l, uint32_t max_degree, uint32_t *rows, mg_stream s, char *err,
                  size_t errlen);
/* The rows' weights (block.cu): wrows (n * MG_BLOCK_ROW_WIDTH words) gets
 * each vertex's out-arcs' weights (32-bit patterns) in mg_block_rows's
 * order, padded with 0. The layout must have weights; max_degree as
 * mg_block_rows's. Asynchronous on stream s. */
int mg_block_weight_rows(int dev, const mg_dlayout *l, uint32_t max_degree, uint32_t *wrows, mg_stream s, char *err,
                         size_t errlen);
/* Continues a BFS in one thread block (block.cu): levels holds every
 * reached vertex's level (others 0xffffffff) and frontier[0..count) the
 * vertices of the last level (count > 0); the block copies them to the
 * front of order (n entries, the queue in BFS order) and runs level by
 * level until a level is empty or has more than bailout vertices (0:
 * never stop), which it then copies to frontier for the grid-wide
 * engines to go on from (stats->frontier_count vertices). n at most
 * mg_block_max_vertices. rows: mg_block_rows's rows of the layout, or
 * NULL for its CSR arrays. ev: 2 events or NULL. Asynchronous on stream
 * s. */
int mg_block_bfs(int dev, const mg_dlayout *l, const uint32_t *rows, uint32_t *levels, uint32_t *frontier,
                 uint32_t count, uint32_t *order, uint32_t bailout, mg_block_stats *stats, mg_stream s, mg_event *ev,
                 char *err, size_t errlen);
/* Brandes from source in one thread block, on an undirected layout
 * (block.cu): resets levels, sigma and delta, runs the BFS (levels,
 * order, arc_count: n entries each, the queue in BFS order and scratch;
 * level_end: n + 1, each level's end in order), then sigma level by level
 * down and delta level by level up, leaving delta for mg_bc_accumulate.
 * Over the CSR (rows NULL) both passes pull over each vertex's arcs, whose
 * ranges the BFS keeps in arc_begin and arc_count (n entries each, by
 * place in order). Over rows (mg_block_rows's rows of the layout) the BFS
 * makes sigma as it goes, and the backward pass runs over queue places:
 * arc_count gets each queued vertex's place, links (n *
 * MG_BLOCK_ROW_WIDTH words) each place's row slots one level down as
 * places, qvals (2n doubles) 1/sigma and the sums of the pass; arc_begin
 * may be NULL, and bailout must be 1 .. MG_BLOCK_BACK_LEVEL. A BFS level of more than bailout vertices (0: none) stops
 * it there, with stats->frontier_count > 0 and delta void: the caller
 * then runs the source otherwise. n at most mg_block_max_vertices. ev: 2
 * events or NULL. Asynchronous on stream s. */
int mg_bc_block(int dev, const mg_dlayout *l, const uint32_t *rows, uint32_t source, uint32_t *levels,
                uint32_t *order, uint32_t *level_end, uint64_t *arc_begin, uint32_t *arc_count, uint32_t *links,
                double *qvals, uint32_t bailout, double *sigma, double *delta, mg_block_stats *stats, mg_stream s,
                mg_event *ev, char *err, size_t errlen);
/* Brandes in one thread-block cluster (cluster.cu, compute capability
 * 9.0 and up): the one-block runs' level-synchronous Brandes over
 * fixed-width rows (mg_block_rows), spread over the blocks of one
 * cluster, whose barrier (the cluster's, in hardware) separates the
 * levels. The visited bitmap is split over the blocks' shared memory
 * (word w in block w mod blocks, claimed through distributed shared
 * memory), so graphs of up to tens of millions of vertices fit; the
 * block that holds a vertex's word expands it, keeping the ids of up to
 * MG_CLUSTER_LIST vertices a level (more go to spill, global memory of
 * MG_CLUSTER_SPILL_WORDS(n, blocks) words) and the rows of the first
 * MG_CLUSTER_ROW_CACHE. */
#define MG_CLUSTER_MAX_BLOCKS 16
#define MG_CLUSTER_LIST 2048
#define MG_CLUSTER_ROW_CACHE 512
#define MG_CLUSTER_SPILL_WORDS(n, blocks) (3 * (((uint64_t)(n) + 31) / 32 + (uint64_t)(blocks)) * 32)
/* The largest cluster the cluster runs launch on dev (*blocks: 16, 8, 4
 * or 2 blocks; 0 where the device has no clusters) and the most vertices
 * its bitmap takes (*vertices; 0 with no clusters). */
int mg_cluster_max_vertices(int dev, uint64_t *vertices, uint32_t *blocks, char *err, size_t errlen);
/* mg_bc_block over a cluster of blocks blocks (mg_cluster_max_vertices's
 * or a smaller power of two, at least 2), over rows (required; n at most
 * mg_cluster_max_vertices for that size): the BFS makes sigma as it goes
 * and writes each queued vertex's row in queue order to qrows
 * (n * MG_BLOCK_ROW_WIDTH words), which the backward pass reads; spill
 * holds MG_CLUSTER_SPILL_WORDS(n, blocks) words. It stops after the BFS
 * (stats->frontier_count > 0, delta void) when a level has more than
 * bailout vertices (0: never). ev: 2 events or NULL. Asynchronous on
 * stream s. */
int mg_bc_cluster(int dev, const mg_dlayout *l, const uint32_t *rows, uint32_t blocks, uint32_t source,
                  uint32_t *levels, uint32_t *order, uint32_t *level_end, uint32_t *qrows, uint32_t *spill,
                  uint32_t bailout, double *sigma, double *delta, mg_block_stats *stats, mg_stream s, mg_event *ev,
                  char *err, size_t errlen);
/* Data-driven PageRank in async mode (prasync.cu): x = 0 and residual = 1
 * everywhere, then every vertex on the async worklist absorbs its residual
 * into x and pushes damping·r/outdeg along its out-arcs; a push that lifts a
 * residual above eps queues its vertex. x / Σx is the rank. ring, queued,
 * state: as mg_min_async's. ev: 2 events or NULL. Asynchronous on s. */
int mg_prdelta_async(int dev, const mg_dlayout *l, double damping, double eps, double *x, double *residual,
                     uint64_t *ring, uint32_t ring_log2, uint32_t *queued, mg_async_state *state,
                     uint32_t blocks_per_sm, mg_stream s, mg_event *ev, char *err, size_t errlen);
/* bc[v] += delta[v] for every v except source. */
int mg_bc_accumulate(int dev, const double *delta, double *bc, uint64_t n, uint32_t source,
                     mg_stream s, char *err, size_t errlen);
/* p[0..n) = value (asynchronous). */
int mg_fill_u32(int dev, uint32_t *p, uint64_t n, uint32_t value, mg_stream s, char *err, size_t errlen);

/* --- device-resident runs (resident.cu) --------------------------------- */

/* Threads per block and blocks per SM of the element-wise kernels below. */
#define MG_RESIDENT_BLOCK 256
#define MG_RESIDENT_BLOCKS_PER_SM 8

/* A min program's initial state: values[v] = (identity ? v : fill) for every
 * v; with has_source, values[source] = source_value and list[0] = source
 * (the initial frontier list); flags, when not NULL, are set to 1 for every
 * vertex (every vertex active). */
int mg_min_init(int dev, uint32_t *values, uint64_t n, uint32_t fill, int identity, int has_source,
                uint32_t source, uint32_t source_value, uint32_t *list, uint8_t *flags, mg_stream s,
                char *err, size_t errlen);
/* out[old] = values[perm[old]] for every old < n (layout.Perm: original id
 * to layout id), i.e. values in the original numbering. */
int mg_gather_u32(int dev, uint32_t *out, const uint32_t *values, const uint32_t *perm, uint64_t n,
                  mg_stream s, char *err, size_t errlen);
/* Vertex ids in the original numbering: out[old] = inv[ids[perm[old]]]
 * (0xffffffff stays), inv being layout.InvPerm (new id to old). */
int mg_gather_ids(int dev, uint32_t *out, const uint32_t *ids, const uint32_t *perm, const uint32_t *inv, uint64_t n,
                  mg_stream s, char *err, size_t errlen);
/* The same for doubles, each divided by *divisor (a device scalar) unless
 * divisor is NULL. */
int mg_gather_f64(int dev, double *out, const double *values, const uint32_t *perm, const double *divisor,
                  uint64_t n, mg_stream s, char *err, size_t errlen);
/* Component labels in the original numbering: label[v] (layout numbering)
 * names v's component; out[old] = the smallest original id whose vertex has
 * the same label. smallest is n entries of scratch. */
int mg_gather_components(int dev, uint32_t *out, const uint32_t *label, const uint32_t *perm,
                         uint32_t *smallest, uint64_t n, mg_stream s, char *err, size_t errlen);
/* PageRank's initial state: rank = 1/n, share = rank/outdeg (0 without
 * out-arcs), outdeg from l->sparse_offsets. */
int mg_pr_init(int dev, const mg_dlayout *l, double *rank, double *share, mg_stream s, char *err,
               size_t errlen);
/* Personalised PageRank's initial state: rank = weight where the vertex's
 * bit in teleport (n bits by layout id) is set, 0 elsewhere; share =
 * rank/outdeg (0 without out-arcs); *count_dev = the vertices without
 * out-arcs whose rank is not 0. */
int mg_pr_personal_init(int dev, const mg_dlayout *l, const uint32_t *teleport, double weight, double *rank,
                        double *share, uint64_t *count_dev, mg_stream s, char *err, size_t errlen);
/* pr-delta's initial state: x = 1, residual = 0, push = damping/outdeg (0
 * without out-arcs), every vertex active (flags = 1). */
int mg_prdelta_init(int dev, const mg_dlayout *l, double damping, double *x, double *residual, double *push,
                    uint8_t *flags, mg_stream s, char *err, size_t errlen);
/* *count_dev = the number of vertices without out-arcs. */
int mg_count_dangling(int dev, const mg_dlayout *l, uint64_t *count_dev, mg_stream s, char *err, size_t errlen);
/* Pinned (page-locked) host memory: cudaHostAlloc and cudaFreeHost. */
int mg_host_alloc(int dev, void **p, uint64_t bytes, char *err, size_t errlen);
int mg_host_free(int dev, void *p, char *err, size_t errlen);
/* Asynchronous device-to-host copy on stream s (dst pinned for it to be
 * asynchronous and at full speed). */
int mg_memcpy_dtoh_async(int dev, void *dst, const void *src, uint64_t bytes, mg_stream s, char *err,
                         size_t errlen);

/* --- connected components by hooking and compressing (cc.cu) ------------ */

/* Threads per block of the hooking kernels, and the neighbour rounds of
 * the sampling phase (Afforest's). */
#define MG_CC_BLOCK 256
#define MG_CC_NEIGHBOR_ROUNDS 2
/* The kernel times mg_cc_hook records (ev[0..MG_CC_EVENTS)). */
#define MG_CC_EVENTS 4

/* Connected components of an undirected layout by Afforest-style hooking
 * over its sparse part (lock-free union-find with atomicCAS, the higher
 * root hooked under the lower): parent[v] = v, MG_CC_NEIGHBOR_ROUNDS
 * rounds linking each vertex with one more of its neighbours, compression,
 * then every arc not yet seen of every vertex outside the component of
 * layout vertex 0 (the largest in-degree group's first vertex, in the
 * largest component of skewed graphs), and a last compression. Afterwards
 * parent[v] is the smallest layout id of v's component. ev: NULL or
 * MG_CC_EVENTS events (start, after sampling, after the rest of the arcs,
 * after the last compression). */
int mg_cc_hook(int dev, const mg_dlayout *l, uint32_t *parent, mg_stream s, mg_event *ev, char *err,
               size_t errlen);
/* The same over a part of a partitioned graph (partition.cu's CC by
 * hooking), whose ghosts have no rows: a vertex whose row is empty reads
 * its list of in_offsets/in_src instead (mg_cc_rowless_in: the vertices
 * whose rows name it), so that every edge is seen from both ends and the
 * vertices in layout vertex 0's component after sampling may skip the
 * rest of their lists, as mg_cc_hook's do. A long row would keep one warp
 * busy for the whole pass: with num_chunks > 0, the rows of
 * MG_CC_HEAVY_DEGREE arcs or more are left to chunks, each linking the
 * arcs [first, first + MG_CC_CHUNK_ARCS) of its row (a block each), which
 * must cover every such row. Waits. */
#define MG_CC_HEAVY_DEGREE 256
#define MG_CC_CHUNK_ARCS 1024
typedef struct {
    uint32_t row, first;
} mg_cc_chunk;
int mg_cc_hook_all(int dev, const mg_dlayout *l, uint32_t *parent, const mg_cc_chunk *chunks, uint64_t num_chunks,
                   const uint64_t *in_offsets, const uint32_t *in_src, char *err, size_t errlen);
/* The in-lists of a part's vertices without rows, for mg_cc_hook_all: with
 * in_src NULL, in_offsets (n+1 entries) takes the lists' offsets (every
 * arc to a vertex whose row is empty counts one in that vertex's list; a
 * vertex with a row has an empty one) and *total their sum; then, with
 * in_src (*total entries), the lists are filled (in no set order).
 * cursor is n words of scratch. Waits. */
int mg_cc_rowless_in(int dev, const mg_dlayout *l, uint64_t *in_offsets, uint32_t *in_src, uint32_t *cursor,
                     uint64_t *total, char *err, size_t errlen);

/* --- Gunrock-style operators (ops.cu, ops.cuh, fn_*.cuh) -------------- */

/* What a functor is given: arrays a[i] (device pointers, NULL when not
 * bound), integer scalars u[i] and float scalars f[i]. */
#define MG_OP_ARRAYS 8
#define MG_OP_SCALARS 4
typedef struct {
    void *a[MG_OP_ARRAYS];
    uint64_t u[MG_OP_SCALARS];
    double f[MG_OP_SCALARS];
} mg_op_args;
/* A compressed adjacency: row u is [offsets[u], offsets[u+1]) of dst (and
 * weights, or NULL), sorted by destination. */
typedef struct {
    uint64_t n, m;
    const uint64_t *offsets;
    const uint32_t *dst;
    const uint32_t *weights;
} mg_op_graph;
/* An operator's input: element k of [0, count) is list[k], or k itself
 * when list is NULL; with flags (a dense frontier) element k is skipped
 * unless flags[k]. arcs: elements are arc ids, else vertex ids. */
typedef struct {
    const uint32_t *list;
    const uint8_t *flags;
    uint64_t count;
    int32_t arcs;
    int32_t reserved;
} mg_op_in;
/* What an advance or filter writes (what: MG_OUT_*): into list (capacity
 * entries) or flags (universe entries); *count (device) gets the number
 * written; bitmap (universe bits) culls repeats: required for flags and
 * for unique lists, NULL otherwise. The operators zero count, flags and
 * bitmap themselves. universe: the vertices (or arcs) an element can be. */
#define MG_OUT_NONE 0
#define MG_OUT_VERTICES 1
#define MG_OUT_ARCS 2
typedef struct {
    uint32_t *list;
    uint8_t *flags;
    uint32_t *bitmap;
    unsigned long long *count;
    uint64_t capacity;
    int32_t what;
    int32_t reserved;
    uint64_t universe;
} mg_op_out;
/* Load-balancing strategies of mg_op_advance (ops.Strategy, resolved):
 * a thread per element; Merrill's thread/warp/CTA grouping, rows of
 * MG_OP_WARP_DEGREE arcs or more expanded by a warp, of MG_OP_BLOCK_DEGREE
 * or more by the block; arcs balanced over threads through the prefix sum
 * of the elements' degrees. */
#define MG_LB_THREAD 1
#define MG_LB_TWC 2
#define MG_LB_MERGED 3
#define MG_OP_BLOCK 256
#define MG_OP_WARP_DEGREE 32
#define MG_OP_BLOCK_DEGREE 256
/* Reductions of mg_op_reduce. */
#define MG_REDUCE_SUM 0
#define MG_REDUCE_MIN 1
#define MG_REDUCE_MAX 2

/* The functors compiled into the library (fn_*.cuh; ops.Functor.ID).
 * Their Go twins are in package apps. */
enum {
    MG_FN_BFS = 1,         /* BFS levels: claim unvisited destinations */
    MG_FN_SSSP = 2,        /* SSSP: relax with atomicMin */
    MG_FN_SIMPLE = 3,      /* keep arcs that are not self-loops or repeats */
    MG_FN_ORIENT = 4,      /* keep simple arcs from lower to higher (degree, id) */
    MG_FN_TRI_COUNT = 5,   /* add an arc's common neighbours to its source */
    MG_FN_EQUALS = 6,      /* keep vertices whose a[0] entry is u[0] */
    MG_FN_KCORE_PEEL = 7,  /* remove vertices of degree below k */
    MG_FN_KCORE_DROP = 8,  /* decrement the degree of live destinations */
    MG_FN_LOCAL_MAX = 9,   /* mark undecided vertices of highest priority among undecided neighbours */
    MG_FN_JP_COLOR = 10,   /* give marked vertices the smallest colour free among their neighbours */
    MG_FN_MIS_JOIN = 11,   /* put marked vertices in the set */
    MG_FN_MIS_EXCLUDE = 12,/* exclude undecided neighbours of set members */
    MG_FN_PR_DANGLING = 13,/* rank of vertices without out-arcs */
    MG_FN_PR_PULL = 14,    /* personalised PageRank's pull step */
    MG_FN_L1_DIFF = 15,    /* |a[0][v] − a[1][v]| */
    MG_FN_SCALE = 16,      /* a[0][v] *= f[0] */
    MG_FN_GATHER = 17,     /* row sum of a[0][u] / degree(u) into a[1][v] */
    MG_FN_PUSH_ADD = 18,   /* add a[0][src] / degree(src) into a[1][dst] */
    MG_FN_IN_SET = 19,     /* keep arcs whose source is flagged in a[0] */
    MG_FN_VALUE = 20,      /* a[0][v] (a double), for sums */
    MG_FN_FLAGGED = 21,    /* 1 when the byte a[0][v] is not 0, for sums */
    MG_FN_MSF_RESET = 22,  /* Borůvka: a round's per-component minima and hooks reset */
    MG_FN_MSF_MIN_WEIGHT = 23, /* Borůvka: lightest arc leaving each component */
    MG_FN_MSF_MIN_EDGE = 24,   /* Borůvka: of those, the least (min, max) end pair */
    MG_FN_MSF_HOOK = 25,   /* Borůvka: hook each component along its edge */
    MG_FN_MSF_APPLY = 26,  /* Borůvka: roots take their hooks */
    MG_FN_MSF_JUMP = 27,   /* Borůvka: pointer jumping to the roots */
    MG_FN_LAST = 27
};

/* Scratch the operators take from the caller instead of allocating:
 * mg_op_temp_bytes gives the bytes an operator over n elements (n+1 for
 * prefix sums) may use; every entry point below that takes temp and
 * temp_bytes needs at least that much for its input's size. */
int mg_op_temp_bytes(uint64_t n, uint64_t *bytes, char *err, size_t errlen);
/* Fills n elements of elem_bytes (1, 4 or 8) at p with value's low bytes.
 * Synchronous. */
int mg_op_fill(int dev, void *p, int elem_bytes, uint64_t value, uint64_t n, char *err, size_t errlen);
/* The prefix sum of the input's degrees in g (count+1 entries into scan;
 * an arc element has degree 1, a skipped one 0) and its total, *arcs
 * (host). Synchronous. */
int mg_op_advance_plan(int dev, const mg_op_graph *g, const mg_op_in *in, uint64_t *scan, uint64_t *arcs,
                       void *temp, uint64_t temp_bytes, char *err, size_t errlen);
/* Calls functor fn's edge on every arc of the input (scan from
 * mg_op_advance_plan, arcs its total) with strategy (MG_LB_*) and writes
 * out; *written (host) gets out's count. Synchronous. */
int mg_op_advance(int dev, int fn, const mg_op_args *a, const mg_op_graph *g, const mg_op_in *in,
                  const uint64_t *scan, uint64_t arcs, int strategy, const mg_op_out *out, uint64_t *written,
                  char *err, size_t errlen);
/* The pull (bottom-up) advance: for every vertex v of g, here the
 * in-adjacency (row v lists the sources u of the arcs (u, v)), for which
 * fn's vertex(v) holds (a candidate), calls fn's edge(u, v, arc, w) on the
 * arcs of row v whose source u is in the input set in (a vertex list, or
 * flags over all the vertices; every vertex when neither), arc being the
 * arc's position in g; with first, row v stops at its first call that
 * returns true (BFS: any parent will do). v is written to out, once, when
 * a call returned true. member: n bytes of scratch, used when in is a
 * list. *written (host) gets out's count. Synchronous. */
int mg_op_advance_pull(int dev, int fn, const mg_op_args *a, const mg_op_graph *g, const mg_op_in *in,
                       uint8_t *member, int first, const mg_op_out *out, uint64_t *written, char *err,
                       size_t errlen);
/* Calls fn's vertex on every element of in; with out (may be NULL), the
 * elements for which it returns true are written there, in order when out
 * is a list without bitmap. *written (host) gets out's count. */
int mg_op_filter(int dev, int fn, const mg_op_args *a, const mg_op_in *in, const mg_op_out *out,
                 uint64_t *written, void *temp, uint64_t temp_bytes, char *err, size_t errlen);
/* The sum of fn's measure over in into *sum (host). */
int mg_op_sum(int dev, int fn, const mg_op_args *a, const mg_op_in *in, double *sum, void *temp, uint64_t temp_bytes,
              char *err, size_t errlen);
/* For every vertex v of in, fn's reduced(v, op over v's row of g of fn's
 * value). */
int mg_op_reduce(int dev, int fn, const mg_op_args *a, const mg_op_graph *g, const mg_op_in *in, int op,
                 char *err, size_t errlen);
/* For every arc (u, v) of g (in->list NULL and in->count == g->m) or of
 * the arc list in, fn's common(u, v, arc, |row u ∩ row v|); *total (host)
 * gets the sum of the counts. */
int mg_op_intersect(int dev, int fn, const mg_op_args *a, const mg_op_graph *g, const mg_op_in *in,
                    uint64_t *total, void *temp, uint64_t temp_bytes, char *err, size_t errlen);
/* Counts the arcs of each row of g that fn's edge keeps into
 * offsets[1..n] and scans them (offsets: n+1, the subgraph's); *kept
 * (host) gets the total. */
int mg_op_filter_arcs_count(int dev, int fn, const mg_op_args *a, const mg_op_graph *g, uint64_t *offsets,
                            uint64_t *kept, void *temp, uint64_t temp_bytes, char *err, size_t errlen);
/* Writes the kept arcs, in order, into dst (and weights when g has them),
 * at the subgraph's offsets. */
int mg_op_filter_arcs_write(int dev, int fn, const mg_op_args *a, const mg_op_graph *g, const uint64_t *offsets,
                            uint32_t *dst, uint32_t *weights, char *err, size_t errlen);

/* --- NCCL (nccl.cu): the multi-GPU exchange ----------------------------- */

/* NCCL is loaded at run time from path (dlopen), once per process: builds
 * and machines without it work, and fail only here (MG_ERR_NO_DEVICE).
 * *version gets NCCL's (e.g. 22703 for 2.27.3). */
int mg_nccl_open(const char *path, int *version, char *err, size_t errlen);
/* One communicator per device of devices (n of them, one process: rank i
 * on devices[i]) into comms[0..n). */
int mg_nccl_init_all(int n, const int *devices, void **comms, char *err, size_t errlen);
int mg_nccl_destroy(void *comm, char *err, size_t errlen);
/* Aborts comm (ncclCommAbort): NCCL work queued on it, on any stream,
 * stops, a thread waiting for such a stream returns, and comm is freed
 * (never destroy it afterwards). For a run that stops early: its other
 * ranks may wait in a collective a failed rank will never join. */
int mg_nccl_abort(void *comm, char *err, size_t errlen);
/* Rank rank (of ranks, on device dev) sends send_bytes[q] bytes at
 * send + send_off[q] to every other rank q and receives recv_bytes[q]
 * bytes from it at recv + recv_off[q] (device memory; the sizes agreed
 * beforehand), as one NCCL group queued on stream s (not waited for: the
 * caller synchronizes s, and can abort comm meanwhile). Every rank makes
 * the matching call. */
int mg_nccl_exchange(int dev, void *comm, int ranks, int rank, const void *send, const uint64_t *send_off,
                     const uint64_t *send_bytes, void *recv, const uint64_t *recv_off, const uint64_t *recv_bytes,
                     mg_stream s, char *err, size_t errlen);
/* recv[0..count) = the sum over the ranks of their send[0..count) (device
 * memory, uint64), queued on stream s (not waited for). */
int mg_nccl_all_reduce_sum_u64(int dev, void *comm, const uint64_t *send, uint64_t *recv, uint64_t count, mg_stream s,
                               char *err, size_t errlen);
/* The same over count doubles (partitioned PageRank's sums). */
int mg_nccl_all_reduce_sum_f64(int dev, void *comm, const double *send, double *recv, uint64_t count, mg_stream s,
                               char *err, size_t errlen);

/* --- Partitioned runs on the device (partition.cu) ----------------------- */

/* The most parts a device-resident partitioned run has (one counter of
 * messages per part). */
#define MG_PART_MAX_PEERS 64
/* An update for another part: the vertex's id in its owner (the owner's
 * numbering, partition.Part) and its value; partition.Message's bytes. */
typedef struct {
    uint32_t vertex, value;
} mg_part_msg;
/* A part's conversion tables on its device (partition.Part): local_lid[i],
 * the layout id of owned vertex i; ghost_lid[g], ghost_owner[g] and
 * ghost_remote[g], ghost g's layout id, owner part and id in its owner;
 * owner_start[q] (parts + 1 entries), the first ghost owned by part q
 * (ghosts are ordered by owner); lid_ghost[v] (num_local + num_ghosts
 * entries), the ghost whose layout id is v, or MG_PART_OWNED when the part
 * owns v (the packaging walks the layout's ids in order through it). */
#define MG_PART_OWNED 0xffffffffu
typedef struct {
    uint64_t num_local, num_ghosts;
    uint32_t parts, reserved;
    const uint32_t *local_lid, *ghost_lid, *ghost_owner, *ghost_remote;
    const uint64_t *owner_start;
    const uint32_t *lid_ghost;
} mg_part_tables;
/* What a superstep's packaging and unpackaging leave for the host. */
typedef struct {
    uint64_t next_count; /* owned vertices flagged for the next superstep */
    uint64_t next_edges; /* their out-arcs */
    uint64_t total;      /* the all-reduce's sum of next_count over the parts */
    uint64_t total_edges; /* and of next_edges (the two words reduced at once) */
    uint64_t bad;        /* unpack: messages for vertices the part does not own */
    uint64_t sent[MG_PART_MAX_PEERS]; /* pack: messages for each part */
} mg_part_counters;
/* Packaging, after an iteration: next (n flags) cleared; every owned vertex
 * whose value is below prev[] (its value after the last exchange) gets
 * prev = value and is flagged in next (counted, with its out-arcs by
 * offsets, the layout's sparse offsets); every such ghost gets prev =
 * value and becomes a message in its owner's segment of send (owner_start;
 * send holds num_ghosts messages). The counters are zeroed first. Waits. */
int mg_part_pack(int dev, const mg_part_tables *t, const uint64_t *offsets, const uint32_t *values, uint32_t *prev,
                 uint8_t *next, uint64_t n, mg_part_msg *send, mg_part_counters *ctr, char *err, size_t errlen);
/* Unpackaging: recv[0..received) min-combined into the owned vertices'
 * values; a lowered vertex gets prev lowered too and is flagged in next
 * (whose length is padded to a multiple of 4 bytes) and counted when it
 * was not flagged; messages for vertices not owned are counted in bad.
 * Adds to the counters. Waits. */
int mg_part_unpack(int dev, const mg_part_tables *t, const uint64_t *offsets, const mg_part_msg *recv,
                   uint64_t received, uint32_t *values, uint32_t *prev, uint8_t *next, mg_part_counters *ctr,
                   char *err, size_t errlen);
/* CC's start: every vertex's value its original id (global, the part's
 * numbering), the owned vertices flagged (flags has n entries). Waits. */
int mg_part_labels(int dev, const mg_part_tables *t, const uint32_t *global, uint32_t *values, uint8_t *flags,
                   uint64_t n, char *err, size_t errlen);
/* CC by hooking over parts: every vertex's label (values, its original id
 * to start with) spreads to its part's component, whose root is parent[v]
 * (mg_cc_hook_all, compressed): each vertex flagged in flags (all n
 * vertices when flags is NULL) lowers its root's label to its own, then
 * every vertex takes its root's label. Waits. */
int mg_part_cc_roots(int dev, const uint32_t *parent, const uint8_t *flags, uint32_t *values, uint64_t n, char *err,
                     size_t errlen);
/* out[i] = values[local_lid[i]] for the owned vertices. Waits. */
int mg_part_gather(int dev, const mg_part_tables *t, const uint32_t *values, uint32_t *out, char *err, size_t errlen);
/* The result's assembly on one device: full[ids[i]] = vals[i] for
 * i < count (the parts' owned values and their original ids, each id
 * once). Waits. */
int mg_part_scatter(int dev, const uint32_t *vals, const uint32_t *ids, uint64_t count, uint32_t *full, char *err,
                    size_t errlen);
/* The levels' broadcast of a BFS over parts (bfs-tree's parent pass, and
 * the supersteps before a pull step): every part's boundary vertices'
 * levels go to the parts that hold them as ghosts. mg_part_bcast_pack:
 * send[i] = values[recv_lid[i]] for i < count (recv_lid lists, for each
 * other part in turn, the layout ids of this part's vertices that are its
 * ghosts, in its ghost order). mg_part_bcast_unpack: values[ghost_lid[g]]
 * = recv[g] for every ghost (recv in the ghosts' order: by owner, as each
 * owner sent them); with prev, prev takes it too, and with flags the
 * ghost's flag is set to whether it equals level (the frontier of a pull
 * step). Wait. */
int mg_part_bcast_pack(int dev, const uint32_t *values, const uint32_t *recv_lid, uint64_t count, uint32_t *send,
                       char *err, size_t errlen);
int mg_part_bcast_unpack(int dev, const mg_part_tables *t, const uint32_t *recv, uint32_t *values, uint32_t *prev,
                         uint8_t *flags, uint32_t level, char *err, size_t errlen);
/* Then every owned vertex's parent from the levels (values; ghosts' true
 * levels too) and its out-row, which in a part of an undirected graph
 * lists all its neighbours (sparse offsets and dst, rows sorted): level 0
 * gives its own original id, the identity (0xffffffff) none
 * (0xffffffff), any other level the original id (orig_by_lid, one per
 * layout id) of the first neighbour one level up. parents has n entries;
 * the ghosts' are left as they were. A reached vertex without such a
 * neighbour is counted in ctr->bad (the counters are zeroed first). Waits. */
int mg_part_parents(int dev, const mg_part_tables *t, const uint64_t *offsets, const uint32_t *dst,
                    const uint32_t *values, const uint32_t *orig_by_lid, uint32_t *parents, mg_part_counters *ctr,
                    char *err, size_t errlen);
/* Lets device dev read and write peer's memory directly (NVLink or PCIe),
 * so that copies between them (mg_copy_peer) no longer go through host
 * memory: *enabled is 1 when it is (or already was), 0 when the devices
 * cannot (or dev == peer). One direction; once per process. */
int mg_enable_peer_access(int dev, int peer, int *enabled, char *err, size_t errlen);
/* bytes from src on device src_dev to dst on device dst_dev (the same or
 * another: cudaMemcpyPeer). Synchronous. */
int mg_copy_peer(int dst_dev, void *dst, int src_dev, const void *src, uint64_t bytes, char *err, size_t errlen);

/* --- k-core, MIS and colouring over parts on the device (partstate.cu) --- */

/* A part's state for partition.RunKCore, RunMIS and RunColor on its
 * device. state is the part's values (n = num_local + num_ghosts, by
 * layout id): core number, MIS state (0 out, 1 in) or colour, and
 * MG_STATE_UNSET while live or undecided; the ghosts' are their owners'
 * as last broadcast (mg_part_bcast_pack, mg_part_bcast_unpack). deg (n):
 * colouring's degrees, row lengths (the ghosts' broadcast from their
 * owners); k-core's live degrees in distinct neighbours of the owned
 * vertices, and at a ghost the decrements its owner is to get. orig (n):
 * every layout id's original id (the priorities' and ties'). list holds
 * the owned vertices still live or undecided (num of them, given to each
 * step), next_list those after a compacting step, removed the vertices a
 * peel removed, touched the ghosts whose decrements a drop counted. send
 * and recv: the superstep's message buffers (segments by owner, as
 * mg_part_pack's). */
#define MG_STATE_UNSET 0xffffffffu
typedef struct {
    const uint64_t *offsets; /* the part's out-rows (sparse CSR, rows sorted); undirected: every neighbour */
    const uint32_t *dst;
    const uint32_t *orig;
    uint32_t *state, *deg;
    uint8_t *win;            /* n flags: a round's winners */
    uint32_t *list, *next_list, *removed; /* num_local entries each */
    uint32_t *touched;                    /* num_ghosts entries: the ghosts a drop counted for */
    unsigned long long *num_touched;      /* their number */
    mg_part_msg *send;
    const mg_part_msg *recv;
} mg_part_state;
/* The steps of mg_part_state_step (num: the entries of list, or the
 * messages received for UNPACK; a as given):
 * START_MIS, START_KCORE: every vertex undecided (the ghosts too), every
 *   owned one listed, its deg its row's length (k-core: its distinct
 *   neighbours other than itself), the ghosts' deg 0;
 * MARK, MARK_COLOUR: win = no undecided neighbour beats the vertex in
 *   round a's (priority, original id), colouring's (degree, priority,
 *   original id);
 * JOIN: the winners join the set (state 1);
 * EXCLUDE: an undecided vertex with a neighbour in the set leaves (0);
 * COLOUR: a winner takes the smallest colour no neighbour has;
 * COMPACT: the counters zeroed; next_list = the listed vertices still
 *   undecided, ctr->next_count their number;
 * PEEL: the counters and touched list emptied; a live listed vertex of deg
 *   below k = a is removed (core k−1) into removed (ctr->next_edges: how
 *   many), the others into next_list (ctr->next_count); the removed
 *   vertices' distinct neighbours lose a degree (a ghost's counted at the
 *   ghost, which is listed in touched); every touched ghost's count becomes
 *   a message to its owner, ctr->sent per owner (the count zeroed);
 * UNPACK: a live owned vertex loses the counts sent to it (not below 0);
 *   ctr->bad counts messages for vertices the part does not own.
 * Waits. */
enum {
    MG_STATE_START_MIS = 1,
    MG_STATE_START_KCORE = 2,
    MG_STATE_MARK = 3,
    MG_STATE_MARK_COLOUR = 4,
    MG_STATE_JOIN = 5,
    MG_STATE_EXCLUDE = 6,
    MG_STATE_COLOUR = 7,
    MG_STATE_COMPACT = 8,
    MG_STATE_PEEL = 9,
    MG_STATE_UNPACK = 10
};
int mg_part_state_step(int dev, const mg_part_tables *t, const mg_part_state *s, int op, uint64_t num, uint64_t a,
                       mg_part_counters *ctr, char *err, size_t errlen);

/* --- Triangle counting over parts on the device (parttc.cu) ------------ */

/* Counts a part's triangles (partition.RunTriangles): rows (offsets,
 * num_rows + 1 entries; adj) list vertices' neighbours above them in
 * (degree, original id) order, in original ids, sorted; the first rows
 * are the part's owned vertices, the others the ghosts they name. Arc e
 * of the owned rows (num_arcs = their arcs, the first entries of adj)
 * goes from row arc_src[e] to the row of its destination, arc_row[e]:
 * their rows' common vertices are triangles, counted into *total (zeroed
 * first); with per_row (num_rows counters, zeroed first) each adds 1 to
 * its three vertices' rows. Waits. */
int mg_part_triangles(int dev, const uint64_t *offsets, const uint32_t *adj, const uint32_t *arc_src,
                      const uint32_t *arc_row, uint64_t num_arcs, unsigned long long *total,
                      unsigned long long *per_row, uint64_t num_rows, char *err, size_t errlen);

/* --- Minimum spanning forest over parts on the device (partmsf.cu) ------ */

/* One Borůvka round's scan of a part (partition.RunMSF): for every owned
 * vertex (owned[i], its layout id; its row in offsets, dst and weights,
 * NULL weights weighing 1), its lightest edge to a vertex of another
 * component (comp, by layout id), in the order (weight, lesser original
 * id, greater; orig by layout id): out[3i..3i+2] = (w, u, v), u < v, or
 * three 0xffffffff without one. Waits. */
int mg_part_msf_lightest(int dev, const uint64_t *offsets, const uint32_t *dst, const uint32_t *weights,
                         const uint32_t *owned, uint64_t num_owned, const uint32_t *orig, const uint32_t *comp,
                         uint32_t *out, char *err, size_t errlen);

/* --- Partitioned PageRank on the device (partrank.cu, pagerank.cu) ------ */

/* The pull scheme's gather alone (mg_pr_pull_step's first kernel): acc[v]
 * += the shares of v's in-neighbours, for every vertex of the layout
 * (nothing once sums->done; nothing for a layout of no vertex, whose
 * buffers may be NULL). With panels (a class byte per row panel, or NULL
 * for all), only the row panels whose class is want (a byte). On stream
 * s: waits when s is NULL (the default stream), else returns once
 * queued. */
int mg_pr_pull_gather(int dev, const mg_dlayout *l, const mg_pr_pull *p, const double *share, double *acc,
                      const mg_pr_sums *sums, const uint8_t *panels, uint32_t want, mg_stream s, char *err,
                      size_t errlen);
/* A part's start: share and acc (n doubles, the part's layout) zeroed;
 * every owned vertex (owned[i], its layout id) gets rank r0·w and share
 * rank/outdeg by offsets (0 when dangling), w its teleport weight: 1
 * everywhere when teleport is NULL, else (a personalised run) p where its
 * bit in teleport (n bits by layout id) is set and 0 elsewhere;
 * *dangling counts the dangling owned vertices whose rank is not 0.
 * Waits. */
int mg_part_pr_init(int dev, const uint64_t *offsets, const uint32_t *owned, uint64_t num_owned, uint64_t n,
                    double r0, const uint32_t *teleport, double p, double *rank, double *share, double *acc,
                    uint64_t *dangling, char *err, size_t errlen);
/* send[g] = acc[ghost_lid[g]], which is then zeroed, for every ghost g
 * (ordered by owner: send holds the owners' segments). Waits. */
int mg_part_pr_pack(int dev, const uint32_t *ghost_lid, uint64_t num_ghosts, double *acc, double *send, char *err,
                    size_t errlen);
/* acc[recv_lid[i]] += recv[i] for i < count (atomically). Waits. */
int mg_part_pr_unpack(int dev, const double *recv, const uint32_t *recv_lid, uint64_t count, double *acc, char *err,
                      size_t errlen);
/* For every owned vertex v: rank = base·w + damping·acc[v] (w its
 * teleport weight, as mg_part_pr_init's), acc[v] = 0, its share; sums[0]
 * = Σ|Δrank| and sums[1] = Σ rank of the dangling ones, over the owned
 * vertices (zeroed first). Waits. */
int mg_part_pr_apply(int dev, const uint64_t *offsets, const uint32_t *owned, uint64_t num_owned, double base,
                     double damping, const uint32_t *teleport, double p, double *rank, double *share, double *acc,
                     double *sums, char *err, size_t errlen);
/* Partitioned HITS and SALSA (parthits.cu) over a part's PageRank state:
 * the authority step is mg_pr_pull_gather with share from the hubs
 * (MG_HITS_SHARE), the ghosts' sums packed, exchanged and unpacked as
 * PageRank's; the hub step sums y over the owned vertices' out-arcs, y
 * (the authority, SALSA's divided by the in-degree) broadcast by each
 * owner to the ghosts' parts. Arrays by layout id (n doubles each) but
 * sums (the part's two partial sums) and the broadcast buffers. */
typedef struct {
    const uint64_t *offsets;  /* the part's out-rows (sparse CSR) */
    const uint32_t *dst;
    const uint32_t *owned;    /* the owned vertices' layout ids */
    uint64_t num_owned;
    int salsa;
    double *share, *acc;      /* the PageRank state's */
    double *hub, *auth, *cnt, *next, *y;
    double *sums;             /* 2 doubles */
    const uint32_t *send_lid; /* the owned vertices that are ghosts elsewhere, in the holders' ghost order */
    uint64_t num_send;
    double *send;             /* num_send doubles */
    const uint32_t *ghost_lid;
    uint64_t num_ghosts;
    double *recv;             /* num_ghosts doubles, in ghost order */
} mg_part_hits;
/* The steps of mg_part_hits_step (a and b as given):
 * SHARE: share = hub (SALSA: hub/outdeg); SHARE_ONES: share = 1;
 * COUNTS: cnt = acc (in-degrees), acc = 0, sums = (vertices with out-arcs,
 * with in-arcs); START: hub = a, auth = b (SALSA: where there are out-,
 * in-arcs; 0 elsewhere); ACC_SUM: sums[0] = Σ acc; AUTH: auth = acc·a,
 * acc = 0, y = auth (SALSA: auth/cnt), sums = (0, Σ|Δauth|); HUB: next =
 * Σ y over the out-arcs, sums[0] = Σ next; HUB_APPLY: hub = next·a,
 * sums[0] = Σ|Δhub| (the hub steps keep sums[1]); BCAST_PACK: send[i] =
 * y[send_lid[i]]; BCAST_UNPACK: y[ghost_lid[g]] = recv[g]. Over the owned
 * vertices. Waits. */
enum {
    MG_HITS_SHARE = 1,
    MG_HITS_SHARE_ONES = 2,
    MG_HITS_COUNTS = 3,
    MG_HITS_START = 4,
    MG_HITS_ACC_SUM = 5,
    MG_HITS_AUTH = 6,
    MG_HITS_HUB = 7,
    MG_HITS_HUB_APPLY = 8,
    MG_HITS_BCAST_PACK = 9,
    MG_HITS_BCAST_UNPACK = 10
};
int mg_part_hits_step(int dev, const mg_part_hits *h, int op, double a, double b, char *err, size_t errlen);
/* Partitioned pr-delta (partdelta.cu) over a part's PageRank state: a
 * superstep is mg_pr_pull_gather of the shares (the active vertices'; 0
 * elsewhere), the ghosts' sums packed, exchanged and unpacked as
 * PageRank's, then MG_DELTA_APPLY. Arrays by layout id, over the owned
 * vertices (owned[i]); x is the absorbed mass (the PRRun's ranks), sums
 * the part's two partial sums (zeroed first by every step). */
typedef struct {
    const uint64_t *offsets; /* the part's out-rows (sparse CSR): the out-degrees */
    const uint32_t *owned;
    uint64_t num_owned;
    double *share, *acc;     /* the PageRank state's */
    double *x, *residual;
    double *sums;            /* 2 doubles */
} mg_part_delta;
/* The steps of mg_part_delta_step (n: the layout's vertices; a, b as
 * given): START: share and acc (n each) zeroed, every owned vertex x = 1,
 * residual 0, share = a·1/outdeg (a: the damping; 0 without out-arcs);
 * APPLY: r = residual + acc, acc = 0; r > b (eps): x += r, residual 0,
 * share a·r/outdeg, counted in sums[0]; else residual = r, share 0;
 * MASS: sums[0] = Σ x; SCALE: x *= a. Waits. */
enum { MG_DELTA_START = 1, MG_DELTA_APPLY = 2, MG_DELTA_MASS = 3, MG_DELTA_SCALE = 4 };
int mg_part_delta_step(int dev, const mg_part_delta *p, int op, uint64_t n, double a, double b, char *err, size_t errlen);
/* full[ids[i]] = vals[i] for i < count (a part's range of the result,
 * from every part's owned ranks in it). Waits. */
int mg_part_pr_scatter(int dev, const double *vals, const uint32_t *ids, uint64_t count, double *full, char *err,
                       size_t errlen);
/* out[i] = rank[owned[i]] for i < num_owned. Waits. */
int mg_part_pr_gather(int dev, const uint32_t *owned, uint64_t num_owned, const double *rank, double *out, char *err,
                      size_t errlen);

/* --- NVTX ranges (nvtx.cu) ---------------------------------------------- */

/* Named ranges on the Nsight Systems timeline; without a tool attached
 * they do nothing and cannot fail. mg_nvtx_push/mg_nvtx_pop nest per OS
 * thread; mg_nvtx_start/mg_nvtx_end are process-wide (start returns the id
 * end takes), for callers such as Go whose code may move between threads. */
void mg_nvtx_push(const char *name);
void mg_nvtx_pop(void);
uint64_t mg_nvtx_start(const char *name);
void mg_nvtx_end(uint64_t id);

/* --- Partitioned betweenness centrality on the device (partbc.cu) ------- */
/* (This section: partition.RunBC's device parts, cuda/partbc.go.) A part of
 * a partitioned Brandes BC keeps its levels, path counts σ, offers
 * (1+δ)/σ and scores on its device, over its layout (layout ids): every
 * forward level claims and sums on the part, sends every ghost's σ sum to
 * its owner (ghost_buf, a value per ghost in owner order: 0 = not claimed
 * at this level) and adds the sums it receives (copy_buf, a value per
 * ghost copy of its vertices in the other parts, by part); every backward
 * level publishes the offers of the part's vertices to the parts that hold
 * them as ghosts (copy_buf: MG_PART_BC_NO_OFFER where the vertex is not at
 * the level asked) and takes its ghosts' (ghost_buf). mg_part_bc_forward
 * and mg_part_bc_backward wait for the device; mg_part_bc_start is queued
 * on the legacy default stream, and mg_part_bc_receive, mg_part_bc_publish
 * and mg_part_bc_read_counters on stream s (NULL: the legacy default
 * stream), without waiting. */

/* The level of a vertex not reached. */
#define MG_PART_BC_UNVISITED 0xffffffffu
/* A published offer for a vertex not at the level asked (offers are never
 * negative). */
#define MG_PART_BC_NO_OFFER (-1.0)
/* A row (out- or in-) of more arcs is summed by a block instead of a warp
 * when hub_list has room (else by its warp); a layout of m arcs has fewer
 * than m / MG_PART_BC_HUB_ARCS + 1 such rows of each kind. */
#define MG_PART_BC_HUB_ARCS 1024

/* What a forward level leaves for the host. */
typedef struct {
    uint64_t count;    /* owned vertices the level reached (claimed here or received) */
    uint64_t ghosts;   /* ghosts the level claimed (claimed[0..ghosts)) */
    uint64_t total;    /* the all-reduce's sum of count over the parts */
    uint64_t hubs;     /* rows listed for a block each (scratch of the calls) */
} mg_part_bc_counters;

/* A part's BC state on its device. */
typedef struct {
    uint64_t n;          /* vertices of the part's layout (owned and ghosts) */
    uint64_t num_local;  /* owned vertices: order's capacity */
    uint64_t num_ghosts; /* ghosts: ghost_lid's, claimed's and ghost_buf's length */
    uint64_t num_recv;   /* ghost copies of the part's vertices elsewhere: recv_lid's and copy_buf's length */
    const uint64_t *offsets;    /* out-adjacency: the layout's sparse part (n+1) */
    const uint32_t *dst;
    const uint64_t *in_offsets; /* in-adjacency (mg_transpose; n+1) */
    const uint32_t *in_src;
    const uint32_t *ghost_bits; /* bit v of word v/32: layout id v is a ghost */
    const uint32_t *ghost_lid;  /* ghost g's layout id, ghosts ordered by owner */
    const uint32_t *recv_lid;   /* the copies' layout ids: for each other part in turn, in its ghost order */
    uint32_t *level;            /* n levels */
    double *sigma, *offer, *score; /* n each */
    uint32_t *order;            /* the owned vertices reached, level after level */
    uint32_t *claimed;          /* the ghosts (layout ids) claimed by the current forward level */
    double *ghost_buf;          /* a value per ghost */
    double *copy_buf;           /* a value per copy */
    uint32_t *hub_list;         /* hub_cap entries: rows of more than MG_PART_BC_HUB_ARCS arcs */
    uint64_t hub_cap;
    mg_part_bc_counters *ctr;
} mg_part_bc;

/* A source's start: every level MG_PART_BC_UNVISITED; source (a layout id;
 * MG_PART_BC_UNVISITED: the part does not own it) at level 0 with σ = 1,
 * order[0] = source. Queued on the legacy default stream (no wait). */
int mg_part_bc_start(int dev, const mg_part_bc *p, uint32_t source, char *err, size_t errlen);
/* Forward level d on the part: the counters zeroed; every owned vertex
 * order[front_start .. front_start+front_count) (level d−1) claims its
 * unreached out-neighbours for level d (atomic compare-and-swap): an owned
 * one is appended to order from front_start+front_count (ctr->count), a
 * ghost to claimed (ctr->ghosts); then every vertex claimed gets σ = the
 * sum of σ over its in-neighbours at level d−1 (a warp per vertex, in a
 * fixed order); then ghost_buf[g] = σ of ghost g if it is at level d, else
 * 0. Rows of more than MG_PART_BC_HUB_ARCS arcs take a block each. */
int mg_part_bc_forward(int dev, const mg_part_bc *p, uint32_t d, uint64_t front_start, uint64_t front_count,
                       char *err, size_t errlen);
/* The owners' side of forward level d: copy_buf holds, for every other part
 * q (parts in index order, self skipped; recv_start, parts+1 host values,
 * bounds q's copies), q's σ sums; a nonzero sum for a vertex still
 * unreached gives it level d and that σ (appended to order from base,
 * counted in ctr->count), one for a vertex at level d is added to its σ.
 * The parts' segments are added one after the other, in part order.
 * Queued on stream s (no wait). */
int mg_part_bc_receive(int dev, const mg_part_bc *p, uint32_t d, uint64_t base, int parts, int self,
                       const uint64_t *recv_start, mg_stream s, char *err, size_t errlen);
/* Backward level d, the publishing side: copy_buf[i] = the offer of copy
 * i's vertex if it is at level d+1, else MG_PART_BC_NO_OFFER. Queued on
 * stream s (no wait). */
int mg_part_bc_publish(int dev, const mg_part_bc *p, uint32_t d, mg_stream s, char *err, size_t errlen);
/* Copies the counters (p->ctr) to host, page-locked memory for the copy to
 * be asynchronous: queued on stream s (no wait). */
int mg_part_bc_read_counters(int dev, const mg_part_bc *p, mg_part_bc_counters *host, mg_stream s, char *err,
                             size_t errlen);
/* Backward level d: every ghost the part has at level d+1 takes its offer
 * from ghost_buf, or is unmarked (MG_PART_BC_UNVISITED) when its owner
 * published none (it is not at d+1 there); then every owned vertex v of
 * order[start .. start+count) (level d) gets δ = σ(v)·Σ offer(w) over its
 * out-arcs v→w with w at level d+1 (a warp per vertex, in a fixed order),
 * offer(v) = (1+δ)/σ(v) and score(v) += δ. */
int mg_part_bc_backward(int dev, const mg_part_bc *p, uint32_t d, uint64_t start, uint64_t count, char *err,
                        size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* MGRAPH_KERNELS_H */
