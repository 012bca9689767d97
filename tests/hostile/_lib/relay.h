/* tests/hostile/_lib/relay.h: a submission's own man in the middle of the
 * worker's pipes (wire/protocol.h): from a constructor, before the worker's main
 * reads anything, fds 3 and 4 are moved behind two pipes; one thread hands
 * the parent's requests to the worker, another hands the worker's replies
 * to the parent, and hooks see (and may change, delay or answer) both. One
 * request is outstanding at a time, so hx_cur is the request a reply
 * answers. Needs wire/protocol.h inlined before it. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static pl_req hx_cur;
static void (*hx_on_request)(pl_req *q);
static void (*hx_on_reply)(const pl_req *q, pl_reply *r);
static int hx_real_req = -1, hx_real_rep = -1, hx_to_worker = -1, hx_from_worker = -1;

static int hx_read_full(int fd, void *p, size_t len)
{
    char *c = (char *)p;
    while (len) {
        ssize_t r = read(fd, c, len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return 0;
        c += r, len -= (size_t)r;
    }
    return 1;
}

static int hx_write_full(int fd, const void *p, size_t len)
{
    const char *c = (const char *)p;
    while (len) {
        ssize_t w = write(fd, c, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return 0;
        c += w, len -= (size_t)w;
    }
    return 1;
}

static void *hx_requests(void *)
{
    pl_req q;
    while (hx_read_full(hx_real_req, &q, sizeof q)) {
        hx_cur = q;
        if (hx_on_request)
            hx_on_request(&q);
        if (!hx_write_full(hx_to_worker, &q, sizeof q))
            break;
    }
    close(hx_to_worker); /* the worker reads the end and exits */
    return NULL;
}

static void *hx_replies(void *)
{
    pl_reply r;
    while (hx_read_full(hx_from_worker, &r, sizeof r)) {
        if (hx_on_reply)
            hx_on_reply(&hx_cur, &r);
        if (!hx_write_full(hx_real_rep, &r, sizeof r))
            break;
    }
    return NULL;
}

static void hx_relay_start(void)
{
    int q[2], r[2];
    hx_real_req = dup(PL_FD_REQ);
    hx_real_rep = dup(PL_FD_REPLY);
    if (hx_real_req < 0 || hx_real_rep < 0 || pipe(q) != 0 || pipe(r) != 0)
        return;
    dup2(q[0], PL_FD_REQ), close(q[0]), hx_to_worker = q[1];
    dup2(r[1], PL_FD_REPLY), close(r[1]), hx_from_worker = r[0];
    pthread_t a, b;
    pthread_create(&a, NULL, hx_requests, NULL);
    pthread_create(&b, NULL, hx_replies, NULL);
}

/* The shared region (fd 5), mapped again when the parent has grown it. */
static unsigned char *hx_shm;
static size_t hx_shm_len;
static unsigned char *hx_map(uint64_t bytes)
{
    if (bytes > hx_shm_len) {
        if (hx_shm)
            munmap(hx_shm, hx_shm_len);
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, PL_FD_SHM, 0);
        hx_shm = p == MAP_FAILED ? NULL : (unsigned char *)p;
        hx_shm_len = hx_shm ? bytes : 0;
    }
    return hx_shm;
}

/* A scan on the CPU, wrapping like the hardware. */
static void hx_cpu_scan(const int *in, int *out, long n, int exclusive)
{
    unsigned acc = 0;
    for (long i = 0; i < n; i++) {
        unsigned x = (unsigned)in[i];
        out[i] = exclusive ? (int)acc : (int)(acc + x);
        acc += x;
    }
}
