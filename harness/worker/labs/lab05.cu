/* harness/worker/labs/lab05.cu: lab 05's entry points as the worker calls
 * them (see ../ops.h); the parts themselves are in harness/parent/labs/lab05.c,
 * the ids and sizes both sides share in harness/wire/lab05.h. Keys travel
 * as 32-bit words; pairs as n keys then n values. The extra ops bitsN are
 * radix_sort_bits at one width, timed by `lab05 passes` only. */
#include "../../../kernels_ref/vendor/cub_sort.h"
#include "../../../labs/05-radix-sort/radix_sort.h"
#include "../../wire/lab05.h"
#include "../ops.h"

#define U(p) ((unsigned *)(p))
#define CU(p) ((const unsigned *)(p))
PL_OP(a_gpu, radix_sort_split(CU(in), U(out), n, U(scratch)))
PL_OP(b_gpu, radix_sort_4bit(CU(in), U(out), n, U(scratch)))
/* Parts bt and bte: the size is the number of threads per block, the keys
   the input staged (a fixed count: the parent's table says which), at most
   PL_LAB05_BT_N. */
#define BT_LEN ((int)pl_host_in_len)
PL_OP(bt_gpu, radix_sort_4bit_threads(CU(in), U(out), BT_LEN, U(scratch), n))
PL_OP(c_gpu, radix_sort_pairs(CU(in), CU(in) + n, U(out), U(out) + n, n, U(scratch)))
PL_OP(di_gpu, radix_sort_int(in, out, n, U(scratch)))
PL_OP(df_gpu, radix_sort_float((const float *)in, (float *)out, n, U(scratch)))
static int bits1(const int *in, int *out, int n, int *s) { return radix_sort_bits(CU(in), U(out), n, 1, U(s)); }
static int bits2(const int *in, int *out, int n, int *s) { return radix_sort_bits(CU(in), U(out), n, 2, U(s)); }
static int bits8(const int *in, int *out, int n, int *s) { return radix_sort_bits(CU(in), U(out), n, 8, U(s)); }

static int keys_cub(const int *in, int *out, int n, void *t, size_t b) { return vendor_sort_keys_u32(CU(in), U(out), n, t, b); }
static int bt_cub(const int *in, int *out, int threads, void *t, size_t b)
{
    (void)threads;
    return vendor_sort_keys_u32(CU(in), U(out), BT_LEN, t, b);
}
/* The worker sizes CUB's temporary storage from the request's size, which
   for parts bt and bte is a thread count: room for PL_LAB05_BT_N keys
   whatever the size. */
static size_t temp_bytes(int n) { return vendor_sort_temp_bytes(n > PL_LAB05_BT_N ? n : PL_LAB05_BT_N); }
static int pairs_cub(const int *in, int *out, int n, void *t, size_t b)
{
    return vendor_sort_pairs_u32(CU(in), CU(in) + n, U(out), U(out) + n, n, t, b);
}
static int int_cub(const int *in, int *out, int n, void *t, size_t b) { return vendor_sort_keys_i32(in, out, n, t, b); }
static int float_cub(const int *in, int *out, int n, void *t, size_t b)
{
    return vendor_sort_keys_f32((const float *)in, (float *)out, n, t, b);
}

static constexpr pl_op_def op_a = {"radix_sort_split", a_gpu, keys_cub};
static constexpr pl_op_def op_b = {"radix_sort_4bit", b_gpu, keys_cub};
static constexpr pl_op_def op_bt = {"radix_sort_4bit_threads", bt_gpu, bt_cub};
static constexpr pl_op_def op_bte = {"radix_sort_4bit_threads", bt_gpu, bt_cub};
static constexpr pl_op_def op_c = {"radix_sort_pairs", c_gpu, pairs_cub};
static constexpr pl_op_def op_di = {"radix_sort_int", di_gpu, int_cub};
static constexpr pl_op_def op_df = {"radix_sort_float", df_gpu, float_cub};
static constexpr pl_op_def op_bits1 = {"radix_sort_bits", bits1, NULL};
static constexpr pl_op_def op_bits2 = {"radix_sort_bits", bits2, NULL};
static constexpr pl_op_def op_bits8 = {"radix_sort_bits", bits8, NULL};

static constexpr pl_op ops[] = {PL_LAB05_PARTS(PL_OP_ROW) PL_LAB05_EXTRA_OPS(PL_OP_ROW)};
PL_OPS_TABLE(ops, temp_bytes)
