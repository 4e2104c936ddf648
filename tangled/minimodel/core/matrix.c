/* Generated from the book: book/en/90-core.nw (the Spanish edition tangles
 * the same bytes). Edit the chapter, not this file. */
/* matrix.c - the readable reference product, loop order i-p-j in blocks
 * of rows of B; built with -DMM_BLAS_OPENBLAS (make BLAS=openblas),
 * OpenBLAS's dgemm instead */
#include <stddef.h>
#include "matrix.h"
#ifdef MM_BLAS_OPENBLAS
#include <cblas.h>
#else
enum { MM_BLOCK_P = 64 };     /* rows of B per block: (64, m), in L2 */

/* add_rows_of_b - row i of C += a_ip times row p of B, p0 <= p < p1,
 * one addition at a time in the order of p
 *   c_i (m) updated;  a_i (k), b (k, m) read */
static inline void add_rows_of_b(double *c_i, const double *a_i,
                                 const double *b, int m, int p0, int p1)
{
    int p = p0;
    for (; p + 4 <= p1; p += 4) {           /* four rows of B at once */
        const double *b0 = b + (size_t)p * m, *b1 = b0 + m,
                     *b2 = b1 + m, *b3 = b2 + m;    /* rows p..p+3 */
        double a0 = a_i[p], a1 = a_i[p + 1], a2 = a_i[p + 2],
               a3 = a_i[p + 3];
        for (int j = 0; j < m; j++)           /* in the order of p */
            c_i[j] = c_i[j] + a0 * b0[j] + a1 * b1[j]
                     + a2 * b2[j] + a3 * b3[j];
    }
    for (; p < p1; p++) {                 /* the last (p1 - p0) mod 4 rows */
        const double *b_p = b + (size_t)p * m;    /* row p of B: (m) */
        for (int j = 0; j < m; j++) c_i[j] += a_i[p] * b_p[j];
    }
}

/* add_rows_of_b_to_four - add_rows_of_b for rows i..i+3 of C and A,
 * each value of B read once for the four
 *   c_i (4, m) updated;  a_i (4, k), b (k, m) read */
static void add_rows_of_b_to_four(double *c_i, const double *a_i,
                                  const double *b, int k, int m,
                                  int p0, int p1)
{
    double *c0 = c_i, *c1 = c0 + m, *c2 = c1 + m, *c3 = c2 + m;
    int p = p0;
    for (; p + 4 <= p1; p += 4) {
        const double *b0 = b + (size_t)p * m, *b1 = b0 + m,
                     *b2 = b1 + m, *b3 = b2 + m;    /* rows p..p+3 of B */
        double a_blk[4][4];                 /* a_blk[r][q] = A[i + r][p + q] */
        for (int r = 0; r < 4; r++)
            for (int q = 0; q < 4; q++)
                a_blk[r][q] = a_i[(size_t)r * k + p + q];
        #pragma omp simd           /* columns in lanes, each sum as written */
        for (int j = 0; j < m; j++) {
            double v0 = b0[j], v1 = b1[j], v2 = b2[j], v3 = b3[j];
            c0[j] = c0[j] + a_blk[0][0] * v0 + a_blk[0][1] * v1
                          + a_blk[0][2] * v2 + a_blk[0][3] * v3;
            c1[j] = c1[j] + a_blk[1][0] * v0 + a_blk[1][1] * v1
                          + a_blk[1][2] * v2 + a_blk[1][3] * v3;
            c2[j] = c2[j] + a_blk[2][0] * v0 + a_blk[2][1] * v1
                          + a_blk[2][2] * v2 + a_blk[2][3] * v3;
            c3[j] = c3[j] + a_blk[3][0] * v0 + a_blk[3][1] * v1
                          + a_blk[3][2] * v2 + a_blk[3][3] * v3;
        }
    }
    for (int r = 0; r < 4; r++)          /* the last (p1 - p0) mod 4 rows */
        add_rows_of_b(c_i + (size_t)r * m, a_i + (size_t)r * k, b, m, p, p1);
}
#endif

/* mm_matmul_unchecked - c = a b (or a b^T), no checks */
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
    if (b_transposed) {
        for (int i = 0; i < n; i++) {
            double *c_i = c + (size_t)i * m;          /* row i of C: (m) */
            const double *a_i = a + (size_t)i * k;    /* row i of A: (k) */
            for (int j = 0; j < m; j++) {
                const double *b_j = b + (size_t)j * k;  /* row j of B: (k) */
                double dot = 0.0;
                #pragma omp simd reduction(+:dot)   /* partial sums in lanes */
                for (int p = 0; p < k; p++) dot += a_i[p] * b_j[p];
                c_i[j] = dot;
            }
        }
    } else {
        for (size_t x = 0; x < (size_t)n * m; x++) c[x] = 0.0;     /* C = 0 */
        int n4 = n - n % 4;              /* rows of C taken four at a time */
        for (int p0 = 0; p0 < k; p0 += MM_BLOCK_P) {  /* rows p0..p1-1 of B */
            int p1 = k - p0 < MM_BLOCK_P ? k : p0 + MM_BLOCK_P;
            for (int i = 0; i < n4; i += 4)      /* every four rows of A */
                add_rows_of_b_to_four(c + (size_t)i * m, a + (size_t)i * k, b,
                                      k, m, p0, p1);
        }
        for (int i = n4; i < n; i++)     /* the last n mod 4 rows: all of B */
            add_rows_of_b(c + (size_t)i * m, a + (size_t)i * k, b, m, 0, k);
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
