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
  for (int C : {2, 8, 16}) {
    run<0>(C, g, out, "cl.sync");
    run<1>(C, g, out, "arrive.relaxed+wait");
    run<2>(C, g, out, "global store + cl.sync");
    run<3>(C, g, out, "dsmem atomic + cl.sync");
    run<4>(C, g, out, "__syncthreads");
    run<5>(C, g, out, "dsmem atomic + __syncthreads");
    run<6>(C, g, out, "dependent global load (L2) + syncthreads");
    run<7>(C, g, out, "dependent global load (L2) + cl.sync");
    run<8>(C, g, out, "warp0 dsmem read + cl.sync");
    run<9>(C, g, out, "global store + __syncthreads");
    run<10>(C, g, out, "global load in flight + cl.sync");
    run<11>(C, g, out, "arrive; global store; wait");
    run<12>(C, g, out, "shared x; cl.sync; dsmem load");
    run<13>(C, g, out, "12 + global store after sync");
    run<14>(C, g, out, "12 + store between arrive and wait");
    run<15>(C, g, out, "12 + global loads in flight");
    run<16>(C, g, out, "12 with relaxed arrive (unsafe)");
    run<17>(C, g, out, "block: shared x; syncthreads; load");
  }
}
