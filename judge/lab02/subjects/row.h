/* row.h - sdpa query by query (base.h's), with its parts as macros that a
 * mutant of judge/lab02/subjects/ defines before including this file (after
 * base.h, with MUTANT_sdpa, when its macros call functions of its own):
 *   ROW_SCALE(d_k)            the scale (1/sqrt(d_k))
 *   ROW_KEYS                  how many keys a query is scored against (T_k)
 *   ROW_WEIGHTS(i)            where row i of weights starts (weights + i T_k)
 *   ROW_SCORES(a, q_i)        a (ROW_KEYS) = q_i K^T, with mm_matmul
 *   ROW_SCORE(x, b)           a score from q_i . k_j and the bias (x * scale + b)
 *   ROW_SOFTMAX(a, n)         the softmax of a row (softmax_row)
 *   ROW_AFTER(a, n)           anything done to the weights after it (nothing)
 *   ROW_BLEND(out_i, a, i)    out_i = a V (mm_matmul)
 *   ROW_CHECK_SCORES          1: refuse a score that overflows with MM_ERANGE */
#ifndef LAB02_BASE_H
#define MUTANT_sdpa
#include "base.h"
#endif
#ifndef ROW_SCALE
#define ROW_SCALE(d_k) (1.0 / sqrt((double)(d_k)))
#endif
#ifndef ROW_KEYS
#define ROW_KEYS T_k
#endif
#ifndef ROW_WEIGHTS
#define ROW_WEIGHTS(i) (weights + (size_t)(i) * T_k)
#endif
#ifndef ROW_SCORES
#define ROW_SCORES(a, q_i) mm_matmul(a, q_i, k, 1, d_k, ROW_KEYS, true)
#endif
#ifndef ROW_SCORE
#define ROW_SCORE(x, b) ((x) * scale + (b))
#endif
#ifndef ROW_SOFTMAX
#define ROW_SOFTMAX softmax_row
#endif
#ifndef ROW_AFTER
#define ROW_AFTER(a, n) ((void)0)
#endif
#ifndef ROW_BLEND
#define ROW_BLEND(out_i, a, i) mm_matmul(out_i, a, v, 1, ROW_KEYS, d_v, false)
#endif
#ifndef ROW_CHECK_SCORES
#define ROW_CHECK_SCORES 1
#endif

#ifdef WRAP_sdpa
static mm_status sdpa_rows SDPA_PARAMS
#else
mm_status sdpa SDPA_PARAMS
#endif
{
    SDPA_CHECK_ARGS();
    double *row = weights ? NULL : malloc((size_t)T_k * sizeof *row);
    if (!weights && !row) return mm_fail(MM_ENOMEM, "sdpa: no memory");
    double scale = ROW_SCALE(d_k);
    mm_status st = MM_OK;
    for (int i = 0; i < T_q && st == MM_OK; i++) {
        double *a = weights ? ROW_WEIGHTS(i) : row;
        if (ROW_SCORES(a, q + (size_t)i * d_k) != MM_OK)
            st = mm_fail(MM_ERANGE, "sdpa: a score of query %d overflows", i);
        for (int j = 0; j < ROW_KEYS && st == MM_OK; j++) {
            a[j] = ROW_SCORE(a[j], bias ? bias[(size_t)i * T_k + j] : 0.0);
            if (ROW_CHECK_SCORES && a[j] == INFINITY)
                st = mm_fail(MM_ERANGE, "sdpa: score (%d, %d) overflows", i, j);
        }
        if (st == MM_OK) st = ROW_SOFTMAX(a, ROW_KEYS);
        ROW_AFTER(a, ROW_KEYS);
        if (st == MM_OK) st = ROW_BLEND(out + (size_t)i * d_v, a, i);
    }
    free(row);
    return st;
}
