/* harness/worker/noise.h: noise on the GPU beside a call under test, for
 * the stress parts of the labs whose kernels hand work between blocks (lab
 * 08's look-back scan, lab 09's look-back digit pass): random kernels on a
 * stream of their own that hold SMs or hammer memory for random times, so
 * that the blocks of the call run in orders and at speeds a quiet GPU never
 * shows. Worker side only. */
#ifndef PRIMLAB_WORKER_NOISE_H
#define PRIMLAB_WORKER_NOISE_H

/* Launches the noise for a call over n words, on its own stream, and
   returns 1; 0 when it cannot (then the call runs without it). */
int pl_noise_start(long n);

/* Waits for the noise launched last; 0 when that failed. */
int pl_noise_wait(void);

#endif
