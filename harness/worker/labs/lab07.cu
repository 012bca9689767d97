/* harness/worker/labs/lab07.cu: lab 07's entry points as the worker calls
 * them (see ../ops.h); the parts themselves are in harness/parent/labs/lab07.c.
 * The input is the packed problem of harness/wire/lab07.h (which also lists
 * the ids both sides share); its sizes are read from the header of the
 * staged input in host memory. Each op first copies a
 * into the output, then runs the iterations there in place.
 *
 * Part a runs on the host: its op copies the problem to host memory, calls
 * segspmv_omp and copies a back; the copies are inside the timed call
 * (the `run` rows of part a say so); lab07's `table` command times the
 * same call with no iteration and subtracts it. */
#include <cuda_runtime.h>

#include <stdlib.h>
#include <string.h>

#include "../../../kernels_ref/vendor/cub_segscan.h"
#include "../../../labs/07-segmented-spmv/segmented_spmv.h"
#include "../../wire/lab07.h"
#include "../ops.h"
#include "../phases.h"

/* The problem in the device input d, from the header the parent wrote; 0
   when the header does not describe an input of this length. */
struct seg {
    int rows, cols, n, iters, lanes, threads;
    lab07_at at;
};
static int seg_of(int size, seg *m)
{
    const int *h = pl_host_in;
    if (!h || pl_host_in_len < LAB07_HEADER_WORDS || h[2] != size || h[0] < 0 || h[1] < 0 || h[2] < 0 || h[3] < 0)
        return 0;
    *m = {h[0], h[1], h[2], h[3], h[4], h[5], lab07_layout(h[0], h[1], h[2])};
    return m->at.words == pl_host_in_len;
}

/* a into the output, where the iterations run */
static int start(const int *in, int *out, int size, seg *m)
{
    if (!seg_of(size, m))
        return 0;
    if (m->n > 0)
        cudaMemcpyAsync(out, in + m->at.a, (size_t)m->n * 4, cudaMemcpyDeviceToDevice);
    return 1;
}

/* A GPU part's op: a into the output, then the call on it */
#define SEG_OP(name, call)                                                    \
    static int name(const int *in, int *out, int size, int *scratch)         \
    {                                                                         \
        seg m;                                                                \
        if (!start(in, out, size, &m))                                        \
            return 1;                                                         \
        const int *s = in + m.at.s, *k = in + m.at.k;                         \
        const float *x = (const float *)(in + m.at.x);                        \
        call;                                                                 \
        return 0;                                                             \
    }
SEG_OP(b_gpu, segspmv_naive(m.rows, m.n, s, k, x, (float *)out, m.iters, m.lanes, scratch))
SEG_OP(c_gpu, segspmv_warp(m.rows, m.n, s, k, x, (float *)out, m.iters, scratch))
SEG_OP(d_gpu, segspmv_flat(m.rows, m.n, s, k, x, (float *)out, m.iters, scratch))

/* Part a: the problem in host memory (grown, kept between calls) */
static int *h_buf;
static size_t h_cap;
static int a_cpu(const int *in, int *out, int size, int *scratch)
{
    (void)scratch;
    seg m;
    if (!seg_of(size, &m))
        return 1;
    size_t bytes = (size_t)m.at.words * 4;
    if (bytes > h_cap) {
        free(h_buf);
        h_buf = (int *)malloc(bytes);
        h_cap = h_buf ? bytes : 0;
        if (!h_buf)
            return 1;
    }
    primlab_phase("copy in");
    cudaMemcpy(h_buf, in, bytes, cudaMemcpyDeviceToHost);
    primlab_phase("openmp");
    segspmv_omp(m.rows, m.n, h_buf + m.at.s, h_buf + m.at.k, (const float *)(h_buf + m.at.x),
                (float *)(h_buf + m.at.a), m.iters, m.threads > 0 ? m.threads : 1);
    primlab_phase("copy out");
    if (m.n > 0)
        cudaMemcpy(out, h_buf + m.at.a, (size_t)m.n * 4, cudaMemcpyHostToDevice);
    return 0;
}

static int vendor(const int *in, int *out, int size, void *temp, size_t bytes)
{
    seg m;
    if (!start(in, out, size, &m))
        return (int)cudaErrorInvalidValue;
    return vendor_segspmv(m.rows, m.n, in + m.at.s, in + m.at.k, (const float *)(in + m.at.x), (float *)out,
                          m.iters, temp, bytes);
}

static size_t temp_bytes(int n) { return vendor_segspmv_temp_bytes(n); }

static constexpr pl_op_def op_a = {"segspmv_omp", a_cpu, vendor};
static constexpr pl_op_def op_b = {"segspmv_naive", b_gpu, vendor};
static constexpr pl_op_def op_c = {"segspmv_warp", c_gpu, vendor};
static constexpr pl_op_def op_d = {"segspmv_flat", d_gpu, vendor};

static constexpr pl_op ops[] = {PL_LAB07_PARTS(PL_OP_ROW)};
PL_OPS_TABLE(ops, temp_bytes)
