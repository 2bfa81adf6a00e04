// device.cu -- device discovery and the chunked host <-> device pipeline that
// every batched host entry point of the CUDA backend goes through.
#include <algorithm>
#include <cstring>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "common.cuh"

namespace {

// A kernel that only exists to ask whether this binary has code the device
// can run (cudaFuncGetAttributes fails with cudaErrorInvalidDeviceFunction or
// cudaErrorNoKernelImageForDevice otherwise).
__global__ void probe_kernel() {}

// Static facts about device 0, read once (C++ guarantees thread-safe
// initialisation of function-local statics).
struct device_facts {
    int count = 0;
    bool usable = false;
    cudaDeviceProp prop{};
    int runtime = 0, driver = 0;
    char reason[256] = "";
};

const device_facts &facts()
{
    static const device_facts f = [] {
        device_facts d;
        cudaRuntimeGetVersion(&d.runtime);
        cudaDriverGetVersion(&d.driver);
        cudaError_t err = cudaGetDeviceCount(&d.count);
        if (err != cudaSuccess || d.count == 0) {
            d.count = 0;
            if (d.driver == 0)
                std::snprintf(d.reason, sizeof d.reason, "no NVIDIA driver found");
            else
                std::snprintf(d.reason, sizeof d.reason, "no CUDA device found (%s)",
                              err != cudaSuccess ? cudaGetErrorString(err) : "device count is 0");
            cudaGetLastError();
            return d;
        }
        cudaGetDeviceProperties(&d.prop, 0);
        cudaFuncAttributes attr;
        err = cudaFuncGetAttributes(&attr, probe_kernel);
        if (err != cudaSuccess) {
            std::snprintf(d.reason, sizeof d.reason,
                          "device 0 (%s, compute capability %d.%d) cannot run this build's kernels (%s); "
                          "rebuild with BSYM_CUDA_ARCH set for it",
                          d.prop.name, d.prop.major, d.prop.minor, cudaGetErrorString(err));
            cudaGetLastError();
            return d;
        }
        d.usable = true;
        return d;
    }();
    return f;
}

// Cached between calls on one context: two streams, and per stream a device
// buffer and a pinned host staging buffer, grown on demand.
struct pipeline_state {
    cudaStream_t stream[2] = {nullptr, nullptr};
    cudaEvent_t done[2] = {nullptr, nullptr};
    void *dev[2] = {nullptr, nullptr};
    void *pin[2] = {nullptr, nullptr};
    size_t cap[2] = {0, 0};
};

// Bytes per staging buffer at most: big enough that a chunk's copies run at
// full PCIe speed, small enough that many chunks overlap in a large batch.
const size_t SLOT_BYTES_MAX = size_t(128) << 20;
const size_t ALIGN = 256;

size_t round_up(size_t x) { return (x + ALIGN - 1) / ALIGN * ALIGN; }

bsym_status get_state(void **state, pipeline_state **ps, char *msg, size_t msglen)
{
    if (*state == nullptr) {
        pipeline_state *p = new (std::nothrow) pipeline_state;
        if (p == nullptr)
            return BSYM_ERR_NOMEM;
        *state = p;
        for (int s = 0; s < 2; s++) {
            BSYM_CUDA_TRY(cudaStreamCreateWithFlags(&p->stream[s], cudaStreamNonBlocking));
            BSYM_CUDA_TRY(cudaEventCreateWithFlags(&p->done[s], cudaEventDisableTiming));
        }
    }
    *ps = static_cast<pipeline_state *>(*state);
    return BSYM_OK;
}

// Makes slot s hold at least `bytes` on both sides.
bsym_status reserve(pipeline_state *p, int s, size_t bytes, char *msg, size_t msglen)
{
    if (p->cap[s] >= bytes)
        return BSYM_OK;
    cudaFree(p->dev[s]);
    cudaFreeHost(p->pin[s]);
    p->dev[s] = p->pin[s] = nullptr;
    p->cap[s] = 0;
    BSYM_CUDA_TRY(cudaMalloc(&p->dev[s], bytes));
    BSYM_CUDA_TRY(cudaMallocHost(&p->pin[s], bytes));
    p->cap[s] = bytes;
    return BSYM_OK;
}

// memcpy split over the OpenMP team: one thread reaches a fraction of the
// host's memory bandwidth, and these copies are the end-to-end bottleneck.
void parallel_copy(void *dst, const void *src, size_t bytes)
{
    const size_t piece = size_t(1) << 20;
    long long pieces = (long long)((bytes + piece - 1) / piece);
#pragma omp parallel for schedule(static) if (pieces > 1)
    for (long long i = 0; i < pieces; i++) {
        size_t off = size_t(i) * piece;
        std::memcpy(static_cast<char *>(dst) + off, static_cast<const char *>(src) + off,
                    std::min(piece, bytes - off));
    }
}

// One chunk in flight on a slot: which systems it holds.
struct chunk {
    int64_t first = 0, count = 0;
    bool busy = false;
};

} // namespace

void bsym_cuda::query(bsym_device_info *info)
{
    const device_facts &f = facts();
    info->built_with_cuda = 1;
    info->device_count = f.count;
    info->gpu_available = f.usable ? 1 : 0;
    info->cuda_runtime_version = f.runtime;
    info->cuda_driver_version = f.driver;
    std::snprintf(info->reason, sizeof info->reason, "%s", f.reason);
    if (f.count > 0) {
        std::snprintf(info->name, sizeof info->name, "%s", f.prop.name);
        info->total_memory = f.prop.totalGlobalMem;
        info->compute_major = f.prop.major;
        info->compute_minor = f.prop.minor;
        size_t fr = 0, tot = 0;
        if (f.usable && cudaMemGetInfo(&fr, &tot) == cudaSuccess)
            info->free_memory = fr;
        cudaGetLastError();
    }
}

void bsym_cuda::release(void *state)
{
    pipeline_state *p = static_cast<pipeline_state *>(state);
    if (p == nullptr)
        return;
    for (int s = 0; s < 2; s++) {
        if (p->stream[s])
            cudaStreamSynchronize(p->stream[s]);
        cudaFree(p->dev[s]);
        cudaFreeHost(p->pin[s]);
        if (p->done[s])
            cudaEventDestroy(p->done[s]);
        if (p->stream[s])
            cudaStreamDestroy(p->stream[s]);
    }
    delete p;
}

bsym_status bsym_pipeline(void **state, const bsym_array *arrays, int narrays, int64_t batch,
                          bsym_chunk_fn launch, void *arg, bsym_interrupt_fn interrupt,
                          void *idata, char *msg, size_t msglen)
{
    pipeline_state *p = nullptr;
    bsym_status st = get_state(state, &p, msg, msglen);
    if (st != BSYM_OK)
        return st;

    // Carve-out of one slot: each array's chunk at a 256-byte aligned offset.
    size_t per_system = 0;
    for (int i = 0; i < narrays; i++)
        per_system += arrays[i].bytes_per_system;
    int64_t chunk_max = std::max<int64_t>(1, (int64_t)(SLOT_BYTES_MAX / std::max<size_t>(per_system, 1)));
    int64_t csize = std::min(batch, chunk_max);
    std::vector<size_t> offset(narrays);
    size_t slot_bytes = 0;
    for (int i = 0; i < narrays; i++) {
        offset[i] = slot_bytes;
        slot_bytes += round_up(arrays[i].bytes_per_system * size_t(csize));
    }
    int nslots = batch > csize ? 2 : 1;
    for (int s = 0; s < nslots; s++)
        if ((st = reserve(p, s, slot_bytes, msg, msglen)) != BSYM_OK)
            return st;

    chunk slot[2];
    std::vector<void *> dev(narrays);

    // Waits for the chunk on slot s and copies its outputs to the caller.
    auto finish = [&](int s) -> bsym_status {
        if (!slot[s].busy)
            return BSYM_OK;
        slot[s].busy = false;
        BSYM_CUDA_TRY(cudaEventSynchronize(p->done[s]));
        for (int i = 0; i < narrays; i++)
            if (arrays[i].out != nullptr) {
                size_t b = arrays[i].bytes_per_system;
                parallel_copy(static_cast<char *>(arrays[i].out) + b * size_t(slot[s].first),
                              static_cast<char *>(p->pin[s]) + offset[i], b * size_t(slot[s].count));
            }
        return BSYM_OK;
    };
    auto drain = [&]() {
        for (int s = 0; s < 2; s++)
            if (slot[s].busy) {
                cudaStreamSynchronize(p->stream[s]);
                slot[s].busy = false;
            }
    };

    int s = 0;
    for (int64_t first = 0; first < batch; first += csize, s = (s + 1) % nslots) {
        if (first > 0 && interrupt != nullptr && interrupt(idata)) {
            drain();
            std::snprintf(msg, msglen, "interrupted by the user");
            return BSYM_ERR_INTERRUPTED;
        }
        if ((st = finish(s)) != BSYM_OK) {
            drain();
            return st;
        }
        int64_t count = std::min(csize, batch - first);
        char *pin = static_cast<char *>(p->pin[s]);
        char *d = static_cast<char *>(p->dev[s]);
        for (int i = 0; i < narrays; i++) {
            size_t b = arrays[i].bytes_per_system;
            dev[i] = d + offset[i];
            if (arrays[i].in == nullptr)
                continue;
            parallel_copy(pin + offset[i], static_cast<const char *>(arrays[i].in) + b * size_t(first),
                          b * size_t(count));
            cudaError_t err = cudaMemcpyAsync(dev[i], pin + offset[i], b * size_t(count),
                                              cudaMemcpyHostToDevice, p->stream[s]);
            if (err != cudaSuccess) {
                drain();
                return bsym_cuda_fail(err, "copying a chunk to the GPU", msg, msglen);
            }
        }
        if ((st = launch(arg, dev.data(), count, p->stream[s], msg, msglen)) != BSYM_OK) {
            drain();
            return st;
        }
        for (int i = 0; i < narrays; i++) {
            if (arrays[i].out == nullptr)
                continue;
            cudaError_t err = cudaMemcpyAsync(pin + offset[i], dev[i], arrays[i].bytes_per_system * size_t(count),
                                              cudaMemcpyDeviceToHost, p->stream[s]);
            if (err != cudaSuccess) {
                drain();
                return bsym_cuda_fail(err, "copying a chunk from the GPU", msg, msglen);
            }
        }
        cudaError_t err = cudaEventRecord(p->done[s], p->stream[s]);
        if (err != cudaSuccess) {
            drain();
            return bsym_cuda_fail(err, "cudaEventRecord", msg, msglen);
        }
        slot[s].first = first;
        slot[s].count = count;
        slot[s].busy = true;
    }
    for (int k = 0; k < 2; k++)
        if ((st = finish(k)) != BSYM_OK) {
            drain();
            return st;
        }
    return BSYM_OK;
}
