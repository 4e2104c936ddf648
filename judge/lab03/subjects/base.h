/* base.h - lab 03 solved the way a learner would write it, for the harness
 * self-test. Each subject .c file of judge/lab03/subjects/ includes it after
 * defining MUTANT_<function> for each function it writes itself (with one
 * mistake); solution.c defines none. The parts a mutant changes are macros
 * it may define before including this file:
 *   SPLIT_M(h, t, c)          the element of m that goes to heads[h][t][c]
 *                             (index into m; heads[h][t][c] is written in order)
 *   MERGE_HEADS(h, t, c)      the element of heads that goes to m[t][h d_k + c]
 *   HEADS_PROLOGUE(out)       anything the split and the merge do before their checks
 *   FW_SPLIT(heads, qkv)      [Q | K | V] (T, 3 d_model) into 3 n_heads heads
 *   FW_Q(h), FW_K(h), FW_V(h) head h's (T, d_k) queries, keys, values
 *   FW_HEADS(h)               the loop over the heads (h = 0 .. n_heads - 1)
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
#include "args.h"

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
#ifndef FW_HEADS
#define FW_HEADS(h) for (int h = 0; h < H && st == MM_OK; h++)
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
    FW_HEADS(h)
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
