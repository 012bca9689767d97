/* harness/parent/labs/lab03_banks.c: lab 03's bank-conflict analyzer (see
 * lab03_banks.h). */
#include "lab03_banks.h"

#include <string.h>

/* The largest number of distinct 4-byte words asked of one bank by lanes
   [lo, hi) of the warp. */
static int passes_of(const uint64_t *addr, int lo, int hi, int width)
{
    uint64_t words[PL_BANKS][64];
    int count[PL_BANKS] = {0}, worst = 0;
    for (int i = lo; i < hi; i++)
        for (int part = 0; part < width / 4; part++) {
            uint64_t w = addr[i] / 4 + (uint64_t)part;
            int b = (int)(w % PL_BANKS), seen = 0;
            for (int k = 0; k < count[b]; k++)
                seen |= words[b][k] == w;
            if (!seen) {
                words[b][count[b]++] = w;
                if (count[b] > worst)
                    worst = count[b];
            }
        }
    return worst;
}

int pl_bank_passes(const uint64_t *addr, int lanes, int width)
{
    if (width == 8)
        return passes_of(addr, 0, lanes < 16 ? lanes : 16, 8) + (lanes > 16 ? passes_of(addr, 16, lanes, 8) : 0);
    return passes_of(addr, 0, lanes, 4);
}

int pl_bank_degree(const uint64_t *addr, int lanes, int width)
{
    int least = width == 8 && lanes > 16 ? 2 : 1;
    return pl_bank_passes(addr, lanes, width) / least;
}

int pl_stride_degree(int stride, int width)
{
    uint64_t a[32];
    for (int l = 0; l < 32; l++)
        a[l] = (uint64_t)l * (uint64_t)stride * (uint64_t)width;
    return pl_bank_degree(a, 32, width);
}

int pl_padded_index(int i) { return i + (i >> 5) + (i >> 10); }

int pl_scan_levels(int slots)
{
    int levels = 0;
    while ((1 << (levels + 1)) <= slots)
        levels++;
    return levels;
}

/* Both sweeps touch, at tree level L (offset 2^L), the pair
   ai = 2^L (2t + 1) - 1 and bi = 2^L (2t + 2) - 1 for threads t < slots / 2^(L+1);
   the down-sweep visits the same levels in the other order. */
int pl_scan_level_degree(int slots, int level, int padded)
{
    int offset = 1 << level, active = slots >> (level + 1), worst = 0;
    for (int w = 0; w * 32 < active; w++) {
        uint64_t ai[32], bi[32];
        int lanes = 0;
        for (int l = 0; l < 32 && w * 32 + l < active; l++, lanes++) {
            int t = w * 32 + l;
            int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
            ai[l] = 4 * (uint64_t)(padded ? pl_padded_index(a) : a);
            bi[l] = 4 * (uint64_t)(padded ? pl_padded_index(b) : b);
        }
        int da = pl_bank_degree(ai, lanes, 4), db = pl_bank_degree(bi, lanes, 4);
        if (da > worst)
            worst = da;
        if (db > worst)
            worst = db;
    }
    return worst;
}

int pl_tile_index(int layout, int row, int col)
{
    switch (layout) {
    case 1: return row * 33 + col;       /* padded [32][33] */
    case 2: return row * 32 + (col ^ row); /* swizzled */
    default: return row * 32 + col;      /* plain [32][32] */
    }
}

int pl_tile_column_degree(int layout)
{
    uint64_t a[32];
    int worst = 0;
    for (int col = 0; col < 32; col++) {
        for (int l = 0; l < 32; l++) /* lane l reads row l of the column */
            a[l] = 4 * (uint64_t)pl_tile_index(layout, l, col);
        int d = pl_bank_degree(a, 32, 4);
        if (d > worst)
            worst = d;
    }
    return worst;
}

void pl_banks_report(FILE *table, FILE *tsv, int slots)
{
    int levels = pl_scan_levels(slots);
    if (tsv)
        fprintf(tsv, "# primlab bank-conflict analyzer: predicted ways of conflict\n"
                     "# scan rows: a Blelloch tree over %d slots, 2 per thread\nwhat\tx\tdegree\n", slots);
    if (table) {
        fprintf(table, "Blelloch tree over %d ints (%d threads): ways of conflict of each level's loads\n"
                       "(the up-sweep and the down-sweep touch the same index pairs, in opposite orders)\n",
                slots, slots / 2);
        fprintf(table, "%-6s %-8s %-8s %-22s %s\n", "level", "stride", "threads", "plain index",
                "padded (i + i>>5 + i>>10)");
    }
    for (int L = 0; L < levels; L++) {
        int plain = pl_scan_level_degree(slots, L, 0), padded = pl_scan_level_degree(slots, L, 1);
        if (table)
            fprintf(table, "%-6d %-8d %-8d %-22d %d\n", L, 1 << L, slots >> (L + 1), plain, padded);
        if (tsv)
            fprintf(tsv, "scan\t%d\t%d\nscan_padded\t%d\t%d\n", L, plain, L, padded);
    }
    if (table) {
        fprintf(table, "\nReading a column of a 32 x 32 float tile: plain %d-way, padded [32][33] %d-way, "
                       "swizzled %d-way\n",
                pl_tile_column_degree(0), pl_tile_column_degree(1), pl_tile_column_degree(2));
        fprintf(table, "\nA warp reading words at a stride: ways of conflict\n%-8s %-10s %s\n", "stride",
                "4-byte", "8-byte");
    }
    for (int s = 1; s <= 64; s++) {
        int d4 = pl_stride_degree(s, 4), d8 = pl_stride_degree(s, 8);
        if (table && (s <= 8 || s % 8 == 0 || s == 17 || s == 31 || s == 33))
            fprintf(table, "%-8d %-10d %d\n", s, d4, d8);
        if (tsv)
            fprintf(tsv, "stride32\t%d\t%d\nstride64\t%d\t%d\n", s, d4, s, d8);
    }
}
