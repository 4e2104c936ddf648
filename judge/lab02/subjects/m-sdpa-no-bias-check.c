/* m-sdpa-no-bias-check.c - sdpa checks q, k and v but not the bias: a NaN
 * bias makes a NaN score, which softmax_row refuses (MM_EINVAL, the right
 * status by luck) - after sdpa has written its first row of weights; a
 * +inf bias makes an infinite score, refused with MM_ERANGE instead of
 * MM_EINVAL.
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'bias[1] = NaN': sdpa refused the call for bias[1] = NaN, as it should, but wrote weights first
 * expect: FAIL  sdpa, case 'bias[2] = +inf': returned MM_ERANGE (3) for bias[2] = +inf; expected MM_EINVAL (1)
 * expect: hint: check every argument - the pointers, the sizes, the overlaps, the values of q, k, v and bias - before the first write
 * expect: hint: q, k and v must be finite, and a bias finite or -inf
 * expect-re: ^sdpa +0 +20 +1$
 */
#define ARGS_NO_BIAS
#include "row.h"
