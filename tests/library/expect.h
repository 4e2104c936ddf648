/* expect.h - the comparisons and the random inputs that the library's
 * Criterion tests share (test_sdpa.c, test_mha.c, test_mask.c). Include it
 * after criterion/criterion.h. */
#ifndef TESTS_LIBRARY_EXPECT_H
#define TESTS_LIBRARY_EXPECT_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "minimodel/core/error.h"
#include "minimodel/core/rng.h"

/* expect_close - every |got[i] - exp[i]| within tol (n values) */
static inline void expect_close(const double *got, const double *exp, size_t n,
                                double tol, const char *what)
{
    for (size_t i = 0; i < n; i++)
        cr_assert(fabs(got[i] - exp[i]) <= tol,
                  "%s: element %zu is %.17g, expected %.17g (tolerance %g)",
                  what, i, got[i], exp[i], tol);
}

/* expect_same_bits - got and exp hold the same n doubles, bit for bit */
static inline void expect_same_bits(const double *got, const double *exp, size_t n,
                                    const char *what)
{
    for (size_t i = 0; i < n; i++)
        cr_assert(memcmp(&got[i], &exp[i], sizeof got[i]) == 0,
                  "%s: element %zu is %.17g, expected exactly %.17g", what, i,
                  got[i], exp[i]);
}

/* expect_same_products - the same values computed with products of other
 * shapes (a prefix vs the whole sequence, fused vs separate, hidden keys vs
 * no keys): bit for bit with the readable product, which sums every element
 * in the same order whatever the shape (the promise of core/matrix.h, within
 * one build); with OpenBLAS (make BLAS=openblas), whose kernels may sum in a
 * shape-dependent order, within 1e-12 of the largest magnitude. The bound:
 * two orders of a sum of k products differ by at most 2 gamma_k sum |a_p b_p|
 * (gamma_k = k u / (1 - k u), u = 2^-53; Higham, 2002, sec. 3.1); these
 * tests have k <= 64 and products of order 1, the softmax does not amplify
 * a change of its scores (its Jacobian's norm is at most 1), and a second
 * product adds the same again: about 4 x 64 x 1.1e-16 = 3e-14, well inside
 * 1e-12. */
static inline void expect_same_products(const double *got, const double *exp, size_t n,
                                        const char *what)
{
#ifdef MM_BLAS_OPENBLAS
    double big = 1.0;
    for (size_t i = 0; i < n; i++) if (fabs(exp[i]) > big) big = fabs(exp[i]);
    for (size_t i = 0; i < n; i++)
        cr_assert(fabs(got[i] - exp[i]) <= 1e-12 * big, "%s: element %zu is %.17g, "
                  "expected %.17g within 1e-12 x %g", what, i, got[i], exp[i], big);
#else
    expect_same_bits(got, exp, n, what);
#endif
}

/* rounds_below_overflow - whether a blend that overflows only by rounding
 * (DBL_MAX values, weights summing to 1) legitimately did not: never with
 * the readable loops, which add in a fixed order and overflow there; with
 * OpenBLAS, whose kernels choose their own order, when the call succeeded
 * with finite outputs (out, n values). Anything else is for the caller to
 * check as an overflow. */
static inline bool rounds_below_overflow(mm_status s, const double *out, size_t n)
{
#ifdef MM_BLAS_OPENBLAS
    if (s != MM_OK) return false;
    for (size_t i = 0; i < n; i++)
        cr_assert(isfinite(out[i]), "MM_OK with out[%zu] = %g: a non-finite output "
                  "must be MM_ERANGE", i, out[i]);
    return true;
#else
    (void)s; (void)out; (void)n;
    return false;
#endif
}

/* random_matrix - n values of std * N(0, 1) from the library's generator
 * seeded seed */
static inline void random_matrix(double *a, size_t n, double std, uint64_t seed)
{
    mm_rng r;
    mm_rng_seed(&r, seed);
    cr_assert_eq(mm_fill_normal(a, n, std, &r), MM_OK, "%s", mm_last_error());
}

#endif
