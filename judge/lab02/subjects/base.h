/* base.h - lab 02 solved the way a learner would write it, for the harness
 * self-test. Each subject .c file of judge/lab02/subjects/ includes it after
 * defining MUTANT_<function> for the one function it writes itself (with
 * one mistake), or after a hook below; solution.c defines none. sdpa is
 * row.h's, query by query as the chapter does (a subject that defines
 * MUTANT_sdpa and WRAP_sdpa gets it as the static sdpa_rows, to call from
 * its own). softmax_row's hooks, each with its default:
 *   SOFTMAX_BAD(x)       a score it refuses (isnan(x) || x == INFINITY)
 *   SOFTMAX_FIRST        done after the pointer and size checks (nothing)
 *   SOFTMAX_MAX_T        the type the maximum is kept in (double)
 *   SOFTMAX_HIDDEN_ROW   1: a row of -inf has weights 0
 * sdpa's argument checks, SDPA_CHECK_ARGS, go in the library's order
 * (pointers, sizes, each buffer's size, overlaps, values); a mutant may
 * define ARGS_NO_PRODUCT (no check that each buffer's size fits),
 * ARGS_NO_OVERLAP (no overlap check) or ARGS_NO_BIAS (no look at the bias). */
#ifndef LAB02_BASE_H
#define LAB02_BASE_H
#include <math.h>
#include <stdlib.h>
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/error.h"
#include "minimodel/core/matrix.h"
#include "lab.h"

#ifndef SOFTMAX_BAD
#define SOFTMAX_BAD(x) (isnan(x) || (x) == INFINITY)
#endif
#ifndef SOFTMAX_FIRST
#define SOFTMAX_FIRST ((void)0)
#endif
#ifndef SOFTMAX_MAX_T
#define SOFTMAX_MAX_T double
#endif
#ifndef SOFTMAX_HIDDEN_ROW
#define SOFTMAX_HIDDEN_ROW 1
#endif

/* SOFTMAX_CHECK_ARGS - softmax_row's argument checks, on s and n */
#define SOFTMAX_CHECK_ARGS() do {                                                   \
    MM_NEED_BUFFER(s);                                                              \
    MM_NEED_POSITIVE(n);                                                            \
    SOFTMAX_FIRST;                                                                  \
    for (int j = 0; j < n; j++)                                                     \
        if (SOFTMAX_BAD(s[j]))                                                      \
            return mm_fail(MM_EINVAL, "softmax_row: s[%d] is %g", j, s[j]);         \
} while (0)

#ifndef MUTANT_softmax_row
mm_status softmax_row(double *s, int n)
{
    SOFTMAX_CHECK_ARGS();
    SOFTMAX_MAX_T m = (SOFTMAX_MAX_T)s[0];
    for (int j = 1; j < n; j++)
        if (s[j] > m) m = (SOFTMAX_MAX_T)s[j];
    if (SOFTMAX_HIDDEN_ROW && m == -INFINITY) {
        for (int j = 0; j < n; j++) s[j] = 0.0;
        return MM_OK;
    }
    double sum = 0.0;
    for (int j = 0; j < n; j++) sum += s[j] = exp(s[j] - m);
    for (int j = 0; j < n; j++) s[j] /= sum;
    return MM_OK;
}
#endif

/* SDPA_PARAMS - sdpa's parameters, as sdpa.h declares them */
#define SDPA_PARAMS (double *out, double *weights, const double *q, const double *k,     \
                     const double *v, const double *bias, int T_q, int T_k, int d_k, int d_v)

#define SDPA_CHECK_ARGS() do {                                                      \
    MM_NEED_BUFFER(out);                                                            \
    MM_NEED_BUFFER(q);  MM_NEED_BUFFER(k);  MM_NEED_BUFFER(v);                      \
    MM_NEED_POSITIVE(T_q);  MM_NEED_POSITIVE(T_k);                                  \
    MM_NEED_POSITIVE(d_k);  MM_NEED_POSITIVE(d_v);                                  \
    SDPA_CHECK_PRODUCTS();                                                          \
    SDPA_CHECK_OVERLAPS();                                                          \
    MM_NEED_FINITE(q, T_q, d_k);  MM_NEED_FINITE(k, T_k, d_k);                      \
    MM_NEED_FINITE(v, T_k, d_v);                                                    \
    SDPA_CHECK_BIAS();                                                              \
} while (0)

#ifdef ARGS_NO_PRODUCT
#define SDPA_CHECK_PRODUCTS() ((void)0)
#else
#define SDPA_CHECK_PRODUCTS() do {                                                  \
    MM_NEED_SIZE_PRODUCT(T_q, d_k);  MM_NEED_SIZE_PRODUCT(T_k, d_k);                \
    MM_NEED_SIZE_PRODUCT(T_k, d_v);  MM_NEED_SIZE_PRODUCT(T_q, d_v);                \
    MM_NEED_SIZE_PRODUCT(T_q, T_k);                                                 \
} while (0)
#endif
#ifdef ARGS_NO_OVERLAP
#define SDPA_CHECK_OVERLAPS() ((void)0)
#else
#define SDPA_CHECK_OVERLAPS() do {                                                  \
    size_t n_w = weights ? (size_t)T_q * T_k : 0, n_b = bias ? (size_t)T_q * T_k : 0; \
    const mm_buffer bufs[] = {                                                      \
        MM_BUFFER(out, (size_t)T_q * d_v), MM_BUFFER(weights, n_w),                 \
        MM_BUFFER(q, (size_t)T_q * d_k), MM_BUFFER(k, (size_t)T_k * d_k),           \
        MM_BUFFER(v, (size_t)T_k * d_v), MM_BUFFER(bias, n_b) };                    \
    MM_NEED_DISJOINT(bufs, 2);                                                      \
} while (0)
#endif

#ifdef ARGS_NO_BIAS
#define SDPA_CHECK_BIAS() ((void)0)
#else
#define SDPA_CHECK_BIAS() do {                                                      \
    for (size_t e = 0; bias && e < (size_t)T_q * T_k; e++)                          \
        if (isnan(bias[e]) || bias[e] == INFINITY)                                  \
            return mm_fail(MM_EINVAL, "sdpa: bias[%zu] is %g", e, bias[e]);         \
} while (0)
#endif

#if !defined(MUTANT_sdpa) || defined(WRAP_sdpa)
#include "row.h"
#endif
#endif
