// nvtx.cu — NVTX ranges around the host's phases, so that an Nsight Systems
// timeline (and Nsight Compute's --nvtx filters) show where each kernel
// belongs. NVTX v3 is header-only: with no tool attached every call is a
// cheap no-op that cannot fail (the injection library is looked up once,
// through dlopen, and absent).
#include <nvtx3/nvToolsExt.h>

#include "mgraph.h"

extern "C" {

void mg_nvtx_push(const char *name) { nvtxRangePushA(name ? name : "(unnamed)"); }

void mg_nvtx_pop(void) { nvtxRangePop(); }

uint64_t mg_nvtx_start(const char *name) { return nvtxRangeStartA(name ? name : "(unnamed)"); }

void mg_nvtx_end(uint64_t id) { nvtxRangeEnd((nvtxRangeId_t)id); }

} // extern "C"
