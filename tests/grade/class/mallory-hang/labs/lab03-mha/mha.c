/* r-hang.c - mha_forward walks the heads with a step of 2 (two heads at a
 * time, around the heads again after the last pair) and stops at h ==
 * n_heads, so it never stops when n_heads is odd:
 * the first such case (3 heads) hangs. The harness stops the call at its
 * deadline and names the call in flight; the function's later checks are
 * not run (each would wait as long) and count as failed.
 * run-only: mha_forward
 * expect-exit: nonzero
 * expect: HANG  mha_forward, case 'weights set N(0, 0.5^2) (seed 102), x random (seed 12): T=7 d_model=6 n_heads=3 d_k=2': did not return within
 * expect: call in flight: mha_forward(out, weights, layer->w_qkv, layer->w_o, x, NULL, 7, 6, 3)
 * expect-re: ^mha_forward +0 +2 +16$
 */
#define MUTANT_mha_forward
/* base.h - lab 03 solved the way a learner would write it, for the harness
 * self-test. Each subject .c file of tests/labs/lab03/ includes it after
 * defining MUTANT_<function> for each function it writes itself (with one
 * mistake); solution.c defines none. The parts a mutant changes are macros
 * it may define before including this file:
 *   SPLIT_M(h, t, c)          the element of m that goes to heads[h][t][c]
 *                             (index into m; heads[h][t][c] is written in order)
 *   MERGE_HEADS(h, t, c)      the element of heads that goes to m[t][h d_k + c]
 *   HEADS_PROLOGUE(out)       anything the split and the merge do before their checks
 *   FW_SPLIT(heads, qkv)      [Q | K | V] (T, 3 d_model) into 3 n_heads heads
 *   FW_Q(h), FW_K(h), FW_V(h) head h's (T, d_k) queries, keys, values
 *   FW_WSLOT(h)               where head h's weights start in weights
 *   FW_BIAS                   the bias each head gets
 *   FW_HEAD(o, w, q, k, v, b) one head's attention (sdpa)
 *   FW_MERGE(concat, o)       the heads' outputs (n_heads, T, d_k) side by side
 *   FW_OUT(out, concat)       out = concat W_O
 *   FW_PROLOGUE()             anything done before the argument checks (nothing)
 *   FW_FREE(p)                how a work buffer is freed (free)
 * mha_forward is the chapter's: X W_QKV in one product, split into 3
 * n_heads heads with mha_split_heads, sdpa per head, mha_merge_heads, W_O. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "minimodel/attention/mha.h"
#include "minimodel/attention/qkv.h"
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/error.h"
#include "minimodel/core/matrix.h"
#include "lab.h"
/* args.h - the argument checks of lab 03's functions, as the subjects of
 * tests/labs/lab03/ write them (the library's order: pointers, sizes, each
 * buffer's size, overlaps, values). A mutant may define ARGS_NO_OVERLAP
 * (mha_forward checks no overlap) or ARGS_HEADS_NO_OVERLAP (the split and
 * the merge check none) before including base.h. */
#ifdef ARGS_HEADS_NO_OVERLAP
#define HEADS_CHECK_OVERLAP(out, in) ((void)0)
#else
#define HEADS_CHECK_OVERLAP(out, in) do {                                           \
    const mm_buffer bufs_[] = { MM_BUFFER(out, (size_t)T * n_heads * d_k),          \
                                MM_BUFFER(in, (size_t)T * n_heads * d_k) };         \
    MM_NEED_DISJOINT(bufs_, 1);                                                     \
} while (0)
#endif

#define HEADS_CHECK_ARGS(out, in) do {                                              \
    MM_NEED_BUFFER(out);  MM_NEED_BUFFER(in);                                       \
    MM_NEED_POSITIVE(T);  MM_NEED_POSITIVE(n_heads);  MM_NEED_POSITIVE(d_k);        \
    if (n_heads > INT_MAX / d_k)                                                    \
        return mm_fail(MM_EINVAL, "%s: n_heads = %d times d_k = %d is not an int",  \
                       __func__, n_heads, d_k);                                     \
    MM_NEED_SIZE_PRODUCT(T, n_heads * d_k);                                         \
    HEADS_CHECK_OVERLAP(out, in);                                                   \
} while (0)

#define FORWARD_CHECK_ARGS() do {                                                   \
    MM_NEED_BUFFER(out);  MM_NEED_BUFFER(layer);  MM_NEED_BUFFER(x);                \
    MM_NEED_POSITIVE(T);                                                            \
    MM_NEED_SIZE_PRODUCT(T, 3 * (long)layer->d_model);                              \
    MM_NEED_SIZE_PRODUCT(T, T);                                                     \
    if (weights && (size_t)T * T > MM_MAX_ELEMENTS / layer->n_heads)                \
        return mm_fail(MM_EINVAL, "mha_forward: weights too large");                \
    FORWARD_CHECK_OVERLAPS();                                                       \
    MM_NEED_FINITE(x, T, layer->d_model);                                           \
} while (0)

#ifdef ARGS_NO_OVERLAP
#define FORWARD_CHECK_OVERLAPS() ((void)0)
#else
#define FORWARD_CHECK_OVERLAPS() do {                                               \
    size_t td_ = (size_t)T * layer->d_model;                                        \
    size_t dd_ = (size_t)layer->d_model * layer->d_model;                           \
    const mm_buffer bufs_[] = {                                                     \
        MM_BUFFER(out, td_),                                                        \
        MM_BUFFER(weights, weights ? (size_t)layer->n_heads * T * T : 0),           \
        MM_BUFFER(x, td_), MM_BUFFER(bias, bias ? (size_t)T * T : 0),               \
        MM_BUFFER(layer->w_qkv, 3 * dd_), MM_BUFFER(layer->w_o, dd_) };             \
    MM_NEED_DISJOINT(bufs_, 2);                                                     \
} while (0)
#endif

#ifndef SPLIT_M
#define SPLIT_M(h, t, c) ((size_t)(t) * n_heads * d_k + (size_t)(h) * d_k + (c))
#endif
#ifndef MERGE_HEADS
#define MERGE_HEADS(h, t, c) (((size_t)(h) * T + (t)) * d_k + (c))
#endif

#ifndef HEADS_PROLOGUE
#define HEADS_PROLOGUE(out) ((void)0)
#endif

#ifndef MUTANT_mha_split_heads
mm_status mha_split_heads(double *heads, const double *m, int T, int n_heads, int d_k)
{
    HEADS_PROLOGUE(heads);
    HEADS_CHECK_ARGS(heads, m);
    size_t i = 0;
    for (int h = 0; h < n_heads; h++)
        for (int t = 0; t < T; t++)
            for (int c = 0; c < d_k; c++) heads[i++] = m[SPLIT_M(h, t, c)];
    return MM_OK;
}
#endif

#ifndef MUTANT_mha_merge_heads
mm_status mha_merge_heads(double *m, const double *heads, int T, int n_heads, int d_k)
{
    HEADS_PROLOGUE(m);
    HEADS_CHECK_ARGS(m, heads);
    size_t i = 0;
    for (int t = 0; t < T; t++)
        for (int h = 0; h < n_heads; h++)
            for (int c = 0; c < d_k; c++) m[i++] = heads[MERGE_HEADS(h, t, c)];
    return MM_OK;
}
#endif

#ifndef FW_SPLIT
#define FW_SPLIT(heads, qkv) mha_split_heads(heads, qkv, T, 3 * H, d_k)
#endif
#ifndef FW_Q
#define FW_Q(h) (heads + (size_t)(h) * hs)
#endif
#ifndef FW_K
#define FW_K(h) (heads + (size_t)(H + (h)) * hs)
#endif
#ifndef FW_V
#define FW_V(h) (heads + (size_t)(2 * H + (h)) * hs)
#endif
#ifndef FW_WSLOT
#define FW_WSLOT(h) ((size_t)(h) * T * T)
#endif
#ifndef FW_BIAS
#define FW_BIAS bias
#endif
#ifndef FW_HEAD
#define FW_HEAD(o, w, q, k, v, b) sdpa(o, w, q, k, v, b, T, T, d_k, d_k)
#endif
#ifndef FW_MERGE
#define FW_MERGE(concat, o) mha_merge_heads(concat, o, T, H, d_k)
#endif
#ifndef FW_OUT
#define FW_OUT(out, concat) mm_matmul(out, concat, layer->w_o, T, d, d, false)
#endif

#ifndef FW_PROLOGUE
#define FW_PROLOGUE() ((void)0)
#endif
#ifndef FW_FREE
#define FW_FREE(p) free(p)
#endif

#ifndef MUTANT_mha_forward
mm_status mha_forward(double *out, double *weights, const mha *layer,
                      const double *x, const double *bias, int T)
{
    FW_PROLOGUE();
    FORWARD_CHECK_ARGS();
    int d = layer->d_model, H = layer->n_heads, d_k = layer->d_k;
    size_t hs = (size_t)T * d_k, n = (size_t)T * 3 * d;
    double *qkv = malloc(n * sizeof *qkv), *heads = malloc(n * sizeof *heads);
    double *o = malloc((size_t)T * d * sizeof *o), *concat = malloc((size_t)T * d * sizeof *o);
    mm_status st = MM_OK;
    if (!qkv || !heads || !o || !concat) st = mm_fail(MM_ENOMEM, "mha_forward: no memory");
    if (st == MM_OK) st = mm_matmul(qkv, x, layer->w_qkv, T, d, 3 * d, false);
    if (st == MM_OK) st = FW_SPLIT(heads, qkv);
    for (int h = 0; h < H && st == MM_OK; h++)
        st = FW_HEAD(o + h * hs, weights ? weights + FW_WSLOT(h) : NULL, FW_Q(h), FW_K(h),
                     FW_V(h), FW_BIAS);
    if (st == MM_OK) st = FW_MERGE(concat, o);
    if (st == MM_OK) st = FW_OUT(out, concat);
    FW_FREE(qkv);
    FW_FREE(heads);
    FW_FREE(o);
    FW_FREE(concat);
    return st;
}
#endif
mm_status mha_forward(double *out, double *weights, const mha *layer,
                      const double *x, const double *bias, int T)
{
    FORWARD_CHECK_ARGS();
    int d = layer->d_model, H = layer->n_heads, d_k = layer->d_k;
    size_t hs = (size_t)T * d_k, n = (size_t)T * 3 * d;
    double *qkv = malloc(n * sizeof *qkv), *heads = malloc(n * sizeof *heads);
    double *o = malloc((size_t)T * d * sizeof *o), *concat = malloc((size_t)T * d * sizeof *o);
    mm_status st = MM_OK;
    if (!qkv || !heads || !o || !concat) st = mm_fail(MM_ENOMEM, "mha_forward: no memory");
    if (st == MM_OK) st = mm_matmul(qkv, x, layer->w_qkv, T, d, 3 * d, false);
    if (st == MM_OK) st = mha_split_heads(heads, qkv, T, 3 * H, d_k);
    for (int h = 0; h != H && st == MM_OK; h = (h + 2) % (2 * H)) {  /* two at a time */
        int pair = h + 1 < H ? h + 1 : h;
        for (int g = h; g <= pair && st == MM_OK && g < H; g++)
            st = sdpa(o + g * hs, weights ? weights + (size_t)g * T * T : NULL, heads + g * hs,
                      heads + (H + g) * hs, heads + (2 * H + g) * hs, bias, T, T, d_k, d_k);
    }
    if (st == MM_OK) st = mha_merge_heads(concat, o, T, H, d_k);
    if (st == MM_OK) st = mm_matmul(out, concat, layer->w_o, T, d, d, false);
    free(qkv);
    free(heads);
    free(o);
    free(concat);
    return st;
}
