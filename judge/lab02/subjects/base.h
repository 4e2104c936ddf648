/* base.h - lab 02 solved the way a learner would write it, for the harness
 * self-test. Each subject .c file of judge/lab02/subjects/ includes it after
 * defining MUTANT_<function> for the one function it writes itself (with
 * one mistake); solution.c defines none. A subject that defines WRAP_sdpa
 * as well gets this sdpa as the static sdpa_rows, to call from its own.
 * sdpa goes query by query, scores with mm_matmul and calls softmax_row,
 * as the chapter does. */
#include <math.h>
#include <stdlib.h>
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/error.h"
#include "minimodel/core/matrix.h"
#include "lab.h"
#include "args.h"

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

#if !defined(MUTANT_sdpa) || defined(WRAP_sdpa)
#ifdef WRAP_sdpa
/* sdpa_rows - the sdpa below, for a subject that writes an sdpa of its own
 * around it (it defines MUTANT_sdpa and WRAP_sdpa) */
static mm_status sdpa_rows(double *out, double *weights, const double *q, const double *k,
                           const double *v, const double *bias, int T_q, int T_k, int d_k,
                           int d_v)
#else
mm_status sdpa(double *out, double *weights, const double *q, const double *k,
               const double *v, const double *bias, int T_q, int T_k, int d_k, int d_v)
#endif
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
