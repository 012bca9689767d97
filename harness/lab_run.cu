/* harness/lab_run.cu: one correctness test, and the benchmark, for an
 * array-operation lab (see lab.h). Both run in the calling process and
 * use CUDA: tests are called inside isolated children. */
#include "lab.h"

#include "diagnose.h"
#include "gpu.h"
#include "report.h"
#include "rubric.h"
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

/* Every part gets its own inputs for each (seed, n, param). */
static uint64_t test_seed(uint64_t seed, const pl_part *p, long n, double param)
{
    uint64_t pbits = 0;
    if (p->nparams)
        memcpy(&pbits, &param, sizeof pbits);
    return pl_seed_mix(seed ^ pbits, pl_part_hash(p), (uint64_t)n);
}

static void gen_input(const pl_lab *lab, const pl_part *p, int *a, size_t len, uint64_t seed, double param)
{
    if (p->gen)
        p->gen(a, len, seed, param);
    else
        pl_gen_ints(a, len, seed, lab->gen_lo, lab->gen_hi);
}

static long part_max_n(const pl_part *p) { return p->max_n > 0 ? p->max_n : INT_MAX; }
static long in_len(const pl_part *p, long n) { return p->in_len ? p->in_len(n) : n; }
static long out_len(const pl_part *p, long n) { return p->out_len ? p->out_len(n) : n; }
static size_t scratch_bytes(const pl_lab *lab, const pl_part *p, long n)
{
    long len = in_len(p, n) > out_len(p, n) ? in_len(p, n) : out_len(p, n);
    return lab->scratch_ints(len) * sizeof(int);
}

/* The comparison of a part's result with its reference: what every check
   of the part shares (the caller adds a second run and the input). */
static pl_cmp part_cmp(const pl_part *p, long n, const int *want, const int *got, const uint8_t *front,
                       const uint8_t *back)
{
    pl_cmp c = {};
    c.want = want;
    c.got = got;
    c.n = (size_t)out_len(p, n);
    c.guard_front = front;
    c.guard_back = back;
    c.guard_bytes = PL_GUARD_BYTES;
    c.hint_right = p->hint_right;
    c.hint_left = p->hint_left;
    c.sort = p->sort;
    c.sort_pairs = p->sort_pairs;
    return c;
}

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

extern "C" void pl_lab_test(const pl_lab *lab, const pl_part *part, long n, double param, uint64_t seed, pl_result *r)
{
    if (n < 0 || n > part_max_n(part)) {
        r->status = PL_SKIP;
        snprintf(r->reason, sizeof r->reason, "%s = %ld is outside part (%s)'s contract (0 <= %s <= %ld)",
                 pl_part_size_name(part), n, part->id, pl_part_size_name(part), part_max_n(part));
        return;
    }
    size_t ibytes = (size_t)in_len(part, n) * sizeof(int), obytes = (size_t)out_len(part, n) * sizeof(int);
    int *in = (int *)xmalloc(ibytes), *want = (int *)xmalloc(obytes), *got = (int *)xmalloc(obytes);
    int *got2 = (int *)xmalloc(obytes), *in_after = (int *)xmalloc(ibytes);
    uint8_t *front = (uint8_t *)xmalloc(PL_GUARD_BYTES), *back = (uint8_t *)xmalloc(PL_GUARD_BYTES);
    gen_input(lab, part, in, (size_t)in_len(part, n), test_seed(seed, part, n, param), param);
    part->cpu(in, want, (size_t)n);

    pl_dbuf din = {}, dout = {}, dscr = {}; /* freeable even if an allocation fails */
    if (dalloc(&din, ibytes, n, r) && dalloc(&dout, obytes, n, r) && dalloc(&dscr, scratch_bytes(lab, part, n), n, r)) {
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

        pl_cmp c = part_cmp(part, n, want, got, front, back);
        c.got2 = got2;
        c.in = in_len(part, n) > 0 ? in : NULL; /* nothing to check in an empty input */
        c.in_after = in_after;
        c.n_in = (size_t)in_len(part, n);
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
        pl_lab_test(lab, part, 1, param, seed, r);
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
    if (a->part->omp)
        a->part->omp(a->h_in, a->h_out, (size_t)a->n);
}

static void poison_out(void *p) { pl_dbuf_poison(((call_arg *)p)->out_buf); }

/* Runs a GPU variant once and checks it against want; 1 if right, else 0
 * with the diagnosis in d. */
static int verify(void (*call)(void *), call_arg *a, const int *want, int *got, const char *who, pl_diag *d)
{
    static uint8_t front[PL_GUARD_BYTES], back[PL_GUARD_BYTES];
    pl_dbuf_poison(a->out_buf);
    call(a);
    pl_check_call(who);
    pl_dbuf_download(a->out_buf, got, front, back);
    pl_cmp c = part_cmp(a->part, a->n, want, got, front, back);
    return pl_compare_i32(&c, d);
}

/* Host and device buffers for timing one part at one size. */
typedef struct bench_bufs {
    int *in, *want, *got;
    pl_dbuf din, dout, dscr, dtemp;
    size_t temp_bytes;
} bench_bufs;

/* 1 on success; 0 with r's reason when the device cannot hold n. */
static int bufs_alloc(bench_bufs *b, const pl_lab *lab, const pl_part *p, long n, double param, int gpu, pl_result *r)
{
    size_t ibytes = (size_t)in_len(p, n) * sizeof(int), obytes = (size_t)out_len(p, n) * sizeof(int);
    memset(b, 0, sizeof *b);
    b->in = (int *)xmalloc(ibytes);
    b->want = (int *)xmalloc(obytes);
    b->got = (int *)xmalloc(obytes);
    gen_input(lab, p, b->in, (size_t)in_len(p, n), test_seed(1, p, n, param), param);
    if (!gpu)
        return 1;
    b->temp_bytes = lab->vendor_temp_bytes && p->vendor ? lab->vendor_temp_bytes((int)out_len(p, n)) : 0;
    if (!dalloc(&b->din, ibytes, n, r) || !dalloc(&b->dout, obytes, n, r) ||
        !dalloc(&b->dscr, scratch_bytes(lab, p, n), n, r) || !dalloc(&b->dtemp, b->temp_bytes, n, r))
        return 0;
    pl_dbuf_upload(&b->din, b->in);
    return 1;
}

static void bufs_free(bench_bufs *b)
{
    pl_dbuf_free(&b->din);
    pl_dbuf_free(&b->dout);
    pl_dbuf_free(&b->dscr);
    pl_dbuf_free(&b->dtemp);
    free(b->in), free(b->want), free(b->got);
}

static call_arg make_arg(const pl_lab *lab, const pl_part *p, bench_bufs *b, long n)
{
    call_arg a = {p, lab, (const int *)b->din.ptr, b->in, (int *)b->dout.ptr, b->got, (int *)b->dscr.ptr,
                  b->dtemp.ptr, b->temp_bytes, n, &b->dout};
    return a;
}

extern "C" void pl_lab_perf(const pl_lab *lab, const pl_perf *perf, int reps, pl_result *r)
{
    const pl_part *p = NULL;
    for (int k = 0; k < lab->nparts; k++)
        if (!strcmp(lab->parts[k].id, perf->part))
            p = &lab->parts[k];
    if (!p)
        pl_child_abort(PL_ERROR, "performance test names no part of this lab", NULL);
    bench_bufs b;
    if (!bufs_alloc(&b, lab, p, perf->n, perf->param, 1, r)) {
        bufs_free(&b);
        return;
    }
    call_arg a = make_arg(lab, p, &b, perf->n);
    p->cpu(b.in, b.want, (size_t)perf->n);
    pl_diag d;
    if (!verify(call_impl, &a, b.want, b.got, p->entry, &d)) {
        r->status = PL_FAIL;
        snprintf(r->reason, sizeof r->reason, "wrong result, so not timed: %.150s", d.reason);
        bufs_free(&b);
        return;
    }
    double t_imp = pl_time_gpu_ms(call_impl, &a, poison_out, &a, reps), t_yard;
    const char *yard;
    if (perf->yardstick == PL_YARD_VENDOR) {
        yard = "the vendor library";
        t_yard = pl_time_gpu_ms(call_vendor, &a, poison_out, &a, reps);
    } else {
        yard = "CPU OpenMP";
        t_yard = pl_time_cpu_ms(call_omp, &a, reps, 2.0, NULL);
    }
    double ratio = t_yard / t_imp;
    r->status = PL_PASS;
    r->score = pl_perf_points(perf, ratio);
    r->value = ratio;
    snprintf(r->reason, sizeof r->reason,
             "%.4f ms against %.4f ms for %s: %.3fx its throughput (full marks from %.3fx, none below %.3fx)",
             t_imp, t_yard, yard, ratio, perf->full, perf->zero);
    bufs_free(&b);
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

    for (int k = 0; k < lab->nparts; k++) {
        const pl_part *p = &lab->parts[k];
        if (!p->bench || (o->part && o->part != p))
            continue;
        /* the (size, param) pairs to time */
        long pair_n[160];
        double pair_p[160];
        int npairs = 0, nsizes = o->nsizes;
        long pow2[64];
        const long *sizes = o->sizes;
        if (!sizes && o->sweep && !p->bench_sizes) {
            nsizes = 0;
            for (int e = lab->sweep_lo; e <= lab->sweep_hi && nsizes < 64; e++)
                pow2[nsizes++] = 1L << e;
            sizes = pow2;
        } else if (!sizes) {
            sizes = pl_part_bench_sizes(lab, p, &nsizes);
        }
        int np = o->params && p->nparams ? o->nparams : 1;
        for (int s = 0; s < nsizes; s++)
            for (int q = 0; q < np && npairs < 160; q++, npairs++) {
                pair_n[npairs] = sizes[s];
                pair_p[npairs] = !p->nparams ? NAN : o->params ? o->params[q] : p->bench_param;
            }
        for (int q = 0; o->sweep && !o->sizes && p->nparams && q < lab->nsweep_params && npairs < 160; q++, npairs++) {
            pair_n[npairs] = lab->param_sweep_n; /* and the parameter sweep at one size */
            pair_p[npairs] = lab->sweep_params[q];
        }
        for (int s = 0; s < npairs; s++) {
            long n = pair_n[s];
            double param = pair_p[s];
            if (n > part_max_n(p))
                continue;
            if (o->progress)
                fprintf(o->progress, "[%s %2d/%d] %s = %ld\n", p->id, s + 1, npairs, pl_part_size_name(p), n);
            bench_bufs b;
            pl_result r = {};
            if (!bufs_alloc(&b, lab, p, n, param, o->gpu, &r))
                pl_child_abort(PL_ERROR, r.reason, NULL);
            call_arg a = make_arg(lab, p, &b, n);
            a.h_out = b.want; /* the timed serial reference (the oracle) writes the expected result */
            double t_ser = pl_time_cpu_ms(call_cpu, &a, o->reps, 2.0, NULL);
            a.h_out = b.got;
            double t_omp = p->omp ? pl_time_cpu_ms(call_omp, &a, o->reps, 2.0, NULL) : NAN;
            double t_ven = NAN, t_imp = NAN;
            pl_diag d;
            if (o->gpu && p->vendor) {
                if (verify(call_vendor, &a, b.want, b.got, "the vendor library", &d))
                    t_ven = pl_time_gpu_ms(call_vendor, &a, poison_out, &a, o->reps);
                else
                    fprintf(stderr, "lab%s: part %s (vendor) is wrong at %s = %ld: %s\n", lab->id, p->id,
                            pl_part_size_name(p), n, d.reason);
            }
            if (o->gpu) {
                if (verify(call_impl, &a, b.want, b.got, pl_impl_variant, &d)) {
                    t_imp = pl_time_gpu_ms(call_impl, &a, poison_out, &a, o->reps);
                } else {
                    fprintf(stderr, "lab%s: part %s (%s) is wrong at %s = %ld, so it is not timed: %s\n", lab->id,
                            p->id, pl_impl_variant, pl_part_size_name(p), n, d.reason);
                    wrong++;
                }
            }
            double bytes = p->bytes ? p->bytes(n, param) : lab->bytes_per_elem * (double)n;
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
                row.gbps = bytes / (v[j].t * 1e-3) / 1e9;
                row.pct_copy = v[j].on_gpu ? 100.0 * row.gbps / copy : NAN;
                row.copy_gbps = copy;
                row.x_serial = t_ser / v[j].t;
                row.x_omp = t_omp / v[j].t;
                row.x_vendor = t_ven / v[j].t;
                row.param = param;
                if (o->tsv)
                    pl_tsv_row(o->tsv, &row);
                if (o->table)
                    pl_table_row(o->table, &row);
            }
            bufs_free(&b);
        }
    }
    return wrong;
}
