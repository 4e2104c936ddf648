/* m-combine-transposed.c - mask_combine reads bias transposed, bias[j][i]
 * (bias[j * T_q + i]) for element (i, j), into a sum buffer of its own,
 * checking each pair it adds. Its sums are wrong wherever the masks are
 * not symmetric, and the hint names the transposed read. Its statuses are
 * wrong too: it finds an overflow where the random masks' pairs of
 * +-1e308 cancel, and misses the overflow of a pair off the diagonal; the
 * hint then says that a transposed read explains the status - not that an
 * overflow check is missing (it has one).
 * run-only: mask_combine
 * expect-exit: 1
 * expect: hint: you read bias transposed, bias[j][i] (bias[j * T_q + i]) for element (i, j)
 * expect-re: ^  FAIL  mask_combine, case 'random biases N\(0, 1\) with hidden keys, and 4 pairs of \+-1e308 whose sums cancel: T_q=T_k=[0-9]+ \(seed [0-9]+\)': returned MM_ERANGE \(3\) for valid arguments; expected MM_OK
 * expect-re: ^        hint: no sum overflows here: every bias\[i\]\[j\] \+ other\[i\]\[j\] is finite\. But bias\[[0-9]+\]\[[0-9]+\] \+ other\[[0-9]+\]\[[0-9]+\] = (-1e\+308 \+ \(-1e\+308\)|1e\+308 \+ 1e\+308) overflows
 * expect-re: ^        hint: bias\[[0-9]+\]\[[0-9]+\] \+ other\[[0-9]+\]\[[0-9]+\] = 1e\+308 \+ 1e\+308 overflows, and your mask_combine did not see it: a transposed read never adds those two
 * expect-not: hint: only a sum of two finite values that is not finite overflows
 * expect-not: hint: two finite values can add up to an infinity
 * expect-re: ^mask_combine +0 +8 +7$
 */
#define MUTANT_mask_combine
#include "base.h"
mm_status mask_combine(double *bias, const double *other, int T_q, int T_k)
{
    MASK_CHECK_ARGS(bias, T_q, T_k);
    MM_NEED_BUFFER(other);
    COMBINE_CHECK_OVERLAP();
    size_t n = (size_t)T_q * T_k;
    double *sum = malloc(n * sizeof *sum);
    if (!sum) return mm_fail(MM_ENOMEM, "mask_combine: no memory");
    for (int i = 0; i < T_q; i++)
        for (int j = 0; j < T_k; j++) {
            double b = bias[(size_t)j * T_q + i], o = other[(size_t)i * T_k + j];
            mm_status st = MM_OK;
            if (isnan(b) || isnan(o) || b == INFINITY || o == INFINITY)
                st = mm_fail(MM_EINVAL, "mask_combine: element (%d, %d) is not a mask value", i, j);
            else if (isfinite(b) && isfinite(o) && isinf(b + o))
                st = mm_fail(MM_ERANGE, "mask_combine: element (%d, %d) overflows", i, j);
            if (st != MM_OK) {
                free(sum);
                return st;
            }
            sum[(size_t)i * T_k + j] = b + o;
        }
    memcpy(bias, sum, n * sizeof *sum);
    free(sum);
    return MM_OK;
}
