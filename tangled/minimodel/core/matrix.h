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
 * Checked: n, k, m > 0; no NULL buffer; c is not a or b.
 * Unchecked: buffers of the stated sizes; c does not partly overlap a or b.
 * Aliasing: a and b may be the same buffer; c may not be either.
 * On failure: c is unchanged. */
mm_status mm_matmul(double *c, const double *a, const double *b,
                    int n, int k, int m, bool b_transposed);

#endif
