/* Generated from the book: book/en/90-core.nw (the Spanish edition tangles
 * the same bytes). Edit the chapter, not this file. */
/* matrix.c - the readable reference product, loop order i-p-j; built
 * with -DMM_BLAS_OPENBLAS (make BLAS=openblas), OpenBLAS's dgemm instead */
#include <stddef.h>
#include "matrix.h"
#ifdef MM_BLAS_OPENBLAS
#include <cblas.h>
#endif

/* mm_matmul_unchecked - c = a b (or a b^T), row by row, no checks */
void mm_matmul_unchecked(double *c, const double *a, const double *b,
                         int n, int k, int m, bool b_transposed)
{
#ifdef MM_BLAS_OPENBLAS
    if (n == 1)                           /* one row: c = b^T a, or b a */
        cblas_dgemv(CblasRowMajor, b_transposed ? CblasNoTrans : CblasTrans,
                    b_transposed ? m : k, b_transposed ? k : m,
                    1.0, b, b_transposed ? k : m, a, 1, 0.0, c, 1);
    else                                  /* c = 1 a b + 0 c */
        cblas_dgemm(CblasRowMajor, CblasNoTrans,
                    b_transposed ? CblasTrans : CblasNoTrans, n, m, k,
                    1.0, a, k, b, b_transposed ? k : m, 0.0, c, m);
#else
    for (int i = 0; i < n; i++) {
        double *c_i = c + (size_t)i * m;          /* row i of C: (m) */
        const double *a_i = a + (size_t)i * k;    /* row i of A: (k) */
        if (b_transposed) {
            for (int j = 0; j < m; j++) {
                const double *b_j = b + (size_t)j * k;  /* row j of B: (k) */
                double dot = 0.0;
                #pragma omp simd reduction(+:dot)   /* partial sums in lanes */
                for (int p = 0; p < k; p++) dot += a_i[p] * b_j[p];
                c_i[j] = dot;
            }
        } else {
            for (int j = 0; j < m; j++) c_i[j] = 0.0;
            int p = 0;
            for (; p + 4 <= k; p += 4) {            /* four rows of B at once */
                const double *b0 = b + (size_t)p * m, *b1 = b0 + m,
                             *b2 = b1 + m, *b3 = b2 + m;    /* rows p..p+3 */
                double a0 = a_i[p], a1 = a_i[p + 1], a2 = a_i[p + 2],
                       a3 = a_i[p + 3];
                for (int j = 0; j < m; j++)           /* in the order of p */
                    c_i[j] = c_i[j] + a0 * b0[j] + a1 * b1[j]
                             + a2 * b2[j] + a3 * b3[j];
            }
            for (; p < k; p++) {                    /* the last k mod 4 rows */
                const double *b_p = b + (size_t)p * m;    /* row p of B: (m) */
                for (int j = 0; j < m; j++) c_i[j] += a_i[p] * b_p[j];
            }
        }
    }
#endif
}

/* mm_matmul - the checked product: arguments, the kernel, the result */
mm_status mm_matmul(double *c, const double *a, const double *b,
                    int n, int k, int m, bool b_transposed)
{
    MM_NEED_BUFFER(c);  MM_NEED_BUFFER(a);  MM_NEED_BUFFER(b);
    MM_NEED_POSITIVE(n);  MM_NEED_POSITIVE(k);  MM_NEED_POSITIVE(m);
    MM_NEED_SIZE_PRODUCT(n, k);  MM_NEED_SIZE_PRODUCT(k, m);
    MM_NEED_SIZE_PRODUCT(n, m);
    const mm_buffer bufs[] = { MM_BUFFER(c, (size_t)n * m),   /* output first */
                               MM_BUFFER(a, (size_t)n * k),
                               MM_BUFFER(b, (size_t)k * m) };
    MM_NEED_DISJOINT(bufs, 1);
    MM_NEED_FINITE(a, n, k);
    MM_NEED_FINITE(b, b_transposed ? m : k, b_transposed ? k : m);
    mm_matmul_unchecked(c, a, b, n, k, m, b_transposed);
    return mm_need_finite(MM_ERANGE, __func__, "c", c, n, m,
                          "the product overflows");
}
