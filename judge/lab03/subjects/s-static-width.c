/* s-static-width.c - mha_split_heads computes the width of m, n_heads d_k,
 * once, on its first call, and keeps it in a static variable. The first
 * case (d_model = 4) passes; the next (d_model = 6) fails, and passes when
 * the harness runs it again alone in a fresh process: state kept between
 * calls.
 * run-only: mha_split_heads
 * expect-exit: 1
 * expect: hint: this case passes when it is the first call in a fresh process; here it came after 1 earlier call in the same process (the first: mha_split_heads(heads, m, 3, 2, 2))
 */
#include <stddef.h>
static size_t width_of(int n_heads, int d_k)
{
    static size_t width;
    if (width == 0) width = (size_t)n_heads * d_k;
    return width;
}
#define SPLIT_M(h, t, c) ((t) * width_of(n_heads, d_k) + (size_t)(h) * d_k + (c))
#include "base.h"
