// common.cuh -- what the CUDA files share: error checks that turn a failing
// CUDA call into a bsym_status with a message, and the cached backend state.
#ifndef BSYM_COMMON_CUH
#define BSYM_COMMON_CUH

#include <cstdio>
#include <cuda_runtime.h>

#include "bsym_cuda.h"

// Writes "what: CUDA's message" to msg and returns BSYM_ERR_CUDA (or
// BSYM_ERR_NOMEM for an allocation failure).
static inline bsym_status bsym_cuda_fail(cudaError_t err, const char *what, char *msg, size_t msglen)
{
    if (msg != nullptr && msglen > 0)
        std::snprintf(msg, msglen, "%s: %s", what, cudaGetErrorString(err));
    return err == cudaErrorMemoryAllocation ? BSYM_ERR_NOMEM : BSYM_ERR_CUDA;
}

// Evaluates a CUDA call; on failure returns its status from the enclosing
// function (which must have msg and msglen in scope).
#define BSYM_CUDA_TRY(call)                                                     \
    do {                                                                        \
        cudaError_t bsym_err_ = (call);                                         \
        if (bsym_err_ != cudaSuccess)                                           \
            return bsym_cuda_fail(bsym_err_, #call, msg, msglen);               \
    } while (0)

// One per-system array that a chunked call moves between host and device.
// in: host source (NULL when the kernel only writes it); out: host
// destination (NULL when the kernel only reads it); in == out for in/out.
struct bsym_array {
    const void *in;
    void *out;
    size_t bytes_per_system;
};

// Launches the kernel on `count` systems whose arrays are at dev[i] (in the
// order given to bsym_pipeline) on stream s; returns a status.
typedef bsym_status (*bsym_chunk_fn)(void *arg, void *const *dev, int64_t count, cudaStream_t s,
                                     char *msg, size_t msglen);

// Moves `batch` systems through the GPU in chunks: pinned staging, two
// streams so that the host copies of one chunk overlap the device work of the
// other, the kernel through `launch`. Polls interrupt between chunks.
bsym_status bsym_pipeline(void **state, const bsym_array *arrays, int narrays, int64_t batch,
                          bsym_chunk_fn launch, void *arg, bsym_interrupt_fn interrupt,
                          void *idata, char *msg, size_t msglen);

#endif
