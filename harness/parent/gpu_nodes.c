/* harness/parent/gpu_nodes.c: a pinned worker's GPUs, as device files
 * (gpu_nodes.h). The sandbox binds only those, so that a student's code
 * pinned to one GPU cannot open another grader's, whatever it sets
 * CUDA_VISIBLE_DEVICES to inside. */
#include "gpu_nodes.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GPUS_MAX 64

typedef struct {
    char bus[32];   /* "0000:18:00.0" */
    char uuid[48];  /* "GPU-2f9c..." */
    char model[96];
    int minor;
} gpu;

/* The value of "key: value" in line, trimmed, into out; 1 if key matched. */
static int field(const char *line, const char *key, char *out, size_t len)
{
    size_t k = strlen(key);
    if (strncmp(line, key, k) || line[k] != ':')
        return 0;
    const char *v = line + k + 1;
    v += strspn(v, " \t");
    size_t m = strcspn(v, "\r\n");
    while (m > 0 && (v[m - 1] == ' ' || v[m - 1] == '\t'))
        m--;
    snprintf(out, len, "%.*s", (int)m, v);
    return 1;
}

static int by_bus(const void *a, const void *b) { return strcmp(((const gpu *)a)->bus, ((const gpu *)b)->bus); }

/* The GPUs under root, in PCI bus order; -1 if unreadable or odd. */
static int read_gpus(const char *root, gpu *g, int max)
{
    DIR *d = opendir(root);
    if (!d)
        return -1;
    int n = 0, bad = 0;
    struct dirent *e;
    while ((e = readdir(d)) && !bad) {
        if (e->d_name[0] == '.')
            continue;
        if (n == max) {
            bad = 1;
            break;
        }
        char path[4096], line[512], minor[16] = "";
        snprintf(path, sizeof path, "%s/%s/information", root, e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) {
            bad = 1;
            break;
        }
        gpu *x = &g[n];
        memset(x, 0, sizeof *x);
        while (fgets(line, sizeof line, f)) {
            field(line, "Model", x->model, sizeof x->model);
            field(line, "GPU UUID", x->uuid, sizeof x->uuid);
            field(line, "Bus Location", x->bus, sizeof x->bus);
            field(line, "Device Minor", minor, sizeof minor);
        }
        fclose(f);
        char *end;
        long m = strtol(minor, &end, 10);
        if (!*minor || *end || m < 0 || m > 255 || !*x->bus || strncmp(x->uuid, "GPU-", 4))
            bad = 1;
        x->minor = (int)m;
        n++;
    }
    closedir(d);
    if (bad)
        return -1;
    for (int i = 0; i < n; i++) /* the bus location is the folder's name: lower-case hex of one width */
        for (char *c = g[i].bus; *c; c++)
            *c = (char)(*c >= 'A' && *c <= 'F' ? *c - 'A' + 'a' : *c);
    qsort(g, (size_t)n, sizeof *g, by_bus);
    return n;
}

int pl_pinned_gpus(const char *visible, const char *order, const char *root, pl_pinned *p)
{
    static gpu g[GPUS_MAX];
    memset(p, 0, sizeof *p);
    if (!visible || !*visible || !root)
        return 0;
    int n = read_gpus(root, g, GPUS_MAX);
    if (n <= 0)
        return 0;
    int pci = order && !strcmp(order, "PCI_BUS_ID"), same = 1;
    for (int i = 1; i < n; i++)
        same &= !strcmp(g[i].model, g[0].model);
    char names[1024];
    if (strlen(visible) >= sizeof names)
        return 0;
    strcpy(names, visible);
    int used[GPUS_MAX] = {0};
    for (char *save = NULL, *name = strtok_r(names, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        name += strspn(name, " ");
        int k = -1;
        if (!strncmp(name, "GPU-", 4)) {
            /* a UUID or a prefix of one that names a single GPU */
            for (int i = 0; i < n; i++)
                if (!strncmp(g[i].uuid, name, strlen(name))) {
                    if (k >= 0)
                        return 0;
                    k = i;
                }
        } else {
            char *end;
            long i = strtol(name, &end, 10);
            if (end == name || *end || i < 0 || i >= n || (!pci && !same))
                return 0; /* a MIG instance, -1, a word, out of range, or an order we cannot know */
            k = (int)i;
        }
        if (k < 0 || used[k] || p->n == PL_PIN_MAX)
            return 0;
        used[k] = 1;
        p->minor[p->n] = g[k].minor;
        size_t len = strlen(p->uuids);
        snprintf(p->uuids + len, sizeof p->uuids - len, "%s%s", len ? "," : "", g[k].uuid);
        p->n++;
    }
    return p->n > 0;
}
