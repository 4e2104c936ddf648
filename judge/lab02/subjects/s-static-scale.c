/* s-static-scale.c - sdpa computes 1/sqrt(d_k) once, on its first call, and
 * keeps it in a static variable. The first case (d_k = 2) passes; the next
 * (d_k = 3) fails, and passes when the harness runs it again alone in a
 * fresh process: state kept between calls.
 * run-only: sdpa
 * expect-exit: 1
 * expect: FAIL  sdpa, case 'fewer queries than keys: T_q=2 T_k=4 d_k=3 d_v=2': out is wrong (weights is wrong too)
 * expect: hint: this case passes when it is the first call in a fresh process; here it came after 1 earlier call in the same process (the first: sdpa(out, weights, q, k, v, NULL, 2, 2, 2, 2))
 */
#define MUTANT_sdpa
#include "base.h"
static double cached_scale(int d_k)
{
    static double scale;
    if (scale == 0.0) scale = 1.0 / sqrt((double)d_k);
    return scale;
}
#define ROW_SCALE(d_k) cached_scale(d_k)
#include "row.h"
