/* harness/lab_run.cu: one correctness test, and the benchmark, for an
 * array-operation lab (see lab.h). Both run in the calling process and
 * use CUDA: tests are called inside isolated children. */
#include "lab.h"

#include "diagnose.h"
#include "gpu.h"
#include "report.h"
#include "rng.h"
#include "timing.h"

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        pl_child_abort(PL_ERROR, "out of host memory", NULL);
    return p;
}

/* Every part gets its own inputs for each (seed, n). */
static uint64_t test_seed(uint64_t seed, const pl_part *p, long n)
{
    return pl_seed_mix(seed, (uint64_t)(unsigned char)p->id[0], (uint64_t)n);
}

static long part_max_n(const pl_part *p) { return p->max_n > 0 ? p->max_n : INT_MAX; }

/* Allocates or explains: a size beyond device memory is a clear one-liner. */
static int dalloc(pl_dbuf *b, size_t bytes, long n, pl_result *r)
{
    int e = pl_dbuf_alloc(b, bytes);
    if (e == 0)
        return 1;
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    r->status = PL_SKIP;
    snprintf(r->reason, sizeof r->reason,
             "n = %ld does not fit: a %.1f MiB device buffer failed (%s), %.1f MiB free", n,
             (double)bytes / (1 << 20), cudaGetErrorName((cudaError_t)e), (double)free_b / (1 << 20));
    return 0;
}

extern "C" void pl_lab_test(const pl_lab *lab, const pl_part *part, long n, uint64_t seed, pl_result *r)
{
    if (n < 0 || n > part_max_n(part)) {
        r->status = PL_SKIP;
        snprintf(r->reason, sizeof r->reason, "n = %ld is outside part (%s)'s contract (0 <= n <= %ld)", n,
                 part->id, part_max_n(part));
        return;
    }
    size_t bytes = (size_t)n * sizeof(int);
    int *in = (int *)xmalloc(bytes), *want = (int *)xmalloc(bytes), *got = (int *)xmalloc(bytes);
    int *got2 = (int *)xmalloc(bytes), *in_after = (int *)xmalloc(bytes);
    uint8_t *front = (uint8_t *)xmalloc(PL_GUARD_BYTES), *back = (uint8_t *)xmalloc(PL_GUARD_BYTES);
    pl_gen_ints(in, (size_t)n, test_seed(seed, part, n), lab->gen_lo, lab->gen_hi);
    part->cpu(in, want, (size_t)n);

    pl_dbuf din = {}, dout = {}, dscr = {}; /* freeable even if an allocation fails */
    if (dalloc(&din, bytes, n, r) && dalloc(&dout, bytes, n, r) &&
        dalloc(&dscr, lab->scratch_ints(n) * sizeof(int), n, r)) {
        pl_dbuf_upload(&din, in);
        /* Two runs from freshly poisoned buffers: a race shows as a difference. */
        for (int run = 0; run < 2; run++) {
            pl_dbuf_poison(&dout);
            pl_dbuf_poison(&dscr);
            CUDA_CHECK(cudaDeviceSynchronize());
            part->gpu((const int *)din.ptr, (int *)dout.ptr, (int)n, (int *)dscr.ptr);
            pl_check_call(part->entry);
            if (run == 0)
                pl_dbuf_download(&dout, got, front, back);
            else
                pl_dbuf_download(&dout, got2, NULL, NULL);
        }
        pl_dbuf_download(&din, in_after, NULL, NULL);

        pl_cmp c = {};
        c.want = want;
        c.got = got;
        c.n = (size_t)n;
        c.got2 = got2;
        c.guard_front = front;
        c.guard_back = back;
        c.guard_bytes = PL_GUARD_BYTES;
        c.in = in;
        c.in_after = in_after;
        c.hint_right = part->hint_right;
        c.hint_left = part->hint_left;
        pl_diag d;
        int ok = pl_compare_i32(&c, &d);
        r->status = ok ? PL_PASS : PL_FAIL;
        r->findings = d.findings;
        snprintf(r->reason, sizeof r->reason, "%s", d.reason);
        snprintf(r->detail, sizeof r->detail, "%s", d.detail);
    }
    pl_dbuf_free(&din);
    pl_dbuf_free(&dout);
    pl_dbuf_free(&dscr);
    free(in), free(want), free(got), free(got2), free(in_after), free(front), free(back);

    /* n = 0 has nothing to compare: a stub would pass it. Probe n = 1 too,
       so that only a part that works scores this test. */
    if (n == 0 && r->status == PL_PASS) {
        pl_lab_test(lab, part, 1, seed, r);
        if (r->status != PL_PASS) {
            char reason[sizeof r->reason];
            snprintf(reason, sizeof reason, "n = 0 is fine, but the n = 1 probe: %.160s", r->reason);
            memcpy(r->reason, reason, sizeof reason);
        }
    }
}

/* ---------------------------------------------------------------- bench */

struct call_arg {
    const pl_part *part;
    const pl_lab *lab;
    const int *d_in, *h_in;
    int *d_out, *h_out, *d_scratch;
    void *d_temp;
    size_t temp_bytes;
    long n;
    pl_dbuf *out_buf;
};

static void call_impl(void *p)
{
    call_arg *a = (call_arg *)p;
    a->part->gpu(a->d_in, a->d_out, (int)a->n, a->d_scratch);
}

static void call_vendor(void *p)
{
    call_arg *a = (call_arg *)p;
    CUDA_CHECK(a->part->vendor(a->d_in, a->d_out, (int)a->n, a->d_temp, a->temp_bytes));
}

static void call_cpu(void *p)
{
    call_arg *a = (call_arg *)p;
    a->part->cpu(a->h_in, a->h_out, (size_t)a->n);
}

static void call_omp(void *p)
{
    call_arg *a = (call_arg *)p;
    a->part->omp(a->h_in, a->h_out, (size_t)a->n);
}

static void poison_out(void *p) { pl_dbuf_poison(((call_arg *)p)->out_buf); }

/* Runs a GPU variant once and checks it against want; 1 if right. */
static int verify(void (*call)(void *), call_arg *a, const int *want, int *got, const char *who)
{
    pl_dbuf_poison(a->out_buf);
    call(a);
    pl_check_call(who);
    pl_dbuf_download(a->out_buf, got, NULL, NULL);
    pl_cmp c = {};
    c.want = want;
    c.got = got;
    c.n = (size_t)a->n;
    c.hint_right = a->part->hint_right;
    c.hint_left = a->part->hint_left;
    pl_diag d;
    if (pl_compare_i32(&c, &d))
        return 1;
    fprintf(stderr, "lab%s: part %s (%s) is wrong at n = %ld, so it is not timed: %s\n", a->lab->id,
            a->part->id, who, a->n, d.reason);
    return 0;
}

extern "C" int pl_lab_bench(const pl_lab *lab, const pl_bench_opts *o)
{
    int wrong = 0;
    double copy = NAN;
    pl_devinfo dev;
    memset(&dev, 0, sizeof dev);
    snprintf(dev.name, sizeof dev.name, "cpu-only");
    if (o->gpu) {
        if (!pl_devinfo_here(&dev))
            pl_child_abort(PL_ERROR, dev.error, NULL);
        copy = pl_copy_gbps();
        if (o->progress)
            fprintf(o->progress, "device: %s, %d SMs, copy bandwidth %.0f GB/s (read + write)\n", dev.name,
                    dev.sms, copy);
    }
    if (o->tsv)
        pl_tsv_begin(o->tsv, dev.name, copy, o->source ? o->source : "measured");
    if (o->table)
        pl_table_begin(o->table);

    for (int s = 0; s < o->nsizes; s++) {
        long n = o->sizes[s];
        size_t bytes = (size_t)n * sizeof(int);
        if (o->progress)
            fprintf(o->progress, "[%2d/%d] n = %ld\n", s + 1, o->nsizes, n);
        int *in = (int *)xmalloc(bytes), *want = (int *)xmalloc(bytes), *got = (int *)xmalloc(bytes);
        pl_gen_ints(in, (size_t)n, pl_seed_mix(1, 0, (uint64_t)n), lab->gen_lo, lab->gen_hi);
        pl_dbuf din = {}, dout = {}, dscr = {}, dtemp = {};
        size_t temp_bytes = 0;
        if (o->gpu) {
            pl_result r = {};
            if (!dalloc(&din, bytes, n, &r) || !dalloc(&dout, bytes, n, &r) ||
                !dalloc(&dscr, lab->scratch_ints(n) * sizeof(int), n, &r))
                pl_child_abort(PL_ERROR, r.reason, NULL);
            temp_bytes = lab->vendor_temp_bytes ? lab->vendor_temp_bytes((int)n) : 0;
            if (!dalloc(&dtemp, temp_bytes, n, &r))
                pl_child_abort(PL_ERROR, r.reason, NULL);
            pl_dbuf_upload(&din, in);
        }
        for (int k = 0; k < lab->nparts; k++) {
            const pl_part *p = &lab->parts[k];
            if (!p->bench || (o->part && o->part != p) || n > part_max_n(p))
                continue;
            call_arg a = {p, lab, (const int *)din.ptr, in, (int *)dout.ptr, got, (int *)dscr.ptr,
                          dtemp.ptr, temp_bytes, n, &dout};
            p->cpu(in, want, (size_t)n);
            double t_ser = pl_time_cpu_ms(call_cpu, &a, o->reps, 2.0, NULL);
            double t_omp = pl_time_cpu_ms(call_omp, &a, o->reps, 2.0, NULL);
            double t_ven = NAN, t_imp = NAN;
            if (o->gpu && p->vendor && verify(call_vendor, &a, want, got, "cub"))
                t_ven = pl_time_gpu_ms(call_vendor, &a, poison_out, &a, o->reps);
            if (o->gpu) {
                if (verify(call_impl, &a, want, got, pl_impl_variant))
                    t_imp = pl_time_gpu_ms(call_impl, &a, poison_out, &a, o->reps);
                else
                    wrong++;
            }
            struct {
                const char *variant;
                double t;
                int on_gpu;
            } v[] = {{"cpu_serial", t_ser, 0}, {"cpu_omp", t_omp, 0}, {"cub", t_ven, 1}, {pl_impl_variant, t_imp, 1}};
            for (size_t j = 0; j < sizeof v / sizeof v[0]; j++) {
                if (std::isnan(v[j].t))
                    continue;
                pl_row row;
                row.lab = lab->id;
                row.part = p->id;
                row.variant = v[j].variant;
                row.device = dev.name;
                row.n = n;
                row.reps = o->reps;
                row.time_ms = v[j].t;
                row.gbps = lab->bytes_per_elem * (double)n / (v[j].t * 1e-3) / 1e9;
                row.pct_copy = v[j].on_gpu ? 100.0 * row.gbps / copy : NAN;
                row.copy_gbps = copy;
                row.x_serial = t_ser / v[j].t;
                row.x_omp = t_omp / v[j].t;
                row.x_vendor = t_ven / v[j].t;
                if (o->tsv)
                    pl_tsv_row(o->tsv, &row);
                if (o->table)
                    pl_table_row(o->table, &row);
            }
        }
        pl_dbuf_free(&din);
        pl_dbuf_free(&dout);
        pl_dbuf_free(&dscr);
        pl_dbuf_free(&dtemp);
        free(in), free(want), free(got);
    }
    return wrong;
}
