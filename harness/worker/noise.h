/* harness/worker/noise.h: noise on the GPU beside a call under test, for
 * the stress parts of the labs whose kernels hand work between blocks (lab
 * 08's look-back scan, lab 09's look-back digit pass): random kernels on a
 * stream of their own that hold SMs or hammer memory for random times, so
 * that the blocks of the call run in orders and at speeds a quiet GPU never
 * shows. Worker side only. */
#ifndef PRIMLAB_WORKER_NOISE_H
#define PRIMLAB_WORKER_NOISE_H

#include "gpu.h"

#include <cuda_runtime.h>

/* Launches the noise for a call over n words, on its own stream, and
   returns 1; 0 when it cannot (then the call runs without it). */
int pl_noise_start(long n);

/* Waits for the noise launched last; 0 when that failed. */
int pl_noise_wait(void);

/* A stress part's call: call() under the noise, then the worker's word on
   the tile counter after the n outputs: out[n] = 1 when the call moved the
   counter (the first word of the scratch, poisoned before the call) off 0,
   0 when it left it there, nothing when it never wrote it (the poison
   stays: the parent says which). n = 0 launches nothing and writes
   out[0] = 1. The parent's half: pl_stress_counter_word
   (harness/parent/judges/stress.h). Returns 0, as an op does. */
template <class Call> int pl_stress_call(int *out, int n, const int *scratch, Call call)
{
    int one = 1;
    if (n == 0) { /* nothing to launch, nothing to check */
        CUDA_CHECK(cudaMemcpy(out, &one, sizeof one, cudaMemcpyHostToDevice));
        return 0;
    }
    int noisy = pl_noise_start(n);
    call();
    /* the call's kernels done (a fault is reported by the caller's check) */
    unsigned counter = 0;
    if (cudaMemcpy(&counter, scratch, sizeof counter, cudaMemcpyDeviceToHost) != cudaSuccess)
        return 0;
    if (noisy && !pl_noise_wait())
        return 0;
    if (counter != (unsigned)PL_POISON_I32) {
        int seen = counter != 0;
        CUDA_CHECK(cudaMemcpy(out + n, &seen, sizeof seen, cudaMemcpyHostToDevice));
    }
    return 0;
}

#endif
