/* hostile: forge_reply_call. The solution, but at n = 33 every entry point,
 * after launching its kernels, finds the request being served in its own
 * memory (the worker's static pl_req: PL_PROTO_MAGIC, kind CALL, this n,
 * in a writable mapping of its executable), and writes to the reply pipe
 * forged replies with that nonce and the next two (status OK, a
 * microsecond), hoping the parent takes them for the CALL's reply and
 * the FETCH's and STAGE's after it. The parent checks every output itself
 * and ends a worker whose replies stop matching its requests.
 * The grader must give: the three tests at n = 33 (one per part) lost,
 * every other test as the solution's, other students unaffected. */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
/* @@INCLUDE wire/protocol.h@@ */
/* @@SOLUTION@@ */

/* The request the worker is serving, found in its own writable data. */
static const pl_req *hx_find_request(int n)
{
    char exe[4096], line[8192];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return NULL;
    exe[len] = '\0';
    FILE *f = fopen("/proc/self/maps", "r");
    const pl_req *found = NULL;
    while (!found && f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char perms[8], path[4096] = "";
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %4095s", &lo, &hi, perms, path) < 3 || perms[1] != 'w' ||
            (path[0] && strcmp(path, exe)))
            continue;
        if (!path[0] && hi - lo > ((unsigned long)1 << 24))
            continue; /* big anonymous mappings: not .bss */
        for (unsigned long p = lo; p + sizeof(pl_req) <= hi; p += 8) {
            const pl_req *q = (const pl_req *)p;
            if (q->magic == PL_PROTO_MAGIC && q->kind == PL_REQ_CALL && q->n == n && q != found) {
                found = q;
                break;
            }
        }
    }
    if (f)
        fclose(f);
    return found;
}

static void hx_forge_after(int n)
{
    if (n != 33)
        return;
    const pl_req *q = hx_find_request(n);
    static pl_reply r;
    memset(&r, 0, sizeof r);
    r.magic = PL_PROTO_MAGIC;
    r.status = PL_W_OK;
    r.ms = 0.001;
    for (uint64_t k = 0; k < 3; k++) {
        r.nonce = (q ? q->nonce : 0) + k;
        if (write(PL_FD_REPLY, &r, sizeof r) != (ssize_t)sizeof r)
            break;
    }
    printf("forge_reply_call: n = %d: %s\n", n, q ? "found the request, forged its nonce and the next two" : "no request found");
    fflush(stdout);
}

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n) { sol_scan_inclusive_block(d_in, d_out, n); hx_forge_after(n); }
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { sol_scan_inclusive(d_in, d_out, n, d_scratch); hx_forge_after(n); }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { sol_scan_exclusive(d_in, d_out, n, d_scratch); hx_forge_after(n); }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
