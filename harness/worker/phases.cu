/* harness/worker/phases.cu: per-phase GPU timing from marks (see phases.h). */
#include "phases.h"

#include "gpu.h"

#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

static cudaEvent_t ev[PL_MAX_SPANS + 2];
static const char *names[PL_MAX_SPANS + 2];
static int marks, recording, overflow, created;

extern "C" void primlab_phase(const char *name)
{
    if (!recording)
        return;
    if (marks > PL_MAX_SPANS) { /* slot 0 is the start */
        overflow = 1;
        return;
    }
    CUDA_CHECK(cudaEventRecord(ev[marks], 0));
    names[marks++] = name ? name : "(unnamed)";
}

extern "C" void pl_phases_start(void)
{
    if (!created) {
        for (int i = 0; i < PL_MAX_SPANS + 2; i++)
            CUDA_CHECK(cudaEventCreate(&ev[i]));
        created = 1;
    }
    marks = 0;
    overflow = 0;
    recording = 1;
    primlab_phase("(before the first mark)");
}

extern "C" int pl_phases_stop(pl_shm_span *spans, int cap)
{
    recording = 0;
    CUDA_CHECK(cudaEventRecord(ev[marks], 0));
    CUDA_CHECK(cudaEventSynchronize(ev[marks]));
    if (overflow)
        return -1;
    int k = 0;
    for (int i = 0; i < marks && k < cap; i++) {
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, ev[i], ev[i + 1]));
        if (i == 0 && ms < 0.01f)
            continue;
        int pass = 0;
        for (int j = 0; j < k; j++)
            pass += !strncmp(spans[j].name, names[i], sizeof spans[j].name - 1);
        snprintf(spans[k].name, sizeof spans[k].name, "%s", names[i]);
        spans[k].pass = pass;
        spans[k++].ms = ms;
    }
    return k;
}
