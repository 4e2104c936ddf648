/* Generated from the book: book/en/90-core.nw (the Spanish edition tangles
 * the same bytes). Edit the chapter, not this file. */
/* matrix.c - the readable reference product, loop order i-p-j */
#include <stddef.h>
#include "matrix.h"

/* check_matmul_args - the checked errors of mm_matmul */
static mm_status check_matmul_args(double *c, const double *a, const double *b,
                                   int n, int k, int m)
{
    const char *fn = "mm_matmul";
    MM_TRY(mm_need_buffer(fn, "c", c));
    MM_TRY(mm_need_buffer(fn, "a", a));
    MM_TRY(mm_need_buffer(fn, "b", b));
    MM_TRY(mm_need_positive(fn, "n", n));
    MM_TRY(mm_need_positive(fn, "k", k));
    MM_TRY(mm_need_positive(fn, "m", m));
    if (c == a || c == b)
        return mm_fail(MM_EINVAL, "%s: c must not be the same buffer as %s",
                       fn, c == a ? "a" : "b");
    return MM_OK;
}

/* mm_matmul - c = a b (or a b^T), row by row */
mm_status mm_matmul(double *c, const double *a, const double *b,
                    int n, int k, int m, bool b_transposed)
{
    MM_TRY(check_matmul_args(c, a, b, n, k, m));
    for (int i = 0; i < n; i++) {
        double *c_i = c + (size_t)i * m;          /* row i of C: (m) */
        const double *a_i = a + (size_t)i * k;    /* row i of A: (k) */
        if (b_transposed) {
            for (int j = 0; j < m; j++) {
                const double *b_j = b + (size_t)j * k;  /* row j of B: (k) */
                double dot = 0.0;
                for (int p = 0; p < k; p++) dot += a_i[p] * b_j[p];
                c_i[j] = dot;
            }
        } else {
            for (int j = 0; j < m; j++) c_i[j] = 0.0;
            for (int p = 0; p < k; p++) {
                const double *b_p = b + (size_t)p * m;  /* row p of B: (m) */
                for (int j = 0; j < m; j++) c_i[j] += a_i[p] * b_p[j];
            }
        }
    }
    return MM_OK;
}
