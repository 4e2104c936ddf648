/* m-sdpa-no-max.c - sdpa has its own softmax (full.h), without the row
 * maximum subtracted; its softmax_row is right. On the large scores exp
 * overflows (inf/inf) and underflows (0/0): the probe finds softmax_row
 * right on the same scores, so the hint is about sdpa's own softmax. A
 * row that sees no key is 0/0 too, and said as such.
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'large scores: row 0 (1000, 999, 990), row 1 (-1000, -999, -990): T_q=2 T_k=3 d_k=4 d_v=2': returned MM_EINVAL (1) for valid arguments; expected MM_OK (0); mm_last_error() says: mm_matmul: a[0][0] is
 * expect: hint: your softmax inside sdpa does not subtract the row maximum
 * expect-not: your softmax_row gets them wrong
 * expect: hint: a row whose every key is hidden (all its scores -inf) gives NaN
 * expect-re: ^sdpa +0 +14 +3$
 */
#define MUTANT_sdpa
/* base.h - lab 02 solved the way a learner would write it, for the harness
 * self-test. Each subject .c file of tests/labs/lab02/ includes it after
 * defining MUTANT_<function> for the one function it writes itself (with
 * one mistake); solution.c defines none. sdpa goes query by query, scores
 * with mm_matmul and calls softmax_row, as the chapter does. */
#include <math.h>
#include <stdlib.h>
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/error.h"
#include "minimodel/core/matrix.h"
#include "lab.h"
/* args.h - the argument checks of sdpa, as the subjects of tests/labs/lab02/
 * write them (the library's order: pointers, sizes, each buffer's size,
 * overlaps, values). A mutant may define ARGS_NO_OVERLAP (no overlap check)
 * or ARGS_NO_BIAS (no look at the bias) before including base.h. */
#define SDPA_CHECK_ARGS() do {                                                      \
    MM_NEED_BUFFER(out);                                                            \
    MM_NEED_BUFFER(q);  MM_NEED_BUFFER(k);  MM_NEED_BUFFER(v);                      \
    MM_NEED_POSITIVE(T_q);  MM_NEED_POSITIVE(T_k);                                  \
    MM_NEED_POSITIVE(d_k);  MM_NEED_POSITIVE(d_v);                                  \
    MM_NEED_SIZE_PRODUCT(T_q, d_k);  MM_NEED_SIZE_PRODUCT(T_k, d_k);                \
    MM_NEED_SIZE_PRODUCT(T_k, d_v);  MM_NEED_SIZE_PRODUCT(T_q, d_v);                \
    MM_NEED_SIZE_PRODUCT(T_q, T_k);                                                 \
    SDPA_CHECK_OVERLAPS();                                                          \
    MM_NEED_FINITE(q, T_q, d_k);  MM_NEED_FINITE(k, T_k, d_k);                      \
    MM_NEED_FINITE(v, T_k, d_v);                                                    \
    SDPA_CHECK_BIAS();                                                              \
} while (0)

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

#ifndef MUTANT_softmax_row
mm_status softmax_row(double *s, int n)
{
    MM_NEED_BUFFER(s);
    MM_NEED_POSITIVE(n);
    for (int j = 0; j < n; j++)
        if (isnan(s[j]) || s[j] == INFINITY)
            return mm_fail(MM_EINVAL, "softmax_row: s[%d] is %g", j, s[j]);
    double m = s[0];
    for (int j = 1; j < n; j++)
        if (s[j] > m) m = s[j];
    if (m == -INFINITY) {
        for (int j = 0; j < n; j++) s[j] = 0.0;
        return MM_OK;
    }
    double sum = 0.0;
    for (int j = 0; j < n; j++) {
        s[j] = exp(s[j] - m);
        sum += s[j];
    }
    for (int j = 0; j < n; j++) s[j] /= sum;
    return MM_OK;
}
#endif

#ifndef MUTANT_sdpa
mm_status sdpa(double *out, double *weights, const double *q, const double *k,
               const double *v, const double *bias, int T_q, int T_k, int d_k, int d_v)
{
    SDPA_CHECK_ARGS();
    double *row = weights ? NULL : malloc((size_t)T_k * sizeof *row);
    if (!weights && !row) return mm_fail(MM_ENOMEM, "sdpa: no memory");
    double scale = 1.0 / sqrt((double)d_k);
    mm_status st = MM_OK;
    for (int i = 0; i < T_q && st == MM_OK; i++) {
        double *a = weights ? weights + (size_t)i * T_k : row;
        if (mm_matmul(a, q + (size_t)i * d_k, k, 1, d_k, T_k, true) != MM_OK)
            st = mm_fail(MM_ERANGE, "sdpa: a score of query %d overflows", i);
        for (int j = 0; j < T_k && st == MM_OK; j++) {
            a[j] *= scale;
            if (bias) a[j] += bias[(size_t)i * T_k + j];
            if (a[j] == INFINITY) st = mm_fail(MM_ERANGE, "sdpa: score (%d, %d) overflows", i, j);
        }
        if (st == MM_OK) st = softmax_row(a, T_k);
        if (st == MM_OK) st = mm_matmul(out + (size_t)i * d_v, a, v, 1, T_k, d_v, false);
    }
    free(row);
    return st;
}
#endif
static mm_status plain_softmax(double *s, int n)
{
    double sum = 0.0;
    for (int j = 0; j < n; j++) sum += s[j] = exp(s[j]);
    for (int j = 0; j < n; j++) s[j] /= sum;
    return MM_OK;
}
#define FULL_SOFTMAX plain_softmax
/* full.h - an sdpa in another style than base.h's, for the subjects that
 * write the full score matrix first (ok-full-matrix.c and the mutants of
 * the softmax inside sdpa): S = Q K^T (T_q, T_k) with mm_matmul, scaled,
 * the bias added, then each row's softmax by FULL_SOFTMAX(row, n) - which a
 * subject defines (softmax_row, the right way) or writes with its mistake -
 * and out = W V. The matrix is the caller's weights, or calloc'd. */
#ifndef FULL_SCALE
#define FULL_SCALE(d_k) (1.0 / sqrt((double)(d_k)))
#endif
#ifndef FULL_SCORE
#define FULL_SCORE(s, b) ((s) * scale + (b))
#endif
mm_status sdpa(double *out, double *weights, const double *q, const double *k,
               const double *v, const double *bias, int T_q, int T_k, int d_k, int d_v)
{
    SDPA_CHECK_ARGS();
    double *w = weights ? weights : calloc((size_t)T_q * T_k, sizeof *w);
    if (!w) return mm_fail(MM_ENOMEM, "sdpa: no memory");
    double scale = FULL_SCALE(d_k);
    mm_status st = MM_OK;
    if (mm_matmul(w, q, k, T_q, d_k, T_k, true) != MM_OK)             /* (T_q, T_k) */
        st = mm_fail(MM_ERANGE, "sdpa: a score overflows");
    for (int i = 0; i < T_q * T_k && st == MM_OK; i++) {
        w[i] = FULL_SCORE(w[i], bias ? bias[i] : 0.0);
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
