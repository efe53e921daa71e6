#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ __forceinline__ void arrive_relaxed_wait() {
  __cluster_barrier_arrive_relaxed();
  __cluster_barrier_wait();
}
template <int MODE>
__global__ void k(int iters, unsigned *g, unsigned long long *out) {
  __shared__ unsigned sh[1024];
  cg::cluster_group cl = cg::this_cluster();
  unsigned r = cl.block_rank(), C = cl.num_blocks();
  sh[threadIdx.x] = 0;
  cl.sync();
  unsigned long long t0 = clock64();
  unsigned acc = 0;
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
    if (MODE == 10 || MODE == 11 || MODE == 12) {  // a pull level over a shared window: read, 8-lane sum, divide, write
      unsigned pre = 0;
      if (MODE == 12) pre = __ldg(&g[(r * 1024 + threadIdx.x) * 8 + (i & 7)]);  // a static load, not dependent
      double x = ((double *)sh)[(i & 1) * 256 + ((threadIdx.x * 7 + acc + pre) & 255)];
      for (int o = 4; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
      if ((threadIdx.x & 7) == 0) ((double *)sh)[(1 - (i & 1)) * 256 + (threadIdx.x >> 3)] = (1.0 + x) / (x + 3.0);
      if (MODE == 11 && (threadIdx.x & 7) == 0) g[(r * 1024 + threadIdx.x) * 8 + (i & 7)] = (unsigned)x;
      acc += (unsigned)x & 1;
      __syncthreads();
    }
    if (MODE == 13) { g[(r * 1024 + threadIdx.x) * 8 + (i & 7)] = i; arrive_relaxed_wait(); }
    if (MODE == 14 || MODE == 15) {  // an independent load in flight across the barrier, used after it
      unsigned pre = __ldcg(&g[((r * 1024 + threadIdx.x) * 8 + i * 131072) % (1u<<26)]);
      if (MODE == 14) cl.sync(); else arrive_relaxed_wait();
      acc += pre;
    }
    if (MODE == 16 || MODE == 17 || MODE == 18) {  // split roles: warps 0-15 compute over DSMEM (release), 16-31 do global memory (relaxed)
      const bool memw = threadIdx.x >= 512;
      unsigned pre = 0;
      if (memw) {
        if (MODE != 17) g[(r * 1024 + threadIdx.x) * 8 + (i & 7)] = i;
        if (MODE == 18) pre = __ldcg(&g[((r * 1024 + threadIdx.x) * 8 + i * 131072) % (1u<<26)]);
        __cluster_barrier_arrive_relaxed();
      } else {
        unsigned *p = cl.map_shared_rank(&sh[threadIdx.x], (r + 1) % C);
        acc += *p;   // a DSMEM read of what the neighbour wrote last level
        sh[threadIdx.x] = acc + i;  // a local write others read next level
        __cluster_barrier_arrive();
      }
      __cluster_barrier_wait();
      acc += pre;
    }
    if (MODE == 19) {  // every thread: DSMEM read, local write, cl.sync (the window design without global traffic)
      unsigned *p = cl.map_shared_rank(&sh[threadIdx.x], (r + 1) % C);
      acc += *p; sh[threadIdx.x] = acc + i; cl.sync();
    }
    if (MODE == 20) {  // as 19 plus a global store by every thread (b44's flush)
      unsigned *p = cl.map_shared_rank(&sh[threadIdx.x], (r + 1) % C);
      acc += *p; sh[threadIdx.x] = acc + i; g[(r * 1024 + threadIdx.x) * 8 + (i & 7)] = i; cl.sync();
    }
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
  for (int C : {16}) {
    run<0>(C, g, out, "cl.sync");
    run<1>(C, g, out, "arrive.relaxed+wait");
    run<2>(C, g, out, "global store + cl.sync");
    run<13>(C, g, out, "global store + arrive.relaxed+wait");
    run<7>(C, g, out, "dependent global load (L2) + cl.sync");
    run<14>(C, g, out, "independent load in flight + cl.sync");
    run<15>(C, g, out, "independent load in flight + relaxed");
    run<19>(C, g, out, "dsmem read + local write + cl.sync");
    run<20>(C, g, out, "19 + global store + cl.sync");
    run<17>(C, g, out, "split: dsmem warps release, mem warps idle relaxed");
    run<16>(C, g, out, "split: + mem warps global store relaxed");
    run<18>(C, g, out, "split: + mem warps store + load in flight");
  }
}
