/* full.h - an sdpa in another style than base.h's, for the subjects that
 * write the full score matrix first (ok-full-matrix.c and the mutants of
 * the softmax inside sdpa): S = Q K^T (T_q, T_k) with mm_matmul, scaled by
 * FULL_SCALE(d_k), the bias added, then each row's softmax by
 * FULL_SOFTMAX(row, n) (softmax_row, unless a subject writes one with its
 * mistake; or the whole matrix's by FULL_MATRIX_SOFTMAX(w, T_q, T_k)), and
 * out = W V. The matrix is the caller's weights, or calloc'd (its absence
 * is MM_ENOMEM with the message FULL_NO_MEMORY). */
#ifndef LAB02_BASE_H
#define MUTANT_sdpa
#include "base.h"
#endif
#ifndef FULL_SCALE
#define FULL_SCALE(d_k) (1.0 / sqrt((double)(d_k)))
#endif
#ifndef FULL_SOFTMAX
#define FULL_SOFTMAX softmax_row
#endif
#ifndef FULL_NO_MEMORY
#define FULL_NO_MEMORY "sdpa: no memory"
#endif
mm_status sdpa SDPA_PARAMS
{
    SDPA_CHECK_ARGS();
    double *w = weights ? weights : calloc((size_t)T_q * T_k, sizeof *w);
    if (!w) return mm_fail(MM_ENOMEM, FULL_NO_MEMORY);
    double scale = FULL_SCALE(d_k);
    mm_status st = MM_OK;
    if (mm_matmul(w, q, k, T_q, d_k, T_k, true) != MM_OK)             /* (T_q, T_k) */
        st = mm_fail(MM_ERANGE, "sdpa: a score overflows");
    for (int i = 0; i < T_q * T_k && st == MM_OK; i++) {
        w[i] = w[i] * scale + (bias ? bias[i] : 0.0);
        if (w[i] == INFINITY) st = mm_fail(MM_ERANGE, "sdpa: score %d overflows", i);
    }
#ifdef FULL_MATRIX_SOFTMAX
    if (st == MM_OK) st = FULL_MATRIX_SOFTMAX(w, T_q, T_k);
#else
    for (int i = 0; i < T_q && st == MM_OK; i++) st = FULL_SOFTMAX(w + (size_t)i * T_k, T_k);
#endif
    if (st == MM_OK) st = mm_matmul(out, w, v, T_q, T_k, d_v, false);  /* (T_q, d_v) */
    if (!weights) free(w);
    return st;
}
