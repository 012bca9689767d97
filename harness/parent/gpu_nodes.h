/* harness/parent/gpu_nodes.h: which /dev/nvidiaN files a worker pinned to
 * some GPUs needs, read off the driver's /proc/driver/nvidia/gpus. */
#ifndef PRIMLAB_GPU_NODES_H
#define PRIMLAB_GPU_NODES_H

#include <stddef.h>

/* The most GPUs one worker is pinned to. */
#define PL_PIN_MAX 16

typedef struct {
    int n;                        /* GPUs named */
    int minor[PL_PIN_MAX];        /* their device files: /dev/nvidia<minor> */
    char uuids[PL_PIN_MAX * 48];  /* their UUIDs, comma-separated (a CUDA_VISIBLE_DEVICES) */
} pl_pinned;

/* The GPUs that `visible` (a CUDA_VISIBLE_DEVICES: ordinals, GPU UUIDs or
 * their prefixes, comma-separated) names, as the driver under `root` (a
 * folder laid out as /proc/driver/nvidia/gpus: one folder per GPU with its
 * `information` file) lists them. Ordinals count in PCI bus order, CUDA's
 * when `order` is "PCI_BUS_ID", and also its default (fastest first) when
 * every GPU is the same model. Returns 1 and fills *p when every name is
 * found, no GPU twice; 0 when the mapping is not certain (unset or empty,
 * a MIG instance, an ordinal of mixed models in CUDA's default order, a
 * name not found, an unreadable root): then the caller must not narrow the
 * sandbox's devices. */
int pl_pinned_gpus(const char *visible, const char *order, const char *root, pl_pinned *p);

#endif
