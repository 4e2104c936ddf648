/* m-sdpa-no-size-product.c - sdpa checks that each size is positive but
 * not that each buffer's size, a product of two, fits (nor the overlaps,
 * whose byte ranges would have caught it): given T_q = d_k = 2^30 it reads
 * q as if it held 2^60 doubles and dies there; the crash comes with the
 * hint that a refusal would have had.
 * run-only: sdpa
 * expect-exit: 1
 * expect: sdpa, case 'T_q = d_k = 2^30'
 * expect: hint: each buffer's size is a product of two sizes, and it must fit
 */
#define ARGS_NO_PRODUCT
#define ARGS_NO_OVERLAP
#include "row.h"
