/* hostile: network. From a constructor and from its first call, tries to
 * reach anything outside its sandbox: a TCP connection to 127.0.0.1 on the
 * port the runner listens on (@@PORT@@) and to a public address, a name
 * lookup, an abstract unix socket, and the unix socket the runner listens
 * on at @@SOCK@@ (a path outside every hidden folder, connectable by
 * anyone, as a system's D-Bus socket is); on success it sends a line
 * naming itself. The worker has a network namespace of its own.
 * The grader must give: 0, like the stub, and nothing reaches the runner's
 * listeners. */
#include "prefix_sum.h"
#include <cuda_runtime.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static const char hx_hello[] = "hx-network: reached you from the sandbox\n";

static int hx_connect(int family, const struct sockaddr *a, socklen_t len)
{
    int s = socket(family, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (s < 0)
        return 0;
    int ok = connect(s, a, len) == 0;
    if (!ok) {
        struct pollfd p = {s, POLLOUT, 0};
        int err = 0;
        socklen_t el = sizeof err;
        ok = poll(&p, 1, 1000) == 1 && getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &el) == 0 && err == 0;
    }
    if (ok)
        ok = write(s, hx_hello, sizeof hx_hello - 1) > 0;
    close(s);
    return ok;
}

static void hx_reach_out(void)
{
    struct sockaddr_in in;
    memset(&in, 0, sizeof in);
    in.sin_family = AF_INET;
    in.sin_port = htons(@@PORT@@);
    inet_pton(AF_INET, "127.0.0.1", &in.sin_addr);
    printf("network: 127.0.0.1:%d %s\n", @@PORT@@, hx_connect(AF_INET, (struct sockaddr *)&in, sizeof in) ? "REACHED" : "refused");
    in.sin_port = htons(80);
    inet_pton(AF_INET, "1.1.1.1", &in.sin_addr);
    printf("network: 1.1.1.1:80 %s\n", hx_connect(AF_INET, (struct sockaddr *)&in, sizeof in) ? "REACHED" : "refused");
    struct addrinfo *res = NULL;
    printf("network: name lookup %s\n", getaddrinfo("example.com", "80", NULL, &res) == 0 ? "WORKED" : "failed");
    if (res)
        freeaddrinfo(res);
    struct sockaddr_un un;
    memset(&un, 0, sizeof un);
    un.sun_family = AF_UNIX;
    snprintf(un.sun_path, sizeof un.sun_path, "%s", "@@SOCK@@");
    printf("network: unix socket %s %s\n", un.sun_path,
           hx_connect(AF_UNIX, (struct sockaddr *)&un, sizeof un) ? "REACHED" : "refused");
    memset(un.sun_path, 0, sizeof un.sun_path);
    memcpy(un.sun_path + 1, "hx-primlab", 10); /* abstract */
    printf("network: abstract unix socket %s\n",
           hx_connect(AF_UNIX, (struct sockaddr *)&un, sizeof(sa_family_t) + 11) ? "REACHED" : "refused");
    fflush(stdout);
}

__attribute__((constructor)) static void hx_ctor_network(void) { hx_reach_out(); }

extern "C" void scan_inclusive_block(const int *d_in, int *d_out, int n)
{
    static int once;
    (void)d_in, (void)d_out, (void)n;
    if (!once++)
        hx_reach_out();
}
extern "C" void scan_inclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_exclusive(const int *d_in, int *d_out, int n, int *d_scratch) { (void)d_in, (void)d_out, (void)n, (void)d_scratch; }
extern "C" void scan_inclusive_threads(const int *d_in, int *d_out, int n, int *d_scratch, int threads) { (void)threads; scan_inclusive(d_in, d_out, n, d_scratch); }
