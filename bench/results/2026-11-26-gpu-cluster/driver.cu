// driver.cu — standalone check and timing of kernels/cluster.cu (not part of the build).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <cuda_runtime.h>
#include "mgraph.h"
using namespace std;
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)
#define MG(x) do { char err[512] = {0}; int rc = (x); if (rc != 0) { printf("MG %s: rc=%d %s\n", #x, rc, err); exit(1);} } while (0)
static const uint32_t NONE = 0xffffffffu;
struct G { uint64_t n; vector<uint32_t> rows; string name; };
G grid(uint32_t w) { G g; g.n = (uint64_t)w*w; g.name = "grid" + to_string(w); g.rows.assign(g.n*8, NONE);
  for (uint32_t y=0;y<w;y++) for (uint32_t x=0;x<w;x++){ uint64_t v=(uint64_t)y*w+x; int k=0;
    if (y>0) g.rows[v*8+k++]=v-w; if (x>0) g.rows[v*8+k++]=v-1; if (x+1<w) g.rows[v*8+k++]=v+1; if (y+1<w) g.rows[v*8+k++]=v+w; }
  return g; }
G tree7(int depth) { G g; g.name = "tree7d" + to_string(depth); uint64_t n=0, lvl=1; for (int d=0; d<=depth; d++){ n+=lvl; lvl*=7; } g.n=n; g.rows.assign(n*8, NONE);
  for (uint64_t v=0; v<n; v++){ int k=0; if (v>0) g.rows[v*8+k++]=(v-1)/7; for (uint64_t c=7*v+1;c<=7*v+7 && c<n;c++) g.rows[v*8+k++]=c; } return g; }
vector<uint32_t> cpu_bfs(const G&g, uint32_t s){ vector<uint32_t> L(g.n,NONE); vector<uint32_t> q{s}; L[s]=0; for(size_t i=0;i<q.size();i++){uint32_t v=q[i]; for(int a=0;a<8;a++){uint32_t w=g.rows[(uint64_t)v*8+a]; if(w!=NONE&&L[w]==NONE){L[w]=L[v]+1;q.push_back(w);}}} return L; }
void cpu_bc(const G&g, uint32_t s, vector<double>&sig, vector<double>&del){ vector<uint32_t> L(g.n,NONE); vector<uint32_t> q{s}; L[s]=0; sig.assign(g.n,0); del.assign(g.n,0); sig[s]=1;
  for(size_t i=0;i<q.size();i++){uint32_t v=q[i]; for(int a=0;a<8;a++){uint32_t w=g.rows[(uint64_t)v*8+a]; if(w==NONE)continue; if(L[w]==NONE){L[w]=L[v]+1;q.push_back(w);} if(L[w]==L[v]+1) sig[w]+=sig[v];}}
  for(size_t i=q.size();i-->0;){uint32_t v=q[i]; double sum=0; for(int a=0;a<8;a++){uint32_t w=g.rows[(uint64_t)v*8+a]; if(w!=NONE&&L[w]==L[v]+1) sum+=(1+del[w])/sig[w];} del[v]=sig[v]*sum;} }
int main(int argc, char**argv){
  int dev=0; CK(cudaSetDevice(dev)); cudaDeviceProp p; CK(cudaGetDeviceProperties(&p,dev)); printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
  uint64_t maxv; uint32_t maxb; MG(mg_cluster_max_vertices(dev,&maxv,&maxb,err,sizeof err)); printf("cluster: %u blocks, %llu vertices\n", maxb, (unsigned long long)maxv);
  vector<G> gs; bool small = argc > 1 && string(argv[1]) == "small";
  if (small) { gs.push_back(grid(64)); gs.push_back(tree7(5)); }
  else { gs.push_back(grid(64)); gs.push_back(grid(1024)); gs.push_back(grid(2048)); gs.push_back(tree7(7)); }
  if (argc > 1 && string(argv[1]) == "big") gs.push_back(grid(4096));
  cudaStream_t st; CK(cudaStreamCreate(&st)); cudaEvent_t ev[2]; CK(cudaEventCreate(&ev[0])); CK(cudaEventCreate(&ev[1]));
  for (auto &g : gs) {
    mg_dlayout L; memset(&L,0,sizeof L); L.n=g.n;
    uint32_t *drows,*dlev,*dfr,*dord,*dle,*dq,*dsp; double *dsig,*ddel; mg_block_stats *dst;
    CK(cudaMalloc(&drows,g.n*32)); CK(cudaMemcpy(drows,g.rows.data(),g.n*32,cudaMemcpyHostToDevice));
    CK(cudaMalloc(&dlev,g.n*4)); CK(cudaMalloc(&dfr,g.n*4)); CK(cudaMalloc(&dord,g.n*4)); CK(cudaMalloc(&dle,(g.n+1)*4)); CK(cudaMalloc(&dq,g.n*32));
    CK(cudaMalloc(&dsp,MG_CLUSTER_SPILL_WORDS(g.n,16)*4)); CK(cudaMalloc(&dsig,g.n*8)); CK(cudaMalloc(&ddel,g.n*8)); CK(cudaMalloc(&dst,sizeof(mg_block_stats)));
    uint32_t src = g.name.rfind("grid",0)==0 ? (uint32_t)(g.n/2 + (uint32_t)sqrt((double)g.n)/2) : 0;
    vector<uint32_t> ref = cpu_bfs(g, src); uint32_t depth=0; for (auto x: ref) if (x!=NONE) depth=max(depth,x);
    vector<double> rs, rd; cpu_bc(g, src, rs, rd);
    for (uint32_t b = 2; b <= maxb; b *= 2) {
      if (g.n > (maxv/maxb)*b) continue;
      // BFS from the source, full
      vector<float> ts;
      for (int t=0;t<12;t++){
        vector<uint32_t> lev(g.n,NONE); lev[src]=0; CK(cudaMemcpy(dlev,lev.data(),g.n*4,cudaMemcpyHostToDevice)); CK(cudaMemcpy(dfr,&src,4,cudaMemcpyHostToDevice));
        mg_event e2[2]={ev[0],ev[1]};
        MG(mg_cluster_bfs(dev,&L,drows,b,dlev,dfr,1,dord,dsp,0,dst,st,e2,err,sizeof err)); CK(cudaStreamSynchronize(st));
        float ms; CK(cudaEventElapsedTime(&ms,ev[0],ev[1])); ts.push_back(ms);
      }
      vector<uint32_t> lev(g.n); CK(cudaMemcpy(lev.data(),dlev,g.n*4,cudaMemcpyDeviceToHost)); mg_block_stats hs; CK(cudaMemcpy(&hs,dst,sizeof hs,cudaMemcpyDeviceToHost));
      bool ok = lev==ref; sort(ts.begin(),ts.end());
      if (hs.frontier_count>0) { // stopped early: check the frontier = vertices at level hs.levels
        vector<uint32_t> fr(hs.frontier_count); CK(cudaMemcpy(fr.data(),dfr,4*fr.size(),cudaMemcpyDeviceToHost)); set<uint32_t> a(fr.begin(),fr.end()), e;
        for (uint64_t v=0;v<g.n;v++) if (ref[v]==hs.levels) e.insert(v);
        bool lok=true; for (uint64_t v=0;v<g.n;v++) if (ref[v]<=hs.levels ? lev[v]!=ref[v] : lev[v]!=NONE) lok=false;
        ok = a==e && lok && fr.size()==e.size();
        printf("%s C=%u bfs: STOPPED at level %u with %u (expected %zu) %s  min %.3f ms\n", g.name.c_str(), b, hs.levels, hs.frontier_count, e.size(), ok?"ok":"WRONG", ts[0]);
      } else printf("%s C=%u bfs: %s levels %u (cpu depth %u) reached %u  min %.3f med %.3f ms\n", g.name.c_str(), b, ok?"ok":"WRONG", hs.levels, depth, hs.reached, ts[0], ts[ts.size()/2]);
      // BFS with bailout 100, then continue
      { vector<uint32_t> lev0(g.n,NONE); lev0[src]=0; CK(cudaMemcpy(dlev,lev0.data(),g.n*4,cudaMemcpyHostToDevice)); CK(cudaMemcpy(dfr,&src,4,cudaMemcpyHostToDevice));
        MG(mg_cluster_bfs(dev,&L,drows,b,dlev,dfr,1,dord,dsp,100,dst,st,NULL,err,sizeof err)); CK(cudaStreamSynchronize(st));
        CK(cudaMemcpy(&hs,dst,sizeof hs,cudaMemcpyDeviceToHost));
        if (hs.frontier_count>0 && true) { uint32_t c=hs.frontier_count;
          MG(mg_cluster_bfs(dev,&L,drows,b,dlev,dfr,c,dord,dsp,0,dst,st,NULL,err,sizeof err)); CK(cudaStreamSynchronize(st));
          CK(cudaMemcpy(lev.data(),dlev,g.n*4,cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&hs,dst,sizeof hs,cudaMemcpyDeviceToHost));
          printf("   bailout 100 at %u vertices, then continued: %s\n", c, (lev==ref || hs.frontier_count>0) ? "ok" : "WRONG"); } }
      // BC
      ts.clear(); bool bail=false;
      for (int t=0;t<8;t++){ mg_event e2[2]={ev[0],ev[1]};
        MG(mg_bc_cluster(dev,&L,drows,b,src,dlev,dord,dle,dq,dsp,0,dsig,ddel,dst,st,e2,err,sizeof err)); CK(cudaStreamSynchronize(st));
        float ms; CK(cudaEventElapsedTime(&ms,ev[0],ev[1])); ts.push_back(ms); }
      CK(cudaMemcpy(&hs,dst,sizeof hs,cudaMemcpyDeviceToHost)); bail = hs.frontier_count>0;
      vector<double> s(g.n), d(g.n); CK(cudaMemcpy(s.data(),dsig,g.n*8,cudaMemcpyDeviceToHost)); CK(cudaMemcpy(d.data(),ddel,g.n*8,cudaMemcpyDeviceToHost));
      double es=0, ed=0; for (uint64_t v=0;v<g.n;v++){ es=max(es,fabs(s[v]-rs[v])/max(1.0,fabs(rs[v]))); ed=max(ed,fabs(d[v]-rd[v])/max(1.0,fabs(rd[v]))); }
      sort(ts.begin(),ts.end());
      if (bail) printf("%s C=%u bc: STOPPED at level %u (%u vertices)  min %.3f ms\n", g.name.c_str(), b, hs.levels, hs.frontier_count, ts[0]);
      else printf("%s C=%u bc: depth %u, sigma err %.2e delta err %.2e %s  min %.3f med %.3f ms\n", g.name.c_str(), b, hs.levels, es, ed, (es<1e-9&&ed<1e-9)?"ok":"WRONG", ts[0], ts[ts.size()/2]);
    }
    cudaFree(drows); cudaFree(dlev); cudaFree(dfr); cudaFree(dord); cudaFree(dle); cudaFree(dq); cudaFree(dsig); cudaFree(ddel); cudaFree(dst); cudaFree(dsp);
  }
  return 0;
}
