/* kernels_ref/cpu/radix.c: CPU radix sorts and key maps (see radix.h). */
#include "radix.h"

#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

unsigned radix_key_from_int(int x) { return (unsigned)x ^ 0x80000000u; }
int radix_int_from_key(unsigned k) { return (int)(k ^ 0x80000000u); }

/* Positive floats order as their bits once the sign bit is set; negative ones
   order backwards, so all their bits flip. */
unsigned radix_key_from_float(float f)
{
    unsigned u;
    memcpy(&u, &f, sizeof u);
    return u & 0x80000000u ? ~u : u | 0x80000000u;
}

float radix_float_from_key(unsigned k)
{
    unsigned u = k & 0x80000000u ? k & 0x7fffffffu : ~k;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* One stable counting pass on digit (key >> shift) & mask, src -> dst. */
static void pass(const unsigned *ks, const unsigned *vs, unsigned *kd, unsigned *vd, size_t n, int shift,
                 unsigned mask, size_t *count)
{
    memset(count, 0, ((size_t)mask + 1) * sizeof *count);
    for (size_t i = 0; i < n; i++)
        count[(ks[i] >> shift) & mask]++;
    size_t sum = 0;
    for (size_t d = 0; d <= mask; d++) { /* exclusive scan: each digit's first slot */
        size_t c = count[d];
        count[d] = sum;
        sum += c;
    }
    for (size_t i = 0; i < n; i++) { /* in input order: equal digits keep their order */
        size_t at = count[(ks[i] >> shift) & mask]++;
        kd[at] = ks[i];
        if (vs)
            vd[at] = vs[i];
    }
}

int radix_sort_cpu(unsigned *keys, unsigned *vals, size_t n, int bits)
{
    if (bits < 1 || bits > 16)
        return -1;
    if (n < 2)
        return 0;
    unsigned mask = (1u << bits) - 1;
    unsigned *kt = malloc(n * sizeof *kt), *vt = vals ? malloc(n * sizeof *vt) : NULL;
    size_t *count = malloc(((size_t)mask + 1) * sizeof *count);
    if (!kt || (vals && !vt) || !count) {
        free(kt), free(vt), free(count);
        return -1;
    }
    unsigned *ks = keys, *vs = vals, *kd = kt, *vd = vt;
    for (int shift = 0; shift < 32; shift += bits) {
        pass(ks, vs, kd, vd, n, shift, shift + bits > 32 ? mask >> (shift + bits - 32) : mask, count);
        unsigned *t = ks; ks = kd; kd = t;
        t = vs; vs = vd; vd = t;
    }
    if (ks != keys) { /* an odd number of passes ended in the scratch */
        memcpy(keys, ks, n * sizeof *keys);
        if (vals)
            memcpy(vals, vs, n * sizeof *vals);
    }
    free(kt), free(vt), free(count);
    return 0;
}

#define OMP_DIGITS 256

/* The scratch of radix_sort_omp, kept between calls: a fresh 64 MiB each
   call costs its page faults every call, which is not sorting. */
static unsigned *omp_kt, *omp_vt;
static size_t omp_kcap, omp_vcap;

/* *buf holds at least n words afterwards; 0 when out of memory. */
static int scratch(unsigned **buf, size_t *cap, size_t n)
{
    if (n <= *cap)
        return 1;
    free(*buf);
    *buf = malloc(n * sizeof **buf);
    *cap = *buf ? n : 0;
    return *buf != NULL;
}

/* Software write combining: a line of 16 words (64 bytes) per digit. */
#define WC_WORDS 16

/* One full line from a buffer to dst, which starts a 64-byte line. Where
   the processor has them, streaming stores write the line to memory without
   first reading the old line into the cache (a plain store must fetch the
   line to change part of it): the scatter overwrites every line it touches,
   so that read is a third of its memory traffic, for nothing. */
static void put_line(unsigned *dst, const unsigned *src, int stream)
{
#ifdef __SSE2__
    if (stream) {
        __m128i *d = (__m128i *)dst;
        const __m128i *s = (const __m128i *)src;
        _mm_stream_si128(d, s[0]);
        _mm_stream_si128(d + 1, s[1]);
        _mm_stream_si128(d + 2, s[2]);
        _mm_stream_si128(d + 3, s[3]);
        return;
    }
#endif
    (void)stream;
    memcpy(dst, src, WC_WORDS * sizeof *dst);
}

/* The stable scatter of one thread's keys ks[0 .. n) (and values vs, or
   NULL) to their digits' slots in kd (and vd); at[d] is the first slot of
   digit d. Writing each key straight to its slot feeds 256 output streams
   per thread, each store a few bytes into a different line; instead each
   digit's keys gather in a buffer of one line, which stays in L1, and go
   out a whole line at a time, which put_line can stream (on a 16-core Xeon
   the buffers alone gained nothing; streaming whole lines gained). Word w
   of the buffer belongs at the slot whose address is w mod 16 words, so
   every full line lands on a 64-byte line of kd; only a digit's first and
   last lines are written in part, with plain stores. Within a digit the
   keys keep their input order. */
static void scatter(const unsigned *ks, const unsigned *vs, size_t n, unsigned *kd, unsigned *vd, int shift,
                    const size_t *at)
{
    _Alignas(64) unsigned kbuf[OMP_DIGITS][WC_WORDS], vbuf[OMP_DIGITS][WC_WORDS];
    size_t line[OMP_DIGITS];      /* the slot of the buffer's word 0 (below at[d] for a first line in part) */
    unsigned from[OMP_DIGITS];    /* the buffer holds words from[d] .. fill[d] - 1 */
    unsigned fill[OMP_DIGITS];
    /* the values' lines match the keys' only if vd sits like kd on the grid */
    int vstream = vs && ((uintptr_t)vd - (uintptr_t)kd) % 64 == 0;
    for (int d = 0; d < OMP_DIGITS; d++) {
        from[d] = fill[d] = (unsigned)((uintptr_t)(kd + at[d]) / sizeof *kd % WC_WORDS);
        line[d] = at[d] - from[d]; /* may wrap below 0: only slots from line[d] + from[d] on are written */
    }
    for (size_t i = 0; i < n; i++) {
        unsigned d = (ks[i] >> shift) & 0xff, f = fill[d]++;
        kbuf[d][f] = ks[i];
        if (vs)
            vbuf[d][f] = vs[i];
        if (f + 1 < WC_WORDS)
            continue;
        if (from[d] == 0) { /* a full line */
            put_line(kd + line[d], kbuf[d], 1);
            if (vs)
                put_line(vd + line[d], vbuf[d], vstream);
        } else { /* the digit's first line, in part */
            size_t w = from[d];
            memcpy(kd + (line[d] + w), kbuf[d] + w, (WC_WORDS - w) * sizeof *kd);
            if (vs)
                memcpy(vd + (line[d] + w), vbuf[d] + w, (WC_WORDS - w) * sizeof *vd);
            from[d] = 0;
        }
        line[d] += WC_WORDS;
        fill[d] = 0;
    }
    for (int d = 0; d < OMP_DIGITS; d++) { /* what is left: each digit's last line, in part */
        size_t w = from[d];
        memcpy(kd + (line[d] + w), kbuf[d] + w, (fill[d] - w) * sizeof *kd);
        if (vs)
            memcpy(vd + (line[d] + w), vbuf[d] + w, (fill[d] - w) * sizeof *vd);
    }
#ifdef __SSE2__
    _mm_sfence(); /* streamed lines are weakly ordered: out before the barrier */
#endif
}

int radix_sort_omp(unsigned *keys, unsigned *vals, size_t n)
{
    if (n < 65536)
        return radix_sort_cpu(keys, vals, n, 8);
    if (!scratch(&omp_kt, &omp_kcap, n) || (vals && !scratch(&omp_vt, &omp_vcap, n)))
        return -1;
    int nt = omp_get_max_threads();
    size_t *count = malloc((size_t)nt * OMP_DIGITS * sizeof *count); /* count[t][d] */
    if (!count)
        return -1;
    unsigned *ks = keys, *vs = vals, *kd = omp_kt, *vd = vals ? omp_vt : NULL;
    for (int shift = 0; shift < 32; shift += 8) {
        int same = 0; /* every key has the same digit: the pass would move nothing */
        #pragma omp parallel num_threads(nt)
        {
            int t = omp_get_thread_num(), team = omp_get_num_threads();
            size_t lo = n * (size_t)t / (size_t)team, hi = n * (size_t)(t + 1) / (size_t)team;
            size_t *mine = count + (size_t)t * OMP_DIGITS;
            memset(mine, 0, OMP_DIGITS * sizeof *mine);
            for (size_t i = lo; i < hi; i++)
                mine[(ks[i] >> shift) & 0xff]++;
            #pragma omp barrier
            #pragma omp single
            { /* digit-major scan: digit d of thread t goes after digit d of threads < t */
                size_t sum = 0;
                for (int d = 0; d < OMP_DIGITS; d++) {
                    size_t before = sum;
                    for (int u = 0; u < team; u++) {
                        size_t c = count[(size_t)u * OMP_DIGITS + d];
                        count[(size_t)u * OMP_DIGITS + d] = sum;
                        sum += c;
                    }
                    same |= sum - before == n;
                }
            }
            if (!same)
                scatter(ks + lo, vs ? vs + lo : NULL, hi - lo, kd, vd, shift, mine);
        }
        if (same)
            continue;
        unsigned *t = ks; ks = kd; kd = t;
        t = vs; vs = vd; vd = t;
    }
    if (ks != keys) { /* an odd number of passes moved the keys: back into keys */
        memcpy(keys, ks, n * sizeof *keys);
        if (vals)
            memcpy(vals, vs, n * sizeof *vals);
    }
    free(count);
    return 0;
}

static int cmp_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

void sort_qsort(unsigned *keys, size_t n) { qsort(keys, n, sizeof *keys, cmp_unsigned); }
