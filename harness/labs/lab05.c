/* harness/labs/lab05.c: the lab table entry of lab 05, radix sort.
 * Parts, yardsticks, sizes, points and the `passes` command live here only.
 *
 * Keys travel as 32-bit words and are read as unsigned, int or float by
 * each part. The key distribution is a named parameter of the input
 * (random, equal, sorted, reversed, few, high). Pairs are checked as one
 * array: n keys, then n values that are the input positions of the keys, so
 * a stable CPU sort is the one right answer and an unstable GPU sort shows
 * as values out of input order. */
#include "../../kernels_ref/cpu/radix.h"
#include "../../kernels_ref/vendor/cub_sort.h"
#include "../../labs/05-radix-sort/radix_sort.h"
#include "../diagnose.h"
#include "../gpu.h"
#include "../lab.h"
#include "../phases.h"
#include "../proc.h"
#include "../report.h"
#include "../rng.h"
#include "../timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- inputs */

enum { D_RANDOM, D_EQUAL, D_SORTED, D_REVERSED, D_FEW, D_HIGH, NDIST };
static const char *const dist_names[NDIST] = {"random", "equal", "sorted", "reversed", "few", "high"};
static const double dists[NDIST] = {D_RANDOM, D_EQUAL, D_SORTED, D_REVERSED, D_FEW, D_HIGH};

static unsigned word(pl_rng *r) { return (unsigned)(pl_rng_next(r) >> 32); }

/* n unsigned keys: all 32 bits random; one value; ascending (i * 61, so up
   to 2^26 keys stay below 2^32); descending; 8 random values; only the top
   8 bits random (the low passes see one digit). */
static void keys_u32(unsigned *k, size_t n, uint64_t seed, int dist)
{
    pl_rng r;
    pl_rng_seed(&r, seed);
    unsigned few[8], one = word(&r);
    for (int j = 0; j < 8; j++)
        few[j] = word(&r);
    for (size_t i = 0; i < n; i++)
        switch (dist) {
        case D_EQUAL: k[i] = one; break;
        case D_SORTED: k[i] = (unsigned)(i * 61); break;
        case D_REVERSED: k[i] = (unsigned)((n - 1 - i) * 61); break;
        case D_FEW: k[i] = few[pl_rng_next(&r) >> 61]; break;
        case D_HIGH: k[i] = word(&r) >> 24 << 24; break;
        default: k[i] = word(&r); break;
        }
}

static void gen_u32(int *a, size_t len, uint64_t seed, double dist) { keys_u32((unsigned *)a, len, seed, (int)dist); }

/* Signed: the same bits; sorted and reversed moved down by half their
   range, so that they run from negative to positive. */
static void gen_i32(int *a, size_t len, uint64_t seed, double dist)
{
    keys_u32((unsigned *)a, len, seed, (int)dist);
    unsigned half = (unsigned)(len * 61 / 2);
    if ((int)dist == D_SORTED || (int)dist == D_REVERSED)
        for (size_t i = 0; i < len; i++)
            a[i] = (int)((unsigned)a[i] - half);
}

static int float_bits(float f)
{
    int b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* Float keys, never NaN: random normal floats of either sign; one value; an
   ascending or descending ramp through zero; 8 values that include both
   zeros, a denormal and both infinities; only the top 8 bits random (the
   sign and the exponent's top 7 bits: powers of two of either sign, and
   zeros). */
static void gen_f32(int *a, size_t len, uint64_t seed, double dist)
{
    static const float few[8] = {-INFINITY, -2.5f, -0.0f, 0.0f, 1e-40f, 1.0f, 3.0e38f, INFINITY};
    pl_rng r;
    pl_rng_seed(&r, seed);
    unsigned u = word(&r);
    int one = (int)((u & 0x807fffffu) | (1 + u % 254) << 23);
    for (size_t i = 0; i < len; i++) {
        double half = (double)len / 2;
        switch ((int)dist) {
        case D_EQUAL: a[i] = one; break;
        case D_SORTED: a[i] = float_bits((float)(((double)i - half) * 0.25)); break;
        case D_REVERSED: a[i] = float_bits((float)(((double)(len - 1 - i) - half) * 0.25)); break;
        case D_FEW: a[i] = float_bits(few[pl_rng_next(&r) >> 61]); break;
        case D_HIGH: a[i] = (int)(word(&r) >> 24 << 24); break;
        default:
            u = word(&r); /* exponent 1..254: no zero, denormal, infinity or NaN */
            a[i] = (int)((u & 0x807fffffu) | (1 + (u >> 8) % 254) << 23);
            break;
        }
    }
}

/* Pairs: n keys, then the values 0 .. n-1 (each key's input position). */
static void gen_pairs(int *a, size_t len, uint64_t seed, double dist)
{
    size_t n = len / 2;
    keys_u32((unsigned *)a, n, seed, (int)dist);
    for (size_t i = 0; i < n; i++)
        a[n + i] = (int)i;
}

/* -------------------------------------------------- CPU references */

static void must(int rc)
{
    if (rc != 0)
        pl_child_abort(PL_ERROR, "the CPU reference sort ran out of host memory", NULL);
}

static void keys_cpu(const int *in, int *out, size_t n)
{
    memcpy(out, in, n * sizeof *in);
    must(radix_sort_cpu((unsigned *)out, NULL, n, 8));
}
static void keys_omp(const int *in, int *out, size_t n)
{
    memcpy(out, in, n * sizeof *in);
    must(radix_sort_omp((unsigned *)out, NULL, n));
}
static void pairs_cpu(const int *in, int *out, size_t n)
{
    memcpy(out, in, 2 * n * sizeof *in);
    must(radix_sort_cpu((unsigned *)out, (unsigned *)out + n, n, 8));
}
static void pairs_omp(const int *in, int *out, size_t n)
{
    memcpy(out, in, 2 * n * sizeof *in);
    must(radix_sort_omp((unsigned *)out, (unsigned *)out + n, n));
}

/* Signed and float keys: map to unsigned order, sort, map back. */
static void mapped_sort(const int *in, int *out, size_t n, int is_float, int omp)
{
    unsigned *k = (unsigned *)out;
    for (size_t i = 0; i < n; i++) {
        float f;
        memcpy(&f, &in[i], sizeof f);
        k[i] = is_float ? radix_key_from_float(f) : radix_key_from_int(in[i]);
    }
    must(omp ? radix_sort_omp(k, NULL, n) : radix_sort_cpu(k, NULL, n, 8));
    for (size_t i = 0; i < n; i++) {
        if (is_float) {
            float f = radix_float_from_key(k[i]);
            memcpy(&out[i], &f, sizeof f);
        } else {
            out[i] = radix_int_from_key(k[i]);
        }
    }
}
static void int_cpu(const int *in, int *out, size_t n) { mapped_sort(in, out, n, 0, 0); }
static void int_omp(const int *in, int *out, size_t n) { mapped_sort(in, out, n, 0, 1); }
static void float_cpu(const int *in, int *out, size_t n) { mapped_sort(in, out, n, 1, 0); }
static void float_omp(const int *in, int *out, size_t n) { mapped_sort(in, out, n, 1, 1); }

/* --------------------------------------------------- GPU entry points */

#define U(p) ((unsigned *)(p))
#define CU(p) ((const unsigned *)(p))
static void a_gpu(const int *in, int *out, int n, int *s) { radix_sort_split(CU(in), U(out), n, U(s)); }
static void b_gpu(const int *in, int *out, int n, int *s) { radix_sort_4bit(CU(in), U(out), n, U(s)); }
static void c_gpu(const int *in, int *out, int n, int *s)
{
    radix_sort_pairs(CU(in), CU(in) + n, U(out), U(out) + n, n, U(s));
}
static void di_gpu(const int *in, int *out, int n, int *s) { radix_sort_int(in, out, n, U(s)); }
static void df_gpu(const int *in, int *out, int n, int *s)
{
    radix_sort_float((const float *)in, (float *)out, n, U(s));
}

static int keys_cub(const int *in, int *out, int n, void *t, size_t b) { return vendor_sort_keys_u32(CU(in), U(out), n, t, b); }
static int pairs_cub(const int *in, int *out, int n, void *t, size_t b)
{
    return vendor_sort_pairs_u32(CU(in), CU(in) + n, U(out), U(out) + n, n, t, b);
}
static int int_cub(const int *in, int *out, int n, void *t, size_t b) { return vendor_sort_keys_i32(in, out, n, t, b); }
static int float_cub(const int *in, int *out, int n, void *t, size_t b)
{
    return vendor_sort_keys_f32((const float *)in, (float *)out, n, t, b);
}

static long twice(long n) { return 2 * n; }
/* the keys (and values) read once and written once: the least a sort moves */
static double key_bytes(long n, double dist) { return (void)dist, 8.0 * (double)n; }
static double pair_bytes(long n, double dist) { return (void)dist, 16.0 * (double)n; }
static size_t scratch_ints(long len) { return RS_SCRATCH_INTS(len); }

#define DISTS .points = 1, .bench = 1, .param_name = "dist", .params = dists, .nparams = NDIST, \
              .bench_param = D_RANDOM, .param_labels = dist_names
static const pl_part parts[] = {
    {.id = "a", .title = "one-bit split", .entry = "radix_sort_split", .gpu = a_gpu, .cpu = keys_cpu,
     .omp = keys_omp, .vendor = keys_cub, .bytes = key_bytes, .gen = gen_u32, .sort = PL_SORT_U32, DISTS},
    {.id = "b", .title = "four-bit digits", .entry = "radix_sort_4bit", .gpu = b_gpu, .cpu = keys_cpu,
     .omp = keys_omp, .vendor = keys_cub, .bytes = key_bytes, .gen = gen_u32, .sort = PL_SORT_U32, DISTS},
    {.id = "c", .title = "key-value pairs", .entry = "radix_sort_pairs", .gpu = c_gpu, .cpu = pairs_cpu,
     .omp = pairs_omp, .vendor = pairs_cub, .in_len = twice, .out_len = twice, .bytes = pair_bytes,
     .gen = gen_pairs, .sort = PL_SORT_U32, .sort_pairs = 1, DISTS},
    {.id = "di", .title = "signed int keys", .entry = "radix_sort_int", .gpu = di_gpu, .cpu = int_cpu,
     .omp = int_omp, .vendor = int_cub, .bytes = key_bytes, .gen = gen_i32, .sort = PL_SORT_I32, DISTS},
    {.id = "df", .title = "float keys", .entry = "radix_sort_float", .gpu = df_gpu, .cpu = float_cpu,
     .omp = float_omp, .vendor = float_cub, .bytes = key_bytes, .gen = gen_f32, .sort = PL_SORT_F32, DISTS},
};

/* The scan labs' edge sizes, with a large size of 2^24 + 5 instead of 2^26:
   each test sorts on the CPU too, and there are 330 of them. */
static const long test_sizes[] = {0, 1, 31, 32, 33, 1023, 1024, 1025, (1L << 16) + 1, (1L << 22) + 3, (1L << 24) + 5};

/* Performance: the four-bit sort against CUB SortKeys, random keys. */
static const pl_perf perf[] = {
    {.part = "b", .n = 1L << 24, .points = 2, .yardstick = PL_YARD_VENDOR, .full = 0.25, .zero = 0.05,
     .param = D_RANDOM},
};

/* ------------------------------------------------- `lab05 passes` */

/* The sorts `passes` times, each on the same random keys. */
typedef struct variant {
    const char *name;
    int bits; /* digit width, for the figure */
    int how;  /* 0: radix_sort_split, 1: radix_sort_4bit, 2: radix_sort_bits, 3: CUB */
} variant;
static const variant variants[] = {
    {"split", 1, 0}, {"bits1", 1, 2}, {"bits2", 2, 2}, {"4bit", 4, 1}, {"bits8", 8, 2}, {"cub", 0, 3},
};
#define NVARIANTS (int)(sizeof variants / sizeof variants[0])
#define PASS_REPS 7

typedef struct pass_run {
    const variant *v;
    const unsigned *in;
    unsigned *out, *scratch;
    void *temp;
    size_t temp_bytes;
    int n, rc, rep;
    pl_span (*spans)[PL_MAX_SPANS]; /* per rep */
    int nspans[PASS_REPS + 1];
} pass_run;

static void pass_call(void *p)
{
    pass_run *a = p;
    int slot = a->rep < 0 ? PASS_REPS : a->rep; /* the warm-up's spans go to the spare slot */
    pl_phases_start();
    switch (a->v->how) {
    case 0: radix_sort_split(a->in, a->out, a->n, a->scratch); break;
    case 1: radix_sort_4bit(a->in, a->out, a->n, a->scratch); break;
    case 2: a->rc = radix_sort_bits(a->in, a->out, a->n, a->v->bits, a->scratch); break;
    default: CUDA_CHECK(vendor_sort_keys_u32(a->in, a->out, a->n, a->temp, a->temp_bytes)); break;
    }
    a->nspans[slot] = pl_phases_stop(a->spans[slot], PL_MAX_SPANS);
    a->rep++;
}

/* Times every variant at n: the total (median of PASS_REPS, L2 flushed) and
   each marked span (median over the reps). Prints a summary; TSV rows to
   tsv. Returns the number of wrong results. */
static int passes_at(long n, FILE *tsv)
{
    size_t bytes = (size_t)n * sizeof(unsigned);
    unsigned *keys = malloc(bytes), *want = malloc(bytes), *got = malloc(bytes);
    pass_run *a = calloc(1, sizeof *a);
    pl_span(*spans)[PL_MAX_SPANS] = malloc((PASS_REPS + 1) * sizeof *spans);
    if (!keys || !want || !got || !a || !spans)
        pl_child_abort(PL_ERROR, "out of host memory", NULL);
    keys_u32(keys, (size_t)n, 1, D_RANDOM);
    memcpy(want, keys, bytes);
    must(radix_sort_omp(want, NULL, (size_t)n));
    pl_dbuf din = {0}, dout = {0}, dscr = {0}, dtemp = {0};
    size_t temp_bytes = vendor_sort_temp_bytes((int)n);
    if (pl_dbuf_alloc(&din, bytes) || pl_dbuf_alloc(&dout, bytes) ||
        pl_dbuf_alloc(&dscr, RS_SCRATCH_INTS(n) * sizeof(unsigned)) || pl_dbuf_alloc(&dtemp, temp_bytes))
        pl_child_abort(PL_ERROR, "n does not fit in device memory", NULL);
    pl_dbuf_upload(&din, keys);
    int wrong = 0;
    printf("n = %ld, random 32-bit keys, median of %d\n", n, PASS_REPS);
    for (int k = 0; k < NVARIANTS; k++) {
        const variant *v = &variants[k];
        *a = (pass_run){v, din.ptr, dout.ptr, dscr.ptr, dtemp.ptr, temp_bytes, (int)n, 0, 0, spans, {0}};
        /* once to check the result */
        a->rep = PASS_REPS;
        pl_dbuf_poison(&dout);
        pass_call(a);
        pl_check_call(v->name);
        if (a->rc != 0) {
            printf("  %-6s not supported (radix_sort_bits returned %d for %d bits)\n", v->name, a->rc, v->bits);
            continue;
        }
        pl_dbuf_download(&dout, got, NULL, NULL);
        pl_cmp c = {.want = (const int *)want, .got = (const int *)got, .n = (size_t)n, .sort = PL_SORT_U32};
        pl_diag d;
        if (!pl_compare_i32(&c, &d)) {
            printf("  %-6s wrong, so not timed: %s\n", v->name, d.reason);
            wrong++;
            continue;
        }
        a->rep = -1;
        double total = pl_time_gpu_ms(pass_call, a, NULL, NULL, PASS_REPS);
        /* medians of each span over the reps, when every rep marked the same spans */
        int ns = a->nspans[0], same = ns >= 0;
        for (int r = 1; r < PASS_REPS; r++)
            same &= a->nspans[r] == ns;
        printf("  %-6s %9.3f ms  %7.2f Gkeys/s", v->name, total, (double)n / (total * 1e-3) / 1e9);
        if (tsv)
            fprintf(tsv, "%ld\t%s\t%d\ttotal\t-1\t%.6f\n", n, v->name, v->bits, total);
        if (v->how == 3) {
            printf("\n");
            continue;
        }
        if (!same || ns == 0) {
            printf("  (%s)\n", ns < 0 ? "more marks than the harness keeps" : ns == 0 ? "no primlab_phase marks"
                                                                                  : "marks differ between runs");
            continue;
        }
        /* per phase name: the sum over passes, printed in order of first appearance */
        const char *names[16];
        double sums[16];
        int nnames = 0, passes = 0;
        for (int s = 0; s < ns; s++) {
            double ms[PASS_REPS];
            for (int r = 0; r < PASS_REPS; r++)
                ms[r] = spans[r][s].ms;
            double med = pl_median(ms, PASS_REPS);
            const pl_span *sp = &spans[0][s];
            if (tsv)
                fprintf(tsv, "%ld\t%s\t%d\t%s\t%d\t%.6f\n", n, v->name, v->bits, sp->name, sp->pass, med);
            passes = sp->pass + 1 > passes ? sp->pass + 1 : passes;
            int j = 0;
            while (j < nnames && strcmp(names[j], sp->name))
                j++;
            if (j == nnames && nnames < 16) {
                names[nnames] = sp->name;
                sums[nnames++] = 0;
            }
            if (j < 16)
                sums[j] += med;
        }
        printf("  %d passes:", passes);
        for (int j = 0; j < nnames; j++)
            printf("%s %s %.3f", j ? "," : "", names[j], sums[j]);
        printf(" ms\n");
    }
    pl_dbuf_free(&din), pl_dbuf_free(&dout), pl_dbuf_free(&dscr), pl_dbuf_free(&dtemp);
    free(keys), free(want), free(got), free(a), free(spans);
    return wrong;
}

static int command(const char *name, const char *out)
{
    if (strcmp(name, "passes") != 0)
        return -1;
    pl_devinfo dev;
    if (!pl_probe_device(&dev)) {
        fprintf(stderr, "lab05 passes: no GPU (%s)\n", dev.error);
        return 1;
    }
    char tmp[4096];
    FILE *tsv = NULL;
    if (out && !(tsv = pl_out_begin(out, tmp, sizeof tmp, "lab05")))
        return 2;
    if (!pl_devinfo_here(&dev))
        pl_child_abort(PL_ERROR, dev.error, NULL);
    printf("device: %s, %s code\n", dev.name, pl_impl_variant);
    if (tsv) {
        char date[32];
        pl_utc_date(date, sizeof date);
        fprintf(tsv, "# primlab lab05 passes: each marked phase of each pass, median ms; phase 'total' is the\n"
                     "# whole sort (pass -1), timed separately with the L2 flushed\n"
                     "# device: %s\n# date: %s\n# code: %s\nn\tvariant\tbits\tphase\tpass\tms\n",
                dev.name, date, pl_impl_variant);
    }
    static const long sizes[] = {1L << 20, 1L << 24, 1L << 28};
    int wrong = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        wrong += passes_at(sizes[s], tsv);
    if (tsv && pl_out_end(tsv, tmp, out, "lab05") != 0)
        return 2;
    return wrong ? 1 : 0;
}

static const pl_lab lab05 = {
    .id = "05",
    .name = "radix-sort",
    .title = "radix sort",
    .parts = parts,
    .nparts = sizeof parts / sizeof parts[0],
    .test_sizes = test_sizes,
    .ntest_sizes = sizeof test_sizes / sizeof test_sizes[0],
    .bench_sizes = pl_scan_bench_sizes,
    .nbench_sizes = PL_SCAN_NBENCH,
    .sweep_lo = 12, /* the CPU sorts make a sweep long: 2^12 .. 2^28 */
    .sweep_hi = 28,
    .gen_lo = 0,
    .gen_hi = 0,             /* unused: every part has its own generator */
    .bytes_per_elem = 8,     /* unused: every part counts its own bytes */
    .perf = perf,
    .nperf = sizeof perf / sizeof perf[0],
    .hidden_per_part = 3,
    .scratch_ints = scratch_ints,
    .vendor_temp_bytes = vendor_sort_temp_bytes,
    .command = command,
};

const pl_lab *pl_this_lab(void) { return &lab05; }
