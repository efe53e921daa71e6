// nccl.cu — NCCL, the GPU collectives library, loaded at run time (dlopen)
// so that builds and machines without it still work: the multi-GPU
// exchange of partitioned runs (mgraph.h, "NCCL"). Only the few entry
// points mgraph uses are declared here, with NCCL's stable ABI (its
// ncclResult_t, ncclDataType_t and ncclRedOp_t numbering, unchanged since
// NCCL 2.0). A group of sends and receives is issued and ended within one
// call: NCCL's group state belongs to the calling thread, and the Go
// caller may move between threads between calls. The calls only queue
// their work: the caller waits for the stream, so that another thread can
// abort the communicator (mg_nccl_abort) while it waits for peers that
// will never come.
#include <dlfcn.h>
#include <pthread.h>

#include "internal.cuh"

namespace {

typedef void *nccl_comm;  // ncclComm_t
typedef int nccl_result;  // ncclResult_t; 0 is ncclSuccess
constexpr int kNcclUint8 = 1;   // ncclUint8
constexpr int kNcclUint64 = 5;  // ncclUint64
constexpr int kNcclFloat64 = 8; // ncclFloat64
constexpr int kNcclSum = 0;     // ncclSum

struct Nccl {
    void *lib = nullptr;
    nccl_result (*get_version)(int *) = nullptr;
    const char *(*error_string)(nccl_result) = nullptr;
    nccl_result (*comm_init_all)(nccl_comm *, int, const int *) = nullptr;
    nccl_result (*comm_destroy)(nccl_comm) = nullptr;
    nccl_result (*comm_abort)(nccl_comm) = nullptr;
    nccl_result (*group_start)() = nullptr;
    nccl_result (*group_end)() = nullptr;
    nccl_result (*send)(const void *, size_t, int, int, nccl_comm, cudaStream_t) = nullptr;
    nccl_result (*recv)(void *, size_t, int, int, nccl_comm, cudaStream_t) = nullptr;
    nccl_result (*all_reduce)(const void *, void *, size_t, int, int, nccl_comm, cudaStream_t) = nullptr;
};

Nccl g_nccl;  // the library, once loaded (process-wide, as the library is)
pthread_mutex_t g_nccl_mu = PTHREAD_MUTEX_INITIALIZER;

int nccl_fail(nccl_result r, const char *call, char *err, size_t errlen) {
    if (err != NULL && errlen > 0)
        snprintf(err, errlen, "%s: NCCL error %d: %s", call, r,
                 g_nccl.error_string != nullptr ? g_nccl.error_string(r) : "?");
    return MG_ERR_CUDA;
}

#define MG_NCCL(call, what)                                        \
    do {                                                           \
        nccl_result mg_r_ = (call);                                \
        if (mg_r_ != 0) return nccl_fail(mg_r_, what, err, errlen); \
    } while (0)

int need_nccl(char *err, size_t errlen) {
    if (g_nccl.lib == nullptr) return mg::invalid("NCCL is not loaded (mg_nccl_open)", err, errlen);
    return MG_OK;
}

}  // namespace

extern "C" {

int mg_nccl_open(const char *path, int *version, char *err, size_t errlen) {
    if (path == NULL || version == NULL) return mg::invalid("mg_nccl_open: NULL argument", err, errlen);
    pthread_mutex_lock(&g_nccl_mu);
    int rc = MG_OK;
    if (g_nccl.lib == nullptr) {
        void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (lib == nullptr) {
            if (err != NULL && errlen > 0) snprintf(err, errlen, "dlopen %s: %s", path, dlerror());
            rc = MG_ERR_NO_DEVICE;
        } else {
            Nccl n;
            n.lib = lib;
            bool ok = true;
#define MG_SYM(field, name)                                   \
    if (ok && (*(void **)&n.field = dlsym(lib, name)) == nullptr) { \
        ok = false;                                           \
        if (err != NULL && errlen > 0) snprintf(err, errlen, "%s has no %s", path, name); \
    }
            MG_SYM(get_version, "ncclGetVersion")
            MG_SYM(error_string, "ncclGetErrorString")
            MG_SYM(comm_init_all, "ncclCommInitAll")
            MG_SYM(comm_destroy, "ncclCommDestroy")
            MG_SYM(comm_abort, "ncclCommAbort")
            MG_SYM(group_start, "ncclGroupStart")
            MG_SYM(group_end, "ncclGroupEnd")
            MG_SYM(send, "ncclSend")
            MG_SYM(recv, "ncclRecv")
            MG_SYM(all_reduce, "ncclAllReduce")
#undef MG_SYM
            if (ok) {
                g_nccl = n;
            } else {
                dlclose(lib);
                rc = MG_ERR_NO_DEVICE;
            }
        }
    }
    pthread_mutex_unlock(&g_nccl_mu);
    if (rc != MG_OK) return rc;
    MG_NCCL(g_nccl.get_version(version), "ncclGetVersion");
    return MG_OK;
}

int mg_nccl_init_all(int n, const int *devices, void **comms, char *err, size_t errlen) {
    if (int rc = need_nccl(err, errlen)) return rc;
    if (n <= 0 || devices == NULL || comms == NULL) return mg::invalid("mg_nccl_init_all: bad arguments", err, errlen);
    MG_NCCL(g_nccl.comm_init_all((nccl_comm *)comms, n, devices), "ncclCommInitAll");
    return MG_OK;
}

int mg_nccl_destroy(void *comm, char *err, size_t errlen) {
    if (int rc = need_nccl(err, errlen)) return rc;
    if (comm == NULL) return MG_OK;
    MG_NCCL(g_nccl.comm_destroy((nccl_comm)comm), "ncclCommDestroy");
    return MG_OK;
}

int mg_nccl_abort(void *comm, char *err, size_t errlen) {
    if (int rc = need_nccl(err, errlen)) return rc;
    if (comm == NULL) return MG_OK;
    MG_NCCL(g_nccl.comm_abort((nccl_comm)comm), "ncclCommAbort");
    return MG_OK;
}

int mg_nccl_exchange(int dev, void *comm, int ranks, int rank, const void *send, const uint64_t *send_off,
                     const uint64_t *send_bytes, void *recv, const uint64_t *recv_off, const uint64_t *recv_bytes,
                     mg_stream s, char *err, size_t errlen) {
    if (int rc = need_nccl(err, errlen)) return rc;
    if (comm == NULL || ranks <= 0 || rank < 0 || rank >= ranks || send_off == NULL || send_bytes == NULL ||
        recv_off == NULL || recv_bytes == NULL)
        return mg::invalid("mg_nccl_exchange: bad arguments", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    MG_NCCL(g_nccl.group_start(), "ncclGroupStart");
    for (int q = 0; q < ranks; q++) {
        if (q == rank) continue;
        if (send_bytes[q] > 0) {
            nccl_result r = g_nccl.send((const char *)send + send_off[q], send_bytes[q], kNcclUint8, q, (nccl_comm)comm, st);
            if (r != 0) {
                g_nccl.group_end();
                return nccl_fail(r, "ncclSend", err, errlen);
            }
        }
        if (recv_bytes[q] > 0) {
            nccl_result r = g_nccl.recv((char *)recv + recv_off[q], recv_bytes[q], kNcclUint8, q, (nccl_comm)comm, st);
            if (r != 0) {
                g_nccl.group_end();
                return nccl_fail(r, "ncclRecv", err, errlen);
            }
        }
    }
    MG_NCCL(g_nccl.group_end(), "ncclGroupEnd (sends and receives)");
    return MG_OK;
}

int mg_nccl_all_reduce_sum_u64(int dev, void *comm, const uint64_t *send, uint64_t *recv, uint64_t count, mg_stream s,
                               char *err, size_t errlen) {
    if (int rc = need_nccl(err, errlen)) return rc;
    if (comm == NULL || send == NULL || recv == NULL) return mg::invalid("mg_nccl_all_reduce_sum_u64: bad arguments", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    MG_NCCL(g_nccl.all_reduce(send, recv, count, kNcclUint64, kNcclSum, (nccl_comm)comm, st), "ncclAllReduce");
    return MG_OK;
}

int mg_nccl_all_reduce_sum_f64(int dev, void *comm, const double *send, double *recv, uint64_t count, mg_stream s,
                               char *err, size_t errlen) {
    if (int rc = need_nccl(err, errlen)) return rc;
    if (comm == NULL || send == NULL || recv == NULL) return mg::invalid("mg_nccl_all_reduce_sum_f64: bad arguments", err, errlen);
    MG_SET_DEVICE(dev);
    cudaStream_t st = (cudaStream_t)s;
    MG_NCCL(g_nccl.all_reduce(send, recv, count, kNcclFloat64, kNcclSum, (nccl_comm)comm, st), "ncclAllReduce");
    return MG_OK;
}

}  // extern "C"
