// device.cu -- device discovery, the chunked host <-> device pipeline that
// every batched host entry point of the CUDA backend goes through, and the
// split of one call over several GPUs.
//
// The pipeline, per device and chunk of systems: host threads pack the
// chunk into pinned staging (of a symmetric matrix only the referenced
// triangle, converted to float where the device computes in float), one
// copy in, a kernel expands the triangles, the operation's kernels, one copy
// out, and host threads unpack the results (converted back). Three slots,
// each with its stream, keep the host packing, the copies in, the kernels and
// the copies out of consecutive chunks running at once.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "common.cuh"
#include "host_pack.h"

namespace {

using namespace bsym_host_pack;

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

// Pipeline slots per device: while the host packs chunk c into one, the
// GPU copies in and computes chunk c - 1 and copies out chunk c - 2.
const int SLOTS = 3;

// Cached between calls on one context, per device: SLOTS streams, and per
// slot a device buffer and a pinned host staging buffer, grown on demand
// (never shrunk, so that a sequence of calls allocates once).
struct pipeline_state {
    int device = 0;
    cudaStream_t stream[SLOTS] = {};
    cudaEvent_t done[SLOTS] = {};
    void *dev[SLOTS] = {};
    void *pin[SLOTS] = {};
    size_t dcap[SLOTS] = {}, pcap[SLOTS] = {};
};

// The CUDA backend's state on a context (exec->state): one pipeline per
// device id, created on the device's first use.
struct gpu_states {
    pipeline_state *dev[BSYM_MAX_GPUS] = {};
};

// Chunk size: chunks of about 1/8 of a large call's link bytes (so that the
// pipeline's fill and drain, one chunk each, cost little), between 4 and
// 48 MB of link bytes (measured on the H200 machine, bench_host.c: caps of
// 8 and 16 MB lose 22 % and 5 % of the LDL^T throughput at 1e6 systems).
//
// Staging rather than registering the caller's arrays (cudaHostRegister)
// and copying from them: registering the 8.2 GB of 1e6 32 x 32 doubles takes
// 0.34 s and releasing them 0.12 s there, three times the whole staged call
// (0.16 s), and chunk by chunk it costs as much.
const size_t CHUNK_BYTES_MIN = size_t(4) << 20;
const size_t CHUNK_BYTES_MAX = size_t(48) << 20;
const size_t ALIGN = 256;
// Full waves of a compute-bound kernel a chunk holds at least (bsym_pipeline's
// per_sm): the last wave of each launch is partly idle, so that a launch of
// one wave wastes up to half the device; at 4 waves at most an eighth.
const int WAVES = 4;

size_t round_up(size_t x) { return (x + ALIGN - 1) / ALIGN * ALIGN; }

bsym_status get_state(void **state, int device, pipeline_state **ps, char *msg, size_t msglen)
{
    if (*state == nullptr) {
        gpu_states *g = new (std::nothrow) gpu_states;
        if (g == nullptr)
            return BSYM_ERR_NOMEM;
        *state = g;
    }
    gpu_states *g = static_cast<gpu_states *>(*state);
    if (g->dev[device] == nullptr) {
        pipeline_state *p = new (std::nothrow) pipeline_state;
        if (p == nullptr)
            return BSYM_ERR_NOMEM;
        p->device = device;
        g->dev[device] = p;
        for (int s = 0; s < SLOTS; s++) {
            BSYM_CUDA_TRY(cudaStreamCreateWithFlags(&p->stream[s], cudaStreamNonBlocking));
            BSYM_CUDA_TRY(cudaEventCreateWithFlags(&p->done[s], cudaEventDisableTiming));
        }
    }
    *ps = g->dev[device];
    return BSYM_OK;
}

// Makes slot s hold at least dbytes on the device and pbytes pinned.
bsym_status reserve(pipeline_state *p, int s, size_t dbytes, size_t pbytes, char *msg, size_t msglen)
{
    if (p->dcap[s] < dbytes) {
        cudaFree(p->dev[s]);
        p->dev[s] = nullptr;
        p->dcap[s] = 0;
        BSYM_CUDA_TRY(cudaMalloc(&p->dev[s], dbytes));
        p->dcap[s] = dbytes;
    }
    if (p->pcap[s] < pbytes) {
        cudaFreeHost(p->pin[s]);
        p->pin[s] = nullptr;
        p->pcap[s] = 0;
        BSYM_CUDA_TRY(cudaMallocHost(&p->pin[s], pbytes));
        p->pcap[s] = pbytes;
    }
    return BSYM_OK;
}

void release_one(pipeline_state *p)
{
    cudaSetDevice(p->device);
    for (int s = 0; s < SLOTS; s++) {
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

// ---- what crosses the link, per array and system ----


// Bytes of one system of array a on the link (and in its pinned region).
size_t link_bytes(const bsym_array &a)
{
    if (a.in == nullptr && a.out == nullptr)
        return 0;
    return a.tri_n > 0 ? tri_elems(a.tri_n) * size_t(a.dsize) * size_t(a.parts) : a.bytes_per_system;
}

// The host and device types of a differ (double host data, float device).
bool converts(const bsym_array &a) { return a.hsize > 0 && a.hsize != a.dsize; }

// Bytes of one system of a in the caller's (host) array.
size_t host_bytes(const bsym_array &a)
{
    return converts(a) ? a.bytes_per_system / size_t(a.dsize) * size_t(a.hsize) : a.bytes_per_system;
}

// memcpy whose stores bypass the caches (non-temporal): the stagis at
// `first`) of array a into its pinned region pin.
void pack_piece(const bsym_array &a, char *pin, int64_t first, int64_t k0, int64_t cnt)
{
    const char *src = static_cast<const char *>(a.in) + host_bytes(a) * size_t(first + k0);
    char *dst = pin + link_bytes(a) * size_t(k0);
    if (a.tri_n > 0) {
        const bool lower = a.uplo != 'U';
        if (a.hsize == 8 && a.dsize == 4)
            pack_tri(reinterpret_cast<const double *>(src), reinterpret_cast<float *>(dst), a.tri_n, lower, cnt,
                     a.parts);
        else if (a.dsize == 8)
            pack_tri(reinterpret_cast<const double *>(src), reinterpret_cast<double *>(dst), a.tri_n, lower, cnt,
                     a.parts);
        else
            pack_tri(reinterpret_cast<const float *>(src), reinterpret_cast<float *>(dst), a.tri_n, lower, cnt,
                     a.parts);
    } else if (converts(a)) {
        convert(reinterpret_cast<const double *>(src), reinterpret_cast<float *>(dst),
                a.bytes_per_system / sizeof(float) * size_t(cnt));
    } else {
        stream_copy(dst, src, a.bytes_per_system * size_t(cnt));
    }
}

// The reverse for an output: the device type converted back to the host's.
void unpack_piece(const bsym_array &a, const char *pin, int64_t first, int64_t k0, int64_t cnt)
{
    char *dst = static_cast<char *>(a.out) + host_bytes(a) * size_t(first + k0);
    const char *src = pin + a.bytes_per_system * size_t(k0);
    if (converts(a))
        convert(reinterpret_cast<const float *>(src), reinterpret_cast<double *>(dst),
                a.bytes_per_system / sizeof(float) * size_t(cnt));
    else
        stream_copy(dst, src, a.bytes_per_system * size_t(cnt));
}

// Systems per piece of host work: about 256 KB of link bytes, so that a
// chunk splits into enough pieces for every thread.
int64_t piece_systems(size_t per_system)
{
    return std::max<int64_t>(1, int64_t((size_t(256) << 10) / std::max<size_t>(per_system, 1)));
}

// The referenced triangle (packed by columns) of `count` n x n matrices,
// expanded to both triangles: the kernels read the layout of the caller's
// matrices, and a symmetric one serves either uplo. P reals per element: a
// complex (P = 2) mirrored element is the conjugate, so a Hermitian matrix
// also serves either uplo.
template <int P, typename T>
__global__ void expand_kernel(const T *__restrict__ packed, T *__restrict__ full, int n, bool lower, int64_t count)
{
    const int64_t nn = int64_t(n) * n, te = int64_t(n) * (n + 1) / 2;
    for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < count * nn;
         idx += int64_t(gridDim.x) * blockDim.x) {
        const int64_t k = idx / nn;
        const int r = int(idx - k * nn);
        int i = r % n, j = r / n;
        const bool mirror = lower ? i < j : i > j; // the other triangle: read the mirror
        if (mirror) {
            const int t = i;
            i = j;
            j = t;
        }
        const int64_t p = lower ? int64_t(j) * n - int64_t(j) * (j - 1) / 2 + (i - j) : int64_t(j) * (j + 1) / 2 + i;
        const T *src = packed + (k * te + p) * P;
        T *dst = full + idx * P;
        dst[0] = src[0];
        if (P == 2)
            dst[1] = mirror ? -src[1] : src[1];
    }
}

template <typename T>
void expand_as(const bsym_array &a, const void *packed, void *full, int64_t count, cudaStream_t s)
{
    const int64_t total = int64_t(a.tri_n) * a.tri_n * count;
    const unsigned blocks = unsigned(std::min<int64_t>((total + 255) / 256, 65535));
    const bool lower = a.uplo != 'U';
    if (a.parts == 2)
        expand_kernel<2><<<blocks, 256, 0, s>>>(static_cast<const T *>(packed), static_cast<T *>(full), a.tri_n,
                                                lower, count);
    else
        expand_kernel<1><<<blocks, 256, 0, s>>>(static_cast<const T *>(packed), static_cast<T *>(full), a.tri_n,
                                                lower, count);
}

bsym_status expand(const bsym_array &a, const void *packed, void *full, int64_t count, cudaStream_t s,
                   char *msg, size_t msglen)
{
    if (a.dsize == 8)
        expand_as<double>(a, packed, full, count, s);
    else
        expand_as<float>(a, packed, full, count, s);
    BSYM_CUDA_TRY(cudaGetLastError());
    return BSYM_OK;
}

// One chunk in flight on a slot: which systems it holds.
struct chunk {
    int64_t first = 0, count = 0;
    bool busy = false;
};

// The OpenMP team of the host packing: exec->threads (0: OpenMP's default;
// a worker of a call over several GPUs is given its share, on_gpus).
int pack_team(const bsym__exec *x)
{
#ifdef _OPENMP
    return x->threads > 0 ? x->threads : omp_get_max_threads();
#else
    (void)x;
    return 1;
#endif
}

// One device's pipeline (the device is current on the calling thread).
bsym_status run_pipeline(const bsym__exec *x, int device, const bsym_array *arrays, int narrays, int64_t batch,
                         bsym_chunk_fn launch, void *arg, bool waits, int per_sm)
{
    char *msg = x->msg;
    const size_t msglen = x->msglen;
    pipeline_state *p = nullptr;
    bsym_status st = get_state(x->state, device, &p, msg, msglen);
    if (st != BSYM_OK)
        return st;

    // Per system: link bytes (pinned, copied), device bytes (the kernels'
    // arrays, plus the packed triangles the copies land in).
    size_t link = 0, devb = 0;
    for (int i = 0; i < narrays; i++) {
        link += link_bytes(arrays[i]);
        devb += arrays[i].bytes_per_system + (arrays[i].tri_n > 0 ? link_bytes(arrays[i]) : 0);
    }
    const size_t target = std::min(CHUNK_BYTES_MAX, std::max(CHUNK_BYTES_MIN, link * size_t(batch) / 8));
    int64_t csize = std::min<int64_t>(batch, std::max<int64_t>(1, int64_t(target / std::max<size_t>(link, 1))));
    if (per_sm > 0) { // compute bound: at least WAVES full waves a launch
        int sms = 0;
        if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess)
            sms = 1;
        csize = std::min<int64_t>(batch, std::max<int64_t>(csize, int64_t(WAVES) * per_sm * sms));
    }
    // Carve-out of one slot: each array's regions at 256-byte aligned offsets.
    std::vector<size_t> poff(narrays), doff(narrays), dpack(narrays);
    size_t pbytes = 0, dbytes = 0;
    for (int i = 0; i < narrays; i++) {
        poff[i] = pbytes;
        pbytes += round_up(link_bytes(arrays[i]) * size_t(csize));
        doff[i] = dbytes;
        dbytes += round_up(arrays[i].bytes_per_system * size_t(csize));
        dpack[i] = dbytes;
        if (arrays[i].tri_n > 0)
            dbytes += round_up(link_bytes(arrays[i]) * size_t(csize));
    }
    const int nslots = int(std::min<int64_t>(SLOTS, (batch + csize - 1) / csize));
    for (int s = 0; s < nslots; s++)
        if ((st = reserve(p, s, std::max<size_t>(dbytes, 1), std::max<size_t>(pbytes, 1), msg, msglen)) != BSYM_OK)
            return st;

    // Issuing threads (below) only where a later chunk could be packed
    // meanwhile; one needs a core of its own: the team's threads keep
    // theirs spinning for a while after each parallel region.
    const bool threaded = waits && batch > csize;
    const int team = std::max(1, pack_team(x) - (threaded ? 1 : 0));
    chunk slot[SLOTS];

    // The host side of slot s: unpack its finished chunk (if any), then pack
    // chunk [first, first + count) into it (count 0: none), in one parallel
    // region over pieces of systems (the unpacking done before any packing:
    // an in/out array's pinned region serves both).
    auto host_work = [&](int s, int64_t first, int64_t count) {
        const chunk done = slot[s];
        const int64_t piece = piece_systems(link);
        const int64_t out_pieces = done.busy ? (done.count + piece - 1) / piece : 0;
        const int64_t in_pieces = (count + piece - 1) / piece;
        char *pin = static_cast<char *>(p->pin[s]);
#pragma omp parallel num_threads(team) if (out_pieces + in_pieces > 1)
        {
#pragma omp for schedule(dynamic, 1)
            for (int64_t q = 0; q < out_pieces; q++) {
                const int64_t k0 = q * piece, cnt = std::min(piece, done.count - k0);
                for (int i = 0; i < narrays; i++)
                    if (arrays[i].out != nullptr)
                        unpack_piece(arrays[i], pin + poff[i], done.first, k0, cnt);
            }
#pragma omp for schedule(dynamic, 1)
            for (int64_t q = 0; q < in_pieces; q++) {
                const int64_t k0 = q * piece, cnt = std::min(piece, count - k0);
                for (int i = 0; i < narrays; i++)
                    if (arrays[i].in != nullptr)
                        pack_piece(arrays[i], pin + poff[i], first, k0, cnt);
            }
            stream_fence(); // this thread's streamed stores, before the copy is issued
        }
        slot[s].busy = false;
    };
    // The device side of a chunk: the copies in, the triangles' expansion,
    // the operation's kernels, the copies out, the slot's event. When the
    // operation waits on the device between its steps (`waits`: the
    // automatic strategy reads back how many systems go on), a thread of its
    // own issues it, so that the loop packing the next chunks does not wait
    // with it; else this thread does (a thread per chunk would compete with
    // the packing team for the cores: LDL^T at 1e6 systems lost a third).
    struct issuer {
        std::thread thread;
        bsym_status st = BSYM_OK;
        char msg[512] = "";
    };
    issuer iss[SLOTS];
    auto issue = [&, device](int s, int64_t count) {
        issuer &me = iss[s];
        auto cuda_error = [&me](cudaError_t err, const char *what) {
            me.st = bsym_cuda_fail(err, what, me.msg, sizeof me.msg);
        };
        cudaError_t err = cudaSetDevice(device);
        if (err != cudaSuccess)
            return cuda_error(err, "cudaSetDevice");
        char *pin = static_cast<char *>(p->pin[s]);
        char *d = static_cast<char *>(p->dev[s]);
        const cudaStream_t str = p->stream[s];
        std::vector<void *> dev(narrays);
        for (int i = 0; i < narrays; i++) {
            const bsym_array &a = arrays[i];
            dev[i] = d + doff[i];
            if (a.in == nullptr)
                continue;
            void *land = a.tri_n > 0 ? d + dpack[i] : dev[i];
            err = cudaMemcpyAsync(land, pin + poff[i], link_bytes(a) * size_t(count), cudaMemcpyHostToDevice, str);
            if (err != cudaSuccess)
                return cuda_error(err, "copying a chunk to the GPU");
            if (a.tri_n > 0 && (me.st = expand(a, land, dev[i], count, str, me.msg, sizeof me.msg)) != BSYM_OK)
                return;
        }
        if ((me.st = launch(arg, dev.data(), count, str, me.msg, sizeof me.msg)) != BSYM_OK)
            return;
        for (int i = 0; i < narrays; i++) {
            if (arrays[i].out == nullptr)
                continue;
            err = cudaMemcpyAsync(pin + poff[i], dev[i], arrays[i].bytes_per_system * size_t(count),
                                  cudaMemcpyDeviceToHost, str);
            if (err != cudaSuccess)
                return cuda_error(err, "copying a chunk from the GPU");
        }
        if ((err = cudaEventRecord(p->done[s], str)) != cudaSuccess)
            return cuda_error(err, "cudaEventRecord");
    };
    // Slot s free for the host: its issuing thread done, its chunk finished.
    auto wait = [&](int s) -> bsym_status {
        if (iss[s].thread.joinable())
            iss[s].thread.join();
        if (iss[s].st != BSYM_OK) {
            std::snprintf(msg, msglen, "%s", iss[s].msg);
            return iss[s].st;
        }
        if (slot[s].busy)
            BSYM_CUDA_TRY(cudaEventSynchronize(p->done[s]));
        return BSYM_OK;
    };
    auto drain = [&]() {
        for (int s = 0; s < nslots; s++) {
            if (iss[s].thread.joinable())
                iss[s].thread.join();
            if (slot[s].busy) {
                cudaStreamSynchronize(p->stream[s]);
                slot[s].busy = false;
            }
        }
    };

    int s = 0;
    for (int64_t first = 0; first < batch; first += csize, s = (s + 1) % nslots) {
        if (first > 0 && x->interrupt != nullptr && x->interrupt(x->interrupt_data)) {
            drain();
            std::snprintf(msg, msglen, "interrupted by the user");
            return BSYM_ERR_INTERRUPTED;
        }
        if ((st = wait(s)) != BSYM_OK) {
            drain();
            return st;
        }
        const int64_t count = std::min(csize, batch - first);
        host_work(s, first, count);
        slot[s].first = first;
        slot[s].count = count;
        slot[s].busy = true;
        if (threaded)
            iss[s].thread = std::thread(issue, s, count);
        else
            issue(s, count);
    }
    // The last chunks, in the order they were issued.
    for (int k = 0; k < nslots; k++) {
        const int t = (s + k) % nslots;
        if ((st = wait(t)) != BSYM_OK) {
            drain();
            return st;
        }
        host_work(t, 0, 0);
    }
    return BSYM_OK;
}

// The device of exec x's current thread: its first GPU (a worker of a call
// over several GPUs is given an exec with its own device first).
int current_device(const bsym__exec *x) { return x->ngpus > 0 ? x->gpus[0] : 0; }

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
    gpu_states *g = static_cast<gpu_states *>(state);
    if (g == nullptr)
        return;
    for (int d = 0; d < BSYM_MAX_GPUS; d++)
        if (g->dev[d] != nullptr)
            release_one(g->dev[d]);
    delete g;
}

int bsym_cuda::devices()
{
    const device_facts &f = facts();
    return f.usable ? std::min(f.count, int(BSYM_MAX_GPUS)) : 0;
}

// Pinned copies of `bytes` to and from each of the n devices, issued on a
// stream per device so that all are in flight together, timed by the host
// clock from the first issue to the last completion; the best of three
// (after a warm-up) per direction.
bsym_status bsym_cuda::link_rate(const int *gpus, int n, size_t bytes, double *h2d, double *d2h, char *msg,
                                 size_t msglen)
{
    struct buffers {
        void *pin = nullptr, *dev = nullptr;
        cudaStream_t stream = nullptr;
    };
    std::vector<buffers> b(n);
    cudaError_t err = cudaSuccess;
    for (int i = 0; i < n && err == cudaSuccess; i++) {
        err = cudaSetDevice(gpus[i]);
        if (err == cudaSuccess)
            err = cudaMallocHost(&b[i].pin, bytes);
        if (err == cudaSuccess)
            err = cudaMalloc(&b[i].dev, bytes);
        if (err == cudaSuccess)
            err = cudaStreamCreateWithFlags(&b[i].stream, cudaStreamNonBlocking);
        if (err == cudaSuccess)
            std::memset(b[i].pin, 1, bytes);
    }
    double best[2] = {0, 0};
    for (int dir = 0; dir < 2 && err == cudaSuccess; dir++)
        for (int rep = 0; rep < 4 && err == cudaSuccess; rep++) { // the first is a warm-up
            const auto t0 = std::chrono::steady_clock::now();
            for (int i = 0; i < n && err == cudaSuccess; i++) {
                err = cudaSetDevice(gpus[i]);
                if (err == cudaSuccess)
                    err = dir == 0 ? cudaMemcpyAsync(b[i].dev, b[i].pin, bytes, cudaMemcpyHostToDevice, b[i].stream)
                                   : cudaMemcpyAsync(b[i].pin, b[i].dev, bytes, cudaMemcpyDeviceToHost, b[i].stream);
            }
            for (int i = 0; i < n && err == cudaSuccess; i++)
                err = cudaStreamSynchronize(b[i].stream);
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (err == cudaSuccess && rep > 0 && s > 0)
                best[dir] = std::max(best[dir], double(bytes) * n / s / 1e9);
        }
    for (int i = 0; i < n; i++) {
        cudaSetDevice(gpus[i]);
        if (b[i].stream)
            cudaStreamDestroy(b[i].stream);
        cudaFree(b[i].dev);
        cudaFreeHost(b[i].pin);
    }
    if (err != cudaSuccess)
        return bsym_cuda_fail(err, "measuring the host link", msg, msglen);
    *h2d = best[0];
    *d2h = best[1];
    return BSYM_OK;
}

bsym_status bsym_pipeline(const bsym__exec *x, const bsym_array *arrays, int narrays, int64_t batch,
                          bsym_chunk_fn launch, void *arg, bool waits, int per_sm)
{
    return run_pipeline(x, current_device(x), arrays, narrays, batch, launch, arg, waits, per_sm);
}

bsym_status bsym_cuda::on_gpus(const bsym__exec *x, const bsym__job *j, bsym__op_fn fn)
{
    char *msg = x->msg;
    const size_t msglen = x->msglen;
    // Devices used: each gets at least BSYM_GPU_SPLIT_MIN_BYTES of input.
    const size_t bytes = bsym__job_input_bytes(j);
    const int use = int(std::max<size_t>(1, std::min<size_t>(size_t(x->ngpus), bytes / BSYM_GPU_SPLIT_MIN_BYTES)));
    if (use == 1) {
        BSYM_CUDA_TRY(cudaSetDevice(x->gpus[0]));
        return fn(x, j);
    }
    // One worker thread per device on a contiguous share of the batch; this
    // thread polls the caller's interrupt hook (R's may only be called here)
    // and passes a stop to the workers through `stop`.
    struct worker {
        bsym__exec x;
        bsym__job j;
        bsym__strategy_stats stats{};
        int gpu;
        char msg[512];
        bsym_status st = BSYM_OK;
    };
    std::vector<worker> w(use);
    std::atomic<int> stop{0}, finished{0};
    auto stopped = [](void *flag) -> int { return static_cast<std::atomic<int> *>(flag)->load() != 0; };
    const int64_t share = (j->batch + use - 1) / use;
    for (int g = 0; g < use; g++) {
        const int64_t first = std::min(j->batch, share * g), count = std::min(share, j->batch - first);
        w[g].gpu = x->gpus[g];
        w[g].x = *x;
        w[g].x.gpus = &w[g].gpu;
        w[g].x.ngpus = 1;
        w[g].x.threads = std::max(1, pack_team(x) / use); // the host's cores shared
        w[g].x.interrupt = stopped;
        w[g].x.interrupt_data = &stop;
        w[g].x.msg = w[g].msg;
        w[g].x.msglen = sizeof w[g].msg;
        w[g].msg[0] = '\0';
        w[g].j = bsym__job_slice(j, first, count);
        if (j->stats != nullptr)
            w[g].j.stats = &w[g].stats;
    }
    std::mutex m;
    std::condition_variable cv;
    std::vector<std::thread> threads;
    for (int g = 0; g < use; g++)
        threads.emplace_back([&, g] {
            worker &me = w[g];
            const cudaError_t err = cudaSetDevice(me.gpu);
            me.st = err != cudaSuccess ? bsym_cuda_fail(err, "cudaSetDevice", me.msg, sizeof me.msg)
                    : me.j.batch > 0    ? fn(&me.x, &me.j)
                                        : BSYM_OK;
            if (me.st != BSYM_OK)
                stop = 1; // the others stop at their next chunk
            std::lock_guard<std::mutex> lock(m);
            finished++;
            cv.notify_one();
        });
    {
        std::unique_lock<std::mutex> lock(m);
        while (finished.load() < use) {
            cv.wait_for(lock, std::chrono::milliseconds(5));
            if (!stop.load() && finished.load() < use && x->interrupt != nullptr) {
                lock.unlock();
                if (x->interrupt(x->interrupt_data))
                    stop = 2;
                lock.lock();
            }
        }
    }
    for (std::thread &t : threads)
        t.join();
    // The first real failure wins over the stops it caused.
    bsym_status st = BSYM_OK;
    for (int g = 0; g < use; g++) {
        if (w[g].st == BSYM_OK || (st != BSYM_OK && w[g].st == BSYM_ERR_INTERRUPTED))
            continue;
        if (st == BSYM_OK || st == BSYM_ERR_INTERRUPTED) {
            st = w[g].st;
            std::snprintf(msg, msglen, "GPU %d: %s", w[g].gpu, w[g].msg);
        }
    }
    if (st == BSYM_ERR_INTERRUPTED && stop.load() == 2)
        std::snprintf(msg, msglen, "interrupted by the user");
    if (st == BSYM_OK && j->stats != nullptr)
        for (int g = 0; g < use; g++) {
            j->stats->solved += w[g].stats.solved;
            j->stats->fallback += w[g].stats.fallback;
            j->stats->not_spd += w[g].stats.not_spd;
        }
    return st;
}
