/* ok-own-style.c - the five functions in another style than base.h's: the
 * checks written out by hand (no MM_NEED_ macros), the causal mask a row
 * at a time (-inf, then memset to 0 up to the diagonal), the padding mask
 * as one row in malloc'd memory copied to every row, mask_combine checking every pair in
 * a first pass and adding in a second, bias == other compared by address
 * and other overlaps by byte ranges, and mha_forward_causal building its
 * own mask (not calling mask_causal) in calloc'd memory before
 * mha_forward. Every check passes.
 * expect-exit: 0
 * expect: All 65 checks pass
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "minimodel/attention/mask.h"
#include "minimodel/attention/mha.h"
#include "lab.h"

/* mask_args - the checks every mask function shares */
static mm_status mask_args(const char *fn, const void *bias, long T_q, long T_k)
{
    if (!bias) return mm_fail(MM_EINVAL, "%s: bias is NULL", fn);
    if (T_q <= 0 || T_k <= 0) return mm_fail(MM_EINVAL, "%s: sizes %ld, %ld", fn, T_q, T_k);
    if ((size_t)T_q > MM_MAX_ELEMENTS / (size_t)T_k)
        return mm_fail(MM_EINVAL, "%s: %ld x %ld is too large", fn, T_q, T_k);
    return MM_OK;
}

/* fill_rows - row r of bias (T_q, T_k) is row, for every r */
static void fill_rows(double *bias, const double *row, int T_q, int T_k)
{
    for (int i = 0; i < T_q; i++) memcpy(bias + (size_t)i * T_k, row, (size_t)T_k * sizeof *row);
}

/* bytes_overlap - [p, p + np) and [q, q + nq) share a byte */
static bool bytes_overlap(const void *p, size_t np, const void *q, size_t nq)
{
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)q;
    return a < b + nq && b < a + np;
}

mm_status mask_causal(double *bias, int T)
{
    MM_TRY(mask_args("mask_causal", bias, T, T));
    for (int i = 0; i < T; i++) {
        double *row = bias + (size_t)i * T;
        for (int j = 0; j < T; j++) row[j] = -INFINITY;
        memset(row, 0, (size_t)(i + 1) * sizeof *row);       /* 0.0 is all bits zero */
    }
    return MM_OK;
}

mm_status mask_padding(double *bias, int T_q, int T_k, int length)
{
    MM_TRY(mask_args("mask_padding", bias, T_q, T_k));
    if (length < 0 || length > T_k)
        return mm_fail(MM_EINVAL, "mask_padding: length %d not in 0 .. %d", length, T_k);
    double *row = malloc((size_t)T_k * sizeof *row);
    if (!row) return mm_fail(MM_ENOMEM, "mask_padding: no memory for a row");
    for (int j = T_k; j-- > 0; ) row[j] = j >= length ? -INFINITY : 0.0;
    fill_rows(bias, row, T_q, T_k);
    free(row);
    return MM_OK;
}

mm_status mask_from_bool(double *bias, const bool *allowed, int T_q, int T_k)
{
    MM_TRY(mask_args("mask_from_bool", bias, T_q, T_k));
    if (!allowed) return mm_fail(MM_EINVAL, "mask_from_bool: allowed is NULL");
    size_t n = (size_t)T_q * T_k;
    if (bytes_overlap(bias, n * sizeof *bias, allowed, n * sizeof *allowed))
        return mm_fail(MM_EINVAL, "mask_from_bool: bias and allowed overlap");
    const bool *a = allowed;
    for (double *b = bias; b < bias + n; b++, a++) *b = *a ? 0.0 : -INFINITY;
    return MM_OK;
}

mm_status mask_combine(double *bias, const double *other, int T_q, int T_k)
{
    MM_TRY(mask_args("mask_combine", bias, T_q, T_k));
    if (!other) return mm_fail(MM_EINVAL, "mask_combine: other is NULL");
    size_t n = (size_t)T_q * T_k;
    if (bias != other && bytes_overlap(bias, n * sizeof *bias, other, n * sizeof *other))
        return mm_fail(MM_EINVAL, "mask_combine: bias and other overlap");
    for (size_t e = 0; e < n; e++) {
        double b = bias[e], o = other[e];
        if (isnan(b) || isnan(o) || (isinf(b) && b > 0) || (isinf(o) && o > 0))
            return mm_fail(MM_EINVAL, "mask_combine: element %zu is not a mask value", e);
        if (fabs(b) <= 1.7976931348623157e308 && fabs(o) <= 1.7976931348623157e308 &&
            isinf(b + o))
            return mm_fail(MM_ERANGE, "mask_combine: element %zu overflows", e);
    }
    for (size_t e = n; e-- > 0; ) bias[e] = bias[e] + other[e];
    return MM_OK;
}

mm_status mha_forward_causal(double *out, double *weights, const mha *layer,
                             const double *x, int T)
{
    if (!out || !layer || !x) return mm_fail(MM_EINVAL, "mha_forward_causal: a NULL argument");
    MM_TRY(mask_args("mha_forward_causal", out, T, T));
    double *mask = calloc((size_t)T * T, sizeof *mask);          /* 0: visible */
    if (!mask) return mm_fail(MM_ENOMEM, "mha_forward_causal: no memory for the mask");
    for (int i = 0; i + 1 < T; i++)
        for (int j = i + 1; j < T; j++) mask[(size_t)i * T + j] = -INFINITY;
    mm_status st = mha_forward(out, weights, layer, x, mask, T);
    free(mask);
    return st;
}
