/* Generated from the book: book/en/90-core.nw (the Spanish edition tangles
 * the same bytes). Edit the chapter, not this file. */
/* matrix.h - the one matrix product of the minimodel library.
 * Matrices are row-major arrays of double: element (i, j) of an (n, m)
 * matrix is a[i * m + j]. The caller owns every buffer. */
#ifndef MINIMODEL_CORE_MATRIX_H
#define MINIMODEL_CORE_MATRIX_H

#include <stdbool.h>
#include "error.h"

/* mm_matmul - c = a b, or c = a b^T when b_transposed.
 *   c (n, m)                                   written
 *   a (n, k)                                   read
 *   b (k, m), or (m, k) when b_transposed      read
 * Checked, MM_EINVAL: no NULL buffer; n, k, m > 0; n k, k m and n m at
 * most MM_MAX_ELEMENTS; c shares no byte with a or b; a and b finite.
 * Checked, MM_ERANGE: c finite (finite inputs can overflow).
 * Unchecked: buffers of the stated sizes.
 * Aliasing: a and b may be the same buffer or overlap; c may touch neither.
 * On failure: MM_EINVAL leaves c unchanged; after MM_ERANGE c holds the
 * product, non-finite elements included.
 * Bits: the readable loops give an element of c the same bits whatever n
 * and m (its products summed in the order of p), so chapters 03-04 give a
 * prefix or a padded sequence the whole sequence's bits. With BLAS=openblas
 * that holds only within rounding (its kernels choose their summation by
 * shape and CPU); across builds, -march and CPUs, results agree within
 * rounding, never to the bit.
 * Exit: never, in the readable build; with BLAS=openblas, only while
 * OpenBLAS runs one thread (OPENBLAS_NUM_THREADS=1): with more, OpenBLAS
 * 0.3.21 ends the process when a malloc of its own fails in dgemm. */
mm_status mm_matmul(double *c, const double *a, const double *b,
                    int n, int k, int m, bool b_transposed);

/* mm_matmul_unchecked - the same product, for a caller that has checked a
 * and b once and multiplies pieces of them many times (chapter 02's sdpa,
 * one query at a time); it then looks at c itself.
 * Unchecked: everything mm_matmul checks; c may hold non-finite values. */
void mm_matmul_unchecked(double *c, const double *a, const double *b,
                         int n, int k, int m, bool b_transposed);

#endif
