#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ __forceinline__ void cl_arrive_relaxed() { asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory"); }
__device__ __forceinline__ void cl_arrive() { asm volatile("barrier.cluster.arrive.aligned;" ::: "memory"); }
__device__ __forceinline__ void cl_wait() { asm volatile("barrier.cluster.wait.aligned;" ::: "memory"); }
__device__ __forceinline__ void arrive_relaxed_wait() { cl_arrive_relaxed(); cl_wait(); }
template <int MODE>
__global__ void k(int iters, unsigned *g, unsigned long long *out) {
  __shared__ unsigned sh[1024];
  cg::cluster_group cl = cg::this_cluster();
  unsigned r = cl.block_rank(), C = cl.num_blocks();
  sh[threadIdx.x] = 0;
  cl.sync();
  unsigned long long t0 = clock64();
  unsigned acc = 0, ring[4] = {0, 0, 0, 0};
  for (int i = 0; i < iters; i++) {
    if (MODE == 0) cl.sync();
    if (MODE == 1) arrive_relaxed_wait();
    if (MODE == 2) { g[(r * 1024 + threadIdx.x) * 8 + (i & 7)] = i; cl.sync(); }
    if (MODE == 3) { unsigned *p = cl.map_shared_rank(&sh[threadIdx.x], (r + 1) % C); acc += atomicAdd(p, 1u); cl.sync(); }
    if (MODE == 4) __syncthreads();
    if (MODE == 5) { unsigned *p = cl.map_shared_rank(&sh[threadIdx.x], (r + 1) % C); acc += atomicAdd(p, 1u); __syncthreads(); }
    if (MODE == 6) { acc += __ldcg(&g[((r * 1024 + threadIdx.x) * 8 + acc) % (1u<<26)]); __syncthreads(); }
    if (MODE == 7) { acc += __ldcg(&g[((r * 1024 + threadIdx.x) * 8 + acc) % (1u<<26)]); cl.sync(); }
    if (MODE == 8) { if (threadIdx.x < 32) { unsigned *p = cl.map_shared_rank(&sh[threadIdx.x], (r + 1) % C); acc += *p; } cl.sync(); }
    if (MODE == 9) { g[(r * 1024 + threadIdx.x) * 8 + (i & 7)] = i; __syncthreads(); }
    // 10: an independent global load in flight (consumed 4 iterations later) across cl.sync
    if (MODE == 10) { ring[i & 3] = __ldcg(&g[((r * 1024 + threadIdx.x) * 8 + i * 131072) % (1u<<26)]); acc += ring[(i + 1) & 3]; cl.sync(); }
    // 11: a global store between arrive (release) and wait
    if (MODE == 11) { cl_arrive(); g[(r * 1024 + threadIdx.x) * 8 + (i & 7)] = i; cl_wait(); }
    // 12: the level loop: store own shared x, cl.sync, dependent DSMEM load of a neighbour's x
    if (MODE == 12) { sh[threadIdx.x] = acc + i; cl.sync(); acc += *cl.map_shared_rank(&sh[(threadIdx.x * 7 + acc) & 1023], (r + 1 + (acc & 1)) % C); }
    // 13: 12 with a global store of the level's result right after the barrier (waited by the next release)
    if (MODE == 13) { sh[threadIdx.x] = acc + i; cl.sync(); g[(r * 1024 + threadIdx.x) * 8 + (i & 7)] = acc; acc += *cl.map_shared_rank(&sh[(threadIdx.x * 7 + acc) & 1023], (r + 1 + (acc & 1)) % C); }
    // 14: 13 with the store between arrive and wait
    if (MODE == 14) { sh[threadIdx.x] = acc + i; cl_arrive(); g[(r * 1024 + threadIdx.x) * 8 + (i & 7)] = acc; cl_wait(); acc += *cl.map_shared_rank(&sh[(threadIdx.x * 7 + acc) & 1023], (r + 1 + (acc & 1)) % C); }
    // 15: 12 plus independent global loads in flight (as 10)
    if (MODE == 15) { ring[i & 3] = __ldcg(&g[((r * 1024 + threadIdx.x) * 8 + i * 131072) % (1u<<26)]); sh[threadIdx.x] = acc + ring[(i + 1) & 3]; cl.sync(); acc += *cl.map_shared_rank(&sh[(threadIdx.x * 7 + acc) & 1023], (r + 1 + (acc & 1)) % C); }
    // 16: 12 with the x window double-buffered and arrive.relaxed + fence.acq_rel.cluster? no: arrive (release) only after shared store, relaxed wait
    if (MODE == 16) { sh[threadIdx.x] = acc + i; cl_arrive_relaxed(); cl_wait(); acc += *cl.map_shared_rank(&sh[(threadIdx.x * 7 + acc) & 1023], (r + 1 + (acc & 1)) % C); }
    // 17: block level: shared store, __syncthreads, dependent shared load (the block back pass)
    // 18: global store, relaxed cluster barrier (no memory ordering)
    if (MODE == 18) { g[(r * 1024 + threadIdx.x) * 8 + (i & 7)] = i; arrive_relaxed_wait(); }
    // 19: global store, fence.cta, relaxed cluster barrier
    if (MODE == 19) { g[(r * 1024 + threadIdx.x) * 8 + (i & 7)] = i; __threadfence_block(); arrive_relaxed_wait(); }
    // 20: global store, shared store, fence.cta, relaxed barrier, dependent shared load
    if (MODE == 20) { g[(r * 1024 + threadIdx.x) * 8 + (i & 7)] = i; sh[threadIdx.x] = acc + i; __threadfence_block(); arrive_relaxed_wait(); acc += sh[(threadIdx.x * 7 + acc) & 1023]; }
    // 21: global store, bar.arrive by half, bar.sync by the other half (named barrier 1)
    if (MODE == 21) { g[(r * 1024 + threadIdx.x) * 8 + (i & 7)] = i; asm volatile("bar.sync 1, 1024;" ::: "memory"); }
    // 22: global store .relaxed.gpu (st.relaxed) + __syncthreads
    if (MODE == 22) { asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" :: "l"(&g[(r * 1024 + threadIdx.x) * 8 + (i & 7)]), "r"(i) : "memory"); __syncthreads(); }
    // 23: only warp 0 stores, then __syncthreads
    if (MODE == 23) { if (threadIdx.x < 32) g[(r * 1024 + threadIdx.x) * 8 + (i & 7)] = i; __syncthreads(); }
    // 24: global store issued, then a 600-cycle spin, then __syncthreads (does the wait shrink?)
    if (MODE == 24) { g[(r * 1024 + threadIdx.x) * 8 + (i & 7)] = i; long long t = clock64(); while (clock64() - t < 600) {} __syncthreads(); }
    // 25: a 600-cycle spin alone, then __syncthreads
    if (MODE == 25) { long long t = clock64(); while (clock64() - t < 600) {} __syncthreads(); }
    if (MODE == 17) { sh[threadIdx.x] = acc + i; __syncthreads(); acc += sh[(threadIdx.x * 7 + acc) & 1023]; }
  }
  unsigned long long t1 = clock64();
  if (threadIdx.x == 0 && r == 0) out[0] = t1 - t0;
  if (acc == 12345678) g[0] = acc;
  cl.sync();
}
template <int MODE> void run(int C, unsigned *g, unsigned long long *out, const char *name) {
  cudaLaunchConfig_t cfg = {}; cfg.gridDim = dim3(C); cfg.blockDim = dim3(1024);
  cudaLaunchAttribute a; a.id = cudaLaunchAttributeClusterDimension; a.val.clusterDim.x = C; a.val.clusterDim.y = 1; a.val.clusterDim.z = 1;
  cfg.attrs = &a; cfg.numAttrs = 1;
  cudaFuncSetAttribute(k<MODE>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  int iters = 10000;
  cudaLaunchKernelEx(&cfg, k<MODE>, iters, g, out);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  cudaEventRecord(e0);
  cudaLaunchKernelEx(&cfg, k<MODE>, iters, g, out);
  cudaEventRecord(e1); cudaEventSynchronize(e1);
  float ms; cudaEventElapsedTime(&ms, e0, e1);
  unsigned long long cyc; cudaMemcpy(&cyc, out, 8, cudaMemcpyDeviceToHost);
  cudaError_t e = cudaGetLastError();
  printf("C=%2d %-40s %.3f us/iter (%llu cycles/iter) %s\n", C, name, ms * 1000 / iters, cyc / iters, e ? cudaGetErrorString(e) : "");
}
int main() {
  unsigned *g; unsigned long long *out; cudaMalloc(&g, (1u << 26) * 4 + 1024 * 16 * 32 * 4); cudaMalloc(&out, 8); cudaMemset(g, 0, (1u<<26)*4);
  for (int C : {1}) {
    run<4>(C, g, out, "__syncthreads");
    run<9>(C, g, out, "global store + __syncthreads");
    run<1>(C, g, out, "arrive.relaxed+wait");
    run<18>(C, g, out, "global store + relaxed cluster barrier");
    run<19>(C, g, out, "global store + fence.cta + relaxed barrier");
    run<20>(C, g, out, "20: store, shared, fence.cta, relaxed, load");
    run<17>(C, g, out, "shared x; syncthreads; load");
    run<21>(C, g, out, "global store + bar.sync 1");
    run<22>(C, g, out, "st.relaxed.gpu + __syncthreads");
    run<23>(C, g, out, "warp 0 stores + __syncthreads");
    run<24>(C, g, out, "store, 600-cycle spin, __syncthreads");
    run<25>(C, g, out, "600-cycle spin, __syncthreads");
  }
}
