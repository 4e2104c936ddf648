/* ok-own-loops.c - the three functions in another style than base.h's: the
 * split and the merge copy one block of d_k values at a time (memcpy), with
 * their checks written out by hand; mha_forward unpacks W_Q, W_K, W_V from
 * W_QKV (qkv_split), projects X with each, splits Q, K and V one by one with
 * its own mha_split_heads, runs each head with loops of its own (own.h, no
 * sdpa), merges with loops of its own and multiplies by W_O with loops of
 * its own (an overflow is MM_ERANGE, as mm_matmul reports it). Every check
 * passes.
 * expect-exit: 0
 * expect: All 53 checks pass
 */
#include <limits.h>
#include <string.h>
#include "minimodel/attention/mha.h"
#include "minimodel/attention/qkv.h"
#include "minimodel/core/matrix.h"
#include "lab.h"
#include "own.h"

/* heads_args - the checks of the split and the merge, by hand */
static mm_status heads_args(const char *fn, const double *out, const double *in, int T,
                            int n_heads, int d_k)
{
    if (!out || !in) return mm_fail(MM_EINVAL, "%s: a NULL buffer", fn);
    if (T <= 0 || n_heads <= 0 || d_k <= 0)
        return mm_fail(MM_EINVAL, "%s: sizes %d, %d, %d", fn, T, n_heads, d_k);
    if (n_heads > INT_MAX / d_k) return mm_fail(MM_EINVAL, "%s: too wide", fn);
    if ((size_t)T > MM_MAX_ELEMENTS / ((size_t)n_heads * d_k))
        return mm_fail(MM_EINVAL, "%s: too large", fn);
    size_t n = (size_t)T * n_heads * d_k;
    if (out < in + n && in < out + n) return mm_fail(MM_EINVAL, "%s: buffers overlap", fn);
    return MM_OK;
}

mm_status mha_split_heads(double *heads, const double *m, int T, int n_heads, int d_k)
{
    MM_TRY(heads_args(__func__, heads, m, T, n_heads, d_k));
    size_t width = (size_t)n_heads * d_k, bytes = (size_t)d_k * sizeof *m;
    for (int t = 0; t < T; t++)
        for (int h = 0; h < n_heads; h++)
            memcpy(heads + ((size_t)h * T + t) * d_k, m + t * width + (size_t)h * d_k, bytes);
    return MM_OK;
}

mm_status mha_merge_heads(double *m, const double *heads, int T, int n_heads, int d_k)
{
    MM_TRY(heads_args(__func__, m, heads, T, n_heads, d_k));
    size_t width = (size_t)n_heads * d_k, bytes = (size_t)d_k * sizeof *m;
    for (int h = 0; h < n_heads; h++)
        for (int t = 0; t < T; t++)
            memcpy(m + t * width + (size_t)h * d_k, heads + ((size_t)h * T + t) * d_k, bytes);
    return MM_OK;
}

/* overlaps - p (np doubles) shares a byte with q (nq doubles) */
static int overlaps(const double *p, size_t np, const double *q, size_t nq)
{
    return p && q && np && nq && p < q + nq && q < p + np;
}

mm_status mha_forward(double *out, double *weights, const mha *layer,
                      const double *x, const double *bias, int T)
{
    if (!out || !layer || !x) return mm_fail(MM_EINVAL, "mha_forward: a NULL argument");
    if (T <= 0) return mm_fail(MM_EINVAL, "mha_forward: T = %d", T);
    int d = layer->d_model, H = layer->n_heads, d_k = layer->d_k;
    if ((size_t)T > MM_MAX_ELEMENTS / (3 * (size_t)d) || (size_t)T > MM_MAX_ELEMENTS / T ||
        (weights && (size_t)T * T > MM_MAX_ELEMENTS / H))
        return mm_fail(MM_EINVAL, "mha_forward: T = %d is too large", T);
    size_t td = (size_t)T * d, dd = (size_t)d * d, tt = (size_t)T * T;
    const double *in[4] = { x, bias, layer->w_qkv, layer->w_o };
    size_t len[4] = { td, bias ? tt : 0, 3 * dd, dd };
    for (int i = 0; i < 4; i++)
        if (overlaps(out, td, in[i], len[i]) || overlaps(weights, H * tt, in[i], len[i]))
            return mm_fail(MM_EINVAL, "mha_forward: an output overlaps an input");
    if (overlaps(out, td, weights, H * tt))
        return mm_fail(MM_EINVAL, "mha_forward: out and weights overlap");
    for (size_t e = 0; e < td; e++)
        if (!isfinite(x[e])) return mm_fail(MM_EINVAL, "mha_forward: x[%zu] = %g", e, x[e]);
    for (size_t e = 0; bias && e < tt; e++)
        if (isnan(bias[e]) || bias[e] == INFINITY)
            return mm_fail(MM_EINVAL, "mha_forward: bias[%zu] = %g", e, bias[e]);

    /* w: W_Q, W_K, W_V; p: Q, K, V; heads: their heads; o: the heads' outputs; c: merged */
    double *w = malloc(3 * dd * sizeof *w), *p = malloc(3 * td * sizeof *p);
    double *heads = malloc(3 * td * sizeof *heads), *o = malloc(td * sizeof *o);
    double *c = malloc(td * sizeof *c);
    mm_status st = MM_OK;
    if (!w || !p || !heads || !o || !c) st = mm_fail(MM_ENOMEM, "mha_forward: no memory");
    if (st == MM_OK) st = qkv_split(w, w + dd, w + 2 * dd, layer->w_qkv, d, d, d);
    for (int b = 0; b < 3 && st == MM_OK; b++) {
        st = mm_matmul(p + b * td, x, w + b * dd, T, d, d, false);
        if (st == MM_OK) st = mha_split_heads(heads + b * td, p + b * td, T, H, d_k);
    }
    size_t hs = (size_t)T * d_k;
    for (int h = 0; h < H && st == MM_OK; h++)
        st = head_attention(o + h * hs, weights ? weights + h * tt : NULL, heads + h * hs,
                            heads + td + h * hs, heads + 2 * td + h * hs, bias, T, d_k,
                            1.0 / sqrt((double)d_k));
    for (int t = 0; t < T && st == MM_OK; t++)             /* the merge, by hand */
        for (int h = 0; h < H; h++)
            for (int k = 0; k < d_k; k++) c[t * d + h * d_k + k] = o[h * hs + t * d_k + k];
    for (int t = 0; t < T && st == MM_OK; t++)             /* out = c W_O, by hand */
        for (int j = 0; j < d; j++) {
            double acc = 0.0;
            for (int k = 0; k < d; k++) acc += c[t * d + k] * layer->w_o[k * d + j];
            out[t * d + j] = acc;
            if (!isfinite(acc)) st = mm_fail(MM_ERANGE, "mha_forward: out[%d][%d] overflows", t, j);
        }
    free(w);
    free(p);
    free(heads);
    free(o);
    free(c);
    return st;
}
