// runtime.cu — error mapping, device query, memory, streams and events of
// the C API in mgraph.h.
#include <string.h>

#include "internal.cuh"

namespace mg {

int fail(cudaError_t e, const char *call, char *err, size_t errlen) {
    if (err != NULL && errlen > 0)
        snprintf(err, errlen, "%s: %s (%d): %s", call, cudaGetErrorName(e), (int)e,
                 cudaGetErrorString(e));
    (void)cudaGetLastError();  // clear a non-sticky error so it is not reported twice
    switch (e) {
    case cudaErrorMemoryAllocation:
        return MG_ERR_OOM;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
        return MG_ERR_NO_DEVICE;
    default:
        return MG_ERR_CUDA;
    }
}

int invalid(const char *msg, char *err, size_t errlen) {
    if (err != NULL && errlen > 0) snprintf(err, errlen, "%s", msg);
    return MG_ERR_INVALID;
}

int multiprocessors(int dev) {
    // Enough slots for any host; ordinals beyond fall back to a query.
    static int cache[64];
    if (dev >= 0 && dev < 64 && cache[dev] > 0) return cache[dev];
    int n = 0;
    if (cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || n <= 0) {
        (void)cudaGetLastError();
        return 1;
    }
    if (dev >= 0 && dev < 64) cache[dev] = n;  // benign race: same value
    return n;
}

}  // namespace mg

extern "C" {

int mg_device_count(int *count, char *err, size_t errlen) {
    if (count == NULL) return mg::invalid("mg_device_count: count is NULL", err, errlen);
    *count = 0;
    MG_CHECK(cudaGetDeviceCount(count));
    if (*count == 0) return mg::fail(cudaErrorNoDevice, "cudaGetDeviceCount(count)", err, errlen);
    return MG_OK;
}

int mg_versions(int *driver, int *runtime, char *err, size_t errlen) {
    if (driver == NULL || runtime == NULL) return mg::invalid("mg_versions: NULL argument", err, errlen);
    // The runtime is linked statically, so its version is the toolkit's.
    // (cudaRuntimeGetVersion would try to initialize a device and fail
    // where none is visible.)
    *runtime = CUDART_VERSION;
    *driver = 0;
    MG_CHECK(cudaDriverGetVersion(driver));  // 0 when no driver is installed
    return MG_OK;
}

int mg_device_props_get(int dev, mg_device_props *p, char *err, size_t errlen) {
    if (p == NULL) return mg::invalid("mg_device_props_get: props is NULL", err, errlen);
    memset(p, 0, sizeof *p);
    MG_SET_DEVICE(dev);
    cudaDeviceProp prop;
    MG_CHECK(cudaGetDeviceProperties(&prop, dev));
    snprintf(p->name, sizeof p->name, "%.*s", (int)sizeof prop.name, prop.name);
    MG_CHECK(cudaDeviceGetPCIBusId(p->pci_bus_id, (int)sizeof p->pci_bus_id, dev));
    p->ordinal = dev;

    // Attributes rather than cudaDeviceProp fields where newer toolkits
    // dropped the field (clock rates).
    struct {
        enum cudaDeviceAttr attr;
        int *dst;
    } ints[] = {
        {cudaDevAttrComputeCapabilityMajor, &p->major},
        {cudaDevAttrComputeCapabilityMinor, &p->minor},
        {cudaDevAttrMultiProcessorCount, &p->multiprocessors},
        {cudaDevAttrMaxRegistersPerBlock, &p->regs_per_block},
        {cudaDevAttrWarpSize, &p->warp_size},
        {cudaDevAttrMaxThreadsPerBlock, &p->max_threads_per_block},
        {cudaDevAttrMaxThreadsPerMultiProcessor, &p->max_threads_per_sm},
        {cudaDevAttrMaxBlocksPerMultiprocessor, &p->max_blocks_per_sm},
        {cudaDevAttrClockRate, &p->clock_khz},
        {cudaDevAttrMemoryClockRate, &p->mem_clock_khz},
        {cudaDevAttrGlobalMemoryBusWidth, &p->mem_bus_width_bits},
        {cudaDevAttrEccEnabled, &p->ecc_enabled},
        {cudaDevAttrAsyncEngineCount, &p->async_engines},
    };
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        MG_CHECK(cudaDeviceGetAttribute(ints[i].dst, ints[i].attr, dev));

    struct {
        enum cudaDeviceAttr attr;
        uint64_t *dst;
    } sizes[] = {
        {cudaDevAttrMaxSharedMemoryPerBlock, &p->shared_per_block},
        {cudaDevAttrMaxSharedMemoryPerBlockOptin, &p->shared_per_block_optin},
        {cudaDevAttrMaxSharedMemoryPerMultiprocessor, &p->shared_per_sm},
        {cudaDevAttrL2CacheSize, &p->l2_bytes},
        {cudaDevAttrMaxPersistingL2CacheSize, &p->persisting_l2_max_bytes},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int v = 0;
        MG_CHECK(cudaDeviceGetAttribute(&v, sizes[i].attr, dev));
        *sizes[i].dst = (uint64_t)v;
    }

    size_t free_b = 0, total_b = 0;
    MG_CHECK(cudaMemGetInfo(&free_b, &total_b));
    p->free_mem = free_b;
    p->total_mem = total_b;
    MG_CHECK(cudaDriverGetVersion(&p->driver_version));
    p->runtime_version = CUDART_VERSION;
    return MG_OK;
}

int mg_mem_info(int dev, uint64_t *free_bytes, uint64_t *total_bytes, char *err, size_t errlen) {
    if (free_bytes == NULL || total_bytes == NULL) return mg::invalid("mg_mem_info: NULL argument", err, errlen);
    MG_SET_DEVICE(dev);
    size_t f = 0, t = 0;
    MG_CHECK(cudaMemGetInfo(&f, &t));
    *free_bytes = f;
    *total_bytes = t;
    return MG_OK;
}

int mg_device_synchronize(int dev, char *err, size_t errlen) {
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaDeviceSynchronize());
    return MG_OK;
}

int mg_device_recover(int dev, int *reset, char *err, size_t errlen) {
    if (reset == NULL) return mg::invalid("mg_device_recover: reset is NULL", err, errlen);
    *reset = 0;
    MG_SET_DEVICE(dev);
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess) return MG_OK;
    // A non-sticky error left over is cleared by reading it; a sticky one
    // (the context is lost) is reported again.
    (void)cudaGetLastError();
    if ((e = cudaDeviceSynchronize()) == cudaSuccess) return MG_OK;
    if (err != NULL && errlen > 0)
        snprintf(err, errlen, "the device had faulted: %s (%d): %s", cudaGetErrorName(e), (int)e, cudaGetErrorString(e));
    char fault[160];
    snprintf(fault, sizeof fault, "%s (%d)", cudaGetErrorName(e), (int)e);
    MG_CHECK(cudaDeviceReset());
    *reset = 1;
    // Some platforms do not give a process a new context after a reset
    // (cudaErrorDevicesUnavailable): the device is lost to it.
    if ((e = cudaSetDevice(dev)) == cudaSuccess && (e = cudaFree(NULL)) == cudaSuccess &&
        (e = cudaDeviceSynchronize()) == cudaSuccess)
        return MG_OK;
    if (err != NULL && errlen > 0)
        snprintf(err, errlen, "the device faulted (%s) and a reset did not bring it back: %s (%d): %s", fault,
                 cudaGetErrorName(e), (int)e, cudaGetErrorString(e));
    (void)cudaGetLastError();
    return MG_ERR_CUDA;
}

}  // extern "C"

namespace {

// The block of a launch that fails its configuration: more threads than
// any device allows in a block.
constexpr unsigned kFaultBadBlock = 4096;
// An address in the first page, which no allocation holds.
constexpr uintptr_t kFaultAddress = 0x10;

__global__ void mg_fault_kernel(uint32_t *p) { p[threadIdx.x] = threadIdx.x; }

}  // namespace

extern "C" {

int mg_inject_fault(int dev, int kind, char *err, size_t errlen) {
    MG_SET_DEVICE(dev);
    switch (kind) {
    case MG_FAULT_LAUNCH:
        mg_fault_kernel<<<1, kFaultBadBlock>>>(NULL);
        MG_CHECK_LAUNCH("mg_fault_kernel<<<1, 4096>>> (injected launch fault)");
        return MG_OK;
    case MG_FAULT_ILLEGAL_ADDRESS: {
        mg_fault_kernel<<<1, 32>>>((uint32_t *)kFaultAddress);
        MG_CHECK_LAUNCH("mg_fault_kernel<<<1, 32>>> (injected illegal address)");
        const cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) return mg::fail(e, "mg_fault_kernel<<<1, 32>>> (injected illegal address)", err, errlen);
        return MG_OK;
    }
    }
    return mg::invalid("mg_inject_fault: unknown kind", err, errlen);
}

// --- memory ---------------------------------------------------------------

int mg_malloc(int dev, void **ptr, uint64_t bytes, char *err, size_t errlen) {
    if (ptr == NULL) return mg::invalid("mg_malloc: ptr is NULL", err, errlen);
    *ptr = NULL;
    if (bytes == 0) return MG_OK;
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaMalloc(ptr, (size_t)bytes));
    return MG_OK;
}

int mg_free(int dev, void *ptr, char *err, size_t errlen) {
    if (ptr == NULL) return MG_OK;
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaFree(ptr));
    return MG_OK;
}

int mg_memcpy_htod(int dev, void *dst, const void *src, uint64_t bytes, char *err, size_t errlen) {
    if (bytes == 0) return MG_OK;
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaMemcpy(dst, src, (size_t)bytes, cudaMemcpyHostToDevice));
    return MG_OK;
}

int mg_memcpy_dtoh(int dev, void *dst, const void *src, uint64_t bytes, char *err, size_t errlen) {
    if (bytes == 0) return MG_OK;
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaMemcpy(dst, src, (size_t)bytes, cudaMemcpyDeviceToHost));
    return MG_OK;
}

int mg_memcpy_dtod(int dev, void *dst, const void *src, uint64_t bytes, char *err, size_t errlen) {
    if (bytes == 0) return MG_OK;
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaMemcpy(dst, src, (size_t)bytes, cudaMemcpyDeviceToDevice));
    return MG_OK;
}

int mg_memset(int dev, void *ptr, int value, uint64_t bytes, mg_stream s, char *err, size_t errlen) {
    if (bytes == 0) return MG_OK;
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaMemsetAsync(ptr, value, (size_t)bytes, (cudaStream_t)s));
    return MG_OK;
}

// --- streams and events ---------------------------------------------------

int mg_stream_create(int dev, mg_stream *s, char *err, size_t errlen) {
    if (s == NULL) return mg::invalid("mg_stream_create: s is NULL", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = NULL;
    MG_CHECK(cudaStreamCreate(&st));
    *s = (mg_stream)st;
    return MG_OK;
}

int mg_stream_destroy(int dev, mg_stream s, char *err, size_t errlen) {
    if (s == NULL) return mg::invalid("mg_stream_destroy: the default stream cannot be destroyed", err, errlen);
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaStreamDestroy((cudaStream_t)s));
    return MG_OK;
}

int mg_stream_synchronize(int dev, mg_stream s, char *err, size_t errlen) {
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaStreamSynchronize((cudaStream_t)s));
    return MG_OK;
}

int mg_event_create(int dev, mg_event *e, char *err, size_t errlen) {
    if (e == NULL) return mg::invalid("mg_event_create: e is NULL", err, errlen);
    MG_SET_DEVICE(dev);
    cudaEvent_t ev = NULL;
    MG_CHECK(cudaEventCreate(&ev));
    *e = (mg_event)ev;
    return MG_OK;
}

int mg_event_destroy(int dev, mg_event e, char *err, size_t errlen) {
    if (e == NULL) return mg::invalid("mg_event_destroy: e is NULL", err, errlen);
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaEventDestroy((cudaEvent_t)e));
    return MG_OK;
}

int mg_event_record(int dev, mg_event e, mg_stream s, char *err, size_t errlen) {
    if (e == NULL) return mg::invalid("mg_event_record: e is NULL", err, errlen);
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaEventRecord((cudaEvent_t)e, (cudaStream_t)s));
    return MG_OK;
}

int mg_event_synchronize(int dev, mg_event e, char *err, size_t errlen) {
    if (e == NULL) return mg::invalid("mg_event_synchronize: e is NULL", err, errlen);
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaEventSynchronize((cudaEvent_t)e));
    return MG_OK;
}

int mg_event_elapsed_ms(int dev, mg_event start, mg_event end, float *ms, char *err, size_t errlen) {
    if (start == NULL || end == NULL || ms == NULL) return mg::invalid("mg_event_elapsed_ms: NULL argument", err, errlen);
    MG_SET_DEVICE(dev);
    MG_CHECK(cudaEventElapsedTime(ms, (cudaEvent_t)start, (cudaEvent_t)end));
    return MG_OK;
}

}  // extern "C"
